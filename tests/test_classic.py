"""relfterrain.classic: the classic fractal generators of seeds 001 and 002.

Exactness against the slow transcriptions in tests/classic_reference.py,
reproducibility per seed, tileability, the roughness H, and bad input.
"""

import doctest
import hashlib
import math

import classic_reference as R
import numpy as np
import pytest
from helpers import assert_f64_exact

import relfterrain
from relfterrain import _core, classic

# -- the portable cosine ----------------------------------------------------------


def test_cos_within_one_ulp_and_same_as_transcription():
    xs = np.concatenate([np.linspace(0.0, 3.5, 20001),
                         np.random.default_rng(0).random(20000) * math.pi,
                         [0.0, math.pi / 4, math.pi / 2, 3 * math.pi / 4, math.pi]])
    for x in xs.tolist():
        c = _core.classic_cos(x)
        assert c == R.seed_cos(x), x
        assert abs(c - math.cos(x)) <= math.ulp(math.cos(x)), x
        assert _core.classic_cos(-x) == c
    assert math.isnan(_core.classic_cos(3.6))
    assert math.isnan(_core.classic_cos(math.nan))


# -- reproducibility ---------------------------------------------------------------

GENERATORS = {
    "midpoint": lambda rng: classic.midpoint_displacement(9, h=0.6, rng=rng),
    "diamond": lambda rng: classic.diamond_square(6, h=0.7, rng=rng),
    "diamond_nowrap": lambda rng: classic.diamond_square(5, rng=rng, wrap=False, corner=2.0),
    "limited": lambda rng: classic.limited_random(40, 30, 6.0, 0.0, 60.0, rng=rng),
    "circle": lambda rng: classic.circle_hill(40, 30, 25, 6.5, 10.0, 120.0, rng=rng),
}

# sha256 of the float64 bytes for rng=2024: the same on every platform (the
# core's arithmetic is plain IEEE-754 and NumPy's PCG64 stream is portable).
GOLDEN = {
    "midpoint": "105653f73ec29955",
    "diamond": "b4fdb929b716211c",
    "diamond_nowrap": "65de97103e3c54d4",
    "limited": "0f5a6e75b7ff79ea",
    "circle": "38f249044c298f77",
}


def digest(a):
    return hashlib.sha256(np.ascontiguousarray(a, dtype="<f8").tobytes()).hexdigest()[:16]


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_same_seed_same_array(name):
    make = GENERATORS[name]
    a = make(2024)
    assert a.dtype == np.float64 and a.flags.c_contiguous
    assert np.isfinite(a).all()
    assert_f64_exact(make(2024), a, name)
    assert_f64_exact(make(np.random.default_rng(2024)), a, f"{name} (Generator)")
    assert not np.array_equal(make(2025), a)
    assert not np.array_equal(make(None), make(None))
    assert digest(a) == GOLDEN[name]


def test_generator_is_advanced():
    g = np.random.default_rng(9)
    a = classic.diamond_square(4, rng=g)
    b = classic.diamond_square(4, rng=g)
    assert not np.array_equal(a, b)


def test_documented_draw_order():
    n = 2**5 + 1
    u = np.random.default_rng(3).random(n)
    assert_f64_exact(classic.midpoint_displacement(5, h=0.4, rng=3),
                     R.midpoint_displacement(5, classic._ratio(0.4), u))
    u2 = np.random.default_rng(3).random((n, n))
    assert_f64_exact(classic.diamond_square(5, h=0.4, rng=3),
                     R.diamond_square(5, classic._ratio(0.4), u2.tolist()))


def test_ratio_is_two_to_minus_h():
    for h in (0.0, 0.25, 0.5, 0.7, 1.0):
        assert classic._ratio(h) == pytest.approx(2.0**-h, rel=1e-15)
    assert classic._ratio(0.0) == 1.0 and classic._ratio(1.0) == 0.5


# -- seed 002: midpoint displacement -------------------------------------------------


@pytest.mark.parametrize("iterations", [0, 1, 2, 5, 10])
@pytest.mark.parametrize("h", [0.0, 0.5, 1.0])
def test_midpoint_equals_transcription(iterations, h):
    g = np.random.default_rng(iterations)
    u = np.random.default_rng(iterations).random(2**iterations + 1)
    a = classic.midpoint_displacement(iterations, h=h, rng=g, scale=2.5)
    assert a.shape == (2**iterations + 1,)
    assert a[0] == 0.0 and a[-1] == 0.0
    assert_f64_exact(a, R.midpoint_displacement(iterations, classic._ratio(h), u, scale=2.5))


def test_midpoint_first_pass_in_range():
    mids = [classic.midpoint_displacement(1, rng=s)[1] for s in range(200)]
    assert -1.0 <= min(mids) < -0.8 and 0.8 < max(mids) < 1.0


# -- seed 002: diamond-square -------------------------------------------------------


@pytest.mark.parametrize("iterations", [0, 1, 2, 3, 5])
@pytest.mark.parametrize("wrap", [True, False])
def test_diamond_square_equals_transcription(iterations, wrap):
    n = 2**iterations + 1
    u = np.random.default_rng(11).random((n, n))
    z = classic.diamond_square(iterations, h=0.55, rng=11, corner=-0.5, wrap=wrap, scale=3.0)
    ref = R.diamond_square(iterations, classic._ratio(0.55), u.tolist(), corner=-0.5,
                           wrap=wrap, scale=3.0)
    assert_f64_exact(z, ref)
    assert z[0, 0] == z[0, -1] == z[-1, 0] == z[-1, -1] == -0.5


def test_diamond_square_first_pass_as_the_seed():
    """5 x 5, figure b: the centre is the corners' average plus [-1, 1)."""
    u = np.random.default_rng(1).random((5, 5))
    z = classic.diamond_square(2, h=1.0, rng=1, corner=2.0)
    assert z[2, 2] == 2.0 + (2 * u[2, 2] - 1)
    # figure d: second pass range halved with H = 1
    expect = (z[0, 0] + z[0, 2] + z[2, 0] + z[2, 2]) * 0.25 + 0.5 * (2 * u[1, 1] - 1)
    assert z[1, 1] == expect


@pytest.mark.parametrize("seed", range(5))
def test_tileable_opposite_edges_equal(seed):
    z = classic.diamond_square(6, h=0.5, rng=seed)
    assert_f64_exact(z[0], z[-1])
    assert_f64_exact(z[:, 0], z[:, -1])
    # the tile z[:-1, :-1] repeated: edge values on the other side of the seam
    t = np.tile(z[:-1, :-1], (2, 2))
    assert_f64_exact(t[64, :65], z[0])


def seam_and_interior(z):
    """Mean |difference| across the wrap seam and between interior neighbours."""
    t = z[:-1, :-1]
    seam = np.concatenate([np.abs(t[0] - t[-1]), np.abs(t[:, 0] - t[:, -1])])
    inner = np.concatenate([np.abs(np.diff(t, axis=0)).ravel(),
                            np.abs(np.diff(t, axis=1)).ravel()])
    return seam.mean(), inner.mean()


def test_wrapped_differences_no_larger_than_interior():
    seams, inners, raw_seams = [], [], []
    for seed in range(40):
        s, i = seam_and_interior(classic.diamond_square(7, h=0.7, rng=seed))
        seams.append(s)
        inners.append(i)
        raw_seams.append(seam_and_interior(
            classic.diamond_square(7, h=0.7, rng=seed, wrap=False))[0])
    seam, inner = np.mean(seams), np.mean(inners)
    assert seam <= 1.05 * inner
    # the test can fail: without wrap the seam is a cliff
    assert np.mean(raw_seams) > 3 * inner


def roughness_ratio(make, seeds, scales):
    r = np.mean([classic.roughness(make(s), scales=scales) for s in seeds], axis=0)
    return r[:-1] / r[1:]  # per halving of the scale


@pytest.mark.parametrize("h", [0.2, 0.4, 0.6, 0.8, 1.0])
def test_h_controls_roughness_midpoint(h):
    ratios = roughness_ratio(lambda s: classic.midpoint_displacement(12, h=h, rng=s),
                             range(60), [2, 4, 8, 16, 32])
    assert np.all(np.abs(ratios - 2.0**-h) < 0.06), ratios


@pytest.mark.parametrize("h", [0.2, 0.4, 0.6, 0.8, 1.0])
def test_h_controls_roughness_diamond_square(h):
    ratios = roughness_ratio(lambda s: classic.diamond_square(8, h=h, rng=s),
                             range(20), [2, 4, 8, 16])
    # diamond-square is a little rougher at fine scales than 2**-H says
    # (its known creasing): about, not exactly
    assert np.all(np.abs(ratios - 2.0**-h) < 0.08), ratios


def test_roughness_falls_with_h():
    means = [roughness_ratio(lambda s, h=h: classic.diamond_square(7, h=h, rng=s),
                             range(10), [2, 4, 8, 16]).mean() for h in (0.0, 0.3, 0.6, 1.0)]
    assert means == sorted(means, reverse=True)


def test_seed_grid_keeps_seeded_points():
    seed = np.full((5, 5), np.nan)
    seed[::2, ::2] = [[0, 1, 0], [1, 9, 1], [0, 1, 0]]
    seed[1, 1] = 4.0
    z = classic.diamond_square(6, rng=7, seed_grid=seed)
    stride = 16
    got = z[::stride, ::stride]
    set_ = ~np.isnan(seed)
    assert_f64_exact(got[set_], seed[set_])
    assert np.isfinite(z).all()
    # unset points are generated as without the seed, from the same uniforms
    full = np.full((65, 65), np.nan)
    full[::stride, ::stride] = seed
    u = np.random.default_rng(7).random((65, 65))
    ref = R.diamond_square(6, classic._ratio(0.7), u.tolist(), seed=full.tolist())
    assert_f64_exact(z, ref)


def test_seed_grid_full_size_and_corner():
    seed = np.full((9, 9), np.nan)
    seed[4, :] = 3.0  # a ridge across the middle
    z = classic.diamond_square(3, rng=1, seed_grid=seed, corner=1.0, wrap=False)
    assert_f64_exact(z[4], np.full(9, 3.0))
    assert z[0, 0] == 1.0
    seed[0, 0] = 5.0  # a set corner wins over `corner`; with wrap all four agree
    z = classic.diamond_square(3, rng=1, seed_grid=seed, corner=1.0)
    assert z[0, 0] == z[0, -1] == z[-1, 0] == z[-1, -1] == 5.0
    # a fully seeded grid is returned as it is
    full = np.arange(81.0).reshape(9, 9)
    assert_f64_exact(classic.diamond_square(3, rng=1, seed_grid=full, wrap=False), full)


def test_seed_grid_is_not_modified():
    seed = np.full((3, 3), np.nan)
    seed[1, 1] = 2.0
    before = seed.copy()
    classic.diamond_square(4, rng=1, seed_grid=seed)
    assert_f64_exact(seed, before)


# -- seed 002: clouds -----------------------------------------------------------------


def test_clouds_clamped():
    z = classic.diamond_square(7, rng=4)
    c = classic.clouds(z, clear=-0.2, cloudy=0.4)
    assert c.shape == z.shape and c.dtype == np.float64
    assert_f64_exact(c[z <= -0.2], np.zeros((z <= -0.2).sum()))
    assert_f64_exact(c[z >= 0.4], np.ones((z >= 0.4).sum()))
    mid = (z > -0.2) & (z < 0.4)
    np.testing.assert_allclose(c[mid], (z[mid] + 0.2) / 0.6, rtol=1e-15)
    # monotone in height
    order = np.argsort(z, axis=None)
    assert np.all(np.diff(c.ravel()[order]) >= 0)


def test_clouds_any_layout_input_untouched():
    z = np.asfortranarray(classic.diamond_square(5, rng=6))
    before = z.copy()
    c = classic.clouds(z[::2, 1::3].T, clear=-0.1, cloudy=0.3)
    ref = np.clip((z[::2, 1::3].T + 0.1) / 0.4, 0.0, 1.0)
    np.testing.assert_allclose(c, ref, rtol=1e-15, atol=0)
    assert_f64_exact(z, before)


def test_clouds_defaults_and_nan():
    z = classic.diamond_square(6, rng=4)
    c = classic.clouds(z)
    assert abs(np.mean(c == 0.0) - 0.5) < 0.01
    assert abs(np.mean(c == 1.0) - 0.1) < 0.01
    out = classic.clouds([np.nan, 1.0, 3.0], clear=2.0, cloudy=2.0)
    assert np.isnan(out[0]) and out[1] == 0.0 and out[2] == 1.0
    assert classic.clouds(np.zeros((0, 3)), clear=0.0, cloudy=1.0).shape == (0, 3)


# -- seed 001: limited random ---------------------------------------------------------


def seed_order_rand(u_start, u_step, width, height, full):
    """Math.random() in the seed's call order, from relfterrain's per-cell draws."""
    seq = []
    iend, jend = (width, height) if full else (width - 1, height - 1)
    for i in range(iend):
        for j in range(jend):
            if i == 0:
                seq.append(u_start[j])
            seq.append(u_step[j, i])
    it = iter(seq)
    return lambda: next(it)


@pytest.mark.parametrize("shape", [(1, 1), (1, 5), (5, 1), (7, 4), (23, 17)])
def test_limited_random_equals_transcription(shape):
    width, height = shape
    args = (width, height, 7.5, 2.0, 40.0)
    a = classic.limited_random(*args, rng=31)
    assert a.shape == (height, width)
    g = np.random.default_rng(31)
    u_start, u_step = g.random(height), g.random(height * width).reshape(height, width)
    full = R.generate_limited_random(*args, seed_order_rand(u_start, u_step, *shape, True))
    assert_f64_exact(a, full)
    # the seed's own loops stop one short of each edge: the rest is the same
    lit = np.array(R.generate_limited_random(
        *args, seed_order_rand(u_start, u_step, *shape, False), full=False))
    assert_f64_exact(a[:-1, :-1], lit[:-1, :-1])
    assert np.isnan(lit[-1]).all() and np.isnan(lit[:, -1]).all()


def test_limited_random_clamped():
    a = classic.limited_random(300, 200, 50.0, 10.0, 30.0, rng=1)
    assert a.min() >= 10.0 and a.max() <= 30.0
    assert (a == 10.0).any() and (a == 30.0).any()
    assert_f64_exact(classic.limited_random(5, 5, 0.0, 3.0, 3.0, rng=1), np.full((5, 5), 3.0))


# -- seed 001: circle hill ------------------------------------------------------------


def circle_reference(width, height, n_circles, radius, hill, maximum, base, seed, full=True,
                     cos=R.seed_cos):
    u = np.random.default_rng(seed).random(2 * n_circles).tolist()
    it = iter(u)
    # the seed makes numCircles - 1 circles
    return np.array(R.generate_circle_hill(width, height, n_circles + 1, radius, hill, maximum,
                                           lambda: next(it), full=full, cos=cos, base=base))


CIRCLE_CASES = [
    # width, height, n_circles, radius, hill_height, maximum, base
    (1, 1, 3, 1.0, 5.0, 100.0, 50.0),
    (9, 7, 12, 2.5, 10.0, 58.0, 50.0),       # the cap bites
    (16, 12, 30, 3.0, 4.0, 1e9, 0.0),         # integer radius: d == r2 excluded
    (20, 15, 10, 0.5, 3.0, 100.0, 50.0),      # radius < 1: only the centre cell
    (12, 10, 4, 40.0, 7.0, 100.0, -3.0),      # radius larger than the array
    (25, 20, 50, 4.7, -2.0, 100.0, 50.0),     # negative hills
]


@pytest.mark.parametrize("case", CIRCLE_CASES)
def test_circle_hill_equals_transcription(case):
    a = classic.circle_hill(*case, rng=17)
    width, height = case[:2]
    assert a.shape == (height, width)
    assert_f64_exact(a, circle_reference(*case, seed=17))
    # the seed's loops, stopping one short of each edge: same interior, edges at base
    lit = circle_reference(*case, seed=17, full=False)
    assert_f64_exact(a[:-1, :-1], lit[:-1, :-1])
    assert (lit[-1] == case[6]).all() and (lit[:, -1] == case[6]).all()
    # and with the platform's own cosine, equal to within rounding
    np.testing.assert_allclose(a, circle_reference(*case, seed=17, cos=math.cos),
                               rtol=1e-14, atol=1e-12)


def test_circle_hill_single_hill_shape():
    u = np.random.default_rng(2).random(2)
    x, y = math.floor(u[0] * 41), math.floor(u[1] * 31)
    a = classic.circle_hill(41, 31, 1, 5.0, 10.0, 1000.0, base=0.0, rng=2)
    assert a[y, x] == 10.0  # d = 0: the full height
    yy, xx = np.mgrid[0:31, 0:41]
    d = (xx - x) ** 2.0 + (yy - y) ** 2.0
    assert (a[d >= 25.0] == 0.0).all() and (a[d < 25.0] > 0.0).all()
    np.testing.assert_allclose(a, np.where(d < 25, 5.0 * (1 + np.cos(np.pi * d / 25)), 0.0),
                               atol=1e-13)


def test_circle_hill_no_circles():
    assert_f64_exact(classic.circle_hill(4, 3, 0, 2.0, 1.0, 9.0, base=7.5, rng=1),
                     np.full((3, 4), 7.5))


# -- bad input ------------------------------------------------------------------------

BAD = [
    (lambda: classic.midpoint_displacement(-1), ValueError, "iterations"),
    (lambda: classic.midpoint_displacement(2.0), TypeError, "iterations"),
    (lambda: classic.midpoint_displacement(True), TypeError, "iterations"),
    (lambda: classic.midpoint_displacement(70), ValueError, "iterations"),
    (lambda: classic.midpoint_displacement(50), MemoryError, "iterations"),
    (lambda: classic.midpoint_displacement(3, h=1.5), ValueError, "h"),
    (lambda: classic.midpoint_displacement(3, h=-0.1), ValueError, "h"),
    (lambda: classic.midpoint_displacement(3, h=math.nan), ValueError, "h"),
    (lambda: classic.midpoint_displacement(3, h=math.inf), ValueError, "h"),
    (lambda: classic.midpoint_displacement(3, h="0.5"), TypeError, "h"),
    (lambda: classic.midpoint_displacement(3, scale=math.nan), ValueError, "scale"),
    (lambda: classic.midpoint_displacement(3, rng=-1), ValueError, "rng"),
    (lambda: classic.midpoint_displacement(3, rng="seed"), TypeError, "rng"),
    (lambda: classic.midpoint_displacement(3, rng=np.random.RandomState(1)), TypeError, "rng"),
    (lambda: classic.diamond_square(-2), ValueError, "iterations"),
    (lambda: classic.diamond_square(40), ValueError, "iterations"),
    (lambda: classic.diamond_square(24), MemoryError, "iterations"),
    (lambda: classic.diamond_square(3, h=2.0), ValueError, "h"),
    (lambda: classic.diamond_square(3, h=math.nan), ValueError, "h"),
    (lambda: classic.diamond_square(3, corner=math.inf), ValueError, "corner"),
    (lambda: classic.diamond_square(3, seed_grid=np.zeros((4, 4))), ValueError, "seed_grid"),
    (lambda: classic.diamond_square(3, seed_grid=np.zeros((17, 17))), ValueError, "seed_grid"),
    (lambda: classic.diamond_square(3, seed_grid=np.zeros((3, 5))), ValueError, "seed_grid"),
    (lambda: classic.diamond_square(3, seed_grid=[[0, 1], [np.inf, 0]]), ValueError,
     "seed_grid"),
    (lambda: classic.diamond_square(3, seed_grid=[[0, 1], [2, 3]]), ValueError, "seed_grid"),
    (lambda: classic.diamond_square(3, seed_grid="x"), TypeError, "seed_grid"),
    (lambda: classic.clouds([1.0, 2.0], clear=2.0, cloudy=1.0), ValueError, "clear, cloudy"),
    (lambda: classic.clouds([1.0], clear=math.nan, cloudy=1.0), ValueError, "clear"),
    (lambda: classic.clouds([np.nan]), ValueError, "heights"),
    (lambda: classic.clouds(["a"]), TypeError, "heights"),
    (lambda: classic.limited_random(0, 5, 1.0, 0.0, 1.0), ValueError, "width"),
    (lambda: classic.limited_random(5, -1, 1.0, 0.0, 1.0), ValueError, "height"),
    (lambda: classic.limited_random(5, 5, -1.0, 0.0, 1.0), ValueError, "max_increase"),
    (lambda: classic.limited_random(5, 5, 1.0, 2.0, 1.0), ValueError, "minimum, maximum"),
    (lambda: classic.limited_random(5, 5, 1.0, math.nan, 1.0), ValueError, "minimum"),
    (lambda: classic.limited_random(2**40, 2**40, 1.0, 0.0, 1.0), MemoryError,
     "width, height"),
    (lambda: classic.circle_hill(5, 5, 3, 0.0, 1.0, 9.0), ValueError, "radius"),
    (lambda: classic.circle_hill(5, 5, 3, -2.0, 1.0, 9.0), ValueError, "radius"),
    (lambda: classic.circle_hill(5, 5, 3, math.nan, 1.0, 9.0), ValueError, "radius"),
    (lambda: classic.circle_hill(5, 5, 3, math.inf, 1.0, 9.0), ValueError, "radius"),
    (lambda: classic.circle_hill(5, 5, -1, 2.0, 1.0, 9.0), ValueError, "n_circles"),
    (lambda: classic.circle_hill(0, 5, 3, 2.0, 1.0, 9.0), ValueError, "width"),
    (lambda: classic.circle_hill(5, 5, 3, 2.0, math.inf, 9.0), ValueError, "hill_height"),
    (lambda: classic.circle_hill(5, 5, 3, 2.0, 1.0, math.nan), ValueError, "maximum"),
    (lambda: classic.circle_hill(5, 5, 3, 2.0, 1.0, 9.0, base=math.inf), ValueError, "base"),
    (lambda: classic.roughness([[1.0]]), ValueError, "heights"),
    (lambda: classic.roughness([1.0, 2.0, 3.0], scales=[3]), ValueError, "scales"),
]


@pytest.mark.parametrize("call, exc, name", BAD, ids=[f"{b[2]}-{k}" for k, b in enumerate(BAD)])
def test_bad_input_names_the_argument(call, exc, name):
    with pytest.raises(exc, match=f"^{name}:"):
        call()


def test_core_checks_repeat_the_python_ones():
    with pytest.raises(ValueError, match="^iterations"):
        _core.diamond_square(31, 1.0, 0.5, 0.0, True, np.zeros(1), np.zeros((1, 1)))
    with pytest.raises(ValueError, match="^u:"):
        _core.midpoint_displacement(2, 1.0, 0.5, np.zeros(4))
    with pytest.raises(ValueError, match="^grid:"):
        _core.diamond_square(1, 1.0, 0.5, 0.0, True, np.zeros(9), np.zeros((3, 4)))
    with pytest.raises(ValueError, match="seed_grid"):  # inconsistent wrapped edges
        g = np.full((3, 3), np.nan)
        g[0, 1], g[2, 1] = 1.0, 2.0
        _core.diamond_square(1, 1.0, 0.5, 0.0, True, np.zeros(9), g)
    with pytest.raises(ValueError, match="radius"):
        _core.circle_hill(3, 3, 1, -1.0, 1.0, 1.0, 0.0, np.zeros(2))


# -- the package ----------------------------------------------------------------------


def test_submodule_and_doctests():
    assert relfterrain.classic is classic
    result = doctest.testmod(classic, verbose=False)
    assert result.attempted > 5 and result.failed == 0
