"""float32 height outputs: the exact double results, rounded, in row bands.

The C core computes every height as an IEEE double (SPEC 2). A float32
output is that double rounded to nearest (NumPy's ``astype``), computed in
bands of rows through a small double buffer, so a float32 grid needs no
full-size double array: the extra memory is one band (about 8 MiB).
A float32 store inside the C kernels was measured not to pay (the
conversion of a band costs a few per cent of computing it; see the guide's
page ``docs/guide/pipelines.md``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _core

#: Elements of the double buffer of one band (8 MiB).
BAND_ELEMENTS = 1 << 20

_HEIGHT_DTYPES = (np.dtype(np.float64), np.dtype(np.float32))


def height_dtype(dtype: Any, out: Any = None, out_name: str = "out") -> np.dtype:
    """The height dtype asked for: float64 (``None``, the default) or float32.

    An ``out`` array must have that dtype (a float32 ``out`` needs
    ``dtype="float32"``: no silent change of precision).
    """
    if dtype is None:
        dtype = np.float64
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"dtype: must be float32 or float64, got {dtype!r}") from None
    if dt not in _HEIGHT_DTYPES:
        raise ValueError(f"dtype: must be float32 or float64, got {dtype!r}")
    if isinstance(out, np.ndarray) and out.dtype != dt:
        raise TypeError(f"{out_name}: dtype must be {dt} (the dtype asked for), got {out.dtype}")
    return dt


def band_rows(nx: int) -> int:
    """Rows per band: at least 1, about :data:`BAND_ELEMENTS` points."""
    return max(1, BAND_ELEMENTS // nx)


def _output(out: Any, name: str, dtype: np.dtype, shape: tuple[int, int]) -> np.ndarray:
    if out is None:
        return np.empty(shape, dtype=dtype)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{name}: must be a numpy.ndarray, got {type(out).__name__}")
    if out.dtype != dtype:
        raise ValueError(f"{name}: dtype must be {dtype}, got {out.dtype}")
    if out.shape != shape:
        raise ValueError(f"{name}: shape must be {shape}, got {out.shape}")
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError(f"{name}: must be C-contiguous and writeable")
    return out


def _scratch(given: list[np.ndarray], bands: int) -> list[np.ndarray]:
    """Where to compute the caller's arrays (``out=``): with more than one
    band (Ctrl-C is honoured between bands), fresh arrays copied into
    ``given`` at the end, so an interrupted call leaves them untouched; in
    place when those would not fit in the physical memory (as the core's row
    blocks do)."""
    if bands <= 1 or not given:
        return given
    try:
        _core.check_alloc(sum(a.nbytes for a in given), "out")
    except MemoryError:
        return given
    return [np.empty_like(a) for a in given]


def height_grid32(core: Any, x0: float, y0: float, nx: int, ny: int, step: float,
                  r0: int, c0: int, out: Any, threads: int) -> np.ndarray:
    """``height_grid`` as float32: bands of doubles rounded into ``out``."""
    res = _output(out, "out", np.dtype(np.float32), (ny, nx))
    rows = band_rows(nx)
    work = _scratch([res], -(-ny // rows))[0] if out is not None else res
    buf = np.empty((min(rows, ny), nx), dtype=np.float64)
    for r in range(0, ny, rows):
        k = min(rows, ny - r)
        h = core.height_grid(x0, y0, nx, k, step, r0=r0 + r, c0=c0, out=buf[:k],
                             threads=threads)
        work[r:r + k] = h
    if work is not res:
        res[...] = work
    return res


def terra_grid32(core: Any, x0: float, y0: float, nx: int, ny: int, step: float,
                 r0: int, c0: int, outputs: tuple, threads: int) -> tuple:
    """``terra_grid`` with float32 height and depth, in bands of rows."""
    shape = (ny, nx)
    names = ("out[0] (height)", "out[1] (depth)", "out[2] (terrain)", "out[3] (feature)")
    dts: tuple[np.dtype, ...] = (np.dtype(np.float32), np.dtype(np.float32), np.dtype(np.uint8), np.dtype(np.uint8))
    res = [_output(None if o is True else o, n, d, shape)
           for o, n, d in zip(outputs, names, dts)]
    for k, a in enumerate(res):
        for m in range(k + 1, 4):
            if np.shares_memory(a, res[m]):
                raise ValueError(f"{names[k]}, {names[m]}: output arrays must not share memory")
    rows = band_rows(nx)
    n = min(rows, ny)
    # the caller's arrays computed in scratch when interruptible (see _scratch)
    given = [k for k, o in enumerate(outputs) if isinstance(o, np.ndarray)]
    fresh = _scratch([res[k] for k in given], -(-ny // rows))
    work = list(res)
    for k, a in zip(given, fresh):
        work[k] = a
    hbuf = np.empty((n, nx), dtype=np.float64)
    dbuf = np.empty((n, nx), dtype=np.float64)
    for r in range(0, ny, rows):
        k = min(rows, ny - r)
        h, d, _, _ = core.terra_grid(x0, y0, nx, k, step, r0=r0 + r, c0=c0,
                                     outputs=(hbuf[:k], dbuf[:k], work[2][r:r + k],
                                              work[3][r:r + k]),
                                     threads=threads)
        work[0][r:r + k] = h
        work[1][r:r + k] = d
    for k in given:
        if work[k] is not res[k]:
            res[k][...] = work[k]
    return tuple(res)
