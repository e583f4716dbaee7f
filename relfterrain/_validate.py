"""Argument checks shared by the generators' Python APIs.

Each raises TypeError or ValueError with a message that starts with the
argument's name and states the rule.
"""

from __future__ import annotations

import math
import numbers
import operator
from typing import Any

import numpy as np

from . import _core


def real(value: Any, name: str) -> float:
    """A finite real number (bool is refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: must be a real number, got {value!r}")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{name}: must be finite, got {v!r}")
    return v


def integer(value: Any, name: str, minimum: int | None = None, *, int64: bool = False) -> int:
    """An int (bool is refused), at least ``minimum``; with ``int64``, within int64."""
    if isinstance(value, bool):
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


def profile(value: Any, default: np.ndarray) -> np.ndarray:
    """A profile: 1-D float64, finite, length a power of two (1 .. 2**24)."""
    if value is None:
        return np.asarray(default)
    try:
        p = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"profile: must be an array-like of numbers, got {value!r}") from None
    if p.ndim != 1:
        raise ValueError(f"profile: must be one-dimensional, got shape {p.shape}")
    n = p.size
    if n < 1 or n > _core.MAX_PROFILE or n & (n - 1):
        raise ValueError(f"profile: length must be a power of two between 1 and 2**24, got {n}")
    bad = np.flatnonzero(~np.isfinite(p))
    if bad.size:
        raise ValueError(f"profile: values must be finite, index {bad[0]} is {p[bad[0]]!r}")
    return p


def vector(value: Any, name: str) -> np.ndarray:
    """A direction vector: 1-D, 1..64 integer components with |v| <= 2**20."""
    try:
        a = np.asarray(value)
        if a.dtype == object or a.dtype.kind not in "iufb":
            raise TypeError
    except (TypeError, ValueError):
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
