"""NetCDF-4 files written with h5netcdf alone, as xarray writes them.

The command line's ``grid ... -o x.nc`` writes an in-memory grid through
:func:`write` rather than ``Dataset.to_netcdf``, so that it does not import
xarray, pandas and Dask (three quarters of its time on a 4096 x 4096 grid).
The file is the one xarray's ``h5netcdf`` engine writes from
:func:`relfterrain.dataset.make_dataset`'s Dataset: the same variables,
dimensions (HDF5 dimension scales), attributes, ``_FillValue`` NaN on
floating-point variables and a ``coordinates`` attribute naming the
non-dimension coordinates; ``xarray.open_dataset`` reads both the same
(tested with ``identical``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np


def available() -> bool:
    """Are h5netcdf and h5py installed (without importing them)?"""
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("h5netcdf", "h5py"))


def write(path: str, data_vars: dict[str, Any], coords: dict[str, Any],
          attrs: dict[str, Any], *, window: Any = None, band_points: int = 1 << 20,
          on_band: Callable[[int], Any] | None = None) -> None:
    """Write ``{name: (dims, values, attrs)}`` variables and global ``attrs``.

    Dimensions are the coordinates named as their dimension (``x``, ``y``);
    every other coordinate (``spatial_ref``) is listed in the data variables'
    ``coordinates`` attribute, as CF and xarray have it.

    A data variable whose values are None comes from ``window`` (a
    :class:`relfterrain._window.GridWindow` of dims ``(y, x)``), computed and
    written in bands of about ``band_points`` points: the whole grid is
    never in memory, and each band is written while it is still in the cache.
    ``on_band(rows)`` is called after each band (a progress bar's update).
    """
    import h5netcdf

    dims: dict[str, int] = {}
    for d, v, _ in list(coords.values()) + list(data_vars.values()):
        shape = window.shape if v is None else np.shape(v)
        for name, n in zip((d,) if isinstance(d, str) else d, shape):
            dims.setdefault(name, int(n))
    other = " ".join(k for k, (d, _, _) in coords.items() if (d,) != (k,) and d != k)
    later = [k for k, (_, v, _) in data_vars.items() if v is None]
    with _ctrl_c_between_writes() as interrupted, h5netcdf.File(path, "w") as f:
        f.dimensions = dims
        for name, (d, values, vattrs) in list(coords.items()) + list(data_vars.items()):
            d = (d,) if isinstance(d, str) else tuple(d)
            if values is None:
                dtype = window.field_dtype(name)
                fill = {"fillvalue": dtype.type(np.nan)} if dtype.kind == "f" else {}
                var = f.create_variable(name, d, dtype, **fill)
            else:
                arr = np.asarray(values)
                fill = {"fillvalue": arr.dtype.type(np.nan)} if arr.dtype.kind == "f" else {}
                var = f.create_variable(name, d, arr.dtype, data=arr, **fill)
            for k, v in vattrs.items():
                var.attrs[k] = v
            if name in data_vars and other:
                var.attrs["coordinates"] = other
        for k, v in attrs.items():
            f.attrs[k] = v
        if later:
            _write_bands(f, window, tuple(later), band_points, on_band, interrupted)


def _write_bands(f: Any, window: Any, names: tuple[str, ...], band_points: int,
                 on_band: Callable[[int], Any] | None, interrupted: list) -> None:
    """The window's bands of rows into ``f``'s variables ``names``: the next
    band is computed (in C, without the GIL) while this one is written.
    ``interrupted`` fills when Ctrl-C is pressed (:func:`_ctrl_c_between_writes`)."""
    from concurrent.futures import ThreadPoolExecutor

    ny, nx = window.shape
    rows = max(1, band_points // max(nx, 1))
    bands = [(r0, min(ny, r0 + rows)) for r0 in range(0, ny, rows)]

    def compute(band: tuple[int, int]) -> dict[str, np.ndarray]:
        return window.select((slice(*band), slice(None)), names)

    # the h5py datasets under the variables (h5netcdf checks its dimensions on
    # every write, 7 lookups each: a sixth of the time; ours are fixed)
    variables = {name: getattr(f.variables[name], "_h5ds", f.variables[name]) for name in names}
    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(compute, bands[0])
        try:
            for k, (r0, r1) in enumerate(bands):
                values = pending.result()
                if k + 1 < len(bands):
                    pending = pool.submit(compute, bands[k + 1])
                for name in names:
                    variables[name][r0:r1, :] = values[name]
                    if interrupted:
                        raise KeyboardInterrupt
                if on_band is not None:
                    on_band(r1 - r0)
        except BaseException:
            pending.cancel()
            raise


@contextlib.contextmanager
def _ctrl_c_between_writes() -> Iterator[list]:
    """Ctrl-C raised between h5py's calls, not inside them.

    A KeyboardInterrupt raised while h5py runs one of its weak-reference
    callbacks is printed as "Exception ignored" and lost: the write went on.
    While Python's own handler is the one installed (on the main thread), a
    SIGINT is recorded in the list yielded, and the caller raises
    KeyboardInterrupt at its next safe point (after each variable's band).
    """
    import signal
    import threading

    seen: list = []
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield seen
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: seen.append(signum))
    try:
        yield seen
    finally:
        signal.signal(signal.SIGINT, previous)
        if seen:  # a Ctrl-C during the last write, or the closing
            raise KeyboardInterrupt
