"""Shared pieces of the atheris harnesses: odd Python values from fuzz bytes.

Every harness calls public entry points with values drawn here and accepts
only the documented exceptions (``ValueError``, ``TypeError`` and the
``MemoryError`` of the size checks); anything else (a crash, a sanitizer
report, another exception type, an output changed by a failed call) is a
finding.
"""

from __future__ import annotations

import operator
import os
import sys

import numpy as np

EXPECTED = (ValueError, TypeError, MemoryError)

# Sizes the harnesses ask for stay small (the size checks themselves are
# tested in tests/test_bad_input.py): a side is at most this, unless the
# fuzzer picks a "huge" value, which the library must refuse up front.
SMALL = 64


def setup() -> None:
    """Keep the harness single-process friendly (1 thread, no BLAS pools)."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.setrecursionlimit(10000)


def value(fdp, depth: int = 0):
    """Any value a careless or hostile caller might pass."""
    kind = fdp.ConsumeIntInRange(0, 17 if depth < 2 else 12)
    if kind == 0:
        return fdp.ConsumeIntInRange(-8, 300)
    if kind == 1:
        return fdp.ConsumeInt(9)  # up to +-2**71
    if kind == 2:
        return fdp.ConsumeRegularFloat()
    if kind == 3:
        return fdp.PickValueInList([float("nan"), float("inf"), -float("inf"), -0.0, 1e308,
                                    5e-324, 2.0**53, 2.0**63, -2.0**63, 0.5])
    if kind == 4:
        return fdp.ConsumeUnicodeNoSurrogates(8)
    if kind == 5:
        return None
    if kind == 6:
        return fdp.ConsumeBool()
    if kind == 7:
        return complex(fdp.ConsumeRegularFloat(), fdp.ConsumeRegularFloat())
    if kind == 8:
        return fdp.PickValueInList([2**1024, -(2**1024), 2**63, -(2**63) - 1, 2**64, 2**53 + 1])
    if kind == 9:
        return np.float64(fdp.ConsumeRegularFloat())
    if kind == 10:
        return np.int64(fdp.ConsumeInt(8))
    if kind == 11:
        return fdp.ConsumeBytes(4)
    if kind == 12:
        return object()
    if kind in (13, 14):
        n = fdp.ConsumeIntInRange(0, 9)
        return [value(fdp, depth + 1) for _ in range(n)]
    # arrays: dtype, byte order, dimensions, contiguity
    dtype = fdp.PickValueInList(["<f8", ">f8", "<i8", ">i4", "u1", "?", "<f4", "c16", "O", "U3"])
    shape = tuple(fdp.ConsumeIntInRange(0, 5) for _ in range(fdp.ConsumeIntInRange(0, 3)))
    size = int(np.prod(shape)) if shape else 1
    raw = np.frombuffer(fdp.ConsumeBytes(8 * size).ljust(8 * size, b"\0"), dtype="<f8")
    try:
        a = raw.reshape(shape).astype(dtype)
    except (TypeError, ValueError):
        a = np.zeros(shape, dtype=dtype)
    if fdp.ConsumeBool() and a.ndim >= 1 and a.shape[-1] > 1:
        a = a[..., ::2]
    if fdp.ConsumeBool():
        a.flags.writeable = False
    return a


def small_int(fdp, lo: int = -4, hi: int = SMALL):
    """Mostly a small int, sometimes anything."""
    if fdp.ConsumeIntInRange(0, 7) == 0:
        return value(fdp)
    return fdp.ConsumeIntInRange(lo, hi)


def bounded(sizes, limit, refused_above):
    """Sizes whose product is at most ``limit``, or above ``refused_above``
    (which the library must refuse up front): anything in between would be
    a legitimate long or large computation, so it is cut down to 40 a side.
    Values that are not positive integers are left for the library to refuse."""
    try:
        ints = [operator.index(s) for s in sizes]
    except TypeError:
        return sizes
    if any(isinstance(s, (bool, np.bool_)) for s in sizes) or any(n < 1 for n in ints):
        return sizes
    total = 1
    for n in ints:
        total *= n
    if limit < total <= refused_above:
        return [min(n, 40) for n in ints]
    return sizes


def coordinate(fdp):
    """A plausible coordinate, sometimes an odd value."""
    k = fdp.ConsumeIntInRange(0, 9)
    if k == 0:
        return value(fdp)
    if k == 1:
        return fdp.ConsumeInt(8)
    if k == 2:
        return fdp.ConsumeRegularFloat()
    return fdp.ConsumeIntInRange(-100000, 100000) + fdp.ConsumeIntInRange(0, 3) / 4


def snapshot(obj):
    """A deep copy of an argument, to check it was not modified."""
    if isinstance(obj, np.ndarray):
        return obj.copy()
    if isinstance(obj, list):
        return [snapshot(v) for v in obj]
    return obj


def same(a, b) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape and \
            a.tobytes() == b.tobytes()
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return True
