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

# The C extension is there (it is imported with the first name that needs
# it: `relfterrain --help` starts without NumPy).
from importlib.util import find_spec as _find_spec

try:
    _spec = _find_spec(__name__ + "._core")
except (ImportError, ValueError) as _exc:  # pragma: no cover - a broken package
    _spec, _why = None, str(_exc)
else:
    _why = "No module named 'relfterrain._core'"
if _spec is None:  # pragma: no cover - exercised by tests/test_source_tree.py
    _here = _os.path.dirname(_os.path.abspath(__file__))
    raise ImportError(
        f"relfterrain's C extension (relfterrain._core) is not built in {_here}. "
        "This usually means Python is importing the source tree instead of the "
        "installed package: run Python from another folder after "
        "`pip install .`, or build the extension in place with "
        "`python setup.py build_ext --inplace`. "
        f"(The import failed with: {_why})"
    )
del _spec, _why, _find_spec
del _os

# The public names are loaded on first use (PEP 562 module __getattr__):
# `import relfterrain` costs next to nothing, and each submodule (with
# NumPy, the C core, dataclasses, json, tempfile, numpy.random ...) is
# imported when a name from it is first used.  Type checkers read the imports below.
from typing import TYPE_CHECKING

from ._version import __version__ as __version__

if TYPE_CHECKING:  # pragma: no cover - the same names, loaded eagerly
    from . import classic, crs, gis, maps, presets, provenance, sites, streams
    from ._types import Feature, Period, Sample, Terra, TerrainGrid, TerrainType
    from ._validate import MAX_SCAN_POINTS
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

# public name -> (submodule, attribute); attribute None: the submodule itself
_LAZY: dict[str, tuple[str, str | None]] = {}
for _mod, _names in (
    ("_types", ("Feature", "Period", "Sample", "Terra", "TerrainGrid", "TerrainType")),
    ("_validate", ("MAX_SCAN_POINTS",)),
    ("features", ("FeatureTable",)),
    ("galaxy", (
        "GALAXY_DOMAIN", "GALAXY_VECTORS", "INITIAL_VIEW", "MAX_BLOCK_POINTS", "OBSERVER",
        "STAR_DTYPE", "Block", "Density", "Galaxy", "GalaxyParams", "Independence", "NearestStar",
        "PlanetTable", "Star", "colour_planet_independence", "density", "nearest_star",
        "planet_table"
    )),
    ("mines", ("CaveMouths", "Caverns", "MineLabels", "Mines", "PercolationRow", "label_cells")),
    ("nebula", ("Nebula",)),
    ("planet", ("Planet", "PlanetGrid", "PlanetMap", "PlanetSample")),
    ("presets", ("Islands", "islands")),
    ("random_profile", ("RandomProfile", "make_profile")),
    ("roads", ("Road", "load")),
    ("sites", ("MAX_SITE_TRIES", "Site", "SiteOptions", "SiteReason", "Sites")),
    ("streams", ("MarkResult", "Stream")),
    ("terrain", (
        "CLASSIC_MAP", "CLASSIC_PROFILE", "CLASSIC_VECTORS", "TERRAIN_DOMAIN", "PlacedView",
        "Terrain", "TerrainParams", "default_threads", "orienteering_code", "simd_variants"
    )),
):
    for _name in _names:
        _LAZY[_name] = (_mod, _name)
for _mod in ("_core", "classic", "crs", "gis", "maps", "presets", "provenance", "sites",
             "streams"):
    _LAZY[_mod] = (_mod, None)
del _mod, _names, _name


def __getattr__(name: str) -> object:
    """Load a public name (or submodule) on first use, then keep it."""
    entry = _LAZY.get(name)
    if entry is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    module = importlib.import_module("." + entry[0], __name__)
    value = module if entry[1] is None else getattr(module, entry[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


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
    "crs",
    "gis",
    "provenance",
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
