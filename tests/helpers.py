"""Helpers shared by the tests that compare relfterrain with tests/reference.py."""

import numpy as np
import reference as R


def bits(a):
    """float64 bit patterns of a (so -0.0 != 0.0 and NaNs compare by payload)."""
    return np.ascontiguousarray(np.asarray(a, dtype=np.float64)).view(np.uint64)


def assert_f64_exact(actual, expected, what=""):
    actual = np.asarray(actual)
    expected = np.asarray(expected, dtype=np.float64)
    assert actual.dtype == np.float64, f"{what}: dtype {actual.dtype}"
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    if not np.array_equal(bits(actual), bits(expected)):
        diff = np.argwhere(bits(actual) != bits(expected))
        i = tuple(diff[0])
        raise AssertionError(
            f"{what}: {len(diff)} values differ, first at {i}: "
            f"{float(actual[i])!r} != {float(expected[i])!r}")


def assert_codes_exact(actual, expected, what=""):
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    assert actual.dtype == np.uint8, f"{what}: dtype {actual.dtype}"
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    if not np.array_equal(actual, expected):
        diff = np.argwhere(actual != expected)
        i = tuple(diff[0])
        raise AssertionError(
            f"{what}: {len(diff)} codes differ, first at {i}: "
            f"{int(actual[i])} != {int(expected[i])}")


def same_float(a, b):
    return float(a).hex() == float(b).hex()


def make_terrain(rt, params):
    """relfterrain.Terrain with the same model as the reference Params."""
    kw = params.terrain_kwargs()
    kw["profile"] = np.array(kw["profile"], dtype=np.float64)
    return rt.Terrain(**kw)


def ref_placed(rt, mapping):
    """Translate {(x, y): TerrainType | Feature} into the reference's placed dict."""
    out = {}
    for (x, y), what in dict(mapping).items():
        if isinstance(what, rt.TerrainType):
            out[(int(x), int(y))] = ("T", int(what))
        elif isinstance(what, rt.Feature):
            out[(int(x), int(y))] = ("F", int(what))
        else:  # pragma: no cover - a broken placed view
            raise TypeError(f"placed value {what!r} is neither TerrainType nor Feature")
    return out


def check_grid_against_reference(rt, t, params, x0, y0, nx, ny, step, placed=None,
                                 threads=None):
    """Compare every grid method of t with the reference on one window.

    Returns the reference grid tuple so callers can assert on its content."""
    ref = R.grid(params, x0, y0, nx, ny, step, placed)
    rx, ry, rh, rd, rtt, rf = ref

    g = t.grid(x0, y0, nx, ny, step, threads=threads)
    assert_f64_exact(g.x, rx, "grid.x")
    assert_f64_exact(g.y, ry, "grid.y")
    assert_f64_exact(g.height, rh, "grid.height")
    assert_f64_exact(g.depth, rd, "grid.depth")
    assert_codes_exact(g.terrain, rtt, "grid.terrain")
    assert_codes_exact(g.feature, rf, "grid.feature")

    assert_codes_exact(t.terrain_grid(x0, y0, nx, ny, step, threads=threads), rtt,
                       "terrain_grid")
    assert_codes_exact(t.feature_grid(x0, y0, nx, ny, step, threads=threads), rf,
                       "feature_grid")
    assert_f64_exact(t.height_grid(x0, y0, nx, ny, step, threads=threads),
                     R.height_grid(params, x0, y0, nx, ny, step), "height_grid")

    # sample at the same points (given as a 2-D mesh of doubles)
    X, Y = np.meshgrid(rx, ry)
    s = t.sample(X, Y, threads=threads)
    assert_f64_exact(s.height, rh, "sample.height")
    assert_f64_exact(s.depth, rd, "sample.depth")
    assert np.array_equal(np.asarray(s.terrain), rtt), "sample.terrain"
    assert np.array_equal(np.asarray(s.feature), rf), "sample.feature"
    return ref


def check_terra_point(rt, t, params, x, y, placed=None):
    eh, et, ef, ec, ed = R.terra(params, x, y, placed)
    p = t.terra(x, y)
    assert same_float(p.height, eh), (x, y, p.height, eh)
    assert isinstance(p.terrain, rt.TerrainType), type(p.terrain)
    assert isinstance(p.feature, rt.Feature), type(p.feature)
    assert int(p.terrain) == et, (x, y, p.terrain, et)
    assert int(p.feature) == ef, (x, y, p.feature, ef)
    assert p.code == ec, (x, y, p.code, ec)
    assert same_float(p.depth, ed), (x, y, p.depth, ed)
    return p


def array_snapshots(obj, found=None):
    """``(array, copy)`` for every NumPy array in nested lists, tuples and
    dicts: the bad-input suites check that a refused call modified none."""
    found = [] if found is None else found
    if isinstance(obj, np.ndarray):
        found.append((obj, obj.copy()))
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            array_snapshots(v, found)
    elif isinstance(obj, dict):
        for v in obj.values():
            array_snapshots(v, found)
    return found



def check_grids(rt, t, params, x0, y0, nx, ny, s):
    """height_grid and grid of Terrain t (the model params) on every SIMD
    variant, one and two threads, bit for bit against the reference."""
    _, _, rh, rd, rtt, rf = R.grid(params, x0, y0, nx, ny, s)
    rhg = R.height_grid(params, x0, y0, nx, ny, s)
    for v in rt.simd_variants():
        t.simd = v
        for threads in (1, 2):
            h = t.height_grid(x0, y0, nx, ny, s, threads=threads)
            assert np.array_equal(bits(h), bits(rhg)), (v, threads)
            g = t.grid(x0, y0, nx, ny, s, threads=threads)
            assert np.array_equal(bits(g.height), bits(rh)), (v, threads)
            assert np.array_equal(bits(g.depth), bits(rd)), (v, threads)
            assert np.array_equal(g.terrain, rtt), (v, threads)
            assert np.array_equal(g.feature, rf), (v, threads)
