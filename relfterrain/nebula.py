"""Nebulae: gas in 3-D space as "3-D islands" (SPEC 14; the seed's "3D space").

"Make the 3 coordinates completely independent ... consider an analogous
threshold value such that below the threshold there is empty space but above
it there is increasing density of gas." The density at (x, y, z) is
calcHeight with three vectors, ``j = (a[i]*x + b[i]*y + c[i]*z) * (1/128)``,
then the seed's floor, interpolation and sum; gas where density > threshold,
and its amount is ``density - threshold``.

>>> import relfterrain as rt
>>> nb = rt.Nebula(450.0)
>>> nb.density(0, 0, 0)
385.0
>>> g = nb.grid(0, 0, 0, 64, 64, 64)
>>> g.shape, g.dtype
((64, 64, 64), dtype('float64'))
>>> bool(nb.gas(0, 0, 0, 64, 64, 64).any())
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _core, _validate
from ._seed import CLASSIC_PROFILE, CLASSIC_VECTORS

__all__ = ["Nebula"]

#: The default third vector: the planet's CH (see :mod:`relfterrain.planet`).
DEFAULT_C = (11, -21, 25, -14, 19)


def _coords(values: dict[str, Any]) -> tuple[list[np.ndarray], tuple]:
    arrays = []
    for name, v in values.items():
        arrays.append(_validate.real_array(v, name))
    names = ", ".join(values)
    try:
        b = np.broadcast_arrays(*arrays)
    except ValueError:
        raise ValueError(f"{names}: shapes {[a.shape for a in arrays]} do not broadcast"
                         ) from None
    for name, a in zip(values, b):
        if not np.isfinite(a).all():
            raise ValueError(f"{name}: coordinates must be finite")
    return [np.ascontiguousarray(a).ravel() for a in b], b[0].shape


class Nebula:
    """Gas density in 3-D space and the gas above a threshold.

    Parameters
    ----------
    threshold : float
        Gas where the density exceeds it (finite). With the classic profile
        the density ranges over about 10 .. 690; at 450 about 4.6 % of space
        is gas (200,000 random points over +-100 km).
    profile : array-like, optional
        The profile (default: the classic one); length a power of two.
    a, b, c : sequence of int, optional
        The x, y and z factors of the directions (defaults: the terrain's
        ``AH``, ``BH`` and the planet's ``CH``), one common length.

    Examples
    --------
    >>> nb = Nebula(450.0)
    >>> nb.amount(0, 0, 0, 32, 32, 32)
    924564.796875
    """

    def __init__(self, threshold: float, *, profile: Any = None, a: Any = None, b: Any = None,
                 c: Any = None) -> None:
        self.threshold = _validate.real(threshold, "threshold")
        p = _validate.profile(profile, CLASSIC_PROFILE)
        self.profile = _validate.readonly(np.array(p, dtype=np.float64))
        vecs = []
        for name, v, default in (("a", a, CLASSIC_VECTORS["ah"]), ("b", b, CLASSIC_VECTORS["bh"]),
                                 ("c", c, DEFAULT_C)):
            vecs.append(_validate.vector(default if v is None else v, name))
        if len({v.size for v in vecs}) != 1:
            raise ValueError(f"a, b, c: vectors must have one common length, got "
                             f"{[v.size for v in vecs]}")
        self._vectors = _validate.readonly(np.array(vecs, dtype=np.float64))

    a = property(lambda self: self._vectors[0].astype(np.int64), doc="x factors.")
    b = property(lambda self: self._vectors[1].astype(np.int64), doc="y factors.")
    c = property(lambda self: self._vectors[2].astype(np.int64), doc="z factors.")

    def __repr__(self) -> str:
        return f"Nebula(threshold={self.threshold!r}, directions={self._vectors.shape[1]})"

    def density(self, x: Any, y: Any, z: Any, *, threads: int | None = 1) -> Any:
        """Density at ``(x, y, z)``, broadcasting; a float for three scalars.

        >>> Nebula(450).density([0, 1], 0, 5).tolist()
        [388.7109375, 390.5703125]
        """
        (xf, yf, zf), shape = _coords({"x": x, "y": y, "z": z})
        out = _core.nebula_points(self.profile, self._vectors, self.threshold, xf, yf, zf,
                                  threads=_validate.threads(threads))
        return float(out[0]) if shape == () else out.reshape(shape)

    def _block(self, x0: Any, y0: Any, z0: Any, nx: Any, ny: Any, nz: Any, step: Any,
               outputs: tuple, amount: bool, threads: int | None) -> tuple:
        x0, y0, z0 = (_validate.real(v, n) for v, n in ((x0, "x0"), (y0, "y0"), (z0, "z0")))
        nx, ny, nz = (_validate.integer(v, n, 1) for v, n in ((nx, "nx"), (ny, "ny"),
                                                              (nz, "nz")))
        step = _validate.real(step, "step")
        if step <= 0:
            raise ValueError(f"step: must be a positive number, got {step!r}")
        if nx * ny * nz > 2**40:
            raise ValueError(f"nx, ny, nz: a {nz} x {ny} x {nx} block is too large "
                             f"(at most 2**40 points)")
        return _core.nebula_grid(self.profile, self._vectors, self.threshold, x0, y0, z0,
                                 nx, ny, nz, step, outputs, amount=amount,
                                 threads=_validate.threads(threads))

    def grid(self, x0: float, y0: float, z0: float, nx: int, ny: int, nz: int,
             step: float = 1.0, *, dtype: Any = np.float64, out: np.ndarray | None = None,
             threads: int | None = None) -> np.ndarray:
        """Density on a 3-D grid: ``(nz, ny, nx)``, element ``[k, r, c]`` at
        ``(x0 + c*step, y0 + r*step, z0 + k*step)`` (SPEC 1's block for step 1).

        ``dtype`` float64 or float32 (the double density rounded once);
        ``out`` a C-contiguous array of that dtype and shape to fill and return.
        Every thread count gives the same bits.
        """
        if out is not None:
            _validate.out_array(out)
            dt = out.dtype
        else:
            dt = _validate.dtype(dtype, "dtype", ("float64", "float32"))
        if dt not in (np.float64, np.float32):
            raise TypeError(f"out: must be a float64 or float32 array, got {dt}")
        slot: Any = True if out is None else out
        outputs = (slot, None, None) if dt == np.float64 else (None, slot, None)
        (d64, d32, _), _amt = self._block(x0, y0, z0, nx, ny, nz, step, outputs, False, threads)
        return d64 if dt == np.float64 else d32

    def gas(self, x0: float, y0: float, z0: float, nx: int, ny: int, nz: int,
            step: float = 1.0, *, out: np.ndarray | None = None,
            threads: int | None = None) -> np.ndarray:
        """Boolean ``(nz, ny, nx)``: True where the density exceeds the threshold."""
        slot: Any = True if out is None else _validate.out_array(out)
        (_, _, g), _amt = self._block(x0, y0, z0, nx, ny, nz, step, (None, None, slot), False,
                                      threads)
        return g

    def amount(self, x0: float, y0: float, z0: float, nx: int, ny: int, nz: int,
               step: float = 1.0, *, threads: int | None = None) -> float:
        """The amount of gas in a block: the sum of ``density - threshold`` where positive.

        Summed along each row (x ascending) from 0.0, then the row sums in
        order (y, then z): the same value for every thread count. Multiply
        by ``step**3`` for a volume integral.
        """
        _, amt = self._block(x0, y0, z0, nx, ny, nz, step, (None, None, None), True, threads)
        return float(amt)
