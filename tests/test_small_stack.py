"""Every public grid and area function runs in a thread with a small stack.

The core keeps its large scratch on the heap: a thread started with
``threading.stack_size(56 * 1024)`` must compute what the main thread
computes, bit for bit (before the fix, ``grid``, ``terrain_grid`` and
``feature_grid`` overflowed such a stack).
"""

import os
import pickle
import threading

import numpy as np
import pytest

import relfterrain as rt

# tools/asan_pytest.sh runs these tests on an ASan build, whose redzones and
# unoptimised frames need several times the stack of the real build: it sets
# RELFTERRAIN_SANITIZED, and the small stack is scaled for it there
SMALL_STACK = 56 * 1024 * (4 if os.environ.get("RELFTERRAIN_SANITIZED") else 1)


def _key(value):
    """A comparable form of a result: arrays by dtype, shape and bytes."""
    if isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, tuple(_key(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple((k, _key(v)) for k, v in value.items()))
    if hasattr(value, "_asdict"):
        return _key(tuple(value))
    if hasattr(value, "__dict__"):
        return (type(value).__name__, _key(vars(value)))
    return pickle.dumps(value)


def _in_small_thread(fn):
    """fn() in a thread whose stack is SMALL_STACK bytes; the default restored."""
    box = {}

    def run():
        try:
            box["value"] = fn()
        except Exception as exc:  # noqa: BLE001 (handed to the test thread)
            box["error"] = exc

    old = threading.stack_size(SMALL_STACK)
    try:
        th = threading.Thread(target=run)
        th.start()
    finally:
        threading.stack_size(old)
    th.join()
    assert threading.stack_size() == old
    if "error" in box:
        raise box["error"]
    return box["value"]


def _cases():
    t = rt.Terrain()
    t_time = rt.Terrain(time_vector=True)
    t_paths = rt.Terrain(with_paths=True, mountain_base=300.0, snow_height=480.0)
    x0, y0 = 23396, 5318
    mines = t.mines()
    caverns = t.caverns()
    planet = rt.Planet(1000.0)
    nebula = rt.Nebula(100.0)
    galaxy = rt.Galaxy()
    cases = {}
    for simd in rt.simd_variants():
        ts = rt.Terrain(simd=simd)
        cases[f"grid[{simd}]"] = lambda ts=ts: ts.grid(x0, y0, 600, 3)
        cases[f"terrain_grid[{simd}]"] = lambda ts=ts: ts.terrain_grid(x0, y0, 600, 3)
        cases[f"feature_grid[{simd}]"] = lambda ts=ts: ts.feature_grid(x0, y0, 600, 3)
        cases[f"height_grid[{simd}]"] = lambda ts=ts: ts.height_grid(x0, y0, 600, 3)
        cases[f"height_grid_037[{simd}]"] = lambda ts=ts: ts.height_grid(x0, y0, 300, 3, 0.37)
    cases.update({
        "grid_threads": lambda: t.grid(x0, y0, 300, 8, threads=2),
        "grid_options": lambda: t_paths.grid(x0, y0, 300, 4, 0.5),
        "grid_point_path": lambda: t.grid(x0 + 0.3, y0, 200, 3, 0.37),
        "height_grid_time": lambda: t_time.height_grid(x0, y0, 200, 3, t=5.0),
        "building_grid": lambda: t.building_grid(x0, y0, 200, 16),
        "tree_grid": lambda: t.tree_grid(x0, y0, 200, 4),
        "buildings": lambda: t.buildings(x0, y0, 200, 64),
        "features": lambda: t.features(x0, y0, 300, 40),
        "sample": lambda: t.sample(np.arange(200.0) + x0, np.full(200, float(y0))),
        "map": lambda: t.map(x0, y0, 120, 40),
        "streams": lambda: t.streams(x0, y0, 60, 40, margin=50),
        "find_good_site": lambda: t.find_good_site(x0, y0),
        "islands": lambda: rt.islands(t, x0, y0, 200, 50),
        "mines_open_grid": lambda: mines.open_grid(0, 0, 64, 16),
        "mines_label": lambda: mines.label(0, 0, 64, 16),
        "mines_cave_mouths": lambda: mines.cave_mouths(x0, y0, 200, 40),
        "caverns_space": lambda: caverns.space_grid(x0, y0, 200, 4),
        "caverns_roof": lambda: caverns.roof_grid(x0, y0, 200, 4, 0.37),
        "planet_grid": lambda: planet.grid(10.0, 20.0, 20, 40),
        "planet_map": lambda: planet.map(10.0, 20.0, 80, 60),
        "nebula_grid": lambda: nebula.grid(0.0, 0.0, 0.0, 40, 8, 4),
        "nebula_gas": lambda: nebula.gas(0.0, 0.0, 0.0, 40, 8, 4),
        "galaxy_stars": lambda: galaxy.stars(-20, -20, 1, 40, 40, 8),
        "galaxy_census": lambda: galaxy.census(-20, -20, 1, 40, 40, 8),
    })
    return cases


CASES = _cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_small_stack_thread_gives_the_same_result(name):
    fn = CASES[name]
    assert _key(_in_small_thread(fn)) == _key(fn())

