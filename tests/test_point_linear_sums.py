"""The point path's vegetation sums at a dyadic step from any origin
(csrc/terrain.c, point_sums_linear): the block path's linear kernel, with
the directions whose 2^m v lies near an integer mended column by column.

At a step S 2^-m from an origin that is not dyadic (step 1 from (0.1, 0.3))
every direction's 2^m (A x + B y) moves by a whole A S a column, so its
index floor(v / 128) is that of a dyadic origin, unless the fraction of 2^m
v is within the seed's rounding of an integer: then the columns where the
nearest integer is a multiple of 2^(m+7) are decided by the seed's own
rounding.  The profile here alternates 0 and 100 and each pair has one
direction, so that every column's terrain shows the parity of each pair's
index (TOWN for a1, the four kinds of the other two for a2 and a3): an index
one off anywhere changes a byte.  The origins are whole metres plus tenths,
which make A x + B y near an integer wherever A p + B q is a multiple of 10;
the cases are checked to include such directions, and columns where the
seed's index is not the nearest integer's or not floor(2^m v_0)'s.  Grids of
2100 x 8 cross a tile's end and are large enough for the strided tables of
coarse steps (3 and 16 m: the sums and the feature sums by them).  Every
variant and thread count against the independent reference
(tests/reference.py).
"""

import math

import numpy as np
import pytest
import reference as R
from helpers import bits, make_terrain

import relfterrain as rt

VARIANTS = rt.simd_variants()
PROFILE = tuple(float(100 * (k & 1)) for k in range(64))


def _params(a1, b1, a2, b2, a3, b3, ah=7, bh=-3, **kw):
    return R.Params(profile=PROFILE, ah=(ah,), bh=(bh,), a1=(a1,), b1=(b1,), a2=(a2,),
                    b2=(b2,), a3=(a3,), b3=(b3,), lake_base=-1e6, lake_height=-1e6, **kw)


def _seed_index(a, x, b, y):
    """floor(floor(a x + b y) / 128), the seed's arithmetic (SPEC 5)."""
    return math.floor(math.floor(a * x + b * y) / 128)


def _near_columns(a, b, x0, y0, nx, ny, step):
    """(near, below, up) of one direction: the rows whose 2^m v lies within
    1e-6 of an integer; the columns there where the seed's index is not
    that of the nearest integer (what the C core mends); and those where it
    is not that of floor(2^m v_0) (a row whose products cross a power of
    two, so that their rounding changes within it)."""
    m = next(k for k in range(5) if (step * 2 ** k).is_integer())
    M, dv = 128 << m, round(a * step * 2 ** m)
    near = below = up = 0
    for y in R.axis(y0, ny, step):
        F = (a * x0 + b * y) * 2 ** m
        f = F - math.floor(F)
        if min(f, 1 - f) > 1e-6:
            continue
        near += 1
        for c, x in enumerate(R.axis(x0, nx, step)):
            q = _seed_index(a, x, b, y)
            below += q != (round(F) + dv * c) // M
            up += q != (math.floor(F) + dv * c) // M
    return near, below, up


def _check(params, x0, y0, nx, ny, step):
    """Both threshold sets: a1's parity by TOWN; a2's and a3's by the four
    kinds of vegetation (TOWN never)."""
    kinds = set()
    for town in (50.0, -1e9):
        th = {"town_below": town, "grass_below": 50.0, "open_below": 50.0, "thicket_below": 50.0}
        p = R.Params(**{**params.__dict__, **th})
        _, _, *ref = R.grid(p, x0, y0, nx, ny, step)  # height, depth, terrain, feature
        kinds |= set(np.unique(ref[2]).tolist())
        t = make_terrain(rt, p)
        for v in VARIANTS:
            t.simd = v
            for threads in (1, 2):
                g = t.grid(x0, y0, nx, ny, step, threads=threads)
                bad = np.argwhere(g.terrain != ref[2])
                assert bad.size == 0, (v, threads, bad[:5].tolist())
                assert np.array_equal(g.feature, ref[3]), (v, threads)
                assert np.array_equal(bits(g.height), bits(ref[0])), (v, threads)
                assert np.array_equal(bits(g.depth), bits(ref[1])), (v, threads)
    return kinds


# (a, b) of the three pairs, origin, step: the first pair near an integer
# (A p + B q a multiple of 10 for tenths p, q), the others not; cases with
# every pair near
CASES = [
    ((-56, 22), (-25, -54), (33, -44), 23396.1, 5318.3, 1.0),
    ((4, 32), (10, -51), (-62, 20), 23396.1, 5318.3, 1.0),
    ((-56, 22), (4, 32), (30, -10), 23396.1, 5318.3, 1.0),
    ((17, -9), (3, 29), (-41, 7), -1800.7, 977.9, 1.0),
    ((-56, 22), (-25, -54), (33, -44), 23396.1, 5318.3, 0.5),
    ((21, 3), (-13, 1), (9, 27), 1e5 + 0.3, -3e4 - 0.1, 0.25),
    ((-56, 22), (4, 32), (30, -10), 23396.1, 5318.3, 3.0),
    ((37, -21), (5, 45), (-64, 48), 4096.2, -777.4, 1.0 / 16),
    ((-56, 22), (-25, -54), (33, -44), 23396.1, 5318.3, 16.0),
    # a near direction's row crossing a power of two, where the seed's v
    # reaches the integer above from below it
    ((5, 9), (-14, -14), (3, 1), 9062.1, 22479.9, 2.0),
    ((44, -12), (7, 5), (-3, 2), 72.1, 62.2, 0.5),
    ((11, 3), (13, -2), (-45, 45), 23001.9, 3655.5, 1.0),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_linear_sums_from_any_origin(case):
    pa, pb, pc, x0, y0, step = CASES[case]
    params = _params(*pa, *pb, *pc)
    kinds = _check(params, x0, y0, 2100, 8, step)
    assert int(rt.TerrainType.TOWN) in kinds
    assert len(kinds) >= 4


def test_the_cases_include_near_directions_and_mended_columns():
    near = below = up = 0
    for pa, pb, pc, x0, y0, step in CASES:
        for a, b in (pa, pb, pc):
            n_, b_, u_ = _near_columns(a, b, x0, y0, 2100, 8, step)
            near, below, up = near + n_, below + b_, up + u_
    assert near >= 40
    assert below >= 40
    assert up >= 20


@pytest.mark.parametrize("seed", range(6))
def test_linear_sums_random_tenths(seed):
    """Random pairs and origins of whole metres plus tenths (about one
    direction in ten near an integer), rows longer than a tile's first
    vectors, steps 1, 2, 1/2 and 1/4."""
    rng = np.random.default_rng(seed)
    ab = [int(v) for v in rng.integers(-64, 65, 6)]
    x0 = float(rng.integers(-30000, 30000)) + int(rng.integers(0, 10)) / 10
    y0 = float(rng.integers(-30000, 30000)) + int(rng.integers(0, 10)) / 10
    step = (1.0, 2.0, 0.5, 0.25)[seed % 4]
    _check(_params(*ab), x0, y0, 2100, 3, step)


@pytest.mark.parametrize("step", [2.0, 3.0, 5.0, 8.0, 12.0, 16.0, 32.0])
@pytest.mark.parametrize("seed", range(3))
def test_heights_of_coarse_steps_from_any_origin(step, seed):
    """The heights at coarse steps from an origin that is not dyadic: on
    AVX-512 the rows whose |A|*step is at most 240 take windows of sixteen
    entries (point_rows_avx512.h, px_dir_term2), eight columns spanning up
    to fourteen indices, and up to 480 of 32 entries (up to 27 indices);
    on AVX2 up to 240 eight entries (pr_dir_termw), four columns spanning
    up to six, and up to 480 sixteen (up to twelve); directions falling and rising, with A = 0, and steps past
    the rules (32 m: the general AVX2 row then); height_grid and grid, and
    profiles of 8 and 16 entries, whose windows wrap."""
    rng = np.random.default_rng(100 + seed)
    ah = [int(v) for v in rng.integers(-30, 31, 5)]
    ah[seed] = 0 if seed < 2 else ah[seed]
    ah[4] = (-30, 30, -29)[seed]
    bh = [int(v) for v in rng.integers(-64, 65, 5)]
    prof = tuple(float(v) for v in rng.integers(-300, 300, (256, 8, 16)[seed]))
    p = R.Params(profile=prof, ah=tuple(ah), bh=tuple(bh))
    x0 = float(rng.integers(-30000, 30000)) + 0.1 * int(rng.integers(1, 10))
    y0 = float(rng.integers(-30000, 30000)) + 0.1 * int(rng.integers(1, 10))
    nx, ny = 203, 5
    want = R.height_grid(p, x0, y0, nx, ny, step)
    _, _, *ref = R.grid(p, x0, y0, nx, ny, step)
    t = make_terrain(rt, p)
    for v in VARIANTS:
        t.simd = v
        for threads in (1, 2):
            got = t.height_grid(x0, y0, nx, ny, step, threads=threads)
            bad = np.argwhere(bits(got) != bits(want))
            assert bad.size == 0, (v, threads, bad[:5].tolist())
            g = t.grid(x0, y0, nx, ny, step, threads=threads)
            for a, b in zip((g.height, g.depth, g.terrain, g.feature), ref):
                assert np.array_equal(bits(a) if a.dtype == np.float64 else a,
                                      bits(b) if b.dtype == np.float64 else b), (v, threads)
