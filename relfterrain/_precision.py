"""float32 height outputs: the exact double results, rounded to nearest.

The C core computes every height as an IEEE double (SPEC 2). A float32
output is that double rounded to nearest (as NumPy's ``astype``), by the
core, row by row, each row from row buffers of its thread's in the cache
(``rt_height_grid_f32``, ``rt_terra_grid_f32``): no double array is made,
and a float32 grid costs 0.94-1.23x a float64 one (it was 1.5-4.1x when the
binding rounded bands of 2**20 points, AMD EPYC Zen 4, 2026-11-28). Where
the rows are computed (``out=`` in place or in a scratch copy, Ctrl-C
between blocks) follows the binding's one rule for every grid (``rtpy_rows``
in binding/helpers.c).
This module keeps the Python side: which dtype was asked for.
"""

from __future__ import annotations

from typing import Any

import numpy as np

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
