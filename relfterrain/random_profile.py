"""The random profile of Pieces of Eight (SPEC 11): a sum of 32 sine waves.

The author's ``makeProfile`` (seed, "Changing the profile - random?") makes a
profile whose two ends join smoothly: every sine has a whole number of
cycles over the profile's length, with a random amplitude and phase. The
terrain is then different on every run, unless the random numbers repeat:
here they come from ``numpy.random.default_rng(rng)``, so the same seed gives
the same profile on every platform (the sines are the core's fdlibm
``Math.sin``, see :mod:`relfterrain.mathjs`).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from . import _core, _validate
from ._fields import documented
from ._progress import tqdm_class

__all__ = ["RandomProfile", "make_profile"]

#: The author's constants: 32 sines, amplitude 16 .. 90, 2 .. length/32 cycles.
N_SINES = 32
MIN_A, MAX_A = 16.0, 90.0
MIN_N = 2.0
LAKE_HEIGHT = 34.0
SNOW_FACTOR = 2.4
TWO_PI = 2.0 * math.pi


@documented(
    profile='float64 (length,), values multiples of 1/8 (integers with ``round_first``)',
    lake_height='The sea level of Pieces of Eight: 34.',
    snow_height='``max(0, max(profile)) * 2.4``',
)
class RandomProfile(NamedTuple):
    """A random profile with the author's suggested levels."""

    profile: np.ndarray
    lake_height: float
    snow_height: float


def _round_js(v: np.ndarray) -> np.ndarray:
    """Math.round, elementwise: floor(v), plus one where v - floor(v) >= 0.5."""
    r = np.floor(v)
    return r + (v - r >= 0.5)


def _uniforms(value: Any) -> np.ndarray:
    """96 recorded uniforms in [0, 1), checked."""
    u = _validate.real_array(value, "uniforms", f"a sequence of {3 * N_SINES} numbers in [0, 1)")
    if u.shape != (3 * N_SINES,):
        raise ValueError(f"uniforms: must hold {3 * N_SINES} numbers (3 for each of the "
                         f"{N_SINES} sines), got shape {u.shape}")
    if not np.all((u >= 0.0) & (u < 1.0)):
        raise ValueError("uniforms: every value must be in [0, 1) (Math.random's range)")
    return u


#: Indices computed at once (the sines of a long profile go in blocks of this
#: many points: bounded scratch memory, Ctrl-C between blocks).
_BLOCK = 1 << 18


def make_profile(length: int = 2048, rng: Any = None, *,
                 round_first: bool = False, uniforms: Any = None,
                 progress: bool = False) -> RandomProfile:
    """A random profile as the author's ``makeProfile`` makes it (SPEC 11).

    For each of 32 sines, three uniforms ``u`` in [0, 1) are drawn, in this
    order, each by one call ``g.random()`` of the generator
    ``g = numpy.random.default_rng(rng)`` (96 calls in all)::

        a     = 16 + u * (90 - 16)                  # amplitude
        n     = round_js(2 + u * (length/32 - 2))   # cycles over the profile
        phase = u * (2*pi)                          # 0 + u*(TWO_PI - 0)
        lamda = length / n                          # wavelength

    then, for every index j, ``P[j] += round_js(a * sin(phase + 2*pi*j / lamda) / 8)``
    in IEEE double arithmetic in exactly this order (``2*pi*j`` first, then
    ``/ lamda``, then ``phase +``; ``a * sin``, then ``/ 8``, then the
    rounding), with the core's fdlibm ``sin``. The seed's PDF prints the
    rounding before the division, ``round_js(a * sin(...)) / 8``: that is
    ``round_first=True``. For lengths below 64 a draw may give ``n = 0``
    (``length/32 - 2`` is negative): then ``lamda`` is infinite and that sine
    is the constant ``sin(phase)``, as in JavaScript.

    Parameters
    ----------
    length : int
        The profile length, a power of two from 1 to 2**24 (the author: 2048).
    rng : int, numpy.random.Generator or None
        Seed or generator, passed to ``numpy.random.default_rng``; None draws
        fresh entropy (a different profile every run, as in the game).
    round_first : bool
        Round before dividing by 8 (the PDF's listing) instead of after (the
        author's running code, SPEC 11's default).
    uniforms : sequence of 96 floats in [0, 1), optional
        The uniforms themselves, in the order they are drawn (SPEC 17: a game's
        recorded ``Math.random()`` values rebuild its profile); ``rng`` must
        then be None.
    progress : bool
        Show a progress bar (needs tqdm: ``pip install "relfterrain[progress]"``).
        The profile is computed in blocks of 2**18 points (the same bits as
        one block); Ctrl-C stops it between blocks (KeyboardInterrupt), and
        2**24 points take a few seconds.

    Returns
    -------
    RandomProfile
        ``(profile, lake_height=34.0, snow_height=2.4 * max(0, max P))``.

    Examples
    --------
    >>> from relfterrain import make_profile
    >>> p = make_profile(2048, rng=1)
    >>> p.profile.shape, p.lake_height
    ((2048,), 34.0)
    >>> p.snow_height == 2.4 * max(0.0, float(p.profile.max()))
    True
    >>> bool(((p.profile * 8) % 1 == 0).all())      # multiples of 1/8
    True
    >>> u = np.random.default_rng(1).random(96)     # what the game drew
    >>> bool((make_profile(2048, uniforms=u).profile == p.profile).all())
    True
    >>> q = make_profile(2048, rng=1, round_first=True)
    >>> bool((q.profile % 1 == 0).all())            # integers / 8, summed
    False
    """
    n_len = _validate.integer(length, "length", 1)
    if n_len > _core.MAX_PROFILE or n_len & (n_len - 1):
        raise ValueError(f"length: must be a power of two between 1 and 2**24, got {n_len}")
    first = _validate.flag(round_first, "round_first")
    show = _validate.flag(progress, "progress")
    if uniforms is not None:
        if rng is not None:
            raise ValueError("rng, uniforms: give one of them, not both")
        drawn = iter(_uniforms(uniforms).tolist())

        def draw() -> float:
            return next(drawn)
    else:
        gen = _validate.generator(rng)

        def draw() -> float:
            return float(gen.random())
    # the profile, and a block's scratch (index, angle, sine, term: 4 arrays)
    _core.check_alloc(8 * n_len + 32 * min(n_len, _BLOCK), "length",
                      f"a profile of {n_len} points")
    L = float(n_len)
    max_n = L / 32.0
    sines = []
    for _ in range(N_SINES):  # the 96 draws, in the author's order
        a = MIN_A + draw() * (MAX_A - MIN_A)
        n = float(_round_js(np.asarray(MIN_N + draw() * (max_n - MIN_N))))
        lamda = L / n if n != 0.0 else math.inf
        phase = 0.0 + draw() * (TWO_PI - 0.0)
        sines.append((a, lamda, phase))
    P = np.zeros(n_len, dtype=np.float64)
    bar = tqdm_class()(total=n_len, unit="point", desc="make_profile", leave=False) \
        if show else None
    try:
        for b0 in range(0, n_len, _BLOCK):
            two_pi_j = TWO_PI * np.arange(b0, min(n_len, b0 + _BLOCK), dtype=np.float64)
            Pb = P[b0:b0 + two_pi_j.size]
            for a, lamda, phase in sines:   # per point: the same sums in the same order
                s = _core.sin(phase + two_pi_j / lamda)
                if first:
                    Pb += _round_js(a * s) / 8.0
                else:
                    Pb += _round_js(a * s / 8.0)
            if bar is not None:
                bar.update(two_pi_j.size)
    finally:
        if bar is not None:
            bar.close()
    max_ht = 0.0
    top = float(P.max())
    if top > max_ht:
        max_ht = top
    return RandomProfile(P, LAKE_HEIGHT, max_ht * SNOW_FACTOR)
