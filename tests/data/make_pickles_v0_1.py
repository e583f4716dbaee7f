"""Write the pickles of tests/data/pickles_v0_1/ (relfterrain 0.1.0 objects).

They were made once, at commit 502e63c (before the import graph of the
package was reorganised), with ``python tests/data/make_pickles_v0_1.py``
from the repository root with the extension built in place.
tests/test_pickles_v0_1.py loads them with the current code and compares
every object with an equal one built afresh by :func:`objects` (this
module's recipe), so a pickle written by 0.1.0 must keep loading.
Run it again only to add objects: never to overwrite the existing files.
"""

from __future__ import annotations

import os
import pickle
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "pickles_v0_1")


def objects() -> dict:
    """The objects pickled, by file name (built the same way by the test)."""
    import relfterrain as rt

    t = rt.Terrain()
    t.place(23400, 5320, rt.TerrainType.LAKE)
    t.place(23401, 5320, rt.Feature.NONE)
    t.place(23402, 5321, rt.Feature.BOULDER)
    t.add_road([(23380, 5300), (23420, 5310), (23430, 5340)], half_width=2)
    t.add_road([(23300, 5200), (23310, 5260)], half_width=1, max_bridge=None)

    custom = rt.Terrain(profile=rt.make_profile(512, rng=7).profile, lake_height=150.0)
    custom.place(-5, 7, rt.TerrainType.TOWN)

    p = rt.Planet(500.0)
    p.place(0, 0, 500, rt.TerrainType.LAKE)
    p.place(1, -2, 499, rt.Feature.MINE)

    return {
        "terrain_placed_roads": t,
        "terrain_custom": custom,
        "terrain_default": rt.Terrain(),
        "terrain_params": custom.params,
        "planet_placed": p,
        "galaxy_default": rt.Galaxy(),
        "galaxy_replaced": rt.Galaxy().replace(f_mask=0xFF),
        "mines": rt.Mines(t, variant="sincos", threshold=0.35, cell_size=8, levels=2),
        "caverns": rt.Caverns(custom, scale=2.0, dx=60.0, dy=30.0, dz=1.0),
        "nebula": rt.Nebula(450.0),
        "road": t.roads[0],
        "random_profile": rt.make_profile(512, rng=7),
        "site_options": rt.SiteOptions(),
        "terrain_type": rt.TerrainType.MOOR,
        "feature": rt.Feature.BOULDER,
    }


def main() -> None:
    os.makedirs(OUT, exist_ok=True)
    for name, obj in objects().items():
        path = os.path.join(OUT, name + ".pickle")
        if os.path.exists(path):
            continue
        with open(path, "wb") as f:
            pickle.dump(obj, f, protocol=4)
        print("wrote", os.path.relpath(path), file=sys.stderr)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))  # the repository root
    main()
