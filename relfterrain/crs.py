"""Where a terrain lies: its coordinate reference system (CRS) and origin.

By default a terrain lies in :data:`LOCAL_CRS_WKT`, a local *engineering*
CRS: Cartesian, metres, x east and y north, its origin the world's
``(0, 0)``: the coordinates GIS files carry are then the world's own ``x``
and ``y``. To place the world on Earth, give a projected CRS in metres (any
form ``pyproj.CRS.from_user_input`` reads: ``"EPSG:32630"``, WKT, PROJ) and
the ``origin``: the CRS coordinates ``(easting, northing)`` of the world's
point ``(0, 0)``; a world point ``(x, y)`` then lies at
``(origin[0] + x, origin[1] + y)`` (the axes are not rotated or scaled).

>>> p = placement(None, None)
>>> p.origin, p.is_local
((0.0, 0.0), True)
>>> p.crs_wkt.startswith("ENGCRS")
True
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from ._fields import documented

__all__ = ["LOCAL_CRS_NAME", "LOCAL_CRS_WKT", "Placement", "placement"]

#: The name of the default CRS (GDAL keeps it in GeoTIFFs: ``LOCAL_CS["..."]``).
LOCAL_CRS_NAME = "relfterrain local grid (metres)"

#: The default CRS: the world's own x (east) and y (north), in metres (WKT2).
LOCAL_CRS_WKT = (
    f'ENGCRS["{LOCAL_CRS_NAME}",'
    'EDATUM["relfterrain world origin"],'
    'CS[Cartesian,2],'
    'AXIS["easting (X)",east,ORDER[1],LENGTHUNIT["metre",1]],'
    'AXIS["northing (Y)",north,ORDER[2],LENGTHUNIT["metre",1]]]'
)


@documented(
    crs_wkt="The CRS as WKT (the local engineering CRS in metres when none was given).",
    origin="Where the terrain's (0, 0) lies in that CRS, ``(easting, northing)``.",
    is_local="Whether the CRS is the local one (no map projection).",
    cf="CF grid-mapping attributes of the CRS (beyond ``crs_wkt``).",
)
class Placement(NamedTuple):
    """A checked CRS and origin."""

    crs_wkt: str
    origin: tuple[float, float]
    is_local: bool
    cf: dict[str, Any]


def _pyproj() -> Any:
    try:
        import pyproj
    except ImportError:
        raise ImportError("a CRS other than the local one needs pyproj: "
                          "pip install 'relfterrain[geo]'") from None
    return pyproj


def _origin(origin: Any) -> tuple[float, float]:
    from . import _validate

    if origin is None:
        return (0.0, 0.0)
    if isinstance(origin, (str, bytes)):
        raise TypeError(f"origin: must be a pair (easting, northing) of numbers, got {origin!r}")
    try:
        ox, oy = origin
    except (TypeError, ValueError):
        raise TypeError(f"origin: must be a pair (easting, northing) of numbers, "
                        f"got {origin!r:.80}") from None
    ox = _validate.real(ox, "origin")
    oy = _validate.real(oy, "origin")
    if max(abs(ox), abs(oy)) > 2.0**53:
        raise ValueError(f"origin: must be within +-2**53 m, got {origin!r}")
    return (ox, oy)


def placement(crs: Any = None, origin: Any = None) -> Placement:
    """Check a CRS and an origin, as :meth:`Terrain.dataset` takes them.

    ``crs`` None is :data:`LOCAL_CRS_WKT`; anything else must be a
    projected CRS whose axes are in metres (ValueError naming ``crs``
    otherwise: a geographic CRS in degrees cannot hold a world in metres).
    ``origin`` (default ``(0, 0)``) is a pair of finite numbers.
    """
    o = _origin(origin)
    if crs is None:
        return Placement(LOCAL_CRS_WKT, o, True, {})
    pyproj = _pyproj()
    if hasattr(crs, "to_wkt") and not isinstance(crs, pyproj.CRS):
        crs = crs.to_wkt()  # a rasterio CRS
    try:
        c = pyproj.CRS.from_user_input(crs)
    except (pyproj.exceptions.CRSError, TypeError, ValueError) as e:
        raise ValueError(f"crs: cannot be parsed ({e}); give e.g. 'EPSG:32630' or WKT, "
                         f"or None for the local grid") from None
    units = {a.unit_name for a in c.axis_info}
    if not (c.is_projected or c.is_engineering) or units - {"metre"}:
        raise ValueError(f"crs: must be a projected CRS in metres (the world's coordinates are "
                         f"metres), got {c.name!r} ({c.type_name}, units {sorted(units)})")
    try:
        cf = {k: v for k, v in c.to_cf().items() if k != "crs_wkt"}
    except Exception:  # noqa: BLE001 (a CRS CF cannot describe: WKT only)
        cf = {}
    return Placement(c.to_wkt(), o, False, cf)


def geotransform(x: Any, y: Any, step: float) -> tuple[float, float, float, float, float, float]:
    """GDAL's GeoTransform of a north-up grid with cell-centre coordinates ``x``, ``y``.

    ``(left, step, 0, top, 0, -step)``: the cell of sample ``[r, c]`` spans
    ``x[c] +- step/2`` and ``y[r] +- step/2``.
    """
    left = float(x[0]) - step / 2
    top = float(y[0]) + step / 2
    if not (math.isfinite(left) and math.isfinite(top)):
        raise ValueError("x0, y0, step: the grid's corner is not finite")
    return (left, float(step), 0.0, top, 0.0, -float(step))
