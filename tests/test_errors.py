"""Bad input gives a clear exception naming the argument, never a crash."""

import math

import numpy as np
import pytest
import reference as R

import relfterrain as rt

VEC = r"\b(ah|bh|a1|b1|a2|b2|a3|b3)\b"


@pytest.fixture(scope="module")
def classic():
    return rt.Terrain()


# ---------------------------------------------------------------------------
# constructor
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("n", [0, 3, 100, 255, 257, 1000])
def test_profile_length_not_power_of_two(n):
    with pytest.raises(ValueError, match="profile"):
        rt.Terrain(profile=np.full(n, 50.0))


def test_profile_empty_list():
    with pytest.raises(ValueError, match="profile"):
        rt.Terrain(profile=[])


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_profile_non_finite(bad):
    prof = np.array(R.CLASSIC_PROFILE)
    prof[17] = bad
    with pytest.raises(ValueError, match="profile"):
        rt.Terrain(profile=prof)


def test_profile_too_long():
    with pytest.raises((ValueError, MemoryError), match="profile"):
        rt.Terrain(profile=np.zeros(2 ** 25))


def test_profile_two_dimensional():
    with pytest.raises(ValueError, match="profile"):
        rt.Terrain(profile=np.zeros((16, 16)))


def test_profile_not_numeric():
    with pytest.raises((ValueError, TypeError), match="profile"):
        rt.Terrain(profile=["a"] * 4)


@pytest.mark.parametrize("name", R.VECTOR_NAMES)
def test_vector_unequal_length(name):
    with pytest.raises(ValueError, match=VEC):
        rt.Terrain(**{name: (1, 2, 3)})


def test_vectors_all_empty():
    with pytest.raises(ValueError, match=VEC):
        rt.Terrain(**dict.fromkeys(R.VECTOR_NAMES, ()))


@pytest.mark.parametrize("name", R.VECTOR_NAMES)
def test_vector_non_integer(name):
    vec = list(R.CLASSIC_VECTORS[name])
    vec[2] = vec[2] + 0.5
    with pytest.raises(ValueError, match=name):
        rt.Terrain(**{name: vec})


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_vector_non_finite(bad):
    vec = [0.0, 13.0, bad, 22.0, 29.0]
    with pytest.raises(ValueError, match="ah"):
        rt.Terrain(ah=vec)


@pytest.mark.parametrize("bad", [2 ** 20 + 1, -(2 ** 20) - 1, 2 ** 40])
def test_vector_too_large(bad):
    with pytest.raises(ValueError, match="b2"):
        rt.Terrain(b2=(bad, 1, 1, 1, 1))


def test_vector_too_long():
    n = 65
    with pytest.raises(ValueError, match=VEC):
        rt.Terrain(**{name: [1] * n for name in R.VECTOR_NAMES})


def test_vector_two_dimensional():
    with pytest.raises(ValueError, match="a1"):
        rt.Terrain(a1=[[1, 2, 3, 4, 5]])


def test_vector_bounds_are_inclusive():
    # |v| <= 2**20 and N <= 64 are allowed
    t = rt.Terrain(b2=(2 ** 20, -(2 ** 20), 1, 1, 1))
    assert t.b2[0] == 2 ** 20
    t = rt.Terrain(**{name: [1] * 64 for name in R.VECTOR_NAMES})
    assert t.ah.shape == (64,)


@pytest.mark.parametrize("kw", ["lake_base", "lake_height", "mountain_base", "snow_height"])
@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_non_finite_levels(kw, bad):
    with pytest.raises(ValueError, match=kw):
        rt.Terrain(**{kw: bad})


def test_set_lake_height_non_finite():
    t = rt.Terrain()
    with pytest.raises(ValueError, match="lake_height"):
        t.lake_height = math.nan
    assert t.lake_height == 204.0


def test_keyword_only_and_unknown():
    with pytest.raises(TypeError):
        rt.Terrain(R.CLASSIC_PROFILE)
    with pytest.raises(TypeError):
        rt.Terrain(colour="green")


# ---------------------------------------------------------------------------
# coordinates, steps and sizes
# ---------------------------------------------------------------------------

GRID_METHODS = ["height_grid", "terrain_grid", "feature_grid", "grid"]


@pytest.mark.parametrize("method", GRID_METHODS)
@pytest.mark.parametrize("arg, index", [("x0", 0), ("y0", 1), ("step", 4)])
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_grid_non_finite(classic, method, arg, index, bad):
    args = [0.0, 0.0, 4, 3, 1.0]
    args[index] = bad
    with pytest.raises(ValueError, match=arg):
        getattr(classic, method)(*args)


@pytest.mark.parametrize("method", GRID_METHODS)
@pytest.mark.parametrize("step", [0.0, -0.0, -1.0, -1e-300])
def test_grid_step_not_positive(classic, method, step):
    with pytest.raises(ValueError, match="step"):
        getattr(classic, method)(0.0, 0.0, 4, 3, step)


@pytest.mark.parametrize("method", GRID_METHODS)
@pytest.mark.parametrize("arg, index", [("nx", 2), ("ny", 3)])
@pytest.mark.parametrize("bad", [0, -1, -(2 ** 40)])
def test_grid_size_not_positive(classic, method, arg, index, bad):
    args = [0.0, 0.0, 4, 3, 1.0]
    args[index] = bad
    with pytest.raises(ValueError, match=arg):
        getattr(classic, method)(*args)


@pytest.mark.parametrize("method", GRID_METHODS)
@pytest.mark.parametrize("nx, ny", [(2 ** 40, 2 ** 40), (2 ** 62, 4), (4, 2 ** 62),
                                    (2 ** 31, 2 ** 31),
                                    (2 ** 33, 2 ** 32)])
def test_grid_absurdly_large(classic, method, nx, ny):
    with pytest.raises((MemoryError, ValueError)):
        getattr(classic, method)(0.0, 0.0, nx, ny, 1.0)


@pytest.mark.parametrize("method", GRID_METHODS)
def test_grid_size_not_integer(classic, method):
    with pytest.raises((TypeError, ValueError)):
        getattr(classic, method)(0.0, 0.0, 4.5, 3, 1.0)


@pytest.mark.parametrize("method", GRID_METHODS)
def test_grid_size_beyond_int64(classic, method):
    with pytest.raises((OverflowError, ValueError, MemoryError)):
        getattr(classic, method)(0.0, 0.0, 2 ** 70, 3, 1.0)


@pytest.mark.parametrize("method", ["height", "sample", "terra"])
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_point_non_finite_x(classic, method, bad):
    with pytest.raises(ValueError, match=r"\bx\b"):
        getattr(classic, method)(bad, 0.0)


@pytest.mark.parametrize("method", ["height", "sample", "terra"])
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_point_non_finite_y(classic, method, bad):
    with pytest.raises(ValueError, match=r"\by\b"):
        getattr(classic, method)(0.0, bad)


@pytest.mark.parametrize("method", ["height", "sample"])
def test_point_non_finite_inside_array(classic, method):
    xs = np.array([0.0, 1.0, np.nan, 3.0])
    with pytest.raises(ValueError, match=r"\bx\b"):
        getattr(classic, method)(xs, np.zeros(4))
    ys = np.array([[0.0], [np.inf]])
    with pytest.raises(ValueError, match=r"\by\b"):
        getattr(classic, method)(np.zeros(3), ys)


@pytest.mark.parametrize("method", ["height", "sample"])
def test_point_shapes_not_broadcastable(classic, method):
    with pytest.raises(ValueError):
        getattr(classic, method)(np.zeros(3), np.zeros(4))


# ---------------------------------------------------------------------------
# out=
# ---------------------------------------------------------------------------

def _sentinel(shape, dtype):
    if np.dtype(dtype).kind == "f":
        return np.full(shape, -12345.5, dtype=dtype)
    return np.full(shape, 201, dtype=dtype)


def _readonly(a):
    a.setflags(write=False)
    return a


def _wrong_dtype(dt):
    return np.float32 if np.dtype(dt) == np.float64 else np.int64


@pytest.mark.parametrize("method, dtype", [("height_grid", np.float64),
                                           ("terrain_grid", np.uint8),
                                           ("feature_grid", np.uint8)])
@pytest.mark.parametrize("kind", ["wrong-shape", "flat", "3-d", "read-only", "non-contiguous",
                                  "wrong-dtype", "not-an-array"])
def test_out_rejected(classic, method, dtype, kind):
    # nx=3, ny=4 -> expected shape (4, 3): every bad out below differs
    if kind == "wrong-dtype":
        out = _sentinel((4, 3), _wrong_dtype(dtype))
    elif kind == "not-an-array":
        out = [[0] * 3] * 4
    elif kind == "wrong-shape":
        out = _sentinel((3, 4), dtype)
    elif kind == "flat":
        out = _sentinel((12,), dtype)
    elif kind == "3-d":
        out = _sentinel((1, 4, 3), dtype)
    elif kind == "read-only":
        out = _readonly(_sentinel((4, 3), dtype))
    else:
        out = _sentinel((4, 6), dtype)[:, ::2]
    before = np.array(out, copy=True)
    with pytest.raises((ValueError, TypeError), match="out"):
        getattr(classic, method)(23396, 5318, 3, 4, out=out)
    assert np.array_equal(np.asarray(out), before)


@pytest.mark.parametrize("method, dtype", [("height_grid", np.float64),
                                           ("terrain_grid", np.uint8)])
def test_out_fortran_order_rejected(classic, method, dtype):
    out = np.asfortranarray(_sentinel((4, 3), dtype))
    assert not out.flags.c_contiguous
    before = out.copy()
    with pytest.raises((ValueError, TypeError), match="out"):
        getattr(classic, method)(23396, 5318, 3, 4, out=out)
    assert np.array_equal(out, before)


@pytest.mark.parametrize("bad_index", [0, 1, 2, 3])
@pytest.mark.parametrize("kind", ["shape", "dtype", "read-only", "non-contiguous"])
def test_grid_out_rejected_and_untouched(classic, bad_index, kind):
    dtypes = [np.float64, np.float64, np.uint8, np.uint8]
    outs = [_sentinel((4, 3), dt) for dt in dtypes]
    dt = dtypes[bad_index]
    if kind == "shape":
        outs[bad_index] = _sentinel((3, 4), dt)
    elif kind == "dtype":
        outs[bad_index] = _sentinel((4, 3), _wrong_dtype(dt))
    elif kind == "read-only":
        outs[bad_index] = _readonly(_sentinel((4, 3), dt))
    else:
        outs[bad_index] = _sentinel((4, 6), dt)[:, ::2]
    before = [o.copy() for o in outs]
    with pytest.raises((ValueError, TypeError), match="out"):
        classic.grid(23396, 5318, 3, 4, out=tuple(outs))
    for o, b in zip(outs, before):
        assert np.array_equal(o, b)       # never half-written


@pytest.mark.parametrize("outs", [(), "abc", 5])
def test_grid_out_wrong_container(classic, outs):
    with pytest.raises((ValueError, TypeError), match="out"):
        classic.grid(0, 0, 3, 4, out=outs)


def test_grid_out_wrong_length(classic):
    h = _sentinel((4, 3), np.float64)
    d = _sentinel((4, 3), np.float64)
    t = _sentinel((4, 3), np.uint8)
    with pytest.raises((ValueError, TypeError), match="out"):
        classic.grid(0, 0, 3, 4, out=(h, d, t))
    assert (h == -12345.5).all() and (d == -12345.5).all() and (t == 201).all()


@pytest.mark.parametrize("method, dtype", [("height_grid", np.float64),
                                           ("terrain_grid", np.uint8),
                                           ("feature_grid", np.uint8)])
def test_out_untouched_when_other_argument_bad(classic, method, dtype):
    out = _sentinel((4, 3), dtype)
    with pytest.raises(ValueError, match="step"):
        getattr(classic, method)(0.0, 0.0, 3, 4, math.nan, out=out)
    with pytest.raises(ValueError, match="x0"):
        getattr(classic, method)(math.inf, 0.0, 3, 4, 1.0, out=out)
    assert np.array_equal(out, _sentinel((4, 3), dtype))


def test_grid_out_untouched_when_other_argument_bad(classic):
    outs = (_sentinel((4, 3), np.float64), _sentinel((4, 3), np.float64),
            _sentinel((4, 3), np.uint8), _sentinel((4, 3), np.uint8))
    with pytest.raises(ValueError, match="y0"):
        classic.grid(0.0, math.nan, 3, 4, 1.0, out=outs)
    assert (outs[0] == -12345.5).all() and (outs[2] == 201).all()
    assert (outs[1] == -12345.5).all() and (outs[3] == 201).all()


# ---------------------------------------------------------------------------
# placed table values
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("what", [6, 0, "ROAD", None, 1.5, object()])
def test_place_rejects_non_enum(what):
    t = rt.Terrain()
    with pytest.raises(TypeError, match="what"):
        t.place(3, 4, what)
    assert len(t.placed) == 0
    assert t.at(3, 4) is None


@pytest.mark.parametrize("what", [6, "ROAD", None])
def test_remove_all_rejects_non_enum(what):
    t = rt.Terrain()
    t.place(1, 1, rt.TerrainType.ROAD)
    with pytest.raises(TypeError, match="what"):
        t.remove_all(what)
    assert len(t.placed) == 1


def test_threads_rejects_bad_values(classic):
    for bad in (-1, 1.5, "2"):
        with pytest.raises((ValueError, TypeError), match="threads"):
            classic.height_grid(0, 0, 3, 4, threads=bad)
