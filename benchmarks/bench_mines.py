"""Mines (SPEC 8): open cells, shafts and labelling, against NumPy and scipy.

Prints cells per second of ``Mines.open_grid`` (the frac(u) test), of the
shaft scan (``open_above_grid``: the cs*cs points of every cell) and of the
labelling, with the ratio to a vectorised NumPy transcription /
``scipy.ndimage.label`` run in the same process, the peak memory, and the
percolation scan that answers the author's question.

    PYTHONPATH=. python benchmarks/bench_mines.py [--side 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
import tracemalloc

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import cpu_model, timeit  # noqa: E402

import relfterrain as rt  # noqa: E402

XG0, YG0 = 23392, 5312  # the classic map's corner cell


def numpy_open(xg0, yg0, n, cs=16, threshold=0.4, rows=1000):
    """The frac(u) test vectorised: u = PI10000 * xg * yg, left to right."""
    xg = (xg0 + cs * np.arange(n, dtype=np.int64)).astype(np.float64)
    out = np.empty((n, n), dtype=bool)
    for r0 in range(0, n, rows):
        yg = (yg0 + cs * np.arange(r0, min(n, r0 + rows), dtype=np.int64)).astype(np.float64)
        u = (math.pi * 10000 * xg)[None, :] * yg[:, None]
        out[r0:r0 + len(yg)] = u - np.floor(u) > threshold
    return out


def numpy_above(t, xg0, yg0, n, cs=16):
    """Shafts through the terrain's grid path: feature_grid of every point, reduced per cell."""
    f = t.feature_grid(xg0 - cs // 2, yg0 - cs // 2, n * cs, n * cs)
    return (f == rt.Feature.MINE).reshape(n, cs, n, cs).any(axis=(1, 3))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--side", type=int, default=10000, help="cells per side of the big block")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--shaft-side", type=int, default=2048)
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

    # shafts: the cs*cs points of every cell
    s = args.shaft_side
    ta, _ = timeit(lambda: m.open_above_grid(XG0, YG0, s, s, threads=th), args.repeat)
    sn_ = 512
    tg, _ = timeit(lambda: numpy_above(t, XG0, YG0, sn_), 1)
    assert np.array_equal(numpy_above(t, XG0, YG0, sn_), m.open_above_grid(XG0, YG0, sn_, sn_))
    ta_small, _ = timeit(lambda: m.open_above_grid(XG0, YG0, sn_, sn_, threads=th), args.repeat)
    print(f"open_above_grid {s}x{s} cells ({s*s*256/1e9:.2f} G points): {ta:.2f} s, "
          f"{s*s/ta/1e6:.2f} M cells/s ({s*s*256/ta/1e6:.0f} M points/s); 10^8 cells would "
          f"take {1e8/(s*s/ta):.0f} s. {sn_}x{sn_}: {ta_small:.3f} s vs terrain feature_grid "
          f"+ NumPy reduction {tg:.3f} s (x{tg/ta_small:.1f} slower)")

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


if __name__ == "__main__":
    main()
