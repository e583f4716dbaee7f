"""Maps as pictures (SPEC 15): orienteering maps and star fields as RGB arrays.

:func:`render` (also :meth:`relfterrain.Terrain.map`) draws a terrain as an
orienteering map, an RGB ``uint8`` array ``(ny, nx, 3)`` with **north up**:
row 0 of the image is the grid's last (northern) row, one pixel per grid
point. Layers, bottom to top: the terrain kinds by a palette lookup; marshes
(blue dashes on the vegetation under them) and streams; contours (CONREC's
geometry, index contours thicker); roads (dashed edges); buildings; point
features. Two palettes: ``"relf"`` (the author's own colours, SPEC 15) and
``"isom"`` (ISOM 2017-2 as OpenOrienteering Mapper's symbol set).

Also: :func:`save_png` / :func:`png_bytes` (Pillow, ``pip install
'relfterrain[maps]'``), :func:`star_field` for a :class:`~relfterrain.Galaxy`,
:func:`plot_map` for matplotlib axes in real coordinates, and
:func:`redesign`, an ipywidgets editor like the author's My Terrain.

>>> import relfterrain as rt
>>> img = rt.Terrain().map(*rt.CLASSIC_MAP, features=False, buildings=False)
>>> img.shape, img.dtype
((600, 800, 3), dtype('uint8'))
>>> PALETTES["relf"].terrain[rt.TerrainType.GRASS].tolist()
[253, 183, 59]
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from . import _core, _shared, _validate
from ._fields import documented
from ._files import atomic_write, target
from ._types import GRID_PNG, Feature, TerrainGrid, TerrainType

if TYPE_CHECKING:  # pragma: no cover
    from .galaxy import Galaxy
    from .terrain import Terrain

__all__ = [
    "NICE_INTERVALS",
    "PALETTES",
    "PNG_LEVEL",
    "STAR_COLOURS",
    "contour_points",
    "Palette",
    "plot_map",
    "png_bytes",
    "redesign",
    "auto_interval",
    "orienteering_map",
    "render",
    "save_png",
    "star_field",
    "star_margin",
    "terrain_colours",
]

RGB = tuple[int, int, int]


@documented(
    name='The palette\'s name (``"relf"`` or ``"isom"``).',
    terrain="``(13, 3)`` uint8, row ``k`` the colour of :class:`TerrainType` ``k`` (read-only).",
    contour='Contour lines.',
    black='Boulders, mineshafts, man-made objects, road edges.',
    brown='Knolls.',
    blue='Water holes, streams, marsh dashes.',
    green='Rootstocks.',
    building='Building squares.',
    building_edge='The edges of building squares.',
)
class Palette(NamedTuple):
    """The colours of a map: one per terrain kind and one per line or symbol."""

    name: str
    terrain: np.ndarray
    contour: RGB
    black: RGB
    brown: RGB
    blue: RGB
    green: RGB
    building: RGB
    building_edge: RGB


def _table(colours: Mapping[TerrainType, RGB]) -> np.ndarray:
    t = np.array([colours[k] for k in TerrainType], dtype=np.uint8)
    return _validate.readonly(t)


_T = TerrainType

#: The author's colours (PMS based), SPEC 15, and ISOM 2017-2's as
#: OpenOrienteering Mapper's symbol set ``ISOM 2017-2_15000.omap`` gives
#: them in RGB (its CMYK spot colours: yellow 0/27/79/0, green 76/0/91/0,
#: blue 100/0/0/0, brown 0/56/100/18 and their screens).
PALETTES: dict[str, Palette] = {
    "relf": Palette(
        "relf",
        _table({
            _T.LAKE: (0, 170, 231), _T.TOWN: (153, 153, 153), _T.GRASS: (253, 183, 59),
            _T.MOOR: (192, 192, 127), _T.WOOD: (255, 255, 255), _T.THICKET: (0, 128, 0),
            _T.ROAD: (200, 200, 200), _T.MUD: (92, 39, 14), _T.PATH: (153, 153, 153),
            _T.STREAM: (0, 170, 231), _T.MARSH: (0, 170, 231), _T.SNOW: (230, 240, 255),
            # SPEC 17's quarry: the project's choice (the seeds give no colour), a pale
            # stone between the rock's brown and the moor
            _T.QUARRY: (181, 160, 132),
        }),
        contour=(184, 78, 27), black=(0, 0, 0), brown=(184, 78, 27), blue=(0, 170, 231),
        # the author's rootstock is green; a darker green keeps it visible on thicket
        green=(0, 80, 0), building=(0, 0, 0), building_edge=(0, 0, 0),
    ),
    "isom": Palette(
        "isom",
        _table({
            _T.LAKE: (0, 255, 255),        # 301 uncrossable body of water: blue 100 %
            _T.TOWN: (158, 186, 29),       # 520 area that shall not be entered: yellow/green 50 %
            _T.GRASS: (255, 186, 54),      # 401 open land: yellow 100 %
            _T.MOOR: (255, 221, 154),      # 403 rough open land: yellow 50 %
            _T.WOOD: (255, 255, 255),      # 405 forest: white
            _T.THICKET: (61, 255, 23),     # 410 vegetation, very difficult: green 100 %
            _T.ROAD: (232, 173, 128),      # 502 wide road infill: brown 50 %
            _T.MUD: (128, 255, 255),       # 302 shallow body of water: blue 50 %
            _T.PATH: (191, 191, 191),      # black 25 % (grey): a band, not a line symbol
            _T.STREAM: (0, 255, 255),      # 304-306 watercourses: blue 100 %
            _T.MARSH: (0, 255, 255),       # 308-310 marsh: blue 100 % dashes
            _T.SNOW: (230, 240, 255),      # no ISOM symbol: the author's snow
            _T.QUARRY: (178, 178, 178),    # 214 bare rock: black 30 % (a quarry's floor)
        }),
        contour=(209, 92, 0), black=(0, 0, 0), brown=(209, 92, 0), blue=(0, 255, 255),
        # 418-419 vegetation features; green 100 %/black 50 % keeps them visible on green
        green=(31, 128, 11), building=(89, 89, 89), building_edge=(0, 0, 0),
    ),
}

# Features drawn, with their symbol and palette colour (cones and rockets are movable).
_SYMBOLS = {
    Feature.BOULDER: ("dot", "black"),
    Feature.KNOLL: ("dot", "brown"),
    Feature.MINE: ("v", "black"),
    Feature.WATERHOLE: ("v", "blue"),
    Feature.X: ("x", "black"),
    Feature.ROOT: ("x", "green"),
}

_SYMBOL_CODES = {int(k): v for k, v in _SYMBOLS.items()}

# Beyond this many integer points the features of a coarse map are those at
# its grid points only (a map of more than 16 M m^2 at step > 1).
_MAX_FEATURE_POINTS = 1 << 24
# Beyond this many contour crossings the interval is refused (memory).
_MAX_CROSSINGS = 1 << 26


def _pil() -> tuple[Any, Any]:
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise ImportError(
            "relfterrain.maps: drawing symbols and writing PNG need Pillow; "
            "install it with pip install 'relfterrain[maps]'"
        ) from None
    return Image, ImageDraw


def _palette(value: Any) -> Palette:
    if isinstance(value, Palette):
        return _checked_palette(value)
    if not isinstance(value, str):
        raise TypeError(f"palette: must be a name ({', '.join(sorted(PALETTES))}) or a "
                        f"relfterrain.maps.Palette, got {value!r:.80}")
    if value not in PALETTES:
        raise ValueError(f"palette: must be one of {sorted(PALETTES)}, got {value!r}")
    return PALETTES[value]


def _checked_palette(p: Palette) -> Palette:
    """A Palette whose colours are what the drawing needs (else a TypeError
    or ValueError naming ``palette`` and the field)."""
    t = np.asarray(p.terrain)
    if t.dtype.kind not in "iu" or t.shape != (len(TerrainType), 3) or \
            (t.size and (t.min() < 0 or t.max() > 255)):
        raise ValueError(f"palette.terrain: must be ({len(TerrainType)}, 3) integers 0..255, "
                         f"got {t.dtype} {t.shape}")
    for field in Palette._fields[2:]:
        c = getattr(p, field)
        try:
            ok = len(c) == 3 and all(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool) and 0 <= v <= 255
                for v in c)
        except TypeError:
            ok = False
        if not ok:
            raise ValueError(f"palette.{field}: must be an (r, g, b) of ints 0..255, got {c!r:.60}")
    return p


def terrain_colours(codes: np.ndarray, palette: str | Palette = "relf") -> np.ndarray:
    """The palette colour of each terrain code, north up: ``(ny, nx, 3)`` uint8.

    ``codes`` is a grid of :class:`TerrainType` codes with row 0 south (as
    :meth:`Terrain.terrain_grid` returns it); the image has row 0 north.

    >>> terrain_colours(np.array([[0], [4]], dtype=np.uint8))[:, 0].tolist()
    [[255, 255, 255], [0, 170, 231]]
    """
    pal = _palette(palette)
    a = np.asarray(codes)
    if a.ndim != 2 or a.dtype != np.uint8:
        raise ValueError(f"codes: must be a 2-D uint8 array, got {a.dtype} {a.shape}")
    return _colours(a, pal)[0]


def _colours(codes: np.ndarray, pal: Palette) -> tuple[np.ndarray, np.ndarray]:
    """``terrain_colours`` of a 2-D uint8 grid and how many of each code 0..255
    it has: one pass in C (csrc/contours.c, rt_map_colours)."""
    table = np.asarray(pal.terrain)
    if table.dtype != np.uint8:  # a Palette of other integers: NumPy, in its dtype
        if codes.size and int(codes.max()) >= len(TerrainType):
            raise ValueError(f"codes: terrain codes are 0..{len(TerrainType) - 1}, "
                             f"got {int(codes.max())}")
        return (np.take(table, codes[::-1], axis=0),
                np.bincount(codes.ravel(), minlength=256))
    img, counts = _core.map_colours(codes, table)
    if counts[len(TerrainType):].any():
        raise ValueError(f"codes: terrain codes are 0..{len(TerrainType) - 1}, "
                         f"got {int(np.flatnonzero(counts)[-1])}")
    return img, counts


# -- contours (CONREC) --------------------------------------------------------

def _bands(z: np.ndarray, interval: float) -> np.ndarray:
    """k with k*interval <= z < (k+1)*interval, exactly for the products used."""
    b = np.floor(z / interval)
    b += z >= (b + 1.0) * interval
    b -= z < b * interval
    return b


def contour_points(z: np.ndarray, interval: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vertices of CONREC's contours of a grid: ``(row, column, level index)``.

    Each cell is cut into four triangles meeting at its centre, whose value
    is the mean of its corners; every level ``k * interval`` crossing an edge
    of a triangle (``a < level <= b``) gives a vertex by linear
    interpolation along that edge. These are the vertices contourpy's
    ``quad_as_tri=True`` returns (each shared edge's once per cell). Rows and
    columns are fractional grid indices, row 0 south.
    """
    ny, nx = z.shape
    if ny < 2 or nx < 2:
        e = np.empty(0)
        return e, e, e
    b = _bands(z, interval)
    zc = (z[:-1, :-1] + z[:-1, 1:] + z[1:, 1:] + z[1:, :-1]) * 0.25
    bc = _bands(zc, interval)
    b00 = b[:-1, :-1]
    cross = (b[:-1, 1:] != b00) | (b[1:, 1:] != b00) | (b[1:, :-1] != b00) | (bc != b00)
    r, c = np.nonzero(cross)
    f = r * nx + c
    zf = z.ravel()
    bf = b.ravel()
    # corners around the cell: (r, c), (r, c+1), (r+1, c+1), (r+1, c)
    offsets = (0, 1, nx + 1, nx)
    dr = (0.0, 0.0, 1.0, 1.0)
    dc = (0.0, 1.0, 1.0, 0.0)
    v = [zf[f + o] for o in offsets]
    bv = [bf[f + o] for o in offsets]
    vc = zc[r, c]
    bcc = bc[r, c]
    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    levels: list[np.ndarray] = []
    total = 0

    def edge(va: np.ndarray, vb: np.ndarray, ba: np.ndarray, bb: np.ndarray,
             ra: float, ca: float, rb: float, cb: float) -> None:
        nonlocal total
        s = np.flatnonzero(bb != ba)
        if s.size == 0:
            return
        va, vb, ba, bb = va[s], vb[s], ba[s], bb[s]
        lo = np.minimum(ba, bb)
        count = np.abs(bb - ba).astype(np.intp)
        n = int(count.sum())
        total += n
        if total > _MAX_CROSSINGS:
            raise ValueError(f"interval: too small for this map (more than "
                             f"{_MAX_CROSSINGS} contour crossings), got {interval!r}")
        if n != s.size:  # several levels cross this edge
            rep = np.repeat(np.arange(s.size), count)
            start = np.cumsum(count) - count
            k = lo[rep] + 1.0 + (np.arange(n) - start[rep])
            va, vb, s = va[rep], vb[rep], s[rep]
        else:
            k = lo + 1.0
        t = (k * interval - va) / (vb - va)
        rows.append(r[s] + (ra + t * (rb - ra)))
        cols.append(c[s] + (ca + t * (cb - ca)))
        levels.append(k)

    for i in range(4):
        j = (i + 1) % 4
        edge(v[i], v[j], bv[i], bv[j], dr[i], dc[i], dr[j], dc[j])  # the cell's side
        edge(v[i], vc, bv[i], bcc, dr[i], dc[i], 0.5, 0.5)          # corner to centre
    if not rows:
        e = np.empty(0)
        return e, e, e
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(levels)


def contour_mask(z: np.ndarray, interval: float = 5.0, index_every: int = 5, *,
                 threads: int | None = 1) -> np.ndarray:
    """Pixels of the contours of a grid: uint8 ``(ny, nx)``, 0 none, 1 contour, 2 index.

    The pixel nearest each CONREC vertex (:func:`contour_points`) is set;
    consecutive vertices of a contour lie in one cell, so the pixels of a
    line are 8-connected. Every contour pixel is a corner of a cell that
    the contour crosses. Orientation as ``z``: a grid, south first (SPEC 1).
    ``threads`` (default 1; None: all cores) splits the rows into bands
    computed at once; the pixels are the same for every count.
    """
    za = _validate.real_array(z, "z", "a 2-D array of heights")
    if za.ndim != 2:
        raise ValueError(f"z: must be a 2-D array of heights, got shape {za.shape}")
    if not np.all(np.isfinite(za)):
        raise ValueError("z: every height must be finite")
    interval = _validate.real(interval, "interval")
    if interval <= 0:
        raise ValueError(f"interval: must be a positive number, got {interval!r}")
    index_every = _validate.integer(index_every, "index_every", 0)
    if index_every > 2**31 - 1:
        raise ValueError(f"index_every: must be <= 2**31 - 1, got {index_every}")
    # the same pixels, computed in C (csrc/contours.c) cell by cell
    return _core.contour_mask(np.ascontiguousarray(za), interval, index_every, _MAX_CROSSINGS,
                              threads=_validate.threads(threads))


def _contour_mask_numpy(z: np.ndarray, interval: float, index_every: int) -> np.ndarray:
    """:func:`contour_mask` in vectorised NumPy (the transcription the C follows)."""
    ny, nx = z.shape
    mask = np.zeros((ny, nx), np.uint8)
    rows, cols, k = contour_points(z, interval)
    if rows.size == 0:
        return mask
    rr = np.floor(rows + 0.5).astype(np.intp)
    cc = np.floor(cols + 0.5).astype(np.intp)
    mask[rr, cc] = 1
    if index_every:
        ix = np.fmod(k, index_every) == 0
        mask[rr[ix], cc[ix]] = 2
    return mask


#: The contour intervals :func:`auto_interval` chooses from (height units).
NICE_INTERVALS = (5.0, 10.0, 20.0, 25.0, 50.0, 100.0, 200.0, 250.0, 500.0, 1000.0)


def auto_interval(step: float) -> float:
    """The contour interval for a map of ``step`` metres per pixel: an orienteering map.

    The smallest of :data:`NICE_INTERVALS` that is at least ``10 * step``
    height units, and never below 5 (SPEC 15's interval): 5 at 2 px per
    metre (step 0.5, issue 21's view of The Forest's map) and finer, 10 at
    1 px per metre, 20 at step 2, 50 at step 4. The classic terrain climbs
    about one height unit a metre, so ordinary contours stay some ten pixels
    apart at every scale, as on a printed orienteering map, instead of
    crowding together when the map is zoomed out. (The author's own map
    code draws 5 at 1 px per metre, in lines of about half the weight of
    ours: the plotting guide compares the two.)

    >>> [auto_interval(s) for s in (0.25, 0.5, 1.0, 2.0, 4.0)]
    [5.0, 5.0, 10.0, 20.0, 50.0]
    """
    step = _validate.real(step, "step")
    if not (math.isfinite(step) and step > 0):
        raise ValueError(f"step: must be a positive number, got {step!r}")
    want = 10.0 * step
    for v in NICE_INTERVALS:
        if v >= want:
            return v
    # beyond the table: the next power of ten at or above
    return float(10.0 ** math.ceil(math.log10(want)))


def _draw_north_lines(img: np.ndarray, x0: float, step: float, nx: int, spacing: float,
                      colour: RGB) -> None:
    """Magnetic-north lines: columns at the multiples of ``spacing`` metres east.

    The world's magnetic north is its grid north (SPEC 1: y north), so the
    lines are the image columns nearest ``x = k * spacing``, anchored to the
    world (they stay put when the map is panned), as wide as a contour.
    """
    x1 = x0 + (nx - 1) * step
    k0 = math.ceil((x0 - 0.5 * step) / spacing)
    k1 = math.floor((x1 + 0.5 * step) / spacing)
    if k1 < k0:
        return
    width = max(1, round(0.5 / step))
    cols = np.floor((np.arange(k0, k1 + 1) * spacing - x0) / step + 0.5).astype(np.intp)
    for c in cols.tolist():
        lo, hi = max(c, 0), min(c + width, nx)
        if lo < hi:
            img[:, lo:hi] = colour


def _paint_lines_numpy(img: np.ndarray, mask: np.ndarray, colour: RGB, width: int,
                       index_width: int) -> None:
    """The contour lines of a mask (south first) painted into img (north up),
    in NumPy: what ``_core.contour_paint`` does in C (the tests compare them)."""
    m = mask[::-1]
    lines = _thicken(m == 1, width) | _thicken(m == 2, index_width)
    img.reshape(-1, 3)[np.flatnonzero(lines)] = colour


def _thicken(m: np.ndarray, width: int) -> np.ndarray:
    """m grown to lines ``width`` pixels wide (towards the south-east)."""
    out = m.copy()
    for d in range(1, width):
        out[d:, :] |= m[:-d, :]
        out[:, d:] |= m[:, :-d]
        out[d:, d:] |= m[:-d, :-d]
    return out


# -- the map --------------------------------------------------------------------

def _check_options(palette: Any, contours: Any, interval: Any, index_every: Any,
                   flags: dict[str, Any]) -> tuple[Palette, float, int, dict[str, bool]]:
    pal = _palette(palette)
    _validate.flag(contours, "contours")
    interval = _validate.real(interval, "interval")
    if interval <= 0:
        raise ValueError(f"interval: must be a positive number, got {interval!r}")
    index_every = _validate.integer(index_every, "index_every", 0)
    return pal, interval, index_every, {k: _validate.flag(v, k) for k, v in flags.items()}


def _beneath(terrain: Terrain, xs: np.ndarray, ys: np.ndarray, kinds: set[TerrainType],
             drop_paths: bool) -> np.ndarray:
    """The terrain kinds at the points with the given placed kinds (and paths) taken away."""
    t = terrain.replace(with_paths=False) if drop_paths and terrain.with_paths else \
        terrain.copy()
    for k in kinds:
        t.remove_all(k)
    return t.sample(xs, ys, threads=1).terrain


def _rgb_of(colour: Any) -> RGB:
    """A palette colour (any sequence of three ints) as a tuple of ints."""
    return (int(colour[0]), int(colour[1]), int(colour[2]))


def _pixel_index(origin: float, step: float, n: int) -> np.ndarray:
    """World-anchored pixel numbers (patterns stay put when the map is panned)."""
    return (math.floor(origin / step + 0.5) + np.arange(n)).astype(np.int64)


def _render(terrain: Terrain, x0: float, y0: float, nx: int, ny: int, step: float, *,
            palette: Any, contours: Any, interval: Any, index_every: Any, features: Any,
            buildings: Any, water: Any, roads: Any, paths: Any, threads: int | None,
            north_lines: Any = None,
            timings: dict[str, float] | None = None) -> np.ndarray:
    clock = time.perf_counter
    t_start = clock()
    if isinstance(interval, str) and interval != "auto":
        raise ValueError(f"interval: must be a positive number or 'auto', got {interval!r}")
    if isinstance(interval, str):
        # the step is checked by the grid below; a bad one must not fail here
        try:
            interval = auto_interval(float(step))
        except (TypeError, ValueError):
            interval = 5.0
    pal, interval, index_every, on = _check_options(
        palette, contours, interval, index_every,
        {"features": features, "buildings": buildings, "water": water, "roads": roads,
         "paths": paths})
    if north_lines is not None:
        north_lines = _validate.real(north_lines, "north_lines")
        if not (math.isfinite(north_lines) and north_lines > 0):
            raise ValueError(f"north_lines: must be a positive number of metres or None, "
                             f"got {north_lines!r}")
    g = terrain.grid(x0, y0, nx, ny, step, threads=threads)
    x0, y0, step = float(g.x[0]), float(g.y[0]), float(step)
    codes = g.terrain
    # kinds shown as what lies beneath them: marshes (drawn as dashes over the
    # vegetation), and every layer turned off
    hidden = {_T.MARSH}
    if not on["water"]:
        hidden.add(_T.STREAM)
    if not on["roads"]:
        hidden.add(_T.ROAD)
    if not on["paths"]:
        hidden.add(_T.PATH)
    # which kinds occur (counted as the ground is painted), so that the passes
    # for kinds absent are skipped
    img, present = _colours(codes, pal)
    present = present[:len(TerrainType)]
    lut = np.zeros(len(TerrainType), bool)
    lut[[int(k) for k in hidden]] = True
    marsh = None
    covered = lut[codes] if present[lut].any() else None
    if covered is not None:
        r, c = np.nonzero(covered)
        under = _beneath(terrain, g.x[c], g.y[r], hidden - {_T.PATH}, _T.PATH in hidden)
        codes = codes.copy()
        if on["water"]:
            marsh = np.zeros(codes.shape, bool)
            marsh[r, c] = codes[r, c] == _T.MARSH
        codes[r, c] = under
        img = _colours(codes, pal)[0]
    t_grid = clock()

    gx = _pixel_index(x0, step, nx)
    gy = _pixel_index(y0, step, ny)[::-1]  # image rows, north first
    placed = _placed_lines(terrain, x0, y0, nx, ny, step, on) if step > 1.0 else {}

    t_contours0 = clock()
    if contours:
        # the contours on the threads asked for; by default on one (on this
        # project's shared 2-core machine two threads measured slower)
        width = max(1, round(0.5 / step))
        # on coarse maps a thick index contour would hide everything between
        index_width = width + (step <= 2.0)
        if index_every > 2**31 - 1:  # as contour_mask says it
            raise ValueError(f"index_every: must be <= 2**31 - 1, got {index_every}")
        # contour_mask's pixels painted in C as _paint_lines_numpy paints them
        _core.contour_paint(np.ascontiguousarray(g.height), interval, index_every,
                            _MAX_CROSSINGS, img, _rgb_of(pal.contour), width,
                            index_width, threads=1 if threads is None else threads)
    if north_lines is not None:
        _draw_north_lines(img, x0, step, nx, north_lines, pal.black)
    t_contours = clock()

    # water and roads lie over the contours
    if marsh is not None:
        m = marsh[::-1]
        dash = ((gy[:, None] % 3) == 0) & (((gx[None, :] + 2 * (gy[:, None] // 3)) % 5) < 3)
        img[m & dash] = pal.blue
    if on["water"] and (present[_T.STREAM] or _T.STREAM in placed):
        stream = codes[::-1] == _T.STREAM
        if _T.STREAM in placed:
            stream[placed[_T.STREAM]] = True
        img[stream] = pal.terrain[_T.STREAM]
    if on["roads"] and (present[_T.ROAD] or _T.ROAD in placed):
        road = codes[::-1] == _T.ROAD
        if _T.ROAD in placed:
            road[placed[_T.ROAD]] = True
        if road.any():
            img[road] = pal.terrain[_T.ROAD]
            inner = road.copy()
            inner[1:, :] &= road[:-1, :]
            inner[:-1, :] &= road[1:, :]
            inner[:, 1:] &= road[:, :-1]
            inner[:, :-1] &= road[:, 1:]
            edge = road & ~inner
            d = 3
            on_dash = ((gy[:, None] // d + gx[None, :] // d) % 2) == 0
            img[edge & on_dash] = pal.black
    if on["buildings"] or on["features"]:
        img = _symbols(terrain, g, img, x0, y0, nx, ny, step, pal, on, threads)
    t_end = clock()
    if timings is not None:
        timings.update(grid=t_grid - t_start, contours=t_contours - t_contours0,
                       symbols=(t_end - t_contours) + (t_contours0 - t_grid),
                       total=t_end - t_start)
    return img


def _placed_lines(terrain: Terrain, x0: float, y0: float, nx: int, ny: int, step: float,
                  on: dict[str, bool]) -> dict[TerrainType, tuple[np.ndarray, np.ndarray]]:
    """Image pixels of placed streams and roads, so a coarse map keeps them whole."""
    xs, ys, code = _shared.core(terrain).placed_items()
    out = {}
    for kind, layer in ((_T.STREAM, "water"), (_T.ROAD, "roads")):
        if not on[layer]:
            continue
        sel = np.asarray(code) == (_core.PLACED_TERRAIN | int(kind))
        if not sel.any():
            continue
        cc = np.floor((np.asarray(xs)[sel] - x0) / step + 0.5).astype(np.int64)
        rr = (ny - 1) - np.floor((np.asarray(ys)[sel] - y0) / step + 0.5).astype(np.int64)
        inside = (cc >= 0) & (cc < nx) & (rr >= 0) & (rr < ny)
        if inside.any():
            out[kind] = (rr[inside], cc[inside])
    return out


def _nonzero(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.nonzero`` of a sparse 2-D uint8 grid (rows, columns in C order),
    a few times faster (``_core.flat_nonzero`` skips eight zero bytes at once)."""
    if a.dtype != np.uint8 or a.ndim != 2:
        rows, cols = np.nonzero(a)  # pragma: no cover - the grids are uint8
        return rows, cols
    r, c = np.divmod(_core.flat_nonzero(np.ascontiguousarray(a)), a.shape[1])
    return r, c


def _integer_features(terrain: Terrain, g: TerrainGrid, x0: float, y0: float, nx: int,
                      ny: int, step: float,
                      threads: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """World (x, y) and code of every point feature at the integer points in view."""
    if step == 1.0 and x0 == math.floor(x0) and y0 == math.floor(y0):
        r, c = _nonzero(g.feature)
        return g.x[c], g.y[r], g.feature[r, c]
    half = 0.5 * step
    xa = math.ceil(x0 - half)
    xb = math.floor(x0 + (nx - 1) * step + half)
    ya = math.ceil(y0 - half)
    yb = math.floor(y0 + (ny - 1) * step + half)
    w, h = xb - xa + 1, yb - ya + 1
    if w < 1 or h < 1:
        e = np.empty(0)
        return e, e, np.empty(0, np.uint8)
    if w * h > _MAX_FEATURE_POINTS:
        r, c = _nonzero(g.feature)
        return g.x[c], g.y[r], g.feature[r, c]
    f = terrain.feature_grid(xa, ya, w, h, 1.0, threads=threads)
    r, c = _nonzero(f)
    return (xa + c).astype(np.float64), (ya + r).astype(np.float64), f[r, c]


def _symbol_size(step: float) -> float:
    """Symbol size in pixels: 5 at step 1, up to 15 zoomed in, down to 3 zoomed out."""
    return min(max(5.0 / step if step < 1.0 else 5.0 / math.sqrt(step), 3.0), 15.0)


def _symbols(terrain: Terrain, g: TerrainGrid, img: np.ndarray, x0: float, y0: float,
             nx: int, ny: int, step: float, pal: Palette, on: dict[str, bool],
             threads: int | None) -> np.ndarray:
    Image, ImageDraw = _pil()
    # The symbols are drawn as colour numbers 1.. into a one-byte picture (0:
    # none), then copied over the map: Pillow sets the same pixels in "L" as
    # in "RGB" (no antialiasing), without two copies of the RGB map.
    im = Image.new("L", (nx, ny), 0)
    draw = ImageDraw.Draw(im)
    inks: dict[RGB, int] = {}

    def ink(colour: RGB | None) -> int | None:
        if colour is None:
            return None
        return inks.setdefault(_rgb_of(colour), len(inks) + 1)  # lists too (a user Palette)

    def px(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (x - x0) / step, (ny - 1) - (y - y0) / step

    if on["buildings"]:
        xa = math.floor(x0) - 8
        ya = math.floor(y0) - 8
        width = math.ceil((nx - 1) * step) + 18
        height = math.ceil((ny - 1) * step) + 18
        centres = terrain.buildings(xa, ya, width, height)
        if len(centres):
            cx, cy = px(centres[:, 0].astype(float), centres[:, 1].astype(float))
            half = max(6.0 / step, 1.5)
            edge = ink(pal.building_edge if pal.building_edge != pal.building else None)
            fill = ink(pal.building)
            for u, v in zip(cx.tolist(), cy.tolist()):
                draw.rectangle([u - half, v - half, u + half, v + half], fill=fill,
                               outline=edge)
    if on["features"]:
        fx, fy, fc = _integer_features(terrain, g, x0, y0, nx, ny, step, threads)
        cx, cy = px(fx, fy)
        size = _symbol_size(step)
        h = size / 2.0
        lw = max(1, round(size / 5.0))
        # each code's shape and ink, looked up once a map (not once a symbol)
        kinds: dict[int, tuple[str, int | None]] = {}
        for u, v, code in zip(cx.tolist(), cy.tolist(), fc.tolist()):
            sym = kinds.get(code)
            if sym is None:
                if code not in _SYMBOL_CODES:
                    continue
                shape, name = _SYMBOL_CODES[code]
                sym = kinds[code] = (shape, ink(getattr(pal, name)))
            shape, colour = sym
            if shape == "dot":
                rad = h - 0.5
                draw.ellipse([u - rad, v - rad, u + rad, v + rad], fill=colour)
            elif shape == "v":
                draw.line([u - h, v - h, u, v + h, u + h, v - h], fill=colour, width=lw)
            else:
                draw.line([u - h, v - h, u + h, v + h], fill=colour, width=lw)
                draw.line([u - h, v + h, u + h, v - h], fill=colour, width=lw)
    if inks:
        drawn = np.asarray(im)
        at = _core.flat_nonzero(drawn)
        if at.size:
            colours = np.array([(0, 0, 0), *inks], np.uint8)
            img.reshape(-1, 3)[at] = colours[drawn.ravel()[at]]
    return img


def render(
    terrain: Terrain,
    x0: float,
    y0: float,
    nx: int,
    ny: int,
    step: float = 1.0,
    *,
    palette: str | Palette = "relf",
    contours: bool = True,
    interval: float | str = 5.0,
    index_every: int = 5,
    features: bool = True,
    buildings: bool = True,
    water: bool = True,
    roads: bool = True,
    paths: bool = True,
    north_lines: float | None = None,
    threads: int | None = None,
) -> np.ndarray:
    """An orienteering map of a terrain: RGB uint8 ``(ny, nx, 3)``, north up.

    Orientation (the rule of every image in relfterrain): an image is
    **north up**, row 0 its northern edge, pixel ``[i, j]`` showing the grid
    point ``(x0 + j*step, y0 + (ny-1-i)*step)`` (plot with
    ``origin="upper"``); a grid of values is **south first** (SPEC 1).

    Any window at any metres per pixel: a map tile is ``render(t, x0, y0,
    256, 256, step)``, and neighbouring tiles join without seams (patterns
    and north lines are anchored to the world, not to the window).

    Parameters
    ----------
    terrain : Terrain
    x0, y0, nx, ny, step
        The grid, as :meth:`Terrain.grid` (``x0, y0`` the south-west corner).
    palette : {"relf", "isom"} or Palette
        The author's colours or ISOM 2017-2's (see :data:`PALETTES`).
    contours : bool
        Draw contours: CONREC's geometry (:func:`contour_points`) of terra's
        height (the water surface on lakes), every ``interval`` height units;
        every ``index_every``-th level (``level / interval`` a multiple of
        it; 0 for none) is an index contour, drawn thicker.
    interval : float or "auto"
        Height units between contours (default 5, SPEC 15); ``"auto"``
        chooses it for the pixel size (:func:`auto_interval`: 5 at 2 px per
        metre, 10 at 1 px per metre, ...), as :func:`orienteering_map` does.
    features : bool
        Point features at the integer points in view (at any step): boulder
        black dot, knoll brown dot, mineshaft black V, water hole blue V,
        man-made black x, rootstock green x. Cones and rockets are not drawn.
    buildings : bool
        The town buildings, 12 m squares.
    water : bool
        Streams (placed STREAM, blue) and marshes (placed MARSH: blue dashes
        on the vegetation beneath). Off: the ground beneath is shown.
    roads : bool
        Roads (ROAD ground, dashed black edges). Off: the ground beneath.
    paths : bool
        Paths (PATH ground, grey). Off: the ground beneath.
    north_lines : float, optional
        Metres between magnetic-north lines (black, as wide as a contour,
        at the multiples of it east; the world's magnetic north is grid
        north). Default None: none (SPEC 15's map).
    threads : int, optional
        Threads for the grid (default all cores) and the contours (default
        one); the image is the same for every count.

    Notes
    -----
    Symbols are a few pixels whatever the step (5 px at step 1, up to 15 px
    zoomed in, down to 3 px at step 3 and coarser); buildings keep their
    12 m size (at least 3 px); contour lines are 1 px, index contours 2 px
    (1 px beyond step 2), both thicker when zoomed in past step 0.25. At
    steps above 1, placed streams and roads are drawn from the placed
    table, so they stay continuous. Symbols and PNG output need Pillow
    (``pip install 'relfterrain[maps]'``).

    Examples
    --------
    >>> import relfterrain as rt
    >>> t = rt.Terrain()
    >>> img = t.map(*rt.CLASSIC_MAP)
    >>> img.shape
    (600, 800, 3)
    >>> small = t.map(23396, 5318, 200, 150, step=4.0, palette="isom", contours=False)
    >>> small.shape
    (150, 200, 3)
    """
    return _render(terrain, x0, y0, nx, ny, step, palette=palette, contours=contours,
                   interval=interval, index_every=index_every, features=features,
                   buildings=buildings, water=water, roads=roads, paths=paths,
                   north_lines=north_lines, threads=threads)


def orienteering_map(terrain: Terrain, x0: float, y0: float, width: float, height: float,
                     pixels_per_metre: float = 2.0, **options: Any) -> np.ndarray:
    """The map as The Forest shows it: RGB uint8, north up, sized in metres.

    :func:`render` of the area ``width`` x ``height`` metres from the
    south-west corner ``(x0, y0)`` at ``pixels_per_metre`` (The Forest's
    map: 2), with the contour interval chosen for the pixel size
    (``interval="auto"``, :func:`auto_interval`: 5 at 2 px per metre, 10 at
    1), an index contour every fifth, and magnetic-north lines every 300 m
    (``north_lines=300``). The image has ``round(height * pixels_per_metre)``
    rows and ``round(width * pixels_per_metre)`` columns; row 0 is the
    northern edge (north up, as every image here; grids are south first).
    Other options as :func:`render` (they may override these). The legend,
    scale bar and axes are drawn by :func:`relfterrain.plot.map`.

    >>> import relfterrain as rt
    >>> img = orienteering_map(rt.Terrain(), 23396, 5318, 400, 300)
    >>> img.shape
    (600, 800, 3)
    """
    ppm = _validate.real(pixels_per_metre, "pixels_per_metre")
    if not (math.isfinite(ppm) and ppm > 0):
        raise ValueError(f"pixels_per_metre: must be a positive number, got {ppm!r}")
    w = _validate.real(width, "width")
    h = _validate.real(height, "height")
    nx, ny = round(w * ppm), round(h * ppm)
    if not (math.isfinite(w) and math.isfinite(h)) or nx < 1 or ny < 1:
        raise ValueError(f"width, height: must give at least one pixel at "
                         f"pixels_per_metre={ppm}, got {width!r} x {height!r}")
    opts: dict[str, Any] = {"interval": "auto", "north_lines": 300.0}
    opts.update(options)
    return render(terrain, x0, y0, nx, ny, 1.0 / ppm, **opts)


# -- PNG ------------------------------------------------------------------------

def _rgb(array: Any) -> np.ndarray:
    a = np.asarray(array)
    if a.dtype != np.uint8 or a.ndim != 3 or a.shape[2] not in (3, 4) or 0 in a.shape:
        raise ValueError(f"array: must be a non-empty uint8 (height, width, 3 or 4) image, "
                         f"got {a.dtype} {a.shape}")
    return np.ascontiguousarray(a)


#: zlib level of the PNGs written: 1, chosen by measurement (benchmarks/bench_maps.py:
#: on the classic map level 6 takes about 8x as long for a file 15 % smaller).
PNG_LEVEL = 1


def _chunk(kind: bytes, data: bytes) -> bytes:
    import struct
    import zlib

    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def _text_chunks(text: Mapping[str, str] | None) -> list[bytes]:
    out = []
    for key, value in (text or {}).items():
        if not isinstance(key, str) or not isinstance(value, str) or not 1 <= len(key) <= 79:
            raise ValueError(f"text: keys must be strings of 1 to 79 characters and values "
                             f"strings, got {key!r}: {value!r}")
        try:
            out.append(_chunk(b"tEXt", key.encode("latin-1") + b"\0" + value.encode("latin-1")))
        except UnicodeEncodeError:
            out.append(_chunk(b"iTXt", key.encode("utf-8") + b"\0\0\0\0\0"
                              + value.encode("utf-8")))
    return out


def _deflate(data: bytes) -> bytes:
    """The PNG's IDAT stream (zlib format) at :data:`PNG_LEVEL`.

    With python-isal installed (the ``maps`` extra), Intel's ISA-L deflate: on
    the classic map's palette scanlines 0.6 ms against zlib's 2.3 ms, for a
    file 2 % smaller (2026-11-27, ``docs/performance/maps.md``). Without it,
    zlib with the run-length strategy (Z_RLE), 1.5x as fast as zlib's default
    strategy there. Any PNG decoder reads either.
    """
    try:
        from isal import isal_zlib
    except ImportError:
        import zlib

        z = zlib.compressobj(PNG_LEVEL, zlib.DEFLATED, 15, 9, zlib.Z_RLE)
        return z.compress(data) + z.flush()
    return bytes(isal_zlib.compress(data, PNG_LEVEL))


def png_bytes(array: Any, *, text: Mapping[str, str] | None = None) -> bytes:
    """The image as PNG bytes: an 8-bit palette PNG when it has at most 256 colours.

    A map has a few dozen colours: its PNG is the palette index of each
    pixel (filter none, zlib level :data:`PNG_LEVEL`), several times
    faster to write and half the size of an RGB PNG, decoding to the same
    pixels. Other images (more colours, or RGBA) go through Pillow. ``text``
    adds ``tEXt`` chunks (``iTXt`` beyond Latin-1), e.g. provenance.

    >>> png_bytes(np.zeros((2, 3, 3), np.uint8))[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    import struct

    a = _rgb(array)
    chunks = _text_chunks(text)
    _pil()  # PNG output needs Pillow, as documented (the palette path no longer calls it)
    # the scanlines of the palette image in one pass in C (csrc/images.c)
    pal = _core.png_palette_rows(a) if a.shape[2] == 3 else None
    if pal is None:
        Image, _ = _pil()
        import io

        buf = io.BytesIO()
        Image.fromarray(a).save(buf, format="PNG", compress_level=PNG_LEVEL)
        data = buf.getvalue()
        if not chunks:
            return data
        # the text chunks after IHDR (its 8-byte signature and 25-byte chunk)
        return data[:33] + b"".join(chunks) + data[33:]
    rows, colours, bits = pal
    h, w = a.shape[:2]
    return b"".join([
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bits, 3, 0, 0, 0)),
        _chunk(b"PLTE", colours.tobytes()),
        *chunks,
        _chunk(b"IDAT", _deflate(rows.tobytes())),
        _chunk(b"IEND", b""),
    ])


def save_png(array: Any, path: str | os.PathLike, *,
             text: Mapping[str, str] | None = None) -> None:
    """Write an RGB(A) uint8 image to ``path`` as PNG (:func:`png_bytes`), atomically.

    The PNG is written to a temporary file in the same directory and then
    moved over ``path`` (``os.replace``): a failed write leaves any old file
    as it was. ``text`` goes into PNG text chunks (:meth:`Terrain.save_map`
    writes the provenance of :mod:`relfterrain.provenance` there: read it
    back with ``PIL.Image.open(path).text``). Needs Pillow
    (``pip install 'relfterrain[maps]'``).
    """
    path = target(path)
    data = png_bytes(array, text=text)
    with atomic_write(path) as fh:
        fh.write(data)


def _grid_png(grid: TerrainGrid, limit: int = 1024) -> bytes | None:
    """The PNG of a grid's terrain kinds (relf palette, north up, no contours)."""
    codes = np.asarray(grid.terrain)
    if codes.ndim != 2 or codes.size == 0 or codes.dtype != np.uint8:
        return None
    stride = max(1, math.ceil(max(codes.shape) / limit))
    try:
        return png_bytes(terrain_colours(np.ascontiguousarray(codes[::stride, ::stride])))
    except (ImportError, ValueError):
        return None


GRID_PNG[:] = [_grid_png]  # TerrainGrid._repr_png_ (relfterrain._types)


# -- stars ----------------------------------------------------------------------

# Colour index 0..15 from blue-white to red (star colours by temperature).
_STAR_ANCHORS = np.array([(155, 176, 255), (202, 215, 255), (248, 247, 255),
                          (255, 244, 234), (255, 210, 161), (255, 167, 90),
                          (255, 110, 64)], dtype=np.float64)
#: The RGB colour of each star colour index 0 .. 15, from blue-white to red
#: (``(16, 3)`` uint8, read-only).
STAR_COLOURS: np.ndarray = _validate.readonly(np.array(
    [np.array([np.interp(i * (len(_STAR_ANCHORS) - 1) / 15.0,
                         np.arange(len(_STAR_ANCHORS)), _STAR_ANCHORS[:, ch])
               for ch in range(3)]).round() for i in range(16)], dtype=np.uint8))


def star_margin(scale: float) -> int:
    """Pixels a star's disc in :func:`star_field` can reach beyond its centre's pixel.

    The brightest star's halo has a radius of ``8 * max(scale, 0.5)`` pixels;
    the margin adds a pixel for the rasterisation. A picture with this black
    margin on every side draws every star of its block whole.

    >>> star_margin(1.0), star_margin(0.25), star_margin(4.0)
    (9, 5, 33)
    """
    return math.ceil(8.0 * max(float(scale), 0.5)) + 1


def star_field(galaxy: Galaxy | None = None, block: Any = None, *, scale: float = 1.0,
               edges: str = "whole", threads: int | None = None) -> np.ndarray:
    """A picture of the stars of a block, projected along z: RGB uint8, north up.

    Each star is a disc at its ``(x, y)``, larger and brighter for a smaller
    magnitude (brighter star), coloured by its colour index (0 blue-white
    .. 15 red, :data:`STAR_COLOURS`), over black. Row 0 is the north (the
    block's largest y). Needs Pillow. The picture has no axes (it is an
    array); :func:`relfterrain.plot.stars` draws the stars on matplotlib axes
    in light years with a colourbar of the colour index.

    Parameters
    ----------
    galaxy : Galaxy, optional
        Default ``Galaxy()`` (the classic one).
    block : Block or 6-tuple, optional
        ``(x0, y0, z0, nx, ny, nz)``, default :data:`~relfterrain.INITIAL_VIEW`.
    scale : float
        Pixels per light year (> 0).
    edges : {"whole", "cut"}
        ``"whole"`` (default): no star is clipped. The picture is the block
        with a black margin of ``m = star_margin(scale)`` pixels on every
        side, ``(round(ny*scale) + 2*m, round(nx*scale) + 2*m, 3)``; the
        block's point ``(x, y)`` is at pixel row ``m + (y0 + ny - 1 - y +
        0.5)*scale``, column ``m + (x - x0 + 0.5)*scale`` (before rounding).
        ``"cut"``: the picture is exactly the block,
        ``(round(ny*scale), round(nx*scale), 3)``, and the stars within the
        margin around the block are drawn too, so the discs that cross the
        edge appear on both sides of it and abutting pictures (map tiles)
        join without a seam.

    Returns
    -------
    numpy.ndarray
        ``(rows, columns, 3)`` uint8, north up.

    >>> import relfterrain as rt
    >>> m = star_margin(0.5)
    >>> star_field(rt.Galaxy(), scale=0.5).shape == (300 + 2 * m, 400 + 2 * m, 3)
    True
    >>> star_field(rt.Galaxy(), scale=0.5, edges="cut").shape
    (300, 400, 3)
    """
    from .galaxy import INITIAL_VIEW, Block, Galaxy

    g = Galaxy() if galaxy is None else galaxy
    if not isinstance(g, Galaxy):
        raise TypeError(f"galaxy: must be a relfterrain.Galaxy, got {galaxy!r}")
    b = Block(*_validate.space_block_of(INITIAL_VIEW if block is None else block))
    scale = _validate.real(scale, "scale")
    if not scale > 0 or not math.isfinite(scale):
        raise ValueError(f"scale: must be a positive number, got {scale!r}")
    if edges not in ("whole", "cut"):
        raise ValueError(f"edges: must be 'whole' or 'cut', got {edges!r}")
    m = star_margin(scale)
    # drawn with the margin in either case (Pillow rasterises a disc alike at
    # any whole-pixel shift only at non-negative coordinates), "cut" then crops it
    pad = m
    w = max(1, round(b.nx * scale)) + 2 * pad
    h = max(1, round(b.ny * scale)) + 2 * pad
    # the RGB picture and Pillow's copy of it, before any work
    _core.check_alloc(6 * w * h, "scale, block", f"a {h} x {w} picture")
    if w > 2**31 - 1 or h > 2**31 - 1:
        raise ValueError(f"scale, block: a {h} x {w} picture is larger than Pillow draws")
    if edges == "whole":
        stars = g.stars(*b, threads=threads)
    else:
        # the stars whose discs can reach into the picture: a halo of light years
        halo = math.ceil(m / scale)
        lo_x, lo_y = max(b.x0 - halo, -2**63), max(b.y0 - halo, -2**63)
        hi_x = min(b.x0 + b.nx - 1 + halo, 2**63 - 1)
        hi_y = min(b.y0 + b.ny - 1 + halo, 2**63 - 1)
        stars = g.stars(lo_x, lo_y, b.z0, hi_x - lo_x + 1, hi_y - lo_y + 1, b.nz,
                        threads=threads)
    Image, ImageDraw = _pil()
    im = Image.new("RGB", (w, h))
    draw = ImageDraw.Draw(im)
    lo, rng = g.min_magnitude, g.magnitude_range
    bright = np.clip((lo + rng - stars["magnitude"]) / rng if rng > 0 else
                     np.ones(len(stars)), 0.0, 1.0)
    # faint stars first, so bright ones stay on top; ties in (x, y, z) order,
    # the catalogue's, so every picture of the same stars stacks them alike
    order = np.argsort(-stars["magnitude"], kind="stable")
    north = b.y0 + b.ny - 1
    for i in order.tolist():
        s = stars[i]
        u = pad + (int(s["x"]) - b.x0 + 0.5) * scale
        v = pad + (north - int(s["y"]) + 0.5) * scale
        k = float(bright[i])
        base = STAR_COLOURS[int(s["colour"])].astype(np.float64)
        rad = (1.0 + 3.0 * k) * max(scale, 0.5)
        halo_rgb = tuple(int(c) for c in (base * (0.15 + 0.25 * k)).round())
        core = tuple(int(c) for c in (base * (0.55 + 0.45 * k)).round())
        draw.ellipse([u - 2 * rad, v - 2 * rad, u + 2 * rad, v + 2 * rad], fill=halo_rgb)
        draw.ellipse([u - rad, v - rad, u + rad, v + rad], fill=core)
    out = np.array(im)
    return out if edges == "whole" else np.ascontiguousarray(out[m:h - m, m:w - m])


#: Colours of the mines map (SPEC 8, 15): rock, a passage of a mine with a
#: shaft (reachable), a passage of a sealed mine, and a shaft.
MINE_COLOURS = {"rock": (92, 39, 14), "reachable": (255, 255, 255),
                "sealed": (192, 192, 127), "shaft": (0, 0, 0)}


def mines_map(mines: Any, xg0: int, yg0: int, ncx: int, ncy: int, *, level: int = 0,
              scale: int = 4, threads: int | None = None) -> np.ndarray:
    """The map of a mine level, in the style of the terrain maps: RGB uint8, north up.

    Each cell is a ``scale`` x ``scale`` block of pixels: rock dark brown,
    the passages of the mines that a shaft leads into white, those of sealed
    mines (no way in from the surface) olive, and on level 0 each shaft (a
    cell open above: a MINE feature in it) a black V, the map symbol of a
    mineshaft. Row 0 is the block's northern row of cells.

    Parameters
    ----------
    mines : Mines
        The mine levels (:class:`relfterrain.Mines`).
    xg0, yg0 : int
        The south-west cell's centre (multiples of the cell size).
    ncx, ncy : int
        Cells across and up.
    level : int
        Which level (0: the one under the ground).
    scale : int
        Pixels per cell (1 .. 64).

    >>> import relfterrain as rt
    >>> m = rt.Mines(rt.Terrain())
    >>> mines_map(m, *m.cell_of(23396, 5318), 50, 38, scale=2).shape
    (76, 100, 3)
    """
    from .mines import Mines

    if not isinstance(mines, Mines):
        raise TypeError(f"mines: must be a relfterrain.Mines, got {mines!r}")
    scale = _validate.integer(scale, "scale", 1)
    if scale > 64:
        raise ValueError(f"scale: must be between 1 and 64, got {scale}")
    lab = mines.label(xg0, yg0, ncx, ncy, threads=threads)
    k = _validate.integer(level, "level", 0)
    if k >= lab.labels.shape[0]:
        raise ValueError(f"level: must be below levels={lab.labels.shape[0]}, got {k}")
    labels = lab.labels[k]
    cells = np.empty(labels.shape + (3,), np.uint8)
    cells[...] = MINE_COLOURS["rock"]
    passage = labels > 0
    reach = passage & lab.reachable[labels]
    cells[reach] = MINE_COLOURS["reachable"]
    cells[passage & ~reach] = MINE_COLOURS["sealed"]
    img = np.repeat(np.repeat(cells[::-1], scale, axis=0), scale, axis=1)
    if k == 0 and scale >= 3:
        # a V in each shaft cell: two strokes from the top corners to the bottom middle
        rows, cols = np.nonzero(lab.above[::-1])
        half = scale // 2
        for d in range(scale):
            c_left = (d * half) // max(scale - 1, 1)
            for sign, base in ((1, 0), (-1, scale - 1)):
                img[rows * scale + d, cols * scale + base + sign * c_left] = MINE_COLOURS["shaft"]
    return img


# -- notebooks ------------------------------------------------------------------

def plot_map(ax: Any, terrain: Terrain, x0: float, y0: float, nx: int, ny: int,
             step: float = 1.0, **map_options: Any) -> Any:
    """Draw :func:`render`'s map on matplotlib axes in real coordinates (metres).

    The image is placed with ``origin="upper"`` (it is north up) and an
    extent of the pixels' edges, so the axes read x east and y north in
    metres. Returns the ``AxesImage``. For the map with a legend panel, a
    scale bar and north lines see :func:`relfterrain.plot.map`.

    >>> import matplotlib.pyplot as plt
    >>> import relfterrain as rt
    >>> fig, ax = plt.subplots()
    >>> im = plot_map(ax, rt.Terrain(), 23396, 5318, 80, 60, contours=False)
    >>> ax.get_xlim()
    (np.float64(23395.5), np.float64(23475.5))
    >>> plt.close(fig)
    """
    img = render(terrain, x0, y0, nx, ny, step, **map_options)
    x0 = float(x0)
    y0 = float(y0)
    step = float(step)
    extent = (x0 - step / 2, x0 + (nx - 1) * step + step / 2,
              y0 - step / 2, y0 + (ny - 1) * step + step / 2)
    im = ax.imshow(img, origin="upper", extent=extent, interpolation="nearest")
    ax.set_xlabel("x (m east)")
    ax.set_ylabel("y (m north)")
    return im


_VEGETATION = ("a1", "b1", "a2", "b2", "a3", "b3")


def redesign(terrain: Terrain | None = None, x0: float | None = None, y0: float | None = None,
             nx: int = 400, ny: int = 300, step: float = 2.0, *, component_range: int = 64,
             **map_options: Any) -> Any:
    """An interactive map editor like the author's My Terrain (ipywidgets).

    Sliders for every component of the height vectors (``ah``, ``bh``) and
    of the vegetation vectors (``a1 .. b3``), and for the lake height; the
    map redraws when a slider is released. Default area: the classic map at
    step 2. Needs ipywidgets and Pillow (``pip install
    'relfterrain[widgets]'``).

    Returns an ``ipywidgets.VBox`` (display it in a notebook) with extra
    attributes: ``sliders`` (``{(vector, i): IntSlider, "lake_height":
    FloatSlider}``), ``image`` (the ``ipywidgets.Image``), ``message`` (a
    Label showing errors) and ``terrain`` (the terrain now shown).
    """
    try:
        import ipywidgets as widgets
    except ImportError:
        raise ImportError("relfterrain.maps.redesign needs ipywidgets; install it with "
                          "pip install 'relfterrain[widgets]'") from None
    from ._seed import CLASSIC_MAP

    base = _shared.terrain_class()() if terrain is None else terrain
    _shared.check_terrain(base)
    x0 = CLASSIC_MAP[0] if x0 is None else x0
    y0 = CLASSIC_MAP[1] if y0 is None else y0
    component_range = _validate.integer(component_range, "component_range", 1)
    # fail now, not in a callback
    first = png_bytes(render(base, x0, y0, nx, ny, step, **map_options))
    image = widgets.Image(value=first, format="png")
    message = widgets.Label(value="")
    sliders: dict[Any, Any] = {}
    rows = {}
    for name in ("ah", "bh") + _VEGETATION:
        vec = getattr(base, name)
        row = []
        for i, v in enumerate(vec.tolist()):
            lim = max(component_range, abs(v))
            s = widgets.IntSlider(value=v, min=-lim, max=lim, description=f"{name}[{i}]",
                                  continuous_update=False)
            sliders[(name, i)] = s
            row.append(s)
        rows[name] = widgets.VBox(row)
    lake = widgets.FloatSlider(value=base.lake_height, min=base.lake_height - 100,
                               max=base.lake_height + 100, step=1.0,
                               description="lake height", continuous_update=False)
    sliders["lake_height"] = lake
    tabs = widgets.Tab(children=[widgets.HBox([rows["ah"], rows["bh"]]),
                                 widgets.HBox([rows[n] for n in _VEGETATION])])
    tabs.set_title(0, "height")
    tabs.set_title(1, "vegetation")
    box = widgets.VBox([image, lake, tabs, message])
    box.sliders = sliders
    box.image = image
    box.message = message
    box.terrain = base

    def redraw(_change: Any = None) -> None:
        changes: dict[str, Any] = {"lake_height": float(lake.value)}
        for name in ("ah", "bh") + _VEGETATION:
            n = len(getattr(base, name))
            changes[name] = [sliders[(name, i)].value for i in range(n)]
        try:
            t = base.replace(**changes)
            image.value = png_bytes(render(t, x0, y0, nx, ny, step, **map_options))
        except (ValueError, TypeError) as e:
            message.value = str(e)
            return
        message.value = ""
        box.terrain = t

    for s in sliders.values():
        s.observe(redraw, names="value")
    return box
