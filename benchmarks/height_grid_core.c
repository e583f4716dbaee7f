/*
 * height_grid_core.c - rt_height_grid of the C core alone, no Python: the
 * fastest of the calls made in `seconds`, in nanoseconds a point, into an
 * output that starts `OFF` doubles past a 2 MiB boundary (2, as NumPy's
 * large arrays, 16 bytes past a line: the default), on huge pages where
 * `HUGE` is set (NumPy asks for them for its large arrays), with the
 * variant `SIMDV` (relfterrain.h's rt_simd numbers; the best the CPU has
 * by default).  Origin (23396, 5318) plus (OX, OY) from the environment (0
 * by default), one thread.
 *
 *     cc -std=c11 -O3 -ffp-contract=off -fno-fast-math -fno-trapping-math -Icsrc \
 *         benchmarks/height_grid_core.c $(ls csrc/ | grep '\.c$' | sed 's|^|csrc/|') \
 *         -lm -lpthread -o /tmp/hgc
 *     HUGE=1 /tmp/hgc 2048 2048 0.37 2      # nx ny step seconds
 *     OFF=0 /tmp/hgc 2048 64 0.37 1         # the rows' loop in the L2 cache
 *     OX=0.1 OY=0.3 /tmp/hgc 2048 2048 8 1  # step 8 from a non-dyadic origin
 *
 * Two builds (two source trees) run one after the other a few times give a
 * change's effect with less of the Python harness's noise
 * (docs/performance/speed.md, "the small hours' runs (2026-11-29)").
 * Not a test: the values are not checked, only the time.
 */
#define _GNU_SOURCE
#include "relfterrain.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const int64_t nx = argc > 1 ? atoll(argv[1]) : 2048, ny = argc > 2 ? atoll(argv[2]) : 64;
    const double step = argc > 3 ? atof(argv[3]) : 0.37, secs = argc > 4 ? atof(argv[4]) : 1.0;
    const int off = getenv("OFF") ? atoi(getenv("OFF")) : 2;
    if (nx < 1 || ny < 1 || !(step > 0.0) || off < 0 || off > 4096) {
        fprintf(stderr, "usage: %s nx ny step seconds (OFF 0..4096)\n", argv[0]);
        return 2;
    }
    rt_terrain t;
    rt_terrain_defaults(&t);
    if (getenv("SIMDV")) t.simd = atoi(getenv("SIMDV"));
    const double ox = getenv("OX") ? atof(getenv("OX")) : 0.0;
    const double oy = getenv("OY") ? atof(getenv("OY")) : 0.0;
    const rt_block b = {23396.0 + ox, 5318.0 + oy, step, 0, 0, nx, ny};
    const size_t huge = (size_t)2 << 20;
    const size_t bytes = ((size_t)(nx * ny + off) * sizeof(double) + huge - 1) & ~(huge - 1);
    double *raw = aligned_alloc(huge, bytes);
    if (!raw) return 1;
    if (getenv("HUGE")) madvise(raw, bytes, MADV_HUGEPAGE);
    double *out = raw + off;
    for (int k = 0; k < 3; k++)
        if (rt_height_grid(&t, &b, out, 1) != RT_OK) return 1;
    double best = 1e30;
    const double t0 = now();
    while (now() - t0 < secs) {
        const double a = now();
        rt_height_grid(&t, &b, out, 1);
        const double d = now() - a;
        if (d < best) best = d;
    }
    printf("%s %lldx%lld step %g: %.3f ns a point\n", argv[0], (long long)nx, (long long)ny, step,
           best / (double)(nx * ny) * 1e9);
    free(raw);
    return 0;
}
