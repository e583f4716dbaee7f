"""Lazy Dataset against in-memory grids (issue 20), measured in one run.

    python benchmarks/bench_gis.py [--side 8192] [--repeat 3]

Times, interleaved round by round so that machine load touches all alike:

* ``Terrain.grid`` of the side x side window (in memory, all threads);
* ``relfterrain.dask.dataset(...).compute()`` of the same window: every
  variable (surface_height, ground_height, depth, terrain, feature), Dask's
  threaded scheduler with as many workers as cores, default blocks;
* ``Terrain.dataset`` (in memory, every variable);
* a 100 x 100 ``.sel`` of the lazy +-2**26 m world (the cost of a selection).

Prints the medians (wall and CPU seconds) and the ratio lazy / ``Terrain.grid``
of each round.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import time

import dask
from _common import cpu_model

import relfterrain as rt
import relfterrain.dask as rtd


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--side", type=int, default=8192)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    n = args.side
    t = rt.Terrain()
    x0, y0 = 23396.0 - n // 2, 5318.0 - n // 2
    cores = os.cpu_count() or 1

    def grid():
        t.grid(x0, y0, n, n)

    def lazy():
        with dask.config.set(scheduler="threads", num_workers=cores):
            rtd.dataset(t, x0, y0, n, n).compute()

    def memory_ds():
        t.dataset(x0, y0, n, n)

    world = rtd.dataset(t, -2**26, -2**26, 2**27, 2**27)

    def select():
        world.sel(x=slice(23396, 23495), y=slice(5417, 5318)).compute()

    jobs = {"Terrain.grid": grid, "dask.dataset().compute()": lazy,
            "Terrain.dataset": memory_ds, "sel 100x100 of the 2**27 world": select}
    for fn in jobs.values():  # warm up
        fn() if fn is not lazy else None
    times: dict[str, list[float]] = {k: [] for k in jobs}
    cpu: dict[str, list[float]] = {k: [] for k in jobs}
    for _ in range(args.repeat):
        for name, fn in jobs.items():
            c0 = time.process_time()
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
            cpu[name].append(time.process_time() - c0)
    print(f"# {datetime.date.today()}  {cpu_model()}  {cores} cores  "
          f"load {os.getloadavg()[0]:.1f}  window {n} x {n}")
    for name, ts in times.items():
        print(f"{name:34s} wall median {statistics.median(ts):8.3f} s   "
              f"({', '.join(f'{v:.3f}' for v in ts)});  CPU median "
              f"{statistics.median(cpu[name]):8.3f} s")
    ratios = [a / b for a, b in zip(times["dask.dataset().compute()"], times["Terrain.grid"])]
    print(f"lazy dataset / Terrain.grid per round: {', '.join(f'{r:.2f}' for r in ratios)}"
          f"  (median {statistics.median(ratios):.2f})")
    ratios = [a / b for a, b in zip(cpu["dask.dataset().compute()"], cpu["Terrain.grid"])]
    print(f"lazy dataset / Terrain.grid, CPU seconds: {', '.join(f'{r:.2f}' for r in ratios)}"
          f"  (median {statistics.median(ratios):.2f})")
    ratios = [a / b for a, b in zip(times["dask.dataset().compute()"], times["Terrain.dataset"])]
    print(f"lazy dataset / Terrain.dataset per round: {', '.join(f'{r:.2f}' for r in ratios)}"
          f"  (median {statistics.median(ratios):.2f})")


if __name__ == "__main__":
    main()
