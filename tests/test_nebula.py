"""Nebulae (SPEC 14) against the transcription in space_reference."""

import numpy as np
import pytest
import reference as R
import space_reference as S
from helpers import assert_f64_exact
from hypothesis import given
from hypothesis import strategies as st

import relfterrain as rt

A, B, C = R.CLASSIC_VECTORS["ah"], R.CLASSIC_VECTORS["bh"], (11, -21, 25, -14, 19)
PROF = R.CLASSIC_PROFILE


def _ref_block(x0, y0, z0, nx, ny, nz, step, prof=PROF, a=A, b=B, c=C):
    return np.array([[[S.density(prof, a, b, c, x0 + i * step, y0 + j * step, z0 + k * step)
                       for i in range(nx)] for j in range(ny)] for k in range(nz)])


def _ref_amount(d, threshold):
    total = 0.0
    for k in range(d.shape[0]):
        for r in range(d.shape[1]):
            row = 0.0
            for v in d[k, r].tolist():
                if v > threshold:
                    row += v - threshold
            total += row
    return total


# integer blocks (the int64 path), fractional steps and origins (the double path),
# the domain's edge and beyond it
BLOCKS = [(0, 0, 0, 9, 7, 5, 1.0), (-40, 17, -3, 11, 6, 4, 3.0), (0.5, -2.25, 7, 8, 5, 3, 0.25),
          (2**26 - 8, -(2**26), 2**26 - 3, 8, 4, 3, 1.0), (2**27, 5, -(2**28), 6, 3, 2, 1.0)]


@pytest.mark.parametrize("block", BLOCKS)
def test_grid_exact(block):
    nb = rt.Nebula(300.0)
    ref = _ref_block(*block)
    for threads in (1, 2, 3):
        assert_f64_exact(nb.grid(*block, threads=threads), ref, "density")
    g32 = nb.grid(*block, dtype=np.float32)
    assert g32.dtype == np.float32 and np.array_equal(g32, ref.astype(np.float32))
    assert np.array_equal(nb.gas(*block), ref > 300.0)
    assert nb.amount(*block) == _ref_amount(ref, 300.0)
    x0, y0, z0, nx, ny, nz, step = block
    pts = nb.density(x0 + np.arange(nx) * step, y0, z0)
    assert_f64_exact(pts, ref[0, 0], "points")


def test_other_profile_and_vectors():
    prof = [float((k * 37) % 91) / 8 - 3 for k in range(64)]
    a, b, c = (3, -7), (5, 2), (-1, 9)
    nb = rt.Nebula(2.0, profile=prof, a=a, b=b, c=c)
    ref = _ref_block(-5, 3, 1, 7, 5, 4, 1.0, tuple(prof), a, b, c)
    assert_f64_exact(nb.grid(-5, 3, 1, 7, 5, 4), ref, "density")
    assert nb.amount(-5, 3, 1, 7, 5, 4) == _ref_amount(ref, 2.0)


@given(st.floats(-1e7, 1e7), st.floats(-1e7, 1e7), st.floats(-1e7, 1e7))
def test_property_points(x, y, z):
    assert rt.Nebula(0.0).density(x, y, z) == S.density(PROF, A, B, C, x, y, z)


def test_threads_and_out():
    nb = rt.Nebula(400.0)
    a = nb.grid(100, -50, 20, 64, 48, 40, threads=1)
    for t in (2, 5):
        assert np.array_equal(nb.grid(100, -50, 20, 64, 48, 40, threads=t), a)
        assert nb.amount(100, -50, 20, 64, 48, 40, threads=t) == nb.amount(
            100, -50, 20, 64, 48, 40, threads=1)
    out = np.empty((40, 48, 64), dtype=np.float32)
    assert nb.grid(100, -50, 20, 64, 48, 40, out=out) is out
    assert np.array_equal(out, a.astype(np.float32))
    gas = np.empty((40, 48, 64), dtype=bool)
    assert nb.gas(100, -50, 20, 64, 48, 40, out=gas) is gas


def test_bad_input():
    with pytest.raises(ValueError, match="threshold"):
        rt.Nebula(float("nan"))
    with pytest.raises(TypeError, match="threshold"):
        rt.Nebula("high")
    nb = rt.Nebula(1.0)
    with pytest.raises(ValueError, match="nx, ny, nz"):
        nb.grid(0, 0, 0, 2**14, 2**14, 2**14)
    with pytest.raises(ValueError, match="nz"):
        nb.grid(0, 0, 0, 2, 2, 0)
    with pytest.raises(ValueError, match="step"):
        nb.gas(0, 0, 0, 2, 2, 2, step=-1)
    with pytest.raises(ValueError, match="z"):
        nb.density(0, 0, float("inf"))
    with pytest.raises(TypeError, match="dtype"):
        nb.grid(0, 0, 0, 2, 2, 2, dtype=np.int32)
    with pytest.raises(ValueError, match="a, b, c"):
        rt.Nebula(1.0, c=(1, 2))
    with pytest.raises(ValueError, match="out"):
        nb.grid(0, 0, 0, 2, 2, 2, out=np.empty((2, 2, 3)))
