"""Provenance: which terrain, parameters, version and window made a file.

Every Dataset, GeoTIFF, NetCDF, zarr store and PNG map that relfterrain
writes carries the same string attributes (:func:`provenance`):

``relfterrain_version``
    The package version that wrote it.
``relfterrain_params`` / ``relfterrain_fingerprint``
    :meth:`TerrainParams.to_dict` as JSON, and :meth:`TerrainParams.fingerprint`.
``relfterrain_placed`` / ``relfterrain_placed_fingerprint``
    The number of placed-table entries and a SHA-256 of the table (its
    entries sorted by ``(x, y)``): equal tables, equal fingerprints.
``relfterrain_world``
    The whole world as :meth:`Terrain.save` writes it (parameters, roads,
    placed table), as JSON, when it is at most :data:`WORLD_LIMIT` bytes
    (otherwise absent: give the saved world to :func:`from_provenance`).
``relfterrain_window`` / ``relfterrain_step``
    ``[x0, y0, nx, ny]`` of the grid (SPEC 1: ``x0, y0`` is its south-west
    sample point) as JSON, and the step in metres.

:func:`from_provenance` (also :meth:`Terrain.from_provenance`) reads them
back and rebuilds the very terrain and window: ``t.dataset(*window)`` gives
the same bits.

>>> import relfterrain as rt
>>> t = rt.Terrain()
>>> t.place(23400, 5320, rt.TerrainType.ROAD)
>>> attrs = provenance(t, 23396, 5318, 40, 30, 1.0)
>>> attrs["relfterrain_window"], attrs["relfterrain_placed"]
('[23396.0, 5318.0, 40, 30]', '1')
>>> t2, window = from_provenance(attrs)
>>> t2 == t, window
(True, Window(x0=23396.0, y0=5318.0, nx=40, ny=30, step=1.0))
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from ._fields import documented

__all__ = ["WORLD_LIMIT", "Window", "from_provenance", "placed_fingerprint", "provenance"]

#: The largest world document (bytes of JSON) embedded in ``relfterrain_world``.
WORLD_LIMIT = 1 << 20

_PREFIX = "relfterrain_"


@documented(
    x0="West edge, metres.",
    y0="South edge, metres.",
    nx="Columns.",
    ny="Rows.",
    step="Grid spacing, metres.",
)
class Window(NamedTuple):
    """A grid window: ``t.dataset(*window)``, ``t.grid(*window)``."""

    x0: float
    y0: float
    nx: int
    ny: int
    step: float


def placed_fingerprint(terrain: Any) -> str:
    """SHA-256 (hex) of the placed table, entries sorted by ``(x, y)``.

    >>> import relfterrain as rt
    >>> placed_fingerprint(rt.Terrain()) == placed_fingerprint(rt.Terrain(lake_height=1))
    True
    """
    from . import _shared

    xs, ys, codes = _shared.core(terrain).placed_items()
    xs, ys, codes = np.asarray(xs, np.int64), np.asarray(ys, np.int64), np.asarray(codes, np.uint8)
    order = np.lexsort((ys, xs))
    h = hashlib.sha256(b"relfterrain placed table v1\0")
    h.update(np.ascontiguousarray(xs[order]).astype("<i8").tobytes())
    h.update(np.ascontiguousarray(ys[order]).astype("<i8").tobytes())
    h.update(np.ascontiguousarray(codes[order]).tobytes())
    return h.hexdigest()


def provenance(terrain: Any, x0: float, y0: float, nx: int, ny: int, step: float
               ) -> dict[str, str]:
    """The provenance attributes (all strings) of a grid of ``terrain``."""
    from ._version import __version__
    from .roads import to_document

    attrs = {
        "relfterrain_version": __version__,
        "relfterrain_params": json.dumps(terrain.params.to_dict(), sort_keys=True),
        "relfterrain_fingerprint": terrain.params.fingerprint(),
        "relfterrain_placed": str(len(terrain.placed)),
        "relfterrain_placed_fingerprint": placed_fingerprint(terrain),
        "relfterrain_window": json.dumps([float(x0), float(y0), int(nx), int(ny)]),
        "relfterrain_step": repr(float(step)),
    }
    world = json.dumps(to_document(terrain), separators=(",", ":"), allow_nan=False)
    if len(world) <= WORLD_LIMIT:
        attrs["relfterrain_world"] = world
    return attrs


def _text(attrs: Mapping[str, Any], key: str) -> str:
    try:
        v = attrs[key]
    except KeyError:
        raise ValueError(f"attrs: no {key!r} (not written by relfterrain, or stripped)") from None
    if isinstance(v, bytes):
        v = v.decode("utf-8")
    if isinstance(v, (float, int, np.floating, np.integer)) and key == "relfterrain_step":
        return repr(float(v))
    if not isinstance(v, str):
        raise ValueError(f"attrs: {key!r} must be a string, got {v!r:.80}")
    return v


def from_provenance(attrs: Mapping[str, Any], *, world: Any = None,
                    simd: str | None = None) -> tuple[Any, Window]:
    """The terrain and the window that made a file: ``(terrain, Window)``.

    Parameters
    ----------
    attrs : mapping
        A Dataset's ``attrs``, a GeoTIFF's tags (``rasterio``'s
        ``dataset.tags()``), a PNG's text chunks (``PIL.Image.open(p).text``)
        or a zarr/NetCDF store's attributes.
    world : Terrain or path, optional
        The world, when the file does not embed it (a placed table larger
        than :data:`WORLD_LIMIT`): a :class:`Terrain` or a file
        :meth:`Terrain.save` wrote. Its parameters and placed table must
        match the fingerprints of ``attrs``.
    simd : str, optional
        The SIMD variant of the rebuilt terrain (the bits are the same).

    Raises ValueError naming what does not match (another version's
    parameters that this one cannot read, a world whose fingerprints
    differ) and what is missing.
    """
    from . import _shared
    from .roads import from_document

    Terrain = _shared.terrain_class()  # noqa: N806 (the class)

    if not isinstance(attrs, Mapping):
        raise TypeError(f"attrs: must be a mapping of a file's attributes, got {attrs!r:.80}")
    window_text = _text(attrs, "relfterrain_window")
    try:
        x0, y0, nx, ny = json.loads(window_text)
        step = float(_text(attrs, "relfterrain_step"))
        window = Window(float(x0), float(y0), int(nx), int(ny), step)
    except (TypeError, ValueError) as e:
        raise ValueError(f"attrs: relfterrain_window/relfterrain_step unreadable ({e})") from None
    fingerprint = _text(attrs, "relfterrain_fingerprint")
    placed_fp = _text(attrs, "relfterrain_placed_fingerprint")
    if world is None and "relfterrain_world" in attrs:
        try:
            t = from_document(json.loads(_text(attrs, "relfterrain_world")), simd=simd)
        except (ValueError, TypeError) as e:
            raise ValueError(f"attrs: relfterrain_world: {e}") from None
    elif world is None:
        from ._params import TerrainParams

        try:
            params = TerrainParams.from_dict(json.loads(_text(attrs, "relfterrain_params")))
        except (TypeError, ValueError) as e:
            raise ValueError(f"attrs: relfterrain_params: {e}") from None
        t = Terrain(params, simd=simd)
    elif isinstance(world, Terrain):
        t = world.copy()
    else:
        t = Terrain.load(world, simd=simd)
    if t.params.fingerprint() != fingerprint:
        raise ValueError(f"world: its parameters' fingerprint {t.params.fingerprint()} is not "
                         f"the file's relfterrain_fingerprint {fingerprint}")
    if placed_fingerprint(t) != placed_fp:
        raise ValueError("world: its placed table differs from the one that made the file "
                         "(relfterrain_placed_fingerprint); pass world= the saved world"
                         if world is None else
                         "world: its placed table's fingerprint is not the file's "
                         "relfterrain_placed_fingerprint")
    return t, window
