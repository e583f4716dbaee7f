"""What `relfterrain --help` needs, importing nothing heavy (no NumPy, no core).

The command line builds its parser from these; the rest of the package
imports them from here, so there is one definition of each.
"""

from __future__ import annotations

import os

# The classic map (SPEC 1): x0, y0, nx, ny of the seed's 800 x 600 window.
#: The classic 800 x 600 m map area as ``(x0, y0, nx, ny)``.
CLASSIC_MAP: tuple[int, int, int, int] = (23396, 5318, 800, 600)


def default_threads() -> int:
    """The number of threads used when ``threads=None``: the usable cores."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)
