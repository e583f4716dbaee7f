"""Lazy Dask arrays of terrain grids and star counts (needs ``relfterrain[dask]``).

Each block of a grid is one call of :meth:`Terrain.height_grid` or
:meth:`Terrain.grid` with ``offset=(row, column)``: the block's position in
the whole grid, read from Dask's ``block_info`` (its ``array-location``), so
point ``[r, c]`` of the result is ``(x0 + c*step, y0 + r*step)`` computed
exactly as the in-memory grid computes it, and any chunking, ragged ones
included, assembles into the same bits. Blocks run wherever Dask runs them
(threads, processes, a ``distributed`` cluster): terrains and galaxies
pickle, and the arrays hold a copy of the terrain as it was when they were
made (later changes to the terrain do not leak into them).

>>> import relfterrain as rt
>>> import relfterrain.dask as rtd
>>> t = rt.Terrain()
>>> h = rtd.height_grid(t, 23396, 5318, 800, 600, chunks=(256, 300))
>>> h.chunks
((256, 256, 88), (300, 300, 200))
>>> bool((h.compute() == t.height_grid(23396, 5318, 800, 600)).all())
True
>>> int(rtd.star_count(rt.Galaxy(), *rt.INITIAL_VIEW, chunks=(800, 600, 64)).compute())
26
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import numpy as np

from . import _precision, _shared, _validate
from ._validate import grid_args as _grid_args
from .dataset import grid_coords, make_dataset
from .galaxy import Block, Galaxy
from .terrain import Terrain

__all__ = ["DEFAULT_CHUNKS", "dataset", "grid", "height_grid", "star_census", "star_count"]

#: Default block shape of the grids, ``(rows, columns)``: 2048 x 2048
#: (32 MiB of float64 heights a block).
DEFAULT_CHUNKS = (2048, 2048)
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


def _chunks(da: Any, chunks: Any, shape: tuple[int, ...], dtype: Any) -> tuple:
    try:
        return da.core.normalize_chunks(chunks, shape, dtype=dtype)
    except (ValueError, TypeError) as e:
        raise ValueError(f"chunks: {e}") from None


def _location(block_info: Any) -> tuple[int, int, int, int]:
    (r0, r1), (c0, c1) = block_info[None]["array-location"]
    return r0, c0, r1 - r0, c1 - c0


class _GridJob(NamedTuple):
    """A grid's checked arguments, as :func:`height_grid` and :func:`grid` take them."""

    da: Any  # dask.array
    terrain: Terrain  # the copy the blocks compute
    x0: float
    y0: float
    step: float
    dtype: np.dtype
    threads: int
    chunks: tuple  # normalised
    token: str  # of the terrain and the grid


def _grid_job(terrain: Any, x0: float, y0: float, nx: int, ny: int, step: float, chunks: Any,
              dtype: Any, threads: int | None) -> _GridJob:
    dask, da = _modules()
    t = _terrain(terrain)
    x0, y0, nx, ny, step, _, _ = _grid_args(x0, y0, nx, ny, step)
    dt = _precision.height_dtype(dtype)
    nthreads = _validate.threads(threads)
    norm = _chunks(da, chunks, (ny, nx), dt)
    token = _token(dask, t, x0, y0, nx, ny, step, str(dt), norm)
    return _GridJob(da, t, x0, y0, step, dt, nthreads, norm, token)


def _height_block(terrain: Terrain, x0: float, y0: float, step: float, dtype: np.dtype,
                  threads: int, block_info: Any = None) -> np.ndarray:
    r0, c0, ny, nx = _location(block_info)
    return terrain.height_grid(x0, y0, nx, ny, step, offset=(r0, c0), dtype=dtype,
                               threads=threads)


def _grid_dtype(dtype: np.dtype) -> np.dtype:
    return np.dtype([("height", dtype), ("depth", dtype), ("terrain", np.uint8),
                     ("feature", np.uint8)])


def _grid_block(terrain: Terrain, x0: float, y0: float, step: float, dtype: np.dtype,
                threads: int, block_info: Any = None) -> np.ndarray:
    r0, c0, ny, nx = _location(block_info)
    g = terrain.grid(x0, y0, nx, ny, step, offset=(r0, c0), dtype=dtype, threads=threads)
    rec = np.empty((ny, nx), dtype=_grid_dtype(dtype))
    for name in ("height", "depth", "terrain", "feature"):
        rec[name] = getattr(g, name)
    return rec


def _field(block: np.ndarray, name: str) -> np.ndarray:
    return np.ascontiguousarray(block[name])


def height_grid(terrain: Terrain, x0: float, y0: float, nx: int, ny: int, step: float = 1.0,
                *, chunks: Any = DEFAULT_CHUNKS, dtype: Any = None, threads: int | None = 1
                ) -> Any:
    """:meth:`Terrain.height_grid` as a lazy Dask array ``(ny, nx)``.

    Parameters
    ----------
    terrain : Terrain
        The terrain (a copy is taken).
    x0, y0, nx, ny, step
        The grid, as :meth:`Terrain.height_grid`.
    chunks
        Block shape, anything ``dask.array`` accepts for a 2-D shape
        (``(rows, columns)``, explicit ragged tuples, ``"auto"``).
    dtype : {None, "float64", "float32"}
        float64 by default; float32 is the exact double rounded.
    threads : int, optional
        Threads per block (default 1: Dask runs blocks in parallel).
    """
    g = _grid_job(terrain, x0, y0, nx, ny, step, chunks, dtype, threads)
    fn = functools.partial(_height_block, g.terrain, g.x0, g.y0, g.step, g.dtype, g.threads)
    return g.da.map_blocks(fn, chunks=g.chunks, dtype=g.dtype, name="relfterrain-height-" + g.token,
                           meta=np.empty((0, 0), g.dtype))


def grid(terrain: Terrain, x0: float, y0: float, nx: int, ny: int, step: float = 1.0, *,
         chunks: Any = DEFAULT_CHUNKS, dtype: Any = None, threads: int | None = 1) -> tuple:
    """:meth:`Terrain.grid`'s four arrays as lazy Dask arrays.

    Returns ``(height, depth, terrain, feature)``, each ``(ny, nx)`` with the
    given chunks; computed together (``dask.compute(*arrays)``, a Dataset
    write) each block of the terrain is computed once. Arguments as
    :func:`height_grid`.
    """
    g = _grid_job(terrain, x0, y0, nx, ny, step, chunks, dtype, threads)
    rdt = _grid_dtype(g.dtype)
    fn = functools.partial(_grid_block, g.terrain, g.x0, g.y0, g.step, g.dtype, g.threads)
    rec = g.da.map_blocks(fn, chunks=g.chunks, dtype=rdt, name="relfterrain-terra-" + g.token,
                          meta=np.empty((0, 0), rdt))
    out = []
    for field in ("height", "depth", "terrain", "feature"):
        fdt = rdt.fields[field][0]  # type: ignore[index]
        out.append(g.da.map_blocks(_field, rec, field, dtype=fdt,
                                   name=f"relfterrain-{field}-{g.token}",
                                   meta=np.empty((0, 0), fdt)))
    return tuple(out)


def dataset(terrain: Terrain, x0: float, y0: float, nx: int, ny: int, step: float = 1.0, *,
            chunks: Any = DEFAULT_CHUNKS, dtype: Any = None, threads: int | None = 1) -> Any:
    """:meth:`Terrain.dataset` as a lazy ``xarray.Dataset`` of Dask arrays.

    The same variables, coordinates and attributes as the in-memory one;
    ``ds.to_zarr(path)`` or ``ds.to_netcdf(path)`` writes it block by block
    in bounded memory. Arguments as :func:`height_grid` (needs
    ``relfterrain[dask,xarray]``).
    """
    from .dataset import xarray_module

    xarray_module()
    h, d, tt, f = grid(terrain, x0, y0, nx, ny, step, chunks=chunks, dtype=dtype,
                       threads=threads)
    x0, y0, nx, ny, step, _, _ = _grid_args(x0, y0, nx, ny, step)
    x, y = grid_coords(x0, y0, nx, ny, step)
    return make_dataset(x, y, h, d, tt, f, terrain.params, step=step,
                        placed=len(terrain.placed))


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
    b = Block(*_validate.space_block(x0, y0, z0, nx, ny, nz))
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
