#!/usr/bin/env python3
"""Benchmark suite for relfterrain.

Run from the repository root (after building the extension in place):

    PYTHONPATH=. python benchmarks/bench_terrain.py            # full run (~2-3 min on 2 cores)
    PYTHONPATH=. python benchmarks/bench_terrain.py --quick    # smoke run (seconds)
    PYTHONPATH=. python benchmarks/bench_terrain.py --repeat 7 --json bench.json

See benchmarks/README.md for what every number means.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc

# OpenBLAS's idle threads spin on a core for a while after numpy starts them;
# nothing here uses BLAS, and on 2 cores they would skew the timings
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402 - after the line above

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import numpy_reference as npref  # noqa: E402 - after the sys.path line above
from _common import cpu_model, timeit  # noqa: E402

X0, Y0 = 23396, 5318  # origin of the classic map (CLASSIC_MAP)
NCPU = os.cpu_count() or 1
RECORDS = []  # everything measured, for --json


# ----------------------------------------------------------------- helpers
def mpts(npoints, seconds):
    return npoints / seconds / 1e6 if seconds > 0 else float("inf")


def row(cols, widths):
    return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                     for i, (c, w) in enumerate(zip(cols, widths)))


W = (34, 11, 7, 7, 11, 10, 4)
HEAD = ("case", "size", "threads", "alloc", "ms/call", "Mpts/s", "n")


def print_head(title):
    print()
    print(title)
    print(row(HEAD, W))
    print(row(["-" * w for w in W], W))


def record(group, case, nx, ny, threads, alloc, t, ts, note=""):
    n = nx * ny
    RECORDS.append({"group": group, "case": case, "nx": nx, "ny": ny, "threads": threads, "alloc": alloc,
                        "seconds": t, "all_seconds": ts, "ms_per_call": t * 1e3,
                        "mpoints_per_s": mpts(n, t), "note": note})
    print(row((case, f"{nx}x{ny}", threads, alloc, f"{t * 1e3:.2f}", f"{mpts(n, t):.1f}",
               len(ts)), W) + (f"  {note}" if note else ""), flush=True)
    return t


def bits_equal(a, b):
    """Number of elements whose bits differ (float64 compared as uint64)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return a.size
    if a.dtype == np.float64 and b.dtype == np.float64:
        return int(np.count_nonzero(a.view(np.uint64) != b.view(np.uint64)))
    return int(np.count_nonzero(a != b))


# ----------------------------------------------------------------- machine
def machine_info(rt, rt_err):
    info = {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpu": cpu_model(),
        "cores": NCPU,
        "numpy": np.__version__,
        "relfterrain": (getattr(rt, "__version__", "unknown") if rt is not None
                     else f"not importable ({rt_err})"),
    }
    if hasattr(os, "getloadavg"):
        info["load_avg"] = " ".join(f"{v:.2f}" for v in os.getloadavg())
    print("relfterrain benchmark")
    for k, v in info.items():
        print(f"  {k:<12} {v}")
    return info


# ------------------------------------------------------------- SIMD variants
def simd_variants(rt):
    """List of variant names if relfterrain exposes a selector, else []."""
    if rt is None or not hasattr(rt, "simd_variants"):
        return []
    v = rt.simd_variants
    v = v() if callable(v) else v
    return [str(s) for s in v]


def select_variant(rt, name):
    """Select a SIMD variant for the Terrain objects made from now on.

    relfterrain.Terrain() takes its default ``simd=`` from RELFTERRAIN_SIMD.
    """
    if name not in simd_variants(rt) and name != "auto":
        return False
    os.environ["RELFTERRAIN_SIMD"] = name
    return True


# ---------------------------------------------------------- relfterrain
def rt_call(t, fname, nx, ny, threads, out):
    """A no-argument callable running t.height_grid or t.grid on the benchmark grid."""
    method = getattr(t, fname)

    def call():
        return method(X0, Y0, nx, ny, out=out, threads=threads)

    return call


def new_outs(fname, nx, ny):
    """Touched output arrays for out= (one array for height_grid, four for grid).

    np.empty + fill, not np.zeros: np.zeros of a large array gets lazily mapped
    zero pages from calloc, which would page-fault on the first write."""
    shapes = [np.float64] if fname == "height_grid" else [np.float64, np.float64, np.uint8, np.uint8]
    outs = tuple(np.empty((ny, nx), dt) for dt in shapes)
    for a in outs:
        a.fill(1)
    return outs[0] if fname == "height_grid" else outs


def bench_rt(rt, sizes, repeat, repeat_big, thread_counts, label="relfterrain", group="rt"):
    """height_grid and grid on each size, each thread count, fresh and out=."""
    t = rt.Terrain()
    res = {}
    print_head(f"{label}: height_grid / grid (median of repeats; 1 warm-up call each)")
    for (nx, ny) in sizes:
        reps = repeat if nx * ny <= 10**6 else repeat_big
        h = new_outs("height_grid", nx, ny)  # reused out= buffers, touched once
        outs = new_outs("grid", nx, ny)
        for fname in ("height_grid", "grid"):
            for th in thread_counts:
                for alloc in ("fresh", "out="):
                    fn = rt_call(t, fname, nx, ny, th, None if alloc == "fresh" else
                                 (h if fname == "height_grid" else outs))
                    tm, ts = timeit(fn, reps)
                    res[(fname, nx, ny, th, alloc)] = record(group, fname, nx, ny, th, alloc, tm, ts)
        del h, outs
    return res


def scaling(rt, res, big, repeat_big, variant=None):
    """Scaling 1 -> 2 threads, from interleaved calls.

    The 1-thread and 2-thread calls alternate (1, 2, 1, 2, ...), and the
    ratio is the median of the ratios of neighbouring pairs: on a shared VM
    whose speed drifts over seconds, both sides of each ratio then see the
    same conditions.  The medians of the times are printed too."""
    nx, ny = big
    print()
    print(f"thread scaling 1 -> 2 threads on {nx}x{ny}"
          f"{f' (variant {variant})' if variant else ''}: interleaved calls, median of "
          f"paired ratios time(1 thread) / time(2 threads); ideal 2.00")
    if NCPU < 2:
        print("  n/a: this machine has 1 core")
        return
    t = rt.Terrain(simd=variant) if variant else rt.Terrain()
    pairs = max(5, repeat_big)
    for fname in ("height_grid", "grid"):
        for alloc in ("fresh", "out="):
            out = None if alloc == "fresh" else new_outs(fname, nx, ny)
            one, two = rt_call(t, fname, nx, ny, 1, out), rt_call(t, fname, nx, ny, 2, out)
            one(), two()  # warm-up
            t1s, t2s = [], []
            for _ in range(pairs):
                for fn, times in ((one, t1s), (two, t2s)):
                    start = time.perf_counter()
                    r = fn()
                    times.append(time.perf_counter() - start)
                    del r
            ratios = sorted(a / b for a, b in zip(t1s, t2s))
            ratio = statistics.median(ratios)
            t1, t2 = statistics.median(t1s), statistics.median(t2s)
            RECORDS.append({"group": "scaling", "case": fname, "alloc": alloc, "nx": nx, "ny": ny,
                            "t1": t1, "t2": t2, "ratio": ratio, "pairs": pairs})
            print(f"  {fname:<12} {alloc:<6} {t1 * 1e3:9.2f} ms -> {t2 * 1e3:9.2f} ms   "
                  f"x{ratio:.2f}  (paired ratios {ratios[0]:.2f}..{ratios[-1]:.2f}, {pairs} pairs)")


def memory(rt, big, quick):
    nx, ny = big
    out_bytes = nx * ny * (8 + 8 + 1 + 1) + (nx + ny) * 8  # height, depth, terrain, feature, x, y
    mib = 1 << 20
    print()
    print(f"peak memory of grid({nx}x{ny}), threads=all, fresh outputs "
          f"(outputs: {out_bytes / mib:.1f} MiB = height+depth float64, terrain+feature uint8, x, y)")
    # (a) tracemalloc in this process: sees every allocation made through Python's
    # and NumPy's allocators (NumPy reports its data buffers to tracemalloc); it does
    # not see plain malloc() calls inside the C core.
    t = rt.Terrain()
    tracemalloc.start()
    tracemalloc.reset_peak()
    g = t.grid(X0, Y0, nx, ny)
    cur, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del g
    print(f"  {'tracemalloc peak':<24}{peak / mib:8.1f} MiB  = x{peak / out_bytes:.3f} of outputs "
          f"(NumPy/Python allocations only; still held after the call: {cur / mib:.1f} MiB)")
    RECORDS.append({"group": "memory", "method": "tracemalloc", "nx": nx, "ny": ny,
                        "peak_bytes": peak, "out_bytes": out_bytes})
    # (b) peak resident set of a fresh subprocess: counts everything (the C core's own
    # malloc, thread stacks, the page-touched outputs). The kernel's peak (VmHWM) is
    # reset just before the call (write "5" to /proc/self/clear_refs, Linux); the number
    # is the rise of the peak over the resident set just before the call. Where that
    # reset is unavailable, ru_maxrss (peak since process start) is used instead.
    code = (
        "import resource, json, numpy as np, relfterrain as rt\n"
        "def status(key):\n"
        "    for line in open('/proc/self/status'):\n"
        "        if line.startswith(key): return int(line.split()[1])\n"
        "t = rt.Terrain(); t.grid(0, 0, 8, 8)\n"
        "try:\n"
        "    open('/proc/self/clear_refs', 'w').write('5'); how = 'VmHWM'\n"
        "    r0 = status('VmRSS')\n"
        "except OSError:\n"
        "    how = 'ru_maxrss'; r0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        f"g = t.grid({X0}, {Y0}, {nx}, {ny})\n"
        "r1 = status('VmHWM') if how == 'VmHWM' else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(json.dumps([r0, r1, how]))\n"
    )
    p = None
    try:
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                           timeout=300, env=dict(os.environ))
        r0, r1, how = json.loads(p.stdout.strip().splitlines()[-1])
        delta = (r1 - r0) * 1024  # KiB
        print(f"  {'peak RSS rise (subproc)':<24}{delta / mib:8.1f} MiB  = x{delta / out_bytes:.3f} of outputs "
              f"(whole process, {how}; RSS {r0 / 1024:.1f} MiB before -> peak {r1 / 1024:.1f} MiB)")
        RECORDS.append({"group": "memory", "method": "rss_subprocess_" + how, "nx": nx, "ny": ny,
                            "peak_bytes": delta, "out_bytes": out_bytes, "rss0_kib": r0, "rss1_kib": r1})
    except Exception as e:  # noqa: BLE001 (report, do not stop the benchmark)
        print(f"  peak RSS subprocess failed: {e!r} {(p.stderr if p else '')[-300:]}")
    # (c) the NumPy transcription, for comparison (tracemalloc sees all of it)
    tracemalloc.start()
    tracemalloc.reset_peak()
    g = npref.grid(X0, Y0, nx, ny)
    cur, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del g
    out_np = nx * ny * 18
    print(f"  {'NumPy transcription':<24}{peak / mib:8.1f} MiB  = x{peak / out_np:.3f} of its outputs "
          f"(tracemalloc; temporaries in blocks of {npref.CHUNK_POINTS} points)")
    RECORDS.append({"group": "memory", "method": "tracemalloc_numpy", "nx": nx, "ny": ny,
                        "peak_bytes": peak, "out_bytes": out_np})


# -------------------------------------------------- the memory limit, per variant
def node_run(mode, nx, ny, step, repeat):
    """The seed's JavaScript (benchmarks/js/terrain.js) run by node: its own timing
    of the computation alone (median of `repeat` runs after a warm-up), points/s."""
    script = os.path.join(HERE, "js", "terrain.js")
    try:
        p = subprocess.run(["node", script, mode, str(X0), str(Y0), str(nx), str(ny), repr(step),
                            str(repeat)], capture_output=True, text=True, check=True, timeout=600)
        return json.loads(p.stdout.strip().splitlines()[-1])["points_per_s"]
    except (OSError, subprocess.SubprocessError, ValueError, KeyError) as e:
        print(f"  node: not run ({e!r})")
        return None


def node_check(rt):
    """node's calcHeight on the classic map equals relfterrain's, bit for bit."""
    import tempfile
    script = os.path.join(HERE, "js", "terrain.js")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "h.bin")
        try:
            subprocess.run(["node", script, "height", str(X0), str(Y0), "800", "600", "1", "1", path],
                           capture_output=True, text=True, check=True, timeout=600)
        except (OSError, subprocess.SubprocessError) as e:
            print(f"  node check: not run ({e!r})")
            return
        js = np.fromfile(path).reshape(600, 800)
    mism = bits_equal(js, rt.Terrain().height_grid(X0, Y0, 800, 600))
    print(f"  node calcHeight vs relfterrain on the classic map: "
          f"{'MATCH (bit for bit)' if mism == 0 else f'{mism} values differ'}")


def bench_limits(rt, big, repeat, variants, with_node=True):
    """Per SIMD variant, one thread, into reused out= arrays: points/s and the
    ratio to NumPy's fill of the same arrays (the memory limit), to the seed's
    JavaScript run by node, and to the NumPy transcription.

    Every repetition runs every case once, in turn (fills and all variants
    interleaved), so a drift of the shared machine's speed touches them all
    alike; the ratio to the fill is the median of the ratios within each
    repetition, the speeds are medians."""
    nx, ny = big
    npts = nx * ny
    h = new_outs("height_grid", nx, ny)
    outs = new_outs("grid", nx, ny)
    cases = {"fill": lambda: h.fill(1.5), "fill4": lambda: [a.fill(1) for a in outs]}
    terr = {v: rt.Terrain(simd=v) for v in variants}
    steps = {"height_grid": 1.0, "grid": 1.0, "height_grid step 0.37": 0.37,
             "height_grid step 1/3": 1 / 3}
    for v, t in terr.items():
        for name, st in steps.items():
            def fn(t=t, name=name, st=st):
                if name == "grid":
                    return t.grid(X0, Y0, nx, ny, st, out=outs, threads=1)
                return t.height_grid(X0, Y0, nx, ny, st, out=h, threads=1)
            cases[(v, name)] = fn
    times = {k: [] for k in cases}
    for fn in cases.values():
        fn()  # warm-up
    for _ in range(repeat):
        for k, fn in cases.items():
            t0 = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t0)
    med = {k: statistics.median(ts) for k, ts in times.items()}

    # the alternatives, each in points/s
    js, npy = {}, {}
    if with_node:
        js["height_grid"] = node_run("height", nx, ny, 1, 3)
        js["grid"] = node_run("terra", nx // 2, ny // 2, 1, 3)
        js["height_grid step 0.37"] = node_run("height", nx, ny, 0.37, 3)
        js["height_grid step 1/3"] = node_run("height", nx, ny, 1 / 3, 3)
    ns = (1024, 1024)
    for name, st in steps.items():
        func = npref.grid if name == "grid" else npref.height_grid
        tm, _ = timeit(lambda func=func, st=st: func(X0, Y0, ns[0], ns[1], st), 1, warmup=0)
        npy[name] = ns[0] * ns[1] / tm

    print()
    print(f"the memory limit, per variant: {nx}x{ny}, 1 thread, into reused out= arrays; "
          f"medians of {repeat} interleaved repetitions")
    print(f"  NumPy fill: out.fill(1.5) on the float64 array {mpts(npts, med['fill']):8.0f} Mpts/s;"
          f" fill of grid's four outputs (18 bytes/point) {mpts(npts, med['fill4']):8.0f} Mpts/s")
    if with_node:
        print("  node: the seed's JavaScript (benchmarks/js/terrain.js), its own timing of the "
              f"computation, median of 3 ({nx // 2}x{ny // 2} for terra)")
    print(f"  NumPy: the transcription (benchmarks/numpy_reference.py) at {ns[0]}x{ns[1]}, fresh arrays")
    wid = (12, 22, 9, 10, 9, 9)
    print("  " + row(("variant", "case", "Mpts/s", "x fill", "x node", "x NumPy"), wid))
    for v in variants:
        for name in steps:
            tv = times[(v, name)]
            fill = times["fill4" if name == "grid" else "fill"]
            ratio = statistics.median(f / t for f, t in zip(fill, tv))
            rate = npts / med[(v, name)]
            jsr = js.get(name)
            RECORDS.append({"group": "limits", "variant": v, "case": name, "nx": nx, "ny": ny,
                            "mpoints_per_s": rate / 1e6, "ratio_fill": ratio,
                            "ratio_node": rate / jsr if jsr else None,
                            "ratio_numpy": rate / npy[name], "all_seconds": tv})
            print("  " + row((v, name, f"{rate / 1e6:.0f}", f"{ratio * 100:.0f} %",
                              f"x{rate / jsr:.0f}" if jsr else "-", f"x{rate / npy[name]:.0f}"), wid),
                  flush=True)
    for name in steps:
        if js.get(name):
            print(f"  node {name}: {js[name] / 1e6:.1f} Mpts/s;  NumPy {name}: {npy[name] / 1e6:.1f} Mpts/s")


def bench_past_block(rt, big, repeat):
    """height_grid and grid into out= at big and at twice its rows (past the
    binding's row block of 2**24 points, where a given out= used to be
    computed in a scratch copy), one thread, calls interleaved."""
    nx, ny = big
    t = rt.Terrain()
    cases = {}
    for rows in (ny, 2 * ny):
        h = new_outs("height_grid", nx, rows)
        outs = new_outs("grid", nx, rows)
        cases[("height_grid", rows)] = (lambda h=h, rows=rows:
                                        t.height_grid(X0, Y0, nx, rows, out=h, threads=1))
        cases[("grid", rows)] = (lambda outs=outs, rows=rows:
                                 t.grid(X0, Y0, nx, rows, out=outs, threads=1))
    times = {k: [] for k in cases}
    for fn in cases.values():
        fn()  # warm-up (and the outputs' page faults)
    for _ in range(repeat):
        for k, fn in cases.items():
            t0 = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t0)
    print()
    print(f"past one row block (2**24 points), 1 thread, into reused out=, medians of {repeat}:")
    for name in ("height_grid", "grid"):
        a, b = (statistics.median(times[(name, r)]) for r in (ny, 2 * ny))
        RECORDS.append({"group": "past_block", "case": name, "nx": nx, "ny": 2 * ny,
                        "mpoints_per_s": nx * 2 * ny / b / 1e6,
                        "mpoints_per_s_one_block": nx * ny / a / 1e6})
        print(f"  {name:12s} {nx}x{ny} {nx * ny / a / 1e6:8.0f} Mpts/s;  {nx}x{2 * ny} "
              f"{nx * 2 * ny / b / 1e6:8.0f} Mpts/s", flush=True)


# ------------------------------------------------------------------ NumPy
def bench_numpy(sizes, repeat, repeat_big):
    res = {}
    print_head("NumPy transcription (benchmarks/numpy_reference.py, 1 thread)")
    for (nx, ny) in sizes:
        big = nx * ny > 10**6
        reps = repeat if not big else repeat_big
        for fname, func in (("numpy height_grid", npref.height_grid), ("numpy grid", npref.grid)):
            def fn(func=func, nx=nx, ny=ny):
                return func(X0, Y0, nx, ny)

            tm, ts = timeit(fn, reps, warmup=0 if big else 1)
            res[(fname.split()[1], nx, ny)] = record("numpy", fname, nx, ny, 1, "fresh", tm, ts)
    return res


def selfcheck(rt):
    """NumPy transcription vs relfterrain on the classic 800x600 map, bit for bit."""
    nx, ny = 800, 600
    print()
    print("self-check on the classic 800x600 map: NumPy transcription vs relfterrain")
    out = {}
    try:
        t = rt.Terrain()
        mism = bits_equal(npref.height_grid(X0, Y0, nx, ny), t.height_grid(X0, Y0, nx, ny))
        out["height_grid"] = mism
        print(f"  height_grid: {'MATCH (bit for bit)' if mism == 0 else 'MISMATCH'}"
              f"  ({mism} of {nx * ny} values differ)")
        g = t.grid(X0, Y0, nx, ny)
        mine = npref.grid(X0, Y0, nx, ny)
        for name, a, b in zip(("height", "depth", "terrain", "feature"), mine,
                              (g.height, g.depth, g.terrain, g.feature)):
            mism = bits_equal(a, b)
            out["grid." + name] = mism
            print(f"  grid.{name:<8} {'MATCH' if mism == 0 else 'MISMATCH'}"
                  f"  ({mism} of {nx * ny} values differ)")
        print(f"  features on the map: {int(np.count_nonzero(g.feature))} (relfterrain), "
              f"{int(np.count_nonzero(mine[3]))} (NumPy)")
    except Exception as e:  # noqa: BLE001 (report, do not stop the benchmark)
        print(f"  self-check failed: {e!r}")
        out["error"] = repr(e)
    RECORDS.append({"group": "selfcheck", "mismatches": out})
    return out


# ------------------------------------------------------------------ peers
def bench_peers(sizes, repeat, repeat_big, quick):
    """Other ways to make a height field; each 5 octaves (relfterrain sums 5 components)."""
    res = {}
    print_head("peers: a 5-octave noise height field on the same grid")
    octaves, freq = 5, 1.0 / 128.0
    for (nx, ny) in sizes:
        big = nx * ny > 10**6
        reps = repeat if not big else repeat_big
        xs = npref.axis(X0, nx, 1.0)
        ys = npref.axis(Y0, ny, 1.0)

        # opensimplex: noise2array(x, y) -> (ny, nx); numba JIT (parallel) if installed
        try:
            import opensimplex
            jit = importlib.util.find_spec("numba") is not None
            opensimplex.seed(1234)

            def osx(xs=xs, ys=ys):
                h = np.zeros((ys.size, xs.size))
                f, a = freq, 1.0
                for _ in range(octaves):
                    h += a * opensimplex.noise2array(xs * f, ys * f)
                    f, a = f * 2, a * 0.5
                return h

            if jit:
                tm, ts = timeit(osx, reps)
                res[("opensimplex", nx, ny)] = record(
                    "peer", "opensimplex.noise2array", nx, ny, f"{NCPU}*", "fresh", tm, ts,
                    "numba JIT, parallel")
            else:  # pure Python: ~10 us/point -> time a small grid, extrapolate
                sx, sy = (64, 48) if quick else (160, 120)
                tm, ts = timeit(functools.partial(osx, xs[:sx], ys[:sy]), 1, warmup=0)
                tm = tm * (nx * ny) / (sx * sy)
                res[("opensimplex", nx, ny)] = record(
                    "peer", "opensimplex.noise2array", nx, ny, 1, "fresh", tm, ts,
                    f"no numba: pure Python, extrapolated from {sx}x{sy}")
        except ImportError:
            print(row(("opensimplex", f"{nx}x{ny}"), W) + "  not installed (pip install opensimplex)")

        # pyfastnoiselite: FastNoiseLite.gen_from_coords(float32 (2, N)); FBm 5 octaves
        try:
            from pyfastnoiselite.pyfastnoiselite import FastNoiseLite, FractalType, NoiseType
            fnl = FastNoiseLite(1234)
            fnl.noise_type = NoiseType.NoiseType_OpenSimplex2
            fnl.fractal_type = FractalType.FractalType_FBm
            fnl.fractal_octaves = octaves
            fnl.frequency = freq

            def fnl_run(xs=xs, ys=ys, fnl=fnl):
                c = np.empty((2, ys.size, xs.size), np.float32)
                c[0] = xs.astype(np.float32)[None, :]
                c[1] = ys.astype(np.float32)[:, None]
                return fnl.gen_from_coords(c.reshape(2, -1)).reshape(ys.size, xs.size)

            tm, ts = timeit(fnl_run, reps)
            res[("pyfastnoiselite", nx, ny)] = record(
                "peer", "pyfastnoiselite.gen_from_coords", nx, ny, 1, "fresh", tm, ts,
                "float32; incl. building coords")
        except ImportError:
            print(row(("pyfastnoiselite", f"{nx}x{ny}"), W) + "  not installed (pip install pyfastnoiselite)")

        # noise: pnoise2 per point in a Python loop -> small grid, extrapolated
        try:
            import noise
            sx, sy = (100, 75) if quick else (200, 150)

            def pn(xs=xs[:sx], ys=ys[:sy]):
                h = np.empty((ys.size, xs.size))
                pnoise2 = noise.pnoise2
                for r, y in enumerate((ys * freq).tolist()):
                    hr = h[r]
                    for c, x in enumerate((xs * freq).tolist()):
                        hr[c] = pnoise2(x, y, octaves=octaves)
                return h

            tm, ts = timeit(pn, 1, warmup=0)
            tm = tm * (nx * ny) / (sx * sy)
            res[("noise", nx, ny)] = record(
                "peer", "noise.pnoise2 (Python loop)", nx, ny, 1, "fresh", tm, ts,
                f"extrapolated from {sx}x{sy}")
        except ImportError:
            print(row(("noise", f"{nx}x{ny}"), W) + "  not installed (pip install noise)")
    return res


# ------------------------------------------------------------------ main
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: 1024x1024 instead of 4096x4096, 1 repeat")
    ap.add_argument("--repeat", type=int, default=None,
                    help="repeats per measurement (median reported); default 5, quick 1")
    ap.add_argument("--json", metavar="PATH", help="also write all measurements as JSON")
    ap.add_argument("--variant", metavar="NAME",
                    help="SIMD variant to benchmark (only if relfterrain.simd_variants exists)")
    ap.add_argument("--skip-peers", action="store_true", help="do not run the peer libraries")
    ap.add_argument("--limits-only", action="store_true",
                    help="only the per-variant table against the memory limit, node and NumPy,"
                         " and the thread scaling")
    ap.add_argument("--skip-node", action="store_true", help="do not run the JavaScript original")
    args = ap.parse_args(argv)

    repeat = args.repeat or (1 if args.quick else 5)
    # medians of several calls even at 4096x4096: a shared VM's timings wander
    repeat_big = max(1, repeat if args.quick else min(repeat, 9))
    repeat_np_big = 1 if args.quick else max(1, min(repeat, 2))
    small = (800, 600)
    big = (1024, 1024) if args.quick else (4096, 4096)
    sizes = [small, big]
    threads = [1] if NCPU == 1 else [1, NCPU]

    try:
        import relfterrain as rt
        rt_err = None
    except Exception as e:  # noqa: BLE001 (report, do not stop the benchmark)
        rt, rt_err = None, repr(e)
    info = machine_info(rt, rt_err)
    print(f"  sizes        {small[0]}x{small[1]} (classic map) and {big[0]}x{big[1]}, origin "
          f"({X0}, {Y0}), step 1; repeats {repeat} ({repeat_big} at {big[0]}x{big[1]})")

    t_start = time.perf_counter()
    rt_res = {}
    if rt is not None:
        variants = simd_variants(rt)
        if variants:
            print(f"  SIMD variants {variants}")
        if args.variant:
            if not variants:
                print(f"  --variant {args.variant} ignored: relfterrain has no simd_variants")
            elif not select_variant(rt, args.variant):
                print(f"  --variant {args.variant}: no setter found; ignored")
        selfcheck(rt)
        if not args.skip_node:
            node_check(rt)
        bench_limits(rt, big, repeat, variants or ["auto"], not args.skip_node)
        bench_past_block(rt, big, repeat)
        if args.limits_only:
            for v in [None] + (["avx2"] if "avx2" in variants else []):
                scaling(rt, {}, big, repeat, v)
            return
        rt_res = bench_rt(rt, sizes, repeat, repeat_big, threads)
        if variants and not args.variant:
            for v in variants:
                if select_variant(rt, v):
                    bench_rt(rt, sizes, repeat, repeat_big, [1], label=f"relfterrain [variant {v}]",
                             group=f"rt[{v}]")
                else:
                    print(f"  cannot select variant {v}: no setter found")
                    break
            select_variant(rt, args.variant or "auto")
        scaling(rt, rt_res, big, repeat_big)
        memory(rt, big, args.quick)
    else:
        print(f"\nrelfterrain is not importable ({rt_err}); only NumPy and peers are measured")

    np_res = bench_numpy(sizes, repeat, repeat_np_big)
    if rt_res:
        print()
        print("speed-up of relfterrain over the NumPy transcription (NumPy time / relfterrain time,"
              " fresh allocation both)")
        for (nx, ny) in sizes:
            for fname in ("height_grid", "grid"):
                tn = np_res[(fname, nx, ny)]
                parts = [f"{th} thread{'s' if th > 1 else ''}: x{tn / rt_res[(fname, nx, ny, th, 'fresh')]:.1f}"
                         for th in threads]
                RECORDS.append({"group": "ratio_numpy", "case": fname, "nx": nx, "ny": ny,
                                    "ratios": {th: tn / rt_res[(fname, nx, ny, th, 'fresh')]
                                            for th in threads}})
                print(f"  {fname:<12} {f'{nx}x{ny}':<10} " + "   ".join(parts))

    if not args.skip_peers:
        peer_res = bench_peers(sizes, repeat, repeat_big, args.quick)
        if rt_res and peer_res:
            print()
            print("relfterrain height_grid (1 thread, fresh) compared with each peer"
                  " (peer time / relfterrain time; >1 = relfterrain faster)")
            for (name, nx, ny), tp in peer_res.items():
                r = tp / rt_res[("height_grid", nx, ny, 1, "fresh")]
                RECORDS.append({"group": "ratio_peer", "case": name, "nx": nx, "ny": ny, "ratio": r})
                print(f"  {name:<16} {f'{nx}x{ny}':<10} x{r:.1f}")
    load = (" ".join(f"{v:.2f}" for v in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a")
    print(f"\n(total benchmark time {time.perf_counter() - t_start:.0f} s; load average now {load};"
          f" a 1-minute load well above 0.5 in the header means other work shared the cores)")

    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"machine": info, "records": RECORDS}, fh, indent=1, default=str)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
