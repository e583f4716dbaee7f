"""Bad input at every public entry point: the exception type, a message that
starts with the argument's name, inputs never modified, and a failing call
leaves ``out=`` untouched.

Each case builds ``(function, args, kwargs, exception, names)``; the test
snapshots every array among the arguments (outputs included), makes the
call, and checks the exception, ``^names`` on its message, and that every
array is bit for bit as before.  Sizes "just above the physical memory" are
computed from the machine's own figure, so they are refused before any
allocation on any machine.
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
from helpers import array_snapshots

import relfterrain as rt
from relfterrain import _core, classic, mathjs

PHYS = _core.physical_memory()
# a square side whose grid() (18 bytes a point) just exceeds the memory
SIDE_GRID = math.isqrt(PHYS // 18) + 2
SIDE_F64 = math.isqrt(PHYS // 8) + 2          # one float64 grid
SIDE_U8 = math.isqrt(PHYS) + 2                # one uint8/bool grid

NAN, INF = math.nan, math.inf
T = rt.Terrain()
G = rt.Galaxy()
M = rt.Mines(T)
C = rt.Caverns(T)
P = rt.Planet(1000.0)
N = rt.Nebula(100.0)


def f64(shape, fill=1.0):
    return np.full(shape, fill)


def big_endian(shape):
    return np.zeros(shape, dtype=">f8")


def noncontig(shape):
    return np.zeros((shape[0], shape[1] * 2))[:, ::2]


def readonly(shape, dtype=np.float64):
    a = np.zeros(shape, dtype=dtype)
    a.flags.writeable = False
    return a


def grid_out():
    return [np.full((3, 4), 5.0), np.full((3, 4), 6.0), np.full((3, 4), 7, np.uint8),
            np.full((3, 4), 8, np.uint8)]


def aliased_out():
    h = np.full((3, 4), 5.0)
    return [h, h, np.zeros((3, 4), np.uint8), np.zeros((3, 4), np.uint8)]


def overlapping_out():
    buf = np.zeros(24)
    return [buf[:12].reshape(3, 4), buf[10:22].reshape(3, 4), np.zeros((3, 4), np.uint8),
            np.zeros((3, 4), np.uint8)]


def call(fn, *args, **kwargs):
    return fn, args, kwargs


CASES: list[tuple[str, object, type, str]] = []


def case(name, exc, names, build):
    CASES.append((name, build, exc, names))


V, TE, ME = ValueError, TypeError, MemoryError

# -- Terrain construction ---------------------------------------------------------------
for label, kw, exc, names in [
    ("profile-str", {"profile": ["1", "2"]}, TE, "profile"),
    ("profile-complex", {"profile": [1 + 1j, 2]}, TE, "profile"),
    ("profile-bool", {"profile": [True, False]}, TE, "profile"),
    ("profile-nan", {"profile": [1.0, NAN]}, V, "profile"),
    ("profile-inf", {"profile": [1.0, INF]}, V, "profile"),
    ("profile-3", {"profile": [1.0, 2.0, 3.0]}, V, "profile"),
    ("profile-0d", {"profile": np.array(5.0)}, V, "profile"),
    ("profile-3d", {"profile": np.zeros((2, 2, 2))}, V, "profile"),
    ("profile-empty", {"profile": []}, V, "profile"),
    ("profile-None-items", {"profile": [None, None]}, TE, "profile"),
    ("ah-float", {"ah": [1.5, 2, 3, 4, 5]}, V, "ah"),
    ("ah-huge", {"ah": [2**21, 2, 3, 4, 5]}, V, "ah"),
    ("ah-str", {"ah": "abcde"}, TE, "ah"),
    ("a1-2d", {"a1": [[1, 2], [3, 4]]}, V, "a1"),
    ("b3-nan", {"b3": [NAN, 1, 2, 3, 4]}, V, "b3"),
    ("lake_base-huge-int", {"lake_base": 2**1024}, V, "lake_base"),
    ("lake_base-nan", {"lake_base": NAN}, V, "lake_base"),
    ("lake_base-str", {"lake_base": "204"}, TE, "lake_base"),
    ("lake_base-complex", {"lake_base": 1j}, TE, "lake_base"),
    ("lake_height-inf", {"lake_height": INF}, V, "lake_height"),
    ("lake_height-bool", {"lake_height": True}, TE, "lake_height"),
    ("feature_mask-neg", {"feature_mask": -1}, V, "feature_mask"),
    ("feature_mask-float", {"feature_mask": 4095.5}, TE, "feature_mask"),
    ("feature_mask-huge", {"feature_mask": 2**40}, V, "feature_mask"),
    ("town_below-nan", {"town_below": NAN}, V, "town_below"),
    ("mountain_base-inf", {"mountain_base": -INF}, V, "mountain_base"),
    ("snow_height-str", {"snow_height": "x"}, TE, "snow_height"),
    ("bleak-array", {"bleak": np.array([1, 2])}, TE, "bleak"),
    ("bleak-int", {"bleak": 1}, TE, "bleak"),
    ("wood_only-str", {"wood_only": "yes"}, TE, "wood_only"),
    ("with_paths-None", {"with_paths": None}, TE, "with_paths"),
    ("simd-bogus", {"simd": "sse9"}, V, "simd"),
    ("simd-int", {"simd": 3}, TE, "simd"),
    ("unknown-option", {"colour": 3}, TE, "colour"),
]:
    case(f"Terrain-{label}", exc, names, lambda kw=kw: call(rt.Terrain, **kw))
case("Terrain-params-type", TE, "params", lambda: call(rt.Terrain, {"lake_base": 1}))
case("replace-bad", V, "lake_height", lambda: call(T.replace, lake_height=NAN))


def set_lake(value):
    t = rt.Terrain()
    t.lake_height = value


case("lake_height-set-nan", V, "lake_height", lambda: call(set_lake, NAN))
case("lake_height-set-str", TE, "lake_height", lambda: call(set_lake, "1"))
case("lake_height-set-huge", V, "lake_height", lambda: call(set_lake, 2**1024))

# -- points -------------------------------------------------------------------------------
for method in ("height", "sample", "tree_selector"):
    for label, x, exc, names in [
        ("str", "a", TE, "x"), ("complex", [1j], TE, "x"), ("bool", np.array([True]), TE, "x"),
        ("nan", [NAN], V, "x"), ("inf", INF, V, "x"), ("huge-int", 2**1024, V, "x"),
        ("None", None, TE, "x"), ("object", object(), TE, "x"),
    ]:
        case(f"{method}-x-{label}", exc, names, lambda m=method, x=x: call(getattr(T, m), x, 0.0))
    case(f"{method}-y-nan", V, "y", lambda m=method: call(getattr(T, m), 0.0, [1.0, NAN]))
    case(f"{method}-shapes", V, "x, y", lambda m=method: call(getattr(T, m), [1.0, 2.0],
                                                              [1.0, 2.0, 3.0]))
for label, args, exc, names in [
    ("x-str", ("1", 0), TE, "x"), ("y-nan", (0, NAN), V, "y"), ("x-huge", (2**1024, 0), V, "x"),
    ("x-list", ([1, 2], 0), TE, "x"), ("y-complex", (0, 1j), TE, "y"),
]:
    case(f"terra-{label}", exc, names, lambda a=args: call(T.terra, *a))
case("height-threads-0", V, "threads", lambda: call(T.height, 0.0, 0.0, threads=0))
case("sample-threads-str", TE, "threads", lambda: call(T.sample, 0.0, 0.0, threads="2"))
for label, args, exc, names in [
    ("x0-float", (0.5, 0, 10, 10), TE, "x0"), ("nx-0", (0, 0, 0, 10), V, "nx"),
    ("ny-neg", (0, 0, 10, -1), V, "ny"), ("nx-str", (0, 0, "10", 10), TE, "nx"),
    ("y0-huge", (0, 2**70, 10, 10), V, "y0"),
]:
    case(f"buildings-{label}", exc, names, lambda a=args: call(T.buildings, *a))

# -- grids ----------------------------------------------------------------------------------
for method in ("grid", "height_grid", "terrain_grid", "feature_grid"):
    fn = getattr(T, method)
    for label, args, kw, exc, names in [
        ("x0-nan", (NAN, 0, 4, 3), {}, V, "x0"),
        ("y0-str", (0, "0", 4, 3), {}, TE, "y0"),
        ("x0-huge-int", (2**1024, 0, 4, 3), {}, V, "x0"),
        ("nx-0", (0, 0, 0, 3), {}, V, "nx"),
        ("ny-neg", (0, 0, 4, -3), {}, V, "ny"),
        ("nx-float", (0, 0, 4.0, 3), {}, TE, "nx"),
        ("nx-huge", (0, 0, 2**70, 3), {}, V, "offset, nx, ny"),
        ("step-0", (0, 0, 4, 3, 0.0), {}, V, "step"),
        ("step-inf", (0, 0, 4, 3, INF), {}, V, "step"),
        ("step-complex", (0, 0, 4, 3, 1j), {}, TE, "step"),
        ("offset-neg", (0, 0, 4, 3), {"offset": (-1, 0)}, V, "offset"),
        ("offset-str", (0, 0, 4, 3), {"offset": "ab"}, TE, "offset"),
        ("threads-0", (0, 0, 4, 3), {"threads": 0}, V, "threads"),
        ("threads-float", (0, 0, 4, 3), {"threads": 1.5}, TE, "threads"),
        ("last-x-inf", (1e308, 0, 4, 3, 1e308), {}, V, "x0, step"),
    ]:
        case(f"{method}-{label}", exc, names, lambda fn=fn, a=args, k=kw: call(fn, *a, **k))
case("grid-memory", ME, "nx, ny", lambda: call(T.grid, 0, 0, SIDE_GRID, SIDE_GRID))
case("height_grid-memory", ME, "nx, ny", lambda: call(T.height_grid, 0, 0, SIDE_F64, SIDE_F64))
case("terrain_grid-memory", ME, "nx, ny",
     lambda: call(T.terrain_grid, 0, 0, SIDE_U8, SIDE_U8))
case("feature_grid-memory", ME, "nx, ny",
     lambda: call(T.feature_grid, 0, 0, SIDE_U8, SIDE_U8))
for label, out, exc, names in [
    ("big-endian", big_endian((3, 4)), TE, "out"),
    ("noncontig", noncontig((3, 4)), V, "out"),
    ("readonly", readonly((3, 4)), V, "out"),
    ("shape", f64((4, 3)), V, "out"),
    ("3d", f64((1, 3, 4)), V, "out"),
    ("0d", np.array(1.0), V, "out"),
    ("dtype", np.zeros((3, 4), np.float32), TE, "out"),
    ("list", [[0.0] * 4] * 3, TE, "out"),
]:
    case(f"height_grid-out-{label}", exc, names,
         lambda o=out: call(T.height_grid, 0, 0, 4, 3, out=o))
case("terrain_grid-out-readonly", V, "out", lambda: call(T.terrain_grid, 0, 0, 4, 3,
                                                          out=readonly((3, 4), np.uint8)))
case("feature_grid-out-f64", TE, "out", lambda: call(T.feature_grid, 0, 0, 4, 3, out=f64((3, 4))))
case("grid-out-aliased", V, "out", lambda: call(T.grid, 0, 0, 4, 3, out=aliased_out()))
case("grid-out-overlap", V, "out", lambda: call(T.grid, 0, 0, 4, 3, out=overlapping_out()))
case("grid-out-3", V, "out", lambda: call(T.grid, 0, 0, 4, 3, out=grid_out()[:3]))
case("grid-out-int", TE, "out", lambda: call(T.grid, 0, 0, 4, 3, out=5))
case("grid-out-one-readonly", V, "out",
     lambda: call(T.grid, 0, 0, 4, 3, out=grid_out()[:3] + [readonly((3, 4), np.uint8)]))
case("grid-out-bad-x0", V, "x0", lambda: call(T.grid, NAN, 0, 4, 3, out=grid_out()))
case("height_grid-out-bad-step", V, "step",
     lambda: call(T.height_grid, 0, 0, 4, 3, -1.0, out=f64((3, 4), 9.0)))

# -- the placed table ------------------------------------------------------------------------
for label, args, exc, names in [
    ("x-float", (0.5, 0, rt.Feature.BOULDER), TE, "x"),
    ("y-str", (0, "0", rt.Feature.BOULDER), TE, "y"),
    ("x-huge", (2**53 + 1, 0, rt.Feature.BOULDER), V, "x"),
    ("y-huge", (0, -(2**60), rt.Feature.BOULDER), V, "y"),
    ("what-int", (0, 0, 3), TE, "what"),
    ("what-None", (0, 0, None), TE, "what"),
    ("what-str", (0, 0, "BOULDER"), TE, "what"),
]:
    case(f"place-{label}", exc, names, lambda a=args: call(rt.Terrain().place, *a))
case("at-x-nan", TE, "x", lambda: call(T.at, NAN, 0))
case("remove-y-huge", V, "y", lambda: call(T.remove, 0, 2**64))
case("remove_all-what", TE, "what", lambda: call(T.remove_all, 7))

# -- streams, sites, roads, features, maps ---------------------------------------------------
for label, args, kw, exc, names in [
    ("x-float", (0.5, 0), {}, TE, "x"),
    ("neighbourhood", (0, 0), {"neighbourhood": "hex"}, V, "neighbourhood"),
]:
    case(f"trace_stream-{label}", exc, names, lambda a=args, k=kw: call(T.trace_stream, *a, **k))
for method in ("streams", "mark_streams", "features"):
    for label, args, kw, exc, names in [
        ("nx-0", (0, 0, 0, 10), {}, V, "nx"), ("x0-float", (0.5, 0, 10, 10), {}, TE, "x0"),
        ("ny-str", (0, 0, 10, "10"), {}, TE, "ny"),
    ]:
        case(f"{method}-{label}", exc, names,
             lambda m=method, a=args, k=kw: call(getattr(rt.Terrain(), m), *a, **k))
case("streams-margin-neg", V, "margin", lambda: call(T.streams, 0, 0, 10, 10, margin=-1))
for label, args, kw, exc, names in [
    ("x-nan", (NAN, 0), {}, V, "x"), ("y-str", (0, "a"), {}, TE, "y"),
    ("min_height-nan", (0, 0), {"min_height": NAN}, V, "min_height"),
]:
    case(f"find_good_site-{label}", exc, names,
         lambda a=args, k=kw: call(T.find_good_site, *a, **k))
case("find_good_sites-shapes", V, "x, y",
     lambda: call(T.find_good_sites, [1.0, 2.0], [1.0, 2.0, 3.0]))
for label, pts, kw, exc, names in [
    ("one-point", [[0, 0]], {}, V, "points"),
    ("str", "abc", {}, TE, "points"),
    ("nan", [[0, 0], [NAN, 1]], {}, TE, "points"),
    ("3d", np.zeros((2, 2, 2)), {}, V, "points"),
    ("half_width-neg", [[0, 0], [10, 0]], {"half_width": -1}, V, "half_width"),
    ("half_width-float", [[0, 0], [10, 0]], {"half_width": 1.5}, TE, "half_width"),
]:
    case(f"add_road-{label}", exc, names,
         lambda p=pts, k=kw: call(rt.Terrain().add_road, p, **k))
case("remove_road-index", IndexError, "index_or_road", lambda: call(rt.Terrain().remove_road, 3))
case("remove_road-str", TE, "index_or_road", lambda: call(rt.Terrain().remove_road, "a"))
case("building_grid-step", V, "step", lambda: call(T.building_grid, 0, 0, 4, 4, 0.0))
case("tree_grid-nx", V, "nx", lambda: call(T.tree_grid, 0, 0, -4, 4))
case("map-nx", V, "nx", lambda: call(T.map, 0, 0, 0, 4))
case("map-palette", V, "palette", lambda: call(T.map, 0, 0, 4, 4, palette="neon"))
case("preset-name", V, "name", lambda: call(rt.Terrain.preset, "atlantis"))
case("preset-type", V, "name", lambda: call(rt.Terrain.preset, 3))
case("islands-terrain", TE, "terrain", lambda: call(rt.islands, "t", 0, 0, 4, 4))
case("islands-nx", V, "nx", lambda: call(rt.islands, T, 0, 0, 0, 4))


def load_missing(tmp):
    return call(rt.load, os.path.join(tmp, "missing.json"))


# -- Galaxy -----------------------------------------------------------------------------------
for label, kw, exc, names in [
    ("profile-str", {"profile": ["a", "b"]}, TE, "profile"),
    ("s-float", {"s": [1.5] * 5}, V, "s"),
    ("f_value-outside", {"f_mask": 0xFF, "f_value": 0x100}, V, "f_value"),
    ("f_mask-neg", {"f_mask": -1}, V, "f_mask"),
    ("min_magnitude-nan", {"min_magnitude": NAN}, V, "min_magnitude"),
    ("magnitude_range-str", {"magnitude_range": "5"}, TE, "magnitude_range"),
]:
    case(f"Galaxy-{label}", exc, names, lambda kw=kw: call(rt.Galaxy, **kw))
for method in ("stars", "census", "count", "planet_counts"):
    fn = getattr(G, method)
    for label, args, kw, exc, names in [
        ("nx-0", (0, 0, 0, 0, 1, 1), {}, V, "nx"),
        ("x0-float", (0.5, 0, 0, 1, 1, 1), {}, TE, "x0"),
        ("z0-huge", (0, 0, 2**63, 1, 1, 1), {}, V, "z0"),
        ("huge-block", (0, 0, 0, 2**21, 2**21, 2**20), {}, V, "nx, ny, nz"),
        ("allow_huge-int", (0, 0, 0, 1, 1, 1), {"allow_huge": 1}, TE, "allow_huge"),
        ("planes_per_call-0", (0, 0, 0, 1, 1, 1), {"planes_per_call": 0}, V, "planes_per_call"),
        ("threads-0", (0, 0, 0, 1, 1, 1), {"threads": 0}, V, "threads"),
    ]:
        case(f"Galaxy.{method}-{label}", exc, names, lambda fn=fn, a=args, k=kw: call(fn, *a, **k))
case("Galaxy.star-x-str", TE, "x", lambda: call(G.star, "1", 1, 1))
case("density-block", V, "block", lambda: call(rt.density, None, (1, 2, 3)))
case("density-galaxy", TE, "galaxy", lambda: call(rt.density, "g"))
case("nearest_star-observer", TE, "observer",
     lambda: call(rt.nearest_star, None, rt.INITIAL_VIEW, (0, 0, 0.5)))
case("independence-table-overflow", V, "table",
     lambda: call(rt.colour_planet_independence, table=np.full((16, 16), 2**62, np.int64)))
case("independence-table-shape", V, "table",
     lambda: call(rt.colour_planet_independence, table=np.zeros((4, 4), np.int64)))
case("independence-stars", TE, "stars",
     lambda: call(rt.colour_planet_independence, stars=np.zeros(3)))

# -- classic ----------------------------------------------------------------------------------
for label, fn, args, kw, exc, names in [
    ("midpoint-iterations-neg", classic.midpoint_displacement, (-1,), {}, V, "iterations"),
    ("midpoint-iterations-float", classic.midpoint_displacement, (2.0,), {}, TE, "iterations"),
    ("midpoint-memory", classic.midpoint_displacement, (31,), {}, ME, "iterations"),
    ("midpoint-h-huge", classic.midpoint_displacement, (3, 2**1024), {}, V, "h"),
    ("midpoint-h-2", classic.midpoint_displacement, (3, 2.0), {}, V, "h"),
    ("midpoint-rng-neg", classic.midpoint_displacement, (3,), {"rng": -1}, V, "rng"),
    ("midpoint-rng-str", classic.midpoint_displacement, (3,), {"rng": "x"}, TE, "rng"),
    ("midpoint-scale-nan", classic.midpoint_displacement, (3,), {"scale": NAN}, V, "scale"),
    ("diamond-iterations-str", classic.diamond_square, ("3",), {}, TE, "iterations"),
    ("diamond-memory", classic.diamond_square, (16,), {}, ME, "iterations"),
    ("diamond-seed_grid", classic.diamond_square, (3,), {"seed_grid": np.zeros((4, 4))}, V,
     "seed_grid"),
    ("clouds-heights-str", classic.clouds, ("abc",), {}, TE, "heights"),
    ("clouds-clear-nan", classic.clouds, (np.zeros((3, 3)),), {"clear": NAN, "cloudy": 1.0}, V,
     "clear"),
    ("limited-width-0", classic.limited_random, (0, 3, 1.0, 0.0, 1.0), {}, V, "width"),
    ("limited-memory", classic.limited_random,
     (math.isqrt(PHYS // 16) + 2, math.isqrt(PHYS // 16) + 2, 1.0, 0.0, 1.0), {}, ME,
     "width, height"),
    ("limited-max-nan", classic.limited_random, (3, 3, NAN, 0.0, 1.0), {}, V, "max_increase"),
    ("circle-width-neg", classic.circle_hill, (-3, 3, 1, 1.0, 1.0, 1.0), {}, V, "width"),
    ("circle-memory", classic.circle_hill, (SIDE_F64, SIDE_F64, 1, 1.0, 1.0, 1.0), {}, ME,
     "width, height"),
    ("roughness-3d", classic.roughness, (np.zeros((2, 2, 2)),), {}, V, "heights"),
    ("roughness-scales", classic.roughness, (np.zeros((8, 8)), [0]), {}, V, "scales"),
]:
    case(f"classic.{label}", exc, names, lambda fn=fn, a=args, k=kw: call(fn, *a, **k))

# -- Mines, Caverns, Planet, Nebula ----------------------------------------------------------
for label, fn, args, kw, exc, names in [
    ("Mines-terrain", rt.Mines, ("t",), {}, TE, "terrain"),
    ("Mines-variant", rt.Mines, (T,), {"variant": "x"}, V, "variant"),
    ("Mines-threshold", rt.Mines, (T,), {"threshold": 1.5}, V, "threshold"),
    ("Mines-cell_size", rt.Mines, (T,), {"cell_size": 0}, V, "cell_size"),
    ("Mines.is_open-x", M.is_open, (NAN, 0), {}, V, "x"),
    ("Mines.open_grid-ncx", M.open_grid, (0, 0, 0, 4), {}, V, "ncx"),
    ("Mines.open_grid-memory", M.open_grid, (0, 0, SIDE_U8, SIDE_U8), {}, ME, "ncx, ncy"),
    ("Mines.open_grid-out", M.open_grid, (0, 0, 4, 4), {"out": readonly((4, 4), bool)}, V, "out"),
    ("Mines.label-ncy", M.label, (0, 0, 4, -1), {}, V, "ncy"),
    ("Mines.percolation-sizes", M.percolation, ([0],), {}, V, "sizes"),
    ("Mines.cave_mouths-steep", M.cave_mouths, (0, 0, 4, 4, NAN), {}, V, "steepness"),
    ("label_cells-3d", rt.label_cells, (np.zeros((2, 2, 2, 2), bool),), {}, V, "open"),
    ("Caverns-scale", rt.Caverns, (T, NAN), {}, V, "scale"),
    ("Caverns.floor_grid-nx", C.floor_grid, (0, 0, 0, 4), {}, V, "nx"),
    ("Caverns.space_grid-memory", C.space_grid, (0, 0, SIDE_F64, SIDE_F64), {}, ME, "nx, ny"),
    ("Planet-radius", rt.Planet, (-1.0,), {}, V, "radius"),
    ("Planet-radius-str", rt.Planet, ("1",), {}, TE, "radius"),
    ("Planet.height-lat", P.height, (NAN, 0.0), {}, V, "lat"),
    ("Planet.grid-nlat", P.grid, (0, 0, 0, 4), {}, V, "nlat"),
    ("Planet.grid-memory", P.grid, (0, 0, SIDE_F64, SIDE_F64), {}, ME, "nlat, nlon"),
    ("Planet.place-what", P.place, (0, 0, 0, 3), {}, TE, "what"),
    ("Nebula-threshold", rt.Nebula, (NAN,), {}, V, "threshold"),
    ("Nebula-a", rt.Nebula, (1.0,), {"a": [1.5]}, V, "a"),
    ("Nebula.density-x", N.density, ("a", 0, 0), {}, TE, "x"),
    ("Nebula.grid-nz", N.grid, (0, 0, 0, 4, 4, 0), {}, V, "nz"),
    ("Nebula.grid-memory", N.grid, (0, 0, 0, 2**12, 2**12, PHYS // 2**27 + 1), {}, ME,
     "nx, ny, nz"),
    ("make_profile-length", rt.make_profile, (3,), {}, V, "length"),
    ("make_profile-length-str", rt.make_profile, ("8",), {}, TE, "length"),
    ("make_profile-rng", rt.make_profile, (8, "x"), {}, TE, "rng"),
    ("mathjs.sin-str", mathjs.sin, ("a",), {}, TE, "x"),
    ("mathjs.cos-complex", mathjs.cos, (1j,), {}, TE, "x"),
]:
    case(label, exc, names, lambda fn=fn, a=args, k=kw: call(fn, *a, **k))


@pytest.mark.parametrize("name, build, exc, names", CASES, ids=[c[0] for c in CASES])
def test_bad_input(name, build, exc, names):
    fn, args, kwargs = build()
    before = array_snapshots([args, kwargs])
    with pytest.raises(exc) as info:
        fn(*args, **kwargs)
    msg = str(info.value)
    assert msg.startswith(names), f"{type(info.value).__name__}: {msg}"
    for a, copy in before:
        assert a.dtype == copy.dtype and a.shape == copy.shape
        assert a.tobytes() == copy.tobytes(), "an argument (or out=) was modified"


def test_case_count():
    assert len(CASES) >= 150


def test_load_missing_file(tmp_path):
    with pytest.raises(OSError):
        rt.load(tmp_path / "missing.json")


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", '{"format": "x"}', "\udcff"])
def test_load_corrupt(tmp_path, text):
    p = tmp_path / "t.json"
    p.write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(ValueError) as info:
        rt.load(p)
    assert str(info.value).startswith(str(p))


# -- values that are not real numbers are refused, never converted ----------------------------
NOT_REAL = [("str", "1.5"), ("bool", True), ("complex", 1 + 2j), ("huge", 2**1024),
            ("str-list", ["1", "2"])]


@pytest.mark.parametrize("label, bad", NOT_REAL, ids=[n for n, _ in NOT_REAL])
@pytest.mark.parametrize("where", ["Nebula.density", "Planet.height", "classic.clouds",
                                   "classic.roughness", "evolve"])
def test_not_real(where, label, bad):
    if where == "Nebula.density":
        fn, name = (lambda: N.density(bad, 0.0, 0.0)), "x"
    elif where == "Planet.height":
        fn, name = (lambda: P.height(0.0, bad)), "lon"
    elif where.startswith("classic."):
        # (NumPy makes a list mixing bools and floats float64: a bool array here)
        grid = np.ones((2, 2), bool) if label == "bool" else [[bad, 1.0], [1.0, 1.0]]
        fn, name = (lambda: getattr(classic, where[8:])(grid)), "heights"
    else:
        t = rt.Terrain(time_vector=True)
        fn, name = (lambda: t.height(0.0, 0.0, bad)), "t"
    exc = ValueError if label == "huge" else TypeError
    with pytest.raises(exc, match=f"^{name}"):
        fn()
