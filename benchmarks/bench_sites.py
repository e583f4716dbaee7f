#!/usr/bin/env python3
"""Benchmark of findGoodSite (SPEC 12): time per call, percentiles, and the
Python reference's speed in the same run.

Run from the repository root after building the extension in place:

    PYTHONPATH=. python benchmarks/bench_sites.py                 # 2000 starts
    PYTHONPATH=. python benchmarks/bench_sites.py --starts 5000 --reference 60

Starts are uniform on the classic map (``relfterrain.CLASSIC_MAP``) grown by
``--margin`` metres on every side (so some start in lakes and jump, some
spiral far).  ``Terrain.find_good_site`` is timed call by call (wall time,
the Python wrapper included) in ``--passes`` passes over the starts; each
start's time is its median over the passes (the machine is shared: this
drops the odd call that lost its core), and the percentiles are over the
starts.  ``find_good_sites`` (the same starts in
one C call) is timed with 1 thread and all cores.  The pure-Python reference
of tests/streams_reference.py runs on the first ``--reference`` starts in the
same process, and its answers are checked equal.  ``--count`` adds how often
each point was computed in one call, counted in a scratch build
(count_points.py).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

import relfterrain as rt

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

from _common import cpu_model  # noqa: E402


def percentiles(ts):
    a = np.array(ts) * 1e3
    return {p: float(np.percentile(a, p)) for p in (10, 50, 90, 99)} | {"max": float(a.max())}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--starts", type=int, default=2000)
    ap.add_argument("--margin", type=float, default=150.0)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--reference", type=int, default=40, help="starts given to the reference")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--count", action="store_true",
                    help="also count evaluations per point in a scratch build (count_points.py)")
    args = ap.parse_args()

    x0, y0, nx, ny = rt.CLASSIC_MAP
    g = np.random.default_rng(args.seed)
    m = args.margin
    xs = g.uniform(x0 - m, x0 + nx + m, args.starts)
    ys = g.uniform(y0 - m, y0 + ny + m, args.starts)
    t = rt.Terrain()

    print(f"CPU: {cpu_model()} ({rt.default_threads()} usable cores); load average "
          f"{os.getloadavg()[0]:.1f} at the start")
    print(f"starts: {args.starts} uniform on CLASSIC_MAP {rt.CLASSIC_MAP} grown by {m:g} m")

    # find_good_site, call by call
    passes = []
    for _ in range(args.passes):
        ts = []
        for x, y in zip(xs, ys):
            t0 = time.perf_counter()
            t.find_good_site(x, y)
            ts.append(time.perf_counter() - t0)
        passes.append(ts)
    ts = list(np.median(np.array(passes), axis=0))
    pc = percentiles(ts)
    print(f"find_good_site, ms per call (each start's median of {args.passes} passes): "
          f"p10 {pc[10]:.4f}  median {pc[50]:.4f}  p90 {pc[90]:.4f}  p99 {pc[99]:.3f}  "
          f"max {pc['max']:.3f}  mean {1e3 * statistics.fmean(ts):.4f}")

    many = t.find_good_sites(xs, ys, threads=1)
    tries = many.tries
    print(f"  tries: median {np.median(tries):g}, p90 {np.percentile(tries, 90):g}, "
          f"max {tries.max()}; {np.mean(tries == 1):.1%} good at once; "
          f"{np.mean(many.jumps > 0):.1%} jumped from a lake; {int((~many.ok).sum())} failed")
    slow = np.argsort(ts)[-3:][::-1]
    print("  slowest starts: " + ", ".join(
        f"({xs[i]:.0f}, {ys[i]:.0f}) {1e3 * ts[i]:.2f} ms, {tries[i]} tries" for i in slow))

    for threads in (1, None):
        reps = []
        for _ in range(args.passes):
            t0 = time.perf_counter()
            t.find_good_sites(xs, ys, threads=threads)
            reps.append(time.perf_counter() - t0)
        dt = statistics.median(reps)
        label = "1 thread" if threads == 1 else f"{rt.default_threads()} threads"
        print(f"find_good_sites, {label}: {args.starts / dt:,.0f} starts/s "
              f"({1e3 * dt / args.starts:.4f} ms per start, median of {args.passes})")

    # the pure-Python reference, same run
    import fdlibm_reference as FD
    import reference as R
    import streams_reference as S

    n = min(args.reference, args.starts)
    ref_ts = []
    for i in range(n):
        t0 = time.perf_counter()
        r = S.good_site(R.CLASSIC, xs[i], ys[i], sin=FD.sin, cos=FD.cos)
        ref_ts.append(time.perf_counter() - t0)
        assert (r["x"], r["y"], r["ok"], r["tries"]) == (
            many.x[i], many.y[i], many.ok[i], many.tries[i]), i
    ref_med = statistics.median(ref_ts)
    ours = statistics.median(ts[:n])
    print(f"reference (tests/streams_reference.py) on the first {n} starts: median "
          f"{1e3 * ref_med:.2f} ms per call, mean {1e3 * statistics.fmean(ref_ts):.2f} ms "
          f"(answers equal); find_good_site on the same starts: median {1e3 * ours:.4f} ms, "
          f"{ref_med / ours:,.0f}x faster")
    if args.count:
        subprocess.run([sys.executable, os.path.join(HERE, "count_points.py"), "sites"], check=True)


if __name__ == "__main__":
    main()
