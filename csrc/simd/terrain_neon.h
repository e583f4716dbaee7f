/*
 * terrain_neon.h - tile passes with NEON (AArch64, where NEON is baseline),
 * for byte profiles: every value an integer in 0..255, the length dividing
 * 256.  Included by tile_kernels.c on aarch64.
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

static const rt_tile_kernels tile_kernels_neon = {
    tile_height_neon,       tile_prof_neon,           tile_prof_at_neon,
    tile_classify_scalar,   tile_store_heights_scalar, NULL,
    NULL,                   NULL,                     NULL,
    NULL};
