"""Galaxy: bad input gives a clear exception naming the argument, never a crash."""

import math
import sys

import numpy as np
import pytest

import relfterrain as rt
from relfterrain import _core

G = rt.Galaxy()


@pytest.mark.parametrize("n", [0, 3, 100, 255, 257])
def test_profile_length_not_power_of_two(n):
    with pytest.raises(ValueError, match="profile"):
        rt.Galaxy(profile=np.full(n, 50.0))


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_profile_non_finite(bad):
    prof = np.array(rt.CLASSIC_PROFILE)
    prof[3] = bad
    with pytest.raises(ValueError, match="profile"):
        rt.Galaxy(profile=prof)


def test_profile_not_numeric_or_2d():
    with pytest.raises(TypeError, match="profile"):
        rt.Galaxy(profile=["a"] * 4)
    with pytest.raises(ValueError, match="profile"):
        rt.Galaxy(profile=np.zeros((4, 4)))


@pytest.mark.parametrize("name", ["s", "t", "u"])
def test_vectors_of_unequal_length(name):
    with pytest.raises(ValueError, match=r"s, t, u: .*common length"):
        rt.Galaxy(**{name: (1, 2, 3)})


@pytest.mark.parametrize("name", ["s", "t", "u"])
@pytest.mark.parametrize("bad,exc", [((), ValueError), ((1.5, 2, 3, 4, 5), ValueError),
                                      ((2**20 + 1, 0, 0, 0, 0), ValueError),
                                      (("a", "b"), TypeError), ([[1, 2]], ValueError),
                                      (tuple(range(65)), ValueError)])
def test_bad_vector(name, bad, exc):
    with pytest.raises(exc, match=rf"^{name}: "):
        rt.Galaxy(**{name: bad})


def test_bad_magnitudes_and_masks():
    with pytest.raises(ValueError, match="min_magnitude"):
        rt.Galaxy(min_magnitude=math.nan)
    with pytest.raises(TypeError, match="magnitude_range"):
        rt.Galaxy(magnitude_range="5")
    with pytest.raises(ValueError, match="f_value"):
        rt.Galaxy(f_mask=0xF, f_value=127)
    with pytest.raises(ValueError, match="f_mask"):
        rt.Galaxy(f_mask=2**32)
    with pytest.raises(TypeError, match="f_mask"):
        rt.Galaxy(f_mask=1.0)


@pytest.mark.parametrize("k,name", [(3, "nx"), (4, "ny"), (5, "nz")])
@pytest.mark.parametrize("value", [0, -1])
def test_block_sizes_below_one(k, name, value):
    block = [0, 0, 0, 4, 4, 4]
    block[k] = value
    for method in (G.stars, G.count, G.planet_counts, G.census):
        with pytest.raises(ValueError, match=rf"^{name}: must be >= 1"):
            method(*block)


@pytest.mark.parametrize("k,name", [(0, "x0"), (1, "y0"), (2, "z0"), (3, "nx")])
@pytest.mark.parametrize("value", [1.5, 2.0, "3", None, True])
def test_non_integer_coordinates(k, name, value):
    block = [0, 0, 0, 4, 4, 4]
    block[k] = value
    with pytest.raises(TypeError, match=rf"^{name}: must be an int"):
        G.stars(*block)


@pytest.mark.parametrize("xyz", [(1.5, 2, 3), (1, "2", 3), (1, 2, None)])
def test_star_non_integer(xyz):
    with pytest.raises(TypeError, match=r"^[xyz]: must be an int"):
        G.star(*xyz)


def test_absurd_blocks():
    with pytest.raises(ValueError, match="nx, ny, nz: .*2\\*\\*63"):
        G.stars(0, 0, 0, 10**7, 10**7, 10**7)
    with pytest.raises(ValueError, match="x0, nx: .*overflows int64"):
        G.count(2**63 - 5, 0, 0, 10, 1, 1)
    with pytest.raises(ValueError, match="z0: must fit in int64"):
        G.count(0, 0, -(2**63) - 1, 1, 1, 1)
    with pytest.raises(ValueError, match="x: must fit in int64"):
        G.star(2**64, 0, 0)


def test_core_checks_sizes_too():
    core = G._core
    with pytest.raises(ValueError, match="nz"):
        core.stars(0, 0, 0, 1, 1, 0)
    with pytest.raises(ValueError, match="nx, ny, nz"):
        core.census(0, 0, 0, 2**40, 2**40, 2**40)
    with pytest.raises(ValueError, match="z0, nz"):
        core.census(0, 0, 2**63 - 2, 1, 1, 5)
    with pytest.raises(ValueError, match="threads"):
        core.census(0, 0, 0, 1, 1, 1, threads=0)
    with pytest.raises(ValueError, match="f_value"):
        _core.GalaxyCore(rt.CLASSIC_PROFILE, [1], [1], [1], f_mask=1, f_value=2)
    with pytest.raises(ValueError, match="s, t, u"):
        _core.GalaxyCore(rt.CLASSIC_PROFILE, [1], [1, 2], [1])


def test_bad_threads_and_slabs():
    with pytest.raises(ValueError, match="threads"):
        G.count(0, 0, 0, 2, 2, 2, threads=0)
    with pytest.raises(TypeError, match="threads"):
        G.count(0, 0, 0, 2, 2, 2, threads=1.5)
    with pytest.raises(ValueError, match="planes_per_call"):
        G.count(0, 0, 0, 2, 2, 2, planes_per_call=0)


def test_progress_without_tqdm(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    with pytest.raises(ImportError, match=r"pip install tqdm"):
        G.count(0, 0, 0, 2, 2, 2, progress=True)


def test_exercise_helpers_reject_bad_input():
    with pytest.raises(TypeError, match="galaxy"):
        rt.density("classic")
    with pytest.raises(ValueError, match="block"):
        rt.density(block=(1, 2, 3))
    with pytest.raises(TypeError, match="block"):
        rt.planet_table(block=5)
    with pytest.raises(TypeError, match="observer"):
        rt.nearest_star(observer=(0.5, 0, 0))
    with pytest.raises(ValueError, match="table"):
        rt.colour_planet_independence(table=np.ones((4, 4), dtype=int))
    with pytest.raises(TypeError, match="stars"):
        rt.colour_planet_independence(stars=np.zeros(3))
