"""The classic Relf terrain: heights, lakes, terrain kinds and point features."""

from __future__ import annotations

import math
import numbers
import operator
import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from . import _core, _validate
from ._types import Feature, Sample, Terra, TerrainGrid, TerrainType

__all__ = [
    "CLASSIC_MAP",
    "CLASSIC_PROFILE",
    "CLASSIC_VECTORS",
    "TERRAIN_DOMAIN",
    "Terrain",
    "default_threads",
    "orienteering_code",
    "simd_variants",
]

ArrayLike = Any
Placeable = TerrainType | Feature

#: The 1983 profile of The Forest (SPEC 3), read-only float64, 256 values.
CLASSIC_PROFILE: np.ndarray = _core.CLASSIC_PROFILE
#: The classic direction vectors by name: ``ah``, ``bh``, ``a1`` ... ``b3``.
CLASSIC_VECTORS: dict[str, tuple[int, ...]] = dict(_core.CLASSIC_VECTORS)
#: The classic 800 x 600 m map area as ``(x0, y0, nx, ny)``.
CLASSIC_MAP: tuple[int, int, int, int] = (23396, 5318, 800, 600)
#: Inside ``|x|, |y| <= TERRAIN_DOMAIN`` results equal the original bit for bit.
TERRAIN_DOMAIN: float = _core.TERRAIN_DOMAIN

_VECTOR_NAMES = ("ah", "bh", "a1", "b1", "a2", "b2", "a3", "b3")
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def default_threads() -> int:
    """The number of threads used when ``threads=None``: the usable cores."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def simd_variants() -> list[str]:
    """The SIMD variants of the grid kernels this CPU can run, best last.

    Every variant gives the same bits; they differ only in speed. Choose one
    with ``Terrain(simd=...)`` or the ``RELFTERRAIN_SIMD`` environment
    variable (default ``"auto"``: the best available).

    >>> "scalar" in simd_variants()
    True
    """
    return [name for name, (code, ok, _) in _core.simd_variants().items() if ok and code > 0]


def _simd_code(simd: str | None) -> int:
    if simd is None:
        simd = os.environ.get("RELFTERRAIN_SIMD", "auto") or "auto"
    table = _core.simd_variants()
    if not isinstance(simd, str) or simd not in table:
        raise ValueError(f"simd: must be one of {sorted(table)}, got {simd!r}")
    code, ok, _ = table[simd]
    if not ok:
        raise ValueError(
            f"simd: {simd!r} is not available on this CPU (available: {simd_variants()})"
        )
    return code


def orienteering_code(xr: int, yr: int) -> str:
    """The two-letter orienteering control code of the integer point ``(xr, yr)``.

    As the seed's ``getCode``: ``ALPHABET[|xr| % 26] + ALPHABET[|yr| % 26]``.

    >>> orienteering_code(27, -2)
    'BC'
    """
    return _ALPHABET[abs(operator.index(xr)) % 26] + _ALPHABET[abs(operator.index(yr)) % 26]


def _threads(threads: int | None) -> int:
    if threads is None:
        return default_threads()
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral):
        raise TypeError(f"threads: must be an int >= 1 or None, got {threads!r}")
    if threads < 1:
        raise ValueError(f"threads: must be >= 1, got {threads}")
    return int(threads)


_finite = _validate.real


def _count(value: Any, name: str) -> int:
    return _validate.integer(value, name, 1)


def _grid_args(x0: Any, y0: Any, nx: Any, ny: Any, step: Any, offset: Any = (0, 0)) -> tuple:
    x0 = _finite(x0, "x0")
    y0 = _finite(y0, "y0")
    step = _finite(step, "step")
    if step <= 0:
        raise ValueError(f"step: must be a positive number, got {step!r}")
    nx = _count(nx, "nx")
    ny = _count(ny, "ny")
    try:
        r0, c0 = offset
    except (TypeError, ValueError):
        raise TypeError(f"offset: must be a pair (row, column) of ints, got {offset!r}") from None
    r0 = _validate.integer(r0, "offset", 0)
    c0 = _validate.integer(c0, "offset", 0)
    # grid indices are converted to double exactly below 2**53
    if r0 + ny > 2**53 or c0 + nx > 2**53:
        raise ValueError("offset, nx, ny: grid indices must stay below 2**53")
    for name, origin, first, n in (("x", x0, c0, nx), ("y", y0, r0, ny)):
        if not math.isfinite(origin + float(first + n - 1) * step):
            raise ValueError(f"{name}0, step: the grid's last {name} coordinate is not finite")
    return x0, y0, nx, ny, step, r0, c0


def _points(x: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray, tuple]:
    try:
        xa = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"x: must be a number or an array-like of numbers, got {x!r}") from None
    try:
        ya = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"y: must be a number or an array-like of numbers, got {y!r}") from None
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
    if isinstance(what, TerrainType):
        return 0x40 | int(what)
    if isinstance(what, Feature):
        return 0x80 | int(what)
    raise TypeError(
        f"what: must be a relfterrain.TerrainType or a relfterrain.Feature, got {what!r}"
    )


def _decode(code: int) -> Placeable | None:
    if code == 0:
        return None
    if code & 0xC0 == 0x40:
        return TerrainType(code & 0x3F)
    return Feature(code & 0x3F)


_readonly = _validate.readonly


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

    Parameters
    ----------
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
    with_paths : bool
        Make the experimental paths of the seed (ground nearly as high as the
        ground 4000 m east and 2000 m north).
    mountain_base : float, optional
        If given, heights above it become ``base + dz * sqrt(dz)``.
    snow_height : float, optional
        If given, ground above it is SNOW.
    wood_only : bool
        No vegetation: all dry ground is WOOD (features are kept).
    bleak : bool
        Heights only: every point GRASS, no lakes and no features.
    simd : str, optional
        The SIMD variant of the grid kernels (see :func:`simd_variants`):
        ``"auto"`` (the default, or the ``RELFTERRAIN_SIMD`` environment
        variable), ``"scalar"``, ``"avx2"``, ``"avx512"``, ``"avx512vbmi"``.
        All give the same bits.

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
    """

    # set by __init__
    _core: Any  # the C state, a relfterrain._core.TerrainCore
    _profile: np.ndarray
    _vectors: dict[str, np.ndarray]
    _options: dict[str, Any]
    _placed: PlacedView

    def __init__(
        self,
        *,
        profile: ArrayLike | None = None,
        ah: Sequence[int] | None = None,
        bh: Sequence[int] | None = None,
        a1: Sequence[int] | None = None,
        b1: Sequence[int] | None = None,
        a2: Sequence[int] | None = None,
        b2: Sequence[int] | None = None,
        a3: Sequence[int] | None = None,
        b3: Sequence[int] | None = None,
        lake_base: float = 204.0,
        lake_height: float | None = None,
        feature_mask: int = 0xFFF,
        with_paths: bool = False,
        mountain_base: float | None = None,
        snow_height: float | None = None,
        wood_only: bool = False,
        bleak: bool = False,
        simd: str | None = None,
    ) -> None:
        simd_code = _simd_code(simd)
        prof = self._check_profile(profile)
        given = {"ah": ah, "bh": bh, "a1": a1, "b1": b1, "a2": a2, "b2": b2, "a3": a3, "b3": b3}
        vectors = self._check_vectors(given)
        lake_base = _finite(lake_base, "lake_base")
        lake_height = lake_base if lake_height is None else _finite(lake_height, "lake_height")
        if isinstance(feature_mask, bool) or not isinstance(feature_mask, numbers.Integral):
            raise TypeError(f"feature_mask: must be an int, got {feature_mask!r}")
        if not 0 <= feature_mask <= 0xFFFFFFFF:
            raise ValueError(f"feature_mask: must be between 0 and 2**32 - 1, got {feature_mask}")
        if mountain_base is not None:
            mountain_base = _finite(mountain_base, "mountain_base")
        if snow_height is not None:
            snow_height = _finite(snow_height, "snow_height")
        self._core = _core.TerrainCore(
            prof,
            vectors,
            lake_base=lake_base,
            lake_height=lake_height,
            feature_mask=int(feature_mask),
            with_paths=bool(with_paths),
            mountain_base=mountain_base,
            snow_height=snow_height,
            wood_only=bool(wood_only),
            bleak=bool(bleak),
        )
        self._core.simd = simd_code
        self._profile = _readonly(self._core.profile)
        vecs = self._core.vectors
        self._vectors = {name: _readonly(vecs[k].copy()) for k, name in enumerate(_VECTOR_NAMES)}
        self._options = self._core.options
        self._placed = PlacedView(self._core)

    # -- validation ---------------------------------------------------------

    @staticmethod
    def _check_profile(profile: ArrayLike | None) -> np.ndarray:
        return _validate.profile(profile, CLASSIC_PROFILE)

    @staticmethod
    def _check_vectors(given: dict) -> np.ndarray:
        rows = []
        for name in _VECTOR_NAMES:
            v = given[name]
            rows.append(_validate.vector(CLASSIC_VECTORS[name] if v is None else v, name))
        lengths = {name: r.size for name, r in zip(_VECTOR_NAMES, rows)}
        if len(set(lengths.values())) != 1:
            listed = ", ".join(f"{k}={n}" for k, n in lengths.items())
            raise ValueError(
                f"ah, bh, a1, b1, a2, b2, a3, b3: vectors must all have one length, got {listed}"
            )
        return np.stack(rows)

    # -- parameters ---------------------------------------------------------

    @property
    def profile(self) -> np.ndarray:
        """The profile (read-only float64)."""
        return self._profile

    ah = property(lambda self: self._vectors["ah"], doc="Height vector A (read-only).")
    bh = property(lambda self: self._vectors["bh"], doc="Height vector B (read-only).")
    a1 = property(lambda self: self._vectors["a1"], doc="Town vector A (read-only).")
    b1 = property(lambda self: self._vectors["b1"], doc="Town vector B (read-only).")
    a2 = property(lambda self: self._vectors["a2"], doc="Vegetation vector A2 (read-only).")
    b2 = property(lambda self: self._vectors["b2"], doc="Vegetation vector B2 (read-only).")
    a3 = property(lambda self: self._vectors["a3"], doc="Vegetation vector A3 (read-only).")
    b3 = property(lambda self: self._vectors["b3"], doc="Vegetation vector B3 (read-only).")

    @property
    def directions(self) -> int:
        """N, the number of directions summed."""
        return int(self._vectors["ah"].size)

    @property
    def simd(self) -> str:
        """The SIMD variant the grid kernels run as (settable, see :func:`simd_variants`)."""
        table = _core.simd_variants()
        name = next(n for n, (c, _, _) in table.items() if c == self._core.simd)
        return table[name][2]

    @simd.setter
    def simd(self, value: str) -> None:
        self._core.simd = _simd_code(value)

    @property
    def lake_height(self) -> float:
        """The current lake level; assign to raise (rain) or lower (drain) it."""
        return self._core.lake_height

    @lake_height.setter
    def lake_height(self, value: float) -> None:
        self._core.lake_height = _finite(value, "lake_height")

    lake_base = property(lambda self: self._options["lake_base"], doc="Dry-weather lake level.")
    feature_mask = property(lambda self: self._options["feature_mask"], doc="Feature mask.")
    with_paths = property(lambda self: self._options["with_paths"], doc="Paths enabled.")
    mountain_base = property(lambda self: self._options["mountain_base"], doc="Mountain base.")
    snow_height = property(lambda self: self._options["snow_height"], doc="Snow height.")
    wood_only = property(lambda self: self._options["wood_only"], doc="All dry ground WOOD.")
    bleak = property(lambda self: self._options["bleak"], doc="Heights only.")

    def __repr__(self) -> str:
        classic_profile = self._profile.size == 256 and np.array_equal(
            self._profile, CLASSIC_PROFILE
        )
        parts = ["profile=classic" if classic_profile else f"profile=<{self._profile.size} values>"]
        if not all(
            self._vectors[n].size == 5 and tuple(self._vectors[n]) == CLASSIC_VECTORS[n]
            for n in _VECTOR_NAMES
        ):
            parts.append(f"vectors=<custom, N={self.directions}>")
        parts.append(f"lake_height={self.lake_height!r}")
        defaults = {"lake_base": 204.0, "feature_mask": 0xFFF, "with_paths": False,
                        "mountain_base": None, "snow_height": None, "wood_only": False, "bleak": False}
        for k, d in defaults.items():
            if self._options[k] != d:
                parts.append(f"{k}={self._options[k]!r}")
        if len(self._placed):
            parts.append(f"placed={len(self._placed)}")
        return f"Terrain({', '.join(parts)})"

    # -- points -------------------------------------------------------------

    def height(self, x: ArrayLike, y: ArrayLike, *, threads: int | None = 1) -> Any:
        """Ground height at ``(x, y)`` (SPEC 4), interpolated, broadcasting.

        Returns a Python float for two scalars, else a float64 array of the
        broadcast shape. Lakes are not applied: see :meth:`terra` for the
        water surface.

        >>> Terrain().height([0.0, 0.5], 0)
        array([385.        , 385.99609375])
        """
        xf, yf, shape = _points(x, y)
        out = self._core.height_points(xf, yf, threads=_threads(threads))
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
        h, d, t, f = self._core.terra_points(xf, yf, threads=_threads(threads))
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
        x0 = operator.index(x0)
        y0 = operator.index(y0)
        return self._core.buildings(x0, y0, _count(nx, "nx"), _count(ny, "ny"))

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
    ) -> np.ndarray:
        """Ground height on a grid: float64 ``(ny, nx)``.

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
            A C-contiguous writeable float64 ``(ny, nx)`` array to fill and
            return (not touched if the call fails).
        threads : int, optional
            Threads to split the rows across; default all cores. The result
            is the same for every count.

        >>> Terrain().height_grid(0, 0, 3, 2).shape
        (2, 3)
        """
        x0, y0, nx, ny, step, r0, c0 = _grid_args(x0, y0, nx, ny, step, offset)
        return self._core.height_grid(x0, y0, nx, ny, step, r0=r0, c0=c0, out=out,
                                      threads=_threads(threads))

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

        Arguments as :meth:`height_grid`.
        """
        x0, y0, nx, ny, step, r0, c0 = _grid_args(x0, y0, nx, ny, step, offset)
        res = self._core.terra_grid(x0, y0, nx, ny, step, r0=r0, c0=c0,
                                    outputs=(None, None, True if out is None else out, None),
                                    threads=_threads(threads))
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

        Arguments as :meth:`height_grid`.
        """
        x0, y0, nx, ny, step, r0, c0 = _grid_args(x0, y0, nx, ny, step, offset)
        res = self._core.terra_grid(x0, y0, nx, ny, step, r0=r0, c0=c0,
                                    outputs=(None, None, None, True if out is None else out),
                                    threads=_threads(threads))
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
    ) -> TerrainGrid:
        """terra on a grid in one pass: ``TerrainGrid(x, y, height, depth, terrain, feature)``.

        ``height`` is terra's height (the water surface on lakes), ``depth`` the
        lake depth (0 elsewhere), ``terrain`` and ``feature`` uint8 codes, all
        ``(ny, nx)``; ``x`` (nx,) and ``y`` (ny,) are the coordinates.
        ``out`` may be a 4-sequence ``(height, depth, terrain, feature)`` of
        preallocated arrays (e.g. a previous result) to fill. ``offset``
        selects a block of the grid, as in :meth:`height_grid`.

        >>> g = Terrain().grid(23396, 5318, 4, 3)
        >>> g.x
        array([23396., 23397., 23398., 23399.])
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
        h, d, t, f = self._core.terra_grid(x0, y0, nx, ny, step, r0=r0, c0=c0, outputs=outputs,
                                           threads=_threads(threads))
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
        self._core.place(_key(x, "x"), _key(y, "y"), code)

    def at(self, x: int, y: int) -> Placeable | None:
        """What is placed at ``(x, y)``, or None."""
        return _decode(self._core.at(_key(x, "x"), _key(y, "y")))

    def remove(self, x: int, y: int) -> bool:
        """Remove what is placed at ``(x, y)``; True if there was something."""
        return self._core.remove(_key(x, "x"), _key(y, "y"))

    def remove_all(self, what: Placeable) -> int:
        """Remove every placement of ``what``; returns how many were removed."""
        return self._core.remove_all(_encode(what))


def _key(v: Any, name: str) -> int:
    if isinstance(v, bool):
        raise TypeError(f"{name}: must be an int, got {v!r}")
    try:
        k = operator.index(v)
    except TypeError:
        raise TypeError(f"{name}: placed points are integers, got {v!r}") from None
    if not -(2**62) <= k < 2**62:
        raise ValueError(f"{name}: must be within +-2**62, got {k}")
    return k


def _round_js(v: float) -> int:
    r = math.floor(v)
    if v - r >= 0.5:
        r += 1
    return int(r)
