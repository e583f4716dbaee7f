"""SPEC 17's speed promise, measured side by side in one process.

The new rules cost nothing where they are off (the classic grid's speed with
this code equals the speed before: compare with ``git stash``/another build),
and ``forest_2026`` grids run within 1.5x of the classic grid's time.

    PYTHONPATH=. python benchmarks/bench_forest2026.py [--size 2048] [--repeat 7]

Each line is the median of ``--repeat`` interleaved calls (classic, then the
variant, then classic again, ...), so that a load change on a shared machine
hits both alike; the ratio is variant / classic.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import relfterrain as rt


def _time(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=2048)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    n, th = args.size, args.threads
    classic = rt.Terrain()
    models = {
        "forest_2026": rt.Terrain.preset("forest_2026"),
        "classic js, x_below 32": rt.Terrain(calc_prof="js", x_below=32),
        "pieces_of_eight": rt.Terrain.preset("pieces_of_eight", rng=1),
    }
    cases = [("grid step 1", lambda t: t.grid(23396, 5318, n, n, 1.0, threads=th)),
             ("grid step 0.25", lambda t: t.grid(-1000.5, -20.25, n, n, 0.25, threads=th)),
             ("height_grid step 1", lambda t: t.height_grid(23396, 5318, n, n, 1.0, threads=th))]
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    print(f"{n} x {n} points, threads={th}, simd={classic.simd}, load {load:.2f}")
    print(f"{'case':22} {'model':24} {'classic ms':>11} {'model ms':>9} {'ratio':>6}")
    for cname, fn in cases:
        for mname, t in models.items():
            fn(classic), fn(t)  # warm
            a, b = [], []
            for _ in range(args.repeat):
                a.append(_time(lambda fn=fn: fn(classic)))
                b.append(_time(lambda fn=fn, t=t: fn(t)))
            ma, mb = statistics.median(a), statistics.median(b)
            print(f"{cname:22} {mname:24} {ma * 1e3:11.1f} {mb * 1e3:9.1f} {mb / ma:6.2f}")


if __name__ == "__main__":
    main()
