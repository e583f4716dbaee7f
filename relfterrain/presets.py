"""The author's variants of The Forest as presets (SPEC 16), and islands.

Each preset is a :class:`~relfterrain.TerrainParams` value made from what the
seed (``000_*.txt``, "How to make limitless terrain for games in real time")
and SPEC 16 say of that variant, plus a little metadata for the generators
built on the terrain (the mines' variant and threshold). Where the seed gives
no number the value is the project's choice, documented in :data:`PRESETS`.

>>> import relfterrain as rt
>>> t = rt.Terrain.preset("skylands")
>>> t.lake_height
450.0
>>> p = rt.Terrain.preset("pieces_of_eight", rng=1)
>>> p.ah.tolist(), p.bh.tolist()
([0, 12, 14, -10, -14], [19, 4, -19, -14, 5])
>>> rt.presets.info("pieces_of_eight").mines_variant
'sincos'
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from . import _core, _shared, _validate
from ._fields import documented
from ._params import TerrainParams
from .random_profile import make_profile

__all__ = ["PRESETS", "Islands", "PresetInfo", "info", "islands", "pieces_of_eight_vectors",
           "preset_params"]


@documented(
    name="The preset's name, as :meth:`Terrain.preset` takes it.",
    source='Where in the seed / SPEC the values come from.',
    mines_variant=('The mines\' open test (SPEC 8): "classic" (``PI10000*x*y``) or "sincos" (My '
                   "Terrain's ``PI10000*sin(x)*cos(y)``)"),
    mines_threshold='A mine cell is open where the fractional part of u exceeds this.',
)
class PresetInfo(NamedTuple):
    """What a preset is, where it comes from, and metadata for other generators."""

    name: str
    source: str
    mines_variant: str
    mines_threshold: float


#: The presets by name: ``"forest"``, ``"my_terrain"``, ``"pieces_of_eight"``,
#: ``"skylands"``, each a :class:`PresetInfo` citing its source in the seed.
PRESETS: dict[str, PresetInfo] = {
    "forest": PresetInfo(
        "forest",
        "The Forest, 1983: the classic profile and vectors (seed, 'Reference sources in "
        "Java'; SPEC 3). The default Terrain().",
        "classic", 0.4),
    "my_terrain": PresetInfo(
        "my_terrain",
        "My Terrain (seed, 'Making hilltops more like mountains': z = base + dz*sqrt(dz), "
        "and snow above a preset level). The seed gives no numbers; the project's "
        "choice: mountain_base 450 (the top ~5 % of the classic ground, measured over "
        "16 km x 16 km) and snow_height 700 (~1.7 % of the ground is then snow). "
        "Mines: the seed's My Terrain line u = PI10000 * sin(x) * cos(y).",
        "sincos", 0.4),
    "pieces_of_eight": PresetInfo(
        "pieces_of_eight",
        "Pieces of Eight (seed, 'Changing the profile - random?'; SPEC 11 and 16): "
        "make_profile(2048, rng), lake 34 and snow 2.4 x max, height vectors from "
        "ch = [19, 13, 23, 17, 15] at 0, 0.2, 0.4 ... turns, features MINE xyff < 64, "
        "X < 32, CONE < 24, vegetation |calcProf(A1)| < 10 TOWN, a < 20 GRASS/MOOR "
        "(b < 20 GRASS), b < -50 THICKET, else WOOD; mines sincos, threshold 0.5.",
        "sincos", 0.5),
    "skylands": PresetInfo(
        "skylands",
        "Skylands (seed, 'Islands in the sky': 'raise the water level to make islands in a "
        "sea'; SPEC 14, 16): the classic terrain with the lake level at 450; the sea is sky "
        "(see islands()).",
        "classic", 0.4),
}

#: Pieces of Eight's height vector lengths (SPEC 16).
PIECES_OF_EIGHT_CH = (19, 13, 23, 17, 15)


def info(name: str) -> PresetInfo:
    """The :class:`PresetInfo` of a preset.

    >>> info("skylands").source.split(" (")[0]
    'Skylands'
    """
    if not isinstance(name, str) or name not in PRESETS:
        raise ValueError(f"name: must be one of {sorted(PRESETS)}, got {name!r}")
    return PRESETS[name]


def _round_js(v: float) -> float:
    r = math.floor(v)
    return float(r + 1) if v - r >= 0.5 else float(r)


def pieces_of_eight_vectors(ch: Any = PIECES_OF_EIGHT_CH) -> tuple[tuple[int, ...],
                                                                   tuple[int, ...]]:
    """The height vectors of Pieces of Eight: direction i at ``a = i * 0.2`` turns.

    ``AH[i] = round_js(ch[i] * sin(a))``, ``BH[i] = round_js(ch[i] * cos(a))``
    with ``a = (i * 0.2) * (2*pi)`` radians and the core's fdlibm sin and cos.

    >>> pieces_of_eight_vectors()
    ((0, 12, 14, -10, -14), (19, 4, -19, -14, 5))
    """
    c = _validate.vector(ch, "ch")
    a = (np.arange(c.size, dtype=np.float64) * 0.2) * (2.0 * math.pi)
    s = _core.sin(a)
    co = _core.cos(a)
    ah = tuple(int(_round_js(float(c[i]) * float(s[i]))) for i in range(c.size))
    bh = tuple(int(_round_js(float(c[i]) * float(co[i]))) for i in range(c.size))
    return ah, bh


def preset_params(name: str, rng: Any = None) -> TerrainParams:
    """The :class:`TerrainParams` of a preset (``rng`` is used by "pieces_of_eight" only).

    >>> preset_params("my_terrain").mountain_base
    450.0
    """
    info(name)
    if name == "forest":
        return TerrainParams()
    if name == "my_terrain":
        return TerrainParams(mountain_base=450.0, snow_height=700.0)
    if name == "skylands":
        return TerrainParams(lake_height=450.0)
    prof = make_profile(2048, rng)
    ah, bh = pieces_of_eight_vectors()
    return TerrainParams(
        profile=prof.profile, ah=ah, bh=bh,
        lake_base=prof.lake_height, lake_height=prof.lake_height,
        snow_height=prof.snow_height,
        mine_below=64, x_below=32, cone_below=24,
        town_abs=True, town_below=10.0, grass_below=20.0, open_below=20.0,
        thicket_below=-50.0)


# ---------------------------------------------------------------------------
# Islands (Skylands: "countless islands in a limitless sea"; the sea is sky)
# ---------------------------------------------------------------------------

@documented(
    labels=('int32 (ny, nx): 0 on the sea (sky), 1 .. n_islands on land, numbered in the order '
            "of each island's first point (row 0 first, west to east)"),
    areas=("float64 (n_islands + 1,): ``areas[k]`` is island k's area in square metres (points "
           "times step**2); ``areas[0]`` is the sea's, so ``areas[labels]`` is every point's "
           'island area.'),
    n_islands='The number of islands.',
)
class Islands(NamedTuple):
    """Connected land of a block, labelled."""

    labels: np.ndarray
    areas: np.ndarray
    n_islands: int


def islands(terrain: Any, x0: float, y0: float, nx: int, ny: int, step: float = 1.0, *,
            threads: int | None = None) -> Islands:
    """Label the islands of a block: land connected through its 4 neighbours.

    Land is every point whose terra is not LAKE (placed terrain included);
    points outside the block are not looked at, so an island cut by the
    block's edge counts only its part inside. Labelling is a union-find in
    the C core (no SciPy needed), run without the GIL.

    Parameters
    ----------
    terrain : Terrain
        Any terrain; islands need a raised lake (``Terrain.preset("skylands")``).
    x0, y0, nx, ny, step
        The block, as :meth:`Terrain.grid`.
    threads : int, optional
        Threads for the terrain grid.

    Examples
    --------
    >>> import relfterrain as rt
    >>> isl = rt.islands(rt.Terrain.preset("skylands"), 23396, 5318, 800, 600)
    >>> isl.labels.shape, isl.n_islands > 0
    ((600, 800), True)
    >>> bool(isl.areas[1:].sum() + isl.areas[0] == 800 * 600)
    True
    """
    _shared.check_terrain(terrain)
    ter = terrain.terrain_grid(x0, y0, nx, ny, step, threads=threads)
    step = float(step)
    labels, counts = _core.label_islands(ter != 0)
    areas = counts.astype(np.float64) * (step * step)
    return Islands(labels, areas, int(counts.size - 1))
