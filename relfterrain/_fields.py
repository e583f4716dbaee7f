"""Docstrings for the fields of the named results.

A :class:`typing.NamedTuple` field reads "Alias for field number 0" in
``help()`` unless its docstring is set. :func:`documented` sets each field's
docstring and refuses a class whose fields and docstrings differ, so a field
added without a docstring fails at import.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T", bound=type)


def documented(**docs: str) -> Callable[[T], T]:
    """A class decorator: ``docs[name]`` becomes the docstring of field ``name``.

    >>> from typing import NamedTuple
    >>> @documented(x="East, metres.", y="North, metres.")
    ... class Point(NamedTuple):
    ...     x: float
    ...     y: float
    >>> Point.y.__doc__
    'North, metres.'
    """

    def apply(cls: T) -> T:
        fields = tuple(getattr(cls, "_fields", ()))
        missing = [f for f in fields if not docs.get(f)]
        extra = [d for d in docs if d not in fields]
        if missing or extra:
            raise TypeError(f"{cls.__name__}: fields without a docstring {missing}, "
                            f"docstrings of no field {extra}")
        for name in fields:
            getattr(cls, name).__doc__ = docs[name]
        return cls

    return apply
