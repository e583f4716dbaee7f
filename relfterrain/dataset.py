"""Terrain grids as xarray Datasets that GIS tools read right (needs ``relfterrain[xarray]``).

:meth:`relfterrain.Terrain.dataset` computes one in memory;
:func:`relfterrain.dask.dataset` and ``xr.open_dataset(..., engine="relfterrain")``
build the same Dataset lazily. All share :func:`make_dataset`, so their
metadata are the same.

Conventions (those xarray-spatial, rioxarray, rasterio/GDAL and QGIS assume):

* dims ``(y, x)``, **rows north to south** (``y`` descending), coordinates at
  the cell centres: cell ``[r, c]`` is the square of side ``step`` centred on
  the sample point ``(x[c], y[r])``. (The NumPy grids of
  :meth:`Terrain.grid` keep SPEC 1's order, row 0 the southern edge.)
* the CRS the rioxarray / CF way: a ``spatial_ref`` coordinate with
  ``crs_wkt``, ``spatial_ref`` and ``GeoTransform``, each variable's
  ``grid_mapping`` naming it. By default the local engineering CRS of
  :mod:`relfterrain.crs` (metres, the world's own x and y).
* variables ``surface_height`` (terra's height: the water surface on lakes,
  the floor of quarries), ``ground_height`` (SPEC 4's ground,
  :meth:`Terrain.height_grid`: the lake bed on lakes), ``depth`` (lake water
  depth, 0 off lakes), ``terrain`` and ``feature`` (uint8 codes, CF
  ``flag_values`` / ``flag_meanings``).
* **Plotting categories.** xarray's own ``ds.terrain.plot()`` cannot show
  them: xarray's plotting reads only ``long_name``/``standard_name`` and
  ``units`` from the attributes (checked on xarray 2026.9), so it draws the
  codes as numbers on a continuous colourbar, and nothing short of
  replacing xarray's plot function changes that. The documented way is the
  ``rt`` accessor, registered on every Dataset made here:
  ``ds.terrain.rt.plot()`` (the map's colours, a legend of the kinds
  present), ``ds.feature.rt.plot()`` (the map's symbols),
  ``ds.surface_height.rt.plot()`` (a colourbar in metres), and
  ``ds.rt.plot_terrain()``, ``ds.rt.plot_height()``,
  ``ds.rt.plot_hillshade()``, ``ds.rt.plot_features()``
  (:mod:`relfterrain.plot`, needs ``relfterrain[plot]``).
* provenance attributes (:mod:`relfterrain.provenance`).

Changed in 0.1 (issue 20): the Dataset's ``height`` is now
``surface_height`` (same values), ``ground_height`` is new, and the rows
run north to south (``ds.sortby("y")`` gives the old order).

>>> import relfterrain as rt
>>> ds = rt.Terrain().dataset(23396, 5318, 800, 600, dtype="float32")
>>> dict(ds.sizes), ds.surface_height.dtype.name, ds.terrain.dtype.name
({'y': 600, 'x': 800}, 'float32', 'uint8')
>>> ds.terrain.attrs["flag_meanings"].split()[:4]
['LAKE', 'TOWN', 'GRASS', 'MOOR']
>>> float(ds.x[0]), float(ds.y[0]), float(ds.y[-1]), ds.surface_height.attrs["units"]
(23396.0, 5917.0, 5318.0, 'm')
>>> ds.spatial_ref.attrs["GeoTransform"]
'23395.5 1.0 0.0 5917.5 0.0 -1.0'
>>> int((ds.feature == rt.Feature.BOULDER).sum())
32
>>> bool((ds.ground_height <= ds.surface_height).all())
True
>>> rt.TerrainParams.from_dict(json.loads(ds.attrs["relfterrain_params"])) == rt.TerrainParams()
True
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from ._types import Feature, TerrainType
from .crs import Placement, geotransform, placement

__all__ = ["CF_CONVENTIONS", "LAZY_COORDS", "MAX_COORD", "VARIABLES", "dataset_parts",
           "flag_attrs", "grid_coords", "make_dataset", "terrain_window"]

#: The CF version whose attributes the Datasets carry.
CF_CONVENTIONS = "CF-1.8"
#: Datasets cover windows inside +-MAX_COORD metres (2**26).
MAX_COORD = float(2**26)
#: The data variables of a terrain Dataset, in order.
VARIABLES = ("surface_height", "ground_height", "depth", "terrain", "feature")


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
    """The grid's coordinates in SPEC 1's order, exactly the core's ``x0 + (c0 + c)*step``."""
    x = x0 + np.arange(c0, c0 + nx, dtype=np.int64).astype(np.float64) * step
    y = y0 + np.arange(r0, r0 + ny, dtype=np.int64).astype(np.float64) * step
    return x, y


def check_window(x0: float, y0: float, nx: int, ny: int, step: float) -> None:
    """Refuse a window reaching beyond +-2**26 m (ValueError naming the arguments)."""
    for name, lo, n in (("x0, nx", x0, nx), ("y0, ny", y0, ny)):
        hi = lo + float(n - 1) * step
        if lo < -MAX_COORD or hi > MAX_COORD:
            raise ValueError(f"{name}, step: the window [{lo!r}, {hi!r}] must lie within "
                             f"+-2**26 m ({MAX_COORD:.0f})")


def flag_attrs(enum_type: type[TerrainType] | type[Feature]) -> dict[str, Any]:
    """CF ``flag_values`` (uint8) and ``flag_meanings`` of an enum of codes."""
    return {
        "flag_values": np.array([int(m) for m in enum_type], dtype=np.uint8),
        "flag_meanings": " ".join(m.name for m in enum_type),
    }


def _variable_attrs(lake_height: float) -> dict[str, dict[str, Any]]:
    return {
        "surface_height": {
            "units": "m", "standard_name": "surface_altitude",
            "long_name": "surface height: the water surface on lakes (terra's height)",
            "comment": "relfterrain.Terrain.grid(...).height; on lakes the lake height "
                       f"({lake_height!r} m), on quarries the quarry floor"},
        "ground_height": {
            "units": "m",
            "long_name": "ground height: the lake bed on lakes (SPEC 4 calcHeight)",
            "comment": "relfterrain.Terrain.height_grid / Terrain.height"},
        "depth": {
            "units": "m",
            "long_name": "lake water depth (0 off lakes)"},
        "terrain": {"long_name": "terrain kind (relfterrain.TerrainType)",
                    **flag_attrs(TerrainType)},
        "feature": {"long_name": "point feature (relfterrain.Feature)", **flag_attrs(Feature)},
    }


def spatial_ref(place: Placement, x: np.ndarray, y: np.ndarray, step: float) -> dict[str, Any]:
    """The ``spatial_ref`` coordinate's attributes (rioxarray's and CF's)."""
    gt = geotransform(x, y, step)
    attrs: dict[str, Any] = dict(place.cf)
    attrs.update(crs_wkt=place.crs_wkt, spatial_ref=place.crs_wkt,
                 GeoTransform=" ".join(repr(float(v)) for v in gt))
    if place.is_local:
        attrs["long_name"] = "relfterrain local engineering CRS (metres, x east, y north)"
    return attrs


#: Windows longer than this many points on an axis get a lazy coordinate there
#: (an ``xarray.indexes.RangeIndex``: the values ``first + i*step`` made
#: when asked for) rather than an array of every value.
LAZY_COORDS = 1 << 22


def _axis_coord(xr: Any, name: str, first: float, step: float, n: int,
                attrs: dict[str, Any]) -> Any:
    from xarray.indexes.range_index import RangeCoordinateTransform, RangeIndex

    class GridIndex(RangeIndex):
        """A RangeIndex whose ``.sel`` snaps labels to the nearest sample by default."""

        def sel(self, labels: Any, method: Any = None, tolerance: Any = None) -> Any:
            label = labels[self.dim]
            if isinstance(label, slice) and label.step is None and method is None:
                # the samples within [start, stop], both ends included (as pandas)
                from xarray.core.indexing import IndexSelResult

                t = self.transform
                n = self.size
                lo, hi = 0, n - 1
                ends = [(v - t.start) / t.step for v in (label.start, label.stop)
                        if v is not None]
                if label.start is not None:
                    lo = max(lo, math.ceil(ends[0] - 1e-9))
                if label.stop is not None:
                    hi = min(hi, math.floor(ends[-1] + 1e-9))
                return IndexSelResult({self.dim: slice(lo, max(lo, hi + 1))})
            return super().sel(labels, method="nearest" if method is None else method,
                               tolerance=tolerance)

    tr = RangeCoordinateTransform(first, first + n * step, n, name, name, step=step)
    coords = xr.Coordinates.from_xindex(GridIndex(tr))
    coords[name].attrs.update(attrs)
    return coords


def dataset_parts(fields: dict[str, Any], terrain: Any, *, step: float,
                  window: tuple[float, float, int, int], place: Placement | None = None
                  ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], list]:
    """What :func:`make_dataset` wraps, without xarray: ``(data_vars, coords,
    attrs, lazy)``, the first two as ``{name: (dims, values, attrs)}``.

    ``lazy`` lists ``(name, first, step, n, attrs)`` for each axis longer than
    :data:`LAZY_COORDS` (its coordinate is not in ``coords``). The command
    line writes NetCDF from these parts (``relfterrain._netcdf``) without
    importing xarray; :func:`make_dataset` makes the Dataset of them.
    """
    from ._version import __version__
    from .provenance import provenance

    place = place if place is not None else placement()
    ox, oy = place.origin
    x0, y0, nx, ny = window
    xattrs = {"units": "m", "long_name": "x (east) of the cell centre",
              "standard_name": "projection_x_coordinate", "axis": "X"}
    yattrs = {"units": "m", "long_name": "y (north) of the cell centre",
              "standard_name": "projection_y_coordinate", "axis": "Y"}
    top = y0 + float(ny - 1) * step
    coords: dict[str, Any] = {}
    lazy: list = []
    if nx > LAZY_COORDS:
        lazy.append(("x", x0 + ox, step, nx, xattrs))
        corner_x = np.array([x0 + ox])
    else:
        x, _ = grid_coords(x0, y0, nx, 1, step)
        coords["x"] = ("x", x + ox, xattrs)
        corner_x = x + ox
    if ny > LAZY_COORDS:
        lazy.append(("y", top + oy, -step, ny, yattrs))
        corner_y = np.array([top + oy])
    else:
        _, y = grid_coords(x0, y0, 1, ny, step)
        coords["y"] = ("y", y[::-1] + oy, yattrs)
        corner_y = y[::-1] + oy
    coords["spatial_ref"] = ((), np.int64(0), spatial_ref(place, corner_x, corner_y, step))
    dims = ("y", "x")
    vattrs = _variable_attrs(float(terrain.lake_height))
    data_vars = {}
    for name in VARIABLES:
        if name in fields:
            data_vars[name] = (dims, fields[name], {**vattrs[name], "grid_mapping": "spatial_ref"})
    attrs = {
        "Conventions": CF_CONVENTIONS,
        "title": "Relf terrain",
        "source": f"relfterrain {__version__}: Graham Relf's terrain generator (The Forest)",
        "institution": "relfterrain",
        **provenance(terrain, *window, step),
        "relfterrain_origin": json.dumps(list(place.origin)),
        "relfterrain_rows": "north to south (y descending); cell-centre coordinates",
    }
    return data_vars, coords, attrs, lazy


def make_dataset(fields: dict[str, Any], terrain: Any, *, step: float,
                 window: tuple[float, float, int, int], place: Placement | None = None) -> Any:
    """An ``xarray.Dataset`` of one window's arrays (NumPy or Dask), dims ``(y, x)``.

    ``fields`` maps names of :data:`VARIABLES` to arrays with the rows north
    to south; ``window`` is ``(x0, y0, nx, ny)`` (SPEC 1: ``x0, y0`` the
    south-west sample point). The coordinates are the cell centres
    ``x0 + c*step`` and, descending, ``y0 + r*step`` (plus the origin),
    exactly the grid's doubles (lazy ``top - r*step`` beyond
    :data:`LAZY_COORDS` points an axis).
    """
    xr = xarray_module()
    data_vars, coords, attrs, lazy = dataset_parts(fields, terrain, step=step, window=window,
                                                   place=place)
    ds = xr.Dataset(data_vars, coords=coords, attrs=attrs)
    for name, first, axis_step, n, axis_attrs in lazy:
        ds = ds.assign_coords(_axis_coord(xr, name, first, axis_step, n, axis_attrs))
    # registers the ``rt`` accessor (ds.terrain.rt.plot(): categories with a
    # legend); matplotlib itself is imported only when a plot is drawn
    from . import plot  # noqa: F401
    return ds


def terrain_window(terrain: Any, x0: Any, y0: Any, nx: Any, ny: Any, step: Any = 1.0, *,
                   dtype: Any = None, threads: int | None = None) -> Any:
    """The in-memory Dataset's window, checked, nothing computed yet: a
    ``relfterrain._window.GridWindow`` with the rows north to south
    (``select`` computes what it is asked for)."""
    from . import _precision, _validate
    from ._validate import grid_args
    from ._window import GridWindow

    x0, y0, nx, ny, step, _, _ = grid_args(x0, y0, nx, ny, step)
    check_window(x0, y0, nx, ny, step)
    dt = _precision.height_dtype(dtype)
    return GridWindow(terrain, x0, y0, nx, ny, step, dt, north_up=True,
                      threads=_validate.threads(threads))


def terrain_dataset(terrain: Any, x0: Any, y0: Any, nx: Any, ny: Any, step: Any = 1.0, *,
                    dtype: Any = None, threads: int | None = None, crs: Any = None,
                    origin: Any = None) -> Any:
    """:meth:`relfterrain.Terrain.dataset` (see there)."""
    from ._validate import grid_args

    xarray_module()  # fail before computing
    check_window(*grid_args(x0, y0, nx, ny, step)[:5])  # the window's errors first
    place = placement(crs, origin)
    w = terrain_window(terrain, x0, y0, nx, ny, step, dtype=dtype, threads=threads)
    from ._window import FIELDS

    fields = w.select((slice(None), slice(None)), FIELDS)
    return make_dataset(fields, terrain, step=w.step, window=(w.x0, w.y0, w.nx, w.ny),
                        place=place)
