"""The binding leaks neither references nor memory, on success and on error,
and never modifies its inputs."""

import gc
import sys
import tracemalloc

import numpy as np
import pytest

import relfterrain as rt
from relfterrain import Feature, TerrainType


def _calls(t, x, y, out_h, outs):
    """Every binding entry point, successful and failing."""
    t.height_grid(100, 200, 30, 20, out=out_h)
    t.grid(100, 200, 30, 20, out=outs)
    t.grid(100.5, 200.25, 30, 20, 0.3)
    t.terrain_grid(100, 200, 30, 20)
    t.sample(x, y)
    t.height(x, y)
    t.terra(100.5, 200.5)
    t.tree_selector(x, y)
    t.buildings(23396, 5318, 200, 200)
    t.place(1, 2, TerrainType.ROAD)
    t.at(1, 2)
    t.remove(1, 2)
    t.place(3, 4, Feature.CONE)
    t.remove_all(Feature.CONE)
    len(t.placed)
    list(t.placed)
    for bad in (
        lambda: t.height_grid(0, 0, 30, 20, out=np.empty((20, 31))),
        lambda: t.grid(0, 0, 30, 20, out=(outs[0], outs[1], outs[2], np.empty((20, 30)))),
        lambda: t.height_grid(0, 0, 0, 5),
        lambda: t.height_grid(float("nan"), 0, 5, 5),
        lambda: t.sample([0.0, float("inf")], 0),
        lambda: t.place(0, 0, 3),
        lambda: rt.Terrain(profile=np.arange(100.0)),
        lambda: rt.Terrain(ah=[1, 2]),
    ):
        with pytest.raises((ValueError, TypeError, MemoryError)):
            bad()


def test_no_reference_or_memory_growth():
    t = rt.Terrain()
    x = np.linspace(23396, 23500, 50)
    y = np.linspace(5318, 5400, 50)
    out_h = np.empty((20, 30))
    outs = (np.empty((20, 30)), np.empty((20, 30)), np.empty((20, 30), np.uint8),
            np.empty((20, 30), np.uint8))
    for _ in range(20):  # warm up caches, interned objects
        _calls(t, x, y, out_h, outs)
    gc.collect()
    refs = [sys.getrefcount(a) for a in (x, y, out_h, *outs)]
    tracemalloc.start()
    # and some rounds traced before the count starts: caches grow once after
    # tracing starts (about 9 KB more than after these rounds; under ASan's
    # PYTHONMALLOC=malloc the whole growth came to 63,606-65,721 bytes, at
    # this test's bound of 65,536, at the session's start and after; 600
    # rounds more add about 9 KB, not twice a leak's 300 rounds' worth)
    for _ in range(50):
        _calls(t, x, y, out_h, outs)
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(300):
        _calls(t, x, y, out_h, outs)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert [sys.getrefcount(a) for a in (x, y, out_h, *outs)] == refs
    # 300 rounds of ~40 calls: a leak of even one small array per call would
    # show as megabytes; allow a little for interpreter caches
    assert after - before < 64 * 1024, f"memory grew by {after - before} bytes"


def test_inputs_are_not_modified():
    t = rt.Terrain()
    x = np.linspace(23396, 23500, 50)
    y = np.linspace(5318, 5400, 50)
    xc, yc = x.copy(), y.copy()
    prof = np.array(rt.CLASSIC_PROFILE)
    pc = prof.copy()
    vec = [0, 13, 21, 22, 29]
    t2 = rt.Terrain(profile=prof, ah=vec)
    for terrain in (t, t2):
        terrain.sample(x, y)
        terrain.height(x, y)
        terrain.tree_selector(x, y)
    assert np.array_equal(x, xc) and np.array_equal(y, yc)
    assert np.array_equal(prof, pc) and vec == [0, 13, 21, 22, 29]
    prof[0] = 1e6  # the terrain keeps its own copy
    assert t2.profile[0] == pc[0]


def test_non_contiguous_and_other_dtype_inputs():
    t = rt.Terrain()
    base = np.linspace(23396, 23500, 100)
    x = base[::2]                              # strided
    y = np.linspace(5318, 5400, 50).astype(np.float32)  # another dtype
    s = t.sample(x, y)
    ref = t.sample(np.ascontiguousarray(x), y.astype(np.float64))
    for a, b in zip(s, ref):
        assert np.array_equal(a, b)
    xf = np.asfortranarray(np.linspace(0, 100, 12).reshape(3, 4))
    h = t.height(xf, 7.0)
    assert h.shape == (3, 4)
    assert np.array_equal(h, t.height(np.ascontiguousarray(xf), 7.0))


def _galaxy_calls(g, bad_out):
    g.star(3, 5, 7)
    g.stars(-20, -15, 1, 40, 30, 20)
    g.census(-20, -15, 1, 40, 30, 20)
    g.count(-20, -15, 1, 40, 30, 20)
    g.planet_counts(-20, -15, 1, 40, 30, 20)
    g.replace(min_magnitude=2.0)
    for bad in (
        lambda: g.stars(0, 0, 0, 0, 1, 1),
        lambda: g.count(2**63 - 1, 0, 0, 2, 1, 1),
        lambda: rt.Galaxy(s=[1, 2]),
        lambda: rt.Galaxy(profile=np.arange(3.0)),
        lambda: g.star(0.5, 0, 0),
    ):
        with pytest.raises((ValueError, TypeError, MemoryError)):
            bad()


def _classic_calls(grid, heights):
    rt.classic.midpoint_displacement(6, rng=1)
    rt.classic.diamond_square(4, rng=2, seed_grid=grid)
    rt.classic.clouds(heights, 0.2, 0.8)
    rt.classic.limited_random(20, 10, 3.0, 0.0, 50.0, rng=3)
    rt.classic.circle_hill(20, 10, 5, 4.0, 3.0, 60.0, rng=4)
    for bad in (
        lambda: rt.classic.midpoint_displacement(-1),
        lambda: rt.classic.diamond_square(4, seed_grid=np.zeros((4, 4))),
        lambda: rt.classic.clouds(heights, 0.9, 0.1),
        lambda: rt.classic.limited_random(0, 10, 3.0, 0.0, 50.0),
        lambda: rt.classic.circle_hill(20, 10, 5, -4.0, 3.0, 60.0),
    ):
        with pytest.raises((ValueError, TypeError, MemoryError)):
            bad()


@pytest.mark.parametrize("which", ["galaxy", "classic"])
def test_no_reference_or_memory_growth_in_the_other_generators(which):
    g = rt.Galaxy(f_mask=0xFFF)
    grid = np.full((17, 17), np.nan)
    grid[8, 8] = 1.0
    heights = np.linspace(-1, 2, 200)
    inputs = (grid, heights)

    def calls():
        if which == "galaxy":
            _galaxy_calls(g, None)
        else:
            _classic_calls(grid, heights)

    for _ in range(20):
        calls()
    gc.collect()
    refs = [sys.getrefcount(a) for a in inputs]
    grid_copy, heights_copy = grid.copy(), heights.copy()
    tracemalloc.start()
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(300):
        calls()
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert [sys.getrefcount(a) for a in inputs] == refs
    assert np.array_equal(grid, grid_copy, equal_nan=True) and np.array_equal(heights, heights_copy)
    assert after - before < 64 * 1024, f"memory grew by {after - before} bytes"
