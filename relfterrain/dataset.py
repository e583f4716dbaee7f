"""Terrain grids as xarray Datasets with CF metadata (needs the ``xarray`` extra).

:meth:`relfterrain.Terrain.dataset` computes one in memory;
:func:`relfterrain.dask.dataset` builds the same Dataset lazily, block by block.
Both share :func:`make_dataset`, so their metadata are the same.

>>> import relfterrain as rt
>>> ds = rt.Terrain().dataset(23396, 5318, 800, 600, dtype="float32")
>>> dict(ds.sizes), ds.height.dtype.name, ds.terrain.dtype.name
({'y': 600, 'x': 800}, 'float32', 'uint8')
>>> ds.terrain.attrs["flag_meanings"].split()[:4]
['LAKE', 'TOWN', 'GRASS', 'MOOR']
>>> float(ds.x[0]), float(ds.y[-1]), ds.height.attrs["units"]
(23396.0, 5917.0, 'm')
>>> int((ds.feature == rt.Feature.BOULDER).sum())
32
>>> rt.TerrainParams.from_dict(json.loads(ds.attrs["relfterrain_params"])) == rt.TerrainParams()
True
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ._params import TerrainParams
from ._types import Feature, TerrainType

__all__ = ["CF_CONVENTIONS", "flag_attrs", "grid_coords", "make_dataset"]

#: The CF version whose attributes the Datasets carry.
CF_CONVENTIONS = "CF-1.8"


def xarray_module() -> Any:
    """``import xarray``, or an ImportError that names the extra to install."""
    try:
        import xarray
    except ImportError:
        raise ImportError(
            "Datasets need xarray: pip install 'relfterrain[xarray]'"
        ) from None
    return xarray


def grid_coords(x0: float, y0: float, nx: int, ny: int, step: float,
                r0: int = 0, c0: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The grid's coordinates, exactly the core's doubles ``x0 + (c0 + c)*step``."""
    x = x0 + np.arange(c0, c0 + nx, dtype=np.int64).astype(np.float64) * step
    y = y0 + np.arange(r0, r0 + ny, dtype=np.int64).astype(np.float64) * step
    return x, y


def flag_attrs(enum_type: type[TerrainType] | type[Feature]) -> dict[str, Any]:
    """CF ``flag_values`` (uint8) and ``flag_meanings`` of an enum of codes."""
    return {
        "flag_values": np.array([int(m) for m in enum_type], dtype=np.uint8),
        "flag_meanings": " ".join(m.name for m in enum_type),
    }


def make_dataset(x: np.ndarray, y: np.ndarray, height: Any, depth: Any, terrain: Any,
                 feature: Any, params: TerrainParams, *, step: float,
                 placed: int = 0) -> Any:
    """An ``xarray.Dataset`` of one grid's arrays (NumPy or Dask), dims ``(y, x)``.

    Variables ``height``, ``depth`` (metres), ``terrain`` and ``feature``
    (uint8 codes with CF ``flag_values`` / ``flag_meanings``); coordinates
    ``x`` and ``y`` in metres at the sample points; the parameters in the
    attributes ``relfterrain_params`` (JSON of :meth:`TerrainParams.to_dict`)
    and ``relfterrain_fingerprint``.
    """
    xr = xarray_module()
    from ._version import __version__

    dims = ("y", "x")
    coords = {
        "x": ("x", x, {"units": "m", "long_name": "x (east) of the sample point",
                       "standard_name": "projection_x_coordinate", "axis": "X"}),
        "y": ("y", y, {"units": "m", "long_name": "y (north) of the sample point",
                       "standard_name": "projection_y_coordinate", "axis": "Y"}),
    }
    data_vars = {
        "height": (dims, height, {
            "units": "m", "standard_name": "surface_altitude",
            "long_name": "terrain height (the water surface on lakes)"}),
        "depth": (dims, depth, {
            "units": "m", "long_name": "lake water depth (0 off lakes)"}),
        "terrain": (dims, terrain, {
            "long_name": "terrain kind (relfterrain.TerrainType)", **flag_attrs(TerrainType)}),
        "feature": (dims, feature, {
            "long_name": "point feature (relfterrain.Feature)", **flag_attrs(Feature)}),
    }
    attrs = {
        "Conventions": CF_CONVENTIONS,
        "title": "Relf terrain",
        "source": f"relfterrain {__version__}: Graham Relf's terrain generator (The Forest)",
        "relfterrain_params": json.dumps(params.to_dict(), sort_keys=True),
        "relfterrain_fingerprint": params.fingerprint(),
        "relfterrain_step": float(step),
        "relfterrain_placed": int(placed),
    }
    return xr.Dataset(data_vars, coords=coords, attrs=attrs)


def terrain_dataset(terrain: Any, x0: Any, y0: Any, nx: Any, ny: Any, step: Any = 1.0, *,
                    dtype: Any = None, threads: int | None = None) -> Any:
    """:meth:`relfterrain.Terrain.dataset` (see there)."""
    xarray_module()  # fail before computing
    g = terrain.grid(x0, y0, nx, ny, step, dtype=dtype, threads=threads)
    return make_dataset(g.x, g.y, g.height, g.depth, g.terrain, g.feature, terrain.params,
                        step=float(step), placed=len(terrain.placed))
