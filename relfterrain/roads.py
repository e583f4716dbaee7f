"""Roads (SPEC 13) and saved terrains: paving, removing, JSON files.

A road is a polyline of integer ground points paved as the author's code
paves it (see :meth:`relfterrain.Terrain.add_road`); roads are world state,
kept beside the placed table so that removing one restores what the table
would hold had it never been added. A terrain saves to JSON (parameters,
roads in the author's format, placed entries) and loads back bit for bit.

>>> import relfterrain as rt
>>> t = rt.Terrain()
>>> t.add_road([(23400, 5320), (23440, 5350)])
>>> len(t.roads), t.roads[0].half_width, t.terra(23420, 5335).terrain
(1, 2, <TerrainType.ROAD: 6>)
>>> t.remove_road(0)
>>> len(t.placed)
0
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from . import _core, _shared, _validate
from ._fields import documented
from ._files import atomic_write, target
from ._params import TerrainParams
from ._types import Feature, TerrainType

if TYPE_CHECKING:  # pragma: no cover
    from .terrain import Terrain

__all__ = ["BRIDGE_RULES", "FORMAT", "FORMAT_VERSION", "Road", "load"]

#: The ``"format"`` key of a saved terrain file.
FORMAT = "relfterrain.terrain"
#: The version of the file layout written (and the newest one read).
FORMAT_VERSION = 1
#: The author's road width: the 5 x 5 square around each point (w = 2).
DEFAULT_HALF_WIDTH = 2
#: The author's longest bridge, in unit steps of one segment.
DEFAULT_MAX_BRIDGE = 60
#: What :func:`load` counts as a bridged step of a bare roads list: ``"spec"``
#: (SPEC 13: terra height at most ``lake_base``), ``"lake"`` (the game's
#: reading: terra kind LAKE, water over the ground, so a step on an earlier
#: road or on dry ground exactly at ``lake_base`` is no bridge), ``"none"``
#: (no check: every road paved as saved).
BRIDGE_RULES = ("spec", "lake", "none")

_ROAD = _core.PLACED_TERRAIN | int(TerrainType.ROAD)
# where Terrain.place accepts a point (relfterrain.terrain.PLACED_LIMIT)
_PLACED_LIMIT = 2**53
_DOMAIN = int(_core.TERRAIN_DOMAIN)
# cells (x, y) as one sortable int64 key: |x|, |y| <= 2**26 + 1024 < 2**27
_OFF = 1 << 27


@documented(
    points='int64 ``(n, 2)``, read-only: the integer points ``(x, y)``, n >= 2.',
    half_width=('Half the width: the paved square around each point is ``2*half_width + 1`` '
                "metres wide (the author's road: 2)."),
)
class Road(NamedTuple):
    """One road: its polyline and half width (the paved square around each
    interpolated point is ``2*half_width + 1`` wide)."""

    points: np.ndarray
    half_width: int


class _RoadState:
    """A terrain's roads: the list, each road's cells (sorted keys) and what
    the table held beneath every road-covered cell when it was paved."""

    def __init__(self) -> None:
        self.roads: list[Road] = []
        self.cells: list[np.ndarray] = []
        self.under_keys = np.zeros(0, dtype=np.int64)   # sorted, distinct
        self.under_vals = np.zeros(0, dtype=np.uint8)   # encoded, 0: nothing

    def covered(self, skip: int | None = None) -> np.ndarray:
        """Sorted distinct keys of the cells of every road (but `skip`)."""
        parts = [c for k, c in enumerate(self.cells) if k != skip]
        return np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int64)

    @classmethod
    def copy_of(cls, other: _RoadState) -> _RoadState:
        """A copy whose lists can change apart from ``other``'s (arrays are
        never changed in place, so they are shared)."""
        st = cls()
        st.roads, st.cells = list(other.roads), list(other.cells)
        st.under_keys, st.under_vals = other.under_keys, other.under_vals
        return st


def _state(t: Terrain) -> _RoadState:
    """The road state of ``t``, made on first use.

    Readers (``t.roads``) call this without the terrain's lock, so the first
    reader and the first ``add_road`` can both find none: ``setdefault`` (one
    step under the GIL, the key a str) makes them share the one that got in
    first. Before, the reader could store its own empty state over the one the
    road had just been appended to: the road was lost, its cells stayed paved
    (about 1 run in 400 of a read racing the first road).
    """
    st = t.__dict__.get("_road_state")
    if st is None:
        st = t.__dict__.setdefault("_road_state", _RoadState())
    return st


def _keys(cells: np.ndarray) -> np.ndarray:
    return ((cells[:, 0] + _OFF) << 28) | (cells[:, 1] + _OFF)


def _lookup(table: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions of keys in the sorted table, and whether each is there."""
    pos = np.searchsorted(table, keys)
    if table.size == 0:
        return pos, np.zeros(keys.size, dtype=bool)
    pos = np.minimum(pos, table.size - 1)
    return pos, table[pos] == keys


def _cells(keys: np.ndarray) -> np.ndarray:
    out = np.empty((keys.size, 2), dtype=np.int64)
    out[:, 0] = (keys >> 28) - _OFF
    out[:, 1] = (keys & ((1 << 28) - 1)) - _OFF
    return out


# ---------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------

def road_points(points: Any, name: str = "points") -> np.ndarray:
    """A road's points as a read-only int64 ``(n, 2)`` array (n >= 2)."""
    if isinstance(points, np.ndarray):
        a = points
    else:
        try:
            a = np.array([_pair(p, name) for p in points], dtype=np.int64)
        except TypeError:
            raise TypeError(
                f"{name}: must be a sequence of integer (x, y) pairs or an (n, 2) int array, "
                f"got {points!r}") from None
    if a.ndim != 2 or a.shape[1] != 2:
        raise ValueError(f"{name}: must have shape (n, 2), got {a.shape}")
    if a.dtype.kind == "f":
        if not np.all(np.isfinite(a)) or not np.all(a == np.floor(a)):
            raise ValueError(f"{name}: coordinates must be integers")
    elif a.dtype.kind not in "iu":
        raise TypeError(f"{name}: coordinates must be integers, got dtype {a.dtype}")
    if a.shape[0] < 2:
        raise ValueError(f"{name}: a road needs at least 2 points, got {a.shape[0]}")
    if np.any(np.abs(a.astype(np.float64)) > _DOMAIN):
        raise ValueError(f"{name}: coordinates must be within +-2**26")
    out = np.array(a, dtype=np.int64)
    seg = np.abs(np.diff(out, axis=0))
    if np.any(seg > _core.MAX_ROAD_SEGMENT):
        k = int(np.flatnonzero(np.any(seg > _core.MAX_ROAD_SEGMENT, axis=1))[0])
        raise ValueError(f"{name}: segment {k} is longer than 2**25 in x or y")
    return _validate.readonly(out)


def _pair(p: Any, name: str) -> tuple[int, int]:
    try:
        x, y = p
    except (TypeError, ValueError, OverflowError):
        raise TypeError(f"{name}: each point must be a pair (x, y), got {p!r}") from None
    return _validate.integer(x, name), _validate.integer(y, name)


def _half_width(value: Any) -> int:
    w = _validate.integer(value, "half_width", 0)
    if w > _core.MAX_ROAD_HALF_WIDTH:
        raise ValueError(f"half_width: must be <= {_core.MAX_ROAD_HALF_WIDTH}, got {w}")
    return w


# ---------------------------------------------------------------------------
# Paving and removing
# ---------------------------------------------------------------------------

def add_road(t: Terrain, points: Any, *, half_width: int = DEFAULT_HALF_WIDTH,
             max_bridge: int | None = DEFAULT_MAX_BRIDGE, threads: int | None = 1) -> None:
    """Pave a road on ``t``; see :meth:`relfterrain.Terrain.add_road`."""
    pts = road_points(points)
    w = _half_width(half_width)
    mb = -1 if max_bridge is None else _validate.integer(max_bridge, "max_bridge", 0,
                                                          int64=True)
    nthreads = _validate.threads(threads)
    with _shared.lock(t):  # the road list and the paved cells change in one step
        _pave(t, Road(pts, w), mb, nthreads)


def _pave(t: Terrain, road: Road, max_bridge: int, threads: int,
          bridge_lake: bool = False) -> None:
    st = _state(t)
    cells, bridge, bad = _core.road_cells(_shared.core(t), road.points, half_width=road.half_width,
                                          max_bridge=max_bridge, threads=threads,
                                          bridge_lake=bridge_lake)
    if bad >= 0:
        a, b = road.points[bad].tolist(), road.points[bad + 1].tolist()
        water = "terra kind LAKE" if bridge_lake else \
            f"terra height <= lake_base {t.params.lake_base!r}"
        raise ValueError(
            f"points: road segment {bad} ({a[0]}, {a[1]}) -> ({b[0]}, {b[1]}) would bridge "
            f"{int(bridge[bad])} unit steps of water ({water}), more than "
            f"max_bridge={max_bridge}; nothing was paved")
    keys = _keys(cells)
    before = _core.placed_get_many(_shared.core(t), cells)
    # beneath each cell: what was there, unless the cell is already under a
    # road that still holds it (then what that road covered stays beneath)
    pos, known = _lookup(st.under_keys, keys)
    under_keys = st.under_keys.copy()
    under_vals = st.under_vals.copy()
    changed = known & (before != _ROAD)
    under_vals[pos[changed]] = before[changed]
    new = ~known
    under_keys = np.concatenate([under_keys, keys[new]])
    under_vals = np.concatenate([under_vals, before[new]])
    order = np.argsort(under_keys, kind="stable")
    _core.placed_set_many(_shared.core(t), cells, np.full(cells.shape[0], _ROAD, dtype=np.uint8))
    st.under_keys, st.under_vals = under_keys[order], under_vals[order]
    st.roads.append(road)
    st.cells.append(keys)


def remove_road(t: Terrain, index_or_road: Any) -> None:
    """Remove a road from ``t``; see :meth:`relfterrain.Terrain.remove_road`."""
    if not isinstance(index_or_road, Road):
        _index_type(index_or_road)
    with _shared.lock(t):  # the road list and the paved cells change in one step
        _remove(t, _state(t), index_or_road)


def _remove(t: Terrain, st: _RoadState, index_or_road: Any) -> None:
    i = _road_index(st, index_or_road)
    others = st.covered(skip=i)
    keys = st.cells[i]
    freed = keys[~np.isin(keys, others, assume_unique=True)]
    pos = np.searchsorted(st.under_keys, freed)
    beneath = st.under_vals[pos]
    cells = _cells(freed)
    now = _core.placed_get_many(_shared.core(t), cells)
    # a cell changed since it was paved keeps its change
    mine = now == _ROAD
    _core.placed_set_many(_shared.core(t), cells[mine], beneath[mine])
    keep = np.ones(st.under_keys.size, dtype=bool)
    keep[pos] = False
    st.under_keys, st.under_vals = st.under_keys[keep], st.under_vals[keep]
    del st.roads[i]
    del st.cells[i]


def _road_index(st: _RoadState, what: Any) -> int:
    if isinstance(what, Road):
        for k, r in enumerate(st.roads):
            if r.half_width == what.half_width and np.array_equal(r.points, what.points):
                return k
        raise ValueError(f"index_or_road: no such road on this terrain: {what!r}")
    k = _index_type(what)
    n = len(st.roads)
    if not -n <= k < n:
        raise IndexError(f"index_or_road: no road {k} (the terrain has {n})")
    return k % n


def _index_type(what: Any) -> int:
    return _validate.index(what, "index_or_road", "an int or a Road")


def roads(t: Terrain) -> tuple[Road, ...]:
    """The roads of ``t`` in the order they were added."""
    return tuple(_state(t).roads)


# ---------------------------------------------------------------------------
# World state (pickling, copies) and saving
# ---------------------------------------------------------------------------

def world_state(t: Terrain) -> dict[str, Any]:
    """The roads part of the terrain's world state, as plain arrays."""
    with _shared.lock(t):
        st = _state(t)
        return {"roads": [(np.array(r.points), r.half_width) for r in st.roads],
                "road_under": (_cells(st.under_keys), st.under_vals.copy())}


def restore_world_state(t: Terrain, state: dict[str, Any]) -> None:
    """Give ``t`` (whose placed table is already restored) the roads of ``state``."""
    st = _RoadState()
    for points, w in state.get("roads", ()):
        road = Road(road_points(points), _half_width(w))
        cells, _, _ = _core.road_cells(_shared.core(t), road.points, half_width=road.half_width,
                                       max_bridge=-1)
        st.roads.append(road)
        st.cells.append(_keys(cells))
    covered = st.covered()
    cells, vals = state.get("road_under", (np.zeros((0, 2), np.int64), np.zeros(0, np.uint8)))
    cells = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
    vals = np.asarray(vals, dtype=np.uint8)
    keys = _keys(cells)
    full = np.zeros(covered.size, dtype=np.uint8)
    pos, found = _lookup(covered, keys)
    if not np.all(found):
        raise ValueError("road_under: a cell beneath a road is not covered by any road")
    full[pos] = vals
    st.under_keys, st.under_vals = covered, full
    t.__dict__["_road_state"] = st


def _entry(x: int, y: int, code: int) -> dict[str, Any]:
    kind = code & ~_core.PLACED_CODE_MASK
    value = code & _core.PLACED_CODE_MASK
    if kind == _core.PLACED_TERRAIN:
        return {"x": x, "y": y, "terrain": TerrainType(value).name}
    return {"x": x, "y": y, "feature": Feature(value).name}


def to_document(t: Terrain) -> dict[str, Any]:
    """The JSON document :func:`save` writes (plain Python values)."""
    with _shared.lock(t):  # the table and the roads of one moment
        st = _state(t)
        xs, ys, codes = _shared.core(t).placed_items()
        st = _RoadState.copy_of(st)
        params = t.params
    return _document(params, st, xs, ys, codes)


def _document(params: TerrainParams, st: _RoadState, xs: np.ndarray, ys: np.ndarray,
              codes: np.ndarray) -> dict[str, Any]:
    order = np.lexsort((ys, xs))
    xs, ys, codes = xs[order], ys[order], codes[order]
    covered = st.covered()
    on_road = np.isin(_keys(np.stack([xs, ys], axis=1)), covered) if xs.size else \
        np.zeros(0, dtype=bool)
    by_road = on_road & (codes == _ROAD)
    placed = [_entry(x, y, c) for x, y, c in zip(xs[~by_road].tolist(), ys[~by_road].tolist(),
                                                  codes[~by_road].tolist())]
    # road cells since emptied by hand
    held = _keys(np.stack([xs, ys], axis=1)) if xs.size else np.zeros(0, np.int64)
    cleared = _cells(covered[~np.isin(covered, held)])
    beneath = st.under_vals != 0
    under = _cells(st.under_keys[beneath])
    roads_doc = []
    for r in st.roads:
        item: dict[str, Any] = {"path": [{"x": x, "y": y} for x, y in r.points.tolist()]}
        if r.half_width != DEFAULT_HALF_WIDTH:
            item["half_width"] = r.half_width
        roads_doc.append(item)
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "params": params.to_dict(),
        "roads": roads_doc,
        "placed": placed,
        "cleared": [{"x": x, "y": y} for x, y in cleared.tolist()],
        "beneath_roads": [_entry(x, y, c) for (x, y), c in
                          zip(under.tolist(), st.under_vals[beneath].tolist())],
    }


def save(t: Terrain, path: str | os.PathLike) -> None:
    """Write ``t`` to ``path`` as JSON, atomically; see :meth:`relfterrain.Terrain.save`."""
    path = target(path)
    doc = to_document(t)
    with atomic_write(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, allow_nan=False, separators=(",", ":"))
        f.write("\n")


class _Bad(Exception):
    """A problem with the file's content (turned into ValueError naming the file)."""


def _int(v: Any, what: str, limit: int = 2**62) -> int:
    """An integer of the file (a float with an integer value too) within
    ``+-limit`` (the limit of the API the value goes to)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise _Bad(f"{what}: must be an integer, got {v!r}")
    if isinstance(v, float) and not (np.isfinite(v) and v == int(v)):
        raise _Bad(f"{what}: must be an integer, got {v!r}")
    if not -limit <= v <= limit:
        raise _Bad(f"{what}: must be within +-2**{limit.bit_length() - 1}, got {v!r}")
    return int(v)


def _object(v: Any, what: str, required: Sequence[str], optional: Sequence[str] = ()) -> dict:
    if not isinstance(v, dict):
        raise _Bad(f"{what}: must be an object, got {type(v).__name__}")
    missing = [k for k in required if k not in v]
    if missing:
        raise _Bad(f"{what}: missing {', '.join(map(repr, missing))}")
    unknown = sorted(set(v) - set(required) - set(optional))
    if unknown:
        raise _Bad(f"{what}: unknown keys {', '.join(map(repr, unknown))}")
    return v


def _list(v: Any, what: str) -> list:
    if not isinstance(v, list):
        raise _Bad(f"{what}: must be a list, got {type(v).__name__}")
    return v


def _roads_from(doc: Any, what: str) -> list[tuple[np.ndarray, int]]:
    out = []
    for i, item in enumerate(_list(doc, what)):
        item = _object(item, f"{what}[{i}]", ("path",), ("half_width",))
        path = _list(item["path"], f"{what}[{i}].path")
        pts = []
        for j, p in enumerate(path):
            p = _object(p, f"{what}[{i}].path[{j}]", ("x", "y"))
            pts.append((_int(p["x"], f"{what}[{i}].path[{j}].x"),
                        _int(p["y"], f"{what}[{i}].path[{j}].y")))
        w = _int(item.get("half_width", DEFAULT_HALF_WIDTH), f"{what}[{i}].half_width")
        try:
            out.append((road_points(pts, f"{what}[{i}].path"), _half_width(w)))
        except (TypeError, ValueError, OverflowError) as e:
            raise _Bad(str(e)) from None
    return out


def _entries(doc: Any, what: str) -> tuple[np.ndarray, np.ndarray]:
    cells, codes = [], []
    for i, e in enumerate(_list(doc, what)):
        if isinstance(e, dict) and "feature" in e:
            e = _object(e, f"{what}[{i}]", ("x", "y", "feature"))
            names: dict[str, int] = {m.name: int(m) for m in Feature}
            kind, key = _core.PLACED_FEATURE, "feature"
        else:
            e = _object(e, f"{what}[{i}]", ("x", "y", "terrain"))
            names = {m.name: int(m) for m in TerrainType}
            kind, key = _core.PLACED_TERRAIN, "terrain"
        name = e[key]
        if not isinstance(name, str) or name not in names:
            raise _Bad(f"{what}[{i}].{key}: not a {key} name: {name!r}")
        cells.append((_int(e["x"], f"{what}[{i}].x", _PLACED_LIMIT),
                      _int(e["y"], f"{what}[{i}].y", _PLACED_LIMIT)))
        codes.append(kind | names[name])
    return (np.array(cells, dtype=np.int64).reshape(-1, 2), np.array(codes, dtype=np.uint8))


def from_document(doc: Any, *, simd: str | None = None) -> Terrain:
    """The terrain of a document :func:`to_document` made (a saved world, decoded).

    ValueError names what is wrong in it (as :func:`load` does for a file).
    """
    try:
        return _from_document(doc, simd)
    except _Bad as e:
        raise ValueError(f"the world document: {e}") from None


def _from_document(doc: Any, simd: str | None, params: TerrainParams | None = None,
                   bridge: str = "spec") -> Terrain:
    Terrain = _shared.terrain_class()  # noqa: N806 (the class)

    if isinstance(doc, list):   # the author's "MyRoads": those roads on the given world
        t = Terrain(params, simd=simd)
        mb = -1 if bridge == "none" else DEFAULT_MAX_BRIDGE
        for i, (pts, w) in enumerate(_roads_from(doc, "roads")):
            try:
                _pave(t, Road(pts, w), mb, 1, bridge == "lake")
            except ValueError as e:
                raise _Bad(f"road {i}: {e}") from None
            except MemoryError as e:
                raise MemoryError(f"road {i}: {e}") from None
        return t
    if params is not None or bridge != "spec":
        raise _Bad("params, bridge: only for a bare roads list (a saved terrain file holds "
                   "its own parameters and its roads as they were paved)")
    doc = _object(doc, "the file", ("format", "version"),
                  ("params", "roads", "placed", "cleared", "beneath_roads"))
    if doc["format"] != FORMAT:
        raise _Bad(f"not a relfterrain terrain file (format {doc['format']!r})")
    version = doc["version"]
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise _Bad(f"version: must be a positive integer, got {version!r}")
    if version > FORMAT_VERSION:
        raise _Bad(f"version {version} was written by a newer relfterrain "
                   f"(this one reads version {FORMAT_VERSION})")
    try:
        params = TerrainParams.from_dict(doc.get("params", {}))
    except (TypeError, ValueError, OverflowError) as e:
        raise _Bad(f"params: {e}") from None
    road_list = _roads_from(doc.get("roads", []), "roads")
    cells, codes = _entries(doc.get("placed", []), "placed")
    cleared = [(_int(_object(c, f"cleared[{i}]", ("x", "y"))["x"], f"cleared[{i}].x",
                     _PLACED_LIMIT),
                _int(c["y"], f"cleared[{i}].y", _PLACED_LIMIT))
               for i, c in enumerate(_list(doc.get("cleared", []), "cleared"))]
    under_cells, under_codes = _entries(doc.get("beneath_roads", []), "beneath_roads")
    t = Terrain(params, simd=simd)
    _core.placed_set_many(_shared.core(t), cells, codes)
    try:
        restore_world_state(t, {"roads": road_list, "road_under": (under_cells, under_codes)})
    except ValueError as e:
        raise _Bad(str(e)) from None
    # road cells: ROAD unless an entry says otherwise or the cell was emptied
    st = _state(t)
    road_cells = st.under_keys
    given = np.union1d(_keys(cells), _keys(np.array(cleared, dtype=np.int64).reshape(-1, 2)))
    pave = road_cells[~np.isin(road_cells, given)]
    _core.placed_set_many(_shared.core(t), _cells(pave), np.full(pave.size, _ROAD, dtype=np.uint8))
    return t


#: The deepest nesting of arrays and objects a terrain file may have (the
#: format needs 4: the document, "roads", a road, its "path" and a point).
MAX_DEPTH = 16
#: The most digits a number of a terrain file may have (an int64 has 19).
MAX_DIGITS = 40
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')


class _Huge:
    """A number of a file with more than MAX_DIGITS digits (refused where it is used)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"a number of {len(self.text)} characters ({self.text[:12]}...)"


def _number(text: str, kind: type) -> Any:
    if len(text) > MAX_DIGITS:
        return _Huge(text)
    return kind(text)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _Bad(f"the key {k!r} appears twice in one object (which one holds?)")
        out[k] = v
    return out


def _constant(name: str) -> Any:
    raise _Bad(f"{name} is not a number JSON allows (nor a terrain file)")


def _parse(text: str) -> Any:
    """JSON with the limits of the format: nesting at most MAX_DEPTH deep,
    numbers of at most MAX_DIGITS characters, no NaN/Infinity, no key twice
    in an object (each a _Bad naming what)."""
    brackets = np.frombuffer(_STRINGS.sub('""', text).encode("utf-8"), dtype=np.uint8)
    step = (np.isin(brackets, (ord("["), ord("{"))).astype(np.int32)
            - np.isin(brackets, (ord("]"), ord("}"))).astype(np.int32))
    depth = int(np.cumsum(step).max()) if step.size else 0
    if depth > MAX_DEPTH:
        raise _Bad(f"arrays and objects nested {depth} deep (a terrain file needs at most "
                   f"{MAX_DEPTH})")
    return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_constant,
                      parse_int=lambda s: _number(s, int),
                      parse_float=lambda s: _number(s, float))


def load(path: str | os.PathLike, *, simd: str | None = None, params: Any = None,
         bridge: str = "spec") -> Terrain:
    """Read a terrain written by :meth:`relfterrain.Terrain.save`, or the
    author's bare roads list ("MyRoads": those roads paved, in order).

    For a bare roads list, ``params`` is the world the roads were drawn in: a
    :class:`~relfterrain.TerrainParams`, a preset name (the game as it runs
    today saves roads of ``"forest_2026"``), or None (the classic world); and
    ``bridge`` the check each road passes before it is paved (see
    :data:`BRIDGE_RULES`): ``"spec"`` (SPEC 13: no segment bridges more than
    60 unit steps of terra height at most ``lake_base``), ``"lake"`` (only
    steps on LAKE count: the game's reading) or ``"none"``. A road that fails
    is refused with a ValueError naming the file, the road and the segment.

    Raises ValueError naming the file and what is wrong for a corrupt,
    truncated or foreign file (OSError when it cannot be read), and
    MemoryError naming the file and the road when paving a road of the file
    would need more memory than the machine has; nothing else is changed.

    >>> import os, tempfile, relfterrain as rt
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "roads.json")
    >>> with open(path, "w") as f:
    ...     _ = f.write('[{"path": [{"x": 23400, "y": 5320}, {"x": 23440, "y": 5320}]}]')
    >>> rt.load(path).roads[0].points.tolist()
    [[23400, 5320], [23440, 5320]]
    """
    if not isinstance(bridge, str) or bridge not in BRIDGE_RULES:
        raise ValueError(f"bridge: must be one of {', '.join(map(repr, BRIDGE_RULES))}, "
                         f"got {bridge!r}")
    if isinstance(params, str):
        from .presets import preset_params

        params = preset_params(params)
    elif params is not None and not isinstance(params, TerrainParams):
        raise TypeError(f"params: must be a relfterrain.TerrainParams, a preset name or "
                        f"None, got {params!r}")
    path = _validate.path(path)
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: not a relfterrain terrain file (not UTF-8 text: {e})") from None
    try:
        doc = _parse(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not valid JSON (corrupt or truncated?): {e}") from None
    except _Bad as e:
        raise ValueError(f"{path}: {e}") from None
    try:
        return _from_document(doc, simd, params, bridge)
    except _Bad as e:
        raise ValueError(f"{path}: {e}") from None
    except MemoryError as e:  # a road too long to pave on this machine
        raise MemoryError(f"{path}: {e}") from None
