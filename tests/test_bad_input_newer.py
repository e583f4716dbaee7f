"""Bad input over the newer surface (issue 19), in the style of
tests/test_bad_input.py: streams, sites, roads, save/load, maps, planets,
nebulae, random profiles, the feature grids, GIS (GeoTIFF, GeoJSON, vectors),
dask, tiles, the tile server, the explorer and the command line (whose
refusals are exit status 2 with ``error: NAME: ...``).

Each case is ``(name, build, exception, names)``: the call must raise that
exception with a message starting with the argument's name, and must leave
every array among its arguments (``out=`` included) as it was.  One rule
everywhere: numbers are real numbers (no str, bool, complex), indices are
ints, paths are ``str``/``os.PathLike``; none is ever converted.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import tempfile

import numpy as np
import pytest
from helpers import array_snapshots

import relfterrain as rt
from relfterrain import _core, cli, explorer, gis, maps, serve, tiles
from relfterrain import dask as rtd
from relfterrain.random_profile import make_profile

PHYS = _core.physical_memory()
NAN, INF = math.nan, math.inf
V, TE, ME, IE = ValueError, TypeError, MemoryError, IndexError
T = rt.Terrain()
P = rt.Planet(1000.0)
N = rt.Nebula(100.0)
SITES = T.find_good_sites([23400.0, 23800.0], [5320.0, 5700.0])

CASES: list[tuple[str, object, type, str]] = []


def case(name, exc, names, build):
    CASES.append((name, build, exc, names))


def call(fn, *args, **kwargs):
    return fn, args, kwargs


# the kinds of bad value, by what the argument is
NOT_INT = [("str", "1", TE), ("bool", True, TE), ("float", 1.5, TE), ("whole-float", 2.0, TE),
           ("complex", 1j, TE), ("None", None, TE), ("list", [1], TE)]
NOT_REAL = [("str", "1", TE), ("bool", True, TE), ("complex", 1 + 0j, TE), ("nan", NAN, V),
            ("inf", INF, V), ("huge", 2**1024, V), ("list", [1.0], TE)]
NOT_FLAG = [("str", "yes", TE), ("int", 1, TE), ("None", None, TE)]
HUGE_INT = [("2**64", 2**64, V), ("2**70", 2**70, V)]

AREA = (23396, 5318, 40, 30)

# -- streams ------------------------------------------------------------------------------------
for method in ("streams", "mark_streams"):
    for arg, pos in (("x0", 0), ("y0", 1), ("nx", 2), ("ny", 3)):
        for label, bad, exc in NOT_INT:
            def build(method=method, pos=pos, bad=bad):
                a = list(AREA)
                a[pos] = bad
                return call(getattr(rt.Terrain(), method), *a)
            case(f"{method}-{arg}-{label}", exc, arg, build)
    for label, bad, exc in NOT_INT:
        case(f"{method}-margin-{label}", exc, "margin",
             lambda method=method, bad=bad: call(getattr(rt.Terrain(), method), *AREA, margin=bad))
    for label, bad, exc in NOT_REAL:
        case(f"{method}-max_length-{label}", exc, "max_length",
             lambda method=method, bad=bad: call(getattr(rt.Terrain(), method), *AREA,
                                                 max_length=bad))
    for label, bad, exc in NOT_FLAG:
        case(f"{method}-allow_huge-{label}", exc, "allow_huge",
             lambda method=method, bad=bad: call(getattr(rt.Terrain(), method), *AREA,
                                                 allow_huge=bad))
    for label, bad, exc in [("bogus", "diagonal", V), ("int", 4, V)]:
        case(f"{method}-neighbourhood-{label}", exc, "neighbourhood",
             lambda method=method, bad=bad: call(getattr(rt.Terrain(), method), *AREA,
                                                 neighbourhood=bad))
    case(f"{method}-negative-nx", V, "nx",
         lambda method=method: call(getattr(rt.Terrain(), method), 0, 0, -5, 10))
    case(f"{method}-max_length-negative", V, "max_length",
         lambda method=method: call(getattr(rt.Terrain(), method), *AREA, max_length=-1.0))
for label, bad, exc in NOT_INT + HUGE_INT + [("negative", -1, V)]:
    case(f"mark_streams-limit-{label}", exc, "limit",
         lambda bad=bad: call(rt.Terrain().mark_streams, *AREA, limit=bad))
for arg in ("x", "y"):
    for label, bad, exc in NOT_INT:
        case(f"trace_stream-{arg}-{label}", exc, arg,
             lambda arg=arg, bad=bad: call(T.trace_stream, **{"x": 23907, "y": 5835, arg: bad}))

# -- sites --------------------------------------------------------------------------------------
for method in ("find_good_site", "find_good_sites"):
    for arg in ("x", "y"):
        for label, bad, exc in [("str", "23400", TE), ("bool", True, TE), ("complex", 1j, TE),
                                ("nan", NAN, V), ("inf", INF, V), ("None", None, TE)]:
            case(f"{method}-{arg}-{label}", exc, arg,
                 lambda method=method, arg=arg, bad=bad: call(
                     getattr(rt.Terrain(), method), **{"x": 23400.0, "y": 5320.0, arg: bad}))
    for arg in ("min_height", "mine_distance", "building_distance", "clearance",
                "patch_radius"):
        for label, bad, exc in NOT_REAL:
            case(f"{method}-{arg}-{label}", exc, arg,
                 lambda method=method, arg=arg, bad=bad: call(
                     getattr(rt.Terrain(), method), 23400.0, 5320.0, **{arg: bad}))
    for label, bad, exc in NOT_INT:
        case(f"{method}-max_loops-{label}", exc, "max_loops",
             lambda method=method, bad=bad: call(getattr(rt.Terrain(), method), 23400.0,
                                                 5320.0, max_loops=bad))
    for label, bad, exc in NOT_FLAG:
        case(f"{method}-may_alter-{label}", exc, "may_alter",
             lambda method=method, bad=bad: call(getattr(rt.Terrain(), method), 23400.0,
                                                 5320.0, may_alter=bad))
    for label, bad, exc in [("bool", True, TE), ("str", "7", TE), ("float", 1.5, TE),
                            ("negative", -1, V)]:
        case(f"{method}-rng-{label}", exc, "rng",
             lambda method=method, bad=bad: call(getattr(rt.Terrain(), method), 23400.0,
                                                 5320.0, rng=bad))
case("find_good_sites-strings", TE, "x",
     lambda: call(T.find_good_sites, ["23400", "23800"], [5320.0, 5700.0]))
case("find_good_sites-bools", TE, "y",
     lambda: call(T.find_good_sites, [23400.0, 23800.0], [True, False]))
case("find_good_sites-complex-array", TE, "x",
     lambda: call(T.find_good_sites, np.array([1 + 0j]), [5320.0]))
case("find_good_sites-no-broadcast", V, "x, y",
     lambda: call(T.find_good_sites, np.zeros(3), np.zeros(4)))
case("find_good_sites-past-memory", ME, "x, y",
     lambda: call(T.find_good_sites, np.zeros((100000, 1)), np.zeros((1, 100000)),
                  max_loops=1))
for method in ("site", "reason_text"):
    for label, bad, exc in [("str", "0", TE), ("float", 0.0, TE), ("bool", False, TE),
                            ("None", None, TE), ("past-end", 5, IE), ("before-start", -3, IE),
                            ("tuple-str", ("0",), TE), ("tuple-long", (0, 0), IE)]:
        case(f"Sites.{method}-{label}", exc, "i",
             lambda method=method, bad=bad: call(getattr(SITES, method), bad))

# -- roads --------------------------------------------------------------------------------------
ROAD = [(23400, 5320), (23440, 5350)]
for label, bad, exc in NOT_INT + [("negative", -1, V), ("huge", 2000, V)]:
    case(f"add_road-half_width-{label}", exc, "half_width",
         lambda bad=bad: call(rt.Terrain().add_road, ROAD, half_width=bad))
for label, bad, exc in [c for c in NOT_INT if c[0] != "None"] + HUGE_INT + [("negative", -1, V)]:
    case(f"add_road-max_bridge-{label}", exc, "max_bridge",
         lambda bad=bad: call(rt.Terrain().add_road, ROAD, max_bridge=bad))
for label, bad, exc in [("str-point", [("1", "2"), (3, 4)], TE), ("float-point", [(1.5, 2), (3, 4)], TE),
                        ("one-point", [(1, 2)], V), ("3-columns", np.zeros((3, 3), np.int64), V),
                        ("outside", [(2**27, 0), (0, 0)], V), ("not-pairs", [1, 2, 3], TE),
                        ("None", None, TE), ("complex-array", np.ones((2, 2), complex), TE)]:
    case(f"add_road-points-{label}", exc, "points",
         lambda bad=bad: call(rt.Terrain().add_road, bad))
for label, bad, exc in [("str", "0", TE), ("float", 0.0, TE), ("bool", True, TE),
                        ("None", None, TE), ("past-end", 3, IE),
                        ("unknown-road", rt.Road(np.array([[0, 0], [5, 5]]), 2), V)]:
    case(f"remove_road-{label}", exc, "index_or_road",
         lambda bad=bad: call(rt.Terrain().remove_road, bad))

# -- save and load: paths -----------------------------------------------------------------------
BAD_PATHS = [("None", None, TE), ("bytes", b"t.json", TE), ("int", 3, TE), ("empty", "", V),
             ("nul", "a\0b.json", V), ("list", ["t.json"], TE)]
for label, bad, exc in BAD_PATHS:
    case(f"save-{label}", exc, "path", lambda bad=bad: call(rt.Terrain().save, bad))
    case(f"load-{label}", exc, "path", lambda bad=bad: call(rt.load, bad))
    case(f"save_png-{label}", exc, "path",
         lambda bad=bad: call(maps.save_png, np.zeros((2, 2, 3), np.uint8), bad))
# (devices, pipes and links: tests/test_hardening.py, in a folder of their own;
# never the system's /dev/null, which the old code replaced with a file)

# -- maps ---------------------------------------------------------------------------------------
Z = np.arange(20.0).reshape(4, 5)
for label, bad, exc in NOT_REAL + [("zero", 0.0, V), ("negative", -5.0, V)]:
    case(f"contour_mask-interval-{label}", exc, "interval",
         lambda bad=bad: call(maps.contour_mask, Z, bad))
for label, bad, exc in NOT_INT + [("negative", -1, V)]:
    case(f"contour_mask-index_every-{label}", exc, "index_every",
         lambda bad=bad: call(maps.contour_mask, Z, 5.0, bad))
for label, bad, exc in [("1-D", np.arange(5.0), V), ("3-D", np.zeros((2, 2, 2)), V),
                        ("str", [["a", "b"], ["c", "d"]], TE), ("bool", np.ones((2, 2), bool), TE),
                        ("complex", np.ones((2, 2), complex), TE),
                        ("nan", np.array([[1.0, NAN], [1.0, 1.0]]), V)]:
    case(f"contour_mask-z-{label}", exc, "z", lambda bad=bad: call(maps.contour_mask, bad, 5.0))
for label, bad, exc in [("int", 3, TE), ("unknown", "neon", V), ("None", None, TE),
                        ("bad-table", maps.PALETTES["relf"]._replace(
                            terrain=np.zeros((3, 3), np.uint8)), V),
                        ("bad-colour", maps.PALETTES["relf"]._replace(contour=(1, 2)), V),
                        ("big-colour", maps.PALETTES["relf"]._replace(black=(0, 0, 256)), V)]:
    case(f"render-palette-{label}", exc, "palette",
         lambda bad=bad: call(maps.render, T, 23400, 5320, 8, 8, palette=bad))
    case(f"terrain_colours-palette-{label}", exc, "palette",
         lambda bad=bad: call(maps.terrain_colours, np.zeros((2, 2), np.uint8), bad))
# (interval may be the string 'auto': another string is a ValueError)
for label, bad, exc in [(n, b, V if n == "str" else e) for n, b, e in NOT_REAL] + [("zero", 0.0, V)]:
    case(f"render-interval-{label}", exc, "interval",
         lambda bad=bad: call(maps.render, T, 23400, 5320, 8, 8, interval=bad))
for label, bad, exc in NOT_REAL + [("zero", 0.0, V), ("negative", -1.0, V)]:
    case(f"star_field-scale-{label}", exc, "scale",
         lambda bad=bad: call(maps.star_field, scale=bad))
case("star_field-past-memory", ME, "scale", lambda: call(maps.star_field, scale=1e4))

# -- planets ------------------------------------------------------------------------------------
for method in ("place", "remove"):
    for arg, pos in (("xr", 0), ("yr", 1), ("zr", 2)):
        for label, bad, exc in NOT_INT:
            def build(method=method, pos=pos, bad=bad):
                a = [1, 0, 0]
                a[pos] = bad
                extra = (rt.Feature.BOULDER,) if method == "place" else ()
                return call(getattr(rt.Planet(1000.0), method), *a, *extra)
            case(f"Planet.{method}-{arg}-{label}", exc, arg, build)
case("Planet.place-outside", V, "zr", lambda: call(P.place, 0, 0, 5000, rt.Feature.BOULDER))
case("Planet.place-what", TE, "what", lambda: call(P.place, 0, 0, 0, "BOULDER"))
for arg in ("lat0", "lon0", "step"):
    for label, bad, exc in NOT_REAL:
        case(f"Planet.map-{arg}-{label}", exc, arg,
             lambda arg=arg, bad=bad: call(P.map, **{"lat0": 0.0, "lon0": 0.0, "nx": 8, "ny": 8,
                                                     arg: bad}))
for arg in ("nx", "ny"):
    for label, bad, exc in NOT_INT + [("zero", 0, V)]:
        case(f"Planet.map-{arg}-{label}", exc, arg,
             lambda arg=arg, bad=bad: call(P.map, 0.0, 0.0, **{"nx": 8, "ny": 8, arg: bad}))
case("Planet.map-tiny-radius", V, "radius", lambda: call(rt.Planet(5e-324).map, 0, 0, 8, 8))
SIDE_MAP = math.isqrt(PHYS // 19) + 2
if SIDE_MAP**2 <= 2**34:
    case("Planet.map-past-memory", ME, "nx, ny", lambda: call(P.map, 0, 0, SIDE_MAP, SIDE_MAP))
for arg in ("lat", "lon"):
    for label, bad, exc in [c for c in NOT_REAL if c[0] != "list"]:  # arrays are fine
        case(f"Planet.terra-{arg}-{label}", exc, arg,
             lambda arg=arg, bad=bad: call(P.terra, **{"lat": 0.0, "lon": 0.0, arg: bad}))

# -- nebulae ------------------------------------------------------------------------------------
for label, bad in [("bogus", "bogus"), ("int8", np.int8), ("complex", complex), ("None-str", "None"),
                   ("list", [1])]:
    case(f"Nebula.grid-dtype-{label}", TE, "dtype",
         lambda bad=bad: call(N.grid, 0, 0, 0, 2, 2, 2, dtype=bad))
for label, bad in [("list", [[[0.0] * 2] * 2] * 2), ("tuple", (1, 2)), ("str", "out")]:
    case(f"Nebula.grid-out-{label}", TE, "out",
         lambda bad=bad: call(N.grid, 0, 0, 0, 2, 2, 2, out=bad))
    case(f"Nebula.gas-out-{label}", TE, "out",
         lambda bad=bad: call(N.gas, 0, 0, 0, 2, 2, 2, out=bad))

# -- random profiles ----------------------------------------------------------------------------
for label, bad, exc in NOT_INT + [("three", 3, V), ("zero", 0, V), ("2**25", 2**25, V)]:
    case(f"make_profile-length-{label}", exc, "length", lambda bad=bad: call(make_profile, bad))
for label, bad, exc in [("bool", True, TE), ("str", "1", TE), ("float", 1.5, TE),
                        ("negative", -1, V), ("complex", 1j, TE)]:
    case(f"make_profile-rng-{label}", exc, "rng",
         lambda bad=bad: call(make_profile, 64, rng=bad))
for arg in ("round_first", "progress"):
    for label, bad, exc in NOT_FLAG:
        case(f"make_profile-{arg}-{label}", exc, arg,
             lambda arg=arg, bad=bad: call(make_profile, 64, rng=1, **{arg: bad}))

# -- Terrain(time_vector=...) -------------------------------------------------------------------
for label, bad, exc in [("strs", ["1"] * 5, TE), ("bools", [True] * 5, TE),
                        ("complex", [1j] * 5, TE), ("nan", [NAN] * 5, V), ("short", [1.0] * 4, V),
                        ("str", "11111", TE), ("huge", [2.0**21] * 5, V)]:
    case(f"Terrain-time_vector-{label}", exc, "time_vector",
         lambda bad=bad: call(rt.Terrain, time_vector=bad))

# -- feature grids: the answer's bytes checked before allocating --------------------------------
SIDE_U8 = math.isqrt(PHYS) + 2
SIDE_F64x2 = math.isqrt(PHYS // 16) + 2
for method, side in (("building_grid", SIDE_U8), ("tree_grid", SIDE_U8),
                     ("tree_offset_grid", SIDE_F64x2)):
    case(f"{method}-past-memory", ME, "nx, ny",
         lambda method=method, side=side: call(getattr(T, method), 0, 0, side, side))
    for label, bad, exc in NOT_REAL:
        case(f"{method}-step-{label}", exc, "step",
             lambda method=method, bad=bad: call(getattr(T, method), 0, 0, 4, 4, bad))


# -- GIS: GeoTIFF, GeoJSON, vectors -------------------------------------------------------------
OUT_DIR = tempfile.mkdtemp(prefix="rt-bad-input-")
TIF = os.path.join(OUT_DIR, "g.tif")
BAD_PATH = [("None", None, TE), ("empty", "", V), ("bytes", b"g.tif", TE), ("nul", "g\0.tif", V),
            ("int", 5, TE), ("list", ["g.tif"], TE)]
NOT_COUNT = [b for b in NOT_INT if b[0] != "None"] + [("negative", -4, V), ("zero", 0, V)]
for arg, pos in (("nx", 2), ("ny", 3)):
    for label, bad, exc in NOT_COUNT:
        def build_v(pos=pos, bad=bad):
            a = list(AREA)
            a[pos] = bad
            return call(gis.vectors, T, *a)
        case(f"vectors-{arg}-{label}", exc, arg, build_v)

        def build_g(pos=pos, bad=bad):
            a = list(AREA)
            a[pos] = bad
            return call(gis.write_geotiff, T, TIF, *a)
        case(f"write_geotiff-{arg}-{label}", exc, arg, build_g)
for arg, pos in (("x0", 0), ("y0", 1)):
    for label, bad, exc in [b for b in NOT_REAL if b[0] != "huge"]:
        def build_x(pos=pos, bad=bad):
            a = list(AREA)
            a[pos] = bad
            return call(gis.write_geotiff, T, TIF, *a)
        case(f"write_geotiff-{arg}-{label}", exc, arg, build_x)
for label, bad, exc in [b for b in NOT_REAL if b[0] != "huge"]:
    case(f"write_geotiff-step-{label}", exc, "step",
         lambda bad=bad: call(gis.write_geotiff, T, TIF, *AREA, bad))
for label, bad, exc in BAD_PATH:
    case(f"write_geotiff-path-{label}", exc, "path",
         lambda bad=bad: call(gis.write_geotiff, T, bad, *AREA))
    case(f"write_geojson-path-{label}", exc, "path",
         lambda bad=bad: call(gis.write_geojson, {"type": "FeatureCollection", "features": []},
                              bad))
for label, bad, exc in [("bogus", "no_such_variable", V), ("int", 3, V)]:  # one of the names
    case(f"write_geotiff-variable-{label}", exc, "variable",
         lambda bad=bad: call(gis.write_geotiff, T, TIF, *AREA, variable=bad))
case("write_geotiff-suffix", V, "path",
     lambda: call(gis.write_geotiff, T, os.path.join(OUT_DIR, "g.png"), *AREA))
case("write_geojson-suffix", V, "path",
     lambda: call(gis.write_geojson, {"type": "FeatureCollection", "features": []},
                  os.path.join(OUT_DIR, "g.tif")))

# -- dask: lazy grids ----------------------------------------------------------------------------
for arg, pos in (("nx", 3), ("ny", 4)):
    for label, bad, exc in NOT_COUNT:
        def build_d(pos=pos, bad=bad):
            a = [T, 0, 0, 64, 64]
            a[pos] = bad
            return call(rtd.height_grid, *a)
        case(f"dask.height_grid-{arg}-{label}", exc, arg, build_d)
for label, bad, exc in NOT_REAL:
    case(f"dask.height_grid-step-{label}", exc, "step",
         lambda bad=bad: call(rtd.height_grid, T, 0, 0, 64, 64, bad))
    case(f"dask.height_grid-x0-{label}", exc, "x0",
         lambda bad=bad: call(rtd.height_grid, T, bad, 0, 64, 64))
case("dask.height_grid-chunks-zero", V, "chunks",
     lambda: call(rtd.height_grid, T, 0, 0, 64, 64, chunks=(0, 0)))

# -- tiles, the tile server, the explorer --------------------------------------------------------
for arg, pos in (("z", 0), ("x", 1), ("y", 2)):
    for label, bad, exc in NOT_INT + [("digits", "1", TE)]:
        def build_t(pos=pos, bad=bad):
            a = [1, 0, 0]
            a[pos] = bad
            return call(tiles.tile_bounds, *a)
        case(f"tile_bounds-{arg}-{label}", exc, arg, build_t)

        def build_r(pos=pos, bad=bad):
            a = [1, 0, 0]
            a[pos] = bad
            return call(tiles.render_tile, T, "height", *a)
        case(f"render_tile-{arg}-{label}", exc, arg, build_r)
    case(f"tile_bounds-{arg}-outside", V, arg,
         lambda pos=pos: call(tiles.tile_bounds, *[[99, 0, 0], [1, 2**40, 0], [1, 0, 2**40]][pos]))
for label, bad, exc in [("text", "1x", V), ("plus", "+1", V), ("long", "1" * 13, V),
                        ("inner-minus", "1-2", V)]:
    case(f"tile_from_text-z-{label}", exc, "z", lambda bad=bad: call(tiles.tile_from_text, bad,
                                                                      "0", "0"))
for label, bad, exc in NOT_REAL + [("zero", 0.0, V), ("negative", -1.0, V)]:
    case(f"map_options-metres_per_pixel-{label}", exc, "metres_per_pixel",
         lambda bad=bad: call(tiles.map_options, bad))
for label, bad, exc in NOT_INT + [("negative", -1, V)]:
    case(f"create_app-cache_bytes-{label}", exc, "cache_bytes",
         lambda bad=bad: call(serve.create_app, T, cache_bytes=bad))
for label, bad, exc in [("int", 5, TE), ("bytes", b"classic", TE), ("bogus", "no-such-world", V)]:
    case(f"load_world-world-{label}", exc, "world", lambda bad=bad: call(serve.load_world, bad))
for arg in ("x", "y"):
    for label, bad, exc in NOT_REAL:
        case(f"explore-{arg}-{label}", exc, arg,
             lambda arg=arg, bad=bad: call(explorer.explore, T, **{arg: bad}))
for label, bad, exc in NOT_INT + [("outside", 99, V)]:
    exc = V if label in ("str", "bool", "float", "whole-float", "complex", "None", "list",
                         "outside") else exc
    case(f"explore-zoom-{label}", exc, "zoom", lambda bad=bad: call(explorer.explore, T, zoom=bad))


# -- the command line: exit status 2 and a message naming the argument --------------------------
class CliRefused(Exception):
    """The CLI's refusal (exit status 2), its message after ``error: ``."""


def run_cli(*argv: str) -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            code = cli.main(list(argv))
        except SystemExit as e:   # argparse's own refusals
            code = e.code
    text = err.getvalue()
    if code == 2:
        msg = text.split("error: ", 1)[1]
        raise CliRefused(_cli_name(msg.removeprefix("argument ")))
    raise AssertionError(f"exit status {code}, not 2: {text}")


def _cli_name(text: str) -> str:
    """A CLI argument's name as the API spells it (``--max-length``, ``NX``:
    ``max_length``, ``nx``): a refusal may name either."""
    head, sep, rest = text.partition(":")
    return head.lower().lstrip("-").replace("-", "_") + sep + rest


def cli_case(label: str, names: str, *argv: str) -> None:
    case(f"cli-{label}", CliRefused, _cli_name(names), lambda: call(run_cli, *argv))


NUM_BAD = [("text", "x"), ("nan", "nan"), ("inf", "inf")]
INT_BAD = NUM_BAD + [("fraction", "1.5")]
for cmd, out in (("grid", "g.npz"), ("features", "f.csv")):
    o = os.path.join(OUT_DIR, out)
    for arg, pos in (("NX", 2), ("NY", 3)):
        for label, bad in INT_BAD + [("negative", "-5")]:
            a = ["0", "0", "10", "10"]
            a[pos] = bad
            cli_case(f"{cmd}-{arg}-{label}", arg, cmd, *a, "-o", o)
    for arg, pos in (("X0", 0), ("Y0", 1)):   # real numbers (1.5 is a valid X0)
        for label, bad in NUM_BAD:
            a = ["0", "0", "10", "10"]
            a[pos] = bad
            cli_case(f"{cmd}-{arg}-{label}", arg, cmd, *a, "-o", o)
    for label, bad in INT_BAD + [("zero", "0")]:
        cli_case(f"{cmd}-threads-{label}", "--threads", cmd, "0", "0", "10", "10",
                 "--threads", bad, "-o", o)
    for label, bad in NUM_BAD:
        cli_case(f"{cmd}-lake-height-{label}", "--lake-height", cmd, "0", "0", "10", "10",
                 "--lake-height", bad, "-o", o)
G = os.path.join(OUT_DIR, "g.npz")
for label, bad in NUM_BAD + [("zero", "0"), ("negative", "-1")]:
    cli_case(f"grid-step-{label}", "--step", "grid", "0", "0", "10", "10", "--step", bad, "-o", G)
cli_case("grid-dtype-bogus", "--dtype", "grid", "0", "0", "10", "10", "--dtype", "int3", "-o", G)
cli_case("grid-suffix", "-o", "grid", "0", "0", "10", "10", "-o", os.path.join(OUT_DIR, "g.xyz"))
M = os.path.join(OUT_DIR, "m.png")
for arg, pos in (("X0", 0), ("Y0", 1), ("NX", 2), ("NY", 3)):
    for label, bad in NUM_BAD:
        a = ["23396", "5318", "50", "50"]
        a[pos] = bad
        # argparse names the area (one argument of 4 numbers) when it is no number
        name = "X0 Y0 NX NY" if label == "text" else arg
        cli_case(f"map-{arg}-{label}", name, "map", *a, "-o", M)
        cli_case(f"streams-{arg}-{label}", name, "streams", *a, "-o",
                 os.path.join(OUT_DIR, "s.geojson"))
for opt in ("--step", "--interval"):
    for label, bad in NUM_BAD + [("zero", "0")]:
        cli_case(f"map-{opt[2:]}-{label}", opt, "map", "23396", "5318", "50", "50", opt, bad,
                 "-o", M)
for label, bad in NUM_BAD:   # 0 or less: no cap (documented)
    cli_case(f"streams-max-length-{label}", "--max-length", "streams", "23396", "5318", "50",
             "50", "--max-length", bad, "-o", os.path.join(OUT_DIR, "s.geojson"))
for label, bad in INT_BAD + [("negative", "-1")]:
    cli_case(f"streams-margin-{label}", "--margin", "streams", "23396", "5318", "50", "50",
             "--margin", bad, "-o", os.path.join(OUT_DIR, "s.geojson"))
for arg, pos in (("X", 0), ("Y", 1)):
    for label, bad in NUM_BAD:
        a = ["23400", "5320"]
        a[pos] = bad
        cli_case(f"site-{arg}-{label}", arg, "site", *a)
for opt in ("--min-height", "--clearance"):
    for label, bad in NUM_BAD:
        cli_case(f"site-{opt[2:]}-{label}", opt, "site", "23400", "5320", opt, bad)
for label, bad in INT_BAD + [("negative", "-1")]:
    cli_case(f"site-max-loops-{label}", "--max-loops", "site", "23400", "5320", "--max-loops", bad)
for label, bad in INT_BAD + [("negative", "-1"), ("huge", "70000")]:
    cli_case(f"serve-port-{label}", "--port", "serve", "classic", "--port", bad)
S3 = os.path.join(OUT_DIR, "s.npz")
for arg, pos in (("NX", 3), ("NY", 4), ("NZ", 5)):
    for label, bad in INT_BAD + [("negative", "-5")]:
        a = ["0", "0", "0", "10", "10", "10"]
        a[pos] = bad
        cli_case(f"stars-{arg}-{label}", arg, "stars", *a, "-o", S3)


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
    assert len(CASES) >= 300
