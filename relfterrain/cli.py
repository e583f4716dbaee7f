"""The ``relfterrain`` command.

Bare ``relfterrain`` computes a map area's grids into an ``.npz``: by default
the classic 800 x 600 m map of The Forest (x 23396..24195, y 5318..5917),
written to ``relfterrain_map.npz`` with a short summary (the area of each
terrain kind, the count of each feature).

Subcommands for pipelines (``relfterrain COMMAND --help`` for each):

* ``grid X0 Y0 NX NY -o out.{npz,nc,zarr}``: the four grids of
  :meth:`Terrain.grid` (with the coordinates and, for ``.nc`` and ``.zarr``,
  the CF metadata of :meth:`Terrain.dataset`);
* ``features X0 Y0 NX NY -o out.{csv,geojson,parquet}``: the point features
  of an area at 1 m spacing, one row each;
* ``stars X0 Y0 Z0 NX NY NZ -o out.{csv,parquet,npz}``: the star catalogue
  of a block of space;
* ``map [X0 Y0 NX NY] -o map.png``: the orienteering map (default the
  classic map; ``--streams`` marks the streams first);
* ``streams [X0 Y0 NX NY] -o out.{csv,geojson,parquet}``: the streams of an
  area (SPEC 7);
* ``site X Y``: findGoodSite (SPEC 12), printed as one JSON line (exit
  status 1 when no good site was found).

Every argument and the output path are checked before any work: a bad
number, an unknown extension, a missing folder or an unwritable path is a
one-line error with exit status 2. Outputs are written to a temporary file
beside the target and moved into place when complete (``os.replace``), so an
interrupted run leaves no partial file.

Adding a subcommand is one function plus its registration::

    def _hello_arguments(p):
        p.add_argument("name")

    @command("hello", "say hello", _hello_arguments)
    def _hello(args):
        print("hello", args.name)
        return 0
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import importlib.util
import json
import math
import os
import shutil
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._plain import CLASSIC_MAP, default_threads

if TYPE_CHECKING:
    import numpy as np

    from .terrain import Terrain
else:
    class _LazyModule:
        """A module imported at its first attribute (`relfterrain --help` and the
        parser need neither NumPy nor the C core: they start in a fraction
        of the time)."""

        def __init__(self, name: str) -> None:
            self._name = name

        def __getattr__(self, attr: str) -> Any:
            import importlib

            return getattr(importlib.import_module(self._name), attr)

    np = _LazyModule("numpy")

PROG = "relfterrain"


class CommandError(Exception):
    """A bad argument or output path: reported in one line, exit status 2."""


@dataclass(frozen=True)
class Command:
    """A subcommand: its name, one-line help, arguments and what it runs."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


#: The subcommands by name, in the order they were registered.
COMMANDS: dict[str, Command] = {}


def command(name: str, help: str, arguments: Callable[[argparse.ArgumentParser], None]
            ) -> Callable[[Callable[[argparse.Namespace], int]],
                          Callable[[argparse.Namespace], int]]:
    """Register ``run(args) -> exit status`` as the subcommand ``name``."""
    def register(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
        if name in COMMANDS:
            raise ValueError(f"name: the subcommand {name!r} is already registered")
        COMMANDS[name] = Command(name, help, arguments, run)
        return run
    return register


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit status 2)."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:  # type: ignore[override]
        ns, rest = super().parse_known_args(args, namespace)
        # argparse (3.11) drops a "--" attached to an option, "-o--", and
        # stores an empty list for it instead of a value: refused as the
        # option without a value is
        for action in self._actions:
            if (isinstance(action, argparse._StoreAction) and action.nargs in (None, "?")
                    and action.option_strings and isinstance(getattr(ns, action.dest, None), list)):
                self.error(f"argument {'/'.join(action.option_strings)}: expected one argument")
        return ns, rest


# ---------------------------------------------------------------------------
# Shared pieces: checks, outputs, progress
# ---------------------------------------------------------------------------


@contextlib.contextmanager
def checking() -> Iterator[None]:
    """Turn the library's argument errors into :class:`CommandError`."""
    try:
        yield
    except (ValueError, TypeError, OverflowError) as e:
        raise CommandError(str(e)) from None


def _needs(module: str, extra: str, what: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise CommandError(f"{what} needs {module}: pip install 'relfterrain[{extra}]'")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class Output:
    """The output path, checked up front, written through a temporary path.

    ``formats`` maps each accepted extension (lower case, with the dot) to a
    description. Construction checks the extension, that the folder exists
    and is writable (by creating the temporary file or folder beside the
    target) and that the target is not a directory (unless the format is a
    directory, ``.zarr``, and the target is an empty folder or a zarr store).
    Use as a context manager: on success :meth:`commit` moves the temporary
    into place; on any error it is removed.
    """

    def __init__(self, path: str, formats: dict[str, str], option: str = "-o/--output"):
        self.path = path
        base, ext = os.path.splitext(path)
        self.ext = ext.lower()
        if self.ext not in formats:
            known = ", ".join(f"{e} ({d})" for e, d in formats.items())
            got = f"'{ext}'" if ext else "no extension"
            raise CommandError(f"{option}: {path!r} has {got}; known: {known}")
        self.is_dir = self.ext == ".zarr"
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            what = "is not a folder" if os.path.exists(parent) else "does not exist"
            raise CommandError(f"{option}: the folder {parent!r} {what}")
        if os.path.isdir(path):
            if not self.is_dir:
                raise CommandError(f"{option}: {path!r} is a directory")
            if os.listdir(path) and not _is_zarr_store(path):
                raise CommandError(f"{option}: {path!r} is a non-empty directory that is not "
                                   "a zarr store; refusing to replace it")
        elif self.is_dir and os.path.exists(path):
            raise CommandError(f"{option}: {path!r} exists and is not a directory")
        name = os.path.basename(base) + ext
        try:
            if self.is_dir:
                self.tmp = tempfile.mkdtemp(prefix=f".{name}.", suffix=".part", dir=parent)
            else:
                fd, self.tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".part" + ext,
                                                dir=parent)
                os.close(fd)
        except OSError as e:
            raise CommandError(f"{option}: cannot write in {parent!r}: {e.strerror}") from None

    def __enter__(self) -> Output:
        return self

    def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()

    def discard(self) -> None:
        """Remove the temporary output (a zarr store once zarr's writes of
        it have ended: see ``_settle_zarr_io``)."""
        if self.is_dir:
            if self.ext == ".zarr":
                _settle_zarr_io()
            shutil.rmtree(self.tmp, ignore_errors=True)
        else:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.tmp)

    def commit(self) -> None:
        """Move the finished temporary output into place."""
        mode = (0o777 if self.is_dir else 0o666) & ~_umask()
        os.chmod(self.tmp, mode)
        if self.is_dir and os.path.isdir(self.path):
            # os.replace cannot replace a non-empty directory: swap it out first
            old = self.tmp + ".old"
            os.replace(self.path, old)
            os.replace(self.tmp, self.path)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(self.tmp, self.path)


#: How long ``_settle_zarr_io`` waits for zarr's writes, seconds.
ZARR_SETTLE_TIMEOUT = 60.0


@contextlib.contextmanager
def _zarr_warnings() -> Iterator[None]:
    """Silence the warning zarr 3 gives for consolidated metadata (not in the
    v3 spec yet; it is what lets ``xarray.open_zarr`` open the store without
    a warning)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Consolidated metadata", category=UserWarning)
        yield


def _settle_zarr_io() -> None:
    """Wait until zarr's I/O thread has no write left running.

    zarr 3 runs every read and write as a task on an event loop in its own
    thread; the calling thread only waits for it. A Ctrl-C ends the wait, not
    the task, which went on writing (the arrays' ``zarr.json``, chunks, the
    consolidated metadata) after the temporary store was removed, so the
    store's folder came back. Waiting here, after the pool's workers have
    stopped and before the removal, leaves nothing to come back. A second
    Ctrl-C does not stop the wait; it gives up after
    ``ZARR_SETTLE_TIMEOUT`` seconds (a hung disk)."""
    import asyncio
    import concurrent.futures

    sync = sys.modules.get("zarr.core.sync")
    loop = getattr(sync, "loop", [None])[0] if sync is not None else None
    if loop is None or loop.is_closed() or not loop.is_running():
        return

    async def idle() -> None:
        me = asyncio.current_task()
        while others := [t for t in asyncio.all_tasks() if t is not me]:
            await asyncio.wait(others)

    with _zarr_warnings():
        done = asyncio.run_coroutine_threadsafe(idle(), loop)
        deadline = time.monotonic() + ZARR_SETTLE_TIMEOUT
        while True:
            try:
                done.result(timeout=max(0.0, deadline - time.monotonic()))
                return
            except KeyboardInterrupt:
                continue
            except concurrent.futures.TimeoutError:
                done.cancel()
                return


#: A compressed output (``.zarr``, ``.npz --compress``) is refused only when
#: even this share of its raw size would not fit on the disk: the heights
#: (float64 or float32) of a terrain compress to no less than about half.
COMPRESSED_SHARE = 4


def _size(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n} bytes" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} bytes"  # pragma: no cover


def _check_space(path: str, nbytes: int, compressed: bool, what: str,
                 option: str = "-o/--output") -> None:
    """Refuse, before any work, an output that cannot fit on the free space
    of the target's disk (the old file it replaces counted as free)."""
    parent = os.path.dirname(os.path.abspath(path))
    try:
        free = shutil.disk_usage(parent).free
    except OSError:
        return  # no such folder: Output says so
    with contextlib.suppress(OSError):
        if os.path.isfile(path):
            free += os.stat(path).st_size
    need = nbytes // COMPRESSED_SHARE if compressed else nbytes
    if need > free:
        how = (f"at least {_size(need)} (1/{COMPRESSED_SHARE} of {_size(nbytes)} raw, "
               "compressed)") if compressed else _size(nbytes)
        raise CommandError(f"{option}: {what} needs {how} on disk, but {parent!r} has "
                           f"{_size(free)} free; choose a smaller area or another disk")


def _check_memory(nbytes: int, names: str, what: str) -> None:
    """Refuse, before any work, an in-memory result larger than the machine."""
    from . import _core

    try:
        _core.check_alloc(nbytes, names, what)
    except MemoryError as e:
        raise CommandError(str(e)) from None


def _is_zarr_store(path: str) -> bool:
    return any(os.path.exists(os.path.join(path, n)) for n in ("zarr.json", ".zgroup", ".zarray"))


def _progress_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="show a progress bar (needs tqdm; default: when stderr is a terminal)")


def _progress(args: argparse.Namespace) -> bool:
    have = importlib.util.find_spec("tqdm") is not None
    if args.progress is None:
        return have and sys.stderr.isatty()
    if args.progress and not have:
        raise CommandError("--progress needs tqdm: pip install 'relfterrain[progress]'")
    return bool(args.progress)


def _bar(show: bool, total: int, unit: str, desc: str) -> Any:
    if not show:
        return contextlib.nullcontext(None)
    from tqdm.auto import tqdm

    return tqdm(total=total, unit=unit, desc=desc, leave=False)


def _threads_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--threads", type=int, default=None,
                   help=f"threads (default all cores: {default_threads()})")


def _area_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("x0", type=float, metavar="X0", help="west edge (first column), metres")
    p.add_argument("y0", type=float, metavar="Y0", help="south edge (first row), metres")
    p.add_argument("nx", type=int, metavar="NX", help="columns")
    p.add_argument("ny", type=int, metavar="NY", help="rows")


def _terrain(args: argparse.Namespace) -> Terrain:
    with checking():
        from .terrain import Terrain

        return Terrain(lake_height=args.lake_height)


def _allow_huge_arg(p: argparse.ArgumentParser, limit: str) -> None:
    p.add_argument("--allow-huge", action="store_true",
                   help=f"run even beyond {limit} (refused otherwise; Ctrl-C stops a run)")


def _output_arg(p: argparse.ArgumentParser, formats: dict[str, str], columns: str = "") -> None:
    p.add_argument("-o", "--output", required=True,
                   help="output file: " + ", ".join(formats) + columns)


def _lake_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lake-height", type=float, default=None,
                   help="lake level (default 204, the classic lake base)")


def _check_threads(args: argparse.Namespace) -> int | None:
    if args.threads is not None and args.threads < 1:
        raise CommandError(f"--threads: must be >= 1, got {args.threads}")
    return args.threads


# ---------------------------------------------------------------------------
# Grids
# ---------------------------------------------------------------------------

_GRID_FORMATS = {".npz": "NumPy arrays", ".nc": "NetCDF via xarray",
                 ".zarr": "zarr store via xarray",
                 ".tif": "Cloud-Optimized GeoTIFF of --variable (north up, CRS)"}
_BAND_POINTS = 1 << 22  # points per band of an in-memory grid


def _netcdf_engine() -> str:
    if importlib.util.find_spec("netCDF4") is not None:
        return "netcdf4"
    if importlib.util.find_spec("h5netcdf") is not None and \
            importlib.util.find_spec("h5py") is not None:
        return "h5netcdf"
    raise CommandError("NetCDF output needs netCDF4 or h5netcdf: "
                       "pip install 'relfterrain[netcdf]'")


def _check_grid(args: argparse.Namespace) -> tuple:
    from ._validate import grid_args as _grid_args

    with checking():
        x0, y0, nx, ny, step, _, _ = _grid_args(args.x0, args.y0, args.nx, args.ny, args.step)
    _check_threads(args)
    return x0, y0, nx, ny, step


def _grid_in_bands(t: Terrain, x0: float, y0: float, nx: int, ny: int, step: float,
                   dtype: str, threads: int | None, show: bool) -> Any:
    """The whole grid in memory, computed in bands of rows (for the progress bar)."""
    h = np.empty((ny, nx), dtype=dtype)
    d = np.empty((ny, nx), dtype=dtype)
    tt = np.empty((ny, nx), dtype=np.uint8)
    f = np.empty((ny, nx), dtype=np.uint8)
    rows = max(1, _BAND_POINTS // nx)
    with _bar(show, ny, "row", "grid") as bar:
        for r in range(0, ny, rows):
            k = min(rows, ny - r)
            t.grid(x0, y0, nx, k, step, offset=(r, 0), threads=threads, dtype=dtype,
                   out=(h[r:r + k], d[r:r + k], tt[r:r + k], f[r:r + k]))
            if bar is not None:
                bar.update(k)
    from .dataset import grid_coords

    x, y = grid_coords(x0, y0, nx, ny, step)  # exactly the grid's doubles
    return x, y, h, d, tt, f


def _write_npz(path: str, compress: bool, arrays: dict[str, np.ndarray]) -> None:
    save: Any = np.savez_compressed if compress else np.savez
    with open(path, "wb") as fh:  # a file object: savez adds no ".npz" to the name
        save(fh, **arrays)


def _store_bytes(path: str) -> int:
    """Bytes of the files under a folder (a zarr store) or of a file."""
    if not os.path.isdir(path):
        return os.path.getsize(path)
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def _in_memory(nx: int, ny: int, dtype: str) -> bool:
    """Is the whole grid small enough to compute in memory and write at once?

    Below an eighth of the physical memory it is: one grid call and one write
    beat computing and writing block by block with dask (for NetCDF, whose
    writes go one at a time anyway, 4096 x 4096 took 1.5 s by blocks against
    0.4 s at once)."""
    point = (2 * np.dtype(dtype).itemsize + 2) * 2  # the grid, and the file's copy
    try:
        phys = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        phys = 1 << 32
    return nx * ny * point <= phys // 8


def _write_dataset(ds: Any, out: Output, engine: str | None, show: bool,
                   variable: str = "ground_height") -> None:
    callback: Any = contextlib.nullcontext()
    if show:
        with contextlib.suppress(ImportError):
            from tqdm.dask import TqdmCallback

            callback = TqdmCallback(desc="write", leave=False)
    with callback, _zarr_warnings():
        if out.ext == ".zarr":
            from ._codec import zarr_dataset_encoding

            ds.to_zarr(out.tmp, mode="w", encoding=zarr_dataset_encoding(ds))
        elif out.ext == ".tif":
            from .gis import write_cog

            write_cog(ds, variable, out.tmp)
        else:
            ds.to_netcdf(out.tmp, engine=engine)


def _shutdown(pool: Any) -> None:
    """Cancel the pool's waiting tasks and wait for the running ones, even
    through a second Ctrl-C (the output is removed only after)."""
    while True:
        try:
            pool.shutdown(wait=True, cancel_futures=True)
            return
        except KeyboardInterrupt:
            continue


def _grid_arguments(p: argparse.ArgumentParser) -> None:
    _area_args(p)
    p.add_argument("--step", type=float, default=1.0, help="grid spacing, metres (default 1)")
    p.add_argument("--dtype", choices=("float64", "float32"), default="float64",
                   help="height and depth dtype (float32: the exact doubles rounded)")
    _lake_arg(p)
    _threads_arg(p)
    p.add_argument("--chunk", type=int, default=2048,
                   help="block side for .zarr and .tif, computed and written block by "
                        "block with dask when installed (default 2048; .nc is written in "
                        "bands of rows)")
    p.add_argument("--compress", action="store_true", help=".npz: compress (slower)")
    p.add_argument("--variable", default="ground_height",
                   choices=("surface_height", "ground_height", "depth", "terrain", "feature"),
                   help=".tif: the variable written (default ground_height: the lake beds; "
                        "surface_height has the water surface on lakes)")
    _progress_arg(p)
    _output_arg(p, _GRID_FORMATS)


@command("grid", "a grid's height, depth, terrain and feature to .npz, .nc, .zarr or .tif",
         _grid_arguments)
def _grid(args: argparse.Namespace) -> int:
    from ._netcdf import available as netcdf_available
    from ._netcdf import write as write_netcdf

    x0, y0, nx, ny, step = _check_grid(args)
    if args.chunk < 1:
        raise CommandError(f"--chunk: must be >= 1, got {args.chunk}")
    t = _terrain(args)
    show = _progress(args)
    ext = os.path.splitext(args.output)[1].lower()
    per_point = 2 * np.dtype(args.dtype).itemsize + 2  # height, depth, terrain, feature
    banded = ext == ".nc" and netcdf_available()  # bounded memory at any size
    if ext == ".npz" or (importlib.util.find_spec("dask") is None and not banded):
        _check_memory(nx * ny * per_point, "NX, NY", f"a {ny} x {nx} grid ({args.dtype})")
    _check_space(args.output, nx * ny * per_point + 8 * (nx + ny),
                 ext == ".zarr" or (ext == ".npz" and args.compress),
                 f"a {ny} x {nx} grid ({args.dtype})")
    start = time.perf_counter()
    ds: Any = None
    with Output(args.output, _GRID_FORMATS) as out:
        engine = None
        if out.ext == ".tif":
            _needs("rioxarray", "geo", ".tif output")
        if out.ext in (".nc", ".zarr"):
            _needs("xarray", "xarray", f"{out.ext} output")
            if out.ext == ".zarr":
                _needs("zarr", "zarr", ".zarr output")
            else:
                engine = _netcdf_engine()
        if out.ext == ".npz":
            x, y, h, d, tt, f = _grid_in_bands(t, x0, y0, nx, ny, step, args.dtype,
                                               args.threads, show)
            _write_npz(out.tmp, args.compress, {"x": x, "y": y, "height": h, "depth": d,
                                                "terrain": tt, "feature": f})
        elif banded:
            # computed and written in bands by h5netcdf alone: bounded memory
            # at any size, and xarray, pandas and Dask are not imported (their
            # import was most of the time of a 4096 x 4096 grid)
            from ._window import FIELDS
            from .dataset import dataset_parts, terrain_window

            w = terrain_window(t, x0, y0, nx, ny, step, dtype=args.dtype, threads=args.threads)
            data_vars, coords, attrs, _ = dataset_parts(dict.fromkeys(FIELDS), t, step=w.step,
                                                        window=(w.x0, w.y0, w.nx, w.ny))
            with _bar(show, ny, "row", "grid") as bar:
                write_netcdf(out.tmp, data_vars, coords, attrs, window=w,
                             on_band=bar.update if bar is not None else None)
        elif importlib.util.find_spec("dask") is not None and not (
                out.ext == ".nc" and _in_memory(nx, ny, args.dtype)):
            from concurrent.futures import ThreadPoolExecutor

            import dask

            from . import dask as rtd

            ds = rtd.dataset(t, x0, y0, nx, ny, step, chunks=(args.chunk, args.chunk),
                             dtype=args.dtype)
            # our own pool: on Ctrl-C (or any error) dask returns at once while
            # its workers finish the chunks they hold; waiting for them keeps
            # any chunk from being written into the removed temporary store
            pool = ThreadPoolExecutor(args.threads or default_threads())
            try:
                with dask.config.set(scheduler="threads", pool=pool):
                    _write_dataset(ds, out, engine, show, args.variable)
            finally:
                _shutdown(pool)
        else:
            ds = t.dataset(x0, y0, nx, ny, step, dtype=args.dtype, threads=args.threads)
            _write_dataset(ds, out, engine, show, args.variable)
        written = _store_bytes(out.tmp)
    raw = ds.nbytes if ds is not None else 0
    ratio = f", compression {raw / written:.1f} to 1" if out.ext == ".zarr" and written else ""
    print(f"{PROG} grid: {ny} x {nx} points (step {step:g} m) in "
          f"{time.perf_counter() - start:.2f} s: wrote {args.output}{ratio}")
    return 0


# ---------------------------------------------------------------------------
# Point features
# ---------------------------------------------------------------------------

_FEATURE_FORMATS = {".csv": "comma-separated", ".geojson": "GeoJSON points",
                    ".parquet": "Apache Parquet"}
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _round_js(v: np.ndarray) -> np.ndarray:
    r = np.floor(v)
    return (r + (v - r >= 0.5)).astype(np.int64)


def _features_table(t: Terrain, x0: float, y0: float, nx: int, ny: int,
                    threads: int | None, show: bool) -> dict[str, np.ndarray]:
    """Every point feature of the area at step 1, in row order (south first)."""
    from ._types import Feature

    xs, ys, codes = [], [], []
    rows = max(1, _BAND_POINTS // nx)
    with _bar(show, ny, "row", "features") as bar:
        for r in range(0, ny, rows):
            k = min(rows, ny - r)
            f = t.feature_grid(x0, y0, nx, k, 1.0, offset=(r, 0), threads=threads)
            rr, cc = np.nonzero(f)
            # exactly the grid's points x0 + c*1.0, y0 + r*1.0
            xs.append(x0 + cc.astype(np.float64))
            ys.append(y0 + (r + rr).astype(np.float64))
            codes.append(f[rr, cc])
            if bar is not None:
                bar.update(k)
    x = np.concatenate(xs)
    y = np.concatenate(ys)
    code = np.concatenate(codes)
    names = np.array([m.name for m in Feature])[code]
    has = np.array([m.has_code for m in Feature])[code]
    xr, yr = _round_js(x), _round_js(y)
    alphabet = np.array(list(_ALPHABET))
    control = np.char.add(alphabet[np.abs(xr) % 26], alphabet[np.abs(yr) % 26])
    control = np.where(has, control, "")
    return {"x": x, "y": y, "feature": names.astype(str), "code": control.astype(str)}


def _write_csv(path: str, columns: dict[str, np.ndarray]) -> None:
    names = list(columns)
    cols = [c.tolist() for c in columns.values()]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(names)
        w.writerows(zip(*cols))


def _write_parquet(path: str, columns: dict[str, np.ndarray], meta: dict[str, str]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({k: pa.array(v) for k, v in columns.items()})
    table = table.replace_schema_metadata({k.encode(): v.encode() for k, v in meta.items()})
    pq.write_table(table, path)


def _geojson_member(meta: dict[str, str]) -> dict[str, Any]:
    """The ``relfterrain`` foreign member of a GeoJSON document: :func:`_meta`, its JSON decoded.

    (A foreign member: the coordinates are the terrain's metres, x east and
    y north, not longitude and latitude.)
    """
    return {k: json.loads(v) if v.startswith(("{", "[")) else v for k, v in meta.items()}


def _write_geojson(path: str, columns: dict[str, np.ndarray], meta: dict[str, str]) -> None:
    props = [k for k in columns if k not in ("x", "y")]
    values = {k: v.tolist() for k, v in columns.items()}
    features = [
        {"type": "Feature",
         "geometry": {"type": "Point", "coordinates": [values["x"][i], values["y"][i]]},
         "properties": {k: values[k][i] for k in props}}
        for i in range(len(values["x"]))
    ]
    doc = {"type": "FeatureCollection", "features": features,
           "relfterrain": _geojson_member(meta)}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh)


def _meta(params: Any, **extra: Any) -> dict[str, str]:
    from . import __version__

    out = {"relfterrain_version": __version__,
           "relfterrain_params": json.dumps(params.to_dict(), sort_keys=True),
           "relfterrain_fingerprint": params.fingerprint()}
    out.update({k: json.dumps(v) for k, v in extra.items()})
    return out


def _features_arguments(p: argparse.ArgumentParser) -> None:
    _area_args(p)
    _lake_arg(p)
    _threads_arg(p)
    _progress_arg(p)
    _allow_huge_arg(p, "MAX_SCAN_POINTS = 2**38 points")
    _output_arg(p, _FEATURE_FORMATS, " (columns x, y, feature, code)")


@command("features", "the point features of an area (1 m spacing) to .csv, .geojson or "
         ".parquet", _features_arguments)
def _features(args: argparse.Namespace) -> int:
    from . import _validate

    args.step = 1.0
    x0, y0, nx, ny, _ = _check_grid(args)
    with checking():
        _validate.work(nx * ny, _validate.MAX_SCAN_POINTS, "MAX_SCAN_POINTS", "NX, NY",
                       "the points scanned, NX * NY,", args.allow_huge)
    t = _terrain(args)
    show = _progress(args)
    start = time.perf_counter()
    with Output(args.output, _FEATURE_FORMATS) as out:
        if out.ext == ".parquet":
            _needs("pyarrow", "parquet", ".parquet output")
        cols = _features_table(t, x0, y0, nx, ny, args.threads, show)
        meta = _meta(t.params, area=[x0, y0, nx, ny])
        if out.ext == ".csv":
            _write_csv(out.tmp, cols)
        elif out.ext == ".geojson":
            _write_geojson(out.tmp, cols, meta)
        else:
            _write_parquet(out.tmp, cols, meta)
    print(f"{PROG} features: {len(cols['x'])} features in {ny} x {nx} m in "
          f"{time.perf_counter() - start:.2f} s: wrote {args.output}")
    return 0


# ---------------------------------------------------------------------------
# Stars
# ---------------------------------------------------------------------------

_STAR_FORMATS = {".csv": "comma-separated", ".parquet": "Apache Parquet",
                 ".npz": "NumPy arrays"}


def _int_literal(text: str) -> int:
    return int(text, 0)  # 127, 0x7f, 0o177, 0b1111111


_int_literal.__name__ = "int"  # argparse names the type in its messages


def _stars_arguments(p: argparse.ArgumentParser) -> None:
    for name, what in (("x0", "first x"), ("y0", "first y"), ("z0", "first z")):
        p.add_argument(name, type=int, metavar=name.upper(), help=f"{what}, light years")
    for name in ("nx", "ny", "nz"):
        p.add_argument(name, type=int, metavar=name.upper(), help=f"points along {name[1]}")
    p.add_argument("--f-mask", type=_int_literal, default=0xFFFF,
                   help="mask of the star test (default 0xffff; smaller: a denser galaxy)")
    p.add_argument("--f-value", type=_int_literal, default=127,
                   help="value of the star test (default 127)")
    _threads_arg(p)
    _progress_arg(p)
    _allow_huge_arg(p, "MAX_BLOCK_POINTS = 2**44 points")
    _output_arg(p, _STAR_FORMATS, " (columns x, y, z, magnitude, planets, colour)")


@command("stars", "the star catalogue of a block of space to .csv, .parquet or .npz",
         _stars_arguments)
def _stars(args: argparse.Namespace) -> int:
    from . import _validate
    from .galaxy import MAX_BLOCK_POINTS, Block, Galaxy

    with checking():
        block = Block(*_validate.space_block(args.x0, args.y0, args.z0, args.nx, args.ny,
                                             args.nz))
        galaxy = Galaxy(f_mask=args.f_mask, f_value=args.f_value)
        if block.volume > MAX_BLOCK_POINTS and not args.allow_huge:
            raise ValueError(f"NX, NY, NZ: a block of {block.volume} points is more than "
                             "MAX_BLOCK_POINTS = 2**44 (hours of work, or years); pass "
                             "--allow-huge to scan it anyway (Ctrl-C stops it)")
    _check_threads(args)
    show = _progress(args)
    start = time.perf_counter()
    with Output(args.output, _STAR_FORMATS) as out:
        if out.ext == ".parquet":
            _needs("pyarrow", "parquet", ".parquet output")
        cat = galaxy.stars(*block, threads=args.threads, progress=show,
                           allow_huge=args.allow_huge)
        names = cat.dtype.names or ()
        cols = {n: np.ascontiguousarray(cat[n]) for n in names}
        if out.ext == ".csv":
            _write_csv(out.tmp, cols)
        elif out.ext == ".parquet":
            _write_parquet(out.tmp, cols, _meta(galaxy.params, block=list(block)))
        else:
            _write_npz(out.tmp, False, cols)
    print(f"{PROG} stars: {len(cat)} stars in {block.nx} x {block.ny} x {block.nz} ly in "
          f"{time.perf_counter() - start:.2f} s: wrote {args.output}")
    return 0


# ---------------------------------------------------------------------------
# Maps, streams and sites
# ---------------------------------------------------------------------------

_MAP_FORMATS = {".png": "PNG picture"}


def _optional_area_args(p: argparse.ArgumentParser) -> None:
    x0, y0, nx, ny = CLASSIC_MAP
    p.add_argument("area", nargs="*", type=float, metavar="X0 Y0 NX NY",
                   help=f"the area (default the classic map: {x0} {y0} {nx} {ny})")


def _area(args: argparse.Namespace) -> tuple[float, float, int, int]:
    if not args.area:
        return CLASSIC_MAP
    if len(args.area) != 4:
        raise CommandError(f"X0 Y0 NX NY: give all four or none, got {len(args.area)} values")
    x0, y0, nx, ny = args.area
    for name, v in (("X0", x0), ("Y0", y0), ("NX", nx), ("NY", ny)):
        if not math.isfinite(v):
            raise CommandError(f"{name}: must be a finite number, got {v:g}")
    if nx != int(nx) or ny != int(ny):
        raise CommandError(f"NX, NY: must be whole numbers, got {nx:g}, {ny:g}")
    return x0, y0, int(nx), int(ny)


def _map_arguments(p: argparse.ArgumentParser) -> None:
    _optional_area_args(p)
    p.add_argument("--step", type=float, default=1.0, help="metres per pixel (default 1)")
    p.add_argument("--palette", choices=("relf", "isom"), default="relf",
                   help="the author's colours (default) or ISOM 2017-2")
    p.add_argument("--interval", type=float, default=5.0, help="contour interval (default 5)")
    p.add_argument("--no-contours", action="store_true", help="leave the contours out")
    p.add_argument("--streams", action="store_true",
                   help="mark the streams of the area (and a 300 m margin) first")
    _lake_arg(p)
    _threads_arg(p)
    p.add_argument("-o", "--output", default="relfterrain_map.png",
                   help="output file (.png; default relfterrain_map.png)")


@command("map", "the orienteering map of an area as a PNG picture", _map_arguments)
def _map(args: argparse.Namespace) -> int:
    x0, y0, nx, ny = _area(args)
    _check_threads(args)
    t = _terrain(args)
    with checking():
        from ._validate import grid_args as _grid_args
        from .maps import render

        _grid_args(x0, y0, nx, ny, args.step)
        if not args.interval > 0:
            raise ValueError(f"--interval: must be > 0, got {args.interval:g}")
    start = time.perf_counter()
    with Output(args.output, _MAP_FORMATS) as out:
        _needs("PIL", "maps", "a .png map")
        from .maps import save_png

        if args.streams:
            with checking():
                t.mark_streams(*_map_extent(x0, y0, nx, ny, args.step), threads=args.threads)
        with checking():
            img = render(t, x0, y0, nx, ny, args.step, palette=args.palette,
                         contours=not args.no_contours, interval=args.interval,
                         threads=args.threads)
        from .provenance import provenance

        save_png(img, out.tmp, text=provenance(t, x0, y0, nx, ny, args.step))
    print(f"{PROG} map: {nx} x {ny} pixels at {args.step:g} m in "
          f"{time.perf_counter() - start:.2f} s: wrote {args.output}")
    return 0


def _map_extent(x0: float, y0: float, nx: int, ny: int, step: float) -> tuple[int, int, int, int]:
    """The integer ground ``(x0, y0, nx, ny)`` in metres that a map of ``nx`` x
    ``ny`` pixels of ``step`` metres covers (its first pixel's point to its
    last one's, whole metres outward)."""
    xa, ya = math.floor(x0), math.floor(y0)
    xb, yb = math.ceil(x0 + (nx - 1) * step), math.ceil(y0 + (ny - 1) * step)
    return xa, ya, xb - xa + 1, yb - ya + 1


_STREAM_FORMATS = {".csv": "comma-separated, one row per point",
                   ".geojson": "GeoJSON line strings", ".parquet": "Apache Parquet, one row per point"}


def _streams_arguments(p: argparse.ArgumentParser) -> None:
    _optional_area_args(p)
    p.add_argument("--margin", type=int, default=300,
                   help="ponds this far outside the area count too (default 300 m)")
    p.add_argument("--neighbourhood", choices=("cross", "square", "circle"), default="cross",
                   help="the points a step scans (default cross, as the author's code)")
    p.add_argument("--max-length", type=float, default=300.0,
                   help="the length cap, metres (default 300; 0 or less: no cap)")
    _lake_arg(p)
    _threads_arg(p)
    _allow_huge_arg(p, "MAX_SCAN_POINTS = 2**38 points (the area and its margin)")
    _output_arg(p, _STREAM_FORMATS)


@command("streams", "the streams of an area (SPEC 7) to .csv, .geojson or .parquet",
         _streams_arguments)
def _streams(args: argparse.Namespace) -> int:
    x0, y0, nx, ny = _area(args)
    _check_threads(args)
    t = _terrain(args)
    if x0 != int(x0) or y0 != int(y0):
        raise CommandError(f"X0, Y0: streams start at integer points, got {x0:g}, {y0:g}")
    if math.isnan(args.max_length):
        raise CommandError("--max-length: must be a number (0 or less: no cap), got nan")
    cap = args.max_length if args.max_length > 0 else None
    start = time.perf_counter()
    with Output(args.output, _STREAM_FORMATS) as out:
        if out.ext == ".parquet":
            _needs("pyarrow", "parquet", ".parquet output")
        with checking():
            found = t.streams(int(x0), int(y0), nx, ny, margin=args.margin,
                              neighbourhood=args.neighbourhood, max_length=cap,
                              threads=args.threads, allow_huge=args.allow_huge)
        meta = _meta(t.params, area=[x0, y0, nx, ny], margin=args.margin,
                     neighbourhood=args.neighbourhood, max_length=cap)
        if out.ext == ".geojson":
            features = [
                {"type": "Feature",
                 "geometry": {"type": "LineString", "coordinates": s.route.tolist()},
                 "properties": {"stream": k, "source": list(s.source),
                                "length": s.length, "end": s.end, "marsh": s.marsh}}
                for k, s in enumerate(found)]
            doc = {"type": "FeatureCollection", "relfterrain": _geojson_member(meta),
                   "features": features}
            with open(out.tmp, "w", encoding="utf-8") as fh:
                json.dump(doc, fh)
        else:
            n = [len(s.route) for s in found]
            none = [np.zeros(0, np.int64)]
            cols = {
                "stream": np.repeat(np.arange(len(found), dtype=np.int64), n),
                "point": np.concatenate([np.arange(k, dtype=np.int64) for k in n] or none),
                "x": np.concatenate([s.route[:, 0] for s in found] or none),
                "y": np.concatenate([s.route[:, 1] for s in found] or none),
                "length": np.repeat([s.length for s in found], n).astype(np.float64),
                "end": np.repeat(np.array([s.end for s in found], dtype=str), n),
                "marsh": np.repeat(np.array([s.marsh for s in found], dtype=bool), n),
            }
            if out.ext == ".csv":
                _write_csv(out.tmp, cols)
            else:
                _write_parquet(out.tmp, cols, meta)
    print(f"{PROG} streams: {len(found)} streams in {time.perf_counter() - start:.2f} s: "
          f"wrote {args.output}")
    return 0


def _site_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("x", type=float, metavar="X", help="where to start, metres east")
    p.add_argument("y", type=float, metavar="Y", help="where to start, metres north")
    p.add_argument("--min-height", type=float, default=10.0,
                   help="metres above the lake (default 10)")
    p.add_argument("--clearance", type=float, default=10.0,
                   help="open ground all round, metres (default 10)")
    p.add_argument("--max-loops", type=int, default=1000, help="candidates (default 1000)")
    p.add_argument("--seed", type=int, default=None,
                   help="draw the spiral's starting angle from this seed (default angle 0)")
    _lake_arg(p)


@command("site", "findGoodSite (SPEC 12): a good site near X Y, printed as JSON",
         _site_arguments)
def _site(args: argparse.Namespace) -> int:
    t = _terrain(args)
    with checking():
        s = t.find_good_site(args.x, args.y, min_height=args.min_height,
                             clearance=args.clearance, max_loops=args.max_loops, rng=args.seed)
    print(json.dumps({"x": s.x, "y": s.y, "ok": s.ok, "altered": s.altered,
                      "reason": s.reason, "tries": s.tries}))
    return 0 if s.ok else 1



def _serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("world", nargs="?", default="classic",
                   help="a preset name (classic, forest, skylands, ...) or a world file "
                        "saved by Terrain.save (default: classic)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765)")


@command("serve", "serve the limitless map (tiles, a Leaflet page, point queries) over HTTP",
         _serve_arguments)
def _serve(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise CommandError(f"--port: must be in 0..65535, got {args.port}")
    _needs("starlette", "serve", "the map server")
    _needs("uvicorn", "serve", "the map server")
    from .serve import serve

    with checking():
        from .serve import create_app

        app = create_app(args.world)
    print(f"{PROG} serve: http://{args.host}:{args.port}/ (Ctrl-C stops)", flush=True)
    serve(app, host=args.host, port=args.port)
    return 0

# ---------------------------------------------------------------------------
# The default job: the classic map and its summary
# ---------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    x0, y0, nx, ny = CLASSIC_MAP
    commands = "\n".join(f"  {c.name:<10} {c.help}" for c in COMMANDS.values())
    p = _Parser(
        prog=PROG,
        description="Compute the Relf terrain of a map area and save its grids as .npz "
        "(arrays x, y, height, depth, terrain, feature), with a summary.",
        epilog=f"commands (relfterrain COMMAND --help):\n{commands}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--x0", type=float, default=x0, help=f"west edge, metres (default {x0})")
    p.add_argument("--y0", type=float, default=y0, help=f"south edge, metres (default {y0})")
    p.add_argument("--nx", type=int, default=nx, help=f"columns (default {nx})")
    p.add_argument("--ny", type=int, default=ny, help=f"rows (default {ny})")
    p.add_argument("--step", type=float, default=1.0, help="grid spacing, metres (default 1)")
    _lake_arg(p)
    _threads_arg(p)
    p.add_argument("--compress", action="store_true", help="compress the .npz (slower)")
    p.add_argument("-o", "--output", default="relfterrain_map.npz",
                   help="output .npz file (default relfterrain_map.npz)")
    return p


def summarize(terrain: np.ndarray, feature: np.ndarray, step: float) -> str:
    """A text table: area per terrain kind and count per feature."""
    from ._types import Feature, TerrainType

    cell = step * step
    lines = ["terrain      area m^2   share"]
    counts = np.bincount(terrain.ravel(), minlength=len(TerrainType))
    total = terrain.size
    for kind in TerrainType:
        n = int(counts[kind])
        if n:
            lines.append(f"{kind.name:<10} {n * cell:>10.0f}  {100.0 * n / total:5.1f} %")
    lines.append("")
    lines.append("feature      count")
    fcounts = np.bincount(feature.ravel(), minlength=len(Feature))
    for f in Feature:
        if f is not Feature.NONE and fcounts[f]:
            lines.append(f"{f.name:<10} {int(fcounts[f]):>7}")
    lines.append(f"{'all':<10} {int(fcounts[1:].sum()):>7}")
    return "\n".join(lines)


def _classic(args: argparse.Namespace) -> int:
    x0, y0, nx, ny, step = _check_grid(args)
    _check_memory(nx * ny * 18, "--nx, --ny", f"a {ny} x {nx} grid")
    _check_space(args.output, nx * ny * 18 + 8 * (nx + ny), args.compress, f"a {ny} x {nx} grid")
    t = _terrain(args)
    with Output(args.output, {".npz": "NumPy arrays"}) as out:
        start = time.perf_counter()
        g = t.grid(x0, y0, nx, ny, step, threads=args.threads)
        elapsed = time.perf_counter() - start
        _write_npz(out.tmp, args.compress, {"x": g.x, "y": g.y, "height": g.height,
                                            "depth": g.depth, "terrain": g.terrain,
                                            "feature": g.feature})
    x1 = x0 + (nx - 1) * step
    y1 = y0 + (ny - 1) * step
    print(f"relfterrain: x {x0:g}..{x1:g}, y {y0:g}..{y1:g}, step {step:g} m: "
          f"{ny} x {nx} points in {elapsed * 1e3:.1f} ms")
    print(f"height {g.height.min():.2f} .. {g.height.max():.2f} m, lake level {t.lake_height:g} m")
    print(summarize(g.terrain, g.feature, step))
    print(f"wrote {args.output}")
    return 0


def _command_parser(cmd: Command) -> argparse.ArgumentParser:
    p = _Parser(prog=f"{PROG} {cmd.name}", description=cmd.help[0].upper() + cmd.help[1:] + ".")
    cmd.arguments(p)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in COMMANDS:
        cmd = COMMANDS[args_list[0]]
        prog = f"{PROG} {cmd.name}"
        args = _command_parser(cmd).parse_args(args_list[1:])
        run = cmd.run
    else:
        prog = PROG
        args = _parser().parse_args(args_list)
        run = _classic
    try:
        return run(args)
    except CommandError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except MemoryError as e:
        # a request past memory, refused before any work (the message names
        # the sizes): a refusal of the arguments, status 2 (found by
        # fuzz_cli: `map 99999999999 2 99999999999 99999999999` exited 1)
        print(f"{prog}: error: {str(e) or type(e).__name__}", file=sys.stderr)
        return 2
    except OSError as e:
        text = e.strerror if isinstance(e, OSError) and e.strerror else str(e) or type(e).__name__
        where = f" ({e.filename})" if isinstance(e, OSError) and e.filename else ""
        print(f"{prog}: error: {text}{where}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
