"""Checks of tests/streams_reference.py itself (no relfterrain needed).

Most cases run in a synthetic world: ``reference.terra`` and
``reference.height`` are monkeypatched with hand-made fields, so every
expected value below can be checked by hand.  A few cases run on the classic
terrain to check that the reference finishes quickly and gives plausible,
self-consistent output.
"""

import math
import time

import pytest
import reference as R
import streams_reference as S

P = R.CLASSIC
LAKE_HT = P.lake_ht            # 204.0


class World:
    """A synthetic terrain: height, terrain and feature functions of (x, y).

    Its terra follows SPEC 5/6's order for what these tests need: placed
    terrain (height max(h, lake), feature NONE), LAKE below the lake height
    (height = water surface), placed feature, TOWN forces feature NONE."""

    def __init__(self, h=None, t=None, f=None):
        self.h = h or (lambda x, y: 300.0)
        self.t = t or (lambda x, y: R.GRASS)
        self.f = f or (lambda x, y: R.F_NONE)
        self.calls = 0

    def terra(self, p, x, y, placed=None):
        self.calls += 1
        x, y = int(x), int(y)
        h = self.h(x, y)
        feature = None
        pd = (placed or {}).get((x, y))
        if pd is not None:
            if pd[0] == "T":
                return (max(h, LAKE_HT), pd[1], R.F_NONE, "", 0.0)
            feature = pd[1]
        if LAKE_HT > h:
            return (LAKE_HT, R.LAKE, feature or 0, "", LAKE_HT - h)
        if feature is None:
            feature = self.f(x, y)
        t = self.t(x, y)
        if t == R.TOWN:
            feature = R.F_NONE
        return (h, t, feature, "", 0.0)

    def height(self, p, x, y):
        return self.h(int(x), int(y))


@pytest.fixture
def world(monkeypatch):
    def make(**kw):
        w = World(**kw)
        monkeypatch.setattr(R, "terra", w.terra)
        monkeypatch.setattr(R, "height", w.height)
        return w
    return make


def field(values, default=300.0):
    """Height function: values[(x, y)] or default."""
    return lambda x, y: values.get((x, y), default)


# ---------------------------------------------------------------------------
# Neighbourhoods
# ---------------------------------------------------------------------------

def test_neighbourhood_sizes_and_order():
    cross = S.neighbourhood_offsets("cross")
    square = S.neighbourhood_offsets("square")
    circle = S.neighbourhood_offsets("circle")
    assert (len(cross), len(square), len(circle)) == (100, 120, 80)
    assert all(dx != 0 and dy != 0 for dx, dy in cross)
    assert (0, 0) not in square and (0, 0) not in circle
    assert all(dx * dx + dy * dy <= 25 for dx, dy in circle)
    assert (3, 4) in circle and (5, 0) in circle and (4, 4) not in circle
    for offs in (cross, square, circle):
        assert list(offs) == sorted(offs)          # dx outer ascending, dy inner
        assert len(set(offs)) == len(offs)
    assert cross[:3] == ((-5, -5), (-5, -4), (-5, -3))
    assert square[:2] == ((-5, -5), (-5, -4)) and square[-1] == (5, 5)
    assert circle[0] == (-5, 0)
    with pytest.raises(ValueError):
        S.neighbourhood_offsets("hexagon")


def test_hypot_of_steps_is_the_correctly_rounded_sqrt():
    # route steps (|d| <= 5) and road / marking segments of moderate length
    for dx in range(0, 200):
        for dy in range(0, 200):
            assert math.hypot(dx, dy) == math.sqrt(dx * dx + dy * dy)


# ---------------------------------------------------------------------------
# Tracing on hand-made fields
# ---------------------------------------------------------------------------

def test_descent_is_strict_equal_heights_are_a_hollow(world):
    world(h=field({}, 250.0))                           # flat
    tr = S.trace_stream(P, 0, 0)
    assert tr == {"route": [(0, 0)], "length": 0.0, "end": "hollow"}


def test_tie_picks_the_first_scanned_point(world):
    # two equally low points: (-3, 2) is scanned before (2, -3) (dx outer)
    world(h=field({(0, 0): 260.0, (-3, 2): 250.0, (2, -3): 250.0}))
    tr = S.trace_stream(P, 0, 0)
    # from (-3, 2) all scanned points are 300 except (0, 0) at 260 (not lower)
    assert tr["route"] == [(0, 0), (-3, 2)]
    assert tr["end"] == "hollow"
    assert tr["length"] == math.hypot(3, 2)
    # same dx: the smaller dy wins
    world(h=field({(0, 0): 260.0, (1, 3): 250.0, (1, -2): 250.0}))
    assert S.trace_stream(P, 0, 0)["route"] == [(0, 0), (1, -2)]


def test_lowest_point_wins_over_earlier_lower_points(world):
    world(h=field({(0, 0): 260.0, (-5, -5): 250.0, (4, 4): 240.0, (5, 5): 245.0}))
    assert S.trace_stream(P, 0, 0)["route"][:2] == [(0, 0), (4, 4)]


def test_neighbourhood_choice(world):
    # lowest (5, 5) outside the circle; (3, 4) inside; (0, -3) only in square/circle
    world(h=field({(0, 0): 290.0, (5, 5): 240.0, (3, 4): 250.0, (0, -3): 230.0,
                   (4, 3): 280.0}))
    assert S.trace_stream(P, 0, 0, neighbourhood="cross")["route"][1] == (5, 5)
    assert S.trace_stream(P, 0, 0, neighbourhood="square")["route"][1] == (0, -3)
    assert S.trace_stream(P, 0, 0, neighbourhood="circle")["route"][1] == (0, -3)
    world(h=field({(0, 0): 290.0, (5, 5): 240.0, (3, 4): 250.0, (5, 0): 260.0}))
    assert S.trace_stream(P, 0, 0, neighbourhood="circle")["route"][1] == (3, 4)
    assert S.trace_stream(P, 0, 0, neighbourhood="square")["route"][1] == (5, 5)


def slope(x, y):
    """Falls 1 per metre eastwards; below the lake height (204) for x > 96."""
    return 300.0 - x


def test_slope_ends_in_the_lake_with_the_water_surface(world):
    world(h=slope)
    tr = S.trace_stream(P, 0, 0)
    # every step is (+5, -5) (dy = -5 is the first scanned of the lowest
    # column) until (95, -95) (height 205); from there x = 96 .. 100 all have
    # terra height 204 (96: ground 204; 97..100: the water surface) and the
    # first scanned of them, (96, -100), wins the tie
    assert tr["route"] == [(5 * k, -5 * k) for k in range(20)] + [(96, -100)]
    assert tr["end"] == "lake"
    length = 0.0
    for _ in range(19):
        length += math.hypot(5, 5)
    length += math.hypot(1, -5)
    assert tr["length"] == length
    # heights strictly fall along the route
    hs = [S.stream_height(P, x, y) for x, y in tr["route"]]
    assert all(a > b for a, b in zip(hs, hs[1:]))
    assert hs[-1] == LAKE_HT


def test_cap_ends_in_limit_and_the_step_is_not_taken(world):
    world(h=slope)
    tr = S.trace_stream(P, 0, 0, max_length=50.0)
    # 7 steps = 49.497..., the 8th would make 56.57 > 50
    assert len(tr["route"]) == 8 and tr["end"] == "limit"
    assert tr["length"] <= 50.0 < tr["length"] + math.hypot(5, 5)
    # a cap exactly at 7 steps' length still allows the 7th step (> not >=)
    l7 = 0.0
    for _ in range(7):
        l7 += math.hypot(5, 5)
    tr = S.trace_stream(P, 0, 0, max_length=l7)
    assert len(tr["route"]) == 8 and tr["length"] == l7 and tr["end"] == "limit"
    # the cap wins over the lake: the lake step is not taken
    tr = S.trace_stream(P, 0, 0, max_length=19 * math.hypot(5, 5) + 1.0)
    assert len(tr["route"]) == 20 and tr["end"] == "limit"


def test_uncapped_route_stops_after_max_points(world, monkeypatch):
    world(h=lambda x, y: 1e6 - x)                 # never reaches the lake
    monkeypatch.setattr(S, "MAX_POINTS", 50)
    tr = S.trace_stream(P, 0, 0, max_length=None)
    assert len(tr["route"]) == 50 and tr["end"] == "limit"
    assert S.trace_stream(P, 0, 0)["end"] == "limit"   # the 300 m cap first
    assert len(S.trace_stream(P, 0, 0)["route"]) == 43  # 42 * 7.07 = 296.98


def test_is_stream():
    assert not S.is_stream([(0, 0)] * 10)
    assert S.is_stream([(0, 0)] * 11)


# ---------------------------------------------------------------------------
# Placed table and ponds on the real terrain
# ---------------------------------------------------------------------------

PONDS_AREA = (23300, 5020, 360, 90)     # classic terrain, several streams


def test_ponds_equal_a_brute_force_scan_in_row_major_order():
    x0, y0, nx, ny = 23880, 5820, 60, 40
    brute = [(x, y) for y in range(y0, y0 + ny) for x in range(x0, x0 + nx)
             if R.terra(P, x, y)[2] == R.F_WATERHOLE]
    assert S.ponds(P, x0, y0, nx, ny) == brute == [(23907, 5835)]


def test_ponds_and_placed_entries():
    pond = (23907, 5835)
    area = (23900, 5830, 10, 10)
    assert S.ponds(P, *area) == [pond]
    # STREAM / MARSH entries are ignored, even on the pond itself
    for v in (("T", R.STREAM), ("T", R.MARSH)):
        assert S.ponds(P, *area, placed={pond: v}) == [pond]
    # other placed terrain or feature hides it
    assert S.ponds(P, *area, placed={pond: ("T", R.GRASS)}) == []
    assert S.ponds(P, *area, placed={pond: ("F", R.F_NONE)}) == []
    # a placed WATERHOLE makes one (row-major order: y first)
    extra = (23901, 5831)
    assert S.ponds(P, *area, placed={extra: ("F", R.F_WATERHOLE)}) == [extra, pond]


def test_stream_height_ignores_stream_and_marsh_only():
    x, y = 23920, 5348                          # a lake point (JS anchor)
    assert S.stream_height(P, x, y) == LAKE_HT
    assert S.stream_height(P, x, y, {(x, y): ("T", R.STREAM)}) == LAKE_HT
    x, y = 23472, 5324
    h = R.terra(P, x, y)[0]
    for v in (("T", R.STREAM), ("T", R.MARSH), ("T", R.ROAD), ("F", R.F_NONE)):
        assert S.stream_height(P, x, y, {(x, y): v}) == h


def test_routes_do_not_change_when_streams_are_marked():
    x0, y0, nx, ny = PONDS_AREA
    found = S.streams(P, x0, y0, nx, ny, margin=0)
    assert len(found) >= 3
    table = S.mark_streams(P, x0, y0, nx, ny, {}, margin=0)
    again = S.streams(P, x0, y0, nx, ny, margin=0, placed=table)
    assert [s["route"] for s in again] == [s["route"] for s in found]
    for st in found:
        hs = [S.stream_height(P, x, y) for x, y in st["route"]]
        assert all(a > b for a, b in zip(hs, hs[1:]))
        assert st["route"][0] == st["source"]
        assert S.trace_stream(P, *st["source"]) == {k: st[k] for k in ("route", "length", "end")}


# ---------------------------------------------------------------------------
# Marsh and marking
# ---------------------------------------------------------------------------

def test_marsh_cells(world):
    world(t=lambda x, y: R.TOWN if (x, y) == (0, 0) else R.GRASS)
    cells = S.marsh_cells(P, [(9, 9), (5, 5)], {})
    assert len(cells) == 81 and len(set(cells)) == 81
    assert cells[0] == (1, 1) and cells[-1] == (9, 9)
    assert S.marsh_cells(P, [(9, 9), (0, 0)], {}) == []              # TOWN
    assert S.marsh_cells(P, [(9, 9), (5, 5)], {(5, 5): ("T", R.ROAD)}) == []
    assert len(S.marsh_cells(P, [(9, 9), (5, 5)], {(5, 5): ("T", R.STREAM)})) == 81


def square3(points):
    return {(x + dx, y + dy) for x, y in points for dx in (-1, 0, 1) for dy in (-1, 0, 1)}


def test_route_points_by_hand():
    assert S.route_points([(0, 0)]) == []
    assert S.route_points([(0, 0), (1, 1)]) == [(1, 1)]
    # a = (1, 1), b = (4, 5), d = 5: q = 1 + k*3/5, 1 + k*4/5 rounded
    assert S.route_points([(0, 0), (1, 1), (4, 5)]) == [
        (1, 1), (2, 2), (2, 3), (3, 3), (3, 4), (4, 5)]
    # diagonal step (5, 5): d = 7.07..., k = 0..7, q = round(k * 0.7071...)
    pts = S.route_points([(9, 9), (0, 0), (5, 5)])
    assert pts == [(0, 0), (1, 1), (1, 1), (2, 2), (3, 3), (4, 4), (4, 4), (5, 5)]


def test_mark_two_point_route(world):
    world()
    table = {}
    assert S.mark_route(P, [(9, 9), (1, 1)], "lake", table) == 9
    assert table == {(x, y): ("T", R.STREAM) for x in range(3) for y in range(3)}


def test_mark_skips_town_and_keeps_placed(world):
    world(t=lambda x, y: R.TOWN if (x, y) == (0, 0) else R.GRASS)
    table = {(2, 2): ("F", R.F_MINE)}
    counter = {}
    assert S.mark_route(P, [(9, 9), (1, 1)], "lake", table, counter) == 7
    assert counter == {"stream": 7, "marsh": 0}
    assert (0, 0) not in table and table[(2, 2)] == ("F", R.F_MINE)
    assert len(table) == 8


def test_mark_three_point_route_and_marsh(world):
    world()
    route = [(0, 0), (1, 1), (4, 5)]
    stream_pts = square3([(1, 1), (2, 2), (2, 3), (3, 3), (3, 4), (4, 5)])
    table = {}
    assert S.mark_route(P, route, "lake", table) == len(stream_pts)
    assert set(table) == stream_pts
    marsh = {(4 + dx, 5 + dy) for dx in range(-4, 5) for dy in range(-4, 5)}
    table = {}
    counter = {}
    n = S.mark_route(P, route, "hollow", table, counter)
    assert n == len(stream_pts | marsh) == len(table)
    assert counter == {"stream": len(stream_pts), "marsh": len(marsh - stream_pts)}
    assert all(table[q] == ("T", R.STREAM) for q in stream_pts)
    assert all(table[q] == ("T", R.MARSH) for q in marsh - stream_pts)
    # "limit" and "lake" ends get no marsh; the pond (0, 0) itself is only
    # marked as a neighbour of route[1]
    table = {}
    S.mark_route(P, route, "limit", table)
    assert set(table) == stream_pts


def test_limit_restart_rule():
    x0, y0, nx, ny = PONDS_AREA
    found = S.streams(P, x0, y0, nx, ny, margin=0)
    assert len(found) >= 2
    sizes = []
    for st in found:
        t = {}
        S.mark_route(P, st["route"], st["end"], t)
        sizes.append(len(t))
    # no restart with the default limit
    info = {}
    full = S.mark_streams(P, x0, y0, nx, ny, {}, margin=0, info=info)
    assert info["restarts"] == 0 and info["streams"] == len(found)
    # a limit just below the total: the last stream triggers one restart, and
    # the table then holds that stream alone
    total = S.count_soaked(full)
    info = {}
    t = S.mark_streams(P, x0, y0, nx, ny, {}, margin=0, limit=total - 1, info=info)
    assert info["restarts"] == 1
    last = {}
    S.mark_route(P, found[-1]["route"], found[-1]["end"], last)
    assert t == last
    # a tiny limit: every stream restarts; the table holds the last one
    t = S.mark_streams(P, x0, y0, nx, ny, {}, margin=0, limit=1, info=info)
    assert info["restarts"] == len(found) and t == last
    # pre-existing STREAM entries count and are removed too; others stay
    far = {(0, k): ("T", R.STREAM) for k in range(5)}
    far[(1, 1)] = ("T", R.ROAD)
    t = S.mark_streams(P, x0, y0, nx, ny, far, margin=0, limit=total + 4, info=info)
    assert info["restarts"] == 1
    assert t == {**last, (1, 1): ("T", R.ROAD)}
    assert len(far) == 6                                     # input unchanged


# ---------------------------------------------------------------------------
# findGoodSite
# ---------------------------------------------------------------------------

def crit(s, placed=None, **kw):
    return S.criteria(P, s, placed or {}, **kw)


def test_criterion_a(world):
    world(h=field({(0, 0): LAKE_HT + 10.0, (1, 0): LAKE_HT + 9.999, (2, 0): 100.0}))
    assert crit((0, 0))[0] is True
    assert crit((1, 0))[0] is False
    assert crit((2, 0))[0] is False                  # lake
    assert crit((1, 0), min_height=9.99)[0] is True


def test_criterion_b_and_c(world):
    kinds = {(0, 0): R.GRASS, (1, 0): R.MOOR, (2, 0): R.WOOD, (3, 0): R.THICKET,
             (4, 0): R.TOWN}
    world(t=lambda x, y: kinds.get((x, y), R.GRASS),
          f=lambda x, y: R.F_BOULDER if (x, y) == (0, 5) else R.F_NONE)
    assert [crit((x, 0))[1] for x in range(5)] == [True, True, True, False, False]
    assert crit((0, 5))[2] is False and crit((0, 4))[2] is True
    assert crit((0, 4), {(0, 4): ("F", R.F_ROOT)})[2] is False
    assert crit((0, 5), {(0, 5): ("F", R.F_NONE)})[2] is True


def test_criterion_d(world):
    mines = {(7, 0), (20, 0), (26, 3), (45, 5)}
    world(f=lambda x, y: R.F_MINE if (x, y) in mines else R.F_NONE)
    assert crit((0, 0))[3] is True                   # distance 7, not < 7
    assert crit((1, 0))[3] is False
    assert crit((20, 3))[3] is False                 # (6, 0) away: 6 < 7
    assert crit((20, -7))[3] is True                 # (0, 7): 7
    assert crit((40, 0))[3] is True                  # (5, 5): sqrt 50 > 7
    assert crit((41, 1))[3] is False                 # (4, 4): sqrt 32
    assert crit((0, 0), mine_distance=7.5)[3] is False


def first_building_centre():
    """A (bx, by), multiples of 16, where the SPEC 5 building hash passes."""
    for by in range(160, 1600, 16):
        for bx in range(160, 1600, 16):
            if (R.toint32(R.PI10000 * float(bx) * float(by)) & 0xF) < 8:
                return bx, by
    raise AssertionError


def test_criterion_e(world):
    bx, by = first_building_centre()
    world(t=lambda x, y: R.TOWN if (x, y) == (bx, by) else R.GRASS)
    assert R.buildings(P, bx - 1, by - 1, 3, 3) == [(bx, by)]
    assert crit((bx + 16, by))[4] is True            # 10 from the edge bx+6
    assert crit((bx + 15, by))[4] is False
    assert crit((bx, by - 16))[4] is True
    assert crit((bx - 15, by + 2))[4] is False
    assert crit((bx + 12, by + 14))[4] is True       # (6, 8): 10
    assert crit((bx + 12, by + 13))[4] is False      # (6, 7): sqrt 85
    assert crit((bx, by))[4] is False                # inside
    assert crit((bx + 15, by), building_distance=9)[4] is True
    # a placed terrain on the centre removes the building
    assert crit((bx + 15, by), {(bx, by): ("T", R.GRASS)})[4] is True


def test_criterion_f(world):
    world(t=lambda x, y: R.THICKET if (x, y) in {(10, 0), (48, 7)} else R.GRASS,
          h=field({(80, -10): 100.0}))
    assert crit((0, 0))[5] is False                  # distance 10, <= 10
    assert crit((-1, 0))[5] is True
    assert crit((40, 0))[5] is True                  # (8, 7): sqrt 113
    assert crit((41, 0))[5] is False                 # (7, 7): sqrt 98
    assert crit((80, 0))[5] is False                 # lake 10 m away
    assert crit((80, 1))[5] is True
    assert crit((0, 0), clearance=9.9)[5] is True


def test_spiral_candidates():
    c = S.spiral_candidates((100, 200))
    assert len(c) == 1000
    assert c[0] == (100, 200)
    assert c[1] == (100, 208)                         # theta 0: (sin, cos) = (0, 1)
    assert c[3] == (108, 200)                         # theta pi/2
    assert c[5] == (100, 192) and c[7] == (92, 200)
    assert c[9] == (100, 216)                         # ring 2 starts at 1 + 8
    assert c[961] == (100, 328)                       # ring 16 starts at 1 + 8*120
    assert all(abs(math.hypot(x - 100, y - 200) - 120) < 1 for x, y in c[841:961])
    assert S.spiral_candidates((0, 0), max_loops=5) == c5(0, 0)
    # a0 turns the spiral
    d = S.spiral_candidates((0, 0), max_loops=2, a0=math.pi / 2)
    assert d == [(0, 0), (8, 0)]


def c5(x, y):
    return [(x, y), (x, y + 8), (x + 6, y + 6), (x + 8, y), (x + 6, y - 6)]


def test_good_site_first_candidate(world):
    world()
    r = S.good_site(P, 10.4, -3.5)
    assert (r["x"], r["y"], r["ok"], r["altered"], r["reason"], r["tries"]) == (10, -3, True, False, "", 1)
    assert r["placed"] is None


def test_good_site_without_candidates(world):
    world()
    r = S.good_site(P, 3, 4, max_loops=0)
    assert (r["x"], r["y"], r["ok"], r["reason"], r["tries"]) == (3, 4, False, "spiral", 0)


def test_good_site_dry_jumps(world):
    # dry for x > -250: three jumps (-100, +100) reach (-300, 300)
    world(h=lambda x, y: 300.0 if x <= -250 else 100.0)
    r = S.good_site(P, 0, 0)
    assert (r["x"], r["y"], r["ok"], r["tries"]) == (-300, 300, True, 1)
    r = S.good_site(P, 0, 0, max_loops=2)
    assert (r["x"], r["y"], r["ok"], r["reason"], r["tries"]) == (-200, 200, False, "dry", 0)
    r = S.good_site(P, 0, 0, max_loops=3)
    assert r["ok"] is True


def test_good_site_spiral_every_earlier_candidate_fails(world):
    # a thicket disc of radius 15 around the origin
    world(t=lambda x, y: R.THICKET if x * x + y * y <= 225 else R.GRASS)
    r = S.good_site(P, 0, 0)
    assert r["ok"] and not r["altered"]
    cands = S.spiral_candidates((0, 0))
    k = r["tries"] - 1
    assert cands[k] == (r["x"], r["y"])
    assert all(S.criteria(P, (r["x"], r["y"])))
    assert not any(all(S.criteria(P, c)) for c in cands[:k])
    # ring 1..3 (radius <= 24) cannot be 10 m clear of the disc: ring 4 at least
    assert k >= 1 + 8 + 16 + 24
    assert math.hypot(r["x"], r["y"]) >= 25


def test_good_site_may_alter(world):
    world(t=lambda x, y: R.THICKET)
    r = S.good_site(P, 0, 0, max_loops=30)
    assert (r["ok"], r["reason"], r["tries"], (r["x"], r["y"])) == (False, "spiral", 30, (0, 0))
    r = S.good_site(P, 0, 0, max_loops=30, may_alter=True)
    assert (r["ok"], r["altered"], r["tries"], (r["x"], r["y"])) == (True, True, 30, (0, 0))
    assert len(r["placed"]) == 1257
    assert set(r["placed"].values()) == {("T", R.GRASS)}
    assert all(S.criteria(P, (0, 0), r["placed"]))
    # the site's own open terrain is used; input entries are kept or overwritten
    world(t=lambda x, y: R.MOOR if (x, y) == (0, 0) else R.THICKET)
    start = {(0, 1): ("F", R.F_MINE), (50, 50): ("T", R.ROAD)}
    r = S.good_site(P, 0, 0, start, max_loops=30, may_alter=True)
    assert r["altered"] and set(r["placed"].values()) == {("T", R.MOOR), ("T", R.ROAD)}
    assert len(r["placed"]) == 1258 and len(start) == 2
    assert all(S.criteria(P, (0, 0), r["placed"]))
    # per-point variant
    r = S.good_site(P, 0, 0, max_loops=30, may_alter=True, patch_terrain="point")
    assert r["placed"][(0, 0)] == ("T", R.MOOR) and r["placed"][(1, 0)] == ("T", R.GRASS)


def test_good_site_may_alter_patches_after_the_dry_jumps(world):
    # step 1 leaves s where the ground is high enough, so candidate 0 meets (a)
    # and is the one patched
    world(h=lambda x, y: 300.0 if x <= 0 else 210.0, t=lambda x, y: R.THICKET)
    r = S.good_site(P, 5, 0, max_loops=9, may_alter=True)
    assert (r["x"], r["y"], r["altered"], r["tries"]) == (-95, 100, True, 9)


@pytest.mark.parametrize("x, y", [(23796, 5618), (23396, 5418), (24146, 5718)])
def test_good_site_on_the_classic_map(x, y):
    t = time.time()
    r = S.good_site(P, x, y)
    assert time.time() - t < 30
    assert r["ok"] and not r["altered"] and r["placed"] is None
    # step 1: (-100, +100) jumps until the ground is 10 above the lake
    sx, sy = r["start"]
    n = (x - sx) // 100
    assert (x - sx, sy - y) == (100 * n, 100 * n) and n >= 0
    assert R.height(P, sx, sy) - LAKE_HT >= 10
    assert all(R.height(P, x - 100 * i, y + 100 * i) - LAKE_HT < 10 for i in range(n))
    cands = S.spiral_candidates((sx, sy))
    k = r["tries"] - 1
    assert cands[k] == (r["x"], r["y"])
    assert all(S.criteria(P, (r["x"], r["y"])))
    for c in cands[:k]:
        assert not all(S.criteria(P, c))


def test_good_site_may_alter_on_the_classic_map():
    x, y = 24146, 5718                   # needs more than 10 candidates
    r = S.good_site(P, x, y, max_loops=10)
    assert (r["ok"], r["reason"], r["tries"]) == (False, "spiral", 10)
    cands = S.spiral_candidates((x, y), max_loops=10)
    counts = [sum(S.criteria(P, c)) for c in cands]
    assert (r["x"], r["y"]) == cands[counts.index(max(counts))]
    r = S.good_site(P, x, y, max_loops=10, may_alter=True)
    assert r["ok"] and r["altered"]
    first_a = next(c for c in cands if S.criteria(P, c)[0])
    assert (r["x"], r["y"]) == first_a
    assert len(r["placed"]) == 1257
    assert all(S.criteria(P, first_a, r["placed"]))


# ---------------------------------------------------------------------------
# Roads
# ---------------------------------------------------------------------------

def square5(points, w=2):
    return {(x + dx, y + dy) for x, y in points
            for dx in range(-w, w + 1) for dy in range(-w, w + 1)}


def test_pave_footprints(world):
    world()
    t = S.pave_road(P, [(0, 0), (10, 0)], {})
    assert len(t) == 15 * 5 and set(t.values()) == {("T", R.ROAD)}
    t = S.pave_road(P, [(0, 0), (3, 4)], {})
    qs = [(0, 0), (1, 1), (1, 2), (2, 2), (2, 3), (3, 4)]
    assert S.road_segment_points((0, 0), (3, 4)) == qs
    assert set(t) == square5(qs)
    t = S.pave_road(P, [(0, 0), (10, 0), (10, 10)], {}, half_width=1)
    assert len(t) == 13 * 3 + 3 * 10
    assert S.pave_road(P, [(5, 5)], {}) == {}
    # roads overwrite streams, marshes and everything else
    start = {(0, 0): ("T", R.STREAM), (1, 0): ("T", R.MARSH), (2, 0): ("F", R.F_MINE),
             (50, 50): ("T", R.STREAM)}
    t = S.pave_road(P, [(0, 0), (10, 0)], start)
    assert t[(0, 0)] == t[(1, 0)] == t[(2, 0)] == ("T", R.ROAD)
    assert t[(50, 50)] == ("T", R.STREAM) and len(t) == 76
    assert start[(0, 0)] == ("T", R.STREAM)                  # input unchanged


def test_pave_bridge_limit(world):
    # a lake for 0 <= x < 100, ground 300 elsewhere
    world(h=lambda x, y: 150.0 if 0 <= x < 100 else 300.0)
    t = S.pave_road(P, [(-5, 0), (0, 0), (59, 0)], {})          # 60 lake steps
    assert len(t) == (59 + 2 - (-5 - 2) + 1) * 5
    with pytest.raises(ValueError, match="segment 1"):
        S.pave_road(P, [(-5, 0), (0, 0), (60, 0)], {})           # 61
    assert S.bridge_counts(P, [(-5, 0), (0, 0), (60, 0)]) == [1, 61]
    # per segment: two segments of 40 lake steps each are accepted
    S.pave_road(P, [(0, 0), (39, 0), (39, 39)], {})
    assert S.bridge_counts(P, [(0, 0), (39, 0), (39, 39)]) == [40, 40]
    with pytest.raises(ValueError, match="segment 0"):
        S.pave_road(P, [(0, 0), (39, 0), (39, 39)], {}, max_bridge=39)
    # a placed road on the lake still counts (height max(ht, lake) = 204)
    assert S.bridge_counts(P, [(0, 0), (9, 0)], {(3, 0): ("T", R.ROAD)}) == [10]
    # terra height on the lake is the water surface (204), not the ground (150)
    assert S.bridge_counts(P, [(0, 0), (9, 0)], lake_base=204.0) == [10]
    assert S.bridge_counts(P, [(0, 0), (9, 0)], lake_base=203.5) == [0]


# ---------------------------------------------------------------------------
# The classic map
# ---------------------------------------------------------------------------

def test_streams_on_the_classic_map_sub_area_are_quick_and_plausible():
    x0, y0, _nx, _ny = R.CLASSIC_MAP
    t = time.time()
    found = S.streams(P, x0 + 400, y0 + 400, 200, 200, margin=0)
    table = S.mark_streams(P, x0 + 400, y0 + 400, 200, 200, {}, margin=0)
    assert time.time() - t < 20
    assert [s["source"] for s in found] == [(23907, 5835)]
    (st,) = found
    assert st["end"] in ("hollow", "lake", "limit")
    assert st["marsh"] == (st["end"] == "hollow")
    assert 0 < st["length"] <= 300.0
    soaked = S.count_soaked(table)
    assert soaked == len(table) > len(st["route"])
    assert all(R.terra(P, x, y)[1] != R.TOWN for x, y in table)
