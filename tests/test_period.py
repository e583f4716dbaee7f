"""Terrain.period: heights and kinds repeat, features do not (SPEC 4, 5).

The period is checked against an independent derivation (for every vector
component on its own, the smallest shift that moves its profile index by a
whole number of profile lengths, found by search; the world's period is the
lcm of those) and by evaluating the terrain at random points and at +P.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import relfterrain as rt

X_NAMES = ("ah", "a1", "a2", "a3")
Y_NAMES = ("bh", "b1", "b2", "b3")


def component_period(a: int, length: int) -> int:
    """Smallest P >= 1 with a*P/128 a whole multiple of the profile length
    (the index (a*x)/128, floor(a*x) >> 7 then moves by whole profiles)."""
    for p in range(1, 128 * length + 1):
        if (a * p) % (128 * length) == 0:
            return p
    raise AssertionError("unreachable: P = 128 * length always works")


def derived_period(t: rt.Terrain) -> tuple[int, int]:
    length = t.profile.size
    px = math.lcm(*(component_period(int(v), length) for n in X_NAMES for v in getattr(t, n)))
    py = math.lcm(*(component_period(int(v), length) for n in Y_NAMES for v in getattr(t, n)))
    return px, py


def _points(rng: np.random.Generator, n: int, p: int) -> tuple[np.ndarray, np.ndarray]:
    lim = rt.TERRAIN_DOMAIN - 2 * p - 8
    x = rng.integers(-lim, lim, n).astype(np.float64)
    y = rng.integers(-lim, lim, n).astype(np.float64)
    # some points off the integers, by multiples of 1/8 (exact doubles)
    x[: n // 2] += rng.integers(0, 8, n // 2) / 8
    return x, y


def _same_world(t: rt.Terrain, x, y, dx, dy):
    a, b = t.sample(x, y), t.sample(x + dx, y + dy)
    np.testing.assert_array_equal(a.height.view(np.uint64), b.height.view(np.uint64))
    np.testing.assert_array_equal(a.depth.view(np.uint64), b.depth.view(np.uint64))
    np.testing.assert_array_equal(a.terrain, b.terrain)
    return a, b


def test_classic_period():
    t = rt.Terrain()
    assert t.period == rt.Period(32768, 32768, None)
    assert t.period == derived_period(t) + (None,)
    assert t.period.features is None


def test_classic_repeats_and_features_do_not():
    t = rt.Terrain(with_paths=True)
    p = t.period
    rng = np.random.default_rng(18)
    x, y = _points(rng, 20000, max(p.x, p.y))
    for dx, dy in ((p.x, 0), (0, p.y), (-p.x, 2 * p.y), (3 * p.x, -p.y)):
        a, b = _same_world(t, x, y, dx, dy)
        assert (a.terrain == rt.TerrainType.LAKE).any() and (a.terrain == rt.TerrainType.WOOD).any()
        # the features' rule multiplies x by y: they differ somewhere
        assert (a.feature != b.feature).any()
    # half the period is not one: heights differ somewhere
    assert (t.sample(x, y).height != t.sample(x + p.x // 2, y).height).any()
    assert (t.sample(x, y).height != t.sample(x, y + p.y // 2).height).any()


def test_grids_repeat():
    t = rt.Terrain()
    p = t.period
    a = t.grid(23396, 5318, 200, 150)
    b = t.grid(23396 + p.x, 5318 - p.y, 200, 150)
    np.testing.assert_array_equal(a.height, b.height)
    np.testing.assert_array_equal(a.terrain, b.terrain)
    assert (a.feature != b.feature).any()


def test_placed_entries_do_not_repeat():
    t = rt.Terrain()
    t.place(23400, 5320, rt.TerrainType.ROAD)
    p = t.period
    assert t.terra(23400, 5320).terrain == rt.TerrainType.ROAD
    assert t.terra(23400 + p.x, 5320).terrain != rt.TerrainType.ROAD


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 4), log_len=st.integers(0, 9), data=st.data())
def test_any_parameters(n, log_len, data):
    vec = {name: tuple(data.draw(st.lists(st.integers(-64, 64), min_size=n, max_size=n)))
           for name in X_NAMES + Y_NAMES}
    length = 1 << log_len
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    profile = rng.integers(-300, 300, length) / 4
    t = rt.Terrain(profile=profile, lake_height=0.0, **vec)
    p = t.period
    assert (p.x, p.y) == derived_period(t)
    assert p.features is None
    x, y = _points(rng, 300, max(p.x, p.y))
    _same_world(t, x, y, p.x, 0)
    _same_world(t, x, y, 0, p.y)


@pytest.mark.parametrize("length, vec, want", [
    (256, (0, 0), 1),           # nothing depends on x or y
    (256, (2, 6), 16384),       # gcd 2: half the classic period
    (256, (128, 0), 256),       # the index moves 1 a metre: one profile in 256 m
    (1, (1, 3), 128),           # a 1-entry profile: the interpolation still steps by 128
    (4, (96, 0), 16),           # 96 = 3 * 32: 512 / gcd(96, 512) = 16
])
def test_examples(length, vec, want):
    zero = (0,) * len(vec)
    t = rt.Terrain(profile=np.arange(length, dtype=np.float64),
                   ah=vec, a1=zero, a2=zero, a3=zero, bh=vec, b1=zero, b2=zero, b3=zero)
    assert t.period == (want, want, None)
    assert derived_period(t) == (want, want)
