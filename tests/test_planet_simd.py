"""Planet maps on every SIMD variant of their rows (scalar, AVX2, AVX-512) and
one and two threads: pixel for pixel the transcription in space_reference."""

import numpy as np
import pytest
import space_reference as S
from helpers import assert_codes_exact, assert_f64_exact
from hypothesis import given
from hypothesis import strategies as st

import relfterrain as rt
from relfterrain import _core

# every variant this CPU runs, auto included (the rows must not depend on it)
VARIANTS = {name: code for name, (code, ok, _) in _core.simd_variants().items() if ok}
NAMES = ("ah", "bh", "ch", "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")


def _ref_vectors(p):
    v = {n: tuple(getattr(p, n).tolist()) for n in NAMES}
    v.update(profile=tuple(p.profile.tolist()), lake_height=p.lake_height,
             lake_base=p.lake_base, feature_mask=p.feature_mask)
    return v


def _reference_map(p, lat0, lon0, nx, ny, step, placed=None):
    v = _ref_vectors(p)
    h = np.empty((ny, nx))
    d = np.empty((ny, nx))
    t = np.empty((ny, nx), dtype=np.uint8)
    f = np.empty((ny, nx), dtype=np.uint8)
    vis = np.zeros((ny, nx), dtype=bool)
    for r in range(ny):
        for c in range(nx):
            u = (c - 0.5 * (nx - 1)) * step
            w = (r - 0.5 * (ny - 1)) * step
            pt = S.map_point(p.radius, lat0, lon0, u, w)
            if pt is None:
                h[r, c] = d[r, c] = np.nan
                t[r, c], f[r, c] = rt.planet.OUTSIDE, 0
                continue
            h[r, c], d[r, c], t[r, c], f[r, c] = S.planet_terra_xyz(v, *pt, placed=placed)
            vis[r, c] = True
    return h, d, t, f, vis


def _check_every_variant(p, lat0, lon0, nx, ny, step, placed=None):
    want = _reference_map(p, lat0, lon0, nx, ny, step, placed)
    for name, code in VARIANTS.items():
        for threads in (1, 2):
            got = _core.planet_map(p._params(), lat0, lon0, nx, ny, step, threads=threads,
                                   simd=code)
            what = f"{name}, {threads} thread(s)"
            assert_f64_exact(got[0], want[0], f"height ({what})")
            assert_f64_exact(got[1], want[1], f"depth ({what})")
            assert_codes_exact(got[2], want[2], f"terrain ({what})")
            assert_codes_exact(got[3], want[3], f"feature ({what})")
            assert np.array_equal(got[4], want[4]), f"visible ({what})"
    return want


def _profile(kind):
    if kind is None:
        return None
    rng = np.random.default_rng(abs(kind))
    if kind < 0:  # integers 0..255, repeated to 256 bytes by the VBMI rows
        return rng.integers(0, 256, -kind).astype(np.float64)
    return rng.uniform(-40.0, 300.0, kind)  # not integers: the sums round


@given(lat0=st.floats(-90, 90), lon0=st.floats(-720, 720),
       radius=st.sampled_from([700.0, 5000.0, 20000.0, 123456.5, 2.0**26]),
       nx=st.integers(1, 37), ny=st.integers(1, 9), step=st.sampled_from([None, 1.0, 0.37, 3.0]),
       feature_mask=st.sampled_from([0xFFF, 0x1C, 0x4, 0]),
       lakes=st.sampled_from([(204.0, 204.0), (150.0, 260.0), (-1e9, -1e9), (230.0, 180.0)]),
       profile=st.sampled_from([None, 64, 1024, -64, -128]))
def test_map_every_variant_exact(lat0, lon0, radius, nx, ny, step, feature_mask, lakes, profile):
    p = rt.Planet(radius, feature_mask=feature_mask, lake_base=lakes[0], lake_height=lakes[1],
                  profile=_profile(profile))
    if step is None:
        step = 2.0 * radius / max(1, min(nx, ny) - 1)
    _check_every_variant(p, lat0, lon0, nx, ny, step)


@pytest.mark.parametrize("radius,lat0,lon0,mask", [
    (20000.0, 30.0, 40.0, 0xFFF), (3000.0, 1.0, 2.0, 0x1C), (2.0**26, 12.0, 34.0, 0x1C),
    (2.0**26, -90.0, 0.0, 0xFFF), (5000.0, 90.0, 77.0, 0x1C)])
def test_map_features_every_variant(radius, lat0, lon0, mask):
    # 1 m pixels: the feature test's lanes (f 4, 8 and 16 handed to the scalar test,
    # and at radius 2^26 the lanes where |a*uw/128| >= 2^52) on every variant
    p = rt.Planet(radius, feature_mask=mask)
    _, _, _, f, _ = _check_every_variant(p, lat0, lon0, 45, 11, 1.0)
    if mask == 0x1C and abs(lat0) < 90:  # (at a pole u*w is small: f is 0 there)
        assert np.count_nonzero(f) > 0


def test_map_placed_every_variant():
    p = rt.Planet(3000, feature_mask=0x1C)
    x, y, z = (int(np.floor(c + 0.5)) for c in p.xyz(1.0, 2.0))
    kinds = [rt.TerrainType.ROAD, rt.Feature.MINE, rt.TerrainType.TOWN, rt.Feature.CONE]
    placed = {}
    for k, (dx, dy, dz) in enumerate([(0, 0, 0), (0, 1, 0), (0, -1, 1), (-1, 2, -2), (0, 3, 1)]):
        what = kinds[k % len(kinds)]
        p.place(x + dx, y + dy, z + dz, what)
        placed[(x + dx, y + dy, z + dz)] = ("T" if isinstance(what, rt.TerrainType) else "F",
                                            int(what))
    _check_every_variant(p, 1.0, 2.0, 23, 9, 1.0, placed)


def test_map_rejects_unknown_variant():
    p = rt.Planet(1000)
    with pytest.raises(ValueError, match="simd"):
        _core.planet_map(p._params(), 0.0, 0.0, 4, 4, 1.0, simd=99)


@pytest.mark.parametrize("n", [1, 3, 8, 9, 13])
def test_map_any_number_of_directions_every_variant(n):
    # 5 is the classic count (the rows' unrolled case); up to 8 the AVX2 rows keep
    # the vectors broadcast on the stack, beyond they hand over to the AVX2 sums
    rng = np.random.default_rng(n)
    vectors = {name: [int(v) for v in rng.integers(-60, 61, n)] for name in NAMES}
    p = rt.Planet(4000.0, feature_mask=0x1C, **vectors)
    _check_every_variant(p, 33.0, -71.0, 29, 7, 1.0)
    _check_every_variant(p, -12.0, 150.0, 21, 15, 2.0 * 4000.0 / 14)


def test_planet_simd_parameter_and_environment(monkeypatch):
    # Planet(simd=...) and RELFTERRAIN_SIMD choose the rows as Terrain's do:
    # the variant is the one asked for, and the map the same on each
    base = rt.Planet(5000).map(20.0, 30.0, 33, 7)
    for name in rt.simd_variants():
        p = rt.Planet(5000, simd=name)
        assert p.simd == name
        m = p.map(20.0, 30.0, 33, 7)
        for got, want in zip(m[:5], base[:5]):
            assert got.tobytes() == want.tobytes(), name
    monkeypatch.setenv("RELFTERRAIN_SIMD", "scalar")
    assert rt.Planet(5000).simd == "scalar"
    q = rt.Planet(5000)
    q.simd = "auto"
    assert q.simd == rt.simd_variants()[-1]
    with pytest.raises(ValueError, match=r"^simd: must be one of"):
        rt.Planet(5000, simd="fastest")
    with pytest.raises(TypeError, match="simd"):
        rt.Planet(5000, simd=3)
