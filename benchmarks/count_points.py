#!/usr/bin/env python3
"""How often each point is computed in one call: counters in a scratch build.

    python benchmarks/count_points.py [streams sites mines planet]

Copies the sources into a temporary folder, adds counters to the core's
shared point functions (terrain.c: terra at one point, terra's height, the
point feature, the ground height, the height and terra grids; planet.c: terra
at one planet point), builds that copy (about 30 s) and runs each benchmark's
workload once in it, on one thread.  Every evaluation is counted with its
point, so a line reads

    computed per point: <kind> N evaluations of M distinct points (N/M)

and N/M = 1.000 means no point was computed twice in the call.  Grid calls
count every point of their blocks.  The repository's own build is not
touched; the counters exist only in the scratch copy.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

COUNTER_C = r"""
/* scratch build only: every evaluation of a point, and the distinct points */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#define KINDS 7
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long long calls[KINDS], used[KINDS], cap[KINDS];
typedef struct { double x, y; int used; } slot;
static slot *tab[KINDS];
static uint64_t hh(double x, double y) {
    uint64_t a, b; memcpy(&a, &x, 8); memcpy(&b, &y, 8);
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    return h ^ (h >> 29);
}
static void ins(int k, double x, double y) {
    if (used[k] * 2 >= cap[k]) {
        long long nc = cap[k] ? cap[k] * 2 : 1 << 16;
        slot *n = calloc((size_t)nc, sizeof *n);
        for (long long i = 0; i < cap[k]; i++)
            if (tab[k][i].used) {
                uint64_t h = hh(tab[k][i].x, tab[k][i].y) & (uint64_t)(nc - 1);
                while (n[h].used) h = (h + 1) & (uint64_t)(nc - 1);
                n[h] = tab[k][i];
            }
        free(tab[k]); tab[k] = n; cap[k] = nc;
    }
    uint64_t h = hh(x, y) & (uint64_t)(cap[k] - 1);
    while (tab[k][h].used) {
        if (tab[k][h].x == x && tab[k][h].y == y) return;
        h = (h + 1) & (uint64_t)(cap[k] - 1);
    }
    tab[k][h].x = x; tab[k][h].y = y; tab[k][h].used = 1; used[k]++;
}
void rt_count_point(int k, double x, double y) {
    pthread_mutex_lock(&mu); calls[k]++; ins(k, x, y); pthread_mutex_unlock(&mu);
}
void rt_count_reset(void) {
    pthread_mutex_lock(&mu);
    for (int k = 0; k < KINDS; k++) {
        calls[k] = used[k] = 0;
        if (tab[k]) memset(tab[k], 0, (size_t)cap[k] * sizeof(slot));
    }
    pthread_mutex_unlock(&mu);
}
long long rt_count_calls(int k) { return calls[k]; }
long long rt_count_distinct(int k) { return used[k]; }
"""

KINDS = ("terra at a point", "terra height", "point feature", "ground height",
         "height grid points", "terra grid points", "planet terra")

GRID = ("for (int64_t r = 0; r < b->ny; r++) for (int64_t c = 0; c < b->nx; c++) "
        "rt_count_point({k}, b->x0 + (double)(b->c0 + c) * b->step, "
        "b->y0 + (double)(b->r0 + r) * b->step);")
HOOKS = {
    "csrc/terrain.c": [
        ("void rt__terra_point(const rt_terrain *t, double x, double y, rt_terra_res *r)",
         "rt_count_point(0, x, y);"),
        ("double rt__terra_height(const rt_terrain *t, double x, double y)",
         "rt_count_point(1, x, y);"),
        ("uint8_t rt__point_feature(const rt_terrain *t, double xr, double yr)",
         "rt_count_point(2, xr, yr);"),
        ("double rt__height_point(const rt_terrain *t, double x, double y)",
         "rt_count_point(3, x, y);"),
        ("rt_status rt_height_grid(const rt_terrain *t, const rt_block *b, double *out, int threads)",
         "if (b) " + GRID.format(k=4)),
        ("rt_status rt_terra_grid(const rt_terrain *t, const rt_block *b, const rt_terra_out *out,",
         "if (b) " + GRID.format(k=5)),
    ],
    # a planet point by x and y + 2^30 z (distinct for every point of a sphere of radius <= 2^26)
    "csrc/planet.c": [("static void terra_xyz(const rt_planet *p, double x, double y, double z,",
                       "rt_count_point(6, x, y + 1073741824.0 * z);")],
}


def build(dst: str) -> None:
    for item in ("csrc", "relfterrain", "setup.py", "pyproject.toml"):
        src = os.path.join(ROOT, item)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(dst, item), ignore=shutil.ignore_patterns(
                "build*", "*.so", "__pycache__", "*.o"))
        else:
            shutil.copy(src, dst)
    with open(os.path.join(dst, "csrc", "count_points.c"), "w") as fh:
        fh.write(COUNTER_C)
    for path, hooks in HOOKS.items():
        full = os.path.join(dst, path)
        with open(full) as fh:
            s = fh.read()
        s = "void rt_count_point(int k, double x, double y);\n" + s
        for signature, stmt in hooks:
            i = s.index(signature)
            j = s.index("{", i) + 1
            s = s[:j] + "\n    " + stmt + s[j:]
        with open(full, "w") as fh:
            fh.write(s)
    r = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"], cwd=dst,
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit("count_points: the scratch build failed:\n" + r.stderr[-4000:])


WORKLOADS = {
    "streams": """
t = rt.Terrain(); x0, y0, nx, ny = rt.CLASSIC_MAP
run("Terrain.streams(*CLASSIC_MAP), 300 m margin", lambda: t.streams(x0, y0, nx, ny, threads=1))
run("Terrain.mark_streams(*CLASSIC_MAP)", lambda: t.mark_streams(x0, y0, nx, ny, threads=1))
""",
    "sites": """
t = rt.Terrain(); x0, y0, nx, ny = rt.CLASSIC_MAP
g = np.random.default_rng(2024)
xs = g.uniform(x0 - 150, x0 + nx + 150, 2000); ys = g.uniform(y0 - 150, y0 + ny + 150, 2000)
run("find_good_site(23450, 5450) (6 jumps, 35 candidates)", lambda: t.find_good_site(23450, 5450))
run("find_good_sites, the benchmark's 2000 starts, 1 thread",
    lambda: t.find_good_sites(xs, ys, threads=1))
""",
    "mines": """
m = rt.Mines(rt.Terrain())
run("Mines.open_above_grid(23392, 5312, 256, 256) (16.8 M points)",
    lambda: m.open_above_grid(23392, 5312, 256, 256, threads=1))
""",
    "planet": """
p = rt.Planet(10_000)
run("Planet(10_000).map(45, 30, 800, 600)", lambda: p.map(45, 30, 800, 600, threads=1))
""",
}

RUNNER = """
import ctypes, sys
import numpy as np
import relfterrain as rt
lib = ctypes.CDLL(rt._core.__file__)
lib.rt_count_calls.restype = lib.rt_count_distinct.restype = ctypes.c_longlong
KINDS = {kinds!r}
def run(label, fn):
    lib.rt_count_reset()
    fn()
    lines = []
    for k, kind in enumerate(KINDS):
        n, d = lib.rt_count_calls(k), lib.rt_count_distinct(k)
        if n:
            lines.append(f"  computed per point: {{kind}} {{n:,}} evaluations of {{d:,}} distinct "
                         f"points ({{n / d:.3f}})")
    print(label)
    print("\\n".join(lines) if lines else "  computed per point: no shared point function called")
"""


def main() -> None:
    which = sys.argv[1:] or list(WORKLOADS)
    for w in which:
        if w not in WORKLOADS:
            sys.exit(f"count_points: unknown workload {w!r}; known: {', '.join(WORKLOADS)}")
    with tempfile.TemporaryDirectory(prefix="relfterrain_count_") as dst:
        build(dst)
        code = RUNNER.format(kinds=KINDS) + "".join(WORKLOADS[w] for w in which)
        r = subprocess.run([sys.executable, "-c", code], cwd=dst, capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": dst})
        sys.stdout.write(r.stdout)
        if r.returncode:
            sys.exit(r.stderr[-4000:])


if __name__ == "__main__":
    main()
