"""Generator parameters as immutable values.

A generator is its *parameters* (an immutable, hashable value: profile,
vectors, thresholds, levels) plus, for the terrain, its *world state* (the
placed table, and later roads and marked streams). Parameters compare by
value, hash, pickle, give a :meth:`~Params.fingerprint` that is stable across
processes and platforms (for caches in pipelines), and make changed copies
with :meth:`~Params.replace`.

>>> p = TerrainParams()
>>> q = p.replace(lake_height=230)
>>> q.lake_height, p == q, p == TerrainParams()
(230.0, False, True)
>>> len(p.fingerprint())
64
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from . import _core, _validate
from ._seed import CLASSIC_PROFILE, CLASSIC_VECTORS, VECTOR_NAMES

__all__ = ["GalaxyParams", "Params", "TerrainParams"]

_GALAXY_DEFAULTS = {"s": CLASSIC_VECTORS["a1"], "t": CLASSIC_VECTORS["b1"],
                    "u": CLASSIC_VECTORS["b2"]}


def _profile(value: Any) -> np.ndarray:
    p = _validate.profile(value, CLASSIC_PROFILE)
    if p is CLASSIC_PROFILE:
        return p
    return _validate.readonly(np.array(p, dtype=np.float64))


def _vectors(given: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    vecs = {name: tuple(int(c) for c in _validate.vector(v, name)) for name, v in given.items()}
    lengths = {name: len(v) for name, v in vecs.items()}
    if len(set(lengths.values())) != 1:
        listed = ", ".join(f"{k}={n}" for k, n in lengths.items())
        raise ValueError(
            f"{', '.join(vecs)}: vectors must all have one common length, got {listed}"
        )
    return vecs


def _time_vector(value: Any, n: int) -> tuple[float, ...] | None:
    """None (static), True (1 for every direction) or n finite reals, |T| <= 2**20."""
    if value is None:
        return None
    if value is True:
        return (1.0,) * n
    if isinstance(value, (bool, str)):
        raise TypeError(f"time_vector: must be None, True or a sequence of numbers, got {value!r}")
    try:
        a = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise TypeError(
            f"time_vector: must be None, True or a sequence of numbers, got {value!r}") from None
    if a.ndim != 1 or a.size != n:
        raise ValueError(f"time_vector: must have {n} components (one per direction), "
                         f"got shape {a.shape}")
    if not np.all(np.isfinite(a)) or np.any(np.abs(a) > _core.MAX_VECTOR):
        raise ValueError(f"time_vector: components must be finite with |T| <= 2**20, "
                         f"got {value!r}")
    return tuple(float(v) for v in a)


def _canonical(value: Any) -> Any:
    """A JSON-able form that keeps every bit (floats as hex)."""
    if isinstance(value, np.ndarray):
        return [float(v).hex() for v in value.tolist()]
    if isinstance(value, float):
        return value.hex()
    if isinstance(value, tuple):
        return [_canonical(v) for v in value]
    return value


@dataclass(frozen=True, eq=False, repr=False)
class Params:
    """Base of the parameter values: equality, hash, fingerprint, replace."""

    _kind: ClassVar[str] = "params"
    #: Fields added later, left out of the fingerprint at their defaults (so
    #: the fingerprints of earlier parameter sets stay what they were).
    _LATER: ClassVar[tuple[str, ...]] = ()

    def _key(self) -> tuple:
        # arrays by their bytes, so the key is hashable and exact
        return tuple(
            (f.name, v.tobytes() if isinstance(v := getattr(self, f.name), np.ndarray) else v)
            for f in dataclasses.fields(self)
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))

    def __repr__(self) -> str:
        parts = [f"{k}=<{v.size} values>" if isinstance(v, np.ndarray) else f"{k}={v!r}"
                 for k, v in self.changed().items()]
        return f"{type(self).__name__}({', '.join(parts)})"

    def replace(self, **changes: Any) -> Any:
        """A copy with the named fields changed (checked as in the constructor)."""
        names = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise TypeError(f"{', '.join(unknown)}: not a parameter of {type(self).__name__}")
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The parameters as plain Python values (lists, floats, ints, bools, None).

        Fields added after 0.1.0 appear only when they differ from their
        defaults, so that a file saved with them at their defaults (every
        classic world) stays readable by 0.1.0; :meth:`from_dict` fills them in.
        """
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.name in self._LATER and v == f.default:
                continue
            out[f.name] = v.tolist() if isinstance(v, np.ndarray) else (
                list(v) if isinstance(v, tuple) else v)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Any:
        """The inverse of :meth:`to_dict` (unknown keys are an error)."""
        if not isinstance(data, dict):
            raise TypeError(f"parameters: must be a dict, got {type(data).__name__}")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ValueError(f"{', '.join(unknown)}: not a parameter of {cls.__name__}")
        return cls(**data)

    def fingerprint(self) -> str:
        """A SHA-256 hex digest of the parameters, the same in every process and
        on every platform: equal parameters, equal fingerprints."""
        doc = {f.name: _canonical(getattr(self, f.name)) for f in dataclasses.fields(self)
               if not (f.name in self._LATER and getattr(self, f.name) == f.default)}
        text = json.dumps([self._kind, 1, doc], sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def changed(self) -> dict[str, Any]:
        """The fields that differ from the defaults (for repr and summaries)."""
        default = type(self)()
        out = {}
        for f in dataclasses.fields(self):
            a, b = getattr(self, f.name), getattr(default, f.name)
            same = np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b
            if not same:
                out[f.name] = a
        return out


def _set(obj: Any, name: str, value: Any) -> None:
    object.__setattr__(obj, name, value)


@dataclass(frozen=True, eq=False, repr=False)
class TerrainParams(Params):
    """Everything that defines a terrain (SPEC 3-5, 13); defaults: The Forest, 1983.

    Parameters
    ----------
    profile : array-like of float
        The periodic profile; length a power of two (1 .. 2**24), finite.
    ah, bh, a1, b1, a2, b2, a3, b3 : sequence of int
        Direction vectors (``ah, bh`` height; ``a1, b1`` towns; ``a2 .. b3``
        vegetation; ``b2, a3`` swapped for point features), one common
        length N (1 .. 64), integers with ``|v| <= 2**20``.
    lake_base : float
        The dry-weather lake level (204); ground below it but above the lake
        is MUD.
    lake_height : float, optional
        The current lake level (default ``lake_base``).
    feature_mask : int
        Mask of the point-feature test (``0xfff``).
    feature_point, feature_x, feature_cone : int
        The masked values ``f`` that give the point group (4), a man-made
        X (8) and a CONE (16).
    mine_below, boulder_below, waterhole_below, knoll_below : int
        Within the point group, by ``xyff = xr*yr & 0xff``: MINE below 32,
        BOULDER below 128, WATERHOLE below 160, KNOLL below 200, else ROOT.
    x_below, cone_below : int
        X where ``round(PI1000*xr*yr) & 0xff < 4``; CONE where
        ``round(PI10000*xr*yr) & 0xff < 8``.
    town_below, grass_below, open_below, thicket_below : float
        Vegetation: TOWN below 120; else GRASS (``a < 255``, ``b < 255``),
        MOOR (``a < 255``), THICKET (``b < 200``) or WOOD.
    time_vector : sequence of float, True or None
        Terrain evolving in time (SPEC 14): ``height(x, y, t)`` adds
        ``T[i]*t`` to each direction's ``AH[i]*x + BH[i]*y``. None (default):
        static; True: 1 for every direction (the SPEC's default); else N
        finite values with ``|T| <= 2**20`` (small values evolve slowly).
    town_abs : bool
        The town test on ``|calcProf(A1, x, B1, y)|`` (Pieces of Eight, whose
        random profile is balanced around zero; SPEC 16).
    with_paths : bool
        Paths where the ground nearly equals the ground ``(path_dx, path_dy)``
        away: ``|ht - height(x + path_dx, y + path_dy)| < path_tolerance``
        (4000, 2000, 2).
    mountain_base : float, optional
        Heights above it become ``base + dz * sqrt(dz)``.
    snow_height : float, optional
        Ground above it is SNOW.
    wood_only : bool
        All dry ground WOOD (features kept).
    bleak : bool
        Heights only: every point GRASS, no lakes, no features.
    calc_prof : {"java", "js"}
        How calcProf (terrain kinds) turns ``v = A[i]*x + B[i]*y`` into a
        profile index (SPEC 17): ``"java"`` (default) ``floor(floor(v) / 128)``
        as the Java reference; ``"js"`` the JavaScript's ``toint32(v) >> 7``.
        They differ only where ``v`` is negative and not an integer.
    rock_above : float, optional
        Dry ground above it is MUD (bare rock), point features kept, towns
        overridden (terrain00.js, 2026: 626).
    quarry_below : float, optional
        MOOR with ``calcProf(A2, B2) < quarry_below`` and height above
        ``quarry_min_height`` is QUARRY, ``quarry_depth`` lower, no feature
        (terrain00.js: 77).
    quarry_depth : float
        How deep a quarry is dug (40).
    quarry_min_height : float, optional
        Quarries only above this height (default ``lake_base + 50``).
    path_height : {"terra", "raw"}
        The path test compares with the mountain-transformed height ``"terra"``
        (default) or with the raw calcHeight ``"raw"`` (terrain00.js).
    snow_keeps_feature : bool
        SNOW decided after the point features, keeping them (Pieces of Eight).
    pi10000 : float
        The ``PI10000`` of the CONE test, the tree selector and the mines'
        open test (``math.pi * 10000``; Pieces of Eight: ``math.pi * 1000 * 10``,
        one ulp away).
    """

    _kind: ClassVar[str] = "relfterrain.TerrainParams"
    _LATER: ClassVar[tuple[str, ...]] = (
        "calc_prof", "rock_above", "quarry_below", "quarry_depth", "quarry_min_height",
        "path_height", "snow_keeps_feature", "pi10000")

    profile: Any = field(default_factory=lambda: CLASSIC_PROFILE)
    ah: Any = CLASSIC_VECTORS["ah"]
    bh: Any = CLASSIC_VECTORS["bh"]
    a1: Any = CLASSIC_VECTORS["a1"]
    b1: Any = CLASSIC_VECTORS["b1"]
    a2: Any = CLASSIC_VECTORS["a2"]
    b2: Any = CLASSIC_VECTORS["b2"]
    a3: Any = CLASSIC_VECTORS["a3"]
    b3: Any = CLASSIC_VECTORS["b3"]
    lake_base: float = 204.0
    lake_height: float | None = None
    feature_mask: int = 0xFFF
    feature_point: int = 4
    feature_x: int = 8
    feature_cone: int = 16
    mine_below: int = 32
    boulder_below: int = 128
    waterhole_below: int = 160
    knoll_below: int = 200
    x_below: int = 4
    cone_below: int = 8
    town_below: float = 120.0
    grass_below: float = 255.0
    open_below: float = 255.0
    thicket_below: float = 200.0
    with_paths: bool = False
    path_dx: float = 4000.0
    path_dy: float = 2000.0
    path_tolerance: float = 2.0
    mountain_base: float | None = None
    snow_height: float | None = None
    wood_only: bool = False
    bleak: bool = False
    town_abs: bool = False
    time_vector: Any = None
    calc_prof: str = "java"
    rock_above: float | None = None
    quarry_below: float | None = None
    quarry_depth: float = 40.0
    quarry_min_height: float | None = None
    path_height: str = "terra"
    snow_keeps_feature: bool = False
    pi10000: float = math.pi * 10000

    _UINT32: ClassVar[tuple[str, ...]] = (
        "feature_mask", "feature_point", "feature_x", "feature_cone", "mine_below",
        "boulder_below", "waterhole_below", "knoll_below", "x_below", "cone_below")
    _REAL: ClassVar[tuple[str, ...]] = (
        "lake_base", "town_below", "grass_below", "open_below", "thicket_below", "path_dx",
        "path_dy", "path_tolerance", "quarry_depth", "pi10000")
    _FLAGS: ClassVar[tuple[str, ...]] = ("with_paths", "wood_only", "bleak", "town_abs",
                                         "snow_keeps_feature")
    _CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"calc_prof": ("java", "js"),
                                                      "path_height": ("terra", "raw")}

    def __post_init__(self) -> None:
        _set(self, "profile", _profile(self.profile))
        for name, vec in _vectors({n: getattr(self, n) for n in VECTOR_NAMES}).items():
            _set(self, name, vec)
        for name in self._REAL:
            _set(self, name, _validate.real(getattr(self, name), name))
        lake = self.lake_base if self.lake_height is None else self.lake_height
        _set(self, "lake_height", _validate.real(lake, "lake_height"))
        for name in ("mountain_base", "snow_height", "rock_above", "quarry_below",
                     "quarry_min_height"):
            if getattr(self, name) is not None:
                _set(self, name, _validate.real(getattr(self, name), name))
        for name in self._UINT32:
            _set(self, name, _validate.uint32(getattr(self, name), name))
        for name in self._FLAGS:
            _set(self, name, _validate.flag(getattr(self, name), name))
        _set(self, "time_vector", _time_vector(self.time_vector, len(self.ah)))
        for name, allowed in self._CHOICES.items():
            v = getattr(self, name)
            if not isinstance(v, str) or v not in allowed:
                raise ValueError(f"{name}: must be one of {', '.join(map(repr, allowed))}, "
                                 f"got {v!r}")

    @property
    def directions(self) -> int:
        """N, the number of directions summed."""
        return len(self.ah)

    def core_args(self) -> tuple[tuple, dict[str, Any]]:
        """The arguments of ``relfterrain._core.TerrainCore``."""
        vectors = np.array([getattr(self, n) for n in VECTOR_NAMES], dtype=np.int64)
        options = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                   if f.name not in ("profile", "time_vector") and f.name not in VECTOR_NAMES}
        # SPEC 17: the core takes flags and a resolved floor height
        options["calc_prof_js"] = options.pop("calc_prof") == "js"
        options["path_raw"] = options.pop("path_height") == "raw"
        if options["quarry_min_height"] is None:
            options["quarry_min_height"] = self.lake_base + 50.0
        return (self.profile, vectors), options


@dataclass(frozen=True, eq=False, repr=False)
class GalaxyParams(Params):
    """Everything that defines a galaxy (SPEC 9); defaults: the seed's.

    Parameters
    ----------
    profile : array-like of float
        The periodic profile (default: the classic one).
    s, t, u : sequence of int
        The x, y and z factors of the directions (defaults: the terrain's
        ``a1``, ``b1``, ``b2``), one common length N (1 .. 64).
    min_magnitude, magnitude_range : float
        The seed's ``MIN_MAGNITUDE`` (1.0) and ``MAGNITUDE_RANGE`` (5.0).
    f_mask, f_value : int
        The star test ``f & f_mask == f_value`` (``0xffff``, 127).
    """

    _kind: ClassVar[str] = "relfterrain.GalaxyParams"

    profile: Any = field(default_factory=lambda: CLASSIC_PROFILE)
    s: Any = _GALAXY_DEFAULTS["s"]
    t: Any = _GALAXY_DEFAULTS["t"]
    u: Any = _GALAXY_DEFAULTS["u"]
    min_magnitude: float = 1.0
    magnitude_range: float = 5.0
    f_mask: int = 0xFFFF
    f_value: int = 127

    def __post_init__(self) -> None:
        _set(self, "profile", _profile(self.profile))
        for name, vec in _vectors({n: getattr(self, n) for n in "stu"}).items():
            _set(self, name, vec)
        for name in ("min_magnitude", "magnitude_range"):
            _set(self, name, _validate.real(getattr(self, name), name))
        _set(self, "f_mask", _validate.uint32(self.f_mask, "f_mask"))
        fv = _validate.integer(self.f_value, "f_value")
        if fv < 0 or fv & ~self.f_mask:
            raise ValueError(f"f_value: {fv} has bits outside f_mask {self.f_mask:#x}")
        _set(self, "f_value", fv)

    @property
    def directions(self) -> int:
        """N, the number of directions summed."""
        return len(self.s)
