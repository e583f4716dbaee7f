"""A grid window computed lazily: any selection of it costs what it selects.

:class:`GridWindow` describes a grid (``x0, y0, nx, ny, step``) of a terrain
without computing it. :meth:`GridWindow.select` computes the points an
*outer* index selects (a slice, any step, an int or an integer array per
axis) and only those: a contiguous selection is one :meth:`Terrain.grid` (or
:meth:`Terrain.height_grid`) call with ``offset=``, anything else the
points API at exactly the grid's coordinates ``x0 + c*step`` (the same
doubles, so the same bits). Rows are in one of two orders: ``north_up``
(row 0 the northern edge, as GIS tools and the Datasets have it) or SPEC 1's
south-first order (row 0 at ``y0``, as the NumPy grids have it).

This is the engine of :mod:`relfterrain.dask` and of the xarray backend
(:mod:`relfterrain.xarray_backend`).
"""

from __future__ import annotations

import operator
import threading
from collections import OrderedDict
from typing import Any

import numpy as np

from . import _shared

#: The fields a window computes, with what each is.
FIELDS = ("surface_height", "ground_height", "depth", "terrain", "feature")
_FLOAT_FIELDS = ("surface_height", "ground_height", "depth")
_TERRA_FIELDS = ("surface_height", "depth", "terrain", "feature")


class _Axis:
    """One axis of an outer index: a contiguous range ``[start, stop)`` or an index array."""

    __slots__ = ("start", "stop", "index", "keep")

    def __init__(self, start: int, stop: int, index: np.ndarray | None, keep: bool) -> None:
        self.start, self.stop, self.index, self.keep = start, stop, index, keep

    @property
    def size(self) -> int:
        return self.stop - self.start if self.index is None else int(self.index.size)

    def indices(self) -> np.ndarray:
        if self.index is None:
            return np.arange(self.start, self.stop, dtype=np.int64)
        return self.index


def _axis(key: Any, n: int, name: str) -> _Axis:
    if isinstance(key, slice):
        start, stop, step = key.indices(n)
        if step == 1:
            return _Axis(start, max(start, stop), None, True)
        return _Axis(0, 0, np.arange(start, stop, step, dtype=np.int64), True)
    if isinstance(key, (int, np.integer)) and not isinstance(key, (bool, np.bool_)):
        i = operator.index(key)
        if not -n <= i < n:
            raise IndexError(f"{name}: index {i} is out of bounds for size {n}")
        i %= n
        return _Axis(i, i + 1, None, False)
    idx = np.asarray(key)
    if idx.dtype.kind not in "iu" or idx.ndim != 1:
        raise IndexError(f"{name}: an outer index must be a slice, an int or a 1-D array of "
                         f"ints, got {key!r:.80}")
    idx = idx.astype(np.int64)
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise IndexError(f"{name}: index out of bounds for size {n}")
    idx = np.where(idx < 0, idx + n, idx)
    if idx.size and np.array_equal(idx, np.arange(idx[0], idx[0] + idx.size)):
        return _Axis(int(idx[0]), int(idx[0]) + idx.size, None, True)
    return _Axis(0, 0, idx, True)


class GridWindow:
    """A grid of a terrain, computed only where selected.

    Parameters
    ----------
    terrain : Terrain
        The terrain (the window keeps it: pass a copy if it may change).
    x0, y0, nx, ny, step
        The grid, checked (as :func:`relfterrain._validate.grid_args` returns it).
    dtype : numpy.dtype
        float64 or float32, that of the heights and the depth.
    north_up : bool
        Row 0 is the northern edge (``y0 + (ny-1)*step``) when true, the
        southern (``y0``) when false.
    threads : int
        Threads of each computation.
    """

    def __init__(self, terrain: Any, x0: float, y0: float, nx: int, ny: int, step: float,
                 dtype: Any, north_up: bool, threads: int = 1) -> None:
        self.terrain = terrain
        self.x0, self.y0, self.nx, self.ny, self.step = x0, y0, nx, ny, step
        self.dtype = np.dtype(dtype)
        self.north_up = bool(north_up)
        self.threads = threads

    @property
    def shape(self) -> tuple[int, int]:
        return (self.ny, self.nx)

    def field_dtype(self, field: str) -> np.dtype:
        return self.dtype if field in _FLOAT_FIELDS else np.dtype(np.uint8)

    def coords(self) -> tuple[np.ndarray, np.ndarray]:
        """``x`` (nx,) and ``y`` (ny,) in this window's row order: exactly ``x0 + c*step``."""
        x = self.x0 + np.arange(self.nx, dtype=np.int64).astype(np.float64) * self.step
        y = self.y0 + np.arange(self.ny, dtype=np.int64).astype(np.float64) * self.step
        return x, (y[::-1].copy() if self.north_up else y)

    def __reduce__(self) -> tuple:
        return (GridWindow, (self.terrain, self.x0, self.y0, self.nx, self.ny, self.step,
                             self.dtype, self.north_up, self.threads))

    def select(self, key: Any, fields: tuple[str, ...] = FIELDS) -> dict[str, np.ndarray]:
        """The ``fields`` at an outer index ``key`` (a pair: rows, columns).

        Returns ``{field: array}`` of the selection's shape (an int drops its
        axis, as NumPy does). Only the selected points are computed.
        """
        if not isinstance(key, tuple):
            key = (key,)
        if len(key) == 1:
            key = key + (slice(None),)
        if len(key) != 2:
            raise IndexError(f"a grid window is 2-D, got the index {key!r:.80}")
        rows = _axis(key[0], self.ny, "rows")
        cols = _axis(key[1], self.nx, "columns")
        if rows.size == 0 or cols.size == 0:
            out = {f: np.empty((rows.size, cols.size), self.field_dtype(f)) for f in fields}
        elif rows.index is None and cols.index is None:
            out = self._block(rows.start, rows.stop, cols.start, cols.stop, fields)
        else:
            out = self._points(rows.indices(), cols.indices(), fields)
        shape = tuple(a.size for a in (rows, cols) if a.keep)
        return {f: a.reshape(shape) for f, a in out.items()}

    # -- computing --------------------------------------------------------------

    def _raw_rows(self, r0: int, r1: int) -> int:
        """The first SPEC 1 (south-first) row of this window's rows ``[r0, r1)``."""
        return self.ny - r1 if self.north_up else r0

    def _block(self, r0: int, r1: int, c0: int, c1: int, fields: tuple[str, ...],
               out: dict[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
        """The ``fields`` of rows ``[r0, r1)`` and columns ``[c0, c1)``: one C call.

        A terra field computes all of them in one pass of the core's grid
        (``ground_height`` through its ground output: the height grid's bits);
        ``ground_height`` alone is one height grid. ``out`` maps fields to
        C-contiguous arrays of the block's shape, **south first** (SPEC 1), to
        write into (e.g. a band of a preallocated whole); the result's arrays
        are then those (their row-reversed views when north up).
        """
        core = _shared.core(self.terrain)
        ny, nx = r1 - r0, c1 - c0
        raw = self._raw_rows(r0, r1)
        given = out or {}
        f32 = self.dtype == np.float32
        kw: dict[str, Any] = {"r0": raw, "c0": c0, "threads": self.threads}
        if f32:
            kw["float32"] = True
        if any(f in _TERRA_FIELDS for f in fields):
            names = _TERRA_FIELDS + (("ground_height",) if "ground_height" in fields else ())
            res = core.terra_grid(self.x0, self.y0, nx, ny, self.step,
                                  outputs=tuple(given.get(f, True) if f in fields else None
                                                for f in names), **kw)
            got = dict(zip(names, res))
        else:
            kw["out"] = given.get("ground_height")
            got = {"ground_height": core.height_grid(self.x0, self.y0, nx, ny, self.step, **kw)}
        if self.north_up:
            return {f: got[f][::-1] for f in fields}
        return {f: got[f] for f in fields}

    def _points(self, rows: np.ndarray, cols: np.ndarray, fields: tuple[str, ...]
                ) -> dict[str, np.ndarray]:
        t = self.terrain
        raw = (self.ny - 1 - rows) if self.north_up else rows
        # exactly the grid's doubles x0 + c*step, y0 + r*step
        x = self.x0 + cols.astype(np.float64) * self.step
        y = self.y0 + raw.astype(np.float64) * self.step
        xx, yy = np.meshgrid(x, y)
        out: dict[str, np.ndarray] = {}
        if any(f in _TERRA_FIELDS for f in fields):
            s = t.sample(xx, yy, threads=self.threads)
            out.update(surface_height=s.height, depth=s.depth, terrain=s.terrain,
                       feature=s.feature)
        if "ground_height" in fields:
            out["ground_height"] = t.height(xx, yy, threads=self.threads)
        return {f: (out[f].astype(self.dtype) if f in _FLOAT_FIELDS else out[f])
                for f in fields}


class BlockCache:
    """All fields of the blocks computed lately, so that each block's C call runs once.

    Dask computes the arrays of a Dataset one field after another: the first
    field to ask for a block computes every field of it (one
    :meth:`Terrain.grid` call) and leaves the others here, each taken out
    (not copied) by the field that asks for it. At most ``limit`` bytes are
    held (the oldest blocks are dropped, then computed again if asked for),
    so a block-by-block write stays in bounded memory.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._busy: dict[Any, threading.Lock] = {}
        self._held: OrderedDict[Any, dict[str, np.ndarray]] = OrderedDict()
        self._bytes = 0

    def take(self, window: GridWindow, token: str, bounds: tuple[int, int, int, int],
             field: str, fields: tuple[str, ...]) -> np.ndarray:
        key = (token, bounds)
        with self._lock:
            lock = self._busy.setdefault(key, threading.Lock())
        with lock:  # one thread computes a block; the others wait for it
            with self._lock:
                held = self._held.get(key)
                if held is not None and field in held:
                    a = held.pop(field)
                    self._bytes -= a.nbytes
                    if not held:
                        del self._held[key]
                        self._busy.pop(key, None)
                    return a
            r0, r1, c0, c1 = bounds
            out = window.select((slice(r0, r1), slice(c0, c1)), fields)
            a = out.pop(field)
            with self._lock:
                if out:
                    self._held[key] = out
                    self._bytes += sum(v.nbytes for v in out.values())
                    while self._bytes > self.limit and self._held:
                        _, old = self._held.popitem(last=False)
                        self._bytes -= sum(v.nbytes for v in old.values())
                else:
                    self._busy.pop(key, None)
            return a


#: The cache of :class:`FieldArray`: at most 512 MiB of computed fields.
CACHE = BlockCache(512 << 20)


class FieldArray:
    """One field of a window, as an array that Dask's ``from_array`` slices.

    A request for exactly one of the blocks of ``chunks`` computes all
    ``fields`` of that block once (:data:`CACHE`); any other selection
    computes only its points, of this field only.
    """

    ndim = 2

    def __init__(self, window: GridWindow, field: str, fields: tuple[str, ...],
                 chunks: tuple, token: str) -> None:
        self.window, self.field, self.fields, self.token = window, field, fields, token
        self.shape = window.shape
        self.dtype = window.field_dtype(field)
        self._pairs = tuple(set(zip(np.cumsum((0,) + tuple(c))[:-1].tolist(),
                                    np.cumsum(c).tolist())) for c in chunks)

    def __reduce__(self) -> tuple:
        return (_field_array, (self.window, self.field, self.fields, self._pairs, self.token))

    def __getitem__(self, key: Any) -> np.ndarray:
        if (len(self.fields) > 1 and isinstance(key, tuple) and len(key) == 2
                and all(isinstance(k, slice) and k.step in (None, 1) for k in key)):
            (r0, r1, _), (c0, c1, _) = (k.indices(n) for k, n in zip(key, self.shape))
            if (r0, r1) in self._pairs[0] and (c0, c1) in self._pairs[1]:
                return CACHE.take(self.window, self.token, (r0, r1, c0, c1), self.field,
                                  self.fields)
        return self.window.select(key, (self.field,))[self.field]


def _field_array(window: GridWindow, field: str, fields: tuple[str, ...], pairs: tuple,
                 token: str) -> FieldArray:
    fa = FieldArray.__new__(FieldArray)
    fa.window, fa.field, fa.fields, fa.token = window, field, fields, token
    fa.shape = window.shape
    fa.dtype = window.field_dtype(field)
    fa._pairs = pairs
    return fa


class Block:
    """One block of a window, computed at most once for all its fields.

    The Dask graphs of :mod:`relfterrain.dask` make one per block (making it
    computes nothing); the fields of a Dataset read it through
    :class:`FieldBlock`, so a block's C call runs once whatever number of its
    fields are computed, and a selection smaller than the block computes
    only itself. The computed fields live as long as Dask keeps the block.
    """

    def __init__(self, window: GridWindow, r0: int, r1: int, c0: int, c1: int) -> None:
        self.window = window
        self.bounds = (r0, r1, c0, c1)
        self._lock = threading.Lock()
        self._all: dict[str, np.ndarray] | None = None

    def __reduce__(self) -> tuple:
        return (Block, (self.window, *self.bounds))

    def everything(self, fields: tuple[str, ...]) -> dict[str, np.ndarray]:
        with self._lock:
            if self._all is None:
                r0, r1, c0, c1 = self.bounds
                self._all = self.window.select((slice(r0, r1), slice(c0, c1)), fields)
            return self._all


class FieldBlock:
    """One field of a :class:`Block`, indexable as an array of the block's shape."""

    ndim = 2

    def __init__(self, block: Block, field: str, fields: tuple[str, ...]) -> None:
        self.block, self.field, self.fields = block, field, fields
        r0, r1, c0, c1 = block.bounds
        self.shape = (r1 - r0, c1 - c0)
        self.dtype = block.window.field_dtype(field)

    def __getitem__(self, key: Any) -> np.ndarray:
        if not isinstance(key, tuple):
            key = (key,)
        if len(key) == 1:
            key = key + (slice(None),)
        rows = _axis(key[0], self.shape[0], "rows")
        cols = _axis(key[1], self.shape[1], "columns")
        if (rows.index is None and cols.index is None and rows.keep and cols.keep
                and (rows.start, rows.stop, cols.start, cols.stop)
                == (0, self.shape[0], 0, self.shape[1])):
            return self.block.everything(self.fields)[self.field]
        # a part of the block: only that part, only this field
        r0, _, c0, _ = self.block.bounds
        shifted = tuple(_shift(k, off, n) for k, off, n in zip(key, (r0, c0), self.shape))
        return self.block.window.select(shifted, (self.field,))[self.field]


def _shift(key: Any, offset: int, n: int) -> Any:
    """An index into a block of size ``n`` as an index into the whole window."""
    if isinstance(key, slice):
        start, stop, step = key.indices(n)
        if step != 1:
            return np.arange(start, stop, step, dtype=np.int64) + offset
        return slice(start + offset, max(start, stop) + offset)
    if isinstance(key, (int, np.integer)) and not isinstance(key, (bool, np.bool_)):
        i = operator.index(key)
        if not -n <= i < n:
            raise IndexError(f"index {i} is out of bounds for a block of size {n}")
        return i % n + offset
    idx = np.asarray(key).astype(np.int64)
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise IndexError(f"index out of bounds for a block of size {n}")
    return np.where(idx < 0, idx + n, idx) + offset
