"""findGoodSite (SPEC 12): relfterrain against tests/streams_reference.py.

The reference (``good_site``, ``criteria``, ``spiral_candidates``) is an
independent pure-Python transcription; it is given the fdlibm ``sin``/``cos``
of tests/fdlibm_reference.py, the trig the core uses (``math.sin`` differs
from it in the last bit on some spiral angles).  Every ok site is also checked
criterion by criterion against terra computed by the grid path
(``Terrain.grid`` and ``Terrain.buildings``), and no earlier spiral candidate
may pass the reference's criteria.
"""

import math

import fdlibm_reference as FD
import numpy as np
import pytest
import reference as R
import streams_reference as S
from helpers import ref_placed
from hypothesis import given
from hypothesis import strategies as st

import relfterrain as rt
from relfterrain.sites import CRITERIA, SiteReason

TT = rt.TerrainType
X0, Y0, NX, NY = rt.CLASSIC_MAP
CODES = {"": SiteReason.NONE, "dry": SiteReason.DRY, "spiral": SiteReason.SPIRAL}
OPTS = ("min_height", "mine_distance", "building_distance", "clearance", "max_loops",
        "may_alter", "patch_radius")


def reference(t, x, y, a0=0.0, **opts):
    """The reference's answer as (x, y, ok, altered, reason code, tries), and its table."""
    p = R.Params(lake_height=t.lake_height) if t.lake_height != R.LAKE_BASE else R.CLASSIC
    r = S.good_site(p, x, y, ref_placed(rt, t.placed), a0=a0, sin=FD.sin, cos=FD.cos, **opts)
    return (r["x"], r["y"], r["ok"], r["altered"], CODES[r["reason"]], r["tries"]), r


def core(site):
    code = SiteReason.NONE if not site.reason else (
        SiteReason.DRY if site.reason.startswith("dry-land search:") else SiteReason.SPIRAL)
    return (site.x, site.y, site.ok, site.altered, code, site.tries)


def starts(n, seed, margin=150):
    g = np.random.default_rng(seed)
    xs = g.uniform(X0 - margin, X0 + NX + margin, n)
    ys = g.uniform(Y0 - margin, Y0 + NY + margin, n)
    # some exact halves, where round_js matters
    xs[::5] = np.floor(xs[::5]) + 0.5
    ys[1::5] = np.floor(ys[1::5]) - 0.5
    return xs, ys


def grid_criteria(t, sx, sy, min_height=10, mine_distance=7, building_distance=10,
                  clearance=10):
    """The six criteria at (sx, sy) from Terrain.grid and Terrain.buildings."""
    half = 40
    g = t.grid(sx - half, sy - half, 2 * half + 1, 2 * half + 1)
    dy, dx = np.mgrid[-half:half + 1, -half:half + 1]
    d2 = dx * dx + dy * dy
    here = (half, half)
    open_ = np.isin(g.terrain, [TT.GRASS, TT.MOOR, TT.WOOD])
    a = g.terrain[here] != TT.LAKE and g.height[here] - t.lake_height >= min_height
    b = bool(open_[here])
    c = g.feature[here] == rt.Feature.NONE
    d = not np.any((g.feature == rt.Feature.MINE) & (d2 < mine_distance ** 2))
    e = True
    for bx, by in t.buildings(sx - 40, sy - 40, 81, 81):
        ddx = max(bx - 6 - sx, 0, sx - (bx + 6))
        ddy = max(by - 6 - sy, 0, sy - (by + 6))
        if ddx * ddx + ddy * ddy < building_distance ** 2:
            e = False
    f = bool(np.all(open_[d2 <= clearance ** 2]))
    return (bool(a), b, bool(c), bool(d), e, f)


def check_site(t, site, start, a0=0.0, **opts):
    """An ok, unaltered site passes every criterion (grid check and reference
    criteria); every earlier spiral candidate fails the reference's."""
    assert site.ok and not site.altered and site.reason == ""
    crit = {k: opts[k] for k in ("min_height", "mine_distance", "building_distance",
                                 "clearance") if k in opts}
    assert grid_criteria(t, site.x, site.y, **crit) == (True,) * 6
    p = R.Params(lake_height=t.lake_height)
    placed = ref_placed(rt, t.placed)
    cands = S.spiral_candidates(start, opts.get("max_loops", 1000), a0, FD.sin, FD.cos)
    assert cands[site.tries - 1] == (site.x, site.y)
    terra = S._Terra(p, placed)
    for c in cands[:site.tries - 1]:
        assert not all(S.criteria(p, c, placed, _terra=terra, **crit)), c


# ---------------------------------------------------------------------------
# Equal to the reference
# ---------------------------------------------------------------------------

def test_classic_map_starts_equal_reference():
    t = rt.Terrain()
    xs, ys = starts(30, 1)
    tries = []
    for x, y in zip(xs, ys):
        site = t.find_good_site(x, y)
        exp, r = reference(t, x, y)
        assert core(site) == exp, (x, y)
        check_site(t, site, r["start"])
        tries.append(site.tries)
    assert max(tries) > 1                       # some spirals really turn


def test_lake_starts_jump_to_dry_land():
    t = rt.Terrain()
    g = t.grid(X0, Y0, NX, NY, 10)
    lake = np.argwhere(g.terrain == TT.LAKE)
    assert len(lake) > 20
    for r, c in lake[:: len(lake) // 8][:8]:
        x, y = float(g.x[c]), float(g.y[r])
        site = t.find_good_site(x, y)
        exp, ref = reference(t, x, y)
        assert core(site) == exp
        assert ref["start"] != (round(x), round(y))      # it jumped
        check_site(t, site, ref["start"])


@pytest.mark.parametrize("opts", [
    {"min_height": 30},
    {"min_height": -5, "clearance": 4.5},
    {"mine_distance": 12.5, "building_distance": 25, "clearance": 7},
    {"building_distance": 0, "mine_distance": 0, "clearance": 0},
    {"max_loops": 40, "clearance": 14},
])
def test_custom_thresholds_equal_reference(opts):
    t = rt.Terrain()
    xs, ys = starts(6, 7)
    for x, y in zip(xs, ys):
        site = t.find_good_site(x, y, **opts)
        exp, r = reference(t, x, y, **opts)
        assert core(site) == exp, (x, y, opts)
        if site.ok:
            check_site(t, site, r["start"], **opts)


@pytest.mark.parametrize("seed", [0, 3, 12345])
def test_rng_angle_equals_reference(seed):
    t = rt.Terrain()
    a0 = 2.0 * math.pi * np.random.default_rng(seed).random()
    assert rt.sites.start_angle(seed) == a0
    assert rt.sites.start_angle(np.random.default_rng(seed)) == a0
    for x, y in [(23450, 5450), (23300, 5500), (24180, 5780)]:
        site = t.find_good_site(x, y, rng=seed)
        exp, r = reference(t, x, y, a0=a0)
        assert core(site) == exp
        check_site(t, site, r["start"], a0=a0)


def test_placed_entries_equal_reference():
    t = rt.Terrain()
    x, y = 23400, 5320
    assert t.find_good_site(x, y).tries == 1
    # a thicket strip over the start, a mine and a town point near the ring
    for k in range(-12, 13):
        t.place(x + k, y + 3, TT.THICKET)
    t.place(x + 9, y - 4, rt.Feature.MINE)
    t.place(x - 20, y + 1, TT.TOWN)
    t.place(x + 2, y - 9, rt.Feature.NONE)
    site = t.find_good_site(x, y)
    exp, r = reference(t, x, y)
    assert core(site) == exp
    assert site.tries > 1
    check_site(t, site, r["start"])


def test_may_alter_equals_reference_and_paints():
    t = rt.Terrain()
    x, y = 23600, 5400
    for px in range(x - 40, x + 41):
        for py in range(y - 40, y + 41):
            t.place(px, py, TT.THICKET)
    before = dict(t.placed)
    opts = {"max_loops": 30, "may_alter": True}
    exp, r = reference(t, x, y, **opts)
    site = t.find_good_site(x, y, **opts)
    assert core(site) == exp
    assert site.ok and site.altered and site.reason == "" and site.tries == 30
    assert ref_placed(rt, t.placed) == r["placed"]
    painted = {k: v for k, v in t.placed.items() if before.get(k) != v}
    assert len(painted) == 1257 and set(painted.values()) == {TT.GRASS}
    assert grid_criteria(t, site.x, site.y) == (True,) * 6
    again = t.find_good_site(x, y, max_loops=30)
    assert again.ok and not again.altered


def test_without_may_alter_the_report_equals_reference():
    t = rt.Terrain()
    x, y = 23600, 5400
    for px in range(x - 40, x + 41):
        for py in range(y - 40, y + 41):
            t.place(px, py, TT.THICKET)
    site = t.find_good_site(x, y, max_loops=30)
    exp, r = reference(t, x, y, max_loops=30)
    assert core(site) == exp
    assert not site.ok and site.reason.startswith("spiral: none of the 30 candidates")
    held = sum(S.criteria(R.CLASSIC, (site.x, site.y), ref_placed(rt, t.placed)))
    assert f"meets the most, {held} of 6" in site.reason
    assert CRITERIA[5] in site.reason                     # (f) fails in a thicket


@given(x=st.floats(X0 - 200, X0 + NX + 200), y=st.floats(Y0 - 200, Y0 + NY + 200),
       loops=st.integers(0, 60), seed=st.none() | st.integers(0, 2**32))
def test_property_equal_reference(x, y, loops, seed):
    t = _CLASSIC
    a0 = rt.sites.start_angle(seed)
    site = t.find_good_site(x, y, max_loops=loops, rng=seed)
    exp, _ = reference(t, x, y, a0=a0, max_loops=loops)
    assert core(site) == exp


_CLASSIC = rt.Terrain()


# ---------------------------------------------------------------------------
# Impossible cases
# ---------------------------------------------------------------------------

def test_large_thicket_overruns_the_spiral_or_is_painted():
    t = rt.Terrain()
    x, y = 23600, 5600
    for px in range(x - 140, x + 141):
        for py in range(y - 140, y + 141):
            t.place(px, py, TT.THICKET)
    site = t.find_good_site(x, y)
    assert not site.ok and not site.altered and site.tries == 1000
    assert site.reason.startswith("spiral: none of the 1000 candidates around (23600, 5600) "
                                  "(max_loops=1000: rings 1..16, radius up to 128 m)")
    n = len(t.placed)
    site = t.find_good_site(x, y, may_alter=True)
    assert site.ok and site.altered and site.tries == 1000
    assert len(t.placed) == n                 # painted over existing entries only
    assert grid_criteria(t, site.x, site.y) == (True,) * 6
    assert t.at(site.x + 20, site.y) is TT.GRASS and t.at(site.x + 15, site.y + 14) is TT.THICKET


def test_sea_without_land_gives_up_the_dry_land_search():
    t = rt.Terrain(lake_height=1000)
    site = t.find_good_site(23500, 5600)
    assert not site.ok and site.tries == 0
    assert (site.x, site.y) == (23500 - 100_000, 5600 + 100_000)
    assert site.reason == ("dry-land search: after 1000 jumps of (-100, +100) (max_loops=1000) "
                           "the ground at (-76500, 105600) is still less than min_height=10 m "
                           "above the lake")
    assert t.find_good_site(23500, 5600, may_alter=True) == site
    exp, _ = reference(t, 23500, 5600, max_loops=7)
    assert core(t.find_good_site(23500, 5600, max_loops=7)) == exp


def test_no_candidate_meeting_a_cannot_be_painted():
    t = rt.Terrain()
    # dry ground (the jumps test the ground height), but a placed LAKE fails (a)
    x, y = 23400, 5320
    for px in range(x - 30, x + 31):
        for py in range(y - 30, y + 31):
            t.place(px, py, TT.LAKE)
    site = t.find_good_site(x, y, max_loops=9, may_alter=True)
    exp, _ = reference(t, x, y, max_loops=9, may_alter=True)
    assert core(site) == exp
    assert not site.ok and not site.altered
    assert "may_alter: no candidate meets (a)" in site.reason


# ---------------------------------------------------------------------------
# Many starts
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("threads", [1, 2, 3, None])
def test_many_equal_single_for_every_thread_count(threads):
    t = rt.Terrain()
    xs, ys = starts(40, 11)
    many = t.find_good_sites(xs, ys, threads=threads)
    assert many.x.dtype == np.int64 and many.ok.dtype == np.bool_
    assert many.reason.dtype == np.uint8
    for i, (x, y) in enumerate(zip(xs, ys)):
        assert many.site(i) == t.find_good_site(x, y)


def test_many_with_rng_draws_one_angle_per_start():
    t = rt.Terrain()
    xs, ys = starts(12, 5)
    many = t.find_good_sites(xs, ys, rng=42, threads=2)
    u = np.random.default_rng(42).random(12)
    for i in range(4):
        exp, _ = reference(t, xs[i], ys[i], a0=2.0 * math.pi * u[i])
        assert core(many.site(i)) == exp
    assert many.site(0) == t.find_good_site(xs[0], ys[0], rng=42)


def test_many_broadcast_shapes():
    t = rt.Terrain()
    xs = np.array([[23400.0, 23800.0], [23600.0, 23700.0]])
    many = t.find_good_sites(xs, 5320.0)
    assert many.x.shape == (2, 2)
    assert many.site((1, 0)) == t.find_good_site(23600.0, 5320.0)
    assert many.site(3) == t.find_good_site(23700.0, 5320.0)


def test_many_with_may_alter_sees_earlier_patches():
    def world():
        t = rt.Terrain()
        for px in range(23600 - 60, 23600 + 61):
            for py in range(5400 - 60, 5400 + 61):
                t.place(px, py, TT.THICKET)
        return t

    xs = [23600, 23604, 23590, 23400]
    ys = [5400, 5398, 5410, 5320]
    a, b = world(), world()
    many = a.find_good_sites(xs, ys, max_loops=25, may_alter=True, threads=2)
    singles = [b.find_good_site(x, y, max_loops=25, may_alter=True) for x, y in zip(xs, ys)]
    assert [many.site(i) for i in range(4)] == singles
    assert dict(a.placed) == dict(b.placed)
    assert many.altered[0] and not many.altered[1:].any()
    # the reference, start after start, on its own table
    placed = ref_placed(rt, world().placed)
    for i, (x, y) in enumerate(zip(xs, ys)):
        r = S.good_site(R.CLASSIC, x, y, placed, max_loops=25, may_alter=True,
                        sin=FD.sin, cos=FD.cos)
        placed = r["placed"]
        assert (r["x"], r["y"], r["ok"], r["altered"], r["tries"]) == (
            many.x[i], many.y[i], many.ok[i], many.altered[i], many.tries[i])
    assert ref_placed(rt, a.placed) == placed


def test_snapshot_copy_is_not_altered():
    t = rt.Terrain()
    for px in range(23600 - 60, 23600 + 61):
        for py in range(5400 - 60, 5400 + 61):
            t.place(px, py, TT.THICKET)
    c = t.copy()
    n = len(t.placed)
    assert t.find_good_site(23600, 5400, max_loops=10, may_alter=True).altered
    assert len(c.placed) == n and c == c.copy() and c != t


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, exc, name", [
    ({"x": "a"}, TypeError, "x"),
    ({"y": float("nan")}, ValueError, "y"),
    ({"x": 2.0**51}, ValueError, "x"),
    ({"min_height": float("inf")}, ValueError, "min_height"),
    ({"min_height": None}, TypeError, "min_height"),
    ({"mine_distance": -1}, ValueError, "mine_distance"),
    ({"building_distance": 1000}, ValueError, "building_distance"),
    ({"clearance": True}, TypeError, "clearance"),
    ({"max_loops": -1}, ValueError, "max_loops"),
    ({"max_loops": 1.5}, TypeError, "max_loops"),
    ({"max_loops": 10**8}, ValueError, "max_loops"),
    ({"may_alter": 1}, TypeError, "may_alter"),
    ({"patch_radius": float("nan")}, ValueError, "patch_radius"),
    ({"rng": -3}, ValueError, "rng"),
    ({"rng": "seed"}, TypeError, "rng"),
    ({"rng": 1.5}, TypeError, "rng"),
])
def test_bad_input_names_the_argument(kwargs, exc, name):
    t = rt.Terrain()
    args = {"x": 23400, "y": 5320}
    args.update(kwargs)
    x, y = args.pop("x"), args.pop("y")
    with pytest.raises(exc, match=f"^{name}: "):
        t.find_good_site(x, y, **args)
    if name not in ("x", "y"):
        with pytest.raises(exc, match=f"^{name}: "):
            t.find_good_sites([x], [y], **args)


def test_many_bad_input_names_the_argument():
    t = rt.Terrain()
    with pytest.raises(ValueError, match="^x: "):
        t.find_good_sites([1.0, float("inf")], [0.0, 0.0])
    with pytest.raises(ValueError, match="^x, y: "):
        t.find_good_sites([1.0, 2.0, 3.0], [0.0, 0.0])
    with pytest.raises(TypeError, match="^y: "):
        t.find_good_sites([1.0], [object()])
    with pytest.raises(ValueError, match="^threads: "):
        t.find_good_sites([1.0], [0.0], threads=0)
    with pytest.raises(TypeError, match="^terrain: "):
        rt._core.find_good_sites(object(), np.zeros(1), np.zeros(1))
    with pytest.raises(ValueError, match="^rng: "):
        rt._core.find_good_sites(t._core, np.zeros(2), np.zeros(2), np.zeros(3))
    empty = t.find_good_sites([], [])
    assert empty.x.shape == (0,) and empty.ok.dtype == np.bool_


@pytest.mark.parametrize("offset, moves", [((7, 0), False), ((0, -7), False),
                                           ((6, 3), True), ((-4, 5), True)])
def test_mine_distance_is_strict(offset, moves):
    t = rt.Terrain()
    x, y = 23400, 5320
    assert t.find_good_site(x, y) == rt.Site(x, y, True, False, "", 1)
    t.place(x + offset[0], y + offset[1], rt.Feature.MINE)
    assert t.terra(x + offset[0], y + offset[1]).feature is rt.Feature.MINE
    site = t.find_good_site(x, y)
    assert ((site.x, site.y) != (x, y)) == moves
    exp, _ = reference(t, x, y)
    assert core(site) == exp
    # a non-integer distance: 7.5 covers d*d = 49 .. 56
    exp, _ = reference(t, x, y, mine_distance=7.5)
    assert core(t.find_good_site(x, y, mine_distance=7.5)) == exp
    assert t.find_good_site(x, y, mine_distance=7.5).tries > 1


def test_clearance_is_inclusive():
    t = rt.Terrain()
    x, y = 23400, 5320
    t.place(x + 11, y, TT.THICKET)
    assert t.find_good_site(x, y).tries == 1
    t.place(x + 6, y + 8, TT.THICKET)                       # exactly 10 m away
    site = t.find_good_site(x, y)
    assert site.tries > 1
    exp, _ = reference(t, x, y)
    assert core(site) == exp
