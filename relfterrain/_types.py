"""Enums and named results shared by the relfterrain API."""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from . import _core
from ._fields import documented

__all__ = ["Feature", "Sample", "Terra", "TerrainGrid", "TerrainType"]


class TerrainType(enum.IntEnum):
    """Kinds of ground (the Java enum ``TERRAINS``; values are its ordinals).

    ``terrain_grid`` and ``grid(...).terrain`` hold these codes as ``uint8``.
    """

    LAKE = 0
    TOWN = 1
    GRASS = 2
    MOOR = 3
    WOOD = 4
    THICKET = 5
    ROAD = 6
    MUD = 7
    PATH = 8
    STREAM = 9
    MARSH = 10
    SNOW = 11
    #: terrain00.js (2026, SPEC 17): moorland dug ``quarry_depth`` deep
    QUARRY = 12


class Feature(enum.IntEnum):
    """Point features on the ground (the Java enum ``FEATURES``).

    ``feature_grid`` and ``grid(...).feature`` hold these codes as ``uint8``.
    """

    NONE = 0
    MINE = 1
    BOULDER = 2
    ROOT = 3
    WATERHOLE = 4
    KNOLL = 5
    X = 6
    CONE = 7
    ROCKET = 8
    BUILDING = 9
    #: terrain00.js's phone box (FEATURES.T, SPEC 17): placed only; a TOWN keeps it
    PHONE = 10

    @property
    def description(self) -> str:
        """The orienteering description of the seed's ``getDescription``."""
        if self is Feature.PHONE:
            return "phone box"
        return _DESCRIPTIONS.get(self, "unknown")

    @property
    def has_code(self) -> bool:
        """Whether the feature carries a two-letter orienteering control code."""
        return self in _DESCRIPTIONS


_DESCRIPTIONS = {
    Feature.MINE: "mineshaft",
    Feature.BOULDER: "boulder",
    Feature.KNOLL: "knoll",
    Feature.ROOT: "rootstock",
    Feature.WATERHOLE: "water hole",
    Feature.X: "man-made",
}


def _check_against_core() -> None:
    # the codes are the C core's: a mismatch is a build of mixed versions
    for enum_type, names in ((TerrainType, _core.TERRAIN_TYPE_NAMES),
                             (Feature, _core.FEATURE_NAMES)):
        ours = tuple(m.name for m in enum_type)
        if ours != tuple(names) or [int(m) for m in enum_type] != list(range(len(names))):
            raise ImportError(f"relfterrain: {enum_type.__name__} {ours} differs from the "
                              f"C core's {tuple(names)}; reinstall the package")


_check_against_core()


@documented(
    x="Metres along x after which heights and terrain kinds repeat.",
    y="Metres along y after which heights and terrain kinds repeat.",
    features="None: point features have no period (their rule multiplies x by y).",
)
class Period(NamedTuple):
    """The world's periods in metres (:attr:`Terrain.period`).

    Heights and terrain kinds repeat every ``x`` metres east and every ``y``
    metres north; point features do not repeat (``features`` is None).
    """

    x: int
    y: int
    features: None = None


@documented(
    height='Ground height, or the water surface on a lake (metres).',
    terrain='The kind of ground, a :class:`TerrainType`.',
    feature='The point feature, a :class:`Feature` (``Feature.NONE`` for none).',
    code='Two-letter orienteering code of the feature, or ``""``.',
    depth='Depth of lake water at the point (0 off lakes), metres.',
)
class Terra(NamedTuple):
    """Everything about one ground point, as the seed's ``terra(x, y)``."""

    height: float
    terrain: TerrainType
    feature: Feature
    code: str
    depth: float


@documented(
    x="The grid's x coordinates, float64 ``(nx,)``: ``x0 + c*step``.",
    y="The grid's y coordinates, float64 ``(ny,)``: ``y0 + r*step`` (row 0 south).",
    height='Ground height, metres (the water surface on lakes), float64 ``(ny, nx)``.',
    depth='Depth of lake water, metres (0 off lakes), float64 ``(ny, nx)``.',
    terrain='The kinds of ground, uint8 ``(ny, nx)`` codes of :class:`TerrainType`.',
    feature='The point features, uint8 ``(ny, nx)`` codes of :class:`Feature`.',
)
class TerrainGrid(NamedTuple):
    """The result of :meth:`Terrain.grid`: point ``[r, c]`` is ``(x[c], y[r])``."""

    x: np.ndarray
    y: np.ndarray
    height: np.ndarray
    depth: np.ndarray
    terrain: np.ndarray
    feature: np.ndarray

    def _repr_png_(self) -> bytes | None:
        """Jupyter's inline picture: the terrain kinds (north up, no contours)."""
        return GRID_PNG[0](self) if GRID_PNG else None


#: How a :class:`TerrainGrid` draws itself in Jupyter: relfterrain.maps
#: (which imports this module, so this one must not import it) puts its
#: renderer here when it is imported, as ``import relfterrain`` always does.
GRID_PNG: list[Callable[[TerrainGrid], bytes | None]] = []


@documented(
    height=('Ground height, metres (the water surface on lakes), float64, the shape of the '
            'broadcast points.'),
    depth='Depth of lake water, metres (0 off lakes), float64.',
    terrain='The kinds of ground, uint8 codes of :class:`TerrainType`.',
    feature='The point features, uint8 codes of :class:`Feature`.',
)
class Sample(NamedTuple):
    """The result of :meth:`Terrain.sample` at arbitrary points."""

    height: np.ndarray
    depth: np.ndarray
    terrain: np.ndarray
    feature: np.ndarray
