"""The xarray backend: ``xr.open_dataset(world, engine="relfterrain", ...)``.

``world`` is a file :meth:`Terrain.save` wrote (``"world.json"``) or a
preset name (``"forest"``, ``"my_terrain"``, ``"pieces_of_eight"``,
``"skylands"``; ``"classic"`` for the default parameters). The window is
given by backend keywords: ``x0``, ``y0``, ``nx``, ``ny``, ``step`` (SPEC 1:
``x0, y0`` the south-west sample point; default a 4096 x 4096 window at the
classic map area), anywhere within +-2**26 m and at any step, and
``dtype``, ``crs``, ``origin``, ``blocks`` (the Dask block shape, as
:func:`relfterrain.dask.dataset`'s ``chunks``; default
:data:`relfterrain.dask.DEFAULT_CHUNKS`, grown for huge windows).

The Dataset is that of :func:`relfterrain.dask.dataset` (north up, CRS,
CF attributes, provenance): lazy and **Dask-backed** whatever xarray's
``chunks`` (default ``None``): its variables are Dask arrays of the
backend's ``blocks``; ``chunks={}`` keeps those blocks, other ``chunks``
rechunk them. ``.sel`` / ``.isel`` compute only what they select;
``relfterrain.dask.compute(ds)`` computes it all into NumPy arrays without
Dask's assembly copies.

(xarray wraps every variable a backend returns in its own lazy indexing
when ``chunks`` is None, which would hide the Dask arrays; the variables
returned here keep their Dask array through that wrapping and are plain
``xarray.Variable`` objects afterwards.)

>>> import xarray as xr
>>> ds = xr.open_dataset("classic", engine=RelfterrainBackendEntrypoint,
...                      x0=23396, y0=5318, nx=800, ny=600)
>>> type(ds.surface_height.data).__module__, ds.surface_height.chunks
('dask.array.core', ((600,), (800,)))
>>> float(ds.ground_height.sel(x=23400, y=5320))
266.125
"""

from __future__ import annotations

import os
from typing import Any

from .presets import PRESETS

__all__ = ["DEFAULT_WINDOW", "RelfterrainBackendEntrypoint", "open_world"]

#: The default window ``(x0, y0, nx, ny, step)``: 4096 x 4096 m around the classic map.
DEFAULT_WINDOW = (21396.0, 3318.0, 4096, 4096, 1.0)


def open_world(world: Any) -> Any:
    """A Terrain from a saved world's path, a preset name or ``"classic"``."""
    from . import _shared

    Terrain = _shared.terrain_class()  # noqa: N806 (the class)

    if isinstance(world, Terrain):
        return world.copy()
    if isinstance(world, (bytes, bytearray)) or not isinstance(world, (str, os.PathLike)):
        raise TypeError(f"filename_or_obj: must be a saved world's path or a preset name, "
                        f"got {world!r:.80}")
    name = os.fspath(world)
    if name == "classic":
        return Terrain()
    if name in PRESETS:
        return Terrain.preset(name)
    if not os.path.isfile(name):
        raise FileNotFoundError(f"filename_or_obj: {name!r} is neither a file nor a preset "
                                f"({', '.join(['classic', *PRESETS])})")
    return Terrain.load(name)


try:
    from xarray import Variable as _Variable
    from xarray.backends import BackendEntrypoint as _Base
except ImportError:  # xarray missing: the class still imports, opening says what to install
    _Base = object  # type: ignore[assignment,misc]
    _Variable = object  # type: ignore[assignment,misc]


def _dask_inside(data: Any) -> Any:
    """The Dask array inside xarray's lazy wrappers of one (None if there is none)."""
    seen = 0
    while data is not None and seen < 8:
        if type(data).__module__.startswith("dask."):
            return data
        data = getattr(data, "array", None)
        seen += 1
    return None


class _KeepDask(_Variable):  # type: ignore[misc,valid-type]
    """A variable of the backend's Dataset: keeps its Dask array when xarray
    wraps it in lazy indexing (``open_dataset`` with ``chunks=None``), then
    becomes a plain ``xarray.Variable``."""

    __slots__ = ()

    @property
    def data(self) -> Any:
        return _Variable.data.fget(self)  # type: ignore[attr-defined]

    @data.setter
    def data(self, data: Any) -> None:
        inner = _dask_inside(data)
        if inner is not None and inner is self._data:
            self.__class__ = _Variable  # type: ignore[assignment]  # xarray's protection
            return
        _Variable.data.fset(self, data)  # type: ignore[attr-defined]


class RelfterrainBackendEntrypoint(_Base):  # type: ignore[misc,valid-type]
    """xarray backend entry point ``relfterrain`` (see the module)."""

    description = "Relf terrain: a lazy, Dask-backed window of a saved world or a preset"
    url = "https://github.com/relfterrain/relfterrain"
    open_dataset_parameters = ("filename_or_obj", "drop_variables", "x0", "y0", "nx", "ny",
                               "step", "dtype", "crs", "origin", "blocks", "threads")

    def open_dataset(self, filename_or_obj: Any, *, drop_variables: Any = None,
                     x0: Any = None, y0: Any = None, nx: Any = None, ny: Any = None,
                     step: Any = None, dtype: Any = None, crs: Any = None, origin: Any = None,
                     blocks: Any = None, threads: Any = 1) -> Any:
        from . import dask as rtd

        dx0, dy0, dnx, dny, dstep = DEFAULT_WINDOW
        t = open_world(filename_or_obj)
        ds = rtd.dataset(t, dx0 if x0 is None else x0, dy0 if y0 is None else y0,
                         dnx if nx is None else nx, dny if ny is None else ny,
                         dstep if step is None else step,
                         chunks=rtd.DEFAULT_CHUNKS if blocks is None else blocks,
                         dtype=dtype, threads=threads, crs=crs, origin=origin)
        if drop_variables:
            ds = ds.drop_vars(drop_variables)
        for name, v in ds.data_vars.items():
            # xr.open_dataset(..., chunks={}) keeps these blocks
            v.encoding["preferred_chunks"] = dict(zip(v.dims, (c[0] for c in v.chunks)))
            if _Variable is not object:
                ds.variables[name].__class__ = _KeepDask  # Dask-backed with chunks=None
        return ds

    def guess_can_open(self, filename_or_obj: Any) -> bool:
        if not isinstance(filename_or_obj, (str, os.PathLike)):
            return False
        name = os.fspath(filename_or_obj)
        return name in PRESETS or name == "classic"
