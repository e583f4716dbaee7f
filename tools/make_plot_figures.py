#!/usr/bin/env python3
"""Draw the figures of docs/guide/plotting.md into docs/guide/images/.

    PYTHONPATH=. python tools/make_plot_figures.py

Every figure is drawn by relfterrain.plot exactly as the guide's code shows;
the figures are written with matplotlib's default (non-interactive, when no
display is present) backend: this script does not change the backend either.
"""

from __future__ import annotations

import os

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import MaxNLocator

import relfterrain as rt
from relfterrain import maps, plot

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "docs", "guide", "images")


def save(fig, name: str) -> None:
    fig.savefig(os.path.join(OUT, name), dpi=90, bbox_inches="tight")
    plt.close(fig)
    print("wrote", name)


def main() -> None:
    os.makedirs(OUT, exist_ok=True)
    t = rt.Terrain()
    g = t.grid(*rt.CLASSIC_MAP)

    fig, (a, b) = plt.subplots(1, 2, figsize=(13, 4.4), layout="constrained")
    plot.height(g, a, title="height")
    plot.hillshade(g, b)
    save(fig, "plotting-height-hillshade.png")

    fig, ax = plt.subplots(figsize=(8, 5))
    plot.terrain(g, ax, title="terrain kinds of the classic map")
    save(fig, "plotting-terrain.png")

    fig, ax = plt.subplots(figsize=(8, 5))
    plot.features(t.grid(23396, 5318, 300, 200), ax, title="point features as map symbols")
    save(fig, "plotting-features.png")

    fig, ax = plt.subplots(figsize=(10, 6))
    plot.map(t, 23396, 5318, 400, 300, pixels_per_metre=2, ax=ax)
    save(fig, "plotting-map.png")

    # the same 200 m x 150 m: SPEC 15's default map at 1 px/m, and the Forest-style
    # map at 1 and 2 px/m, each drawn in metres by plot.map so that they line up;
    # the legend (of the last panel) names the colours and symbols of all three
    x0, y0, w, h = 23560, 5400, 200, 150
    fig, axes = plt.subplots(1, 3, figsize=(17, 4.6), layout="constrained")
    panels = [
        (1, {"interval": 5.0, "north_lines": None}, "default map (SPEC 15): 5 m, 1 px/m"),
        (1, {}, "orienteering_map, 1 px/m: 10 m contours"),
        (2, {}, "orienteering_map, 2 px/m: 5 m contours"),
    ]
    brown = np.array(maps.PALETTES["relf"].contour, np.uint8)
    for k, (ax, (ppm, opts, name)) in enumerate(zip(axes, panels)):
        img = maps.orienteering_map(t, x0, y0, w, h, ppm, **opts)
        share = (img == brown).all(axis=2).mean()
        plot.map(t, x0, y0, w, h, pixels_per_metre=ppm, ax=ax, legend=k == 2,
                 title=f"{name}\ncontour share {share:.0%}", **opts)
        ax.title.set_fontsize(10)
        ax.xaxis.set_major_locator(MaxNLocator(4))
    save(fig, "plotting-map-comparison.png")

    fig, (a, b) = plt.subplots(1, 2, figsize=(14, 5), layout="constrained")
    plot.planet(rt.Planet(2000).map(30, 0, 320, 240), a, title="a planet, 30° N")
    plot.stars(rt.Galaxy(), ax=b)
    save(fig, "plotting-planet-stars.png")

    # the classic map with its streams marked (relfterrain map --streams), as
    # The Forest shows it: in metres, with its legend and a scale bar
    marked = rt.Terrain()
    x0, y0, nx, ny = rt.CLASSIC_MAP
    marked.mark_streams(x0, y0, nx, ny)  # and a 300 m margin, as the CLI
    fig, ax = plt.subplots(figsize=(12, 6.4), layout="constrained")
    plot.map(marked, x0, y0, nx, ny, pixels_per_metre=1, ax=ax,
             title="the classic map, its streams marked (1 px per metre)")
    save(fig, "classic-map.png")

    ds = t.dataset(*rt.CLASSIC_MAP)
    fig, ax = plt.subplots(figsize=(8, 5))
    ds.terrain.rt.plot(ax)
    ax.set_title("ds.terrain.rt.plot(): categories from flag_meanings")
    save(fig, "plotting-xarray.png")


if __name__ == "__main__":
    main()
