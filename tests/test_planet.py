"""Planets (SPEC 14) against the transcription in space_reference, and their continuity."""

import numpy as np
import pytest
import reference as R
import space_reference as S
from helpers import assert_codes_exact, assert_f64_exact
from hypothesis import given
from hypothesis import strategies as st

import relfterrain as rt

THIRD = {"ch": (11, -21, 25, -14, 19), "c1": (37, -29, 12, -50, 27),
         "c2": (-31, 44, -19, 52, 20), "c3": (40, -25, 58, 17, -47)}


def _ref_vectors(planet):
    v = {n: tuple(getattr(planet, n).tolist()) for n in
         ("ah", "bh", "ch", "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")}
    v.update(profile=tuple(planet.profile.tolist()), lake_height=planet.lake_height,
             lake_base=planet.lake_base, feature_mask=planet.feature_mask)
    return v


def test_defaults_documented():
    p = rt.Planet(1000)
    for name, vec in THIRD.items():
        assert tuple(getattr(p, name).tolist()) == vec
    assert tuple(p.ah.tolist()) == R.CLASSIC_VECTORS["ah"]


@pytest.mark.parametrize("radius", [1000.0, 12345.5, 2.0**26])
def test_points_exact(radius):
    p = rt.Planet(radius, lake_height=230.0)
    v = _ref_vectors(p)
    rng = np.random.default_rng(int(radius))
    lat = np.concatenate([rng.uniform(-90, 90, 300), [90, -90, 0, 89.9999, -45]])
    lon = np.concatenate([rng.uniform(-540, 540, 300), [0, 17, 180, -180, 1e6]])
    h = p.height(lat, lon, threads=2)
    s = p.terra(lat, lon, threads=2)
    want = [S.planet_terra_xyz(v, *S.sphere_point(radius, a, b)) for a, b in zip(lat, lon)]
    ground = [S._sum3(v["profile"], v["ah"], v["bh"], v["ch"], *S.sphere_point(radius, a, b))
              for a, b in zip(lat, lon)]
    assert_f64_exact(h, ground, "height")
    assert_f64_exact(s.height, [w[0] for w in want], "terra height")
    assert_f64_exact(s.depth, [w[1] for w in want], "depth")
    assert_codes_exact(s.terrain, np.array([w[2] for w in want], dtype=np.uint8), "terrain")
    assert_codes_exact(s.feature, np.array([w[3] for w in want], dtype=np.uint8), "feature")
    x, y, z = p.xyz(lat, lon)
    ref = np.array([S.sphere_point(radius, a, b) for a, b in zip(lat, lon)])
    assert_f64_exact(np.stack([x, y, z], 1), ref, "xyz")


def test_features_exact_where_they_are():
    # a fine grid near the equator, where features exist, every one checked
    p = rt.Planet(20000)
    g = p.grid(-0.4, 10.0, 300, 300, 180 / (20000 * 3.141592653589793))  # 1 m apart
    v = _ref_vectors(p)
    rs, cs = np.nonzero(g.feature)
    assert len(rs) > 0
    for r, c in zip(rs, cs):
        want = S.planet_terra_xyz(v, *S.sphere_point(20000, g.lat[r], g.lon[c]))
        assert (g.terrain[r, c], g.feature[r, c]) == (want[2], want[3])


@given(st.floats(-90, 90), st.floats(-1e4, 1e4))
def test_property_terra(lat, lon):
    p = rt.Planet(5000)
    s = p.terra(lat, lon)
    want = S.planet_terra_xyz(_ref_vectors(p), *S.sphere_point(5000, lat, lon))
    assert (s.height, s.depth, int(s.terrain), int(s.feature)) == want


@pytest.mark.parametrize("lat0,lon0", [(90, 0), (-90, 37), (0, 0), (45, 170), (89.5, -180)])
def test_map_exact(lat0, lon0):
    p = rt.Planet(3000)
    m = p.map(lat0, lon0, 41, 31, threads=2)
    v = _ref_vectors(p)
    for r in range(31):
        for c in range(41):
            u = (c - 0.5 * 40) * m.step
            w = (r - 0.5 * 30) * m.step
            pt = S.map_point(3000.0, lat0, lon0, u, w)
            if pt is None:
                assert not m.visible[r, c] and m.terrain[r, c] == rt.planet.OUTSIDE
                assert np.isnan(m.height[r, c])
                continue
            want = S.planet_terra_xyz(v, *pt)
            got = (m.height[r, c], m.depth[r, c], m.terrain[r, c], m.feature[r, c])
            assert got == want, (r, c)
    for threads in (1, 3):
        assert np.array_equal(p.map(lat0, lon0, 41, 31, threads=threads).terrain, m.terrain)


def _slope_bound(p, ds):
    # |dh| <= sum_i |(A,B,C)_i| * ds / 128 * max |p1 - p0|
    prof = p.profile
    dp = np.abs(np.diff(np.append(prof, prof[0]))).max()
    vec = np.stack([p.ah, p.bh, p.ch]).astype(float)
    return float(np.linalg.norm(vec, axis=0).sum() * ds / 128 * dp) + 1e-9


def test_meridian_through_the_pole_is_continuous():
    R_ = 10000.0
    p = rt.Planet(R_)
    lat = np.linspace(80, 90, 2001)
    # along lon = 30 up to the pole, then down lon = 210 on the other side
    la = np.concatenate([lat, lat[::-1][1:]])
    lo = np.concatenate([np.full(lat.size, 30.0), np.full(lat.size - 1, 210.0)])
    h = p.height(la, lo)
    ds = R_ * np.radians(10 / 2000) * 1.0001
    assert np.abs(np.diff(h)).max() <= _slope_bound(p, ds)
    # the pole is one point, whatever the longitude
    ph = p.height(90.0, np.linspace(-180, 180, 37))
    assert np.ptp(ph) < 1e-9


def test_map_on_the_pole_has_no_discontinuity():
    p = rt.Planet(10000.0)
    m = p.map(90, 0, 301, 301, step=20.0)
    h = m.height
    # neighbours on the map are at most step (plus the sphere's stretch) apart
    bound = _slope_bound(p, 20.0 * 1.05)
    for dh in (np.diff(h, axis=0), np.diff(h, axis=1)):
        assert np.nanmax(np.abs(dh)) <= bound
    # a lat/lon generator would differ across the pole: here the map centred
    # there agrees with the points themselves
    assert abs(h[150, 150] - p.terra(90, 0).height) < 1e-9


def test_placed_keys_distinguish_z():
    p = rt.Planet(1000)
    x, y, z = p.xyz(30, 40)
    xr, yr, zr = (int(R.round_js(c)) for c in (x, y, z))
    p.place(xr, yr, zr, rt.TerrainType.ROAD)
    assert p.terra(30, 40).terrain == rt.TerrainType.ROAD
    assert p.terra(-30, 40).terrain != rt.TerrainType.ROAD   # the mirror point (-z)
    v = _ref_vectors(p)
    want = S.planet_terra_xyz(v, x, y, z, {(xr, yr, zr): ("T", int(rt.TerrainType.ROAD))})
    assert int(p.terra(30, 40).terrain) == want[2]
    p.place(xr, yr, zr, rt.Feature.CONE)
    assert p.placed == {(xr, yr, zr): rt.Feature.CONE}
    assert p.remove(xr, yr, zr) and not p.placed


def test_placed_table_built_once_per_change():
    import copy
    import pickle
    p = rt.Planet(1000)
    assert p._params()[-1] is None
    pts = [(30, 40), (-10, 100), (75, -20)]
    keys = []
    for lat, lon in pts:
        x, y, z = p.xyz(lat, lon)
        keys.append(tuple(int(R.round_js(c)) for c in (x, y, z)))
    p.place(*keys[0], rt.TerrainType.ROAD)
    p.place(*keys[1], rt.Feature.CONE)
    table = p._params()[-1]
    assert table is not None and p._params()[-1] is table   # not rebuilt by calls
    p.terra(0, 0)
    p.map(0, 0, 8, 8)
    assert p._params()[-1] is table
    assert p.terra(*pts[0]).terrain == rt.TerrainType.ROAD
    p.place(*keys[2], rt.TerrainType.STREAM)                    # a change: a new table
    assert p._params()[-1] is not table
    assert p.terra(*pts[2]).terrain == rt.TerrainType.STREAM
    table = p._params()[-1]
    assert not p.remove(1, 2, 3) and p._params()[-1] is table  # nothing removed: kept
    assert p.remove(*keys[0]) and p._params()[-1] is not table
    assert p.terra(*pts[0]).terrain != rt.TerrainType.ROAD
    lat = np.array([q[0] for q in pts], dtype=float)
    lon = np.array([q[1] for q in pts], dtype=float)
    want = p.terra(lat, lon)
    for q in (pickle.loads(pickle.dumps(p)), copy.deepcopy(p)):
        assert q.placed == p.placed
        got = q.terra(lat, lon)
        assert_codes_exact(got.terrain, want.terrain)
        assert_codes_exact(got.feature, want.feature)
        assert_f64_exact(got.height, want.height)
    with pytest.raises(TypeError, match="placed"):
        rt._core.planet_map(p._params()[:-1] + ((1, 2, 3, 4),), 0, 0, 4, 4, 1.0)


def test_bad_input():
    for r in (0, -5, float("inf"), 2.0**27):
        with pytest.raises(ValueError, match="radius"):
            rt.Planet(r)
    p = rt.Planet(100)
    with pytest.raises(ValueError, match="lat"):
        p.height(float("nan"), 0)
    with pytest.raises(ValueError, match="lon"):
        p.terra(0, float("inf"))
    with pytest.raises(ValueError, match="lat0"):
        p.map(float("nan"), 0)
    with pytest.raises(ValueError, match="nx, ny"):
        p.map(0, 0, 2**20, 2**20)
    with pytest.raises(ValueError, match="step"):
        p.map(0, 0, 10, 10, step=0)
    with pytest.raises(ValueError, match="nlat"):
        p.grid(0, 0, 0, 5)
    with pytest.raises(TypeError, match="cz"):
        rt.Planet(100, cz=(1, 2, 3, 4, 5))
    with pytest.raises(ValueError, match="vectors"):
        rt.Planet(100, ch=(1, 2))
    with pytest.raises(ValueError, match="zr: must be within the planet"):
        p.place(0, 0, 5000, rt.TerrainType.ROAD)
