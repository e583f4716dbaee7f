"""Files GIS tools read right: Cloud-Optimized GeoTIFFs and vectors.

* :func:`write_geotiff` (also :meth:`Terrain.to_geotiff` and the CLI's
  ``relfterrain grid ... -o area.tif``): one variable of
  :meth:`Terrain.dataset` as a Cloud-Optimized GeoTIFF (``relfterrain[geo]``:
  rioxarray, rasterio), north up, with the CRS, a nodata value (NaN for
  heights, 255 for the uint8 codes: no grid point has it), the provenance as
  GDAL metadata tags, written to a temporary file beside the target and
  renamed (a failed write leaves the old file). Read back with rasterio it
  is the grid bit for bit, and ``dataset.xy(row, col)`` is the world
  coordinates of that sample point.
* :func:`vectors`: streams (LineStrings), marshes (their 9 x 9 squares),
  roads (LineStrings), point features and good sites (Points) of an area as
  a GeoJSON FeatureCollection (``kind`` and the attributes of each in its
  properties), in the same CRS as the grids; :func:`to_geodataframe` makes
  a ``geopandas.GeoDataFrame`` of it in that CRS (``relfterrain[vector]``);
  :func:`write_geojson` writes it as GeoJSON: WGS 84 longitude/latitude
  (RFC 7946) for a world placed on Earth, or the local CRS's metres with a
  ``crs`` member that says so (see :func:`geojson_text`).

>>> import relfterrain as rt
>>> fc = vectors(rt.Terrain(), 23396, 5318, 800, 600, sites=([23400], [5320]))
>>> sorted({f["properties"]["kind"] for f in fc["features"]})
['feature', 'marsh', 'site', 'stream']
>>> s = next(f for f in fc["features"] if f["properties"]["kind"] == "stream")
>>> s["geometry"]["type"], sorted(s["properties"])
('LineString', ['end', 'kind', 'length', 'marsh', 'points', 'source_x', 'source_y'])
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from typing import Any

import numpy as np

from .crs import placement
from .dataset import VARIABLES

__all__ = ["geojson_text", "to_geodataframe", "vectors", "write_geojson", "write_geotiff"]

_TIF = (".tif", ".tiff")


def _geo_modules() -> tuple[Any, Any]:
    try:
        import rasterio
        import rioxarray  # noqa: F401  (the .rio accessor)
    except ImportError:
        raise ImportError("GeoTIFF output needs rioxarray and rasterio: "
                          "pip install 'relfterrain[geo]'") from None
    return rasterio, rioxarray


def check_output_path(path: Any, suffixes: tuple[str, ...], name: str = "path") -> str:
    """A path to write: str or PathLike, with one of ``suffixes``, in an existing,
    writable folder, not a folder itself (each a clear error naming ``name``)."""
    if isinstance(path, (bytes, bytearray)) or not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{name}: must be a str or os.PathLike, got {path!r:.80}")
    p = os.fspath(path)
    if not p or "\0" in p:
        raise ValueError(f"{name}: must be a non-empty path without NUL bytes, got {p!r:.80}")
    if not p.lower().endswith(suffixes):
        raise ValueError(f"{name}: must end in {' or '.join(suffixes)}, got {p!r}")
    folder = os.path.dirname(os.path.abspath(p))
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"{name}: the folder {folder!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(f"{name}: the folder {folder!r} is not writable")
    if os.path.isdir(p):
        raise IsADirectoryError(f"{name}: {p!r} is a folder")
    if os.path.lexists(p) and not os.path.isfile(p):
        raise ValueError(f"{name}: {p!r} exists and is not a regular file; refusing to replace it")
    return p


@contextlib.contextmanager
def _replacing(path: str, suffix: str) -> Any:
    """A temporary path beside ``path`` that replaces it on success (removed on failure)."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".part" + suffix,
                               dir=folder)
    os.close(fd)
    try:
        yield tmp
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_geotiff(source: Any, path: str | os.PathLike, x0: Any = None, y0: Any = None,
                  nx: Any = None, ny: Any = None, step: Any = 1.0, *,
                  variable: str = "ground_height", dtype: Any = None, crs: Any = None,
                  origin: Any = None, threads: int | None = None) -> None:
    """Write one variable as a Cloud-Optimized GeoTIFF, north up, with CRS and provenance.

    Parameters
    ----------
    source : Terrain or xarray.Dataset
        A terrain and the window ``x0, y0, nx, ny, step`` (computed here,
        ``dtype`` float64 by default), or a Dataset made by relfterrain
        (:meth:`Terrain.dataset`, :func:`relfterrain.dask.dataset`, the
        xarray backend; lazy ones are computed as they are written).
    path : str or PathLike
        ``*.tif`` or ``*.tiff``; replaced atomically.
    variable : str
        One of ``surface_height``, ``ground_height`` (default), ``depth``,
        ``terrain``, ``feature``.
    dtype : {None, "float64", "float32"}
        For a terrain: the heights' dtype. For a Dataset it must be that of
        the variable (None: as it is): a float64 variable is never rounded
        to float32 silently (ValueError naming ``dtype``).
    crs, origin
        As :meth:`Terrain.dataset` (a terrain source only).

    Every argument is checked before any work; the file is written beside
    the target and renamed, so a failed or interrupted write leaves no
    half-written file and the old file as it was.

    Examples
    --------
    >>> import os, tempfile, rasterio, relfterrain as rt
    >>> path = os.path.join(tempfile.mkdtemp(), "area.tif")
    >>> t = rt.Terrain()
    >>> t.to_geotiff(path, 23396, 5318, 64, 48)
    >>> with rasterio.open(path) as f:
    ...     band = f.read(1)
    ...     print(f.crs.to_wkt()[:40], [float(v) for v in f.xy(0, 0)])
    ...     print(f.tags()["relfterrain_window"])
    LOCAL_CS["relfterrain local grid (metres [23396.0, 5365.0]
    [23396.0, 5318.0, 64, 48]
    >>> bool((band == t.height_grid(23396, 5318, 64, 48)[::-1]).all())
    True
    """
    from . import _precision, _shared

    Terrain = _shared.terrain_class()  # noqa: N806 (the class)

    if not isinstance(variable, str) or variable not in VARIABLES:
        raise ValueError(f"variable: must be one of {', '.join(VARIABLES)}, got {variable!r}")
    p = check_output_path(path, _TIF)
    if isinstance(source, Terrain):
        if None in (x0, y0, nx, ny):
            raise TypeError("x0, y0, nx, ny: a terrain source needs the window")
        from ._validate import grid_args
        from .dataset import check_window

        gx0, gy0, gnx, gny, gstep, _, _ = grid_args(x0, y0, nx, ny, step)
        check_window(gx0, gy0, gnx, gny, gstep)
        placement(crs, origin)
        _precision.height_dtype(dtype)
        _geo_modules()
        ds = source.dataset(gx0, gy0, gnx, gny, gstep, dtype=dtype, threads=threads, crs=crs,
                            origin=origin)
    else:
        ds = source
        if not hasattr(ds, "data_vars") or "relfterrain_window" not in getattr(ds, "attrs", {}):
            raise TypeError(f"source: must be a relfterrain.Terrain or a Dataset made by "
                            f"relfterrain, got {type(source).__name__}")
        if crs is not None or origin is not None:
            raise ValueError("crs, origin: a Dataset source already has its CRS")
        if variable not in ds.data_vars:
            raise ValueError(f"variable: {variable!r} is not in the Dataset "
                             f"({', '.join(map(str, ds.data_vars))})")
        if dtype is not None:
            want = _precision.height_dtype(dtype)
            have = ds[variable].dtype
            if have.kind == "f" and want != have:
                raise ValueError(f"dtype: the Dataset's {variable} is {have}; writing it as "
                                 f"{want} would {'round' if want.itemsize < have.itemsize else 'widen'}"
                                 f" it (compute the Dataset with dtype={want.name!r})")
        _geo_modules()
    with _replacing(p, ".tif") as tmp:
        write_cog(ds, variable, tmp)


def write_cog(ds: Any, variable: str, path: str) -> None:
    """Write ``ds[variable]`` to ``path`` (a temporary file the caller renames) as a COG."""
    _geo_modules()
    da = ds[variable]
    nodata: Any = np.nan if da.dtype.kind == "f" else 255
    da = da.rio.write_crs(ds.spatial_ref.attrs["crs_wkt"]).rio.write_nodata(nodata)
    tags = {k: str(v) for k, v in ds.attrs.items() if k.startswith("relfterrain_")}
    tags["relfterrain_variable"] = variable
    tags["units"] = str(da.attrs.get("units", ""))
    tags["long_name"] = str(da.attrs.get("long_name", ""))
    if "flag_meanings" in da.attrs:
        tags["flag_values"] = " ".join(str(int(v)) for v in np.asarray(da.attrs["flag_values"]))
        tags["flag_meanings"] = str(da.attrs["flag_meanings"])
    predictor = 3 if da.dtype.kind == "f" else 2
    da.rio.to_raster(path, driver="COG", tags=tags, compress="DEFLATE", predictor=predictor,
                     BIGTIFF="IF_SAFER")


# -- vectors -----------------------------------------------------------------------


def _line(points: np.ndarray, ox: float, oy: float) -> dict[str, Any]:
    return {"type": "LineString",
            "coordinates": [[float(x) + ox, float(y) + oy] for x, y in points.tolist()]}


def _point(x: float, y: float, ox: float, oy: float) -> dict[str, Any]:
    return {"type": "Point", "coordinates": [float(x) + ox, float(y) + oy]}


def _feature(geometry: dict[str, Any], **props: Any) -> dict[str, Any]:
    return {"type": "Feature", "geometry": geometry, "properties": props}


def vectors(terrain: Any, x0: int, y0: int, nx: int, ny: int, *, streams: bool = True,
            features: bool = True, roads: bool = True, sites: Any = None,
            crs: Any = None, origin: Any = None, threads: int | None = None,
            **stream_options: Any) -> dict[str, Any]:
    """The vectors of an area as a GeoJSON FeatureCollection (a dict).

    Each feature's ``properties`` has ``kind`` and its attributes:

    * ``stream`` (LineString of :meth:`Terrain.streams`' routes):
      ``source_x``, ``source_y``, ``length`` (m), ``end`` (``"lake"``,
      ``"hollow"``, ``"limit"``), ``marsh``, ``points``;
    * ``marsh`` (Polygon: the 9 x 9 m square at the end of a stream that
      forms one): ``x``, ``y`` (its centre), ``stream`` (index of its stream);
    * ``road`` (LineString of :attr:`Terrain.roads`): ``index``,
      ``half_width``, ``length`` (m);
    * ``feature`` (Point of :meth:`Terrain.features`): ``feature`` (the
      :class:`Feature` name), ``code`` (its orienteering code, or ``""``),
      ``x``, ``y``;
    * ``site`` (Point of :meth:`Terrain.find_good_sites` from the starts
      ``sites=(xs, ys)``): ``ok``, ``altered``, ``reason``, ``tries``,
      ``start_x``, ``start_y``.

    Coordinates are in the CRS of :meth:`Terrain.dataset` with the same
    ``crs`` and ``origin`` (world ``(x, y)`` at ``origin + (x, y)``); the
    collection's ``relfterrain`` member holds ``crs_wkt`` and the
    provenance. ``stream_options`` go to :meth:`Terrain.streams`.
    """
    from ._types import Feature
    from .provenance import provenance
    from .sites import SiteReason

    place = placement(crs, origin)
    ox, oy = place.origin
    out: list[dict[str, Any]] = []
    if streams:
        for i, s in enumerate(terrain.streams(x0, y0, nx, ny, threads=threads,
                                              **stream_options)):
            out.append(_feature(_line(s.route, ox, oy), kind="stream",
                                source_x=int(s.source[0]), source_y=int(s.source[1]),
                                length=float(s.length), end=s.end, marsh=bool(s.marsh),
                                points=int(len(s.route))))
            if s.marsh:
                mx, my = (int(v) for v in s.route[-1])
                ring = [[mx - 4.5 + ox, my - 4.5 + oy], [mx + 4.5 + ox, my - 4.5 + oy],
                        [mx + 4.5 + ox, my + 4.5 + oy], [mx - 4.5 + ox, my + 4.5 + oy],
                        [mx - 4.5 + ox, my - 4.5 + oy]]
                out.append(_feature({"type": "Polygon", "coordinates": [ring]}, kind="marsh",
                                    x=mx, y=my, stream=i))
    if roads:
        for i, r in enumerate(terrain.roads):
            pts = np.asarray(r.points, dtype=np.float64)
            length = float(np.hypot(*np.diff(pts, axis=0).T).sum())
            out.append(_feature(_line(r.points, ox, oy), kind="road", index=i,
                                half_width=int(r.half_width), length=length))
    if features:
        ft = terrain.features(x0, y0, nx, ny, threads=threads)
        for x, y, f, code in zip(ft.x.tolist(), ft.y.tolist(), ft.feature.tolist(),
                                 ft.code.tolist()):
            out.append(_feature(_point(x, y, ox, oy), kind="feature", feature=Feature(f).name,
                                code=str(code), x=x, y=y))
    if sites is not None:
        try:
            sx, sy = sites
        except (TypeError, ValueError):
            raise TypeError(f"sites: must be a pair (xs, ys) of start points, "
                            f"got {sites!r:.80}") from None
        sx = np.atleast_1d(np.asarray(sx))
        sy = np.atleast_1d(np.asarray(sy))
        res = terrain.find_good_sites(sx, sy, threads=threads)
        for i in range(res.x.size):
            out.append(_feature(_point(res.x[i], res.y[i], ox, oy), kind="site",
                                ok=bool(res.ok[i]), altered=bool(res.altered[i]),
                                reason=SiteReason(int(res.reason[i])).name,
                                tries=int(res.tries[i]), start_x=float(sx.flat[i]),
                                start_y=float(sy.flat[i])))
    meta = provenance(terrain, float(x0), float(y0), int(nx), int(ny), 1.0)
    meta["crs_wkt"] = place.crs_wkt
    meta["relfterrain_origin"] = json.dumps(list(place.origin))
    return {"type": "FeatureCollection", "features": out, "relfterrain": meta}


def _map_coordinates(coords: Any, fn: Any) -> Any:
    """A GeoJSON coordinates array (any nesting) with every position mapped by ``fn``
    (which maps arrays of x and y)."""
    a = np.asarray(coords, dtype=np.float64)
    if a.size == 0:
        return coords
    flat = a.reshape(-1, 2)
    x, y = fn(flat[:, 0], flat[:, 1])
    return np.stack([x, y], axis=1).reshape(a.shape).tolist()


def geojson_text(collection: dict[str, Any]) -> str:
    """:func:`vectors`' collection as the GeoJSON text :func:`write_geojson` writes.

    RFC 7946 GeoJSON has one CRS, WGS 84 longitude and latitude (degrees):
    readers (GDAL, geopandas, QGIS, web maps) take the coordinates as such.

    * A world placed on Earth (``vectors(..., crs="EPSG:32630", origin=...)``,
      any projected CRS): the coordinates are transformed with pyproj into
      WGS 84 longitude, latitude (``relfterrain[geo]``), as RFC 7946 asks;
      the ``relfterrain`` member keeps ``crs_wkt`` (the rasters' CRS) and
      says so in ``geojson_coordinates``.
    * The local engineering CRS (the default; or an engineering CRS given):
      it has no place on Earth, so no WGS 84 coordinates exist. The
      coordinates stay the world's metres and the file says so: a ``crs``
      member (GeoJSON 2008's, which GDAL and so geopandas and QGIS read)
      holding the CRS's WKT, and ``geojson_coordinates`` in the
      ``relfterrain`` member. Such a file is not RFC 7946 GeoJSON: a reader
      that ignores ``crs`` would take metres for degrees.
    """
    if not isinstance(collection, dict) or collection.get("type") != "FeatureCollection":
        raise TypeError("collection: must be a GeoJSON FeatureCollection (relfterrain.gis.vectors)")
    from .crs import LOCAL_CRS_WKT

    meta = dict(collection.get("relfterrain", {}))
    wkt = meta.get("crs_wkt", LOCAL_CRS_WKT)
    out: dict[str, Any] = {"type": "FeatureCollection"}
    features = collection.get("features", [])
    earth = None
    if wkt != LOCAL_CRS_WKT:
        try:
            import pyproj
        except ImportError:
            raise ImportError("GeoJSON of a world placed in a CRS needs pyproj (WGS 84 "
                              "coordinates): pip install 'relfterrain[geo]'") from None
        c = pyproj.CRS.from_wkt(wkt)
        if c.is_projected:
            earth = pyproj.Transformer.from_crs(c, "EPSG:4326", always_xy=True)
    if earth is not None:
        meta["geojson_coordinates"] = ("WGS 84 longitude, latitude in degrees (RFC 7946), "
                                       "transformed from crs_wkt (the grids' CRS)")
        features = [{**f, "geometry": {**f["geometry"], "coordinates": _map_coordinates(
                        f["geometry"]["coordinates"], earth.transform)}}
                    for f in features]
    else:
        out["crs"] = {"type": "name", "properties": {"name": wkt}}
        meta["geojson_coordinates"] = ("metres in crs_wkt, a local engineering CRS (the "
                                       "world's own x east, y north), NOT WGS 84: the 'crs' "
                                       "member (GeoJSON 2008, read by GDAL) names it")
    out["features"] = features
    out["relfterrain"] = meta
    return json.dumps(out, allow_nan=False, separators=(",", ":"))


def write_geojson(collection: dict[str, Any], path: str | os.PathLike) -> None:
    """Write :func:`vectors`' collection as GeoJSON, atomically (checked first).

    The text is :func:`geojson_text`'s: WGS 84 longitude and latitude (RFC
    7946) for a world placed on Earth in a projected CRS; for the local CRS
    the world's metres, with a ``crs`` member that says so (GDAL, geopandas
    and QGIS read it). Read back with ``geopandas.read_file`` it has that
    CRS (EPSG:4326, or the local one).
    """
    if not isinstance(collection, dict) or collection.get("type") != "FeatureCollection":
        raise TypeError("collection: must be a GeoJSON FeatureCollection (relfterrain.gis.vectors)")
    p = check_output_path(path, (".geojson", ".json"))
    text = geojson_text(collection)
    with _replacing(p, ".geojson") as tmp, open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.write("\n")


def to_geodataframe(collection: dict[str, Any]) -> Any:
    """:func:`vectors`' collection as a ``geopandas.GeoDataFrame`` in its CRS
    (``relfterrain[vector]``); the provenance in ``gdf.attrs``."""
    try:
        import geopandas
    except ImportError:
        raise ImportError("GeoDataFrames need geopandas: "
                          "pip install 'relfterrain[vector]'") from None
    if not isinstance(collection, dict) or collection.get("type") != "FeatureCollection":
        raise TypeError("collection: must be a GeoJSON FeatureCollection (relfterrain.gis.vectors)")
    meta = collection.get("relfterrain", {})
    gdf = geopandas.GeoDataFrame.from_features(collection["features"],
                                               crs=meta.get("crs_wkt"))
    gdf.attrs.update({k: v for k, v in meta.items() if k != "crs_wkt"})
    return gdf
