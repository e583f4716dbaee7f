"""make_profile (SPEC 11) against the pure-Python transcription in space_reference."""

import numpy as np
import pytest
import space_reference as S
from helpers import assert_f64_exact

import relfterrain as rt


def _uniforms(seed, n=96):
    g = np.random.default_rng(seed)
    return [g.random() for _ in range(n)]


@pytest.mark.parametrize("length", [1, 2, 16, 32, 64, 256])
@pytest.mark.parametrize("round_first", [False, True])
def test_matches_reference(length, round_first):
    for seed in (0, 7, 2024):
        got = rt.make_profile(length, rng=seed, round_first=round_first)
        prof, lake, snow = S.make_profile(length, _uniforms(seed), round_first)
        assert_f64_exact(got.profile, prof, f"profile length {length} seed {seed}")
        assert got.lake_height == lake == 34.0
        assert float(got.snow_height).hex() == float(snow).hex()


def test_author_length_2048():
    got = rt.make_profile(rng=12345)
    prof, _, snow = S.make_profile(2048, _uniforms(12345))
    assert_f64_exact(got.profile, prof, "profile 2048")
    assert got.snow_height == snow
    # the author's rounding after / 8 gives multiples of 1/8; the PDF's, of 1/8 too
    assert np.all(got.profile * 8 == np.round(got.profile * 8))
    # the two orders of rounding really differ
    assert not np.array_equal(got.profile, rt.make_profile(rng=12345, round_first=True).profile)


def test_generator_and_seed_agree():
    a = rt.make_profile(256, rng=np.random.default_rng(99))
    b = rt.make_profile(256, rng=99)
    assert np.array_equal(a.profile, b.profile)
    g = np.random.default_rng(5)
    first = rt.make_profile(256, rng=g)
    second = rt.make_profile(256, rng=g)      # the generator moved on by 96 draws
    assert not np.array_equal(first.profile, second.profile)
    h = np.random.default_rng(5)
    h.random(96)
    assert np.array_equal(rt.make_profile(256, rng=h).profile, second.profile)


def test_negative_profile_snow_zero():
    # snow height is 2.4 * max(0, max P): a profile entirely <= 0 gives 0
    for seed in range(200):
        p = rt.make_profile(1, rng=seed)
        if p.profile.max() <= 0:
            assert p.snow_height == 0.0
            break
    else:  # pragma: no cover
        pytest.fail("no all-negative length-1 profile in 200 seeds")


def test_usable_as_terrain_profile():
    p = rt.make_profile(2048, rng=3)
    t = rt.Terrain(profile=p.profile, lake_height=p.lake_height)
    assert np.isfinite(t.height_grid(0, 0, 10, 10)).all()


@pytest.mark.parametrize("length,exc", [(0, ValueError), (3, ValueError), (2**25, ValueError),
                                        (2.0, TypeError), ("8", TypeError)])
def test_bad_length(length, exc):
    with pytest.raises(exc, match="length"):
        rt.make_profile(length)


def test_bad_rng_and_flag():
    with pytest.raises(TypeError, match="rng"):
        rt.make_profile(64, rng="seed")
    with pytest.raises(TypeError, match="round_first"):
        rt.make_profile(64, round_first=1)
