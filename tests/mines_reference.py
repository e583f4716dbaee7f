"""Independent, slow, pure-Python transcription of SPEC 8: mines, caverns, cave mouths.

Written from SPEC 8 and the seed's ``Mine.prototype.isOpen`` /
``isOpenAbove`` listing, on top of ``tests/reference.py`` (terra, height) and
``tests/fdlibm_reference.py`` (sin, cos as JavaScript computes them).  It
must never import ``relfterrain``.  Clarity over speed: terra runs at every
point of every cell, and mines are found by a breadth-first flood fill.
"""

from __future__ import annotations

import math
from collections import deque

import fdlibm_reference as FD
import reference as R

VARIANTS = ("classic", "sincos")


def frac(u: float) -> float:
    return u - math.floor(u)


def cell_of(x: float, y: float, cs: int = 16) -> tuple[int, int]:
    """The cell containing (x, y): (cs*round_js(x/cs), cs*round_js(y/cs))."""
    return int(cs * R.round_js(x / cs)), int(cs * R.round_js(y / cs))


def cell_points(g: int, cs: int) -> range:
    """The integer points of the cell centred at g along one axis (seed: g-8 .. g+7)."""
    lo = g - cs // 2
    return range(lo, lo + cs)


def is_open_above(p, xg: int, yg: int, cs: int = 16, placed=None) -> bool:
    """The seed's isOpenAbove: x outer, y inner, terra's feature MINE."""
    for ix in cell_points(xg, cs):
        for iy in cell_points(yg, cs):
            if R.terra(p, ix, iy, placed)[2] == R.F_MINE:
                return True
    return False


def u_value(variant: str, xg: int, yg: int, level: int = 0) -> float:
    xf = float(xg)
    yf = float(yg)
    if variant == "classic":
        u = R.PI10000 * xf * yf
    else:
        u = R.PI10000 * FD.sin(xf) * FD.cos(yf)
    return u * float(level + 1)


def is_open(p, xg, yg, level=0, *, variant="classic", threshold=0.4, cs=16, placed=None,
            shafts=True) -> bool:
    """The seed's isOpen, on level `level` (only level 0 has shafts)."""
    if level == 0 and shafts and is_open_above(p, xg, yg, cs, placed):
        return True
    return frac(u_value(variant, xg, yg, level)) > threshold


def open_block(p, xg0, yg0, ncx, ncy, levels=1, **kw) -> list:
    """open[k][r][c] for cell (xg0 + c*cs, yg0 + r*cs)."""
    cs = kw.get("cs", 16)
    return [[[is_open(p, xg0 + c * cs, yg0 + r * cs, k, **kw) for c in range(ncx)]
             for r in range(ncy)] for k in range(levels)]


def above_block(p, xg0, yg0, ncx, ncy, cs=16, placed=None) -> list:
    return [[is_open_above(p, xg0 + c * cs, yg0 + r * cs, cs, placed) for c in range(ncx)]
            for r in range(ncy)]


def above_block_numpy(p, xg0, yg0, ncx, ncy, cs=16, placed=None) -> list:
    """above_block for blocks whose rows are too long for the scalar loop.

    The generated feature of every point by NumPy in float64, operation for
    operation as reference.point_feature (calcProf(B2, A3) at the point,
    round_js(a*xryr/128), toint32 by fmod), then reference.terra at the
    points whose feature value and xyff make a MINE, and at every placed
    point: terra decides.  Rows of the block are the seed's x outer, y inner
    loop turned around, which does not change whether a cell has a MINE.
    """
    import numpy as np

    half = cs // 2
    xs = np.arange(xg0 - half, xg0 - half + ncx * cs, dtype=np.int64)
    xf = xs.astype(np.float64)
    prof = np.array(p.profile, dtype=np.float64)
    two32 = 4294967296.0
    above = np.zeros((ncy, ncx), dtype=bool)
    for r in range(ncy):
        for y in range(yg0 + r * cs - half, yg0 + r * cs - half + cs):
            yf = float(y)
            a = np.zeros(xs.size)
            for i in range(len(p.b2)):
                v = float(p.b2[i]) * xf + float(p.a3[i]) * yf
                a += prof[(np.floor(v).astype(np.int64) >> 7) & p.mask]
            xryr = xf * yf
            w = a * xryr * R.RECIP128
            rj = np.floor(w)
            rj += (w - rj) >= 0.5
            f = np.fmod(rj, two32).astype(np.int64) & p.feature_mask
            xyff = np.fmod(xryr, two32).astype(np.int64) & 0xFF
            for c in np.nonzero((f == p.feature_point) & (xyff < p.mine_below))[0]:
                if R.terra(p, float(xs[c]), yf, placed)[2] == R.F_MINE:
                    above[r, c // cs] = True
    for (x, y) in placed or {}:
        c, r = (x - xs[0]) // cs, (y - (yg0 - half)) // cs
        if 0 <= c < ncx and 0 <= r < ncy and R.terra(p, float(x), float(y), placed)[2] == R.F_MINE:
            above[r, c] = True
    return above.tolist()


def flood_labels(open3) -> tuple[list, int]:
    """Label 4-connected (plus vertical) open cells; mines numbered by first cell.

    open3[k][r][c]; the scan runs in (k, r, c) order and a new mine gets the
    next number when its first cell is met, so the numbering is canonical.
    """
    nz, ny, nx = len(open3), len(open3[0]), len(open3[0][0])
    lab = [[[0] * nx for _ in range(ny)] for _ in range(nz)]
    count = 0
    for k in range(nz):
        for r in range(ny):
            for c in range(nx):
                if not open3[k][r][c] or lab[k][r][c]:
                    continue
                count += 1
                lab[k][r][c] = count
                todo = deque([(k, r, c)])
                while todo:
                    a, b, d = todo.popleft()
                    for na, nb, nd in ((a, b, d - 1), (a, b, d + 1), (a, b - 1, d),
                                       (a, b + 1, d), (a - 1, b, d), (a + 1, b, d)):
                        if (0 <= na < nz and 0 <= nb < ny and 0 <= nd < nx
                                and open3[na][nb][nd] and not lab[na][nb][nd]):
                            lab[na][nb][nd] = count
                            todo.append((na, nb, nd))
    return lab, count


def slope(p, x: int, y: int) -> float:
    """Largest |h(q) - h(p)| / |q - p| over the 8 integer neighbours (|q-p| = 1 or sqrt 2)."""
    h0 = R.height(p, x, y)
    best = 0.0
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if dx == 0 and dy == 0:
                continue
            dist = math.sqrt(2.0) if dx and dy else 1.0
            best = max(best, abs(R.height(p, x + dx, y + dy) - h0) / dist)
    return best


def cave_mouths(p, x0, y0, nx, ny, steepness=1.0, placed=None) -> list:
    """[(x, y, slope)] of MINE features steeper than `steepness`, row-major."""
    out = []
    for y in range(y0, y0 + ny):
        for x in range(x0, x0 + nx):
            if R.terra(p, x, y, placed)[2] == R.F_MINE:
                s = slope(p, x, y)
                if s > steepness:
                    out.append((x, y, s))
    return out


def caverns(p, x0, y0, nx, ny, step=1.0, scale=1.0, dx=64.0, dy=32.0, dz=0.0):
    """(floor, roof, space) lists of rows; roof = H(x*scale + dx, y*scale + dy) + dz."""
    floor, roof, space = [], [], []
    for r in range(ny):
        y = y0 + float(r) * step
        fr, rr, sr = [], [], []
        for c in range(nx):
            x = x0 + float(c) * step
            f = R.height(p, x, y)
            ro = R.height(p, x * scale + dx, y * scale + dy) + dz
            fr.append(f)
            rr.append(ro)
            sr.append(ro - f if ro > f else 0.0)
        floor.append(fr)
        roof.append(rr)
        space.append(sr)
    return floor, roof, space
