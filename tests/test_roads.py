"""Roads (SPEC 13) against the independent reference tests/streams_reference.py:
cells paved, refusals naming the segment, remove_road restoring the table,
roads in pickles and copies, bad input."""

import copy
import pickle

import numpy as np
import pytest
import reference as R
import streams_reference as S
from helpers import make_terrain, ref_placed
from hypothesis import given
from hypothesis import strategies as st

import relfterrain as rt

ROAD = ("T", R.ROAD)
LAKE_ROW_Y = 5499  # a lake crosses the classic map along this row (x 23396 .. 23955)


def table(t):
    return ref_placed(rt, t.placed)


def ref_pave(params, roads, placed=None, **kw):
    """Pave a list of (points, w) with the reference, in order, no bridge limit."""
    out = dict(placed or {})
    for pts, w in roads:
        out = S.pave_road(params, [tuple(p) for p in pts], out, half_width=w,
                          max_bridge=10**9, **kw)
    return out


@pytest.mark.parametrize("points, w", [
    ([(23400, 5320), (23410, 5320)], 2),
    ([(23400, 5320), (23407, 5325), (23407, 5325), (23397, 5329)], 2),
    ([(23500, 5400), (23460, 5371)], 0),
    ([(23500, 5400), (23512, 5433), (23480, 5450)], 3),
    ([(-7, 3), (5, -9)], 1),
])
def test_cells_equal_reference(points, w):
    t = rt.Terrain()
    t.add_road(points, half_width=w)
    assert table(t) == ref_pave(R.CLASSIC, [(points, w)])
    assert len(t.roads) == 1
    assert t.roads[0].half_width == w
    assert t.roads[0].points.tolist() == [list(p) for p in points]
    assert t.roads[0].points.dtype == np.int64
    assert not t.roads[0].points.flags.writeable


pts_strategy = st.lists(st.tuples(st.integers(23380, 23460), st.integers(5300, 5360)),
                        min_size=2, max_size=4)


@given(points=pts_strategy, w=st.integers(0, 3))
def test_cells_property(points, w):
    t = rt.Terrain()
    t.add_road(np.array(points), half_width=w, max_bridge=None)
    assert table(t) == ref_pave(R.CLASSIC, [(points, w)])


def test_overwrites_streams_marshes_and_features():
    t = rt.Terrain()
    before = {(23402, 5320): rt.TerrainType.STREAM, (23403, 5321): rt.TerrainType.MARSH,
              (23404, 5322): rt.Feature.BOULDER, (23430, 5320): rt.TerrainType.MARSH}
    for (x, y), what in before.items():
        t.place(x, y, what)
    base = table(t)
    t.add_road([(23400, 5320), (23410, 5320)])
    assert table(t) == ref_pave(R.CLASSIC, [([(23400, 5320), (23410, 5320)], 2)], base)
    assert t.at(23402, 5320) == t.at(23404, 5322) == rt.TerrainType.ROAD
    assert t.at(23430, 5320) == rt.TerrainType.MARSH


@pytest.mark.parametrize("threads", [1, 2, 3, None])
def test_threads_same_cells(threads):
    pts = [(23396, LAKE_ROW_Y), (23520, LAKE_ROW_Y + 7), (23530, LAKE_ROW_Y + 40)]
    t = rt.Terrain()
    t.add_road(pts, threads=threads, max_bridge=None)
    assert table(t) == ref_pave(R.CLASSIC, [(pts, 2)])


# -- refusals ---------------------------------------------------------------

def test_bridge_counts_are_the_references():
    pts = [(23380, 5300), (23400, LAKE_ROW_Y), (23520, LAKE_ROW_Y), (23530, 5600)]
    counts = S.bridge_counts(R.CLASSIC, pts)
    first = next(i for i, c in enumerate(counts) if c > 60)  # the lake really is crossed
    t = rt.Terrain()
    with pytest.raises(ValueError, match=rf"points: road segment {first} .*bridge {counts[first]} "):
        t.add_road(pts)
    assert len(t.placed) == 0 and t.roads == ()
    # the first segment over the limit is named
    limit = min(c for c in counts if c > 0)
    bad = next(i for i, c in enumerate(counts) if c > limit - 1)
    with pytest.raises(ValueError, match=rf"road segment {bad} "):
        t.add_road(pts, max_bridge=limit - 1)
    # exactly at the limit: paved, as the reference
    t.add_road(pts, max_bridge=max(counts))
    assert table(t) == S.pave_road(R.CLASSIC, pts, {}, max_bridge=max(counts))


@given(y=st.integers(LAKE_ROW_Y - 30, LAKE_ROW_Y + 30), x1=st.integers(23400, 23700),
       mb=st.integers(0, 80))
def test_refusal_property(y, x1, mb):
    pts = [(23396, y), (x1, y + 3)]
    t = rt.Terrain()
    t.place(23396, y, rt.TerrainType.GRASS)
    before = table(t)
    try:
        want = S.pave_road(R.CLASSIC, pts, before, max_bridge=mb)
    except ValueError as e:
        with pytest.raises(ValueError, match="road segment 0 ") as got:
            t.add_road(pts, max_bridge=mb)
        assert "road segment 0 " in str(e)
        assert "nothing was paved" in str(got.value)
        assert table(t) == before and t.roads == ()
    else:
        t.add_road(pts, max_bridge=mb)
        assert table(t) == want


def test_bridge_uses_lake_base_and_the_placed_table():
    p = R.Params(lake_base=1000.0, lake_height=204.0)  # every height is "low"
    t = make_terrain(rt, p)
    pts = [(0, 0), (0, 9)]
    with pytest.raises(ValueError, match="segment 0"):
        t.add_road(pts, max_bridge=9)
    t.add_road(pts, max_bridge=10)
    assert table(t) == S.pave_road(p, pts, {}, max_bridge=10)


# -- removing ---------------------------------------------------------------

A = ([(23400, 5320), (23440, 5350)], 2)
B = ([(23420, 5300), (23420, 5370)], 1)
C = ([(23380, 5340), (23460, 5340), (23460, 5320)], 3)


def base_terrain():
    t = rt.Terrain()
    t.place(23420, 5335, rt.TerrainType.STREAM)
    t.place(23421, 5336, rt.Feature.CONE)
    t.place(23430, 5340, rt.TerrainType.MARSH)
    t.place(23390, 5300, rt.TerrainType.ROAD)   # a hand-placed ROAD off every road
    return t


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 1, 0), (1, 0, 2), (1, 2, 0)])
def test_remove_restores_any_order(order):
    t = base_terrain()
    base = table(t)
    roads = [A, B, C]
    for pts, w in roads:
        t.add_road(pts, half_width=w)
    assert table(t) == ref_pave(R.CLASSIC, roads, base)
    left = list(range(3))
    for i in order:
        road = roads[i]
        t.remove_road(t.roads[left.index(i)])   # by the Road itself
        left.remove(i)
        assert table(t) == ref_pave(R.CLASSIC, [roads[k] for k in left], base)
        assert [r.points.tolist() for r in t.roads] == \
            [[list(p) for p in roads[k][0]] for k in left]
        del road
    assert table(t) == base


@given(st.lists(st.tuples(pts_strategy, st.integers(0, 2)), min_size=1, max_size=4),
       st.data())
def test_remove_property(roads, data):
    t = base_terrain()
    base = table(t)
    for pts, w in roads:
        t.add_road(pts, half_width=w, max_bridge=None)
    left = list(range(len(roads)))
    while left:
        k = data.draw(st.integers(0, len(left) - 1))
        t.remove_road(k - len(left) if data.draw(st.booleans()) else k)  # negative indices too
        left.pop(k)
        assert table(t) == ref_pave(R.CLASSIC, [roads[i] for i in left], base)


def test_later_changes_survive_removal():
    t = rt.Terrain()
    t.add_road(*A[:1])
    t.place(23420, 5335, rt.Feature.BOULDER)     # on the road, after it
    t.remove(23430, 5342)                        # a road cell emptied by hand
    t.add_road(B[0], half_width=B[1])            # B covers (23420, 5335) again
    t.remove_road(0)
    t.remove_road(0)
    # as if the roads had never been: only the later changes (the BOULDER;
    # the removal left nothing)
    assert table(t) == {(23420, 5335): ("F", R.F_BOULDER)}


def test_copies_and_pickles_keep_roads():
    t = base_terrain()
    for pts, w in (A, B):
        t.add_road(pts, half_width=w)
    for u in (pickle.loads(pickle.dumps(t)), copy.deepcopy(t), copy.copy(t), t.copy(),
              t.replace(town_below=100)):
        assert [(r.points.tolist(), r.half_width) for r in u.roads] == \
            [(r.points.tolist(), r.half_width) for r in t.roads]
        assert table(u) == table(t)
        u.remove_road(0)
        assert table(u) == ref_pave(R.CLASSIC, [B], table(base_terrain()))
        assert len(t.roads) == 2  # the original is untouched


def test_roads_is_read_only():
    t = rt.Terrain()
    t.add_road(A[0])
    with pytest.raises(AttributeError):
        t.roads = ()  # type: ignore[misc]
    assert isinstance(t.roads, tuple)
    with pytest.raises(ValueError):
        t.roads[0].points[0, 0] = 1


@pytest.mark.parametrize("kwargs, exc, name", [
    ({"points": [(0, 0)]}, ValueError, "points"),
    ({"points": []}, ValueError, "points"),
    ({"points": [(0, 0, 1), (1, 1, 1)]}, TypeError, "points"),
    ({"points": np.zeros((3, 3), dtype=np.int64)}, ValueError, "points"),
    ({"points": [(0.5, 0), (1, 1)]}, TypeError, "points"),
    ({"points": np.array([[0.5, 0], [1, 1]])}, ValueError, "points"),
    ({"points": [(True, 0), (1, 1)]}, TypeError, "points"),
    ({"points": "ab"}, TypeError, "points"),
    ({"points": 5}, TypeError, "points"),
    ({"points": [(0, 0), (2**26 + 1, 0)]}, ValueError, "points"),
    ({"points": [(-2**25, 0), (2**25 + 1, 0)]}, ValueError, "points"),
    ({"points": [(0, 0), (1, 1)], "half_width": -1}, ValueError, "half_width"),
    ({"points": [(0, 0), (1, 1)], "half_width": 1025}, ValueError, "half_width"),
    ({"points": [(0, 0), (1, 1)], "half_width": 1.0}, TypeError, "half_width"),
    ({"points": [(0, 0), (1, 1)], "max_bridge": -1}, ValueError, "max_bridge"),
    ({"points": [(0, 0), (1, 1)], "threads": 0}, ValueError, "threads"),
])
def test_bad_input(kwargs, exc, name):
    t = rt.Terrain()
    with pytest.raises(exc, match=name):
        t.add_road(**kwargs)
    assert len(t.placed) == 0 and t.roads == ()


def test_bad_remove():
    t = rt.Terrain()
    t.add_road(A[0])
    with pytest.raises(IndexError, match="index_or_road"):
        t.remove_road(1)
    with pytest.raises(IndexError, match="index_or_road"):
        t.remove_road(-2)
    with pytest.raises(TypeError, match="index_or_road"):
        t.remove_road("0")
    with pytest.raises(TypeError, match="index_or_road"):
        t.remove_road(True)
    with pytest.raises(ValueError, match="index_or_road"):
        t.remove_road(rt.Road(t.roads[0].points, 3))
    assert len(t.roads) == 1


def test_doctests():
    import doctest

    import relfterrain.features
    import relfterrain.roads

    for m in (relfterrain.roads, relfterrain.features):
        result = doctest.testmod(m, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.failed == 0 and result.attempted > 0
