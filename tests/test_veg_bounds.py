"""Groups whose vegetation sums lie on one side of every threshold skip
their lookups (csrc/rt_veg_bounds.h): the terrain bytes are still those of
the exact sums.

The point path's fixed-point rows (AVX2: groups of 8 columns, AVX-512: 16)
bound a group's three sums by each direction's least and greatest profile
entry over the indices its columns can reach, and write the lower bound to
every lane of a pair no threshold separates.  Here the thresholds are put
where they split the sums of the very window (quantiles of the reference's
calcProf values), so that many groups straddle them, with profiles whose
neighbouring entries jump (random integers) as well as the classic one,
town_abs on and off, steps from 0.05 to 6 m and origins that are not
dyadic; every variant and thread count against the independent reference
(tests/reference.py, tests/forest2026_reference.py) and the scalar variant.
"""

import dataclasses

import forest2026_reference as F
import numpy as np
import pytest
import reference as R
from helpers import bits, make_terrain

import relfterrain as rt

VARIANTS = rt.simd_variants()


def _sums(params, x0, y0, nx, ny, s):
    """calcProf of the three pairs at every point of the window (reference)."""
    xs, ys = R.axis(x0, nx, s), R.axis(y0, ny, s)
    pairs = ((params.a1, params.b1), (params.a2, params.b2), (params.a3, params.b3))
    return [np.array([[R.calc_prof(params, a, x, b, y) for x in xs] for y in ys])
            for a, b in pairs]


def _splitting(params, x0, y0, nx, ny, s, town_q, half=0.5):
    """params with thresholds at quantiles of the window's own sums (plus
    `half`, so that the ceiling the C core takes matters)."""
    a1, a2, a3 = _sums(params, x0, y0, nx, ny, s)
    q = np.quantile
    return dataclasses.replace(params, town_below=float(q(a1, town_q)) + half,
                               grass_below=float(q(a2, 0.5)) + half,
                               open_below=float(q(a3, 0.3)) + half,
                               thicket_below=float(q(a3, 0.7)) + half)


def _check(params, x0, y0, nx, ny, s, threads_list=(1, 2)):
    ref = F.grid(params, x0, y0, nx, ny, s)
    t = make_terrain(rt, params)
    t.simd = "scalar"
    sg = t.grid(x0, y0, nx, ny, s, threads=1)
    kinds = set(np.unique(ref[2]).tolist())
    for v in VARIANTS:
        t.simd = v
        for threads in threads_list:
            g = t.grid(x0, y0, nx, ny, s, threads=threads)
            for got, want, sc in ((g.height, ref[0], sg.height), (g.depth, ref[1], sg.depth)):
                assert np.array_equal(bits(got), bits(want)), (v, threads)
                assert np.array_equal(bits(got), bits(sc)), (v, threads)
            for got, want, sc in ((g.terrain, ref[2], sg.terrain), (g.feature, ref[3], sg.feature)):
                bad = np.argwhere(got != want)
                assert bad.size == 0, (v, threads, bad[:5].tolist())
                assert np.array_equal(got, sc), (v, threads)
    return kinds


def _random_params(seed, n=5, length=64, lo=-40, hi=200, a_max=64):
    rng = np.random.default_rng(seed)
    prof = tuple(float(v) for v in rng.integers(lo, hi, length))
    vec = {name: tuple(int(v) for v in rng.integers(-a_max, a_max + 1, n))
           for name in R.VECTOR_NAMES}
    top = max(abs(v) for v in prof) * n
    return F.Params(profile=prof, lake_base=-top - 1.0, lake_height=-top - 1.0, **vec)


STEPS = [(0.37, 23396.1, 5318.3), (1 / 3, 23396.0, 5318.0), (1.0, 23396.1, 5318.3),
         (0.05, -1800.3, 977.7), (2.7, 1e5 + 0.37, -3e4 - 0.1), (5.9, -23396.4, 5318.9)]


@pytest.mark.parametrize("s, x0, y0", STEPS)
@pytest.mark.parametrize("town_abs", [False, True])
def test_classic_profile_thresholds_splitting_the_window(s, x0, y0, town_abs):
    """The classic model, no lakes (every point classified by its sums),
    thresholds at the window's quantiles; rows of 2 tiles' tail and several
    groups of 16."""
    base = F.Params(**{f.name: getattr(R.CLASSIC, f.name)
                       for f in dataclasses.fields(R.CLASSIC)})
    base = dataclasses.replace(base, lake_base=-1e9, lake_height=-1e9, town_abs=town_abs)
    nx, ny = 203, 3
    params = _splitting(base, x0, y0, nx, ny, s, 0.2)
    if town_abs:  # |a1| < T: T at a quantile of |a1|
        a1 = np.abs(_sums(base, x0, y0, nx, ny, s)[0])
        params = dataclasses.replace(params, town_below=float(np.quantile(a1, 0.2)) + 0.5)
    kinds = _check(params, x0, y0, nx, ny, s)
    assert len(kinds) >= 4, kinds  # the thresholds do split the window


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("s, x0, y0", STEPS[:4])
def test_jumping_profiles(seed, s, x0, y0):
    """Random integer profiles (each entry unrelated to its neighbours, so
    a bound one index short of the columns' reach shows), negative entries,
    lengths 8 to 1024 (the tables' limit), with and without town_abs."""
    length = [8, 16, 64, 256, 1024, 32][seed]
    base = _random_params(seed, n=[5, 3, 6, 5, 4, 2][seed], length=length)
    base = dataclasses.replace(base, town_abs=seed % 2 == 1)
    nx, ny = 150, 2
    params = _splitting(base, x0, y0, nx, ny, s, 0.35)
    if params.town_abs:
        a1 = np.abs(_sums(base, x0, y0, nx, ny, s)[0])
        params = dataclasses.replace(params, town_below=float(np.quantile(a1, 0.35)) + 0.5)
    kinds = _check(params, x0, y0, nx, ny, s, (1,))
    assert len(kinds) >= 3, kinds


@pytest.mark.parametrize("s, x0, y0", [(0.37, 23396.1, 5318.3), (1.0, 23396.1, 5318.3)])
def test_every_lane_one_side_but_one(s, x0, y0):
    """Thresholds just above and just below a single point's sum: one lane
    of its group differs from the others, which the bounds must not hide."""
    base = F.Params(**{f.name: getattr(R.CLASSIC, f.name)
                       for f in dataclasses.fields(R.CLASSIC)})
    base = dataclasses.replace(base, lake_base=-1e9, lake_height=-1e9)
    nx, ny = 64, 2
    a1, a2, a3 = _sums(base, x0, y0, nx, ny, s)
    for which in range(4):
        r, c = 1, 37
        kw = {"town_below": float(a1.min())}  # no town
        if which == 0:
            kw = {"town_below": float(a1[r, c]) + 1.0}
        elif which == 1:
            kw["grass_below"] = float(a2[r, c]) + 1.0
        elif which == 2:
            kw["grass_below"] = float(a2.max()) + 1.0  # all open: a3 against open_below
            kw["open_below"] = float(a3[r, c])
        else:
            kw["grass_below"] = float(a2.min())  # all closed: a3 against thicket_below
            kw["thicket_below"] = float(a3[r, c]) + 1.0
        _check(dataclasses.replace(base, **kw), x0, y0, nx, ny, s, (1,))


def test_long_profiles_and_wide_sums_take_the_exact_sums():
    """Profiles longer than the tables (2048 entries) and sums that could
    leave int32 (entries near 2^29 with 5 directions): no bounds, the
    lookups as before."""
    for length, lo, hi in ((2048, -40, 200), (64, 2 ** 28, 2 ** 29)):
        base = _random_params(7, length=length, lo=lo, hi=hi)
        params = _splitting(base, 23396.1, 5318.3, 40, 2, 0.37, 0.35)
        _check(params, 23396.1, 5318.3, 40, 2, 0.37, (1,))
