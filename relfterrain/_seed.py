"""The seed's constants, the one copy every generator's Python API uses.

They come from the C core (``csrc/seed.c``), so Python never retypes them.
"""

from __future__ import annotations

import numpy as np

from . import _core
from ._plain import CLASSIC_MAP

__all__ = ["CLASSIC_MAP", "CLASSIC_PROFILE", "CLASSIC_VECTORS", "VECTOR_NAMES"]


#: The 1983 profile of The Forest (SPEC 3), read-only float64, 256 values.
CLASSIC_PROFILE: np.ndarray = _core.CLASSIC_PROFILE
#: The names of the eight direction vectors, in the core's order.
VECTOR_NAMES: tuple[str, ...] = ("ah", "bh", "a1", "b1", "a2", "b2", "a3", "b3")
#: The classic direction vectors by name: ``ah``, ``bh``, ``a1`` ... ``b3``.
CLASSIC_VECTORS: dict[str, tuple[int, ...]] = {
    name: tuple(_core.CLASSIC_VECTORS[name]) for name in VECTOR_NAMES
}
