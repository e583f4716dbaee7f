"""Slow, direct transcriptions of the classic generators' seeds (001, 002).

Plain Python loops over plain lists, written from the seeds' listings and
text, not from csrc/classic.c. The random numbers are supplied by the caller
(a ``rand()`` callable standing for the seed's ``Math.random()``), so a test
feeds exactly the numbers relfterrain drew and compares bit for bit.
"""

import math

# Math.PI
PI = 3.141592653589793

# -- the portable cosine (relfterrain.h: rt_classic_cos), as Python floats ------

_PIO2_HI = float.fromhex("0x1.921fb54442d18p+0")
_PIO2_LO = float.fromhex("0x1.1a62633145c07p-54")
_PI_HI = float.fromhex("0x1.921fb54442d18p+1")
_PI_LO = float.fromhex("0x1.1a62633145c07p-53")
_PIO4 = float.fromhex("0x1.921fb54442d18p-1")


def _cos_taylor(y):
    z = y * y
    p = 1.0 / math.factorial(16)
    for k, sign in ((14, -1), (12, 1), (10, -1), (8, 1), (6, -1), (4, 1)):
        p = p * z + sign * (1.0 / math.factorial(k))
    return 1.0 - (0.5 * z - (z * z) * p)


def _sin_taylor(y):
    z = y * y
    p = 1.0 / math.factorial(17)
    for k, sign in ((15, -1), (13, 1), (11, -1), (9, 1), (7, -1), (5, 1), (3, -1)):
        p = p * z + sign * (1.0 / math.factorial(k))
    return y + (y * z) * p


def seed_cos(x):
    """cos(x), |x| <= 3.5: Taylor series after an exact reduction to |y| <= pi/4."""
    ax = abs(x)
    if not ax <= 3.5:
        return math.nan
    if ax <= _PIO4:
        return _cos_taylor(ax)
    if ax < 3.0 * _PIO4:
        return _sin_taylor((_PIO2_HI - ax) + _PIO2_LO)
    return -_cos_taylor((_PI_HI - ax) + _PI_LO)


def js_min(a, b):
    """Math.min of two numbers (-0 below +0)."""
    if a < b:
        return a
    if b < a:
        return b
    return a if math.copysign(1.0, a) < 0 else b


def js_max(a, b):
    if a > b:
        return a
    if b > a:
        return b
    return b if math.copysign(1.0, a) < 0 else a


# -- seed 001 ---------------------------------------------------------------


class Array2:
    """The seed's Array2(width, height): get(i, j) / set(i, j, v) / fill(v)."""

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.data = [[math.nan] * height for _ in range(width)]

    def get(self, i, j):
        return self.data[i][j]

    def set(self, i, j, v):
        self.data[i][j] = v

    def fill(self, v):
        for col in self.data:
            col[:] = [v] * self.height

    def as_rows(self):
        """[j][i] rows, the (height, width) layout relfterrain returns."""
        return [[self.data[i][j] for i in range(self.width)] for j in range(self.height)]


def generate_limited_random(width, height, maximum_height_increase, minimum_height,
                            maximum_height, rand, full=True):
    """generateLimitedRandom; full=False keeps the seed's ``< width - 1`` bounds."""
    heightMap = Array2(width, height)
    iend, jend = (width, height) if full else (width - 1, height - 1)
    for i in range(iend):
        for j in range(jend):
            a = 0
            if i != 0 and j != 0:
                a = (heightMap.get(i - 1, j) + heightMap.get(i, j - 1)) / 2
            elif i != 0 and j == 0:
                a = heightMap.get(i - 1, j)
            else:
                a = rand() * height
            h = a + maximum_height_increase * (rand() - 1 / 2)
            heightMap.set(i, j, js_max(minimum_height, js_min(h, maximum_height)))
    return heightMap.as_rows()


def generate_circle_hill(width, height, numCircles, circleRadius, circleHeightIncrease,
                         maximumHeight, rand, full=True, cos=seed_cos, base=50):
    """generateCircleHill; full=False keeps the seed's ``< width - 1`` bounds.

    As in the seed, ``numCircles - 1`` circles are made.
    """
    circleRadiusSquared = circleRadius * circleRadius
    heightMap = Array2(width, height)
    heightMap.fill(base)
    jend, kend = (width, height) if full else (width - 1, height - 1)
    for _pd_i in range(1, numCircles):
        pd_x = math.floor(rand() * width)
        pd_y = math.floor(rand() * height)
        for pd_j in range(jend):
            for pd_k in range(kend):
                pd_d = float(pd_x - pd_j) * float(pd_x - pd_j) + \
                    float(pd_y - pd_k) * float(pd_y - pd_k)
                if pd_d < circleRadiusSquared:
                    pd_a = (circleHeightIncrease / 2) * (1 + cos(PI * pd_d / circleRadiusSquared))
                    heightMap.set(pd_j, pd_k, js_min(heightMap.get(pd_j, pd_k) + pd_a,
                                                     maximumHeight))
    return heightMap.as_rows()


# -- seed 002 ---------------------------------------------------------------


def midpoint_displacement(iterations, ratio, u, scale=1.0):
    """Start with one segment, ends at 0; per pass displace every midpoint by
    a random amount in [-r, r), then reduce r by ``ratio``. u[i]: point i."""
    n = 2 ** iterations + 1
    y = [0.0] * n
    r = scale
    seg = n - 1
    while seg > 1:
        for left in range(0, n - 1, seg):
            mid = left + seg // 2
            y[mid] = (y[left] + y[left + seg]) / 2 + r * (2 * u[mid] - 1)
        r *= ratio
        seg //= 2
    return y


def diamond_square(iterations, ratio, u, corner=0.0, wrap=True, seed=None, scale=1.0):
    """Martz's iterative diamond-square on an n x n list of lists.

    u[i][j]: the uniform of point (i, j). seed: None or an n x n list with
    None (or NaN) where a point is to be generated. Wrapped edge points take
    the missing corner from the other side and are stored on both sides.
    """
    n = 2 ** iterations + 1
    m = n - 1
    unset = [[True] * n for _ in range(n)]
    a = [[0.0] * n for _ in range(n)]
    if seed is not None:
        for i in range(n):
            for j in range(n):
                v = seed[i][j]
                if v is not None and not math.isnan(v):
                    a[i][j], unset[i][j] = v, False
    if wrap:  # a torus point has several copies: a set copy sets them all
        copies = {}
        for i in range(n):
            for j in range(n):
                copies.setdefault((i % m, j % m), []).append((i, j))
        for members in copies.values():
            known = [a[i][j] for i, j in members if not unset[i][j]]
            if known:
                for i, j in members:
                    a[i][j], unset[i][j] = known[0], False
    for i, j in ((0, 0), (0, m), (m, 0), (m, m)):
        if unset[i][j]:
            a[i][j], unset[i][j] = corner, False

    r = scale
    side = m
    while side >= 2:
        half = side // 2
        # diamond step: square centres
        for i in range(half, m, side):
            for j in range(half, m, side):
                if unset[i][j]:
                    s = ((a[i - half][j - half] + a[i - half][j + half])
                         + a[i + half][j - half]) + a[i + half][j + half]
                    a[i][j] = s * 0.25 + r * (2.0 * u[i][j] - 1.0)
                    unset[i][j] = False
        # square step: diamond centres
        last = m - 1 if wrap else m
        todo = []
        for i in range(0, last + 1, half):
            for j in range(0, last + 1, half):
                if ((i // half) + (j // half)) % 2 == 1 and unset[i][j]:
                    todo.append((i, j))
        for i, j in todo:
            if wrap:
                s = (((a[(i - half) % m][j] + a[(i + half) % m][j]) + a[i][(j - half) % m])
                     + a[i][(j + half) % m])
                avg = s * 0.25
            else:
                s, count = 0.0, 0
                for ii, jj in ((i - half, j), (i + half, j), (i, j - half), (i, j + half)):
                    if 0 <= ii <= m and 0 <= jj <= m:
                        s += a[ii][jj]
                        count += 1
                avg = s * 0.25 if count == 4 else s / 3.0
            a[i][j] = avg + r * (2.0 * u[i][j] - 1.0)
            unset[i][j] = False
            if wrap:
                if i == 0:
                    a[m][j], unset[m][j] = a[i][j], False
                if j == 0:
                    a[i][m], unset[i][m] = a[i][j], False
        r *= ratio
        side = half
    return a
