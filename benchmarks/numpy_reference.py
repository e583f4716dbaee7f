"""Vectorised pure-NumPy transcription of the classic Relf terrain.

This is "the alternative a user could write in NumPy" that the benchmark
compares relfterrain against.  It follows SPEC sections 4 and 5 operation by
operation, in float64, in the order the seed writes the arithmetic, so that on
integer grids (and any grid whose points are exact doubles) it gives the same
bits as the JavaScript original:

* height (SPEC 4): ``j = (AH[i]*x + BH[i]*y) * (1/128)``, ``jint = floor(j)``,
  ``jfrac = j - jint``, ``ht += p0 + jfrac*(p1 - p0)``;
* terrain codes (SPEC 5): lake / mud, the point features with mask 0xfff at the
  rounded point, vegetation (TOWN, GRASS, MOOR, THICKET, WOOD).

Not covered (they are off in the classic model): mountains, snow, paths, the
placed table, ``wood_only`` and ``bleak``.

The grid is processed in blocks of rows so the temporaries stay small (about
``CHUNK_POINTS`` points each), which is what a careful NumPy user would do for
large grids.  NumPy itself runs on one core here.

Exactness notes
---------------
* NumPy ufuncs never fuse a multiply and an add, so ``p0 + jfrac*(p1 - p0)``
  rounds twice, as in JavaScript.
* ``p1 - p0`` is taken from a precomputed table ``DPROF[k] = PROF[(k+1)&mask] -
  PROF[k]``; the subtraction of the same two doubles gives the same bits.
* ``toint32(v) & m`` (JavaScript's ``v & m``) for a small mask ``m`` only needs
  ``v`` modulo 2**32: ``np.fmod(v, 2**32)`` is exact on an integer-valued
  float64, then ``astype(np.int64) & m`` takes the low bits (two's complement).
  Non-finite values are not handled (they cannot occur for finite grids inside
  the domain of SPEC 10).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "CLASSIC_PROFILE",
    "CLASSIC_VECTORS",
    "NumpyTerrain",
    "grid",
    "height_grid",
]

CLASSIC_PROFILE = np.array(
    [
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
    ],
    dtype=np.float64,
)
CLASSIC_PROFILE.flags.writeable = False

CLASSIC_VECTORS = {
    "ah": (0, 13, 21, 22, 29),
    "bh": (27, 26, 21, 11, 1),
    "a1": (-43, -43, -56, 31, 4),
    "b1": (-3, -12, 22, 2, 32),
    "a2": (-24, -25, 60, 10, -30),
    "b2": (15, -54, -34, -51, -43),
    "a3": (-51, -62, -58, -64, 33),
    "b3": (-44, 20, 27, -64, -44),
}

# TerrainType and Feature codes (SPEC 5)
LAKE, TOWN, GRASS, MOOR, WOOD, THICKET, ROAD, MUD = 0, 1, 2, 3, 4, 5, 6, 7
NONE, MINE, BOULDER, ROOT, WATERHOLE, KNOLL, X, CONE = 0, 1, 2, 3, 4, 5, 6, 7

RECIP128 = 1.0 / 128.0
PI1000 = math.pi * 1000.0
PI10000 = math.pi * 10000.0
TWO32 = 4294967296.0

CHUNK_POINTS = 1 << 18  # points per block of rows


def round_js(v):
    """JavaScript Math.round on a float64 array: floor(v) + (v - floor(v) >= 0.5)."""
    r = np.floor(v)
    r += (v - r) >= 0.5
    return r


def int32_bits(v, mask):
    """``toint32(v) & mask`` for an integer-valued float64 array ``v``."""
    return np.fmod(v, TWO32).astype(np.int64) & mask


def axis(v0, n, step):
    """Coordinates ``v0 + k*step`` for k = 0..n-1 (the double expression of SPEC 1)."""
    return float(v0) + np.arange(n, dtype=np.float64) * float(step)


class NumpyTerrain:
    """Classic-model terrain on whole grids with NumPy (no C, no Python loops per point)."""

    def __init__(self, profile=None, lake_base=204.0, lake_height=None,
                 feature_mask=0xFFF, chunk_points=CHUNK_POINTS, **vectors):
        prof = CLASSIC_PROFILE if profile is None else np.asarray(profile, dtype=np.float64)
        n = prof.size
        if n < 1 or n & (n - 1):
            raise ValueError(f"profile: length {n} is not a power of two")
        self.prof = prof
        self.mask = n - 1
        k = np.arange(n)
        self.dprof = prof[(k + 1) & self.mask] - prof[k]  # p1 - p0 per index
        v = dict(CLASSIC_VECTORS)
        for name, val in vectors.items():
            if name not in v:
                raise TypeError(f"unknown vector {name!r}")
            if val is not None:
                v[name] = tuple(int(t) for t in val)
        if len({len(t) for t in v.values()}) != 1:
            raise ValueError("vectors must all have the same length")
        self.v = {name: np.array(t, dtype=np.float64) for name, t in v.items()}
        self.lake_base = float(lake_base)
        self.lake_height = self.lake_base if lake_height is None else float(lake_height)
        self.feature_mask = int(feature_mask)
        self.chunk_points = int(chunk_points)

    # ---------------------------------------------------------------- pieces
    def _height_block(self, xs, ys, out):
        """calcHeight on the block ys (rows) x xs (columns), written into out."""
        ah, bh = self.v["ah"], self.v["bh"]
        shape = (ys.size, xs.size)
        j = np.empty(shape)
        jint = np.empty(shape)
        idx = np.empty(shape, dtype=np.int64)
        t = np.empty(shape)
        out[...] = 0.0
        for i in range(ah.size):
            ax = ah[i] * xs  # AH[i]*x
            by = bh[i] * ys  # BH[i]*y
            np.add(ax[None, :], by[:, None], out=j)  # AH[i]*x + BH[i]*y
            j *= RECIP128
            np.floor(j, out=jint)
            j -= jint  # jfrac
            np.copyto(idx, jint, casting="unsafe")
            idx &= self.mask
            np.take(self.dprof, idx, out=t)  # p1 - p0
            t *= j  # jfrac * (p1 - p0)
            t += np.take(self.prof, idx)  # p0 + jfrac*(p1 - p0)
            out += t  # ht += ...
        return out

    def _calc_prof(self, a, xs, b, ys):
        """calcProf(A, x, B, y): sum of PROF[floordiv(floor(A[i]*x + B[i]*y), 128) & mask]."""
        shape = (ys.size, xs.size)
        s = np.zeros(shape)
        j = np.empty(shape)
        idx = np.empty(shape, dtype=np.int64)
        for i in range(a.size):
            np.add((a[i] * xs)[None, :], (b[i] * ys)[:, None], out=j)
            np.floor(j, out=j)
            np.copyto(idx, j, casting="unsafe")
            idx >>= 7
            idx &= self.mask
            s += np.take(self.prof, idx)
        return s

    def _feature_block(self, xs, ys):
        """Generated point feature (SPEC 5) at the rounded points of the block."""
        xr = round_js(xs)
        yr = round_js(ys)
        xryr = yr.astype(np.int64)[:, None] * xr.astype(np.int64)[None, :]
        a = self._calc_prof(self.v["b2"], xr, self.v["a3"], yr)  # swapped tables
        v = a * xryr.astype(np.float64)  # a * xryr
        v *= RECIP128
        f = int32_bits(round_js(v), self.feature_mask)
        feat = np.zeros(f.shape, dtype=np.uint8)
        # f == 4: kind by the low byte of xryr
        r4 = np.nonzero(f == 4)
        if r4[0].size:
            xyff = xryr[r4] & 0xFF
            feat[r4] = np.select(
                [xyff < 32, xyff < 128, xyff < 160, xyff < 200],
                [MINE, BOULDER, WATERHOLE, KNOLL], ROOT)
        # f == 8 and (round(PI1000*xryr) & 0xff) < 4: X
        r8 = np.nonzero(f == 8)
        if r8[0].size:
            ok = int32_bits(round_js(PI1000 * xryr[r8].astype(np.float64)), 0xFF) < 4
            feat[r8[0][ok], r8[1][ok]] = X
        # f == 16 and (round(PI10000*xryr) & 0xff) < 8: CONE
        r16 = np.nonzero(f == 16)
        if r16[0].size:
            ok = int32_bits(round_js(PI10000 * xryr[r16].astype(np.float64)), 0xFF) < 8
            feat[r16[0][ok], r16[1][ok]] = CONE
        return feat

    def _terra_block(self, xs, ys, h, d, t, f):
        ht = self._height_block(xs, ys, np.empty((ys.size, xs.size)))
        lake = self.lake_height > ht
        mud = self.lake_base > ht
        mud &= ~lake
        wet = lake | mud
        # height: lake surface on lakes; depth lake_height - ht on lakes, else 0
        np.copyto(h, ht)
        h[lake] = self.lake_height
        d[...] = 0.0
        d[lake] = self.lake_height - ht[lake]
        # vegetation
        town = self._calc_prof(self.v["a1"], xs, self.v["b1"], ys) < 120
        a = self._calc_prof(self.v["a2"], xs, self.v["b2"], ys) < 255
        b = self._calc_prof(self.v["a3"], xs, self.v["b3"], ys)
        veg = np.where(a, np.where(b < 255, GRASS, MOOR), np.where(b < 200, THICKET, WOOD))
        veg[town] = TOWN
        veg[mud] = MUD
        veg[lake] = LAKE
        t[...] = veg
        feat = self._feature_block(xs, ys)
        feat[wet | town] = NONE
        f[...] = feat

    def _rows(self, nx, ny):
        rows = max(1, self.chunk_points // max(nx, 1))
        for r0 in range(0, ny, rows):
            yield r0, min(ny, r0 + rows)

    # ------------------------------------------------------------ grid API
    def height_grid(self, x0, y0, nx, ny, step=1.0, out=None):
        """calcHeight on the grid: float64 (ny, nx), [r, c] = (x0 + c*step, y0 + r*step)."""
        xs, ys = axis(x0, nx, step), axis(y0, ny, step)
        if out is None:
            out = np.empty((ny, nx))
        for r0, r1 in self._rows(nx, ny):
            self._height_block(xs, ys[r0:r1], out[r0:r1])
        return out

    def grid(self, x0, y0, nx, ny, step=1.0, out=None):
        """terra on the grid: (height, depth, terrain uint8, feature uint8), each (ny, nx)."""
        xs, ys = axis(x0, nx, step), axis(y0, ny, step)
        if out is None:
            out = (np.empty((ny, nx)), np.empty((ny, nx)),
                   np.empty((ny, nx), np.uint8), np.empty((ny, nx), np.uint8))
        h, d, t, f = out
        for r0, r1 in self._rows(nx, ny):
            self._terra_block(xs, ys[r0:r1], h[r0:r1], d[r0:r1], t[r0:r1], f[r0:r1])
        return h, d, t, f


_CLASSIC = None


def _classic():
    global _CLASSIC
    if _CLASSIC is None:
        _CLASSIC = NumpyTerrain()
    return _CLASSIC


def height_grid(x0, y0, nx, ny, step=1.0, out=None):
    """Classic calcHeight on a grid (see NumpyTerrain.height_grid)."""
    return _classic().height_grid(x0, y0, nx, ny, step, out=out)


def grid(x0, y0, nx, ny, step=1.0, out=None):
    """Classic terra on a grid (see NumpyTerrain.grid)."""
    return _classic().grid(x0, y0, nx, ny, step, out=out)


# --------------------------------------------------------------------------
# A literal scalar transcription of the seed, used only to cross-check the
# vectorised code above on a sample of points (python numpy_reference.py).

def _scalar_round_js(v):
    r = math.floor(v)
    if v - r >= 0.5:
        r += 1
    return r


def _scalar_toint32(v):
    if not math.isfinite(v):
        return 0
    n = int(v) % (1 << 32)  # int() truncates toward zero
    return n - (1 << 32) if n >= (1 << 31) else n


def _scalar_height(x, y, P=CLASSIC_PROFILE, V=CLASSIC_VECTORS):
    ht = 0.0
    m = P.size - 1
    for a, b in zip(V["ah"], V["bh"]):
        j = (float(a) * x + float(b) * y) * RECIP128
        jint = math.floor(j)
        jfrac = j - jint
        p0 = float(P[jint & m])
        p1 = float(P[(jint + 1) & m])
        ht += p0 + jfrac * (p1 - p0)
    return ht


def _scalar_prof(A, x, B, y, P=CLASSIC_PROFILE):
    m = P.size - 1
    return sum(float(P[(math.floor(float(a) * x + float(b) * y) >> 7) & m]) for a, b in zip(A, B))


def _scalar_terra(x, y, lake=204.0, lake_base=204.0, fmask=0xFFF):
    """(height, depth, terrain, feature) of terra(x, y) in the classic model."""
    V = CLASSIC_VECTORS
    ht = _scalar_height(x, y)
    if lake > ht:
        return lake, lake - ht, LAKE, NONE
    if lake_base > ht:
        return ht, 0.0, MUD, NONE
    xr, yr = _scalar_round_js(x), _scalar_round_js(y)
    xryr = xr * yr
    feature = NONE
    a = _scalar_prof(V["b2"], xr, V["a3"], yr)
    f = _scalar_toint32(_scalar_round_js(a * float(xryr) * RECIP128)) & fmask
    if f == 4:
        xyff = xryr & 0xFF
        feature = (MINE if xyff < 32 else BOULDER if xyff < 128 else
                   WATERHOLE if xyff < 160 else KNOLL if xyff < 200 else ROOT)
    elif f == 8 and (_scalar_toint32(_scalar_round_js(PI1000 * xryr)) & 0xFF) < 4:
        feature = X
    elif f == 16 and (_scalar_toint32(_scalar_round_js(PI10000 * xryr)) & 0xFF) < 8:
        feature = CONE
    if _scalar_prof(V["a1"], x, V["b1"], y) < 120:
        return ht, 0.0, TOWN, NONE
    a = _scalar_prof(V["a2"], x, V["b2"], y)
    b = _scalar_prof(V["a3"], x, V["b3"], y)
    if a < 255:
        return ht, 0.0, (GRASS if b < 255 else MOOR), feature
    return ht, 0.0, (THICKET if b < 200 else WOOD), feature


def _selfcheck(x0=23396, y0=5318, nx=800, ny=600, samples=20000, seed=1):
    """Compare the vectorised grid with the scalar transcription on sampled points
    plus every feature point; returns the number of mismatches."""
    h, d, t, f = grid(x0, y0, nx, ny)
    hh = height_grid(x0, y0, nx, ny)
    rng = np.random.default_rng(seed)
    pts = set(zip(rng.integers(0, ny, samples).tolist(), rng.integers(0, nx, samples).tolist()))
    pts |= set(zip(*[a.tolist() for a in np.nonzero(f)]))
    bad = 0
    for r, c in sorted(pts):
        x, y = x0 + c * 1.0, y0 + r * 1.0
        want = _scalar_terra(x, y)
        got = (float(h[r, c]), float(d[r, c]), int(t[r, c]), int(f[r, c]))
        if got != want or float(hh[r, c]) != _scalar_height(x, y):
            bad += 1
            if bad <= 5:
                print("mismatch at", (r, c), "got", got, "want", want)
    return bad, len(pts), f


if __name__ == "__main__":
    bad, n, f = _selfcheck()
    counts = np.bincount(f.ravel(), minlength=8)
    print(f"checked {n} points of the classic map against the scalar transcription: "
          f"{bad} mismatches; features per code: {counts.tolist()} (total {int(counts[1:].sum())})")
