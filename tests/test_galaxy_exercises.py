"""The four exercises of the seed, and the statistics behind exercise 4."""

import math

import galaxy_reference as G
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import relfterrain as rt
from relfterrain._stats import chi2_sf, t_two_sided_p

CLASSIC = rt.Galaxy()


def test_density_of_the_initial_view():
    d = rt.density()
    assert d == rt.Density(26, 144_000_000, 26 / 144_000_000)
    assert rt.density(CLASSIC, rt.INITIAL_VIEW, threads=1) == d


def test_nearest_star_by_brute_force():
    s = rt.nearest_star()
    cat = CLASSIC.stars(*rt.INITIAL_VIEW)
    d2 = [x * x + y * y + z * z for x, y, z in
          zip(cat["x"].tolist(), cat["y"].tolist(), cat["z"].tolist())]
    k = int(np.argmin(d2))
    assert s.star == rt.Galaxy.star_record(cat[k])
    assert s.distance == math.sqrt(d2[k]) and s.planets == s.star.planets
    assert tuple(G.RefGalaxy().calc_star(s.star.x, s.star.y, s.star.z)) == tuple(s.star)


def test_nearest_star_ties_and_observer():
    dense = rt.Galaxy(f_mask=0, f_value=0)
    # (1, 1, 1) .. : xyz = 1 at the 8 sign patterns with an even number of minus signs
    s = rt.nearest_star(dense, (-1, -1, -1, 3, 3, 3))
    assert (s.star.x, s.star.y, s.star.z) == (-1, -1, 1)  # smallest of the ties
    assert s.distance == math.sqrt(3)
    here = rt.nearest_star(dense, (0, 0, 0, 3, 3, 8), observer=(1, 1, 5))
    assert (here.star.x, here.star.y, here.star.z, here.distance) == (1, 1, 5, 0.0)
    assert rt.nearest_star(CLASSIC, (1, 1, 1, 2, 2, 2)) is None


def test_planet_table_matches_the_catalogue():
    t = rt.planet_table()
    cat = CLASSIC.stars(*rt.INITIAL_VIEW)
    assert t.planets.tolist() == list(range(16))
    assert t.stars.tolist() == np.bincount(cat["planets"], minlength=16).tolist()
    text = str(t)
    assert "planets" in text and "total" in text and "26" in text


def scipy_stats():
    return pytest.importorskip("scipy.stats")


def test_independence_matches_scipy_on_the_initial_view():
    stats = scipy_stats()
    r = rt.colour_planet_independence()
    cat = CLASSIC.stars(*rt.INITIAL_VIEW)
    pr = stats.pearsonr(cat["planets"].astype(float), cat["colour"].astype(float))
    assert r.pearson_r == pytest.approx(pr[0], rel=1e-12)
    assert r.pearson_p == pytest.approx(pr[1], rel=1e-9)
    t = r.table
    sub = t[t.sum(1) > 0][:, t.sum(0) > 0]
    chi2, p, dof, expected = stats.chi2_contingency(sub, correction=False)
    assert r.chi2 == pytest.approx(chi2, rel=1e-12)
    assert r.dof == dof and r.chi2_p_value == pytest.approx(p, rel=1e-9)
    assert r.min_expected == pytest.approx(expected.min())
    # too few stars for the chi-square approximation: the permutation test decides
    assert r.test == "permutation" and r.valid and r.p_value != r.chi2_p_value
    # the same from the catalogue and from the table
    assert rt.colour_planet_independence(stars=cat)[:8] == r[:8]
    assert rt.colour_planet_independence(table=r.table)[:8] == r[:8]


def test_independence_on_a_dense_galaxy_matches_scipy():
    stats = scipy_stats()
    g = rt.Galaxy(f_mask=0x3F, f_value=5)
    cat = g.stars(-200, -150, 1, 400, 300, 60)
    r = rt.colour_planet_independence(stars=cat)
    assert r.n == len(cat) > 1000
    pr = stats.pearsonr(cat["planets"].astype(float), cat["colour"].astype(float))
    assert r.pearson_r == pytest.approx(pr[0], rel=1e-10, abs=1e-12)
    assert r.pearson_p == pytest.approx(pr[1], rel=1e-8, abs=1e-300)
    t = r.table
    sub = t[t.sum(1) > 0][:, t.sum(0) > 0]
    chi2, p, dof, _ = stats.chi2_contingency(sub, correction=False)
    assert r.chi2 == pytest.approx(chi2, rel=1e-10) and r.dof == dof
    assert r.p_value == pytest.approx(p, rel=1e-8, abs=1e-300)


def test_independence_degenerate_tables():
    empty = rt.colour_planet_independence(table=np.zeros((16, 16), dtype=np.int64))
    assert empty.n == 0 and empty.p_value == 1.0 and math.isnan(empty.pearson_r)
    one = np.zeros((16, 16), dtype=np.int64)
    one[3, 4] = 7
    r = rt.colour_planet_independence(table=one)
    assert r.n == 7 and r.dof == 0 and r.p_value == 1.0 and math.isnan(r.pearson_r)


@given(st.floats(0.0, 2000.0), st.integers(1, 300))
def test_chi2_sf_against_scipy(chi2, dof):
    stats = scipy_stats()
    assert chi2_sf(chi2, dof) == pytest.approx(stats.chi2.sf(chi2, dof), rel=1e-9, abs=1e-300)


@given(st.floats(-0.999, 0.999), st.integers(3, 100_000))
def test_pearson_p_against_scipy(r, n):
    stats = scipy_stats()
    df = n - 2
    t = abs(r) * math.sqrt(df / (1 - r * r))
    want = 2 * stats.t.sf(t, df)
    assert t_two_sided_p(r, n) == pytest.approx(want, rel=1e-7, abs=1e-300)
