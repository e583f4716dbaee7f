"""relfterrain: the Relf Terrain Generator as exact, fast NumPy arrays.

Graham Relf's generator (The Forest, 1983 to now) makes limitless terrain
point by point from a 256-entry profile summed along a few directions. This
package computes it in a C core, bit for bit as the JavaScript original
would, and hands it over as NumPy arrays.

>>> import relfterrain as rt
>>> t = rt.Terrain()
>>> t.terra(23400, 5320).terrain
<TerrainType.MOOR: 3>
"""

import os as _os

try:
    from . import _core  # noqa: F401  (the check itself)
except ImportError as _exc:  # pragma: no cover - exercised by tests/test_source_tree.py
    _here = _os.path.dirname(_os.path.abspath(__file__))
    raise ImportError(
        f"relfterrain's C extension (relfterrain._core) is not built in {_here}. "
        "This usually means Python is importing the source tree instead of the "
        "installed package: run Python from another folder after "
        "`pip install .`, or build the extension in place with "
        "`python setup.py build_ext --inplace`. "
        f"(The import failed with: {_exc})"
    ) from _exc
del _os

from . import classic, maps, presets, sites, streams
from ._types import Feature, Period, Sample, Terra, TerrainGrid, TerrainType
from ._validate import MAX_SCAN_POINTS
from ._version import __version__ as __version__
from .features import FeatureTable
from .galaxy import (
    GALAXY_DOMAIN,
    GALAXY_VECTORS,
    INITIAL_VIEW,
    MAX_BLOCK_POINTS,
    OBSERVER,
    STAR_DTYPE,
    Block,
    Density,
    Galaxy,
    GalaxyParams,
    Independence,
    NearestStar,
    PlanetTable,
    Star,
    colour_planet_independence,
    density,
    nearest_star,
    planet_table,
)
from .mines import CaveMouths, Caverns, MineLabels, Mines, PercolationRow, label_cells
from .nebula import Nebula
from .planet import Planet, PlanetGrid, PlanetMap, PlanetSample
from .presets import Islands, islands
from .random_profile import RandomProfile, make_profile
from .roads import Road, load
from .sites import MAX_SITE_TRIES, Site, SiteOptions, SiteReason, Sites
from .streams import MarkResult, Stream
from .terrain import (
    CLASSIC_MAP,
    CLASSIC_PROFILE,
    CLASSIC_VECTORS,
    TERRAIN_DOMAIN,
    PlacedView,
    Terrain,
    TerrainParams,
    default_threads,
    orienteering_code,
    simd_variants,
)

__all__ = [
    "CLASSIC_MAP",
    "CLASSIC_PROFILE",
    "CLASSIC_VECTORS",
    "GALAXY_DOMAIN",
    "GALAXY_VECTORS",
    "MAX_BLOCK_POINTS",
    "MAX_SCAN_POINTS",
    "MAX_SITE_TRIES",
    "INITIAL_VIEW",
    "OBSERVER",
    "STAR_DTYPE",
    "TERRAIN_DOMAIN",
    "Block",
    "CaveMouths",
    "Caverns",
    "Density",
    "Feature",
    "FeatureTable",
    "Galaxy",
    "GalaxyParams",
    "Independence",
    "MarkResult",
    "MineLabels",
    "Mines",
    "NearestStar",
    "PercolationRow",
    "Period",
    "Islands",
    "Nebula",
    "PlacedView",
    "Planet",
    "PlanetGrid",
    "PlanetMap",
    "PlanetSample",
    "PlanetTable",
    "Road",
    "RandomProfile",
    "Sample",
    "Site",
    "SiteOptions",
    "SiteReason",
    "Sites",
    "Star",
    "Stream",
    "Terra",
    "Terrain",
    "TerrainGrid",
    "TerrainParams",
    "TerrainType",
    "classic",
    "maps",
    "colour_planet_independence",
    "default_threads",
    "islands",
    "explore",
    "density",
    "load",
    "label_cells",
    "make_profile",
    "nearest_star",
    "orienteering_code",
    "planet_table",
    "presets",
    "simd_variants",
    "streams",
    "sites",
]


def explore(world: object = None, **options: object) -> object:
    """The limitless map of ``world`` as a Jupyter widget (ipyleaflet): see
    :func:`relfterrain.explorer.explore` (extras ``serve`` and ``widgets``)."""
    from .explorer import explore as _explore

    return _explore(world, **options)  # type: ignore[arg-type]
