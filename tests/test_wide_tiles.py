"""The step-1 (and fine dyadic) tiles of the AVX-512 VBMI variant on random
byte models, every variant against the independent reference of SPEC.

There the profile sums take 64-byte rotated windows (one vpermb for 64
columns, at shifts s <= 10, every moving |dv| <= 2^s: 64 columns span at
most the 64 entries of a window), the heights 16-lane packed windows, and
classify takes 64 columns a step from the sums' own 16-bit layout; the
columns past the last 64 go to the AVX2 kernels. The models here draw
direction counts from 1 to 8 (the kernels take six at a time in
registers: one group, or two), coefficients up to |a| = 2^7 (the
windows' edge at step 1) and lakes, at steps whose shifts are 7 to 11
(1 to 1/16 m), on rows of 64 to 300 columns (tails of every size).
"""

import reference as R
from helpers import check_grids, make_terrain
from hypothesis import given, settings
from hypothesis import strategies as st

import relfterrain as rt


@st.composite
def byte_models(draw):
    n = draw(st.sampled_from([16, 64, 128, 256]))
    prof = tuple(float(v) for v in draw(st.lists(st.integers(0, 255), min_size=n, max_size=n)))
    nd = draw(st.one_of(st.integers(1, 6), st.integers(7, 8)))  # half past the registers
    coef = st.one_of(st.integers(-64, 64), st.sampled_from([-128, 128, -127, 127]))
    vec = st.lists(coef, min_size=nd, max_size=nd).map(tuple)
    top = 255.0 * nd
    lake_base = draw(st.integers(0, int(top)).map(float))
    lake_height = draw(st.integers(0, int(top)).map(lambda v: v + 0.25))
    # the vegetation and town thresholds where the sums of nd random bytes
    # mostly lie (so that a wrong term changes a class), now and then
    # outside them (the 16-bit classify clamps them to its offsets)
    mid, spread = 127.5 * nd, 80.0 * nd ** 0.5
    near = st.integers(int(mid - spread), int(mid + spread))
    veg = {k: draw(st.one_of(near, near, near, st.integers(-10, int(top) + 10)).map(lambda v: v + 0.5))
           for k in ("town_below", "grass_below", "open_below", "thicket_below")}
    return R.Params(profile=prof, lake_base=lake_base, lake_height=lake_height, **veg,
                    feature_mask=draw(st.sampled_from([0xFFF, 0xFF, 0x1F])),
                    ah=draw(vec), bh=draw(vec), a1=draw(vec), b1=draw(vec),
                    a2=draw(vec), b2=draw(vec), a3=draw(vec), b3=draw(vec))


whole = st.integers(-(2 ** 20), 2 ** 20).map(float)
quarter = st.integers(-(2 ** 22), 2 ** 22).map(lambda v: v / 4)
fine = st.sampled_from([1.0, 1.0, 0.5, 0.25, 0.125, 0.0625])


@settings(max_examples=40, deadline=None)
@given(byte_models(), st.one_of(whole, quarter), st.one_of(whole, quarter), fine,
       st.integers(64, 300), st.integers(1, 2))
def test_byte_models_fine_steps(params, x0, y0, step, nx, ny):
    check_grids(rt, make_terrain(rt, params), params, x0, y0, nx, ny, step)


def test_classic_wide_rows():
    # the classic model on rows of several tiles (2048 columns) and tails
    for nx in (64, 127, 2111):
        check_grids(rt, make_terrain(rt, R.CLASSIC), R.CLASSIC, 23396.0, 5318.0, nx, 2, 1.0)
