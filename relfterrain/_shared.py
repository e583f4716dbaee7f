"""What the subsystems need of a :class:`~relfterrain.Terrain`, without importing it.

``relfterrain.terrain`` is the front door: its ``Terrain`` has a method for
every subsystem (streams, roads, features, sites, mines, maps, presets, ...)
and imports them. They must not import it back (tests/test_import_graph.py
checks that the package's imports form no circle): what they need of a
terrain they take from here.

- :func:`core` is a terrain's C state (a ``relfterrain._core.TerrainCore``),
  the one place that knows where a ``Terrain`` keeps it;
- :func:`check_terrain` refuses an argument that is not a ``Terrain``;
- :func:`terrain_class` is the class itself, for the few functions that make
  a terrain (``relfterrain.load``, ``maps.redesign``).

``relfterrain.terrain`` registers its class here (:func:`register_terrain`)
when it is imported, and ``import relfterrain`` (so also ``import
relfterrain.roads`` or any other submodule) imports it first.
"""

from __future__ import annotations

import importlib
from typing import Any

_TERRAIN: Any = None


def register_terrain(cls: type) -> None:
    """Record the ``Terrain`` class (called once, by ``relfterrain.terrain``)."""
    global _TERRAIN
    _TERRAIN = cls


def terrain_class() -> Any:
    """The ``Terrain`` class (registered by ``relfterrain.terrain`` when it is imported).

    ``import relfterrain`` loads its modules on first use, so ``rt.load`` can
    run before anything imported ``relfterrain.terrain``: import it then (by
    name, at run time: the module graph keeps no edge back to ``terrain``).
    """
    if _TERRAIN is None:
        importlib.import_module("relfterrain.terrain")  # registers the class
    if _TERRAIN is None:  # pragma: no cover - the import above registers it
        raise RuntimeError("relfterrain.terrain did not register the Terrain class")
    return _TERRAIN


def check_terrain(obj: Any, name: str = "terrain") -> None:
    """TypeError naming ``name`` unless ``obj`` is a ``Terrain``."""
    if not isinstance(obj, terrain_class()):
        raise TypeError(f"{name}: must be a relfterrain.Terrain, got {obj!r}")


def core(terrain: Any) -> Any:
    """The C state of a terrain (``relfterrain._core.TerrainCore``)."""
    return terrain._core


def lock(terrain: Any) -> Any:
    """The lock of a terrain's world state (a ``threading.RLock``): every
    change of the placed table, roads and lake level, and every read of more
    than one piece of it, holds it (issue 19: atomic under threads)."""
    return terrain._lock
