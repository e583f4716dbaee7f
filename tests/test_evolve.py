"""Terrain evolving in time (SPEC 14) against the transcription in space_reference."""

import numpy as np
import pytest
import reference as R
import space_reference as S
from helpers import assert_f64_exact
from hypothesis import given
from hypothesis import strategies as st

import relfterrain as rt

VARIANTS = rt.simd_variants()


@pytest.mark.parametrize("simd", VARIANTS)
@pytest.mark.parametrize("config", [{}, {"mountain_base": 300.0},
                                    {"profile": [float((k * 37) % 91) - 30.0 for k in range(64)]}])
@pytest.mark.parametrize("grid", [(23396, 5318, 700, 40, 1.0), (-1000.5, -20.25, 203, 19, 0.25),
                                  (23396.3, 5318.7, 65, 33, 0.3)])
def test_t0_is_static_bit_for_bit(simd, config, grid):
    static = rt.Terrain(simd=simd, **config)
    evolving = rt.Terrain(simd=simd, time_vector=[1, -2, 0.5, 3, -1], **config)
    want = static.height_grid(*grid, threads=2)
    for t0 in (0.0, -0.0, 0):
        assert_f64_exact(evolving.height_grid(*grid, t=t0, threads=2), want, "t=0 grid")
    x0, y0, nx, ny, step = grid
    xs = x0 + np.arange(nx) * step
    assert_f64_exact(evolving.height(xs, y0, 0.0), static.height(xs, y0), "t=0 points")


@pytest.mark.parametrize("tv", [True, [0.25, -0.5, 1, 2, -3], [7, 0, 0, 0, 0]])
def test_exact_against_reference(tv):
    t = rt.Terrain(time_vector=tv, mountain_base=350.0)
    T = t.params.time_vector
    p = R.Params(mountain_base=350.0)
    for time in (1.0, 60.0, 12345.678, -3.5):
        g = t.height_grid(23396.5, 5318, 30, 7, 0.75, t=time, threads=2)
        ref = [[S.height_t(p, T, 23396.5 + c * 0.75, 5318 + r * 0.75, time) for c in range(30)]
               for r in range(7)]
        assert_f64_exact(g, ref, f"grid t={time}")
    ts = np.array([0.5, 10, 1e4, -7.25])
    got = t.height(23400.25, [5320, 5321, 5322, 5323], ts)
    assert_f64_exact(got, [S.height_t(p, T, 23400.25, 5320 + k, ts[k]) for k in range(4)],
                     "points")


@given(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6), st.floats(-1e5, 1e5))
def test_property_points(x, y, time):
    t = rt.Terrain(time_vector=[1, 2, 3, 4, 5])
    assert t.height(x, y, time) == S.height_t(R.CLASSIC, (1, 2, 3, 4, 5), x, y, time)


def test_time_changes_terrain_and_threads():
    t = rt.Terrain(time_vector=True)
    a = t.height_grid(0, 0, 300, 200, t=100.0, threads=1)
    assert not np.array_equal(a, t.height_grid(0, 0, 300, 200, t=0.0))
    for threads in (2, 3, 7):
        assert_f64_exact(t.height_grid(0, 0, 300, 200, t=100.0, threads=threads), a, "threads")
    out = np.empty((200, 300))
    assert t.height_grid(0, 0, 300, 200, t=100.0, out=out) is out
    blk = t.height_grid(0, 0, 100, 50, t=100.0, offset=(20, 30))
    assert_f64_exact(blk, a[20:70, 30:130], "offset")


def test_params_and_pickle():
    import pickle
    t = rt.Terrain(time_vector=True)
    assert t.params.time_vector == (1.0,) * 5
    assert rt.TerrainParams().time_vector is None
    u = pickle.loads(pickle.dumps(t))
    assert u == t and u.height(1, 2, 3) == t.height(1, 2, 3)


def test_bad_input():
    with pytest.raises(ValueError, match="t: this terrain is static"):
        rt.Terrain().height(0, 0, 1.0)
    with pytest.raises(ValueError, match="t: this terrain is static"):
        rt.Terrain().height_grid(0, 0, 2, 2, t=1.0)
    with pytest.raises(ValueError, match="time_vector"):
        rt.Terrain(time_vector=[1, 2])
    with pytest.raises(ValueError, match="time_vector"):
        rt.Terrain(time_vector=[1, 2, 3, 4, float("nan")])
    with pytest.raises(TypeError, match="time_vector"):
        rt.Terrain(time_vector="fast")
    t = rt.Terrain(time_vector=True)
    with pytest.raises(ValueError, match="t"):
        t.height_grid(0, 0, 2, 2, t=float("inf"))
    with pytest.raises(ValueError, match="t"):
        t.height([0, 1], 0, [1.0, float("nan")])
    with pytest.raises(ValueError, match="x, y, t"):
        t.height([0, 1], 0, [1.0, 2.0, 3.0])
