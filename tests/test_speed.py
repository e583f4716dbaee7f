"""The paths added for speed give the same bits as before (issue 23).

- terra grids at any step and origin take SIMD tile passes (prof_row,
  height_row, prof_at, classify) instead of the point path: compared with the
  independent transcription of the seed (tests/reference.py) at random
  non-dyadic steps and origins, on every SIMD variant this CPU has;
- fresh outputs of 64 KiB and more come from a cache of freed buffers: a
  reused buffer is overwritten entirely;
- threads=None picks the idle cores (one for small grids): the same bits as
  one thread;
- `import relfterrain` loads its public names on first use: the same
  objects, and the heavy modules stay unloaded until then.

No timings are asserted here (benchmarks/bench_speed.py measures them).
"""

import dataclasses
import os
import subprocess
import sys

import numpy as np
import pytest
import reference as R
from helpers import assert_codes_exact, assert_f64_exact
from hypothesis import given, settings
from hypothesis import strategies as st

import relfterrain as rt

VARIANTS = rt.simd_variants()
# the folder holding the relfterrain under test (installed, or built in place);
# never the checkout as such, whose relfterrain/ may have no built _core
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(rt.__file__)))


def _check_grid(t, params, x0, y0, nx, ny, step, threads=1):
    rx, ry, rh, rd, rtt, rf = R.grid(params, x0, y0, nx, ny, step)
    g = t.grid(x0, y0, nx, ny, step, threads=threads)
    assert_f64_exact(g.height, rh, "grid.height")
    assert_f64_exact(g.depth, rd, "grid.depth")
    assert_codes_exact(g.terrain, rtt, "grid.terrain")
    assert_codes_exact(g.feature, rf, "grid.feature")


# ------------------------------------------------------- any step and origin
@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=12, deadline=None)
@given(
    x0=st.floats(-3.0e4, 3.0e4, allow_nan=False),
    y0=st.floats(-3.0e4, 3.0e4, allow_nan=False),
    step=st.floats(0.05, 3.0, allow_nan=False),
    nx=st.integers(1, 41),
    ny=st.integers(1, 4),
)
def test_non_dyadic_grid_matches_reference(variant, x0, y0, step, nx, ny):
    t = rt.Terrain(simd=variant)
    _check_grid(t, R.CLASSIC, x0, y0, nx, ny, step)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("x0, y0, nx, ny, step", [
    (23396, 5318, 61, 7, 0.37),
    (23396, 5318, 59, 5, 1 / 3),
    (23396.1, 5318.3, 67, 5, 1.0),          # a non-dyadic origin at step 1
    (-31000.3, -2000.7, 45, 3, 2.9),        # gathers: |a| * step beyond the windows
    (23396.5, 5318.25, 2061, 1, 0.37),     # wider than a tile (2048 columns)
    (0.0, 0.0, 33, 3, 0.1),                 # the axes, x = 0 and y = 0
    (1e-310, 5318.3, 17, 2, 0.3),          # a subnormal origin: the point path
    (6.0e7 + 0.3, -6.6e7, 19, 2, 0.37),    # near the edge of the domain
])
def test_non_dyadic_cases_match_reference(variant, x0, y0, nx, ny, step):
    t = rt.Terrain(simd=variant)
    _check_grid(t, R.CLASSIC, x0, y0, nx, ny, step)


@pytest.mark.parametrize("variant", VARIANTS)
def test_non_dyadic_options_match_reference(variant):
    # mountains (the heights' post-pass), a lake level, a narrow feature mask,
    # a 64-entry integer profile with negative values and three directions
    profile = tuple(float((k * 37) % 91) - 30.0 for k in range(64))
    vec = {"ah": (3, -7, 11), "bh": (5, 2, -9), "a1": (1, 2, 3), "b1": (4, 5, 6),
           "a2": (-7, 8, 9), "b2": (10, -11, 12), "a3": (13, 14, -15), "b3": (16, 17, 18)}
    cases = [
        ({"mountain_base": 300.0}, {"mountain_base": 300.0}),
        ({"lake_height": 230.0}, {"lake_height": 230.0}),
        ({"feature_mask": 0xFF}, {"feature_mask": 0xFF}),
        ({"profile": list(profile), "lake_base": -20.0, **{k: list(v) for k, v in vec.items()}},
         {"profile": profile, "lake_base": -20.0, **vec}),
    ]
    for kwargs, ref_kwargs in cases:
        t = rt.Terrain(simd=variant, **kwargs)
        params = dataclasses.replace(R.CLASSIC, **ref_kwargs)
        _check_grid(t, params, 23396.3, 5318.7, 83, 4, 0.37)
        _check_grid(t, params, -4000.1, 712.9, 41, 3, 1 / 3)


@pytest.mark.parametrize("variant", VARIANTS)
def test_non_dyadic_placed_entries(variant):
    # tiles near a placed entry take the point path, the others the tile passes
    t = rt.Terrain(simd=variant)
    x0, y0, step, nx, ny = 23396.3, 5318.7, 0.37, 2100, 3
    ref_plain = t.grid(x0, y0, nx, ny, step, threads=1)
    t.place(23400, 5319, rt.TerrainType.TOWN)
    t.place(24100, 5319, rt.Feature.BOULDER)
    g = t.grid(x0, y0, nx, ny, step, threads=1)
    placed = {(23400, 5319): ("T", int(rt.TerrainType.TOWN)),
              (24100, 5319): ("F", int(rt.Feature.BOULDER))}
    rx, ry, rh, rd, rtt, rf = R.grid(R.CLASSIC, x0, y0, nx, ny, step, placed)
    assert_f64_exact(g.height, rh, "grid.height")
    assert_codes_exact(g.terrain, rtt, "grid.terrain")
    assert_codes_exact(g.feature, rf, "grid.feature")
    assert not np.array_equal(g.terrain, ref_plain.terrain) or not np.array_equal(
        g.feature, ref_plain.feature)  # the entries show


@pytest.mark.parametrize("variant", VARIANTS)
def test_non_dyadic_threads_and_blocks(variant):
    # the same bits for any thread count and for blocks assembled by offset
    t = rt.Terrain(simd=variant)
    whole = t.grid(23396.1, 5318.3, 300, 40, 0.37, threads=1)
    for threads in (2, 3, None):
        g = t.grid(23396.1, 5318.3, 300, 40, 0.37, threads=threads)
        for name in ("height", "depth", "terrain", "feature"):
            assert getattr(g, name).tobytes() == getattr(whole, name).tobytes(), name
    part = t.grid(23396.1, 5318.3, 100, 10, 0.37, offset=(20, 150), threads=1)
    assert part.height.tobytes() == whole.height[20:30, 150:250].tobytes()
    assert part.terrain.tobytes() == whole.terrain[20:30, 150:250].tobytes()


# ------------------------------------------------------------ fresh outputs
@pytest.mark.parametrize("n", [512, 96])  # 2 MiB and 72 KiB of heights: through the cache
def test_fresh_outputs_reuse_is_exact(n):
    t = rt.Terrain()
    a = t.height_grid(23396, 5318, n, n, threads=1)
    expect = np.full((n, n), np.nan)
    t.height_grid(24000.5, 5000.25, n, n, 0.5, out=expect, threads=1)
    del a  # back into the cache, with the first grid's values
    b = t.height_grid(24000.5, 5000.25, n, n, 0.5, threads=1)
    assert b.tobytes() == expect.tobytes()
    assert b.flags.owndata and b.flags.writeable and b.flags.c_contiguous
    g1 = t.grid(23396, 5318, n, n, threads=1)
    ref = t.grid(23396.3, 5318.7, n, n, 0.37, threads=1)
    del g1
    g2 = t.grid(23396.3, 5318.7, n, n, 0.37, threads=1)
    for name in ("height", "depth", "terrain", "feature"):
        assert getattr(g2, name).tobytes() == getattr(ref, name).tobytes(), name


def test_fresh_outputs_on_a_cache_line():
    # outputs through the cache start on a 64-byte boundary (the kernels'
    # whole-line streaming stores need it), new or reused, every output
    t = rt.Terrain()
    for _ in range(2):  # the second round reuses the first's buffers
        h = t.height_grid(23396, 5318, 512, 300, 0.37, threads=1)
        g = t.grid(23396, 5318, 512, 300, 0.37, threads=1)
        for a in (h, g.height, g.depth, g.terrain, g.feature):
            assert a.ctypes.data % 64 == 0
        del h, g


def _handler_name(env_value):
    code = ("try:\n"
            "    from numpy._core.multiarray import get_handler_name\n"
            "except ImportError:  # NumPy 1.x\n"
            "    from numpy.core.multiarray import get_handler_name\n"
            "import relfterrain as rt\n"
            "a = rt.Terrain().height_grid(0, 0, 512, 512)\n"
            "b = rt.Terrain().height_grid(0, 0, 8, 8)\n"
            "print(get_handler_name(a), get_handler_name(b))\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    if env_value is None:
        env.pop("RELFTERRAIN_OUTPUT_CACHE_MB", None)
    else:
        env["RELFTERRAIN_OUTPUT_CACHE_MB"] = env_value
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, cwd=ROOT,
                         text=True, check=True)
    return out.stdout.split()


def test_fresh_outputs_handler_and_switch():
    # large outputs through the cache, small ones NumPy's own; 0 turns it off
    assert _handler_name(None) == ["relfterrain_output_cache", "default_allocator"]
    assert _handler_name("0") == ["default_allocator", "default_allocator"]


def test_fresh_outputs_cache_under_threads():
    # arrays made and freed on many threads at once: the cache stays consistent
    import concurrent.futures as cf

    t = rt.Terrain()
    expect = t.height_grid(23396, 5318, 400, 400, threads=1)

    def work(k):
        for _ in range(4):
            h = t.height_grid(23396, 5318, 400, 400, threads=1)
            if h.tobytes() != expect.tobytes():
                return False
            del h
        return True

    with cf.ThreadPoolExecutor(4) as ex:
        assert all(ex.map(work, range(8)))


# ------------------------------------------------------------------ threads
@pytest.mark.parametrize("n", [16, 256, 700])
def test_default_threads_same_bits(n):
    t = rt.Terrain()
    a = t.grid(23396, 5318, n, n, threads=1)
    b = t.grid(23396, 5318, n, n)
    for name in ("height", "depth", "terrain", "feature"):
        assert getattr(a, name).tobytes() == getattr(b, name).tobytes(), name
    assert (t.height_grid(23396, 5318, n, n).tobytes()
            == t.height_grid(23396, 5318, n, n, threads=1).tobytes())
    xs = np.linspace(23396, 23900, n)
    s1 = t.sample(xs, xs * 0 + 5318.5, threads=1)
    s2 = t.sample(xs, xs * 0 + 5318.5)
    assert s1.height.tobytes() == s2.height.tobytes()
    assert np.array_equal(np.asarray(s1.terrain), np.asarray(s2.terrain))


def test_default_threads_rejects_bad_counts():
    t = rt.Terrain()
    with pytest.raises(ValueError, match="threads"):
        t.grid(0, 0, 4, 4, threads=0)
    with pytest.raises(TypeError, match="threads"):
        t.height_grid(0, 0, 4, 4, threads=1.5)


# -------------------------------------------------------------- lazy import
def test_public_names_resolve_to_their_modules():
    import importlib

    for name in rt.__all__:
        value = getattr(rt, name)
        if name not in rt._LAZY:  # defined in the package itself (explore)
            assert callable(value), name
            continue
        mod, attr = rt._LAZY[name]
        module = importlib.import_module("relfterrain." + mod)
        assert value is (module if attr is None else getattr(module, attr)), name
    assert set(rt.__all__) <= set(dir(rt))
    with pytest.raises(AttributeError, match="no_such_name"):
        rt.no_such_name  # noqa: B018


def test_import_loads_nothing_heavy():
    code = ("import sys, relfterrain\n"
            "heavy = [m for m in ('relfterrain.terrain', 'relfterrain.maps', 'dataclasses', "
            "'numpy', 'relfterrain._core', 'tempfile', 'json') if m in sys.modules]\n"
            "print(','.join(heavy) or 'none')\n"
            "from relfterrain import Terrain\n"
            "print(Terrain().height(0, 0))\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, cwd=ROOT,
                         text=True, check=True).stdout.split()
    assert out[0] == "none"
    assert float(out[1]) == R.height(R.CLASSIC, 0.0, 0.0)


def test_cli_help_needs_no_numpy():
    code = ("import sys\n"
            "from relfterrain.cli import main\n"
            "for argv in (['--help'], ['grid', '--help'], ['map', '--help']):\n"
            "    try:\n"
            "        main(argv)\n"
            "    except SystemExit as e:\n"
            "        assert e.code == 0, e.code\n"
            "print('numpy' in sys.modules, 'relfterrain._core' in sys.modules, file=sys.stderr)\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       cwd=ROOT,
                       check=True)
    assert "usage: relfterrain" in r.stdout and "X0 Y0 NX NY" in r.stdout
    assert r.stderr.split() == ["False", "False"]


# ------------------------------------------------------------------ planets
@pytest.mark.parametrize("radius, lat0, lon0", [(3000.0, 30.0, 40.0), (20000.0, -89.5, 170.0)])
def test_planet_map_rows_match_reference(radius, lat0, lon0):
    # the map's SIMD rows (chunks of 256 columns, the last columns apart),
    # every pixel of a strip across the disc against the reference
    import space_reference as S

    p = rt.Planet(radius)
    nx, ny = 263, 5
    step = 2.0 * radius / (nx - 1) * 1.02  # the disc's edge inside the strip
    m = p.map(lat0, lon0, nx, ny, step, threads=1)
    v = {n: tuple(getattr(p, n).tolist()) for n in
         ("ah", "bh", "ch", "a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")}
    v.update(profile=tuple(p.profile.tolist()), lake_height=p.lake_height,
             lake_base=p.lake_base, feature_mask=p.feature_mask)
    for r in range(ny):
        for c in range(nx):
            u = (c - 0.5 * (nx - 1)) * step
            w = (r - 0.5 * (ny - 1)) * step
            pt = S.map_point(radius, lat0, lon0, u, w)
            if pt is None:
                assert not m.visible[r, c] and np.isnan(m.height[r, c]), (r, c)
                continue
            got = (m.height[r, c], m.depth[r, c], m.terrain[r, c], m.feature[r, c])
            assert got == S.planet_terra_xyz(v, *pt), (r, c)
    for threads in (2, None):
        m2 = p.map(lat0, lon0, nx, ny, step, threads=threads)
        assert m2.height.tobytes() == m.height.tobytes()
        assert m2.feature.tobytes() == m.feature.tobytes()
