"""Bit-exact comparison of relfterrain with the pure-Python reference."""

import math

import numpy as np
import pytest
import reference as R
from helpers import (
    assert_codes_exact,
    assert_f64_exact,
    check_grid_against_reference,
    check_terra_point,
    make_terrain,
    same_float,
)

import relfterrain as rt

L = 2 ** 26


@pytest.fixture(scope="module")
def classic():
    return rt.Terrain()


# ---------------------------------------------------------------------------
# constants
# ---------------------------------------------------------------------------

def test_classic_profile_constant():
    p = rt.CLASSIC_PROFILE
    assert isinstance(p, np.ndarray)
    assert p.dtype == np.float64
    assert p.shape == (256,)
    assert_f64_exact(p, R.CLASSIC_PROFILE, "CLASSIC_PROFILE")
    assert p[141] == 2.0 and p[178] == 36.0


def test_classic_vectors_constant():
    v = rt.CLASSIC_VECTORS
    assert set(v) == set(R.VECTOR_NAMES)
    for name in R.VECTOR_NAMES:
        assert tuple(v[name]) == R.CLASSIC_VECTORS[name]
        assert all(isinstance(e, int) for e in v[name])


def test_classic_map_constant():
    assert tuple(rt.CLASSIC_MAP) == (23396, 5318, 800, 600)


def test_default_terrain_parameters(classic):
    assert_f64_exact(classic.profile, R.CLASSIC_PROFILE, "profile")
    for name in R.VECTOR_NAMES:
        arr = getattr(classic, name)
        assert arr.dtype == np.int64
        assert tuple(arr.tolist()) == R.CLASSIC_VECTORS[name]
    assert classic.lake_base == 204.0
    assert classic.lake_height == 204.0
    assert classic.feature_mask == 0xFFF
    assert classic.with_paths is False
    assert classic.mountain_base is None
    assert classic.snow_height is None
    assert classic.wood_only is False
    assert classic.bleak is False


# ---------------------------------------------------------------------------
# grids in many places
# ---------------------------------------------------------------------------

WINDOWS = [
    pytest.param(0, 0, 40, 30, 1.0, id="origin"),
    pytest.param(-20, -15, 40, 30, 1.0, id="around-origin"),
    pytest.param(-20.5, -15.5, 40, 30, 1.0, id="half-integers-negative"),
    pytest.param(-1000.5, 2000.5, 40, 30, 0.5, id="half-step-ties"),
    pytest.param(-37.25, 11.75, 40, 30, 0.25, id="quarter-step"),
    pytest.param(-3.3, -7.1, 40, 30, 0.3, id="step-0.3"),
    pytest.param(100.1, -200.7, 40, 30, 1.0 / 3.0, id="step-third"),
    pytest.param(-12345.678, -9876.54321, 40, 30, 2.5, id="fractional-origin"),
    pytest.param(-500, -400, 40, 30, 7.0, id="integer-step-7"),
    pytest.param(L - 40, L - 30, 40, 30, 1.0, id="near-limit-ne"),
    pytest.param(-L, -L, 40, 30, 1.0, id="limit-sw"),
    pytest.param(L - 20.5, -L + 0.5, 40, 30, 0.5, id="near-limit-half"),
    pytest.param(-L + 3.3, L - 12.1, 40, 30, 0.3, id="near-limit-step-0.3"),
    pytest.param(1234567.5, -7654321.5, 40, 30, 1.0, id="large-half-integers"),
    pytest.param(23396, 5318, 100, 75, 8.0, id="classic-map-step-8"),
    pytest.param(23396.5, 5318.5, 40, 30, 1.0, id="classic-half"),
]


@pytest.mark.parametrize("x0, y0, nx, ny, step", WINDOWS)
def test_grid_methods_match_reference(classic, x0, y0, nx, ny, step):
    check_grid_against_reference(rt, classic, R.CLASSIC, x0, y0, nx, ny, step)


# Known features of the classic map (found with the reference); a window
# around each exercises every point-feature branch.
FEATURE_POINTS = [
    (23536, 5327, R.F_MINE),
    (24117, 5319, R.F_BOULDER),
    (23830, 5348, R.F_WATERHOLE),
    (24109, 5374, R.F_KNOLL),
    (23803, 5325, R.F_ROOT),
    (24011, 5879, R.F_X),
    (24102, 5508, R.F_CONE),
]


@pytest.mark.parametrize("fx, fy, kind", FEATURE_POINTS,
                         ids=[R.FEATURE_NAMES[k] for _, _, k in FEATURE_POINTS])
def test_feature_windows(classic, fx, fy, kind):
    ref = check_grid_against_reference(rt, classic, R.CLASSIC, fx - 20, fy - 15, 40, 30, 1.0)
    assert ref[5][15, 20] == kind                    # reference self-check
    p = check_terra_point(rt, classic, R.CLASSIC, fx, fy)
    assert p.feature == rt.Feature(kind)
    if kind != R.F_CONE:
        assert p.code == R.orienteering_code(fx, fy)
    else:
        assert p.code == ""


@pytest.mark.parametrize("fx, fy, kind", FEATURE_POINTS,
                         ids=[R.FEATURE_NAMES[k] for _, _, k in FEATURE_POINTS])
def test_feature_windows_fractional_steps(classic, fx, fy, kind):
    # the feature shows on every grid point that rounds to (fx, fy), with
    # round-half-up ties at the .5 points
    ref = check_grid_against_reference(rt, classic, R.CLASSIC, fx - 5.25, fy - 3.75, 40, 30, 0.25)
    xs, ys = ref[0], ref[1]
    cols = [c for c, x in enumerate(xs) if fx - 0.5 <= x < fx + 0.5]
    rows = [r for r, y in enumerate(ys) if fy - 0.5 <= y < fy + 0.5]
    assert len(cols) == 4 and len(rows) == 4
    assert (ref[5][np.ix_(rows, cols)] == kind).all()
    check_grid_against_reference(rt, classic, R.CLASSIC, fx - 3.3, fy - 2.9, 40, 30, 0.3)
    check_grid_against_reference(rt, classic, R.CLASSIC, fx - 5.0, fy - 4.0, 40, 30, 1.0 / 3.0)


def test_hidden_features_under_lake(classic):
    # generated features under water are hidden: (23920, 5348) is a lake point
    check_terra_point(rt, classic, R.CLASSIC, 23920, 5348)
    assert classic.terra(23920, 5348).terrain == rt.TerrainType.LAKE


def test_whole_classic_map_features(classic):
    """Every feature of the whole classic map, exactly (90 of them)."""
    x0, y0, nx, ny = R.CLASSIC_MAP
    expected = np.zeros((ny, nx), dtype=np.uint8)
    for y in range(y0, y0 + ny):
        for x in range(x0, x0 + nx):
            if R.point_feature(R.CLASSIC, x, y) != R.F_NONE:
                expected[y - y0, x - x0] = R.terra(R.CLASSIC, x, y)[2]
    assert np.count_nonzero(expected) == 90
    assert_codes_exact(classic.feature_grid(x0, y0, nx, ny), expected, "classic features")
    g = classic.grid(x0, y0, nx, ny)
    assert_codes_exact(g.feature, expected, "classic grid.feature")


def test_classic_map_rows(classic):
    """Every 7th row of the classic map, all columns, through sample()."""
    x0, y0, nx, ny = R.CLASSIC_MAP
    xs = np.arange(x0, x0 + nx, dtype=np.float64)
    ys = np.arange(y0, y0 + ny, 7, dtype=np.float64)
    X, Y = np.meshgrid(xs, ys)
    h, d, t, f = R.sample(R.CLASSIC, X, Y)
    s = classic.sample(X, Y)
    assert_f64_exact(s.height, h, "height")
    assert_f64_exact(s.depth, d, "depth")
    assert np.array_equal(np.asarray(s.terrain), t)
    assert np.array_equal(np.asarray(s.feature), f)
    g = classic.grid(x0, y0, nx, ny)
    assert_f64_exact(g.height[::7], h, "grid rows height")
    assert_f64_exact(g.depth[::7], d, "grid rows depth")
    assert_codes_exact(g.terrain[::7], t, "grid rows terrain")
    assert_codes_exact(g.feature[::7], f, "grid rows feature")
    assert set(np.unique(t).tolist()) == {R.LAKE, R.TOWN, R.GRASS, R.MOOR, R.WOOD, R.THICKET}


# ---------------------------------------------------------------------------
# terra / height / sample at single points
# ---------------------------------------------------------------------------

POINTS = [
    (0.0, 0.0), (-2.5, -2.5), (2.5, 2.5), (-0.5, 0.5), (0.49999999999999994, -0.49999999999999994),
    (-1.5, 3.5), (1e-300, -1e-300), (-0.0, -0.0), (123.456, -654.321), (-98765.4321, 1234.5),
    (L, L), (-L, L), (L, -L), (-L, -L), (L - 0.5, -L + 0.5), (L - 1e-6, 0.25),
    (24011, 5879), (24011.49, 5878.5), (24010.5, 5879.4999), (24102, 5508), (23920, 5348),
    (23612, 5782), (23624.4, 5818.6),
]


@pytest.mark.parametrize("x, y", POINTS)
def test_terra_points(classic, x, y):
    check_terra_point(rt, classic, R.CLASSIC, x, y)
    h = classic.height(x, y)
    assert isinstance(h, float)
    assert same_float(h, R.height(R.CLASSIC, x, y))


def test_height_broadcasts(classic):
    xs = np.array([-3.5, 0.0, 17.25, 1e6 + 0.5])
    ys = np.array([[2.5], [-7.75], [L - 1.0]])
    h = classic.height(xs, ys)
    assert isinstance(h, np.ndarray)
    assert h.shape == (3, 4) and h.dtype == np.float64
    exp = np.array([[R.height(R.CLASSIC, x, y) for x in xs] for y in ys[:, 0]])
    assert_f64_exact(h, exp, "height broadcast")
    # scalar with array, and lists
    h2 = classic.height(5.5, [1.0, 2.0, -3.5])
    assert_f64_exact(h2, [R.height(R.CLASSIC, 5.5, y) for y in (1.0, 2.0, -3.5)], "height")
    # integer inputs
    h3 = classic.height(np.array([1, 2, 3]), np.array([-4, 5, 6]))
    assert_f64_exact(h3, [R.height(R.CLASSIC, x, y) for x, y in ((1, -4), (2, 5), (3, 6))],
                     "height int")


def test_height_grid_is_ground_height_not_lake_surface(classic):
    x0, y0 = 23410, 5330          # a lake edge
    hg = classic.height_grid(x0, y0, 40, 30)
    g = classic.grid(x0, y0, 40, 30)
    lake = g.terrain == rt.TerrainType.LAKE
    assert lake.any() and (~lake).any()
    assert (hg[lake] < 204.0).all()
    assert np.array_equal(g.height[lake], np.full(lake.sum(), 204.0))
    assert_f64_exact(g.depth[lake], 204.0 - hg[lake], "depth")
    assert_f64_exact(g.height[~lake], hg[~lake], "dry height")


def test_sample_broadcasting_and_shapes(classic):
    xs = np.array([23536.0, 24011.0, 24102.0, -7.5])
    ys = np.array([[5327.0], [5879.0]])
    s = classic.sample(xs, ys)
    assert type(s).__name__ == "Sample"
    for arr in s:
        assert np.asarray(arr).shape == (2, 4)
    h, d, t, f = R.sample(R.CLASSIC, xs, ys)
    assert_f64_exact(s.height, h)
    assert_f64_exact(s.depth, d)
    assert np.array_equal(np.asarray(s.terrain), t)
    assert np.array_equal(np.asarray(s.feature), f)
    # scalars give shape ()
    s0 = classic.sample(24011.0, 5879.0)
    assert np.asarray(s0.feature).shape == ()
    assert int(np.asarray(s0.feature)) == R.F_X
    # 1-D inputs
    s1 = classic.sample([24011.0, 24102.0], [5879.0, 5508.0])
    assert np.asarray(s1.feature).tolist() == [R.F_X, R.F_CONE]


# ---------------------------------------------------------------------------
# every option
# ---------------------------------------------------------------------------

LAKE_EDGE = (23410, 5330)
MUD_AREA = (23676, 5588)
PATH_AREA = (23700, 5310)
PEAK = (23962, 5820)
TOWN_AREA = (23600, 5770)
FEATURE_AREA = (24090, 5360)    # BOULDER and KNOLL

OPTION_CASES = [
    # (id, params, window, terrain codes the reference must show there)
    ("islands", R.Params(lake_height=215.0), LAKE_EDGE, {R.LAKE, R.GRASS, R.MOOR}),
    ("islands-feature-area", R.Params(lake_height=215.0), FEATURE_AREA, {R.MOOR}),
    ("drained", R.Params(lake_height=190.0), LAKE_EDGE, {R.MUD, R.LAKE, R.GRASS}),
    ("drained2", R.Params(lake_height=190.0), MUD_AREA, {R.MUD, R.LAKE}),
    ("drained-fraction", R.Params(lake_height=197.3), MUD_AREA, {R.MUD, R.LAKE}),
    ("paths", R.Params(with_paths=True), PATH_AREA, {R.PATH, R.WOOD}),
    ("paths-lake", R.Params(with_paths=True), LAKE_EDGE, {R.LAKE}),
    # paths compare with the lake height, not the lake base
    ("paths-raised-lake", R.Params(with_paths=True, lake_height=310.0), PATH_AREA,
     {R.PATH, R.LAKE}),
    ("paths-mountains", R.Params(with_paths=True, mountain_base=290.0), PATH_AREA, {R.PATH}),
    ("paths-drained", R.Params(with_paths=True, lake_height=190.0), (23170, 5605),
     {R.PATH, R.MUD}),
    ("mountains", R.Params(mountain_base=495.0), PEAK, {R.WOOD}),
    ("mountains-fraction", R.Params(mountain_base=230.3), LAKE_EDGE, {R.LAKE}),
    ("snow", R.Params(snow_height=495.0), PEAK, {R.SNOW, R.WOOD}),
    ("snow-and-mountains", R.Params(snow_height=550.0, mountain_base=480.0), PEAK,
     {R.SNOW, R.WOOD}),
    # Java: woodOnly skips the town test, so a town area turns to WOOD
    ("wood-only", R.Params(wood_only=True), TOWN_AREA, {R.WOOD}),
    ("wood-only-lake", R.Params(wood_only=True), LAKE_EDGE, {R.WOOD, R.LAKE}),
    ("bleak", R.Params(bleak=True), LAKE_EDGE, {R.GRASS}),
    ("mask-ffff", R.Params(feature_mask=0xFFFF), (24100, 5300), {R.WOOD}),
    ("mask-ffff-2", R.Params(feature_mask=0xFFFF), (24097, 5306), {R.WOOD}),
    ("mask-ff", R.Params(feature_mask=0xFF), FEATURE_AREA, {R.MOOR}),
    ("lake-base-300", R.Params(lake_base=300.0), PATH_AREA, {R.LAKE, R.WOOD}),
    ("lake-base-250-low", R.Params(lake_base=250.0, lake_height=220.0), LAKE_EDGE,
     {R.LAKE, R.MUD}),
    ("everything", R.Params(lake_height=210.0, with_paths=True, mountain_base=240.0,
                            snow_height=300.0, feature_mask=0xFFF), LAKE_EDGE, {R.LAKE}),
]


@pytest.mark.parametrize("params, window, kinds",
                         [pytest.param(p, w, k, id=i) for i, p, w, k in OPTION_CASES])
def test_options(params, window, kinds):
    t = make_terrain(rt, params)
    x0, y0 = window
    ref = check_grid_against_reference(rt, t, params, x0, y0, 40, 30, 1.0)
    assert kinds <= set(np.unique(ref[4]).tolist())      # reference self-check
    if params.wood_only:
        assert R.TOWN not in set(np.unique(ref[4]).tolist())
    check_grid_against_reference(rt, t, params, x0 + 0.5, y0 - 0.5, 40, 30, 0.5)
    for (x, y) in [(x0, y0), (x0 + 11.5, y0 + 7.5), (x0 + 39.3, y0 + 29.7)]:
        check_terra_point(rt, t, params, x, y)


def test_options_reach_their_branches():
    """Reference self-check: the option windows show what they are meant to."""
    def kinds(p, w):
        return set(np.unique(R.grid(p, w[0], w[1], 40, 30, 1.0)[4]).tolist())
    assert R.PATH in kinds(R.Params(with_paths=True), PATH_AREA)
    assert R.MUD in kinds(R.Params(lake_height=190.0), MUD_AREA)
    assert R.SNOW in kinds(R.Params(snow_height=495.0), PEAK)
    hs = R.height_grid(R.Params(mountain_base=495.0), PEAK[0], PEAK[1], 40, 30)
    assert hs.max() > 495.0 and hs.min() < 495.0
    # Java terra(): wood_only skips the town test (the town area is all WOOD)
    assert R.TOWN in kinds(R.CLASSIC, TOWN_AREA)
    assert kinds(R.Params(wood_only=True), TOWN_AREA) == {R.WOOD}
    # mask 0xffff: the two classic-map features near (24117, 5319) and its
    # window; mask 0xff finds more features than 0xfff
    f_ff = R.grid(R.Params(feature_mask=0xFF), FEATURE_AREA[0], FEATURE_AREA[1], 40, 30)[5]
    f_fff = R.grid(R.CLASSIC, FEATURE_AREA[0], FEATURE_AREA[1], 40, 30)[5]
    assert np.count_nonzero(f_ff) > np.count_nonzero(f_fff) > 0


def test_mask_ffff_feature_point():
    p = R.Params(feature_mask=0xFFFF)
    # with the PDF's mask only 4 features remain in the classic map
    for (x, y, kind) in [(23469, 5696, R.F_BOULDER), (23538, 5797, R.F_ROOT),
                         (23431, 5853, R.F_WATERHOLE), (23557, 5888, R.F_MINE)]:
        assert R.terra(p, x, y)[2] == kind
        t = make_terrain(rt, p)
        check_terra_point(rt, t, p, x, y)
        ref = check_grid_against_reference(rt, t, p, x - 20, y - 15, 40, 30, 1.0)
        assert np.count_nonzero(ref[5]) == 1


def test_lake_height_is_settable():
    t = rt.Terrain()
    assert t.lake_height == 204.0
    t.lake_height = 215.0
    assert t.lake_height == 215.0
    check_grid_against_reference(rt, t, R.Params(lake_height=215.0), *LAKE_EDGE, 40, 30, 1.0)
    t.lake_height = 190.0
    check_grid_against_reference(rt, t, R.Params(lake_height=190.0), *MUD_AREA, 40, 30, 1.0)
    t.lake_height = 204
    assert t.lake_height == 204.0
    check_grid_against_reference(rt, t, R.CLASSIC, *MUD_AREA, 40, 30, 1.0)


def _eighths_profile(n, seed):
    rng = np.random.default_rng(seed)
    return tuple(float(v) / 8.0 for v in rng.integers(0, 1200, size=n))


CUSTOM_MODELS = [
    pytest.param(R.Params(profile=_eighths_profile(64, 1)), id="profile-64-eighths"),
    pytest.param(R.Params(profile=_eighths_profile(1024, 2)), id="profile-1024-eighths"),
    pytest.param(R.Params(profile=tuple(60.0 + 50.0 * math.sin(2 * math.pi * i / 64.0)
                                        for i in range(64))), id="profile-64-sine"),
    pytest.param(R.Params(profile=tuple(float(i % 37) * 3.1 + 20.0 for i in range(1024)),
                          lake_base=250.0), id="profile-1024-tenths"),
    pytest.param(R.Params(profile=(50.0,), lake_base=100.0), id="profile-1"),
    pytest.param(R.Params(profile=(40.0, 90.0), lake_base=100.0), id="profile-2"),
    pytest.param(R.Params(ah=(3, -7, 11), bh=(29, 5, -2), a1=(-43, 31, 4), b1=(-3, 2, 32),
                          a2=(-24, 60, -30), b2=(15, -34, -43), a3=(-51, -58, 33),
                          b3=(-44, 27, -44), lake_base=130.0), id="vectors-3"),
    pytest.param(R.Params(ah=(0, 13, 21, 22, 29, -17, 5), bh=(27, 26, 21, 11, 1, 9, -33),
                          a1=(-43, -43, -56, 31, 4, 12, -7), b1=(-3, -12, 22, 2, 32, -5, 8),
                          a2=(-24, -25, 60, 10, -30, 7, 19), b2=(15, -54, -34, -51, -43, 21, 3),
                          a3=(-51, -62, -58, -64, 33, 17, -9), b3=(-44, 20, 27, -64, -44, 6, 2),
                          lake_base=450.0), id="vectors-7"),
    pytest.param(R.Params(ah=(1000000,), bh=(-999999,), a1=(1,), b1=(2,), a2=(3,), b2=(4,),
                          a3=(5,), b3=(6,), lake_base=60.0), id="vectors-1-large"),
]


@pytest.mark.parametrize("params", CUSTOM_MODELS)
def test_custom_models(params):
    t = make_terrain(rt, params)
    assert_f64_exact(t.profile, params.profile, "profile")
    for name in R.VECTOR_NAMES:
        assert tuple(getattr(t, name).tolist()) == getattr(params, name)
    for (x0, y0, step) in [(0, 0, 1.0), (-17.5, 33.5, 0.5), (-123.3, -77.7, 0.3),
                           (L - 40, -L, 1.0)]:
        check_grid_against_reference(rt, t, params, x0, y0, 40, 30, step)
    for (x, y) in [(0.0, 0.0), (-2.5, 2.5), (1234.5678, -8765.4321)]:
        check_terra_point(rt, t, params, x, y)


def test_custom_models_reach_several_kinds():
    """Reference self-check: the custom models are not trivially uniform."""
    for par in CUSTOM_MODELS[:4] + CUSTOM_MODELS[6:8]:
        params = par.values[0]
        g = R.grid(params, -200, -150, 40, 30, 10.0)
        assert len(np.unique(g[4])) >= 2, par.id


# ---------------------------------------------------------------------------
# other functions
# ---------------------------------------------------------------------------

def test_orienteering_code():
    for xr, yr in [(0, 0), (25, 26), (-1, -27), (24011, 5879), (-L, L), (123456, -654321)]:
        assert rt.orienteering_code(xr, yr) == R.orienteering_code(xr, yr)


def test_tree_selector(classic):
    # (-1824, -1015) and the large ones tell (PI10000*xr)*yr from PI10000*(xr*yr)
    pts = [(0, 0), (1, 1), (-1, 1), (7, -13), (24011, 5879), (L, L), (-L, L - 3),
           (123456, 654321), (-98765, -43210), (-1824, -1015), (3119619, -27942),
           (46895493, 11217), (-14183581, 5398), (14582596, 14074), (37356976, 5131)]
    for x, y in pts:
        v = classic.tree_selector(x, y)
        assert int(v) == R.tree_selector(R.CLASSIC, x, y)
    xs = np.arange(-50, 50)
    ys = np.arange(1000, 1100)
    arr = np.asarray(classic.tree_selector(xs, ys))
    assert arr.shape == (100,)
    assert arr.tolist() == [R.tree_selector(R.CLASSIC, x, y) for x, y in zip(xs, ys)]
    assert set(arr.tolist()) == {0, 1, 2, 3}


def test_buildings_classic_map(classic):
    x0, y0, nx, ny = R.CLASSIC_MAP
    b = classic.buildings(x0, y0, nx, ny)
    b = np.asarray(b)
    assert b.dtype == np.int64
    assert b.ndim == 2 and b.shape[1] == 2
    exp = R.buildings(R.CLASSIC, x0, y0, nx, ny)
    assert sorted(map(tuple, b.tolist())) == exp
    assert len(exp) >= 1


def test_buildings_town_area(classic):
    x0, y0, nx, ny = 23500, 5700, 300, 250
    exp = R.buildings(R.CLASSIC, x0, y0, nx, ny)
    got = sorted(map(tuple, np.asarray(classic.buildings(x0, y0, nx, ny)).tolist()))
    assert got == exp
    for xb, yb in got:
        assert xb % 16 == 0 and yb % 16 == 0
        assert classic.terra(xb, yb).terrain == rt.TerrainType.TOWN


def test_buildings_empty_and_edges(classic):
    assert np.asarray(classic.buildings(0, 0, 1, 1)).shape[1:] == (2,)
    # half-open ranges: a centre at x0+nx is excluded
    exp = R.buildings(R.CLASSIC, 23600, 5800, 33, 25)
    got = sorted(map(tuple, np.asarray(classic.buildings(23600, 5800, 33, 25)).tolist()))
    assert got == exp


def test_buildings_in_lattice_order_across_chunks(classic):
    """Centres come row by row (south to north), each west to east, as the
    reference's loops visit them, also when the lattice of a row is longer
    than the core's chunk (16384 lattice points) and west of the origin."""
    for x0, y0, nx, ny in ((23500, 5700, 300, 250), (-150_000, 5792, 300_000, 40),
                           (23503, 5701, 16, 16), (-37, -41, 90, 70)):
        got = np.asarray(classic.buildings(x0, y0, nx, ny)).tolist()
        exp = R.buildings(R.CLASSIC, x0, y0, nx, ny)
        assert got == sorted(map(list, exp), key=lambda c: (c[1], c[0]))
    assert len(np.asarray(classic.buildings(-150_000, 5792, 300_000, 40))) > 0


def test_longest_profile_allowed():
    """Length 2**24 is allowed (mask 2**24 - 1) and indexes without folding."""
    n = 2 ** 24
    one = {"ah": (128,), "bh": (0,), "a1": (1,), "b1": (0,),
           "a2": (1,), "b2": (0,), "a3": (1,), "b3": (0,)}
    t = rt.Terrain(profile=np.arange(n, dtype=np.float64), lake_base=-1.0, **one)
    assert t.profile.shape == (n,)
    assert t.height(1000.5, 0.0) == 1000.5
    assert t.height(n - 0.5, 0.0) == (n - 1) + 0.5 * (0.0 - (n - 1))
    assert t.height(-0.25, 7.0) == (n - 1) + 0.75 * (0.0 - (n - 1))
    assert t.height(n + 3.0, 0.0) == 3.0
    assert t.height(12345678.0, 0.0) == 12345678.0
