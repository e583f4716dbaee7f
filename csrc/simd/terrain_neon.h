/*
 * terrain_neon.h - tile passes with NEON (AArch64, where NEON is baseline),
 * for byte profiles: every value an integer in 0..255, the length dividing
 * 256; and the point path's rows (any step and origin: height_row_neon,
 * prof_row_neon), in both of its tables.  Included by tile_kernels.c on
 * aarch64.
 *
 * A profile lookup for 16 columns is one tbl and three tbx over the 256-byte
 * table held in 16 registers (vqtbl4q_u8 covers 64 bytes; an index outside
 * the 64 bytes of a tbx leaves its lane as it was).  The index is the low
 * byte of V >> s, which is (V >> s) & 255 = (V >> s) & mask for a repeated
 * table.  The arithmetic is that of terrain_tile.h (exact integers), so the
 * bits are; the rest of the passes are the portable ones.
 */
#include <arm_neon.h>

typedef struct neon_table {
    uint8x16x4_t t[4]; /* the 256 bytes, 64 a lookup */
} neon_table;

static inline void neon_load(const uint8_t *bytes, neon_table *tb)
{
    for (int q = 0; q < 4; q++) tb->t[q] = vld1q_u8_x4(bytes + 64 * q);
}

/* 16 table bytes at 16 byte indices. */
static inline uint8x16_t neon_lookup(const neon_table *tb, uint8x16_t idx)
{
    const uint8x16_t c64 = vdupq_n_u8(64);
    uint8x16_t r = vqtbl4q_u8(tb->t[0], idx);
    idx = vsubq_u8(idx, c64);
    r = vqtbx4q_u8(r, tb->t[1], idx);
    idx = vsubq_u8(idx, c64);
    r = vqtbx4q_u8(r, tb->t[2], idx);
    idx = vsubq_u8(idx, c64);
    return vqtbx4q_u8(r, tb->t[3], idx);
}

/* V = v0 + (k + lane) * dv for 16 columns, as four vectors of 4. */
static inline void neon_v(uint32_t v0, uint32_t dv, int k, uint32x4_t v[4])
{
    static const uint32_t lanes[4] = {0, 1, 2, 3};
    const uint32x4_t step4 = vdupq_n_u32(4u * dv);
    v[0] = vmlaq_u32(vdupq_n_u32(v0 + (uint32_t)k * dv), vld1q_u32(lanes), vdupq_n_u32(dv));
    v[1] = vaddq_u32(v[0], step4);
    v[2] = vaddq_u32(v[1], step4);
    v[3] = vaddq_u32(v[2], step4);
}

/* The low bytes of (v[q] >> s) for the 16 columns. */
static inline uint8x16_t neon_index(const uint32x4_t v[4], int32x4_t nsh)
{
    uint16x8_t a = vcombine_u16(vmovn_u32(vshlq_u32(v[0], nsh)), vmovn_u32(vshlq_u32(v[1], nsh)));
    uint16x8_t b = vcombine_u16(vmovn_u32(vshlq_u32(v[2], nsh)), vmovn_u32(vshlq_u32(v[3], nsh)));
    return vcombine_u8(vmovn_u16(a), vmovn_u16(b));
}

/* Bytes 4q .. 4q+3 of 16 widened to int32 (q = 0..3). */
static inline int32x4_t neon_widen(uint8x16_t b, int q)
{
    uint16x8_t h = q < 2 ? vmovl_u8(vget_low_u8(b)) : vmovl_u8(vget_high_u8(b));
    uint16x4_t w = (q & 1) ? vget_high_u16(h) : vget_low_u16(h);
    return vreinterpretq_s32_u32(vmovl_u16(w));
}

/* height numerators, as tile_height_ */
static void tile_height_neon(const rt_tile_args *ta, int32_t *restrict out)
{
    neon_table tb;
    neon_load(ta->bytes, &tb);
    const int nk = ta->nk, k1 = nk & ~15;
    const uint32_t s = ta->shift;
    const int32x4_t nsh = vdupq_n_s32(-(int32_t)s), sh = vdupq_n_s32((int32_t)s);
    const uint32x4_t fm = vdupq_n_u32((1u << s) - 1u);
    const uint8x16_t one = vdupq_n_u8(1);
    for (int k = 0; k < k1; k += 16) {
        int32x4_t acc[4] = {vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0)};
        for (uint32_t i = 0; i < ta->n; i++) {
            uint32x4_t v[4];
            neon_v(ta->v0[i], ta->dv[i], k, v);
            const uint8x16_t idx = neon_index(v, nsh);
            const uint8x16_t p0 = neon_lookup(&tb, idx);
            const uint8x16_t p1 = neon_lookup(&tb, vaddq_u8(idx, one)); /* (q + 1) & 255 */
            for (int q = 0; q < 4; q++) {
                const int32x4_t a = neon_widen(p0, q), b = neon_widen(p1, q);
                const int32x4_t frac = vreinterpretq_s32_u32(vandq_u32(v[q], fm));
                acc[q] = vaddq_s32(acc[q], vmlaq_s32(vshlq_s32(a, sh), frac, vsubq_s32(b, a)));
            }
        }
        for (int q = 0; q < 4; q++) vst1q_s32(out + k + 4 * q, acc[q]);
    }
    if (k1 < nk) { /* the tail: the portable pass on what is left */
        rt_tile_args rest = *ta;
        rest.nk = nk - k1;
        for (uint32_t i = 0; i < ta->n; i++) rest.v0[i] = ta->v0[i] + (uint32_t)k1 * ta->dv[i];
        tile_height_scalar(&rest, out + k1);
    }
}

/* profile sums, as tile_prof_ */
static void tile_prof_neon(const rt_tile_args *ta, int32_t *restrict out)
{
    neon_table tb;
    neon_load(ta->bytes, &tb);
    const int nk = ta->nk, k1 = nk & ~15;
    const int32x4_t nsh = vdupq_n_s32(-(int32_t)ta->shift);
    for (int k = 0; k < k1; k += 16) {
        uint16x8_t lo = vdupq_n_u16(0), hi = vdupq_n_u16(0); /* n * 255 < 2^16 (n <= 64) */
        for (uint32_t i = 0; i < ta->n; i++) {
            uint32x4_t v[4];
            neon_v(ta->v0[i], ta->dv[i], k, v);
            const uint8x16_t p = neon_lookup(&tb, neon_index(v, nsh));
            lo = vaddw_u8(lo, vget_low_u8(p));
            hi = vaddw_u8(hi, vget_high_u8(p));
        }
        vst1q_s32(out + k, vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(lo))));
        vst1q_s32(out + k + 4, vreinterpretq_s32_u32(vmovl_u16(vget_high_u16(lo))));
        vst1q_s32(out + k + 8, vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(hi))));
        vst1q_s32(out + k + 12, vreinterpretq_s32_u32(vmovl_u16(vget_high_u16(hi))));
    }
    if (k1 < nk) {
        rt_tile_args rest = *ta;
        rest.nk = nk - k1;
        for (uint32_t i = 0; i < ta->n; i++) rest.v0[i] = ta->v0[i] + (uint32_t)k1 * ta->dv[i];
        tile_prof_scalar(&rest, out + k1);
    }
}

/* profile sums at the rounded points, as tile_prof_at_ */
static void tile_prof_at_neon(const rt_tile_args *ta, const uint32_t *restrict xr,
                              int32_t *restrict out)
{
    neon_table tb;
    neon_load(ta->bytes, &tb);
    const int nk = ta->nk, k1 = nk & ~15;
    const int32x4_t nsh = vdupq_n_s32(-(int32_t)ta->shift);
    for (int k = 0; k < k1; k += 16) {
        uint32x4_t x[4];
        for (int q = 0; q < 4; q++) x[q] = vld1q_u32(xr + k + 4 * q);
        uint16x8_t lo = vdupq_n_u16(0), hi = vdupq_n_u16(0);
        for (uint32_t i = 0; i < ta->n; i++) {
            const uint32x4_t a = vdupq_n_u32(ta->dv[i]), by = vdupq_n_u32(ta->v0[i]);
            uint32x4_t v[4];
            for (int q = 0; q < 4; q++) v[q] = vmlaq_u32(by, a, x[q]);
            const uint8x16_t p = neon_lookup(&tb, neon_index(v, nsh));
            lo = vaddw_u8(lo, vget_low_u8(p));
            hi = vaddw_u8(hi, vget_high_u8(p));
        }
        vst1q_s32(out + k, vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(lo))));
        vst1q_s32(out + k + 4, vreinterpretq_s32_u32(vmovl_u16(vget_high_u16(lo))));
        vst1q_s32(out + k + 8, vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(hi))));
        vst1q_s32(out + k + 12, vreinterpretq_s32_u32(vmovl_u16(vget_high_u16(hi))));
    }
    if (k1 < nk) {
        rt_tile_args rest = *ta;
        rest.nk = nk - k1;
        tile_prof_at_scalar(&rest, xr + k1, out + k1);
    }
}

/* The point-path rows (any step and origin): the seed's double arithmetic
 * two points a vector (AArch64 has floor as one instruction, frintm, and no
 * fused operation here: -ffp-contract=off), the profile read per lane. */

/* A height row, as height_row_avx2w: |j| < 2^30 at every point (checked by
 * the caller), so floor(j) converts to an integer exactly. */
static void height_row_neon(const rt_point_row *r)
{
    const rt_terrain *t = r->t;
    const uint32_t n = r->n, mask = t->profile_len - 1;
    const double *P = t->profile;
    const int64_t nx = r->nx, n2 = nx & ~(int64_t)1;
    double ax[RT_MAX_DIRECTIONS], by[RT_MAX_DIRECTIONS];
    for (uint32_t i = 0; i < n; i++) {
        ax[i] = (double)t->vec[RT_AH][i];
        by[i] = (double)t->vec[RT_BH][i] * r->y;
    }
    const float64x2_t r128 = vdupq_n_f64(RT_RECIP128), vx0 = vdupq_n_f64(r->x0);
    const float64x2_t vstep = vdupq_n_f64(r->step), two = vdupq_n_f64(2.0);
    float64x2_t ci = {(double)r->c0, (double)(r->c0 + 1)};
    for (int64_t c = 0; c < n2; c += 2) {
        const float64x2_t x = vaddq_f64(vx0, vmulq_f64(ci, vstep));
        float64x2_t ht = vdupq_n_f64(0.0);
        for (uint32_t i = 0; i < n; i++) {
            const float64x2_t j =
                vmulq_f64(vaddq_f64(vmulq_f64(vdupq_n_f64(ax[i]), x), vdupq_n_f64(by[i])), r128);
            const float64x2_t jint = vrndmq_f64(j);
            const float64x2_t jfrac = vsubq_f64(j, jint);
            const int64x2_t q = vcvtq_s64_f64(jint);
            const uint32_t q0 = (uint32_t)vgetq_lane_s64(q, 0), q1 = (uint32_t)vgetq_lane_s64(q, 1);
            const float64x2_t p0 = {P[q0 & mask], P[q1 & mask]};
            const float64x2_t p1 = {P[(q0 + 1) & mask], P[(q1 + 1) & mask]};
            ht = vaddq_f64(ht, vaddq_f64(p0, vmulq_f64(jfrac, vsubq_f64(p1, p0))));
        }
        vst1q_f64(r->out + c, ht);
        ci = vaddq_f64(ci, two);
    }
    for (int64_t c = n2; c < nx; c++) { /* the last column, as height_xy */
        const double x = r->x0 + (double)(r->c0 + c) * r->step;
        double ht = 0.0;
        for (uint32_t i = 0; i < n; i++) {
            double j = (ax[i] * x + by[i]) * RT_RECIP128;
            double jint = floor(j);
            double jfrac = j - jint;
            double p0 = P[rt__low32(jint) & mask];
            double p1 = P[rt__low32(jint + 1.0) & mask];
            ht += p0 + jfrac * (p1 - p0);
        }
        r->out[c] = ht;
    }
}

/* The profile sums and round_js(x) of a terra row's tile (rt_point_prof),
 * by the rewriting of prof_row_avx2w: floor(fl(fl((A*2^-7)*x) +
 * fl(B*y)*2^-7)) = floor(floor(A*x + B*y) / 128) where nothing is
 * subnormal (the caller's check). */
static void prof_row_neon(const rt_point_prof *r)
{
    const rt_terrain *t = r->t;
    const uint32_t n = r->n, mask = t->profile_len - 1;
    const int nk = r->nk, n2 = nk & ~1;
    static const int pa[3] = {RT_A1, RT_A2, RT_A3}, pb[3] = {RT_B1, RT_B2, RT_B3};
    double ax[3][RT_MAX_DIRECTIONS], by[3][RT_MAX_DIRECTIONS];
    for (int p = 0; p < 3; p++)
        for (uint32_t i = 0; i < n; i++) {
            ax[p][i] = (double)t->vec[pa[p]][i] * RT_RECIP128;
            by[p][i] = (double)t->vec[pb[p]][i] * r->y * RT_RECIP128;
        }
    const int32_t *P = r->profile;
    const float64x2_t vx0 = vdupq_n_f64(r->x0), vstep = vdupq_n_f64(r->step);
    const float64x2_t two = vdupq_n_f64(2.0), half = vdupq_n_f64(0.5), one = vdupq_n_f64(1.0);
    float64x2_t ci = {(double)r->c0, (double)(r->c0 + 1)};
    for (int c = 0; c < n2; c += 2) {
        const float64x2_t x = vaddq_f64(vx0, vmulq_f64(ci, vstep));
        for (int p = 0; p < 3; p++) {
            int32_t s0 = 0, s1 = 0;
            for (uint32_t i = 0; i < n; i++) {
                const float64x2_t v = vaddq_f64(vmulq_f64(vdupq_n_f64(ax[p][i]), x), vdupq_n_f64(by[p][i]));
                const int64x2_t q = vcvtq_s64_f64(vrndmq_f64(v));
                s0 += P[(uint32_t)vgetq_lane_s64(q, 0) & mask];
                s1 += P[(uint32_t)vgetq_lane_s64(q, 1) & mask];
            }
            r->a[p][c] = s0;
            r->a[p][c + 1] = s1;
        }
        const float64x2_t f = vrndmq_f64(x);
        const float64x2_t up = vbslq_f64(vcgeq_f64(vsubq_f64(x, f), half), one, vdupq_n_f64(0.0));
        const int64x2_t xr = vcvtq_s64_f64(vaddq_f64(f, up));
        r->xr[c] = (int32_t)vgetq_lane_s64(xr, 0);
        r->xr[c + 1] = (int32_t)vgetq_lane_s64(xr, 1);
        ci = vaddq_f64(ci, two);
    }
    for (int c = n2; c < nk; c++) { /* the last column, as prof_xy */
        const double x = r->x0 + (double)(r->c0 + c) * r->step;
        for (int p = 0; p < 3; p++) {
            int32_t s = 0;
            for (uint32_t i = 0; i < n; i++) {
                double v = (double)t->vec[pa[p]][i] * x + (double)t->vec[pb[p]][i] * r->y;
                double q = floor(floor(v) * RT_RECIP128);
                s += P[rt__low32(q) & mask];
            }
            r->a[p][c] = s;
        }
        r->xr[c] = (int32_t)rt__round_js(x);
    }
}

static const rt_tile_kernels tile_kernels_neon = {
    tile_height_neon,       tile_prof_neon,           tile_prof_at_neon,
    tile_classify_scalar,   tile_store_heights_scalar, NULL,
    NULL,                   NULL,                     height_row_neon,
    NULL,                   prof_row_neon};

/* Without a byte profile (every grid of the point path, any step; the block
 * path's other integer profiles): the portable tile passes, and the point
 * path's rows above, which read the profile as it is.  (Before 2026-11-29
 * such calls took the portable table, whose point path is terra_at point
 * by point: these rows were never reached.) */
static const rt_tile_kernels tile_kernels_neon_rows = {
    tile_height_scalar,     tile_prof_scalar,         tile_prof_at_scalar,
    tile_classify_scalar,   tile_store_heights_scalar, NULL,
    NULL,                   NULL,                     height_row_neon,
    NULL,                   prof_row_neon};
