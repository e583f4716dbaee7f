"""Mines, caverns and cave mouths under the Relf terrain (SPEC 8).

The mine level is a grid of square cells (16 m by default) centred on
multiples of the cell size. A cell is *open above* (a mineshaft leads down)
when terra has a MINE feature at one of its integer points, and *open* when
open above or when ``frac(u) > threshold`` with ``u = PI10000 * xg * yg``
(variant ``"classic"``, The Forest) or ``u = PI10000 * sin(xg) * cos(yg)``
(variant ``"sincos"``, My Terrain), times ``(k + 1)`` on level ``k``. Open
cells connect to their four orthogonal neighbours and, between levels,
vertically. Everything is computed in C, threaded, bit for bit as the seed's
arithmetic.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from . import _core, _shared, _validate
from ._fields import documented

if TYPE_CHECKING:  # pragma: no cover
    from .terrain import Terrain

__all__ = [
    "CaveMouths",
    "Caverns",
    "MineLabels",
    "Mines",
    "PercolationRow",
    "label_cells",
]

_VARIANTS = {"classic": 0, "sincos": 1}


@documented(
    labels=('int32 ``(levels, ncy, ncx)``: 0 for rock, ``1 .. n_mines`` for the mines, numbered '
            "in the order of each mine's first cell (level, row, column)."),
    n_mines='The number of connected mines.',
    sizes=('int64 ``(n_mines + 1,)``: ``sizes[l]`` cells of mine ``l``; ``sizes[0]`` the closed '
           'cells.'),
    shafts='int64 ``(n_mines + 1,)``: ``shafts[l]`` open-above cells (shafts) of mine ``l``.',
    reachable=('bool ``(n_mines + 1,)``: whether mine ``l`` has a shaft (``reachable[0]`` is '
               'False).'),
    open='bool ``(levels, ncy, ncx)``: the open cells.',
    above='bool ``(ncy, ncx)``: the open-above cells (shafts, level 0).',
)
class MineLabels(NamedTuple):
    """The connected mines of a block of cells.

    ``labels`` is int32 ``(levels, ncy, ncx)``: 0 for rock, ``1 .. n_mines``
    for the mines (``n_mines`` of them), numbered in the order of each mine's first cell (level,
    then row, then column), so the labelling is unique. ``sizes[l]`` is the
    number of cells of mine ``l`` (``sizes[0]``: closed cells), ``shafts[l]``
    its open-above cells, and ``reachable[l]`` says whether it has a shaft
    (``reachable[0]`` is False). ``open`` and ``above`` are the cells' open
    (``(levels, ncy, ncx)``) and open-above (``(ncy, ncx)``) masks.
    """

    labels: np.ndarray
    n_mines: int
    sizes: np.ndarray
    shafts: np.ndarray
    reachable: np.ndarray
    open: np.ndarray
    above: np.ndarray

    def reachable_cells(self) -> np.ndarray:
        """Bool mask of the cells of mines that can be entered from a shaft."""
        return self.reachable[self.labels]

    def largest(self) -> int:
        """The label of the largest mine (0 when there is none)."""
        if self.n_mines == 0:
            return 0
        return int(np.argmax(self.sizes[1:])) + 1


@documented(
    size='Cells per side.',
    threshold="The open test's threshold of this row.",
    open_share='Open cells / all cells (level 0 .. all levels)',
    mines='Connected mines in the block.',
    largest_share='Cells of the largest mine / open cells.',
    spans_we='One mine touches the west and east edges.',
    spans_sn='One mine touches the south and north edges.',
    reachable_share='Open cells in mines with a shaft / open cells.',
)
class PercolationRow(NamedTuple):
    """One block of a percolation scan (:meth:`Mines.percolation`)."""

    size: int
    threshold: float
    open_share: float
    mines: int
    largest_share: float
    spans_we: bool
    spans_sn: bool
    reachable_share: float


@documented(
    x='int64: x of each cave mouth (a MINE feature on steep ground).',
    y='int64: y of each cave mouth.',
    slope='float64: its largest rise to the 8 neighbours per metre (above ``steepness``).',
)
class CaveMouths(NamedTuple):
    """MINE features on steep ground: integer ``x``, ``y`` and the ``slope``."""

    x: np.ndarray
    y: np.ndarray
    slope: np.ndarray


def label_cells(open: Any, *, threads: int | None = None) -> tuple[np.ndarray, int]:
    """Connected components of a 2-D ``(ny, nx)`` or 3-D ``(nz, ny, nx)`` mask.

    Cells connect to their 4 neighbours within a layer and to the same cell
    in the adjacent layers. Returns ``(labels, count)``: int32 labels of the
    mask's shape, 0 outside the mask and ``1 .. count`` numbered in the order
    of each component's first cell in C order.

    >>> labels, count = label_cells([[1, 0, 1], [1, 0, 0], [0, 1, 1]])
    >>> count
    3
    >>> labels.tolist()
    [[1, 0, 2], [1, 0, 0], [0, 3, 3]]
    """
    mask = np.asarray(open)
    if mask.ndim not in (2, 3):
        raise ValueError(f"open: must be a 2-D or 3-D mask, got shape {mask.shape}")
    if mask.dtype != np.bool_:
        mask = mask != 0
    labels, count = _core.label_cells(mask, threads=_validate.threads(threads))
    return labels, int(count)


def _cells_arg(value: Any, name: str, cs: int) -> int:
    v = _validate.integer(value, name, int64=True)
    if v % cs:
        raise ValueError(f"{name}: must be a multiple of cell_size ({cs}), got {v}")
    return v


class Mines:
    """The mines under a terrain (SPEC 8).

    Parameters
    ----------
    terrain : Terrain
        The ground: its MINE features (placed table honoured) are the shafts.
    variant : {"classic", "sincos"}
        ``u = PI10000 * xg * yg`` (The Forest) or
        ``u = PI10000 * sin(xg) * cos(yg)`` (My Terrain; fdlibm sin and cos).
    threshold : float
        A cell is open where ``frac(u) > threshold``; ``0 <= threshold < 1``
        (0.4: about 60 % of cells open).
    cell_size : int
        Cell side in metres, 1 .. 4096 (16). The point ``(x, y)`` lies in the
        cell ``(cs*round_js(x/cs), cs*round_js(y/cs))``; the cell ``(xg, yg)``
        covers the integer points ``xg - cs//2 .. xg - cs//2 + cs - 1``.
    levels : int
        Mine levels, 1 .. 4096 (1). Level ``k`` multiplies ``u`` by
        ``k + 1``; only level 0 has shafts; a cell open on two adjacent
        levels connects them.

    Examples
    --------
    >>> import relfterrain as rt
    >>> m = rt.Mines(rt.Terrain())
    >>> m.cell_of(23400.5, 5319.9)
    (23408, 5312)
    >>> grid = m.open_grid(23392, 5312, 6, 4)
    >>> grid.shape, grid.dtype
    ((4, 6), dtype('bool'))
    >>> lab = m.label(23392, 5312, 64, 64)
    >>> lab.labels.shape, int(lab.sizes.sum())
    ((1, 64, 64), 4096)
    """

    def __init__(self, terrain: Terrain, *, variant: str = "classic", threshold: float = 0.4,
                 cell_size: int = 16, levels: int = 1) -> None:
        _shared.check_terrain(terrain)
        if variant not in _VARIANTS:
            raise ValueError(f"variant: must be 'classic' or 'sincos', got {variant!r}")
        threshold = _validate.real(threshold, "threshold")
        if not 0.0 <= threshold < 1.0:
            raise ValueError(f"threshold: must be in [0, 1), got {threshold!r}")
        cell_size = _validate.integer(cell_size, "cell_size", 1)
        if cell_size > _core.MAX_CELL_SIZE:
            raise ValueError(f"cell_size: must be <= {_core.MAX_CELL_SIZE}, got {cell_size}")
        levels = _validate.integer(levels, "levels", 1)
        if levels > _core.MAX_MINE_LEVELS:
            raise ValueError(f"levels: must be <= {_core.MAX_MINE_LEVELS}, got {levels}")
        self.terrain = terrain
        self.variant = variant
        self.threshold = threshold
        self.cell_size = cell_size
        self.levels = levels

    def __repr__(self) -> str:
        return (f"Mines(variant={self.variant!r}, threshold={self.threshold!r}, "
                f"cell_size={self.cell_size}, levels={self.levels})")

    def _kw(self) -> dict[str, Any]:
        return {"variant": _VARIANTS[self.variant], "threshold": self.threshold,
                "cell_size": self.cell_size, "levels": self.levels,
                "pi10000": self.terrain.params.pi10000}  # SPEC 17

    def _block(self, xg0: Any, yg0: Any, ncx: Any, ncy: Any) -> tuple[int, int, int, int]:
        cs = self.cell_size
        block = (_cells_arg(xg0, "xg0", cs), _cells_arg(yg0, "yg0", cs),
                 _validate.integer(ncx, "ncx", 1), _validate.integer(ncy, "ncy", 1))
        if block[2] * block[3] * self.levels > 2**62:
            raise MemoryError(f"ncx, ncy: a {block[3]} x {block[2]} block of {self.levels} "
                              "level(s) is too large to allocate")
        # the open cells of every level, the shafts above and labels (int32)
        _core.check_alloc(block[2] * block[3] * (self.levels + 5), "ncx, ncy",
                          f"a {block[3]} x {block[2]} block of {self.levels} level(s)")
        return block

    def _shaft_scan(self, ncx: int, ncy: int, allow_huge: Any, names: str = "ncx, ncy") -> None:
        # the shafts: cell_size**2 points of every cell, however few are MINEs
        _validate.work(ncx * ncy * self.cell_size ** 2, _validate.MAX_SCAN_POINTS,
                       "MAX_SCAN_POINTS", names,
                       "the points scanned for shafts, ncx * ncy * cell_size**2,", allow_huge)

    # -- single cells -------------------------------------------------------

    def cell_of(self, x: float, y: float) -> tuple[int, int]:
        """The centre ``(xg, yg)`` of the cell containing the point ``(x, y)``."""
        x = _validate.real(x, "x")
        y = _validate.real(y, "y")
        cs = self.cell_size
        return cs * _round_js(x / cs), cs * _round_js(y / cs)

    def _level(self, level: Any) -> int:
        k = _validate.integer(level, "level", 0)
        if k >= self.levels:
            raise ValueError(f"level: must be below levels ({self.levels}), got {k}")
        return k

    def is_open(self, x: float, y: float, level: int = 0) -> bool:
        """Is the cell containing ``(x, y)`` open on ``level``?

        >>> import relfterrain as rt
        >>> rt.Mines(rt.Terrain()).is_open(0, 0)  # u = 0 on the axes: rock
        False
        """
        k = self._level(level)
        xg, yg = self.cell_of(x, y)
        above = self.open_above_grid(xg, yg, 1, 1, threads=1) if k == 0 else None
        o = _core.mines_open(xg, yg, 1, 1, above, threads=1, **self._kw())
        return bool(o[k, 0, 0])

    def open_above(self, x: float, y: float) -> bool:
        """Is the cell containing ``(x, y)`` open above (a mineshaft there)?"""
        xg, yg = self.cell_of(x, y)
        return bool(self.open_above_grid(xg, yg, 1, 1, threads=1)[0, 0])

    # -- blocks of cells ----------------------------------------------------

    def open_above_grid(self, xg0: int, yg0: int, ncx: int, ncy: int, *,
                        out: np.ndarray | None = None,
                        threads: int | None = None, allow_huge: bool = False) -> np.ndarray:
        """Open above (a shaft) per cell: bool ``(ncy, ncx)``.

        Cell ``[r, c]`` is centred at ``(xg0 + c*cs, yg0 + r*cs)``; ``xg0``
        and ``yg0`` must be multiples of the cell size. The cost is the
        cell's ``cs*cs`` points (about 1 M cells/s a core at 16 m): blocks of
        more than :data:`relfterrain.MAX_SCAN_POINTS` (2**38) points are
        refused (ValueError) unless ``allow_huge=True``. Ctrl-C stops the
        scan (KeyboardInterrupt) and leaves a given ``out`` untouched.
        """
        xg0, yg0, ncx, ncy = self._block(xg0, yg0, ncx, ncy)
        self._shaft_scan(ncx, ncy, allow_huge)
        return _core.mines_above(_shared.core(self.terrain), xg0, yg0, ncx, ncy, out=out,
                                 threads=_validate.threads(threads), **self._kw())

    def open_grid(self, xg0: int, yg0: int, ncx: int, ncy: int, *, level: int | None = 0,
                  shafts: bool = True, out: np.ndarray | None = None,
                  threads: int | None = None, allow_huge: bool = False) -> np.ndarray:
        """Open cells: bool ``(ncy, ncx)`` of ``level``, or ``(levels, ncy, ncx)``.

        ``level=None`` gives every level. ``shafts=False`` leaves the shafts
        out (only the ``frac(u)`` test, much faster; level 0 then differs
        from the seed's at the rare cells with a shaft). With the shafts,
        the limit and ``allow_huge`` of :meth:`open_above_grid` apply.
        """
        xg0, yg0, ncx, ncy = self._block(xg0, yg0, ncx, ncy)
        th = _validate.threads(threads)
        shafts = _validate.flag(shafts, "shafts")
        allow_huge = _validate.flag(allow_huge, "allow_huge")
        k = None if level is None else self._level(level)
        above = None
        if shafts and k in (None, 0):
            self._shaft_scan(ncx, ncy, allow_huge)
            above = _core.mines_above(_shared.core(self.terrain), xg0, yg0, ncx, ncy, threads=th,
                                      **self._kw())
        if k is None:
            return _core.mines_open(xg0, yg0, ncx, ncy, above, out=out, threads=th, **self._kw())
        kw = self._kw()
        kw["levels"] = k + 1  # levels below k are not needed
        res = _core.mines_open(xg0, yg0, ncx, ncy, above, threads=th, **kw)[k]
        if out is not None:
            if not isinstance(out, np.ndarray) or out.dtype != np.bool_ or out.shape != res.shape:
                raise ValueError(f"out: must be a bool array of shape {res.shape}")
            if not out.flags.writeable:
                raise ValueError("out: must be writeable")
            out[...] = res
            return out
        return res

    def label(self, xg0: int, yg0: int, ncx: int, ncy: int, *, shafts: bool = True,
              threads: int | None = None, allow_huge: bool = False) -> MineLabels:
        """The connected mines of a block of cells, every level (see :class:`MineLabels`).

        With the shafts, the limit and ``allow_huge`` of
        :meth:`open_above_grid` apply. Ctrl-C stops every step.

        >>> import relfterrain as rt
        >>> lab = rt.Mines(rt.Terrain(), levels=2).label(23392, 5312, 8, 8)
        >>> lab.labels.shape, lab.labels.dtype
        ((2, 8, 8), dtype('int32'))
        """
        xg0, yg0, ncx, ncy = self._block(xg0, yg0, ncx, ncy)
        th = _validate.threads(threads)
        if self.levels * ncx * ncy > _core.MAX_LABEL_CELLS:
            raise ValueError(f"ncx, ncy: at most {_core.MAX_LABEL_CELLS} cells (all levels) "
                             f"can be labelled at once, got {self.levels * ncx * ncy}")
        allow_huge = _validate.flag(allow_huge, "allow_huge")
        if _validate.flag(shafts, "shafts"):
            self._shaft_scan(ncx, ncy, allow_huge)
            above = _core.mines_above(_shared.core(self.terrain), xg0, yg0, ncx, ncy, threads=th,
                                      **self._kw())
        else:
            above = np.zeros((ncy, ncx), dtype=np.bool_)
        return self._label_open(
            _core.mines_open(xg0, yg0, ncx, ncy, above, threads=th, **self._kw()), above, th)

    @staticmethod
    def _label_open(open_: np.ndarray, above: np.ndarray, th: int) -> MineLabels:
        labels, count = _core.label_cells(open_, threads=th)
        sizes, shafts = _core.label_census(labels, count, above)
        assert shafts is not None  # flags were given
        reachable = shafts > 0
        reachable[0] = False
        return MineLabels(labels, int(count), sizes, shafts, reachable, open_, above)

    def percolation(self, sizes: Any = (64, 128, 256), thresholds: Any = (0.40, 0.41, 0.42), *,
                    xg0: int | None = None, yg0: int | None = None, shafts: bool = True,
                    threads: int | None = None, allow_huge: bool = False
                    ) -> list[PercolationRow]:
        """Do the mines form one unbounded network? Blocks of growing size.

        For each square block of ``size x size`` cells (south-west cell
        ``(xg0, yg0)``, default the classic map's corner cell) and each
        threshold: the share of open cells, the number of mines, the share
        of open cells in the largest mine, whether one mine spans the block
        west-east or south-north, and the share of open cells that can be
        reached from a shaft. Above the percolation threshold the largest
        share stays put as the block grows and spanning mines persist; below
        it the share falls toward 0. The shafts are computed once per size
        (the limit and ``allow_huge`` of :meth:`open_above_grid` apply to
        each size).

        >>> import relfterrain as rt
        >>> rows = rt.Mines(rt.Terrain()).percolation([32], [0.4])
        >>> rows[0].size, rows[0].threshold
        (32, 0.4)
        """
        th = _validate.threads(threads)
        cs = self.cell_size
        corner = self.cell_of(23396, 5318)
        x0 = corner[0] if xg0 is None else _cells_arg(xg0, "xg0", cs)
        y0 = corner[1] if yg0 is None else _cells_arg(yg0, "yg0", cs)
        size_list = [_validate.integer(s, "sizes", 1) for s in np.atleast_1d(sizes).tolist()]
        thr_list = [_validate.real(t, "thresholds") for t in np.atleast_1d(thresholds).tolist()]
        for t in thr_list:
            if not 0.0 <= t < 1.0:
                raise ValueError(f"thresholds: each must be in [0, 1), got {t!r}")
        shafts = _validate.flag(shafts, "shafts")
        allow_huge = _validate.flag(allow_huge, "allow_huge")
        for n in size_list:  # every size checked before any work
            if self.levels * n * n > _core.MAX_LABEL_CELLS:
                raise ValueError(f"sizes: at most {_core.MAX_LABEL_CELLS} cells (all levels) "
                                 f"can be labelled at once, got {n}")
            if shafts:
                self._shaft_scan(n, n, allow_huge, "sizes")
        rows = []
        for n in size_list:
            if shafts:
                above = _core.mines_above(_shared.core(self.terrain), x0, y0, n, n, threads=th,
                                          **self._kw())
            else:
                above = np.zeros((n, n), dtype=np.bool_)
            for t in thr_list:
                kw = self._kw()
                kw["threshold"] = t
                lab = self._label_open(_core.mines_open(x0, y0, n, n, above, threads=th, **kw),
                                       above, th)
                rows.append(_percolation_row(n, t, lab))
        return rows

    # -- cave mouths --------------------------------------------------------

    def cave_mouths(self, x0: int, y0: int, nx: int, ny: int, steepness: float = 1.0, *,
                    threads: int | None = None, allow_huge: bool = False) -> CaveMouths:
        """MINE features on steep ground among the integer points of an area.

        The slope at a point ``p`` is the largest ``|h(q) - h(p)| / |q - p|``
        over its 8 integer neighbours ``q`` (``h`` the ground height); a MINE
        whose slope exceeds ``steepness`` is a cave mouth leading into the
        level below. Row-major order (``y``, then ``x``). Every point of the
        area is scanned: more than :data:`relfterrain.MAX_SCAN_POINTS` (2**38)
        are refused (ValueError) unless ``allow_huge=True``; Ctrl-C stops it.

        >>> import relfterrain as rt
        >>> cm = rt.Mines(rt.Terrain()).cave_mouths(*rt.CLASSIC_MAP)
        >>> len(cm.x), bool((cm.slope > 1.0).all())
        (9, True)
        """
        x0 = _validate.integer(x0, "x0", int64=True)
        y0 = _validate.integer(y0, "y0", int64=True)
        nx = _validate.integer(nx, "nx", 1)
        ny = _validate.integer(ny, "ny", 1)
        steepness = _validate.real(steepness, "steepness")
        _validate.work(nx * ny, _validate.MAX_SCAN_POINTS, "MAX_SCAN_POINTS", "nx, ny",
                       "the points scanned, nx * ny,", allow_huge)
        x, y, s = _core.cave_mouths(_shared.core(self.terrain), x0, y0, nx, ny, steepness,
                                    threads=_validate.threads(threads))
        return CaveMouths(x, y, s)


def _percolation_row(n: int, t: float, lab: MineLabels) -> PercolationRow:
    n_open = int(lab.sizes.sum() - lab.sizes[0])
    big = int(lab.sizes[1:].max()) if lab.n_mines else 0
    lv = lab.labels
    we = np.intersect1d(lv[:, :, 0], lv[:, :, -1])
    sn = np.intersect1d(lv[:, 0, :], lv[:, -1, :])
    reach = int(lab.sizes[lab.reachable].sum())
    return PercolationRow(n, t, n_open / lv.size, lab.n_mines, big / n_open if n_open else 0.0,
                          bool((we > 0).any()), bool((sn > 0).any()),
                          reach / n_open if n_open else 0.0)


class Caverns:
    """Irregular caverns between two height maps (SPEC 8).

    The floor is the ground height ``H(x, y)``; the roof is
    ``H(x*scale + dx, y*scale + dy) + dz`` (each coordinate computed in
    doubles in that order). There is open space where the roof is above the
    floor, of height ``roof - floor``.

    >>> import relfterrain as rt
    >>> cv = rt.Caverns(rt.Terrain())
    >>> g = cv.space_grid(23396, 5318, 200, 150)
    >>> g.shape, bool((g >= 0).all())
    ((150, 200), True)
    """

    def __init__(self, terrain: Terrain, scale: float = 1.0, dx: float = 64.0,
                 dy: float = 32.0, dz: float = 0.0) -> None:
        _shared.check_terrain(terrain)
        self.terrain = terrain
        self.scale = _validate.real(scale, "scale")
        self.dx = _validate.real(dx, "dx")
        self.dy = _validate.real(dy, "dy")
        self.dz = _validate.real(dz, "dz")

    def __repr__(self) -> str:
        return f"Caverns(scale={self.scale!r}, dx={self.dx!r}, dy={self.dy!r}, dz={self.dz!r})"

    def _grid(self, which: int, x0: Any, y0: Any, nx: Any, ny: Any, step: Any,
              out: np.ndarray | None, threads: int | None) -> np.ndarray:
        x0 = _validate.real(x0, "x0")
        y0 = _validate.real(y0, "y0")
        step = _validate.real(step, "step")
        if step <= 0:
            raise ValueError(f"step: must be a positive number, got {step!r}")
        nx = _validate.integer(nx, "nx", 1)
        ny = _validate.integer(ny, "ny", 1)
        outputs: list[Any] = [None, None, None]
        outputs[which] = True if out is None else out
        res = _core.caverns_grid(_shared.core(self.terrain), x0, y0, nx, ny, step, scale=self.scale,
                                 dx=self.dx, dy=self.dy, dz=self.dz, outputs=tuple(outputs),
                                 threads=_validate.threads(threads))
        return res[which]

    def floor_grid(self, x0: float, y0: float, nx: int, ny: int, step: float = 1.0, *,
                   out: np.ndarray | None = None, threads: int | None = None) -> np.ndarray:
        """The floor (the ground height) on a grid, as :meth:`Terrain.height_grid`."""
        return self._grid(0, x0, y0, nx, ny, step, out, threads)

    def roof_grid(self, x0: float, y0: float, nx: int, ny: int, step: float = 1.0, *,
                  out: np.ndarray | None = None, threads: int | None = None) -> np.ndarray:
        """The roof ``H(x*scale + dx, y*scale + dy) + dz`` on a grid."""
        return self._grid(1, x0, y0, nx, ny, step, out, threads)

    def space_grid(self, x0: float, y0: float, nx: int, ny: int, step: float = 1.0, *,
                   out: np.ndarray | None = None, threads: int | None = None) -> np.ndarray:
        """Height of the open space, ``roof - floor`` where positive, else 0."""
        return self._grid(2, x0, y0, nx, ny, step, out, threads)


def _round_js(v: float) -> int:
    r = math.floor(v)
    if v - r >= 0.5:
        r += 1
    return int(r)
