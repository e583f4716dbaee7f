"""The classic fractal terrain generators, for comparison with the Relf terrain.

From Paul Martz, *Generating Random Fractal Terrain* (seed 002):
:func:`midpoint_displacement` (a 1-D ridgeline), :func:`diamond_square` (a
square height map with roughness ``h``, wrappable, seedable) and
:func:`clouds` (its cloud opacity texture). From *Terramorphic Genesis
Algorithms* (seed 001): the Scorched Earth style :func:`limited_random` and
:func:`circle_hill` height maps. :func:`roughness` measures any of them, or a
Relf height grid, on the array.

Randomness (SPEC 11): ``rng`` is an int seed, a :class:`numpy.random.Generator`
or ``None`` (fresh randomness). The uniform numbers are drawn in bulk with
``Generator.random`` in the order each function documents and handed to the C
core, which holds no random state and uses only IEEE-754 arithmetic (its own
cosine, no platform libm), so one seed gives the same array on every platform
(for a given NumPy version's ``default_rng`` stream).

Arrays of seed 001 are indexed ``[y, x]``: ``a[j, i]`` is the seed's
``heightMap.get(i, j)``, shape ``(height, width)``.
"""

from __future__ import annotations

import decimal
import math
import numbers
import sys
from collections.abc import Sequence
from typing import Any, Union

import numpy as np

from . import _core, _validate

__all__ = [
    "MAX_CIRCLE_CELLS",
    "RngLike",
    "circle_hill",
    "clouds",
    "diamond_square",
    "limited_random",
    "midpoint_displacement",
    "roughness",
]

#: What ``rng=`` accepts: ``None`` (fresh randomness), an int seed >= 0 or a
#: :class:`numpy.random.Generator` (used, and advanced, as it is).
RngLike = Union[None, int, np.random.Generator]  # noqa: UP007 (a runtime alias)
ArrayLike = Any

_F64 = 8  # bytes per float64

#: :func:`circle_hill` refuses more work than this (2**36 cells, about
#: 6.9e10: minutes to hours) unless ``allow_huge=True``: its work is
#: ``n_circles`` times the cells of a circle's square (``2*floor(radius) + 3``
#: a side, at most the array), which the array's size does not bound. The
#: other generators' work is bounded by their output (checked against the
#: memory).
MAX_CIRCLE_CELLS: int = 1 << 36

# Uniforms are drawn in slices of this many (a few ms each), so that Ctrl-C
# is honoured while a big array's are drawn; the values are those of one
# rng.random(n) call (every bit generator gives its doubles in order).
_DRAW = 1 << 20


# -- argument checks ----------------------------------------------------------


def _generator(rng: RngLike) -> np.random.Generator:
    return _validate.generator(rng)


def _uniforms(g: np.random.Generator, n: int) -> np.ndarray:
    """``g.random(n)``, drawn in slices (Ctrl-C is honoured between them)."""
    u = np.empty(n)
    for k in range(0, n, _DRAW):
        g.random(out=u[k:k + _DRAW])
    return u


def _int(value: Any, name: str, minimum: int) -> int:
    return _validate.integer(value, name, minimum)


_real = _validate.real


def _roughness_h(h: Any) -> float:
    if isinstance(h, (bool, np.bool_)) or not isinstance(h, numbers.Real):
        raise TypeError(f"h: must be a real number in [0, 1], got {h!r}")
    try:
        v = float(h)
    except OverflowError:
        raise ValueError(f"h: must be a finite number in [0, 1], got {h!r:.60}") from None
    if not (math.isfinite(v) and 0.0 <= v <= 1.0):
        raise ValueError(f"h: must be a finite number in [0, 1], got {v!r}")
    return v


def _ratio(h: float) -> float:
    """2**-h, the same double on every platform (decimal, not the C libm)."""
    with decimal.localcontext() as ctx:
        ctx.prec = 40
        return float(decimal.Decimal(2) ** decimal.Decimal(-h))


def _too_large(name: str, what: str) -> MemoryError:
    return MemoryError(f"{name}: {what} cannot be allocated")


# -- seed 002: Paul Martz -------------------------------------------------------


def midpoint_displacement(
    iterations: int,
    h: float = 1.0,
    rng: RngLike = None,
    *,
    scale: float = 1.0,
) -> np.ndarray:
    """One-dimensional midpoint displacement: a ridgeline (seed 002).

    A line of ``2**iterations + 1`` heights with both ends at 0. Pass ``p``
    (0 .. iterations-1) displaces the midpoint of every segment by a uniform
    random amount in ``[-r, r)``, where ``r`` starts at ``scale`` (the seed's
    range -1.0 to 1.0) and is multiplied by ``2**-h`` after each pass.

    Parameters
    ----------
    iterations : int
        Passes (>= 0); the result has ``2**iterations + 1`` points.
    h : float
        Roughness H in [0, 1]: 1 halves the range each pass (smooth), 0 keeps
        it (jagged).
    rng : int, numpy.random.Generator or None
        Randomness. One uniform per point is drawn,
        ``rng.random(2**iterations + 1)``; point ``i`` uses element ``i``
        (the ends' are unused).
    scale : float
        The first pass's range (default 1.0, as the seed).

    Returns
    -------
    numpy.ndarray
        float64, shape ``(2**iterations + 1,)``; ``a[0] == a[-1] == 0``, so the
        line wraps end to end.

    Examples
    --------
    >>> from relfterrain import classic
    >>> a = classic.midpoint_displacement(8, h=0.8, rng=1)
    >>> a.shape, float(a[0]), float(a[-1])
    ((257,), 0.0, 0.0)
    >>> bool((a == classic.midpoint_displacement(8, h=0.8, rng=1)).all())
    True
    """
    iterations = _int(iterations, "iterations", 0)
    h = _roughness_h(h)
    scale = _real(scale, "scale")
    limit = min(_core.MAX_MIDPOINT_ITERATIONS, sys.maxsize.bit_length() - 5)
    if iterations > limit:
        raise ValueError(
            f"iterations: 2**{iterations} + 1 points cannot be allocated (at most {limit})"
        )
    n = (1 << iterations) + 1
    # the uniforms and the line, both float64: the total against the memory
    _core.check_alloc(2 * n * _F64, "iterations", f"2 x (2**{iterations} + 1) float64")
    g = _generator(rng)
    try:
        u = _uniforms(g, n)
        return _core.midpoint_displacement(iterations, scale, _ratio(h), u)
    except MemoryError:
        raise _too_large("iterations", f"a line of 2**{iterations} + 1 points") from None


def _seed_grid(seed_grid: ArrayLike, n: int, wrap: bool) -> np.ndarray:
    try:
        s = np.asarray(seed_grid, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise TypeError(
            f"seed_grid: must be a square array-like of numbers (NaN = unset), got {seed_grid!r}"
        ) from None
    m = s.shape[0] - 1 if s.ndim == 2 and s.shape[0] == s.shape[1] else 0
    if m < 1 or m & (m - 1) or m > n - 1:
        raise ValueError(
            f"seed_grid: must be square with side 2**k + 1, k <= iterations "
            f"(side {n} or less), got shape {s.shape}"
        )
    if np.isinf(s).any():
        raise ValueError("seed_grid: values must be finite, or NaN for a point to generate")
    if wrap:
        pairs = (
            (s[0, :], s[-1, :], "first and last rows"),
            (s[:, 0], s[:, -1], "first and last columns"),
        )
        for a, b, what in pairs:
            clash = ~np.isnan(a) & ~np.isnan(b) & (a != b)
            if clash.any():
                k = int(np.flatnonzero(clash)[0])
                raise ValueError(
                    f"seed_grid: with wrap=True opposite edges are one edge; the {what} "
                    f"differ at index {k} ({a[k]!r} != {b[k]!r}); set one of them to NaN"
                )
    return s


def diamond_square(
    iterations: int,
    h: float = 0.7,
    rng: RngLike = None,
    corner: float = 0.0,
    wrap: bool = True,
    seed_grid: ArrayLike | None = None,
    *,
    scale: float = 1.0,
) -> np.ndarray:
    """The diamond-square algorithm: a fractal height map (seed 002).

    An ``n x n`` grid, ``n = 2**iterations + 1``, corners set to ``corner``.
    Each pass does the diamond step (every square's centre: the average of
    its 4 corners plus a random amount) then the square step (every
    diamond's centre: the average of its corners plus a random amount from
    the same range), then multiplies the range, which starts at ``scale``
    (the seed's -1.0 to 1.0), by ``2**-h``.

    Parameters
    ----------
    iterations : int
        Passes (>= 0).
    h : float
        Roughness H in [0, 1] (the seed's default 0.7): the mean absolute
        difference between neighbours falls by about ``2**-h`` per halving of
        the distance.
    rng : int, numpy.random.Generator or None
        Randomness. ``rng.random((n, n))`` is drawn (row-major); point
        ``[i, j]`` uses element ``[i, j]`` when it is generated.
    corner : float
        The value of the four corners when ``seed_grid`` does not set them.
    wrap : bool
        Tileable (the seed's wrappable surface): a square-step point on an
        edge takes its missing diamond corner from the opposite side and is
        stored on both sides, so ``a[0] == a[-1]`` and ``a[:, 0] == a[:, -1]``
        and ``a[:-1, :-1]`` tiles the plane. Without wrap an edge point
        averages the three corners it has.
    seed_grid : array-like, optional
        Fixed values (the seed's "Other Methods"): a square float array of
        side ``2**k + 1`` (``k <= iterations``) laid on the grid of pass
        ``k`` (every ``2**(iterations-k)``-th point), NaN where a point is to
        be generated. Only NaN points are generated; the others are kept, so
        seeding the first passes shapes mountains and valleys. With ``wrap``
        opposite edges must agree where both are set.
    scale : float
        The first pass's range (default 1.0, as the seed).

    Returns
    -------
    numpy.ndarray
        float64, shape ``(n, n)``.

    Examples
    --------
    >>> from relfterrain import classic
    >>> z = classic.diamond_square(6, h=0.7, rng=42)
    >>> z.shape
    (65, 65)
    >>> bool((z[0] == z[-1]).all() and (z[:, 0] == z[:, -1]).all())
    True
    >>> seed = [[0, 0, 0], [0, 5.0, 0], [0, 0, 0]]       # a mountain in the middle
    >>> m = classic.diamond_square(6, rng=42, seed_grid=seed)
    >>> float(m[32, 32])
    5.0
    """
    iterations = _int(iterations, "iterations", 0)
    h = _roughness_h(h)
    corner = _real(corner, "corner")
    scale = _real(scale, "scale")
    wrap = bool(wrap)
    # two n*n float64 arrays (uniforms and grid) must be addressable
    limit = min(_core.MAX_DIAMOND_ITERATIONS, (sys.maxsize.bit_length() - 4) // 2 - 1)
    if iterations > limit:
        raise ValueError(
            f"iterations: a (2**{iterations} + 1)**2 grid cannot be allocated (at most {limit})"
        )
    n = (1 << iterations) + 1
    _core.check_alloc(2 * n * n * _F64, "iterations",
                      f"2 x (2**{iterations} + 1)**2 float64 (uniforms, grid)")
    seed = None if seed_grid is None else _seed_grid(seed_grid, n, wrap)
    g = _generator(rng)
    try:
        u = _uniforms(g, n * n)
        grid = np.full((n, n), np.nan)
    except MemoryError:
        raise _too_large("iterations", f"a (2**{iterations} + 1)**2 grid") from None
    if seed is not None:
        stride = (n - 1) // (seed.shape[0] - 1)
        grid[::stride, ::stride] = seed
    return _core.diamond_square(iterations, scale, _ratio(h), corner, wrap, u, grid)


def clouds(
    heights: ArrayLike,
    clear: float | None = None,
    cloudy: float | None = None,
) -> np.ndarray:
    """Cloud opacity from a height map (seed 002, "Cloudy Skies").

    The seed reads the diamond-square array as cloud opacity, "clamped ...
    to create patches of clear and clouded sky": values at or below
    ``clear`` are clear sky (0), at or above ``cloudy`` full cloud (1),
    linear in between. NaN stays NaN.

    Parameters
    ----------
    heights : array-like of float
        Any shape, typically :func:`diamond_square`'s output.
    clear : float, optional
        Default: the median of ``heights`` (half the sky clear).
    cloudy : float, optional
        Default: the 90th percentile (a tenth of the sky full cloud).
        ``clear <= cloudy``; equal is a hard threshold.

    Returns
    -------
    numpy.ndarray
        float64 opacity in [0, 1], the shape of ``heights``.

    Examples
    --------
    >>> from relfterrain import classic
    >>> classic.clouds([-1.0, 0.0, 0.25, 0.5, 2.0], clear=0.0, cloudy=0.5)
    array([0. , 0. , 0.5, 1. , 1. ])
    >>> c = classic.clouds(classic.diamond_square(7, rng=3))
    >>> float(c.min()), float(c.max())
    (0.0, 1.0)
    """
    a = _validate.real_array(heights, "heights", "an array-like of numbers")
    defaults = clear is None or cloudy is None
    if defaults and not np.isfinite(a).any():
        raise ValueError("heights: need at least one finite value for the default clear/cloudy")
    clear = float(np.nanquantile(a, 0.5)) if clear is None else _real(clear, "clear")
    cloudy = float(np.nanquantile(a, 0.9)) if cloudy is None else _real(cloudy, "cloudy")
    if clear > cloudy:
        raise ValueError(f"clear, cloudy: clear must be <= cloudy, got {clear!r} > {cloudy!r}")
    return _core.clouds(a, clear, cloudy)


# -- seed 001: Terramorphic Genesis ------------------------------------------------


def _check_size(width: int, height: int, arrays: int) -> None:
    if width * height > sys.maxsize // (_F64 * arrays):
        raise MemoryError(
            f"width, height: a {height} x {width} array cannot be allocated"
        )
    # everything the call allocates, against the physical memory
    _core.check_alloc(arrays * width * height * _F64, "width, height",
                      f"{arrays} x {height} x {width} float64")


def limited_random(
    width: int,
    height: int,
    max_increase: float,
    minimum: float,
    maximum: float,
    rng: RngLike = None,
) -> np.ndarray:
    """The "limited random" height map of seed 001 (pointy, Scorched Earth style).

    Each cell starts from the average of its neighbours at ``i-1`` and
    ``j-1`` (row ``j == 0``: the cell at ``i-1``; column ``i == 0``: a random
    number times ``height``, as the seed's ``Math.random() * height``), adds
    ``max_increase * (random - 1/2)`` and is clamped to ``[minimum, maximum]``.

    The seed's loops stop one short of each edge (``i < width - 1``), leaving
    the last row and column unset; here every cell is computed by the same
    rule, so the whole array is terrain.

    Parameters
    ----------
    width, height : int
        Array size (>= 1); the result has shape ``(height, width)`` and
        ``a[j, i]`` is the seed's ``heightMap.get(i, j)``.
    max_increase : float
        Spread of the random step (>= 0): steps lie in
        ``[-max_increase/2, max_increase/2)``.
    minimum, maximum : float
        Clamp bounds, ``minimum <= maximum``.
    rng : int, numpy.random.Generator or None
        Randomness: ``u_start = rng.random(height)`` (the column ``i == 0``
        start values, by ``j``) then ``u_step = rng.random((height, width))``
        (cell ``[j, i]``'s step).

    Returns
    -------
    numpy.ndarray
        float64, shape ``(height, width)``.

    Examples
    --------
    >>> from relfterrain import classic
    >>> a = classic.limited_random(200, 100, 8.0, 0.0, 100.0, rng=7)
    >>> a.shape, bool(a.min() >= 0.0 and a.max() <= 100.0)
    ((100, 200), True)
    """
    width = _int(width, "width", 1)
    height = _int(height, "height", 1)
    max_increase = _real(max_increase, "max_increase")
    if max_increase < 0:
        raise ValueError(f"max_increase: must be >= 0, got {max_increase!r}")
    minimum = _real(minimum, "minimum")
    maximum = _real(maximum, "maximum")
    if minimum > maximum:
        raise ValueError(
            f"minimum, maximum: minimum must be <= maximum, got {minimum!r} > {maximum!r}"
        )
    _check_size(width, height, 2)
    g = _generator(rng)
    try:
        u_start = _uniforms(g, height)
        u_step = _uniforms(g, height * width)
        return _core.limited_random(width, height, max_increase, minimum, maximum, u_start,
                                    u_step)
    except MemoryError:
        raise _too_large("width, height", f"a {height} x {width} array") from None


def circle_hill(
    width: int,
    height: int,
    n_circles: int,
    radius: float,
    hill_height: float,
    maximum: float,
    base: float = 50.0,
    rng: RngLike = None,
    *,
    allow_huge: bool = False,
) -> np.ndarray:
    """The "circle-hill" height map of seed 001.

    The array starts at ``base`` (the seed's 50). Each circle picks a random
    centre ``(x, y) = (floor(random*width), floor(random*height))`` and adds
    ``(hill_height / 2) * (1 + cos(pi * d / radius**2))`` to every cell whose
    squared distance ``d`` to the centre is below ``radius**2``, capping each
    cell at ``maximum``, all in the seed's order of operations.

    Two differences from the seed's listing, both documented choices: its
    scan stops one short of each edge (``pd_j < width - 1``), leaving the last
    row and column at ``base``, whereas here hills cover the whole array; and
    it visits every cell for every circle, O(circles x width x height),
    whereas here only the circle's bounding square is visited,
    O(circles x radius**2), with the same result. ``n_circles`` is the number
    of hills made (the seed's ``for (pd_i = 1; pd_i < numCircles ...)`` makes
    ``numCircles - 1``). The cosine is the core's own (within 1 ulp of the
    true value, the same on every platform).

    Parameters
    ----------
    width, height : int
        Array size (>= 1); shape ``(height, width)``, ``a[k, j]`` is the
        seed's ``heightMap.get(j, k)``.
    n_circles : int
        Number of hills (>= 0).
    radius : float
        Hill radius in cells (> 0).
    hill_height : float
        Height added at a hill's centre.
    maximum : float
        Cap applied as each hill is added.
    base : float
        Initial height of every cell.
    rng : int, numpy.random.Generator or None
        Randomness: ``rng.random((n_circles, 2))``, row ``c`` the ``x`` and
        ``y`` uniforms of circle ``c``.
    allow_huge : bool
        Run even when the work, ``n_circles`` times the cells of a circle's
        square (``min(width, 2*floor(radius) + 3) * min(height, ...)``),
        exceeds :data:`MAX_CIRCLE_CELLS` (2**36); otherwise such a call is
        refused at once (ValueError naming ``n_circles, radius``). Ctrl-C
        stops a long call (KeyboardInterrupt).

    Returns
    -------
    numpy.ndarray
        float64, shape ``(height, width)``.

    Examples
    --------
    >>> from relfterrain import classic
    >>> a = classic.circle_hill(128, 64, 60, 12.0, 20.0, 200.0, rng=5)
    >>> a.shape, float(a.min()) >= 50.0
    ((64, 128), True)
    >>> float(classic.circle_hill(3, 3, 0, 1.0, 1.0, 100.0).max())
    50.0
    """
    width = _int(width, "width", 1)
    height = _int(height, "height", 1)
    n_circles = _int(n_circles, "n_circles", 0)
    radius = _real(radius, "radius")
    if not radius > 0:
        raise ValueError(f"radius: must be a positive finite number, got {radius!r}")
    hill_height = _real(hill_height, "hill_height")
    maximum = _real(maximum, "maximum")
    base = _real(base, "base")
    _check_size(width, height, 1)
    side = 2 * math.floor(min(radius, 2.0**62)) + 3  # the square the core visits, at most
    _validate.work(n_circles * min(width, side) * min(height, side), MAX_CIRCLE_CELLS,
                   "MAX_CIRCLE_CELLS", "n_circles, radius",
                   "the cells visited, n_circles * min(width, 2*floor(radius) + 3) * "
                   "min(height, 2*floor(radius) + 3),", allow_huge)
    if n_circles > sys.maxsize // (2 * _F64):
        raise MemoryError(f"n_circles: {n_circles} circles' random numbers cannot be allocated")
    _core.check_alloc((width * height + 2 * n_circles) * _F64, "width, height, n_circles",
                      f"a {height} x {width} array and {n_circles} circles' random numbers")
    g = _generator(rng)
    try:
        u = _uniforms(g, 2 * n_circles)
        return _core.circle_hill(width, height, n_circles, radius, hill_height, maximum, base, u)
    except MemoryError:
        raise _too_large("width, height, n_circles",
                         f"a {height} x {width} array with {n_circles} circles") from None


# -- measuring ---------------------------------------------------------------------


def roughness(heights: ArrayLike, scales: Sequence[int] | None = None) -> np.ndarray:
    """Mean absolute difference between points ``s`` apart, for each scale ``s``.

    For a 1-D array: ``mean(|a[i+s] - a[i]|)``; for a 2-D array the mean over
    both axes' differences together. A fractal with roughness H has this
    fall by about ``2**-H`` each time ``s`` halves.

    Parameters
    ----------
    heights : array-like of float
        A 1-D or 2-D array (a line, any height grid).
    scales : sequence of int, optional
        Distances in cells (>= 1, smaller than the array). Default: 1, 2, 4,
        ... while below a quarter of the smallest side (at least 1).

    Returns
    -------
    numpy.ndarray
        float64, one value per scale.

    Examples
    --------
    >>> from relfterrain import classic
    >>> classic.roughness([0.0, 1.0, 0.0, 1.0, 0.0], scales=[1, 2])
    array([1., 0.])
    """
    a = _validate.real_array(heights, "heights", "an array-like of numbers")
    if a.ndim not in (1, 2) or min(a.shape) < 2:
        raise ValueError(f"heights: must be 1-D or 2-D with every side >= 2, got shape {a.shape}")
    side = min(a.shape)
    if scales is None:
        scales = [1 << k for k in range(64) if (1 << k) < max(side // 4, 2)]
    out = []
    for s in scales:
        s = _int(s, "scales", 1)
        if s >= side:
            raise ValueError(f"scales: {s} is not smaller than the array's side {side}")
        parts = []
        for ax in range(a.ndim):
            lo = [slice(None)] * a.ndim
            hi = [slice(None)] * a.ndim
            lo[ax] = slice(None, -s)
            hi[ax] = slice(s, None)
            parts.append(np.abs(a[tuple(hi)] - a[tuple(lo)]).ravel())
        out.append(float(np.mean(np.concatenate(parts))))
    return np.array(out)
