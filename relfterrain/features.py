"""Point features as a table, buildings and trees as grids (SPEC 5).

Point features sit at integer points (the seed computes them at the rounded
point), so :func:`features` lists each one once, whatever grid step a map
is drawn at. Buildings are 12 m squares around their centres; trees are one
of four images chosen at each rounded point.

>>> import relfterrain as rt
>>> t = rt.Terrain()
>>> ft = t.features(*rt.CLASSIC_MAP)
>>> len(ft.x), ft.code.dtype
(90, dtype('<U2'))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from . import _core, _shared, _validate
from ._fields import documented
from ._types import Feature

if TYPE_CHECKING:  # pragma: no cover
    from .terrain import Terrain

__all__ = ["BUILDING_HALF_SIDE", "FeatureTable", "building_grid", "features", "tree_grid"]

#: Half the side of a building's square: the point (x, y) is inside the
#: building centred on (bx, by) iff ``|x - bx| <= 6`` and ``|y - by| <= 6``.
BUILDING_HALF_SIDE = 6.0
_SPACING = 16  # building centres are multiples of 16
_LETTERS = np.array(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
_CODED = np.array([Feature(k).has_code for k in range(len(Feature))])
# rows of a chunk: about 4 M points at once
_CHUNK_POINTS = 1 << 22


@documented(
    x='int64 x of each feature.',
    y='int64 y.',
    feature='uint8 :class:`~relfterrain.Feature` codes.',
    code='The two-letter orienteering codes (``"<U2"``; ``""`` for features without one).',
)
class FeatureTable(NamedTuple):
    """Point features of an area, one row each, ordered by (y, x)."""

    x: np.ndarray
    y: np.ndarray
    feature: np.ndarray
    code: np.ndarray


def _integer_area(x0: Any, y0: Any, nx: Any, ny: Any) -> tuple[int, int, int, int]:
    x0 = _validate.integer(x0, "x0")
    y0 = _validate.integer(y0, "y0")
    nx = _validate.integer(nx, "nx", 1)
    ny = _validate.integer(ny, "ny", 1)
    for name, o, n in (("x0", x0, nx), ("y0", y0, ny)):
        if abs(o) > 2**53 or abs(o + n) > 2**53:
            raise ValueError(f"{name}: the area must stay within +-2**53, got {o} + {n}")
    return x0, y0, nx, ny


def features(t: Terrain, x0: int, y0: int, nx: int, ny: int, *,
             threads: int | None = None, allow_huge: bool = False) -> FeatureTable:
    """Every point feature at the integer points of an area; see :meth:`Terrain.features`."""
    x0, y0, nx, ny = _integer_area(x0, y0, nx, ny)
    _validate.work(nx * ny, _validate.MAX_SCAN_POINTS, "MAX_SCAN_POINTS", "nx, ny",
                   "the points scanned, nx * ny,", allow_huge)
    threads = _validate.threads(threads)
    rows = max(1, _CHUNK_POINTS // nx)
    xs, ys, fs = [], [], []
    for r in range(0, ny, rows):
        n = min(rows, ny - r)
        f = _shared.core(t).terra_grid(float(x0), float(y0), nx, n, 1.0, c0=0, r0=r,
                               outputs=(None, None, None, True), threads=threads)[3]
        rr, cc = np.nonzero(f)
        xs.append(cc.astype(np.int64) + x0)
        ys.append(rr.astype(np.int64) + (y0 + r))
        fs.append(f[rr, cc])
    x = np.concatenate(xs)
    y = np.concatenate(ys)
    feature = np.concatenate(fs).astype(np.uint8)
    code = np.char.add(_LETTERS[np.abs(x) % 26], _LETTERS[np.abs(y) % 26]).astype("<U2")
    code[~_CODED[feature]] = ""
    return FeatureTable(x, y, feature, code)


def _axis(o: float, first: int, n: int, step: float) -> np.ndarray:
    # exactly the core's o + (double)(first + c) * step
    return o + np.arange(first, first + n, dtype=np.int64).astype(np.float64) * step


def building_grid(t: Terrain, x0: float, y0: float, nx: int, ny: int, step: float = 1.0, *,
                  offset: tuple[int, int] = (0, 0)) -> np.ndarray:
    """Building footprints on a grid; see :meth:`Terrain.building_grid`."""
    from ._validate import grid_args as _grid_args

    x0, y0, nx, ny, step, r0, c0 = _grid_args(x0, y0, nx, ny, step, offset)
    # the answer and the lattice's selection of it: 2 bytes a point
    _core.check_alloc(2 * nx * ny + 32 * (nx + ny), "nx, ny", f"a {ny} x {nx} grid")
    xs, ys = _axis(x0, c0, nx, step), _axis(y0, r0, ny, step)
    for name, a in (("x", xs), ("y", ys)):
        if np.any(np.abs(a) > 2**40):
            raise ValueError(f"{name}0, step: buildings are found within +-2**40 only")
    # squares 12 m wide on a 16 m lattice never overlap: a point can only be
    # inside the square of its nearest lattice point
    bx = np.floor(xs / _SPACING + 0.5) * _SPACING
    by = np.floor(ys / _SPACING + 0.5) * _SPACING
    inx = np.abs(xs - bx) <= BUILDING_HALF_SIDE
    iny = np.abs(ys - by) <= BUILDING_HALF_SIDE
    out = np.zeros((ny, nx), dtype=bool)
    if not inx.any() or not iny.any():
        return out
    ux, ix = np.unique(bx[inx].astype(np.int64), return_inverse=True)
    uy, iy = np.unique(by[iny].astype(np.int64), return_inverse=True)
    gx, gy = np.meshgrid(ux, uy)
    stands = _core.building_at(_shared.core(t), gx.ravel(), gy.ravel()).reshape(gy.shape).astype(bool)
    cols = np.flatnonzero(inx)
    rows = np.flatnonzero(iny)
    out[np.ix_(rows, cols)] = stands[np.ix_(iy.ravel(), ix.ravel())]
    return out


def tree_grid(t: Terrain, x0: float, y0: float, nx: int, ny: int, step: float = 1.0, *,
              offset: tuple[int, int] = (0, 0)) -> np.ndarray:
    """The tree selector on a grid; see :meth:`Terrain.tree_grid`."""
    from ._validate import grid_args as _grid_args

    x0, y0, nx, ny, step, r0, c0 = _grid_args(x0, y0, nx, ny, step, offset)
    _core.check_alloc(nx * ny + 40 * min(nx * ny, _CHUNK_POINTS + nx), "nx, ny",
                      f"a {ny} x {nx} grid")
    xs = _axis(x0, c0, nx, step)
    out = np.empty((ny, nx), dtype=np.uint8)
    rows = max(1, _CHUNK_POINTS // nx)
    for r in range(0, ny, rows):
        n = min(rows, ny - r)
        ys = _axis(y0, r0 + r, n, step)
        gx, gy = np.broadcast_arrays(xs[None, :], ys[:, None])
        out[r:r + n] = _shared.core(t).tree_selector(np.ascontiguousarray(gx).ravel(),
                                             np.ascontiguousarray(gy).ravel()).reshape(n, nx)
    return out


def tree_offset_grid(t: Terrain, x0: float, y0: float, nx: int, ny: int, step: float = 1.0, *,
                     offset: tuple[int, int] = (0, 0)) -> tuple[np.ndarray, np.ndarray]:
    """The trees' offsets within their tiles on a grid; see :meth:`Terrain.tree_offset_grid`."""
    from ._validate import grid_args as _grid_args

    x0, y0, nx, ny, step, r0, c0 = _grid_args(x0, y0, nx, ny, step, offset)
    _core.check_alloc(16 * nx * ny + 48 * min(nx * ny, _CHUNK_POINTS + nx), "nx, ny",
                      f"a {ny} x {nx} grid of two float64 offsets")
    xs = _axis(x0, c0, nx, step)
    dx = np.empty((ny, nx))
    dy = np.empty((ny, nx))
    rows = max(1, _CHUNK_POINTS // nx)
    for r in range(0, ny, rows):
        n = min(rows, ny - r)
        ys = _axis(y0, r0 + r, n, step)
        gx, gy = np.broadcast_arrays(xs[None, :], ys[:, None])
        a, b = _shared.core(t).tree_offsets(np.ascontiguousarray(gx).ravel(),
                                    np.ascontiguousarray(gy).ravel())
        dx[r:r + n] = a.reshape(n, nx)
        dy[r:r + n] = b.reshape(n, nx)
    return dx, dy
