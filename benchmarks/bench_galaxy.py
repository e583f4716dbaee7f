#!/usr/bin/env python3
"""Benchmark of the star generator: probes (points scanned) per second.

Run from the repository root after building the extension in place:

    PYTHONPATH=. python benchmarks/bench_galaxy.py            # initial view, NumPy on a slab
    PYTHONPATH=. python benchmarks/bench_galaxy.py --big      # also the 4000^3 block (~10 s)
    PYTHONPATH=. python benchmarks/bench_galaxy.py --numpy-planes 800   # NumPy on the whole view

relfterrain scans the seed's initial view (800 x 600 x 300 = 144 M points)
with 1 thread and with all cores. The pure-NumPy transcription of calcStar
below (what a user could write without relfterrain) runs in the same process
on the first ``--numpy-planes`` x planes of the view; its rate is
extrapolated to the whole view and the line says so. Both give the same
stars on the slab (checked).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import numpy as np

import relfterrain as rt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import cpu_model, timeit  # noqa: E402

RECIP128 = 1.0 / 128.0


def numpy_stars(galaxy: rt.Galaxy, x0, y0, z0, nx, ny, nz):
    """calcStar on every point of a block, vectorised per x plane, in float64.

    The seed's double operations in its order: j = (S*x + T*y + U*z) * (1/128),
    ToInt32 by truncation (exact here: |j| < 2**63), a += PROF[j & mask],
    xyz = x*y*z, f = ToInt32(Math.round(a*xyz*(1/128))) & 0xffff. Returns
    the (x, y, z) of the stars, sorted.
    """
    prof = np.asarray(galaxy.profile)
    mask = prof.size - 1
    S, T, U = (np.asarray(v, dtype=np.float64) for v in (galaxy.s, galaxy.t, galaxy.u))
    y = np.arange(y0, y0 + ny, dtype=np.float64)[:, None]
    z = np.arange(z0, z0 + nz, dtype=np.float64)[None, :]
    found = []
    for xi in range(x0, x0 + nx):
        x = float(xi)
        a = np.zeros((ny, nz))
        for i in range(S.size):
            j = (S[i] * x + T[i] * y + U[i] * z) * RECIP128
            a += prof[np.trunc(j).astype(np.int64) & mask]
        xyz = x * y * z
        v = a * xyz * RECIP128
        r = np.floor(v)
        r += (v - r) >= 0.5
        f = r.astype(np.int64) & galaxy.f_mask
        low = np.trunc(xyz).astype(np.int64) & 0xFF
        hit = (f == galaxy.f_value) & (low >= 1) & (low <= 7)
        for yy, zz in zip(*np.nonzero(hit)):
            found.append((xi, y0 + int(yy), z0 + int(zz)))
    return sorted(found)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=7, help="timed calls per measurement (median)")
    ap.add_argument("--numpy-planes", type=int, default=20,
                    help="x planes of the view for the NumPy transcription (800 = all)")
    ap.add_argument("--big", action="store_true", help="also scan 4000 x 4000 x 4000")
    args = ap.parse_args(argv)

    ncpu = rt.default_threads()
    g = rt.Galaxy()
    view = rt.INITIAL_VIEW
    pts = view.volume
    print(f"platform  {platform.platform()}, Python {platform.python_version()}, "
          f"numpy {np.__version__}, relfterrain {rt.__version__}")
    print(f"cpu       {cpu_model()}, {ncpu} usable cores")
    print(f"block     INITIAL_VIEW {tuple(view)} = {pts / 1e6:.0f} M probes; "
          f"median of {args.repeat}")
    print()
    print(f"{'case':44s} {'threads':>7s} {'ms':>9s} {'Mprobes/s':>10s}")
    rows = {}
    for name, fn in (("count", g.count), ("stars (catalogue)", g.stars)):
        for th in sorted({1, ncpu}):
            t, _ = timeit(lambda fn=fn, th=th: fn(*view, threads=th), args.repeat)
            rows[(name, th)] = t
            print(f"{'relfterrain ' + name:44s} {th:7d} {t * 1e3:9.1f} {pts / t / 1e6:10.0f}")

    nplanes = max(1, min(args.numpy_planes, view.nx))
    # a slab from x = -340 holds two of the view's stars, so the check means something
    sx0 = view.x0 if nplanes == view.nx else min(-340, view.x0 + view.nx - nplanes)
    slab = (sx0, view.y0, view.z0, nplanes, view.ny, view.nz)
    t0 = time.perf_counter()
    ref = numpy_stars(g, *slab)
    tn = time.perf_counter() - t0
    slab_pts = nplanes * view.ny * view.nz
    rate = slab_pts / tn
    label = "NumPy transcription"
    if nplanes < view.nx:
        label += f" ({nplanes} of {view.nx} planes, extrapolated)"
    full = pts / rate
    print(f"{label:44s} {1:7d} {full * 1e3:9.0f} {rate / 1e6:10.1f}")
    got = [(int(r[0]), int(r[1]), int(r[2])) for r in g.stars(*slab).tolist()]
    same = got == ref
    print(f"check     NumPy and relfterrain agree on the slab x = {sx0} .. {sx0 + nplanes - 1} "
          f"({len(ref)} stars): {same}")
    dense = rt.Galaxy(f_mask=0xFF, f_value=127)
    dblock = (-3, -300, -150, 3, 600, 300)
    dref = numpy_stars(dense, *dblock)
    dgot = [(int(r[0]), int(r[1]), int(r[2])) for r in dense.stars(*dblock).tolist()]
    same = same and dgot == dref
    print(f"check     ... and on a dense galaxy (f_mask=0xff), {len(dref)} stars: {dgot == dref}")
    print()
    for th in sorted({1, ncpu}):
        print(f"speed-up over NumPy, count, {th} thread(s): {full / rows[('count', th)]:.0f}x")

    if args.big:
        big = (-2000, -2000, -2000, 4000, 4000, 4000)
        t0 = time.perf_counter()
        c = g.census(*big, threads=ncpu)
        tb = time.perf_counter() - t0
        print()
        print(f"4000^3 census, {ncpu} threads: {tb:.1f} s, {int(c.sum())} stars, "
              f"{4000**3 / tb / 1e9:.2f} G probes/s")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
