"""Streams (SPEC 7): the C core against the independent transcription in
streams_reference.py, for every neighbourhood, cap, thread count and
placed table; properties of every route; marking and its restart rule."""

import pickle

import numpy as np
import pytest
import reference as R
import streams_reference as S
from helpers import make_terrain, ref_placed
from hypothesis import given
from hypothesis import strategies as st

import relfterrain as rt
from relfterrain import Feature, TerrainType

X0, Y0, NX, NY = rt.CLASSIC_MAP
NEIGHBOURHOODS = ("cross", "square", "circle")


def _same_stream(got, want, params, placed=None):
    route = [tuple(p) for p in got.route.tolist()]
    assert route == want["route"]
    assert got.length == want["length"]  # bit for bit: the same sums in the same order
    assert got.end == want["end"]
    # SPEC 7: only a stream (more than 10 points) ending in a hollow has a marsh
    marsh = (want["end"] == "hollow" and len(want["route"]) > 10
             and bool(S.marsh_cells(params, want["route"], placed)))
    assert got.marsh == marsh


def _placed_table(t):
    return ref_placed(rt, dict(t.placed.items()))


MODELS = {
    "classic": R.Params(),
    "wet": R.Params(lake_height=215.5),
    "custom": R.Params(profile=tuple(float((k * 37) % 91 - 30) for k in range(64)),
                       ah=(3, -7, 11), bh=(5, 2, -9), a1=(1, 2, 3), b1=(4, 5, 6),
                       a2=(-7, 8, 9), b2=(1, -1, 2), a3=(3, 3, -3), b3=(2, -2, 5),
                       lake_base=-20.0, waterhole_below=250),
    "mountains": R.Params(mountain_base=240.0, snow_height=330.0),
}


@pytest.mark.parametrize("model", sorted(MODELS))
@pytest.mark.parametrize("neighbourhood", NEIGHBOURHOODS)
def test_routes_from_ponds_and_other_points_equal_the_reference(model, neighbourhood):
    params = MODELS[model]
    t = make_terrain(rt, params)
    ponds = S.ponds(params, X0 + 100, Y0 + 100, 300, 200)
    rng = np.random.default_rng(7)
    starts = ponds[:6] + [(int(x), int(y)) for x, y in
                          zip(rng.integers(X0, X0 + NX, 8), rng.integers(Y0, Y0 + NY, 8))]
    for max_length in (300.0, 41.5, 0.0):
        for x, y in starts:
            want = S.trace_stream(params, x, y, neighbourhood=neighbourhood,
                                  max_length=max_length)
            got = t.trace_stream(x, y, neighbourhood=neighbourhood, max_length=max_length)
            assert got.source == (x, y)
            _same_stream(got, want, params)


def test_uncapped_routes_equal_the_reference():
    params = R.Params()
    t = rt.Terrain()
    for x, y in S.ponds(params, X0, Y0, 400, 300)[:5]:
        _same_stream(t.trace_stream(x, y, max_length=None),
                     S.trace_stream(params, x, y, max_length=None), params)


@pytest.mark.parametrize("model", ["classic", "wet", "custom"])
@pytest.mark.parametrize("area, margin", [((X0 + 300, Y0 + 200, 120, 90), 60),
                                          ((X0, Y0, 200, 150), 0),
                                          ((X0 + 500, Y0 + 300, 80, 80), 150)])
def test_area_streams_equal_the_reference(model, area, margin):
    params = MODELS[model]
    t = make_terrain(rt, params)
    placed = {(X0 + 320, Y0 + 230): Feature.WATERHOLE, (X0 + 330, Y0 + 240): TerrainType.ROAD}
    for (x, y), what in placed.items():
        t.place(x, y, what)
    want = S.streams(params, *area, margin=margin, placed=ref_placed(rt, placed))
    for threads in (1, 2, 3):
        got = t.streams(*area, margin=margin, threads=threads)
        assert [s.source for s in got] == [w["source"] for w in want]
        for g, w in zip(got, want):
            _same_stream(g, w, params, ref_placed(rt, placed))


def test_area_ponds_ignore_marked_streams_but_honour_other_placements():
    params = R.Params()
    t = rt.Terrain()
    ponds = S.ponds(params, X0, Y0, NX, NY)
    hidden, extra = ponds[0], (X0 + 5, Y0 + 5)
    t.place(*hidden, Feature.NONE)        # hides a pond
    t.place(*extra, Feature.WATERHOLE)    # makes one
    t.place(*ponds[1], TerrainType.STREAM)  # a soaked pond is still a pond
    want = S.streams(params, X0, Y0, NX, NY, margin=0, placed=_placed_table(t))
    got = t.streams(X0, Y0, NX, NY, margin=0)
    assert [g.source for g in got] == [w["source"] for w in want]


@pytest.mark.parametrize("limit", [300_000, 2_000, 300])
def test_marking_equals_the_reference(limit):
    params = R.Params()
    t = rt.Terrain()
    area = (23300, 4900, 200, 200)  # 5 streams with this margin
    t.place(23380, 4990, TerrainType.ROAD)
    before = _placed_table(t)
    info = {}
    want = S.mark_streams(params, *area, placed=before, margin=100, limit=limit, info=info)
    result = t.mark_streams(*area, margin=100, limit=limit)
    assert len(result.streams) == 5
    assert _placed_table(t) == want
    assert len(result.streams) == info["streams"] and result.restarts == info["restarts"]
    assert result.added == info["added"]
    if limit == 300:
        assert result.restarts > 0
    # grids show them, and a copy keeps them
    g = t.terrain_grid(*area)
    for (x, y), (kind, code) in want.items():
        if kind == "T" and area[0] <= x < area[0] + area[2] and area[1] <= y < area[1] + area[3]:
            assert g[y - area[1], x - area[0]] == code
    assert pickle.loads(pickle.dumps(t)) == t
    # marking again changes nothing: routes and ponds ignore what marking placed
    again = t.mark_streams(*area, margin=100, limit=limit)
    assert [s.route.tolist() for s in again.streams] == [s.route.tolist() for s in result.streams]
    if limit == 300_000:
        assert again.added == 0 and _placed_table(t) == want
    soaked = sum(1 for v in _placed_table(t).values() if v in (("T", 9), ("T", 10)))
    assert t.clear_streams() == soaked
    assert _placed_table(t) == before


def test_the_classic_map_streams():
    t = rt.Terrain()
    ss = t.streams(*rt.CLASSIC_MAP)
    assert len(ss) == len(S.streams(R.Params(), *rt.CLASSIC_MAP, margin=0)) + len(
        [s for s in ss if not (X0 <= s.source[0] < X0 + NX and Y0 <= s.source[1] < Y0 + NY)])
    for threads in (1, 2):
        assert [s.route.tolist() for s in t.streams(*rt.CLASSIC_MAP, threads=threads)] == [
            s.route.tolist() for s in ss]


@given(st.integers(X0 - 2000, X0 + 2000), st.integers(Y0 - 2000, Y0 + 2000),
       st.sampled_from(NEIGHBOURHOODS), st.sampled_from([300.0, 77.7, None]))
def test_every_route_falls_strictly_and_steps_within_its_neighbourhood(x, y, nb, cap):
    t = rt.Terrain()
    s = t.trace_stream(x, y, neighbourhood=nb, max_length=cap)
    route = s.route
    h = t.sample(route[:, 0], route[:, 1]).height
    assert (np.diff(h) < 0).all()
    d = np.diff(route, axis=0)
    assert (np.abs(d) <= 5).all() and (np.abs(d).sum(axis=1) > 0).all()
    if nb == "cross":
        assert (d != 0).all()
    if nb == "circle":
        assert ((d ** 2).sum(axis=1) <= 25).all()
    assert s.length == pytest.approx(np.hypot(d[:, 0], d[:, 1]).sum(), rel=1e-12, abs=0)
    if cap is not None:
        assert s.length <= cap
    if s.end == "lake":
        assert h[-1] <= t.lake_height
    elif len(route) > 1:
        assert h[-1] > t.lake_height


@pytest.mark.parametrize("call, error, names", [
    (lambda t: t.trace_stream(0.5, 0), TypeError, "x"),
    (lambda t: t.trace_stream(0, 2**60), ValueError, "y"),
    (lambda t: t.trace_stream(0, 0, neighbourhood="diamond"), ValueError, "neighbourhood"),
    (lambda t: t.trace_stream(0, 0, max_length=float("nan")), ValueError, "max_length"),
    (lambda t: t.trace_stream(0, 0, max_length=-1), ValueError, "max_length"),
    (lambda t: t.streams(0, 0, 0, 10), ValueError, "nx"),
    (lambda t: t.streams(0, 0, 10, 10, margin=-1), ValueError, "margin"),
    (lambda t: t.streams(0, 0, 10, 10, threads=0), ValueError, "threads"),
    (lambda t: t.mark_streams(0, 0, 10, 10, limit=-5), ValueError, "limit"),
    (lambda t: t.streams(2**51, 0, 10, 10), ValueError, "x0"),
])
def test_bad_input_names_the_argument(call, error, names):
    t = rt.Terrain()
    with pytest.raises(error, match=f"^{names}"):
        call(t)
    assert len(t.placed) == 0


@pytest.mark.parametrize("neighbourhood", ["square", "circle"])
def test_marking_with_the_other_neighbourhoods_equals_the_reference(neighbourhood):
    params = R.Params()
    t = rt.Terrain()
    area = (23300, 4900, 200, 200)
    info = {}
    want = S.mark_streams(params, *area, placed={}, margin=100, neighbourhood=neighbourhood,
                          info=info)
    result = t.mark_streams(*area, margin=100, neighbourhood=neighbourhood)
    assert info["streams"] == len(result.streams) > 0
    assert _placed_table(t) == want
