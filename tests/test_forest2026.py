"""SPEC 17: The Forest as it runs today (terrain00.js, 2026) and the exact
author variants, against the independent transcription forest2026_reference.py.
"""

from __future__ import annotations

import math

import forest2026_reference as F
import numpy as np
import pytest
import reference as R
from hypothesis import given
from hypothesis import strategies as st

import relfterrain as rt
from relfterrain import Feature, TerrainType, mathjs

VARIANTS = rt.simd_variants()

# the SPEC 17 models compared: the preset, the classic model as terrain00.js
# computes it, and each rule alone on the classic model (levels where the
# classic ground reaches them: it spans about 200 .. 600 m)
MODELS = {
    "forest_2026": F.forest_2026(),
    "classic_js": F.Params(calc_prof="js", x_below=32),
    "rock": F.Params(rock_above=420.0),
    "quarry": F.Params(quarry_below=200.0, quarry_depth=40.0),
    "quarry_floor": F.Params(quarry_below=260.0, quarry_depth=17.5, quarry_min_height=300.25,
                             lake_height=230.0),
    "paths_raw": F.Params(with_paths=True, path_height="raw", mountain_base=400.0,
                          path_tolerance=6.0),
    "snow_keeps": F.Params(snow_height=430.0, snow_keeps_feature=True,
                           pi10000=math.pi * 1000 * 10, cone_below=128),
    "mixed": F.Params(calc_prof="js", rock_above=450.0, snow_height=500.0, mountain_base=420.0,
                      quarry_below=220.0, with_paths=True, path_height="raw",
                      snow_keeps_feature=True, town_abs=False),
}


def _terrain(model: F.Params, **kw) -> rt.Terrain:
    return rt.Terrain(**model.terrain_kwargs(), **kw)


def _same(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _check_points(model: F.Params, t: rt.Terrain, xs, ys, placed=None) -> None:
    s = t.sample(np.asarray(xs, float), np.asarray(ys, float))
    for k, (x, y) in enumerate(zip(xs, ys)):
        h, ter, f, d = F.terra(model, x, y, placed)
        got = (float(s.height[k]), int(s.terrain[k]), int(s.feature[k]), float(s.depth[k]))
        assert got == (h, ter, f, d), (x, y, got, (h, ter, f, d))


# -- the issue's points ---------------------------------------------------------

def test_the_issue_examples():
    t = rt.Terrain.preset("forest_2026")
    q = t.terra(-398348, 300168)
    assert (q.terrain, q.height, q.feature) == (TerrainType.QUARRY, 319.5, Feature.NONE)
    moor = t.replace(quarry_below=None).terra(-398348, 300168)  # the issue's "ours"
    assert (moor.terrain, moor.height) == (TerrainType.MOOR, 359.5)
    assert t.terra(3027496, -65053396).terrain == TerrainType.MUD
    assert rt.Terrain(calc_prof="js").terra(144.89, -80.66).terrain == TerrainType.WOOD
    assert rt.Terrain().terra(144.89, -80.66).terrain == TerrainType.THICKET
    for x, y in ((-398348, 300168), (3027496, -65053396), (144.89, -80.66)):
        _check_points(MODELS["forest_2026"], t, [x], [y])


def test_preset_is_spec17():
    p = rt.presets.preset_params("forest_2026")
    assert p.profile.tolist() == list(F.FOREST_2026_PROFILE)
    ref = F.forest_2026()
    for name in ("ah", "bh", "a1", "b1", "a2", "b2", "a3", "b3"):
        assert getattr(p, name) == getattr(ref, name)
    assert (p.mountain_base, p.snow_height, p.rock_above, p.quarry_below, p.quarry_depth,
            p.quarry_min_height, p.x_below, p.calc_prof, p.path_height) == \
        (626.0, 680.0, 626.0, 77.0, 40.0, 254.0, 32, "js", "raw")
    assert rt.presets.info("forest_2026").stream_max_length is None
    assert rt.presets.info("forest").stream_max_length == 300.0


# -- random points: the transcription ------------------------------------------

@pytest.mark.parametrize("name", sorted(MODELS))
def test_random_points(name):
    model = MODELS[name]
    t = _terrain(model)
    rng = np.random.default_rng(17)
    # integer and fractional points, negative ones, near the start and far
    xs = np.concatenate([rng.integers(-70000, 70000, 150).astype(float),
                         rng.uniform(-70000, 70000, 150),
                         np.round(rng.uniform(-3000, 3000, 150), 2),
                         rng.uniform(-6.0e7, 6.0e7, 50)])
    ys = np.concatenate([rng.integers(-70000, 70000, 150).astype(float),
                         rng.uniform(-70000, 70000, 150),
                         np.round(rng.uniform(-3000, 3000, 150), 2),
                         rng.uniform(-6.0e7, 6.0e7, 50)])
    _check_points(model, t, xs, ys)


@given(st.floats(-2.0e6, 2.0e6), st.floats(-2.0e6, 2.0e6))
def test_hypothesis_points_forest_2026(x, y):
    _check_points(MODELS["forest_2026"], rt.Terrain.preset("forest_2026"), [x], [y])


@given(st.integers(-2**20, 2**20), st.integers(-2**20, 2**20), st.integers(1, 127),
       st.integers(1, 127))
def test_hypothesis_negative_fractions_classic_js(xi, yi, fx, fy):
    x, y = -abs(xi) - fx / 128, yi + fy / 128
    _check_points(MODELS["classic_js"], _terrain(MODELS["classic_js"]), [x], [y])


def _forest_2026_points(kind: str, count: int):
    """Points of the 2026 world that the rules decide: heights close to 626 and 680
    on both sides, and quarry edges (a quarry beside a non-quarry)."""
    t = rt.Terrain.preset("forest_2026")
    out = []
    # areas found by a coarse scan: quarries, ground at 626 and at 680 m
    areas = {"quarry_edge": ((-398448, 300068), (3900, -40100), (17000, -39900)),
             "626": ((-36400, -38800), (22700, -38800), (-30000, -38700)),
             "680": ((-10100, -38700), (28000, -38300), (-5100, -37600))}[kind]
    for x0, y0 in areas:
        g = t.grid(x0, y0, 200, 200, 1.0)
        if kind == "quarry_edge":
            q = g.terrain == TerrainType.QUARRY
            edge = q & ~np.roll(q, 1, axis=1) | q & ~np.roll(q, 1, axis=0)
            r, c = np.nonzero(edge[1:, 1:])
            r, c = r + 1, c + 1
            pts = [(x0 + cc + dx, y0 + rr + dy) for rr, cc in zip(r, c)
                   for dx, dy in ((0, 0), (-1, 0), (0, -1))]
        else:
            level = 626.0 if kind == "626" else 680.0
            hg = t.height_grid(x0, y0, 200, 200)
            r, c = np.nonzero(np.abs(hg - level) < 1.5)
            pts = [(x0 + cc, y0 + rr) for rr, cc in zip(r, c)]
        out.extend(pts)
        if len(out) >= count:
            break
    return out[:count]


@pytest.mark.parametrize("kind", ["626", "680", "quarry_edge"])
def test_forest_2026_edges(kind):
    pts = _forest_2026_points(kind, 300)
    assert len(pts) >= 50, kind  # the areas hold such points
    model = MODELS["forest_2026"]
    t = rt.Terrain.preset("forest_2026")
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    _check_points(model, t, xs, ys)
    heights = np.array([R.height(model, x, y) for x, y in pts])
    if kind != "quarry_edge":
        level = float(kind)
        assert (heights > level).any() and (heights <= level).any()  # both sides
    # and a quarter-metre off the integer points, on the negative side too
    _check_points(model, t, [x - 0.25 for x in xs[:80]], [y - 0.75 for y in ys[:80]])


# -- grids: every variant, threads, steps ----------------------------------------

GRIDS = [
    (23396, 5318, 70, 40, 1.0),
    (-1000.5, -20.25, 67, 19, 0.25),     # negative fractional: js differs from java
    (-398400.5, 300120.25, 61, 21, 0.5),  # the issue's quarry
    (-3000.3, -2000.7, 23, 17, 0.37),    # the point path
]


@pytest.mark.parametrize("name", ["forest_2026", "classic_js", "mixed", "quarry_floor"])
def test_grids_equal_transcription(name):
    model = MODELS[name]
    t = _terrain(model)
    for (x0, y0, nx, ny, step) in GRIDS:
        h, d, ter, f = F.grid(model, x0, y0, nx, ny, step)
        g = t.grid(x0, y0, nx, ny, step)
        assert _same(g.height, h) and _same(g.depth, d), (name, x0)
        assert _same(g.terrain, ter) and _same(g.feature, f), (name, x0)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", sorted(MODELS))
def test_variants_and_threads_equal_points(variant, name):
    """Every SIMD variant and thread count of the grid gives terra's bits at its points."""
    t = _terrain(MODELS[name], simd=variant)
    for (x0, y0, nx, ny, step) in GRIDS + [(-20000, -20000, 300, 60, 1.0),
                                          (-20000.5, -20000.5, 130, 20, 0.0625)]:
        xs = x0 + np.arange(nx) * step
        ys = y0 + np.arange(ny) * step
        X, Y = np.meshgrid(xs, ys)
        s = t.sample(X, Y)
        for threads in (1, 2):
            g = t.grid(x0, y0, nx, ny, step, threads=threads)
            for field in ("height", "depth", "terrain", "feature"):
                assert _same(getattr(g, field), getattr(s, field)), (variant, name, field, x0)
        out = np.empty((ny, nx))
        t.height_grid(x0, y0, nx, ny, step, out=out, threads=2)
        assert _same(out, t.height(X, Y))


def test_js_and_java_differ_only_at_negative_fractions():
    """calc_prof="js" and "java" give the same kinds wherever every A*x + B*y is an
    integer or non-negative, and differ somewhere else (SPEC 17: about 1 point in
    6,000 at fractional coordinates)."""
    java, js = rt.Terrain(), rt.Terrain(calc_prof="js")
    assert _same(java.grid(*rt.CLASSIC_MAP).terrain, js.grid(*rt.CLASSIC_MAP).terrain)
    # positive quadrant, fractional: every v of the classic vectors? not all are
    # positive, so compare with the transcription instead, and count the differences
    g1 = java.grid(-3000.5, -3000.5, 600, 600, 0.37)
    g2 = js.grid(-3000.5, -3000.5, 600, 600, 0.37)
    diff = np.argwhere(g1.terrain != g2.terrain)
    assert 0 < len(diff) < 600 * 600 / 1000
    for r, c in diff[:40]:
        x, y = -3000.5 + c * 0.37, -3000.5 + r * 0.37
        assert (int(g2.terrain[r, c]) == F.terra(MODELS["classic_js"], x, y)[1])
        assert int(g1.terrain[r, c]) == R.terra(R.CLASSIC, x, y)[1]
    # heights never depend on it
    assert _same(g1.height, g2.height)


# -- the default is unchanged; parameters are checked ----------------------------

def test_default_unchanged_and_fingerprints_kept():
    p = rt.TerrainParams()
    assert (p.calc_prof, p.rock_above, p.quarry_below, p.path_height, p.snow_keeps_feature,
            p.pi10000) == ("java", None, None, "terra", False, math.pi * 10000)
    # the fingerprint leaves SPEC 17's fields out at their defaults
    assert p.fingerprint() != p.replace(calc_prof="js").fingerprint()
    assert p.replace(quarry_depth=40.0).fingerprint() == p.fingerprint()
    assert rt.TerrainParams.from_dict(F.forest_2026().terrain_kwargs() | {}) is not None


@pytest.mark.parametrize("kw, match", [
    ({"calc_prof": "python"}, "calc_prof"),
    ({"calc_prof": 1}, "calc_prof"),
    ({"path_height": "cooked"}, "path_height"),
    ({"rock_above": float("nan")}, "rock_above"),
    ({"quarry_below": float("inf")}, "quarry_below"),
    ({"quarry_depth": "deep"}, "quarry_depth"),
    ({"pi10000": float("nan")}, "pi10000"),
    ({"snow_keeps_feature": "yes"}, "snow_keeps_feature"),
])
def test_bad_parameters(kw, match):
    with pytest.raises((ValueError, TypeError), match=match):
        rt.Terrain(**kw)


def test_parameters_round_trip(tmp_path):
    t = rt.Terrain.preset("forest_2026")
    t.place(10, 20, Feature.PHONE)
    path = tmp_path / "w.json"
    t.save(path)
    u = rt.load(path)
    assert u.params == t.params and u.at(10, 20) == Feature.PHONE
    assert _same(u.grid(0, 0, 50, 30, 0.5).terrain, t.grid(0, 0, 50, 30, 0.5).terrain)


# -- streams see the lowered height ---------------------------------------------

def test_streams_see_quarries():
    model = MODELS["forest_2026"]
    t = rt.Terrain.preset("forest_2026")
    # the integer points around the issue's quarry: terra's heights are the
    # streams' heights
    x0, y0 = -398360, 300150
    for x in range(x0, x0 + 30, 3):
        for y in range(y0, y0 + 30, 3):
            assert t.terra(x, y).height == F.terra_height(model, x, y)
    # a route from a pond: each step goes to the lowest point of its cross with
    # the lowered heights (the reference's terra heights)
    ponds = t.features(-400000, 298000, 4000, 4000)
    ponds = [(int(x), int(y)) for x, y, f in zip(ponds.x, ponds.y, ponds.feature)
             if f == Feature.WATERHOLE][:25]
    assert ponds
    checked = 0
    for px, py in ponds:
        route = t.trace_stream(px, py, max_length=None)
        pts = [tuple(map(int, p)) for p in route.route]
        h0 = F.terra_height(model, *pts[0])
        for a, b in zip(pts, pts[1:]):
            best, hb = None, h0
            for dx in range(-5, 6):
                for dy in range(-5, 6):
                    if dx == 0 or dy == 0:
                        continue
                    h = F.terra_height(model, a[0] + dx, a[1] + dy)
                    if h < hb:
                        best, hb = (a[0] + dx, a[1] + dy), h
            assert best == b
            h0 = hb
            checked += 1
            if checked > 60:
                return


# -- Pieces of Eight, phone boxes, pi10000 ---------------------------------------

def test_pieces_of_eight_rules():
    u = np.random.default_rng(5).random(96)
    a = rt.Terrain.preset("pieces_of_eight", rng=5)
    b = rt.Terrain.preset("pieces_of_eight", uniforms=u)
    assert a.params == b.params
    assert a.params.snow_keeps_feature and a.params.pi10000 == math.pi * 1000 * 10
    assert a.params.pi10000 != math.pi * 10000  # one ulp
    assert math.nextafter(math.pi * 10000, 0) == a.params.pi10000
    with pytest.raises(ValueError, match="uniforms"):
        rt.make_profile(2048, uniforms=u[:95])
    with pytest.raises(ValueError, match="uniforms"):
        rt.make_profile(2048, uniforms=np.r_[u[:95], 1.0])
    with pytest.raises(ValueError, match="rng, uniforms"):
        rt.make_profile(2048, rng=1, uniforms=u)
    with pytest.raises(ValueError, match="uniforms"):
        rt.Terrain.preset("forest", uniforms=u)
    # the transcription of its terra, on its own profile
    p = a.params
    model = F.Params(profile=tuple(p.profile), ah=p.ah, bh=p.bh, a1=p.a1, b1=p.b1, a2=p.a2,
                     b2=p.b2, a3=p.a3, b3=p.b3, lake_base=p.lake_base,
                     snow_height=p.snow_height, mine_below=64, x_below=32, cone_below=24,
                     town_abs=True, town_below=10.0, grass_below=20.0, open_below=20.0,
                     thicket_below=-50.0, snow_keeps_feature=True, pi10000=p.pi10000)
    g = a.grid(-3000, -3000, 600, 600, 10)
    snowy = np.argwhere(g.terrain == TerrainType.SNOW)
    rng = np.random.default_rng(3)
    pts = [(-3000 + 10 * c, -3000 + 10 * r) for r, c in snowy[rng.permutation(len(snowy))[:60]]]
    pts += [(float(x), float(y)) for x, y in rng.uniform(-5000, 5000, (100, 2))]
    _check_points(model, a, [q[0] for q in pts], [q[1] for q in pts])
    # features on snow: kept
    r, c = snowy[0]
    x0, y0 = -3000 + 10 * int(c) - 500, -3000 + 10 * int(r) - 500
    feats = a.features(x0, y0, 1000, 1000)
    kinds = a.sample(feats.x.astype(float), feats.y.astype(float)).terrain
    assert (kinds == TerrainType.SNOW).any()
    assert not (b.replace(snow_keeps_feature=False).sample(
        feats.x.astype(float), feats.y.astype(float)).terrain == TerrainType.SNOW).any() or \
        (b.replace(snow_keeps_feature=False).features(x0, y0, 1000, 1000).x.size < feats.x.size)


def test_pi10000_feeds_cones_trees_and_mines():
    poe = math.pi * 1000 * 10
    a, b = rt.Terrain(cone_below=256), rt.Terrain(cone_below=256, pi10000=poe)
    xs, ys = np.arange(-300, 300, dtype=float), np.arange(-300, 300, dtype=float)[::-1] * 7
    ma = F.Params(cone_below=256)
    mb = F.Params(cone_below=256, pi10000=poe)
    assert a.tree_selector(xs, ys).tolist() == [F.tree_selector(ma, x, y) for x, y in zip(xs, ys)]
    assert b.tree_selector(xs, ys).tolist() == [F.tree_selector(mb, x, y) for x, y in zip(xs, ys)]
    big = np.arange(1, 40000, dtype=float) * 977
    assert (a.tree_selector(big, big + 3) != b.tree_selector(big, big + 3)).any()
    # mines: u = PI10000 * x * y: open where frac(u) > threshold
    ma_, mb_ = rt.Mines(a), rt.Mines(b)
    oa = ma_.open_grid(16 * -200, 16 * 100, 400, 300, level=0)
    ob = mb_.open_grid(16 * -200, 16 * 100, 400, 300, level=0)
    ys_ = 16 * 100 + 16 * np.arange(300.0)
    xs_ = 16 * -200 + 16 * np.arange(400.0)
    for pi, o in ((math.pi * 10000, oa), (poe, ob)):
        u = pi * xs_[None, :] * ys_[:, None]
        ref = (u - np.floor(u) > 0.4) | ma_.open_above_grid(16 * -200, 16 * 100, 400, 300)
        assert (o == ref).all()
    assert (oa != ob).any()


def test_phone_boxes_stay_in_towns():
    t = rt.Terrain()
    g = t.grid(*rt.CLASSIC_MAP)
    r, c = np.argwhere(g.terrain == TerrainType.TOWN)[0]
    x, y = rt.CLASSIC_MAP[0] + int(c), rt.CLASSIC_MAP[1] + int(r)
    t.place(x, y, Feature.PHONE)
    t.place(x + 1, y, Feature.CONE)
    assert t.terra(x, y).feature == Feature.PHONE and t.terra(x, y).terrain == TerrainType.TOWN
    assert t.at(x, y) == Feature.PHONE
    g2 = t.grid(*rt.CLASSIC_MAP)
    assert g2.feature[r, c] == Feature.PHONE
    if g.terrain[r, c + 1] == TerrainType.TOWN:
        assert g2.feature[r, c + 1] == Feature.NONE  # other features are not kept there
    assert Feature.PHONE.description == "phone box" and not Feature.PHONE.has_code
    model = F.Params()
    _check_points(model, t, [x, x + 1], [y, y], placed={(x, y): ("F", F.F_PHONE),
                                                         (x + 1, y): ("F", R.F_CONE)})


def test_quarry_on_maps():
    t = rt.Terrain.preset("forest_2026")
    img = np.asarray(t.map(-398400, 300100, 120, 120, contours=False))
    g = t.grid(-398400, 300100, 120, 120)
    assert (g.terrain == TerrainType.QUARRY).any()
    for name in ("relf", "isom"):
        colour = rt.maps.PALETTES[name].terrain[TerrainType.QUARRY]
        assert rt.maps.PALETTES[name].terrain.shape == (13, 3)
        assert not any((colour == rt.maps.PALETTES[name].terrain[k]).all()
                       for k in (TerrainType.MOOR, TerrainType.MUD, TerrainType.GRASS))
    colour = rt.maps.PALETTES["relf"].terrain[TerrainType.QUARRY]
    flipped = img[::-1]  # north up
    q = np.argwhere(g.terrain == TerrainType.QUARRY)
    hits = sum(tuple(flipped[r, c]) == tuple(colour) for r, c in q)
    assert hits > len(q) * 0.9  # symbols may cover a few


@given(st.integers(-2**21, 2**21), st.integers(-2**21, 2**21), st.integers(1, 4),
       st.integers(1, 40), st.sampled_from(VARIANTS))
def test_hypothesis_dyadic_grids_js(x16, y16, m, s, variant):
    """Grids at dyadic origins and steps (the tile passes, whose JavaScript sums are
    cut into runs where no direction changes sign) equal terra at their points."""
    step = s / 2**m
    x0, y0 = x16 / 16, y16 / 16
    for t in (rt.Terrain(calc_prof="js", simd=variant),
              rt.Terrain.preset("forest_2026", simd=variant)):
        g = t.grid(x0, y0, 77, 5, step)
        X, Y = np.meshgrid(x0 + np.arange(77) * step, y0 + np.arange(5) * step)
        smp = t.sample(X, Y)
        for field in ("height", "depth", "terrain", "feature"):
            assert _same(getattr(g, field), getattr(smp, field)), field


def test_guide_examples_run():
    """docs/guide/forest-2026.md's examples are true."""
    import doctest
    import pathlib

    path = pathlib.Path(__file__).resolve().parent.parent / "docs" / "guide" / "forest-2026.md"
    res = doctest.testfile(str(path), module_relative=False, globs={"rt": rt, "np": np},
                           optionflags=doctest.NORMALIZE_WHITESPACE)
    assert res.failed == 0 and res.attempted >= 10


# -- load: roads files of the game --------------------------------------------------

def _write_roads(path, roads):
    import json

    path.write_text(json.dumps([{"path": [{"x": x, "y": y} for x, y in r]} for r in roads]))
    return path


def test_load_bridge_rules(tmp_path):
    """A road crossing an earlier road's bridge: SPEC 13 counts the earlier road's
    cells over the water (terra height 204 <= lake_base), the game's reading
    ("lake") only the steps on LAKE."""
    t = rt.Terrain()
    kinds = t.grid(22280, 3381, 220, 1).terrain[0]
    lake = kinds == TerrainType.LAKE
    first, second = lake[:60].sum(), lake[150:].sum()   # two lakes on the row y = 3381
    assert 30 <= first <= 60 and 30 <= second <= 60 and first + second > 60
    a = [(22280, 3381), (22340, 3381)]
    b = [(22280, 3381), (22499, 3381)]
    f = _write_roads(tmp_path / "MyRoads.json", [a, b])
    with pytest.raises(ValueError, match=r"MyRoads.json: road 1: .*segment 0 .*lake_base"):
        rt.load(f)
    with pytest.raises(ValueError, match=r"MyRoads.json: road 1: .*segment 0"):
        rt.load(f, bridge="spec")
    u = rt.load(f, bridge="lake")
    assert len(u.roads) == 2 and u.terra(22495, 3381).terrain == TerrainType.ROAD
    assert len(rt.load(f, bridge="none").roads) == 2
    # the game's reading still refuses a road over more than 60 steps of lake
    g = _write_roads(tmp_path / "long.json", [b])
    with pytest.raises(ValueError, match=r"long.json: road 0: .*bridge \d+ unit steps of water "
                                         r"\(terra kind LAKE\), more than max_bridge=60"):
        rt.load(g, bridge="lake")
    assert rt.load(g, bridge="none").terra(22400, 3381).terrain == TerrainType.ROAD
    # bad options are named before the file is read
    with pytest.raises(ValueError, match="bridge"):
        rt.load(tmp_path / "missing.json", bridge="game")
    with pytest.raises(TypeError, match="params"):
        rt.load(f, params=42)
    with pytest.raises(ValueError, match="name"):
        rt.load(f, params="forest_1999")


def test_load_roads_of_todays_game(tmp_path):
    """Roads drawn in today's game lie on the 2026 world: a road over dry 2026 ground
    that crosses a classic lake loads with params="forest_2026" only."""
    classic, today = rt.Terrain(), rt.Terrain.preset("forest_2026")
    x0, y0 = 23396 - 3000, 5318 - 3000
    gc = classic.grid(x0, y0, 6000, 6000, 1.0).terrain
    gt = today.grid(x0, y0, 6000, 6000, 1.0).terrain
    road = None
    for r in range(0, 6000, 13):
        wet_c = np.convolve(gc[r] == TerrainType.LAKE, np.ones(100), "valid")
        wet_t = np.convolve(gt[r] <= TerrainType.LAKE, np.ones(100), "valid")
        ok = np.nonzero((wet_c > 70) & (wet_t == 0))[0]
        if ok.size:
            road = [(x0 + int(ok[0]), y0 + r), (x0 + int(ok[0]) + 99, y0 + r)]
            break
    assert road is not None
    f = _write_roads(tmp_path / "MyRoads.json", [road])
    with pytest.raises(ValueError, match="MyRoads.json: road 0"):
        rt.load(f)
    u = rt.load(f, params="forest_2026")
    assert u.params == today.params and u.terra(*road[0]).terrain == TerrainType.ROAD
    assert rt.load(f, params=today.params).params == today.params
    # a saved terrain file carries its own parameters
    u.save(tmp_path / "saved.json")
    with pytest.raises(ValueError, match="params, bridge: only for a bare roads list"):
        rt.load(tmp_path / "saved.json", params="forest_2026")


@pytest.mark.parametrize("name", ["forest_2026", "classic_js", "mixed"])
def test_out_offsets_and_dask_give_the_same_bits(name):
    t = _terrain(MODELS[name])
    x0, y0, nx, ny, step = -1000.5, -20.25, 130, 70, 0.25
    whole = t.grid(x0, y0, nx, ny, step)
    out = (np.empty((ny, nx)), np.empty((ny, nx)), np.empty((ny, nx), np.uint8),
           np.empty((ny, nx), np.uint8))
    t.grid(x0, y0, nx, ny, step, out=out, threads=2)
    for a, field in zip(out, ("height", "depth", "terrain", "feature")):
        assert _same(a, getattr(whole, field))
    part = t.grid(x0, y0, 61, 23, step, offset=(17, 40))
    assert _same(part.terrain, whole.terrain[17:40, 40:101])
    assert _same(part.height, whole.height[17:40, 40:101])
    da = pytest.importorskip("dask.array")
    from relfterrain import dask as rdask

    lazy = rdask.grid(t, x0, y0, nx, ny, step, chunks=(32, 48))  # a TerrainGrid of dask arrays
    fields = ("height", "depth", "terrain", "feature")
    got = da.compute(*(getattr(lazy, f) for f in fields))
    for a, field in zip(got, fields):
        assert _same(a, getattr(whole, field)), field


@given(st.lists(st.floats(0.0, 1.0, exclude_max=True), min_size=96, max_size=96))
def test_pieces_of_eight_from_any_uniforms(u):
    p = rt.make_profile(2048, uniforms=u)
    # the recorded sequence rebuilds what a generator drawing the same numbers gives
    class Replay:
        def __init__(self, values):
            self.values = iter(values)

        def random(self):
            return next(self.values)
    # make_profile's draws, transcribed from SPEC 11 (a = 16 + u*74, n, phase)
    L = 2048.0
    P = np.zeros(2048)
    j = np.arange(2048, dtype=float)
    r = Replay(u)
    for _ in range(32):
        a = 16 + r.random() * (90 - 16)
        n = R.round_js(2 + r.random() * (L / 32 - 2))
        phase = 0.0 + r.random() * (2 * math.pi - 0.0)
        s = mathjs.sin(phase + 2 * math.pi * j / (L / n))  # fdlibm's (tested in test_fdlibm)
        v = a * np.asarray(s) / 8
        P += np.array([R.round_js(x) for x in v])
    assert _same(p.profile, P)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", ["my_terrain", "forest_2026"])
def test_mountains_on_the_tile_paths(variant, name):
    """Mountains (now also on the integer classify pass, heights fixed after it),
    snow, rock and quarries where they are: every variant's grid equals terra."""
    t = rt.Terrain.preset(name, simd=variant)
    seen = set()
    for (x0, y0, step) in ((31000, 6100, 1.0), (18560, 6110, 1.0), (-3000.5, 2000.25, 0.5),
                           (19655.25, 7140.5, 0.25)):
        g = t.grid(x0, y0, 300, 200, step, threads=2)
        X, Y = np.meshgrid(x0 + np.arange(300) * step, y0 + np.arange(200) * step)
        s = t.sample(X, Y)
        for field in ("height", "depth", "terrain", "feature"):
            assert _same(getattr(g, field), getattr(s, field)), (field, x0)
        seen |= set(np.unique(g.terrain).tolist())
    assert TerrainType.SNOW in seen
    if name == "forest_2026":
        assert {TerrainType.MUD, TerrainType.QUARRY} <= seen


def test_saved_classic_worlds_keep_0_1_0_keys(tmp_path):
    # the SPEC 17 fields are written only when they differ from their defaults
    import json

    import relfterrain as rt

    path = tmp_path / "w.json"
    rt.Terrain().save(path)
    keys = set(json.loads(path.read_text())["params"])
    assert not keys & {"calc_prof", "rock_above", "quarry_below", "quarry_depth",
                       "quarry_min_height", "path_height", "snow_keeps_feature", "pi10000"}
    t = rt.Terrain.preset("forest_2026")
    t.save(path)
    back = rt.load(path)
    assert back.params == t.params
    assert json.loads(path.read_text())["params"]["calc_prof"] == "js"
