/*
 * terra_grid_core.c - rt_terra_grid of the C core alone, no Python: the
 * fastest of the calls made in `seconds`, in nanoseconds a point, writing
 * the four outputs of `grid` (height, depth, terrain, feature) into fresh
 * malloc'd arrays reused from call to call, with the variant `SIMDV`
 * (relfterrain.h's rt_simd numbers; the best the CPU has by default).
 * Origin (23396, 5318) plus (OX, OY) from the environment (0 by default),
 * one thread.
 *
 *     cc -std=c11 -O3 -ffp-contract=off -fno-fast-math -fno-trapping-math -Icsrc \
 *         benchmarks/terra_grid_core.c $(ls csrc/ | grep '\.c$' | sed 's|^|csrc/|') \
 *         -lm -lpthread -o /tmp/tgc
 *     SIMDV=2 /tmp/tgc 2048 2048 0.37 1             # nx ny step seconds: AVX2
 *     SIMDV=2 OX=0.1 OY=0.3 /tmp/tgc 2048 2048 1 1  # step 1 from a non-dyadic origin
 *
 * Two builds (two source trees) run one after the other a few times give a
 * change's effect; under `perf record -e cpu-clock` (no hardware counters
 * needed) the share of each kernel (docs/performance/speed.md, "the
 * morning's runs (2026-11-29)").  Not a test: the values are not checked.
 */
#define _GNU_SOURCE
#include "relfterrain.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const int64_t nx = argc > 1 ? atoll(argv[1]) : 2048, ny = argc > 2 ? atoll(argv[2]) : 256;
    const double step = argc > 3 ? atof(argv[3]) : 0.37, secs = argc > 4 ? atof(argv[4]) : 1.0;
    const double ox = getenv("OX") ? atof(getenv("OX")) : 0.0;
    const double oy = getenv("OY") ? atof(getenv("OY")) : 0.0;
    if (nx < 1 || ny < 1 || !(step > 0.0)) {
        fprintf(stderr, "usage: %s nx ny step seconds\n", argv[0]);
        return 2;
    }
    rt_terrain t;
    rt_terrain_defaults(&t);
    if (getenv("SIMDV")) t.simd = atoi(getenv("SIMDV"));
    const rt_block b = {23396.0 + ox, 5318.0 + oy, step, 0, 0, nx, ny};
    const size_t n = (size_t)(nx * ny);
    double *h = malloc(n * sizeof(double)), *d = malloc(n * sizeof(double));
    uint8_t *te = malloc(n), *fe = malloc(n);
    if (!h || !d || !te || !fe) return 1;
    const rt_terra_out o = {h, d, te, fe, NULL};
    for (int k = 0; k < 2; k++)
        if (rt_terra_grid(&t, &b, &o, 1) != RT_OK) return 1;
    double best = 1e30;
    const double t0 = now();
    while (now() - t0 < secs) {
        const double a = now();
        rt_terra_grid(&t, &b, &o, 1);
        const double e = now() - a;
        if (e < best) best = e;
    }
    printf("%s %lldx%lld step %g origin +(%g, %g): %.3f ns a point\n", argv[0], (long long)nx,
           (long long)ny, step, ox, oy, best / (double)n * 1e9);
    free(h);
    free(d);
    free(te);
    free(fe);
    return 0;
}
