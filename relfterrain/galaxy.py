"""Stars scattered through 3-D space: the seed's ``calcStar`` (SPEC 9).

A star sits at an integer point ``(x, y, z)`` (light years) where the
profile summed along the directions S, T, U, times ``x*y*z``, hits one value
out of 65536 and the low bits of ``x*y*z`` pass a test; its magnitude,
number of planets and colour are bit fields of ``x*y*z``. This module scans
blocks of space in the C core and answers the seed's four exercises.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from . import _core, _validate
from ._fields import documented
from ._params import GalaxyParams
from ._progress import tqdm_class
from ._stats import chi2_sf, t_two_sided_p

_readonly = _validate.readonly
_threads = _validate.threads

__all__ = [
    "GALAXY_DOMAIN",
    "GALAXY_VECTORS",
    "INITIAL_VIEW",
    "OBSERVER",
    "STAR_DTYPE",
    "Block",
    "Density",
    "Galaxy",
    "GalaxyParams",
    "Independence",
    "NearestStar",
    "PlanetTable",
    "Star",
    "colour_planet_independence",
    "density",
    "nearest_star",
    "planet_table",
]

ArrayLike = Any


@documented(
    x0="The block's first x (an integer, light years).",
    y0="The block's first y.",
    z0="The block's first z.",
    nx='Points along x: ``x0 .. x0 + nx - 1``.',
    ny='Points along y.',
    nz='Points along z.',
)
class Block(NamedTuple):
    """A block of space: the integer points ``x0`` to ``x0 + nx - 1``, and so on in y and z.

    A plain tuple, so ``galaxy.stars(*block)`` works.
    """

    x0: int
    y0: int
    z0: int
    nx: int
    ny: int
    nz: int

    @property
    def volume(self) -> int:
        """The number of integer points (cubic light years) in the block."""
        return self.nx * self.ny * self.nz


@documented(
    x='Where the star is: x, an integer (light years).',
    y='Y, an integer (light years).',
    z='Z, an integer (light years).',
    magnitude='``MIN + RANGE * (xyz & 0xff) / 7``: 7 values from MIN + RANGE/7 to MIN + RANGE.',
    planets='``(xyz & 0xf00) >> 8``: 0 .. 15.',
    colour='``(xyz & 0xf000) >> 12``: a colour index 0 .. 15.',
)
class Star(NamedTuple):
    """One star, as the seed's ``new Star(x, y, z, mag, nPlanets, colour)``."""

    x: int
    y: int
    z: int
    magnitude: float
    planets: int
    colour: int


def _star_dtype() -> np.dtype:
    layout = _core.STAR_LAYOUT
    dt = np.dtype(
        [
            ("x", np.int64),
            ("y", np.int64),
            ("z", np.int64),
            ("magnitude", np.float64),
            ("planets", np.uint8),
            ("colour", np.uint8),
        ],
        align=True,
    )
    # the C struct and the aligned dtype must agree byte for byte
    assert dt.itemsize == layout["itemsize"], (dt.itemsize, layout)
    assert dt.names is not None and dt.fields is not None
    for name in dt.names:
        assert dt.fields[name][1] == layout[name], (name, layout)
    return dt


#: The record of :meth:`Galaxy.stars`: ``x, y, z`` int64, ``magnitude``
#: float64, ``planets, colour`` uint8 (40 bytes, C layout).
STAR_DTYPE: np.dtype = _star_dtype()
#: The seed's initial view (SPEC 9): 800 x 600 pixels at 1 ly per pixel, 300 ly deep.
INITIAL_VIEW: Block = Block(-400, -300, 1, 800, 600, 300)
#: Where the observer of the initial view stands.
OBSERVER: tuple[int, int, int] = (0, 0, 0)
#: The default directions ``s, t, u`` (the terrain's A1, B1, B2).
GALAXY_VECTORS: dict[str, tuple[int, ...]] = dict(zip("stu", _core.GALAXY_VECTORS))
#: Inside ``|x|, |y|, |z| <= GALAXY_DOMAIN`` results equal the original bit for bit.
GALAXY_DOMAIN: float = _core.GALAXY_DOMAIN

_INT64 = (-(2**63), 2**63 - 1)
#: Blocks of more points than this (about 1.8e13) are refused by the block
#: scans unless ``allow_huge=True``: at the seed's far coordinates a scan runs
#: at about 1e7 points per second and core, so such a block takes hours.
MAX_BLOCK_POINTS: int = 1 << 44
# The scans run in pieces of about this many seconds each (one C call each,
# the GIL released inside): between pieces Ctrl-C (KeyboardInterrupt) is
# honoured, other Python threads run and the progress bar moves.
_SECONDS_PER_CALL = 0.1
_FIRST_CALL_POINTS = 1 << 18
_MAX_CALL_POINTS = 1 << 36


def _int(value: Any, name: str) -> int:
    return _validate.integer(value, name, int64=True)


def _block(x0: Any, y0: Any, z0: Any, nx: Any, ny: Any, nz: Any) -> Block:
    return Block(*_validate.space_block(x0, y0, z0, nx, ny, nz))


def _pieces(block: Block, max_planes: int, budget: Callable[[], int]
            ) -> Iterator[tuple[tuple[int, int, int, int, int, int], int]]:
    """The block as sub-blocks of at most budget() points each (at least one
    z run), in (x, y, z) order: whole x planes (at most max_planes), else
    whole y rows of one plane, else z runs of one row.  Yields (sub-block,
    x planes completed by it)."""
    x0, y0, z0, nx, ny, nz = block
    plane = ny * nz
    x = y = z = 0
    while x < nx:
        b = max(1, budget())
        if y == 0 and z == 0 and plane <= b:
            n = min(b // plane, nx - x, max_planes)
            yield (x0 + x, y0, z0, n, ny, nz), n
            x += n
        elif z == 0 and nz <= b:
            n = min(b // nz, ny - y)
            y += n
            done = y == ny
            yield (x0 + x, y0 + y - n, z0, 1, n, nz), int(done)
            if done:
                x, y = x + 1, 0
        else:
            n = min(b, nz - z)
            z += n
            done = z == nz and y + 1 == ny
            yield (x0 + x, y0 + y, z0 + z - n, 1, 1, n), int(done)
            if z == nz:
                z, y = 0, y + 1
                if y == ny:
                    x, y = x + 1, 0


_tqdm = tqdm_class


class Galaxy:
    """The star generator of the seed's "3D space: nebulae and stars".

    ``calcStar(x, y, z)`` at integer points: with ``a`` the profile summed
    along the directions ``s, t, u`` and ``xyz = x*y*z``, a star exists where
    ``round(a * xyz / 128) & 0xffff == 127`` and ``1 <= (xyz & 0xff) <= 7``.
    Inside ``|x|, |y|, |z| <= 2**17`` (:data:`GALAXY_DOMAIN`) every result equals
    the JavaScript original bit for bit; outside, results follow the same
    double arithmetic (defined, beyond the original's precision).

    Parameters
    ----------
    profile : array-like of float, optional
        The periodic profile; length a power of two (1 .. 2**24), finite
        values. Default: the classic 256-entry profile.
    s, t, u : sequence of int, optional
        The x, y and z factors of the directions, one common length N
        (1 <= N <= 64), ``|v| <= 2**20``. Defaults (SPEC 9): the terrain's
        ``a1``, ``b1`` and ``b2``.
    min_magnitude, magnitude_range : float
        The seed's ``MIN_MAGNITUDE`` (1.0) and ``MAGNITUDE_RANGE`` (5.0).
    f_mask, f_value : int
        The star test ``f & f_mask == f_value``: the seed's ``0xffff`` and
        ``127``. A smaller mask makes a denser galaxy (handy for tests and
        experiments); ``f_value`` must have no bit outside ``f_mask``.

    Examples
    --------
    >>> import relfterrain as rt
    >>> g = rt.Galaxy()
    >>> g.count(*rt.INITIAL_VIEW)
    26
    >>> s = g.stars(*rt.INITIAL_VIEW)
    >>> s.dtype.names
    ('x', 'y', 'z', 'magnitude', 'planets', 'colour')
    >>> g.star(*(int(v) for v in s[["x", "y", "z"]][0])) == g.star_record(s[0])
    True
    >>> g.star(0, 5, 7) is None          # the planes x = 0, y = 0, z = 0 hold no star
    True
    """

    def __init__(
        self,
        profile: ArrayLike | None = None,
        s: Sequence[int] | None = None,
        t: Sequence[int] | None = None,
        u: Sequence[int] | None = None,
        min_magnitude: float = 1.0,
        magnitude_range: float = 5.0,
        *,
        f_mask: int = 0xFFFF,
        f_value: int = 127,
        params: GalaxyParams | None = None,
    ) -> None:
        if params is None:
            given = {"profile": profile, "s": s, "t": t, "u": u}
            params = GalaxyParams(
                **{k: v for k, v in given.items() if v is not None},
                min_magnitude=min_magnitude, magnitude_range=magnitude_range,
                f_mask=f_mask, f_value=f_value)
        elif not isinstance(params, GalaxyParams):
            raise TypeError(f"params: must be a relfterrain.GalaxyParams, got {params!r}")
        self._params = params
        self._core = _core.GalaxyCore(
            params.profile, params.s, params.t, params.u, min_magnitude=params.min_magnitude,
            magnitude_range=params.magnitude_range, f_mask=params.f_mask,
            f_value=params.f_value,
        )

    # -- value semantics ----------------------------------------------------

    @property
    def params(self) -> GalaxyParams:
        """The parameters, an immutable value (hashable, with a stable
        :meth:`~GalaxyParams.fingerprint`)."""
        return self._params

    def replace(self, **changes: Any) -> Galaxy:
        """A galaxy with the named parameters changed.

        >>> Galaxy().replace(f_mask=0xff).count(-20, -20, 1, 40, 40, 40) > 0
        True
        """
        return Galaxy(params=self._params.replace(**changes))

    def __reduce__(self) -> tuple:
        return (_galaxy_from_params, (self._params,))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Galaxy):
            return NotImplemented
        return self._params == other._params

    def __hash__(self) -> int:
        return hash(self._params)

    # -- parameters ---------------------------------------------------------

    @property
    def profile(self) -> np.ndarray:
        """The profile (read-only float64)."""
        return self._params.profile

    @property
    def s(self) -> np.ndarray:
        """The x factors of the directions (read-only int64)."""
        return _readonly(np.array(self._params.s, dtype=np.int64))

    @property
    def t(self) -> np.ndarray:
        """The y factors of the directions (read-only int64)."""
        return _readonly(np.array(self._params.t, dtype=np.int64))

    @property
    def u(self) -> np.ndarray:
        """The z factors of the directions (read-only int64)."""
        return _readonly(np.array(self._params.u, dtype=np.int64))

    @property
    def directions(self) -> int:
        """N, the number of directions summed."""
        return self._params.directions

    @property
    def min_magnitude(self) -> float:
        """The seed's MIN_MAGNITUDE."""
        return self._params.min_magnitude

    @property
    def magnitude_range(self) -> float:
        """The seed's MAGNITUDE_RANGE."""
        return self._params.magnitude_range

    @property
    def f_mask(self) -> int:
        """The mask of the star test."""
        return self._params.f_mask

    @property
    def f_value(self) -> int:
        """The value of the star test."""
        return self._params.f_value

    def __repr__(self) -> str:
        parts = []
        for k, v in self._params.changed().items():
            if isinstance(v, np.ndarray):
                parts.append(f"{k}=<{v.size} values>")
            elif k in ("s", "t", "u"):
                parts.append(f"{k}={list(v)}")
            elif k == "f_mask":
                parts.append(f"f_mask={v:#x}")
            else:
                parts.append(f"{k}={v!r}")
        return f"Galaxy({', '.join(parts)})"

    # -- one point ----------------------------------------------------------

    def star(self, x: int, y: int, z: int) -> Star | None:
        """The star at the integer point ``(x, y, z)``, or ``None``.

        Always computed by the seed's double arithmetic, point by point (the
        block scans use an equivalent exact integer path; the tests check
        one against the other).

        >>> import relfterrain as rt
        >>> rt.Galaxy().star(-42, 11, 41)
        Star(x=-42, y=11, z=41, magnitude=2.428571428571429, planets=6, colour=11)
        """
        r = self._core.star(_int(x, "x"), _int(y, "y"), _int(z, "z"))
        return None if r is None else Star(*r)

    @staticmethod
    def star_record(record: Any) -> Star:
        """A :class:`Star` from one record of :meth:`stars`."""
        return Star(
            int(record["x"]), int(record["y"]), int(record["z"]), float(record["magnitude"]),
            int(record["planets"]), int(record["colour"]),
        )

    # -- blocks -------------------------------------------------------------

    def _scan(self, method: str, block: Block, threads: int | None, progress: bool,
              planes_per_call: int | None, allow_huge: bool = False) -> list:
        nthreads = _threads(threads)
        allow_huge = _validate.flag(allow_huge, "allow_huge")
        if block.volume > MAX_BLOCK_POINTS and not allow_huge:
            raise ValueError(
                f"nx, ny, nz: a {block.nx} x {block.ny} x {block.nz} block has {block.volume} "
                f"points, more than MAX_BLOCK_POINTS = 2**44 (hours of work, or years); "
                f"pass allow_huge=True to scan it anyway (Ctrl-C stops it)")
        call = getattr(self._core, method)
        if planes_per_call is None:
            step = block.nx
        else:
            step = _int(planes_per_call, "planes_per_call")
            if step < 1:
                raise ValueError(f"planes_per_call: must be >= 1, got {step}")
        bar = None
        if progress:
            bar = _tqdm()(total=block.nx, unit="plane", desc=method, leave=False)
        out = []
        budget = [_FIRST_CALL_POINTS]  # points per piece, adapted as the scan goes
        found = 0  # stars so far (stars): their total is checked against the memory
        try:
            for piece, planes_done in _pieces(block, step, lambda: budget[0]):
                start = time.perf_counter()
                part = call(*piece, threads=nthreads)
                elapsed = time.perf_counter() - start
                # aim at _SECONDS_PER_CALL per piece, whatever the coordinates' cost
                # (never past _MAX_CALL_POINTS: after a halving, doubling
                # from an odd budget could overshoot it)
                if elapsed < _SECONDS_PER_CALL / 2 and budget[0] < _MAX_CALL_POINTS:
                    budget[0] = min(2 * budget[0], _MAX_CALL_POINTS)
                elif elapsed > _SECONDS_PER_CALL * 2 and budget[0] > 1:
                    budget[0] //= 2
                if method == "stars" and len(part):
                    found += len(part)
                    # the parts so far and their concatenation
                    _core.check_alloc(2 * found * STAR_DTYPE.itemsize, "nx, ny, nz",
                                      f"a catalogue of {found} stars or more")
                out.append(part)
                if bar is not None and planes_done:
                    bar.update(planes_done)
        finally:
            if bar is not None:
                bar.close()
        return out

    def stars(self, x0: int, y0: int, z0: int, nx: int, ny: int, nz: int, *,
              threads: int | None = None, progress: bool = False,
              planes_per_call: int | None = None, allow_huge: bool = False) -> np.ndarray:
        """Every star in a block, sorted by ``(x, y, z)``.

        Parameters
        ----------
        x0, y0, z0, nx, ny, nz : int
            The block: integer points ``x0 .. x0+nx-1`` etc. (``nx, ny, nz >= 1``).
        threads : int, optional
            Threads to use (default: all cores). Every count gives the same
            catalogue.
        progress : bool
            Show a tqdm progress bar (needs ``pip install tqdm``), scanning
            in slabs of x planes.
        planes_per_call : int, optional
            Scan in slabs of at most this many x planes per C call; the
            result does not depend on it.
        allow_huge : bool
            Scan a block of more than :data:`MAX_BLOCK_POINTS` (2**44) points
            (refused with ValueError otherwise: at far coordinates such a
            scan takes hours).

        Notes
        -----
        The scan runs in pieces of about 0.1 s each (one C call each, with
        the GIL released): between pieces Ctrl-C raises KeyboardInterrupt
        (nothing is returned; the galaxy has no state to leave half-done),
        other Python threads run, and the catalogue's size so far is checked
        against the physical memory (MemoryError naming ``nx, ny, nz``).

        Returns
        -------
        numpy.ndarray
            A structured array of :data:`STAR_DTYPE`.

        Examples
        --------
        >>> import relfterrain as rt
        >>> s = rt.Galaxy().stars(*rt.INITIAL_VIEW)
        >>> len(s), int(s["planets"].max())
        (26, 15)
        """
        block = _block(x0, y0, z0, nx, ny, nz)
        parts = self._scan("stars", block, threads, progress, planes_per_call, allow_huge)
        raw = parts[0] if len(parts) == 1 else np.concatenate(parts)
        return raw.reshape(-1).view(STAR_DTYPE)

    def census(self, x0: int, y0: int, z0: int, nx: int, ny: int, nz: int, *,
               threads: int | None = None, progress: bool = False,
               planes_per_call: int | None = None, allow_huge: bool = False) -> np.ndarray:
        """Star counts by planets and colour, without building the catalogue.

        Returns an int64 array of shape (16, 16): ``[planets, colour]``.
        Arguments as :meth:`stars`.

        >>> import relfterrain as rt
        >>> int(rt.Galaxy().census(*rt.INITIAL_VIEW).sum())
        26
        """
        block = _block(x0, y0, z0, nx, ny, nz)
        parts = self._scan("census", block, threads, progress, planes_per_call, allow_huge)
        return np.asarray(np.sum(parts, axis=0, dtype=np.int64))

    def count(self, x0: int, y0: int, z0: int, nx: int, ny: int, nz: int, *,
              threads: int | None = None, progress: bool = False,
              planes_per_call: int | None = None, allow_huge: bool = False) -> int:
        """The number of stars in a block (arguments as :meth:`stars`).

        >>> import relfterrain as rt
        >>> rt.Galaxy().count(*rt.INITIAL_VIEW)
        26
        """
        return int(self.census(x0, y0, z0, nx, ny, nz, threads=threads, progress=progress,
                               planes_per_call=planes_per_call, allow_huge=allow_huge).sum())

    def planet_counts(self, x0: int, y0: int, z0: int, nx: int, ny: int, nz: int, *,
                      threads: int | None = None, progress: bool = False,
                      planes_per_call: int | None = None, allow_huge: bool = False
                      ) -> np.ndarray:
        """Element k: the number of stars with k planets, k = 0 .. 15 (int64).

        Arguments as :meth:`stars`.

        >>> import relfterrain as rt
        >>> int(rt.Galaxy().planet_counts(*rt.INITIAL_VIEW).sum())
        26
        """
        return self.census(x0, y0, z0, nx, ny, nz, threads=threads, progress=progress,
                           planes_per_call=planes_per_call, allow_huge=allow_huge).sum(axis=1)


# ---------------------------------------------------------------------------
# The seed's four exercises
# ---------------------------------------------------------------------------

BlockLike = Block | Sequence[int]


def _galaxy_from_params(params: GalaxyParams) -> Galaxy:
    return Galaxy(params=params)


@documented(
    stars='Stars found in the block.',
    volume='Integer points probed (cubic light years).',
    per_cubic_ly='``stars / volume``: stars per cubic light year.',
)
class Density(NamedTuple):
    """Exercise 1: stars per cubic light year."""

    stars: int
    volume: int
    per_cubic_ly: float


@documented(
    star='The nearest :class:`Star`.',
    distance='Euclidean distance, light years.',
    planets='Its number of planets (``star.planets``).',
)
class NearestStar(NamedTuple):
    """Exercise 2: the star nearest an observer."""

    star: Star
    distance: float
    planets: int


@documented(
    planets='0 .. 15.',
    stars='int64 counts.',
)
class PlanetTable(NamedTuple):
    """Exercise 3: the number of stars for each number of planets."""

    planets: np.ndarray
    stars: np.ndarray

    def __str__(self) -> str:
        total = int(self.stars.sum())
        lines = ["planets  stars  share"]
        for p, n in zip(self.planets.tolist(), self.stars.tolist()):
            share = n / total if total else 0.0
            lines.append(f"{p:7d}  {n:5d}  {share:6.1%}")
        lines.append(f"  total  {total:5d}")
        return "\n".join(lines)


@documented(
    n="Stars.",
    pearson_r="Pearson correlation of colour and planets (nan if either is constant).",
    pearson_p="Two-sided p-value of ``pearson_r`` (t test, n - 2 degrees of freedom).",
    chi2="Pearson's chi-square of the planets x colour table (no Yates correction).",
    dof="(rows - 1) * (columns - 1) over the non-empty rows and columns.",
    p_value="The p-value of the independence test named by ``test``.",
    cramers_v=("Effect size: sqrt(chi2 / (n * (min(rows, columns) - 1))); biased upward on "
               "small samples."),
    min_expected="The smallest expected cell count under independence.",
    table="The (16, 16) contingency table ``[planets, colour]``.",
    test=('``"chi-square"`` (the asymptotic distribution of ``chi2``), ``"permutation"`` '
          "(the Monte Carlo permutation test of ``chi2`` with the margins fixed) or "
          '``"none"`` (fewer than two non-empty rows or columns: nothing to test).'),
    valid=('Whether ``p_value`` is valid for this sample: always for ``"permutation"``; '
           'for ``"chi-square"`` when every expected count is at least 1 and at most 20 % '
           'of them are below 5 (Cochran\'s rule); never for ``"none"``.'),
    chi2_p_value=("P(chi-square with ``dof`` degrees >= ``chi2``), whatever ``test`` is: only "
                  "an approximation when the expected counts are small."),
    permutations="Random tables drawn by the permutation test (0 for the other tests).",
    p_value_se='Monte Carlo standard error of ``p_value`` (0.0 unless ``"permutation"``).',
    cramers_v_corrected="Bergsma's bias-corrected Cramér's V (about 0 under independence, any n).",
)
class Independence(NamedTuple):
    """Exercise 4: is the colour independent of the number of planets?

    ``test`` names the test behind ``p_value`` and ``valid`` says whether that
    p-value can be trusted for this sample: the chi-square distribution only
    approximates the statistic when the expected counts are large enough
    (Cochran's rule), while the permutation test is valid for any sample.

    The six fields from ``test`` on have defaults so that a pickle of 0.1.0's
    nine-field result still loads: it was a chi-square test whose validity was
    not recorded (``valid=False``, ``chi2_p_value`` and the corrected V nan).
    """

    n: int
    pearson_r: float
    pearson_p: float
    chi2: float
    dof: int
    p_value: float
    cramers_v: float
    min_expected: float
    table: np.ndarray
    test: str = "chi-square"
    valid: bool = False
    chi2_p_value: float = float("nan")
    permutations: int = 0
    p_value_se: float = 0.0
    cramers_v_corrected: float = float("nan")


#: the tests ``colour_planet_independence`` can use
INDEPENDENCE_METHODS = ("auto", "chi-square", "permutation")
_TIES = 1.0 - 64 * np.finfo(np.float64).eps  # as R's chisq.test: ties within rounding count


def _cochran_valid(expected: np.ndarray) -> bool:
    """Cochran's rule: no expected count below 1, at most 20 % below 5."""
    return bool(expected.min() >= 1.0 and (expected < 5.0).mean() <= 0.2)


def _random_tables(rows: np.ndarray, cols: np.ndarray, count: int,
                   rng: np.random.Generator) -> np.ndarray:
    """``count`` tables drawn uniformly given the margins (as permuting the colours).

    Each cell is hypergeometric given the cells before it (row by row, column
    by column), so the work is rows x columns per table whatever the number
    of stars. Returns (count, rows, columns) int64.
    """
    r, c = len(rows), len(cols)
    out = np.zeros((count, r, c), dtype=np.int64)
    left = np.broadcast_to(cols, (count, c)).astype(np.int64)   # column totals still free
    for i in range(r - 1):
        need = np.full(count, rows[i], dtype=np.int64)
        rest = left.sum(axis=1)
        for j in range(c - 1):
            rest = rest - left[:, j]
            x = rng.hypergeometric(left[:, j], rest, need)
            out[:, i, j] = x
            need -= x
            left[:, j] -= x
        out[:, i, c - 1] = need
        left[:, c - 1] -= need
    out[:, r - 1, :] = left
    return out


def _permutation_p(sub: np.ndarray, permutations: int, seed: int) -> tuple[float, float]:
    """The Monte Carlo permutation p-value of Pearson's chi-square, and its error."""
    rows, cols = sub.sum(axis=1), sub.sum(axis=0)
    weight = 1.0 / np.outer(rows, cols).astype(np.float64)
    # chi2 = n * (sum O^2 / (r_i c_j)) - n: compare the sum, computed alike for all tables
    observed = float((sub.astype(np.float64) ** 2 * weight).sum())
    rng = np.random.default_rng(seed)
    hits, done = 0, 0
    while done < permutations:
        k = min(permutations - done, 4096)
        tables = _random_tables(rows, cols, k, rng).astype(np.float64)
        stats = (tables ** 2 * weight).sum(axis=(1, 2))
        hits += int((stats >= observed * _TIES).sum())
        done += k
    p = (hits + 1) / (permutations + 1)
    return p, math.sqrt(p * (1.0 - p) / permutations)


def _galaxy(galaxy: Galaxy | None) -> Galaxy:
    if galaxy is None:
        return Galaxy()
    if not isinstance(galaxy, Galaxy):
        raise TypeError(f"galaxy: must be a relfterrain.Galaxy or None, got {galaxy!r}")
    return galaxy


def _as_block(block: BlockLike) -> Block:
    return Block(*_validate.space_block_of(block))


def density(galaxy: Galaxy | None = None, block: BlockLike = INITIAL_VIEW, *,
            threads: int | None = None, progress: bool = False,
            allow_huge: bool = False) -> Density:
    """Exercise 1: the average density of stars in a block.

    >>> import relfterrain as rt
    >>> d = rt.density()
    >>> d.stars, d.volume, f"{d.per_cubic_ly:.3g}"
    (26, 144000000, '1.81e-07')
    """
    b = _as_block(block)
    n = _galaxy(galaxy).count(*b, threads=threads, progress=progress, allow_huge=allow_huge)
    return Density(n, b.volume, n / b.volume)


def nearest_star(galaxy: Galaxy | None = None, block: BlockLike = INITIAL_VIEW,
                 observer: Sequence[int] = OBSERVER, *, threads: int | None = None,
                 allow_huge: bool = False) -> NearestStar | None:
    """Exercise 2: the star of a block nearest the observer, or ``None``.

    Ties go to the smallest ``(x, y, z)``. Distances are compared exactly (as
    integers).

    >>> import relfterrain as rt
    >>> s = rt.nearest_star()
    >>> s.star.x, s.star.y, s.star.z, round(s.distance, 2), s.planets
    (-42, 11, 41, 59.72, 6)
    """
    g = _galaxy(galaxy)
    b = _as_block(block)
    try:
        ox, oy, oz = (_int(v, "observer") for v in observer)
    except (TypeError, ValueError, OverflowError) as e:
        raise type(e)(f"observer: must be three ints (x, y, z): {e}") from None
    cat = g.stars(*b, threads=threads, allow_huge=allow_huge)
    if len(cat) == 0:
        return None
    # exact squared distances as Python ints: no overflow, no rounding
    d2 = [
        (x - ox) ** 2 + (y - oy) ** 2 + (z - oz) ** 2
        for x, y, z in zip(cat["x"].tolist(), cat["y"].tolist(), cat["z"].tolist())
    ]
    k = min(range(len(d2)), key=d2.__getitem__)  # first minimum: smallest (x, y, z)
    star = Galaxy.star_record(cat[k])
    return NearestStar(star, math.sqrt(d2[k]), star.planets)


def planet_table(galaxy: Galaxy | None = None, block: BlockLike = INITIAL_VIEW, *,
                 stars: np.ndarray | None = None, threads: int | None = None,
                 progress: bool = False, allow_huge: bool = False) -> PlanetTable:
    """Exercise 3: the number of stars for each number of planets 0 to 15.

    From the catalogue ``stars`` when given (no scan: a catalogue already
    built answers at once), else from a census scan of ``block``.

    >>> import relfterrain as rt
    >>> t = rt.planet_table()
    >>> int(t.stars.sum())
    26
    >>> cat = rt.Galaxy().stars(*rt.INITIAL_VIEW)
    >>> rt.planet_table(stars=cat).stars.tolist() == t.stars.tolist()
    True
    """
    if stars is not None:
        counts = _table_from_stars(stars).sum(axis=1)
    else:
        counts = _galaxy(galaxy).planet_counts(*_as_block(block), threads=threads,
                                               progress=progress, allow_huge=allow_huge)
    return PlanetTable(np.arange(16), counts)


def _table_from_stars(stars: np.ndarray) -> np.ndarray:
    try:
        p = np.asarray(stars["planets"], dtype=np.int64)
        c = np.asarray(stars["colour"], dtype=np.int64)
    except (KeyError, ValueError, IndexError, TypeError):
        raise TypeError("stars: must be a catalogue from Galaxy.stars") from None
    if p.size and (p.min() < 0 or p.max() > 15 or c.min() < 0 or c.max() > 15):
        raise ValueError("stars: planets and colour must be in 0 .. 15")
    table = np.zeros((16, 16), dtype=np.int64)
    np.add.at(table, (p, c), 1)
    return table


def colour_planet_independence(
    galaxy: Galaxy | None = None,
    block: BlockLike = INITIAL_VIEW,
    *,
    stars: np.ndarray | None = None,
    table: ArrayLike | None = None,
    method: str = "auto",
    permutations: int = 9999,
    seed: int = 0,
    threads: int | None = None,
    progress: bool = False,
    allow_huge: bool = False,
) -> Independence:
    """Exercise 4: is the colour of a star independent of its number of planets?

    The statistics come from the planets x colour contingency table, which
    is taken from ``table`` (a (16, 16) ``[planets, colour]`` array, e.g.
    :meth:`Galaxy.census`), else from a catalogue ``stars`` (no scan), else
    from a scan of ``block`` (no catalogue is built, so any block size works).

    * Pearson's r between colour and planets, with the two-sided t-test
      p-value (as ``scipy.stats.pearsonr``);
    * Pearson's chi-square statistic of the table over its non-empty rows and
      columns (as ``scipy.stats.chi2_contingency(..., correction=False)``),
      tested for independence by the test ``method`` names:

      - ``"chi-square"``: the asymptotic chi-square distribution, valid only
        when the expected counts are large enough (Cochran's rule: none below
        1, at most 20 % below 5); an invalid use warns (``RuntimeWarning``);
      - ``"permutation"``: a Monte Carlo permutation test, valid for any
        sample: ``permutations`` random tables with the observed margins (as
        if the colours were shuffled among the stars), p = (1 + tables with a
        chi-square at least the observed) / (1 + permutations). Seeded by
        ``seed``, so the same call gives the same p-value (for a given NumPy);
        its cost does not grow with the number of stars (it takes fewer than
        10**9 stars);
      - ``"auto"`` (default): the chi-square test where it is valid, else the
        permutation test.

      The result says which test was used (``test``) and whether its p-value
      is valid (``valid``); ``chi2_p_value`` keeps the asymptotic p-value;
    * Cramér's V and its bias-corrected form as the size of any dependence.

    The chi-square and t p-values are computed here, without scipy (about
    1e-9 relative; the tests check them against scipy).

    Parameters
    ----------
    galaxy, block
        The galaxy and block to scan when neither ``table`` nor ``stars`` is given.
    stars
        A catalogue from :meth:`Galaxy.stars`.
    table
        A (16, 16) ``[planets, colour]`` table of non-negative integer counts.
    method
        ``"auto"``, ``"chi-square"`` or ``"permutation"``.
    permutations
        Random tables for the permutation test, 1 .. 10**7.
    seed
        Seed of the permutation test's random numbers (a non-negative int).

    Examples
    --------
    On the initial view (26 stars) the chi-square approximation is invalid,
    so the permutation test decides:

    >>> import relfterrain as rt
    >>> r = rt.colour_planet_independence()
    >>> r.n, r.dof, r.test, r.valid
    (26, 132, 'permutation', True)
    >>> f"{r.min_expected:.2f}"
    '0.04'
    """
    if not isinstance(method, str) or method not in INDEPENDENCE_METHODS:
        raise ValueError(f"method: must be one of {INDEPENDENCE_METHODS}, got {method!r}")
    if isinstance(permutations, bool) or not isinstance(permutations, (int, np.integer)):
        raise TypeError(f"permutations: must be an int, got {permutations!r}")
    if not 1 <= permutations <= 10**7:
        raise ValueError(f"permutations: must be in 1 .. 10**7, got {permutations}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed: must be a non-negative int, got {seed!r}")
    permutations, seed = int(permutations), int(seed)
    if table is not None:
        t = np.asarray(table)
        if t.shape != (16, 16) or t.dtype.kind not in "iu" or (t < 0).any():
            raise ValueError("table: must be a (16, 16) array of non-negative integer counts")
        # the total in Python ints: it must fit the int64 table and counts
        total = sum(int(v) for v in t.ravel().tolist())
        if total > _INT64[1]:
            raise ValueError(
                f"table: the counts must sum to at most 2**63 - 1 (int64), got {total}")
        t = t.astype(np.int64)
    elif stars is not None:
        t = _table_from_stars(stars)
    else:
        t = _galaxy(galaxy).census(*_as_block(block), threads=threads, progress=progress,
                                   allow_huge=allow_huge)
    n = int(t.sum())
    tf = t.astype(np.float64)
    k = np.arange(16, dtype=np.float64)
    nan = float("nan")
    if n == 0:
        return Independence(0, nan, nan, 0.0, 0, 1.0, nan, nan, t,
                            "none", False, 1.0, 0, 0.0, nan)
    # Pearson's r of the pairs (planets, colour), weighted by the table
    wp, wc = tf.sum(axis=1), tf.sum(axis=0)
    mp, mc = (wp @ k) / n, (wc @ k) / n
    dp, dc = k - mp, k - mc
    cov = dp @ tf @ dc
    vp, vc = wp @ (dp * dp), wc @ (dc * dc)
    r = float(cov / math.sqrt(vp * vc)) if vp > 0 and vc > 0 else nan
    r_p = t_two_sided_p(r, n) if not math.isnan(r) else nan
    # chi-square over the non-empty rows and columns
    sub_i = t[wp > 0][:, wc > 0]
    sub = sub_i.astype(np.float64)
    rows, cols = sub.shape
    expected = np.outer(sub.sum(axis=1), sub.sum(axis=0)) / n
    chi2 = float(((sub - expected) ** 2 / expected).sum())
    dof = (rows - 1) * (cols - 1)
    chi2_p = chi2_sf(chi2, dof) if dof > 0 else 1.0
    m = min(rows, cols) - 1
    v = math.sqrt(chi2 / (n * m)) if m > 0 else nan
    v_corr = _cramers_v_corrected(chi2, n, rows, cols)
    min_e = float(expected.min())
    if dof == 0:
        return Independence(n, r, r_p, chi2, dof, 1.0, v, min_e, t,
                            "none", False, chi2_p, 0, 0.0, v_corr)
    cochran = _cochran_valid(expected)
    if method == "chi-square" or (method == "auto" and cochran):
        if not cochran:
            warnings.warn(
                f"colour_planet_independence: the chi-square p-value is not valid here "
                f"(smallest expected count {min_e:.3g}, "
                f"{(expected < 5).mean():.0%} of the expected counts below 5); "
                f"use method='permutation'", RuntimeWarning, stacklevel=2)
        return Independence(n, r, r_p, chi2, dof, chi2_p, v, min_e, t,
                            "chi-square", cochran, chi2_p, 0, 0.0, v_corr)
    if n >= 10**9:
        raise ValueError(f"table: the permutation test takes at most 10**9 - 1 stars, got {n}")
    p, se = _permutation_p(sub_i, permutations, seed)
    return Independence(n, r, r_p, chi2, dof, p, v, min_e, t,
                        "permutation", True, chi2_p, permutations, se, v_corr)


def _cramers_v_corrected(chi2: float, n: int, rows: int, cols: int) -> float:
    """Bergsma (2013): V with phi^2 and the table size corrected for small n."""
    if n < 2 or min(rows, cols) < 2:
        return float("nan")
    phi2 = max(0.0, chi2 / n - (rows - 1) * (cols - 1) / (n - 1))
    rc = rows - (rows - 1) ** 2 / (n - 1)
    cc = cols - (cols - 1) ** 2 / (n - 1)
    m = min(rc, cc) - 1
    return math.sqrt(phi2 / m) if m > 0 else float("nan")
