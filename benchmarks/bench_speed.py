#!/usr/bin/env python3
"""Speed where a user waits (issue 23): every figure a ratio, measured in one run.

    PYTHONPATH=. python benchmarks/bench_speed.py            # about a minute
    PYTHONPATH=. python benchmarks/bench_speed.py --n 2048   # the grid side

Printed: fresh arrays against out= (target <= 1.2), threads=None against one
thread (target <= 1.1), non-dyadic steps and origins, coarse steps and
dyadic steps from a non-dyadic origin against step 1 at a dyadic origin
(targets: grid <= 2, height_grid <= 1.5), `import relfterrain`
after `import numpy` (target <= 25 ms) and `relfterrain --help`, and the zarr
codec of the CLI against zarr's default and against `tofile` of the same
bytes (target <= 2), with the compression ratio.  Medians of --repeat runs;
on a shared machine compare the ratios, not the seconds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402 - after the line above

import relfterrain as rt  # noqa: E402

X0, Y0 = 23396, 5318


def med_pair(fa, fb, repeat: int) -> tuple[float, float]:
    """Medians of fa() and fb() called alternately (a drift in the machine's
    speed during the run moves both alike)."""
    fa(), fb()
    ta, tb = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fa()
        ta.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        fb()
        tb.append(time.perf_counter() - t0)
    return statistics.median(ta), statistics.median(tb)


def line(label: str, a: float, b: float, target: str = "") -> None:
    print(f"  {label:44s} {a * 1e3:9.2f} ms {b * 1e3:9.2f} ms  ratio {b / a:6.2f}  {target}")


def fresh_vs_out(t: rt.Terrain, sizes: list[int], repeat: int) -> None:
    print("\nfresh arrays / out= (one thread; target <= 1.2 from 1024^2)")
    for n in sizes:
        oh = np.ones((n, n))
        o4 = (np.ones((n, n)), np.ones((n, n)), np.ones((n, n), np.uint8),
              np.ones((n, n), np.uint8))
        a, b = med_pair(lambda n=n, oh=oh: t.height_grid(X0, Y0, n, n, out=oh, threads=1),
                        lambda n=n: t.height_grid(X0, Y0, n, n, threads=1), repeat)
        line(f"height_grid {n}^2 out= | fresh", a, b)
        a, b = med_pair(lambda n=n, o4=o4: t.grid(X0, Y0, n, n, out=o4, threads=1),
                        lambda n=n: t.grid(X0, Y0, n, n, threads=1), repeat)
        line(f"grid {n}^2 out= | fresh", a, b)


def default_threads(t: rt.Terrain, repeat: int) -> None:
    print(f"\nthreads=None / threads=1 (target <= 1.1; {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f})")
    # 400^2: above the binding's 2^17 points, where threads=None looks at
    # the machine's load, but a height grid the core runs on one thread
    for n in (64, 256, 400, 1024):
        for name in ("height_grid", "grid"):
            m = getattr(t, name)
            a, b = med_pair(lambda m=m, n=n: m(X0, Y0, n, n, threads=1),
                            lambda m=m, n=n: m(X0, Y0, n, n), repeat * 3)
            line(f"{name} {n}^2 1 thread | default", a, b)


def any_step(t: rt.Terrain, n: int, repeat: int) -> None:
    print("\nany step and origin / step 1 at a dyadic origin (one thread, out=; "
          "targets: grid <= 2, height_grid <= 1.5)")
    oh = np.ones((n, n))
    o4 = (np.ones((n, n)), np.ones((n, n)), np.ones((n, n), np.uint8), np.ones((n, n), np.uint8))
    for name, out in (("height_grid", oh), ("grid", o4)):
        m = getattr(t, name)
        # non-dyadic steps and origins, coarse steps (zoomed-out maps and
        # tiles: the columns span more profile entries than a window holds),
        # and dyadic steps from a non-dyadic origin
        for x0, y0, step in ((X0, Y0, 0.37), (X0, Y0, 1 / 3), (X0 + 0.1, Y0 + 0.3, 1.0),
                             (X0, Y0, 8.0), (X0, Y0, 16.0), (X0 + 0.1, Y0 + 0.3, 0.5),
                             (X0 + 0.1, Y0 + 0.3, 8.0), (X0 + 0.1, Y0 + 0.3, 16.0)):
            # each case against step 1, called alternately
            base, v = med_pair(lambda m=m, out=out: m(X0, Y0, n, n, out=out, threads=1),
                               lambda m=m, x0=x0, y0=y0, step=step, out=out:
                               m(x0, y0, n, n, step, out=out, threads=1), repeat)
            line(f"{name} {n}^2 step {step:.3g} origin +({x0 - X0:.1f}, {y0 - Y0:.1f})",
                 base, v)
    # heights past 64 MiB go out by streaming stores where they write whole
    # lines: NumPy's out= arrays start 16 bytes past a line (from 2900^2;
    # tiny runs keep n)
    n2 = max(n, 2900) if n >= 1024 else n
    del oh, o4
    ob = np.ones((n2, n2))
    for x0, y0, step in ((X0, Y0, 0.37), (X0, Y0, 8.0), (X0, Y0, 16.0)):
        base, v = med_pair(lambda: t.height_grid(X0, Y0, n2, n2, out=ob, threads=1),
                           lambda x0=x0, y0=y0, step=step:
                           t.height_grid(x0, y0, n2, n2, step, out=ob, threads=1), repeat)
        line(f"height_grid {n2}^2 step {step:.3g} (past 64 MiB)" if n2 * n2 * 8 > 64 << 20
             else f"height_grid {n2}^2 step {step:.3g}", base, v)


def start_up(repeat: int) -> None:
    print("\nstart-up (targets: import within 25 ms of numpy, --help under 150 ms)")
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed package: bytecode cached

    def run(args: list[str]) -> float:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, *args], env=env, check=True, capture_output=True)
        return time.perf_counter() - t0

    run(["-c", "import relfterrain.cli"])  # cache the bytecode
    py = statistics.median(run(["-c", "pass"]) for _ in range(repeat))
    npy = statistics.median(run(["-c", "import numpy"]) for _ in range(repeat))
    rtm = statistics.median(run(["-c", "import numpy, relfterrain"]) for _ in range(repeat))
    hlp = statistics.median(run(["-m", "relfterrain", "--help"]) for _ in range(repeat))
    print(f"  python {py * 1e3:.0f} ms, import numpy {npy * 1e3:.0f} ms, "
          f"+ relfterrain {(rtm - npy) * 1e3:.0f} ms, relfterrain --help {hlp * 1e3:.0f} ms "
          f"(numpy alone is {npy / hlp:.0%} of it)")


def zarr_codec(t: rt.Terrain, n: int) -> None:
    try:
        import xarray  # noqa: F401
        import zarr  # noqa: F401
    except ImportError:
        print("\nzarr: not installed (pip install 'relfterrain[zarr]')")
        return
    import warnings

    from relfterrain._codec import zarr_dataset_encoding
    from relfterrain.cli import _store_bytes
    print(f"\nzarr writing of a {n}^2 grid (target: the CLI's codec <= 2x tofile)")
    ds = t.dataset(X0, Y0, n, n)  # what the CLI writes: every variable, north up
    arrays = [ds[v].values for v in ds.data_vars]
    raw = sum(a.nbytes for a in arrays)
    tmp = tempfile.mkdtemp(prefix="bench_speed.")
    try:
        t0 = time.perf_counter()
        with open(os.path.join(tmp, "raw.bin"), "wb") as fh:
            for a in arrays:
                a.tofile(fh)
        tofile = time.perf_counter() - t0
        res = {}
        for label, enc in (("zarr default", None), ("CLI codec", zarr_dataset_encoding(ds))):
            path = os.path.join(tmp, label.replace(" ", "_") + ".zarr")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t0 = time.perf_counter()
                ds.to_zarr(path, mode="w", encoding=enc)
                res[label] = (time.perf_counter() - t0, raw / _store_bytes(path))
        for label, (sec, ratio) in res.items():
            line(f"tofile | {label} (compression {ratio:.1f} to 1)", tofile, sec)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def stream_limit(t: rt.Terrain, n: int, repeat: int) -> None:
    """grid at step 1 against the streaming-store limit of its four outputs."""
    import ctypes
    import sysconfig

    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stream_limit.c")
    tmp = tempfile.mkdtemp(prefix="bench_speed.")
    try:
        lib_path = os.path.join(tmp, "stream_limit.so")
        cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
        subprocess.run([cc, "-O2", "-shared", "-fPIC", src, "-o", lib_path], check=True)
        lib = ctypes.CDLL(lib_path)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"\nstreaming-store limit: no C compiler ({e})")
        return
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    ptr = ctypes.c_void_p
    lib.stream_fill.argtypes = [ptr, ptr, ptr, ptr, ctypes.c_size_t]
    o4 = (np.ones((n, n)), np.ones((n, n)), np.ones((n, n), np.uint8), np.ones((n, n), np.uint8))

    def fill() -> None:
        lib.stream_fill(*(a.ctypes.data for a in o4), n * n)

    print(f"\ngrid at step 1 / the streaming-store limit of its outputs ({n}^2, one thread; "
          f"target: at most 2, i.e. 50 % of the limit; each pair called alternately)")
    limit, out = med_pair(fill, lambda: t.grid(X0, Y0, n, n, out=o4, threads=1), repeat)
    line(f"limit {n * n / limit / 1e6:.0f} M points/s | grid out=", limit, out)
    limit, fresh = med_pair(fill, lambda: t.grid(X0, Y0, n, n, threads=1), repeat)
    line(f"limit {n * n / limit / 1e6:.0f} M points/s | grid fresh", limit, fresh)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--n", type=int, default=1024, help="grid side of the step tests")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--skip-zarr", action="store_true")
    args = ap.parse_args(argv)
    print(f"relfterrain bench_speed: python {sys.version.split()[0]}, numpy {np.__version__}, "
          f"load {os.getloadavg()}")
    t = rt.Terrain()
    print(f"simd variant: {t.simd} (RELFTERRAIN_SIMD chooses another; best here: "
          f"{rt.simd_variants()[-1]})")
    fresh_vs_out(t, [1024, 2048, 4096], args.repeat)
    default_threads(t, args.repeat)
    any_step(t, args.n, args.repeat)
    stream_limit(t, 4096, args.repeat)
    start_up(args.repeat)
    if not args.skip_zarr:
        zarr_codec(t, 4096)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
