"""Independent, slow, pure-Python transcription of the seed's ``calcStar``.

From the seed's JavaScript (``Galaxy.prototype.calcStar``) and SPEC 9, with
JavaScript number semantics: every step a Python ``float`` (IEEE double)
operation in the seed's order, ``Math.round`` and ``ToInt32`` written out.
It shares nothing with the C core and never imports ``relfterrain``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

RECIP128 = 1.0 / 128.0

# The classic profile (SPEC 3) and the default directions of SPEC 9.
PROF = tuple(float(v) for v in (
    77, 80, 84, 88, 92, 96, 101, 104, 108, 112, 115, 118, 120, 123, 126, 129,
    131, 133, 134, 134, 133, 133, 131, 130, 129, 126, 123, 122, 122, 122, 123, 125,
    126, 130, 134, 137, 137, 138, 138, 137, 135, 133, 129, 123, 118, 111, 105, 101,
    97, 93, 90, 86, 82, 78, 74, 71, 69, 67, 67, 67, 66, 67, 69, 71,
    73, 74, 73, 73, 71, 69, 66, 62, 58, 54, 52, 52, 54, 55, 58, 59,
    62, 63, 63, 65, 65, 65, 66, 66, 67, 69, 70, 73, 77, 80, 82, 85,
    88, 90, 93, 95, 96, 96, 96, 96, 93, 92, 90, 85, 80, 75, 71, 67,
    63, 60, 58, 55, 52, 50, 47, 44, 43, 41, 40, 39, 36, 35, 33, 32,
    30, 28, 24, 20, 15, 11, 7, 3, 2, 2, 2, 2, 2, 2, 3, 6,
    7, 10, 11, 15, 18, 22, 24, 25, 25, 26, 26, 25, 25, 25, 25, 25,
    26, 28, 29, 30, 33, 36, 37, 39, 39, 40, 40, 40, 39, 39, 39, 37,
    37, 37, 36, 36, 36, 35, 35, 33, 33, 32, 30, 28, 25, 20, 15, 11,
    10, 9, 9, 9, 9, 11, 14, 15, 17, 17, 18, 18, 18, 18, 18, 18,
    17, 17, 17, 15, 14, 13, 11, 11, 10, 10, 10, 11, 13, 14, 17, 20,
    22, 25, 28, 30, 35, 39, 41, 45, 50, 58, 63, 69, 73, 77, 80, 82,
    84, 84, 85, 85, 84, 84, 82, 81, 80, 75, 73, 71, 71, 73, 74, 75,
))
S = (-43, -43, -56, 31, 4)      # A1
T = (-3, -12, 22, 2, 32)        # B1
U = (15, -54, -34, -51, -43)    # B2


def toint32(v: float) -> int:
    """JavaScript ToInt32: what ``v & mask`` does to a number."""
    if not math.isfinite(v):
        return 0
    n = math.trunc(v) % 2**32  # Python ints: exact for any double
    return n - 2**32 if n >= 2**31 else n


def round_js(v: float) -> float:
    """JavaScript Math.round."""
    r = float(math.floor(v))
    if v - r >= 0.5:
        r += 1.0
    return r


class RefStar(NamedTuple):
    x: int
    y: int
    z: int
    magnitude: float
    planets: int
    colour: int


class RefGalaxy:
    def __init__(self, prof: Sequence[float] = PROF, s: Sequence[int] = S,
                 t: Sequence[int] = T, u: Sequence[int] = U, min_magnitude: float = 1.0,
                 magnitude_range: float = 5.0, f_mask: int = 0xFFFF, f_value: int = 127):
        self.PROF = [float(v) for v in prof]
        self.mask = len(self.PROF) - 1
        self.S = [float(v) for v in s]
        self.T = [float(v) for v in t]
        self.U = [float(v) for v in u]
        self.MIN_MAGNITUDE = float(min_magnitude)
        self.MAGNITUDE_RANGE = float(magnitude_range)
        self.f_mask = f_mask
        self.f_value = f_value

    def calc_star(self, xi: int, yi: int, zi: int) -> RefStar | None:
        x, y, z = float(xi), float(yi), float(zi)  # JavaScript numbers
        a = 0.0
        for i in range(len(self.S)):
            j = (self.S[i] * x + self.T[i] * y + self.U[i] * z) * RECIP128
            a += self.PROF[toint32(j) & self.mask]
        xyz = x * y * z
        f = toint32(round_js(a * xyz * RECIP128)) & self.f_mask
        if f == self.f_value:
            xyzff = toint32(xyz) & 0xFF
            if 0 < xyzff < 8:
                mag = self.MIN_MAGNITUDE + self.MAGNITUDE_RANGE * xyzff / 7
                n_planets = (toint32(xyz) & 0xF00) >> 8
                colour = (toint32(xyz) & 0xF000) >> 12
                return RefStar(xi, yi, zi, mag, n_planets, colour)
        return None

    def block(self, x0: int, y0: int, z0: int, nx: int, ny: int, nz: int) -> list:
        """Every star of a block, in (x, y, z) order."""
        out = []
        for x in range(x0, x0 + nx):
            for y in range(y0, y0 + ny):
                for z in range(z0, z0 + nz):
                    s = self.calc_star(x, y, z)
                    if s is not None:
                        out.append(s)
        return out
