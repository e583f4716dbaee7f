"""Regressions of issue 19: each reproducer of the issue, as a test.

(The thread-safety ones are in tests/test_atomic.py, the bad-input cases in
tests/test_bad_input_newer.py, Ctrl-C in tests/test_interrupt.py.)
"""

from __future__ import annotations

import json
import math
import os
import shutil
from collections import namedtuple

import numpy as np
import pytest

import relfterrain as rt
from relfterrain import _core, cli, maps, mathjs
from relfterrain.random_profile import make_profile

# -- the CLI --------------------------------------------------------------------------------


def test_cli_map_streams_cover_the_map_in_metres(tmp_path):
    """`map X0 Y0 NX NY --step 4 --streams`: the streams of the map's 2 km,
    not of NX x NY metres (its south-west corner)."""
    pytest.importorskip("PIL")
    x0, y0, nx, ny, step = 23396, 5318, 500, 500, 4.0
    out = tmp_path / "s.png"
    assert cli.main(["map", str(x0), str(y0), str(nx), str(ny), "--step", "4", "--interval",
                     "25", "--streams", "-o", str(out)]) == 0
    from PIL import Image

    got = np.asarray(Image.open(out).convert("RGB"))
    t = rt.Terrain()
    t.mark_streams(x0, y0, math.ceil((nx - 1) * step) + 1, math.ceil((ny - 1) * step) + 1)
    want = t.map(x0, y0, nx, ny, step, interval=25)
    assert np.array_equal(got, want)
    # and the streams do reach beyond the south-west 500 x 500 m
    plain = rt.Terrain().map(x0, y0, nx, ny, step, interval=25)
    changed = np.any(want != plain, axis=2)
    rows, cols = np.nonzero(changed)
    assert changed.sum() > 1000
    assert cols.max() * step > 600 and (ny - 1 - rows.min()) * step > 600


@pytest.mark.parametrize("argv, names", [
    (["map", "0", "0", "nan", "10"], "NX"),
    (["map", "nan", "0", "10", "10"], "X0"),
    (["streams", "nan", "0", "10", "10", "-o", "s.csv"], "X0"),
    (["streams", "0", "0", "10", "inf", "-o", "s.csv"], "NY"),
    (["streams", "0", "0", "10", "10", "--max-length", "nan", "-o", "s.csv"], "--max-length"),
])
def test_cli_nan_refused_with_status_2(tmp_path, capsys, monkeypatch, argv, names):
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert f"error: {names}" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


Usage = namedtuple("Usage", "total used free")


@pytest.mark.parametrize("argv", [
    ["grid", "0", "0", "1048576", "1048576", "-o", "g.zarr"],
    ["grid", "0", "0", "100000", "100000", "-o", "g.nc"],
    ["grid", "0", "0", "20000", "20000", "--dtype", "float32", "-o", "g.zarr"],
    ["--nx", "30000", "--ny", "30000", "-o", "c.npz"],
])
def test_cli_refuses_an_output_larger_than_the_free_disk(tmp_path, capsys, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(shutil, "disk_usage", lambda p: Usage(2**40, 2**40 - 2**26, 2**26))
    monkeypatch.setattr(_core, "check_alloc", lambda *a: None)  # memory is not the point
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "on disk" in err and "free" in err and "-o/--output" in err
    assert list(tmp_path.iterdir()) == []


def test_cli_small_output_passes_the_disk_check(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(shutil, "disk_usage", lambda p: Usage(2**40, 2**40 - 2**26, 2**26))
    assert cli.main(["grid", "0", "0", "30", "20", "-o", "g.npz"]) == 0


def test_cli_grid_npz_past_memory_exits_2_naming_the_sizes(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    side = math.isqrt(_core.physical_memory() // 18) + 2
    assert cli.main(["grid", "0", "0", str(side), str(side), "-o", "g.npz"]) == 2
    err = capsys.readouterr().err
    assert "NX, NY" in err and f"{side} x {side}" in err
    assert list(tmp_path.iterdir()) == []


# -- refused though valid -------------------------------------------------------------------


def test_long_wide_road_is_accepted():
    """25 km x 201 m: about 5 M cells, refused before as needing 30 GiB."""
    t = rt.Terrain()
    t.add_road([(0, 0), (25000, 0)], half_width=100, max_bridge=None)
    assert len(t.placed) == 25001 * 201 + 200 * 201
    assert t.terra(12345, -100).terrain == rt.TerrainType.ROAD
    assert t.at(12345, -101) is None
    t.remove_road(0)
    assert len(t.placed) == 0


@pytest.mark.parametrize("points, w", [
    ([(0, 0), (37, 11), (40, -30), (0, 0)], 3),
    ([(5, 5), (6, 90), (-70, 91)], 0),
    ([(0, 0), (1, 1), (2, 2), (2, 2), (100, 3)], 5),
    ([(-300, 40), (200, -17)], 12),
])
def test_road_cells_are_the_union_of_the_squares(points, w):
    """The cells equal SPEC 13's squares around each interpolated point
    (transcribed here: round_js of a + k*(b-a)/d, k = 0 .. floor(d))."""
    want = set()
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        d = math.sqrt(float(bx - ax) ** 2 + float(by - ay) ** 2)
        for k in range(int(math.floor(d)) + 1):
            if d == 0:
                qx, qy = ax, ay
            else:
                qx = math.floor(ax + k * (bx - ax) / d + 0.5)
                qy = math.floor(ay + k * (by - ay) / d + 0.5)
            want |= {(qx + i, qy + j) for i in range(-w, w + 1) for j in range(-w, w + 1)}
    cells, _, bad = _core.road_cells(rt.Terrain()._core, np.array(points, np.int64),
                                     half_width=w, max_bridge=-1)
    assert bad == -1
    assert set(map(tuple, cells.tolist())) == want


def test_tiny_planet_map_names_radius():
    with pytest.raises(ValueError, match="^radius"):
        rt.Planet(5e-324).map(0, 0, 8, 8)
    assert rt.Planet(5e-324).map(0, 0, 8, 8, step=1.0).visible.sum() <= 1


# -- never answering ------------------------------------------------------------------------


def test_tiny_interval_refused_without_walking_every_level():
    """interval 1e-9 on the classic map: 10^9 levels a cell; refused at the
    first cells (before: after a minute of counting)."""
    z = rt.Terrain().height_grid(23396, 5318, 200, 150)
    with pytest.raises(ValueError, match="^interval: too small"):
        maps.contour_mask(z, 1e-9)
    with pytest.raises(ValueError, match="^interval: too small"):
        maps.contour_mask(np.array([[0.0, 1e300], [0.0, 0.0]]), 1e-300)


def _profile_one_block(length, seed, first):
    """SPEC 11 in one block of every index, transcribed from the spec."""
    gen = np.random.default_rng(seed)
    L = float(length)
    j = np.arange(length, dtype=np.float64)
    P = np.zeros(length)
    for _ in range(32):
        a = 16.0 + gen.random() * (90.0 - 16.0)
        v = 2.0 + gen.random() * (L / 32.0 - 2.0)
        n = math.floor(v) + (v - math.floor(v) >= 0.5)
        lamda = L / n if n != 0 else math.inf
        phase = 0.0 + gen.random() * (2 * math.pi - 0.0)
        s = mathjs.sin(phase + (2 * math.pi * j) / lamda)
        term = a * s if first else a * s / 8.0
        r = np.floor(term)
        r = r + (term - r >= 0.5)
        P += r / 8.0 if first else r
    return P


@pytest.mark.parametrize("first", [False, True])
def test_make_profile_in_blocks_gives_the_same_bits(first):
    n = 2**19  # two blocks
    assert np.array_equal(make_profile(n, rng=3, round_first=first).profile,
                          _profile_one_block(n, 3, first))


def test_make_profile_checks_memory_first(monkeypatch):
    seen = []
    monkeypatch.setattr(_core, "check_alloc", lambda n, names, what=None: seen.append(names))
    make_profile(64, rng=1)
    assert seen == ["length"]


# -- load: the API's limits -----------------------------------------------------------------


def _doc(**extra):
    d = {"format": "relfterrain.terrain", "version": 1}
    d.update(extra)
    return d


@pytest.mark.parametrize("text, where", [
    (json.dumps(_doc(placed=[{"x": 2**61, "y": 0, "terrain": "ROAD"}])), "placed[0].x"),
    (json.dumps(_doc(cleared=[{"x": 0, "y": -(2**60)}])), "cleared[0].y"),
    ('{"format": "relfterrain.terrain", "version": 1, "version": 1}', "'version'"),
    ('{"format": "relfterrain.terrain", "version": 1, "placed": [{"x": 1, "x": 2, "y": 0,'
     ' "terrain": "ROAD"}]}', "'x'"),
    ("[" * 100000 + "]" * 100000, "nested"),
    ('{"format": "relfterrain.terrain", "version": 1, "placed": [{"x": 1' + "0" * 5000 +
     ', "y": 0, "terrain": "ROAD"}]}', "placed[0].x"),
    ('{"format": "relfterrain.terrain", "version": NaN}', "NaN"),
    ('{"format": "relfterrain.terrain", "version": 1, "placed": [{"x": 1e999, "y": 0,'
     ' "terrain": "ROAD"}]}', "placed[0].x"),
])
def test_load_applies_the_api_limits(tmp_path, text, where):
    p = tmp_path / "w.json"
    p.write_text(text)
    with pytest.raises(ValueError) as info:
        rt.load(p)
    msg = str(info.value)
    assert msg.startswith(str(p)) and where in msg, msg


def test_load_keeps_what_place_accepts(tmp_path):
    t = rt.Terrain()
    t.place(2**53, -(2**53), rt.Feature.BOULDER)
    t.save(tmp_path / "w.json")
    assert rt.load(tmp_path / "w.json") == t


# -- save: only regular files are replaced --------------------------------------------------


def test_save_refuses_a_symlink(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("keep")
    link = tmp_path / "link.json"
    os.symlink(target, link)
    for save in (rt.Terrain().save, lambda p: maps.save_png(np.zeros((2, 2, 3), np.uint8), p)):
        with pytest.raises(ValueError, match="^path: .* symbolic link"):
            save(link)
        assert os.path.islink(link) and target.read_text() == "keep"
    assert sorted(os.listdir(tmp_path)) == ["link.json", "real.json"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX only")
def test_save_refuses_a_pipe(tmp_path):
    fifo = tmp_path / "p.json"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="^path: .* named pipe"):
        rt.Terrain().save(fifo)
    assert sorted(os.listdir(tmp_path)) == ["p.json"]


def test_save_refuses_a_device_node(tmp_path):
    """A character device (a null device made in the test's own folder)."""
    import stat

    dev = tmp_path / "null.json"
    try:
        os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, AttributeError, OSError):
        pytest.skip("cannot make a device node here (not root)")
    for save in (rt.Terrain().save, lambda p: maps.save_png(np.zeros((2, 2, 3), np.uint8), p)):
        with pytest.raises(ValueError, match="^path: .* character device"):
            save(dev)
    assert stat.S_ISCHR(os.lstat(dev).st_mode)
    assert sorted(os.listdir(tmp_path)) == ["null.json"]


def test_save_replaces_a_regular_file(tmp_path):
    p = tmp_path / "w.json"
    p.write_text("old")
    rt.Terrain().save(p)
    assert rt.load(p) == rt.Terrain()
