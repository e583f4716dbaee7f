"""Grids at coarse steps from whole-metre (or half-metre) origins: the tile
passes whose columns span more profile entries than a window holds (steps of
8 m and more at the classic model's directions; less at steeper ones). The
AVX-512 VBMI variant looks the profile up in registers there for the heights
(two lookups a term, in 16-bit lanes at whole-metre origins, in 32-bit ones
otherwise); the others, and VBMI's profile sums and grid heights, read
strided tables where the step allows (every L-th column's index steps by one
D: eight terms of a lane by one load) and gather elsewhere (AVX2 one packed
entry a term where the profile fits 16 bits, two otherwise); every variant
against the independent reference of SPEC.
"""

import numpy as np
import pytest
import reference as R
from helpers import bits, check_grids, make_terrain
from hypothesis import given, settings
from hypothesis import strategies as st

import relfterrain as rt

VARIANTS = rt.simd_variants()


def _check(params, x0, y0, nx, ny, step):
    check_grids(rt, make_terrain(rt, params), params, x0, y0, nx, ny, step)


coarse = st.one_of(st.sampled_from([8.0, 16.0, 32.0, 64.0, 1024.0, 2.0 ** 20]),
                   st.integers(3, 300).map(float))
whole = st.integers(-(2 ** 24), 2 ** 24).map(float)
half = st.integers(-(2 ** 24), 2 ** 24).map(lambda v: v / 2)


@settings(max_examples=30, deadline=None)
@given(st.one_of(whole, half), st.one_of(whole, half), coarse, st.integers(1, 200),
       st.integers(1, 3))
def test_classic_coarse_steps(x0, y0, step, nx, ny):
    _check(R.CLASSIC, x0, y0, nx, ny, step)


@st.composite
def integer_models(draw, lengths, top):
    """Integer profiles (entries 0..top, a length from `lengths`) and steep
    directions: the lookups' whole range, indices wrapping."""
    n = draw(st.sampled_from(lengths))
    prof = tuple(float(v) for v in draw(st.lists(st.integers(0, top), min_size=n, max_size=n)))
    vec = st.lists(st.integers(-64, 64), min_size=5, max_size=5).map(tuple)
    return R.Params(profile=prof, ah=draw(vec), bh=draw(vec), a1=draw(vec), b1=draw(vec),
                    a2=draw(vec), b2=draw(vec), a3=draw(vec), b3=draw(vec))


#: byte profiles: VBMI's in-register lookups, AVX2's packed gathers
byte_models = integer_models([32, 64, 128, 256], 255)
#: entries beyond 16 bits: no packed windows, so AVX2's coarse tiles gather
#: p0 and p1 one by one
wide_models = integer_models([32, 256], 100000)


@settings(max_examples=30, deadline=None)
@given(byte_models, st.one_of(whole, half), st.one_of(whole, half), coarse,
       st.integers(60, 140), st.integers(1, 2))
def test_byte_models_coarse_steps(params, x0, y0, step, nx, ny):
    _check(params, x0, y0, nx, ny, step)


@settings(max_examples=15, deadline=None)
@given(wide_models, st.one_of(whole, half), st.one_of(whole, half), coarse,
       st.integers(60, 140), st.integers(1, 2))
def test_wide_integer_models_coarse_steps(params, x0, y0, step, nx, ny):
    _check(params, x0, y0, nx, ny, step)


def test_coarse_step_rows_as_the_scalar_variant():
    # wide rows (many 64-column blocks, and a tail) and a grid past one thread's
    # rows, at the steps of zoomed-out tiles
    scalar = rt.Terrain(simd="scalar")
    for step in (8.0, 16.0, 64.0):
        want_h = scalar.height_grid(20488, 4104, 1000, 70, step)
        want = scalar.grid(20488, 4104, 1000, 70, step)
        for v in VARIANTS:
            t = rt.Terrain(simd=v)
            assert np.array_equal(bits(t.height_grid(20488, 4104, 1000, 70, step, threads=2)),
                                  bits(want_h)), (v, step)
            g = t.grid(20488, 4104, 1000, 70, step, threads=2)
            for name in ("height", "depth", "terrain", "feature"):
                assert np.array_equal(getattr(g, name), getattr(want, name)), (v, step, name)


def _out_at(shape, offset):
    """A float64 array of `shape` starting `offset` bytes past a 64-byte line."""
    n = shape[0] * shape[1]
    raw = np.full(n * 8 + 128, 0xFF, np.uint8)
    start = (-raw.ctypes.data) % 64 + offset
    return raw[start:start + n * 8].view(np.float64).reshape(shape)


@pytest.mark.parametrize("step", [8.0, 16.0])
def test_coarse_step_heights_stream_into_large_outputs(step):
    # past 64 MiB the heights go out by streaming stores where they write
    # whole lines: fresh outputs (on a line), and at step 16 (the strided
    # tables' L = 8: one piece after another) outputs 16 or 32 bytes past a
    # line too; at step 8 (L = 16: pieces 16 columns apart) plain stores off
    # a line. Every case gives the same bits.
    scalar = rt.Terrain(simd="scalar")
    nx, ny = 2900, 2900
    want = scalar.height_grid(20488, 4104, nx, ny, step, threads=2)
    for v in VARIANTS:
        t = rt.Terrain(simd=v)
        assert np.array_equal(bits(t.height_grid(20488, 4104, nx, ny, step, threads=2)),
                              bits(want)), v
        for offset in (0, 16, 32, 48):
            out = _out_at((ny, nx), offset)
            t.height_grid(20488, 4104, nx, ny, step, out=out, threads=2)
            assert np.array_equal(bits(out), bits(want)), (v, offset)


# The strided tables (AVX2's coarse tiles, terrain_avx2.h): lanes of L = 8,
# 16, 32 or 64 columns (L * dv a multiple of 2^s), tables of T + 64 entries a
# coset of the index step; tiles of 8 * L columns and more, the rest of a
# tile by gathers, the tables kept from row to row and pair to pair, for
# blocks of 16384 points and more (tile_cache_new: smaller ones gather, as
# the tests above check). Rows wide enough for every L, rows enough for
# those blocks, steps whose index steps D have few and many factors of two
# (cosets), whole and half-metre origins (s = 7 and 8).
STRIDED_POINTS = 16384


def _rows(nx):
    """rows enough for the strided tables' blocks"""
    return -(-STRIDED_POINTS // nx) + 1
strided_steps = st.one_of(st.sampled_from([4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 48.0, 64.0, 96.0,
                                           128.0, 256.0, 384.0]),
                          st.integers(3, 300).map(float))


@settings(max_examples=15, deadline=None)  # grids of 16384 points: CI's ASan run
@given(byte_models, st.one_of(whole, half), st.one_of(whole, half), strided_steps,
       st.integers(64, 1100), st.integers(0, 2))
def test_strided_tables_as_the_reference(params, x0, y0, step, nx, more):
    _check(params, x0, y0, nx, _rows(nx) + more, step)


def test_strided_tables_every_lane_count():
    # the classic model: step 16 takes 8 lanes for every pair, 8 takes 16 for
    # the heights, 4 takes 32 for the profile sums; a random steep model at
    # step 6 takes 64 (6 * A * 32 is not a multiple of 128 for odd A); each
    # with a tail past the last block of 8 * L columns and rows that reuse
    # the tables
    steep = R.Params(profile=R.CLASSIC.profile, ah=(0, 23, -41, 37, 64), bh=(27, 26, 21, 11, 1),
                     a1=(-43, 45, -57, 31, 25), b1=R.CLASSIC.b1, a2=(-23, 29, 61, 33, -35),
                     b2=R.CLASSIC.b2, a3=(-51, -63, 59, -27, 33), b3=R.CLASSIC.b3)
    for params, step, nx in ((R.CLASSIC, 16.0, 64 * 3 + 17), (R.CLASSIC, 8.0, 128 * 2 + 9),
                             (R.CLASSIC, 4.0, 256 + 40), (steep, 6.0, 512 + 24),
                             (R.CLASSIC, 256.0, 130), (steep, 64.0, 600)):
        for x0, y0 in ((23396.0, 5318.0), (-20481.5, 4097.5)):
            _check(params, x0, y0, nx, _rows(nx), step)
