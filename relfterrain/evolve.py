"""Terrain evolving in time (SPEC 14, the seed's "Evolution in time").

"It is very simple to add a third [array] for time ... If the factor for
adding in this third contribution is quite small we get slowly evolving
terrain." With a time vector T (``Terrain(time_vector=...)``), the height at
time t (seconds) is calcHeight with ``j = (AH[i]*x + BH[i]*y + T[i]*t) *
(1/128)``. At ``t = 0`` it is the static terrain's height bit for bit.

>>> import relfterrain as rt
>>> t = rt.Terrain(time_vector=True)          # T = 1 for every direction
>>> t.height(23400, 5320, 0) == rt.Terrain().height(23400, 5320)
True
>>> t.height(23400, 5320, [0, 60, 3600]).round(3)
array([266.125, 264.469, 168.688])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _core, _shared, _validate

__all__ = ["height", "height_grid"]


def _tvec(terrain: Any) -> np.ndarray:
    tv = terrain.params.time_vector
    if tv is None:
        raise ValueError("t: this terrain is static; make it with time_vector=True "
                         "(or a vector) to evolve it in time")
    return np.array(tv, dtype=np.float64)


def height(terrain: Any, x: Any, y: Any, t: Any, *, threads: int | None = 1) -> Any:
    """Height at ``(x, y)`` at time ``t`` (seconds), broadcasting x, y and t.

    A Python float when all three are scalars, else a float64 array of the
    broadcast shape (see :meth:`relfterrain.Terrain.height`).
    """
    arrays = []
    for name, v in (("x", x), ("y", y), ("t", t)):
        arrays.append(_validate.real_array(v, name))
    try:
        xb, yb, tb = np.broadcast_arrays(*arrays)
    except ValueError:
        raise ValueError(f"x, y, t: shapes {[a.shape for a in arrays]} do not broadcast"
                         ) from None
    for name, a in (("x", xb), ("y", yb), ("t", tb)):
        if not np.isfinite(a).all():
            raise ValueError(f"{name}: must be finite")
    shape = xb.shape
    out = _core.height_time_points(_shared.core(terrain), _tvec(terrain),
                                   np.ascontiguousarray(xb).ravel(),
                                   np.ascontiguousarray(yb).ravel(),
                                   np.ascontiguousarray(tb).ravel(),
                                   threads=_validate.threads(threads))
    return float(out[0]) if shape == () else out.reshape(shape)


def height_grid(terrain: Any, grid_args: tuple, t: Any, *, out: Any = None,
                threads: int | None = None) -> np.ndarray:
    """Height on a grid at time ``t``; ``grid_args`` as checked by the terrain."""
    x0, y0, nx, ny, step, r0, c0 = grid_args
    tt = _validate.real(t, "t")
    return _core.height_time_grid(_shared.core(terrain), _tvec(terrain), x0, y0, nx, ny, step, tt,
                                  r0=r0, c0=c0, out=out, threads=_validate.threads(threads))
