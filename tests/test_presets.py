"""Presets (SPEC 16), Pieces of Eight's |calcProf(A1)| town test, and islands."""

import numpy as np
import pytest
import reference as R
import space_reference as S
from helpers import assert_codes_exact, assert_f64_exact
from hypothesis import given
from hypothesis import strategies as st

import relfterrain as rt


def _ref_params(terrain):
    p = terrain.params
    kw = {n: tuple(getattr(p, n)) for n in R.VECTOR_NAMES}
    kw.update(profile=tuple(p.profile.tolist()), lake_base=p.lake_base,
              lake_height=p.lake_height, snow_height=p.snow_height,
              mountain_base=p.mountain_base)
    for name in R.THRESHOLD_NAMES:
        kw[name] = getattr(p, name)
    return R.Params(**kw)


def _ref_grid(terrain, x0, y0, nx, ny, step=1.0):
    p = _ref_params(terrain)
    out = np.empty((4, ny, nx))
    for r in range(ny):
        for c in range(nx):
            h, ter, f, _, d = S.terra_abs_town(p, x0 + c * step, y0 + r * step)
            out[:, r, c] = (h, d, ter, f)
    return out


def test_forest_is_classic():
    assert rt.Terrain.preset("forest") == rt.Terrain()


def test_my_terrain():
    t = rt.Terrain.preset("my_terrain")
    assert (t.mountain_base, t.snow_height) == (450.0, 700.0)
    g = t.grid(23396, 5318, 60, 40, 4.0)
    ref = R.grid(_ref_params(t), 23396, 5318, 60, 40, 4.0)
    assert_f64_exact(g.height, ref[2], "height")
    assert_codes_exact(g.terrain, ref[4], "terrain")


def test_skylands():
    t = rt.Terrain.preset("skylands")
    assert t.lake_height == 450.0 and t.lake_base == 204.0
    assert t.params == rt.TerrainParams(lake_height=450)


def test_pieces_of_eight_params():
    t = rt.Terrain.preset("pieces_of_eight", rng=42)
    prof = rt.make_profile(2048, rng=42)
    assert np.array_equal(t.profile, prof.profile)
    assert t.ah.tolist() == [0, 12, 14, -10, -14]
    assert t.bh.tolist() == [19, 4, -19, -14, 5]
    assert (t.lake_base, t.lake_height, t.snow_height) == (34.0, 34.0, prof.snow_height)
    assert (t.mine_below, t.x_below, t.cone_below) == (64, 32, 24)
    assert (t.boulder_below, t.waterhole_below, t.knoll_below) == (128, 160, 200)
    assert t.town_abs and t.town_below == 10.0
    assert (t.grass_below, t.open_below, t.thicket_below) == (20.0, 20.0, -50.0)
    info = rt.presets.info("pieces_of_eight")
    assert (info.mines_variant, info.mines_threshold) == ("sincos", 0.5)
    # the same seed, the same terrain; another seed, another
    assert rt.Terrain.preset("pieces_of_eight", rng=42) == t
    assert rt.Terrain.preset("pieces_of_eight", rng=43) != t


def test_pieces_of_eight_vectors_reference():
    import fdlibm_reference as F
    ah, bh = [], []
    for i, c in enumerate((19, 13, 23, 17, 15)):
        a = (i * 0.2) * (2 * np.pi)
        ah.append(int(R.round_js(c * F.sin(a))))
        bh.append(int(R.round_js(c * F.cos(a))))
    assert rt.presets.pieces_of_eight_vectors() == (tuple(ah), tuple(bh))


@pytest.mark.parametrize("x0,y0,step", [(0, 0, 1.0), (-37.5, 120.25, 0.25), (100.3, -7.1, 0.7)])
def test_pieces_of_eight_exact(x0, y0, step):
    t = rt.Terrain.preset("pieces_of_eight", rng=7)
    nx, ny = 40, 25
    ref = _ref_grid(t, x0, y0, nx, ny, step)
    for threads in (1, 2):
        g = t.grid(x0, y0, nx, ny, step, threads=threads)
        assert_f64_exact(g.height, ref[0], "height")
        assert_f64_exact(g.depth, ref[1], "depth")
        assert_codes_exact(g.terrain, ref[2].astype(np.uint8), "terrain")
        assert_codes_exact(g.feature, ref[3].astype(np.uint8), "feature")
    X, Y = np.meshgrid(g.x, g.y)
    s = t.sample(X, Y)
    assert_codes_exact(s.terrain, ref[2].astype(np.uint8), "sample.terrain")


def test_pieces_of_eight_features_found():
    # features with the raised thresholds, checked point by point
    t = rt.Terrain.preset("pieces_of_eight", rng=2)
    g = t.grid(0, 0, 800, 600)
    ys, xs = np.nonzero(g.feature)
    assert len(xs) > 10
    p = _ref_params(t)
    for r, c in zip(ys[:15], xs[:15]):
        _, ter, f, _, _ = S.terra_abs_town(p, float(c), float(r))
        assert (g.terrain[r, c], g.feature[r, c]) == (ter, f)


PROFILE64 = [float((k * 37) % 91) - 30.0 for k in range(64)]  # integers, negative too
ABS_TOWN = {"profile": PROFILE64, "ah": [3, -7, 11], "bh": [5, 2, -9], "a1": [1, 2, 3],
            "b1": [4, 5, 6], "a2": [-7, 8, 9], "b2": [10, -11, 12], "a3": [13, 14, -15],
            "b3": [16, 17, 18], "lake_base": -20.0, "town_abs": True, "town_below": 10.0,
            "grass_below": 20.0, "open_below": 20.0, "thicket_below": -50.0,
            "mine_below": 64, "x_below": 32, "cone_below": 24}


@pytest.mark.parametrize("simd", rt.simd_variants())
@pytest.mark.parametrize("step", [1.0, 0.25])
def test_town_abs_tile_path_exact(simd, step):
    # an integer profile: the tile passes of every SIMD variant decide |a1|
    t = rt.Terrain(simd=simd, **ABS_TOWN)
    ref = _ref_grid(t, -500, 321, 70, 30, step)
    g = t.grid(-500, 321, 70, 30, step, threads=2)
    assert_codes_exact(g.terrain, ref[2].astype(np.uint8), "terrain")
    assert_codes_exact(g.feature, ref[3].astype(np.uint8), "feature")
    assert_f64_exact(g.height, ref[0], "height")
    # the option matters here: without it the towns differ
    plain = t.replace(town_abs=False).terrain_grid(-500, 321, 70, 30, step)
    assert not np.array_equal(plain, g.terrain)


def test_bad_preset():
    with pytest.raises(ValueError, match="name"):
        rt.Terrain.preset("atlantis")
    with pytest.raises(TypeError, match="town_abs"):
        rt.Terrain(town_abs=1)
    with pytest.raises(TypeError, match="rng"):
        rt.Terrain.preset("pieces_of_eight", rng="x")


# -- islands -----------------------------------------------------------------

def _check_islands(land, labels, areas, step=1.0):
    ref_labels, ref_counts = S.label_islands(land.tolist())
    assert labels.dtype == np.int32
    assert np.array_equal(labels, np.array(ref_labels, dtype=np.int32))
    assert_f64_exact(areas, np.array(ref_counts, dtype=np.float64) * (step * step), "areas")


def test_islands_skylands():
    t = rt.Terrain.preset("skylands")
    isl = rt.islands(t, 23396, 5318, 200, 150, step=4.0)
    land = t.terrain_grid(23396, 5318, 200, 150, 4.0) != rt.TerrainType.LAKE
    _check_islands(land, isl.labels, isl.areas, 4.0)
    assert isl.n_islands == isl.areas.size - 1 >= 2


@given(st.integers(1, 12), st.integers(1, 12), st.integers(0, 2**32 - 1))
def test_islands_random_masks(nx, ny, seed):
    land = np.random.default_rng(seed).random((ny, nx)) < 0.55
    labels, counts = rt._core.label_islands(land)
    _check_islands(land, labels, counts.astype(np.float64))


def test_islands_placed_land():
    t = rt.Terrain.preset("skylands")
    land0 = rt.islands(t, 0, 0, 50, 50)
    t.place(10, 10, rt.TerrainType.GRASS)
    assert rt.islands(t, 0, 0, 50, 50).n_islands in (land0.n_islands, land0.n_islands + 1)
    assert rt.islands(t, 0, 0, 50, 50).labels[10, 10] != 0


def test_islands_bad_input():
    with pytest.raises(TypeError, match="terrain"):
        rt.islands("skylands", 0, 0, 5, 5)
    with pytest.raises(ValueError, match="nx"):
        rt.islands(rt.Terrain(), 0, 0, 0, 5)
    with pytest.raises(TypeError, match="land"):
        rt._core.label_islands(np.zeros(5, dtype=bool))
