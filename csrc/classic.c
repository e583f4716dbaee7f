/*
 * classic.c - the classic fractal generators the Relf terrain is compared
 * with: midpoint displacement, diamond-square and clouds (Paul Martz, seed
 * 002), limited-random and circle-hill (seed 001).
 *
 * No random state: the uniforms come from the caller, one array per call, in
 * the order relfterrain.h documents.  Every result is a fixed sequence of
 * IEEE-754 double operations (no libm call whose last bit differs between C
 * libraries), so the same uniforms give the same bits on every platform.
 */
#include <math.h>
#include <stdint.h>

#include "relfterrain.h"
#include "rt_internal.h"


/* ------------------------------------------------------------------------ */
/* A portable cosine                                                        */
/* ------------------------------------------------------------------------ */

/* pi/2 and pi as a double plus the double nearest the remainder. */
#define PIO2_HI 0x1.921fb54442d18p+0
#define PIO2_LO 0x1.1a62633145c07p-54
#define PI_HI 0x1.921fb54442d18p+1
#define PI_LO 0x1.1a62633145c07p-53
#define PIO4 0x1.921fb54442d18p-1

/* Taylor series on |y| <= pi/4 (a little more is fine): the first omitted
 * terms, y^18/18! and y^19/19!, are below 2^-58 there. */
static double cos_poly(double y)
{
    double z = y * y;
    double p = 1.0 / 20922789888000.0;       /* 1/16! */
    p = p * z - 1.0 / 87178291200.0;         /* 1/14! */
    p = p * z + 1.0 / 479001600.0;           /* 1/12! */
    p = p * z - 1.0 / 3628800.0;             /* 1/10! */
    p = p * z + 1.0 / 40320.0;               /* 1/8! */
    p = p * z - 1.0 / 720.0;                 /* 1/6! */
    p = p * z + 1.0 / 24.0;                  /* 1/4! */
    /* 1 - z/2 + z^2 p: the large terms last, for accuracy near 1 */
    return 1.0 - (0.5 * z - (z * z) * p);
}

static double sin_poly(double y)
{
    double z = y * y;
    double p = 1.0 / 355687428096000.0;      /* 1/17! */
    p = p * z - 1.0 / 1307674368000.0;       /* 1/15! */
    p = p * z + 1.0 / 6227020800.0;          /* 1/13! */
    p = p * z - 1.0 / 39916800.0;            /* 1/11! */
    p = p * z + 1.0 / 362880.0;              /* 1/9! */
    p = p * z - 1.0 / 5040.0;                /* 1/7! */
    p = p * z + 1.0 / 120.0;                 /* 1/5! */
    p = p * z - 1.0 / 6.0;                   /* 1/3! */
    return y + (y * z) * p;
}

/* The cosine itself, inlined where it is used (circle-hill's cells). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline double classic_cos(double x)
{
    double ax = fabs(x);
    if (!(ax <= 3.5)) return NAN;
    if (ax <= PIO4) return cos_poly(ax);
    /* PIO2_HI - ax and PI_HI - ax are exact (Sterbenz) on these ranges */
    if (ax < 3.0 * PIO4) return sin_poly((PIO2_HI - ax) + PIO2_LO);
    return -cos_poly((PI_HI - ax) + PI_LO);
}

double rt_classic_cos(double x) { return classic_cos(x); }

/* ------------------------------------------------------------------------ */
/* Midpoint displacement                                                    */
/* ------------------------------------------------------------------------ */

rt_status rt_midpoint_displacement(int iterations, double scale, double ratio,
                                   const double *u, double *out, const rt_poll *poll)
{
    if (!u || !out) return RT_ERR_NULL;
    if (iterations < 0 || iterations > RT_MAX_MIDPOINT_ITERATIONS || !isfinite(scale) ||
        !isfinite(ratio))
        return RT_ERR_PARAM;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    const int64_t n = ((int64_t)1 << iterations) + 1;
    out[0] = 0.0;
    out[n - 1] = 0.0;
    double r = scale;
    for (int p = 0; p < iterations; p++) {
        const int64_t s = (int64_t)1 << (iterations - p), h = s / 2;
        /* a point of a sparse pass may touch a fresh page of out: the first
         * touch of memory costs a few units a byte (zeroing; a whole huge
         * page at once), so a point is charged for the s doubles it spans */
        const int64_t per_point = 4 + 24 * (s < ((int64_t)1 << 36) ? s : (int64_t)1 << 36);
        int64_t run = (RT_WATCH_BUDGET / 4) / per_point; /* points between checks (~1 ms) */
        if (run < 1) run = 1;
        const int64_t span = s * run; /* no overflow: run is 1 when s is large */
        for (int64_t i0 = h; i0 < n; i0 += span) {
            if (rt__watch_stop(&w, per_point * run)) return RT_ERR_INTERRUPTED;
            const int64_t i1 = n - i0 > span ? i0 + span : n;
            for (int64_t i = i0; i < i1; i += s)
                out[i] = (out[i - h] + out[i + h]) / 2.0 + r * (2.0 * u[i] - 1.0);
        }
        r *= ratio;
    }
    return RT_OK;
}

/* ------------------------------------------------------------------------ */
/* Diamond-square                                                           */
/* ------------------------------------------------------------------------ */

/* Of two values of one torus point: NaN yields to a value; two different
 * values are an error (-1). */
static int agree(double *a, double *b)
{
    if (isnan(*a)) {
        *a = *b;
        return 0;
    }
    if (isnan(*b)) {
        *b = *a;
        return 0;
    }
    return *a == *b ? 0 : -1;
}

static int edges_agree(const double *grid, int64_t n)
{
    const int64_t m = n - 1;
    double c = NAN;
    const double corners[4] = {grid[0], grid[m], grid[m * n], grid[m * n + m]};
    for (int k = 0; k < 4; k++) {
        if (isnan(corners[k])) continue;
        if (isnan(c)) c = corners[k];
        else if (corners[k] != c) return 0;
    }
    for (int64_t k = 1; k < m; k++) {
        double a = grid[k], b = grid[m * n + k];          /* row 0 / row m */
        if (!isnan(a) && !isnan(b) && a != b) return 0;
        a = grid[k * n];                                  /* column 0 / m */
        b = grid[k * n + m];
        if (!isnan(a) && !isnan(b) && a != b) return 0;
    }
    return 1;
}

rt_status rt_diamond_square(int iterations, double scale, double ratio,
                            double corner, int wrap, const double *u,
                            double *grid, const rt_poll *poll)
{
    if (!u || !grid) return RT_ERR_NULL;
    if (iterations < 0 || iterations > RT_MAX_DIAMOND_ITERATIONS || !isfinite(scale) ||
        !isfinite(ratio) || !isfinite(corner))
        return RT_ERR_PARAM;
    const int64_t n = ((int64_t)1 << iterations) + 1, m = n - 1;
    for (int64_t k = 0; k < n * n; k++)
        if (isinf(grid[k])) return RT_ERR_PARAM;
    if (wrap && !edges_agree(grid, n)) return RT_ERR_PARAM;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    int64_t pending = 0;
#define G(i, j) grid[(i) * n + (j)]

    if (wrap) {
        /* every copy of a torus point gets the one value it has */
        double *c[4] = {&G(0, 0), &G(0, m), &G(m, 0), &G(m, m)};
        for (int k = 1; k < 4; k++) (void)agree(c[0], c[k]);
        for (int k = 1; k < 4; k++) *c[k] = *c[0];
        for (int64_t k = 1; k < m; k++) {
            (void)agree(&G(0, k), &G(m, k));
            (void)agree(&G(k, 0), &G(k, m));
        }
    }
    if (isnan(G(0, 0))) G(0, 0) = corner;
    if (isnan(G(0, m))) G(0, m) = corner;
    if (isnan(G(m, 0))) G(m, 0) = corner;
    if (isnan(G(m, m))) G(m, m) = corner;

    /* With wrap only rows and columns 0..m-1 are generated (m is a copy). */
    const int64_t last = wrap ? m - 1 : m;
    double r = scale;
    for (int64_t s = m; s >= 2; s /= 2) {
        const int64_t h = s / 2, row_work = 4 * (m / s + 1); /* a row's points, about */
        /* diamond step: the centre of every square */
        for (int64_t i = h; i < m; i += s) {
            if (rt__watch_charge(&w, &pending, row_work)) return RT_ERR_INTERRUPTED;
            for (int64_t j = h; j < m; j += s) {
                if (!isnan(G(i, j))) continue;
                double sum = ((G(i - h, j - h) + G(i - h, j + h)) + G(i + h, j - h)) +
                             G(i + h, j + h);
                G(i, j) = sum * 0.25 + r * (2.0 * u[i * n + j] - 1.0);
            }
        }
        /* square step: the centre of every diamond */
        for (int64_t i = 0; i <= last; i += h) {
            if (rt__watch_charge(&w, &pending, row_work)) return RT_ERR_INTERRUPTED;
            for (int64_t j = (i % s == 0) ? h : 0; j <= last; j += s) {
                if (!isnan(G(i, j))) continue;
                double avg;
                if (wrap) {
                    const int64_t up = i - h < 0 ? i - h + m : i - h;
                    const int64_t down = i + h >= m ? i + h - m : i + h;
                    const int64_t left = j - h < 0 ? j - h + m : j - h;
                    const int64_t right = j + h >= m ? j + h - m : j + h;
                    avg = (((G(up, j) + G(down, j)) + G(i, left)) + G(i, right)) * 0.25;
                } else {
                    /* the corners that exist, summed up, down, left, right */
                    double sum = 0.0;
                    int count = 0;
                    if (i - h >= 0) {
                        sum += G(i - h, j);
                        count++;
                    }
                    if (i + h <= m) {
                        sum += G(i + h, j);
                        count++;
                    }
                    if (j - h >= 0) {
                        sum += G(i, j - h);
                        count++;
                    }
                    if (j + h <= m) {
                        sum += G(i, j + h);
                        count++;
                    }
                    avg = count == 4 ? sum * 0.25 : sum / 3.0;
                }
                G(i, j) = avg + r * (2.0 * u[i * n + j] - 1.0);
            }
        }
        if (wrap) {
            for (int64_t k = 0; k < m; k++) {
                G(m, k) = G(0, k);
                G(k, m) = G(k, 0);
            }
        }
        r *= ratio;
    }
#undef G
    return RT_OK;
}

/* ------------------------------------------------------------------------ */
/* Clouds                                                                   */
/* ------------------------------------------------------------------------ */

rt_status rt_clouds(const double *heights, int64_t n, double clear, double cloudy,
                    double *out)
{
    if (n < 0) return RT_ERR_SIZE;
    if (n > 0 && (!heights || !out)) return RT_ERR_NULL;
    if (!isfinite(clear) || !isfinite(cloudy) || clear > cloudy) return RT_ERR_PARAM;
    const double span = cloudy - clear;
    for (int64_t k = 0; k < n; k++) {
        double v = heights[k];
        if (v <= clear) out[k] = 0.0;
        else if (v >= cloudy) out[k] = 1.0;
        else out[k] = (v - clear) / span; /* clear < v < cloudy: span > 0; NaN stays */
    }
    return RT_OK;
}

/* ------------------------------------------------------------------------ */
/* Seed 001: limited-random and circle-hill                                 */
/* ------------------------------------------------------------------------ */

static int size_ok(int64_t width, int64_t height)
{
    return width >= 1 && height >= 1 &&
           (uint64_t)width <= (uint64_t)(INT64_MAX / (int64_t)sizeof(double)) / (uint64_t)height &&
           (uint64_t)width * (uint64_t)height <= SIZE_MAX / sizeof(double);
}

/* Math.min of two non-NaN doubles, -0 below +0 as in JavaScript. */
static double js_min(double a, double b)
{
    if (a < b) return a;
    if (b < a) return b;
    return signbit(a) ? a : b;
}

static double js_max(double a, double b)
{
    if (a > b) return a;
    if (b > a) return b;
    return signbit(a) ? b : a;
}

rt_status rt_limited_random(int64_t width, int64_t height, double max_increase,
                            double minimum, double maximum,
                            const double *u_start, const double *u_step,
                            double *out, const rt_poll *poll)
{
    if (!u_start || !u_step || !out) return RT_ERR_NULL;
    if (!size_ok(width, height)) return RT_ERR_SIZE;
    if (!isfinite(max_increase) || !isfinite(minimum) || !isfinite(maximum) ||
        max_increase < 0.0 || minimum > maximum)
        return RT_ERR_PARAM;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    int64_t pending = 0;
    const double rows = (double)height; /* the seed's Math.random() * height */
    /* i (the seed's x) outer, j inner, as the seed visits them */
    for (int64_t i = 0; i < width; i++) {
        /* a column strides across rows: a few cache misses a cell */
        if (rt__watch_charge(&w, &pending, 8 * height)) return RT_ERR_INTERRUPTED;
        for (int64_t j = 0; j < height; j++) {
            double a;
            if (i != 0 && j != 0)
                a = (out[j * width + i - 1] + out[(j - 1) * width + i]) / 2.0;
            else if (i != 0)
                a = out[i - 1];
            else
                a = u_start[j] * rows;
            double h = a + max_increase * (u_step[j * width + i] - 1.0 / 2.0);
            out[j * width + i] = js_max(minimum, js_min(h, maximum));
        }
    }
    return RT_OK;
}

/* floor(u * n) as the seed's ~~(Math.random() * n), kept inside 0..n-1 even
 * for a u outside [0, 1) (or NaN) from a careless caller. */
static int64_t cell_of(double u, int64_t n)
{
    double v = floor(u * (double)n);
    if (!(v >= 0.0)) return 0;
    if (v >= (double)n) return n - 1;
    return (int64_t)v;
}

rt_status rt_circle_hill(int64_t width, int64_t height, int64_t n_circles,
                         double radius, double hill_height, double maximum,
                         double base, const double *u, double *out, const rt_poll *poll)
{
    if (!out || (!u && n_circles > 0)) return RT_ERR_NULL;
    if (!size_ok(width, height) || n_circles < 0) return RT_ERR_SIZE;
    if (!isfinite(radius) || !(radius > 0.0) || !isfinite(hill_height) ||
        !isfinite(maximum) || !isfinite(base))
        return RT_ERR_PARAM;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    int64_t pending = 0;
    const int64_t cells = width * height;
    for (int64_t k0 = 0; k0 < cells; k0 += RT_WATCH_STEP) {
        if (rt__watch_stop(&w, RT_WATCH_STEP)) return RT_ERR_INTERRUPTED;
        const int64_t k1 = cells - k0 > RT_WATCH_STEP ? k0 + RT_WATCH_STEP : cells;
        for (int64_t k = k0; k < k1; k++) out[k] = base;
    }
    const double r2 = radius * radius;
    const double half_height = hill_height / 2.0;
    /* Cells with d < r2 have |dx|, |dy| <= floor(radius) (the +1 is a margin
     * against r2's rounding); the bounding square is clipped in double
     * before any conversion, so a huge radius is no overflow. */
    const double reach = floor(radius) + 1.0;
    for (int64_t c = 0; c < n_circles; c++) {
        const int64_t x = cell_of(u[2 * c], width), y = cell_of(u[2 * c + 1], height);
        const double jlo = (double)x - reach, jhi = (double)x + reach;
        const double klo = (double)y - reach, khi = (double)y + reach;
        const int64_t j0 = jlo <= 0.0 ? 0 : (int64_t)jlo;
        const int64_t j1 = jhi >= (double)(width - 1) ? width - 1 : (int64_t)jhi;
        const int64_t k0 = klo <= 0.0 ? 0 : (int64_t)klo;
        const int64_t k1 = khi >= (double)(height - 1) ? height - 1 : (int64_t)khi;
        /* the square's cells (a cosine each, at most): checked per circle,
         * and per row of a big one */
        const int64_t cols = j1 >= j0 ? j1 - j0 + 1 : 0;
        if (rt__watch_charge(&w, &pending, 1 + 8 * cols * (k1 - k0 + 1)))
            return RT_ERR_INTERRUPTED;
        const int big = cols * (k1 - k0 + 1) > RT_WATCH_STEP;
        for (int64_t k = k0; k <= k1; k++) {
            if (big && rt__watch_stop(&w, 8 * cols)) return RT_ERR_INTERRUPTED;
            const double dy = (double)(y - k);
            double *row = out + k * width;
            for (int64_t j = j0; j <= j1; j++) {
                const double dx = (double)(x - j);
                const double d = dx * dx + dy * dy;
                if (d < r2) {
                    const double a = half_height * (1.0 + classic_cos(RT_PI * d / r2));
                    row[j] = js_min(row[j] + a, maximum);
                }
            }
        }
    }
    return RT_OK;
}
