#!/usr/bin/env python3
"""Benchmark of the streams (SPEC 7): the classic map area plus its 300 m margin.

Run from the repository root after building the extension in place:

    PYTHONPATH=. python benchmarks/bench_streams.py [--repeat 9] [--count]

relfterrain's ``Terrain.streams`` (C, 1 thread and all cores) against a
plain JavaScript transcription of the seed's code (benchmarks/js/streams.js,
run by node in the same benchmark, timed inside node after a warm-up), and
``mark_streams``. Both find the same streams (checked: sources, point
counts, ends and lengths).  ``--count`` adds how often each point was
computed in one call, counted in a scratch build (count_points.py).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys

import relfterrain as rt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import cpu_model, timeit  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--margin", type=int, default=300)
    ap.add_argument("--count", action="store_true",
                    help="also count evaluations per point in a scratch build (count_points.py)")
    args = ap.parse_args()
    x0, y0, nx, ny = rt.CLASSIC_MAP
    m = args.margin
    t = rt.Terrain()
    print(f"CPU: {cpu_model()}, {rt.default_threads()} threads available")
    print(f"area: the classic map {nx} x {ny} m plus a {m} m margin "
          f"({(nx + 2 * m) * (ny + 2 * m):,} points scanned for ponds)")
    found = t.streams(x0, y0, nx, ny, margin=m)
    node = shutil.which("node")
    threads_all = rt.default_threads()
    workloads = {
        "relfterrain streams, 1 thread": lambda: t.streams(x0, y0, nx, ny, margin=m, threads=1),
        f"relfterrain streams, {threads_all} threads":
            lambda: t.streams(x0, y0, nx, ny, margin=m, threads=threads_all),
        f"relfterrain mark_streams (trace + soak), {threads_all} threads": lambda: mark(),
    }

    def mark():
        t.clear_streams()
        t.mark_streams(x0, y0, nx, ny, margin=m, threads=threads_all)

    # Rounds interleave node and relfterrain, so that a busy machine slows
    # both alike; each ratio is taken within its round, and medians reported.
    times: dict[str, list[float]] = {name: [] for name in workloads}
    ratios: dict[str, list[float]] = {name: [] for name in workloads}
    js_times: list[float] = []
    same = None
    for _ in range(args.repeat):
        js_ms = None
        if node:
            out = subprocess.run([node, os.path.join(HERE, "js", "streams.js"), str(x0), str(y0),
                                  str(nx), str(ny), str(m)], capture_output=True, text=True,
                                 check=True).stdout
            run = json.loads(out)
            js_ms = run["ms"]
            js_times.append(js_ms)
            same = [(tuple(s["source"]), s["points"], s["end"], s["length"])
                    for s in run["streams"]] == [(s.source, len(s.route), s.end, s.length)
                                                 for s in found]
        for name, fn in workloads.items():
            med, _ = timeit(fn, 3)
            times[name].append(med * 1e3)
            if js_ms:
                ratios[name].append(js_ms / (med * 1e3))
    if node:
        version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout
        print(f"node {version.strip()}: the same {len(found)} streams as relfterrain: {same}")
    print(f"{len(found)} streams, {sum(len(s.route) for s in found)} points; "
          f"{args.repeat} interleaved rounds")
    print(f"{'workload':60s} {'median ms':>10s} {'node / it (median of rounds)':>30s}")
    for name in workloads:
        r = f"{statistics.median(ratios[name]):.1f}x" if ratios[name] else "n/a"
        print(f"{name:60s} {statistics.median(times[name]):10.2f} {r:>30s}")
    if js_times:
        print(f"{'JavaScript transcription under node':60s} {statistics.median(js_times):10.2f}")
    if args.count:
        subprocess.run([sys.executable, os.path.join(HERE, "count_points.py"), "streams"],
                       check=True)

if __name__ == "__main__":
    main()
