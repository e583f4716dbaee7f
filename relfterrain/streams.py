"""Streams from the ponds downhill, marshes, and soaking them into the terrain (SPEC 7).

A stream starts at a pond (a WATERHOLE feature) and steps, again and again,
to the lowest point around it (an 11 x 11 neighbourhood scanned with ``dx``
outer and ``dy`` inner, the first lowest winning ties) as long as that point
is strictly lower. It ends in a **lake** (a point at or below the lake
height), in a **hollow** (no lower point: a marsh forms there), or at the
**limit** (the next step would make it longer than ``max_length``, 300 m in
the seed). Only routes of more than 10 points are streams.

Heights are terra heights (the water surface on lakes). Marking ("soaking")
streams places STREAM and MARSH entries in the terrain's placed table, so
grids and points show them; the table's STREAM and MARSH entries are ignored
when finding ponds and routes, so marking never changes a route.

>>> import relfterrain as rt
>>> t = rt.Terrain()
>>> s = t.trace_stream(23907, 5835)
>>> len(s.route), round(s.length, 2), s.end, s.marsh
(21, 119.16, 'hollow', True)
>>> [len(x.route) for x in t.streams(*rt.CLASSIC_MAP, margin=0)]
[21]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from . import _core, _shared, _validate
from ._fields import documented
from ._types import TerrainType

if TYPE_CHECKING:
    from .terrain import Terrain

__all__ = ["NEIGHBOURHOODS", "MarkResult", "Stream"]

#: The scanned neighbourhoods: ``"cross"`` (``dx != 0 and dy != 0``, 100
#: points: every surviving version of the author's code, 2018 to 2026),
#: ``"square"`` (120 points), ``"circle"`` (``dx*dx + dy*dy <= 25``, 80 points:
#: the author's 2025 description).
NEIGHBOURHOODS = ("cross", "square", "circle")
_ENDS = ("lake", "hollow", "limit")
#: Without a length cap a route also stops after this many points.
MAX_POINTS = 100_000
_COORD_LIMIT = 2**50


@documented(
    source='Where it starts: the pond, ``(x, y)``.',
    route='The points, ``(n, 2)`` int64, ``route[0] == source``.',
    length="The sum of the steps' Euclidean lengths, metres.",
    end='``"lake"``, ``"hollow"`` or ``"limit"``.',
    marsh=("Whether a marsh forms at its end: a stream (more than 10 points, SPEC 7) "
           "ending in a hollow not in a town or on a road."),
)
class Stream(NamedTuple):
    """One route from a pond (or any start point) downhill."""

    source: tuple[int, int]
    route: np.ndarray
    length: float
    end: str
    marsh: bool


@documented(
    streams='The streams marked, in order.',
    added='STREAM and MARSH entries placed (counting those placed again after a restart).',
    restarts='How often the 300,000-entry rule cleared every stream and marsh and began again.',
)
class MarkResult(NamedTuple):
    """What :meth:`Terrain.mark_streams` did."""

    streams: list[Stream]
    added: int
    restarts: int


def _options(neighbourhood: Any, max_length: Any) -> dict[str, Any]:
    if neighbourhood not in NEIGHBOURHOODS:
        raise ValueError(f"neighbourhood: must be one of {NEIGHBOURHOODS}, got {neighbourhood!r}")
    if max_length is not None:
        max_length = _validate.real(max_length, "max_length")
        if max_length < 0:
            raise ValueError(f"max_length: must be >= 0 or None, got {max_length!r}")
    return {"neighbourhood": neighbourhood, "max_length": max_length, "max_points": MAX_POINTS}


def _coord(value: Any, name: str) -> int:
    v = _validate.integer(value, name)
    if not -_COORD_LIMIT <= v <= _COORD_LIMIT:
        raise ValueError(f"{name}: must be within +-2**50, got {v}")
    return v


def _area(x0: Any, y0: Any, nx: Any, ny: Any, margin: Any,
          allow_huge: Any = False) -> tuple[int, int, int, int, int]:
    area = (_coord(x0, "x0"), _coord(y0, "y0"), _validate.integer(nx, "nx", 1),
            _validate.integer(ny, "ny", 1), _validate.integer(margin, "margin", 0))
    # the ponds are looked for at every point of the area and its margin
    _validate.work((area[2] + 2 * area[4]) * (area[3] + 2 * area[4]), _validate.MAX_SCAN_POINTS,
                   "MAX_SCAN_POINTS", "nx, ny, margin",
                   "the points scanned for ponds, (nx + 2*margin) * (ny + 2*margin),",
                   allow_huge)
    return area


def _unpack(packed: tuple) -> list[Stream]:
    sources, offsets, points, lengths, ends, marsh = packed
    return [
        Stream((int(sources[k, 0]), int(sources[k, 1])),
               _validate.readonly(points[offsets[k]:offsets[k + 1]].copy()),
               float(lengths[k]), _ENDS[ends[k]], bool(marsh[k]))
        for k in range(len(lengths))
    ]


def trace_stream(terrain: Terrain, x: int, y: int, *, neighbourhood: str = "cross",
                 max_length: float | None = 300.0) -> Stream:
    """The route from the integer point ``(x, y)``: see :meth:`Terrain.trace_stream`."""
    xi, yi = _coord(x, "x"), _coord(y, "y")
    route, length, end, marsh = _core.trace_stream(
        _shared.core(terrain), xi, yi, **_options(neighbourhood, max_length))
    return Stream((xi, yi), _validate.readonly(route), length, _ENDS[end], bool(marsh))


def streams(terrain: Terrain, x0: int, y0: int, nx: int, ny: int, *, margin: int = 300,
            neighbourhood: str = "cross", max_length: float | None = 300.0,
            threads: int | None = None, allow_huge: bool = False) -> list[Stream]:
    """Every stream of an area: see :meth:`Terrain.streams`."""
    area = _area(x0, y0, nx, ny, margin, allow_huge)
    return _unpack(_core.area_streams(
        _shared.core(terrain), *area[:4], margin=area[4], threads=_validate.threads(threads),
        **_options(neighbourhood, max_length)))


def mark_streams(terrain: Terrain, x0: int, y0: int, nx: int, ny: int, *, margin: int = 300,
                 neighbourhood: str = "cross", max_length: float | None = 300.0,
                 limit: int = 300_000, threads: int | None = None,
                 allow_huge: bool = False) -> MarkResult:
    """Soak the streams of an area into the placed table: see :meth:`Terrain.mark_streams`."""
    area = _area(x0, y0, nx, ny, margin, allow_huge)
    limit = _validate.integer(limit, "limit", 0, int64=True)
    nthreads = _validate.threads(threads)
    options = _options(neighbourhood, max_length)
    with _shared.lock(terrain):  # the marking is one step of the world state
        packed, added, restarts = _core.mark_streams(
            _shared.core(terrain), *area[:4], margin=area[4], threads=nthreads, limit=limit, **options)
    return MarkResult(_unpack(packed), added, restarts)


def clear_streams(terrain: Terrain) -> int:
    """Remove every placed STREAM and MARSH entry; returns how many were removed."""
    with _shared.lock(terrain):
        return terrain.remove_all(TerrainType.STREAM) + terrain.remove_all(TerrainType.MARSH)
