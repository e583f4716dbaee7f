"""Checks of the pure-Python reference itself (no relfterrain needed)."""

import math

import pytest
import reference as R


def test_profile_has_256_entries_with_restored_values():
    p = R.CLASSIC_PROFILE
    assert len(p) == 256
    assert p[141] == 2.0
    assert p[178] == 36.0
    assert p[0] == 77.0 and p[255] == 75.0
    assert all(isinstance(v, float) for v in p)
    # the six 2s of the author's listing (the PDF text lost one)
    assert [i for i, v in enumerate(p) if v == 2.0] == [136, 137, 138, 139, 140, 141]
    assert p[176:183] == (37.0, 37.0, 36.0, 36.0, 36.0, 35.0, 35.0)


def test_classic_vectors():
    assert set(R.CLASSIC_VECTORS) == set(R.VECTOR_NAMES)
    assert all(len(v) == 5 for v in R.CLASSIC_VECTORS.values())
    assert R.CLASSIC_VECTORS["ah"] == (0, 13, 21, 22, 29)
    assert R.CLASSIC_VECTORS["b3"] == (-44, 20, 27, -64, -44)


@pytest.mark.parametrize("v, expected", [
    (2.5, 3.0), (-2.5, -2.0), (0.5, 1.0), (-0.5, 0.0), (1.5, 2.0), (-1.5, -1.0),
    (2.4999999999999996, 2.0), (0.49999999999999994, 0.0), (-0.49999999999999994, 0.0),
    (-3.7, -4.0), (3.7, 4.0), (-3.2, -3.0), (0.0, 0.0), (7.0, 7.0), (-7.0, -7.0),
    (2.0 ** 52 + 1, 2.0 ** 52 + 1), (-(2.0 ** 52) - 1, -(2.0 ** 52) - 1),
    (2.0 ** 51 + 0.5, 2.0 ** 51 + 1), (-(2.0 ** 51) - 0.5, -(2.0 ** 51)),
    (1e300, 1e300), (-1e300, -1e300),
    (67108863.5, 67108864.0), (-67108863.5, -67108863.0),
])
def test_round_js(v, expected):
    r = R.round_js(v)
    assert isinstance(r, float)
    assert r == expected


@pytest.mark.parametrize("v, expected", [
    (0.0, 0), (-0.0, 0), (1.9, 1), (-1.9, -1), (2.0 ** 31 - 1, 2 ** 31 - 1),
    (2.0 ** 31, -(2 ** 31)), (-(2.0 ** 31), -(2 ** 31)), (-(2.0 ** 31) - 1, 2 ** 31 - 1),
    (2.0 ** 32, 0), (2.0 ** 32 + 5, 5), (-(2.0 ** 32) - 5, -5), (2.0 ** 32 + 0.75, 0),
    (1e20, 1661992960), (-1e20, -1661992960), (2.0 ** 53, 0), (2.0 ** 53 + 2 ** 31, -(2 ** 31)),
    (4294967295.5, -1), (math.inf, 0), (-math.inf, 0), (math.nan, 0), (1e308, 0),
])
def test_toint32(v, expected):
    assert R.toint32(v) == expected


def test_calc_height_origin_is_five_times_profile0():
    assert R.calc_height(R.CLASSIC, 0.0, 0.0) == 385.0
    assert R.height(R.CLASSIC, 0, 0) == 385.0


def test_calc_height_interpolates_along_y():
    # at x = 0 the first direction (AH=0, BH=27) is j = 27*y/128
    p = R.Params(ah=(0,), bh=(128,), a1=(1,), b1=(1,), a2=(1,), b2=(1,), a3=(1,), b3=(1,))
    assert R.calc_height(p, 0.0, 0.5) == (77.0 + 80.0) / 2
    assert R.calc_height(p, 0.0, 255.5) == (75.0 + 77.0) / 2      # wraps around
    assert R.calc_height(p, 0.0, -0.5) == (75.0 + 77.0) / 2       # negative wraps


def test_calc_prof_uses_floor_division_not_truncation():
    p = R.Params(ah=(0,), bh=(1,), a1=(1,), b1=(0,), a2=(1,), b2=(1,), a3=(1,), b3=(1,))
    # v = -0.5: Java floor -> -1, -1 >> 7 = -1, & 255 = 255 (JS >> would give 0)
    assert R.calc_prof(p, (1,), -0.5, (0,), 0.0) == R.CLASSIC_PROFILE[255]
    assert R.calc_prof(p, (1,), -128.0, (0,), 0.0) == R.CLASSIC_PROFILE[255]
    assert R.calc_prof(p, (1,), -128.5, (0,), 0.0) == R.CLASSIC_PROFILE[254]
    assert R.calc_prof(p, (1,), 127.99, (0,), 0.0) == R.CLASSIC_PROFILE[0]
    assert R.calc_prof(p, (1,), 128.0, (0,), 0.0) == R.CLASSIC_PROFILE[1]


def test_orienteering_code():
    assert R.orienteering_code(0, 0) == "AA"
    assert R.orienteering_code(25, 26) == "ZA"
    assert R.orienteering_code(-1, -27) == "BB"
    assert R.orienteering_code(24011, 5879) == "ND"


# Values computed by Node.js from a direct JavaScript transcription of the
# seed's terra() (classic parameters, Java calcProf): (x, y, height hex,
# terrain, feature, depth hex).  They anchor the Python number semantics.
JS_ANCHORS = [
    (24117, 5319, '0x1.c030000000000p+7', 4, 2, '0x0.0p+0'),
    (23472, 5324, '0x1.d290000000000p+7', 2, 2, '0x0.0p+0'),
    (23803, 5325, '0x1.f940000000000p+7', 4, 3, '0x0.0p+0'),
    (23536, 5327, '0x1.d480000000000p+7', 2, 1, '0x0.0p+0'),
    (23830, 5348, '0x1.00ac000000000p+8', 4, 4, '0x0.0p+0'),
    (23920, 5348, '0x1.9800000000000p+7', 0, 0, '0x1.4000000000000p-3'),
    (24146, 5348, '0x1.dba0000000000p+7', 3, 1, '0x0.0p+0'),
    (24109, 5374, '0x1.c9ac000000000p+7', 3, 5, '0x0.0p+0'),
    (23691, 5463, '0x1.e938000000000p+7', 5, 2, '0x0.0p+0'),
    (24102, 5508, '0x1.26c8000000000p+8', 3, 7, '0x0.0p+0'),
    (23600, 5583, '0x1.e0e0000000000p+7', 5, 3, '0x0.0p+0'),
    (24011, 5879, '0x1.b726000000000p+8', 4, 6, '0x0.0p+0'),
    (46631766.80226505, 35403230.06310682, '0x1.50037e1418000p+8', 4, 0, '0x0.0p+0'),
    (-612692.2390375584, -6779194.527754769, '0x1.2ccc96602a000p+8', 5, 0, '0x0.0p+0'),
    (577.4467022710264, -812.2808264515302, '0x1.004426f6fe209p+8', 3, 0, '0x0.0p+0'),
    (-995.7878932977786, -109.22561189039709, '0x1.296dfe47038ecp+8', 4, 0, '0x0.0p+0'),
    (-57840906.75, -1948850.5, '0x1.f15f000000000p+7', 2, 0, '0x0.0p+0'),
    (41461161.5, 27722447.5, '0x1.9800000000000p+7', 0, 0, '0x1.c9c0000000000p+3'),
    (-20604538.5, -26960869, '0x1.f12c000000000p+7', 1, 0, '0x0.0p+0'),
    (-392.18933791331835, -47.892235592310385, '0x1.9889942652621p+7', 1, 0, '0x0.0p+0'),
    (4579705.883553177, -50885037.69251317, '0x1.5639ebda18000p+8', 4, 7, '0x0.0p+0'),
]


@pytest.mark.parametrize("x, y, hhex, terrain, feature, dhex", JS_ANCHORS)
def test_reference_matches_javascript_anchor(x, y, hhex, terrain, feature, dhex):
    h, t, f, _code, d = R.terra(R.CLASSIC, x, y)
    assert h.hex() == float.fromhex(hhex).hex()
    assert (t, f) == (terrain, feature)
    assert d.hex() == float.fromhex(dhex).hex()


def _classic_visible_features(mask):
    p = R.Params(feature_mask=mask)
    x0, y0, nx, ny = R.CLASSIC_MAP
    found = {}
    for y in range(y0, y0 + ny):
        for x in range(x0, x0 + nx):
            if R.point_feature(p, x, y) != R.F_NONE:
                f = R.terra(p, x, y)[2]
                if f != R.F_NONE:
                    found[(x, y)] = f
    return found


def test_classic_map_has_about_90_features_with_mask_0xfff():
    found = _classic_visible_features(0xFFF)
    assert len(found) == 90
    kinds = set(found.values())
    assert kinds == {R.F_MINE, R.F_BOULDER, R.F_ROOT, R.F_WATERHOLE, R.F_KNOLL,
                     R.F_X, R.F_CONE}


def test_classic_map_has_4_features_with_mask_0xffff():
    assert len(_classic_visible_features(0xFFFF)) == 4


def test_terra_invariants_on_a_patch():
    for y in range(5318, 5918, 37):
        for x in range(23396, 24196, 41):
            h, t, f, code, d = R.terra(R.CLASSIC, x + 0.3, y - 0.2)
            assert d >= 0
            if t == R.LAKE:
                assert h == 204.0
            else:
                assert d == 0.0
            if t == R.TOWN:
                assert f == R.F_NONE
            assert (code != "") == (f in R.CODED_FEATURES)


def test_threshold_defaults_are_the_seeds_and_not_passed_to_the_library():
    p = R.CLASSIC
    assert (p.feature_point, p.feature_x, p.feature_cone) == (4, 8, 16)
    assert (p.mine_below, p.boulder_below, p.waterhole_below, p.knoll_below) == (32, 128, 160, 200)
    assert (p.x_below, p.cone_below) == (4, 8)
    assert (p.town_below, p.grass_below, p.open_below, p.thicket_below) == (120.0, 255.0, 255.0, 200.0)
    assert (p.path_dx, p.path_dy, p.path_tolerance) == (4000.0, 2000.0, 2.0)
    kw = p.terrain_kwargs()
    assert not set(R.THRESHOLD_NAMES) & set(kw)
    kw = R.Params(town_below=120, mine_below=40, path_dx=100.0).terrain_kwargs()
    assert set(R.THRESHOLD_NAMES) & set(kw) == {"mine_below", "path_dx"}
    assert kw["mine_below"] == 40 and kw["path_dx"] == 100.0


def test_thresholds_change_terra():
    # (23536, 5327) is a MINE on GRASS (JS anchor); xyff of it decides the kind
    x, y = 23536, 5327
    xyff = (x * y) & 0xFF
    assert xyff < 32
    assert R.terra(R.Params(mine_below=xyff), x, y)[2] == R.F_BOULDER
    assert R.terra(R.Params(feature_point=5), x, y)[2] != R.F_MINE
    assert R.terra(R.Params(town_below=1e9), x, y)[1] == R.TOWN
    assert R.terra(R.Params(grass_below=-1.0, thicket_below=1e9), x, y)[1] == R.THICKET
    assert R.terra(R.Params(grass_below=-1.0, thicket_below=-1.0), x, y)[1] == R.WOOD
    assert R.terra(R.Params(open_below=-1.0), x, y)[1] == R.MOOR
    # a huge tolerance makes every dry point a path
    assert R.terra(R.Params(with_paths=True, path_tolerance=1e9), x, y)[1] == R.PATH
    assert R.terra(R.Params(with_paths=True, path_dx=0.0, path_dy=0.0), x, y)[1] == R.PATH
