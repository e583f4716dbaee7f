"""Saved terrains (SPEC 13): exact JSON round trips, the author's bare roads
list, bad files refused naming the file, atomic saves."""

import json
import os

import numpy as np
import pytest
import reference as R
import streams_reference as S
from helpers import assert_codes_exact, assert_f64_exact, ref_placed

import relfterrain as rt
import relfterrain.roads as roads_mod


def world(t):
    return ref_placed(rt, t.placed), [(r.points.tolist(), r.half_width) for r in t.roads]


def rich_terrain():
    rng = np.random.default_rng(7)
    prof = rng.uniform(0, 300, 256)  # floats with every bit used
    t = rt.Terrain(profile=prof, lake_height=210.1, town_below=130.3, snow_height=412.7)
    t.place(23420, 5335, rt.TerrainType.STREAM)
    t.place(23421, 5336, rt.Feature.CONE)
    t.place(23500, 5500, rt.Feature.NONE)
    t.add_road([(23400, 5320), (23440, 5350)], max_bridge=None)
    t.add_road([(23420, 5300), (23420, 5370)], half_width=1, max_bridge=None)
    t.place(23430, 5342, rt.Feature.BOULDER)   # on a road, after it
    t.remove(23425, 5338)                        # a road cell emptied
    return t


def test_round_trip_exact(tmp_path):
    t = rich_terrain()
    path = tmp_path / "t.json"
    t.save(path)
    for u in (rt.load(path), rt.Terrain.load(str(path)), rt.load(path, simd="scalar")):
        assert u.params == t.params
        assert u.params.fingerprint() == t.params.fingerprint()
        assert world(u) == world(t)
        assert u == t
        g, h = t.grid(23380, 5290, 120, 90, 0.75), u.grid(23380, 5290, 120, 90, 0.75)
        for k in range(2, 4):
            assert_f64_exact(h[k], g[k], "height/depth")
        for k in range(4, 6):
            assert_codes_exact(h[k], g[k], "terrain/feature")
        # what lies beneath the roads came back too
        for k in (1, 0):
            t2, u2 = t.copy(), u.copy()
            t2.remove_road(k)
            u2.remove_road(k)
            assert world(u2) == world(t2)
        u.save(tmp_path / "again.json")
        assert (tmp_path / "again.json").read_bytes() == path.read_bytes()


def test_file_layout(tmp_path):
    t = rt.Terrain()
    t.add_road([(23400, 5320), (23410, 5320)])
    t.add_road([(1, 2), (3, 4)], half_width=0)
    t.place(5, 5, rt.Feature.KNOLL)
    t.save(tmp_path / "t.json")
    doc = json.loads((tmp_path / "t.json").read_text())
    assert doc["format"] == "relfterrain.terrain" and doc["version"] == 1
    assert doc["roads"] == [{"path": [{"x": 23400, "y": 5320}, {"x": 23410, "y": 5320}]},
                            {"path": [{"x": 1, "y": 2}, {"x": 3, "y": 4}], "half_width": 0}]
    assert doc["placed"] == [{"x": 5, "y": 5, "feature": "KNOLL"}]  # not the road cells
    assert doc["params"] == rt.TerrainParams().to_dict()


def test_bare_roads_list(tmp_path):
    author = [{"path": [{"x": 23400, "y": 5320}, {"x": 23440, "y": 5350},
                        {"x": 23460, "y": 5350}]},
              {"path": [{"x": 23420, "y": 5300}, {"x": 23420, "y": 5370}]}]
    path = tmp_path / "MyRoads.json"
    path.write_text(json.dumps(author))
    t = rt.load(path)
    assert t.params == rt.TerrainParams()
    want = {}
    for road in author:
        pts = [(p["x"], p["y"]) for p in road["path"]]
        want = S.pave_road(R.CLASSIC, pts, want)
    assert ref_placed(rt, t.placed) == want
    assert [r.points.tolist() for r in t.roads] == \
        [[[p["x"], p["y"]] for p in road["path"]] for road in author]


def _good(tmp_path):
    path = tmp_path / "good.json"
    rich_terrain().save(path)
    return json.loads(path.read_text())


def _edit(doc, **changes):
    out = dict(doc)
    out.update(changes)
    return out


BAD = {
    "empty": lambda d: b"",
    "truncated": lambda d: json.dumps(d).encode()[:500],
    "not utf-8": lambda d: b"\xff\xfe\x00garbage",
    "foreign json": lambda d: json.dumps({"type": "FeatureCollection"}).encode(),
    "a number": lambda d: b"42",
    "wrong format": lambda d: json.dumps(_edit(d, format="geojson")).encode(),
    "newer version": lambda d: json.dumps(_edit(d, version=2)).encode(),
    "version not int": lambda d: json.dumps(_edit(d, version="1")).encode(),
    "bad params": lambda d: json.dumps(_edit(d, params={"profile": [1.0, 2.0, 3.0]})).encode(),
    "unknown param": lambda d: json.dumps(_edit(d, params={"colour": 1})).encode(),
    "unknown key": lambda d: json.dumps(_edit(d, extra=1)).encode(),
    "one-point road": lambda d: json.dumps(_edit(d, roads=[{"path": [{"x": 1, "y": 1}]}])).encode(),
    "fractional point": lambda d: json.dumps(
        _edit(d, roads=[{"path": [{"x": 1.5, "y": 1}, {"x": 2, "y": 2}]}])).encode(),
    "point missing y": lambda d: json.dumps(
        _edit(d, roads=[{"path": [{"x": 1}, {"x": 2, "y": 2}]}])).encode(),
    "unknown terrain": lambda d: json.dumps(
        _edit(d, placed=[{"x": 1, "y": 1, "terrain": "LAVA"}])).encode(),
    "placed not a list": lambda d: json.dumps(_edit(d, placed={"x": 1})).encode(),
    "beneath nothing": lambda d: json.dumps(
        _edit(d, beneath_roads=[{"x": 0, "y": 0, "terrain": "GRASS"}])).encode(),
    "huge coordinate": lambda d: json.dumps(
        _edit(d, placed=[{"x": 2**70, "y": 1, "terrain": "ROAD"}])).encode(),
    "bare list of numbers": lambda d: b"[1, 2, 3]",
    "bare road over the lake": lambda d: json.dumps(
        [{"path": [{"x": 23396, "y": 5499}, {"x": 23700, "y": 5499}]}]).encode(),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_files(tmp_path, case):
    data = BAD[case](_good(tmp_path))
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    t = rich_terrain()
    before = world(t)
    with pytest.raises(ValueError) as e:
        rt.load(path)
    assert str(path) in str(e.value)
    with pytest.raises(ValueError):
        rt.Terrain.load(path)
    assert world(t) == before
    assert path.read_bytes() == data


def test_road_too_long_for_memory(tmp_path):
    """A road across the whole coordinate range (about 190,000 km, in
    segments of the largest size) needs hundreds of GiB to pave: refused before anything is allocated, with a
    MemoryError naming the file and the road (found by the load fuzzer)."""
    path = tmp_path / "roads.json"
    step = 2**24  # segments are limited to 2**25 in x and y
    points = [{"x": x, "y": step * (k % 2)} for k, x in enumerate(range(-2**26, 2**26 + 1, step))]
    path.write_text(json.dumps([{"path": points}]))
    with pytest.raises(MemoryError) as e:
        rt.load(path)
    assert str(e.value).startswith(f"{path}: road 0: ")
    assert "physical memory" in str(e.value)


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        rt.load(tmp_path / "nothing.json")


def test_failed_save_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "t.json"
    rt.Terrain().save(path)
    old = path.read_bytes()

    def broken(obj, f, **kw):
        f.write('{"format": "relfterrain.terrain", "ver')  # half written, then a failure
        raise RuntimeError("disk full")

    monkeypatch.setattr(roads_mod.json, "dump", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        rich_terrain().save(path)
    assert path.read_bytes() == old
    assert sorted(os.listdir(tmp_path)) == ["t.json"]  # no temporary file left
    monkeypatch.undo()
    assert rt.load(path) == rt.Terrain()


def test_save_to_a_missing_folder(tmp_path):
    with pytest.raises(FileNotFoundError):
        rt.Terrain().save(tmp_path / "no" / "t.json")
