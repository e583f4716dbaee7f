"""The features alone of integer points (csrc/feature_grid.c) == the reference.

`feature_grid` at step 1 from an integer origin takes, on the AVX-512
variants, a path of its own: the feature value f at every point (eight a
vector, the profile read by window permutes or gathers) and terra only at the
candidates and the placed entries. Every variant and thread count is
compared here with the independent transcription of SPEC 5-6
(tests/reference.py): dense models (small feature masks, so that about one
point in eight is a candidate), profiles shorter than eight values and steep
B2 (the gathers), rows of any width (the tails), origins near +-2**26, the
placed table (features added and hidden, terrain placed over a candidate),
and the variants the path hands back to the grid (calc_prof_js, other steps).
"""

import numpy as np
import pytest
import reference as R
from helpers import make_terrain, ref_placed
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import relfterrain as rt

L = 2 ** 26
VARIANTS = rt.simd_variants()


def _ref_features(params, x0, y0, nx, ny, placed=None):
    return R.grid(params, x0, y0, nx, ny, 1.0, placed)[5]


def _check(t, params, x0, y0, nx, ny, placed=None):
    want = _ref_features(params, x0, y0, nx, ny, placed)
    for v in VARIANTS:
        t.simd = v
        for threads in (1, 2):
            got = t.feature_grid(x0, y0, nx, ny, 1.0, threads=threads)
            assert got.dtype == np.uint8 and got.shape == (ny, nx)
            assert np.array_equal(got, want), (v, threads)
    return want


@st.composite
def dense_models(draw):
    """Models whose feature value hits often: masks of 4 to 6 bits."""
    n = 2 ** draw(st.integers(0, 8))
    profile = tuple(float(v) for v in draw(st.lists(st.integers(-40, 200), min_size=n,
                                                    max_size=n)))
    vlen = draw(st.integers(1, 6))
    coef = st.one_of(st.integers(-64, 64), st.integers(-300, 300), st.just(0))
    vec = st.lists(coef, min_size=vlen, max_size=vlen).map(tuple)
    vectors = {name: draw(vec) for name in R.VECTOR_NAMES}
    top = max(abs(v) for v in profile) * vlen
    return R.Params(profile=profile, lake_base=float(draw(st.integers(0, int(max(top, 1))))),
                    feature_mask=draw(st.sampled_from([0xF, 0x1F, 0x3F])),
                    feature_cone=draw(st.sampled_from([16, 2, 12])), **vectors)


origin = st.one_of(st.integers(-30000, 30000), st.integers(L - 300, L - 60),
                   st.integers(-L, -L + 300), st.integers(-3, 3))


@settings(max_examples=40, deadline=None)
@given(dense_models(), origin, origin, st.integers(1, 41), st.integers(1, 4))
def test_dense_models_equal_the_reference(params, x0, y0, nx, ny):
    assume(abs(x0) + nx <= L and abs(y0) + ny <= L)
    _check(make_terrain(rt, params), params, x0, y0, nx, ny)


def test_classic_map_and_far_origins():
    t = rt.Terrain()
    # a window of the classic map with features in it, and one near the edge
    # of the domain, where x*y is near 2**52
    want = _check(t, R.CLASSIC, 23396, 5318, 90, 40)
    assert (want > 0).sum() >= 1
    _check(t, R.CLASSIC, L - 100, -L + 7, 64, 6)


def test_dense_classic_mask_many_features():
    p = R.Params(feature_mask=0xF)
    want = _check(make_terrain(rt, p), p, 23400, 5300, 37, 9)
    assert (want > 0).sum() > 10  # candidates decided by terra: lakes, towns too


def test_placed_features_and_terrain():
    p = R.Params(feature_mask=0xF)
    t = make_terrain(rt, p)
    x0, y0, nx, ny = 23400, 5300, 37, 9
    plain = _ref_features(p, x0, y0, nx, ny)
    r, c = np.nonzero(plain)
    # hide one generated feature, place one where there is none, cover a
    # candidate with placed terrain, and place a feature outside the window
    t.place(x0 + int(c[0]), y0 + int(r[0]), rt.Feature.NONE)
    free = np.argwhere(plain == 0)[5]
    t.place(x0 + int(free[1]), y0 + int(free[0]), rt.Feature.CONE)
    t.place(x0 + int(c[1]), y0 + int(r[1]), rt.TerrainType.ROAD)
    t.place(x0 - 5, y0, rt.Feature.KNOLL)
    want = _check(t, p, x0, y0, nx, ny, ref_placed(rt, t.placed))
    assert want[r[0], c[0]] == 0 and want[free[0], free[1]] == rt.Feature.CONE
    assert not np.array_equal(want, plain)


# the window's heights are 249.7 to 269.5: snow and rock at 266 cover part of it
@pytest.mark.parametrize("kw", [{"calc_prof": "js"}, {"bleak": True},
                                {"snow_height": 266.0}, {"snow_height": 266.0,
                                                         "snow_keeps_feature": True},
                                {"wood_only": True}, {"rock_above": 266.0},
                                {"town_abs": True}, {"mountain_base": 250.0}])
def test_variants_and_flags_equal_the_scalar_grid(kw):
    # the same bytes as the scalar grid's feature column, on every variant
    # (calc_prof="js" goes back to the grid; the others take the new path)
    t = rt.Terrain(feature_mask=0xF, **kw)
    t.simd = "scalar"
    ref = t.grid(23400, 5300, 45, 7, threads=1).feature
    assert (ref > 0).any() != ("bleak" in kw)  # bleak: heights only, no features
    for v in VARIANTS:
        t.simd = v
        assert np.array_equal(t.feature_grid(23400, 5300, 45, 7, threads=1), ref), v


def test_other_steps_and_origins_unchanged():
    # blocks the sparse path does not serve give the grid's features as before
    t = rt.Terrain(feature_mask=0xF)
    for x0, y0, step in ((23400.5, 5300, 1.0), (23400, 5300, 0.5), (23400, 5300, 2.0)):
        t.simd = "scalar"
        ref = t.grid(x0, y0, 30, 6, step, threads=1).feature
        for v in VARIANTS:
            t.simd = v
            assert np.array_equal(t.feature_grid(x0, y0, 30, 6, step, threads=1), ref), v


@pytest.mark.parametrize("b2, length", [((150, -180, 113, -113, 300), 256),
                                        ((112, -112, 111, 7, -64), 256),
                                        ((15, -54, -34, -51, -43), 4),
                                        ((15, -54, -34, -51, -43), 8)])
def test_steep_directions_and_short_profiles(b2, length):
    # |B2| > 112: the eight lanes span more than one window (a gather);
    # profiles of fewer than eight values, or windows past the end: gathers
    profile = tuple(float((37 * k) % 211 - 20) for k in range(length))
    p = R.Params(profile=profile, b2=b2, a3=(-51, -62, -58, -64, 33), feature_mask=0xF,
                 lake_base=-1e9)
    want = _check(make_terrain(rt, p), p, 23400, -5300, 77, 5)
    assert (want > 0).sum() > 10
