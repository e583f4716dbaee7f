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
