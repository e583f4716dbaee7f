/*
 * contours.c - the pixels of CONREC's contours of a grid (SPEC 15).
 *
 * Each cell is cut into four triangles meeting at its centre, whose value is
 * the mean of its four corners; every level k*interval crossing an edge of a
 * triangle gives a vertex by linear interpolation along that edge, and the
 * pixel nearest each vertex is set.  The arithmetic is that of the vectorised
 * NumPy version in relfterrain/maps.py (contour_points, contour_mask),
 * operation for operation, so both set the same pixels; this one visits each
 * crossed cell once instead of building arrays of every vertex.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "relfterrain.h"
#include "rt_internal.h"

/* Below this |z / interval| a band is found through a 32-bit integer (the
 * fast paths); a grid beyond it takes floor() and the general cell path. */
#define FAST_BAND 1073741824.0 /* 2^30 */

/* Where a band of cell rows writes its pixels: the mask, except its first
 * pixel row, which the band above shares (a cell writes the pixels of its own
 * row and the next) and which this band writes into a row of its own, merged
 * after the bands are done, so no two threads write one byte. */
typedef struct target {
    uint8_t *mask;
    uint8_t *first; /* NULL: the first row goes to the mask too */
    int64_t nx, ny, first_row;
} target;

typedef struct job {
    const double *z;
    uint8_t *mask;
    uint8_t *firsts; /* (bands - 1) rows of nx: the first pixel row of bands 1.. */
    int64_t nx, ny, bands, max_crossings;
    int64_t *totals; /* per band; max_crossings + 1 when it stopped on the limit */
    int *nomem;
    double interval;
    int index_every;
    uint64_t index_c; /* is_index()'s constant for index_every */
    rt__watch *w;
} job;

/* Band b: the cells of rows [ny-1) * b / bands .. * (b+1) / bands. */
static int64_t band_start(const job *j, int64_t b)
{
    return (j->ny - 1) * b / j->bands;
}

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define RT_CONTOUR_AVX2 1
#else
#define RT_CONTOUR_AVX2 0
#endif

/* the kernel in portable C, and for AVX2 when the compiler can target it */
#define CK(name) name##_c
#define CK_ATTR
#include "contours_kernel.h"
#undef CK
#undef CK_ATTR
#if RT_CONTOUR_AVX2
#define CK(name) name##_avx2
#define CK_ATTR __attribute__((target("avx2")))
#include "contours_kernel.h"
#undef CK
#undef CK_ATTR
/* and for AVX-512: the kernel's functions, and rows of its own (eight
 * crossed cells a vector) */
#define CK(name) name##_avx512
#define CK_ATTR __attribute__((target("avx2,avx512f,avx512bw,avx512dq,avx512vl")))
#define CK_OWN_RUN
#include "contours_kernel.h"
#include "simd/contours_avx512.h"
#undef CK_OWN_RUN
#undef CK
#undef CK_ATTR
#endif

/* Whether the n values of z are all finite: z - z is 0 for a finite z and
 * NaN for an infinity or a NaN, and a sum stays 0 or turns NaN; eight sums
 * side by side (the compiler vectorises them; no sum is reassociated). */
static int all_finite(const double *z, int64_t n)
{
    double sum[8] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    int64_t k = 0;
    for (; k + 8 <= n; k += 8)
        for (int i = 0; i < 8; i++) sum[i] += z[k + i] - z[k + i];
    for (; k < n; k++) sum[0] += z[k] - z[k];
    int ok = 1;
    for (int i = 0; i < 8; i++) ok &= sum[i] == 0.0;
    return ok;
}

/* Bands of at least this many cells each (smaller: not worth a thread). */
#define CONTOUR_BAND_CELLS ((int64_t)1 << 17)

rt_status rt_contour_mask_threads(const double *z, int64_t nx, int64_t ny, double interval,
                                  int index_every, int64_t max_crossings, uint8_t *mask,
                                  int64_t *crossings, int threads, const rt_poll *poll)
{
    return rt_contour_mask_variant(z, nx, ny, interval, index_every, max_crossings, mask,
                                   crossings, threads, RT_SIMD_AUTO, poll);
}

rt_status rt_contour_mask_variant(const double *z, int64_t nx, int64_t ny, double interval,
                                  int index_every, int64_t max_crossings, uint8_t *mask,
                                  int64_t *crossings, int threads, int simd,
                                  const rt_poll *poll)
{
    if (simd < 0 || simd >= RT_SIMD_COUNT) return RT_ERR_PARAM;
    /* AVX2 runs the AVX2 kernel, the AVX-512 variants the AVX-512 rows (whose
     * gathers take 32-bit columns: wider rows, the AVX2 kernel) */
    void (*run)(void *, int64_t, int64_t) = run_bands_c;
#if RT_CONTOUR_AVX2
    int v = rt_simd_resolve(simd);
    if (v == RT_SIMD_AVX2) run = run_bands_avx2;
    if (v == RT_SIMD_AVX512 || v == RT_SIMD_AVX512VBMI)
        run = nx < INT32_MAX ? run_bands_avx512 : run_bands_avx2;
#endif
    if (!z || !mask) return RT_ERR_NULL;
    if (nx < 1 || ny < 1 || nx > INT64_MAX / ny) return RT_ERR_SIZE;
    if (!(isfinite(interval) && interval > 0.0) || index_every < 0) return RT_ERR_PARAM;
    if (!all_finite(z, nx * ny)) return RT_ERR_PARAM;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    memset(mask, 0, (size_t)(nx * ny));
    if (crossings) *crossings = 0;
    if (ny < 2) return RT_OK;
    /* one band per thread, each with enough cells to pay for it; the pixels
     * do not depend on the number of bands */
    int64_t bands = threads < 1 ? 1 : threads;
    if (bands > RT_MAX_THREADS) bands = RT_MAX_THREADS;
    int64_t most = (ny - 1) * nx / CONTOUR_BAND_CELLS;
    if (bands > most) bands = most;
    if (bands > ny - 1) bands = ny - 1;
    if (bands < 1) bands = 1;
    int64_t totals[RT_MAX_THREADS];
    uint8_t *firsts = NULL;
    if (bands > 1) {
        firsts = calloc((size_t)((bands - 1) * nx), 1);
        if (!firsts) return RT_ERR_NOMEM;
    }
    int nomem = 0;
    uint64_t index_c = index_every > 0 ? UINT64_MAX / (uint64_t)index_every + 1 : 0;
    job j = {z, mask, firsts, nx, ny, bands, max_crossings, totals, &nomem, interval,
             index_every, index_c, &w};
    if (bands > 1)
        rt_parallel_for((int)bands, bands, run, &j);
    else
        run(&j, 0, 1);
    int64_t total = 0;
    for (int64_t b = 0; b < bands; b++) total += totals[b];
    /* the first pixel row of each band after the first, into the mask */
    for (int64_t b = 1; b < bands; b++) {
        uint8_t *row = mask + band_start(&j, b) * nx;
        const uint8_t *mine = firsts + (b - 1) * nx;
        for (int64_t c = 0; c < nx; c++)
            if (row[c] < mine[c]) row[c] = mine[c];
    }
    free(firsts);
    if (crossings) *crossings = total;
    if (nomem) return RT_ERR_NOMEM;
    if (rt__watch_stopped(&w)) return RT_ERR_INTERRUPTED;
    if (total > max_crossings) return RT_ERR_SIZE;
    return RT_OK;
}

rt_status rt_contour_mask(const double *z, int64_t nx, int64_t ny, double interval,
                          int index_every, int64_t max_crossings, uint8_t *mask,
                          int64_t *crossings, const rt_poll *poll)
{
    return rt_contour_mask_threads(z, nx, ny, interval, index_every, max_crossings, mask,
                                   crossings, 1, poll);
}

/* -- painting (relfterrain/maps.py's layers, in one pass each) ------------ */

rt_status rt_map_colours(const uint8_t *codes, int64_t nx, int64_t ny, const uint8_t *table,
                         int ntable, uint8_t *img, int64_t *counts)
{
    if (!codes || !table || !img) return RT_ERR_NULL;
    if (nx < 0 || ny < 0 || (ny && nx > INT64_MAX / 3 / ny)) return RT_ERR_SIZE;
    if (ntable < 0 || ntable > 256) return RT_ERR_PARAM;
    /* four histograms, so that a run of one code (most of a map) does not
     * make every count wait for the one before it */
    int64_t seen[4][256];
    memset(seen, 0, sizeof seen);
    /* the table padded to 256 rows of 4 bytes (a code beyond it is counted,
     * painted black and reported); a pixel is stored as 4 bytes, the 4th
     * overwritten by the next pixel, and the last of a row as 3 */
    uint8_t rgb[256][4];
    memset(rgb, 0, sizeof rgb);
    for (int k = 0; k < ntable; k++) memcpy(rgb[k], table + 3 * k, 3);
    const int vbmi = rt__map_colours_vbmi_ok();
    for (int64_t i = 0; i < ny; i++) {
        const uint8_t *src = codes + (ny - 1 - i) * nx; /* north up */
        uint8_t *dst = img + i * nx * 3;
        /* sixty-four pixels a step where the CPU can, the rest below */
        int64_t c = vbmi ? rt__map_colours_row_vbmi(src, nx, table, ntable, dst, seen[0]) : 0;
        for (; c + 4 < nx; c += 4) {
            uint8_t a = src[c], b = src[c + 1], d = src[c + 2], e = src[c + 3];
            memcpy(dst + 3 * c, rgb[a], 4);
            memcpy(dst + 3 * c + 3, rgb[b], 4);
            memcpy(dst + 3 * c + 6, rgb[d], 4);
            memcpy(dst + 3 * c + 9, rgb[e], 4);
            seen[0][a]++, seen[1][b]++, seen[2][d]++, seen[3][e]++;
        }
        for (; c < nx; c++) {
            memcpy(dst + 3 * c, rgb[src[c]], 3);
            seen[0][src[c]]++;
        }
    }
    int64_t total[256];
    for (int k = 0; k < 256; k++) total[k] = seen[0][k] + seen[1][k] + seen[2][k] + seen[3][k];
    if (counts) memcpy(counts, total, sizeof total);
    for (int k = ntable; k < 256; k++)
        if (total[k]) return RT_ERR_PARAM;
    return RT_OK;
}

/* Set the RGB pixel (i, j) of an nx-wide image, if it is inside. */
static inline void paint(uint8_t *img, int64_t nx, int64_t ny, int64_t i, int64_t j,
                         const uint8_t rgb[3])
{
    if (i >= ny || j >= nx) return;
    uint8_t *p = img + (i * nx + j) * 3;
    p[0] = rgb[0], p[1] = rgb[1], p[2] = rgb[2];
}

/* rt_paint_lines pixel by pixel (any widths): each mask pixel pushes its
 * colour to the pixels its width covers. */
static void paint_lines_each(const uint8_t *mask, int64_t nx, int64_t ny, uint8_t *img,
                             const uint8_t rgb[3], int width, int index_width)
{
    for (int64_t i = 0; i < ny; i++) {
        const uint8_t *m = mask + (ny - 1 - i) * nx; /* image row i: north up */
        for (int64_t j = 0; j < nx; j++) {
            if (!m[j]) continue;
            int w = m[j] == 2 ? index_width : width;
            paint(img, nx, ny, i, j, rgb);
            /* grown towards the south-east: d pixels down, right and both */
            for (int d = 1; d < w; d++) {
                paint(img, nx, ny, i + d, j, rgb);
                paint(img, nx, ny, i, j + d, rgb);
                paint(img, nx, ny, i + d, j + d, rgb);
            }
        }
    }
}

/* Widths up to this: rt_paint_lines row by row, in passes without branches. */
#define PAINT_ROWS 8

void rt_paint_lines(const uint8_t *mask, int64_t nx, int64_t ny, uint8_t *img,
                    const uint8_t rgb[3], int width, int index_width)
{
    if (width < 1) width = 1;
    if (index_width < 1) index_width = 1;
    const int most = width > index_width ? width : index_width;
    /* the same pixels as paint_lines_each, pulled instead of pushed: pixel
     * (i, j) takes the colour when a mask pixel (i - d, j), (i, j - d) or
     * (i - d, j - d) reaches it (its width > d >= 1; d = 0: (i, j) itself).
     * reach: the last `most` image rows' widths (0 where no line); row: the
     * image row's painted pixels (1) */
    uint8_t *buf = nx > 0 && ny > 0 && most <= PAINT_ROWS && nx <= INT64_MAX / 2 / PAINT_ROWS
                       ? malloc((size_t)(most + 1) * (size_t)nx)
                       : NULL;
    if (!buf) {
        paint_lines_each(mask, nx, ny, img, rgb, width, index_width);
        return;
    }
    uint8_t *reach = buf, *row = buf + most * nx;
    /* eight pixels' bytes: the colour, and for each set of them on (bit k:
     * pixel k) the bytes of those pixels all ones (byte order of memory) */
    uint64_t colour[3], spread[256][3];
    uint8_t bytes[24];
    for (int k = 0; k < 24; k++) bytes[k] = rgb[k % 3];
    memcpy(colour, bytes, sizeof colour);
    for (unsigned bits = 0; bits < 256; bits++) {
        for (int k = 0; k < 24; k++) bytes[k] = bits >> (k / 3) & 1u ? 0xFF : 0;
        memcpy(spread[bits], bytes, sizeof bytes);
    }
    const uint8_t w1 = (uint8_t)width, w2 = (uint8_t)index_width;
    for (int64_t i = 0; i < ny; i++) {
        const uint8_t *m = mask + (ny - 1 - i) * nx; /* image row i: north up */
        uint8_t *r = reach + (i % most) * nx;
        for (int64_t j = 0; j < nx; j++) r[j] = m[j] ? (m[j] == 2 ? w2 : w1) : 0;
        for (int64_t j = 0; j < nx; j++) row[j] = r[j] != 0;
        for (int d = 1; d < most; d++) {
            const uint8_t dd = (uint8_t)d;
            for (int64_t j = d; j < nx; j++) row[j] |= r[j - d] > dd;
            if (i < d) continue;
            const uint8_t *up = reach + ((i - d) % most) * nx;
            for (int64_t j = 0; j < nx; j++) row[j] |= up[j] > dd;
            for (int64_t j = d; j < nx; j++) row[j] |= up[j - d] > dd;
        }
        /* eight pixels (24 bytes) at a time: the colour where they are on */
        uint8_t *dst = img + i * nx * 3;
        int64_t j = 0;
        for (; j + 8 <= nx; j += 8) {
            /* bytes 0 or 1: bit k of the product's top byte is byte k (the
             * partial products of the other bytes fall below or carry out) */
            uint64_t eight, d[3];
            memcpy(&eight, row + j, 8);
            const unsigned bits = (unsigned)((eight * 0x0102040810204080u) >> 56);
            memcpy(d, dst + 3 * j, sizeof d);
            for (int k = 0; k < 3; k++)
                d[k] = (d[k] & ~spread[bits][k]) | (colour[k] & spread[bits][k]);
            memcpy(dst + 3 * j, d, sizeof d);
        }
        for (; j < nx; j++)
            if (row[j]) dst[3 * j] = rgb[0], dst[3 * j + 1] = rgb[1], dst[3 * j + 2] = rgb[2];
    }
    free(buf);
}
