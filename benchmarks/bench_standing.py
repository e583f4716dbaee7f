"""Issue 23's standing workloads, this build against a baseline build: nothing that was fast got slower.

    PYTHONPATH=. python benchmarks/bench_standing.py --baseline DIR [--repeat 15]

DIR is another checkout of the package with its extension built in place; for
issue 23, the commit before its work (the binding in its own room)::

    git archive 502e63c | tar -x -C /tmp/rtbase
    (cd /tmp/rtbase && python setup.py build_ext --inplace)

Both packages are imported into this one process (as ``relfterrain`` and
``relfterrain_base``) and every workload is timed on one and then the other,
round after round, which goes first alternating, so both meet the same load
and the same drift of the machine's speed; each round's time is the fastest
of a few calls, and the figure is the median over rounds of the ratio
new / baseline (below 1: faster now). The workloads are the calls that were
fast before issue 23 and that it did not set out to change (step 1 from a
dyadic origin into ``out=``, points, streams, sites, mines, planets,
nebulae, stars), then those it did (fresh arrays, any step, a coarse step,
maps, PNG), every one at one thread unless its name says otherwise.
"""

from __future__ import annotations

import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _common import before_after_main  # noqa: E402

X0, Y0 = 23396, 5318


def workloads(rt):
    """name -> a no-argument call, for the package `rt`."""
    t = rt.Terrain()
    x0, y0, nx, ny = rt.CLASSIC_MAP
    rng = np.random.default_rng(1)
    pts = (X0 + rng.random(1 << 20) * 4096, Y0 + rng.random(1 << 20) * 4096)
    starts = (x0 + rng.random(2000) * nx, y0 + rng.random(2000) * ny)
    lat = rng.random(1 << 18) * 180 - 90
    lon = rng.random(1 << 18) * 360 - 180
    planet, nebula, galaxy = rt.Planet(20000), rt.Nebula(450.0), rt.Galaxy()
    mines = rt.Mines(t)
    oh = {n: np.empty((n, n)) for n in (1024, 4096)}
    o4 = {n: (np.empty((n, n)), np.empty((n, n)), np.empty((n, n), np.uint8),
              np.empty((n, n), np.uint8)) for n in (1024, 4096)}
    png = os.path.join(tempfile.gettempdir(), f"relfterrain_standing_{rt.__name__}.png")
    w = {}
    # standing: fast before issue 23, not its subject
    for n in (1024, 4096):
        w[f"height_grid {n}^2 step 1 out="] = (
            lambda n=n: t.height_grid(X0, Y0, n, n, out=oh[n], threads=1))
        w[f"grid {n}^2 step 1 out="] = lambda n=n: t.grid(X0, Y0, n, n, out=o4[n], threads=1)
    w["height_grid 4096^2 step 1 out=, 2 threads"] = (
        lambda: t.height_grid(X0, Y0, 4096, 4096, out=oh[4096], threads=2))
    w["height 1 M points (real)"] = lambda: t.height(*pts)
    w["sample 1 M points"] = lambda: t.sample(*pts, threads=1)
    w["features CLASSIC_MAP"] = lambda: t.features(x0, y0, nx, ny, threads=1)
    w["streams CLASSIC_MAP"] = lambda: t.streams(x0, y0, nx, ny, threads=1)
    w["find_good_sites 2000 starts"] = lambda: t.find_good_sites(*starts, threads=1)
    w["mines open_grid 2048^2"] = lambda: mines.open_grid(0, 0, 2048, 2048, shafts=False,
                                                          threads=1)
    w["planet terra 256 k points"] = lambda: planet.terra(lat, lon, threads=1)
    w["nebula amount 128^3"] = lambda: nebula.amount(0, 0, 0, 128, 128, 128)
    w["galaxy stars of the initial view"] = lambda: galaxy.stars(*rt.INITIAL_VIEW)
    # issue 23's subjects
    for n in (1024, 4096):
        w[f"height_grid {n}^2 fresh"] = lambda n=n: t.height_grid(X0, Y0, n, n, threads=1)
        w[f"grid {n}^2 fresh"] = lambda n=n: t.grid(X0, Y0, n, n, threads=1)
    w["height_grid 1024^2 step 0.37 out="] = (
        lambda: t.height_grid(X0, Y0, 1024, 1024, 0.37, out=oh[1024], threads=1))
    w["grid 1024^2 step 0.37 out="] = (
        lambda: t.grid(X0, Y0, 1024, 1024, 0.37, out=o4[1024], threads=1))
    # a coarse step (zoomed-out maps and tiles), from a whole-metre origin
    w["height_grid 1024^2 step 16 out="] = (
        lambda: t.height_grid(X0, Y0, 1024, 1024, 16.0, out=oh[1024], threads=1))
    w["grid 1024^2 step 16 out="] = (
        lambda: t.grid(X0, Y0, 1024, 1024, 16.0, out=o4[1024], threads=1))
    w["map CLASSIC_MAP"] = lambda: t.map(*rt.CLASSIC_MAP, threads=1)
    w["save_map CLASSIC_MAP"] = lambda: t.save_map(png, *rt.CLASSIC_MAP, threads=1)
    w["planet map 800 x 600"] = lambda: planet.map(30, 40, 800, 600, threads=1)
    return w


if __name__ == "__main__":
    before_after_main(__doc__, workloads)
