"""A height field larger than memory, written block by block to zarr.

    python benchmarks/bench_pipelines.py            # 20,000 x 20,000 (4e8 points)
    python benchmarks/bench_pipelines.py --full     # 100,000 x 100,000 (1e10 points)
    python benchmarks/bench_pipelines.py --codec relfterrain   # the CLI's codec

``relfterrain.dask.height_grid`` makes a lazy array whose blocks are
``Terrain.height_grid(..., offset=(row, col))`` calls; ``dask.array.to_zarr``
computes and writes them a few at a time, so the memory stays a few blocks
whatever the size. Prints the time, points per second, peak RSS and the
store's size; without ``--full`` it also extrapolates the time to the full
100,000 x 100,000 (linear in the points: every block costs the same).
Then, in the same run, the price of float32 output: ``height_grid`` as
float64 and as float32 (exact doubles rounded, row by row) on 4000 x 4000.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time

import numpy as np
from _common import cpu_model, timeit

import relfterrain as rt
import relfterrain.dask as rtd

FULL = 100_000


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux


def _du(path: str) -> int:
    total = 0
    for root, _, files in os.walk(path):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=20_000, help="side of the square grid")
    ap.add_argument("--full", action="store_true", help=f"the whole {FULL:,} x {FULL:,}")
    ap.add_argument("--chunk", type=int, default=4096, help="block side (default 4096)")
    ap.add_argument("--dtype", default="float32", choices=("float32", "float64"))
    ap.add_argument("--codec", default="none", choices=("none", "zarr", "relfterrain"),
                    help="none (the default), zarr's default compressor, or the codec of "
                         "relfterrain.dask.zarr_encoding() (Blosc LZ4, bit shuffle); every "
                         "chunk is written in each case (write_empty_chunks)")
    ap.add_argument("--compress", action="store_true", help="the same as --codec zarr")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--dir", default=None, help="where to write the store (default: a temp dir)")
    ap.add_argument("--keep", action="store_true", help="keep the store")
    ap.add_argument("--repeat", type=int, default=5, help="repeats of the float32 timing")
    args = ap.parse_args()
    n = FULL if args.full else args.size
    if args.compress:
        args.codec = "zarr"

    import dask
    import zarr

    print(f"CPU: {cpu_model()}, {os.cpu_count()} cores; python {sys.version.split()[0]}, "
          f"numpy {np.__version__}, dask {dask.__version__}, zarr {zarr.__version__}")
    t = rt.Terrain()
    x0, y0 = 23396.0, 5318.0
    h = rtd.height_grid(t, x0, y0, n, n, 10.0, chunks=(args.chunk, args.chunk),
                        dtype=args.dtype)
    where = tempfile.mkdtemp(prefix="bench_pipelines.", dir=args.dir)
    store = os.path.join(where, "height.zarr")
    rss0 = _rss_mib()
    print(f"height field {n:,} x {n:,} at 10 m ({n * n:.3g} points, {args.dtype}, "
          f"{h.nbytes / 2**30:.1f} GiB), blocks {args.chunk} x {args.chunk} "
          f"({h.npartitions} blocks), {args.workers} worker threads, "
          f"compression {args.codec}")
    try:
        # every chunk written: zarr's check for chunks equal to the fill value
        # compares each whole chunk (relfterrain._codec.zarr_array_kwargs)
        every = rtd.zarr_encoding()
        every = {k: v for k, v in every.items() if k in ("config", "write_empty_chunks")}
        kwargs = {"none": {**every, "compressors": None}, "zarr": every,
                  "relfterrain": rtd.zarr_encoding()}[args.codec]
        start = time.perf_counter()
        with dask.config.set(scheduler="threads", num_workers=args.workers):
            h.to_zarr(store, **kwargs)
        elapsed = time.perf_counter() - start
        rss1 = _rss_mib()
        size = _du(store)
        print(f"  wrote {store}: {elapsed:.1f} s, {n * n / elapsed / 1e6:.0f} M points/s, "
              f"{size / 2**30:.2f} GiB on disk")
        print(f"  peak RSS {rss1:.0f} MiB (before the write {rss0:.0f} MiB); "
              f"one block is {args.chunk**2 * np.dtype(args.dtype).itemsize / 2**20:.0f} MiB")
        if n != FULL:
            scale = FULL * FULL / (n * n)
            print(f"  extrapolated to {FULL:,} x {FULL:,}: {elapsed * scale / 60:.1f} min, "
                  f"{size * scale / 2**30:.0f} GiB (x{scale:.0f}; not measured, run --full)")
        # the same blocks computed without writing: what the disk costs
        start = time.perf_counter()
        with dask.config.set(scheduler="threads", num_workers=args.workers):
            h.max().compute()
        alone = time.perf_counter() - start
        print(f"  computing the same blocks without writing: {alone:.1f} s "
              f"({n * n / alone / 1e6:.0f} M points/s): the rest is the store's writes")
        # spot check: the store holds the in-memory grid's bits
        back = zarr.open_array(store, mode="r")
        r, c = n // 3, n // 2
        ref = t.height_grid(x0, y0, 50, 40, 10.0, offset=(r, c), dtype=args.dtype)
        assert np.array_equal(back[r:r + 40, c:c + 50], ref), "store differs from height_grid"
        print("  spot check: a 40 x 50 window equals Terrain.height_grid bit for bit")
    finally:
        if not args.keep:
            shutil.rmtree(where, ignore_errors=True)

    m = 4000
    f64, _ = timeit(lambda: t.height_grid(0, 0, m, m), args.repeat)
    f32, _ = timeit(lambda: t.height_grid(0, 0, m, m, dtype="float32"), args.repeat)
    conv, _ = timeit(lambda: t.height_grid(0, 0, m, m).astype(np.float32), args.repeat)
    print(f"height_grid {m} x {m} (median of {args.repeat}): float64 {f64 * 1e3:.1f} ms "
          f"({m * m / f64 / 1e6:.0f} M points/s), float32 {f32 * 1e3:.1f} ms "
          f"(x{f32 / f64:.2f}), float64 then astype {conv * 1e3:.1f} ms (x{conv / f64:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
