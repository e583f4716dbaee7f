"""Mines (SPEC 8): open cells, shafts and labelling, against NumPy and scipy.

Prints cells per second of ``Mines.open_grid`` (the frac(u) test), of the
shaft scan (``open_above_grid``: the cs*cs points of every cell, over the
whole block: 10^8 cells, 2.56 * 10^10 points by default) and of the
labelling, with the ratio to a vectorised NumPy transcription (the shaft
scan's on a strip of the block, same width) / ``scipy.ndimage.label`` run in
the same process, the peak memory, and the percolation scan that answers the
author's question.  ``--count`` adds the evaluations per point counted in a
scratch build (count_points.py).

    PYTHONPATH=. python benchmarks/bench_mines.py [--side 10000] [--repeat 3] [--count]
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import time
import tracemalloc

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import cpu_model, timeit  # noqa: E402
from numpy_reference import RECIP128, NumpyTerrain, int32_bits, round_js  # noqa: E402

import relfterrain as rt  # noqa: E402

XG0, YG0 = 23392, 5312  # the classic map's corner cell
HERE = os.path.dirname(os.path.abspath(__file__))


def numpy_open(xg0, yg0, n, cs=16, threshold=0.4, rows=1000):
    """The frac(u) test vectorised: u = PI10000 * xg * yg, left to right."""
    xg = (xg0 + cs * np.arange(n, dtype=np.int64)).astype(np.float64)
    out = np.empty((n, n), dtype=bool)
    for r0 in range(0, n, rows):
        yg = (yg0 + cs * np.arange(r0, min(n, r0 + rows), dtype=np.int64)).astype(np.float64)
        u = (math.pi * 10000 * xg)[None, :] * yg[:, None]
        out[r0:r0 + len(yg)] = u - np.floor(u) > threshold
    return out


def numpy_shafts(xg0, yg0, ncx, ncy, cs=16):
    """The shaft scan of the classic terrain as vectorised NumPy (SPEC 5 and 8).

    The same order of tests as the C scan, each on whole rows of points: the
    low byte of xr*yr (< 32), then the feature value f == 4 (calcProf(B2, A3)
    at the candidates, the seed's double arithmetic), then terra at the few
    left (not lake, not mud, not town: numpy_reference.NumpyTerrain); a cell
    is open above when any of its cs*cs points is a MINE.
    """
    nt = NumpyTerrain()
    half = cs // 2
    xs = np.arange(xg0 - half, xg0 - half + ncx * cs, dtype=np.int64)
    above = np.zeros((ncy, ncx), dtype=bool)
    b2, a3 = nt.v["b2"].astype(np.int64), nt.v["a3"].astype(np.int64)
    for r in range(ncy):
        ys = np.arange(yg0 + r * cs - half, yg0 + r * cs - half + cs, dtype=np.int64)
        xy = ys[:, None] * xs[None, :]
        ri, ci = np.nonzero((xy & 0xFF) < 32)  # MINE needs xyff < 32
        x, y, p = xs[ci], ys[ri], xy[ri, ci]
        a = np.zeros(x.size)
        for i in range(b2.size):
            a += nt.prof[((b2[i] * x + a3[i] * y) >> 7) & nt.mask]
        f = int32_bits(round_js(a * p.astype(np.float64) * RECIP128), nt.feature_mask)
        k = np.nonzero(f == 4)[0]
        if k.size == 0:
            continue
        x, y = x[k].astype(np.float64), y[k].astype(np.float64)
        ht = np.zeros(k.size)
        for i in range(b2.size):  # calcHeight at the points (SPEC 4)
            j = (nt.v["ah"][i] * x + nt.v["bh"][i] * y) * RECIP128
            jint = np.floor(j)
            idx = jint.astype(np.int64) & nt.mask
            ht += nt.prof[idx] + (j - jint) * nt.dprof[idx]
        a1 = np.zeros(k.size)
        for i in range(b2.size):  # calcProf(A1, B1) at the points
            a1 += nt.prof[(np.floor(nt.v["a1"][i] * x + nt.v["b1"][i] * y).astype(np.int64)
                           >> 7) & nt.mask]
        mine = (ht >= nt.lake_height) & (ht >= nt.lake_base) & (a1 >= 120)
        above[r, (x[mine].astype(np.int64) - xs[0]) // cs] = True
    return above


def period(t):
    """Steps of 256 along x after which calcProf(B2, x, A3, y) repeats (rt_feature_rows.h)."""
    n, per = len(t.profile), 1
    for b in t.b2:
        step = (2 * int(b)) % n
        if step:
            per = max(per, n // (step & -step))
    return per


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--side", type=int, default=10000, help="cells per side of the big block")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--shaft-side", type=int, default=None,
                    help="cells per side of the shaft scan (default: --side)")
    ap.add_argument("--strip", type=int, default=16,
                    help="cell rows of the strip timed against NumPy")
    ap.add_argument("--count", action="store_true",
                    help="also count evaluations per point in a scratch build (count_points.py)")
    ap.add_argument("--sizes", default="64,256,1024,4096")
    args = ap.parse_args()
    th = rt.default_threads()
    print(f"CPU: {cpu_model()}, {th} threads; median of {args.repeat}")
    t = rt.Terrain()
    m = rt.Mines(t)
    n = args.side

    # open cells, frac(u) only (no shafts), n*n cells
    out = np.empty((n, n), dtype=bool)
    tc, _ = timeit(lambda: m.open_grid(XG0, YG0, n, n, shafts=False, out=out, threads=th),
                   args.repeat)
    tn, _ = timeit(lambda: numpy_open(XG0, YG0, n), 1, warmup=0)
    assert np.array_equal(out, numpy_open(XG0, YG0, n)), "NumPy transcription differs"
    print(f"open_grid (frac test) {n}x{n} = {n*n/1e6:.0f} M cells: {tc:.3f} s, "
          f"{n*n/tc/1e6:.0f} M cells/s; NumPy {tn:.2f} s (x{tn/tc:.1f} slower)")

    # labelling of the same n*n cells
    tl, _ = timeit(lambda: rt.label_cells(out, threads=th), args.repeat)
    labels, count = rt.label_cells(out, threads=th)
    tl1, _ = timeit(lambda: rt.label_cells(out, threads=1), 1)
    msg = (f"label_cells {n}x{n}: {tl:.2f} s ({th} threads), {tl1:.2f} s (1 thread), "
           f"{n*n/tl/1e6:.0f} M cells/s, {count} mines")
    try:
        from scipy import ndimage
        t0 = time.perf_counter()
        _, sn = ndimage.label(out)
        ts = time.perf_counter() - t0
        assert sn == count, "scipy counts differ"
        msg += f"; scipy.ndimage.label {ts:.2f} s (x{ts/tl:.1f} slower)"
    except ImportError:
        msg += "; scipy not installed"
    print(msg)
    del labels
    tracemalloc.start()
    tracemalloc.reset_peak()
    lab = m.label(XG0, YG0, n, n, shafts=False, threads=th)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    arrays = lab.labels.nbytes + lab.open.nbytes + lab.above.nbytes + lab.sizes.nbytes * 3
    print(f"Mines.label {n}x{n} (no shafts): peak traced memory {peak/2**20:.0f} MiB = "
          f"{peak/arrays:.3f}x its result arrays")
    lab = out = None  # free the big block

    # shafts: the cs*cs points of every cell, the whole n*n block
    s = args.shaft_side or n
    ta, _ = timeit(lambda: m.open_above_grid(XG0, YG0, s, s, threads=th), args.repeat)
    print(f"open_above_grid (shafts) {s}x{s} = {s*s/1e6:.0f} M cells ({s*s*256/1e9:.1f} G "
          f"points), {th} threads: {ta:.2f} s, {s*s/ta/1e6:.1f} M cells/s "
          f"({s*s*256/ta/1e9:.2f} G points/s)")
    # one thread against the NumPy transcription on a strip of the block's
    # width (rows as long as the block's: the same work per point)
    k = args.strip
    strip = m.open_above_grid(XG0, YG0, s, k, threads=1)
    assert np.array_equal(numpy_shafts(XG0, YG0, s, k), strip), "NumPy transcription differs"
    t1, _ = timeit(lambda: m.open_above_grid(XG0, YG0, s, k, threads=1), args.repeat)
    tn, _ = timeit(lambda: numpy_shafts(XG0, YG0, s, k), 1)
    print(f"  a strip of {s}x{k} cells, 1 thread: {t1:.3f} s ({s*k/t1/1e6:.2f} M cells/s, "
          f"{s*k*256/t1/1e9:.2f} G points/s); NumPy transcription {tn:.2f} s "
          f"(x{tn/t1:.1f} slower; the whole block would take it {tn*s/k:.0f} s); "
          f"{int(strip.sum())} shafts, equal")
    print("  work per point: the xyff test once per residue of x mod 256 and row (256 a row), "
          "profile sums only at the 1 in 8 points it passes, once per period of the sums "
          f"(x -> x + {256 * period(t)}) when a row holds two or more of them; "
          "terra only where the feature value is MINE")

    # the author's question: one unbounded network?
    sizes = [int(v) for v in args.sizes.split(",")]
    print("percolation (classic, cells from the classic map's corner, shafts included):")
    print("  size  threshold  open   mines    largest/open  spans W-E  S-N  reachable/open")
    t0 = time.perf_counter()
    for r in m.percolation(sizes, (0.40, 0.41, 0.42), threads=th):
        print(f"  {r.size:5d}  {r.threshold:.2f}      {r.open_share:.4f} {r.mines:8d}  "
              f"{r.largest_share:.4f}        {str(r.spans_we):5s}      {str(r.spans_sn):5s}"
              f"  {r.reachable_share:.4f}")
    print(f"  ({time.perf_counter() - t0:.1f} s)")
    for variant, thr in (("sincos", 0.4), ("sincos", 0.5)):
        ms = rt.Mines(t, variant=variant, threshold=thr)
        for r in ms.percolation(sizes[-2:], (thr,), threads=th):
            print(f"  {variant} {r.size:5d} {thr:.2f}: open {r.open_share:.4f}, "
                  f"largest/open {r.largest_share:.4f}, spans {r.spans_we}/{r.spans_sn}")
    if args.count:
        subprocess.run([sys.executable, os.path.join(HERE, "count_points.py"), "mines"], check=True)


if __name__ == "__main__":
    main()
