"""Grids at any step and origin (the point path's vector rows) == the reference.

The point-path rows (csrc/simd/point_rows_avx2.h: height rows by double
windows, the profile sums by rotated windows with the indices read from
floor + 1.5*2^52) rewrite the seed's arithmetic exactly; here every variant
and thread count is compared with the independent transcription of SPEC 4-5
(tests/reference.py) at random non-dyadic steps and origins: extreme
coordinates near +-2**26 m, tiny and huge steps, rows wide enough for the
8-column loops and their tails, and models with directions of A = 0.
"""

import dataclasses

import numpy as np
import pytest
import reference as R
from helpers import bits, check_grids, make_terrain
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import relfterrain as rt

L = 2 ** 26
VARIANTS = rt.simd_variants()

origin = st.one_of(
    st.floats(min_value=-L, max_value=L, allow_nan=False, allow_infinity=False),
    st.floats(min_value=-30000.0, max_value=30000.0, allow_nan=False),
    st.floats(min_value=-3.0, max_value=3.0, allow_nan=False),
    st.floats(min_value=L - 2000.0, max_value=L, allow_nan=False),
    st.floats(min_value=-L, max_value=-L + 2000.0, allow_nan=False),
    st.sampled_from([0.0, -0.0, 1e-300, -1e-300, 5e-324, 2.0 ** -901, 23396.1, 5318.3]),
)
# log-uniform from 1e-9 to 200 m, and steps at the edges of the window rules
step = st.one_of(
    st.floats(min_value=np.log(1e-9), max_value=np.log(200.0)).map(lambda v: float(np.exp(v))),
    st.sampled_from([1 / 3, 0.37, 0.1, 3.4482758620689653, 3.45, 1.7, 99.9, 1e-300, 2.0 ** -899]),
)


def _check(t, params, x0, y0, nx, ny, s):
    check_grids(rt, t, params, x0, y0, nx, ny, s)


@settings(max_examples=60, deadline=None)
@given(origin, origin, step, st.integers(1, 45), st.integers(1, 3))
def test_classic_any_step_matches_reference(x0, y0, s, nx, ny):
    assume(abs(x0) + nx * s <= L and abs(y0) + ny * s <= L)
    _check(rt.Terrain(), R.CLASSIC, x0, y0, nx, ny, s)


@st.composite
def models(draw):
    """Small models: integer or eighth profiles of any length, vectors with zeros."""
    n = 2 ** draw(st.integers(0, 8))
    if draw(st.booleans()):
        profile = tuple(float(v) for v in draw(st.lists(st.integers(-40, 200), min_size=n,
                                                        max_size=n)))
    else:
        profile = tuple(v / 8.0 for v in draw(st.lists(st.integers(0, 1600), min_size=n,
                                                        max_size=n)))
    vlen = draw(st.integers(1, 6))
    coef = st.one_of(st.integers(-64, 64), st.just(0))
    vec = st.lists(coef, min_size=vlen, max_size=vlen).map(tuple)
    vectors = {name: draw(vec) for name in R.VECTOR_NAMES}
    top = max(abs(v) for v in profile) * vlen
    return R.Params(profile=profile, lake_base=round(draw(st.floats(0.0, max(top, 1.0))) * 8) / 8,
                    lake_height=draw(st.one_of(st.none(), st.floats(0.0, max(top, 1.0)))),
                    **vectors)


@settings(max_examples=40, deadline=None)
@given(models(), origin, origin, step, st.integers(1, 40), st.integers(1, 2))
def test_models_any_step_match_reference(params, x0, y0, s, nx, ny):
    assume(abs(x0) + nx * s <= L and abs(y0) + ny * s <= L)
    _check(make_terrain(rt, params), params, x0, y0, nx, ny, s)


def test_wide_rows_non_dyadic():
    """Rows wider than a tile (2048 columns), at the issue's steps and origins."""
    for x0, y0, s in ((23396.0, 5318.0, 0.37), (23396.5, 5318.0, 1 / 3), (23396.1, 5318.3, 1.0),
                      (-(2.0 ** 26) + 1.3, 2.0 ** 26 - 7.7, 0.0123)):
        _check(rt.Terrain(), R.CLASSIC, x0, y0, 2061, 1, s)


@pytest.mark.parametrize("x0, y0, s, nx, ny", [
    (23396.0, 5318.0, 1 / 3, 600, 4),    # lattice steps: exact boundaries in every chunk
    (23396.0, 5318.0, 0.1, 530, 3),
    (0.0, 0.0, 0.2, 517, 3),
    (23396.1, 5318.3, 1.0, 1030, 2),     # four chunks of 256 columns and a tail
    (23396.5, 5318.0, 0.37, 2061, 2),    # wider than a tile (2048 columns)
    (-(2.0 ** 26) + 1.3, 2.0 ** 26 - 7.7, 0.37, 300, 2),  # far: a wider bound
])
def test_fixed_point_profile_sums(x0, y0, s, nx, ny):
    """The AVX2 rows' profile sums by fixed point (point_rows_avx2.h): chunks
    of 256 columns anchored at their first, and a direction with a lane near
    an index's boundary by the doubles.  At lattice steps such lanes come in
    every chunk: at step 1/3 from whole metres, A3 = B3 = -64 puts v = -64 (x
    + y) on a multiple of 128 up to the rounding of x and y every sixth
    column; the seed's floor there depends on that rounding."""
    _check(rt.Terrain(), R.CLASSIC, x0, y0, nx, ny, s)


# A model whose terrain shows the parity of pair 1's profile index at every
# column: profile 0, 200, 0, 200, ..., one direction a pair, town below 100,
# no lakes (town where the index is even)
PARITY = {"profile": (0.0, 200.0) * 128, "lake_base": -1.0, "town_below": 100.0,
          "ah": (13,), "bh": (27,), "a1": (61,), "b1": (37,), "a2": (-29,), "b2": (11,),
          "a3": (5,), "b3": (-53,)}


@pytest.mark.parametrize("a1, y0, col", [
    (61, 5321.93, 187),      # the first chunk
    (61, 5408.45, 255),      # its last column
    (61, 5639.95, 505),      # the second chunk (anchored at column 256)
    (61, 5861.89, 351),
    (-61, 5411.16, 156),     # A < 0: the windows start 7 below lane 0
    (-61, 5742.7, 70),
])
def test_fixed_point_boundaries(a1, y0, col):
    """Columns where the seed's v = fl(fl(A1*x) + fl(B1*y)) lies a few ulps
    below a multiple of 128 (x = 23396 + 0.37 c): the index is that of the
    rounded v, one less than the real value's.  The fixed-point sums of the
    AVX2 rows see such a lane as near a boundary and take the doubles; without
    that they would give the real value's index, and the town its parity.
    (Found by searching rows for them; the test checks they still are.)"""
    x0, s, nx = 23396.0, 0.37, 520
    x = x0 + col * s
    v = a1 * x + 37 * y0
    assert v % 128 > 128 - 1e-9 and v == a1 * x + 37 * y0  # just below a boundary
    model = dict(PARITY, a1=(a1,))
    params = dataclasses.replace(R.CLASSIC, **model)
    t = make_terrain(rt, params)
    _check(t, params, x0, y0, nx, 2, s)
    town = int(rt.TerrainType.TOWN)
    assert (t.grid(x0, y0, nx, 1, s).terrain[0, col] == town) == (np.floor(v / 128) % 2 == 0)


# point features wherever the feature value's low bit is 0: every other
# column's feature shows the profile sums at the rounded point (prof_at)
FEATURE_PARITY = dataclasses.replace(R.CLASSIC, feature_mask=1, feature_point=0, feature_x=5,
                                     feature_cone=5, lake_base=-1e9, lake_height=-1e9)


@pytest.mark.parametrize("x0, s, nx", [
    (23396.0, 0.37, 600),        # two chunks of 256 columns and a tail
    (23396.0, 1 / 3, 530),       # each rounded x three times
    (-7777.3, 0.5, 300),         # negative rounded x (modulo 2^32)
    (-50.3, 0.37, 300),          # rounded x from -50 through 0 to 60
    (23396.2, 0.2, 2100),        # wider than a tile
    (23396.0, 0.49, 200),        # just under half as many distinct values as columns
    (23396.0, 0.52, 200),        # just over: every column's own sums
])
def test_rounded_x_sums_once_a_value(x0, s, nx):
    """Steps below 1 round several columns to one x: the vector kernels make
    the profile sums of each distinct rounded x once and spread them (AVX2,
    AVX-512; chunks of 256 columns).  A model whose features follow the sums'
    parity at every column, against the reference."""
    t = make_terrain(rt, FEATURE_PARITY)
    _check(t, FEATURE_PARITY, x0, 5318.3, nx, 2, s)
    g = t.grid(x0, 5318.3, nx, 2, s)
    assert (g.feature != int(rt.Feature.NONE)).mean() > 0.2  # the sums do show


@pytest.mark.parametrize("x0, s, nx, b2", [
    (23396.1, 1.0, 600, None),          # step 1 from a non-dyadic origin: x rounds to X0 + c
    (23396.1, 1.0, 4104, None),         # tiles of 2048, 2048 and 8, each its own start
    (-7777.3, 1.0, 300, None),          # negative rounded x (modulo 2^32)
    (-150.6, 1.0, 300, None),           # through 0
    (23396.7, 2.0, 300, None),          # every other x: |B2| * 2 <= 108
    (23396.1, 3.0, 300, None),          # |B2| * 3 up to 162: the sums at each x
    (23396.1, 2.0, 300, (64, -54, -34, -51, -43)),   # |B2| * 2 = 128: still linear
    (23396.1, 2.0, 300, (65, -54, -34, -51, -43)),   # 130: not
])
def test_rounded_x_in_steps_linear_sums(x0, s, nx, b2):
    """At whole steps the rounded x run X0, X0 + d, X0 + 2d, ...: the point
    path then takes the feature sums by the linear tile kernel from X0
    (terrain.c, xr_linear) where every |B2 * d| is at most 2^7, the sums at
    each rounded x elsewhere.  A model whose features follow the sums'
    parity at every column, against the reference."""
    params = FEATURE_PARITY if b2 is None else dataclasses.replace(FEATURE_PARITY, b2=b2)
    t = make_terrain(rt, params)
    _check(t, params, x0, 5318.3, nx, 2, s)
    g = t.grid(x0, 5318.3, nx, 2, s)
    assert (g.feature != int(rt.Feature.NONE)).mean() > 0.2  # the sums do show


def test_rounded_x_kept_per_tile():
    """round_js(x) does not depend on the row: a tile keeps the previous row's
    (rt_point_prof.xr_ready), never another tile's of the same width (4104
    columns: tiles of 2048, 2048 and 8).  A feature mask of 7 makes most
    points feature candidates, so the features show every rounded x."""
    params = dataclasses.replace(R.CLASSIC, feature_mask=7)
    _check(make_terrain(rt, params), params, 23396.1, 5318.3, 4104, 2, 0.37)


@pytest.mark.parametrize("y0, s", [(5318.05, 0.37), (5318.2, 1 / 3), (5318.9, 0.37),
                                   (-5318.95, 0.37)])
def test_feature_sums_kept_for_rows_of_one_rounded_y(y0, s):
    """The feature sums at the rounded points depend on round_js(x) and
    round_js(y) alone: a tile keeps them for the next rows of the same
    rounded y (tile_buf.fa_yr; 2 or 3 rows in a row at 0.37 and 1/3), never
    across rows of another rounded y or another tile's columns: rows of one
    tile (2000 columns), and of three (4104 columns: tiles of 2048, 2048 and
    8), on 1 to 3 threads.  A feature mask
    of 7 makes most points feature candidates, so the features show every
    sum; A3 of 150 to 255 (the classic's are at most 64) moves every
    direction's index by more than one from one rounded y to the next, so
    sums kept past a change of rounded y would show."""
    params = dataclasses.replace(R.CLASSIC, feature_mask=7, a3=(201, -173, 150, 199, -255))
    t = make_terrain(rt, params)
    ny = 7
    ys = [R.round_js(y0 + r * s) for r in range(ny)]
    assert 1 < len(set(ys)) < ny  # rows of one rounded y follow each other, and of others
    for nx in (2000, 4104):
        _check_grid_out(t, params, 23396.1, y0, nx, ny, s)


@settings(max_examples=15, deadline=None)
@given(models(), origin, origin, step, st.integers(250, 300))
def test_fixed_point_models(params, x0, y0, s, nx):
    """The same for small models (profiles of 1 to 256 entries, so windows of
    8 to 256 rows and 17 to 22 fraction bits; directions with A = 0) across a
    chunk's end."""
    assume(abs(x0) + nx * s <= L and abs(y0) + 2 * s <= L)
    _check(make_terrain(rt, params), params, x0, y0, nx, 2, s)


@settings(max_examples=40, deadline=None)
@given(models(), origin, origin, step, st.integers(16, 70), st.integers(1, 2),
       st.integers(0, 37), st.integers(0, 3))
def test_wide_rows_out_float32_offsets(params, x0, y0, s, nx, ny, c0, r0):
    """The eight- and 16-lane rows of the AVX-512 tables (point_rows_avx512.h)
    and their tails: every variant and thread count, into out= and fresh, in
    float64 and float32, at column and row offsets (x = x0 + (c0 + c) * step)."""
    assume(abs(x0) + (nx + c0) * s <= L and abs(y0) + (ny + r0) * s <= L)
    xs = x0 + np.arange(c0, c0 + nx, dtype=np.int64).astype(np.float64) * s
    ys = y0 + np.arange(r0, r0 + ny, dtype=np.int64).astype(np.float64) * s
    gx, gy = np.meshgrid(xs, ys)
    rh, rd, rtt, rf = R.sample(params, gx, gy)
    rhg = np.vectorize(lambda x, y: R.height(params, x, y), otypes=[np.float64])(gx, gy)
    t = make_terrain(rt, params)
    for v in VARIANTS:
        t.simd = v
        for threads in (1, 2):
            for dtype in (np.float64, np.float32):
                h = t.height_grid(x0, y0, nx, ny, s, offset=(r0, c0), threads=threads, dtype=dtype)
                assert h.dtype == dtype and np.array_equal(h, rhg.astype(dtype)), (v, threads)
                assert dtype == np.float32 or np.array_equal(bits(h), bits(rhg)), (v, threads)
                oh = np.full((ny, nx), 7.0, dtype)
                assert t.height_grid(x0, y0, nx, ny, s, offset=(r0, c0), out=oh,
                                     threads=threads, dtype=dtype) is oh
                assert np.array_equal(bits(oh), bits(h)), (v, threads)
                g = t.grid(x0, y0, nx, ny, s, offset=(r0, c0), threads=threads, dtype=dtype)
                o4 = (np.full((ny, nx), 7.0, dtype), np.full((ny, nx), 7.0, dtype),
                      np.full((ny, nx), 99, np.uint8), np.full((ny, nx), 99, np.uint8))
                go = t.grid(x0, y0, nx, ny, s, offset=(r0, c0), out=o4, threads=threads,
                            dtype=dtype)
                for got in (g, go):
                    assert np.array_equal(bits(got.height), bits(rh.astype(dtype))), (v, threads)
                    assert np.array_equal(bits(got.depth), bits(rd.astype(dtype))), (v, threads)
                    assert np.array_equal(got.terrain, rtt), (v, threads)
                    assert np.array_equal(got.feature, rf), (v, threads)
                assert go.height is o4[0] and go.feature is o4[3]


@settings(max_examples=30, deadline=None)
@given(models(), origin, origin, step, st.integers(16, 70), st.integers(2, 9))
def test_height_rows_block_products(params, x0, y0, s, nx, ny):
    """Height rows read the products A*2^-7*x of a block's first row
    (rt_point_row.ax, kept from row to row of a thread's rows; the leading
    directions with A = 0 summed once a row): many rows a thread, 1 to 3
    threads, models with A = 0 anywhere, against the reference."""
    assume(abs(x0) + nx * s <= L and abs(y0) + ny * s <= L)
    rhg = R.height_grid(params, x0, y0, nx, ny, s)
    t = make_terrain(rt, params)
    for v in VARIANTS:
        t.simd = v
        for threads in (1, 2, 3):
            h = t.height_grid(x0, y0, nx, ny, s, threads=threads)
            assert np.array_equal(bits(h), bits(rhg)), (v, threads)


def test_height_rows_tiny_negative_x():
    """j tiny and negative: floor(j) = -1 and j - floor(j) rounds to 1.0 (the
    seed's subtraction, which an instruction computing j - floor(j) rounded
    down does not give)."""
    params = R.Params(profile=(0.0, 55.125), ah=(64, 0, 64, 0, 64), bh=(0, 62, 0, 2, 0),
                      a1=(64, 0, 64, 64, 0), b1=(1, 0, 0, 0, 0), a2=(0,) * 5, b2=(0,) * 5,
                      a3=(0,) * 5, b3=(0,) * 5, lake_base=0.0, lake_height=None)
    t = make_terrain(rt, params)
    for x0 in (-2.4146664952398937e-89, -1e-300, -(2.0 ** -899)):
        for nx, ny in ((16, 1), (37, 3)):
            rhg = R.height_grid(params, x0, 0.0, nx, ny, 1.0)
            for v in VARIANTS:
                t.simd = v
                h = t.height_grid(x0, 0.0, nx, ny, 1.0, threads=1)
                assert np.array_equal(bits(h), bits(rhg)), (v, x0)


# p0 + jfrac*d by one fused multiply-add only where the product is exact
# (rt__point_fma_min): d = +-1048581 has 21 significant bits, so only rows
# whose every |j| is at least 2^20 may fuse.  p0 and p0 + d of opposite
# signs make the sum p0 + jfrac*d cancel, often exactly, so that where the
# product is rounded the fused sum differs (in 68 to 117 of the 270 terms of
# each case two binades or more below the fusing bound, by a transcription
# with fractions; none just below it, where the products need 54 bits at
# most).
FMA_PARAMS = R.Params(profile=(-524291.0, 524290.0), ah=(64, 60), bh=(1, 3), a1=(1, 2),
                      b1=(3, 1), a2=(2, 1), b2=(1, 2), a3=(1, 1), b3=(2, 3), lake_base=0.0,
                      lake_height=None)


def _check_heights(params, x0, s, nx=45, ny=3, y0=0.3):
    """height_grid of every variant, one thread, == the reference."""
    rhg = R.height_grid(params, x0, y0, nx, ny, s)
    t = make_terrain(rt, params)
    for v in VARIANTS:
        t.simd = v
        h = t.height_grid(x0, y0, nx, ny, s, threads=1)
        assert np.array_equal(bits(h), bits(rhg)), (v, x0, s)


@pytest.mark.parametrize("x0", [1.3, -2.9, 600000.37, -600000.37, 2097152.37, 3.0e6 + 0.1,
                                -3.0e6 - 0.1, 2234000.2])
@pytest.mark.parametrize("s", [0.37, 1 / 3, 1.37])
def test_height_rows_fused_only_where_exact(x0, s):
    """The AVX2 and AVX-512 height rows add p0 + jfrac*d by one fused
    multiply-add where every |j| of the row makes the product exact (here
    |j| >= 2^20: x from about 2.2e6), and by the seed's two roundings
    elsewhere: rows with small
    |j|, rows whose |j| lie between 2^18 and 2^20 (600000 m: a bound two
    bits too loose would fuse them), rows that fuse, of either sign, by the
    two-entry windows (steps 0.37, 1/3) and the four-entry ones (1.37),
    against the reference."""
    _check_heights(FMA_PARAMS, x0, s)


@pytest.mark.parametrize("x0", [1.3, 5.3, -13.3, -9.7, 600.1, -600.1])
@pytest.mark.parametrize("s", [0.2, 0.37, 1 / 3])
def test_height_rows_fused_bound_within_a_row(x0, s):
    """Rows whose j cross the fusing bound: with d = +-5 (3 bits) rows may
    fuse where every |j| >= 4, and the rows from 1.3, 5.3 and -13.3 m have
    |j| on both sides of 4 in one direction (one end is not enough); their
    sums cancel (p0 = -3, p0 + d = 2), so a fused term shows (6 to 69 of the
    270 terms differ where the row's j reach below 4, by fractions)."""
    _check_heights(dataclasses.replace(FMA_PARAMS, profile=(-3.0, 2.0)), x0, s)


@pytest.mark.parametrize("x0", [1.3, -2.9, 2234000.2, -3.0e6 - 0.1])
def test_height_rows_fused_past_the_block_scratch(x0):
    """Rows wider than the per-thread scratch holds products for (5 x 13107
    entries: 32767 columns of the two directions here) compute the products
    in the row and fuse by the same rule: rows of small |j| take the seed's
    two roundings, rows of |j| >= 2^20 fuse, against the reference."""
    _check_heights(FMA_PARAMS, x0, 0.37, nx=32800, ny=1)


def test_height_rows_past_the_block_scratch():
    """Rows at and past the width whose products the per-thread scratch holds
    (5 directions x 13107 columns): the rows compute them instead."""
    for nx in (13104, 13200):
        rhg = R.height_grid(R.CLASSIC, 23396.1, 5318.3, nx, 2, 0.37)
        t = rt.Terrain()
        for v in VARIANTS:
            t.simd = v
            h = t.height_grid(23396.1, 5318.3, nx, 2, 0.37, threads=1)
            assert np.array_equal(bits(h), bits(rhg)), (v, nx)


@settings(max_examples=25, deadline=None)
@given(models(), origin, origin, st.sampled_from([40 / 64, 0.625, 0.6251, 0.624, 40 / 29, 1.38, 1.37,
                                                 0.01, 1e-7]),
       st.integers(8, 40), st.integers(1, 4))
def test_height_rows_two_entry_windows(params, x0, y0, s, nx, ny):
    """The AVX2 height rows by two-entry windows (rt__point_dwin2) where four
    columns span at most two indices (|A|*step <= 40), and by the four-entry
    ones just past that: steps at the rule's edge for |A| = 64 and 29 (the
    classic model's largest), A of either sign, against the reference."""
    assume(abs(x0) + nx * s <= L and abs(y0) + ny * s <= L)
    _check_model_and_classic(params, x0, y0, nx, ny, s)


def _check_model_and_classic(params, x0, y0, nx, ny, s):
    """height_grid of `params` and of the classic model, every variant, one
    thread, == the reference."""
    for p in (params, R.CLASSIC):
        rhg = R.height_grid(p, x0, y0, nx, ny, s)
        t = make_terrain(rt, p)
        for v in VARIANTS:
            t.simd = v
            h = t.height_grid(x0, y0, nx, ny, s, threads=1)
            assert np.array_equal(bits(h), bits(rhg)), (v, s)


@settings(max_examples=25, deadline=None)
@given(models(), origin, origin,
       st.sampled_from([56 / 64, 0.875, 0.8751, 0.874, 60 / 64, 1.09, 56 / 29, 1.931, 1.94, 2.0,
                        0.37, 1 / 3, 1.0]),
       st.integers(16, 80), st.integers(1, 3))
def test_height_rows_sixteen_column_windows(params, x0, y0, s, nx, ny):
    """The AVX-512 height rows read one window for sixteen columns where
    they span at most eight indices (|A|*step <= 56, point_rows_avx512.h's
    px_dir_term16), and one for eight past that: steps at the rule's edge
    for |A| = 64 and 29 (the classic model's largest) and past it (1.09 m
    at |A| = 64: sixteen columns then span nine indices), A of either sign,
    against the reference."""
    assume(abs(x0) + nx * s <= L and abs(y0) + ny * s <= L)
    _check_model_and_classic(params, x0, y0, nx, ny, s)


# Directions of |A| = 64 of both signs and the classic model's largest,
# over a profile whose entries eight apart differ (a lane looked up in the
# wrong window shows)
W16_PARAMS = R.Params(profile=tuple(float((k * 37 + (k // 8) * 11) % 199) for k in range(256)),
                      ah=(64, -64, 29, 0), bh=(3, 1, -5, 7), a1=(1, 2, 3, 4), b1=(3, 1, 2, 5),
                      a2=(2, 1, 1, 1), b2=(1, 2, 3, 1), a3=(1, 1, 2, 2), b3=(2, 3, 1, 1),
                      lake_base=0.0, lake_height=None)


@pytest.mark.parametrize("s", [56 / 64, 0.8751, 60 / 64, 1.09, 1.5, 1.56])
@pytest.mark.parametrize("x0, y0", [(23396.1, 5318.3), (-23396.1, 5318.3), (1e6 + 0.37, -7.7)])
def test_height_rows_sixteen_column_windows_edge(x0, y0, s):
    """The sixteen-column windows' rule at |A| = 64: 56/64 m is the last
    step they take (sixteen columns span 15*56/128 = 6.6 of an index); from
    0.8751 m the rows take one window for eight columns, which still serves
    at 1.56 m (7*100/128).  A bound 70/64 m too loose (1.09 m: 8.2 of an
    index) would read a lane's entry from the wrong window."""
    _check_heights(W16_PARAMS, x0, s, nx=200, ny=3, y0=y0)


# A leading direction of A = 0 and four of |A| = |B| = 64, every pairing of
# signs: from one row to the next (y up by the step) their j move by B*step/128
# up or down, on top of the 15*64*step/128 that sixteen columns span (the
# profile as W16_PARAMS': a lane looked up in the wrong window shows)
W2_PARAMS = dataclasses.replace(W16_PARAMS, ah=(0, 64, -64, 64, -64), bh=(7, 64, 64, -64, -64),
                                a1=(1, 2, 3, 4, 5), b1=(3, 1, 2, 5, 4), a2=(2, 1, 1, 1, 3),
                                b2=(1, 2, 3, 1, 2), a3=(1, 1, 2, 2, 1), b3=(2, 3, 1, 1, 3))


@pytest.mark.parametrize("s", [0.5, 0.7, 0.74, 0.7467, 0.75, 0.8, 0.825, 0.83, 0.875])
@pytest.mark.parametrize("x0, y0", [(23396.1, 5318.3), (-23396.1, -5318.3), (1e6 + 0.37, 7.7e5)])
def test_height_rows_two_row_windows_edge(x0, y0, s):
    """The AVX-512 height rows take two rows of a block at once where one
    window serves sixteen columns of both (point_rows_avx512.h's
    px_row_ax2): the 32 values of a direction span S = 15*|A|*step/128 along
    the row and |B|*step/128 to the next. The window starts ceil(L + 0.4)
    below row a's lane 0 and must reach ceil(R + 0.4) above it: for A = -64,
    B = 64 (L = 7.5*step, R = 0.5*step) up to 0.7466 m, for A = B = 64 (R =
    8*step) up to 0.825 m; past those the rows are taken one at a time. A
    rule one index looser (a sum of 8), or a window started one index
    higher, reads a lane's entry from the wrong window here."""
    _check_heights(W2_PARAMS, x0, s, nx=200, ny=6, y0=y0)


# The AVX-512 two-row heights of an integer profile add fma(j, d, c) with
# the windows' intercepts c = P[q] - q*d (point_rows_avx512.h, px_row_ax2c):
# exact integers where every |P| < 2^20 and |j| < 2^30.  Here P up to
# +-(2^20 - 1), so d up to 2^21 - 2 and the fused term only from |j| >= 2^21,
# at x near +-1.9e9 (|A| = 64: |j| near 9.5e8, c near 2^51); P[q] - q*d
# rounded anywhere, or a window's M (its absolute base less its row) off by
# a row count, moves the heights by far more than their last bit.
_BIG = np.random.default_rng(23).integers(-(2 ** 24 - 1), 2 ** 24, 256)
BIG_PARAMS = dataclasses.replace(W2_PARAMS, profile=tuple(float(v >> 4) for v in _BIG))


# and P up to +-(2^24 - 1): past the intercepts' bound (q*d would need up
# to 56 bits), the rows' own lookups
BIGGER_PARAMS = dataclasses.replace(W2_PARAMS, profile=tuple(float(v) for v in _BIG))


@pytest.mark.parametrize("s", [1 / 3, 0.37, 0.5])
@pytest.mark.parametrize("x0, y0", [(1.9e9 + 0.37, 5318.3), (-1.9e9 - 0.1, -5318.3),
                                    (1.5e9 + 0.2, 7.7e5), (23396.1, 5318.3)])
@pytest.mark.parametrize("params", [BIG_PARAMS, BIGGER_PARAMS], ids=["2^20", "2^24"])
def test_height_rows_intercepts_exact(params, x0, y0, s):
    _check_heights(params, x0, s, nx=200, ny=6, y0=y0)


@pytest.mark.parametrize("nx", [16, 40, 56, 200, 203])
@pytest.mark.parametrize("k", range(8))
def test_height_rows_out_at_every_line_offset(nx, k):
    """height_grid into out= k doubles past a 64-byte line.  Where both rows
    of a pair start their lines at the same column s (nx a multiple of 8),
    the AVX-512 two-row heights compute columns s + 16k (the block's
    products shifted to match) and store whole lines, columns [0, s) and the
    last 16 - s of the sixteens by masked stores; rows of 203 start their
    lines at other columns row to row.  The same bits as the reference, and
    nothing written outside the array."""
    params = R.CLASSIC
    ny = 5  # two pairs and a row alone
    rhg = R.height_grid(params, 23396.1, 5318.3, nx, ny, 0.37)
    t = rt.Terrain()
    raw = np.empty(nx * ny + 16 + 8)
    base = (-raw.ctypes.data % 64) // 8  # the first double on a line
    for v in VARIANTS:
        t.simd = v
        raw.fill(7.0)
        out = raw[base + k:base + k + nx * ny].reshape(ny, nx)
        t.height_grid(23396.1, 5318.3, nx, ny, 0.37, out=out, threads=1)
        assert np.array_equal(bits(out), bits(rhg)), (v, nx, k)
        assert (raw[:base + k] == 7.0).all() and (raw[base + k + nx * ny:] == 7.0).all(), (v, nx, k)


def _check_grid_out(t, params, x0, y0, nx, ny, s, placed=None, threads_list=(1, 2, 3)):
    """t.grid into out= arrays == the reference and the scalar variant, for
    every variant and thread count."""
    _, _, rh, rd, rtt, rf = R.grid(params, x0, y0, nx, ny, s, placed)
    t.simd = "scalar"
    sg = t.grid(x0, y0, nx, ny, s, threads=1)
    for v in VARIANTS:
        t.simd = v
        for threads in threads_list:
            o4 = (np.full((ny, nx), 7.0), np.full((ny, nx), 7.0),
                  np.full((ny, nx), 99, np.uint8), np.full((ny, nx), 99, np.uint8))
            g = t.grid(x0, y0, nx, ny, s, out=o4, threads=threads)
            assert g.height is o4[0] and g.feature is o4[3]
            for got, ref, sc in ((g.height, rh, sg.height), (g.depth, rd, sg.depth)):
                assert np.array_equal(bits(got), bits(ref)), (v, threads)
                assert np.array_equal(bits(got), bits(sc)), (v, threads)
            for got, ref, sc in ((g.terrain, rtt, sg.terrain), (g.feature, rf, sg.feature)):
                assert np.array_equal(got, ref) and np.array_equal(got, sc), (v, threads)


@settings(max_examples=25, deadline=None)
@given(models(), origin, origin, step, st.one_of(st.integers(1, 70), st.integers(2040, 2200)),
       st.integers(2, 5))
def test_terra_rows_block_products(params, x0, y0, s, nx, ny):
    """Terra grids' height rows read the products A*2^-7*x of the block per
    point tile (tile_buf.ax, filled by a thread's first row of the tile; tiles
    of 2048 columns) and, on AVX2, the two-entry windows: rows of one tile,
    of two (the second a tail), several rows a thread, 1 to 3 threads, into
    out=, against the reference and the scalar variant."""
    assume(abs(x0) + nx * s <= L and abs(y0) + ny * s <= L)
    _check_grid_out(make_terrain(rt, params), params, x0, y0, nx, ny, s)


def test_terra_rows_block_products_placed():
    """Tiles near a placed entry (placed bounding box: rows 0-4, columns 94
    to 1851) take terra_at and leave the tile's products unfilled until a row
    that is not near: wider than a wide kernel's tile (2048), at the issue's
    steps and origins."""
    t = rt.Terrain()
    t.place(23431, 5319, rt.TerrainType.TOWN)
    t.place(24081, 5320, rt.Feature.BOULDER)
    placed = {(23431, 5319): ("T", int(rt.TerrainType.TOWN)),
              (24081, 5320): ("F", int(rt.Feature.BOULDER))}
    _check_grid_out(t, R.CLASSIC, 23396.3, 5318.7, 2100, 6, 0.37, placed, (1, 2))
    _check_grid_out(t, R.CLASSIC, 23396.5, 5318.0, 2100, 4, 1 / 3, placed, (1, 2))


def test_terra_rows_two_at_once_placed():
    """AVX-512's point path takes a thread's rows two at once (height_row2:
    both rows' heights, then the rest of each): a placed entry near the
    second row of a pair and not the first (rows 2 and 3 here), near the
    first and not the second (rows 4 and 5), an odd row left alone (row 6),
    on 1 to 3 threads (pairs from each thread's first row), against the
    reference and the scalar variant."""
    t = rt.Terrain()
    t.place(23500, 5320, rt.Feature.BOULDER)
    t.place(23480, 5320, rt.TerrainType.TOWN)
    placed = {(23500, 5320): ("F", int(rt.Feature.BOULDER)),
              (23480, 5320): ("T", int(rt.TerrainType.TOWN))}
    ys = [R.round_js(5318.7 + r * 0.37) for r in range(7)]
    assert ys == [5319, 5319, 5319, 5320, 5320, 5321, 5321]
    _check_grid_out(t, R.CLASSIC, 23396.3, 5318.7, 300, 7, 0.37, placed, (1, 2, 3))
    _check_grid_out(t, R.CLASSIC, 23396.3, 5318.7, 2100, 7, 0.37, placed, (1, 2))


def test_terra_rows_past_the_block_scratch():
    """Terra rows at and past the width whose products the per-thread scratch
    holds (5 directions x 13107 columns): the tiles past it compute them."""
    _check_grid_out(rt.Terrain(), R.CLASSIC, 23396.1, 5318.3, 13200, 2, 0.37, None, (1,))


def test_terra_rows_lake_and_mud_sums():
    """The AVX2 profile sums leave out groups of eight lake or mud columns
    (rt_point_prof.ht: their terrain, heights and features follow from the
    height alone): lakes and mud in patches of any width (the grid of the
    issue's benchmark, row 256 on), a mud band (lake_height below lake_base)
    and the reverse, mountains from below the lake levels (the heights the
    classify pass sees, not the raw ones)."""
    for kw in ({}, {"lake_height": 190.0, "lake_base": 230.0},
               {"lake_height": 230.0, "lake_base": 190.0}, {"mountain_base": 150.0}):
        params = dataclasses.replace(R.CLASSIC, **kw)
        t = make_terrain(rt, params)
        _check_grid_out(t, params, 23396.3, 5412.7, 600, 4, 0.37, None, (1, 2))
        _check_grid_out(t, params, 23396.0, 5403.0, 300, 3, 1 / 3, None, (1,))


def test_terra_rows_integer_feature_values():
    """The AVX2 and AVX-512 classify passes of the point path take the
    feature values in integers where every |fa * xr * yr| < 2^53
    (rt_classify_args.int_feature: N mod 2^32, bits 7..31 of N + 64): narrow
    feature masks make candidates common (f in 0..15 or 0..255 against the
    codes 4, 8, ...); and at the domain's edge, where the products are not
    exact, the double path."""
    for mask in (0xF, 0xFF):
        params = dataclasses.replace(R.CLASSIC, feature_mask=mask)
        t = make_terrain(rt, params)
        _check_grid_out(t, params, 23396.3, 5318.7, 300, 3, 0.37, None, (1,))
        _check_grid_out(t, params, -4000.1, 712.9, 131, 3, 1 / 3, None, (1,))
        _check_grid_out(t, params, 6.0e7 + 0.3, -6.6e7, 67, 2, 0.37, None, (1,))


@pytest.mark.parametrize("length", [16, 256, 512])
@pytest.mark.parametrize("x0, y0, s", [(23396.1, 5318.3, 1.0), (-2000.6, 777.2, 2.0),
                                       (23396.0, 5318.0, 1.0), (23396.0, 5318.0, 0.5)])
def test_linear_sums_by_64_byte_windows_without_a_byte_profile(length, x0, y0, s):
    """On a VBMI CPU the AVX-512 table (every grid without a byte profile:
    the point path always, the block path where some entry is negative or
    above 255) takes its linear profile sums 64 columns a lookup from the
    64-byte windows (tile_prof_lin64): the point path's feature sums at
    whole steps from any origin, and the block path's sums at dyadic ones.
    Profiles with negative entries (no byte profile) of 16 to 512 entries
    (the windows' most), rows of 64 columns and more plus a tail; a feature
    mask of 7 makes an eighth of the points candidates (f == 4), so the
    features show the feature sums."""
    rng = np.random.default_rng(length)
    params = dataclasses.replace(
        R.CLASSIC, profile=tuple(float(v) for v in rng.integers(-40, 200, length)),
        feature_mask=7)
    _check_grid_out(make_terrain(rt, params), params, x0, y0, 203, 3, s, None, (1, 2))
