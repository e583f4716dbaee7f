"""float32 height outputs: the exact double results, rounded to nearest.

The C core computes every height as an IEEE double (SPEC 2). A float32
output is that double rounded to nearest (as NumPy's ``astype``). Heights
alone (``height_grid``) are rounded by the core row by row, each row from a
row buffer of its thread's, in the cache (``rt_height_grid_f32``): a float32
height grid costs 1.05-1.3x a float64 one (the conversion reads the cache
and writes half the bytes; it was 1.7-2.0x by bands, AMD EPYC Zen 4,
2026-11-28). Terra grids (``grid``, windows) are computed by the binding
(``terra_grid`` with ``float32=True``) in bands of :data:`BAND_ELEMENTS`
points through small double buffers, so a float32 grid needs no full-size
double array (the extra memory is one band, about 8 MiB). Where the rows are
computed (``out=`` in place or in a scratch copy, Ctrl-C between blocks)
follows the binding's one rule for every grid (``rtpy_rows`` in
binding/helpers.c).
This module keeps the Python side: which dtype was asked for.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: Elements of the double buffer of one band of a terra grid (8 MiB), passed
#: to the binding as ``band=`` (the binding's default is the same).
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
