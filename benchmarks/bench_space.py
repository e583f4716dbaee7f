"""Planet maps and nebula blocks: points per second, and the ratio to a
vectorised NumPy transcription measured in the same run.

    PYTHONPATH=. python benchmarks/bench_space.py [--repeat N] [--proportions] [--count]

The NumPy transcriptions compute the same formulas (SPEC 14) with NumPy's
sin/cos/floor (the libm's sin/cos, so a few last bits may differ from the
core's fdlibm; they are here for speed only). --proportions prints the terrain
kinds' shares over the sphere against the classic map's; --count how often
each point of the planet map was computed (a scratch build, count_points.py).
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys

import numpy as np
from _common import cpu_model, timeit

import relfterrain as rt
from relfterrain import _core

# Planet(20000).map(30, 40, 800, 600, threads=1) by the scalar code before
# the SIMD rows (7639fb6^), median on the project's machine: issue 23's
# reference (docs/performance/speed.md, "Planets"); the target is 4x.
ORIGINAL_MAP_MS = 48.0


def numpy_sum3(prof, A, B, C, x, y, z):
    mask = prof.size - 1
    ht = np.zeros(np.broadcast(x, y, z).shape)
    for i in range(len(A)):
        j = (A[i] * x + B[i] * y + C[i] * z) * (1 / 128)
        jint = np.floor(j)
        jfrac = j - jint
        k = jint.astype(np.int64)
        p0 = prof[k & mask]
        p1 = prof[(k + 1) & mask]
        ht += p0 + jfrac * (p1 - p0)
    return ht


def numpy_prof3(prof, A, B, C, x, y, z):
    mask = prof.size - 1
    s = np.zeros(np.broadcast(x, y, z).shape)
    for i in range(len(A)):
        v = A[i] * x + B[i] * y + C[i] * z
        s += prof[(np.floor(v).astype(np.int64) >> 7) & mask]
    return s


def numpy_planet_map(planet, lat0, lon0, nx, ny, step):
    """Height and terrain kinds (lake, town, vegetation; no features) of the map."""
    R = planet.radius
    phi, lam = math.radians(lat0), math.radians(lon0)
    sp, cp, sl, cl = math.sin(phi), math.cos(phi), math.sin(lam), math.cos(lam)
    u = (np.arange(nx) - 0.5 * (nx - 1)) * step
    w = ((np.arange(ny) - 0.5 * (ny - 1)) * step)[:, None]
    rr = R * R - u * u - w * w
    vis = rr >= 0
    d = np.sqrt(np.where(vis, rr, 0.0))
    x = u * -sl + w * (-sp * cl) + d * (cp * cl)
    y = u * cl + w * (-sp * sl) + d * (cp * sl)
    z = w * cp + d * sp
    P = planet.profile
    h = numpy_sum3(P, planet.ah, planet.bh, planet.ch, x, y, z)
    a1 = numpy_prof3(P, planet.a1, planet.b1, planet.c1, x, y, z)
    a2 = numpy_prof3(P, planet.a2, planet.b2, planet.c2, x, y, z)
    a3 = numpy_prof3(P, planet.a3, planet.b3, planet.c3, x, y, z)
    veg = np.where(a2 < 255, np.where(a3 < 255, 2, 3), np.where(a3 < 200, 5, 4))
    ter = np.where(planet.lake_height > h, 0, np.where(a1 < 120, 1, veg))
    return np.where(vis, h, np.nan), np.where(vis, ter, 255)


def numpy_nebula(nb, n):
    z, y, x = np.meshgrid(*(np.arange(n, dtype=np.float64),) * 3, indexing="ij")
    return numpy_sum3(nb.profile, nb.a, nb.b, nb.c, x, y, z)


def proportions():
    names = ["LAKE", "TOWN", "GRASS", "MOOR", "WOOD", "THICKET"]
    t = rt.Terrain().terrain_grid(-8000, -8000, 4000, 4000, 4.0)
    flat = np.bincount(t.ravel(), minlength=12)[:6] / t.size
    rng = np.random.default_rng(0)
    n = 400_000
    lat = np.degrees(np.arcsin(rng.uniform(-1, 1, n)))
    lon = rng.uniform(-180, 180, n)
    s = rt.Planet(10_000).terra(lat, lon, threads=2)
    sph = np.bincount(s.terrain.ravel(), minlength=12)[:6] / n
    print("terrain kinds: classic 16 x 16 km (step 4) vs sphere R=10 km (400,000 uniform points)")
    for k, name in enumerate(names):
        print(f"  {name:8s} {flat[k]:7.3%} {sph[k]:7.3%}")
    print(f"  total variation distance {0.5 * np.abs(flat - sph).sum():.4f}")


def issue_map(r):
    """Issue 23's map on every SIMD variant of the rows (the same bits), and
    the ratios to the scalar rows of this run and to the original code."""
    p = rt.Planet(20_000)
    prm, step = p._params(), 2 * p.radius / (600 - 1)
    t, _ = timeit(lambda: p.map(30, 40, 800, 600, threads=1), 3 * r)
    print(f"issue 23 map: Planet(20000).map(30, 40, 800, 600, threads=1): {t * 1e3:.2f} ms, "
          f"x{ORIGINAL_MAP_MS / (t * 1e3):.1f} the original scalar code's ~{ORIGINAL_MAP_MS:.0f} ms "
          f"(target x4)")
    times = {}
    for name, (code, ok, _) in _core.simd_variants().items():
        if ok and code > 0:
            times[name], _ = timeit(lambda code=code: _core.planet_map(
                prm, 30, 40, 800, 600, step, threads=1, simd=code), 3 * r)
    for name, tv in times.items():
        print(f"  rows {name:>10}: {tv * 1e3:8.2f} ms, x{times['scalar'] / tv:.1f} the scalar rows")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--proportions", action="store_true")
    ap.add_argument("--count", action="store_true")
    args = ap.parse_args()
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        cores = [ln for ln in lscpu.splitlines() if ln.startswith(("CPU(s):", "Model name"))]
    except OSError:
        cores = []
    print(f"CPU: {cpu_model()}; {'; '.join(c.split(':', 1)[1].strip() for c in cores)}")
    r = args.repeat
    planet = rt.Planet(10_000)
    nx, ny = 800, 600
    step = 2 * planet.radius / (ny - 1)
    for threads in (1, 2):
        tm, _ = timeit(lambda threads=threads: planet.map(45, 30, nx, ny, threads=threads), r)
        print(f"planet map {nx} x {ny} (terra), threads={threads}: {tm * 1e3:8.2f} ms, "
              f"{nx * ny / tm / 1e6:7.2f} M points/s")
    tn, _ = timeit(lambda: numpy_planet_map(planet, 45, 30, nx, ny, step), r)
    tm1, _ = timeit(lambda: planet.map(45, 30, nx, ny, threads=1), r)
    print(f"  NumPy transcription (height and kinds, no features): {tn * 1e3:8.2f} ms; "
          f"relfterrain 1 thread (height, kinds and features) is x{tn / tm1:.1f} faster")
    issue_map(r)
    # repeated calls on a planet with a placed table: the table is built
    # once per change (place/remove), not per call
    placed = rt.Planet(10_000)
    g = np.random.default_rng(1)
    lat = np.degrees(np.arcsin(g.uniform(-1, 1, 10_000)))
    px, py, pz = placed.xyz(lat, g.uniform(-180, 180, 10_000))
    for k in range(10_000):
        placed.place(round(px[k]), round(py[k]), round(pz[k]), rt.TerrainType.ROAD)
    tp, _ = timeit(lambda: placed.terra(10.0, 20.0), 9 * r)
    tq, _ = timeit(lambda: planet.terra(10.0, 20.0), 9 * r)
    print(f"planet terra at one point, 10,000 placed entries: {tp * 1e6:.1f} us a call "
          f"(no entries: {tq * 1e6:.1f} us)")
    nb = rt.Nebula(450.0)
    n = 256
    for threads in (1, 2):
        tb, _ = timeit(lambda threads=threads: nb.grid(0, 0, 0, n, n, n, threads=threads), r)
        print(f"nebula {n}^3 density, threads={threads}: {tb * 1e3:8.1f} ms, "
              f"{n ** 3 / tb / 1e6:7.1f} M points/s")
    ta, _ = timeit(lambda: nb.amount(0, 0, 0, n, n, n, threads=2), r)
    print(f"nebula {n}^3 amount of gas, threads=2: {ta * 1e3:8.1f} ms")
    tnp, _ = timeit(lambda: numpy_nebula(nb, n), max(1, r // 2))
    tb1, _ = timeit(lambda: nb.grid(0, 0, 0, n, n, n, threads=1), r)
    print(f"  NumPy transcription: {tnp * 1e3:8.1f} ms; relfterrain 1 thread is "
          f"x{tnp / tb1:.1f} faster")
    if args.proportions:
        proportions()
    if args.count:
        here = os.path.dirname(os.path.abspath(__file__))
        subprocess.run([sys.executable, os.path.join(here, "count_points.py"), "planet"],
                       check=True)


if __name__ == "__main__":
    main()
