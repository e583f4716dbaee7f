"""The ``relfterrain`` command: compute a map area's grids into an ``.npz``.

By default the classic 800 x 600 m map of The Forest (x 23396..24195,
y 5318..5917), written to ``relfterrain_map.npz`` with a short summary:
the area of each terrain kind and the count of each feature.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import numpy as np

from ._types import Feature, TerrainType
from .terrain import CLASSIC_MAP, Terrain, default_threads


def _parser() -> argparse.ArgumentParser:
    x0, y0, nx, ny = CLASSIC_MAP
    p = argparse.ArgumentParser(
        prog="relfterrain",
        description="Compute the Relf terrain of a map area and save its grids as .npz "
        "(arrays x, y, height, depth, terrain, feature).",
    )
    p.add_argument("--x0", type=float, default=x0, help=f"west edge, metres (default {x0})")
    p.add_argument("--y0", type=float, default=y0, help=f"south edge, metres (default {y0})")
    p.add_argument("--nx", type=int, default=nx, help=f"columns (default {nx})")
    p.add_argument("--ny", type=int, default=ny, help=f"rows (default {ny})")
    p.add_argument("--step", type=float, default=1.0, help="grid spacing, metres (default 1)")
    p.add_argument("--lake-height", type=float, default=None,
                   help="lake level (default 204, the classic lake base)")
    p.add_argument("--threads", type=int, default=None,
                   help=f"threads (default all cores: {default_threads()})")
    p.add_argument("-o", "--output", default="relfterrain_map.npz",
                   help="output file (default relfterrain_map.npz)")
    return p


def summarize(terrain: np.ndarray, feature: np.ndarray, step: float) -> str:
    """A text table: area per terrain kind and count per feature."""
    cell = step * step
    lines = ["terrain      area m^2   share"]
    counts = np.bincount(terrain.ravel(), minlength=len(TerrainType))
    total = terrain.size
    for kind in TerrainType:
        n = int(counts[kind])
        if n:
            lines.append(f"{kind.name:<10} {n * cell:>10.0f}  {100.0 * n / total:5.1f} %")
    lines.append("")
    lines.append("feature      count")
    fcounts = np.bincount(feature.ravel(), minlength=len(Feature))
    for f in Feature:
        if f is not Feature.NONE and fcounts[f]:
            lines.append(f"{f.name:<10} {int(fcounts[f]):>7}")
    lines.append(f"{'all':<10} {int(fcounts[1:].sum()):>7}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        t = Terrain(lake_height=args.lake_height)
        start = time.perf_counter()
        g = t.grid(args.x0, args.y0, args.nx, args.ny, args.step, threads=args.threads)
        elapsed = time.perf_counter() - start
    except (ValueError, TypeError, MemoryError) as e:
        print(f"relfterrain: error: {e}", file=sys.stderr)
        return 2
    np.savez_compressed(args.output, x=g.x, y=g.y, height=g.height, depth=g.depth,
                        terrain=g.terrain, feature=g.feature)
    x1 = args.x0 + (args.nx - 1) * args.step
    y1 = args.y0 + (args.ny - 1) * args.step
    print(f"relfterrain: x {args.x0:g}..{x1:g}, y {args.y0:g}..{y1:g}, step {args.step:g} m: "
          f"{args.ny} x {args.nx} points in {elapsed * 1e3:.1f} ms")
    print(f"height {g.height.min():.2f} .. {g.height.max():.2f} m, lake level {t.lake_height:g} m")
    print(summarize(g.terrain, g.feature, args.step))
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
