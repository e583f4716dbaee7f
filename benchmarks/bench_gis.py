"""Lazy Dataset against in-memory grids (issue 20), measured in one run.

    python benchmarks/bench_gis.py [--side 8192] [--repeat 3]

Times, interleaved round by round so that machine load touches all alike:

* ``Terrain.grid`` of the side x side window (in memory, the core's default
  threads): height (water surface), depth, terrain, feature (18 bytes a point);
* ``relfterrain.dask.compute(relfterrain.dask.dataset(...))``, the lazy
  Dataset of the same window computed into NumPy arrays: every variable
  (surface_height, ground_height, depth, terrain, feature: 26 bytes a point),
  Dask's threaded scheduler with as many workers as cores, default blocks;
  each task has the core compute a band of rows straight into the result;
* the same with the grid's four variables only (surface_height, depth,
  terrain, feature: 18 bytes a point, as ``Terrain.grid``);
* ``relfterrain.dask.dataset(...).compute()``: the five, by xarray and Dask
  alone (each block into its own arrays, then Dask's assembly copies them);
* ``Terrain.dataset`` (in memory, every variable, one core call);
* a 100 x 100 ``.sel`` of the lazy +-2**26 m world (the cost of a selection).

Prints the medians (wall and CPU seconds of the process) and the ratios to
``Terrain.grid`` of each round (the issue 20 target: the lazy Dataset within
1.3x).
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
            rtd.compute(rtd.dataset(t, x0, y0, n, n))

    def lazy4():
        with dask.config.set(scheduler="threads", num_workers=cores):
            rtd.compute(rtd.dataset(t, x0, y0, n, n)[["surface_height", "depth", "terrain",
                                                      "feature"]])

    def lazy_xarray():
        with dask.config.set(scheduler="threads", num_workers=cores):
            rtd.dataset(t, x0, y0, n, n).compute()

    def memory_ds():
        t.dataset(x0, y0, n, n)

    world = rtd.dataset(t, -2**26, -2**26, 2**27, 2**27)

    def select():
        world.sel(x=slice(23396, 23495), y=slice(5417, 5318)).compute()

    lazy_name = "rtd.compute(rtd.dataset())"
    lazy4_name = "rtd.compute(4 variables)"
    jobs = {"Terrain.grid": grid, lazy_name: lazy, lazy4_name: lazy4,
            "rtd.dataset().compute()": lazy_xarray,
            "Terrain.dataset": memory_ds, "sel 100x100 of the 2**27 world": select}
    for fn in (grid, memory_ds, select):  # warm up
        fn()
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
    def ratio(a: str, b: str, what: dict[str, list[float]], label: str) -> None:
        rs = [x / y for x, y in zip(what[a], what[b])]
        print(f"{a} / {b}, {label}: {', '.join(f'{r:.2f}' for r in rs)}"
              f"  (median {statistics.median(rs):.2f})")

    for name in (lazy_name, lazy4_name, "rtd.dataset().compute()", "Terrain.dataset"):
        ratio(name, "Terrain.grid", times, "wall")
        ratio(name, "Terrain.grid", cpu, "CPU")

if __name__ == "__main__":
    main()
