"""Independent pure-Python transcriptions of SPEC 11, 14 and 16 (random profile,
Pieces of Eight vegetation, islands, evolving terrain, nebulae, planets).

Written from docs/SPEC.md and the seed's listings, one double
operation at a time in the order SPEC writes it; sin and cos are
``fdlibm_reference`` (the fdlibm that JavaScript uses).  Never imports
relfterrain: it is the oracle the library is compared with.  Slow by design.
"""

from __future__ import annotations

import math

import fdlibm_reference as F
import reference as R

TWO_PI = 2.0 * math.pi
DEG = math.pi / 180.0


# ---------------------------------------------------------------------------
# SPEC 11: makeProfile
# ---------------------------------------------------------------------------

def make_profile(length, uniforms, round_first=False):
    """The author's makeProfile with the given 96 uniforms (a, n, phase per sine)."""
    L = length
    P = [0.0] * L
    u = iter(uniforms)
    for _ in range(32):
        a = 16.0 + next(u) * (90.0 - 16.0)
        n = R.round_js(2.0 + next(u) * (L / 32 - 2.0))
        lamda = L / n if n != 0 else math.inf      # JavaScript: L / 0 = Infinity
        phase = 0.0 + next(u) * (TWO_PI - 0.0)
        for j in range(L):
            s = F.sin(phase + TWO_PI * j / lamda)
            if round_first:
                P[j] += R.round_js(a * s) / 8
            else:
                P[j] += R.round_js(a * s / 8)
    max_ht = 0.0
    for v in P:
        if v > max_ht:
            max_ht = v
    return P, 34.0, max_ht * 2.4


# ---------------------------------------------------------------------------
# SPEC 16: Pieces of Eight vegetation (|calcProf(A1)| < town_below is TOWN)
# ---------------------------------------------------------------------------

def terra_abs_town(p, x, y, placed=None):
    """terra (SPEC 5) with Pieces of Eight's town test |calcProf(A1, x, B1, y)| < town_below."""
    x, y = float(x), float(y)
    lake_ht = p.lake_ht
    ht = R.height(p, x, y)
    if p.snow_height is not None and ht > float(p.snow_height):
        return (ht, R.SNOW, R.F_NONE, "", 0.0)
    xr, yr = R.round_js(x), R.round_js(y)
    feature = None
    pd = (placed or {}).get((int(xr), int(yr)))
    if pd is not None:
        if pd[0] == "T":
            return (max(ht, lake_ht), pd[1], R.F_NONE, "", 0.0)
        feature = pd[1]
    if lake_ht > ht:
        f = R.F_NONE if feature is None else feature
        return (lake_ht, R.LAKE, f, R._code(f, xr, yr), lake_ht - ht)
    if float(p.lake_base) > ht:
        f = R.F_NONE if feature is None else feature
        return (ht, R.MUD, f, R._code(f, xr, yr), 0.0)
    if abs(R.calc_prof(p, p.a1, x, p.b1, y)) < p.town_below:
        return (ht, R.TOWN, R.F_NONE, "", 0.0)
    if feature is None:
        feature = R.point_feature(p, xr, yr)
    code = R._code(feature, xr, yr)
    a = R.calc_prof(p, p.a2, x, p.b2, y)
    b = R.calc_prof(p, p.a3, x, p.b3, y)
    if a < p.grass_below:
        return (ht, R.GRASS if b < p.open_below else R.MOOR, feature, code, 0.0)
    return (ht, R.THICKET if b < p.thicket_below else R.WOOD, feature, code, 0.0)


# ---------------------------------------------------------------------------
# Islands: 4-connected land, labelled in raster order of first point
# ---------------------------------------------------------------------------

def label_islands(land):
    """land: list of rows (row 0 south) of bools -> (labels, counts)."""
    ny, nx = len(land), len(land[0])
    labels = [[0] * nx for _ in range(ny)]
    counts = [0]
    for r in range(ny):
        for c in range(nx):
            if not land[r][c] or labels[r][c]:
                continue
            k = len(counts)
            counts.append(0)
            stack = [(r, c)]
            labels[r][c] = k
            while stack:
                i, j = stack.pop()
                counts[k] += 1
                for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    a, b = i + di, j + dj
                    if 0 <= a < ny and 0 <= b < nx and land[a][b] and not labels[a][b]:
                        labels[a][b] = k
                        stack.append((a, b))
    counts[0] = sum(not v for row in land for v in row)
    return labels, counts


# ---------------------------------------------------------------------------
# SPEC 14: evolving terrain, nebulae, planets
# ---------------------------------------------------------------------------

def _sum3(prof, A, B, C, x, y, z):
    """calcHeight with a third term: j = (A*x + B*y + C*z) * (1/128)."""
    mask = len(prof) - 1
    ht = 0.0
    for i in range(len(A)):
        j = (float(A[i]) * x + float(B[i]) * y + float(C[i]) * z) * R.RECIP128
        jint = float(math.floor(j))
        jfrac = j - jint
        p0 = prof[R.toint32(jint) & mask]
        p1 = prof[R.toint32(jint + 1.0) & mask]
        ht += p0 + jfrac * (p1 - p0)
    return ht


def height_t(p, T, x, y, t):
    """SPEC 14: j = (AH*x + BH*y + T*t) * (1/128), then mountains as SPEC 4."""
    ht = _sum3(p.profile, p.ah, p.bh, T, float(x), float(y), float(t))
    if p.mountain_base is not None and ht > p.mountain_base:
        dz = ht - p.mountain_base
        ht = p.mountain_base + dz * math.sqrt(dz)
    return ht


def density(prof, A, B, C, x, y, z):
    return _sum3(prof, A, B, C, float(x), float(y), float(z))


def prof3(prof, A, B, C, x, y, z):
    """calcProf with three vectors: floordiv(floor(A*x + B*y + C*z), 128)."""
    mask = len(prof) - 1
    s = 0.0
    for i in range(len(A)):
        v = float(A[i]) * x + float(B[i]) * y + float(C[i]) * z
        s += prof[(math.floor(v) >> 7) & mask]
    return s


def sphere_point(radius, lat, lon):
    """x = R*cos(phi)*cos(lam), y = R*cos(phi)*sin(lam), z = R*sin(phi)."""
    phi = float(lat) * DEG
    lam = float(lon) * DEG
    x = radius * F.cos(phi) * F.cos(lam)
    y = radius * F.cos(phi) * F.sin(lam)
    z = radius * F.sin(phi)
    return x, y, z


def planet_feature(v, xr, yr, zr):
    """The project's choice (relfterrain.planet): at the rounded point, the
    pair of rings is the two coordinates other than the largest in
    magnitude (ties: the later axis is the largest); the seed's test runs on
    that pair's product with the swapped tables over all three coordinates."""
    coords = (xr, yr, zr)
    big = 0
    for k in (1, 2):
        if abs(coords[k]) >= abs(coords[big]):
            big = k
    u, w = [coords[k] for k in range(3) if k != big]
    uw = u * w
    a = prof3(v["profile"], v["b2"], v["a3"], v["c3"], xr, yr, zr)
    f = R.toint32(R.round_js(a * uw * R.RECIP128)) & v["feature_mask"]
    if f == 4:
        xyff = R.toint32(uw) & 0xFF
        if xyff < 32:
            return R.F_MINE
        if xyff < 128:
            return R.F_BOULDER
        if xyff < 160:
            return R.F_WATERHOLE
        if xyff < 200:
            return R.F_KNOLL
        return R.F_ROOT
    if f == 8 and (R.toint32(R.round_js(R.PI1000 * uw)) & 0xFF) < 4:
        return R.F_X
    if f == 16 and (R.toint32(R.round_js(R.PI10000 * uw)) & 0xFF) < 8:
        return R.F_CONE
    return R.F_NONE


def planet_terra_xyz(v, x, y, z, placed=None):
    """terra on a planet at the Cartesian point (x, y, z): (height, depth, terrain, feature)."""
    prof = v["profile"]
    ht = _sum3(prof, v["ah"], v["bh"], v["ch"], x, y, z)
    lake, base = v["lake_height"], v["lake_base"]
    xr, yr, zr = R.round_js(x), R.round_js(y), R.round_js(z)
    feature = None
    if placed:
        pd = placed.get((int(xr), int(yr), int(zr)))
        if pd is not None:
            kind, val = pd
            if kind == "T":
                return (max(ht, lake), 0.0, val, R.F_NONE)
            feature = val
    if lake > ht:
        return (lake, lake - ht, R.LAKE, R.F_NONE if feature is None else feature)
    if base > ht:
        return (ht, 0.0, R.MUD, R.F_NONE if feature is None else feature)
    if prof3(prof, v["a1"], v["b1"], v["c1"], x, y, z) < 120.0:
        return (ht, 0.0, R.TOWN, R.F_NONE)
    if feature is None:
        feature = planet_feature(v, xr, yr, zr)
    a = prof3(prof, v["a2"], v["b2"], v["c2"], x, y, z)
    b = prof3(prof, v["a3"], v["b3"], v["c3"], x, y, z)
    if a < 255.0:
        ter = R.GRASS if b < 255.0 else R.MOOR
    else:
        ter = R.THICKET if b < 200.0 else R.WOOD
    return (ht, 0.0, ter, feature)


def map_point(radius, lat0, lon0, u, w):
    """The orthographic map's sphere point for tangent-plane (u east, w north),
    or None outside the disc: P = u*e + w*n + sqrt(R^2 - u^2 - w^2)*c."""
    phi = float(lat0) * DEG
    lam = float(lon0) * DEG
    sp, cp, sl, cl = F.sin(phi), F.cos(phi), F.sin(lam), F.cos(lam)
    rr = radius * radius - u * u - w * w
    if not rr >= 0.0:
        return None
    d = math.sqrt(rr)
    ex, ey = -sl, cl
    nx, ny, nz = -sp * cl, -sp * sl, cp
    cx, cy, cz = cp * cl, cp * sl, sp
    x = u * ex + w * nx + d * cx
    y = u * ey + w * ny + d * cy
    z = w * nz + d * cz
    return x, y, z
