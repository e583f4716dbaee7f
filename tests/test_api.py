"""API shape: enums, named tuples, read-only parameters, threads, out=, chunking."""

import itertools

import numpy as np
import pytest
import reference as R
from helpers import assert_codes_exact, assert_f64_exact, bits, check_grid_against_reference

import relfterrain as rt


@pytest.fixture(scope="module")
def classic():
    return rt.Terrain()


# ---------------------------------------------------------------------------
# enums and named tuples
# ---------------------------------------------------------------------------

def test_terrain_type_enum():
    import enum
    assert issubclass(rt.TerrainType, enum.IntEnum)
    assert [(m.name, int(m)) for m in rt.TerrainType] == list(
        zip(R.TERRAIN_NAMES, range(len(R.TERRAIN_NAMES))))


def test_feature_enum():
    import enum
    assert issubclass(rt.Feature, enum.IntEnum)
    assert [(m.name, int(m)) for m in rt.Feature] == list(
        zip(R.FEATURE_NAMES, range(len(R.FEATURE_NAMES))))


def test_grid_named_tuple(classic):
    g = classic.grid(0, 0, 5, 3)
    assert isinstance(g, tuple)
    assert type(g).__name__ == "TerrainGrid"
    assert g._fields == ("x", "y", "height", "depth", "terrain", "feature")
    assert g.x.shape == (5,) and g.y.shape == (3,)
    assert g.x.dtype == np.float64 and g.y.dtype == np.float64
    for name in ("height", "depth"):
        assert getattr(g, name).shape == (3, 5)
        assert getattr(g, name).dtype == np.float64
    for name in ("terrain", "feature"):
        assert getattr(g, name).shape == (3, 5)
        assert getattr(g, name).dtype == np.uint8
    for arr in g:
        assert arr.flags.c_contiguous


def test_grid_axes_are_the_contract_expression(classic):
    for (x0, y0, nx, ny, step) in [(0.1, -0.7, 13, 11, 0.1), (-5.5, 3.25, 9, 7, 1.0 / 3.0),
                                    (1e6 + 0.1, -1e6 - 0.3, 17, 5, 0.3)]:
        g = classic.grid(x0, y0, nx, ny, step)
        assert_f64_exact(g.x, x0 + np.arange(nx) * step, "x")
        assert_f64_exact(g.y, y0 + np.arange(ny) * step, "y")


def test_sample_named_tuple(classic):
    s = classic.sample([1.0, 2.0], [3.0, 4.0])
    assert type(s).__name__ == "Sample"
    assert s._fields == ("height", "depth", "terrain", "feature")
    assert np.asarray(s.height).dtype == np.float64
    assert np.asarray(s.depth).dtype == np.float64
    assert np.asarray(s.terrain).dtype.kind in "ui"
    assert np.asarray(s.feature).dtype.kind in "ui"


def test_terra_named_tuple(classic):
    p = classic.terra(24011, 5879)
    assert type(p).__name__ == "Terra"
    assert p._fields == ("height", "terrain", "feature", "code", "depth")
    assert isinstance(p.height, float)
    assert isinstance(p.depth, float)
    assert isinstance(p.terrain, rt.TerrainType)
    assert isinstance(p.feature, rt.Feature)
    assert isinstance(p.code, str)
    assert p.feature == rt.Feature.X and p.code == "ND"


def test_height_scalar_types(classic):
    assert isinstance(classic.height(0, 0), float)
    assert classic.height(0, 0) == 385.0
    assert isinstance(classic.height(0.5, 1.5), float)
    h = classic.height(np.array(0.5), np.array(1.5))
    assert np.asarray(h).shape == ()


def test_repr_is_informative():
    r = repr(rt.Terrain())
    assert "Terrain" in r
    assert " object at 0x" not in r
    r2 = repr(rt.Terrain(lake_height=215.0))
    assert r2 != r
    assert "215" in r2


# ---------------------------------------------------------------------------
# read-only parameters
# ---------------------------------------------------------------------------

def test_classic_profile_is_read_only():
    with pytest.raises(ValueError):
        rt.CLASSIC_PROFILE[0] = 1.0
    assert rt.CLASSIC_PROFILE[0] == 77.0


def test_parameter_arrays_are_read_only(classic):
    with pytest.raises(ValueError):
        classic.profile[0] = 5.0
    for name in R.VECTOR_NAMES:
        arr = getattr(classic, name)
        assert arr.dtype == np.int64
        with pytest.raises(ValueError):
            arr[0] = 1
    assert classic.profile[0] == 77.0
    assert classic.height(0, 0) == 385.0


@pytest.mark.parametrize("name", ["lake_base", "feature_mask", "with_paths", "mountain_base",
                                  "snow_height", "wood_only", "bleak", "profile", "ah"])
def test_read_only_attributes(name):
    t = rt.Terrain()
    with pytest.raises(AttributeError):
        setattr(t, name, getattr(t, name))


def test_constructor_copies_inputs():
    prof = np.array(R.CLASSIC_PROFILE)
    ah = np.array(R.CLASSIC_VECTORS["ah"])
    t = rt.Terrain(profile=prof, ah=ah)
    before = t.height_grid(-3, 2, 10, 8, 0.5)
    prof[:] = 0.0
    ah[:] = 1
    assert np.array_equal(bits(t.height_grid(-3, 2, 10, 8, 0.5)), bits(before))
    assert t.profile[0] == 77.0
    assert tuple(t.ah.tolist()) == R.CLASSIC_VECTORS["ah"]


def test_constructor_accepts_lists_and_tuples():
    t = rt.Terrain(profile=list(R.CLASSIC_PROFILE), ah=list(R.CLASSIC_VECTORS["ah"]),
                   bh=tuple(R.CLASSIC_VECTORS["bh"]),
                   a1=np.array(R.CLASSIC_VECTORS["a1"], dtype=np.int32),
                   b1=np.array(R.CLASSIC_VECTORS["b1"], dtype=np.float64))
    u = rt.Terrain()
    assert np.array_equal(bits(t.grid(23396, 5318, 40, 30).height),
                          bits(u.grid(23396, 5318, 40, 30).height))


def test_sample_does_not_modify_inputs(classic):
    xs = np.array([1.5, -2.5, 24011.0])
    ys = np.array([0.5, 7.25, 5879.0])
    xc, yc = xs.copy(), ys.copy()
    classic.sample(xs, ys)
    classic.height(xs, ys)
    classic.tree_selector(np.array([1, 2]), np.array([3, 4]))
    assert np.array_equal(xs, xc) and np.array_equal(ys, yc)


def test_results_do_not_alias_between_calls(classic):
    a = classic.height_grid(0, 0, 6, 4)
    b = classic.height_grid(0, 0, 6, 4)
    assert a is not b
    a[:] = -1.0
    assert (classic.height_grid(0, 0, 6, 4) != -1.0).all()


# ---------------------------------------------------------------------------
# threads and out=
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("threads", [None, 1, 2, 3, 7])
def test_threads_identical_and_exact(classic, threads):
    check_grid_against_reference(rt, classic, R.CLASSIC, 23990, 5860, 40, 30, 1.0,
                                 threads=threads)


def test_threads_identical_large(classic):
    x0, y0, nx, ny = 23396, 5318, 401, 301
    base = classic.grid(x0, y0, nx, ny, 2.0, threads=1)
    for threads in (2, 3, 7, 64):
        g = classic.grid(x0, y0, nx, ny, 2.0, threads=threads)
        assert np.array_equal(bits(g.height), bits(base.height))
        assert np.array_equal(bits(g.depth), bits(base.depth))
        assert np.array_equal(g.terrain, base.terrain)
        assert np.array_equal(g.feature, base.feature)
        assert np.array_equal(bits(classic.height_grid(x0, y0, nx, ny, 2.0, threads=threads)),
                              bits(classic.height_grid(x0, y0, nx, ny, 2.0, threads=1)))
    X, Y = np.meshgrid(base.x, base.y)
    for threads in (1, 2, 3, 7):
        s = classic.sample(X, Y, threads=threads)
        assert np.array_equal(bits(s.height), bits(base.height))
        assert np.array_equal(np.asarray(s.terrain), base.terrain)
        assert np.array_equal(np.asarray(s.feature), base.feature)


def test_more_threads_than_rows(classic):
    g1 = classic.grid(10, 20, 50, 2, threads=1)
    g7 = classic.grid(10, 20, 50, 2, threads=7)
    assert np.array_equal(bits(g1.height), bits(g7.height))
    assert np.array_equal(g1.terrain, g7.terrain)


@pytest.mark.parametrize("threads", [None, 1, 3])
def test_out_height_grid(classic, threads):
    out = np.full((30, 40), np.nan)
    res = classic.height_grid(23990.5, 5860.5, 40, 30, 0.5, out=out, threads=threads)
    assert res is out
    assert_f64_exact(out, R.height_grid(R.CLASSIC, 23990.5, 5860.5, 40, 30, 0.5))


@pytest.mark.parametrize("method", ["terrain_grid", "feature_grid"])
def test_out_code_grids(classic, method):
    out = np.full((30, 40), 255, dtype=np.uint8)
    res = getattr(classic, method)(24090, 5360, 40, 30, out=out, threads=2)
    assert res is out
    expected = getattr(classic, method)(24090, 5360, 40, 30)
    assert_codes_exact(out, expected)
    ref = R.grid(R.CLASSIC, 24090, 5360, 40, 30)
    assert_codes_exact(out, ref[4] if method == "terrain_grid" else ref[5])


@pytest.mark.parametrize("as_tuple", [True, False])
def test_out_grid(classic, as_tuple):
    h = np.full((30, 40), np.nan)
    d = np.full((30, 40), np.nan)
    t = np.full((30, 40), 255, dtype=np.uint8)
    f = np.full((30, 40), 255, dtype=np.uint8)
    out = (h, d, t, f) if as_tuple else [h, d, t, f]
    g = classic.grid(23410, 5330, 40, 30, out=out, threads=3)
    assert g.height is h and g.depth is d and g.terrain is t and g.feature is f
    rx, ry, rh, rd, rtt, rf = R.grid(R.CLASSIC, 23410, 5330, 40, 30)
    assert_f64_exact(h, rh)
    assert_f64_exact(d, rd)
    assert_codes_exact(t, rtt)
    assert_codes_exact(f, rf)
    assert_f64_exact(g.x, rx)
    assert_f64_exact(g.y, ry)


def test_out_grid_accepts_a_terrain_grid(classic):
    first = classic.grid(0, 0, 8, 6)
    g = classic.grid(23410, 5330, 8, 6, out=first)
    assert g.height is first.height and g.terrain is first.terrain
    assert_f64_exact(first.height, R.grid(R.CLASSIC, 23410, 5330, 8, 6)[2])


# ---------------------------------------------------------------------------
# chunking: integer origins and steps give the same doubles whatever the split
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("x0, y0, step", [(23396, 5318, 1.0), (-130, -77, 2.0), (24000, 5500, 3.0)])
def test_chunked_grid_equals_whole(classic, x0, y0, step):
    nx, ny = 96, 70
    whole = classic.grid(x0, y0, nx, ny, step)
    h = np.empty((ny, nx))
    d = np.empty((ny, nx))
    t = np.empty((ny, nx), dtype=np.uint8)
    f = np.empty((ny, nx), dtype=np.uint8)
    hg = np.empty((ny, nx))
    xs = [0, 17, 40, 41, 96]
    ys = [0, 1, 33, 70]
    for r0, r1 in itertools.pairwise(ys):
        for c0, c1 in itertools.pairwise(xs):
            sub = classic.grid(x0 + c0 * step, y0 + r0 * step, c1 - c0, r1 - r0, step)
            h[r0:r1, c0:c1] = sub.height
            d[r0:r1, c0:c1] = sub.depth
            t[r0:r1, c0:c1] = sub.terrain
            f[r0:r1, c0:c1] = sub.feature
            hg[r0:r1, c0:c1] = classic.height_grid(x0 + c0 * step, y0 + r0 * step,
                                                   c1 - c0, r1 - r0, step)
    assert np.array_equal(bits(h), bits(whole.height))
    assert np.array_equal(bits(d), bits(whole.depth))
    assert np.array_equal(t, whole.terrain)
    assert np.array_equal(f, whole.feature)
    assert np.array_equal(bits(hg), bits(classic.height_grid(x0, y0, nx, ny, step)))


def test_single_point_grids_equal_terra(classic):
    for (x, y) in [(24011, 5879), (23920, 5348), (-2.5, 2.5), (0.5, -0.5)]:
        g = classic.grid(x, y, 1, 1)
        p = classic.terra(x, y)
        assert float(g.height[0, 0]).hex() == p.height.hex()
        assert float(g.depth[0, 0]).hex() == p.depth.hex()
        assert g.terrain[0, 0] == int(p.terrain)
        assert g.feature[0, 0] == int(p.feature)
        assert float(classic.height_grid(x, y, 1, 1)[0, 0]).hex() == classic.height(x, y).hex()


def test_one_row_and_one_column(classic):
    row = classic.grid(23396, 5318, 800, 1)
    col = classic.grid(23396, 5318, 1, 600)
    assert row.height.shape == (1, 800) and col.height.shape == (600, 1)
    full = classic.grid(23396, 5318, 800, 600)
    assert np.array_equal(bits(row.height[0]), bits(full.height[0]))
    assert np.array_equal(bits(col.height[:, 0]), bits(full.height[:, 0]))
    assert np.array_equal(col.terrain[:, 0], full.terrain[:, 0])


# ---------------------------------------------------------------------------
# beyond the domain of exactness (SPEC 10): defined, no crash
# ---------------------------------------------------------------------------

FAR = [2.0 ** 27, -(2.0 ** 27) - 0.5, 2.0 ** 31 + 0.5, 2.0 ** 40, -(2.0 ** 53), 2.0 ** 63,
       1e15 + 0.5, 1e20, -1e20, 1e300, -1e300]


def test_beyond_domain_is_defined_and_deterministic(classic):
    xs = np.array(FAR)
    ys = np.array(FAR[::-1])
    s1 = classic.sample(xs, ys, threads=1)
    s2 = classic.sample(xs, ys, threads=3)
    assert np.isfinite(np.asarray(s1.height)).all()
    assert (np.asarray(s1.depth) >= 0).all()
    assert (np.asarray(s1.terrain) < len(rt.TerrainType)).all()
    assert (np.asarray(s1.feature) < len(rt.Feature)).all()
    assert np.array_equal(bits(s1.height), bits(s2.height))
    assert np.array_equal(np.asarray(s1.terrain), np.asarray(s2.terrain))
    assert np.array_equal(np.asarray(s1.feature), np.asarray(s2.feature))
    for x, y in zip(xs, ys):
        p = classic.terra(x, y)
        assert p.height.hex() == float(np.asarray(s1.height)[list(xs).index(x)]).hex()
        classic.tree_selector(int(x), int(y))
    for x0 in (2.0 ** 40, -1e20, 1e300):
        g = classic.grid(x0, -x0, 7, 5, 3.5)
        assert np.isfinite(g.height).all()
        assert (g.terrain < len(rt.TerrainType)).all()
        h = classic.height_grid(x0, -x0, 7, 5, 3.5)
        assert np.isfinite(h).all()


def test_far_placed_keys_do_not_crash():
    t = rt.Terrain()
    for x, y in [(2 ** 40, -(2 ** 40)), (2 ** 62, 3)]:
        try:
            t.place(x, y, rt.TerrainType.ROAD)
        except (ValueError, OverflowError):
            continue
        assert t.at(x, y) is rt.TerrainType.ROAD
        assert t.terra(float(x), float(y)).terrain == rt.TerrainType.ROAD


def test_empty_sample(classic):
    s = classic.sample(np.zeros(0), np.zeros(0))
    assert np.asarray(s.height).shape == (0,)
    assert np.asarray(s.terrain).shape == (0,)
    h = classic.height(np.zeros((0, 3)), 1.0)
    assert np.asarray(h).shape == (0, 3)


def test_numpy_and_int_scalars(classic):
    for x, y in [(np.float64(24011.0), np.float64(5879.0)), (np.int64(24011), np.int32(5879)),
                 (24011, 5879), (np.float32(24011.0), 5879)]:
        p = classic.terra(x, y)
        assert p.feature == rt.Feature.X
        assert classic.height(x, y) == R.height(R.CLASSIC, 24011, 5879)


# -- blocks of a grid (offset=) ---------------------------------------------

@pytest.mark.parametrize("origin", [(23396.1, 5318.7), (23396, 5318)])  # point / tile paths
@pytest.mark.parametrize("step", [1.0, 0.3, 1 / 3, 0.25])
def test_blocks_by_offset_assemble_into_the_whole_grid(origin, step):
    t = rt.Terrain()
    (x0, y0), nx, ny = origin, 57, 41
    whole = t.grid(x0, y0, nx, ny, step)
    hgrid = t.height_grid(x0, y0, nx, ny, step)
    got = {name: np.empty_like(getattr(whole, name))
           for name in ("height", "depth", "terrain", "feature")}
    hs = np.empty_like(hgrid)
    xs, ys = np.empty(nx), np.empty(ny)
    for r0, r1 in ((0, 13), (13, 30), (30, ny)):
        for c0, c1 in ((0, 20), (20, 21), (21, nx)):
            b = t.grid(x0, y0, c1 - c0, r1 - r0, step, offset=(r0, c0))
            for name in got:
                got[name][r0:r1, c0:c1] = getattr(b, name)
            hs[r0:r1, c0:c1] = t.height_grid(x0, y0, c1 - c0, r1 - r0, step, offset=(r0, c0))
            assert np.array_equal(b.terrain, t.terrain_grid(x0, y0, c1 - c0, r1 - r0, step,
                                                            offset=(r0, c0)))
            assert np.array_equal(b.feature, t.feature_grid(x0, y0, c1 - c0, r1 - r0, step,
                                                            offset=(r0, c0)))
            xs[c0:c1], ys[r0:r1] = b.x, b.y
    for name in got:
        assert got[name].tobytes() == getattr(whole, name).tobytes(), name
    assert hs.tobytes() == hgrid.tobytes()
    assert xs.tobytes() == whole.x.tobytes() and ys.tobytes() == whole.y.tobytes()


@pytest.mark.parametrize("offset", [(-1, 0), (0, -5), (1,), "ab", (1.5, 0), None])
def test_bad_offset_is_named(offset):
    with pytest.raises((TypeError, ValueError), match="offset"):
        rt.Terrain().height_grid(0, 0, 4, 4, offset=offset)
