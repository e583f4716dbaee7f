/*
 * test_classic.c - the classic fractal generators (seeds 001, 002) in the C
 * driver: the same uniforms give the same bits, the documented invariants
 * hold, bad input is refused with nothing written.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "relfterrain.h"

/* Uniforms in [0, 1) from a fixed 64-bit LCG: the same on every platform. */
static void uniforms(double *u, int64_t n, uint64_t seed)
{
    for (int64_t k = 0; k < n; k++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        u[k] = (double)(seed >> 11) * (1.0 / 9007199254740992.0);
    }
}

uint64_t test_classic(void)
{
    uint64_t fp = FNV_START;
    enum { IT = 7, N = (1 << IT) + 1 };
    double *u = malloc((size_t)N * N * sizeof *u), *a = malloc((size_t)N * N * sizeof *a);
    double *b = malloc((size_t)N * N * sizeof *b);
    uniforms(u, (int64_t)N * N, 42);

    /* midpoint displacement: ends 0, every value within the summed ranges */
    CHECK(rt_midpoint_displacement(IT, 10.0, 0.5, u, a, NULL) == RT_OK);
    CHECK(a[0] == 0.0 && a[N - 1] == 0.0);
    for (int k = 0; k < N; k++) CHECK(fabs(a[k]) <= 20.0);
    CHECK(rt_midpoint_displacement(IT, 10.0, 0.5, u, b, NULL) == RT_OK);
    CHECK(memcmp(a, b, N * sizeof *a) == 0);
    fp = fnv1a(fp, a, N * sizeof *a);

    /* diamond-square: with wrap, opposite edges are identical */
    for (int k = 0; k < N * N; k++) a[k] = NAN;
    CHECK(rt_diamond_square(IT, 8.0, 0.6, 1.0, 1, u, a, NULL) == RT_OK);
    for (int k = 0; k < N; k++) {
        CHECK(same_bits(a[k], a[(N - 1) * N + k]));
        CHECK(same_bits(a[k * N], a[k * N + N - 1]));
        CHECK(isfinite(a[k * N + k]));
    }
    fp = fnv1a(fp, a, (size_t)N * N * sizeof *a);
    /* seed values are kept */
    for (int k = 0; k < N * N; k++) b[k] = NAN;
    b[N / 2 * N + N / 2] = 123.25;
    CHECK(rt_diamond_square(IT, 8.0, 0.6, 1.0, 0, u, b, NULL) == RT_OK);
    CHECK(b[N / 2 * N + N / 2] == 123.25);
    fp = fnv1a(fp, b, (size_t)N * N * sizeof *b);

    /* clouds: clamped to [0, 1], in place */
    CHECK(rt_clouds(a, (int64_t)N * N, -1.0, 2.0, a) == RT_OK);
    for (int k = 0; k < N * N; k++) CHECK(a[k] >= 0.0 && a[k] <= 1.0);
    fp = fnv1a(fp, a, (size_t)N * N * sizeof *a);

    /* limited random: within [minimum, maximum] */
    CHECK(rt_limited_random(N, N - 1, 3.0, 0.0, 50.0, u, u + N, a, NULL) == RT_OK);
    for (int k = 0; k < N * (N - 1); k++) CHECK(a[k] >= 0.0 && a[k] <= 50.0);
    fp = fnv1a(fp, a, (size_t)N * (N - 1) * sizeof *a);

    /* circle hill: at least the base, at most the maximum */
    CHECK(rt_circle_hill(N, N, 40, 12.0, 5.0, 30.0, 1.0, u, a, NULL) == RT_OK);
    for (int k = 0; k < N * N; k++) CHECK(a[k] >= 1.0 && a[k] <= 30.0);
    fp = fnv1a(fp, a, (size_t)N * N * sizeof *a);

    /* the carried cosine */
    CHECK(rt_classic_cos(0.0) == 1.0 && isnan(rt_classic_cos(4.0)));
    for (int k = 0; k <= 350; k++) {
        double x = k * 0.01, c = rt_classic_cos(x);
        CHECK(fabs(c - cos(x)) <= 4.5e-16);
        fp = fnv1a(fp, &c, sizeof c);
    }

    /* bad input: nothing written */
    a[0] = -5.0;
    CHECK(rt_midpoint_displacement(RT_MAX_MIDPOINT_ITERATIONS + 1, 1.0, 0.5, u, a, NULL) == RT_ERR_PARAM);
    CHECK(rt_clouds(b, 4, 2.0, 1.0, a) == RT_ERR_PARAM);
    CHECK(rt_limited_random(0, 3, 1.0, 0.0, 1.0, u, u, a, NULL) == RT_ERR_SIZE);
    CHECK(rt_circle_hill(3, 3, 1, -1.0, 1.0, 1.0, 0.0, u, a, NULL) == RT_ERR_PARAM);
    CHECK(rt_diamond_square(IT, 1.0, 0.5, NAN, 0, u, a, NULL) == RT_ERR_PARAM);
    CHECK(a[0] == -5.0);
    free(u);
    free(a);
    free(b);
    return fp;
}
