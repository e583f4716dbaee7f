/*
 * test_contours.c - the contour kernel's variants (contours.c: portable C,
 * AVX2, the AVX-512 rows) against the portable one: the same pixels, the
 * same status and the same crossing count, on grids that take every path
 * (many crossed cells, edges crossing 2+ levels, bands beyond 2^30, widths
 * around 8 and 16, one row, two columns), with and without the limit; and
 * rt_paint_lines (pulled, row by row) against the painting pushed pixel by
 * pixel.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "relfterrain.h"

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return *s >> 11;
}

/* uniform in [-1, 1) */
static double unit(uint64_t *s) { return (double)lcg(s) / 4503599627370496.0 - 1.0; }

/* grid kind k of nx x ny */
static void fill(double *z, int64_t nx, int64_t ny, int kind, uint64_t seed)
{
    uint64_t s = seed * 7919u + (uint64_t)kind;
    for (int64_t r = 0; r < ny; r++)
        for (int64_t c = 0; c < nx; c++) {
            double x = (double)c, y = (double)r, v;
            switch (kind) {
            case 0: /* smooth hills: most cells in one band */
                v = 40.0 * sin(x * 0.11) * cos(y * 0.07) + 3.0 * unit(&s);
                break;
            case 1: /* steep noise: edges crossing several levels */
                v = 12.0 * unit(&s);
                break;
            case 2: /* heights on the levels (ties) */
                v = (double)(int)(8.0 * unit(&s)) * 2.5;
                break;
            case 3: /* bands beyond 2^30 at interval 5 */
                v = 1.0e12 + 6.0 * unit(&s);
                break;
            case 4: /* bands about 2^30: some rows beyond, some not */
                v = 5.0 * 1073741824.0 + 6.0 * unit(&s) - (r % 3 == 0 ? 15.0 : 0.0);
                break;
            default: /* negative hills */
                v = -25.0 * sin(x * 0.3 + y * 0.2) - 4.0 * unit(&s);
                break;
            }
            z[r * nx + c] = v;
        }
}

static void kernel_variants(void)
{
    static const int64_t sizes[][2] = {{1, 1},  {2, 1},  {1, 6},  {2, 9},   {3, 2},  {8, 4},
                                       {9, 5},  {16, 3}, {17, 7}, {31, 12}, {33, 9}, {65, 20},
                                       {120, 41}, {300, 900}};
    static const double intervals[] = {5.0, 1.0, 0.7, 2.5};
    static const int index[] = {5, 3, 1, 0};
    const int n_sizes = (int)(sizeof sizes / sizeof *sizes);
    for (int si = 0; si < n_sizes; si++) {
        const int64_t nx = sizes[si][0], ny = sizes[si][1], n = nx * ny;
        double *z = malloc((size_t)n * sizeof *z);
        uint8_t *want = malloc((size_t)n), *got = malloc((size_t)n);
        /* the big grid (bands on threads): smooth hills only */
        for (int kind = 0; kind < (n > 100000 ? 1 : 6); kind++) {
            fill(z, nx, ny, kind, (uint64_t)si);
            for (int ii = 0; ii < (n > 100000 ? 1 : 4); ii++) {
                const double interval = intervals[ii];
                int64_t total = -1;
                rt_status s = rt_contour_mask_variant(z, nx, ny, interval, index[ii], INT64_MAX,
                                                      want, &total, 1, RT_SIMD_SCALAR, NULL);
                CHECK(s == RT_OK);
                /* limits: none, refused at once, about a batch, just under
                 * and just over the count */
                const int64_t limits[] = {INT64_MAX, 0, 5, 63, 64, 65, 200, total - 1, total};
                for (int li = 0; li < 9; li++) {
                    const int64_t max = limits[li];
                    if (max < 0 || (n > 100000 && li != 0 && li != 6 && li != 7)) continue;
                    for (int threads = 1; threads <= 3; threads++) {
                        int64_t ref = -1;
                        rt_status want_s = rt_contour_mask_variant(
                            z, nx, ny, interval, index[ii], max, want, &ref, threads,
                            RT_SIMD_SCALAR, NULL);
                        CHECK(want_s == (total > max ? RT_ERR_SIZE : RT_OK));
                        for (int v = RT_SIMD_AUTO; v < RT_SIMD_COUNT; v++) {
                            if (v != RT_SIMD_AUTO && !rt_simd_supported(v)) continue;
                            int64_t count = -2;
                            memset(got, 0xA5, (size_t)n);
                            rt_status st = rt_contour_mask_variant(z, nx, ny, interval, index[ii],
                                                                   max, got, &count, threads, v,
                                                                   NULL);
                            CHECK(st == want_s);
                            CHECK(count == ref);
                            if (st == RT_OK && memcmp(got, want, (size_t)n) != 0) {
                                fprintf(stderr, "contours: variant %d, %lldx%lld, kind %d, "
                                                "interval %g, threads %d\n",
                                        v, (long long)nx, (long long)ny, kind, interval, threads);
                                CHECK(!"the same pixels in every variant");
                            }
                        }
                    }
                }
            }
        }
        free(z), free(want), free(got);
    }
}

/* rt_paint_lines' pixels pushed one mask pixel at a time (maps._thicken) */
static void paint_push(const uint8_t *mask, int64_t nx, int64_t ny, uint8_t *img,
                       const uint8_t rgb[3], int width, int index_width)
{
    for (int64_t i = 0; i < ny; i++)
        for (int64_t j = 0; j < nx; j++) {
            uint8_t m = mask[(ny - 1 - i) * nx + j];
            if (!m) continue;
            int w = m == 2 ? index_width : width;
            for (int64_t di = 0; di < (w < 1 ? 1 : w); di++)
                for (int64_t dj = 0; dj < (w < 1 ? 1 : w); dj++) {
                    if (di && dj && di != dj) continue; /* down, right, diagonal */
                    if (i + di >= ny || j + dj >= nx) continue;
                    memcpy(img + ((i + di) * nx + j + dj) * 3, rgb, 3);
                }
        }
}

static void paint_lines(void)
{
    static const int64_t sizes[][2] = {{1, 1}, {7, 3}, {8, 8}, {9, 2}, {33, 17}, {64, 5}};
    static const int widths[][2] = {{1, 2}, {1, 1}, {2, 3}, {3, 3}, {4, 2},
                                    {0, -1}, {8, 8}, {9, 2}, {1, 12}};
    const uint8_t rgb[3] = {184, 78, 27};
    uint64_t s = 99;
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        const int64_t nx = sizes[si][0], ny = sizes[si][1], n = nx * ny;
        uint8_t *mask = malloc((size_t)n), *base = malloc((size_t)n * 3),
                *want = malloc((size_t)n * 3), *got = malloc((size_t)n * 3);
        for (int density = 0; density < 3; density++) {
            for (int64_t k = 0; k < n; k++) {
                uint64_t u = lcg(&s) % 100;
                mask[k] = (uint8_t)(u < (uint64_t)(10 + 30 * density) ? 1 + (u % 7 == 0) : 0);
                if (u == 99) mask[k] = 3; /* any other value: the width */
            }
            for (int64_t k = 0; k < 3 * n; k++) base[k] = (uint8_t)lcg(&s);
            for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++) {
                memcpy(want, base, (size_t)n * 3);
                memcpy(got, base, (size_t)n * 3);
                paint_push(mask, nx, ny, want, rgb, widths[wi][0], widths[wi][1]);
                rt_paint_lines(mask, nx, ny, got, rgb, widths[wi][0], widths[wi][1]);
                CHECK(memcmp(got, want, (size_t)n * 3) == 0);
            }
        }
        free(mask), free(base), free(want), free(got);
    }
}

void test_contours(void)
{
    kernel_variants();
    paint_lines();
}
