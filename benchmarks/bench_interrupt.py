"""The cost of honouring Ctrl-C: every polled call, this build against a baseline build.

    PYTHONPATH=. python benchmarks/bench_interrupt.py --baseline DIR [--repeat 15]

DIR is another checkout of the package with its extension built in place, for
example the commit before the interrupt work::

    git archive dd92015 | tar -x -C /tmp/rtbase
    (cd /tmp/rtbase && python setup.py build_ext --inplace)

Both packages are imported into this one process (as ``relfterrain`` and
``relfterrain_base``) and every workload is timed on one and then the other,
round after round, so both meet the same load; each round's time is the
fastest of a few calls, and the figure is the median over rounds of the
ratio new / baseline (1.000 = no cost). The workloads are the calls that
now poll (the C loops that check a watch, and the point arrays and grids
computed in slices and row blocks), at everyday sizes.
"""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _common import before_after_main  # noqa: E402


def workloads(rt):
    """name -> a no-argument call, for the package `rt`."""
    core = rt._core
    t = rt.Terrain()
    m = rt.Mines(t)
    x0, y0, nx, ny = rt.CLASSIC_MAP
    rng = np.random.default_rng(1)
    u = rng.random(4 * 1024 * 1024 + 8)
    grid10 = np.full((1025, 1025), np.nan)
    starts = (x0 + rng.random(2000) * nx, y0 + rng.random(2000) * ny)
    mask = m.open_grid(0, 0, 2048, 2048, shafts=False)
    z = t.height_grid(x0, y0, nx, ny)
    pts = (rng.random(1 << 20) * 1e4, rng.random(1 << 20) * 1e4)
    lat = rng.random(1 << 18) * 180 - 90
    lon = rng.random(1 << 18) * 360 - 180
    sky = rt.Terrain.preset("skylands")
    evo = rt.Terrain(time_vector=True)
    nebula = rt.Nebula(450.0)
    planet = rt.Planet(10_000)
    road = [(23400, 5330), (23600, 5360), (23800, 5340)]
    out4096 = np.empty((4096, 4096))

    def ds():
        g = grid10.copy()
        return core.diamond_square(10, 1.0, 0.6, 0.0, True, u[:1025 * 1025], g)

    def mark():
        r = t.mark_streams(x0, y0, nx, ny, threads=2)
        t.clear_streams()
        return r

    def paved():
        t.add_road(road)
        t.remove_road(0)

    return {
        "classic midpoint 2**22": lambda: core.midpoint_displacement(22, 1.0, 0.6, u[:2**22 + 1]),
        "classic diamond 2**10 (copy of the grid included)": ds,
        "classic limited_random 2048^2": lambda: core.limited_random(
            2048, 2048, 4.0, 0.0, 100.0, u[:2048], u[:2048 * 2048]),
        "classic circle_hill 1000^2, 20000 circles r 12": lambda: core.circle_hill(
            1000, 1000, 20000, 12.0, 3.0, 100.0, 50.0, u[:40000]),
        "classic clouds 4 M": lambda: core.clouds(u, 0.3, 0.7),
        "streams CLASSIC_MAP, 1 thread": lambda: t.streams(x0, y0, nx, ny, threads=1),
        "streams CLASSIC_MAP, 2 threads": lambda: t.streams(x0, y0, nx, ny, threads=2),
        "mark_streams + clear_streams CLASSIC_MAP": mark,
        "trace_stream (23907, 5835)": lambda: t.trace_stream(23907, 5835),
        "find_good_sites 2000 starts, 2 threads": lambda: t.find_good_sites(*starts, threads=2),
        "find_good_site (23450, 5450)": lambda: t.find_good_site(23450, 5450),
        "mines open_above_grid 128^2 cells": lambda: m.open_above_grid(0, 0, 128, 128, threads=2),
        "mines open_grid (frac) 2048^2": lambda: m.open_grid(0, 0, 2048, 2048, shafts=False,
                                                             threads=2),
        "mines label_cells 2048^2": lambda: rt.label_cells(mask, threads=2),
        "mines label CLASSIC_MAP cells": lambda: m.label(23392, 5312, 50, 38, threads=2),
        "mines cave_mouths CLASSIC_MAP": lambda: m.cave_mouths(x0, y0, nx, ny, threads=2),
        "caverns space_grid CLASSIC_MAP": lambda: rt.Caverns(t).space_grid(x0, y0, nx, ny,
                                                                           threads=2),
        "planet map 800 x 600": lambda: planet.map(90, 0, 800, 600, threads=2),
        "planet terra 256 k points": lambda: planet.terra(lat, lon, threads=2),
        "nebula grid 128^3 + amount": lambda: nebula.gas(0, 0, 0, 128, 128, 128),
        "nebula amount 128^3": lambda: nebula.amount(0, 0, 0, 128, 128, 128),
        "nebula density 1 M points": lambda: nebula.density(*pts, 0.5),
        "evolve height_grid 1000^2": lambda: evo.height_grid(x0, y0, 1000, 1000, t=60.0),
        "evolve height 1 M points": lambda: evo.height(*pts, 60.0),
        "islands skylands CLASSIC_MAP": lambda: rt.islands(sky, x0, y0, nx, ny),
        "roads add_road + remove_road": paved,
        "contours CLASSIC_MAP": lambda: rt.maps.contour_mask(z, 5.0),
        "features CLASSIC_MAP": lambda: t.features(x0, y0, nx, ny, threads=2),
        "terrain height 1 M points": lambda: t.height(*pts),
        "terrain sample 1 M points": lambda: t.sample(*pts, threads=2),
        "terrain height_grid 4096^2 into out=": lambda: t.height_grid(
            0, 0, 4096, 4096, out=out4096, threads=2),
        "terrain buildings 8 km^2": lambda: t.buildings(20000, 4000, 4000, 2000),
    }


if __name__ == "__main__":
    before_after_main(__doc__, workloads)
