/*
 * feature_grid.c - the point features alone of a block of integer points
 * (SPEC 5-6), found from the feature value f instead of terra everywhere.
 *
 * Away from the placed table a point has a feature only when terra reaches
 * feature_of() and f = toint32(round_js(a*xr*yr/128)) & feature_mask, with
 * a = calcProf(B2, xr, A3, yr), is feature_point, feature_x or feature_cone
 * (about 3 points in 4096 for the classic mask).  So f is computed at every
 * point (eight a vector, the seed's double operations in its order), and
 * terra itself (rt__terra_point) decides each of the few candidates and
 * every placed entry of the block: the feature it gives is the answer,
 * whatever the lake, mud, snow, rock, town or placed table do there.
 * Every other point is NONE, as terra would say.
 *
 * Served: step 1 from an integer origin (x = xr, y = yr), every point
 * inside the domain of exactness (B2[i]*x + A3[i]*y exact in int64 and the
 * shift its floor division), the seed's calcProf (not calc_prof_js), on the
 * AVX-512 variants (a gather a direction and 64-bit integer conversions).
 * Anything else returns RT_ERR_PARAM untouched: the caller computes the
 * block by rt_terra_grid as before.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "relfterrain.h"
#include "rt_internal.h"
#include "rt_terra.h"

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define RT_FEATURE_AVX512 1
#include <immintrin.h>
#else
#define RT_FEATURE_AVX512 0
#endif

#if RT_FEATURE_AVX512
typedef struct feature_job {
    const rt_terrain *t;
    int64_t xa, ya, nx;
    uint8_t *out;
} feature_job;

static void decide(const rt_terrain *t, int64_t x, int64_t y, uint8_t *o)
{
    rt_terra_res res;
    rt__terra_point(t, (double)x, (double)y, &res);
    *o = res.feature;
}

#define FG_ATTR __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))

/* floor(v / 128) for any int64 v (no right shift of a negative). */
static inline int64_t floordiv128(int64_t v)
{
    return v >= 0 ? v / 128 : -((-(v + 1)) / 128) - 1;
}

/* Row y, x = xa .. xa+nx-1: out[x - xa] = terra's feature at the candidates
 * (NONE elsewhere; out is zeroed by the caller).  Eight points a step:
 * V_i = B2[i]*x + A3[i]*y in int64 lanes (exact: |V_i| < 2^62 checked by the
 * caller), q_i = floor(V_i / 128) (the arithmetic shift; q_i & mask is the
 * seed's index, as its low bits are those of the unsigned shift), and the
 * profile value at q_i & mask: with |B2[i]| <= 112 the eight q_i lie within
 * 8 of the lowest, so they are one permute of the eight profile values from
 * there (a window load), unless the window wraps past the profile's end
 * (then, as for a steeper B2[i], a gather).  The values are summed in the
 * seed's order from 0.0; then v = (a * (x*y)) * (1/128) (x*y exact: below
 * 2^53), round_js(v) = floor(v) + (v - floor(v) >= 0.5), and ToInt32 by
 * the int64 conversion (exact below 2^63; a lane beyond it goes to the
 * generated feature of the point, rt__point_feature). */
static inline __attribute__((always_inline)) FG_ATTR void
row_n(const rt_terrain *t, int64_t y, int64_t xa, int64_t nx, uint8_t *out, uint32_t n)
{
    const double *P = t->profile;
    const int64_t len = t->profile_len, m = len - 1;
    const __m512i mask = _mm512_set1_epi64((long long)m);
    const __m512i fmask = _mm512_set1_epi64((long long)t->feature_mask);
    const __m512i fp = _mm512_set1_epi64((long long)t->feature_point);
    const __m512i fx = _mm512_set1_epi64((long long)t->feature_x);
    const __m512i fc = _mm512_set1_epi64((long long)t->feature_cone);
    const __m512d recip = _mm512_set1_pd(RT_RECIP128), half = _mm512_set1_pd(0.5);
    const __m512d one = _mm512_set1_pd(1.0), big = _mm512_set1_pd(9.2e18);
    const __m512i lanes = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    __m512i V[RT_MAX_DIRECTIONS], dV[RT_MAX_DIRECTIONS];
    int64_t low[RT_MAX_DIRECTIONS], step[RT_MAX_DIRECTIONS]; /* the lowest lane's V_i */
    int win[RT_MAX_DIRECTIONS];
    for (uint32_t i = 0; i < n; i++) {
        const int64_t b2 = t->vec[RT_B2][i], v0 = b2 * xa + (int64_t)t->vec[RT_A3][i] * y;
        V[i] = _mm512_add_epi64(_mm512_set1_epi64((long long)v0),
                                _mm512_mullo_epi64(_mm512_set1_epi64((long long)b2), lanes));
        dV[i] = _mm512_set1_epi64((long long)(8 * b2));
        low[i] = b2 >= 0 ? v0 : v0 + 7 * b2;
        step[i] = 8 * b2;
        win[i] = len >= 8 && b2 >= -112 && b2 <= 112;
    }
    const __m512d yd = _mm512_set1_pd((double)y);
    __m512d xd = _mm512_add_pd(_mm512_set1_pd((double)xa), _mm512_cvtepi64_pd(lanes));
    const __m512d eight = _mm512_set1_pd(8.0);
    for (int64_t c = 0; c < nx; c += 8) {
        __m512d a = _mm512_setzero_pd();
        for (uint32_t i = 0; i < n; i++) {
            const __m512i q = _mm512_srai_epi64(V[i], 7);
            const int64_t qb = floordiv128(low[i]), base = qb & m;
            __m512d p;
            if (win[i] && base <= len - 8)
                p = _mm512_permutexvar_pd(_mm512_sub_epi64(q, _mm512_set1_epi64((long long)qb)),
                                          _mm512_loadu_pd(P + base));
            else
                p = _mm512_i64gather_pd(_mm512_and_si512(q, mask), P, 8);
            a = _mm512_add_pd(a, p);
            V[i] = _mm512_add_epi64(V[i], dV[i]);
            low[i] += step[i];
        }
        const __m512d v = _mm512_mul_pd(_mm512_mul_pd(a, _mm512_mul_pd(xd, yd)), recip);
        const __m512d fl = _mm512_roundscale_pd(v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        const __m512d r =
            _mm512_mask_add_pd(fl, _mm512_cmp_pd_mask(_mm512_sub_pd(v, fl), half, _CMP_GE_OQ), fl, one);
        /* lanes with |r| >= 9.2e18 (or not finite): the generated feature
         * of the point by the seed's arithmetic (rt__point_feature) */
        const __mmask8 far = _mm512_cmp_pd_mask(_mm512_abs_pd(r), big, _CMP_NLT_UQ);
        const __m512i f = _mm512_and_si512(_mm512_cvttpd_epi64(r), fmask);
        __mmask8 hit = _mm512_cmpeq_epi64_mask(f, fp) | _mm512_cmpeq_epi64_mask(f, fx) |
                       _mm512_cmpeq_epi64_mask(f, fc);
        hit = (__mmask8)(hit & ~far);
        const int64_t left = nx - c;
        const __mmask8 inside = left >= 8 ? (__mmask8)0xff : (__mmask8)((1u << left) - 1u);
        hit &= inside;
        __mmask8 slow = (__mmask8)(far & inside);
        while (hit) {
            const int k = __builtin_ctz(hit);
            hit &= (__mmask8)(hit - 1);
            decide(t, xa + c + k, y, out + c + k);
        }
        while (slow) {
            const int k = __builtin_ctz(slow);
            slow &= (__mmask8)(slow - 1);
            if (rt__point_feature(t, (double)(xa + c + k), (double)y) != RT_NONE) decide(t, xa + c + k, y, out + c + k);
        }
        xd = _mm512_add_pd(xd, eight);
    }
}

/* the classic five directions with their arrays in registers, or any n */
static FG_ATTR void row_avx512(const rt_terrain *t, int64_t y, int64_t xa, int64_t nx,
                               uint8_t *out)
{
    if (t->directions == 5)
        row_n(t, y, xa, nx, out, 5);
    else
        row_n(t, y, xa, nx, out, t->directions);
}

static void rows_avx512(void *ctx, int64_t begin, int64_t end)
{
    const feature_job *j = ctx;
    for (int64_t r = begin; r < end; r++)
        row_avx512(j->t, j->ya + r, j->xa, j->nx, j->out + r * j->nx);
}
#endif

rt_status rt__feature_grid_sparse(const rt_terrain *t, const rt_block *b, uint8_t *out,
                                  int threads)
{
#if RT_FEATURE_AVX512
    const int v = rt_simd_resolve(t->simd);
    if (v != RT_SIMD_AVX512 && v != RT_SIMD_AVX512VBMI) return RT_ERR_PARAM;
    if (t->calc_prof_js || b->step != 1.0 || b->x0 != floor(b->x0) || b->y0 != floor(b->y0))
        return RT_ERR_PARAM;
    const double lim = RT_TERRAIN_DOMAIN;
    /* the block's first and last points (exact: integers below 2^53) */
    const double xa = b->x0 + (double)b->c0, ya = b->y0 + (double)b->r0;
    const double xb = xa + (double)(b->nx - 1), yb = ya + (double)(b->ny - 1);
    if (!(fabs(xa) <= lim && fabs(xb) <= lim && fabs(ya) <= lim && fabs(yb) <= lim))
        return RT_ERR_PARAM;
    /* |B2[i]*x + A3[i]*y| < 2^62: the 64-bit lanes and the shift are exact
     * (and 8*B2[i] per step, far below) */
    for (uint32_t i = 0; i < t->directions; i++)
        if (fabs((double)t->vec[RT_B2][i]) * (lim + 8.0) + fabs((double)t->vec[RT_A3][i]) * lim >=
            4611686018427387904.0)
            return RT_ERR_PARAM;
    /* the placed entries of the block, decided by terra below */
    const int64_t count = rt_placed_count(t->placed);
    int64_t *px = NULL, *py = NULL;
    if (count > 0) {
        px = malloc((size_t)count * sizeof *px);
        py = malloc((size_t)count * sizeof *py);
        if (!px || !py) {
            free(px);
            free(py);
            return RT_ERR_NOMEM;
        }
    }
    memset(out, 0, (size_t)(b->nx * b->ny));
    feature_job j = {t, (int64_t)xa, (int64_t)ya, b->nx, out};
    rt_parallel_for(threads, b->ny, rows_avx512, &j);
    if (count > 0) {
        const int64_t got = rt_placed_items(t->placed, px, py, NULL, count);
        for (int64_t k = 0; k < got; k++) {
            const int64_t x = px[k] - j.xa, y = py[k] - j.ya;
            if (x >= 0 && x < b->nx && y >= 0 && y < b->ny)
                decide(t, px[k], py[k], out + y * b->nx + x);
        }
    }
    free(px);
    free(py);
    return RT_OK;
#else
    (void)t, (void)b, (void)out, (void)threads;
    return RT_ERR_PARAM;
#endif
}
