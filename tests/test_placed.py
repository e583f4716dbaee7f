"""The placed table (SPEC 6): place / at / remove / remove_all and its effect."""

from collections.abc import Mapping

import numpy as np
import pytest
import reference as R
from helpers import check_grid_against_reference, check_terra_point, make_terrain, ref_placed

import relfterrain as rt

TT = rt.TerrainType
F = rt.Feature

LAKE_POINT = (23920, 5348)          # classic lake, ground height 204 - 0.125
BOULDER_POINT = (24117, 5319)       # generated BOULDER on WOOD
X_POINT = (24011, 5879)             # generated X on WOOD
GRASS_POINT = (23472, 5324)         # GRASS (with a BOULDER); neighbour (23470, 5324)
TOWN_POINT = (23612, 5782)


def test_reference_points_are_what_they_claim():
    assert R.terra(R.CLASSIC, *LAKE_POINT)[1] == R.LAKE
    assert R.terra(R.CLASSIC, *BOULDER_POINT)[1:3] == (R.WOOD, R.F_BOULDER)
    assert R.terra(R.CLASSIC, *X_POINT)[1:3] == (R.WOOD, R.F_X)
    assert R.terra(R.CLASSIC, 23470, 5324)[1:3] == (R.GRASS, R.F_NONE)
    assert R.terra(R.CLASSIC, *TOWN_POINT)[1] == R.TOWN


def test_place_at_remove_len():
    t = rt.Terrain()
    assert len(t.placed) == 0
    assert isinstance(t.placed, Mapping)
    assert t.at(1, 2) is None
    t.place(1, 2, TT.ROAD)
    t.place(-3, 4, F.CONE)
    t.place(5, -6, F.X)
    assert len(t.placed) == 3
    assert t.at(1, 2) is TT.ROAD
    assert t.at(-3, 4) is F.CONE
    assert t.at(5, -6) is F.X
    assert isinstance(t.at(5, -6), F)
    assert t.at(2, 1) is None
    assert dict(t.placed) == {(1, 2): TT.ROAD, (-3, 4): F.CONE, (5, -6): F.X}
    assert (1, 2) in t.placed and (2, 1) not in t.placed
    assert t.placed[(1, 2)] is TT.ROAD
    for key in t.placed:
        assert isinstance(key, tuple) and all(type(k) is int for k in key)
    # overwrite
    t.place(1, 2, F.BOULDER)
    assert t.at(1, 2) is F.BOULDER
    assert len(t.placed) == 3
    assert t.remove(1, 2) is True
    assert t.remove(1, 2) is False
    assert t.at(1, 2) is None
    assert len(t.placed) == 2


def test_placed_view_is_live_and_not_writable():
    t = rt.Terrain()
    view = t.placed
    t.place(7, 8, TT.STREAM)
    assert len(view) == 1 and dict(view) == {(7, 8): TT.STREAM}
    with pytest.raises(TypeError):
        view[(9, 9)] = TT.ROAD


def test_remove_all_distinguishes_enums_of_equal_value():
    t = rt.Terrain()
    # TerrainType.ROAD == Feature.X == 6 as ints: remove_all must not mix them
    t.place(0, 0, TT.ROAD)
    t.place(0, 1, TT.ROAD)
    t.place(0, 2, F.X)
    t.place(0, 3, TT.STREAM)
    t.place(0, 4, F.NONE)
    t.place(0, 5, TT.LAKE)
    assert t.remove_all(TT.ROAD) == 2
    assert dict(t.placed) == {(0, 2): F.X, (0, 3): TT.STREAM, (0, 4): F.NONE, (0, 5): TT.LAKE}
    assert t.remove_all(TT.ROAD) == 0
    assert t.remove_all(F.NONE) == 1            # Feature.NONE == TerrainType.LAKE == 0
    assert t.at(0, 5) is TT.LAKE
    assert t.remove_all(F.X) == 1
    assert t.remove_all(TT.LAKE) == 1
    assert dict(t.placed) == {(0, 3): TT.STREAM}


def test_placed_tables_are_per_terrain():
    a = rt.Terrain()
    b = rt.Terrain()
    a.place(*BOULDER_POINT, F.NONE)
    assert len(b.placed) == 0
    assert b.terra(*BOULDER_POINT).feature == F.BOULDER
    assert a.terra(*BOULDER_POINT).feature == F.NONE


def test_road_on_lake_gives_lake_height():
    t = rt.Terrain()
    t.place(*LAKE_POINT, TT.ROAD)
    placed = ref_placed(rt, t.placed)
    p = check_terra_point(rt, t, R.CLASSIC, *LAKE_POINT, placed)
    assert p.terrain == TT.ROAD and p.feature == F.NONE
    assert p.height == 204.0 and p.depth == 0.0
    # on dry ground the height is the ground's
    t.place(*X_POINT, TT.ROAD)
    p = t.terra(*X_POINT)
    assert p.terrain == TT.ROAD and p.feature == F.NONE and p.code == ""
    assert p.height == t.height(*X_POINT)
    # raised lake: the road stays on the water
    t.lake_height = 300.0
    p = t.terra(*X_POINT)
    assert p.height == max(300.0, t.height(*X_POINT))


def test_placed_none_hides_generated_feature():
    t = rt.Terrain()
    t.place(*BOULDER_POINT, F.NONE)
    placed = ref_placed(rt, t.placed)
    p = check_terra_point(rt, t, R.CLASSIC, *BOULDER_POINT, placed)
    assert p.terrain == TT.WOOD and p.feature == F.NONE and p.code == ""
    g = t.grid(BOULDER_POINT[0] - 2, BOULDER_POINT[1] - 2, 5, 5)
    assert not g.feature.any()
    assert t.remove(*BOULDER_POINT)
    assert t.terra(*BOULDER_POINT).feature == F.BOULDER


def test_placed_cone_on_grass():
    t = rt.Terrain()
    x, y = 23470, 5324
    t.place(x, y, F.CONE)
    placed = ref_placed(rt, t.placed)
    p = check_terra_point(rt, t, R.CLASSIC, x, y, placed)
    assert p.terrain == TT.GRASS and p.feature == F.CONE and p.code == ""
    # the placed feature covers every point that rounds to (x, y)
    for dx, dy in [(-0.5, -0.5), (0.49, 0.49), (0.25, -0.3)]:
        assert t.terra(x + dx, y + dy).feature == F.CONE
    assert t.terra(x - 0.51, y).feature == F.NONE
    assert t.terra(x + 0.5, y).feature == F.NONE       # rounds to x + 1


def test_placed_feature_on_lake_and_in_town():
    t = rt.Terrain()
    t.place(*LAKE_POINT, F.ROCKET)
    t.place(*TOWN_POINT, F.CONE)
    placed = ref_placed(rt, t.placed)
    p = check_terra_point(rt, t, R.CLASSIC, *LAKE_POINT, placed)
    assert p.terrain == TT.LAKE and p.feature == F.ROCKET and p.depth > 0
    p = check_terra_point(rt, t, R.CLASSIC, *TOWN_POINT, placed)
    assert p.terrain == TT.TOWN and p.feature == F.NONE     # towns force NONE


def test_placed_feature_on_mud():
    t = rt.Terrain(lake_height=190.0)
    x, y = 23690, 5600
    assert R.terra(R.Params(lake_height=190.0), x, y)[1] == R.MUD
    t.place(x, y, F.CONE)
    p = check_terra_point(rt, t, R.Params(lake_height=190.0), x, y, ref_placed(rt, t.placed))
    assert p.terrain == TT.MUD and p.feature == F.CONE


def test_placed_coded_feature_gets_code():
    # the contract: code is the 2-letter code for MINE/BOULDER/ROOT/WATERHOLE/KNOLL/X
    t = rt.Terrain()
    x, y = 23470, 5324
    t.place(x, y, F.KNOLL)
    p = check_terra_point(rt, t, R.CLASSIC, x, y, ref_placed(rt, t.placed))
    assert p.feature == F.KNOLL and p.code == R.orienteering_code(x, y)


def test_placed_kinds_on_every_terrain_type_code():
    t = rt.Terrain()
    for i, kind in enumerate(TT):
        t.place(23470 + i, 5324, kind)
    placed = ref_placed(rt, t.placed)
    for i, kind in enumerate(TT):
        p = check_terra_point(rt, t, R.CLASSIC, 23470 + i, 5324, placed)
        assert p.terrain is kind


def test_placed_not_applied_under_bleak_snow_paths():
    # bleak, snow and paths come before the placed table (contract order)
    for params, point in [(R.Params(bleak=True), X_POINT),
                          (R.Params(snow_height=300.0), X_POINT),
                          (R.Params(with_paths=True), (23716, 5318))]:
        t = make_terrain(rt, params)
        t.place(*point, TT.ROAD)
        p = check_terra_point(rt, t, params, *point, ref_placed(rt, t.placed))
        assert p.terrain != TT.ROAD


@pytest.mark.parametrize("step", [1.0, 0.5, 0.25, 0.3])
def test_grids_honour_placed(step):
    t = rt.Terrain()
    x0, y0 = 23915, 5345
    t.place(23920, 5348, TT.ROAD)           # lake point
    t.place(23921, 5348, F.CONE)
    t.place(23917, 5346, TT.STREAM)
    t.place(23918, 5347, F.NONE)
    t.place(23922, 5350, TT.MARSH)
    t.place(-5, -5, TT.ROAD)                # outside the window
    for dx in range(3):
        t.place(23916 + dx, 5345, TT.PATH)
    placed = ref_placed(rt, t.placed)
    ref = check_grid_against_reference(rt, t, R.CLASSIC, x0, y0, 40, 30, step, placed)
    assert {R.ROAD, R.STREAM, R.MARSH, R.PATH} <= set(ref[4].ravel().tolist())
    assert R.F_CONE in ref[5]


def test_grids_honour_placed_hiding_features():
    t = rt.Terrain()
    for (fx, fy) in [(24107, 5372), (24109, 5374)]:       # BOULDER and KNOLL
        t.place(fx, fy, F.NONE)
    t.place(24108, 5373, F.MINE)
    placed = ref_placed(rt, t.placed)
    ref = check_grid_against_reference(rt, t, R.CLASSIC, 24090, 5360, 40, 30, 1.0, placed)
    assert R.F_KNOLL not in ref[5] and R.F_MINE in ref[5]
    check_grid_against_reference(rt, t, R.CLASSIC, 24100.5, 5365.5, 40, 30, 0.5, placed)


def test_placed_negative_and_large_coordinates():
    t = rt.Terrain()
    L = 2 ** 26
    pts = [(-1, -1), (0, 0), (-L, L), (L, -L), (-12345, 67890)]
    for x, y in pts:
        t.place(x, y, TT.ROAD)
    placed = ref_placed(rt, t.placed)
    for x, y in pts:
        check_terra_point(rt, t, R.CLASSIC, x, y, placed)
        check_terra_point(rt, t, R.CLASSIC, x - 0.5, y + 0.4999, placed)
        assert t.terra(x, y).terrain == TT.ROAD
    # -0.5 rounds to 0 (-0): the key (0, 0)
    assert t.terra(-0.5, -0.5).terrain == TT.ROAD
    # -1.5 rounds to -1
    assert t.terra(-1.5, -1.5).terrain == TT.ROAD


def test_sample_honours_placed():
    t = rt.Terrain()
    t.place(*LAKE_POINT, TT.ROAD)
    t.place(*BOULDER_POINT, F.NONE)
    t.place(23470, 5324, F.CONE)
    xs = np.array([LAKE_POINT[0], BOULDER_POINT[0], 23470.0, 23470.4])
    ys = np.array([LAKE_POINT[1], BOULDER_POINT[1], 5324.0, 5323.6])
    s = t.sample(xs, ys)
    h, _d, tt, ff = R.sample(R.CLASSIC, xs, ys, ref_placed(rt, t.placed))
    assert np.array_equal(np.asarray(s.height).view(np.uint64), h.view(np.uint64))
    assert np.array_equal(np.asarray(s.terrain), tt)
    assert np.array_equal(np.asarray(s.feature), ff)
    assert np.asarray(s.terrain).tolist()[0] == R.ROAD
    assert np.asarray(s.feature).tolist()[1:] == [R.F_NONE, R.F_CONE, R.F_CONE]


def test_buildings_follow_placed_terrain():
    # a building centre whose point is no longer TOWN (a placed ROAD) is not a
    # building: buildings are where terra(xr, yr) is TOWN
    t = rt.Terrain()
    x0, y0, nx, ny = rt.CLASSIC_MAP
    before = sorted(map(tuple, np.asarray(t.buildings(x0, y0, nx, ny)).tolist()))
    assert before
    t.place(*before[0], TT.ROAD)
    after = sorted(map(tuple, np.asarray(t.buildings(x0, y0, nx, ny)).tolist()))
    assert after == R.buildings(R.CLASSIC, x0, y0, nx, ny, ref_placed(rt, t.placed))
    assert after == before[1:]


def test_placed_coded_feature_on_lake_and_mud_gets_code():
    # contract reading: the code follows the feature kind wherever it stands
    t = rt.Terrain()
    t.place(*LAKE_POINT, F.BOULDER)
    p = check_terra_point(rt, t, R.CLASSIC, *LAKE_POINT, ref_placed(rt, t.placed))
    assert p.terrain == TT.LAKE and p.feature == F.BOULDER
    assert p.code == R.orienteering_code(*LAKE_POINT)
    params = R.Params(lake_height=190.0)
    t = make_terrain(rt, params)
    t.place(23690, 5600, F.MINE)
    p = check_terra_point(rt, t, params, 23690, 5600, ref_placed(rt, t.placed))
    assert p.terrain == TT.MUD and p.code == R.orienteering_code(23690, 5600)
