"""Lazy Dask arrays of terrain grids and star counts (needs ``relfterrain[dask]``).

A grid's blocks are computed by ``relfterrain._window.GridWindow``:
block ``(i, j)`` is one :meth:`Terrain.grid` (or :meth:`Terrain.height_grid`)
call with ``offset=``, its fields written by the C core straight into the
arrays the block hands to Dask (no copies), so point ``[r, c]`` is computed
exactly as the in-memory grid computes it and any chunking, ragged ones
included, assembles into the same bits. Selecting part of a lazy array
(``h[:10, :10]``, ``ds.isel(...)``, ``ds.sel(...)``) computes only what it
selects, whatever the size of the blocks: Dask fuses the selection into the
block's task, which then computes just those points.

Rows: :func:`height_grid` and :func:`grid` keep SPEC 1's order (row 0 at
``y0``, south), as :meth:`Terrain.height_grid` and :meth:`Terrain.grid`;
:func:`dataset` is north up, as :meth:`Terrain.dataset`.

Blocks run wherever Dask runs them (threads, processes, a ``distributed``
cluster): terrains and galaxies pickle, and the arrays hold a copy of the
terrain as it was when they were made (later changes to the terrain do not
leak into them). A graph has at most :data:`MAX_BLOCKS` blocks (its size
and the time to schedule grow with them); the default chunks grow to keep
within it, explicit ``chunks`` beyond it are refused (ValueError).

>>> import relfterrain as rt
>>> import relfterrain.dask as rtd
>>> t = rt.Terrain()
>>> h = rtd.height_grid(t, 23396, 5318, 800, 600, chunks=(256, 300))
>>> h.chunks
((256, 256, 88), (300, 300, 200))
>>> bool((h.compute() == t.height_grid(23396, 5318, 800, 600)).all())
True
>>> huge = rtd.height_grid(t, 0, 0, 2**40, 2**40)  # a window of 2**80 points
>>> huge.chunks[0][:2], len(huge.chunks[0])  # grown to 64 x 64 blocks
((17179869184, 17179869184), 64)
>>> bool((huge[:10, :10].compute() == t.height_grid(0, 0, 10, 10)).all())
True
>>> int(rtd.star_count(rt.Galaxy(), *rt.INITIAL_VIEW, chunks=(800, 600, 64)).compute())
26
"""

from __future__ import annotations

import functools
import math
import re
import weakref
from typing import Any

import numpy as np

from . import _core, _precision, _shared, _validate
from ._types import TerrainGrid
from ._validate import grid_args as _grid_args
from ._window import FIELDS, Block, FieldArray, FieldBlock, GridWindow
from .galaxy import Block as SpaceBlock
from .galaxy import Galaxy
from .terrain import Terrain

__all__ = ["DEFAULT_CHUNKS", "MAX_BLOCKS", "compute", "dataset", "grid", "height_grid",
           "star_census", "star_count", "zarr_encoding"]

#: Default block shape of the grids, ``(rows, columns)``: 2048 x 2048
#: (32 MiB of float64 heights a block), grown (squares of a power of two)
#: where a window would have more than :data:`MAX_BLOCKS` of them.
DEFAULT_CHUNKS = (2048, 2048)
#: The most blocks a lazy grid may have (2**12, e.g. 64 x 64).
MAX_BLOCKS = 1 << 12
#: Default points per block of a star count (a slab of z planes of about this size).
STAR_BLOCK_POINTS = 1 << 28


def _modules() -> tuple[Any, Any]:
    try:
        import dask
        import dask.array as da
    except ImportError:
        raise ImportError(
            "relfterrain.dask needs dask: pip install 'relfterrain[dask]'"
        ) from None
    return dask, da


def _terrain(terrain: Any) -> Terrain:
    if not isinstance(terrain, Terrain):
        raise TypeError(f"terrain: must be a relfterrain.Terrain, got {terrain!r}")
    return terrain.copy()


def _token(dask: Any, terrain: Terrain, *args: Any) -> str:
    xs, ys, codes = _shared.core(terrain).placed_items()
    return dask.base.tokenize(terrain.params.fingerprint(), np.asarray(xs), np.asarray(ys),
                              np.asarray(codes), *args)


def _check_chunk_shape(chunks: Any, shape: tuple[int, ...]) -> None:
    """Refuse a block shape whose blocks are too many, or not positive, before
    Dask builds anything (its normalisation alone would list every block)."""
    if isinstance(chunks, (int, np.integer)) and not isinstance(chunks, (bool, np.bool_)):
        chunks = (chunks,) * len(shape)
    if not isinstance(chunks, tuple) or len(chunks) != len(shape):
        return  # dicts, "auto", explicit tuples: Dask's checks, then ours
    count = 1
    for c, n in zip(chunks, shape):
        if isinstance(c, (bool, np.bool_)):
            raise TypeError(f"chunks: block sides must be ints, got {chunks!r}")
        if isinstance(c, (int, np.integer)):
            if c == 0 or c < -1:
                raise ValueError(f"chunks: block sides must be >= 1 (or -1: the whole axis), "
                                 f"got {chunks!r}")
            count *= 1 if c == -1 else -(-n // int(c))
        elif isinstance(c, tuple) and all(isinstance(v, (int, np.integer)) for v in c):
            count *= max(1, len(c))
    if count > MAX_BLOCKS:
        raise ValueError(f"chunks: {chunks!r} cuts the {shape[0]} x {shape[1]} grid into "
                         f"{count} blocks; at most {MAX_BLOCKS} (pass larger chunks: a "
                         "selection computes only what it selects, whatever the block size)")


def _chunks(da: Any, chunks: Any, shape: tuple[int, ...], dtype: Any) -> tuple:
    if chunks is None or chunks is DEFAULT_CHUNKS:
        side = DEFAULT_CHUNKS[0]
        while math.prod(-(-n // side) for n in shape) > MAX_BLOCKS:
            side *= 2
        chunks = (side, side)
    _check_chunk_shape(chunks, shape)
    try:
        norm = da.core.normalize_chunks(chunks, shape, dtype=dtype)
    except (ValueError, TypeError, ZeroDivisionError) as e:
        raise ValueError(f"chunks: {e}") from None
    if any(0 in c and n for c, n in zip(norm, shape)):
        raise ValueError(f"chunks: empty blocks in {chunks!r}")
    if math.prod(len(c) for c in norm) > MAX_BLOCKS:
        raise ValueError(f"chunks: {math.prod(len(c) for c in norm)} blocks; at most "
                         f"{MAX_BLOCKS} (pass larger chunks)")
    return norm


def _window(terrain: Any, x0: float, y0: float, nx: int, ny: int, step: float, chunks: Any,
            dtype: Any, threads: int | None, north_up: bool) -> tuple[Any, Any, GridWindow,
                                                                      tuple, str]:
    """The checked arguments: ``(dask, dask.array, window, chunks, token)``."""
    dask, da = _modules()
    t = _terrain(terrain)
    x0, y0, nx, ny, step, _, _ = _grid_args(x0, y0, nx, ny, step)
    dt = _precision.height_dtype(dtype)
    nthreads = _validate.threads(threads)
    norm = _chunks(da, chunks, (ny, nx), dt)
    w = GridWindow(t, x0, y0, nx, ny, step, dt, north_up=north_up, threads=nthreads)
    token = _token(dask, t, x0, y0, nx, ny, step, str(dt), norm, north_up)
    _WINDOWS[token] = w  # for compute(): the arrays' graphs keep it alive
    return dask, da, w, norm, token


def height_grid(terrain: Terrain, x0: float, y0: float, nx: int, ny: int, step: float = 1.0,
                *, chunks: Any = DEFAULT_CHUNKS, dtype: Any = None, threads: int | None = 1
                ) -> Any:
    """:meth:`Terrain.height_grid` as a lazy Dask array ``(ny, nx)``, row 0 south (SPEC 1).

    Parameters
    ----------
    terrain : Terrain
        The terrain (a copy is taken).
    x0, y0, nx, ny, step
        The grid, as :meth:`Terrain.height_grid` (any size: only what is
        computed costs).
    chunks
        Block shape, anything ``dask.array`` accepts for a 2-D shape
        (``(rows, columns)``, explicit ragged tuples, ``"auto"``), with at
        most :data:`MAX_BLOCKS` blocks. Default :data:`DEFAULT_CHUNKS`,
        grown for huge windows.
    dtype : {None, "float64", "float32"}
        float64 by default; float32 is the exact double rounded.
    threads : int, optional
        Threads per block (default 1: Dask runs blocks in parallel).
    """
    dask, da, w, norm, token = _window(terrain, x0, y0, nx, ny, step, chunks, dtype, threads,
                                       north_up=False)
    return da.from_array(FieldArray(w, "ground_height", ("ground_height",), norm, token),
                         chunks=norm, name="relfterrain-height-" + token, asarray=True,
                         meta=np.empty((0, 0), w.dtype))


def _field_arrays(da: Any, w: GridWindow, norm: tuple, token: str,
                  fields: tuple[str, ...]) -> dict[str, Any]:
    """One lazy array per field, all reading one :class:`Block` per block.

    The graph: a :class:`Block` per block (nothing computed when made), then
    per field a :class:`FieldBlock` of it and a ``getter`` of that whole
    view. The fields of a block share its Block, so its C call runs once for
    all of them, and Dask's ordering computes a block's fields together;
    a selection is fused by Dask into the ``getter`` and computes only itself.
    """
    from dask.array.core import getter
    from dask.highlevelgraph import HighLevelGraph

    if len(fields) == 1:  # one field: a plain from_array (no shared blocks to keep)
        f = fields[0]
        return {f: da.from_array(FieldArray(w, f, fields, norm, token), chunks=norm,
                                 name=f"relfterrain-{f}-{token}", asarray=True,
                                 meta=np.empty((0, 0), w.field_dtype(f)))}
    wkey = "relfterrain-window-" + token
    bname = "relfterrain-block-" + token
    starts = [np.concatenate([[0], np.cumsum(c)]).tolist() for c in norm]
    index = [(i, j) for i in range(len(norm[0])) for j in range(len(norm[1]))]
    blocks: dict[Any, Any] = {wkey: w}
    for i, j in index:
        blocks[(bname, i, j)] = (Block, wkey, starts[0][i], starts[0][i + 1], starts[1][j],
                                 starts[1][j + 1])
    layers: dict[str, Any] = {bname: blocks}
    deps: dict[str, set] = {bname: set()}
    names = {}
    for f in fields:
        name = f"relfterrain-{f}-{token}"
        fname = f"relfterrain-{f}-block-{token}"
        layer: dict[Any, Any] = {}
        for i, j in index:
            layer[(fname, i, j)] = (FieldBlock, (bname, i, j), f, fields)
            layer[(name, i, j)] = (getter, (fname, i, j),
                                   (slice(0, norm[0][i]), slice(0, norm[1][j])))
        layers[name] = layer
        deps[name] = {bname}
        names[f] = name
    graph = HighLevelGraph(layers, deps)
    out = {}
    for f, name in names.items():
        dt = w.field_dtype(f)
        sub = graph.cull_layers([name]) if hasattr(graph, "cull_layers") else graph
        out[f] = da.Array(sub, name, chunks=norm, dtype=dt, meta=np.empty((0, 0), dt))
    return out


def grid(terrain: Terrain, x0: float, y0: float, nx: int, ny: int, step: float = 1.0, *,
         chunks: Any = DEFAULT_CHUNKS, dtype: Any = None, threads: int | None = 1
         ) -> TerrainGrid:
    """:meth:`Terrain.grid` as lazy Dask arrays: a :class:`TerrainGrid`.

    ``x`` and ``y`` are NumPy coordinates, ``height`` (the water surface on
    lakes), ``depth``, ``terrain`` and ``feature`` lazy ``(ny, nx)`` arrays
    with the given chunks, row 0 south (SPEC 1), as :meth:`Terrain.grid`.
    Computed together (``dask.compute(g.height, g.terrain)``, a Dataset
    write) each block of the terrain is computed once. Arguments as
    :func:`height_grid`.

    >>> import relfterrain as rt, relfterrain.dask as rtd
    >>> g = rtd.grid(rt.Terrain(), 23396, 5318, 800, 600, chunks=(300, 400))
    >>> g.terrain.chunks, float(g.x[0])
    (((300, 300), (400, 400)), 23396.0)
    """
    dask, da, w, norm, token = _window(terrain, x0, y0, nx, ny, step, chunks, dtype, threads,
                                       north_up=False)
    f = _field_arrays(da, w, norm, token, ("surface_height", "depth", "terrain", "feature"))
    x, y = w.coords()
    return TerrainGrid(x, y, f["surface_height"], f["depth"], f["terrain"], f["feature"])


def dataset(terrain: Terrain, x0: float, y0: float, nx: int, ny: int, step: float = 1.0, *,
            chunks: Any = DEFAULT_CHUNKS, dtype: Any = None, threads: int | None = 1,
            crs: Any = None, origin: Any = None) -> Any:
    """:meth:`Terrain.dataset` as a lazy ``xarray.Dataset`` of Dask arrays.

    The same variables, coordinates (north up), CRS and attributes as the
    in-memory one; any window within +-2**26 m; ``ds.isel(...)`` and
    ``ds.sel(...)`` compute only what they select; ``ds.to_zarr(path)`` or
    ``ds.to_netcdf(path)`` writes it block by block in bounded memory.
    Arguments as :func:`height_grid` (needs ``relfterrain[dask,xarray]``).
    """
    from .crs import placement
    from .dataset import check_window, make_dataset, xarray_module

    xarray_module()
    gx0, gy0, gnx, gny, gstep, _, _ = _grid_args(x0, y0, nx, ny, step)
    check_window(gx0, gy0, gnx, gny, gstep)
    place = placement(crs, origin)
    dask, da, w, norm, token = _window(terrain, x0, y0, nx, ny, step, chunks, dtype, threads,
                                       north_up=True)
    fields = _field_arrays(da, w, norm, token, FIELDS)
    return make_dataset(fields, w.terrain, step=w.step, window=(w.x0, w.y0, w.nx, w.ny),
                        place=place)


#: The windows of the lazy arrays made here, by token (weak: an array's graph
#: holds its window), so that :func:`compute` knows an array it can fill in place.
_WINDOWS: weakref.WeakValueDictionary[str, GridWindow] = weakref.WeakValueDictionary()
_NAME = re.compile(r"relfterrain-(surface_height|ground_height|depth|terrain|feature|height)-"
                   r"([0-9a-f]+)")


def _source(arr: Any) -> tuple[GridWindow, str] | None:
    """``(window, field)`` when ``arr`` is a whole field made here, unchanged."""
    m = _NAME.fullmatch(getattr(arr, "name", "") or "")
    if m is None:
        return None
    w = _WINDOWS.get(m.group(2))
    if w is None or tuple(arr.shape) != w.shape:
        return None
    field = "ground_height" if m.group(1) == "height" else m.group(1)
    return w, field


def _fill(w: GridWindow, fields: tuple[str, ...], targets: dict[str, np.ndarray], a: int,
          b: int) -> None:
    """SPEC 1 rows ``[a, b)`` of ``w``'s fields, computed by the core straight into
    those rows of the south-first ``targets`` (one C call)."""
    r0, r1 = (w.ny - b, w.ny - a) if w.north_up else (a, b)
    w._block(r0, r1, 0, w.nx, fields, out={f: targets[f][a:b] for f in fields})


def _shared_memory_scheduler(dask: Any, scheduler: Any) -> bool:
    import dask.local
    import dask.threaded

    get = dask.base.get_scheduler(scheduler=scheduler)
    return get in (dask.threaded.get, dask.local.get_sync)


def compute(obj: Any, *, scheduler: Any = None, num_workers: int | None = None) -> Any:
    """The values of lazy grids in memory: ``dask.compute`` without the copies.

    ``obj`` is a lazy Dataset or DataArray (:func:`dataset`, the xarray
    backend ``engine="relfterrain"``), a :class:`TerrainGrid` of
    :func:`grid`, or a Dask array; the result is the same with NumPy arrays:
    the same bits, coordinates and attributes as ``obj.compute()``.

    ``obj.compute()`` has Dask compute each block into an array of its own
    and then copy all blocks into the result (its assembly): for a whole
    8192 x 8192 Dataset, 1.7 GB copied into fresh memory, which costs as
    much as computing it. Here the result's arrays are allocated first, and
    each task of Dask's scheduler has the C core compute a band of full rows
    of a window made by this module straight into them (no block arrays, no
    copy; every field of a band in one pass). Any other Dask array (one that
    was sliced, combined or rechunked) is stored block by block into its
    preallocated result (``dask.array.store``: one copy, no assembly). With a
    scheduler that does not share this process's memory (processes,
    ``distributed``), this is ``dask.compute`` (the workers cannot write
    into this process's arrays).

    Parameters
    ----------
    obj
        What to compute.
    scheduler, num_workers
        As ``dask.compute`` takes them (default: the configured scheduler).

    >>> import relfterrain as rt, relfterrain.dask as rtd
    >>> t = rt.Terrain()
    >>> lazy = rtd.dataset(t, 23396, 5318, 800, 600, chunks=(256, 300))
    >>> ds = rtd.compute(lazy)
    >>> type(ds.ground_height.data).__name__, ds.ground_height.dims
    ('ndarray', ('y', 'x'))
    >>> bool((ds.ground_height.values == t.dataset(23396, 5318, 800, 600).ground_height.values).all())
    True
    """
    dask, da = _modules()
    kw: dict[str, Any] = {}
    if scheduler is not None:
        kw["scheduler"] = scheduler
    if num_workers is not None:
        kw["num_workers"] = num_workers
    if isinstance(obj, TerrainGrid):
        h, d, te, fe = compute([obj.height, obj.depth, obj.terrain, obj.feature],
                               scheduler=scheduler, num_workers=num_workers)
        return TerrainGrid(obj.x, obj.y, h, d, te, fe)
    if isinstance(obj, list):
        arrays = obj
    elif hasattr(obj, "data_vars") or hasattr(obj, "variable"):  # xarray
        xr_obj = obj
        names = list(obj.data_vars) if hasattr(obj, "data_vars") else [None]
        arrays = [(obj[n] if n is not None else obj).data for n in names]
        values = compute(list(arrays), scheduler=scheduler, num_workers=num_workers)
        if names == [None]:
            return xr_obj.copy(data=values[0])
        out = xr_obj.copy(deep=False)
        for n, v in zip(names, values):
            out[n] = xr_obj[n].copy(data=v)
        return out
    else:
        return compute([obj], scheduler=scheduler, num_workers=num_workers)[0]
    direct = _shared_memory_scheduler(dask, scheduler)
    results: list[Any] = [None] * len(arrays)
    groups: dict[int, tuple[GridWindow, dict[str, np.ndarray]]] = {}
    sources, targets, where = [], [], []
    for k, a in enumerate(arrays):
        if not isinstance(a, da.Array):
            results[k] = a
            continue
        src = _source(a) if direct else None
        if src is not None:
            w, field = src
            _, fields = groups.setdefault(id(w), (w, {}))
            if field not in fields:  # allocated as the grids' results are
                fields[field] = _core.empty(w.ny, w.nx, w.field_dtype(field).num)
            t = fields[field]
            results[k] = t[::-1] if w.north_up else t
            continue
        sources.append(a)
        where.append(k)
        if direct:
            targets.append(np.empty(a.shape, a.dtype))
            results[k] = targets[-1]
    tasks = []
    workers = num_workers or dask.config.get("num_workers", None) or _validate.default_threads()
    for w, fields in groups.values():
        # bands of full rows: enough for every worker, at least 2**20 points each
        bands = max(1, min(w.ny, 4 * workers, -(-(w.ny * w.nx) // (1 << 20))))
        side = -(-w.ny // bands)
        wanted = tuple(fields)
        tasks += [dask.delayed(_fill, pure=False)(w, wanted, fields, a, min(a + side, w.ny))
                  for a in range(0, w.ny, side)]
    if sources and direct:
        tasks.append(da.store(sources, targets, lock=False, compute=False))
    elif sources:  # the workers cannot write into this process's arrays
        for k, v in zip(where, dask.compute(*sources, **kw)):
            results[k] = v
    if tasks:
        dask.compute(*tasks, **kw)
    return results


def _census_block(galaxy: Galaxy, origin: tuple[int, int, int], bounds: tuple,
                  threads: int, block_info: Any = None) -> np.ndarray:
    i, j, k = block_info[None]["chunk-location"][:3]
    (ax, ay, az), (bx, by, bz) = bounds
    c = galaxy.census(origin[0] + ax[i], origin[1] + ay[j], origin[2] + az[k],
                      bx[i] - ax[i], by[j] - ay[j], bz[k] - az[k], threads=threads)
    return c.reshape(1, 1, 1, 16, 16)


def star_census(galaxy: Galaxy, x0: int, y0: int, z0: int, nx: int, ny: int, nz: int, *,
                chunks: Any = None, threads: int | None = 1) -> Any:
    """:meth:`Galaxy.census` of a block of any size, as a lazy (16, 16) Dask array.

    The block (integer points ``x0 .. x0+nx-1`` etc.) is cut into
    sub-blocks of ``chunks`` (a shape ``(cx, cy, cz)`` or explicit tuples per
    axis, as ``dask.array`` takes them; default: slabs of whole x-y planes,
    about 2**28 points each); each sub-block's census is one task, and the
    tables are summed lazily (a tree reduction). The result does not depend
    on the chunking. ``threads`` per task (default 1).
    """
    dask, da = _modules()
    if not isinstance(galaxy, Galaxy):
        raise TypeError(f"galaxy: must be a relfterrain.Galaxy, got {galaxy!r}")
    b = SpaceBlock(*_validate.space_block(x0, y0, z0, nx, ny, nz))
    nthreads = _validate.threads(threads)
    shape = (b.nx, b.ny, b.nz)
    if chunks is None:
        chunks = (b.nx, b.ny, max(1, STAR_BLOCK_POINTS // (b.nx * b.ny)))
    norm = _chunks(da, chunks, shape, np.int64)
    starts = tuple(np.concatenate([[0], np.cumsum(c)[:-1]]).tolist() for c in norm)
    ends = tuple(np.cumsum(c).tolist() for c in norm)
    fn = functools.partial(_census_block, galaxy, (b.x0, b.y0, b.z0), (starts, ends),
                           nthreads)
    counts = tuple((1,) * len(c) for c in norm)
    name = "relfterrain-census-" + dask.base.tokenize(galaxy.params.fingerprint(), b, norm)
    parts = da.map_blocks(fn, chunks=counts + ((16,), (16,)), dtype=np.int64, name=name,
                          meta=np.empty((0, 0, 0, 0, 0), np.int64))
    return parts.sum(axis=(0, 1, 2), dtype=np.int64)


def star_count(galaxy: Galaxy, x0: int, y0: int, z0: int, nx: int, ny: int, nz: int, *,
               chunks: Any = None, threads: int | None = 1) -> Any:
    """:meth:`Galaxy.count` of a block of any size, as a lazy 0-d Dask array.

    Arguments as :func:`star_census`.
    """
    return star_census(galaxy, x0, y0, z0, nx, ny, nz, chunks=chunks,
                       threads=threads).sum(dtype=np.int64)


def zarr_encoding(ds: Any = None) -> dict[str, Any]:
    """The codec the command line writes zarr with, for your own writes.

    Blosc LZ4 with bit shuffle at level 5: chosen by measurement, it keeps up
    with the disk and compresses the terrain's arrays 9 to 10 times
    (zarr's default zstd took about three times as long and compressed less;
    :doc:`/performance/speed`). Every chunk is written
    (``write_empty_chunks``): zarr's check for chunks equal to the fill value
    compares each whole chunk and took longer than compressing it (the
    20000 x 20000 heights wrote in half the time without it); the data read
    back is the same.

    Parameters
    ----------
    ds : xarray.Dataset, optional
        Without it: keyword arguments for an array's write,
        ``lazy.to_zarr(path, **zarr_encoding())``. With it: the ``encoding``
        of every data variable, ``ds.to_zarr(path, encoding=zarr_encoding(ds))``.

    Returns
    -------
    dict

    Examples
    --------
    >>> import os, tempfile, numpy as np, zarr
    >>> import relfterrain as rt, relfterrain.dask as rtd
    >>> t = rt.Terrain()
    >>> h = rtd.height_grid(t, 0, 0, 300, 200, chunks=(128, 128))
    >>> path = os.path.join(tempfile.mkdtemp(), "height.zarr")
    >>> h.to_zarr(path, **rtd.zarr_encoding())
    >>> np.array_equal(zarr.open_array(path, mode="r")[:], t.height_grid(0, 0, 300, 200))
    True
    """
    from ._codec import zarr_array_kwargs, zarr_dataset_encoding

    return zarr_array_kwargs() if ds is None else zarr_dataset_encoding(ds)

