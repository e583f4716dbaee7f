"""Argument checks shared by the generators' Python APIs.

Each raises TypeError or ValueError with a message that starts with the
argument's name and states the rule.
"""

from __future__ import annotations

import math
import numbers
import operator
import os
from typing import Any

import numpy as np

from . import _core
from ._plain import default_threads


def real(value: Any, name: str) -> float:
    """A finite real number (bool is refused)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: must be a real number, got {value!r}")
    try:
        v = float(value)
    except OverflowError:
        raise ValueError(f"{name}: must be finite (a float64), got {value!r:.60}") from None
    if not math.isfinite(v):
        raise ValueError(f"{name}: must be finite, got {v!r}")
    return v


def integer(value: Any, name: str, minimum: int | None = None, *, int64: bool = False) -> int:
    """An int (bool is refused), at least ``minimum``; with ``int64``, within int64."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: must be an int, got {value!r}")
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"{name}: must be an int, got {value!r}") from None
    if minimum is not None and n < minimum:
        raise ValueError(f"{name}: must be >= {minimum}, got {n}")
    if int64 and not -(2**63) <= n <= 2**63 - 1:
        raise ValueError(f"{name}: must fit in int64, got {n}")
    return n


def index(value: Any, name: str, what: str = "an int") -> int:
    """An index or a key coordinate: an int (NumPy's too) and nothing else;
    bools, floats (even ``1.0``), strings and other objects are refused
    (TypeError naming ``name``), never converted."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: must be {what}, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name}: must be {what}, got {value!r:.80}") from None


def generator(rng: Any, name: str = "rng") -> np.random.Generator:
    """``numpy.random.default_rng(rng)`` for None, an int seed (not a bool),
    a SeedSequence, BitGenerator or Generator; anything else (strings, floats,
    bools) is refused (TypeError naming ``name``), never converted."""
    if isinstance(rng, (bool, np.bool_)) or not (
            rng is None or isinstance(rng, (numbers.Integral, np.random.Generator,
                                            np.random.BitGenerator, np.random.SeedSequence))):
        raise TypeError(f"{name}: must be None, an int seed or a numpy.random.Generator, "
                        f"got {rng!r:.80}")
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, numbers.Integral) and rng < 0:
        raise ValueError(f"{name}: an int seed must be >= 0, got {rng}")
    return np.random.default_rng(int(rng) if isinstance(rng, numbers.Integral) else rng)


def path(value: Any, name: str = "path") -> str:
    """A file path: a ``str`` or an ``os.PathLike`` giving one, not empty and
    without NUL characters; bytes, None and other objects are refused
    (TypeError naming ``name``)."""
    if not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name}: must be a str or an os.PathLike, got {value!r:.80}")
    p = os.fspath(value)
    if not isinstance(p, str):
        raise TypeError(f"{name}: must give a str path (not bytes), got {value!r:.80}")
    if not p:
        raise ValueError(f"{name}: must not be empty")
    if "\0" in p:
        raise ValueError(f"{name}: must not contain a NUL character, got {p!r:.80}")
    return p


def dtype(value: Any, name: str, allowed: tuple[str, ...]) -> np.dtype:
    """One of the ``allowed`` dtypes (given as anything NumPy reads as one);
    anything else is a TypeError naming ``name`` and the choices."""
    try:
        dt = np.dtype(value)
    except (TypeError, ValueError):
        dt = None
    if dt is None or dt.name not in allowed:
        raise TypeError(f"{name}: must be one of {', '.join(allowed)}, got {value!r:.60}")
    return dt


def out_array(value: Any, name: str = "out") -> np.ndarray:
    """An ``out=`` argument: a NumPy array (its dtype and shape are checked
    by the call); lists and other objects are a TypeError naming ``name``."""
    if not isinstance(value, np.ndarray):
        raise TypeError(f"{name}: must be a NumPy array (or None), got {type(value).__name__}")
    return value


def real_array(value: Any, name: str, what: str = "a number or an array-like of numbers"
               ) -> np.ndarray:
    """A float64 array of real numbers: strings, bools, complex and other
    objects are refused (TypeError naming ``name``), never converted; values
    beyond float64 (huge Python ints) are a ValueError.

    A long flat list or tuple is converted :data:`LIST_BLOCK` items at a time
    (the same rules and values), so Ctrl-C stops the conversion of millions
    of items (NumPy's conversion of one sequence does not poll).
    """
    if isinstance(value, (list, tuple)) and len(value) > LIST_BLOCK and \
            not isinstance(value[0], (list, tuple, np.ndarray)):
        parts = []
        for i in range(0, len(value), LIST_BLOCK):
            part = _real_array(value[i:i + LIST_BLOCK], value, name, what)
            if part.ndim != 1:  # nested further down: convert it whole
                return _real_array(value, value, name, what)
            parts.append(part)
        return np.concatenate(parts)
    return _real_array(value, value, name, what)


#: Items of a list converted at once by :func:`real_array` (a few ms).
LIST_BLOCK = 1 << 16


def _real_array(part: Any, value: Any, name: str, what: str) -> np.ndarray:
    """:func:`real_array` of ``part`` (all or a block of ``value``, named in messages)."""
    try:
        raw = np.asarray(part)
    except (TypeError, ValueError, OverflowError):
        raise TypeError(f"{name}: must be {what}, got {value!r:.80}") from None
    if raw.dtype.kind == "O" and raw.size and all(
            isinstance(e, numbers.Real) and not isinstance(e, (bool, np.bool_))
            for e in raw.flat):
        try:
            return np.asarray(raw, dtype=np.float64)
        except OverflowError:
            raise ValueError(f"{name}: values must fit in a float64, got {value!r:.80}") from None
    if raw.dtype.kind not in "iuf":
        raise TypeError(f"{name}: must be {what} (real), got dtype {raw.dtype} ({value!r:.80})")
    if isinstance(part, (list, tuple)) and raw.size:
        # NumPy makes [1.0, True] a float array: a bool among numbers is
        # refused as a bool alone is, never converted
        items = part if raw.ndim == 1 else np.asarray(part, dtype=object).flat
        if any(isinstance(e, (bool, np.bool_)) for e in items):
            raise TypeError(f"{name}: must be {what} (real, not bool), got {value!r:.80}")
    return np.asarray(raw, dtype=np.float64)


def profile(value: Any, default: np.ndarray) -> np.ndarray:
    """A profile: 1-D float64, finite, length a power of two (1 .. 2**24)."""
    if value is None:
        return np.asarray(default)
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError, OverflowError):
        raise TypeError(f"profile: must be an array-like of numbers, got {value!r}") from None
    # real numbers only: no strings, bools, complex or objects silently converted
    if raw.dtype.kind not in "iuf":
        raise TypeError(
            f"profile: must be an array-like of real numbers, got dtype {raw.dtype} ({value!r:.80})")
    p = np.array(raw, dtype=np.float64)
    if p.ndim != 1:
        raise ValueError(f"profile: must be one-dimensional, got shape {p.shape}")
    _core.check_profile(p)  # length and values: the binding's one rule and messages
    return p


def vector(value: Any, name: str) -> np.ndarray:
    """A direction vector: 1-D, 1..64 integer components with |v| <= 2**20."""
    try:
        a = np.asarray(value)
        if a.dtype == object or a.dtype.kind not in "iuf":
            raise TypeError
    except (TypeError, ValueError, OverflowError):
        raise TypeError(f"{name}: must be a sequence of integers, got {value!r}") from None
    if a.ndim != 1:
        raise ValueError(f"{name}: must be one-dimensional, got shape {a.shape}")
    if a.size == 0:
        raise ValueError(f"{name}: must not be empty")
    if a.size > _core.MAX_DIRECTIONS:
        raise ValueError(f"{name}: at most {_core.MAX_DIRECTIONS} directions, got {a.size}")
    af = a.astype(np.float64)
    if not np.all(np.isfinite(af)) or not np.all(af == np.floor(af)):
        raise ValueError(f"{name}: components must be integers, got {value!r}")
    if np.any(np.abs(af) > _core.MAX_VECTOR):
        raise ValueError(f"{name}: components must satisfy |v| <= 2**20, got {value!r}")
    return af.astype(np.int64)


def readonly(a: np.ndarray) -> np.ndarray:
    """The array, marked read-only."""
    a.flags.writeable = False
    return a


def flag(value: Any, name: str) -> bool:
    """A yes/no option: a bool (NumPy's too); anything else is refused."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"{name}: must be True or False, got {value!r}")


def uint32(value: Any, name: str) -> int:
    """An int in 0 .. 2**32 - 1 (bool is refused)."""
    n = integer(value, name, 0)
    if n > 0xFFFFFFFF:
        raise ValueError(f"{name}: must be between 0 and 2**32 - 1, got {n}")
    return n




def threads(value: int | None) -> int:
    """A thread count: an int >= 1, or None for :func:`default_threads`."""
    if value is None:
        return default_threads()
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"threads: must be an int >= 1 or None, got {value!r}")
    if value < 1:
        raise ValueError(f"threads: must be >= 1, got {value}")
    return int(value)


def grid_args(x0: Any, y0: Any, nx: Any, ny: Any, step: Any, offset: Any = (0, 0)) -> tuple:
    """A grid request (SPEC 1): ``(x0, y0, nx, ny, step, r0, c0)`` checked."""
    x0 = real(x0, "x0")
    y0 = real(y0, "y0")
    step = real(step, "step")
    if step <= 0:
        raise ValueError(f"step: must be a positive number, got {step!r}")
    nx = integer(nx, "nx", 1)
    ny = integer(ny, "ny", 1)
    try:
        r0, c0 = offset
    except (TypeError, ValueError, OverflowError):
        raise TypeError(f"offset: must be a pair (row, column) of ints, got {offset!r}") from None
    r0 = integer(r0, "offset", 0)
    c0 = integer(c0, "offset", 0)
    # grid indices are converted to double exactly below 2**53
    if r0 + ny > 2**53 or c0 + nx > 2**53:
        raise ValueError("offset, nx, ny: grid indices must stay below 2**53")
    for name, origin, first, n in (("x", x0, c0, nx), ("y", y0, r0, ny)):
        if not math.isfinite(origin + float(first + n - 1) * step):
            raise ValueError(f"{name}0, step: the grid's last {name} coordinate is not finite")
    return x0, y0, nx, ny, step, r0, c0


def space_block(x0: Any, y0: Any, z0: Any, nx: Any, ny: Any, nz: Any
                ) -> tuple[int, int, int, int, int, int]:
    """A block of space (the galaxy's, the nebula's integer points):
    ``(x0, y0, z0, nx, ny, nz)`` checked, ints within int64, sizes >= 1."""
    origin = [integer(v, n, int64=True) for v, n in ((x0, "x0"), (y0, "y0"), (z0, "z0"))]
    sizes = [integer(v, n, int64=True) for v, n in ((nx, "nx"), (ny, "ny"), (nz, "nz"))]
    for axis, o, n in zip("xyz", origin, sizes):
        if n < 1:
            raise ValueError(f"n{axis}: must be >= 1, got {n}")
        if o + n - 1 > 2**63 - 1:
            raise ValueError(f"{axis}0, n{axis}: the block's last {axis} overflows int64")
    if sizes[0] * sizes[1] * sizes[2] > 2**63 - 1:
        raise ValueError(
            f"nx, ny, nz: a {sizes[0]} x {sizes[1]} x {sizes[2]} block has more than 2**63 points"
        )
    return (origin[0], origin[1], origin[2], sizes[0], sizes[1], sizes[2])


def space_block_of(block: Any) -> tuple[int, int, int, int, int, int]:
    """:func:`space_block` of one 6-item ``block`` argument."""
    try:
        items = tuple(block)
    except TypeError:
        raise TypeError(f"block: must be (x0, y0, z0, nx, ny, nz), got {block!r}") from None
    if len(items) != 6:
        raise ValueError(f"block: must have 6 items (x0, y0, z0, nx, ny, nz), got {len(items)}")
    return space_block(*items)


# -- work limits (issue 13) -------------------------------------------------

#: Area scans (the ponds of :meth:`Terrain.streams` and
#: :meth:`Terrain.mark_streams`, :meth:`Terrain.features`, the mine shafts of
#: :class:`Mines`, :meth:`Mines.cave_mouths`) visit every integer point of
#: their area, however few results they find: more than this many points
#: (2**38, about 2.7e11: a square of 524 km, minutes to hours of work) are
#: refused unless ``allow_huge=True``.
MAX_SCAN_POINTS: int = 1 << 38


def work(amount: int, limit: int, limit_name: str, names: str, what: str,
         allow_huge: Any) -> None:
    """Refuse ``amount`` of work above ``limit`` (a power of two named
    ``limit_name``) unless ``allow_huge``: a ValueError naming ``names``,
    the argument(s) the work comes from; ``what`` says what is counted."""
    if flag(allow_huge, "allow_huge") or amount <= limit:
        return
    raise ValueError(
        f"{names}: {what} must be at most {limit_name} = 2**{limit.bit_length() - 1}, "
        f"got {amount}; pass allow_huge=True to run it anyway (Ctrl-C stops it)")


def simd_code(simd: str | None) -> int:
    """The rt_simd code of a SIMD variant name (``Terrain(simd=...)``,
    ``Planet(simd=...)``); None: the ``RELFTERRAIN_SIMD`` environment
    variable, else ``"auto"``."""
    if simd is None:
        simd = os.environ.get("RELFTERRAIN_SIMD", "auto") or "auto"
    table = _core.simd_variants()
    if not isinstance(simd, str):
        raise TypeError(f"simd: must be a str, one of {sorted(table)}, got {simd!r}")
    if simd not in table:
        raise ValueError(f"simd: must be one of {sorted(table)}, got {simd!r}")
    code, ok, _ = table[simd]
    if not ok:
        available = [name for name, (c, o, _) in table.items() if o and c > 0]
        raise ValueError(f"simd: {simd!r} is not available on this CPU (available: {available})")
    return int(code)
