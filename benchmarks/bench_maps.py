#!/usr/bin/env python3
"""Benchmark of the orienteering map (SPEC 15): the classic 800 x 600 map.

Run from the repository root after building the extension in place:

    PYTHONPATH=. python benchmarks/bench_maps.py --repeat 21

Prints the median time of ``Terrain.map(*CLASSIC_MAP)`` split into the grid
(terra on the grid, the palette lookup), the contours (CONREC in NumPy, every
5 m, index every 25 m), the symbols (water, roads, buildings and features
through Pillow) and the total, for each palette; then, in the same run, the
alternative for the contour lines: contourpy (``quad_as_tri=True``, the same
geometry) plus Pillow's ``ImageDraw.line``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys

import numpy as np

import relfterrain as rt
from relfterrain import maps

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import cpu_model, timeit  # noqa: E402

OPTIONS = {"contours": True, "interval": 5.0, "index_every": 5, "features": True,
           "buildings": True, "water": True, "roads": True, "paths": True}


def split(t: rt.Terrain, palette: str, threads: int | None, repeat: int) -> dict[str, float]:
    parts: dict[str, list[float]] = {"grid": [], "contours": [], "symbols": [], "total": []}
    for i in range(repeat + 1):
        d: dict[str, float] = {}
        maps._render(t, *rt.CLASSIC_MAP, 1.0, palette=palette, threads=threads, timings=d,
                     **OPTIONS)
        if i:  # the first call warms up
            for k in parts:
                parts[k].append(d[k])
    return {k: statistics.median(v) for k, v in parts.items()}


def contourpy_lines(z: np.ndarray, img: np.ndarray):
    import contourpy
    from PIL import Image, ImageDraw

    levels = np.arange(np.ceil(z.min() / 5) * 5, z.max() + 5, 5)
    gen = contourpy.contour_generator(z=z, quad_as_tri=True, line_type="Separate")
    lines = gen.multi_lines(levels)
    im = Image.fromarray(img)
    draw = ImageDraw.Draw(im)
    ny = z.shape[0]
    for level, polylines in zip(levels, lines):
        width = 2 if level % 25 == 0 else 1
        for p in polylines:
            q = np.column_stack([p[:, 0], ny - 1 - p[:, 1]])
            draw.line(q.ravel().tolist(), fill=(184, 78, 27), width=width)
    return np.asarray(im)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=21)
    args = ap.parse_args()
    print(f"CPU: {cpu_model()}; {os.cpu_count()} logical CPUs; Python "
          f"{platform.python_version()}, NumPy {np.__version__}")
    t = rt.Terrain()
    print(f"classic map {rt.CLASSIC_MAP}, step 1, medians of {args.repeat} calls (ms)")
    print(f"{'palette':8} {'threads':>7} {'grid':>7} {'contours':>9} {'symbols':>8} {'total':>7}")
    for threads in (1, None):
        for palette in ("relf", "isom"):
            m = split(t, palette, threads, args.repeat)
            print(f"{palette:8} {threads or 'all':>7} {m['grid'] * 1e3:7.1f} "
                  f"{m['contours'] * 1e3:9.1f} {m['symbols'] * 1e3:8.1f} {m['total'] * 1e3:7.1f}")
    whole, _ = timeit(lambda: t.map(*rt.CLASSIC_MAP), args.repeat)
    print(f"Terrain.map(*CLASSIC_MAP), all threads: {whole * 1e3:.1f} ms")
    g = t.grid(*rt.CLASSIC_MAP)
    base = maps.terrain_colours(g.terrain)
    ours, _ = timeit(lambda: maps.contour_mask(g.height, 5.0, 5), args.repeat)
    numpy_version, _ = timeit(lambda: maps._contour_mask_numpy(g.height, 5.0, 5), args.repeat)
    print(f"contour pixels: CONREC in C {ours * 1e3:.1f} ms; the vectorised NumPy "
          f"transcription {numpy_version * 1e3:.1f} ms ({numpy_version / ours:.1f}x)")
    try:
        alt, _ = timeit(lambda: contourpy_lines(g.height, base), max(3, args.repeat // 3))
    except ImportError as e:
        print(f"contourpy + Pillow: not measured ({e})")
    else:
        print(f"contourpy quad_as_tri + ImageDraw.line {alt * 1e3:.1f} ms "
              f"({alt / ours:.1f}x the C)")


if __name__ == "__main__":
    main()
