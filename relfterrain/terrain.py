"""The classic Relf terrain: heights, lakes, terrain kinds and point features."""

from __future__ import annotations

import dataclasses
import inspect
import math
import numbers
import operator
import os
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from . import _core, _precision, _shared, _validate
from . import features as _features
from . import roads as _roads
from . import streams as _streams
from ._params import TerrainParams
from ._seed import CLASSIC_MAP, CLASSIC_PROFILE, CLASSIC_VECTORS
from ._types import Feature, Period, Sample, Terra, TerrainGrid, TerrainType
from ._validate import default_threads
from .streams import MarkResult, Stream

__all__ = [
    "CLASSIC_MAP",
    "CLASSIC_PROFILE",
    "CLASSIC_VECTORS",
    "TERRAIN_DOMAIN",
    "Terrain",
    "TerrainParams",
    "default_threads",
    "orienteering_code",
    "simd_variants",
]

ArrayLike = Any
Placeable = TerrainType | Feature

#: Inside ``|x|, |y| <= TERRAIN_DOMAIN`` results equal the original bit for bit.
TERRAIN_DOMAIN: float = _core.TERRAIN_DOMAIN

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def simd_variants() -> list[str]:
    """The SIMD variants of the grid kernels this CPU can run, best last.

    Every variant gives the same bits; they differ only in speed. Choose one
    with ``Terrain(simd=...)`` or the ``RELFTERRAIN_SIMD`` environment
    variable (default ``"auto"``: the best available).

    >>> "scalar" in simd_variants()
    True
    """
    return [name for name, (code, ok, _) in _core.simd_variants().items() if ok and code > 0]


def orienteering_code(xr: int, yr: int) -> str:
    """The two-letter orienteering control code of the integer point ``(xr, yr)``.

    As the seed's ``getCode``: ``ALPHABET[|xr| % 26] + ALPHABET[|yr| % 26]``.

    >>> orienteering_code(27, -2)
    'BC'
    """
    return _ALPHABET[abs(operator.index(xr)) % 26] + _ALPHABET[abs(operator.index(yr)) % 26]


_threads = _validate.threads
_finite = _validate.real


def _core_threads(value: int | None) -> int | None:
    """A checked thread count for the core's terrain calls; None stays None:
    the core then uses the cores that are idle at the call (one for small
    grids), so the default never makes a call wait on a busy core."""
    return None if value is None else _threads(value)


def _count(value: Any, name: str) -> int:
    return _validate.integer(value, name, 1)


_grid_args = _validate.grid_args


def _coords(v: ArrayLike, name: str) -> np.ndarray:
    """Coordinates: real numbers only (no strings, bools or complex), as float64."""
    try:
        raw = np.asarray(v)
        # Python ints beyond int64 make an object array: real numbers still
        if raw.dtype.kind == "O" and all(
                isinstance(e, numbers.Real) and not isinstance(e, bool) for e in raw.flat):
            pass
        elif raw.dtype.kind not in "iuf":
            raise TypeError
    except (TypeError, ValueError, OverflowError):
        raise TypeError(f"{name}: must be a real number or an array-like of real numbers, "
                        f"got {v!r:.80}") from None
    try:
        return np.asarray(raw, dtype=np.float64)
    except OverflowError:
        raise ValueError(f"{name}: coordinates must be finite (float64), got {v!r:.80}") from None


def _points(x: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray, tuple]:
    xa = _coords(x, "x")
    ya = _coords(y, "y")
    try:
        xb, yb = np.broadcast_arrays(xa, ya)
    except ValueError:
        raise ValueError(f"x, y: shapes {xa.shape} and {ya.shape} do not broadcast") from None
    for name, a in (("x", xa), ("y", ya)):
        if not np.isfinite(a).all():
            raise ValueError(f"{name}: coordinates must be finite")
    shape = xb.shape
    return np.ascontiguousarray(xb).ravel(), np.ascontiguousarray(yb).ravel(), shape


def _encode(what: Any) -> int:
    """The core's one-byte encoding of a placed terrain type or feature."""
    if isinstance(what, TerrainType):
        return _core.PLACED_TERRAIN | int(what)
    if isinstance(what, Feature):
        return _core.PLACED_FEATURE | int(what)
    raise TypeError(
        f"what: must be a relfterrain.TerrainType or a relfterrain.Feature, got {what!r}"
    )


def _items(items: tuple[np.ndarray, np.ndarray, np.ndarray]) -> dict[tuple[int, int], int]:
    """The placed table's ``(xs, ys, codes)`` as a dict ``{(x, y): code}``."""
    xs, ys, codes = items
    return dict(zip(zip(xs.tolist(), ys.tolist()), codes.tolist()))


def _decode(code: int) -> Placeable | None:
    if code == 0:
        return None
    kind = code & ~_core.PLACED_CODE_MASK
    value = code & _core.PLACED_CODE_MASK
    return TerrainType(value) if kind == _core.PLACED_TERRAIN else Feature(value)


_readonly = _validate.readonly


#: Placed points are integer points with |x|, |y| <= 2**53: every such
#: integer is a double, so terra's rounded point can be exactly it (beyond,
#: an entry could never be looked up again).
PLACED_LIMIT = 2**53


class PlacedView(Mapping):
    """A read-only live view of a terrain's placed table: ``{(x, y): what}``.

    Change it with :meth:`Terrain.place`, :meth:`Terrain.remove` and
    :meth:`Terrain.remove_all`.
    """

    def __init__(self, core: Any) -> None:
        self._core = core

    def __len__(self) -> int:
        return self._core.placed_count()

    def __getitem__(self, key: tuple[int, int]) -> Placeable:
        x, y = key
        v = _decode(self._core.at(operator.index(x), operator.index(y)))
        if v is None:
            raise KeyError(key)
        return v

    def __iter__(self) -> Iterator[tuple[int, int]]:
        xs, ys, _ = self._core.placed_items()
        return iter(list(zip(xs.tolist(), ys.tolist())))

    def __repr__(self) -> str:
        return f"PlacedView({dict(self.items())!r})"


class Terrain:
    """The Relf terrain generator: limitless terrain computed point by point.

    Every parameter defaults to the classic 1983 model of The Forest (see
    ``SPEC.md`` section 3). Results equal the JavaScript original bit for bit
    inside ``|x|, |y| <= 2**26`` (:data:`TERRAIN_DOMAIN`).

    A terrain is its parameters (:attr:`params`, an immutable
    :class:`TerrainParams`) plus its world state (the :attr:`placed` table).
    It pickles and deep-copies (so it can be shipped to worker processes:
    ``ProcessPoolExecutor``, multiprocessing, Dask), and a copy computes the
    same bits. ``t.replace(lake_height=230)`` is a changed copy.

    Parameters
    ----------
    params : TerrainParams, optional
        The parameters as a value; keyword options below change it.
    profile : array-like of float, optional
        The periodic profile. Its length must be a power of two (1 .. 2**24);
        values must be finite. Default :data:`CLASSIC_PROFILE`.
    ah, bh, a1, b1, a2, b2, a3, b3 : sequence of int, optional
        Direction vectors: ``ah, bh`` for height, ``a1 .. b3`` for terrain
        kinds and point features. Integers with ``|v| <= 2**20``, all eight of
        one common length N (1 <= N <= 64). Any not given takes its classic
        value (then N must be 5).
    lake_base : float
        The lake level of the dry-weather terrain (204). Ground below it but
        above ``lake_height`` is MUD.
    lake_height : float, optional
        The current lake level, default ``lake_base``. Settable later: rain
        raises it, draining lowers it; raising it a lot makes islands.
    feature_mask : int
        Mask of the point-feature test (``0xfff``, as every running version of
        the original; the seed PDF's ``0xffff`` gives far fewer features).
    feature_point, feature_x, feature_cone, mine_below, boulder_below, \
waterhole_below, knoll_below, x_below, cone_below : int
        The point-feature thresholds of SPEC 5 (4, 8, 16; 32, 128, 160, 200;
        4, 8): see :class:`TerrainParams`.
    town_below, grass_below, open_below, thicket_below : float
        The vegetation thresholds of SPEC 5 (120, 255, 255, 200).
    with_paths : bool
        Make the experimental paths of the seed (ground nearly as high as the
        ground ``path_dx`` east and ``path_dy`` north, within
        ``path_tolerance``: 4000, 2000, 2).
    mountain_base : float, optional
        If given, heights above it become ``base + dz * sqrt(dz)``.
    snow_height : float, optional
        If given, ground above it is SNOW.
    wood_only : bool
        No vegetation: all dry ground is WOOD (features are kept).
    bleak : bool
        Heights only: every point GRASS, no lakes and no features.
    calc_prof, rock_above, quarry_below, quarry_depth, quarry_min_height, \
path_height, snow_keeps_feature, pi10000
        The rules of the author's programs as they run today (SPEC 17, all
        off by default; see :class:`TerrainParams` and the guide page
        ``docs/guide/forest-2026.md``): ``calc_prof="js"`` gives the
        JavaScript's terrain kinds at fractional points (the default
        ``"java"`` the Java reference's); ``Terrain.preset("forest_2026")``
        is The Forest of 2026.
    simd : str, optional
        The SIMD variant of the grid kernels (see :func:`simd_variants`):
        ``"auto"`` (the default, or the ``RELFTERRAIN_SIMD`` environment
        variable), ``"scalar"``, ``"avx2"`` (AVX2 with FMA), ``"avx512"``
        (AVX-512 F, BW, DQ, VL, and the AVX2 variant's FMA),
        ``"avx512vbmi"``. All give the same bits; it is not a parameter of
        the terrain.

    Examples
    --------
    >>> import relfterrain as rt
    >>> t = rt.Terrain()
    >>> t.height(0, 0)
    385.0
    >>> g = t.grid(*rt.CLASSIC_MAP)
    >>> g.height.shape
    (600, 800)
    >>> int((g.feature != rt.Feature.NONE).sum())
    90
    >>> wet = t.replace(lake_height=270)
    >>> wet.terra(23400, 5320).terrain, t.terra(23400, 5320).terrain
    (<TerrainType.LAKE: 0>, <TerrainType.MOOR: 3>)
    """

    # set by __init__
    _core: Any  # the C state, a relfterrain._core.TerrainCore
    _params: TerrainParams
    _placed: PlacedView
    _simd_request: str | None
    _lock: threading.RLock  # one writer at a time: world-state changes are atomic

    def __init__(self, params: TerrainParams | None = None, *, simd: str | None = None,
                 **options: Any) -> None:
        unknown = sorted(set(options) - {f.name for f in dataclasses.fields(TerrainParams)})
        if unknown:
            raise TypeError(f"{', '.join(unknown)}: not a parameter of the terrain (see "
                            f"relfterrain.TerrainParams for the parameters)")
        if params is None:
            params = TerrainParams(**options)
        elif not isinstance(params, TerrainParams):
            raise TypeError(f"params: must be a relfterrain.TerrainParams, got {params!r}")
        elif options:
            params = params.replace(**options)
        simd_code = _validate.simd_code(simd)
        args, kwargs = params.core_args()
        self._core = _core.TerrainCore(*args, **kwargs)
        self._core.simd = simd_code
        self._params = params
        self._simd_request = simd
        self._placed = PlacedView(self._core)
        # Every change of the world state (placed table, roads, lake height)
        # and every read of more than one piece of it (copies, pickles,
        # saving) holds this lock, so each is one step under threads; grids
        # and points need no lock (they compute from a snapshot of the table).
        self._lock = threading.RLock()

    # -- value semantics: parameters, copies, pickling ------------------------

    @property
    def params(self) -> TerrainParams:
        """The parameters, an immutable value (hashable, with a stable
        :meth:`~TerrainParams.fingerprint`)."""
        return self._params

    def replace(self, **changes: Any) -> Terrain:
        """A copy with the named parameters changed and the same world state.

        >>> Terrain().replace(town_below=150).params.town_below
        150.0
        """
        with self._lock:
            return self._rebuild(self._params.replace(**changes), self._world_state(),
                                 self._simd_request)

    def copy(self) -> Terrain:
        """An independent copy: the same parameters and world state."""
        with self._lock:
            return self._rebuild(self._params, self._world_state(), self._simd_request)

    def _world_state(self) -> dict[str, Any]:
        """What a terrain holds beyond its parameters, as plain arrays."""
        with self._lock:
            xs, ys, codes = self._core.placed_items()
            state = {"placed": (xs, ys, codes)}
            state.update(_roads.world_state(self))  # roads (SPEC 13)
            return state

    @classmethod
    def _rebuild(cls, params: TerrainParams, state: dict[str, Any],
                 simd: str | None) -> Terrain:
        try:
            t = cls(params, simd=simd)
        except ValueError:  # a variant this machine lacks: the bits are the same
            t = cls(params)
        xs, ys, codes = state["placed"]
        # the whole table in one call (all or nothing), not one place() per entry
        _core.placed_set_many(t._core, np.stack([np.asarray(xs, np.int64),
                                                 np.asarray(ys, np.int64)], axis=1),
                              np.asarray(codes, np.uint8))
        _roads.restore_world_state(t, state)  # roads (SPEC 13)
        return t

    def __reduce__(self) -> tuple:
        with self._lock:
            return (Terrain._rebuild, (self._params, self._world_state(), self._simd_request))

    def __copy__(self) -> Terrain:
        return self.copy()

    def __deepcopy__(self, memo: dict) -> Terrain:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        """Equal parameters and equal world state (the SIMD variant aside)."""
        if not isinstance(other, Terrain):
            return NotImplemented
        with self._lock:
            mine = (self._params, self._core.placed_items())
        with other._lock:
            theirs = (other._params, other._core.placed_items())
        if mine[0] != theirs[0] or mine[1][0].size != theirs[1][0].size:
            return False
        return _items(mine[1]) == _items(theirs[1])

    __hash__ = None  # type: ignore[assignment]  # mutable: hash the params instead

    # -- parameters ---------------------------------------------------------

    @property
    def profile(self) -> np.ndarray:
        """The profile (read-only float64)."""
        return self._params.profile

    ah = property(lambda self: _vector_view(self._params.ah), doc="Height vector A.")
    bh = property(lambda self: _vector_view(self._params.bh), doc="Height vector B.")
    a1 = property(lambda self: _vector_view(self._params.a1), doc="Town vector A.")
    b1 = property(lambda self: _vector_view(self._params.b1), doc="Town vector B.")
    a2 = property(lambda self: _vector_view(self._params.a2), doc="Vegetation vector A2.")
    b2 = property(lambda self: _vector_view(self._params.b2), doc="Vegetation vector B2.")
    a3 = property(lambda self: _vector_view(self._params.a3), doc="Vegetation vector A3.")
    b3 = property(lambda self: _vector_view(self._params.b3), doc="Vegetation vector B3.")

    @property
    def period(self) -> Period:
        """The world's periods: heights and kinds repeat every ``x`` m east
        and every ``y`` m north; point features do not repeat.

        Derived from the parameters (SPEC 4, 5): every height term reads the
        profile (length ``L``) at index ``(A[i]*x + B[i]*y) / 128`` modulo
        ``L``, every kind term (``a1 .. b3``) at ``floor(A[i]*x + B[i]*y) >>
        7`` modulo ``L``. A shift of ``P`` metres along x leaves all of them
        unchanged when ``A[i]*P`` is a multiple of ``128*L`` for every x
        component (``ah, a1, a2, a3``); the smallest such ``P`` is
        ``128*L / gcd(g, 128*L)``, ``g`` the gcd of those components (1 when
        they are all 0: nothing depends on x), likewise along y with ``bh,
        b1, b2, b3``. Lake, mud, paths, snow and mountains follow the
        heights, so they repeat too. Point features do not: their rule
        multiplies the rounded ``x`` by ``y`` (SPEC 5), so ``features`` is
        None. Placed entries and roads (SPEC 6, 13) sit at one point each and
        do not repeat either. The shift is exact in exact arithmetic; the
        computed doubles repeat bit for bit where the coordinates and their
        products are exact (integer points, and fractions of few bits, inside
        :data:`TERRAIN_DOMAIN`). A profile that itself repeats within its
        length (a constant one, say) repeats sooner than ``P``.

        Returns
        -------
        Period
            ``Period(x, y, features=None)``, in metres.

        Examples
        --------
        >>> Terrain().period                  # the classic world: 128 * 256 m
        Period(x=32768, y=32768, features=None)
        >>> t = Terrain()
        >>> t.height(23400, 5320) == t.height(23400 + 32768, 5320 - 2 * 32768)
        True
        >>> Terrain(ah=(0, 2), bh=(4, 6), a1=(2, 2), b1=(8, 4), a2=(4, 0), b2=(2, 0),
        ...         a3=(6, 2), b3=(4, 4)).period
        Period(x=16384, y=16384, features=None)
        """
        n = 128 * int(self._params.profile.size)

        def shift(names: tuple[str, ...]) -> int:
            g = 0
            for name in names:
                for v in getattr(self._params, name):
                    g = math.gcd(g, int(v))
            return n // math.gcd(g, n)

        return Period(shift(("ah", "a1", "a2", "a3")), shift(("bh", "b1", "b2", "b3")))

    @property
    def directions(self) -> int:
        """N, the number of directions summed."""
        return self._params.directions

    @property
    def simd(self) -> str:
        """The SIMD variant the grid kernels run as (settable, see :func:`simd_variants`)."""
        table = _core.simd_variants()
        name = next(n for n, (c, _, _) in table.items() if c == self._core.simd)
        return table[name][2]

    @simd.setter
    def simd(self, value: str) -> None:
        self._core.simd = _validate.simd_code(value)
        self._simd_request = value

    @property
    def lake_height(self) -> float:
        """The current lake level; assign to raise (rain) or lower (drain) it."""
        return self._params.lake_height  # type: ignore[return-value]

    @lake_height.setter
    def lake_height(self, value: float) -> None:
        with self._lock:
            params = self._params.replace(lake_height=value)
            self._core.lake_height = params.lake_height
            self._params = params

    def __getattr__(self, name: str) -> Any:
        # every other parameter reads through (lake_base, town_below, ...)
        if name.startswith("_"):
            raise AttributeError(name)
        params = self.__dict__.get("_params")
        if params is not None and name in TerrainParams.__dataclass_fields__:
            return getattr(params, name)
        raise AttributeError(f"'Terrain' object has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        if name in TerrainParams.__dataclass_fields__ and name != "lake_height":
            raise AttributeError(
                f"{name}: a terrain's parameters are read-only; use "
                f"terrain.replace({name}=...) for a changed copy")
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        parts = [f"{k}=<{v.size} values>" if isinstance(v, np.ndarray) else f"{k}={v!r}"
                 for k, v in self._params.changed().items()]
        if len(self._placed):
            parts.append(f"placed={len(self._placed)}")
        return f"Terrain({', '.join(parts)})"

    # -- points -------------------------------------------------------------

    def height(self, x: ArrayLike, y: ArrayLike, t: ArrayLike | None = None, *,
               threads: int | None = 1) -> Any:
        """Ground height at ``(x, y)`` (SPEC 4), interpolated, broadcasting.

        Returns a Python float for two scalars, else a float64 array of the
        broadcast shape. Lakes are not applied: see :meth:`terra` for the
        water surface. ``t`` (seconds, broadcasting too) is the time of a
        terrain made with ``time_vector`` (SPEC 14, :mod:`relfterrain.evolve`).

        >>> Terrain().height([0.0, 0.5], 0)
        array([385.        , 385.99609375])
        """
        if t is not None:
            from . import evolve

            return evolve.height(self, x, y, t, threads=threads)
        xf, yf, shape = _points(x, y)
        out = self._core.height_points(xf, yf, threads=_core_threads(threads))
        if shape == ():
            return float(out[0])
        return out.reshape(shape)

    def sample(self, x: ArrayLike, y: ArrayLike, *, threads: int | None = None) -> Sample:
        """terra at arbitrary points, broadcasting: ``Sample(height, depth, terrain, feature)``.

        >>> s = Terrain().sample([23400.5, 23401], 5320)
        >>> s.terrain.dtype, s.height.shape
        (dtype('uint8'), (2,))
        """
        xf, yf, shape = _points(x, y)
        h, d, t, f = self._core.terra_points(xf, yf, threads=_core_threads(threads))
        return Sample(h.reshape(shape), d.reshape(shape), t.reshape(shape), f.reshape(shape))

    def terra(self, x: float, y: float) -> Terra:
        """Everything at one point, as the seed's ``terra(x, y)``.

        >>> Terrain().terra(23400, 5320).terrain
        <TerrainType.MOOR: 3>
        """
        x = _finite(x, "x")
        y = _finite(y, "y")
        h, d, t, f = self._core.terra_points([x], [y], threads=1)
        feature = Feature(int(f[0]))
        code = ""
        if feature.has_code:
            code = orienteering_code(_round_js(x), _round_js(y))
        return Terra(float(h[0]), TerrainType(int(t[0])), feature, code, float(d[0]))

    def tree_selector(self, x: ArrayLike, y: ArrayLike) -> Any:
        """Which of four tree images stands at the rounded point (0..3).

        ``toint32(round(PI10000 * xr * yr)) & 3``; an int for two scalars.
        """
        xf, yf, shape = _points(x, y)
        out = self._core.tree_selector(xf, yf)
        if shape == ():
            return int(out[0])
        return out.reshape(shape)

    def buildings(self, x0: int, y0: int, nx: int, ny: int) -> np.ndarray:
        """Centres ``(xr, yr)`` of the town buildings in ``[x0, x0+nx) x [y0, y0+ny)``.

        Each building is a 12 m square centred on a point whose coordinates
        are multiples of 16, on TOWN ground (SPEC 5). Returns int64 ``(k, 2)``.
        """
        return self._core.buildings(_validate.integer(x0, "x0", int64=True),
                                    _validate.integer(y0, "y0", int64=True),
                                    _count(nx, "nx"), _count(ny, "ny"))

    # -- grids --------------------------------------------------------------

    def height_grid(
        self,
        x0: float,
        y0: float,
        nx: int,
        ny: int,
        step: float = 1.0,
        *,
        offset: tuple[int, int] = (0, 0),
        out: np.ndarray | None = None,
        threads: int | None = None,
        t: float | None = None,
        dtype: Any = None,
    ) -> np.ndarray:
        """Ground height on a grid: float64 (or float32) ``(ny, nx)``.

        Element ``[r, c]`` is the height at ``(x0 + c*step, y0 + r*step)``;
        row 0 is the southern edge (plot with ``origin="lower"``).

        Parameters
        ----------
        x0, y0 : float
            The south-west corner.
        nx, ny : int
            Columns and rows (>= 1).
        step : float
            Spacing in metres (> 0).
        offset : (int, int)
            ``(row, column)`` index of the first point within the grid
            ``(x0, y0, step)``: the result is rows ``row .. row+ny-1`` and
            columns ``column .. column+nx-1`` of that grid, point ``[r, c]``
            at ``(x0 + (column+c)*step, y0 + (row+r)*step)``. Blocks computed
            this way assemble into the whole grid bit for bit, whatever the
            step (shifting ``x0`` by ``column*step`` instead would round
            differently for a step such as 0.3).
        out : ndarray, optional
            A C-contiguous writeable ``(ny, nx)`` array of the dtype to fill
            and return (not touched if the call fails or is interrupted: see
            Notes).
        threads : int, optional
            Threads to split the rows across; default all cores. The result
            is the same for every count.
        t : float, optional
            The time (seconds) of a terrain made with ``time_vector`` (SPEC 14);
            at ``t=0`` the static heights, bit for bit.
        dtype : {None, "float64", "float32"}
            The result's (and ``out``'s) dtype: float64 by default. The
            core always computes doubles; float32 is the exact double result
            rounded to nearest, row by row as the rows are computed (the extra
            memory is one row a thread, not a full-size double array).

        Notes
        -----
        Every grid function (this one, :meth:`terrain_grid`,
        :meth:`feature_grid`, :meth:`grid`) checks the bytes it will allocate
        in all against the physical memory first (MemoryError naming
        ``nx, ny``), and computes a grid of more than 2**24 points in row
        blocks, one C call each with the GIL released: Ctrl-C raises
        KeyboardInterrupt between blocks (within a fraction of a second).
        Given ``out=`` arrays are then filled from a private scratch copy at
        the end, so an interrupted call leaves them untouched (only if that
        scratch would not fit in the physical memory are the rows written in
        place, and an interrupt leaves the rows computed so far). The result
        is the same bits as one call.

        >>> Terrain().height_grid(0, 0, 3, 2).shape
        (2, 3)
        >>> Terrain().height_grid(0, 0.5, 2, 1, dtype="float32")
        array([[386.0078, 388.    ]], dtype=float32)
        """
        if t is not None:
            from . import evolve

            if _precision.height_dtype(dtype, out) == np.float32:
                # the exact doubles, rounded (the evolving grid has no float32 store)
                h = evolve.height_grid(self, _grid_args(x0, y0, nx, ny, step, offset), t,
                                       out=None, threads=threads)
                if out is None:
                    return h.astype(np.float32)
                out[...] = h
                return out
            return evolve.height_grid(self, _grid_args(x0, y0, nx, ny, step, offset), t,
                                      out=out, threads=threads)
        x0, y0, nx, ny, step, r0, c0 = _grid_args(x0, y0, nx, ny, step, offset)
        if _precision.height_dtype(dtype, out) == np.float32:
            return self._core.height_grid(x0, y0, nx, ny, step, r0=r0, c0=c0, out=out,
                                          threads=_threads(threads), float32=True)
        return self._core.height_grid(x0, y0, nx, ny, step, r0=r0, c0=c0, out=out,
                                      threads=_core_threads(threads))

    def terrain_grid(
        self,
        x0: float,
        y0: float,
        nx: int,
        ny: int,
        step: float = 1.0,
        *,
        offset: tuple[int, int] = (0, 0),
        out: np.ndarray | None = None,
        threads: int | None = None,
    ) -> np.ndarray:
        """Terrain kinds on a grid: uint8 :class:`TerrainType` codes ``(ny, nx)``.

        Orientation: a grid, **south first** (SPEC 1): ``[r, c]`` is the point
        ``(x0 + c*step, y0 + r*step)``, row 0 the southern edge (plot with
        ``origin="lower"``); pictures are north up.

        Arguments as :meth:`height_grid`.
        """
        x0, y0, nx, ny, step, r0, c0 = _grid_args(x0, y0, nx, ny, step, offset)
        res = self._core.terra_grid(x0, y0, nx, ny, step, r0=r0, c0=c0,
                                    outputs=(None, None, True if out is None else out, None),
                                    threads=_core_threads(threads))
        return res[2]

    def feature_grid(
        self,
        x0: float,
        y0: float,
        nx: int,
        ny: int,
        step: float = 1.0,
        *,
        offset: tuple[int, int] = (0, 0),
        out: np.ndarray | None = None,
        threads: int | None = None,
    ) -> np.ndarray:
        """Point features on a grid: uint8 :class:`Feature` codes ``(ny, nx)``.

        Orientation: a grid, **south first** (SPEC 1): ``[r, c]`` is the point
        ``(x0 + c*step, y0 + r*step)``, row 0 the southern edge (plot with
        ``origin="lower"``); pictures are north up.

        Arguments as :meth:`height_grid`.
        """
        x0, y0, nx, ny, step, r0, c0 = _grid_args(x0, y0, nx, ny, step, offset)
        res = self._core.terra_grid(x0, y0, nx, ny, step, r0=r0, c0=c0,
                                    outputs=(None, None, None, True if out is None else out),
                                    threads=_core_threads(threads))
        return res[3]

    def grid(
        self,
        x0: float,
        y0: float,
        nx: int,
        ny: int,
        step: float = 1.0,
        *,
        offset: tuple[int, int] = (0, 0),
        out: Sequence[np.ndarray] | None = None,
        threads: int | None = None,
        dtype: Any = None,
    ) -> TerrainGrid:
        """terra on a grid in one pass: ``TerrainGrid(x, y, height, depth, terrain, feature)``.

        Orientation: a grid, **south first** (SPEC 1): ``[r, c]`` is the point
        ``(x0 + c*step, y0 + r*step)``, row 0 the southern edge (plot with
        ``origin="lower"``); pictures are north up.

        ``height`` is terra's height (the water surface on lakes), ``depth`` the
        lake depth (0 elsewhere), ``terrain`` and ``feature`` uint8 codes, all
        ``(ny, nx)``; ``x`` (nx,) and ``y`` (ny,) are the coordinates.
        ``out`` may be a 4-sequence ``(height, depth, terrain, feature)`` of
        preallocated arrays (e.g. a previous result) to fill. ``offset``
        selects a block of the grid, as in :meth:`height_grid`. ``dtype``
        (float64 by default, or float32) is that of ``height`` and ``depth``:
        float32 values are the exact doubles rounded to nearest, as in
        :meth:`height_grid`.

        >>> g = Terrain().grid(23396, 5318, 4, 3)
        >>> g.x
        array([23396., 23397., 23398., 23399.])
        >>> Terrain().grid(23396, 5318, 4, 3, dtype="float32").height.dtype
        dtype('float32')
        """
        x0, y0, nx, ny, step, r0, c0 = _grid_args(x0, y0, nx, ny, step, offset)
        if out is None:
            outputs: tuple = (True, True, True, True)
        else:
            if isinstance(out, TerrainGrid):
                out = out[2:]
            try:
                outputs = tuple(out)
            except TypeError:
                raise TypeError(
                    f"out: must be 4 arrays (height, depth, terrain, feature), got {out!r}"
                ) from None
            if len(outputs) != 4 or any(o is None for o in outputs):
                raise ValueError("out: must be 4 arrays (height, depth, terrain, feature)")
        first = outputs[0] if isinstance(outputs[0], np.ndarray) else None
        if _precision.height_dtype(dtype, first, "out.height") == np.float32:
            h, d, t, f = self._core.terra_grid(x0, y0, nx, ny, step, r0=r0, c0=c0,
                                               outputs=outputs, threads=_threads(threads),
                                               float32=True)
        else:
            h, d, t, f = self._core.terra_grid(x0, y0, nx, ny, step, r0=r0, c0=c0,
                                               outputs=outputs, threads=_core_threads(threads))
        # exactly the core's x0 + (double)(c0 + c) * step
        x = x0 + np.arange(c0, c0 + nx, dtype=np.int64).astype(np.float64) * step
        y = y0 + np.arange(r0, r0 + ny, dtype=np.int64).astype(np.float64) * step
        return TerrainGrid(x, y, h, d, t, f)

    # -- the placed table ---------------------------------------------------

    @property
    def placed(self) -> PlacedView:
        """The placed table, a read-only mapping ``{(x, y): TerrainType | Feature}``."""
        return self._placed

    def place(self, x: int, y: int, what: Placeable) -> None:
        """Place a terrain type or a feature at the integer point ``(x, y)``.

        A placed :class:`TerrainType` overrides the kind of ground there
        (height ``max(ground, lake_height)``, no feature); a placed
        :class:`Feature` replaces the generated one (``Feature.NONE`` hides it).
        Every grid and point function honours the table.

        >>> t = Terrain()
        >>> t.place(23400, 5320, TerrainType.ROAD)
        >>> t.terra(23400, 5320).terrain
        <TerrainType.ROAD: 6>
        """
        code = _encode(what)
        x, y = _key(x, "x"), _key(y, "y")
        with self._lock:
            self._core.place(x, y, code)

    def at(self, x: int, y: int) -> Placeable | None:
        """What is placed at ``(x, y)``, or None."""
        return _decode(self._core.at(_key(x, "x"), _key(y, "y")))

    def remove(self, x: int, y: int) -> bool:
        """Remove what is placed at ``(x, y)``; True if there was something."""
        x, y = _key(x, "x"), _key(y, "y")
        with self._lock:
            return self._core.remove(x, y)

    def remove_all(self, what: Placeable) -> int:
        """Remove every placement of ``what``; returns how many were removed."""
        code = _encode(what)
        with self._lock:
            return self._core.remove_all(code)

    # -- streams (SPEC 7) ---------------------------------------------------

    def trace_stream(self, x: int, y: int, *, neighbourhood: str = "cross",
                     max_length: float | None = 300.0) -> Stream:
        """The route downhill from the integer point ``(x, y)`` (SPEC 7).

        Each step goes to the lowest point of the ``neighbourhood`` (see
        :data:`relfterrain.streams.NEIGHBOURHOODS`) if it is strictly lower;
        the route ends at a ``"lake"``, in a ``"hollow"`` or at the
        ``"limit"`` (the next step would make it longer than ``max_length``
        metres; ``None``: no cap, but at most 100,000 points).

        Returns
        -------
        Stream
            ``(source, route, length, end, marsh)``; ``route`` is ``(n, 2)``
            int64 starting at ``(x, y)``.

        >>> s = Terrain().trace_stream(23907, 5835)
        >>> s.route[:3].tolist(), s.end
        ([[23907, 5835], [23902, 5830], [23897, 5825]], 'hollow')
        """
        return _streams.trace_stream(self, x, y, neighbourhood=neighbourhood,
                                     max_length=max_length)

    def streams(self, x0: int, y0: int, nx: int, ny: int, *, margin: int = 300,
                neighbourhood: str = "cross", max_length: float | None = 300.0,
                threads: int | None = None, allow_huge: bool = False) -> list[Stream]:
        """Every stream whose pond lies in the area grown by ``margin`` (SPEC 7).

        The ponds (WATERHOLE features, the placed table honoured but for its
        STREAM and MARSH entries) of ``x0-margin .. x0+nx-1+margin`` (and the
        same in y) in row-major order (y ascending, then x), each traced as
        :meth:`trace_stream`; routes of more than 10 points are streams.
        Computed in C, threaded across ponds; the result is the same for every
        thread count. The pond scan visits every point of the area and its
        margin: more than :data:`relfterrain.MAX_SCAN_POINTS` (2**38) points
        are refused (ValueError) unless ``allow_huge=True``; Ctrl-C stops the
        call (KeyboardInterrupt) within a fraction of a second.

        >>> ss = Terrain().streams(23396, 5318, 800, 600)
        >>> len(ss), ss[0].end, len(ss[0].route)
        (17, 'hollow', 34)
        """
        return _streams.streams(self, x0, y0, nx, ny, margin=margin,
                                neighbourhood=neighbourhood, max_length=max_length,
                                threads=threads, allow_huge=allow_huge)

    def mark_streams(self, x0: int, y0: int, nx: int, ny: int, *, margin: int = 300,
                     neighbourhood: str = "cross", max_length: float | None = 300.0,
                     limit: int = 300_000, threads: int | None = None,
                     allow_huge: bool = False) -> MarkResult:
        """Soak the streams of an area into the placed table (SPEC 7).

        For each stream of :meth:`streams`, in order, the 3 x 3 square around
        each point of its line becomes a placed STREAM unless something is
        placed there already or the ground is TOWN; a stream ending in a
        hollow (not in a town or on a road) gets a 9 x 9 MARSH there by the
        same rule. When the table's STREAM and MARSH entries would exceed
        ``limit`` (the seed's 300,000), every STREAM and MARSH entry is
        removed and marking starts again from the current stream. Grids and
        points then show them; :meth:`clear_streams` removes them. The table
        changes in one step, when the marking is complete: an interrupted
        (Ctrl-C) or failed call leaves it as it was. Areas of more than
        :data:`relfterrain.MAX_SCAN_POINTS` points (margin included) need
        ``allow_huge=True``, as for :meth:`streams`.

        >>> t = Terrain()
        >>> r = t.mark_streams(23396, 5318, 800, 600)
        >>> len(r.streams), r.added == len(t.placed), r.restarts
        (17, True, 0)
        """
        return _streams.mark_streams(self, x0, y0, nx, ny, margin=margin,
                                     neighbourhood=neighbourhood, max_length=max_length,
                                     limit=limit, threads=threads, allow_huge=allow_huge)

    def clear_streams(self) -> int:
        """Remove every placed STREAM and MARSH entry; returns how many were removed."""
        return _streams.clear_streams(self)


    # -- roads and saved terrains (SPEC 13) ---------------------------------

    @property
    def roads(self) -> tuple[_roads.Road, ...]:
        """The roads, in the order they were added (read-only :class:`Road` tuples)."""
        return _roads.roads(self)

    def add_road(self, points: Any, *, half_width: int = 2, max_bridge: int | None = 60,
                 threads: int | None = 1) -> None:
        """Pave a road along the polyline ``points`` (SPEC 13, the author's code).

        For each segment a -> b, with ``d = hypot(b - a)``, the points
        ``q = (round_js(a.x + k*(b.x-a.x)/d), round_js(a.y + k*(b.y-a.y)/d))``,
        ``k = 0 .. floor(d)``, and every point of the ``(2w+1)`` square around
        each (``w = half_width``) become placed ROAD, overwriting what was
        placed there (streams, marshes, anything). The author's paving need
        not reach a segment's last point; the square usually covers it.

        A road with a segment that would bridge more than ``max_bridge`` of
        its points ``q`` whose terra height is ``<= lake_base`` is refused:
        ValueError naming the segment, and nothing is paved
        (``max_bridge=None``: no check).

        Roads are world state: :meth:`remove_road` restores what the table
        held beneath, pickles and copies keep them, :meth:`save` writes them.

        Parameters
        ----------
        points : sequence of (int, int) or int array (n, 2)
            The polyline, n >= 2, ``|x|, |y| <= 2**26``, each segment at most
            ``2**25`` in x and in y.
        half_width : int
            ``w`` (0 .. 1024); the author's 2 gives 5 m wide roads.
        max_bridge : int or None
            The longest bridge per segment, in points ``q`` (60).
        threads : int, optional
            Threads for the bridge check (default 1; None: all cores).

        >>> t = Terrain()
        >>> t.add_road([(23400, 5320), (23410, 5320)])
        >>> len(t.placed), t.at(23412, 5322)
        (75, <TerrainType.ROAD: 6>)
        """
        _roads.add_road(self, points, half_width=half_width, max_bridge=max_bridge,
                        threads=threads)

    def remove_road(self, index_or_road: int | _roads.Road) -> None:
        """Remove a road (by its index in :attr:`roads`, or the :class:`Road` itself).

        Every cell the road paved that no other road covers gets back what the
        table held there before any road covered it (or nothing), unless the
        cell was changed since (by :meth:`place`, :meth:`remove`, streams...):
        a later change is kept. Cells another road covers stay ROAD. So the
        table is what it would hold had the road never been added (with the
        same later changes); the order roads are removed in does not matter.

        >>> t = Terrain()
        >>> t.place(23400, 5320, TerrainType.STREAM)
        >>> t.add_road([(23390, 5320), (23410, 5320)])
        >>> t.remove_road(0)
        >>> t.at(23400, 5320), len(t.placed)
        (<TerrainType.STREAM: 9>, 1)
        """
        _roads.remove_road(self, index_or_road)

    def save(self, path: str | os.PathLike) -> None:
        """Write the terrain to ``path`` as JSON: parameters, roads, placed entries.

        The file holds ``"format": "relfterrain.terrain"``, ``"version": 1``,
        ``"params"`` (:meth:`TerrainParams.to_dict`; floats round-trip exactly),
        ``"roads"`` in the author's format ``[{"path": [{"x": X, "y": Y}, ...]}]``
        (plus ``"half_width"`` when not 2), ``"placed"`` (the entries roads
        did not make, ``{"x", "y", "terrain" | "feature": NAME}``),
        ``"cleared"`` (road cells emptied by hand) and ``"beneath_roads"``
        (what the roads cover, for :meth:`remove_road`). :func:`load` gives
        back an equal terrain, bit for bit. Written atomically: a temporary
        file in the same folder, flushed to disk, then renamed over ``path``;
        a failed save leaves any old file as it was.
        """
        _roads.save(self, path)

    @classmethod
    def load(cls, path: str | os.PathLike, *, simd: str | None = None) -> Terrain:
        """A terrain read from a file written by :meth:`save` (or the author's
        bare roads list); see :func:`relfterrain.load`."""
        return _roads.load(path, simd=simd)

    # -- features, buildings and trees as tables and grids (SPEC 5) ----------

    def features(self, x0: int, y0: int, nx: int, ny: int, *,
                 threads: int | None = None, allow_huge: bool = False
                 ) -> _features.FeatureTable:
        """Every point feature at the integer points ``x0 .. x0+nx-1``, ``y0 .. y0+ny-1``.

        A :class:`FeatureTable` of arrays ``x``, ``y`` (int64), ``feature``
        (uint8 :class:`Feature` codes) and ``code`` (orienteering codes, ``""``
        for CONE etc.), ordered by (y, x), the placed table honoured. Features
        live at integer points, so this is independent of any grid step
        (counting non-NONE cells of a ``feature_grid`` is not: at step 0.5 each
        feature shows about 4 times). Computed in row chunks (bounded memory)
        on ``threads`` threads; Ctrl-C stops it between chunks. Areas of more
        than :data:`relfterrain.MAX_SCAN_POINTS` (2**38) points are refused
        (ValueError) unless ``allow_huge=True``.

        >>> ft = Terrain().features(23396, 5318, 800, 600)
        >>> int(ft.x[0]), int(ft.y[0]), Feature(ft.feature[0]).name, str(ft.code[0])
        (24117, 5319, 'BOULDER', 'PP')
        """
        return _features.features(self, x0, y0, nx, ny, threads=threads, allow_huge=allow_huge)

    def building_grid(self, x0: float, y0: float, nx: int, ny: int, step: float = 1.0, *,
                      offset: tuple[int, int] = (0, 0)) -> np.ndarray:
        """Building footprints on a grid: bool ``(ny, nx)``.

        Orientation: a grid, **south first** (SPEC 1): ``[r, c]`` is the point
        ``(x0 + c*step, y0 + r*step)``, row 0 the southern edge (plot with
        ``origin="lower"``); pictures are north up.

        True where the grid point ``(x, y)`` lies in a building's 12 m square:
        ``|x - bx| <= 6`` and ``|y - by| <= 6`` (a closed square, at the
        unrounded point) for a centre ``(bx, by)`` of :meth:`buildings`.
        Grid arguments as :meth:`height_grid`.

        >>> int(Terrain().building_grid(23396, 5318, 800, 600).sum()) > 0
        True
        """
        return _features.building_grid(self, x0, y0, nx, ny, step, offset=offset)

    def tree_grid(self, x0: float, y0: float, nx: int, ny: int, step: float = 1.0, *,
                  offset: tuple[int, int] = (0, 0)) -> np.ndarray:
        """The tree selector (0..3, :meth:`tree_selector`) on a grid: uint8 ``(ny, nx)``.

        Orientation: a grid, **south first** (SPEC 1): ``[r, c]`` is the point
        ``(x0 + c*step, y0 + r*step)``, row 0 the southern edge (plot with
        ``origin="lower"``); pictures are north up.

        >>> Terrain().tree_grid(23400, 5320, 6, 2).tolist()
        [[1, 2, 3, 0, 2, 3], [2, 3, 0, 1, 2, 3]]
        """
        return _features.tree_grid(self, x0, y0, nx, ny, step, offset=offset)

    def tree_offset_grid(self, x0: float, y0: float, nx: int, ny: int, step: float = 1.0, *,
                         offset: tuple[int, int] = (0, 0)) -> tuple[np.ndarray, np.ndarray]:
        """Where each tree stands within its 1 m ground tile: ``(dx, dy)``, float64 ``(ny, nx)``.

        Orientation: a grid, **south first** (SPEC 1): ``[r, c]`` is the point
        ``(x0 + c*step, y0 + r*step)``, row 0 the southern edge (plot with
        ``origin="lower"``); pictures are north up.

        The seed says the in-tile positions are found "similarly" to the tree
        selector but gives no formula; the project's (documented) choice takes
        the next bits of the selector's value ``v = toint32(round(PI10000*xr*yr))``:
        ``dx = (((v >> 2) & 15) + 0.5)/16 - 0.5`` and ``dy = (((v >> 6) & 15) +
        0.5)/16 - 0.5`` metres, within (-0.5, 0.5), the same every visit.

        >>> dx, dy = Terrain().tree_offset_grid(23400, 5320, 3, 1)
        >>> dx.tolist(), dy.tolist()
        ([[-0.34375, -0.46875, 0.40625]], [[-0.03125, -0.46875, 0.03125]])
        """
        return _features.tree_offset_grid(self, x0, y0, nx, ny, step, offset=offset)

    # -- good sites (SPEC 12) ---------------------------------------------------

    def find_good_site(self, x: float, y: float, *, min_height: float = 10,
                       mine_distance: float = 7, building_distance: float = 10,
                       clearance: float = 10, max_loops: int = 1000, may_alter: bool = False,
                       patch_radius: float = 20, rng: Any = None) -> Any:
        """findGoodSite (SPEC 12): a good site near ``(x, y)``, a
        :class:`relfterrain.sites.Site`; see :func:`relfterrain.sites.find_good_site`.

        >>> Terrain().find_good_site(23400, 5320)
        Site(x=23400, y=5320, ok=True, altered=False, reason='', tries=1)
        """
        from . import sites
        return sites.find_good_site(self, x, y, min_height=min_height,
                                    mine_distance=mine_distance,
                                    building_distance=building_distance, clearance=clearance,
                                    max_loops=max_loops, may_alter=may_alter,
                                    patch_radius=patch_radius, rng=rng)

    def find_good_sites(self, x: Any, y: Any, *, min_height: float = 10,
                        mine_distance: float = 7, building_distance: float = 10,
                        clearance: float = 10, max_loops: int = 1000, may_alter: bool = False,
                        patch_radius: float = 20, rng: Any = None,
                        threads: int | None = None, allow_huge: bool = False) -> Any:
        """findGoodSite from many starts (threaded), a :class:`relfterrain.sites.Sites`
        of arrays; see :func:`relfterrain.sites.find_good_sites` (starts times
        ``max_loops`` above :data:`relfterrain.MAX_SITE_TRIES` need ``allow_huge=True``)."""
        from . import sites
        return sites.find_good_sites(self, x, y, min_height=min_height,
                                     mine_distance=mine_distance,
                                     building_distance=building_distance, clearance=clearance,
                                     max_loops=max_loops, may_alter=may_alter,
                                     patch_radius=patch_radius, rng=rng, threads=threads,
                                     allow_huge=allow_huge)
    # -- maps as pictures (SPEC 15) ---------------------------------------------

    def map(self, x0: float, y0: float, nx: int, ny: int, step: float = 1.0,
            **options: Any) -> np.ndarray:
        """An orienteering map: RGB uint8 ``(ny, nx, 3)``, north up (row 0 = northern edge).

        Options (keyword-only): ``palette="relf"|"isom"``, ``contours=True``,
        ``interval=5``, ``index_every=5``, ``features``, ``buildings``,
        ``water``, ``roads``, ``paths`` (each True), ``threads=None``: see
        :func:`relfterrain.maps.render`.

        >>> Terrain().map(23396, 5318, 40, 30).shape
        (30, 40, 3)
        """
        from . import maps

        return maps.render(self, x0, y0, nx, ny, step, **options)

    def save_map(self, path: str | os.PathLike, x0: float, y0: float, nx: int, ny: int,
                 step: float = 1.0, **options: Any) -> None:
        """Write :meth:`map` to ``path`` as PNG, atomically (needs Pillow).

        Orientation: a picture, **north up**: row 0 is the northern edge (plot
        with ``origin="upper"``); grids of values are south first.
        """
        from . import maps
        from .provenance import provenance

        img = maps.render(self, x0, y0, nx, ny, step, **options)
        maps.save_png(img, path, text=provenance(self, x0, y0, nx, ny, step))
    # -- mines and caverns (SPEC 8) ---
    def mines(self, **options: Any) -> Any:
        """The mines under this terrain: ``relfterrain.Mines(self, **options)``."""
        from .mines import Mines
        return Mines(self, **options)

    def caverns(self, **options: Any) -> Any:
        """Caverns under this terrain: ``relfterrain.Caverns(self, **options)``."""
        from .mines import Caverns
        return Caverns(self, **options)
    # -- presets (SPEC 16) ---------------------------------------------------

    @classmethod
    def preset(cls, name: str, rng: Any = None, *, uniforms: Any = None,
               simd: str | None = None) -> Terrain:
        """One of the author's variants: "forest", "my_terrain", "pieces_of_eight",
        "skylands", "forest_2026" (The Forest as it runs today, SPEC 17).

        See :mod:`relfterrain.presets` (``PRESETS[name].source`` says where each
        value comes from). ``rng`` (an int seed or a ``numpy.random.Generator``)
        or ``uniforms`` (the 96 uniforms a game drew, see
        :func:`~relfterrain.make_profile`) make Pieces of Eight's random
        profile; the others ignore ``rng``.

        >>> Terrain.preset("skylands").lake_height
        450.0
        >>> t = Terrain.preset("forest_2026")
        >>> t.terra(-398348, 300168).terrain, t.terra(-398348, 300168).height
        (<TerrainType.QUARRY: 12>, 319.5)
        """
        from .presets import preset_params

        return cls(preset_params(name, rng, uniforms=uniforms), simd=simd)
    # -- pipelines: xarray Datasets (SPEC 1) ----------------------------------

    def dataset(self, x0: float, y0: float, nx: int, ny: int, step: float = 1.0, *,
                dtype: Any = None, threads: int | None = None, crs: Any = None,
                origin: Any = None) -> Any:
        """The grid as an ``xarray.Dataset`` GIS tools read right (needs ``relfterrain[xarray]``).

        Dims ``(y, x)`` with the rows **north to south** (``y`` descending)
        and the coordinates at the cell centres (exactly the grid's
        ``x0 + c*step`` doubles, plus ``origin``); a ``spatial_ref``
        coordinate with the CRS and GeoTransform (rioxarray reads them);
        variables ``surface_height`` (the water surface on lakes, as
        :meth:`grid`'s ``height``), ``ground_height`` (the lake bed on lakes,
        as :meth:`height_grid`), ``depth`` (``dtype``: float64 by default, or
        float32, the exact doubles rounded), ``terrain`` and ``feature``
        (uint8 codes with CF ``flag_values`` / ``flag_meanings``); the
        provenance in the attributes (:mod:`relfterrain.provenance`;
        :meth:`from_provenance` rebuilds the terrain and window).

        ``crs`` (None: the local engineering CRS of :mod:`relfterrain.crs`,
        the world's own metres) and ``origin`` (the CRS coordinates of the
        world's ``(0, 0)``, default ``(0, 0)``) place the world on Earth; the
        window must lie within +-2**26 m. For windows larger than memory see
        :func:`relfterrain.dask.dataset` and ``xr.open_dataset(...,
        engine="relfterrain")``; examples (run as doctests where xarray is
        installed) are in :mod:`relfterrain.dataset`. The NumPy grids
        (:meth:`grid`, :meth:`height_grid`) keep SPEC 1's south-first rows.
        """
        from .dataset import terrain_dataset

        return terrain_dataset(self, x0, y0, nx, ny, step, dtype=dtype, threads=threads,
                               crs=crs, origin=origin)

    def to_geotiff(self, path: str | os.PathLike, x0: float, y0: float, nx: int, ny: int,
                   step: float = 1.0, *, variable: str = "ground_height", dtype: Any = None,
                   crs: Any = None, origin: Any = None, threads: int | None = None) -> None:
        """Write one variable of :meth:`dataset` as a Cloud-Optimized GeoTIFF (``relfterrain[geo]``).

        North up, the CRS, provenance tags, written atomically; see
        :func:`relfterrain.gis.write_geotiff`.
        """
        from .gis import write_geotiff

        write_geotiff(self, path, x0, y0, nx, ny, step, variable=variable, dtype=dtype,
                      crs=crs, origin=origin, threads=threads)

    @classmethod
    def from_provenance(cls, attrs: Any, *, world: Any = None,
                        simd: str | None = None) -> tuple[Terrain, Any]:
        """The terrain and window that made a file: ``(terrain, Window)``.

        ``attrs``: a Dataset's attributes, a GeoTIFF's tags, a PNG's text
        chunks; see :func:`relfterrain.provenance.from_provenance`.
        """
        from .provenance import from_provenance

        return from_provenance(attrs, world=world, simd=simd)


def _key(v: Any, name: str) -> int:
    if isinstance(v, (bool, np.bool_)):
        raise TypeError(f"{name}: must be an int, got {v!r}")
    try:
        k = operator.index(v)
    except TypeError:
        raise TypeError(f"{name}: placed points are integers, got {v!r}") from None
    if not -PLACED_LIMIT <= k <= PLACED_LIMIT:
        raise ValueError(f"{name}: placed points must be within +-2**53 (where terra can "
                         f"find them), got {k}")
    return k


def _round_js(v: float) -> int:
    r = math.floor(v)
    if v - r >= 0.5:
        r += 1
    return int(r)


def _vector_view(v: tuple[int, ...]) -> np.ndarray:
    return _validate.readonly(np.array(v, dtype=np.int64))


def _signature() -> inspect.Signature:
    # Terrain(params=None, *, simd=None, <every TerrainParams field>) for help()
    fields = inspect.signature(TerrainParams).parameters.values()
    head = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
            inspect.Parameter("params", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None),
            inspect.Parameter("simd", inspect.Parameter.KEYWORD_ONLY, default=None)]
    return inspect.Signature(head + [f.replace(kind=inspect.Parameter.KEYWORD_ONLY)
                                     for f in fields])


Terrain.__init__.__signature__ = _signature()  # type: ignore[attr-defined]
_shared.register_terrain(Terrain)
