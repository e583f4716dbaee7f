/*
 * point_rows_avx2.h - the height rows of the point path (any step and
 * origin) with double windows, AVX2.  Included by tile_kernels.c before
 * terrain_avx2.h, whose height_row_avx2w tries this first.
 *
 * The seed's arithmetic, operation for operation (SPEC 4), four columns a
 * step, with three exact rewritings:
 *  - j = fl(fl(fl(A*x) + fl(B*y)) * 2^-7) is computed as
 *    fl(fl((A*2^-7)*x) + fl(B*y)*2^-7): scaling by a power of two commutes
 *    with rounding where nothing is subnormal, and nothing is when x0, step
 *    and y are 0 or at least 2^-900 in magnitude (every x, A*x, B*y and sum
 *    is then 0 or a multiple of 2^-952; checked here);
 *  - the index floor(j) (|j| < 2^30, checked by the caller) is read from the
 *    bits of floor(j) + 1.5*2^51, an exact sum whose low 32 bits are
 *    2*floor(j) modulo 2^32 (PR_MAGIC2), ToInt32 of it doubled;
 *  - p0 = P[q & mask] and d = fl(P[(q+1) & mask] - p0) are read from a
 *    double window (rt__point_dwin) by one permute each, where the four
 *    columns' indices lie in one window of 4 (|A|*step <= 100); the very
 *    doubles the seed reads and subtracts.
 * A direction with A = 0 gives the same term at every column of a row
 * (j = fl(+-0 + fl(B*y)) * 2^-7 does not depend on x, nor does jfrac, +0
 * when j is a zero): it is computed once a row by the scalar formula and
 * added in its place in the seed's order.
 */
#if defined(__x86_64__) && defined(__GNUC__)

#include <immintrin.h>

#include "kind_avx2.h"
#include "store_avx2.h"

#define PR_ATTR __attribute__((target("avx2")))
#define PR_INLINE static inline __attribute__((always_inline, target("avx2")))
/* the height rows: the avx2 variant runs where FMA is too (cpu.c) */
#define PR_FMA_ATTR __attribute__((target("avx2,fma")))
#define PR_FMA_INLINE static inline __attribute__((always_inline, target("avx2,fma")))

/* p0 + jfrac*d as the seed rounds it: fl(p0 + fl(jfrac*d)), or one fused
 * multiply-add where the row's |j| make the product exact (fma:
 * rt__point_fma_min), the same double */
PR_FMA_INLINE __m256d pr_interp(__m256d p0, __m256d jfrac, __m256d d, const int fma)
{
    return fma ? _mm256_fmadd_pd(jfrac, d, p0) : _mm256_add_pd(p0, _mm256_mul_pd(jfrac, d));
}

/* The seed's term of direction i at (x, y), and one point's height. */
static double pr_term(const rt_terrain *t, uint32_t i, double x, double y)
{
    const double *P = t->profile;
    const uint32_t mask = t->profile_len - 1;
    double j = ((double)t->vec[RT_AH][i] * x + (double)t->vec[RT_BH][i] * y) * RT_RECIP128;
    double jint = rt__floor(j);
    double jfrac = j - jint;
    double p0 = P[rt__low32(jint) & mask];
    double p1 = P[rt__low32(jint + 1.0) & mask];
    return p0 + jfrac * (p1 - p0);
}

static double pr_height_point(const rt_point_row *r, double x)
{
    double ht = 0.0;
    for (uint32_t i = 0; i < r->n; i++) ht += pr_term(r->t, i, x, r->y);
    return ht;
}

/* floor(j) + 1.5*2^51 is exact for |floor(j)| < 2^30 (the caller's bound):
 * the sum lies in [2^51, 2^52), where the doubles are the multiples of 1/2,
 * so its mantissa field is 2^51 + 2*floor(j) and its low 32 bits are
 * 2*floor(j) modulo 2^32, the index doubled as the permutes want it (one
 * shift fewer than 1.5*2^52's floor(j)).  The window row of index q is then
 * ((2q - 2*off) & 2*mask) / 2, the same as ((q - off) & mask). */
#define PR_MAGIC2 3377699720527872.0 /* 1.5 * 2^51 */

typedef struct pr_dir {
    double a7, by7;   /* A*2^-7 and fl(B*y)*2^-7 */
    uint32_t off;     /* 3 when A < 0: the window starts 3 below lane 0's index */
    uint32_t off2;    /* 1 when A < 0: the same for the two-entry windows */
    int con;          /* A == 0: the term `cterm` at every column */
    double cterm;
} pr_dir;

/* j = fl(ax + by7) of four columns whose products are ax: jfrac = j -
 * floor(j), and qb = floor(j) + 1.5*2^51, the low 32 bits of each lane
 * 2*q_k modulo 2^32 (returned by value, as px_dir_split) */
typedef struct pr_split {
    __m256d jfrac;
    __m256i qb;
} pr_split;

PR_FMA_INLINE pr_split pr_dir_split(const pr_dir *dd, __m256d ax)
{
    const __m256d j = _mm256_add_pd(ax, _mm256_set1_pd(dd->by7));
    const __m256d jint = _mm256_floor_pd(j);
    pr_split s;
    s.jfrac = _mm256_sub_pd(j, jint);
    s.qb = _mm256_castpd_si256(_mm256_add_pd(jint, _mm256_set1_pd(PR_MAGIC2)));
    return s;
}

/* the term of one direction for four columns whose products
 * fl(A*2^-7 * x) are ax */
PR_FMA_INLINE __m256d pr_dir_term(const pr_dir *dd, __m256d ax, const double *dwin, uint32_t wm,
                                  const int fma)
{
    const __m256i lo1 = _mm256_setr_epi32(0, 1, 0, 1, 0, 1, 0, 1);
    const pr_split sp = pr_dir_split(dd, ax);
    const __m256d jfrac = sp.jfrac;
    const __m256i qb = sp.qb;
    const uint32_t b2 = ((uint32_t)_mm256_cvtsi256_si32(qb) - 2u * dd->off) & (wm << 1);
    const float *row = (const float *)(const void *)(dwin + ((size_t)b2 << 2));
    /* 32-bit lanes 2k, 2k+1 of the permute (bits 2..0): 2*(q_k & 3) and
     * 2*(q_k & 3) + 1 */
    const __m256i idx = _mm256_or_si256(_mm256_shuffle_epi32(qb, 0xA0), lo1);
    const __m256d p0 = _mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_loadu_ps(row), idx));
    const __m256d d = _mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_loadu_ps(row + 8), idx));
    return pr_interp(p0, jfrac, d, fma);
}

/* The term of one direction for four columns whose products are ax, by
 * the two-entry windows (rt__point_dwin2), where the four columns' indices
 * lie in {q, q+1} of lane 0's q (A > 0) or {q-1, q} (A < 0): the row's
 * entries in slot e & 1, broadcast to both 128-bit halves by one load, and
 * vpermilpd picks slot (q & 1) of its half by bit 1 of each 64-bit index
 * (q's bit 0, there in floor(j) + 1.5*2^51: PR_MAGIC2); the very doubles of
 * pr_dir_term. */
PR_FMA_INLINE __m256d pr_dir_term2(const pr_dir *dd, __m256d ax, const double *dwin2, uint32_t wm,
                                   const int fma)
{
    const pr_split sp = pr_dir_split(dd, ax);
    const __m256d jfrac = sp.jfrac;
    /* bit 1 of each lane, which vpermilpd reads: q_k's bit 0 */
    const __m256i qb = sp.qb;
    const uint32_t b2 = ((uint32_t)_mm256_cvtsi256_si32(qb) - 2u * dd->off2) & (wm << 1);
    const double *row = dwin2 + ((size_t)b2 << 1);
    const __m256i idx = qb;
    const __m256d p0 = _mm256_permutevar_pd(_mm256_broadcast_pd((const __m128d *)(const void *)row), idx);
    const __m256d d = _mm256_permutevar_pd(_mm256_broadcast_pd((const __m128d *)(const void *)(row + 2)), idx);
    return pr_interp(p0, jfrac, d, fma);
}

/* The term of one direction for four columns whose products are ax from a
 * window of 4 * nr entries (nr = 2 or 4): rows b, b + 4, ... of the
 * four-entry windows (rt__point_dwin; b lane 0's index, 4 * nr - 1 below it
 * when A < 0: dd->off in the wide rows), entry q in row b + 4 * ((q - b) >>
 * 2), in slot q & 3 (a permute of each row, blends by bit 2 of q - b and,
 * for nr = 4, bit 3).  For rows whose |A|*step <= PR_WIDE_MAX (nr = 2:
 * coarse steps, 8 m at the classic directions) or PR_WIDE4_MAX (nr = 4:
 * 16 m): four columns' j then span at most 3*240/128 = 5.6, or 3*480/128 =
 * 11.3, plus rounding far below 0.4, so their floors differ by at most 6,
 * or 12; the very doubles of pr_dir_term. */
#define PR_WIDE_MAX 240.0
#define PR_WIDE4_MAX 480.0
PR_FMA_INLINE __m256d pr_dir_termw(const pr_dir *dd, __m256d ax, const double *dwin, uint32_t wm,
                                   const int nr, const int fma)
{
    const __m256i lo1 = _mm256_setr_epi32(0, 1, 0, 1, 0, 1, 0, 1);
    const pr_split sp = pr_dir_split(dd, ax);
    const __m256d jfrac = sp.jfrac;
    const __m256i qb = sp.qb;
    const uint32_t b2 = (uint32_t)_mm256_cvtsi256_si32(qb) - 2u * dd->off; /* 2b */
    const __m256i idx = _mm256_or_si256(_mm256_shuffle_epi32(qb, 0xA0), lo1);
    /* 2q - 2b in each lane's low bits: bit 3 (bit 2 of q - b) to the sign
     * chooses row b + 4 over b, bit 4 (bit 3 of q - b) rows b + 8, b + 12 */
    const __m256i t2 = _mm256_sub_epi64(qb, _mm256_set1_epi64x((int64_t)b2));
    const __m256d s2 = _mm256_castsi256_pd(_mm256_slli_epi64(t2, 60));
    const float *r0 = (const float *)(const void *)(dwin + ((size_t)(b2 & (wm << 1)) << 2));
    const float *r1 = (const float *)(const void *)(dwin + ((size_t)((b2 + 8u) & (wm << 1)) << 2));
#define PR_PICK(r, o) _mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_loadu_ps((r) + (o)), idx))
    __m256d p0 = _mm256_blendv_pd(PR_PICK(r0, 0), PR_PICK(r1, 0), s2);
    __m256d d = _mm256_blendv_pd(PR_PICK(r0, 8), PR_PICK(r1, 8), s2);
    if (nr == 4) {
        const float *r2 = (const float *)(const void *)(dwin + ((size_t)((b2 + 16u) & (wm << 1)) << 2));
        const float *r3 = (const float *)(const void *)(dwin + ((size_t)((b2 + 24u) & (wm << 1)) << 2));
        const __m256d s3 = _mm256_castsi256_pd(_mm256_slli_epi64(t2, 59));
        p0 = _mm256_blendv_pd(p0, _mm256_blendv_pd(PR_PICK(r2, 0), PR_PICK(r3, 0), s2), s3);
        d = _mm256_blendv_pd(d, _mm256_blendv_pd(PR_PICK(r2, 8), PR_PICK(r3, 8), s2), s3);
    }
#undef PR_PICK
    return pr_interp(p0, jfrac, d, fma);
}

/* one direction's term by the windows of mode `two`: 0 four entries
 * (pr_dir_term), 1 two (pr_dir_term2), 2 eight and 4 sixteen
 * (pr_dir_termw) */
PR_FMA_INLINE __m256d pr_dir_term_m(const pr_dir *dd, __m256d ax, const double *dwin, uint32_t wm,
                                    const int two, const int fma)
{
    return two == 1   ? pr_dir_term2(dd, ax, dwin, wm, fma)
           : two == 2 ? pr_dir_termw(dd, ax, dwin, wm, 2, fma)
           : two == 4 ? pr_dir_termw(dd, ax, dwin, wm, 4, fma)
                      : pr_dir_term(dd, ax, dwin, wm, fma);
}

/* fl(A*2^-7 * x) of the directions with A != 0 at columns [0, n8) of a row
 * into ax (direction i at ax + i*n8), as pr_row_n computes them */
PR_FMA_INLINE void pr_fill_ax(const rt_point_row *r, const pr_dir *dd, uint32_t n, int64_t n8,
                          double *ax)
{
    const __m256d vx0 = _mm256_set1_pd(r->x0), vstep = _mm256_set1_pd(r->step);
    const __m256d four = _mm256_set1_pd(4.0);
    __m256d ci = _mm256_setr_pd((double)r->c0, (double)(r->c0 + 1), (double)(r->c0 + 2),
                                (double)(r->c0 + 3));
    for (int64_t c = 0; c < n8; c += 4) {
        const __m256d x = _mm256_add_pd(vx0, _mm256_mul_pd(ci, vstep));
        for (uint32_t i = 0; i < n; i++)
            if (!dd[i].con) _mm256_storeu_pd(ax + i * n8 + c, _mm256_mul_pd(_mm256_set1_pd(dd[i].a7), x));
        ci = _mm256_add_pd(ci, four);
    }
}

/* columns [0, n8) of a height row, four a step (fewer live registers than
 * eight: AVX2 has 16), directions [0, n) of dd, none with A = 0 unless !nocon,
 * their sums starting from hc (the sum of the leading directions with A = 0,
 * left out of dd); the products fl(A*2^-7 * x) read from ax (pr_fill_ax) */
PR_FMA_INLINE void pr_row_ax(const rt_point_row *r, const pr_dir *dd, uint32_t n, int64_t n8,
                             const double *ax, int nocon, double hc, int two, const int fma)
{
    const double *dwin = two == 1 ? r->dwin2 : r->dwin;
    const uint32_t wm = two == 1 ? r->dwin2_mask : r->dwin_mask;
    const __m256d vhc = _mm256_set1_pd(hc);
    for (int64_t c = 0; c < n8; c += 4) {
        __m256d h = vhc;
        for (uint32_t i = 0; i < n; i++) {
            if (!nocon && dd[i].con) {
                h = _mm256_add_pd(h, _mm256_set1_pd(dd[i].cterm));
                continue;
            }
            const __m256d axi = _mm256_loadu_pd(ax + i * n8 + c);
            h = _mm256_add_pd(h, pr_dir_term_m(&dd[i], axi, dwin, wm, two, fma));
        }
        _mm256_storeu_pd(r->out + c, h);
    }
}

/* columns [0, n8) of a height row, eight a step, the products computed */
PR_FMA_INLINE void pr_row_n(const rt_point_row *r, const pr_dir *dd, uint32_t n, int64_t n8,
                            const int two, const int fma)
{
    const double *dwin = r->dwin;
    const uint32_t wm = r->dwin_mask;
    const __m256d vx0 = _mm256_set1_pd(r->x0), vstep = _mm256_set1_pd(r->step);
    const __m256d eight = _mm256_set1_pd(8.0);
    __m256d ci0 = _mm256_setr_pd((double)r->c0, (double)(r->c0 + 1), (double)(r->c0 + 2),
                                 (double)(r->c0 + 3));
    __m256d ci1 = _mm256_setr_pd((double)(r->c0 + 4), (double)(r->c0 + 5), (double)(r->c0 + 6),
                                 (double)(r->c0 + 7));
    for (int64_t c = 0; c < n8; c += 8) {
        const __m256d x0 = _mm256_add_pd(vx0, _mm256_mul_pd(ci0, vstep));
        const __m256d x1 = _mm256_add_pd(vx0, _mm256_mul_pd(ci1, vstep));
        __m256d h0 = _mm256_setzero_pd(), h1 = _mm256_setzero_pd();
        for (uint32_t i = 0; i < n; i++) {
            if (dd[i].con) {
                const __m256d ct = _mm256_set1_pd(dd[i].cterm);
                h0 = _mm256_add_pd(h0, ct);
                h1 = _mm256_add_pd(h1, ct);
                continue;
            }
            const __m256d a = _mm256_set1_pd(dd[i].a7);
            h0 = _mm256_add_pd(h0, pr_dir_term_m(&dd[i], _mm256_mul_pd(a, x0), dwin, wm, two, fma));
            h1 = _mm256_add_pd(h1, pr_dir_term_m(&dd[i], _mm256_mul_pd(a, x1), dwin, wm, two, fma));
        }
        _mm256_storeu_pd(r->out + c, h0);
        _mm256_storeu_pd(r->out + c + 4, h1);
        ci0 = _mm256_add_pd(ci0, eight);
        ci1 = _mm256_add_pd(ci1, eight);
    }
}

/* Columns [0, n8) of a height row (pr_height_row_avx2), the products from
 * the block's scratch where it has them; fma: pr_interp's. */
PR_FMA_INLINE void pr_height_cols(const rt_point_row *r, const pr_dir *dd, uint32_t n, int64_t n8,
                                  int use_ax, int two, const int fma)
{
    if (use_ax) {
        /* the leading directions with A = 0 add the same terms at every
         * column: their sum, in the seed's order from 0.0, once a row (the
         * heights are sums from 0.0 in the seed's order: the same operations
         * on the same values) */
        uint32_t i0 = 0, mixed = 0;
        double hc = 0.0;
        for (; i0 < n && dd[i0].con; i0++) hc += dd[i0].cterm;
        for (uint32_t i = i0; i < n; i++) mixed |= (uint32_t)dd[i].con;
        const double *ax = r->ax + i0 * n8;
        if (two == 2 && !mixed) /* coarse steps */
            pr_row_ax(r, dd + i0, n - i0, n8, ax, 1, hc, 2, fma);
        else if (two == 2)
            pr_row_ax(r, dd + i0, n - i0, n8, ax, 0, hc, 2, fma);
        else if (two == 4 && !mixed)
            pr_row_ax(r, dd + i0, n - i0, n8, ax, 1, hc, 4, fma);
        else if (two == 4)
            pr_row_ax(r, dd + i0, n - i0, n8, ax, 0, hc, 4, fma);
        else if (two && !mixed && n - i0 == 4) /* the classic model, unrolled */
            pr_row_ax(r, dd + i0, 4, n8, ax, 1, hc, 1, fma);
        else if (!mixed && n - i0 == 4)
            pr_row_ax(r, dd + i0, 4, n8, ax, 1, hc, 0, fma);
        else if (two && !mixed)
            pr_row_ax(r, dd + i0, n - i0, n8, ax, 1, hc, 1, fma);
        else if (!mixed)
            pr_row_ax(r, dd + i0, n - i0, n8, ax, 1, hc, 0, fma);
        else
            pr_row_ax(r, dd + i0, n - i0, n8, ax, 0, hc, two, fma);
    } else if (two == 2) {
        pr_row_n(r, dd, n, n8, 2, fma);
    } else if (two == 4) {
        pr_row_n(r, dd, n, n8, 4, fma);
    } else if (n == 5) {
        pr_row_n(r, dd, 5, n8, 0, fma);
    } else {
        pr_row_n(r, dd, n, n8, 0, fma);
    }
}

/* Whether every j = fl(fl(A*2^-7 * x) + fl(B*y)*2^-7) of the row's moving
 * directions has |j| >= r->fma_min (rt__point_fma_min: then the fused
 * multiply-add is the seed's two roundings).  j is monotone along the row
 * (x, the product and the sum are, each rounding being monotone), so its
 * two ends tell: both at least fma_min, or both at most -fma_min. */
static int pr_row_fma(const rt_point_row *r, const pr_dir *dd, uint32_t n)
{
    const double m = r->fma_min;
    if (!(m > 0.0) || r->nx < 1) return 0;
    const double xa = r->x0 + (double)r->c0 * r->step;
    const double xb = r->x0 + (double)(r->c0 + r->nx - 1) * r->step;
    for (uint32_t i = 0; i < n; i++) {
        if (dd[i].con) continue;
        const double ja = dd[i].a7 * xa + dd[i].by7, jb = dd[i].a7 * xb + dd[i].by7;
        if (!((ja >= m && jb >= m) || (ja <= -m && jb <= -m))) return 0;
    }
    return 1;
}

/* A height row by the double windows; 0 (nothing written) when the row is
 * not theirs: no windows, something could be subnormal, or four columns of
 * some direction span more than a window. */
static PR_FMA_ATTR int pr_height_row_avx2(const rt_point_row *r)
{
    const rt_terrain *t = r->t;
    const double tiny = 0x1p-900;
    if (!r->dwin || r->n > RT_MAX_DIRECTIONS || (r->x0 != 0.0 && fabs(r->x0) < tiny) ||
        !(r->step >= tiny) || (r->y != 0.0 && fabs(r->y) < tiny))
        return 0;
    pr_dir dd[RT_MAX_DIRECTIONS];
    const double xc = r->x0 + (double)r->c0 * r->step; /* any column of the row */
    int two = r->dwin2 != NULL, wide = 0;
    for (uint32_t i = 0; i < r->n; i++) {
        const int32_t a = t->vec[RT_AH][i];
        /* 4 columns span |A|*3*step/128 (+ rounding) <= 2.35 + 1 indices;
         * up to PR_WIDE_MAX, eight-entry windows, up to PR_WIDE4_MAX sixteen
         * (pr_dir_termw) */
        if (!(fabs((double)a) * r->step <= PR_WIDE4_MAX)) return 0;
        if (!(fabs((double)a) * r->step <= 100.0) && wide < 2) wide = 2;
        if (!(fabs((double)a) * r->step <= PR_WIDE_MAX)) wide = 4;
        /* the two-entry windows: 4 columns span |A|*3*step/128 <= 0.94 of an
         * index, and the rounding of x, A*x and the sum adds far less than
         * 2^-10 (|A*x| < 2^37, the caller's |j| < 2^30): lane 0's floor and
         * at most the next (A > 0) or the one before (A < 0) */
        if (!(fabs((double)a) * r->step <= 40.0)) two = 0;
        dd[i].a7 = (double)a * RT_RECIP128;
        dd[i].by7 = (double)t->vec[RT_BH][i] * r->y * RT_RECIP128;
        dd[i].off = a < 0 ? 3u : 0u;
        dd[i].off2 = a < 0 ? 1u : 0u;
        dd[i].con = a == 0;
        dd[i].cterm = a == 0 ? pr_term(t, i, xc, r->y) : 0.0;
    }
    if (wide) { /* every direction by the eight- or sixteen-entry windows */
        two = wide;
        for (uint32_t i = 0; i < r->n; i++) dd[i].off = t->vec[RT_AH][i] < 0 ? 4u * (uint32_t)wide - 1u : 0u;
    }
    const uint32_t n = r->n;
    const int64_t nx = r->nx, n8 = nx & ~(int64_t)7;
    /* the block's products, from the first row on (they depend on x0, step,
     * c0, nx and A only, the same for every row of a block; the caller gives
     * the scratch to one kernel of a block only) */
    const int use_ax = n8 > 0 && r->ax && r->ax_ready && (uint64_t)n * (uint64_t)n8 <= r->ax_cap;
    if (use_ax && !*r->ax_ready) {
        pr_fill_ax(r, dd, n, n8, r->ax);
        *r->ax_ready = 1;
    }
    if (pr_row_fma(r, dd, n))
        pr_height_cols(r, dd, n, n8, use_ax, two, 1);
    else
        pr_height_cols(r, dd, n, n8, use_ax, two, 0);
    for (int64_t c = n8; c < nx; c++)
        r->out[c] = pr_height_point(r, r->x0 + (double)(r->c0 + c) * r->step);
    return 1;
}


/* ------------------------------------------------------------------------ */
/* The profile sums of a terra row's tile (rt_point_prof), any step: as
 * prof_row_avx2w (floor(fl(fl((A*2^-7)*x) + fl(B*y)*2^-7)), the rewriting
 * argued there), eight columns a step, the indices read from the bits of
 * floor + 1.5*2^52 (|index| < 2^29: the caller's |A*x + B*y| < 2^36) and
 * packed by one shuffle into the column order 0 1 4 5 2 3 6 7, which the
 * rotated-window lookups do not care about; the integer sums are put back
 * in order once a pair.  Every direction by a window (|A|*step <= 100). */

typedef struct pp_dir {
    double a7, by7;
    uint32_t off;     /* 7 when A < 0: the window starts 7 below column 0's index */
} pp_dir;

/* the window lookups of one direction for eight columns at x0, x1 */
PR_INLINE __m256i pp_dir_sum(const pp_dir *dd, __m256d x0, __m256d x1, const int32_t *win,
                             uint32_t wm)
{
    const __m256d magic = _mm256_set1_pd(6755399441055744.0); /* 1.5 * 2^52 */
    const __m256d a = _mm256_set1_pd(dd->a7), bb = _mm256_set1_pd(dd->by7);
    const __m256d q0 = _mm256_add_pd(_mm256_floor_pd(_mm256_add_pd(_mm256_mul_pd(a, x0), bb)), magic);
    const __m256d q1 = _mm256_add_pd(_mm256_floor_pd(_mm256_add_pd(_mm256_mul_pd(a, x1), bb)), magic);
    /* the low 32 bits of each: columns 0 1 4 5 | 2 3 6 7 */
    const __m256i q = _mm256_castps_si256(
        _mm256_shuffle_ps(_mm256_castpd_ps(q0), _mm256_castpd_ps(q1), 0x88));
    const uint32_t b = (uint32_t)_mm256_cvtsi256_si32(q) - dd->off;
    const __m256i w = _mm256_load_si256((const __m256i *)(const void *)(win + ((size_t)(b & wm) << 3)));
    return _mm256_srai_epi32(_mm256_permutevar8x32_epi32(w, q), 16);
}

/* One column of a terra row's profile sums by the seed's arithmetic (as
 * prof_xy), and its round_js(x): the last columns of a row (here and in
 * terrain_avx2.h's prof_row_avx2w) */
static void aw_prof_point(const rt_point_prof *r, int c, double x)
{
    const rt_terrain *t = r->t;
    const uint32_t mask = t->profile_len - 1;
    static const int pa[3] = {RT_A1, RT_A2, RT_A3}, pb[3] = {RT_B1, RT_B2, RT_B3};
    for (int p = 0; p < 3; p++) {
        int32_t s = 0;
        for (uint32_t i = 0; i < r->n; i++) {
            double v = (double)t->vec[pa[p]][i] * x + (double)t->vec[pb[p]][i] * r->y;
            double q = rt__floor(rt__floor(v) * RT_RECIP128);
            s += r->profile[rt__low32(q) & mask];
        }
        r->a[p][c] = s;
    }
    r->xr[c] = (int32_t)rt__round_js(x);
}

/* Are the eight columns [c, c+8) all lake or mud (r->ht below lake_height
 * or lake_base)?  Then their sums are not read (rt_point_prof.ht): zeros
 * written, and nonzero returned. */
PR_INLINE int pp_wet8(const rt_point_prof *r, int c, __m256d lake_h, __m256d lake_b)
{
    if (!r->ht) return 0;
    const __m256d h0 = _mm256_loadu_pd(r->ht + c), h1 = _mm256_loadu_pd(r->ht + c + 4);
    const __m256d w0 = _mm256_or_pd(_mm256_cmp_pd(h0, lake_h, _CMP_LT_OQ), _mm256_cmp_pd(h0, lake_b, _CMP_LT_OQ));
    const __m256d w1 = _mm256_or_pd(_mm256_cmp_pd(h1, lake_h, _CMP_LT_OQ), _mm256_cmp_pd(h1, lake_b, _CMP_LT_OQ));
    if (_mm256_movemask_pd(_mm256_and_pd(w0, w1)) != 0xf) return 0;
    for (int p = 0; p < 3; p++) _mm256_storeu_si256((__m256i *)(void *)(r->a[p] + c), _mm256_setzero_si256());
    return 1;
}

/* round_js(x) of the eight columns [c, c+8) at x0, x1 into r->xr: floor,
 * plus one if the fraction is >= 0.5 */
PR_INLINE void pp_xr8(const rt_point_prof *r, int c, __m256d x0, __m256d x1)
{
    const __m256d half = _mm256_set1_pd(0.5), onepd = _mm256_set1_pd(1.0);
    const __m256d f0 = _mm256_floor_pd(x0), f1 = _mm256_floor_pd(x1);
    const __m256d u0 = _mm256_and_pd(_mm256_cmp_pd(_mm256_sub_pd(x0, f0), half, _CMP_GE_OQ), onepd);
    const __m256d u1 = _mm256_and_pd(_mm256_cmp_pd(_mm256_sub_pd(x1, f1), half, _CMP_GE_OQ), onepd);
    _mm_storeu_si128((__m128i *)(void *)(r->xr + c), _mm256_cvttpd_epi32(_mm256_add_pd(f0, u0)));
    _mm_storeu_si128((__m128i *)(void *)(r->xr + c + 4), _mm256_cvttpd_epi32(_mm256_add_pd(f1, u1)));
}

PR_INLINE void pp_row_n(const rt_point_prof *r, const pp_dir (*dd)[RT_MAX_DIRECTIONS], uint32_t n)
{
    const int nk = r->nk, n8 = nk & ~7;
    const __m256d vx0 = _mm256_set1_pd(r->x0), vstep = _mm256_set1_pd(r->step);
    const __m256d eight = _mm256_set1_pd(8.0);
    const int32_t *win = r->win;
    const uint32_t wm = r->win_mask;
    __m256d ci0 = _mm256_setr_pd((double)r->c0, (double)(r->c0 + 1), (double)(r->c0 + 2),
                                 (double)(r->c0 + 3));
    __m256d ci1 = _mm256_setr_pd((double)(r->c0 + 4), (double)(r->c0 + 5), (double)(r->c0 + 6),
                                 (double)(r->c0 + 7));
    const __m256d lake_h = _mm256_set1_pd(r->lake_height), lake_b = _mm256_set1_pd(r->lake_base);
    for (int c = 0; c < n8; c += 8) {
        const __m256d x0 = _mm256_add_pd(vx0, _mm256_mul_pd(ci0, vstep));
        const __m256d x1 = _mm256_add_pd(vx0, _mm256_mul_pd(ci1, vstep));
        const int wet = pp_wet8(r, c, lake_h, lake_b);
        for (int p = 0; !wet && p < 3; p++) {
            __m256i acc = _mm256_setzero_si256();
            for (uint32_t i = 0; i < n; i++)
                acc = _mm256_add_epi32(acc, pp_dir_sum(&dd[p][i], x0, x1, win, wm));
            _mm256_storeu_si256((__m256i *)(void *)(r->a[p] + c), _mm256_permute4x64_epi64(acc, 0xD8));
        }
        if (!r->xr_ready) pp_xr8(r, c, x0, x1); /* else the previous row's */
        ci0 = _mm256_add_pd(ci0, eight);
        ci1 = _mm256_add_pd(ci1, eight);
    }
    for (int c = n8; c < nk; c++) aw_prof_point(r, c, r->x0 + (double)(r->c0 + c) * r->step);
}

/* ------------------------------------------------------------------------ */
/* The profile sums by fixed point, where the block keeps its products
 * (rt_point_prof.fix).  The index of a pair (A, B) at column c of a call
 * is floor(v_c / 128), v_c = fl(fl(A*x_c) + fl(B*y)), x_c = fl(x0 +
 * fl((c0 + c)*step)).  Against the real V_c = A*(x0 + (c0 + c)*step) +
 * fl(B*y), whose V_c - V_0 is c*A*step exactly:
 *  - |x_c - (x0 + (c0 + c)*step)| <= 2u Mx (u = 2^-53, Mx >= |x0| +
 *    |(c0 + c)*step|), |fl(A*x_c) - A*x_c| <= u |A| Mx (1 + 3u) and the sum
 *    adds u (|A| Mx (1 + 3u) + |fl(B*y)|): |v_c - V_c| <= e =
 *    (6 |A| Mx + 2 |fl(B*y)| + 2) 2^-53, with room;
 *  - in units of 2^-F, U_c = floor(v_0 2^F) + W_c + E (modulo 2^32), where
 *    W_c = round(fl(c*A*step) 2^F) is within h = 1/2 + 2^-9 of c*A*step 2^F
 *    (|c*A*step| < 2^18: 2048 columns, |A|*step <= 100), puts v_c 2^F
 *    within G = 1 + h + 2e 2^F of U_c - E; E = ceil(G) + 1 > G, so v_c 2^F
 *    lies in (U_c - 2E, U_c);
 *  - where U_c mod 2^(F+7) >= 2E the whole interval has one floor(. /
 *    2^(F+7)), the index, and U_c >> (F+7) is its low L = 25 - F bits: the
 *    index modulo 2^L, 2^L the windows' row count, all the windows need.
 * A direction's eight columns with some lane nearer an index's boundary
 * than that (some 2^-21 of the lanes, and the boundaries lattice steps hit)
 * are computed by the doubles (pp_dir_sum).  A direction costs seven
 * vector operations for eight columns, where the doubles take fifteen. */

/* The pairs' directions are numbered d = p*n + i (n directions a pair),
 * in PQ_ROUND(3n) slots (a multiple of 8, the last ones unused). */
#define PQ_ROUND(k) (((k) + 7u) & ~7u)

/* A row is taken in chunks of PQ_COLS columns, each anchored at its first
 * column (c above counts from there): the products of a chunk (W_c of the
 * 15 pairs of the classic model: 15 KiB) stay in the L1 cache.  The
 * caller sizes the scratch by the same (rt_tile.h). */
#define PQ_COLS RT_POINT_FIX_COLS

/* The fixed point of a call: 2^F, the shift F + 7, E and 2E. */
typedef struct pq_fix {
    double scale;
    int shift;
    uint32_t e, e2;
    size_t cols;      /* W's stride: PQ_COLS, or fewer for narrow grids */
} pq_fix;

/* W_c of every direction d and column [0, cols): r->fix + d*cols + c;
 * then those of every eighth column again, the directions side by side
 * (the first lanes of a group: r->fix + 3n*cols + (c/8)*PQ_ROUND(3n) + d) */
static void pq_fill(const rt_point_prof *r, uint32_t n, size_t cols, double scale)
{
    static const int pa[3] = {RT_A1, RT_A2, RT_A3};
    const size_t nd = 3 * (size_t)n, sd = PQ_ROUND(3 * n);
    uint32_t *first = r->fix + nd * cols;
    for (size_t k = 0; k < cols / 8 * sd; k++) first[k] = 0;
    for (int p = 0; p < 3; p++)
        for (uint32_t i = 0; i < n; i++) {
            const int64_t a = r->t->vec[pa[p]][i];
            const size_t d = (size_t)p * n + i;
            uint32_t *w = r->fix + d * cols;
            for (size_t c = 0; c < cols; c++) {
                const double v = (double)((int64_t)c * a) * r->step * scale;
                double f = rt__floor(v);
                if (v - f >= 0.5) f += 1.0; /* v - f exact */
                w[c] = (uint32_t)rt__u64((int64_t)f);
                if (c % 8 == 0) first[c / 8 * sd + d] = w[c];
            }
        }
}

/* The bases of the chunk whose first column is c0 + cs, direction d's in
 * base[d].  Inlined into each caller, so compiled for its target: one copy
 * for baseline x86-64, called from the AVX-512 rows eight times a row, took
 * 12.6 % of the samples of their grid at 0.37 (perf, Zen 4). */
static inline __attribute__((always_inline)) void
pq_bases(const rt_point_prof *r, uint32_t *base, uint32_t n, int cs, const pq_fix *fx)
{
    const rt_terrain *t = r->t;
    static const int pa[3] = {RT_A1, RT_A2, RT_A3}, pb[3] = {RT_B1, RT_B2, RT_B3};
    const double xc = r->x0 + (double)(r->c0 + cs) * r->step; /* as the columns compute it */
    for (int p = 0; p < 3; p++)
        for (uint32_t i = 0; i < n; i++) {
            const int32_t a = t->vec[pa[p]][i];
            const double v0 = (double)a * xc + (double)t->vec[pb[p]][i] * r->y; /* the seed's v */
            base[p * n + i] = (uint32_t)rt__u64((int64_t)rt__floor(v0 * fx->scale)) + fx->e;
        }
}

/* The window rows of every direction at once, from the group's first
 * lanes (first: the chunk's, at the group): ((U >> (F+7)) - off) mod rows,
 * in bytes (rows of 2^lg bytes), into rowb (PQ_ROUND(3n) slots: sd) */
PR_INLINE void pq_rows(const uint32_t *base, const uint32_t *first, const uint32_t *offs,
                       uint32_t sd, __m256i vshift, __m256i vmask, int lg, uint32_t *rowb)
{
    for (uint32_t d = 0; d < sd; d += 8) {
        const __m256i u0 = _mm256_add_epi32(_mm256_load_si256((const __m256i *)(const void *)(base + d)),
                                            _mm256_loadu_si256((const __m256i *)(const void *)(first + d)));
        const __m256i q0 = _mm256_sub_epi32(_mm256_srlv_epi32(u0, vshift),
                                            _mm256_load_si256((const __m256i *)(const void *)(offs + d)));
        _mm256_store_si256((__m256i *)(void *)(rowb + d), _mm256_slli_epi32(_mm256_and_si256(q0, vmask), lg));
    }
}

/* The bounds' table entries of direction slots [d, d+8) from their first
 * lanes' indices q (rt_veg_bounds.h: the window from q less vb->off, in the
 * table at vb->toff; bm: the profile's mask) into lob */
PR_INLINE void pq_lob8(const rt_veg_bounds *vb, __m256i q, __m256i bm, uint32_t d, uint32_t *lob)
{
    const __m256i e = _mm256_and_si256(
        _mm256_sub_epi32(q, _mm256_load_si256((const __m256i *)(const void *)(vb->off + d))), bm);
    _mm256_store_si256((__m256i *)(void *)(lob + d),
                       _mm256_add_epi32(e, _mm256_load_si256((const __m256i *)(const void *)(vb->toff + d))));
}

/* pq_rows, and the bounds' table entries of every direction (pq_lob8) */
PR_INLINE void pq_rows_vb(const uint32_t *base, const uint32_t *first, const uint32_t *offs,
                          uint32_t sd, __m256i vshift, __m256i vmask, int lg, uint32_t *rowb,
                          const rt_veg_bounds *vb, uint32_t *lob)
{
    const __m256i bm = _mm256_set1_epi32((int)vb->mask);
    for (uint32_t d = 0; d < sd; d += 8) {
        const __m256i u0 = _mm256_add_epi32(_mm256_load_si256((const __m256i *)(const void *)(base + d)),
                                            _mm256_loadu_si256((const __m256i *)(const void *)(first + d)));
        const __m256i q = _mm256_srlv_epi32(u0, vshift);
        const __m256i q0 = _mm256_sub_epi32(q, _mm256_load_si256((const __m256i *)(const void *)(offs + d)));
        _mm256_store_si256((__m256i *)(void *)(rowb + d), _mm256_slli_epi32(_mm256_and_si256(q0, vmask), lg));
        pq_lob8(vb, q, bm, d, lob);
    }
}

/* The pairs a group needs (rt__vb_need), from the table entries lob of its
 * directions (d = p*n + i) */
static inline __attribute__((always_inline)) unsigned
pq_need(const rt_veg_bounds *vb, const uint32_t *lob, uint32_t n, int32_t rep[3])
{
    const uint64_t *tab = vb->tab;
    uint64_t S[3];
    for (uint32_t p = 0; p < 3; p++) {
        uint64_t s = 0;
        for (uint32_t i = 0; i < n; i++) s += tab[lob[p * n + i]];
        S[p] = s;
    }
    return rt__vb_need(vb, S, rep);
}

/* The columns of r from its column c on (the sums, rounded x and heights
 * there) */
static inline rt_point_prof pp_from(const rt_point_prof *r, int c)
{
    rt_point_prof rest = *r;
    rest.c0 += c;
    rest.nk -= c;
    for (int p = 0; p < 3; p++) rest.a[p] += c;
    rest.xr += c;
    if (rest.ht) rest.ht += c;
    return rest;
}

/* U = base + W of direction d at the eight columns from column k of the
 * chunk (W: pq_fill, cols columns a direction) */
PR_INLINE __m256i pq_u(const uint32_t *fix, const uint32_t *base, uint32_t d, size_t cols, int k)
{
    const uint32_t *w = fix + (size_t)d * cols + k;
    return _mm256_add_epi32(_mm256_set1_epi32((int)base[d]), _mm256_loadu_si256((const __m256i *)(const void *)w));
}

/* x of the eight columns [c, c+8) of a row, fl(x0 + fl((c0 + c + k)*step))
 * (the column numbers exact integers, as pp_row_n's) */
PR_INLINE void pq_x8(const rt_point_prof *r, int c, __m256d vx0, __m256d vstep, __m256d *x0,
                     __m256d *x1)
{
    const __m256d cc = _mm256_set1_pd((double)(r->c0 + c));
    *x0 = _mm256_add_pd(vx0, _mm256_mul_pd(_mm256_add_pd(cc, _mm256_setr_pd(0.0, 1.0, 2.0, 3.0)), vstep));
    *x1 = _mm256_add_pd(vx0, _mm256_mul_pd(_mm256_add_pd(cc, _mm256_setr_pd(4.0, 5.0, 6.0, 7.0)), vstep));
}

PR_INLINE void pq_row_n(const rt_point_prof *r, const pp_dir (*dd)[RT_MAX_DIRECTIONS],
                        uint32_t n, const pq_fix *fx)
{
    const int nk = r->nk, n8 = nk & ~7;
    const size_t cols = fx->cols;
    const __m256d vx0 = _mm256_set1_pd(r->x0), vstep = _mm256_set1_pd(r->step);
    const __m256i vshift = _mm256_set1_epi32(fx->shift), lim = _mm256_set1_epi32((int)fx->e2);
    const __m256i frac = _mm256_set1_epi32((int)((1u << fx->shift) - 1u));
    const int32_t *win = r->win, *winp = r->winp;
    const uint32_t wm = r->win_mask, pm = r->winp_mask;
    const __m256d lake_h = _mm256_set1_pd(r->lake_height), lake_b = _mm256_set1_pd(r->lake_base);
    /* per direction d: the chunk's base, the windows' offset (pp_dir.off)
     * and a group's window row (its byte offset in winp), PQ_ROUND(3n)
     * slots */
    const uint32_t nd = 3 * n, sd = PQ_ROUND(3 * n);
    uint32_t base[PQ_ROUND(3 * RT_MAX_DIRECTIONS)] __attribute__((aligned(32))) = {0};
    uint32_t offs[PQ_ROUND(3 * RT_MAX_DIRECTIONS)] __attribute__((aligned(32))) = {0};
    uint32_t rowb[PQ_ROUND(3 * RT_MAX_DIRECTIONS)] __attribute__((aligned(32)));
    uint32_t lob[PQ_ROUND(3 * RT_MAX_DIRECTIONS)] __attribute__((aligned(32)));
    const rt_veg_bounds *vb = r->vb;
    const __m256i vbm = _mm256_set1_epi32(vb ? (int)vb->mask : 0);
    unsigned need16 = 7;
    int32_t rep16[3] = {0, 0, 0};
    const uint32_t *first = r->fix + (size_t)nd * cols; /* the groups' first lanes */
    for (uint32_t d = 0; d < nd; d++) offs[d] = dd[d / n][d % n].off;
    const __m256i vpm = _mm256_set1_epi32((int)pm);
    int cs = 0; /* the chunk's first column */
    const int xr_ready = r->xr_ready;
    /* The near lanes' check, once for eight columns of every direction
     * while few groups need it (batched), else direction by direction: at
     * lattice steps such as 1/3 most groups have some lane on a boundary
     * (72 % at 2048^2), at 0.37 some 5 %.  The switch, when more than a
     * quarter of the groups (less 8) were redone: at 0.37 the stricter
     * eighth (less 1) was passed by chance within the first row's 16
     * groups, and the batched check then never ran.  Kept in *fix_ready
     * (bit 1) for the thread's other rows of the call; the same sums
     * either way. */
    int batched = !(*r->fix_ready & 2), groups = 0, redone = 0;
    for (int c = 0; c < n8; c += 8) {
        if (c == cs + (int)cols || c == 0) {
            cs = c;
            pq_bases(r, base, n, cs, fx);
        }
        /* the window rows of every direction at once, from the first lanes:
         * ((U >> (F+7)) - off) mod rows, in bytes (a lane 0 near a boundary
         * makes its direction one for the doubles below); written out here
         * rather than by pq_rows, which took AVX2's grid at 0.37, 1/3 and
         * from (0.1, 0.3) 1.02 of the time (GCC's code for the loop around
         * it differs) */
        for (uint32_t d = 0; d < sd; d += 8) {
            const __m256i u0 = _mm256_add_epi32(
                _mm256_load_si256((const __m256i *)(const void *)(base + d)),
                _mm256_loadu_si256((const __m256i *)(const void *)(first + (size_t)(c - cs) / 8 * sd + d)));
            const __m256i q = _mm256_srlv_epi32(u0, vshift);
            const __m256i q0 = _mm256_sub_epi32(q, _mm256_load_si256((const __m256i *)(const void *)(offs + d)));
            _mm256_store_si256((__m256i *)(void *)(rowb + d), _mm256_slli_epi32(_mm256_and_si256(q0, vpm), 5));
            if (vb && !(c & 15)) pq_lob8(vb, q, vbm, d, lob); /* the bounds' table entries */
        }
        /* read back from memory, a load each (GCC otherwise keeps them in
         * vector registers and extracts each by vpextrd) */
        __asm__ volatile("" : : "r"(rowb), "r"(lob) : "memory");
        const int wet = pp_wet8(r, c, lake_h, lake_b);
        /* the pairs this group needs (rt_veg_bounds.h); the others' lanes
         * take a value classified as their sums */
        if (vb && !(c & 15)) /* for sixteen columns (the tables' groups), this and the next eight */
            need16 = pq_need(vb, lob, n, rep16);
        const unsigned need = vb ? need16 : 7u;
        for (int p = 0; vb && !wet && p < 3; p++)
            if (!(need >> p & 1)) _mm256_storeu_si256((__m256i *)(void *)(r->a[p] + c), _mm256_set1_epi32(rep16[p]));
        int each = !wet && !batched;
        if (!wet && batched) {
            /* the lookups of every direction, and the least U mod 2^(F+7)
             * of all their lanes, checked once */
            __m256i least = frac;
            for (int p = 0; p < 3; p++) {
                if (!(need >> p & 1)) continue;
                __m256i acc = _mm256_setzero_si256();
                for (uint32_t i = 0; i < n; i++) {
                    const uint32_t d = (uint32_t)p * n + i;
                    const __m256i u = pq_u(r->fix, base, d, cols, c - cs);
                    least = _mm256_min_epu32(least, _mm256_and_si256(u, frac));
                    const __m256i wv = _mm256_load_si256((const __m256i *)(const void *)((const char *)winp + rowb[d]));
                    acc = _mm256_add_epi32(acc, _mm256_permutevar8x32_epi32(wv, _mm256_srlv_epi32(u, vshift)));
                }
                _mm256_storeu_si256((__m256i *)(void *)(r->a[p] + c), acc);
            }
            groups++;
            if (__builtin_expect(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(lim, least))) != 0, 0)) {
                each = 1; /* some lane near a boundary: again, direction by direction */
                if (++redone * 4 > groups + (vb ? 256 : 32)) { /* as px_pq_row_n's */
                    batched = 0; /* the lattice hits boundaries often (step 1/3) */
                    *r->fix_ready |= 2;
                }
            }
        }
        /* x, for the doubles' directions and round_js: only where used, so
         * that the lookups of the batched loop have the registers */
        __m256d x0 = _mm256_setzero_pd(), x1 = x0;
        if (each || !xr_ready) pq_x8(r, c, vx0, vstep, &x0, &x1);
        for (int p = 0; each && p < 3; p++) {
            if (!(need >> p & 1)) continue;
            __m256i acc = _mm256_setzero_si256();
            for (uint32_t i = 0; i < n; i++) {
                const uint32_t d = (uint32_t)p * n + i;
                const __m256i u = pq_u(r->fix, base, d, cols, c - cs);
                const __m256i q = _mm256_srlv_epi32(u, vshift);
                /* a lane within 2E of a boundary (U mod 2^(F+7) < 2E, both
                 * below 2^31): the direction's eight by the doubles */
                const __m256i near = _mm256_cmpgt_epi32(lim, _mm256_and_si256(u, frac));
                if (__builtin_expect(_mm256_movemask_ps(_mm256_castsi256_ps(near)) != 0, 0)) {
                    acc = _mm256_add_epi32(acc, _mm256_permute4x64_epi64(pp_dir_sum(&dd[p][i], x0, x1, win, wm), 0xD8));
                    continue;
                }
                const __m256i wv = _mm256_load_si256((const __m256i *)(const void *)((const char *)winp + rowb[d]));
                acc = _mm256_add_epi32(acc, _mm256_permutevar8x32_epi32(wv, q));
            }
            _mm256_storeu_si256((__m256i *)(void *)(r->a[p] + c), acc);
        }
        if (!xr_ready) pp_xr8(r, c, x0, x1); /* else the previous row's */
    }
    for (int c = n8; c < nk; c++) aw_prof_point(r, c, r->x0 + (double)(r->c0 + c) * r->step);
}

/* The fixed point of a call (and W, once a block) for rotated windows of
 * win_mask + 1 rows (the AVX2 rows' winp, the AVX-512 rows' win16); 0 where
 * the call is not for it: no scratch or windows, or a bound too wide (far
 * coordinates, long profiles). */
static int pq_setup(const rt_point_prof *r, const int32_t *win, uint32_t win_mask, pq_fix *fx)
{
    const rt_terrain *t = r->t;
    static const int pa[3] = {RT_A1, RT_A2, RT_A3}, pb[3] = {RT_B1, RT_B2, RT_B3};
    const uint32_t n = r->n, rows = win_mask + 1;
    if (!r->fix || !r->fix_ready || !win || rows < 8 || (rows & (rows - 1)) != 0) return 0;
    fx->cols = r->fix_cap / RT_POINT_FIX_WORDS(n, 8) * 8; /* W's columns */
    if (fx->cols > PQ_COLS) fx->cols = PQ_COLS;
    if (fx->cols < PQ_COLS && (size_t)(r->nk & ~7) > fx->cols) return 0;
    int L = 0;
    while ((1u << L) < rows) L++;
    const int F = 25 - L;
    if (F < 12) return 0; /* long profiles: few bits left for the fractions */
    fx->scale = (double)((uint64_t)1 << F);
    /* Mx: at least |x0| + |(c0 + c)*step| at every column */
    const double cmax = fabs((double)r->c0) > fabs((double)(r->c0 + r->nk)) ? fabs((double)r->c0)
                                                                           : fabs((double)(r->c0 + r->nk));
    const double mx = fabs(r->x0) + cmax * r->step * (1.0 + 0x1p-40) + 1.0;
    double g = 0.0;
    for (int p = 0; p < 3; p++)
        for (uint32_t i = 0; i < n; i++) {
            const int32_t a = t->vec[pa[p]][i];
            const double by = (double)t->vec[pb[p]][i] * r->y;
            const double e = (6.0 * fabs((double)a) * mx + 2.0 * fabs(by) + 2.0) * 0x1p-52 * fx->scale;
            if (e > g) g = e;
        }
    const double gg = 1.5 + 0x1p-9 + 2.0 * g;
    if (!(gg < 1024.0)) return 0;
    fx->e = (uint32_t)gg + 2u; /* ceil(gg) + 1 at least */
    fx->e2 = 2u * fx->e;
    if (fx->e2 > (1u << (F + 7 - 8))) return 0; /* at most 1/256 of the lanes near */
    fx->shift = F + 7;
    if (!*r->fix_ready) {
        pq_fill(r, n, fx->cols, fx->scale);
        *r->fix_ready = 1;
    }
    return 1;
}

/* 0 (nothing written) when the tile is not for pp_row_n: no windows, or
 * eight columns of some direction span more than one. */
static PR_ATTR int pr_prof_row_avx2(const rt_point_prof *r)
{
    const rt_terrain *t = r->t;
    static const int pa[3] = {RT_A1, RT_A2, RT_A3}, pb[3] = {RT_B1, RT_B2, RT_B3};
    if (!r->win || r->n > RT_MAX_DIRECTIONS) return 0;
    pp_dir dd[3][RT_MAX_DIRECTIONS];
    for (int p = 0; p < 3; p++)
        for (uint32_t i = 0; i < r->n; i++) {
            const int32_t a = t->vec[pa[p]][i];
            /* 8 columns span |a|*7*step/128 (+ rounding) <= 7 indices */
            if (!(fabs((double)a) * r->step <= 100.0)) return 0;
            dd[p][i].a7 = (double)a * RT_RECIP128;
            dd[p][i].by7 = (double)t->vec[pb[p]][i] * r->y * RT_RECIP128;
            dd[p][i].off = a < 0 ? 7u : 0u;
        }
    pq_fix fx;
    if (pq_setup(r, r->winp, r->winp_mask, &fx)) {
        if (r->n == 5)
            pq_row_n(r, dd, 5, &fx);
        else
            pq_row_n(r, dd, r->n, &fx);
    } else if (r->n == 5) {
        pp_row_n(r, dd, 5);
    } else {
        pp_row_n(r, dd, r->n);
    }
    return 1;
}

/* ------------------------------------------------------------------------ */
/* The classify pass of the point path (as tile_classify_, terrain_tile.h:
 * the same operations on the same values, in its order) straight into the
 * terrain bytes, the feature bytes (RT_NONE) and the candidate bits
 * (ca->cmask, every group of the tile written); returns nonzero when some
 * column is a feature candidate.  Eight columns a step; the last ones by
 * tile_classify_avx2 and its codes. */

/* the 64-bit lane masks of m0 (columns 0..3) and m1 (4..7) as 32-bit lanes */
PR_INLINE __m256i pr_mask32(__m256d m0, __m256d m1)
{
    const __m256 s = _mm256_shuffle_ps(_mm256_castpd_ps(m0), _mm256_castpd_ps(m1), 0x88);
    return _mm256_permute4x64_epi64(_mm256_castps_si256(s), 0xD8); /* 0 1 4 5 2 3 6 7 -> in order */
}

/* The last columns (k1 to nk) of a classify_out pass, fewer than a vector:
 * the codes of the tile pass `classify` split into the terrain and feature
 * bytes and the candidate bits; returns the candidates' bit (nonzero: some).
 * Shared by the AVX2 and AVX-512 point rows (point_rows_avx512.h). */
static int pr_classify_out_tail(const rt_classify_args *ca, int k1,
                                void (*classify)(const rt_classify_args *))
{
    const int nk = ca->nk;
    int any = 0;
    rt_classify_args rest = *ca;
    rest.nk = nk - k1;
    rest.ht += k1, rest.a1 += k1, rest.a2 += k1, rest.a3 += k1, rest.fa += k1, rest.xr += k1;
    rest.height += k1, rest.depth += k1;
    classify(&rest);
    for (int q = k1; q < nk; q++) {
        const int32_t cd = ca->code[q - k1];
        if ((q & 7) == 0) ca->cmask[q >> 3] = 0;
        ca->terrain[q] = (uint8_t)(cd & 0xff);
        ca->feature[q] = RT_NONE;
        ca->cmask[q >> 3] |= (uint8_t)((cd >> 8 & 1) << (q & 7));
        any |= cd >> 8;
    }
    return any;
}

/* columns [0, k1) of pr_classify_out_avx2, the doubles stored in mode st
 * (store_avx2.h: plain, or streaming: aligned, 16-byte or shifted);
 * ifeat: the feature values in integers (ca->int_feature).  Those are
 * classify_bytes' (terrain_avx2.h): where |fa * xr * yr| < 2^53 the
 * seed's products are exact, fl(fl(fa * fl(xr*yr)) * 2^-7) = N/128 for the
 * integer N = fa*xr*yr (fa = 0: a zero of either sign, and N = 0), its
 * round_js is floor((N + 64) / 128) and the value modulo M = fmask + 1 (a
 * power of two, the caller's `simple`) is that of bits 7..31 of N + 64,
 * which N mod 2^32 gives: ((N + 64) mod 2^32 >> 7) & fmask, N by int32
 * products modulo 2^32.  The double path's f is the same integer in [0, M)
 * (every step exact: integers below 2^53, scalings by powers of two), and
 * the codes below 2^25 compare alike. */
PR_INLINE int pr_classify_out_avx2_(const rt_classify_args *ca, const int k1, const int st,
                                    const int ifeat)
{
    const __m256d lake_h = _mm256_set1_pd(ca->lake_height), lake_b = _mm256_set1_pd(ca->lake_base);
    const __m256d yr = _mm256_set1_pd(ca->yr), r128 = _mm256_set1_pd(RT_RECIP128);
    const __m256d M = _mm256_set1_pd(ca->fmod_m), invM = _mm256_set1_pd(ca->fmod_inv);
    const __m256d fp = _mm256_set1_pd(ca->f_point), fx = _mm256_set1_pd(ca->f_x);
    const __m256d fc = _mm256_set1_pd(ca->f_cone);
    const __m256d half = _mm256_set1_pd(0.5), onepd = _mm256_set1_pd(1.0);
    const __m256i town_lt = _mm256_set1_epi32(ca->town_lt), grass_lt = _mm256_set1_epi32(ca->grass_lt);
    const __m256i open_lt = _mm256_set1_epi32(ca->open_lt);
    const __m256i thicket_lt = _mm256_set1_epi32(ca->thicket_lt);
    /* byte 0 of each 32-bit lane to bytes 0..3 of its 128-bit half */
    const __m256i low_bytes = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                               0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const uint64_t none8 = 0x0101010101010101ull * (uint8_t)RT_NONE;
    const __m256i iyr = _mm256_set1_epi32((int)(uint32_t)rt__u64((int64_t)ca->yr));
    const __m256i c64 = _mm256_set1_epi32(64), ifmask = _mm256_set1_epi32((int)ca->fmask);
    const __m256i ifp = _mm256_set1_epi32(ca->fp_i), ifx = _mm256_set1_epi32(ca->fx_i);
    const __m256i ifc = _mm256_set1_epi32(ca->fc_i);
    int any = 0;
    __m256d ch = _mm256_setzero_pd(), cd = ch; /* the carries of AW_ST_NTS */
    for (int k = 0; k < k1; k += 8) {
        __m256d wlake[2], wmud[2], wcand[2];
        for (int g = 0; g < 2; g++) { /* the floating-point half, four columns */
            const int q = k + 4 * g;
            const __m256d h = _mm256_loadu_pd(ca->ht + q);
            wlake[g] = _mm256_cmp_pd(h, lake_h, _CMP_LT_OQ); /* lake_h > h */
            wmud[g] = _mm256_cmp_pd(h, lake_b, _CMP_LT_OQ);
            wcand[g] = _mm256_setzero_pd();
            if (!ifeat) {
                const __m256d fa = _mm256_cvtepi32_pd(_mm_loadu_si128((const __m128i *)(const void *)(ca->fa + q)));
                const __m256d xr = _mm256_cvtepi32_pd(_mm_loadu_si128((const __m128i *)(const void *)(ca->xr + q)));
                const __m256d v = _mm256_mul_pd(_mm256_mul_pd(fa, _mm256_mul_pd(xr, yr)), r128);
                __m256d r = _mm256_floor_pd(v);
                r = _mm256_add_pd(r, _mm256_and_pd(_mm256_cmp_pd(_mm256_sub_pd(v, r), half, _CMP_GE_OQ), onepd));
                const __m256d f = _mm256_sub_pd(r, _mm256_mul_pd(M, _mm256_floor_pd(_mm256_mul_pd(r, invM))));
                wcand[g] = _mm256_or_pd(_mm256_or_pd(_mm256_cmp_pd(f, fp, _CMP_EQ_OQ), _mm256_cmp_pd(f, fx, _CMP_EQ_OQ)),
                                        _mm256_cmp_pd(f, fc, _CMP_EQ_OQ));
            }
            const __m256d ho = _mm256_blendv_pd(h, lake_h, wlake[g]);
            const __m256d dout = _mm256_and_pd(wlake[g], _mm256_sub_pd(lake_h, h));
            aw_store_pd_c(ca->height + q, ho, st, &ch, ca->height);
            aw_store_pd_c(ca->depth + q, dout, st, &cd, ca->depth);
        }
        const __m256i klake = pr_mask32(wlake[0], wlake[1]), kmud = pr_mask32(wmud[0], wmud[1]);
        __m256i kcand;
        if (ifeat) {
            const __m256i xy = _mm256_mullo_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(ca->xr + k)), iyr);
            const __m256i N = _mm256_mullo_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(ca->fa + k)), xy);
            const __m256i f = _mm256_and_si256(_mm256_srli_epi32(_mm256_add_epi32(N, c64), 7), ifmask);
            kcand = _mm256_or_si256(_mm256_cmpeq_epi32(f, ifp),
                                    _mm256_or_si256(_mm256_cmpeq_epi32(f, ifx), _mm256_cmpeq_epi32(f, ifc)));
        } else {
            kcand = pr_mask32(wcand[0], wcand[1]);
        }
        /* the integer half: |a1| when town_abs (the sums are far inside int32) */
        __m256i a1 = _mm256_loadu_si256((const __m256i *)(const void *)(ca->a1 + k));
        if (ca->town_abs) a1 = _mm256_abs_epi32(a1);
        const __m256i a2 = _mm256_loadu_si256((const __m256i *)(const void *)(ca->a2 + k));
        const __m256i a3 = _mm256_loadu_si256((const __m256i *)(const void *)(ca->a3 + k));
        const __m256i ktown = _mm256_cmpgt_epi32(town_lt, a1); /* a1 < town_lt */
        const __m256i ter = rt__kind8_avx2(a2, a3, grass_lt, open_lt, thicket_lt, ktown, kmud, klake);
        const __m256i tb = _mm256_shuffle_epi8(ter, low_bytes);
        const uint64_t t8 = (uint32_t)_mm256_cvtsi256_si32(tb) |
                            (uint64_t)(uint32_t)_mm256_extract_epi32(tb, 4) << 32;
        memcpy(ca->terrain + k, &t8, 8);
        memcpy(ca->feature + k, &none8, 8);
        const __m256i cand = _mm256_andnot_si256(_mm256_or_si256(_mm256_or_si256(klake, kmud), ktown), kcand);
        const int bits = _mm256_movemask_ps(_mm256_castsi256_ps(cand));
        ca->cmask[k >> 3] = (uint8_t)bits;
        any |= bits;
    }
    if (k1 > 0) {
        aw_store_pd_end(ca->height + k1, ch, st);
        aw_store_pd_end(ca->depth + k1, cd, st);
    }
    return any;
}

static PR_ATTR int pr_classify_out_avx2(const rt_classify_args *ca)
{
    const int nk = ca->nk, k1 = nk & ~7;
    /* streaming stores of height and depth where asked (outputs far larger
     * than the caches) and aligned for them (NumPy's large arrays start 16
     * bytes past a page, relfterrain's fresh ones on a line); the table's
     * `finish` fences them.  Not the bytes: a step writes 8 of each, and
     * the slow computation between steps lets a write-combining buffer of
     * a partial line go out as a partial write (measured: fresh grids at
     * step 0.37 13 % slower with them, 2026-11-27) */
    const int st = aw_store_mode(ca->stream, ca->height, ca->depth);
    int any;
#define PR_CLASSIFY(F)                                                                 \
    (st == AW_ST_NT32 ? pr_classify_out_avx2_(ca, k1, AW_ST_NT32, F)                   \
     : st == AW_ST_NTS ? pr_classify_out_avx2_(ca, k1, AW_ST_NTS, F)                   \
     : st == AW_ST_NT16 ? pr_classify_out_avx2_(ca, k1, AW_ST_NT16, F)                 \
                        : pr_classify_out_avx2_(ca, k1, AW_ST_PLAIN, F))
    any = ca->int_feature ? PR_CLASSIFY(1) : PR_CLASSIFY(0);
#undef PR_CLASSIFY
    if (k1 < nk) any |= pr_classify_out_tail(ca, k1, tile_classify_avx2);
    return any != 0;
}

#undef PR_ATTR
#undef PR_INLINE

#endif
