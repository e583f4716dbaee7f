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

__all__ = ["FOREST_2026_PROFILE", "PRESETS", "Islands", "PresetInfo", "info", "islands",
           "pieces_of_eight_vectors", "preset_params"]


@documented(
    name="The preset's name, as :meth:`Terrain.preset` takes it.",
    source='Where in the seed / SPEC the values come from.',
    mines_variant=('The mines\' open test (SPEC 8): "classic" (``PI10000*x*y``) or "sincos" (My '
                   "Terrain's ``PI10000*sin(x)*cos(y)``)"),
    mines_threshold='A mine cell is open where the fractional part of u exceeds this.',
    stream_max_length=("The streams' length cap as the variant traces them (SPEC 7: 300 m; the "
                       "2026 game: None, uncapped), for ``trace_stream(..., max_length=...)``."),
)
class PresetInfo(NamedTuple):
    """What a preset is, where it comes from, and metadata for other generators."""

    name: str
    source: str
    mines_variant: str
    mines_threshold: float
    stream_max_length: float | None = 300.0


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
        "(b < 20 GRASS), b < -50 THICKET, else WOOD; mines sincos, threshold 0.5. "
        "SPEC 17: point features kept on snow (snow_keeps_feature) and forestRA.js's "
        "PI10000 = PI1000 * 10 (pi10000, one ulp from pi * 10000); the profile can be "
        "rebuilt from a game's recorded uniforms (uniforms=).",
        "sincos", 0.5),
    "forest_2026": PresetInfo(
        "forest_2026",
        "The Forest as it runs today (terrain00.js, 2026; SPEC 17): its 512-entry profile, "
        "N = 5 height directions from ch = [19, 13, 23, 17, 15] at 0.2-turn angles, the "
        "classic A1..B3, mountains above 626 (z = 626 + dz*sqrt(dz)), snow above 680, bare "
        "rock (MUD) above 626, quarries 40 m deep in moorland with calcProf(A2, B2) < 77 "
        "above 254 m, the man-made X below 32, calcProf as the JavaScript computes it, the "
        "path test against the raw height; streams uncapped (max_length=None) as the game "
        "traces them.",
        "classic", 0.4, None),
    "skylands": PresetInfo(
        "skylands",
        "Skylands (seed, 'Islands in the sky': 'raise the water level to make islands in a "
        "sea'; SPEC 14, 16): the classic terrain with the lake level at 450; the sea is sky "
        "(see islands()).",
        "classic", 0.4),
}

#: Pieces of Eight's height vector lengths (SPEC 16); terrain00.js (2026) uses the same.
PIECES_OF_EIGHT_CH = (19, 13, 23, 17, 15)

#: The 512-entry profile of terrain00.js (2026), SPEC 17.
FOREST_2026_PROFILE: np.ndarray = _validate.readonly(np.array([
     77,  80,  84,  88,  92,  96, 101, 104, 108, 112, 115, 118, 120, 123, 126, 129,
    131, 133, 134, 134, 133, 133, 131, 130, 129, 126, 123, 122, 122, 122, 123, 125,
    126, 130, 134, 137, 137, 138, 138, 137, 135, 133, 129, 123, 118, 111, 105, 101,
     97,  93,  90,  86,  82,  78,  74,  71,  69,  67,  67,  67,  66,  67,  69,  71,
     73,  74,  73,  73,  71,  69,  66,  62,  58,  54,  52,  52,  54,  55,  58,  59,
     62,  63,  63,  65,  65,  65,  66,  66,  67,  69,  70,  73,  77,  80,  82,  85,
     88,  90,  93,  95,  96,  96,  96,  96,  93,  92,  90,  85,  80,  75,  71,  67,
     63,  60,  58,  55,  52,  50,  47,  44,  43,  41,  40,  39,  36,  35,  33,  32,
     30,  28,  24,  20,  15,  11,   7,   3,   2,   2,   1,   0,   1,   2,   3,   6,
      7,  10,  11,  15,  18,  22,  24,  25,  25,  26,  26,  25,  25,  25,  25,  25,
     26,  28,  29,  30,  33,  36,  37,  39,  39,  40,  40,  40,  39,  39,  39,  37,
     37,  37,  36,  36,  36,  35,  35,  33,  33,  32,  30,  28,  25,  20,  15,  11,
     10,   9,   9,   9,   9,  11,  14,  15,  17,  17,  18,  18,  18,  18,  18,  18,
     17,  17,  17,  15,  14,  13,  11,  11,  10,  10,  10,  11,  13,  14,  17,  20,
     22,  25,  28,  30,  35,  39,  41,  45,  50,  58,  63,  69,  73,  77,  80,  82,
     84,  84,  85,  85,  84,  84,  82,  81,  80,  75,  73,  71,  71,  73,  74,  75,
     72,  74,  75,  70,  69,  61,  63,  56,  48,  40,  38,  35,  27,  29,  31,  33,
     34,  35,  36,  35,  35,  34,  32,  29,  27,  26,  25,  24,  21,  20,  19,  17,
     16,  14,  12,  11,  10,   9,   9,   9,  11,  11,  13,  14,  16,  18,  19,  19,
     20,  21,  21,  21,  22,  22,  21,  22,  19,  18,  15,  12,  12,  12,  13,  14,
     16,  22,  29,  37,  42,  45,  49,  51,  52,  55,  56,  58,  58,  59,  61,  62,
     62,  66,  66,  67,  69,  70,  70,  69,  69,  66,  65,  60,  55,  53,  51,  48,
     46,  47,  47,  47,  47,  49,  50,  48,  48,  46,  43,  35,  29,  21,  20,  14,
     12,   6,   4,   4,   4,   4,   4,   4,   6,  14,  22,  30,  40,  48,  56,  60,
     64,  66,  70,  72,  78,  80,  82,  86,  87,  93,  99, 106, 112, 117, 121, 127,
    134, 143, 150, 158, 166, 175, 182, 188, 187, 183, 182, 181, 178, 174, 167, 163,
    156, 150, 145, 139, 131, 125, 122, 118, 116, 114, 112, 112, 111, 106, 106, 103,
     97,  95,  89,  87,  83,  82,  84,  90,  95, 100, 103, 105, 107, 106, 106, 103,
     99,  95,  91,  89,  89,  88,  86,  88,  89,  91,  94,  98, 101, 104, 105, 108,
    110, 112, 116, 121, 124, 127, 128, 127, 126, 124, 121, 117, 114, 109, 102,  96,
     93,  89,  85,  82,  79,  77,  76,  75,  72,  70,  68,  65,  62,  59,  55,  51,
     47,  43,  39,  35,  32,  28,  25,  31,  38,  45,  52,  59,  66,  68,  72,  75,
], dtype=np.float64))


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


def preset_params(name: str, rng: Any = None, *, uniforms: Any = None) -> TerrainParams:
    """The :class:`TerrainParams` of a preset.

    ``rng`` or ``uniforms`` (96 recorded uniforms, see
    :func:`~relfterrain.make_profile`) draw Pieces of Eight's random profile;
    the other presets take neither.

    >>> preset_params("my_terrain").mountain_base
    450.0
    >>> p = preset_params("forest_2026")
    >>> p.profile.size, p.calc_prof, p.rock_above, p.quarry_below, p.x_below
    (512, 'js', 626.0, 77.0, 32)
    """
    info(name)
    if uniforms is not None and name != "pieces_of_eight":
        raise ValueError(f"uniforms: only the 'pieces_of_eight' preset draws a random "
                         f"profile, not {name!r}")
    if name == "forest_2026":
        ah, bh = pieces_of_eight_vectors()
        return TerrainParams(
            profile=FOREST_2026_PROFILE, ah=ah, bh=bh,
            mountain_base=626.0, snow_height=680.0, rock_above=626.0,
            quarry_below=77.0, quarry_depth=40.0, quarry_min_height=254.0,
            x_below=32, calc_prof="js", path_height="raw")
    if name == "forest":
        return TerrainParams()
    if name == "my_terrain":
        return TerrainParams(mountain_base=450.0, snow_height=700.0)
    if name == "skylands":
        return TerrainParams(lake_height=450.0)
    prof = make_profile(2048, rng, uniforms=uniforms)
    ah, bh = pieces_of_eight_vectors()
    return TerrainParams(
        profile=prof.profile, ah=ah, bh=bh,
        lake_base=prof.lake_height, lake_height=prof.lake_height,
        snow_height=prof.snow_height,
        mine_below=64, x_below=32, cone_below=24,
        town_abs=True, town_below=10.0, grass_below=20.0, open_below=20.0,
        thicket_below=-50.0,
        # SPEC 17: forestRA.js decides SNOW after the features and keeps them, and
        # its PI10000 is PI1000 * 10 (one ulp from Math.PI * 10000)
        snow_keeps_feature=True, pi10000=math.pi * 1000 * 10)


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
