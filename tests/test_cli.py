"""The relfterrain command line."""

import os
import subprocess
import sys

import numpy as np
import pytest
import reference as R
from helpers import bits

import relfterrain as rt
from relfterrain.cli import main

# The subprocess imports the very package this test process imported (the
# installed one in CI, an in-place build during development).
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(rt.__file__)))


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = PACKAGE_PARENT + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _check_npz(path, g):
    with np.load(path) as z:
        assert set(z.files) == {"x", "y", "height", "depth", "terrain", "feature"}
        assert np.array_equal(bits(z["x"]), bits(g.x))
        assert np.array_equal(bits(z["y"]), bits(g.y))
        assert np.array_equal(bits(z["height"]), bits(g.height))
        assert np.array_equal(bits(z["depth"]), bits(g.depth))
        assert z["terrain"].dtype == np.uint8 and z["feature"].dtype == np.uint8
        assert np.array_equal(z["terrain"], g.terrain)
        assert np.array_equal(z["feature"], g.feature)


def _names_in(text, codes, enum):
    low = text.lower()
    for c in np.unique(codes):
        assert enum(int(c)).name.lower() in low, (enum(int(c)).name, text)


def test_subprocess_small_area(tmp_path):
    out = tmp_path / "map.npz"
    r = subprocess.run([sys.executable, "-m", "relfterrain", "--nx", "50", "--ny", "40",
                        "--output", str(out)],
                       capture_output=True, text=True, check=False, env=_env(), cwd=str(tmp_path),
                       timeout=120)
    assert r.returncode == 0, r.stderr
    x0, y0, _, _ = rt.CLASSIC_MAP
    g = rt.Terrain().grid(x0, y0, 50, 40)
    _check_npz(out, g)
    _names_in(r.stdout, g.terrain, rt.TerrainType)


def test_subprocess_default_output_name(tmp_path):
    r = subprocess.run([sys.executable, "-m", "relfterrain", "--nx", "50", "--ny", "40",
                        "--x0=24090", "--y0=5360"],
                       capture_output=True, text=True, check=False, env=_env(), cwd=str(tmp_path),
                       timeout=120)
    assert r.returncode == 0, r.stderr
    g = rt.Terrain().grid(24090, 5360, 50, 40)
    _check_npz(tmp_path / "relfterrain_map.npz", g)
    assert g.feature.any()
    _names_in(r.stdout, g.terrain, rt.TerrainType)
    _names_in(r.stdout, g.feature[g.feature != 0], rt.Feature)


def test_main_function_options(tmp_path, capsys):
    out = tmp_path / "o.npz"
    rc = main(["--x0=-100.5", "--y0=50.25", "--nx", "50", "--ny", "40", "--step", "0.5",
               "--lake-height", "215", "--threads", "2", "-o", str(out)])
    assert rc in (0, None)
    t = rt.Terrain(lake_height=215.0)
    g = t.grid(-100.5, 50.25, 50, 40, 0.5)
    _check_npz(out, g)
    text = capsys.readouterr().out
    _names_in(text, g.terrain, rt.TerrainType)
    # and it is the reference's map too
    _rx, _ry, rh, _rd, rtt, rf = R.grid(R.Params(lake_height=215.0), -100.5, 50.25, 50, 40, 0.5)
    with np.load(out) as z:
        assert np.array_equal(bits(z["height"]), bits(rh))
        assert np.array_equal(z["terrain"], rtt)
        assert np.array_equal(z["feature"], rf)


def test_main_classic_corner_matches_reference(tmp_path, capsys):
    out = tmp_path / "c.npz"
    rc = main(["--nx", "50", "--ny", "40", "-o", str(out)])
    assert rc in (0, None)
    x0, y0, _, _ = R.CLASSIC_MAP
    rx, _ry, rh, rd, rtt, _rf = R.grid(R.CLASSIC, x0, y0, 50, 40, 1.0)
    with np.load(out) as z:
        assert np.array_equal(bits(z["x"]), bits(rx))
        assert np.array_equal(bits(z["height"]), bits(rh))
        assert np.array_equal(bits(z["depth"]), bits(rd))
        assert np.array_equal(z["terrain"], rtt)
    text = capsys.readouterr().out
    assert "LAKE".lower() in text.lower() or R.LAKE not in rtt


@pytest.mark.parametrize("argv", [["--nx", "0"], ["--ny", "-3"], ["--step", "0"],
                                  ["--step", "nan"], ["--x0", "inf"]])
def test_main_bad_arguments(tmp_path, capsys, argv):
    out = tmp_path / "bad.npz"
    try:
        rc = main(argv + ["-o", str(out)])
    except SystemExit as e:
        rc = e.code
    assert rc not in (0, None)
    assert not out.exists()
    assert capsys.readouterr().err.strip() != ""


def test_help(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    text = capsys.readouterr().out
    for opt in ("--x0", "--y0", "--nx", "--ny", "--step", "--output", "--threads",
                "--lake-height"):
        assert opt in text


# -- subcommands ----------------------------------------------------------------

import csv  # noqa: E402
import json  # noqa: E402
import zipfile  # noqa: E402

from relfterrain import cli  # noqa: E402

AREA = ("24090", "5360", "50", "40")


def _run(argv, capsys):
    try:
        rc = main(argv)
    except SystemExit as e:
        rc = e.code
    out = capsys.readouterr()
    return rc, out.out, out.err


def _listing(path):
    return sorted(p.name for p in path.iterdir())


def _assert_grid_arrays(height, depth, terrain, feature, x, y, g, dtype=np.float64):
    assert height.dtype == depth.dtype == np.dtype(dtype)
    assert np.array_equal(bits(np.asarray(height, np.float64)),
                          bits(g.height.astype(dtype).astype(np.float64)))
    assert np.array_equal(bits(np.asarray(depth, np.float64)),
                          bits(g.depth.astype(dtype).astype(np.float64)))
    assert terrain.dtype == feature.dtype == np.uint8
    assert np.array_equal(terrain, g.terrain)
    assert np.array_equal(feature, g.feature)
    assert np.array_equal(bits(x), bits(g.x))
    assert np.array_equal(bits(y), bits(g.y))


@pytest.mark.parametrize("extra, dtype, compressed", [
    ([], np.float64, False), (["--compress"], np.float64, True),
    (["--dtype", "float32", "--step", "0.7"], np.float32, False)])
def test_grid_npz(tmp_path, capsys, extra, dtype, compressed):
    out = tmp_path / "g.npz"
    rc, text, err = _run(["grid", *AREA, "-o", str(out), "--lake-height", "230", *extra],
                         capsys)
    assert rc == 0, err
    assert "wrote" in text
    step = 0.7 if "0.7" in extra else 1.0
    g = rt.Terrain(lake_height=230.0).grid(24090, 5360, 50, 40, step)
    with np.load(out) as z:
        assert set(z.files) == {"x", "y", "height", "depth", "terrain", "feature"}
        _assert_grid_arrays(z["height"], z["depth"], z["terrain"], z["feature"], z["x"],
                            z["y"], g, dtype)
    kinds = {i.compress_type for i in zipfile.ZipFile(out).infolist()}
    assert kinds == ({zipfile.ZIP_DEFLATED} if compressed else {zipfile.ZIP_STORED})
    assert _listing(tmp_path) == ["g.npz"]


def test_grid_netcdf_round_trip(tmp_path, capsys):
    xr = pytest.importorskip("xarray")
    if cli.importlib.util.find_spec("netCDF4") is None:
        pytest.importorskip("h5netcdf")
        pytest.importorskip("h5py")
    out = tmp_path / "g.nc"
    rc, _, err = _run(["grid", *AREA, "--step", "0.5", "--dtype", "float32", "--chunk", "16",
                       "-o", str(out)], capsys)
    assert rc == 0, err
    t = rt.Terrain()
    with xr.open_dataset(out) as ds:
        ds = ds.load()
    expected = t.dataset(24090, 5360, 50, 40, 0.5, dtype="float32")
    xr.testing.assert_identical(ds, expected)
    g = t.grid(24090, 5360, 50, 40, 0.5)
    s = ds.sortby("y")  # Datasets are north up; the grid has SPEC 1's south-first rows
    _assert_grid_arrays(s.surface_height.values, s.depth.values, s.terrain.values,
                        s.feature.values, s.x.values, s.y.values, g, np.float32)
    assert ds.terrain.attrs["flag_meanings"].split() == [m.name for m in rt.TerrainType]
    assert _listing(tmp_path) == ["g.nc"]


def test_grid_netcdf_is_the_file_xarray_writes_without_importing_it(tmp_path):
    # The CLI writes an in-memory grid with h5netcdf alone (start-up: no
    # xarray, pandas or Dask); the file reads back identical to the one
    # xarray's h5netcdf engine writes from Terrain.dataset, down to the HDF5
    # attributes, fill values and storage of every variable.
    xr = pytest.importorskip("xarray")
    h5py = pytest.importorskip("h5py")
    pytest.importorskip("h5netcdf")
    out = tmp_path / "g.nc"
    code = ("import sys; from relfterrain.cli import main; "
            "rc = main(sys.argv[1:]); "
            "print(sorted(m for m in ('xarray', 'pandas', 'dask') if m in sys.modules)); "
            "sys.exit(rc)")
    r = subprocess.run([sys.executable, "-c", code, "grid", *AREA, "--step", "0.5",
                        "--lake-height", "230", "-o", str(out)],
                       capture_output=True, text=True, check=False, env=_env(), cwd=str(tmp_path),
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "[]", r.stdout
    t = rt.Terrain(lake_height=230.0)
    ref = tmp_path / "ref.nc"
    t.dataset(24090, 5360, 50, 40, 0.5).to_netcdf(ref, engine="h5netcdf")
    _assert_same_netcdf(xr, h5py, out, ref)
    # computed and written in bands of 1 to 3 rows (the CLI's bands hold 2**20 points)
    from relfterrain._netcdf import write
    from relfterrain._window import FIELDS
    from relfterrain.dataset import dataset_parts, terrain_window

    for band_points in (1, 100, 149):
        w = terrain_window(t, 24090, 5360, 50, 40, 0.5)
        parts = dataset_parts(dict.fromkeys(FIELDS), t, step=w.step,
                              window=(w.x0, w.y0, w.nx, w.ny))
        banded = tmp_path / f"banded{band_points}.nc"
        write(str(banded), *parts[:3], window=w, band_points=band_points)
        _assert_same_netcdf(xr, h5py, banded, ref)


def _assert_same_netcdf(xr, h5py, out, ref):
    with xr.open_dataset(out) as a, xr.open_dataset(ref) as b:
        xr.testing.assert_identical(a.load(), b.load())
    with h5py.File(out, "r") as fa, h5py.File(ref, "r") as fb:
        assert sorted(fa) == sorted(fb) and sorted(fa.attrs) == sorted(fb.attrs)
        for name in fb:
            a, b = fa[name], fb[name]
            assert sorted(a.attrs) == sorted(b.attrs), name
            assert (a.dtype, a.shape, a.chunks, a.compression) == \
                (b.dtype, b.shape, b.chunks, b.compression), name
            assert np.array_equal(a.fillvalue, b.fillvalue, equal_nan=True), name
            assert np.array_equal(a[()], b[()], equal_nan=True), name


def test_grid_zarr_round_trip_and_replace(tmp_path, capsys):
    xr = pytest.importorskip("xarray")
    zarr = pytest.importorskip("zarr")
    out = tmp_path / "g.zarr"
    t = rt.Terrain()
    for step in ("1", "0.3"):  # the second run replaces the first store
        rc, _, err = _run(["grid", *AREA, "--step", step, "--chunk", "7", "-o", str(out)],
                          capsys)
        assert rc == 0, err
        with xr.open_zarr(out) as ds:
            ds = ds.load()
        xr.testing.assert_identical(ds, t.dataset(24090, 5360, 50, 40, float(step)))
        g = t.grid(24090, 5360, 50, 40, float(step))
        s = ds.sortby("y")  # Datasets are north up; the grid is south-first (SPEC 1)
        _assert_grid_arrays(s.surface_height.values, s.depth.values, s.terrain.values,
                            s.feature.values, s.x.values, s.y.values, g)
        assert _listing(tmp_path) == ["g.zarr"]
        # every chunk written, those equal to the fill value too (zarr's
        # check for them cost more than compressing; docs/performance/speed.md)
        group = zarr.open_group(str(out), mode="r")
        empty = 0
        for name in ds.data_vars:
            a = group[name]
            assert a.nchunks_initialized == a.nchunks, name
            bits = a[:].view(f"u{a.dtype.itemsize}")
            (cy, cx), (ny, nx) = a.chunks, a.shape
            empty += sum(not bits[i:i + cy, j:j + cx].any()
                         for i in range(0, ny, cy) for j in range(0, nx, cx))
        assert empty, "no chunk equals the fill value: this area tests nothing"


def _feature_rows(x0, y0, nx, ny):
    # the independent transcription's features, row by row (south first)
    _, _, _, _, _, rf = R.grid(R.CLASSIC, x0, y0, nx, ny, 1.0)
    rows = []
    for r, c in zip(*np.nonzero(rf)):
        x, y = float(x0 + c), float(y0 + r)
        f = int(rf[r, c])
        code = R.orienteering_code(R.round_js(x), R.round_js(y)) if f in R.CODED_FEATURES else ""
        rows.append((x, y, R.FEATURE_NAMES[f], code))
    assert rows
    return rows


@pytest.mark.parametrize("ext", ["csv", "geojson", "parquet"])
def test_features(tmp_path, capsys, ext):
    if ext == "parquet":
        pytest.importorskip("pyarrow.parquet")
    out = tmp_path / f"f.{ext}"
    rc, text, err = _run(["features", *AREA, "-o", str(out)], capsys)
    assert rc == 0, err
    expected = _feature_rows(24090, 5360, 50, 40)
    assert f"{len(expected)} features" in text
    if ext == "csv":
        with open(out, newline="") as fh:
            rows = list(csv.reader(fh))
        assert rows[0] == ["x", "y", "feature", "code"]
        got = [(float(a), float(b), c, d) for a, b, c, d in rows[1:]]
    elif ext == "geojson":
        doc = json.loads(out.read_text())
        assert doc["type"] == "FeatureCollection"
        assert doc["relfterrain"]["relfterrain_fingerprint"] == rt.TerrainParams().fingerprint()
        got = [(f["geometry"]["coordinates"][0], f["geometry"]["coordinates"][1],
                f["properties"]["feature"], f["properties"]["code"]) for f in doc["features"]]
        assert all(f["geometry"]["type"] == "Point" for f in doc["features"])
    else:
        import pyarrow.parquet as pq

        table = pq.read_table(out)
        assert table.column_names == ["x", "y", "feature", "code"]
        meta = table.schema.metadata
        assert json.loads(meta[b"relfterrain_params"]) == rt.TerrainParams().to_dict()
        got = list(zip(*(table.column(n).to_pylist() for n in table.column_names)))
    assert got == expected


@pytest.mark.parametrize("ext", ["csv", "parquet", "npz"])
def test_stars(tmp_path, capsys, ext):
    if ext == "parquet":
        pytest.importorskip("pyarrow.parquet")
    out = tmp_path / f"s.{ext}"
    block = (-30, -29, 3, 60, 60, 60)
    rc, text, err = _run(["stars", *map(str, block), "--f-mask", "0xf", "--f-value", "15",
                          "-o", str(out)], capsys)
    assert rc == 0, err
    cat = rt.Galaxy(f_mask=0xF, f_value=0xF).stars(*block)
    assert len(cat) > 100 and f"{len(cat)} stars" in text
    names = list(cat.dtype.names)
    if ext == "csv":
        with open(out, newline="") as fh:
            rows = list(csv.reader(fh))
        assert rows[0] == names
        cols = {n: [r[k] for r in rows[1:]] for k, n in enumerate(names)}
        for n in names:
            conv = float if n == "magnitude" else int
            assert [conv(v) for v in cols[n]] == cat[n].tolist()
    elif ext == "parquet":
        import pyarrow.parquet as pq

        table = pq.read_table(out)
        assert table.column_names == names
        for n in names:
            assert table.column(n).to_pylist() == cat[n].tolist()
    else:
        with np.load(out) as z:
            assert z.files == names
            for n in names:
                assert z[n].dtype == cat[n].dtype
                assert np.array_equal(z[n], cat[n])


def test_stars_default_galaxy(tmp_path, capsys):
    out = tmp_path / "s.csv"
    rc, text, err = _run(["stars", *map(str, rt.INITIAL_VIEW), "-o", str(out)], capsys)
    assert rc == 0, err
    assert "26 stars" in text
    assert len(out.read_text().splitlines()) == 27


@pytest.mark.parametrize("argv, message", [
    (["grid", *AREA, "-o", "{d}/x.bmp"], "known: .npz"),
    (["grid", *AREA, "-o", "{d}/x"], "no extension"),
    (["grid", *AREA, "-o", "{d}/missing/x.npz"], "does not exist"),
    (["grid", *AREA, "-o", "{d}/file.txt/x.npz"], "is not a folder"),
    (["grid", *AREA, "-o", "{d}/dir.npz"], "is a directory"),
    (["grid", *AREA, "-o", "{d}/dir.zarr"], "not a zarr store"),
    (["grid", "0", "0", "0", "5", "-o", "{d}/x.npz"], "nx"),
    (["grid", "0", "0", "5", "-3", "-o", "{d}/x.npz"], "ny"),
    (["grid", "0", "nan", "5", "5", "-o", "{d}/x.npz"], "y0"),
    (["grid", "inf", "0", "5", "5", "-o", "{d}/x.npz"], "x0"),
    (["grid", "0", "0", "5", "5", "--step", "0", "-o", "{d}/x.npz"], "step"),
    (["grid", "0", "0", "abc", "5", "-o", "{d}/x.npz"], "NX"),
    (["grid", "0", "0", "5", "5", "--threads", "0", "-o", "{d}/x.npz"], "--threads"),
    (["grid", "0", "0", "5", "5", "--chunk", "0", "-o", "{d}/x.zarr"], "--chunk"),
    (["grid", "0", "0", "5", "5", "--dtype", "float16", "-o", "{d}/x.npz"], "--dtype"),
    (["grid", "0", "0", "5", "-o", "{d}/x.npz"], "NY"),
    (["features", *AREA, "-o", "{d}/f.npz"], "known: .csv"),
    (["features", *AREA, "-o", "{d}/missing/f.csv"], "does not exist"),
    (["features", "0", "0", "5", "0", "-o", "{d}/f.csv"], "ny"),
    (["stars", "0", "0", "0", "1", "1", "1", "-o", "{d}/s.nc"], "known: .csv"),
    (["stars", "0", "0", "0", "1", "1", "0", "-o", "{d}/s.csv"], "nz"),
    (["stars", "0", "0", "0.5", "1", "1", "1", "-o", "{d}/s.csv"], "Z0"),
    (["stars", "0", "0", "0", "1", "1", "1", "--f-mask", "0xf", "--f-value", "0x10",
      "-o", "{d}/s.csv"],
     "f_value"),
    (["stars", "0", "0", "0", "1", "1", "1", "-o", "{d}/dir.npz"], "is a directory"),
    (["-o", "{d}/x.bmp"], "known: .npz"),
    (["--nx", "5", "-o", "{d}/missing/x.npz"], "does not exist"),
    # a "--" attached to an option: argparse 3.11 stores [] for it (the CLI
    # fuzzer's find: a TypeError from deep in the command)
    (["map", "-o--"], "-o/--output: expected one argument"),
    (["grid", *AREA, "-o--"], "-o/--output: expected one argument"),
    (["map", "--step=--"], "--step: expected one argument"),
    (["-o--"], "-o/--output: expected one argument"),
])
def test_errors_exit_2_before_any_work(tmp_path, capsys, monkeypatch, argv, message):
    (tmp_path / "file.txt").write_text("x")
    (tmp_path / "dir.npz").mkdir()
    (tmp_path / "dir.zarr").mkdir()
    (tmp_path / "dir.zarr" / "data.txt").write_text("keep me")
    before = _listing(tmp_path)

    def no_work(*a, **k):
        raise AssertionError("computed before checking the arguments")

    monkeypatch.setattr(rt.Terrain, "grid", no_work)
    monkeypatch.setattr(rt.Terrain, "feature_grid", no_work)
    monkeypatch.setattr(rt.Galaxy, "stars", no_work)
    rc, text, err = _run([a.format(d=tmp_path) for a in argv], capsys)
    assert rc == 2
    assert len(err.strip().splitlines()) == 1, err
    assert message in err and "error" in err
    assert "Traceback" not in err
    assert _listing(tmp_path) == before
    assert (tmp_path / "dir.zarr" / "data.txt").read_text() == "keep me"


def test_failed_write_leaves_nothing(tmp_path, capsys, monkeypatch):
    def disk_full(path, *a):
        with open(path, "w") as fh:
            fh.write("partial")
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(cli, "_write_csv", disk_full)
    rc, _, err = _run(["features", *AREA, "-o", str(tmp_path / "f.csv")], capsys)
    assert rc == 1
    assert "No space left on device" in err and len(err.strip().splitlines()) == 1
    assert _listing(tmp_path) == []


def test_existing_file_replaced(tmp_path, capsys):
    out = tmp_path / "s.csv"
    out.write_text("old")
    rc, _, err = _run(["stars", *map(str, rt.INITIAL_VIEW), "-o", str(out)], capsys)
    assert rc == 0, err
    assert out.read_text().startswith("x,y,z,")
    assert _listing(tmp_path) == ["s.csv"]
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask  # not the temporary file's 0o600


@pytest.mark.parametrize("name, options", [
    ("grid", ("--step", "--dtype", "--chunk", "--compress", "--output", "--progress", "X0")),
    ("features", ("--lake-height", "--output", "X0", "NY")),
    ("stars", ("--f-mask", "--output", "Z0", "NZ")),
])
def test_subcommand_help(capsys, name, options):
    with pytest.raises(SystemExit) as e:
        main([name, "--help"])
    assert e.value.code == 0
    text = capsys.readouterr().out
    for opt in options:
        assert opt in text


def test_help_lists_subcommands(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    for name in cli.COMMANDS:
        assert name in text


def test_progress_bars(tmp_path, capsys):
    pytest.importorskip("tqdm")
    for argv in (["grid", *AREA, "-o", str(tmp_path / "g.npz")],
                 ["features", *AREA, "-o", str(tmp_path / "f.csv")],
                 ["stars", *map(str, rt.INITIAL_VIEW), "-o", str(tmp_path / "s.csv")],
                 ["grid", *AREA, "-o", str(tmp_path / "g.nc")]):
        rc, _, err = _run([*argv, "--progress"], capsys)
        assert rc == 0, err
        assert "%|" in err, (argv, err)  # a bar was drawn
    with np.load(tmp_path / "g.npz") as z:
        assert np.array_equal(z["terrain"], rt.Terrain().grid(24090, 5360, 50, 40).terrain)


def test_register_a_subcommand(capsys):
    seen = []

    def arguments(p):
        p.add_argument("name")

    @cli.command("hello-test", "say hello", arguments)
    def hello(args):
        seen.append(args.name)
        return 0

    try:
        with pytest.raises(ValueError, match="already registered"):
            cli.command("hello-test", "again", arguments)(hello)
        assert main(["hello-test", "world"]) == 0
        assert seen == ["world"]
    finally:
        del cli.COMMANDS["hello-test"]


def test_subprocess_subcommand(tmp_path):
    out = tmp_path / "s.npz"
    r = subprocess.run([sys.executable, "-m", "relfterrain", "stars",
                        *map(str, rt.INITIAL_VIEW), "-o", str(out)],
                       capture_output=True, text=True, check=False, env=_env(), cwd=str(tmp_path),
                       timeout=120)
    assert r.returncode == 0, r.stderr
    with np.load(out) as z:
        assert len(z["x"]) == 26
    r = subprocess.run([sys.executable, "-m", "relfterrain", "grid", "0", "0", "5", "5",
                        "-o", str(tmp_path / "x.bmp")],
                       capture_output=True, text=True, check=False, env=_env(), cwd=str(tmp_path),
                       timeout=120)
    assert r.returncode == 2 and "known: .npz" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "x.bmp").exists() and not (tmp_path / "x.bmp.npz").exists()


def test_missing_dependency_is_a_clean_error(tmp_path, capsys, monkeypatch):
    real = cli.importlib.util.find_spec
    monkeypatch.setattr(cli.importlib.util, "find_spec",
                        lambda name, *a: None if name == "pyarrow" else real(name, *a))
    rc, _, err = _run(["stars", *map(str, rt.INITIAL_VIEW), "-o", str(tmp_path / "s.parquet")],
                      capsys)
    assert rc == 2 and "relfterrain[parquet]" in err and len(err.strip().splitlines()) == 1
    assert _listing(tmp_path) == []


# -- map, streams, site ------------------------------------------------------


def test_map_png_is_the_rendered_map(tmp_path, capsys):
    PIL = pytest.importorskip("PIL.Image")
    out = tmp_path / "m.png"
    code, text, _ = _run(["map", "23396", "5318", "120", "90", "--interval", "10",
                          "-o", str(out)], capsys)
    assert code == 0 and "wrote" in text
    img = np.asarray(PIL.open(out).convert("RGB"))
    want = rt.Terrain().map(23396, 5318, 120, 90, interval=10)
    assert np.array_equal(img, want)


def test_map_with_marked_streams_shows_them(tmp_path, capsys):
    PIL = pytest.importorskip("PIL.Image")
    plain, marked = tmp_path / "a.png", tmp_path / "b.png"
    assert _run(["map", "-o", str(plain), "--no-contours"], capsys)[0] == 0
    assert _run(["map", "-o", str(marked), "--no-contours", "--streams"], capsys)[0] == 0
    t = rt.Terrain()
    t.mark_streams(*rt.CLASSIC_MAP)
    want = t.map(*rt.CLASSIC_MAP, contours=False)
    assert np.array_equal(np.asarray(PIL.open(marked).convert("RGB")), want)
    assert not np.array_equal(np.asarray(PIL.open(plain).convert("RGB")), want)


@pytest.mark.parametrize("ext", [".csv", ".geojson", ".parquet"])
def test_streams_files_hold_every_route(tmp_path, capsys, ext):
    if ext == ".parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / f"s{ext}"
    code, text, _ = _run(["streams", "23300", "4900", "200", "200", "--margin", "100",
                          "-o", str(out)], capsys)
    assert code == 0
    want = rt.Terrain().streams(23300, 4900, 200, 200, margin=100)
    assert len(want) == 5 and f"{len(want)} streams" in text
    if ext == ".geojson":
        doc = json.loads(out.read_text())
        got = [f["geometry"]["coordinates"] for f in doc["features"]]
        assert got == [s.route.tolist() for s in want]
        assert [f["properties"]["end"] for f in doc["features"]] == [s.end for s in want]
        return
    if ext == ".csv":
        with open(out, newline="") as fh:
            rows = list(csv.DictReader(fh))
        xy = [(int(r["x"]), int(r["y"])) for r in rows]
        lengths = [float(r["length"]) for r in rows]
    else:
        import pyarrow.parquet as pq

        table = pq.read_table(out).to_pydict()
        xy = list(zip(table["x"], table["y"]))
        lengths = table["length"]
    assert xy == [tuple(p) for s in want for p in s.route.tolist()]
    assert lengths == [s.length for s in want for _ in s.route]  # exact doubles


def test_site_prints_the_site(capsys):
    code, text, _ = _run(["site", "23450", "5400", "--seed", "3"], capsys)
    s = rt.Terrain().find_good_site(23450, 5400, rng=3)
    assert json.loads(text) == {"x": s.x, "y": s.y, "ok": s.ok, "altered": s.altered,
                                "reason": s.reason, "tries": s.tries}
    assert code == (0 if s.ok else 1)


@pytest.mark.parametrize("argv, names", [
    (["map", "-o", "m.jpg"], "-o/--output"),
    (["map", "1", "2", "3", "-o", "m.png"], "X0 Y0 NX NY"),
    (["map", "--interval", "0", "-o", "m.png"], "--interval"),
    (["map", "--step", "-1", "-o", "m.png"], "step"),
    (["streams", "-o", "nowhere/s.csv"], "-o/--output"),
    (["streams", "0.5", "0", "10", "10", "-o", "s.csv"], "X0, Y0"),
    (["streams", "--margin", "-3", "-o", "s.csv"], "margin"),
    (["site", "nan", "0"], "x"),
])
def test_new_commands_refuse_bad_arguments_before_work(tmp_path, capsys, monkeypatch, argv,
                                                       names):
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(argv, capsys)
    assert code == 2
    assert names in err and err.count("\n") == 1
    assert os.listdir(tmp_path) == []
