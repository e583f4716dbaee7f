"""terra's ground output (``rt_terra_out.ground``, issue 20).

The core's terra grid can write the ground height (SPEC 4 calcHeight, with
the mountains: the height before terra flattens lakes to their surface,
raises placed terrain or digs quarries) in the same pass as its other
outputs; the Datasets' ``ground_height`` comes from it. It must be the
height grid's bits on every SIMD variant, thread count, step, origin,
block and float32 rounding, and SPEC's independent transcription
(``tests/reference.py``) decides what those bits are.
"""

import numpy as np
import pytest
import reference as R
from helpers import bits, make_terrain, ref_placed
from test_simd import CONFIGS, GRIDS, VARIANTS

import relfterrain as rt
from relfterrain import _shared

# every grid of the SIMD tests but the 800 x 600 one (its paths are in the others)
SMALL_GRIDS = [g for g in GRIDS if g[2] * g[3] <= 5000]


def _terra5(t, grid, threads=1, offset=(0, 0), **kw):
    x0, y0, nx, ny, step = grid
    return _shared.core(t).terra_grid(x0, y0, nx, ny, step, r0=offset[0], c0=offset[1],
                                      outputs=(True,) * 5, threads=threads, **kw)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_ground_output_is_the_height_grid(variant, config):
    t = rt.Terrain(simd=variant, **CONFIGS[config])
    core = _shared.core(t)
    for grid in SMALL_GRIDS:
        x0, y0, nx, ny, step = grid
        four = core.terra_grid(x0, y0, nx, ny, step, threads=1)
        want = t.height_grid(*grid, threads=1)
        for threads in (1, 3):
            five = _terra5(t, grid, threads)
            assert len(five) == 5
            assert np.array_equal(bits(five[4]), bits(want)), (grid, threads)
            for a, b in zip(five[:4], four):  # the other outputs are unchanged
                assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), (grid, threads)


@pytest.mark.parametrize("variant", VARIANTS)
def test_ground_output_of_blocks_float32_and_points(variant):
    t = rt.Terrain(simd=variant, mountain_base=300.0, snow_height=480.0)
    t.place(23400, 5320, rt.TerrainType.ROAD)   # raises the surface, not the ground
    for grid in [(23396, 5318, 90, 40, 1.0), (23396.3, 5318.7, 70, 30, 0.37)]:
        whole = t.height_grid(*grid)
        part = _terra5(t, (*grid[:2], 50, 20, grid[4]), offset=(7, 13))[4]
        assert np.array_equal(bits(part), bits(whole[7:27, 13:63]))
        f32 = _terra5(t, grid, float32=True)   # rounded row by row by the core
        assert f32[4].dtype == np.float32
        assert np.array_equal(f32[4], t.height_grid(*grid, dtype="float32"))
        given = np.full((grid[3], grid[2]), np.nan)
        out = _shared.core(t).terra_grid(*grid, outputs=(None, None, None, None, given))
        assert out[4] is given and out[:4] == (None, None, None, None)
        assert np.array_equal(bits(given), bits(whole))
        xs = np.array([23396.0, 23400.0, 24090.25, -1e5])
        ys = np.array([5318.0, 5320.0, 5360.5, 3e4])
        pts = _shared.core(t).terra_points(xs, ys, outputs=(True,) * 5)
        assert np.array_equal(bits(pts[4]), bits(t.height(xs, ys)))


@pytest.mark.parametrize("params", [R.Params(), R.Params(mountain_base=300.0),
                                    R.Params(lake_height=230.0)],
                         ids=["classic", "mountains", "islands"])
@pytest.mark.parametrize("grid", [(23396.0, 5318.0, 40, 30, 1.0),
                                  (24090.5, 5360.25, 23, 19, 0.7),
                                  (-1000.5, -20.25, 33, 9, 0.25)])
def test_ground_output_against_the_reference(params, grid):
    t = make_terrain(rt, params)
    placed = {(int(grid[0]) + 4, int(grid[1]) + 2): rt.TerrainType.ROAD}
    for (x, y), what in placed.items():
        t.place(x, y, what)
    five = _terra5(t, grid, threads=2)
    assert np.array_equal(bits(five[4]), bits(R.height_grid(params, *grid)))
    # and the water surface beside it is the reference's terra height
    _, _, rh, _, _, _ = R.grid(params, *grid, placed=ref_placed(rt, placed))
    assert np.array_equal(bits(five[0]), bits(rh))
    lake = five[2] == rt.TerrainType.LAKE
    assert np.all(five[4][lake] < five[0][lake])


def test_ground_output_bad_input():
    core = _shared.core(rt.Terrain())
    with pytest.raises(TypeError, match="out.ground: dtype must be float64"):
        core.terra_grid(0, 0, 4, 3, outputs=(True,) * 4 + (np.empty((3, 4), np.float32),))
    with pytest.raises(ValueError, match="out.height, out.ground"):
        a = np.empty((3, 4))
        core.terra_grid(0, 0, 4, 3, outputs=(a, None, None, None, a))
    with pytest.raises(ValueError, match="4 items"):
        core.terra_grid(0, 0, 4, 3, outputs=(True,) * 6)
