"""Feature tables, building footprints and tree grids (SPEC 5) against the
independent reference tests/reference.py."""

import numpy as np
import pytest
import reference as R
from helpers import make_terrain, ref_placed

import relfterrain as rt
import relfterrain.features as F

DENSE = R.Params(feature_mask=0xFF)           # many more features
TOWNS = R.Params(town_below=200.0)            # many more buildings


def ref_features(p, x0, y0, nx, ny, placed):
    """(x, y, feature, code) rows ordered by (y, x), from reference.terra at
    the points where a feature can be (generated or placed)."""
    rows = []
    for y in range(y0, y0 + ny):
        for x in range(x0, x0 + nx):
            if (x, y) not in placed and R.point_feature(p, x, y) == R.F_NONE:
                continue
            f = R.terra(p, x, y, placed)[2]
            if f != R.F_NONE:
                code = R.orienteering_code(x, y) if f in R.CODED_FEATURES else ""
                rows.append((x, y, f, code))
    return rows


def rows_of(ft):
    return list(zip(ft.x.tolist(), ft.y.tolist(), ft.feature.tolist(), ft.code.tolist()))


@pytest.mark.parametrize("p, area", [
    (R.CLASSIC, (23396, 5318, 400, 300)),
    (DENSE, (-120, -80, 200, 150)),
])
def test_features_equal_reference(p, area):
    t = make_terrain(rt, p)
    t.place(area[0] + 3, area[1] + 4, rt.Feature.CONE)
    t.place(area[0] + 5, area[1] + 4, rt.TerrainType.ROAD)
    ft0 = t.features(*area)
    some = ft0.x.size // 2
    t.place(int(ft0.x[some]), int(ft0.y[some]), rt.Feature.NONE)  # hides a feature
    ft = t.features(*area)
    assert ft.x.dtype == ft.y.dtype == np.int64 and ft.feature.dtype == np.uint8
    assert ft.code.dtype.kind == "U"
    want = ref_features(p, *area, ref_placed(rt, t.placed))
    assert rows_of(ft) == want
    assert len(want) > 10 and any(c == "" for *_, c in want)
    assert (int(ft0.x[some]), int(ft0.y[some])) not in {(x, y) for x, y, *_ in want}


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_features_threads_and_chunks(monkeypatch, threads):
    t = make_terrain(rt, DENSE)
    want = rows_of(t.features(-300, -200, 700, 500, threads=1))
    monkeypatch.setattr(F, "_CHUNK_POINTS", 1000)  # many row chunks, some of one row
    assert rows_of(t.features(-300, -200, 700, 500, threads=threads)) == want
    monkeypatch.setattr(F, "_CHUNK_POINTS", 10)
    assert rows_of(t.features(-300, -200, 700, 500, threads=threads)) == want


@pytest.mark.parametrize("step", [0.5, 0.25])
def test_features_step_independent(step):
    """The features of the integer points equal those a fine grid shows once
    each rounded point is counted once; a fine grid counts them many times."""
    t = rt.Terrain()
    x0, y0, nx, ny = rt.CLASSIC_MAP
    ft = t.features(x0, y0, nx, ny)
    assert ft.x.size == 90 == int((t.feature_grid(x0, y0, nx, ny) != 0).sum())
    k = int(round(1 / step))
    g = t.feature_grid(x0, y0, (nx - 1) * k + 1, (ny - 1) * k + 1, step)
    r, c = np.nonzero(g)
    xs, ys = x0 + c * step, y0 + r * step
    xr, yr = np.floor(xs + 0.5).astype(np.int64), np.floor(ys + 0.5).astype(np.int64)
    seen = set(zip(xr.tolist(), yr.tolist(), g[r, c].tolist()))
    table = set(zip(ft.x.tolist(), ft.y.tolist(), ft.feature.tolist()))
    assert table <= seen
    # a fine grid may also show a feature whose own integer point is lake or
    # town: lakes and towns are decided at the unrounded point (SPEC 5)
    for x, y, _ in seen - table:
        assert t.terra(x, y).terrain in (rt.TerrainType.LAKE, rt.TerrainType.TOWN)
    assert r.size > ft.x.size  # what counting a fine grid gets wrong


@pytest.mark.parametrize("args, exc, name", [
    ((0.5, 0, 10, 10), TypeError, "x0"),
    ((0, "0", 10, 10), TypeError, "y0"),
    ((0, 0, 0, 10), ValueError, "nx"),
    ((0, 0, 10, -1), ValueError, "ny"),
    ((2**60, 0, 10, 10), ValueError, "x0"),
])
def test_features_bad_input(args, exc, name):
    with pytest.raises(exc, match=name):
        rt.Terrain().features(*args)


def ref_building_grid(p, x0, y0, nx, ny, step, placed, offset=(0, 0)):
    xs = [x0 + float(offset[1] + c) * step for c in range(nx)]
    ys = [y0 + float(offset[0] + r) * step for r in range(ny)]
    lo_x, lo_y = int(np.floor(min(xs))) - 8, int(np.floor(min(ys))) - 8
    centres = R.buildings(p, lo_x, lo_y, int(max(xs)) + 9 - lo_x, int(max(ys)) + 9 - lo_y,
                          placed)
    out = np.zeros((ny, nx), dtype=bool)
    for bx, by in centres:
        for r, y in enumerate(ys):
            if abs(y - by) <= 6:
                for c, x in enumerate(xs):
                    if abs(x - bx) <= 6:
                        out[r, c] = True
    return out, centres


@pytest.mark.parametrize("p, area, step, offset", [
    (R.CLASSIC, (23590.0, 5790.0, 70, 50), 1.0, (0, 0)),
    (TOWNS, (-1400.0, -2220.0, 160, 120), 1.0, (0, 0)),
    (TOWNS, (-1400.0, -2220.0, 160, 120), 0.5, (3, 5)),
    (TOWNS, (-1400.3, -2220.7, 90, 80), 0.7, (0, 0)),
    (TOWNS, (-1400.0, -2220.0, 60, 50), 6.0, (0, 0)),
    (TOWNS, (-1408.0, -2224.0, 30, 20), 16.0, (0, 0)),
])
def test_building_grid_equals_reference(p, area, step, offset):
    t = make_terrain(rt, p)
    centres = t.buildings(int(area[0]) - 100, int(area[1]) - 100, 400, 400)
    if len(centres):  # a building removed by the placed table
        t.place(int(centres[-1][0]), int(centres[-1][1]), rt.TerrainType.GRASS)
    got = t.building_grid(*area, step, offset=offset)
    want, used = ref_building_grid(p, *area, step, ref_placed(rt, t.placed), offset)
    assert got.dtype == bool and got.shape == (area[3], area[2])
    assert np.array_equal(got, want)
    assert len(used) > 0 and want.any()


def test_building_square_edges():
    t = make_terrain(rt, R.CLASSIC)
    bx, by = (int(v) for v in t.buildings(*rt.CLASSIC_MAP)[0])
    g = t.building_grid(bx - 8, by - 8, 17, 17, 1.0)
    # columns bx-6 .. bx+6 (13 points), the same rows: a closed 12 m square
    assert g.sum() == 13 * 13 and g[2:15, 2:15].all()
    assert t.building_grid(bx - 6.0, by, 2, 1, 12.0).all()
    assert not t.building_grid(bx - 6.000001, by, 2, 1, 12.000002).any()


@pytest.mark.parametrize("area, step, offset", [
    ((23396.0, 5318.0, 60, 40), 1.0, (0, 0)),
    ((-10.3, 7.9, 50, 30), 0.3, (2, 4)),
    ((1e5, -3e4, 40, 30), 2.5, (0, 0)),
])
def test_tree_grid_equals_reference(area, step, offset):
    t = rt.Terrain()
    got = t.tree_grid(*area, step, offset=offset)
    x0, y0, nx, ny = area
    want = np.array([[R.tree_selector(R.CLASSIC, x0 + float(offset[1] + c) * step,
                                      y0 + float(offset[0] + r) * step) for c in range(nx)]
                     for r in range(ny)], dtype=np.uint8)
    assert got.dtype == np.uint8 and np.array_equal(got, want)
    assert set(np.unique(want).tolist()) == {0, 1, 2, 3}


def test_tree_grid_chunks(monkeypatch):
    t = rt.Terrain()
    want = t.tree_grid(-50.5, 20.25, 37, 23, 0.75)
    monkeypatch.setattr(F, "_CHUNK_POINTS", 40)
    assert np.array_equal(t.tree_grid(-50.5, 20.25, 37, 23, 0.75), want)


@pytest.mark.parametrize("method", ["building_grid", "tree_grid"])
@pytest.mark.parametrize("args, exc, name", [
    ((0, 0, 0, 5), ValueError, "nx"),
    ((0, 0, 5, 5, 0.0), ValueError, "step"),
    ((float("nan"), 0, 5, 5), ValueError, "x0"),
    ((0, "a", 5, 5), TypeError, "y0"),
])
def test_grid_bad_input(method, args, exc, name):
    with pytest.raises(exc, match=name):
        getattr(rt.Terrain(), method)(*args)


def _ref_offsets(x, y):
    """The in-tile offsets of the project's documented rule, from the reference's
    round_js and toint32 (SPEC 2) and the selector's product (SPEC 5)."""
    xr, yr = R.round_js(x), R.round_js(y)
    v = R.toint32(R.round_js(R.PI10000 * xr * yr))
    return (((v >> 2) & 15) + 0.5) / 16 - 0.5, (((v >> 6) & 15) + 0.5) / 16 - 0.5


@pytest.mark.parametrize("x0, y0, nx, ny, step", [(23400, 5320, 17, 9, 1.0),
                                                  (-1234.5, 777.25, 11, 7, 0.7),
                                                  (2.0**40, -(2.0**41), 5, 4, 1.0)])
def test_tree_offset_grid_equals_the_rule(x0, y0, nx, ny, step):
    t = rt.Terrain()
    dx, dy = t.tree_offset_grid(x0, y0, nx, ny, step)
    sel = t.tree_grid(x0, y0, nx, ny, step)
    for r in range(ny):
        for c in range(nx):
            x, y = x0 + c * step, y0 + r * step
            assert (dx[r, c], dy[r, c]) == _ref_offsets(x, y)
            assert sel[r, c] == R.tree_selector(R.CLASSIC, x, y)
    assert ((dx > -0.5) & (dx < 0.5) & (dy > -0.5) & (dy < 0.5)).all()
