"""Property tests (hypothesis): library == reference, and invariants."""

import numpy as np
import reference as R
from helpers import bits, check_terra_point, make_terrain, ref_placed, same_float
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import relfterrain as rt

L = 2 ** 26
CLASSIC_T = rt.Terrain()

# ---------------------------------------------------------------------------
# strategies
# ---------------------------------------------------------------------------

arbitrary = st.floats(min_value=-L, max_value=L, allow_nan=False, allow_infinity=False)
dyadic = st.builds(lambda n, k: n / 2.0 ** k, st.integers(-L * 4, L * 4), st.integers(0, 2))
dyadic = dyadic.filter(lambda v: -L <= v <= L)
half_integer = st.integers(-L, L - 1).map(lambda n: n + 0.5)
near_classic = st.floats(min_value=-2000.0, max_value=30000.0, allow_nan=False)
small = st.floats(min_value=-300.0, max_value=300.0, allow_nan=False)
coord = st.one_of(arbitrary, dyadic, half_integer, near_classic, small,
                  st.integers(-L, L).map(float))


@st.composite
def params_strategy(draw):
    k = draw(st.integers(0, 7))
    n = 2 ** k
    if draw(st.booleans()):
        profile = tuple(float(v) for v in draw(st.lists(st.integers(0, 160), min_size=n,
                                                        max_size=n)))
    else:
        profile = tuple(v / 8.0 for v in draw(st.lists(st.integers(0, 1280), min_size=n,
                                                        max_size=n)))
    vlen = draw(st.integers(1, 8))
    vec = st.lists(st.integers(-64, 64), min_size=vlen, max_size=vlen).map(tuple)
    vectors = {name: draw(vec) for name in R.VECTOR_NAMES}
    top = max(profile) * vlen
    lake_base = draw(st.floats(0.0, max(top, 1.0)).map(lambda v: round(v * 8) / 8))
    lake_height = draw(st.one_of(st.none(), st.floats(0.0, max(top, 1.0), allow_nan=False)))
    mask = draw(st.sampled_from([0xFFF, 0xFFF, 0xFF, 0x1F, 0xFFFF]))
    return R.Params(profile=profile, lake_base=lake_base, lake_height=lake_height,
                    feature_mask=mask,
                    with_paths=draw(st.booleans()),
                    mountain_base=draw(st.one_of(st.none(), st.floats(0.0, max(top, 1.0)))),
                    snow_height=draw(st.one_of(st.none(), st.floats(0.0, 2.0 * max(top, 1.0)))),
                    wood_only=draw(st.booleans()),
                    bleak=draw(st.integers(0, 9).map(lambda v: v == 0)),
                    **vectors)


# ---------------------------------------------------------------------------
# library == reference
# ---------------------------------------------------------------------------

@given(st.lists(st.tuples(coord, coord), min_size=1, max_size=30))
def test_classic_sample_matches_reference(points):
    xs = np.array([p[0] for p in points])
    ys = np.array([p[1] for p in points])
    s = CLASSIC_T.sample(xs, ys)
    h, d, t, f = R.sample(R.CLASSIC, xs, ys)
    assert np.array_equal(bits(s.height), bits(h))
    assert np.array_equal(bits(s.depth), bits(d))
    assert np.array_equal(np.asarray(s.terrain), t)
    assert np.array_equal(np.asarray(s.feature), f)
    hh = CLASSIC_T.height(xs, ys)
    assert np.array_equal(bits(hh), bits([R.height(R.CLASSIC, x, y) for x, y in points]))


@given(coord, coord)
def test_classic_terra_matches_reference(x, y):
    check_terra_point(rt, CLASSIC_T, R.CLASSIC, x, y)


@given(params_strategy(), st.lists(st.tuples(coord, coord), min_size=1, max_size=12))
def test_random_models_match_reference(params, points):
    t = make_terrain(rt, params)
    xs = np.array([p[0] for p in points])
    ys = np.array([p[1] for p in points])
    s = t.sample(xs, ys)
    h, d, tt, ff = R.sample(params, xs, ys)
    assert np.array_equal(bits(s.height), bits(h))
    assert np.array_equal(bits(s.depth), bits(d))
    assert np.array_equal(np.asarray(s.terrain), tt)
    assert np.array_equal(np.asarray(s.feature), ff)
    x, y = points[0]
    check_terra_point(rt, t, params, x, y)


@settings(max_examples=25)
@given(params_strategy(), coord, coord, st.integers(1, 9), st.integers(1, 7),
       st.sampled_from([1.0, 0.5, 0.25, 0.3, 1.0 / 3.0, 2.0, 7.0, 0.125, 3.7]))
def test_random_model_grids_match_reference(params, x0, y0, nx, ny, step):
    assume(abs(x0) + nx * step <= L and abs(y0) + ny * step <= L)
    t = make_terrain(rt, params)
    rx, ry, rh, rd, rtt, rf = R.grid(params, x0, y0, nx, ny, step)
    g = t.grid(x0, y0, nx, ny, step)
    assert np.array_equal(bits(g.x), bits(rx))
    assert np.array_equal(bits(g.y), bits(ry))
    assert np.array_equal(bits(g.height), bits(rh))
    assert np.array_equal(bits(g.depth), bits(rd))
    assert np.array_equal(g.terrain, rtt)
    assert np.array_equal(g.feature, rf)
    assert np.array_equal(bits(t.height_grid(x0, y0, nx, ny, step)),
                          bits(R.height_grid(params, x0, y0, nx, ny, step)))
    assert np.array_equal(t.terrain_grid(x0, y0, nx, ny, step), rtt)
    assert np.array_equal(t.feature_grid(x0, y0, nx, ny, step), rf)


@settings(max_examples=25)
@given(st.lists(st.tuples(st.integers(23380, 23420), st.integers(5300, 5340),
                          st.sampled_from(["T", "F"]), st.integers(0, 11)),
                max_size=15),
       st.lists(st.tuples(st.floats(23379.0, 23421.0), st.floats(5299.0, 5341.0)),
                min_size=1, max_size=20))
def test_random_placed_tables_match_reference(entries, points):
    t = rt.Terrain()
    for x, y, kind, code in entries:
        what = rt.TerrainType(code) if kind == "T" else rt.Feature(code % 10)
        t.place(x, y, what)
    placed = ref_placed(rt, t.placed)
    xs = np.array([p[0] for p in points])
    ys = np.array([p[1] for p in points])
    s = t.sample(xs, ys)
    h, d, tt, ff = R.sample(R.CLASSIC, xs, ys, placed)
    assert np.array_equal(bits(s.height), bits(h))
    assert np.array_equal(bits(s.depth), bits(d))
    assert np.array_equal(np.asarray(s.terrain), tt)
    assert np.array_equal(np.asarray(s.feature), ff)
    check_terra_point(rt, t, R.CLASSIC, points[0][0], points[0][1], placed)


@given(st.integers(-L, L), st.one_of(st.integers(-L, L), st.integers(-2 ** 15, 2 ** 15)))
def test_tree_selector_and_code_match_reference(x, y):
    assert int(CLASSIC_T.tree_selector(x, y)) == R.tree_selector(R.CLASSIC, x, y)
    assert rt.orienteering_code(x, y) == R.orienteering_code(x, y)


# ---------------------------------------------------------------------------
# invariants of the library alone (cheap, so larger inputs)
# ---------------------------------------------------------------------------

@settings(max_examples=30)
@given(params_strategy(), coord, coord, st.sampled_from([1.0, 0.5, 0.3, 3.0, 16.0]))
def test_invariants(params, x0, y0, step):
    nx, ny = 37, 23
    assume(abs(x0) + nx * step <= L and abs(y0) + ny * step <= L)
    t = make_terrain(rt, params)
    g = t.grid(x0, y0, nx, ny, step)
    lake = g.terrain == rt.TerrainType.LAKE
    assert (g.depth >= 0).all()
    assert not (g.depth[~lake] != 0).any()
    assert (g.depth[lake] > 0).all()
    assert (g.height[lake] == t.lake_height).all()
    assert (g.feature[g.terrain == rt.TerrainType.TOWN] == 0).all()
    assert (g.terrain < len(rt.TerrainType)).all()
    assert (g.feature < len(rt.Feature)).all()
    assert np.isfinite(g.height).all()
    ground = t.height_grid(x0, y0, nx, ny, step)
    assert np.array_equal(bits(g.height[~lake]), bits(ground[~lake]))
    assert np.array_equal(bits(g.depth[lake]), bits(t.lake_height - ground[lake]))
    if params.bleak:
        assert (g.terrain == rt.TerrainType.GRASS).all() and not g.feature.any()
    # generated features only on classifiable dry land
    kinds_with_features = set(np.unique(g.terrain[g.feature != 0]).tolist())
    assert kinds_with_features <= {int(k) for k in (rt.TerrainType.GRASS, rt.TerrainType.MOOR,
                                                    rt.TerrainType.WOOD,
                                                    rt.TerrainType.THICKET)}
    # terra agrees with the grid at a few points
    for r, c in [(0, 0), (ny - 1, nx - 1), (ny // 2, nx // 3)]:
        p = t.terra(g.x[c], g.y[r])
        assert same_float(p.height, g.height[r, c])
        assert same_float(p.depth, g.depth[r, c])
        assert int(p.terrain) == g.terrain[r, c]
        assert int(p.feature) == g.feature[r, c]
        assert (p.code != "") == (p.feature in (rt.Feature.MINE, rt.Feature.BOULDER,
                                                 rt.Feature.ROOT, rt.Feature.WATERHOLE,
                                                 rt.Feature.KNOLL, rt.Feature.X))


@settings(max_examples=30)
@given(st.lists(st.tuples(coord, coord), min_size=1, max_size=50))
def test_sample_equals_terra_and_inputs_unchanged(points):
    xs = np.array([p[0] for p in points])
    ys = np.array([p[1] for p in points])
    xc, yc = xs.copy(), ys.copy()
    s = CLASSIC_T.sample(xs, ys)
    assert np.array_equal(bits(xs), bits(xc)) and np.array_equal(bits(ys), bits(yc))
    for i, (x, y) in enumerate(points):
        p = CLASSIC_T.terra(x, y)
        assert same_float(p.height, np.asarray(s.height)[i])
        assert same_float(p.depth, np.asarray(s.depth)[i])
        assert int(p.terrain) == np.asarray(s.terrain)[i]
        assert int(p.feature) == np.asarray(s.feature)[i]
        assert same_float(CLASSIC_T.height(x, y), R.height(R.CLASSIC, x, y))


@settings(max_examples=20)
@given(st.integers(-10000, 10000), st.integers(-10000, 10000), st.integers(1, 60),
       st.integers(1, 40), st.integers(1, 5), st.integers(1, 7))
def test_integer_chunking(x0, y0, nx, ny, step, threads):
    """With integer origin and step, sub-grids tile the whole grid exactly."""
    whole = CLASSIC_T.grid(x0, y0, nx, ny, float(step), threads=threads)
    cx = nx // 2
    cy = ny // 3
    parts = []
    for (c0, c1) in [(0, cx), (cx, nx)]:
        for (r0, r1) in [(0, cy), (cy, ny)]:
            if c1 > c0 and r1 > r0:
                sub = CLASSIC_T.grid(x0 + c0 * step, y0 + r0 * step, c1 - c0, r1 - r0,
                                     float(step), threads=1)
                parts.append((r0, r1, c0, c1, sub))
    for r0, r1, c0, c1, sub in parts:
        assert np.array_equal(bits(sub.height), bits(whole.height[r0:r1, c0:c1]))
        assert np.array_equal(bits(sub.depth), bits(whole.depth[r0:r1, c0:c1]))
        assert np.array_equal(sub.terrain, whole.terrain[r0:r1, c0:c1])
        assert np.array_equal(sub.feature, whole.feature[r0:r1, c0:c1])
