/*
 * galaxy.c - stars scattered through 3-D space: calcStar of the seed (SPEC 9).
 *
 * Two evaluation paths give the same bits:
 *  - the point path transcribes the seed's double arithmetic and serves
 *    rt_galaxy_star and every row of a block where exactness is not proven;
 *  - the block path serves rows (x, y fixed, z running) where every product
 *    and partial sum of the seed is below 2^52 in magnitude, so that the
 *    doubles are exact integers: it computes them in int64.  There
 *    `toint32(V * (1/128))` is C's truncating division V / 128 (JavaScript's
 *    `j & mask` truncates toward zero, it does not floor), and xyz is the
 *    exact product x*y*z.
 *
 * The block path first enumerates the only z that can hold a star: a star
 * needs 1 <= (x*y*z & 0xff) <= 7, and the low 8 bits of x*y*z depend only on
 * (x*y mod 256, z mod 256).  For each residue r of x*y a table lists the z
 * residues w with (r*w mod 256) in 1..7 (at most 7 of 256, none when 8
 * divides r, e.g. on the planes x = 0 and y = 0), so about 1.6 % of the
 * points of a block ever reach the profile and the floating point.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "relfterrain.h"
#include "rt_internal.h"

#define NCELLS (RT_STAR_PLANETS * RT_STAR_COLOURS)
/* Below this magnitude every product and partial sum of a row is exact in
 * double and int64 alike; 2^52 leaves a factor 2 for the rounding of the
 * bound computation itself (done in double). */
#define EXACT_LIMIT 4503599627370496.0 /* 2^52 */

_Static_assert(sizeof(rt_star) == 40, "rt_star must be 40 bytes");
_Static_assert(offsetof(rt_star, magnitude) == 24, "rt_star layout");
_Static_assert(offsetof(rt_star, planets) == 32, "rt_star layout");
_Static_assert(offsetof(rt_star, colour) == 33, "rt_star layout");

void rt_galaxy_defaults(rt_galaxy *g)
{
    memset(g, 0, sizeof *g);
    g->profile = rt_classic_profile(); /* seed.c: the one copy of the constants */
    g->profile_len = RT_CLASSIC_PROFILE_LEN;
    g->directions = RT_CLASSIC_DIRECTIONS;
    for (uint32_t i = 0; i < RT_CLASSIC_DIRECTIONS; i++) {
        g->s[i] = rt_classic_vector(RT_A1)[i];
        g->t[i] = rt_classic_vector(RT_B1)[i];
        g->u[i] = rt_classic_vector(RT_B2)[i];
    }
    g->min_magnitude = 1.0;
    g->magnitude_range = 5.0;
    g->f_mask = 0xffffu;
    g->f_value = 127u;
}

static rt_status check_shape(const rt_galaxy *g, int *bad_vector)
{
    if (!g || !g->profile) return RT_ERR_NULL;
    uint32_t n = g->profile_len;
    if (n == 0 || n > RT_MAX_PROFILE || (n & (n - 1)) != 0) return RT_ERR_PROFILE_LENGTH;
    if (g->directions < 1 || g->directions > RT_MAX_DIRECTIONS) return RT_ERR_VECTOR_LENGTH;
    const int32_t *vecs[3] = {g->s, g->t, g->u};
    for (int v = 0; v < 3; v++) {
        for (uint32_t i = 0; i < g->directions; i++) {
            if (vecs[v][i] > RT_MAX_VECTOR || vecs[v][i] < -RT_MAX_VECTOR) {
                if (bad_vector) *bad_vector = v;
                return RT_ERR_VECTOR_VALUE;
            }
        }
    }
    if (!isfinite(g->min_magnitude) || !isfinite(g->magnitude_range)) return RT_ERR_PARAM;
    if ((g->f_value & ~g->f_mask) != 0) return RT_ERR_PARAM;
    return RT_OK;
}

rt_status rt_galaxy_check(const rt_galaxy *g, int *bad_vector)
{
    rt_status s = check_shape(g, bad_vector);
    if (s != RT_OK) return s;
    for (uint32_t k = 0; k < g->profile_len; k++)
        if (!isfinite(g->profile[k])) return RT_ERR_PROFILE_VALUE;
    return RT_OK;
}

/* toint32(round_js(v)) as rt__low32(rt__round_js(v)), without the library
 * calls floor() and trunc() (baseline x86-64 has no rounding instruction).
 * For |v| < 4e18 the int64 conversion truncates exactly: when |v| >= 2^52, v
 * is already an integer and r == v; below, r and r - 1 are exact doubles.
 * So floor, the >= 0.5 test and the low 32 bits are those of the seed. */
static inline uint32_t round_low32(double v)
{
    if (fabs(v) < 4.0e18) { /* false for NaN too */
        /* branch-free: the signs of v are random, branches mispredict */
        int64_t r = (int64_t)v;
        double rd = (double)r;
        int below = rd > v; /* negative non-integer: floor is one below */
        r -= below;
        rd -= (double)below;
        r += v - rd >= 0.5;
        return (uint32_t)rt__u64(r);
    }
    return rt__low32(rt__round_js(v));
}

/* The star, given f's test passed and the low 32 bits of xyz. */
static inline int make_star(const rt_galaxy *g, int64_t x, int64_t y, int64_t z, uint32_t low,
                            rt_star *out)
{
    uint32_t xyzff = low & 0xffu;
    if (xyzff < 1 || xyzff > 7) return 0;
    if (out) {
        memset(out, 0, sizeof *out); /* no stray bytes in the padding */
        out->x = x;
        out->y = y;
        out->z = z;
        /* left to right, as the seed: MIN + ((RANGE * xyzff) / 7) */
        out->magnitude = g->min_magnitude + g->magnitude_range * (double)xyzff / 7.0;
        out->planets = (uint8_t)((low & 0xf00u) >> 8);
        out->colour = (uint8_t)((low & 0xf000u) >> 12);
    }
    return 1;
}

/* ------------------------------------------------------------------------ */
/* The point path: the seed's double arithmetic, operation for operation.   */
/* ------------------------------------------------------------------------ */

static int star_xyz(const rt_galaxy *g, int64_t x, int64_t y, int64_t z, rt_star *out)
{
    const double xd = (double)x, yd = (double)y, zd = (double)z;
    const double xyz = xd * yd * zd;
    const uint32_t low = rt__low32(xyz);
    /* The bit test does not depend on a: decide it first (same result). */
    if ((low & 0xffu) < 1 || (low & 0xffu) > 7) return 0;
    const double *P = g->profile;
    const uint32_t mask = g->profile_len - 1;
    double a = 0.0;
    for (uint32_t i = 0; i < g->directions; i++) {
        double j = ((double)g->s[i] * xd + (double)g->t[i] * yd + (double)g->u[i] * zd) *
                   RT_RECIP128;
        a += P[rt__low32(j) & mask];
    }
    /* the seed's operations, literally (round_low32 is tested against it) */
    uint32_t f = rt__low32(rt__round_js(a * xyz * RT_RECIP128)) & g->f_mask;
    if (f != g->f_value) return 0;
    return make_star(g, x, y, z, low, out);
}

rt_status rt_galaxy_star(const rt_galaxy *g, int64_t x, int64_t y, int64_t z, rt_star *out,
                         int *found)
{
    rt_status s = check_shape(g, NULL);
    if (s != RT_OK) return s;
    if (!found) return RT_ERR_NULL;
    rt_star st;
    *found = star_xyz(g, x, y, z, &st);
    if (*found && out) *out = st;
    return RT_OK;
}

/* ------------------------------------------------------------------------ */
/* Blocks                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct part {
    int64_t census[NCELLS];
    rt_star *stars;          /* catalogue mode: this part's stars, in order */
    int64_t n, cap;
    int nomem;
} part;

typedef struct job {
    const rt_galaxy *g;
    const rt_block3 *b;
    int64_t rows;            /* nx * ny: a row is (x, y) with z running */
    int64_t nparts;
    part *parts;
    int catalogue;
    double zmax;             /* max |z| over the block */
    double vmax_t;           /* max_i |U[i]| * zmax: a bound used per row */
    double umax;             /* max |U[i]| */
    double smax, tmax;       /* max |S[i]|, max |T[i]| */
    /* For each residue r of x*y mod 256, the z residues w (ascending) with
     * 1 <= (r*w mod 256) <= 7. */
    uint8_t nres[256];
    uint8_t res[256][8];
} job;

static void build_residues(job *j)
{
    for (int r = 0; r < 256; r++) {
        int n = 0;
        for (int w = 0; w < 256; w++) {
            int v = (r * w) & 255;
            if (v >= 1 && v <= 7) j->res[r][n++] = (uint8_t)w;
        }
        j->nres[r] = (uint8_t)n; /* at most 7: see the comment at the top */
    }
}

static inline int emit(part *pt, int catalogue, const rt_star *st)
{
    pt->census[st->planets * RT_STAR_COLOURS + st->colour]++;
    if (!catalogue) return 1;
    if (pt->n == pt->cap) {
        int64_t cap = pt->cap ? pt->cap * 2 : 256;
        rt_star *p = realloc(pt->stars, (size_t)cap * sizeof(rt_star));
        if (!p) {
            pt->nomem = 1;
            return 0;
        }
        pt->stars = p;
        pt->cap = cap;
    }
    pt->stars[pt->n++] = *st;
    return 1;
}

/* One row by the block path: every magnitude below 2^52 (checked by the
 * caller), so int64 arithmetic gives the seed's doubles exactly. */
static int row_exact(const job *j, part *pt, int64_t x, int64_t y)
{
    const rt_galaxy *g = j->g;
    const rt_block3 *b = j->b;
    const int64_t p = x * y;
    const unsigned r = (unsigned)(rt__u64(p) & 255u);
    const int nr = j->nres[r];
    if (nr == 0) return 1;
    const uint8_t *res = j->res[r];
    const double *P = g->profile;
    const uint64_t mask = g->profile_len - 1;
    const uint32_t nd = g->directions;
    int64_t base[RT_MAX_DIRECTIONS];
    for (uint32_t i = 0; i < nd; i++) base[i] = (int64_t)g->s[i] * x + (int64_t)g->t[i] * y;
    const int64_t zlo = b->z0, zhi = b->z0 + (b->nz - 1);
    /* the multiple of 256 at or below zlo (|zlo| < 2^52: no overflow) */
    int64_t zb = zlo - (int64_t)(rt__u64(zlo) & 255u);
    rt_star st;
    for (; zb <= zhi; zb += 256) {
        for (int k = 0; k < nr; k++) {
            const int64_t z = zb + res[k];
            if (z < zlo) continue;
            if (z > zhi) break;
            double a = 0.0;
            for (uint32_t i = 0; i < nd; i++) {
                int64_t V = base[i] + (int64_t)g->u[i] * z;
                /* toint32(V / 128): truncation toward zero, as C's / does */
                a += P[rt__u64(V / 128) & mask];
            }
            const int64_t xyz = p * z;
            const uint32_t f = round_low32(a * (double)xyz * RT_RECIP128);
            if ((f & g->f_mask) != g->f_value) continue;
            if (!make_star(g, x, y, z, (uint32_t)rt__u64(xyz), &st)) continue;
            if (!emit(pt, j->catalogue, &st)) return 0;
        }
    }
    return 1;
}

/* One row by the point path. */
static int row_points(const job *j, part *pt, int64_t x, int64_t y)
{
    const rt_block3 *b = j->b;
    rt_star st;
    for (int64_t k = 0; k < b->nz; k++) {
        if (!star_xyz(j->g, x, y, b->z0 + k, &st)) continue;
        if (!emit(pt, j->catalogue, &st)) return 0;
    }
    return 1;
}

/* Is the block path exact on row (x, y)?  Every |S*x|, |T*y|, |U*z|, their
 * partial sums, |x*y| and |x*y*z| must stay below 2^52. */
static int row_is_exact(const job *j, int64_t x, int64_t y)
{
    const double X = fabs((double)x), Y = fabs((double)y);
    const double lim = EXACT_LIMIT;
    if (!(X <= lim && Y <= lim)) return 0;
    if (!(j->smax * X + j->tmax * Y + j->vmax_t <= lim)) return 0;
    if (!(X * Y <= lim && X * Y * j->zmax <= lim)) return 0;
    return 1;
}

static void scan_parts(void *ctx, int64_t begin, int64_t end)
{
    const job *j = ctx;
    const rt_block3 *b = j->b;
    for (int64_t q = begin; q < end; q++) {
        part *pt = &j->parts[q];
        /* part q: rows [q*rows/nparts, (q+1)*rows/nparts), without overflow */
        int64_t per = j->rows / j->nparts, extra = j->rows % j->nparts;
        int64_t r0 = per * q + (q < extra ? q : extra);
        int64_t r1 = r0 + per + (q < extra ? 1 : 0);
        for (int64_t r = r0; r < r1; r++) {
            int64_t x = b->x0 + r / b->ny, y = b->y0 + r % b->ny;
            int ok = row_is_exact(j, x, y) ? row_exact(j, pt, x, y) : row_points(j, pt, x, y);
            if (!ok) return;
        }
    }
}

static rt_status check_block(const rt_block3 *b)
{
    if (!b) return RT_ERR_NULL;
    if (b->nx < 1 || b->ny < 1 || b->nz < 1) return RT_ERR_SIZE;
    if (b->x0 > INT64_MAX - (b->nx - 1) || b->y0 > INT64_MAX - (b->ny - 1) ||
        b->z0 > INT64_MAX - (b->nz - 1))
        return RT_ERR_SIZE;
    if (b->nx > INT64_MAX / b->ny || b->nx * b->ny > INT64_MAX / b->nz) return RT_ERR_SIZE;
    return RT_OK;
}

/* The largest |v[i]| (components are within +-RT_MAX_VECTOR: no overflow).
 * Integers, not fmax: Debian 12's aarch64 GCC 12.2 crashes vectorising an
 * fmax/fabs reduction at -O3. */
static double absmax(const int32_t *v, uint32_t n)
{
    int64_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        int64_t a = v[i] < 0 ? -(int64_t)v[i] : (int64_t)v[i];
        if (a > m) m = a;
    }
    return (double)m;
}

/* Scan a block into per-part results; the caller frees j->parts (and the
 * stars in it) with free_parts. */
static rt_status scan(job *j, const rt_galaxy *g, const rt_block3 *b, int catalogue, int threads)
{
    memset(j, 0, sizeof *j); /* free_parts must find no parts on any failure */
    rt_status s = check_shape(g, NULL);
    if (s == RT_OK) s = check_block(b);
    if (s != RT_OK) return s;
    j->g = g;
    j->b = b;
    j->catalogue = catalogue;
    j->rows = b->nx * b->ny;
    if (threads < 1) threads = 1;
    if (threads > RT_MAX_THREADS) threads = RT_MAX_THREADS;
    j->nparts = threads < j->rows ? threads : j->rows;
    j->parts = calloc((size_t)j->nparts, sizeof(part));
    if (!j->parts) return RT_ERR_NOMEM;
    j->zmax = fmax(fabs((double)b->z0), fabs((double)(b->z0 + (b->nz - 1))));
    j->smax = absmax(g->s, g->directions);
    j->tmax = absmax(g->t, g->directions);
    j->umax = absmax(g->u, g->directions);
    j->vmax_t = j->umax * j->zmax;
    build_residues(j);
    rt_parallel_for((int)j->nparts, j->nparts, scan_parts, j);
    for (int64_t q = 0; q < j->nparts; q++)
        if (j->parts[q].nomem) return RT_ERR_NOMEM;
    return RT_OK;
}

static void free_parts(job *j)
{
    if (!j->parts) return;
    for (int64_t q = 0; q < j->nparts; q++) free(j->parts[q].stars);
    free(j->parts);
    j->parts = NULL;
}

rt_status rt_galaxy_census(const rt_galaxy *g, const rt_block3 *b, int64_t census[NCELLS],
                           int threads)
{
    if (!census) return RT_ERR_NULL;
    job j;
    rt_status s = scan(&j, g, b, 0, threads);
    if (s == RT_OK) {
        for (int c = 0; c < NCELLS; c++) {
            int64_t n = 0;
            for (int64_t q = 0; q < j.nparts; q++) n += j.parts[q].census[c];
            census[c] = n;
        }
    }
    free_parts(&j);
    return s;
}

rt_status rt_galaxy_count(const rt_galaxy *g, const rt_block3 *b, int64_t *count, int threads)
{
    if (!count) return RT_ERR_NULL;
    int64_t census[NCELLS];
    rt_status s = rt_galaxy_census(g, b, census, threads);
    if (s != RT_OK) return s;
    int64_t n = 0;
    for (int c = 0; c < NCELLS; c++) n += census[c];
    *count = n;
    return RT_OK;
}

rt_status rt_galaxy_planet_counts(const rt_galaxy *g, const rt_block3 *b,
                                  int64_t hist[RT_STAR_PLANETS], int threads)
{
    if (!hist) return RT_ERR_NULL;
    int64_t census[NCELLS];
    rt_status s = rt_galaxy_census(g, b, census, threads);
    if (s != RT_OK) return s;
    for (int k = 0; k < RT_STAR_PLANETS; k++) {
        int64_t n = 0;
        for (int c = 0; c < RT_STAR_COLOURS; c++) n += census[k * RT_STAR_COLOURS + c];
        hist[k] = n;
    }
    return RT_OK;
}

rt_status rt_galaxy_stars(const rt_galaxy *g, const rt_block3 *b, rt_star *out, int64_t cap,
                          int64_t *count, int threads)
{
    if (!count || cap < 0 || (cap > 0 && !out)) return RT_ERR_NULL;
    job j;
    rt_status s = scan(&j, g, b, 1, threads);
    if (s == RT_OK) {
        /* parts hold consecutive rows, so concatenating them keeps the
         * (x, y, z) order whatever the thread count */
        int64_t n = 0;
        for (int64_t q = 0; q < j.nparts; q++) {
            const part *pt = &j.parts[q];
            int64_t room = cap - n;
            int64_t k = pt->n < room ? pt->n : (room > 0 ? room : 0);
            if (k > 0) memcpy(out + n, pt->stars, (size_t)k * sizeof(rt_star));
            n += pt->n;
        }
        *count = n;
    }
    free_parts(&j);
    return s;
}
