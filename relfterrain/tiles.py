"""Map tiles of the limitless world: the tile matrix set and the tile renderers.

The tile grid is in world metres (SPEC 1's x east, y north), with no map
projection: it is Leaflet's ``L.CRS.Simple`` and ipyleaflet's
``projections.Simple`` read with one map unit = one metre.

* Zoom ``z`` runs from :data:`MIN_ZOOM` (-6: 64 m a pixel) to
  :data:`MAX_ZOOM` (2: 1/4 m a pixel); a pixel is ``2**-z`` metres, so each
  zoom halves the metres per pixel and every tile is a grid at a dyadic step
  from a dyadic origin (the fast path of :meth:`Terrain.grid`).
* A tile is :data:`TILE_SIZE` (256) pixels square, ``256 * 2**-z`` metres.
  Tile ``(x, y)`` at zoom ``z`` covers world ``X`` in
  ``[x*span, (x+1)*span)`` and world ``Y`` in ``[-(y+1)*span, -y*span)``:
  tile columns grow east, tile rows grow south (the XYZ convention), and
  tile ``(0, 0)`` has its north-west corner at the world origin.
* Pixel ``(row, col)`` of a tile is the world point at its centre,
  ``(X0 + (col + 1/2) * m, Y1 - (row + 1/2) * m)`` with ``m = 2**-z``: row 0
  is the northern edge (north up, as every image relfterrain returns).
* Tiles exist where the whole tile lies inside ``+-2**26`` m
  (:data:`WORLD_LIMIT`), the domain where heights are exact (SPEC 10).

>>> from relfterrain import tiles
>>> tiles.tile_bounds(0, 91, -21)
TileBounds(west=23296.0, south=5120.0, east=23552.0, north=5376.0, metres_per_pixel=1.0)
"""

from __future__ import annotations

import math
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from ._fields import documented

__all__ = [
    "LAYERS",
    "STAR_LAYERS",
    "STAR_MIN_ZOOM",
    "MAX_ZOOM",
    "MIN_ZOOM",
    "TILE_SIZE",
    "WORLD_LIMIT",
    "TileBounds",
    "TileCache",
    "TileError",
    "height_range",
    "map_options",
    "render_stars_tile",
    "render_tile",
    "tile_bounds",
    "tile_matrix_set",
    "tile_png",
]

TILE_SIZE = 256
"""Pixels along each side of a tile."""
MIN_ZOOM = -6
"""The coarsest zoom: 64 metres a pixel, 16,384 m a tile."""
MAX_ZOOM = 2
"""The finest zoom: 1/4 metre a pixel, 64 m a tile."""
WORLD_LIMIT = 2.0**26
"""Tiles lie inside ``-WORLD_LIMIT <= X, Y <= WORLD_LIMIT`` metres (SPEC 10)."""

LAYERS: dict[str, str] = {
    "map": "The Forest's orienteering map (SPEC 15): kinds, contours at an interval "
           "for the zoom (index every fifth), north lines every 300 m, symbols",
    "hillshade": "Hillshade of the ground, sun in the north-west at 45 degrees",
    "height": "Ground height as a colour ramp (metres)",
    "terrarium": "Ground height encoded as Terrarium RGB: (R*256 + G + B/256) - 32768 m",
    "kinds": "Terrain kinds in the map's colours, no contours or symbols",
    "features": "Point features as dots on a transparent tile (zoom 0 and finer)",
}
"""The tile layers of a terrain and what each shows."""

STAR_LAYERS: dict[str, str] = {
    "stars": "The stars of the slab z = 1..300 light years in front of the observer, "
             "projected along z (maps.star_field); zoom -2 and finer",
}
"""The tile layers of a :class:`~relfterrain.Galaxy` (one map unit = one light year)."""
STAR_MIN_ZOOM = -2
"""The coarsest zoom of the star layer (4 light years a pixel)."""


class TileError(ValueError):
    """A tile request outside the tile matrix set (bad zoom, tile or layer)."""


@documented(
    west="World x of the tile's western edge (metres).",
    south="World y of the tile's southern edge (metres).",
    east="World x of the tile's eastern edge (metres).",
    north="World y of the tile's northern edge (metres).",
    metres_per_pixel="Size of a pixel, ``2**-z`` metres.",
)
class TileBounds(NamedTuple):
    """A tile's extent in world metres and its pixel size."""

    west: float
    south: float
    east: float
    north: float
    metres_per_pixel: float


def _as_int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        try:
            text = str(value)
            if not text.lstrip("-").isdigit() or len(text) > 12:
                raise ValueError
            return int(text)
        except ValueError:
            raise TileError(f"{name}: must be an integer, got {str(value)[:40]!r}") from None
    return int(value)


def tile_bounds(z: Any, x: Any, y: Any) -> TileBounds:
    """The world extent of tile ``(z, x, y)``; :class:`TileError` when it is not a tile.

    >>> tile_bounds(-6, 0, 0)
    TileBounds(west=0.0, south=-16384.0, east=16384.0, north=0.0, metres_per_pixel=64.0)
    """
    z, x, y = _as_int(z, "z"), _as_int(x, "x"), _as_int(y, "y")
    if not MIN_ZOOM <= z <= MAX_ZOOM:
        raise TileError(f"z: must be in {MIN_ZOOM}..{MAX_ZOOM}, got {z}")
    m = 2.0**-z
    span = TILE_SIZE * m
    n = int(WORLD_LIMIT / span)  # tiles from the origin to the limit
    if not -n <= x < n:
        raise TileError(f"x: tile column must be in {-n}..{n - 1} at zoom {z}, got {x}")
    if not -n <= y < n:
        raise TileError(f"y: tile row must be in {-n}..{n - 1} at zoom {z}, got {y}")
    return TileBounds(x * span, -(y + 1) * span, (x + 1) * span, -y * span, m)


def tile_matrix_set() -> dict[str, Any]:
    """The tile matrix set as a JSON-able dict (OGC TileMatrixSet-like, in metres)."""
    matrices = []
    for z in range(MIN_ZOOM, MAX_ZOOM + 1):
        m = 2.0**-z
        n = int(WORLD_LIMIT / (TILE_SIZE * m))
        matrices.append({
            "id": str(z), "cellSize": m, "tileWidth": TILE_SIZE, "tileHeight": TILE_SIZE,
            "pointOfOrigin": [-n * TILE_SIZE * m, n * TILE_SIZE * m],
            "cornerOfOrigin": "topLeft", "matrixWidth": 2 * n, "matrixHeight": 2 * n,
            "firstTile": [-n, -n],
        })
    return {
        "id": "RelfWorldMetres",
        "title": "The Relf world in metres (x east, y north), no projection",
        "crs": "LOCAL_CS[\"relfterrain world metres\"] (x east, y north, metres)",
        "orderedAxes": ["X", "Y"],
        "tileOrigin": "tile (0, 0) has its north-west corner at world (0, 0); "
                      "columns grow east, rows grow south",
        "tileMatrices": matrices,
    }


# -- colour ramps ---------------------------------------------------------------

# a hypsometric ramp: low green through tan and brown to near white
_RAMP_STOPS = np.array([0.0, 0.2, 0.45, 0.7, 0.88, 1.0])
_RAMP_RGB = np.array([(40, 110, 60), (120, 170, 90), (215, 200, 140), (170, 120, 70),
                      (140, 110, 100), (245, 245, 245)], dtype=np.float64)
_RAMP = np.stack([np.interp(np.linspace(0, 1, 256), _RAMP_STOPS, _RAMP_RGB[:, c])
                  for c in range(3)], axis=1).round().astype(np.uint8)


def height_range(terrain: Any) -> tuple[float, float]:
    """The heights the height ramp spans for ``terrain``: the 0.5 and 99.5
    percentiles of a 512 x 512 sample at 64 m around the origin (metres)."""
    h = terrain.height_grid(-16384, -16384, 512, 512, 64.0)
    lo, hi = np.percentile(h, [0.5, 99.5])
    if not hi > lo:
        hi = lo + 1.0
    return float(lo), float(hi)


def _grid_args(b: TileBounds, border: int = 0) -> tuple[float, float, int, int, float]:
    m = b.metres_per_pixel
    n = TILE_SIZE + 2 * border
    return b.west + (0.5 - border) * m, b.south + (0.5 - border) * m, n, n, m


def _height(terrain: Any, b: TileBounds, border: int = 0) -> np.ndarray:
    """Ground heights of the tile's pixel centres, north-first rows."""
    x0, y0, nx, ny, m = _grid_args(b, border)
    return terrain.height_grid(x0, y0, nx, ny, m, threads=1)[::-1]


def _hillshade(terrain: Any, b: TileBounds) -> np.ndarray:
    h = _height(terrain, b, border=1)
    m = b.metres_per_pixel
    # rows run north to south: d/dy (north) is -(row difference)
    dzdx = (h[1:-1, 2:] - h[1:-1, :-2]) / (2 * m)
    dzdy = (h[:-2, 1:-1] - h[2:, 1:-1]) / (2 * m)
    az, alt = math.radians(315.0), math.radians(45.0)
    # sun direction (east, north, up) from azimuth (clockwise from north) and altitude
    sx, sy, sz = math.sin(az) * math.cos(alt), math.cos(az) * math.cos(alt), math.sin(alt)
    shade = (sz - sx * dzdx - sy * dzdy) / np.sqrt(1.0 + dzdx * dzdx + dzdy * dzdy)
    v = np.clip(shade, 0.0, 1.0) * 255.0
    g = v.astype(np.uint8)
    return np.repeat(g[:, :, None], 3, axis=2)


_RAMP_WORDS = (_RAMP[:, 0].astype(np.uint32) | (_RAMP[:, 1].astype(np.uint32) << 8)
               | (_RAMP[:, 2].astype(np.uint32) << 16))  # little-endian R, G, B, 0


def _ramp(terrain: Any, b: TileBounds, rng: tuple[float, float]) -> np.ndarray:
    x0, y0, nx, ny, m = _grid_args(b)
    h = terrain.height_grid(x0, y0, nx, ny, m, threads=1)
    lo, hi = rng
    # in place: (h - lo) * 255 / (hi - lo), clipped to 0..255 and truncated
    np.subtract(h, lo, out=h)
    np.multiply(h, 255.0 / (hi - lo), out=h)
    np.clip(h, 0.0, 255.0, out=h)
    i = h.astype(np.uint8)[::-1]  # north-first rows
    # one 32-bit lookup a pixel, then its first three bytes
    return np.take(_RAMP_WORDS, i).view(np.uint8).reshape(ny, nx, 4)[:, :, :3]


def _terrarium(terrain: Any, b: TileBounds) -> np.ndarray:
    x0, y0, nx, ny, m = _grid_args(b)
    h = terrain.height_grid(x0, y0, nx, ny, m, threads=1)
    # (h + 32768) in 1/256 m, floored: 256 * R + G + B / 256 with
    # R, G = divmod(floor(v), 256) and B = floor(256 * frac(v)) (v * 256 is exact)
    np.add(h, 32768.0, out=h)
    np.clip(h, 0.0, 65535.99609375, out=h)
    np.multiply(h, 256.0, out=h)
    np.floor(h, out=h)
    q = h.astype(">u4")[::-1]  # big-endian bytes: 0, R, G, B
    return q.view(np.uint8).reshape(ny, nx, 4)[:, :, 1:]


def _kinds(terrain: Any, b: TileBounds) -> np.ndarray:
    from .maps import terrain_colours

    x0, y0, nx, ny, m = _grid_args(b)
    # terrain_colours takes SPEC 1's south-first rows and returns north up
    return terrain_colours(terrain.terrain_grid(x0, y0, nx, ny, m, threads=1))


def map_options(metres_per_pixel: float) -> dict[str, Any]:
    """The map options of a tile at ``metres_per_pixel``: an orienteering map
    at every zoom, as :func:`relfterrain.maps.orienteering_map` draws it.

    The contour interval is :func:`relfterrain.maps.auto_interval` of the
    pixel (5 at 2 px a metre, 10 at 1, 20 at 1/2 ...: the lines stay some ten
    pixels apart), magnetic-north lines every 300 m while they are at least
    75 pixels apart, and point symbols and buildings where a pixel is at most
    2 m (coarser, they would be specks costing a scan of every metre of the
    tile).

    >>> map_options(8.0)
    {'interval': 100.0, 'north_lines': None, 'features': False, 'buildings': False}
    >>> map_options(0.5)
    {'interval': 5.0, 'north_lines': 300.0, 'features': True, 'buildings': True}
    """
    from .maps import auto_interval

    m = float(metres_per_pixel)
    detail = m <= 2.0
    return {"interval": auto_interval(m), "north_lines": 300.0 if m <= 4.0 else None,
            "features": detail, "buildings": detail}


def _map(terrain: Any, b: TileBounds) -> np.ndarray:
    x0, y0, nx, ny, m = _grid_args(b)
    return np.asarray(terrain.map(x0, y0, nx, ny, m, threads=1, **map_options(m)))


_FEATURE_RGBA = (200, 0, 140, 255)


def _features(terrain: Any, b: TileBounds) -> np.ndarray:
    out = np.zeros((TILE_SIZE, TILE_SIZE, 4), np.uint8)
    m = b.metres_per_pixel
    if m > 1.0:  # a feature a few metres apart: too dense to draw below zoom 0
        return out
    x0, y0 = math.ceil(b.west), math.ceil(b.south)
    nx, ny = math.ceil(b.east) - x0, math.ceil(b.north) - y0
    f = terrain.feature_grid(x0, y0, nx, ny, threads=1)
    r, c = np.nonzero(f)
    if r.size == 0:
        return out
    col = ((x0 + c - b.west) / m).astype(np.int64)
    row = ((b.north - (y0 + r)) / m).astype(np.int64)
    radius = max(1, int(round(0.6 / m)))
    for dr in range(-radius, radius + 1):
        for dc in range(-radius, radius + 1):
            if dr * dr + dc * dc > radius * radius:
                continue
            rr, cc = row + dr, col + dc
            ok = (rr >= 0) & (rr < TILE_SIZE) & (cc >= 0) & (cc < TILE_SIZE)
            out[rr[ok], cc[ok]] = _FEATURE_RGBA
    return out


def render_stars_tile(galaxy: Any, z: Any, x: Any, y: Any) -> np.ndarray:
    """The ``"stars"`` tile ``(z, x, y)`` of ``galaxy``: RGB uint8, north up, one map
    unit a light year; the slab ``1 <= z <= 300`` (that of
    :data:`~relfterrain.INITIAL_VIEW`) projected along z by
    :func:`relfterrain.maps.star_field` with ``edges="cut"`` (the stars just
    outside the tile are drawn too, so a star on a tile's edge is whole across
    the two tiles and tiles join without a seam). Tiles exist at zoom
    :data:`STAR_MIN_ZOOM` .. :data:`MAX_ZOOM` inside the galaxy's domain.

    >>> import relfterrain as rt
    >>> render_stars_tile(rt.Galaxy(), 0, -1, -1).shape
    (256, 256, 3)
    """
    from .galaxy import GALAXY_DOMAIN, INITIAL_VIEW
    from .maps import star_field

    b = tile_bounds(z, x, y)
    if int(z) < STAR_MIN_ZOOM:
        raise TileError(f"z: the star layer has zoom {STAR_MIN_ZOOM}..{MAX_ZOOM}, got {z}")
    if max(abs(b.west), abs(b.east), abs(b.south), abs(b.north)) > GALAXY_DOMAIN:
        raise TileError(f"x, y: tile ({x}, {y}) at zoom {z} lies outside the galaxy "
                        f"(+-{GALAXY_DOMAIN:g} light years)")
    n = int(b.east - b.west)
    block = (int(b.west), int(b.south), INITIAL_VIEW.z0, n, n, INITIAL_VIEW.nz)
    return star_field(galaxy, block, scale=1.0 / b.metres_per_pixel, edges="cut", threads=1)


def render_tile(terrain: Any, layer: str, z: Any, x: Any, y: Any, *,
                height_span: tuple[float, float] | None = None) -> np.ndarray:
    """The RGB (or RGBA for ``"features"``) uint8 image of one tile, north up.

    ``height_span`` is the ``(low, high)`` of the ``"height"`` ramp (default
    :func:`height_range`). Raises :class:`TileError` for an unknown layer or
    a tile outside the tile matrix set.

    >>> import relfterrain as rt
    >>> render_tile(rt.Terrain(), "terrarium", 0, 91, -21).shape
    (256, 256, 3)
    """
    if not isinstance(layer, str) or layer not in LAYERS:
        raise TileError(f"layer: must be one of {sorted(LAYERS)}, got {str(layer)[:40]!r}")
    b = tile_bounds(z, x, y)
    if layer == "height":
        return _ramp(terrain, b, height_span or height_range(terrain))
    renderers: dict[str, Callable[[Any, TileBounds], np.ndarray]] = {
        "map": _map, "hillshade": _hillshade, "terrarium": _terrarium, "kinds": _kinds,
        "features": _features}
    return renderers[layer](terrain, b)


def tile_png(image: np.ndarray, level: int = 1) -> bytes:
    """A tile image (uint8 RGB or RGBA, ``(h, w, 3 or 4)``) as PNG bytes.

    Every row is written with PNG filter 0 (none) and deflated by zlib at
    ``level`` (1: fastest). Pillow tries five filters on every row of an RGB
    image, which costs ten times as much on a tile for a file of the same size
    (``benchmarks/bench_tiles.py`` prints both); any PNG reader reads these.

    >>> tile_png(np.zeros((2, 3, 3), np.uint8))[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    a = np.asarray(image)
    if a.dtype != np.uint8 or a.ndim != 3 or a.shape[2] not in (3, 4) or 0 in a.shape:
        raise ValueError(f"image: must be a non-empty uint8 (h, w, 3 or 4) array, "
                         f"got {a.dtype} {a.shape}")
    h, w, c = a.shape
    rows = np.zeros((h, 1 + w * c), np.uint8)  # a 0 (filter: none) before each row
    rows[:, 1:] = a.reshape(h, w * c)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", w, h, 8, 6 if c == 4 else 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows.tobytes(), level)) + chunk(b"IEND", b""))


class TileCache:
    """A thread-safe LRU cache of tile bytes bounded by their total size.

    >>> c = TileCache(max_bytes=10)
    >>> c.put("a", b"12345"); c.put("b", b"123456"); c.get("a") is None
    True
    """

    def __init__(self, max_bytes: int = 64 * 2**20) -> None:
        self.max_bytes = int(max_bytes)
        self._data: OrderedDict[Any, bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: Any) -> bytes | None:
        with self._lock:
            v = self._data.get(key)
            if v is not None:
                self._data.move_to_end(key)
            return v

    def put(self, key: Any, value: bytes) -> None:
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._size -= len(old)
            if len(value) > self.max_bytes:
                return
            self._data[key] = value
            self._size += len(value)
            while self._size > self.max_bytes:
                _, v = self._data.popitem(last=False)
                self._size -= len(v)

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)

    @property
    def nbytes(self) -> int:
        """Total bytes held."""
        with self._lock:
            return self._size


