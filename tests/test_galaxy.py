"""The galaxy against a brute-force transcription of calcStar (tests/galaxy_reference.py)."""

import math

import galaxy_reference as G
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import relfterrain as rt

CLASSIC = rt.Galaxy()
REF = G.RefGalaxy()


def as_tuples(cat):
    return [rt.Galaxy.star_record(r) for r in cat]


def check_block(galaxy, ref, block, threads=(1, 2, 3)):
    """stars / count / census / planet_counts of a block against the reference."""
    want = [rt.Star(*s) for s in ref.block(*block)]
    first = None
    for th in threads:
        cat = galaxy.stars(*block, threads=th)
        assert cat.dtype == rt.STAR_DTYPE
        got = as_tuples(cat)
        assert got == want, f"block {block}, threads {th}"
        # floats compared by bits, not by ==
        assert [s.magnitude.hex() for s in got] == [s.magnitude.hex() for s in want]
        if first is None:
            first = cat.tobytes()
        assert cat.tobytes() == first, "thread counts give different bytes"
    assert galaxy.count(*block) == len(want)
    pc = galaxy.planet_counts(*block)
    assert pc.dtype == np.int64 and pc.shape == (16,)
    assert pc.tolist() == np.bincount([s.planets for s in want], minlength=16).tolist()
    census = galaxy.census(*block, threads=2)
    table = np.zeros((16, 16), dtype=np.int64)
    for s in want:
        table[s.planets, s.colour] += 1
    assert np.array_equal(census, table)
    for s in got:  # every catalogue entry is what the point function says
        assert galaxy.star(s.x, s.y, s.z) == s
    return want


# ---------------------------------------------------------------------------
# The classic galaxy
# ---------------------------------------------------------------------------

def test_initial_view_stars_are_the_references():
    cat = CLASSIC.stars(*rt.INITIAL_VIEW)
    assert len(cat) == 26
    for s in as_tuples(cat):
        assert tuple(REF.calc_star(s.x, s.y, s.z)) == tuple(s)
        assert CLASSIC.star(s.x, s.y, s.z) == s
        # and the neighbours along z are empty, as the reference says
        for dz in (-1, 1):
            assert CLASSIC.star(s.x, s.y, s.z + dz) is None
            assert REF.calc_star(s.x, s.y, s.z + dz) is None


def test_initial_view_sorted_and_inside():
    cat = CLASSIC.stars(*rt.INITIAL_VIEW)
    keys = list(zip(cat["x"].tolist(), cat["y"].tolist(), cat["z"].tolist()))
    assert keys == sorted(keys)
    x0, y0, z0, nx, ny, nz = rt.INITIAL_VIEW
    assert all(x0 <= x < x0 + nx and y0 <= y < y0 + ny and z0 <= z < z0 + nz
               for x, y, z in keys)


@pytest.mark.parametrize("centre", [(-42, 11, 41), (1, -287, 132), (-274, -279, 269),
                                    (294, 294, 153)])
def test_classic_blocks_around_known_stars(centre):
    x, y, z = centre
    want = check_block(CLASSIC, REF, (x - 3, y - 3, z - 4, 7, 7, 9))
    assert any((s.x, s.y, s.z) == centre for s in want)


def test_classic_block_across_zero_planes():
    # x, y and z all cross 0, negative coordinates throughout
    check_block(CLASSIC, REF, (-9, -8, -10, 19, 17, 21))


def test_classic_block_inside_domain_edge():
    d = 2**17
    check_block(CLASSIC, REF, (d - 4, -d, d - 5, 5, 4, 6))
    check_block(CLASSIC, REF, (-d, d - 3, -d, 4, 4, 4))


def test_zero_planes_hold_no_star():
    dense = rt.Galaxy(f_mask=0, f_value=0)  # every point with 1 <= xyz & 0xff <= 7
    assert dense.count(0, -50, -50, 1, 101, 101) == 0
    assert dense.count(-50, 0, -50, 101, 1, 101) == 0
    assert dense.count(-50, -50, 0, 101, 101, 1) == 0
    assert dense.star(0, 1, 1) is None and dense.star(1, 1, 0) is None
    assert dense.star(1, 1, 1) is not None


# ---------------------------------------------------------------------------
# Dense galaxies: smaller f masks make many stars, exercising every path
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("f_mask,f_value", [(0, 0), (0x1, 1), (0xF, 15), (0x7, 3), (0xFF, 127)])
def test_dense_blocks_negative_and_zero(f_mask, f_value):
    g = rt.Galaxy(f_mask=f_mask, f_value=f_value)
    ref = G.RefGalaxy(f_mask=f_mask, f_value=f_value)
    want = check_block(g, ref, (-7, -6, -8, 14, 13, 17))
    if f_mask <= 0xF:
        assert len(want) > 0


def test_dense_long_z_rows_cross_many_residue_blocks():
    g = rt.Galaxy(f_mask=0x3, f_value=1)
    ref = G.RefGalaxy(f_mask=0x3, f_value=1)
    check_block(g, ref, (-3, 5, -1000, 3, 2, 2001))
    check_block(g, ref, (7, -9, 255, 1, 1, 600))


def test_dense_big_coordinates_inside_domain():
    g = rt.Galaxy(f_mask=0x3, f_value=2)
    ref = G.RefGalaxy(f_mask=0x3, f_value=2)
    d = 2**17
    check_block(g, ref, (-d, d - 6, -d + 1, 6, 6, 20))


@pytest.mark.parametrize("x0,y0,z0", [
    (2**20, 2**21, 2**15),            # outside the domain, exact int64 still
    (2**26, -(2**25), 2**2),          # crossing the 2^52 exactness bound
    (2**40, 2**30, -(2**20)),         # far beyond: the double arithmetic
    (-(2**62), 2**62 - 10, 3),        # near the int64 limits
])
def test_outside_domain_follows_the_double_arithmetic(x0, y0, z0):
    g = rt.Galaxy(f_mask=0x3, f_value=1)
    ref = G.RefGalaxy(f_mask=0x3, f_value=1)
    check_block(g, ref, (x0, y0, z0, 3, 4, 40), threads=(1, 2))


def test_custom_parameters():
    prof = [0.5, 3.25, -7.0, 11.0, 2.0**40, 1e-3, 99.0, -0.125]
    s, t, u = (3, -100000), (-(2**20), 7), (2**20, -1)
    kw = {"min_magnitude": -2.5, "magnitude_range": 0.1, "f_mask": 0x1F, "f_value": 6}
    g = rt.Galaxy(prof, s, t, u, **kw)
    ref = G.RefGalaxy(prof, s, t, u, **kw)
    check_block(g, ref, (-6, -5, -7, 12, 11, 15))
    assert g.directions == 2 and g.t.tolist() == list(t)
    assert "f_mask=0x1f" in repr(g)


@st.composite
def galaxies(draw):
    n = draw(st.integers(1, 4))
    vec = st.lists(st.integers(-(2**20), 2**20), min_size=n, max_size=n)
    plen = 2 ** draw(st.integers(0, 6))
    prof = draw(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=plen, max_size=plen))
    f_mask = draw(st.sampled_from([0, 1, 3, 0xF, 0x3F]))
    f_value = draw(st.integers(0, 0xFFFF)) & f_mask
    return {"profile": prof, "s": draw(vec), "t": draw(vec), "u": draw(vec),
                "min_magnitude": draw(st.floats(-10, 10)), "magnitude_range": draw(st.floats(-10, 10)),
                "f_mask": f_mask, "f_value": f_value}


coord = st.one_of(st.integers(-20, 20), st.integers(-(2**17), 2**17),
                  st.integers(-(2**40), 2**40))


@given(galaxies(), coord, coord, coord, st.integers(1, 5), st.integers(1, 5),
       st.integers(1, 12))
def test_property_random_galaxies_and_blocks(params, x0, y0, z0, nx, ny, nz):
    g = rt.Galaxy(**params)
    ref = G.RefGalaxy(params["profile"], params["s"], params["t"], params["u"],
                      params["min_magnitude"], params["magnitude_range"],
                      params["f_mask"], params["f_value"])
    check_block(g, ref, (x0, y0, z0, nx, ny, nz), threads=(1, 3))


# ---------------------------------------------------------------------------
# Threads, slabs, progress
# ---------------------------------------------------------------------------

def test_threads_and_slabs_give_the_same_catalogue():
    g = rt.Galaxy(f_mask=0x3F, f_value=63)
    block = (-60, -50, -40, 120, 100, 80)
    base = g.stars(*block, threads=1)
    assert len(base) > 100
    for th in (2, 3, 7):
        assert g.stars(*block, threads=th).tobytes() == base.tobytes()
    for planes in (1, 7, 120, 500):
        assert g.stars(*block, planes_per_call=planes, threads=2).tobytes() == base.tobytes()
        assert np.array_equal(g.census(*block, planes_per_call=planes), g.census(*block))
    assert g.count(*block, threads=3) == len(base)


def test_progress_bar_gives_the_same_results():
    pytest.importorskip("tqdm")
    g = rt.Galaxy(f_mask=0xFF, f_value=127)
    block = (-30, -20, -10, 60, 40, 30)
    assert g.stars(*block, progress=True).tobytes() == g.stars(*block).tobytes()
    assert g.count(*block, progress=True, planes_per_call=4) == g.count(*block)


def test_catalogue_larger_than_the_first_guess():
    # more stars than the binding's first buffer (4096 + points / 2**18)
    g = rt.Galaxy(f_mask=0, f_value=0)
    block = (1, 1, 1, 40, 40, 200)
    cat = g.stars(*block)
    assert len(cat) == g.count(*block) > 4096
    keys = list(zip(cat["x"].tolist(), cat["y"].tolist(), cat["z"].tolist()))
    assert keys == sorted(keys)


def test_star_dtype_layout():
    assert rt.STAR_DTYPE.names == ("x", "y", "z", "magnitude", "planets", "colour")
    assert rt.STAR_DTYPE["x"] == np.int64 and rt.STAR_DTYPE["magnitude"] == np.float64
    assert rt.STAR_DTYPE["planets"] == np.uint8 and rt.STAR_DTYPE["colour"] == np.uint8
    empty = CLASSIC.stars(1, 1, 1, 2, 2, 2)
    assert empty.dtype == rt.STAR_DTYPE and empty.shape == (0,)


def test_initial_view_and_observer():
    assert tuple(rt.INITIAL_VIEW) == (-400, -300, 1, 800, 600, 300)
    assert rt.INITIAL_VIEW.volume == 144_000_000
    assert rt.OBSERVER == (0, 0, 0)
    assert rt.GALAXY_VECTORS == {"s": G.S, "t": G.T, "u": G.U}
    assert np.array_equal(CLASSIC.profile, np.array(G.PROF))
    assert repr(CLASSIC) == "Galaxy()"


def test_magnitudes_of_the_seed():
    cat = rt.Galaxy(f_mask=0, f_value=0).stars(1, 1, 1, 3, 3, 7)
    want = {1.0 + 5.0 * k / 7 for k in range(1, 8)}
    assert set(cat["magnitude"].tolist()) <= want


def test_star_accepts_numpy_integers():
    s = CLASSIC.star(np.int64(-42), np.int32(11), 41)
    assert s == rt.Star(-42, 11, 41, 1.0 + 5.0 * 2 / 7, 6, 11)
    assert math.isclose(s.magnitude, 2.428571428571429)
