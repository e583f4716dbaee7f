"""Generators as values: parameters compare, hash and fingerprint; generators
pickle, copy and ship to worker processes, and every copy computes the same
bits; every SPEC 5 threshold is a parameter, exact against the reference."""

import copy
import os
import pickle
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest
import reference as R
from helpers import assert_codes_exact, assert_f64_exact, make_terrain, ref_placed

import relfterrain as rt
from relfterrain import Feature, TerrainType

X0, Y0, NX, NY = rt.CLASSIC_MAP


def _custom_terrain():
    t = rt.Terrain(profile=np.arange(64.0) * 3 % 97, ah=[3, -7, 11], bh=[5, 2, -9],
                   a1=[1, 2, 3], b1=[4, 5, 6], a2=[-7, 8, 9], b2=[1, -1, 2], a3=[3, 3, -3],
                   b3=[2, -2, 5], lake_base=100.0, lake_height=110.5, town_below=20.0,
                   mountain_base=150.0, snow_height=300.0, with_paths=True, path_dx=-500.0)
    t.place(10, 20, TerrainType.ROAD)
    t.place(-3, 7, Feature.NONE)
    return t


GENERATORS = {
    "classic terrain": lambda: rt.Terrain(),
    "terrain with placed entries": lambda: _placed_terrain(),
    "custom terrain": _custom_terrain,
    "galaxy": lambda: rt.Galaxy(),
    "dense galaxy": lambda: rt.Galaxy(f_mask=0xFF, min_magnitude=2.5, s=[1, 2, 3],
                                      t=[4, -5, 6], u=[7, 8, -9]),
}


def _placed_terrain():
    t = rt.Terrain(simd="scalar")
    for k in range(40):
        t.place(X0 + 7 * k, Y0 + 3 * k, TerrainType.STREAM if k % 2 else Feature.CONE)
    return t


def _outputs(g):
    """Everything a generator computes on a small region, as arrays."""
    if isinstance(g, rt.Galaxy):
        return [g.stars(-30, -20, 1, 60, 40, 50), g.census(-30, -20, 1, 60, 40, 50)]
    grid = g.grid(X0, Y0, 160, 120, threads=2)
    return [grid.height, grid.depth, grid.terrain, grid.feature,
            g.height_grid(X0 + 0.3, Y0, 50, 40, 0.37),
            g.sample(np.linspace(X0, X0 + 9, 13), 5400.5).terrain]


def _assert_same_outputs(a, b):
    for x, y in zip(_outputs(a), _outputs(b)):
        assert x.dtype == y.dtype and x.shape == y.shape
        assert x.tobytes() == y.tobytes()


@pytest.mark.parametrize("name", sorted(GENERATORS))
@pytest.mark.parametrize("how", ["pickle", "deepcopy", "copy", "method"])
def test_copies_compute_the_same_bits(name, how):
    g = GENERATORS[name]()
    if how == "pickle":
        c = pickle.loads(pickle.dumps(g, protocol=pickle.HIGHEST_PROTOCOL))
    elif how == "deepcopy":
        c = copy.deepcopy(g)
    elif how == "copy":
        c = copy.copy(g)
    else:
        c = g.copy() if isinstance(g, rt.Terrain) else g.replace()
    assert c is not g and c == g and c.params == g.params
    assert c.params.fingerprint() == g.params.fingerprint()
    _assert_same_outputs(c, g)


def test_a_terrain_copy_is_independent():
    t = _placed_terrain()
    c = copy.deepcopy(t)
    c.place(X0 - 1, Y0 - 1, TerrainType.ROAD)
    c.lake_height = 250
    assert t.at(X0 - 1, Y0 - 1) is None and t.lake_height == 204.0
    assert c != t
    t.place(X0 - 1, Y0 - 1, TerrainType.ROAD)
    t.lake_height = 250
    assert c == t


def test_replace_changes_only_what_it_names():
    t = _placed_terrain()
    w = t.replace(lake_height=230, town_below=150)
    assert (w.lake_height, w.town_below, t.lake_height, t.town_below) == (230.0, 150.0, 204.0, 120.0)
    assert dict(w.placed.items()) == dict(t.placed.items())
    assert w.params == t.params.replace(lake_height=230, town_below=150)
    with pytest.raises(TypeError, match="lake_hieght: not a parameter"):
        t.replace(lake_hieght=1)
    with pytest.raises(ValueError, match="town_below: must be finite"):
        t.replace(town_below=float("nan"))
    g = rt.Galaxy().replace(f_mask=0xFF)
    assert g.f_mask == 0xFF and g != rt.Galaxy()


def test_parameters_are_values():
    p = rt.TerrainParams()
    q = rt.TerrainParams(profile=list(rt.CLASSIC_PROFILE), ah=(0, 13, 21, 22, 29))
    assert p == q and hash(p) == hash(q) and p.fingerprint() == q.fingerprint()
    assert len({p, q, p.replace(lake_height=210)}) == 2
    assert p != p.replace(thicket_below=200.5)
    assert p.fingerprint() != p.replace(lake_base=204.0000001).fingerprint()
    with pytest.raises(AttributeError):
        p.lake_base = 3  # type: ignore[misc]
    assert rt.TerrainParams.from_dict(p.replace(snow_height=400).to_dict()) == p.replace(
        snow_height=400)
    assert repr(p.replace(bleak=True)) == "TerrainParams(bleak=True)"
    t = rt.Terrain()
    assert hash(t.params) == hash(p)
    with pytest.raises(TypeError):
        hash(t)  # a terrain is mutable (its placed table): hash its params
    with pytest.raises(AttributeError, match="replace"):
        t.town_below = 3


def test_fingerprint_is_the_same_in_another_process(tmp_path):
    p = rt.TerrainParams(lake_height=222.25, ah=[1, 2, 3, 4, 5])
    code = ("import relfterrain as rt; print(rt.TerrainParams(lake_height=222.25, "
            "ah=[1, 2, 3, 4, 5]).fingerprint(), rt.GalaxyParams().fingerprint())")
    # the package this process imported, whether installed or built in place
    root = os.path.dirname(os.path.dirname(os.path.abspath(rt.__file__)))
    env = {**os.environ, "PYTHONHASHSEED": "123", "PYTHONPATH": root}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=env, cwd=tmp_path).stdout.split()
    assert out == [p.fingerprint(), rt.GalaxyParams().fingerprint()]


def _tile(args):
    terrain, r0, c0, ny, nx = args
    g = terrain.grid(X0, Y0, nx, ny, 0.75, offset=(r0, c0), threads=1)
    return r0, c0, g.height, g.terrain, g.feature


def test_process_pool_tiles_assemble_into_the_single_process_grid():
    t = rt.Terrain(lake_height=215)
    t.place(X0 + 10, Y0 + 10, TerrainType.ROAD)
    whole = t.grid(X0, Y0, 300, 200, 0.75)
    tiles = [(t, r0, c0, min(70, 200 - r0), min(110, 300 - c0))
             for r0 in range(0, 200, 70) for c0 in range(0, 300, 110)]
    h = np.empty((200, 300))
    te = np.empty((200, 300), np.uint8)
    fe = np.empty((200, 300), np.uint8)
    with ProcessPoolExecutor(max_workers=2) as pool:
        for r0, c0, th, tt, tf in pool.map(_tile, tiles):
            sl = np.s_[r0:r0 + th.shape[0], c0:c0 + th.shape[1]]
            h[sl], te[sl], fe[sl] = th, tt, tf
    assert h.tobytes() == whole.height.tobytes()
    assert te.tobytes() == whole.terrain.tobytes() and fe.tobytes() == whole.feature.tobytes()


def _count(args):
    galaxy, z0 = args
    return galaxy.census(-200, -150, z0, 400, 300, 50)


def test_process_pool_galaxy_census_sums_to_the_whole():
    g = rt.Galaxy(f_mask=0x3FFF, f_value=127)
    with ProcessPoolExecutor(max_workers=2) as pool:
        parts = list(pool.map(_count, [(g, z0) for z0 in (1, 51, 101)]))
    assert np.array_equal(sum(parts), g.census(-200, -150, 1, 400, 300, 150))


# -- thresholds: every one a parameter, exact against the reference ----------

THRESHOLDS = [
    {"town_below": 150.5},
    {"grass_below": 240.0, "open_below": 270.25},
    {"thicket_below": 180.0, "town_below": 90.0},
    {"mine_below": 64, "boulder_below": 100, "waterhole_below": 200, "knoll_below": 220},
    {"x_below": 32, "cone_below": 24},
    {"feature_point": 8, "feature_x": 4, "feature_cone": 0},
    {"with_paths": True, "path_dx": -3000.0, "path_dy": 1234.0, "path_tolerance": 3.5},
    {"with_paths": True, "path_dx": 4000.5, "path_tolerance": 1.0},
]


@pytest.mark.parametrize("changes", THRESHOLDS, ids=lambda c: ",".join(c))
@pytest.mark.parametrize("step", [1.0, 0.5, 0.37])
def test_thresholds_exact_against_reference(changes, step):
    params = R.Params(**changes)
    t = make_terrain(rt, params)
    assert all(getattr(t, k) == v for k, v in changes.items())
    x0, y0, nx, ny = 23480, 5400, 48, 36
    placed = {(23490, 5410): TerrainType.ROAD, (23500, 5420): Feature.KNOLL}
    for (x, y), what in placed.items():
        t.place(x, y, what)
    want = R.grid(params, x0, y0, nx, ny, step, placed=ref_placed(rt, placed))
    for simd in rt.simd_variants():
        t.simd = simd
        got = t.grid(x0, y0, nx, ny, step, threads=2)
        for k, name in ((2, "height"), (3, "depth")):
            assert_f64_exact(getattr(got, name), want[k], f"{name} {simd}")
        assert_codes_exact(got.terrain, want[4], f"terrain {simd}")
        assert_codes_exact(got.feature, want[5], f"feature {simd}")


def test_thresholds_change_the_classic_map():
    base = rt.Terrain().grid(*rt.CLASSIC_MAP)
    more_mines = rt.Terrain(mine_below=64).feature_grid(*rt.CLASSIC_MAP)
    assert (more_mines == Feature.MINE).sum() > (base.feature == Feature.MINE).sum()
    towns = rt.Terrain(town_below=140).terrain_grid(*rt.CLASSIC_MAP)
    assert (towns == TerrainType.TOWN).sum() > (base.terrain == TerrainType.TOWN).sum()


@pytest.mark.parametrize("name, bad, error", [
    ("town_below", float("inf"), ValueError),
    ("mine_below", -1, ValueError),
    ("mine_below", 2**32, ValueError),
    ("x_below", 2.5, TypeError),
    ("path_dx", "far", TypeError),
    ("with_paths", "yes", TypeError),
])
def test_bad_thresholds_name_the_argument(name, bad, error):
    with pytest.raises(error, match=f"^{name}: "):
        rt.Terrain(**{name: bad})


def test_names_and_codes_come_from_the_core():
    assert tuple(m.name for m in TerrainType) == rt._core.TERRAIN_TYPE_NAMES
    assert tuple(m.name for m in Feature) == rt._core.FEATURE_NAMES
    t = rt.Terrain()
    t.place(1, 2, TerrainType.MARSH)
    xs, ys, codes = t._core.placed_items()
    assert codes[0] == rt._core.PLACED_TERRAIN | TerrainType.MARSH


def test_outputs_sharing_memory_are_refused_before_any_work():
    t = rt.Terrain()
    h = np.full((20, 30), -1.0)
    t8 = np.zeros((20, 30), np.uint8)
    for out, names in (((h, h, t8, np.zeros((20, 30), np.uint8)), "out.height, out.depth"),
                       ((h, np.empty((20, 30)), t8, t8), "out.terrain, out.feature")):
        with pytest.raises(ValueError, match=f"{names}: output arrays must not share memory"):
            t.grid(X0, Y0, 30, 20, out=out)
        assert (h == -1.0).all() and (t8 == 0).all()
    buf = np.zeros(2 * 20 * 30 + 1)
    with pytest.raises(ValueError, match="must not share memory"):
        t.grid(X0, Y0, 30, 20, out=(buf[:600].reshape(20, 30), buf[599:1199].reshape(20, 30),
                                   t8, np.zeros((20, 30), np.uint8)))


OTHER_GENERATORS = {
    "planet": (lambda: rt.Planet(10_000), lambda g: [g.map(45, 30, 60, 40).terrain,
                                                     g.height_grid(-10, 5, 30, 20, 0.5)]),
    "nebula": (lambda: rt.Nebula(400.0), lambda g: [g.grid(0, 0, 0, 12, 10, 8)]),
    "mines": (lambda: rt.Mines(rt.Terrain(), variant="sincos", levels=2),
              lambda g: [g.open_grid(23392, 5312, 20, 16, level=None),
                         g.label(23392, 5312, 20, 16).labels]),
    "caverns": (lambda: rt.Caverns(rt.Terrain(), scale=1.5),
                lambda g: [g.space_grid(23396, 5318, 40, 30)]),
}


@pytest.mark.parametrize("name", sorted(OTHER_GENERATORS))
def test_the_other_generators_pickle_and_copy_to_the_same_bits(name):
    make, outputs = OTHER_GENERATORS[name]
    g = make()
    for c in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g)):
        for a, b in zip(outputs(c), outputs(g)):
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
