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

from typing import Any

import numpy as np


def available() -> bool:
    """Are h5netcdf and h5py installed (without importing them)?"""
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("h5netcdf", "h5py"))


def write(path: str, data_vars: dict[str, Any], coords: dict[str, Any],
          attrs: dict[str, Any]) -> None:
    """Write ``{name: (dims, values, attrs)}`` variables and global ``attrs``.

    Dimensions are the coordinates named as their dimension (``x``, ``y``);
    every other coordinate (``spatial_ref``) is listed in the data variables'
    ``coordinates`` attribute, as CF and xarray have it.
    """
    import h5netcdf

    dims: dict[str, int] = {}
    for d, v, _ in list(coords.values()) + list(data_vars.values()):
        for name, n in zip((d,) if isinstance(d, str) else d, np.shape(v)):
            dims.setdefault(name, int(n))
    other = " ".join(k for k, (d, _, _) in coords.items() if (d,) != (k,) and d != k)
    with h5netcdf.File(path, "w") as f:
        f.dimensions = dims
        for name, (d, values, vattrs) in list(coords.items()) + list(data_vars.items()):
            d = (d,) if isinstance(d, str) else tuple(d)
            arr = np.asarray(values)
            fill = {"fillvalue": arr.dtype.type(np.nan)} if arr.dtype.kind == "f" else {}
            var = f.create_variable(name, d, arr.dtype, data=arr, **fill)
            for k, v in vattrs.items():
                var.attrs[k] = v
            if name in data_vars and other:
                var.attrs["coordinates"] = other
        for k, v in attrs.items():
            f.attrs[k] = v
