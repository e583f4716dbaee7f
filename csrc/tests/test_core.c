/*
 * test_core.c - the C core tested alone (no Python); the terrain here, the
 * other generators in test_<generator>.c: build with
 * `make -C csrc check` (-Wall -Wextra -Werror), `make -C csrc sanitize`
 * (ASan + UBSan) or `make -C csrc valgrind`.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "relfterrain.h"
#include "rt_tile.h"

int failures = 0;

static void test_js_numbers(void)
{
    CHECK(rt_round_js(2.5) == 3.0);
    CHECK(rt_round_js(-2.5) == -2.0);
    CHECK(rt_round_js(-0.5) == 0.0);
    CHECK(rt_round_js(0.49999999999999994) == 0.0); /* floor + compare, not +0.5 */
    CHECK(same_bits(rt_round_js(-0.0), -0.0));
    CHECK(rt_toint32(4294967296.0 + 5.0) == 5);
    CHECK(rt_toint32(2147483648.0) == INT32_MIN);
    CHECK(rt_toint32(-1.9) == -1);
    CHECK(rt_toint32(1e300) == 0); /* 1e300 is a multiple of 2^32 */
    CHECK(rt_toint32(NAN) == 0 && rt_toint32(INFINITY) == 0);
    CHECK(rt_toint32(-4294967297.0) == -1);
    CHECK(rt_toint32(9.5e18) == (int32_t)(uint32_t)(9500000000000000000ull % 4294967296ull));
}

/* rt_round_f32: round to nearest as C converts in range, +-inf from
 * FLT_MAX plus half an ulp on, over lengths that take every vector loop's
 * head, body and tail */
static void test_round_f32(void)
{
    enum { N = 77 };
    double src[N];
    float dst[N + 1];
    for (int k = 0; k < N; k++) src[k] = (k % 7 - 3) * 1.000000119 * (double)(1 << (k % 20)) + 0.1 * k;
    src[5] = 0x1.ffffffp127;
    src[6] = -0x1.ffffffp127;
    src[7] = 0x1.fffffefffffffp127; /* just below the tie: FLT_MAX */
    for (int off = 0; off < 2; off++)
        for (int n = 0; n <= N; n += 1 + n / 8) {
            rt_round_f32(dst + off, src, n);
            int bad = 0;
            for (int k = 0; k < n; k++) {
                const float want = k == 5   ? INFINITY
                                   : k == 6 ? -INFINITY
                                   : k == 7 ? FLT_MAX
                                            : (float)src[k];
                bad += memcmp(&dst[off + k], &want, 4) != 0;
            }
            CHECK(bad == 0);
        }
}

static void test_defaults(void)
{
    rt_terrain t;
    rt_terrain_defaults(&t);
    CHECK(rt_terrain_check(&t, NULL) == RT_OK);
    CHECK(t.profile_len == 256 && rt_classic_profile()[141] == 2.0 &&
          rt_classic_profile()[178] == 36.0);
    double x = 0, y = 0, h;
    CHECK(rt_height_points(&t, &x, &y, 1, &h, 1) == RT_OK && h == 385.0);
    t.profile_len = 100;
    CHECK(rt_terrain_check(&t, NULL) == RT_ERR_PROFILE_LENGTH);
    rt_terrain_defaults(&t);
    t.directions = 0;
    CHECK(rt_terrain_check(&t, NULL) == RT_ERR_VECTOR_LENGTH);
    rt_terrain_defaults(&t);
    int bad = -1;
    t.vec[RT_B3][2] = RT_MAX_VECTOR + 1;
    CHECK(rt_terrain_check(&t, &bad) == RT_ERR_VECTOR_VALUE && bad == RT_B3);
}

/* The block path and the point path agree bit for bit, for every thread count. */
static void compare_paths(const rt_terrain *t, double x0, double y0, double step, int64_t nx,
                          int64_t ny)
{
    int64_t n = nx * ny;
    double *h = malloc(n * sizeof *h), *d = malloc(n * sizeof *d), *hg = malloc(n * sizeof *hg);
    double *ph = malloc(n * sizeof *ph), *pd = malloc(n * sizeof *pd), *hp = malloc(n * sizeof *hp);
    double *xs = malloc(n * sizeof *xs), *ys = malloc(n * sizeof *ys);
    uint8_t *te = malloc(n), *fe = malloc(n), *pt = malloc(n), *pf = malloc(n);
    /* terra's ground output (rt_terra_out.ground): the height grid's bits */
    double *g = malloc(n * sizeof *g), *pg = malloc(n * sizeof *pg);
    for (int64_t r = 0; r < ny; r++)
        for (int64_t c = 0; c < nx; c++) {
            xs[r * nx + c] = x0 + (double)c * step;
            ys[r * nx + c] = y0 + (double)r * step;
        }
    rt_terra_out pts = {ph, pd, pt, pf, pg};
    CHECK(rt_terra_points(t, xs, ys, n, &pts, 1) == RT_OK);
    CHECK(rt_height_points(t, xs, ys, n, hp, 1) == RT_OK);
    for (int run = 0; run < 3 * RT_SIMD_COUNT; run++) {
        int threads = 1 + run % 3, simd = run / 3;
        if (!rt_simd_supported(simd)) continue;
        rt_terrain tv = *t;
        tv.simd = simd;
        rt_block b = {x0, y0, step, 0, 0, nx, ny};
        rt_terra_out o = {h, d, te, fe, run % 2 ? g : NULL};
        for (int64_t k = 0; k < n; k++) g[k] = NAN;
        CHECK(rt_terra_grid(&tv, &b, &o, threads) == RT_OK);
        CHECK(rt_height_grid(&tv, &b, hg, threads) == RT_OK);
        int bad = 0;
        for (int64_t k = 0; k < n; k++)
            bad += !same_bits(h[k], ph[k]) || !same_bits(d[k], pd[k]) || te[k] != pt[k] ||
                   fe[k] != pf[k] || !same_bits(hg[k], hp[k]) || !same_bits(pg[k], hp[k]) ||
                   (run % 2 && !same_bits(g[k], hp[k]));
        if (bad)
            fprintf(stderr, "  %d points differ at x0=%g y0=%g step=%g threads=%d simd=%s\n", bad,
                    x0, y0, step, threads, rt_simd_name(simd));
        CHECK(bad == 0);
        /* float32 grids (rt_height_grid_f32, rt_terra_grid_f32): the
         * points' doubles converted by C (every height here is far inside
         * float's range), the bytes the same */
        float *h32 = malloc(n * sizeof *h32), *d32 = malloc(n * sizeof *d32);
        float *g32 = malloc(n * sizeof *g32), *hg32 = malloc(n * sizeof *hg32);
        rt_terra_out32 o32 = {h32, d32, te, fe, run % 2 ? g32 : NULL};
        memset(te, 0xee, (size_t)n);
        CHECK(rt_terra_grid_f32(&tv, &b, &o32, threads) == RT_OK);
        CHECK(rt_height_grid_f32(&tv, &b, hg32, threads) == RT_OK);
        bad = 0;
        for (int64_t k = 0; k < n; k++) {
            const float wh = (float)ph[k], wd = (float)pd[k], wg = (float)hp[k];
            bad += memcmp(&h32[k], &wh, 4) != 0 || memcmp(&d32[k], &wd, 4) != 0 ||
                   memcmp(&hg32[k], &wg, 4) != 0 || (run % 2 && memcmp(&g32[k], &wg, 4) != 0) ||
                   te[k] != pt[k] || fe[k] != pf[k];
        }
        if (bad)
            fprintf(stderr, "  %d float32 points differ at x0=%g y0=%g step=%g threads=%d simd=%s\n",
                    bad, x0, y0, step, threads, rt_simd_name(simd));
        CHECK(bad == 0);
        free(h32);
        free(d32);
        free(g32);
        free(hg32);
        /* the features alone (feature_grid.c serves them on the AVX-512
         * variants at step 1 from integer origins): the same bytes */
        rt_terra_out fo = {NULL, NULL, NULL, fe, NULL};
        memset(fe, 0xee, (size_t)n);
        CHECK(rt_terra_grid(&tv, &b, &fo, threads) == RT_OK);
        bad = 0;
        for (int64_t k = 0; k < n; k++) bad += fe[k] != pf[k];
        CHECK(bad == 0);
    }
    /* a block of the grid equals the same part of the whole, every variant */
    for (int simd = 0; simd < RT_SIMD_COUNT; simd++) {
        if (!rt_simd_supported(simd)) continue;
        rt_terrain tv = *t;
        tv.simd = simd;
        rt_block part = {x0, y0, step, nx / 3, ny / 2, nx - nx / 3, ny - ny / 2};
        rt_terra_out o = {h, d, te, fe, g};
        CHECK(rt_terra_grid(&tv, &part, &o, 2) == RT_OK);
        CHECK(rt_height_grid(&tv, &part, hg, 2) == RT_OK);
        int bad = 0;
        for (int64_t r = 0; r < part.ny; r++)
            for (int64_t c = 0; c < part.nx; c++) {
                int64_t k = r * part.nx + c, K = (r + part.r0) * nx + c + part.c0;
                bad += !same_bits(h[k], ph[K]) || te[k] != pt[K] || fe[k] != pf[K] ||
                       !same_bits(hg[k], hp[K]) || !same_bits(g[k], hp[K]);
            }
        CHECK(bad == 0);
        rt_terra_out fo = {NULL, NULL, NULL, fe, NULL};
        memset(fe, 0xee, (size_t)n);
        CHECK(rt_terra_grid(&tv, &part, &fo, 2) == RT_OK);
        bad = 0;
        for (int64_t r = 0; r < part.ny; r++)
            for (int64_t c = 0; c < part.nx; c++)
                bad += fe[r * part.nx + c] != pf[(r + part.r0) * nx + c + part.c0];
        CHECK(bad == 0);
    }
    free(h), free(d), free(hg), free(ph), free(pd), free(hp), free(xs), free(ys);
    free(te), free(fe), free(pt), free(pf), free(g), free(pg);
}

static void test_paths(void)
{
    rt_terrain t;
    rt_terrain_defaults(&t);
    compare_paths(&t, 23396, 5318, 1.0, 200, 150);
    compare_paths(&t, -1234.5, -777.25, 0.25, 64, 48);
    compare_paths(&t, 67108864.0 - 40, -67108864.0, 1.0, 40, 30); /* the domain's edge */
    compare_paths(&t, 23396.3, 5318.1, 0.3, 50, 40);              /* point path only */
    compare_paths(&t, 1e12, -3e15, 7.0, 20, 10);                  /* beyond the domain */
    /* the point-path rows of every variant (non-dyadic steps), odd widths */
    compare_paths(&t, 23396.0, 5318.0, 0.37, 203, 41);
    compare_paths(&t, 23396.0, 5318.0, 1.0 / 3.0, 131, 37);
    compare_paths(&t, -8000.7, 123.3, 2.9, 67, 13); /* |A|*step > 128: gathers */
    compare_paths(&t, 60000000.3, -67000000.1, 0.37, 45, 9); /* large |j| */
    /* windows too wide for a vpermd (|dv| > 2^s): the gather fallback */
    compare_paths(&t, 23396, 5318, 4.0, 77, 21);
    compare_paths(&t, -4000, 5318, 2.0, 129, 17);
    t.with_paths = 1;
    t.lake_height = 215;
    t.mountains = 1;
    t.mountain_base = 300;
    t.snow = 1;
    t.snow_height = 420;
    compare_paths(&t, 23396, 5318, 0.5, 120, 90);
    {
        /* every threshold a parameter: the tile passes follow them exactly,
         * fractional thresholds included */
        rt_terrain v;
        rt_terrain_defaults(&v);
        v.town_below = 150.5;
        v.grass_below = 240.0;
        v.open_below = 270.25;
        v.thicket_below = 180.0;
        v.mine_below = 64;
        v.x_below = 32;
        v.cone_below = 24;
        compare_paths(&v, 23396, 5318, 1.0, 160, 120);
        v.with_paths = 1;
        v.path_dx = -3000.0;
        v.path_dy = 1234.0;
        v.path_tolerance = 3.5;
        compare_paths(&v, 23396, 5318, 0.5, 100, 80);
        v.path_dx = 4000.5; /* not whole metres: the point path serves it */
        compare_paths(&v, 23396, 5318, 1.0, 60, 40);
        v.town_below = NAN;
        CHECK(rt_terrain_check(&v, NULL) == RT_ERR_PARAM);
    }
    {
        static double prof64[64], prof_frac[128];
        rt_terrain u;
        rt_terrain_defaults(&u);
        for (int k = 0; k < 64; k++) prof64[k] = (double)((k * 37) % 91) - 30.0;
        u.profile = prof64;
        u.profile_len = 64;
        u.directions = 3;
        u.lake_height = u.lake_base = -20.0;
        compare_paths(&u, -500.0, 321.0, 1.0, 70, 50);
        compare_paths(&u, -500.0, 321.0, 0.0625, 70, 50);
        {
            /* Pieces of Eight's rules (SPEC 16): the town test on |calcProf(A1)|,
             * on a profile with negative values, and its other thresholds */
            rt_terrain w = u;
            w.town_abs = 1;
            w.town_below = 10.0;
            w.grass_below = w.open_below = 20.0;
            w.thicket_below = -50.0;
            w.mine_below = 64;
            w.x_below = 32;
            w.cone_below = 24;
            compare_paths(&w, -500.0, 321.0, 1.0, 130, 50);
            compare_paths(&w, -500.0, 321.0, 0.25, 70, 50);
            w.town_below = 9.5; /* fractional: ceil in the tile pass */
            compare_paths(&w, 700.0, -321.0, 1.0, 70, 50);
        }
        for (int k = 0; k < 128; k++) prof_frac[k] = (double)((k * 29) % 83) / 8.0;
        u.profile = prof_frac; /* not integers: no tile passes */
        u.profile_len = 128;
        compare_paths(&u, 1000.0, -2000.0, 0.5, 70, 50);
        compare_paths(&u, 1000.0, -2000.0, 0.37, 70, 20);
        /* integers beyond int16 (no windows), long and short profiles */
        static double big[64], p1024[1024], p4[4];
        for (int k = 0; k < 64; k++) big[k] = (double)((k * 7919) % 60001) - 30000.0;
        u.profile = big;
        u.profile_len = 64;
        compare_paths(&u, 1000.0, -2000.0, 1.0, 70, 20);
        compare_paths(&u, 1000.0, -2000.0, 0.37, 70, 20);
        for (int k = 0; k < 1024; k++) p1024[k] = (double)((k * 131) % 255);
        u.profile = p1024;
        u.profile_len = 1024;
        compare_paths(&u, 1000.0, -2000.0, 0.5, 90, 20);
        compare_paths(&u, 1000.0, -2000.0, 1.0 / 3.0, 90, 20);
        for (int k = 0; k < 4; k++) p4[k] = (double)(k * 50);
        u.profile = p4;
        u.profile_len = 4;
        compare_paths(&u, 1000.0, -2000.0, 0.25, 90, 20);
        compare_paths(&u, 1000.0, -2000.0, 0.37, 90, 20);
    }
    {
        /* the rounding of the integer feature value, (N + 64) >> 7: a mask of
         * one bit and a point code of 1 make every N = 64 (mod 128) on dry
         * ground decide between a point feature and none */
        rt_terrain f;
        rt_terrain_defaults(&f);
        f.feature_mask = 1;
        f.feature_point = 1;
        f.feature_x = f.feature_cone = 2; /* never the value */
        compare_paths(&f, 23396, 5318, 1.0, 203, 24);
        compare_paths(&f, -777, 64, 1.0, 150, 3); /* yr = 64: N = 64 (mod 128) for odd fa*xr */
    }
    rt_placed *p = rt_placed_new();
    CHECK(p != NULL);
    for (int k = 0; k < 200; k++)
        CHECK(rt_placed_set(p, 23396 + k % 37, 5318 + k % 23,
                            k % 2 ? RT_PLACED_TERRAIN(RT_ROAD) : RT_PLACED_FEATURE(RT_CONE)) ==
              RT_OK);
    t.placed = p;
    compare_paths(&t, 23396, 5318, 1.0, 60, 40);
    rt_placed_free(p);
}

static void test_classic_map(void)
{
    rt_terrain t;
    rt_terrain_defaults(&t);
    int64_t nx = 800, ny = 600, n = nx * ny;
    uint8_t *fe = malloc(n);
    rt_block b = {23396, 5318, 1.0, 0, 0, nx, ny};
    rt_terra_out o = {NULL, NULL, NULL, fe};
    CHECK(rt_terra_grid(&t, &b, &o, 2) == RT_OK);
    int64_t features = 0;
    for (int64_t k = 0; k < n; k++) features += fe[k] != RT_NONE;
    CHECK(features == 90); /* SPEC 5: about 90 with the 0xfff mask */
    free(fe);
}

static void test_placed(void)
{
    rt_placed *p = rt_placed_new();
    CHECK(rt_placed_count(p) == 0 && rt_placed_get(p, 1, 2) == 0);
    CHECK(rt_placed_set(p, 1, 2, 0x3F) == RT_ERR_PLACED_VALUE);
    CHECK(rt_placed_set(p, 1, 2, RT_PLACED_TERRAIN(RT_TERRAIN_TYPE_COUNT)) == RT_ERR_PLACED_VALUE);
    for (int64_t k = 0; k < 10000; k++)
        CHECK(rt_placed_set(p, k, -k, RT_PLACED_FEATURE(RT_CONE)) == RT_OK);
    CHECK(rt_placed_count(p) == 10000);
    CHECK(rt_placed_get(p, 5000, -5000) == RT_PLACED_FEATURE(RT_CONE));
    CHECK(rt_placed_remove(p, 5000, -5000) == 1 && rt_placed_remove(p, 5000, -5000) == 0);
    CHECK(rt_placed_get(p, 5000, -5000) == 0);
    CHECK(rt_placed_set(p, INT64_MIN, INT64_MAX, RT_PLACED_TERRAIN(RT_ROAD)) == RT_OK);
    rt_placed *q = rt_placed_clone(p);
    CHECK(rt_placed_remove_all(p, RT_PLACED_FEATURE(RT_CONE)) == 9999);
    CHECK(rt_placed_count(p) == 1 && rt_placed_count(q) == 10000);
    CHECK(rt_placed_get(q, INT64_MIN, INT64_MAX) == RT_PLACED_TERRAIN(RT_ROAD));
    int64_t xs[2], ys[2];
    uint8_t vs[2];
    CHECK(rt_placed_items(p, xs, ys, vs, 2) == 1 && xs[0] == INT64_MIN);
    rt_placed_free(p);
    rt_placed_free(q);
}

static void test_errors(void)
{
    rt_terrain t;
    rt_terrain_defaults(&t);
    double out[4] = {-1, -1, -1, -1};
    rt_block b = {0, 0, 1.0, 0, 0, 2, 2};
    b.step = 0;
    CHECK(rt_height_grid(&t, &b, out, 1) == RT_ERR_COORD);
    b.step = NAN;
    CHECK(rt_height_grid(&t, &b, out, 1) == RT_ERR_COORD);
    b.step = 1e308;
    b.x0 = 1e308; /* the last point overflows */
    CHECK(rt_height_grid(&t, &b, out, 1) == RT_ERR_COORD);
    b = (rt_block){0, 0, 1.0, 0, 0, 0, 2};
    CHECK(rt_height_grid(&t, &b, out, 1) == RT_ERR_SIZE);
    b = (rt_block){0, 0, 1.0, 0, 0, INT64_MAX, INT64_MAX};
    CHECK(rt_height_grid(&t, &b, out, 1) == RT_ERR_SIZE);
    double xs[2] = {0, NAN}, ys[2] = {0, 0};
    CHECK(rt_height_points(&t, xs, ys, 2, out, 1) == RT_ERR_COORD);
    CHECK(out[0] == -1 && out[1] == -1 && out[2] == -1 && out[3] == -1); /* untouched */
    CHECK(rt_strerror(RT_ERR_SIZE)[0] != 0);
}

/* Print a fingerprint of terra on a few blocks: `make cross-aarch64` checks
 * that another platform prints the same line. */
static void print_fingerprint(void)
{
    static const rt_block blocks[3] = {
        {23396, 5318, 1.0, 0, 0, 800, 600},
        {-1234.5, -777.25, 0.25, 0, 0, 300, 200},
        {1e12, -3e15, 7.0, 0, 0, 64, 32}, /* beyond the domain: still defined */
    };
    rt_terrain t;
    rt_terrain_defaults(&t);
    uint64_t h = FNV_START;
    for (int k = 0; k < 3; k++) {
        int64_t n = blocks[k].nx * blocks[k].ny;
        double *hh = malloc(n * sizeof *hh), *dd = malloc(n * sizeof *dd);
        uint8_t *te = malloc(n), *fe = malloc(n);
        rt_terra_out o = {hh, dd, te, fe};
        CHECK(rt_terra_grid(&t, &blocks[k], &o, 2) == RT_OK);
        h = fnv1a(h, hh, n * sizeof *hh);
        h = fnv1a(h, dd, n * sizeof *dd);
        h = fnv1a(h, te, n);
        h = fnv1a(h, fe, n);
        free(hh), free(dd), free(te), free(fe);
    }
    printf("fingerprint %016llx\n", (unsigned long long)h);
}

/* ------------------------------------------------------------------------ */
/* fdlibm sin and cos: known bits (from node's Math.sin/Math.cos) and a       */
/* fingerprint of many values, equal to the one tests/fdlibm_reference.py    */
/* computes (so every platform, qemu-aarch64 included, checks ~90,000 bits). */
/* ------------------------------------------------------------------------ */

static double f64_of(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static uint64_t bits_of(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* FNV-1a over the 8 bytes of u, least significant first (endian-free). */
static uint64_t fnv1a_u64(uint64_t h, uint64_t u)
{
    for (int b = 0; b < 8; b++) h = (h ^ ((u >> (8 * b)) & 0xff)) * 0x100000001b3u;
    return h;
}

/* The inputs of the fdlibm fingerprint: k = 0 .. RT_FD_N-1.  A third are
 * random bit patterns (every exponent, NaNs and infinities too), a third
 * multiples of 16 up to 2^26 (mine cells), a third random magnitudes
 * m * 2^e, -30 <= e < 1000. */
#define RT_FD_N 90000
static double fdlibm_input(int k, uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    uint64_t r = *state;
    switch (k % 3) {
    case 0: return f64_of(r);
    case 1: return (double)((int64_t)(r >> 41) - (1 << 22)) * 16.0; /* |x| <= 2^26 */
    default: {
        int e = (int)((r >> 54) % 1030) - 30;
        double m = (double)(r >> 11) * 0x1p-53 + 1.0; /* [1, 2) */
        return (r & 1 ? -m : m) * ldexp(1.0, e);
    }
    }
}

static uint64_t fdlibm_hash(void)
{
    uint64_t h = 0xcbf29ce484222325u, state = 12345;
    for (int k = 0; k < RT_FD_N; k++) {
        double x = fdlibm_input(k, &state);
        h = fnv1a_u64(h, bits_of(rt_sin(x)));
        h = fnv1a_u64(h, bits_of(rt_cos(x)));
    }
    return h;
}

static void test_fdlibm(void)
{
    static const struct {
        uint64_t x, s, c;
    } known[] = {
        /* node 20 (V8 11.3): Math.sin(x), Math.cos(x) */
        {0x0000000000000000u, 0x0000000000000000u, 0x3ff0000000000000u}, /* +0 */
        {0x8000000000000000u, 0x8000000000000000u, 0x3ff0000000000000u}, /* -0 */
        {0x0000000000000001u, 0x0000000000000001u, 0x3ff0000000000000u}, /* 5e-324 */
        {0x3fe0c152382d7365u, 0x3fdfffffffffffffu, 0x3febb67ae8584cabu}, /* pi/6 */
        {0x400921fb54442d18u, 0x3ca1a62633145c07u, 0xbff0000000000000u}, /* pi */
        {0x4480f0cf064dd592u, 0xbfeb453ab76bf397u, 0x3fe0be2cef01c8f4u}, /* 1e22 */
        {0xc480f0cf064dd592u, 0x3feb453ab76bf397u, 0x3fe0be2cef01c8f4u}, /* -1e22 */
        {0x7e37e43c8800759cu, 0xbfea2c16b010e385u, 0xbfe2699022adc4c1u}, /* 1e300 */
        {0x7fefffffffffffffu, 0x3f7452fc98b34e97u, 0xbfefffe62ecfab75u}, /* DBL_MAX */
        {0x4190000000000000u, 0x3fdaedbaec15d29du, 0xbfed078da7f267e0u}, /* 2^26 */
        {0x418fffff80000000u, 0xbfe5407debcce7ceu, 0x3fe7ec889b951ac1u}, /* 2^26 - 16 */
        {0x412921fc00000000u, 0x3fd51102efad6266u, 0x3fee377c09c4cce7u}, /* 823550 */
        {0x413921fc00000000u, 0x3fe3e479a61836ebu, 0x3fe910d18d26c0d4u}, /* 1647100 */
    };
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
        double x = f64_of(known[k].x);
        if (bits_of(rt_sin(x)) != known[k].s || bits_of(rt_cos(x)) != known[k].c)
            fprintf(stderr, "  fdlibm: x = %a: sin %a cos %a\n", x, rt_sin(x), rt_cos(x));
        CHECK(bits_of(rt_sin(x)) == known[k].s);
        CHECK(bits_of(rt_cos(x)) == known[k].c);
    }
    /* non-finite: the canonical quiet NaN */
    const double nonfinite[3] = {NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 3; k++) {
        CHECK(bits_of(rt_sin(nonfinite[k])) == 0x7ff8000000000000u);
        CHECK(bits_of(rt_cos(nonfinite[k])) == 0x7ff8000000000000u);
    }
    /* odd and even, and |sin|, |cos| <= 1 on a sweep */
    uint64_t state = 99;
    for (int k = 0; k < 20000; k++) {
        double x = fdlibm_input(k, &state);
        if (!isfinite(x)) continue;
        double s = rt_sin(x), c = rt_cos(x);
        CHECK(same_bits(rt_sin(-x), -s) && same_bits(rt_cos(-x), c));
        CHECK(fabs(s) <= 1.0 && fabs(c) <= 1.0);
    }
    /* the same fingerprint as tests/fdlibm_reference.py computes */
    CHECK(fdlibm_hash() == 0xea71c7d390bac59cu);
}

/* `make cross-aarch64` compares this line too. */
static void print_fdlibm_fingerprint(void)
{
    printf("fingerprint fdlibm %016llx\n", (unsigned long long)fdlibm_hash());
}

/* rt__point_fma_min: where the AVX2 and AVX-512 height rows may fuse p0 + jfrac*d */
static void test_point_fma_min(void)
{
    /* the classic profile's differences have at most 3 significant bits
     * (5 and 7): |j| >= 4 */
    CHECK(rt__point_fma_min(rt_classic_profile(), RT_CLASSIC_PROFILE_LEN) == 4.0);
    const double flat[4] = {7.0, 7.0, 7.0, 7.0}; /* every d is 0 */
    CHECK(rt__point_fma_min(flat, 4) == 0.5);
    const double eighths[2] = {0.125, 1.0}; /* d = +-0.875: 3 bits */
    CHECK(rt__point_fma_min(eighths, 2) == 4.0);
    const double wide[2] = {-524291.0, 524290.0}; /* d = +-1048581: 21 bits */
    CHECK(rt__point_fma_min(wide, 2) == 1048576.0);
    const double b30[2] = {0.0, 1073741823.0}, b31[2] = {0.0, 2147483647.0}; /* 30, 31 bits */
    CHECK(rt__point_fma_min(b30, 2) == 536870912.0);
    CHECK(rt__point_fma_min(b31, 2) == 0.0);
    const double third[2] = {0.0, 1.0 / 3.0}; /* 53 bits */
    CHECK(rt__point_fma_min(third, 2) == 0.0);
    const double tiny[2] = {0.0, 0x1p-901}, inf[2] = {-1.7e308, 1.7e308};
    CHECK(rt__point_fma_min(tiny, 2) == 0.0);
    CHECK(rt__point_fma_min(inf, 2) == 0.0); /* d overflows */
}

/* The tile kernels' profile sums at rounded points (prof_at), every
 * variant the CPU has, against the sums written out here: index
 * floor((A*xr + B*yr) / 128) of the classic profile, three directions.  xr
 * as the point tiles make it at steps 0.37 and 0.5 (each value over two or
 * three columns: the sums made once a value and spread), at step 1, and a
 * nondecreasing xr with a jump of 300 inside one chunk of 256 columns
 * (between two groups of eight and of sixteen),
 * which no uniform step makes (the spread's buffers would not hold that
 * chunk's values: those columns by the plain loop). */
static void test_prof_at_kernels(void)
{
    enum { NK = 2048, LEN = RT_CLASSIC_PROFILE_LEN };
    static int32_t iprof[LEN], win[RT_WIN_ROWS * 8], win8[RT_WIN16_ROWS * 8], win16[RT_WIN16_ROWS * 16];
    static uint32_t xr[NK + 16];
    static int32_t out[NK + 16];
    const double *P = rt_classic_profile();
    for (int e = 0; e < LEN; e++) iprof[e] = (int32_t)P[e];
    const int wm = rt__tile_windows(iprof, LEN, win), pm = rt__point_win8(iprof, LEN, win8);
    const int w16 = rt__point_win16(iprof, LEN, win16);
    CHECK(wm > 0 && pm > 0 && w16 > 0);
    const int32_t A[3] = {-43, 31, 4}, B[3] = {-3, 2, 32};
    const int64_t yr = 5318;
    for (int shape = 0; shape < 4; shape++) {
        for (int c = 0; c < NK + 16; c++) {
            const double x = 23396.0 + (double)c * (shape == 0 ? 0.37 : shape == 1 ? 0.5 : 1.0);
            int64_t v = (int64_t)rt_round_js(x);
            if (shape == 3) v = c < 240 ? 23396 : c < 256 ? 23696 + (c - 240) : 23711 + (c - 256) / 8;
            xr[c] = (uint32_t)v;
        }
        for (int variant = RT_SIMD_SCALAR; variant < RT_SIMD_COUNT; variant++) {
            if (!rt_simd_supported(variant)) continue;
            const rt_tile_kernels *k = rt__tile_kernels(variant, 0);
            rt_tile_args ta;
            memset(&ta, 0, sizeof ta);
            ta.profile = iprof;
            ta.mask = LEN - 1;
            ta.shift = 7;
            ta.n = 3;
            ta.nk = NK;
            for (int i = 0; i < 3; i++) {
                ta.dv[i] = (uint32_t)A[i];
                ta.v0[i] = (uint32_t)(B[i] * yr);
            }
            ta.win = win;
            ta.win_mask = (uint32_t)wm;
            ta.winp = win8;
            ta.winp_mask = (uint32_t)pm;
            ta.win16 = win16;
            ta.win16_mask = (uint32_t)w16;
            k->prof_at(&ta, xr, out);
            int bad = 0;
            for (int c = 0; c < NK; c++) {
                int32_t want = 0;
                for (int i = 0; i < 3; i++) {
                    const int64_t v = (int64_t)A[i] * (int64_t)(int32_t)xr[c] + (int64_t)B[i] * yr;
                    const int64_t q = v >= 0 ? v / 128 : -((-v + 127) / 128); /* floor */
                    want += iprof[(uint64_t)q & (LEN - 1)];
                }
                bad += out[c] != want;
            }
            CHECK(bad == 0);
            if (bad) fprintf(stderr, "  prof_at: %s, xr shape %d: %d columns differ\n",
                             rt_simd_name(variant), shape, bad);
        }
    }
}

int main(void)
{
    test_js_numbers();
    test_round_f32();
    test_point_fma_min();
    test_prof_at_kernels();
    test_defaults();
    test_placed();
    test_errors();
    test_paths();
    test_classic_map();
    test_fdlibm();
    test_contours();
    test_images();
    /* every generator: one fingerprint line each, compared across platforms */
    uint64_t galaxy = test_galaxy();
    uint64_t classic = test_classic();
    uint64_t streams = test_streams();
    uint64_t roads = test_roads();
    uint64_t sites = test_sites();
    uint64_t mines = test_mines();
    uint64_t space = test_space();
    uint64_t interrupt = test_interrupt();
    if (failures) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    print_fingerprint();
    print_fdlibm_fingerprint();
    printf("fingerprint galaxy %016llx\n", (unsigned long long)galaxy);
    printf("fingerprint classic %016llx\n", (unsigned long long)classic);
    printf("fingerprint streams %016llx\n", (unsigned long long)streams);
    printf("fingerprint roads %016llx\n", (unsigned long long)roads);
    printf("fingerprint sites %016llx\n", (unsigned long long)sites);
    printf("fingerprint mines %016llx\n", (unsigned long long)mines);
    printf("fingerprint space %016llx\n", (unsigned long long)space);
    printf("fingerprint interrupt %016llx\n", (unsigned long long)interrupt);
    printf("test_core: all checks passed\n");
    return 0;
}
