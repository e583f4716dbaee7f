"""Independent, slow, pure-Python reference of the Relf Terrain Generator.

Transcribed from docs/SPEC.md, the API contract and the seed's
JavaScript / Java listings, with JavaScript number semantics:

* every arithmetic step is an IEEE-754 double operation (Python ``float``),
  evaluated in the order the seed writes it;
* ``round_js`` is JavaScript's ``Math.round`` written as in SPEC 2;
* ``toint32`` is JavaScript's ToInt32 (what ``v & mask`` does to a double);
* ``calc_prof`` follows the Java listing (floor, then floor division by 128).

This module must never import ``relfterrain``: it is the oracle the compiled
library is compared with.  It is deliberately written for clarity, not speed.

Codes are plain ints (the Java enums' ordinals).  A *placed table* for the
reference is a dict ``{(xr, yr): ("T", terrain_code) | ("F", feature_code)}``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

import numpy as np

# ---------------------------------------------------------------------------
# Classic parameters (SPEC 3)
# ---------------------------------------------------------------------------

CLASSIC_PROFILE: tuple[float, ...] = tuple(float(v) for v in (
    77, 80, 84, 88, 92, 96, 101, 104, 108, 112, 115, 118, 120, 123, 126, 129,
    131, 133, 134, 134, 133, 133, 131, 130, 129, 126, 123, 122, 122, 122, 123, 125,
    126, 130, 134, 137, 137, 138, 138, 137, 135, 133, 129, 123, 118, 111, 105, 101,
    97, 93, 90, 86, 82, 78, 74, 71, 69, 67, 67, 67, 66, 67, 69, 71,
    73, 74, 73, 73, 71, 69, 66, 62, 58, 54, 52, 52, 54, 55, 58, 59,
    62, 63, 63, 65, 65, 65, 66, 66, 67, 69, 70, 73, 77, 80, 82, 85,
    88, 90, 93, 95, 96, 96, 96, 96, 93, 92, 90, 85, 80, 75, 71, 67,
    63, 60, 58, 55, 52, 50, 47, 44, 43, 41, 40, 39, 36, 35, 33, 32,
    30, 28, 24, 20, 15, 11, 7, 3, 2, 2, 2, 2, 2, 2, 3, 6,
    7, 10, 11, 15, 18, 22, 24, 25, 25, 26, 26, 25, 25, 25, 25, 25,
    26, 28, 29, 30, 33, 36, 37, 39, 39, 40, 40, 40, 39, 39, 39, 37,
    37, 37, 36, 36, 36, 35, 35, 33, 33, 32, 30, 28, 25, 20, 15, 11,
    10, 9, 9, 9, 9, 11, 14, 15, 17, 17, 18, 18, 18, 18, 18, 18,
    17, 17, 17, 15, 14, 13, 11, 11, 10, 10, 10, 11, 13, 14, 17, 20,
    22, 25, 28, 30, 35, 39, 41, 45, 50, 58, 63, 69, 73, 77, 80, 82,
    84, 84, 85, 85, 84, 84, 82, 81, 80, 75, 73, 71, 71, 73, 74, 75,
))

CLASSIC_VECTORS: dict[str, tuple[int, ...]] = {
    "ah": (0, 13, 21, 22, 29),
    "bh": (27, 26, 21, 11, 1),
    "a1": (-43, -43, -56, 31, 4),
    "b1": (-3, -12, 22, 2, 32),
    "a2": (-24, -25, 60, 10, -30),
    "b2": (15, -54, -34, -51, -43),
    "a3": (-51, -62, -58, -64, 33),
    "b3": (-44, 20, 27, -64, -44),
}
VECTOR_NAMES = ("ah", "bh", "a1", "b1", "a2", "b2", "a3", "b3")

LAKE_BASE = 204.0
CLASSIC_MAP = (23396, 5318, 800, 600)

RECIP128 = 1.0 / 128.0
PI1000 = math.pi * 1000
PI10000 = math.pi * 10000

# TerrainType codes
LAKE, TOWN, GRASS, MOOR, WOOD, THICKET, ROAD, MUD, PATH, STREAM, MARSH, SNOW, QUARRY = range(13)
TERRAIN_NAMES = ("LAKE", "TOWN", "GRASS", "MOOR", "WOOD", "THICKET", "ROAD",
                 "MUD", "PATH", "STREAM", "MARSH", "SNOW", "QUARRY")  # QUARRY: SPEC 17
# Feature codes
(F_NONE, F_MINE, F_BOULDER, F_ROOT, F_WATERHOLE, F_KNOLL, F_X, F_CONE,
 F_ROCKET, F_BUILDING, F_PHONE) = range(11)
FEATURE_NAMES = ("NONE", "MINE", "BOULDER", "ROOT", "WATERHOLE", "KNOLL", "X",
                 "CONE", "ROCKET", "BUILDING", "PHONE")  # PHONE: SPEC 17, placed only
# Features that carry an orienteering code (API contract).
CODED_FEATURES = frozenset((F_MINE, F_BOULDER, F_ROOT, F_WATERHOLE, F_KNOLL, F_X))

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


# ---------------------------------------------------------------------------
# JavaScript number helpers (SPEC 2)
# ---------------------------------------------------------------------------

def round_js(v: float) -> float:
    """JavaScript Math.round: r = floor(v); if (v - r >= 0.5) r += 1."""
    v = float(v)
    if not math.isfinite(v):
        return v
    r = float(math.floor(v))       # floor of a double is exactly representable
    if v - r >= 0.5:               # double subtraction
        r = r + 1.0                # double addition
    return r


def toint32(v) -> int:
    """JavaScript ToInt32: truncate toward zero, reduce modulo 2**32, signed."""
    if isinstance(v, float) and not math.isfinite(v):
        return 0
    n = int(v)                     # exact truncation of a finite double
    n %= 1 << 32
    if n >= 1 << 31:
        n -= 1 << 32
    return n


def orienteering_code(xr, yr) -> str:
    x26 = abs(int(xr)) % 26
    y26 = abs(int(yr)) % 26
    return ALPHABET[x26] + ALPHABET[y26]


# ---------------------------------------------------------------------------
# Parameters
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Params:
    profile: tuple[float, ...] = CLASSIC_PROFILE
    ah: tuple[int, ...] = CLASSIC_VECTORS["ah"]
    bh: tuple[int, ...] = CLASSIC_VECTORS["bh"]
    a1: tuple[int, ...] = CLASSIC_VECTORS["a1"]
    b1: tuple[int, ...] = CLASSIC_VECTORS["b1"]
    a2: tuple[int, ...] = CLASSIC_VECTORS["a2"]
    b2: tuple[int, ...] = CLASSIC_VECTORS["b2"]
    a3: tuple[int, ...] = CLASSIC_VECTORS["a3"]
    b3: tuple[int, ...] = CLASSIC_VECTORS["b3"]
    lake_base: float = LAKE_BASE
    lake_height: float | None = None      # None -> lake_base
    feature_mask: int = 0xFFF
    with_paths: bool = False
    mountain_base: float | None = None    # None -> off
    snow_height: float | None = None      # None -> off
    wood_only: bool = False
    bleak: bool = False
    # Thresholds of SPEC 5 and 13 (parameters, the seed's values by default).
    feature_point: int = 4          # f giving the point group (MINE .. ROOT)
    feature_x: int = 8              # f giving X
    feature_cone: int = 16          # f giving CONE
    mine_below: int = 32            # xyff thresholds of the point group
    boulder_below: int = 128
    waterhole_below: int = 160
    knoll_below: int = 200
    x_below: int = 4                # (round(PI1000*xryr) & 0xff) < x_below: X
    cone_below: int = 8             # (round(PI10000*xryr) & 0xff) < cone_below: CONE
    town_below: float = 120.0       # calcProf(A1,B1) < town_below: TOWN
    grass_below: float = 255.0      # a = calcProf(A2,B2) < grass_below: GRASS/MOOR
    open_below: float = 255.0       # ... and b = calcProf(A3,B3) < open_below: GRASS
    thicket_below: float = 200.0    # a >= grass_below: THICKET if b < thicket_below
    path_dx: float = 4000.0         # PATH: |ht - height(x+path_dx, y+path_dy)|
    path_dy: float = 2000.0         #       < path_tolerance (and ht > lake)
    path_tolerance: float = 2.0

    def __post_init__(self):
        n = len(self.profile)
        assert n >= 1 and (n & (n - 1)) == 0, "profile length must be a power of two"
        object.__setattr__(self, "profile", tuple(float(v) for v in self.profile))
        lens = set()
        for name in VECTOR_NAMES:
            vec = tuple(int(v) for v in getattr(self, name))
            object.__setattr__(self, name, vec)
            lens.add(len(vec))
        assert len(lens) == 1 and min(lens) >= 1, "vectors must share one length"

    @property
    def mask(self) -> int:
        return len(self.profile) - 1

    @property
    def lake_ht(self) -> float:
        return float(self.lake_base if self.lake_height is None else self.lake_height)

    def terrain_kwargs(self) -> dict:
        """Keyword arguments for relfterrain.Terrain describing the same model."""
        kw = {name: getattr(self, name) for name in VECTOR_NAMES}
        kw.update(profile=self.profile, lake_base=self.lake_base,
                  lake_height=self.lake_height, feature_mask=self.feature_mask,
                  with_paths=self.with_paths, mountain_base=self.mountain_base,
                  snow_height=self.snow_height, wood_only=self.wood_only,
                  bleak=self.bleak)
        # Thresholds only when they differ from the defaults, so that models
        # with default thresholds need no new keyword of the library.
        for name in THRESHOLD_NAMES:
            value = getattr(self, name)
            if value != _THRESHOLD_DEFAULTS[name]:
                kw[name] = value
        return kw


THRESHOLD_NAMES = ("feature_point", "feature_x", "feature_cone", "mine_below",
                   "boulder_below", "waterhole_below", "knoll_below", "x_below",
                   "cone_below", "town_below", "grass_below", "open_below",
                   "thicket_below", "path_dx", "path_dy", "path_tolerance")
_THRESHOLD_DEFAULTS = {f.name: f.default for f in fields(Params)
                       if f.name in THRESHOLD_NAMES}

CLASSIC = Params()


# ---------------------------------------------------------------------------
# Height (SPEC 4)
# ---------------------------------------------------------------------------

def calc_height(p: Params, x: float, y: float) -> float:
    """calcHeight exactly as the seed's JavaScript."""
    x = float(x)
    y = float(y)
    prof = p.profile
    mask = p.mask
    ht = 0.0
    for i in range(len(p.ah)):
        j = (float(p.ah[i]) * x + float(p.bh[i]) * y) * RECIP128
        jint = float(math.floor(j))
        jfrac = j - jint
        prof0 = prof[toint32(jint) & mask]
        prof1 = prof[toint32(jint + 1.0) & mask]
        ht += prof0 + jfrac * (prof1 - prof0)
    return ht


def height(p: Params, x: float, y: float) -> float:
    """Ground height: calcHeight, then mountains when mountain_base is set."""
    ht = calc_height(p, x, y)
    if p.mountain_base is not None:
        mb = float(p.mountain_base)
        if ht > mb:
            dz = ht - mb
            ht = mb + dz * math.sqrt(dz)
    return ht


# ---------------------------------------------------------------------------
# Vegetation and point features (SPEC 5)
# ---------------------------------------------------------------------------

def calc_prof(p: Params, a, x: float, b, y: float) -> float:
    """Java calcProf: PROFILE[(int)((long)floor(a*x + b*y) >> 7) & mask], summed."""
    x = float(x)
    y = float(y)
    prof = p.profile
    mask = p.mask
    s = 0.0
    for i in range(len(a)):
        v = float(a[i]) * x + float(b[i]) * y
        k = math.floor(v) >> 7            # Python >> on ints is floor division
        s += prof[k & mask]
    return s


def point_feature(p: Params, xr: float, yr: float) -> int:
    """Generated point feature at the rounded point (xr, yr) (SPEC 5)."""
    xr = float(xr)
    yr = float(yr)
    xryr = xr * yr
    a = calc_prof(p, p.b2, xr, p.a3, yr)          # swapped tables
    f = toint32(round_js(a * xryr * RECIP128)) & p.feature_mask
    if f == p.feature_point:
        xyff = toint32(xryr) & 0xFF
        if xyff < p.mine_below:
            return F_MINE
        if xyff < p.boulder_below:
            return F_BOULDER
        if xyff < p.waterhole_below:
            return F_WATERHOLE
        if xyff < p.knoll_below:
            return F_KNOLL
        return F_ROOT
    if f == p.feature_x and (toint32(round_js(PI1000 * xryr)) & 0xFF) < p.x_below:
        return F_X
    if f == p.feature_cone and (toint32(round_js(PI10000 * xryr)) & 0xFF) < p.cone_below:
        return F_CONE
    return F_NONE


def _code(feature: int, xr: float, yr: float) -> str:
    return orienteering_code(xr, yr) if feature in CODED_FEATURES else ""


def terra(p: Params, x: float, y: float, placed: dict | None = None):
    """(height, terrain, feature, code, depth) following the API contract order."""
    x = float(x)
    y = float(y)
    lake_ht = p.lake_ht
    ht = height(p, x, y)

    if p.bleak:
        return (ht, GRASS, F_NONE, "", 0.0)

    if p.snow_height is not None and ht > float(p.snow_height):
        return (ht, SNOW, F_NONE, "", 0.0)

    if (p.with_paths and ht > lake_ht
            and abs(ht - height(p, x + p.path_dx, y + p.path_dy)) < p.path_tolerance):
        return (ht, PATH, F_NONE, "", 0.0)

    xr = round_js(x)
    yr = round_js(y)

    feature = None                      # placed feature, if any
    if placed:
        pd = placed.get((int(xr), int(yr)))
        if pd is not None:
            kind, val = pd
            if kind == "T":
                return (max(ht, lake_ht), val, F_NONE, "", 0.0)
            feature = val

    if lake_ht > ht:
        f = F_NONE if feature is None else feature
        return (lake_ht, LAKE, f, _code(f, xr, yr), lake_ht - ht)

    if float(p.lake_base) > ht:
        f = F_NONE if feature is None else feature
        return (ht, MUD, f, _code(f, xr, yr), 0.0)

    if feature is None:
        feature = point_feature(p, xr, yr)

    # Java terra(): `if (!woodOnly) { town test; vegetation }`, so wood_only
    # skips the town test too.
    if not p.wood_only:
        a = calc_prof(p, p.a1, x, p.b1, y)
        if a < p.town_below:
            return (ht, TOWN, F_NONE, "", 0.0)

    code = _code(feature, xr, yr)
    if p.wood_only:
        return (ht, WOOD, feature, code, 0.0)

    a = calc_prof(p, p.a2, x, p.b2, y)
    b = calc_prof(p, p.a3, x, p.b3, y)
    if a < p.grass_below:
        if b < p.open_below:
            return (ht, GRASS, feature, code, 0.0)
        return (ht, MOOR, feature, code, 0.0)
    if b < p.thicket_below:
        return (ht, THICKET, feature, code, 0.0)
    return (ht, WOOD, feature, code, 0.0)


def tree_selector(p: Params, x, y) -> int:
    xr = round_js(x)
    yr = round_js(y)
    return toint32(round_js(PI10000 * xr * yr)) & 3


def buildings(p: Params, x0: int, y0: int, nx: int, ny: int, placed=None):
    """Sorted list of building centres (xr, yr) in [x0, x0+nx) x [y0, y0+ny)."""
    out = []
    xs = [x for x in range(x0, x0 + nx) if x % 16 == 0]
    ys = [y for y in range(y0, y0 + ny) if y % 16 == 0]
    for yy in ys:
        for xx in xs:
            if (toint32(PI10000 * float(xx) * float(yy)) & 0xF) >= 8:
                continue
            if terra(p, xx, yy, placed)[1] == TOWN:
                out.append((xx, yy))
    return sorted(out)


# ---------------------------------------------------------------------------
# Grids
# ---------------------------------------------------------------------------

def axis(o: float, n: int, step: float):
    """o + c*step for c in 0..n-1, as doubles (the contract's expression)."""
    o = float(o)
    step = float(step)
    return [o + float(c) * step for c in range(n)]


def height_grid(p: Params, x0, y0, nx, ny, step=1.0):
    xs = axis(x0, nx, step)
    ys = axis(y0, ny, step)
    out = np.empty((ny, nx), dtype=np.float64)
    for r, y in enumerate(ys):
        for c, x in enumerate(xs):
            out[r, c] = height(p, x, y)
    return out


def grid(p: Params, x0, y0, nx, ny, step=1.0, placed=None):
    """(x, y, height, depth, terrain, feature) arrays as TerrainGrid."""
    xs = axis(x0, nx, step)
    ys = axis(y0, ny, step)
    h = np.empty((ny, nx), dtype=np.float64)
    d = np.empty((ny, nx), dtype=np.float64)
    t = np.empty((ny, nx), dtype=np.uint8)
    f = np.empty((ny, nx), dtype=np.uint8)
    for r, y in enumerate(ys):
        for c, x in enumerate(xs):
            hh, tt, ff, _, dd = terra(p, x, y, placed)
            h[r, c] = hh
            d[r, c] = dd
            t[r, c] = tt
            f[r, c] = ff
    return (np.array(xs, dtype=np.float64), np.array(ys, dtype=np.float64), h, d, t, f)


def sample(p: Params, xs, ys, placed=None):
    """Elementwise terra over broadcast arrays: (height, depth, terrain, feature)."""
    bx, by = np.broadcast_arrays(np.asarray(xs, dtype=np.float64),
                                 np.asarray(ys, dtype=np.float64))
    h = np.empty(bx.shape, dtype=np.float64)
    d = np.empty(bx.shape, dtype=np.float64)
    t = np.empty(bx.shape, dtype=np.uint8)
    f = np.empty(bx.shape, dtype=np.uint8)
    for idx in np.ndindex(bx.shape):
        hh, tt, ff, _c, dd = terra(p, float(bx[idx]), float(by[idx]), placed)
        h[idx] = hh
        d[idx] = dd
        t[idx] = tt
        f[idx] = ff
    return h, d, t, f


def count_features(p: Params, x0, y0, nx, ny, placed=None):
    """Count of terra features (by code) over an integer grid, step 1."""
    counts = {}
    for y in range(y0, y0 + ny):
        for x in range(x0, x0 + nx):
            ff = terra(p, x, y, placed)[2]
            if ff != F_NONE:
                counts[ff] = counts.get(ff, 0) + 1
    return counts
