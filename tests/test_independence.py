"""Exercise 4's test of independence: which test, whether it is valid, and its
p-values against independent computations (a brute-force exact permutation
test on tiny tables, scipy's chi-square and Monte Carlo tests)."""

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import relfterrain as rt
from relfterrain.galaxy import _random_tables

CLASSIC = rt.Galaxy()


def table_of(planets, colours):
    t = np.zeros((16, 16), dtype=np.int64)
    for p, c in zip(planets, colours):
        t[p, c] += 1
    return t


def pearson_chi2(planets, colours):
    """Pearson's chi-square from the pairs, written out cell by cell."""
    n = len(planets)
    rows = sorted(set(planets))
    cols = sorted(set(colours))
    total = 0.0
    for i in rows:
        ri = sum(1 for p in planets if p == i)
        for j in cols:
            cj = sum(1 for c in colours if c == j)
            o = sum(1 for p, c in zip(planets, colours) if p == i and c == j)
            e = ri * cj / n
            total += (o - e) ** 2 / e
    return total


def exact_permutation_p(planets, colours):
    """P(chi-square >= observed) over every ordering of the colours (brute force)."""
    observed = pearson_chi2(planets, colours)
    hits = total = 0
    for perm in itertools.permutations(colours):
        total += 1
        hits += pearson_chi2(planets, perm) >= observed - 1e-9
    return hits / total


TINY = [
    # (planets, colours): 7 or 8 stars, a clear pattern, a weak one, none
    ([1, 1, 1, 1, 5, 5, 5, 5], [2, 2, 2, 3, 7, 7, 7, 3]),
    ([1, 1, 2, 2, 3, 3, 3], [4, 5, 4, 5, 4, 6, 6]),
    ([0, 0, 0, 9, 9, 9, 9, 9], [1, 2, 3, 1, 2, 3, 1, 2]),
]


@pytest.mark.parametrize("planets,colours", TINY)
def test_permutation_p_against_a_brute_force_exact_test(planets, colours):
    exact = exact_permutation_p(planets, colours)
    r = rt.colour_planet_independence(table=table_of(planets, colours),
                                      method="permutation", permutations=40_000, seed=3)
    assert r.test == "permutation" and r.valid and r.permutations == 40_000
    assert r.chi2 == pytest.approx(pearson_chi2(planets, colours), rel=1e-12)
    se = math.sqrt(max(exact * (1 - exact), 1e-4) / 40_000)
    assert abs(r.p_value - exact) < 5 * se + 1 / 40_001
    assert r.p_value_se == pytest.approx(math.sqrt(r.p_value * (1 - r.p_value) / 40_000))


def test_initial_view_uses_a_valid_test_and_agrees_with_scipy_monte_carlo():
    stats = pytest.importorskip("scipy.stats")
    r = rt.colour_planet_independence()
    assert r.n == 26 and r.min_expected < 1
    assert r.test == "permutation" and r.valid
    t = r.table
    sub = t[t.sum(1) > 0][:, t.sum(0) > 0]
    # scipy draws its tables by Patefield's algorithm: independent of ours
    ref = stats.chi2_contingency(sub, correction=False,
                                 method=stats.MonteCarloMethod(n_resamples=20_000, rng=11))
    assert ref.statistic == pytest.approx(r.chi2, rel=1e-12)
    se = math.sqrt(r.p_value * (1 - r.p_value) * (1 / 9999 + 1 / 20_000))
    assert abs(r.p_value - ref.pvalue) < 5 * se
    # the asymptotic p-value is kept, and it is scipy's
    asym = stats.chi2_contingency(sub, correction=False)
    assert r.chi2_p_value == pytest.approx(asym.pvalue, rel=1e-9)


def test_permutation_test_is_deterministic_and_seeded():
    a = rt.colour_planet_independence(permutations=2000)
    b = rt.colour_planet_independence(stars=CLASSIC.stars(*rt.INITIAL_VIEW), permutations=2000)
    c = rt.colour_planet_independence(table=a.table, permutations=2000)
    assert a.p_value == b.p_value == c.p_value
    others = {rt.colour_planet_independence(table=a.table, permutations=2000, seed=s).p_value
              for s in range(1, 6)}
    assert len(others | {a.p_value}) > 1   # the seed is used


def test_forced_chi_square_on_a_small_sample_warns_and_says_invalid():
    with pytest.warns(RuntimeWarning, match="not valid"):
        r = rt.colour_planet_independence(method="chi-square")
    assert r.test == "chi-square" and not r.valid and r.p_value == r.chi2_p_value


def test_auto_uses_chi_square_where_cochran_allows():
    stats = pytest.importorskip("scipy.stats")
    g = rt.Galaxy(f_mask=0x3F, f_value=5)
    cat = g.stars(-200, -150, 1, 400, 300, 60)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = rt.colour_planet_independence(stars=cat)
    t = r.table
    sub = t[t.sum(1) > 0][:, t.sum(0) > 0]
    chi2, p, dof, expected = stats.chi2_contingency(sub, correction=False)
    cochran = expected.min() >= 1 and (expected < 5).mean() <= 0.2
    assert cochran  # this galaxy is dense enough
    assert r.test == "chi-square" and r.valid and r.permutations == 0 and r.p_value_se == 0
    assert r.p_value == pytest.approx(p, rel=1e-8, abs=1e-300) and r.dof == dof


def test_cochran_boundary():
    # a 2 x 2 table with expected counts 4.5 everywhere: 100 % below 5 -> invalid
    t = np.zeros((16, 16), dtype=np.int64)
    t[1, 1], t[1, 2], t[2, 1], t[2, 2] = 6, 3, 3, 6
    assert rt.colour_planet_independence(table=t).test == "permutation"
    t *= 2   # expected 9: valid
    r = rt.colour_planet_independence(table=t)
    assert r.test == "chi-square" and r.valid


def test_cramers_v_corrected_by_bergsma():
    r = rt.colour_planet_independence()
    n = r.n
    rows = int((r.table.sum(1) > 0).sum())
    cols = int((r.table.sum(0) > 0).sum())
    phi2 = r.chi2 / n
    phi2c = max(0.0, phi2 - (cols - 1) * (rows - 1) / (n - 1))
    rc, cc = rows - (rows - 1) ** 2 / (n - 1), cols - (cols - 1) ** 2 / (n - 1)
    assert r.cramers_v_corrected == pytest.approx(math.sqrt(phi2c / (min(rc, cc) - 1)))
    assert r.cramers_v_corrected < r.cramers_v


def test_degenerate_tables_test_nothing():
    empty = rt.colour_planet_independence(table=np.zeros((16, 16), dtype=np.int64))
    assert (empty.test, empty.valid, empty.p_value) == ("none", False, 1.0)
    one = np.zeros((16, 16), dtype=np.int64)
    one[3, 4] = 7
    r = rt.colour_planet_independence(table=one, method="permutation")
    assert (r.test, r.valid, r.p_value, r.permutations) == ("none", False, 1.0, 0)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=2, max_size=5),
       st.lists(st.integers(0, 30), min_size=2, max_size=5), st.integers(0, 2**32))
def test_random_tables_keep_the_margins(rows, cols, seed):
    n = min(sum(rows), sum(cols))
    # fit the column totals to the row totals
    cols = list(cols)
    diff = sum(rows) - sum(cols)
    cols[-1] += diff
    if cols[-1] < 0 or n == 0:
        return
    rows_a, cols_a = np.array(rows), np.array(cols)
    tables = _random_tables(rows_a, cols_a, 300, np.random.default_rng(seed))
    assert (tables >= 0).all()
    assert (tables.sum(axis=2) == rows_a).all() and (tables.sum(axis=1) == cols_a).all()


def test_random_tables_have_the_hypergeometric_means():
    rows, cols = np.array([5, 9, 2]), np.array([4, 4, 8])
    tables = _random_tables(rows, cols, 40_000, np.random.default_rng(5))
    want = np.outer(rows, cols) / rows.sum()
    assert np.abs(tables.mean(axis=0) - want).max() < 0.03


@pytest.mark.parametrize("kwargs,exc,word", [
    ({"method": "fisher"}, ValueError, "method"),
    ({"method": None}, ValueError, "method"),
    ({"permutations": 0}, ValueError, "permutations"),
    ({"permutations": 2.5}, TypeError, "permutations"),
    ({"permutations": True}, TypeError, "permutations"),
    ({"seed": -1}, ValueError, "seed"),
    ({"seed": "x"}, ValueError, "seed"),
])
def test_bad_arguments_name_themselves(kwargs, exc, word):
    with pytest.raises(exc, match=word):
        rt.colour_planet_independence(table=np.zeros((16, 16), dtype=np.int64), **kwargs)


def test_planet_table_from_the_catalogue_needs_no_scan():
    cat = CLASSIC.stars(*rt.INITIAL_VIEW)
    t = rt.planet_table(stars=cat)
    assert t.stars.tolist() == rt.planet_table().stars.tolist()
    assert t.stars.tolist() == np.bincount(cat["planets"], minlength=16).tolist()
    with pytest.raises(TypeError, match="stars"):
        rt.planet_table(stars=np.zeros(3))


def test_permutation_test_refuses_a_billion_stars_before_any_work():
    t = np.zeros((16, 16), dtype=np.int64)
    t[1, 1], t[1, 2], t[2, 1] = 10**9, 1, 1      # sparse: auto would permute
    with pytest.raises(ValueError, match="table: the permutation test"):
        rt.colour_planet_independence(table=t)
    with pytest.warns(RuntimeWarning):
        r = rt.colour_planet_independence(table=t, method="chi-square")
    assert not r.valid


def test_a_pickle_of_the_nine_field_result_of_0_1_loads() -> None:
    # 0.1.0's Independence had nine fields; its pickles call the class with nine
    # arguments (protocol 2+: copyreg.__newobj__), so the new fields need defaults.
    import pickle

    import relfterrain as rt

    old = (26, 0.1, 0.5, 40.0, 12, 0.0175, 0.77, 0.04, np.zeros((16, 16), np.int64))
    # a nine-item Independence pickles as 0.1.0's did: __newobj__ with nine arguments
    data = pickle.dumps(tuple.__new__(rt.Independence, old), protocol=4)
    back = pickle.loads(data)
    assert back[:8] == old[:8] and np.array_equal(back.table, old[8])
    assert (back.test, back.valid, back.permutations, back.p_value_se) == (
        "chi-square", False, 0, 0.0)
    assert np.isnan(back.chi2_p_value) and np.isnan(back.cramers_v_corrected)
