"""Independent, slow, pure-Python reference of SPEC 17: The Forest as it runs
today (terrain00.js, 2026) and the exact Pieces of Eight variants.

Transcribed from SPEC 17's text in the style of ``tests/reference.py`` (whose
SPEC 2-5 helpers it reuses: ``round_js``, ``toint32``, ``calc_height``,
``height``): one Python ``float`` operation per double operation, in the
order the author's code writes it. It never imports ``relfterrain`` and is
not a copy of the C core: ``terra`` below follows the order of terrain00.js
(the point feature first, then rock and snow, then the town and vegetation),
not the core's early returns.

The rules, as SPEC 17 states them:

* ``calc_prof="js"``: ``Math.floor((A[i]*x + B[i]*y) >> 7) & mask``: the
  JavaScript ``>>`` takes ToInt32 of the double (truncation toward zero, then
  modulo 2**32) and shifts the signed 32-bit value arithmetically.
* ``rock_above``: after the snow test, dry ground higher than it is MUD with
  its point feature (decided after the features, before the town test).
* quarries: in the MOOR branch (``a < grass_below``, ``b >= open_below``), if
  ``a < quarry_below`` and ``ht > quarry_min_height``: QUARRY at
  ``ht - quarry_depth``, no feature, depth 0.
* ``path_height="raw"``: the path test compares the transformed height at
  (x, y) with the raw ``calcHeight`` at the offset point.
* ``snow_keeps_feature``: SNOW decided after the point features, keeping them.
* ``pi10000``: the CONE test's (and the tree selector's) constant.
* a placed PHONE (feature 10) survives on TOWN.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import reference as R

QUARRY = 12
F_PHONE = 10

# The 512-entry profile of terrain00.js, typed from SPEC 17 row by row.
FOREST_2026_PROFILE: tuple[float, ...] = tuple(float(v) for v in (
    77, 80, 84, 88, 92, 96, 101, 104, 108, 112, 115, 118, 120, 123, 126, 129,
    131, 133, 134, 134, 133, 133, 131, 130, 129, 126, 123, 122, 122, 122, 123, 125,
    126, 130, 134, 137, 137, 138, 138, 137, 135, 133, 129, 123, 118, 111, 105, 101,
    97, 93, 90, 86, 82, 78, 74, 71, 69, 67, 67, 67, 66, 67, 69, 71,
    73, 74, 73, 73, 71, 69, 66, 62, 58, 54, 52, 52, 54, 55, 58, 59,
    62, 63, 63, 65, 65, 65, 66, 66, 67, 69, 70, 73, 77, 80, 82, 85,
    88, 90, 93, 95, 96, 96, 96, 96, 93, 92, 90, 85, 80, 75, 71, 67,
    63, 60, 58, 55, 52, 50, 47, 44, 43, 41, 40, 39, 36, 35, 33, 32,
    30, 28, 24, 20, 15, 11, 7, 3, 2, 2, 1, 0, 1, 2, 3, 6,
    7, 10, 11, 15, 18, 22, 24, 25, 25, 26, 26, 25, 25, 25, 25, 25,
    26, 28, 29, 30, 33, 36, 37, 39, 39, 40, 40, 40, 39, 39, 39, 37,
    37, 37, 36, 36, 36, 35, 35, 33, 33, 32, 30, 28, 25, 20, 15, 11,
    10, 9, 9, 9, 9, 11, 14, 15, 17, 17, 18, 18, 18, 18, 18, 18,
    17, 17, 17, 15, 14, 13, 11, 11, 10, 10, 10, 11, 13, 14, 17, 20,
    22, 25, 28, 30, 35, 39, 41, 45, 50, 58, 63, 69, 73, 77, 80, 82,
    84, 84, 85, 85, 84, 84, 82, 81, 80, 75, 73, 71, 71, 73, 74, 75,
    72, 74, 75, 70, 69, 61, 63, 56, 48, 40, 38, 35, 27, 29, 31, 33,
    34, 35, 36, 35, 35, 34, 32, 29, 27, 26, 25, 24, 21, 20, 19, 17,
    16, 14, 12, 11, 10, 9, 9, 9, 11, 11, 13, 14, 16, 18, 19, 19,
    20, 21, 21, 21, 22, 22, 21, 22, 19, 18, 15, 12, 12, 12, 13, 14,
    16, 22, 29, 37, 42, 45, 49, 51, 52, 55, 56, 58, 58, 59, 61, 62,
    62, 66, 66, 67, 69, 70, 70, 69, 69, 66, 65, 60, 55, 53, 51, 48,
    46, 47, 47, 47, 47, 49, 50, 48, 48, 46, 43, 35, 29, 21, 20, 14,
    12, 6, 4, 4, 4, 4, 4, 4, 6, 14, 22, 30, 40, 48, 56, 60,
    64, 66, 70, 72, 78, 80, 82, 86, 87, 93, 99, 106, 112, 117, 121, 127,
    134, 143, 150, 158, 166, 175, 182, 188, 187, 183, 182, 181, 178, 174, 167, 163,
    156, 150, 145, 139, 131, 125, 122, 118, 116, 114, 112, 112, 111, 106, 106, 103,
    97, 95, 89, 87, 83, 82, 84, 90, 95, 100, 103, 105, 107, 106, 106, 103,
    99, 95, 91, 89, 89, 88, 86, 88, 89, 91, 94, 98, 101, 104, 105, 108,
    110, 112, 116, 121, 124, 127, 128, 127, 126, 124, 121, 117, 114, 109, 102, 96,
    93, 89, 85, 82, 79, 77, 76, 75, 72, 70, 68, 65, 62, 59, 55, 51,
    47, 43, 39, 35, 32, 28, 25, 31, 38, 45, 52, 59, 66, 68, 72, 75,
))
assert len(FOREST_2026_PROFILE) == 512


@dataclass(frozen=True)
class Params(R.Params):
    """reference.Params plus the SPEC 16-17 parameters."""

    town_abs: bool = False
    calc_prof: str = "java"
    rock_above: float | None = None
    quarry_below: float | None = None
    quarry_depth: float = 40.0
    quarry_min_height: float | None = None   # None -> lake_base + 50
    path_height: str = "terra"
    snow_keeps_feature: bool = False
    pi10000: float = R.PI10000

    def terrain_kwargs(self) -> dict:
        kw = super().terrain_kwargs()
        kw.update(town_abs=self.town_abs, calc_prof=self.calc_prof,
                  rock_above=self.rock_above, quarry_below=self.quarry_below,
                  quarry_depth=self.quarry_depth, quarry_min_height=self.quarry_min_height,
                  path_height=self.path_height, snow_keeps_feature=self.snow_keeps_feature,
                  pi10000=self.pi10000)
        return kw


def forest_2026() -> Params:
    """SPEC 17's "forest_2026" preset, typed from its text."""
    ch = (19, 13, 23, 17, 15)
    # SPEC 16/17 give the rounded vectors; check them against the angles
    ah = (0, 12, 14, -10, -14)
    bh = (19, 4, -19, -14, 5)
    for i, c in enumerate(ch):
        a = (i * 0.2) * (2 * math.pi)
        assert R.round_js(c * math.sin(a)) == ah[i] and R.round_js(c * math.cos(a)) == bh[i]
    return Params(profile=FOREST_2026_PROFILE, ah=ah, bh=bh, mountain_base=626.0,
                  snow_height=680.0, rock_above=626.0, quarry_below=77.0, quarry_depth=40.0,
                  quarry_min_height=254.0, x_below=32, calc_prof="js", path_height="raw")


def calc_prof_js(p: Params, a, x: float, b, y: float) -> float:
    """terrain00.js calcProf: Math.floor((a[i]*x + b[i]*y) >> 7) & mask, summed."""
    s = 0.0
    for i in range(len(a)):
        v = float(a[i]) * float(x) + float(b[i]) * float(y)
        k = R.toint32(v) >> 7       # ToInt32, then the signed shift (Python >> on ints)
        s += p.profile[k & p.mask]
    return s


def calc_prof(p: Params, a, x, b, y) -> float:
    if p.calc_prof == "js":
        return calc_prof_js(p, a, x, b, y)
    return R.calc_prof(p, a, x, b, y)


def point_feature(p: Params, xr: float, yr: float) -> int:
    """SPEC 5's point feature with the parameter pi10000 (calc_prof is irrelevant at
    integers, but the variant's own is used anyway)."""
    xryr = float(xr) * float(yr)
    a = calc_prof(p, p.b2, xr, p.a3, yr)
    f = R.toint32(R.round_js(a * xryr * R.RECIP128)) & p.feature_mask
    if f == p.feature_point:
        xyff = R.toint32(xryr) & 0xFF
        for below, feat in ((p.mine_below, R.F_MINE), (p.boulder_below, R.F_BOULDER),
                            (p.waterhole_below, R.F_WATERHOLE), (p.knoll_below, R.F_KNOLL)):
            if xyff < below:
                return feat
        return R.F_ROOT
    if f == p.feature_x and (R.toint32(R.round_js(R.PI1000 * xryr)) & 0xFF) < p.x_below:
        return R.F_X
    if f == p.feature_cone and (R.toint32(R.round_js(p.pi10000 * xryr)) & 0xFF) < p.cone_below:
        return R.F_CONE
    return R.F_NONE


def quarry_floor(p: Params) -> float:
    return float(p.lake_base) + 50.0 if p.quarry_min_height is None else float(p.quarry_min_height)


def terra(p: Params, x: float, y: float, placed: dict | None = None):
    """(height, terrain, feature, depth) of SPEC 5-6 with SPEC 17's rules."""
    x = float(x)
    y = float(y)
    lake = p.lake_ht
    ht = R.height(p, x, y)
    if p.bleak:
        return (ht, R.GRASS, R.F_NONE, 0.0)
    snowy = p.snow_height is not None and ht > float(p.snow_height)
    if snowy and not p.snow_keeps_feature:
        return (ht, R.SNOW, R.F_NONE, 0.0)
    if p.with_paths and ht > lake:
        other_x, other_y = x + p.path_dx, y + p.path_dy
        other = R.calc_height(p, other_x, other_y) if p.path_height == "raw" \
            else R.height(p, other_x, other_y)
        if abs(ht - other) < p.path_tolerance:
            return (ht, R.PATH, R.F_NONE, 0.0)
    xr, yr = R.round_js(x), R.round_js(y)
    put = (placed or {}).get((int(xr), int(yr)))
    if put is not None and put[0] == "T":
        return (max(ht, lake), put[1], R.F_NONE, 0.0)
    placed_feature = put[1] if put is not None else None
    if lake > ht:
        return (lake, R.LAKE, placed_feature or R.F_NONE, lake - ht)
    if float(p.lake_base) > ht:
        return (ht, R.MUD, placed_feature or R.F_NONE, 0.0)
    # terrain00.js: the feature first, then what the ground is
    feature = point_feature(p, xr, yr) if placed_feature is None else placed_feature
    if snowy:                                   # snow_keeps_feature
        return (ht, R.SNOW, feature, 0.0)
    if p.rock_above is not None and ht > float(p.rock_above):
        return (ht, R.MUD, feature, 0.0)
    if not p.wood_only:
        town = calc_prof(p, p.a1, x, p.b1, y)
        if p.town_abs:
            town = abs(town)
        if town < p.town_below:
            return (ht, R.TOWN, F_PHONE if feature == F_PHONE and placed_feature else R.F_NONE,
                    0.0)
    if p.wood_only:
        return (ht, R.WOOD, feature, 0.0)
    a = calc_prof(p, p.a2, x, p.b2, y)
    b = calc_prof(p, p.a3, x, p.b3, y)
    if a < p.grass_below:
        if b < p.open_below:
            return (ht, R.GRASS, feature, 0.0)
        if (p.quarry_below is not None and a < float(p.quarry_below)
                and ht > quarry_floor(p)):
            return (ht - float(p.quarry_depth), QUARRY, R.F_NONE, 0.0)
        return (ht, R.MOOR, feature, 0.0)
    if b < p.thicket_below:
        return (ht, R.THICKET, feature, 0.0)
    return (ht, R.WOOD, feature, 0.0)


def tree_selector(p: Params, x, y) -> int:
    return R.toint32(R.round_js(p.pi10000 * R.round_js(x) * R.round_js(y))) & 3


def grid(p: Params, x0, y0, nx, ny, step=1.0, placed=None):
    """(height, depth, terrain, feature) arrays of a grid, point by point."""
    import numpy as np

    xs = R.axis(x0, nx, step)
    ys = R.axis(y0, ny, step)
    h = np.empty((ny, nx))
    d = np.empty((ny, nx))
    t = np.empty((ny, nx), np.uint8)
    f = np.empty((ny, nx), np.uint8)
    for r, yv in enumerate(ys):
        for c, xv in enumerate(xs):
            h[r, c], t[r, c], f[r, c], d[r, c] = terra(p, xv, yv, placed)
    return h, d, t, f


def terra_height(p: Params, x: int, y: int, placed: dict | None = None) -> float:
    """SPEC 7's height of a stream step: terra's, placed STREAM and MARSH ignored."""
    table = {k: v for k, v in (placed or {}).items()
             if not (v[0] == "T" and v[1] in (R.STREAM, R.MARSH))}
    return terra(p, x, y, table)[0]
