"""Every reproducer of issue 19, run literally (the calls and sizes of the issue).

Each test is one bullet of the issue and must pass; where a reproducer
needs a long run (Ctrl-C of ``relfterrain grid ... -o g.zarr``), the test
named in the docstring runs it. No time is asserted: Ctrl-C latencies are
measured by benchmarks/bench_ctrl_c.py (docs/guide/hardening.md).
"""

from __future__ import annotations

import copy
import json
import math
import os
import pickle
import threading

import numpy as np
import pytest
from test_interrupt import interrupted_after

import relfterrain as rt
from relfterrain import maps
from relfterrain.random_profile import make_profile

# -- Wrong results and lost consistency ---------------------------------------------------------


def test_roads_under_threads_add_then_remove_60_times():
    """4 threads each add their road (half_width=20, max_bridge=None) then
    remove rt.Road(own points, 20), 60 times: no IndexError, nothing paved."""
    t = rt.Terrain()
    errors: list = []

    def work(k: int) -> None:
        pts = [(23000 + 10 * k, 5590), (23040 + 10 * k, 5650)]   # overlapping roads
        try:
            for _ in range(60):
                t.add_road(pts, half_width=20, max_bridge=None)
                t.remove_road(rt.Road(np.array(pts), 20))
        except BaseException as e:  # noqa: BLE001
            errors.append(repr(e))

    ths = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for th in ths:
        th.start()
    for th in ths:
        th.join()
    assert errors == []
    assert t.roads == () and len(t.placed) == 0


def test_40_roads_then_2_threads_remove_road_0_20_times():
    t = rt.Terrain()
    for j in range(40):
        t.add_road([(23000 + 5 * j, 5590), (23010 + 5 * j, 5650)], half_width=6, max_bridge=None)
    ths = [threading.Thread(target=lambda: [t.remove_road(0) for _ in range(20)])
           for _ in range(2)]
    for th in ths:
        th.start()
    for th in ths:
        th.join()
    assert t.roads == () and len(t.placed) == 0


@pytest.mark.parametrize("run", range(7))
def test_pickle_while_another_thread_adds_and_removes_roads_loads(run):
    t = rt.Terrain()
    stop = threading.Event()

    def change() -> None:
        while not stop.is_set():
            t.add_road([(23000, 5590), (23030, 5650)], half_width=8, max_bridge=None)
            t.remove_road(0)

    th = threading.Thread(target=change)
    th.start()
    try:
        for _ in range(30):
            s = pickle.loads(pickle.dumps(t))     # "shape mismatch" before
            assert (len(s.roads) == 1) == (len(s.placed) > 0)
    finally:
        stop.set()
        th.join()


def test_copy_copy_planet_shares_no_placed_table():
    p = rt.Planet(2000)
    before = p.terra(10, 20).terrain
    q = copy.copy(p)
    key = tuple(int(np.floor(v + 0.5)) for v in p.xyz(10, 20))
    what = rt.TerrainType.LAKE if before != rt.TerrainType.LAKE else rt.TerrainType.WOOD
    q.place(*key, what)
    assert p.placed == {} and p.terra(10, 20).terrain == before
    assert q.terra(10, 20).terrain == what


@pytest.mark.parametrize("order", ["unsorted", "sorted"])
def test_find_good_sites_6_000_000_starts_answer_ctrl_c(order):
    t = rt.Terrain()
    rng = np.random.default_rng(6)
    x0, y0, nx, ny = rt.CLASSIC_MAP
    x, y = x0 + rng.random(6_000_000) * nx, y0 + rng.random(6_000_000) * ny
    if order == "sorted":
        k = np.argsort(y)
        x, y = x[k], y[k]
    for delay in (0.05, 0.4, 1.5):   # the preparation, the first blocks, the searches
        assert interrupted_after(lambda: t.find_good_sites(x, y), delay=delay) == 1
    assert len(t.placed) == 0


def test_cli_grid_zarr_interrupted_leaves_nothing():
    """Run by tests/test_interrupt.py::test_cli_grid_zarr_interrupted_leaves_no_part_folder
    (a real Ctrl-C during the write; exit status 130, no .g.zarr.*.part folder)."""
    import test_interrupt
    assert hasattr(test_interrupt, "test_cli_grid_zarr_interrupted_leaves_no_part_folder")


def test_cli_map_streams_in_pixels_not_metres(tmp_path):
    pytest.importorskip("PIL")
    from relfterrain import cli
    out = tmp_path / "s.png"
    assert cli.main(["map", "23396", "5318", "500", "500", "--step", "4", "--interval", "25",
                     "--streams", "-o", str(out)]) == 0
    t = rt.Terrain()
    plain = np.asarray(t.map(23396, 5318, 500, 500, step=4, interval=25))[..., :3]
    t.mark_streams(23396, 5318, 2000, 2000)
    marked = np.asarray(t.map(23396, 5318, 500, 500, step=4, interval=25))[..., :3]
    from PIL import Image
    got = np.asarray(Image.open(out).convert("RGB"))
    want_changed = np.any(marked != plain, axis=-1)
    got_changed = np.any(got != plain, axis=-1)
    assert want_changed.sum() > 1000          # 2,359 in the issue
    assert np.array_equal(got_changed, want_changed)


# -- Never answering ----------------------------------------------------------------------------

def test_dask_height_grid_2_40_square_is_cheap():
    pytest.importorskip("dask")
    import relfterrain.dask as rtd
    t = rt.Terrain()
    a = rtd.height_grid(t, 0, 0, 2**40, 2**40)
    assert a.shape == (2**40, 2**40)
    np.testing.assert_array_equal(a[:10, :10].compute(), t.height_grid(0, 0, 10, 10))
    # chunks=(2**20, 2**20) would be 2**40 blocks: refused at once, naming chunks
    # (a selection costs what it selects whatever the block size, so larger
    # blocks lose nothing)
    with pytest.raises(ValueError, match="^chunks"):
        rtd.height_grid(t, 0, 0, 2**40, 2**40, chunks=(2**20, 2**20))


def test_cli_grid_8_tib_zarr_refused(tmp_path, capsys):
    from relfterrain import cli
    assert cli.main(["grid", "0", "0", "1048576", "1048576", "-o", str(tmp_path / "g.zarr")]) == 2
    assert os.listdir(tmp_path) == []


def test_map_interval_1e_9_refused():
    t = rt.Terrain()
    with pytest.raises(ValueError, match="interval"):
        t.map(*rt.CLASSIC_MAP, interval=1e-9)


def test_make_profile_2_24_answers_ctrl_c():
    assert interrupted_after(lambda: make_profile(2**24), delay=0.3) == 1


# -- Refused though valid, accepted though invalid ------------------------------------------------

def test_25_km_road_half_width_100_is_paved():
    t = rt.Terrain()
    t.add_road([(0, 0), (25000, 0)], half_width=100, max_bridge=None)
    assert len(t.placed) == 25001 * 201 or len(t.placed) > 5_000_000


def test_tiny_planet_map_blames_radius():
    with pytest.raises(ValueError, match="^radius"):
        rt.Planet(5e-324).map(0, 0, 8, 8)


SITES = rt.Terrain().find_good_sites([23400.0, 23800.0], [5320.0, 5700.0])
CONVERTED = [
    ("find_good_sites-str", lambda: rt.Terrain().find_good_sites("23400", 5320), TypeError, "x"),
    ("find_good_sites-bool", lambda: rt.Terrain().find_good_sites(True, 5320), TypeError, "x"),
    ("find_good_sites-complex", lambda: rt.Terrain().find_good_sites(1j, 5320), TypeError, "x"),
    ("Sites.site-str", lambda: SITES.site("0"), TypeError, "i"),
    ("Planet.remove-str", lambda: rt.Planet(1000).remove("1", 0, 0), TypeError, "xr"),
    ("Planet.remove-float", lambda: rt.Planet(1000).remove(1.7, 0, 0), TypeError, "xr"),
    ("time_vector-str", lambda: rt.Terrain(time_vector=["1"] * 5), TypeError, "time_vector"),
    ("make_profile-rng-True", lambda: make_profile(64, rng=True), TypeError, "rng"),
    ("contour_mask-0", lambda: maps.contour_mask(np.zeros((4, 4)), 0.0), ValueError, "interval"),
]


@pytest.mark.parametrize("name, fn, exc, arg", CONVERTED, ids=[c[0] for c in CONVERTED])
def test_refused_not_converted(name, fn, exc, arg):
    with pytest.raises(exc) as info:
        fn()
    assert str(info.value).startswith(arg)


def test_planet_remove_1_7_removes_nothing():
    p = rt.Planet(1000)
    p.place(1, 0, 0, rt.Feature.BOULDER)
    with pytest.raises(TypeError):
        p.remove(1.7, 0, 0)
    assert p.placed == {(1, 0, 0): rt.Feature.BOULDER}


def test_cli_streams_max_length_nan_refused(tmp_path, capsys):
    from relfterrain import cli
    assert cli.main(["streams", "23396", "5318", "50", "50", "--max-length", "nan",
                     "-o", str(tmp_path / "s.geojson")]) == 2
    assert "--max-length" in capsys.readouterr().err


def test_load_refuses_a_placed_x_of_2_61_and_duplicate_keys(tmp_path):
    t = rt.Terrain()
    t.place(5, 6, rt.Feature.BOULDER)
    t.save(tmp_path / "w.json")
    doc = json.loads((tmp_path / "w.json").read_text())
    doc["placed"][0]["x"] = 2**61
    (tmp_path / "big.json").write_text(json.dumps(doc))
    with pytest.raises(ValueError, match=r"big\.json: placed\[0\]\.x"):
        rt.load(tmp_path / "big.json")
    text = (tmp_path / "w.json").read_text()
    assert '"x":5' in text
    text = text.replace('"x":5', '"x":5,"x":7', 1)
    (tmp_path / "dup.json").write_text(text)
    with pytest.raises(ValueError, match=r"dup\.json: the key 'x' appears twice"):
        rt.load(tmp_path / "dup.json")


def test_save_refuses_a_symlink(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("{}")
    (tmp_path / "link.json").symlink_to(real)
    with pytest.raises(ValueError, match="^path"):
        rt.Terrain().save(tmp_path / "link.json")
    assert real.read_text() == "{}"


# -- Errors that do not name the argument --------------------------------------------------------

PHYS = rt._core.physical_memory()
NAMED = [
    ("mark_streams-limit-2**64", lambda: rt.Terrain().mark_streams(23396, 5318, 10, 10,
                                                                    limit=2**64), "limit"),
    ("add_road-max_bridge-2**70", lambda: rt.Terrain().add_road([(0, 0), (10, 0)],
                                                                max_bridge=2**70), "max_bridge"),
    ("find_good_sites-broadcast", lambda: rt.Terrain().find_good_sites(
        np.zeros((100000, 1)), np.zeros(100000)), "x, y"),
    ("building_grid-2**20", lambda: rt.Terrain().building_grid(0, 0, 2**20, 2**20)
     if 2**40 > PHYS else pytest.skip("more memory than 2**40 bytes"), "nx, ny"),
    ("tree_grid-2**20", lambda: rt.Terrain().tree_grid(0, 0, 2**20, 2**20)
     if 2**40 > PHYS else pytest.skip("more memory than 2**40 bytes"), "nx, ny"),
    ("star_field-scale-1e4", lambda: maps.star_field(scale=1e4), "scale"),
    ("Sites.site-5", lambda: SITES.site(5), "i"),
    ("save-None", lambda: rt.Terrain().save(None), "path"),
    ("save-empty", lambda: rt.Terrain().save(""), "path"),
    ("save-bytes", lambda: rt.Terrain().save(b"w.json"), "path"),
    ("save-NUL", lambda: rt.Terrain().save("w\0.json"), "path"),
    ("load-None", lambda: rt.load(None), "path"),
    ("Nebula-dtype-bogus", lambda: rt.Nebula(100.0).grid(0, 0, 0, 4, 4, 4, dtype="bogus"),
     "dtype"),
    ("Nebula-out-list", lambda: rt.Nebula(100.0).grid(0, 0, 0, 4, 4, 4, out=[0.0] * 64), "out"),
    ("contour_mask-1-D", lambda: maps.contour_mask(np.zeros(5), 5.0), "z"),
    ("contour_mask-nan", lambda: maps.contour_mask(np.zeros((4, 4)), math.nan), "interval"),
    ("contour_mask-negative", lambda: maps.contour_mask(np.zeros((4, 4)), -5), "interval"),
]


@pytest.mark.parametrize("name, fn, arg", NAMED, ids=[c[0] for c in NAMED])
def test_error_names_the_argument(name, fn, arg):
    with pytest.raises((ValueError, TypeError, MemoryError, IndexError)) as info:
        fn()
    assert str(info.value).startswith(arg), str(info.value)


def test_dask_chunks_0_0_names_chunks():
    pytest.importorskip("dask")
    import relfterrain.dask as rtd
    with pytest.raises(ValueError, match="^chunks"):
        rtd.height_grid(rt.Terrain(), 0, 0, 64, 64, chunks=(0, 0))


@pytest.mark.parametrize("argv", [["map", "0", "0", "nan", "10"],
                                  ["streams", "nan", "0", "10", "10"]])
def test_cli_nan_exits_2_without_a_traceback(tmp_path, capsys, argv):
    from relfterrain import cli
    out = str(tmp_path / ("m.png" if argv[0] == "map" else "s.geojson"))
    assert cli.main([*argv, "-o", out]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_cli_map_past_memory_exits_2(capsys):
    """Found by fuzz/fuzz_cli.py: a map past memory exited 1, not 2."""
    from relfterrain import cli
    assert cli.main(["map", "99999999999", "2", "99999999999", "99999999999"]) == 2
    assert "nx, ny" in capsys.readouterr().err
