"""Good sites: findGoodSite of The Forest (SPEC 12).

A *good site* is an integer point where an object or the player may be put:
dry and high ground, open (grass, moor or open wood), with no feature, no
mine and no building near, and open ground all round.  The search follows
the author's stated criteria and intent (his code has a stray ``;``, an
operator-precedence slip and a "spiral" that is a straight line): first big
jumps to dry land, then a spiral that really turns, the first candidate
meeting every criterion winning.  It is deterministic: the same start, the
same options and the same ``rng`` give the same site on every platform (the
angles use the core's fdlibm ``sin``/``cos``, as JavaScript computes them).

The criteria at an integer point s (terra with the placed table throughout):

(a) not LAKE and ``terra(s).height - lake_height >= min_height`` (10);
(b) terrain GRASS, MOOR or WOOD;
(c) no feature at s;
(d) no MINE at any integer point q with ``|q - s| < mine_distance`` (7);
(e) no building (a 12 m square, SPEC 5) closer than ``building_distance``
    (10) to s;
(f) every integer point q with ``|q - s| <= clearance`` (10) is GRASS, MOOR
    or WOOD.

The search:

1. ``s = (round_js(x), round_js(y))``; while the ground height at s is less
   than ``min_height`` above the lake, s moves by (-100, +100); after
   ``max_loops`` jumps the search gives up (reason "dry-land search: ...").
2. Candidate 0 is s; ring k = 1, 2, ... has radius ``r = 8k`` and 8k
   candidates at ``theta = a0 + 2*pi*j/(8k)``, j = 0 .. 8k-1, the point
   ``(round_js(s.x + r*sin(theta)), round_js(s.y + r*cos(theta)))``.  At most
   ``max_loops`` candidates are examined, counting from candidate 0 and
   counting repeated points (1000 candidates: rings 1..15 and 39 points of
   ring 16).  The first meeting every criterion is the site.
3. If none does: with ``may_alter=True`` the first candidate meeting (a) is
   made good by placing a disc of radius ``max(patch_radius, clearance)``
   (every integer point with ``dx*dx + dy*dy <= R*R``; 1,257 points for 20 m)
   of its own terrain (GRASS unless that is GRASS, MOOR or WOOD) into the
   terrain's placed table: ``altered`` is True.  Otherwise ``ok`` is False, the
   point is the first candidate meeting the most criteria and the reason
   says "spiral: ..." with the numbers.

A painted disc hides the features under it, so the site then meets (a), (b),
(c) and (f); it meets (d) and (e) too when ``mine_distance <= R`` and
``building_distance + 6*sqrt(2) <= R`` (true for the defaults: 7, 10, R = 20).

The starting angle ``a0``: ``rng=None`` gives ``a0 = 0``; an int seed or a
``numpy.random.Generator`` gives ``a0 = 2*pi*u`` with
``u = numpy.random.default_rng(rng).random()`` (a Generator passed in is
advanced by one draw).  :func:`find_good_sites` draws one ``u`` per start, in
order (``default_rng(rng).random(n)``), so its first start uses the same angle
as :func:`find_good_site` with the same seed.
"""

from __future__ import annotations

import contextlib
import math
from enum import IntEnum
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from . import _core, _shared, _validate
from ._fields import documented

if TYPE_CHECKING:
    from .terrain import Terrain

__all__ = [
    "CRITERIA",
    "MAX_SITE_TRIES",
    "Site",
    "SiteOptions",
    "SiteReason",
    "Sites",
    "find_good_site",
    "find_good_sites",
    "start_angle",
]

#: The six criteria of SPEC 12, in order (bit i of ``Sites.criteria``).
CRITERIA: tuple[str, ...] = (
    "(a) dry and high",
    "(b) open ground",
    "(c) no feature",
    "(d) no mine near",
    "(e) no building near",
    "(f) open all round",
)

#: Largest ``max_loops`` and distances accepted (the core's limits).
MAX_LOOPS: int = _core.SITE_MAX_LOOPS
MAX_DISTANCE: float = _core.SITE_MAX_DISTANCE
#: :func:`find_good_sites` refuses more than this many candidates in all
#: (starts times ``max_loops``, the most a call can examine: 2**34, about
#: 1.7e10, hours of work) unless ``allow_huge=True``. Most starts need a few
#: candidates; the limit is for the worst case.
MAX_SITE_TRIES: int = 1 << 34
_MAX_COORD: float = _core.SITE_MAX_COORD

_JUMP = (-100, 100)


class SiteReason(IntEnum):
    """Why a search ended (the codes of ``Sites.reason``)."""

    #: A good site was found (or painted: ``altered``).
    NONE = 0
    #: The dry-land search made ``max_loops`` jumps without reaching dry land.
    DRY = 1
    #: No spiral candidate met every criterion.
    SPIRAL = 2


@documented(
    x=('X of the site; on failure the last dry-land point, or the first candidate meeting the '
       'most criteria.'),
    y='Y of the site (see ``x``).',
    ok='True when (x, y) meets every criterion (after painting, if altered).',
    altered='True when a disc was painted into the placed table to make it good.',
    reason='"" when ok; else says which loop overran, with the numbers.',
    tries='Spiral candidates examined (0 when the dry-land search gave up).',
)
class Site(NamedTuple):
    """The result of :func:`find_good_site`."""

    x: int
    y: int
    ok: bool
    altered: bool
    reason: str
    tries: int


@documented(
    min_height='Metres above the lake that the ground must reach (criterion (a)).',
    mine_distance='No MINE closer than this, metres (criterion (d)).',
    building_distance='No building square closer than this, metres (criterion (e)).',
    clearance='Open ground all round within this radius, metres (criterion (f)).',
    max_loops='The most dry-land jumps, and the most spiral candidates.',
    may_alter='Whether a failed search paints a disc of open ground to make a site.',
    patch_radius="The painted disc's radius is ``max(patch_radius, clearance)``, metres.",
)
class SiteOptions(NamedTuple):
    """The options of a search (defaults: SPEC 12)."""

    min_height: float = 10.0
    mine_distance: float = 7.0
    building_distance: float = 10.0
    clearance: float = 10.0
    max_loops: int = 1000
    may_alter: bool = False
    patch_radius: float = 20.0


@documented(
    x="int64: x of each start's site (see :attr:`Site.x`).",
    y="int64: y of each start's site.",
    ok='bool: whether the site meets every criterion.',
    altered='bool: whether a disc was painted to make it good.',
    tries='int64: spiral candidates examined.',
    reason=('uint8: why the search ended, a :class:`SiteReason` code (0 ``NONE``: found; 1 '
            '``DRY``: the dry-land search ran out of jumps; 2 ``SPIRAL``: no candidate met every '
            'criterion). :meth:`reason_text` says it in words.'),
    criteria=('uint8 bitmask: bit ``i`` set when criterion ``i`` of :data:`CRITERIA` holds at '
              '``(x, y)``: 1 (a) dry and high, 2 (b) open ground, 4 (c) no feature, 8 (d) no '
              'mine near, 16 (e) no building near, 32 (f) open all round; 63 when all hold.'),
    jumps='int64: dry-land jumps of (-100, +100) made before the spiral.',
    centre_x="int64: x of the spiral's centre (the start after the jumps).",
    centre_y="int64: y of the spiral's centre.",
    options='The :class:`SiteOptions` of the search.',
)
class Sites(NamedTuple):
    """The results of :meth:`Terrain.find_good_sites`: arrays with one element per start.

    Element ``i`` holds what :meth:`Terrain.find_good_site` returns for start
    ``i`` (:meth:`site` gives it as a :class:`Site`), and more: how many
    dry-land jumps were made, where the spiral was centred, and which of the
    six criteria of SPEC 12 hold at the site.

    ``reason`` codes (:class:`SiteReason`):

    * 0, ``SiteReason.NONE``: a good site was found (or painted: ``altered``);
    * 1, ``SiteReason.DRY``: the dry-land search made ``max_loops`` jumps of
      (-100, +100) without reaching ground ``min_height`` above the lake;
    * 2, ``SiteReason.SPIRAL``: no spiral candidate met every criterion;
      ``(x, y)`` is the first candidate meeting the most.

    ``criteria`` is a bitmask over :data:`CRITERIA`, bit ``i`` set when
    criterion ``i`` holds at ``(x, y)``:

    ===  =====  =========================================================
    bit  value  criterion
    ===  =====  =========================================================
    0    1      ``(a)`` dry and high: ground ``min_height`` above the lake
    1    2      ``(b)`` open ground: GRASS, MOOR or WOOD
    2    4      ``(c)`` no feature at the point
    3    8      ``(d)`` no MINE closer than ``mine_distance``
    4    16     (e) no building square closer than ``building_distance``
    5    32     (f) open ground all round within ``clearance``
    ===  =====  =========================================================

    So ``criteria == 63`` wherever ``ok``. :meth:`reason_text` says it in
    words, as :attr:`Site.reason` does.

    Examples
    --------
    >>> import relfterrain as rt
    >>> s = rt.Terrain().find_good_sites([23400, 23450], [5320, 5450])
    >>> s.ok.tolist(), s.reason.tolist(), s.criteria.tolist(), s.jumps.tolist()
    ([True, True], [0, 0], [63, 63], [0, 6])
    >>> s.site(1)
    Site(x=22867, y=6033, ok=True, altered=False, reason='', tries=35)
    >>> [rt.sites.CRITERIA[i] for i in range(6) if 0b011101 >> i & 1]
    ['(a) dry and high', '(c) no feature', '(d) no mine near', '(e) no building near']
    """

    x: np.ndarray
    y: np.ndarray
    ok: np.ndarray
    altered: np.ndarray
    tries: np.ndarray
    reason: np.ndarray
    criteria: np.ndarray
    jumps: np.ndarray
    centre_x: np.ndarray
    centre_y: np.ndarray
    options: SiteOptions

    def _at(self, i: Any) -> tuple[int, ...]:
        shape = self.x.shape
        if isinstance(i, tuple):
            k = tuple(_validate.index(v, "i", "an int or a tuple of ints") for v in i)
            if len(k) != len(shape) or not all(-n <= v < n for v, n in zip(k, shape)):
                raise IndexError(f"i: no start {k} in the starts of shape {shape}")
            return tuple(v % n for v, n in zip(k, shape))
        flat = _validate.index(i, "i", "an int or a tuple of ints")
        size = self.x.size
        if not -size <= flat < size:
            raise IndexError(f"i: no start {flat} (there are {size})")
        return tuple(int(v) for v in np.unravel_index(flat % size, shape))

    def reason_text(self, i: Any) -> str:
        """The reason of start ``i`` (a flat index or an index tuple) in words,
        "" when ok: the text :class:`Site` has."""
        k = self._at(i)
        return _reason(int(self.reason[k]), int(self.x[k]), int(self.y[k]), int(self.tries[k]),
                       int(self.criteria[k]), int(self.jumps[k]), int(self.centre_x[k]),
                       int(self.centre_y[k]), self.options)

    def site(self, i: Any) -> Site:
        """Start ``i`` (a flat index or an index tuple) as a :class:`Site`."""
        k = self._at(i)
        return Site(int(self.x[k]), int(self.y[k]), bool(self.ok[k]), bool(self.altered[k]),
                    self.reason_text(k), int(self.tries[k]))


def start_angle(rng: Any = None) -> float:
    """The spiral's starting angle ``a0`` for ``rng`` (radians).

    None gives 0.0; an int seed or a ``numpy.random.Generator`` gives
    ``2*pi*u`` with ``u = numpy.random.default_rng(rng).random()``.

    >>> start_angle(None)
    0.0
    >>> round(start_angle(7), 12) == round(2 * math.pi * np.random.default_rng(7).random(), 12)
    True
    """
    if rng is None:
        return 0.0
    return float(2.0 * math.pi * float(_generator(rng).random()))


def _generator(rng: Any) -> np.random.Generator:
    return _validate.generator(rng)


def _distance(value: Any, name: str) -> float:
    v = _validate.real(value, name)
    if not 0.0 <= v <= MAX_DISTANCE:
        raise ValueError(f"{name}: must be between 0 and {MAX_DISTANCE:g}, got {v!r}")
    return v


def _options(min_height: Any, mine_distance: Any, building_distance: Any, clearance: Any,
             max_loops: Any, may_alter: Any, patch_radius: Any) -> SiteOptions:
    loops = _validate.integer(max_loops, "max_loops", 0)
    if loops > MAX_LOOPS:
        raise ValueError(f"max_loops: must be between 0 and {MAX_LOOPS}, got {loops}")
    return SiteOptions(
        _validate.real(min_height, "min_height"),
        _distance(mine_distance, "mine_distance"),
        _distance(building_distance, "building_distance"),
        _distance(clearance, "clearance"),
        loops,
        _validate.flag(may_alter, "may_alter"),
        _distance(patch_radius, "patch_radius"),
    )


def _coordinate(value: Any, name: str) -> float:
    v = _validate.real(value, name)
    if abs(v) > _MAX_COORD:
        raise ValueError(f"{name}: must be within +-2**50, got {v!r}")
    return v


def _ring(tries: int) -> int:
    """The ring of candidate ``tries - 1`` (0 for candidate 0)."""
    i, k = tries - 1, 0
    while i > 0:
        k += 1
        i -= 8 * k
    return k


def _reason(code: int, x: int, y: int, tries: int, criteria: int, jumps: int,
            cx: int, cy: int, o: SiteOptions) -> str:
    if code == SiteReason.NONE:
        return ""
    if code == SiteReason.DRY:
        return (f"dry-land search: after {jumps} jumps of (-100, +100) (max_loops="
                f"{o.max_loops}) the ground at ({x}, {y}) is still less than "
                f"min_height={o.min_height:g} m above the lake")
    if tries == 0:
        return (f"spiral: max_loops={o.max_loops} allows no candidate around ({cx}, {cy})")
    k = _ring(tries)
    held = [i for i in range(6) if criteria >> i & 1]
    fails = ", ".join(CRITERIA[i] for i in range(6) if not criteria >> i & 1)
    text = (f"spiral: none of the {tries} candidates around ({cx}, {cy}) (max_loops="
            f"{o.max_loops}: rings 1..{k}, radius up to {8 * k} m) meets every criterion; "
            f"({x}, {y}) meets the most, {len(held)} of 6 (fails {fails})")
    if o.may_alter:
        text += "; may_alter: no candidate meets (a), so there was nowhere to paint"
    return text


def find_good_site(terrain: Terrain, x: float, y: float, *, min_height: float = 10,
                   mine_distance: float = 7, building_distance: float = 10,
                   clearance: float = 10, max_loops: int = 1000, may_alter: bool = False,
                   patch_radius: float = 20, rng: Any = None) -> Site:
    """findGoodSite (SPEC 12): a good site near ``(x, y)``.

    Parameters
    ----------
    terrain : Terrain
        The terrain, placed table included.  With ``may_alter=True`` a disc
        may be painted into its placed table.
    x, y : float
        The start (rounded as JavaScript's ``Math.round``).
    min_height, mine_distance, building_distance, clearance : float
        The thresholds of criteria (a), (d), (e), (f) in metres (distances
        0 .. 256).
    max_loops : int
        Dry-land jumps allowed, and spiral candidates examined (0 .. 10**7).
    may_alter : bool
        When no candidate is good, paint a disc to make the first candidate
        meeting (a) good (the author allows this "during start-up").
    patch_radius : float
        The disc's radius is ``max(patch_radius, clearance)``.
    rng : None, int or numpy.random.Generator
        The spiral's starting angle: see :func:`start_angle`.

    Returns
    -------
    Site
        ``(x, y, ok, altered, reason, tries)``.

    Examples
    --------
    >>> import relfterrain as rt
    >>> t = rt.Terrain()
    >>> t.find_good_site(23400, 5320)
    Site(x=23400, y=5320, ok=True, altered=False, reason='', tries=1)
    >>> t.find_good_site(23450, 5450)     # in a lake: 6 jumps, then 35 candidates
    Site(x=22867, y=6033, ok=True, altered=False, reason='', tries=35)
    >>> sea = rt.Terrain(lake_height=1000)
    >>> s = sea.find_good_site(23500, 5600, max_loops=10)
    >>> s.ok, s.reason[:16]
    (False, 'dry-land search:')
    """
    o = _options(min_height, mine_distance, building_distance, clearance, max_loops,
                 may_alter, patch_radius)
    xf = _coordinate(x, "x")
    yf = _coordinate(y, "y")
    a0 = start_angle(rng)
    # with may_alter, the search and the painting are one step (the lock)
    with _writing(terrain, o.may_alter):
        r = _core.find_good_site(_shared.core(terrain), xf, yf, a0, min_height=o.min_height,
                                 mine_distance=o.mine_distance,
                                 building_distance=o.building_distance, clearance=o.clearance,
                                 max_loops=o.max_loops, may_alter=o.may_alter,
                                 patch_radius=o.patch_radius)
    sx, sy, ok, altered, code, tries, crit, jumps, cx, cy = r
    return Site(sx, sy, ok, altered, _reason(code, sx, sy, tries, crit, jumps, cx, cy, o), tries)


def find_good_sites(terrain: Terrain, x: Any, y: Any, *, min_height: float = 10,
                    mine_distance: float = 7, building_distance: float = 10,
                    clearance: float = 10, max_loops: int = 1000, may_alter: bool = False,
                    patch_radius: float = 20, rng: Any = None,
                    threads: int | None = None, allow_huge: bool = False) -> Sites:
    """findGoodSite from many starts, in C: :class:`Sites` of arrays.

    ``x`` and ``y`` broadcast together; every array of the result has their
    broadcast shape.  Element i equals :func:`find_good_site` from start i
    (``sites.site(i)``; ``sites.reason_text(i)`` is its reason).

    Without ``may_alter`` the starts are independent and are shared out among
    ``threads`` threads (None: all cores); every count gives the same
    result.  With ``may_alter=True`` the starts are searched in order on one
    thread, each seeing the discs painted for the earlier ones, exactly as a
    loop of :func:`find_good_site` calls would (so ``threads`` is ignored);
    the discs are painted into the terrain's placed table at the end, all or
    nothing.

    ``rng``: None gives every start ``a0 = 0``; an int seed or a Generator
    gives start i the angle ``2*pi*u[i]`` with
    ``u = numpy.random.default_rng(rng).random(n)``.

    Starts times ``max_loops`` above :data:`MAX_SITE_TRIES` (2**34) is
    refused (ValueError naming ``x, y, max_loops``) unless
    ``allow_huge=True``. Ctrl-C stops the call (KeyboardInterrupt); the
    terrain is then unchanged.

    Examples
    --------
    >>> import relfterrain as rt
    >>> t = rt.Terrain()
    >>> s = t.find_good_sites([23400, 23450, 23800], [5320, 5450, 5700])
    >>> s.x, s.y, s.tries
    (array([23400, 22867, 23800]), array([5320, 6033, 5700]), array([ 1, 35,  1]))
    >>> s.site(1) == t.find_good_site(23450, 5450)
    True
    """
    o = _options(min_height, mine_distance, building_distance, clearance, max_loops,
                 may_alter, patch_radius)
    nthreads = _validate.threads(threads)
    xa = _coordinates(x, "x")
    ya = _coordinates(y, "y")
    try:
        xb, yb = np.broadcast_arrays(xa, ya)
    except ValueError:
        raise ValueError(f"x, y: shapes {xa.shape} and {ya.shape} do not broadcast") from None
    shape = xb.shape
    # the starts' results (10 arrays), the core's records, order and flags
    _core.check_alloc(xb.size * _BYTES_PER_START, "x, y", f"{xb.size} starts")
    _validate.work(xb.size * o.max_loops, MAX_SITE_TRIES, "MAX_SITE_TRIES", "x, y, max_loops",
                   "the candidates a call may examine, starts * max_loops,", allow_huge)
    gen = None if rng is None else _generator(rng)
    kw: dict[str, Any] = {"min_height": o.min_height, "mine_distance": o.mine_distance,
          "building_distance": o.building_distance, "clearance": o.clearance,
          "max_loops": o.max_loops, "may_alter": o.may_alter, "patch_radius": o.patch_radius,
          "threads": nthreads}
    n = xb.size
    if o.may_alter:
        # in order, each search seeing the discs of the earlier ones, painted
        # all or nothing at the end: one call
        xf, yf = _flat(xb, 0, n), _flat(yb, 0, n)
        a0 = None if gen is None else _angles(gen, n)
        with _writing(terrain, True):
            out = _core.find_good_sites(_shared.core(terrain), xf, yf, a0, **kw)
    else:
        # Independent starts: blocks of _BLOCK_STARTS, each one C call (its
        # own sort of the starts, so neighbours share tiles), copied into the
        # results; every phase (the starts' copies, their angles, the C
        # call's checks, sort and searches, the copying out) is a block at a
        # time, so Ctrl-C stops the call within one block's pass whatever
        # the number and order of the starts (issue 19). The results do not
        # depend on the blocks: each start's search is its own.
        out = tuple(np.empty(n, dtype=dt) for dt in _RESULT_DTYPES)
        for i in range(0, n, _BLOCK_STARTS):
            j = min(n, i + _BLOCK_STARTS)
            a0 = None if gen is None else _angles(gen, j - i)
            part = _core.find_good_sites(_shared.core(terrain), _flat(xb, i, j), _flat(yb, i, j),
                                         a0, **kw)
            for whole, piece in zip(out, part):
                whole[i:j] = piece
    ax, ay, ok, altered, tries, reason, crit, jumps, cx, cy = (a.reshape(shape) for a in out)
    return Sites(ax, ay, ok, altered, tries, reason, crit, jumps, cx, cy, o)


#: Starts a C call of find_good_sites takes at once (independent starts):
#: about 10-20 ms of each pass over them (copies, checks, the sort's runs).
_BLOCK_STARTS = 1 << 18

#: The dtypes of the core's 10 result arrays (x, y, ok, altered, tries,
#: reason, criteria, jumps, centre_x, centre_y).
_RESULT_DTYPES = (np.int64, np.int64, np.bool_, np.bool_, np.int64, np.uint8, np.uint8,
                  np.int64, np.int64, np.int64)


def _flat(a: np.ndarray, i: int, j: int) -> np.ndarray:
    """Elements i .. j-1 of ``a`` in C order, contiguous float64 (a block of a
    broadcast array copies only that block)."""
    if a.flags.c_contiguous:
        return np.ascontiguousarray(a.reshape(-1)[i:j])
    return np.ascontiguousarray(a.flat[i:j])


def _angles(gen: np.random.Generator, n: int) -> np.ndarray:
    """``2*pi*gen.random(n)``, drawn in blocks (the same numbers: a float64
    draw takes one 64-bit output, so blocks follow one stream), so Ctrl-C
    stops a large draw."""
    out = np.empty(n, dtype=np.float64)
    for i in range(0, n, _BLOCK_STARTS):
        j = min(n, i + _BLOCK_STARTS)
        out[i:j] = 2.0 * math.pi * gen.random(j - i)
    return out


#: Bytes a start of find_good_sites needs: 10 result arrays (67 bytes), the
#: core's result record and its copy (2 x 80), its place in the search order
#: and the sort's buffer (2 x 24), a flag, the coordinates (16) and angle (8).
_BYTES_PER_START = 67 + 160 + 48 + 1 + 24


def _writing(terrain: Terrain, may_alter: bool) -> contextlib.AbstractContextManager:
    """The terrain's lock when the call may paint, else nothing."""
    return _shared.lock(terrain) if may_alter else contextlib.nullcontext()


def _coordinates(value: Any, name: str) -> np.ndarray:
    a = _validate.real_array(value, name, "a number or an array-like of numbers")
    flat = a.reshape(-1)
    for i in range(0, flat.size, _BLOCK_STARTS):  # a block at a time: Ctrl-C between
        part = flat[i:i + _BLOCK_STARTS]
        bad = ~(np.abs(part) <= _MAX_COORD)
        if np.any(bad):
            v = part[bad][0]
            raise ValueError(f"{name}: every value must be finite and within +-2**50, got {v!r}")
    return a
