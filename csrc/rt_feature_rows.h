/*
 * rt_feature_rows.h - the generated point feature's first tests (SPEC 5)
 * along a row of integer points, for the scans that look for one kind of
 * feature (mineshafts: mines.c; ponds: streams.c).  Internal; not installed.
 *
 * A feature decided by f == feature_point has its kind fixed by
 * xyff = (xr*yr) & 0xff alone (MINE below mine_below, ... ROOT), so the
 * points of row y that can hold it are those with xyff in some [lo, hi).
 * For integer x, y that byte is ((x mod 256) * (y mod 256)) mod 256: along
 * the row it depends on x mod 256 only, so the residues that pass are found
 * once per row and the candidates enumerated directly, without looking at
 * the other points (about 7 in 8 for MINE and for WATERHOLE).
 *
 * The candidates then get the feature value f itself: with
 * a = calcProf(B2, x, A3, y) (every B2[i]*x + A3[i]*y an exact integer inside
 * the domain, so floor(v / 128) is the shift), f = toint32(round_js(a*x*y/128))
 * & feature_mask.  When a is an integer and |a*x*y| < 2^52, a*x*y is exact in
 * double, so round_js(a*x*y/128) = floor((a*x*y + 64) / 128), computed on the
 * exact integer product; otherwise the seed's double arithmetic.  Both give
 * the seed's f; only points with f == feature_point are kept.
 *
 * Everything here is exact only inside the domain of exactness
 * (|x|, |y| <= RT_TERRAIN_DOMAIN); callers take another path outside it.
 */
#ifndef RT_FEATURE_ROWS_H
#define RT_FEATURE_ROWS_H

#include <math.h>
#include <stdint.h>

#include "relfterrain.h"
#include "rt_internal.h"

/* The residues r = 0..255, ascending, with lo <= (r*y) & 0xff < hi; returns
 * how many. */
static inline int rt__xyff_residues(int64_t y, uint32_t lo, uint32_t hi, uint8_t res[256])
{
    const uint32_t yb = (uint32_t)(rt__u64(y) & 0xffu);
    int n = 0;
    for (uint32_t r = 0; r < 256; r++) {
        uint32_t v = (r * yb) & 0xffu;
        res[n] = (uint8_t)r;
        n += v >= lo && v < hi;
    }
    return n;
}

/* The x of [xa, xb] (at most RT_FEATURE_ROW_CHUNK of them) whose x mod 256 is
 * one of res[0..nres), ascending, into xs; returns how many. */
#define RT_FEATURE_ROW_CHUNK 512
static inline int rt__xyff_candidates(int64_t xa, int64_t xb, const uint8_t *res, int nres,
                                      int64_t *xs)
{
    int n = 0;
    /* the period holding xa: xa - (xa mod 256), a floor for negatives too */
    int64_t base = xa - (int64_t)(rt__u64(xa) & 0xffu);
    for (; base <= xb; base += 256) {
        int k = 0;
        if (base < xa)
            while (k < nres && base + res[k] < xa) k++;
        if (base + 255 <= xb) {
            for (; k < nres; k++) xs[n++] = base + res[k];
        } else {
            for (; k < nres && base + res[k] <= xb; k++) xs[n++] = base + res[k];
        }
    }
    return n;
}

/* Keeps, in order, the candidates xs[0..nc) of row y whose generated feature
 * value f (SPEC 5, the B2/A3 sums over n directions) equals feature_point;
 * returns how many.  Branch-free over the candidates, so their sums overlap
 * in the pipeline. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int rt__feature_point_filter(const rt_terrain *t, int64_t y, int64_t *xs, int nc,
                                           uint32_t n)
{
    const double *P = t->profile;
    const uint64_t mask = t->profile_len - 1;
    const uint32_t fmask = t->feature_mask, fpoint = t->feature_point;
    int64_t ax[RT_MAX_DIRECTIONS], by[RT_MAX_DIRECTIONS];
    for (uint32_t i = 0; i < n; i++) {
        ax[i] = t->vec[RT_B2][i];
        by[i] = (int64_t)t->vec[RT_A3][i] * y;
    }
    const double yd = (double)y;
    int kept = 0;
    for (int q = 0; q < nc; q++) {
        int64_t x = xs[q];
        /* calcProf(B2, xr, A3, yr): V_i = B2[i]*x + A3[i]*y exactly */
        double a = 0.0;
        for (uint32_t i = 0; i < n; i++) a += P[(rt__u64(ax[i] * x + by[i]) >> 7) & mask];
        const int64_t xy = x * y; /* exact: |x|, |y| <= 2^26 */
        uint32_t f;
        const double lim = 4503599627370496.0; /* 2^52 */
        if (fabs(a) < lim && fabs(a) * fabs((double)xy) < lim && a == (double)(int64_t)a) {
            /* floor((a*xy + 64) / 128), its low bits by the unsigned shift */
            f = (uint32_t)(rt__u64((int64_t)a * xy + 64) >> 7);
        } else {
            double v = rt__round_js(a * ((double)x * yd) * RT_RECIP128);
            /* |v| < 2^63 in the domain (|a| is bounded by the profile): the
             * int64 conversion is exact and its low 32 bits are ToInt32's */
            f = fabs(v) < 9.2e18 ? (uint32_t)(uint64_t)(int64_t)v : rt__low32(v);
        }
        xs[kept] = x;
        kept += (f & fmask) == fpoint;
    }
    return kept;
}

/* calcProf(B2, x, A3, y) along a row repeats: x -> x + 256 adds exactly
 * 2*B2[i] to every index floor(V_i / 128), so the sum comes back after P
 * steps of 256 where P*2*B2[i] is a multiple of the profile length for
 * every i.  P is a power of two, at most half the length (128 for the
 * classic profile: x -> x + 32768). */
static inline int64_t rt__feature_period(const rt_terrain *t)
{
    const uint64_t len = t->profile_len;
    int64_t period = 1;
    for (uint32_t i = 0; i < t->directions; i++) {
        uint64_t step = rt__u64(2 * (int64_t)t->vec[RT_B2][i]) & (len - 1);
        if (step) {
            int64_t p = (int64_t)(len / (step & (~step + 1))); /* len / its lowest bit */
            if (p > period) period = p;
        }
    }
    return period;
}

/* The sums a = calcProf(B2, x, A3, y) of the candidates x = base0 + res[j] +
 * 256*k of row y, k = 0 .. period-1, as exact integers into a[k*nres + j];
 * 0 if one is not an integer below 2^52 / bound in magnitude (then the
 * caller takes rt__feature_point_filter). */
static inline int rt__feature_period_sums(const rt_terrain *t, int64_t y, int64_t base0,
                                          const uint8_t *res, int nres, int64_t period,
                                          double bound, int64_t *a)
{
    const double *P = t->profile;
    const uint64_t mask = t->profile_len - 1;
    const uint32_t n = t->directions;
    const double alim = 4503599627370496.0 / (bound > 1.0 ? bound : 1.0);
    int64_t by[RT_MAX_DIRECTIONS];
    for (uint32_t i = 0; i < n; i++) by[i] = (int64_t)t->vec[RT_A3][i] * y;
    for (int64_t k = 0; k < period; k++)
        for (int j = 0; j < nres; j++) {
            int64_t x = base0 + res[j] + 256 * k;
            double s = 0.0;
            for (uint32_t i = 0; i < n; i++)
                s += P[(rt__u64((int64_t)t->vec[RT_B2][i] * x + by[i]) >> 7) & mask];
            if (!(fabs(s) < alim) || s != (double)(int64_t)s) return 0;
            a[k * nres + j] = (int64_t)s;
        }
    return 1;
}

#endif /* RT_FEATURE_ROWS_H */
