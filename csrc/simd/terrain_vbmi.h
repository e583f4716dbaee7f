/*
 * terrain_vbmi.h - tile passes with AVX-512 VBMI, for byte profiles: every
 * value an integer in 0..255, the length dividing 256.  (Included by
 * tile_kernels.c on x86-64 with GCC or Clang; the functions carry their own target
 * attribute and run only when the CPU has the instructions.)
 *
 * A profile lookup for 64 points at once is two vpermi2b over the 256-byte
 * table held in four registers, blended on the index's top bit: no memory
 * gathers.  The index is the low byte of V >> s, which is (V >> s) & 255.
 * The arithmetic is that of terrain_tile.h (exact integers), so the bits are.
 * (The heights are the window kernels' of terrain_avx2.h where those serve:
 * faster than two such lookups per term; the lookups where they do not.)
 */
#include <immintrin.h>

#define RT_VBMI_ATTR __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vbmi")))

typedef struct vbmi_table {
    __m512i t0, t1, t2, t3; /* the 256 bytes */
} vbmi_table;

RT_VBMI_ATTR static inline vbmi_table vbmi_load(const uint8_t *bytes)
{
    vbmi_table t;
    t.t0 = _mm512_loadu_si512((const void *)(bytes + 0));
    t.t1 = _mm512_loadu_si512((const void *)(bytes + 64));
    t.t2 = _mm512_loadu_si512((const void *)(bytes + 128));
    t.t3 = _mm512_loadu_si512((const void *)(bytes + 192));
    return t;
}

/* 64 table bytes at 64 byte indices. */
RT_VBMI_ATTR static inline __m512i vbmi_lookup(const vbmi_table *t, __m512i idx)
{
    __m512i lo = _mm512_permutex2var_epi8(t->t0, idx, t->t1);
    __m512i hi = _mm512_permutex2var_epi8(t->t2, idx, t->t3);
    return _mm512_mask_blend_epi8(_mm512_movepi8_mask(idx), lo, hi);
}

/* The low bytes of four vectors of 16 uint32, in order, as 64 bytes. */
RT_VBMI_ATTR static inline __m512i vbmi_low_bytes(__m512i a, __m512i b, __m512i c, __m512i d)
{
    __m512i r = _mm512_castsi128_si512(_mm512_cvtepi32_epi8(a));
    r = _mm512_inserti32x4(r, _mm512_cvtepi32_epi8(b), 1);
    r = _mm512_inserti32x4(r, _mm512_cvtepi32_epi8(c), 2);
    return _mm512_inserti32x4(r, _mm512_cvtepi32_epi8(d), 3);
}

/* Add 64 bytes into the uint16 sums lo (points 0..31) and hi (32..63). */
RT_VBMI_ATTR static inline void vbmi_accumulate(__m512i *lo, __m512i *hi, __m512i bytes)
{
    *lo = _mm512_add_epi16(*lo, _mm512_cvtepu8_epi16(_mm512_castsi512_si256(bytes)));
    *hi = _mm512_add_epi16(*hi, _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(bytes, 1)));
}

/* 64 uint16 sums (lo: points 0..31, hi: 32..63) stored as int32.  The sums
 * fit: n * 255 < 2^16 for n <= 64 directions (byte_profile checks n). */
RT_VBMI_ATTR static inline void vbmi_store_sums(__m512i lo, __m512i hi, int32_t *out)
{
    _mm512_storeu_si512((void *)out, _mm512_cvtepu16_epi32(_mm512_castsi512_si256(lo)));
    _mm512_storeu_si512((void *)(out + 16), _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(lo, 1)));
    _mm512_storeu_si512((void *)(out + 32), _mm512_cvtepu16_epi32(_mm512_castsi512_si256(hi)));
    _mm512_storeu_si512((void *)(out + 48), _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(hi, 1)));
}

static const uint32_t VBMI_LANES[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/* lane * dv_i (mod 2^32), lane = 0 .. 15, of every direction: made once a
 * tile for vbmi_v */
RT_VBMI_ATTR static inline void vbmi_lane_steps(const rt_tile_args *ta, __m512i *ldv)
{
    const __m512i lanes = _mm512_loadu_si512((const void *)VBMI_LANES);
    for (uint32_t i = 0; i < ta->n; i++)
        ldv[i] = _mm512_mullo_epi32(lanes, _mm512_set1_epi32((int)ta->dv[i]));
}

/* V_i = v0_i + (k + lane) * dv_i (mod 2^32) for the 64 columns k .. k+63 of
 * direction i, as four vectors of 16 (ldv: vbmi_lane_steps). */
RT_VBMI_ATTR static inline void vbmi_v(const rt_tile_args *ta, uint32_t i, int k,
                                       const __m512i *ldv, __m512i v[4])
{
    const uint32_t dv = ta->dv[i];
    const __m512i step16 = _mm512_set1_epi32((int)(16u * dv));
    v[0] = _mm512_add_epi32(_mm512_set1_epi32((int)(ta->v0[i] + (uint32_t)k * dv)), ldv[i]);
    v[1] = _mm512_add_epi32(v[0], step16);
    v[2] = _mm512_add_epi32(v[1], step16);
    v[3] = _mm512_add_epi32(v[2], step16);
}

/* profile sums, as tile_prof_ */
RT_VBMI_ATTR static void tile_prof_vbmi(const rt_tile_args *ta, int32_t *restrict out)
{
    const vbmi_table tb = vbmi_load(ta->bytes);
    const int nk = ta->nk;
    const __m128i sh = _mm_cvtsi32_si128((int)ta->shift);
    __m512i ldv[RT_MAX_DIRECTIONS];
    vbmi_lane_steps(ta, ldv);
    int k = 0;
    for (; k + 64 <= nk; k += 64) {
        __m512i lo = _mm512_setzero_si512(), hi = _mm512_setzero_si512(); /* uint16 sums */
        for (uint32_t i = 0; i < ta->n; i++) {
            __m512i v[4];
            vbmi_v(ta, i, k, ldv, v);
            __m512i idx = vbmi_low_bytes(_mm512_srl_epi32(v[0], sh), _mm512_srl_epi32(v[1], sh),
                                         _mm512_srl_epi32(v[2], sh), _mm512_srl_epi32(v[3], sh));
            __m512i p = vbmi_lookup(&tb, idx);
            vbmi_accumulate(&lo, &hi, p);
        }
        vbmi_store_sums(lo, hi, out + k);
    }
    if (k < nk) {
        rt_tile_args rest = *ta;
        rest.nk = nk - k;
        for (uint32_t i = 0; i < ta->n; i++) rest.v0[i] = ta->v0[i] + (uint32_t)k * ta->dv[i];
        tile_prof_avx512(&rest, out + k);
    }
}

/* bytes 16q .. 16q+15 of v (the immediates of the extraction spelt out: a
 * loop over q need not be unrolled) */
RT_VBMI_ATTR static inline __m128i vbmi_quarter(__m512i v, int q)
{
    switch (q) {
    case 0: return _mm512_castsi512_si128(v);
    case 1: return _mm512_extracti32x4_epi32(v, 1);
    case 2: return _mm512_extracti32x4_epi32(v, 2);
    default: return _mm512_extracti32x4_epi32(v, 3);
    }
}

/* The numerators of 64 columns at s = 7 (integer steps and origins, the
 * coarse ones the windows cannot serve) in 16-bit lanes, as acc[q] for the
 * columns 16q .. 16q+15.  V's low 16 bits hold the index's low byte (bits
 * 7..14) and the fraction (bits 0..6); a term p0*2^7 + frac*(p1 - p0) =
 * p0*(2^7 - frac) + p1*frac lies in [0, 255*2^7] and frac*(p1 - p0) in
 * [-127*255, 127*255]: every 16-bit step is exact, and so is the sum of two
 * terms (at most 65280 < 2^16, unsigned); the pairs are summed in int32.
 *
 * The only cross-lane shuffles are the lookups': 32-bit lane m of w0 holds
 * columns m (low word) and 16 + m (high word), of w1 columns 32 + m and
 * 48 + m, made by a shift and a blend; the index bytes of w0's word u and
 * of w1's word u sit side by side (bytes 2u and 2u + 1), so the looked-up
 * bytes widen to w0's and w1's words by a mask and a shift, and the sums'
 * words to the columns' int32 in order by a mask and a shift (the
 * byte-order shuffles and sign extensions they replace were the port that
 * bounded this loop: 1.2x of the time). */
RT_VBMI_ATTR static inline void vbmi_height64_s7(const rt_tile_args *ta, const vbmi_table *tb,
                                                 int k, const __m512i *ldv, __m512i acc[4])
{
    const __m512i lo16 = _mm512_set1_epi32(0xffff), m7f = _mm512_set1_epi16(0x7f);
    const __m512i mff = _mm512_set1_epi16(0xff), one = _mm512_set1_epi8(1);
    const __mmask32 odd_words = 0xAAAAAAAAu;
    const __mmask64 odd_bytes = 0xAAAAAAAAAAAAAAAAull;
    __m512i s0 = _mm512_setzero_si512(), s1 = _mm512_setzero_si512();
    for (int q = 0; q < 4; q++) acc[q] = _mm512_setzero_si512();
    for (uint32_t i = 0; i < ta->n; i++) {
        __m512i v[4];
        vbmi_v(ta, i, k, ldv, v);
        const __m512i w0 = _mm512_mask_blend_epi16(odd_words, v[0], _mm512_slli_epi32(v[1], 16));
        const __m512i w1 = _mm512_mask_blend_epi16(odd_words, v[2], _mm512_slli_epi32(v[3], 16));
        /* byte 2u: bits 7..14 of w0's word u; byte 2u + 1: those of w1's */
        const __m512i idx = _mm512_mask_blend_epi8(odd_bytes, _mm512_srli_epi16(w0, 7),
                                                   _mm512_slli_epi16(w1, 1));
        const __m512i p0 = vbmi_lookup(tb, idx);
        const __m512i p1 = vbmi_lookup(tb, _mm512_add_epi8(idx, one)); /* (q + 1) & 255 */
        const __m512i a0 = _mm512_and_si512(p0, mff), a1 = _mm512_srli_epi16(p0, 8);
        const __m512i b0 = _mm512_and_si512(p1, mff), b1 = _mm512_srli_epi16(p1, 8);
        s0 = _mm512_add_epi16(s0, _mm512_add_epi16(_mm512_slli_epi16(a0, 7),
                                                   _mm512_mullo_epi16(_mm512_and_si512(w0, m7f),
                                                                      _mm512_sub_epi16(b0, a0))));
        s1 = _mm512_add_epi16(s1, _mm512_add_epi16(_mm512_slli_epi16(a1, 7),
                                                   _mm512_mullo_epi16(_mm512_and_si512(w1, m7f),
                                                                      _mm512_sub_epi16(b1, a1))));
        if ((i & 1u) || i + 1 == ta->n) {
            acc[0] = _mm512_add_epi32(acc[0], _mm512_and_si512(s0, lo16));
            acc[1] = _mm512_add_epi32(acc[1], _mm512_srli_epi32(s0, 16));
            acc[2] = _mm512_add_epi32(acc[2], _mm512_and_si512(s1, lo16));
            acc[3] = _mm512_add_epi32(acc[3], _mm512_srli_epi32(s1, 16));
            s0 = _mm512_setzero_si512();
            s1 = _mm512_setzero_si512();
        }
    }
}

/* height numerators, as tile_height_ (and tile_height_neon): p0 and p1 of
 * 64 columns by two lookups, the terms p0*2^s + frac*(p1 - p0) in int32,
 * sixteen columns a vector (in 16-bit lanes at s = 7: vbmi_height64_s7) */
RT_VBMI_ATTR static void tile_height_vbmi(const rt_tile_args *ta, int32_t *restrict out)
{
    const vbmi_table tb = vbmi_load(ta->bytes);
    const int nk = ta->nk;
    const __m128i sh = _mm_cvtsi32_si128((int)ta->shift);
    const __m512i fm = _mm512_set1_epi32((int)((1u << ta->shift) - 1u)), one = _mm512_set1_epi8(1);
    __m512i ldv[RT_MAX_DIRECTIONS];
    vbmi_lane_steps(ta, ldv);
    int k = 0;
    if (ta->shift == 7) {
        __m512i acc[4];
        for (; k + 64 <= nk; k += 64) {
            vbmi_height64_s7(ta, &tb, k, ldv, acc);
            for (int q = 0; q < 4; q++) _mm512_storeu_si512((void *)(out + k + 16 * q), acc[q]);
        }
    }
    for (; k + 64 <= nk; k += 64) {
        __m512i acc[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(),
                          _mm512_setzero_si512()};
        for (uint32_t i = 0; i < ta->n; i++) {
            __m512i v[4];
            vbmi_v(ta, i, k, ldv, v);
            const __m512i idx = vbmi_low_bytes(_mm512_srl_epi32(v[0], sh), _mm512_srl_epi32(v[1], sh),
                                               _mm512_srl_epi32(v[2], sh), _mm512_srl_epi32(v[3], sh));
            const __m512i p0 = vbmi_lookup(&tb, idx);
            const __m512i p1 = vbmi_lookup(&tb, _mm512_add_epi8(idx, one)); /* (q + 1) & 255 */
            for (int q = 0; q < 4; q++) {
                const __m512i a = _mm512_cvtepu8_epi32(vbmi_quarter(p0, q));
                const __m512i b = _mm512_cvtepu8_epi32(vbmi_quarter(p1, q));
                const __m512i frac = _mm512_and_si512(v[q], fm);
                acc[q] = _mm512_add_epi32(acc[q], _mm512_add_epi32(_mm512_sll_epi32(a, sh),
                                                                   _mm512_mullo_epi32(frac, _mm512_sub_epi32(b, a))));
            }
        }
        for (int q = 0; q < 4; q++) _mm512_storeu_si512((void *)(out + k + 16 * q), acc[q]);
    }
    if (k < nk) {
        rt_tile_args rest = *ta;
        rest.nk = nk - k;
        for (uint32_t i = 0; i < ta->n; i++) rest.v0[i] = ta->v0[i] + (uint32_t)k * ta->dv[i];
        tile_height_avx512(&rest, out + k);
    }
}

/* profile sums at the rounded points, as tile_prof_at_ */
RT_VBMI_ATTR static void tile_prof_at_vbmi(const rt_tile_args *ta, const uint32_t *restrict xr,
                                           int32_t *restrict out)
{
    const vbmi_table tb = vbmi_load(ta->bytes);
    const int nk = ta->nk;
    const __m128i sh = _mm_cvtsi32_si128((int)ta->shift);
    int k = 0;
    for (; k + 64 <= nk; k += 64) {
        __m512i x[4];
        for (int q = 0; q < 4; q++) x[q] = _mm512_loadu_si512((const void *)(xr + k + 16 * q));
        __m512i lo = _mm512_setzero_si512(), hi = _mm512_setzero_si512();
        for (uint32_t i = 0; i < ta->n; i++) {
            const __m512i a = _mm512_set1_epi32((int)ta->dv[i]), by = _mm512_set1_epi32((int)ta->v0[i]);
            __m512i v[4];
            for (int q = 0; q < 4; q++)
                v[q] = _mm512_srl_epi32(_mm512_add_epi32(_mm512_mullo_epi32(a, x[q]), by), sh);
            __m512i p = vbmi_lookup(&tb, vbmi_low_bytes(v[0], v[1], v[2], v[3]));
            vbmi_accumulate(&lo, &hi, p);
        }
        vbmi_store_sums(lo, hi, out + k);
    }
    if (k < nk) {
        rt_tile_args rest = *ta;
        rest.nk = nk - k;
        tile_prof_at_avx512(&rest, xr + k, out + k);
    }
}

/* Rows from which the strided tables of terrain_avx2.h pay here: made once
 * a block, they cost more than the in-register lookups save on 256-column
 * map tiles (1.2-1.7x their time at 8-32 m a pixel), less on 2048-column
 * grids (0.8-0.95). */
#define VB_STRIDED_NK 1024

/* The heights by the rotated windows of terrain_avx2.h where they serve
 * the tile (faster), by the lookups above where not (coarse steps: 8 and
 * more at the classic model's directions), as numerators (there the
 * strided tables of terrain_avx2.h where they serve) or straight into the
 * output. */
/* The height numerators of aw_run (AW_INT) with the 16-lane packed
 * windows (rt__tile_windows16), 16 columns a step, columns [0, k16) (a
 * multiple of 16): one vpermd by q picks P[q] << 16 | (P[q+1] - P[q]) for
 * the 16 columns, whose indices lie in the window of the smallest (every
 * moving |dv| <= 2^s), and one vpmaddwd with (V & (2^s - 1)) | 2^(s+16)
 * gives the term P[q]*2^s + frac*(P[q+1] - P[q]) as aw_run does; the
 * directions' terms added in the same order, modulo 2^32. */
#define VB_H_MAX 8 /* directions vb_height16 takes */
RT_VBMI_ATTR static inline __attribute__((always_inline)) void
vb_height16(const aw_plan *pl, const int na, const rt_tile_args *ta, int k16, int32_t *out)
{
    const uint32_t s = ta->shift, wm = ta->win16p_mask;
    const int32_t *win = ta->win16p;
    const __m512i lanes = _mm512_loadu_si512((const void *)VBMI_LANES);
    const __m512i fm = _mm512_set1_epi32((int)((1u << s) - 1u));
    const __m512i hi = _mm512_set1_epi32((int)(1u << (s + 16)));
    const __m512i cst = _mm512_set1_epi32(pl->cst);
    const __m128i sh = _mm_cvtsi32_si128((int)s);
    __m512i V[VB_H_MAX], step[VB_H_MAX];
    uint32_t B[VB_H_MAX], dB[VB_H_MAX];
    for (int i = 0; i < na; i++) {
        const uint32_t dv = pl->dv[i];
        V[i] = _mm512_add_epi32(_mm512_set1_epi32((int)pl->v[i]),
                                _mm512_mullo_epi32(lanes, _mm512_set1_epi32((int)dv)));
        step[i] = _mm512_set1_epi32((int)(16u * dv));
        B[i] = (int32_t)dv >= 0 ? pl->v[i] : pl->v[i] + 15u * dv;
        dB[i] = 16u * dv;
    }
    for (int k = 0; k < k16; k += 16) {
        __m512i acc = cst;
        for (int i = 0; i < na; i++) {
            const __m512i q = _mm512_srl_epi32(V[i], sh);
            const __m512i pe = _mm512_permutexvar_epi32(
                q, _mm512_load_si512((const void *)(win + (((B[i] >> s) & wm) << 4))));
            /* (V & fm) | hi */
            acc = _mm512_add_epi32(acc, _mm512_madd_epi16(pe, _mm512_ternarylogic_epi32(V[i], fm, hi, 0xEA)));
            V[i] = _mm512_add_epi32(V[i], step[i]);
            B[i] += dB[i];
        }
        _mm512_storeu_si512((void *)(out + k), acc);
    }
}

/* The height numerators of a tile whose plan pl the windows serve, at most
 * VB_H_MAX moving directions, the 16-lane windows given: columns [0, k16)
 * by vb_height16 (the direction count a constant for the common ones),
 * the last few by the portable sums (aw_column).  Not inlined into
 * tile_height_vbmiw, whose other branch calls aw_run: under ASan that
 * one's frames (175 KiB) and this one's together passed the small-stack
 * test's thread stack. */
RT_VBMI_ATTR __attribute__((noinline)) static void vb_height_tile(const aw_plan *pl, const rt_tile_args *ta,
                                                                 int32_t *restrict out)
{
    const int k16 = ta->nk & ~15;
    switch (pl->na) {
    case 3: vb_height16(pl, 3, ta, k16, out); break;
    case 4: vb_height16(pl, 4, ta, k16, out); break;
    case 5: vb_height16(pl, 5, ta, k16, out); break;
    default: vb_height16(pl, pl->na, ta, k16, out);
    }
    for (int k = k16; k < ta->nk; k++) out[k] = aw_column(ta, k, 1);
}

RT_VBMI_ATTR static void tile_height_vbmiw(const rt_tile_args *ta, int32_t *restrict out)
{
    aw_plan pl;
    if (aw_plan_make(ta, 1, &pl)) {
        if (ta->win16p && pl.na <= VB_H_MAX)
            vb_height_tile(&pl, ta, out);
        else
            tile_height_avx2w(ta, out);
    } else if (ta->nk >= VB_STRIDED_NK && aw_strided_serves(ta, 1)) { /* wide rows: 0.94-0.95 */
        aw_coarse(ta, 1, out);
    } else {
        tile_height_vbmi(ta, out);
    }
}

RT_VBMI_ATTR static void tile_height_store_vbmiw(const rt_tile_args *ta, double scale,
                                                 double *restrict out)
{
    aw_plan pl;
    if (aw_plan_make(ta, 1, &pl)) {
        tile_height_store_avx2w(ta, scale, out);
        return;
    }
    /* wide rows by the strided tables, as tile_height_vbmiw (2048^2 at steps
     * 8 and 16 on an AMD EPYC, Zen 4: 0.93 and 0.72 of the byte permutes'
     * time below) */
    if (ta->nk >= VB_STRIDED_NK && aw_strided_serves(ta, 1)) {
        aw_coarse_store(ta, scale, out, tile_store_heights_avx512);
        return;
    }
    int k = 0;
    if (ta->shift == 7) {
        /* 64 columns at a time straight into the output (num * 2^-7, exact),
         * by streaming stores where asked and the output is on a line */
        const vbmi_table tb = vbmi_load(ta->bytes);
        const __m512d vs = _mm512_set1_pd(scale);
        const int nt = ta->stream && (uintptr_t)out % 64 == 0;
        __m512i ldv[RT_MAX_DIRECTIONS], acc[4];
        vbmi_lane_steps(ta, ldv);
        for (; k + 64 <= ta->nk; k += 64) {
            vbmi_height64_s7(ta, &tb, k, ldv, acc);
            for (int q = 0; q < 8; q++) {
                const __m256i num = q & 1 ? _mm512_extracti64x4_epi64(acc[q >> 1], 1)
                                          : _mm512_castsi512_si256(acc[q >> 1]);
                const __m512d h = _mm512_mul_pd(_mm512_cvtepi32_pd(num), vs);
                if (nt)
                    _mm512_stream_pd(out + k + 8 * q, h);
                else
                    _mm512_storeu_pd(out + k + 8 * q, h);
            }
        }
        if (k == ta->nk) return;
    }
    rt_tile_args rest = *ta;
    rest.nk = ta->nk - k;
    for (uint32_t i = 0; i < ta->n; i++) rest.v0[i] = ta->v0[i] + (uint32_t)k * ta->dv[i];
    aw_height_store_pieces(&rest, scale, out + k, tile_height_vbmi, tile_store_heights_avx512);
}

/* The profile sums by the byte windows of terrain_avx2.h where they serve
 * the tile (faster), by the lookups above where not. */
/* The profile sums of a tile the byte windows cannot serve: the strided
 * tables on wide rows where they serve (2048² grids at 8 / 16 m: 0.8-0.9
 * of the lookups' time), else the lookups above. */
RT_VBMI_ATTR static void vb_prof_coarse(const rt_tile_args *ta, int32_t *restrict out)
{
    if (ta->nk >= VB_STRIDED_NK && aw_strided_serves(ta, 0))
        aw_coarse(ta, 0, out);
    else
        tile_prof_vbmi(ta, out);
}

/* 0 .. 31: the words of a vector (doubled, the even columns) */
static const uint8_t VB_WORDS[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                     16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};

/* The byte-window sums of aw_prof8_dir (terrain_avx2.h) with the 64-byte
 * windows (rt__tile_windows64), 64 columns a step, columns [0, k64) (a
 * multiple of 64), for the na (a constant, at most VB_REGS_MAX: AVX-512
 * has 32 vector registers) directions i0 .. i0+na-1 of pl at once, their
 * indices and sums in registers.  Byte c of a vector is column c: a vpermb
 * by q & 63 (it reads bits 0..5 of each index byte) picks P[q] - base from
 * the rotated window of the step's smallest index, where 64 columns span
 * at most 64 indices (every moving |dv| <= 2^s).  q & 63 of the even
 * columns comes from W = V << (10 - s) modulo 2^16 (bits 10..15), that of
 * the odd ones from V << (8 - s) (bits 8..13; low: s <= 8) or from V <<
 * (10 - s) shifted down by 2, in 16-bit lanes as the AVX2 kernel keeps
 * them, and one vpternlogd joins the two.  The sums: per 64 columns the
 * words p (even column's byte low, odd one's high) summed modulo 2^16, and
 * the odd bytes alone, as aw_prof8_dir's; added to acc's unless first, and
 * stored in the VBMI kernels' layout (the words of 64 columns, then their
 * odd bytes) or, order, the AVX2 kernels' (per 32 columns the words, then
 * their odd bytes). */
#define VB_REGS_MAX 6
RT_VBMI_ATTR static inline __attribute__((always_inline)) void
vb_prof64_regs(const aw_plan *pl, const rt_tile_args *ta, int k64, __m512i *acc, int i0, const int na,
               const int low, const int first, const int order)
{
    /* s >= 7 here (the tile shifts are m + 7), s <= 10 (the caller's) */
    const uint32_t s = ta->shift, up = 10u - s, s6 = s - 6u, wm64 = ta->win64_mask << 6;
    const uint32_t upo = low ? 8u - s : up;
    const uint8_t *win = ta->win64;
    const __m512i himask = _mm512_set1_epi16((short)0xff00);
    const __m512i cols = _mm512_slli_epi16(_mm512_cvtepu8_epi16(_mm256_loadu_si256((const void *)VB_WORDS)), 1);
    __m512i We[VB_REGS_MAX], Wo[VB_REGS_MAX], st[VB_REGS_MAX], sto[VB_REGS_MAX];
    uint32_t B[VB_REGS_MAX], dB[VB_REGS_MAX];
    for (int i = 0; i < na; i++) {
        const uint32_t v = pl->v[i0 + i], dv = pl->dv[i0 + i];
        const uint16_t dw = (uint16_t)(dv << up), dwo = (uint16_t)(dv << upo);
        We[i] = _mm512_add_epi16(_mm512_set1_epi16((short)(uint16_t)(v << up)),
                                 _mm512_mullo_epi16(cols, _mm512_set1_epi16((short)dw)));
        Wo[i] = _mm512_add_epi16(_mm512_set1_epi16((short)(uint16_t)((v + dv) << upo)),
                                 _mm512_mullo_epi16(cols, _mm512_set1_epi16((short)dwo)));
        st[i] = _mm512_set1_epi16((short)(uint16_t)(64u * dw));
        sto[i] = _mm512_set1_epi16((short)(uint16_t)(64u * dwo));
        /* V at the step's column with the smallest index */
        B[i] = (int32_t)dv >= 0 ? v : v + 63u * dv;
        dB[i] = 64u * dv;
    }
    for (int k = 0; k < k64; k += 64, acc += 2) {
        __m512i w = first ? _mm512_setzero_si512() : _mm512_loadu_si512((const void *)acc);
        __m512i o = first ? _mm512_setzero_si512() : _mm512_loadu_si512((const void *)(acc + 1));
        for (int i = 0; i < na; i++) {
            const __m512i oi = low ? Wo[i] : _mm512_srli_epi16(Wo[i], 2);
            /* (We >> 10) | (oi & 0xff00): q & 63 of column 2j in byte 2j,
             * of column 2j+1 in byte 2j+1 (bits 6 and 7 unread) */
            const __m512i q = _mm512_ternarylogic_epi32(_mm512_srli_epi16(We[i], 10), oi, himask, 0xF8);
            const __m512i p = _mm512_permutexvar_epi8(
                q, _mm512_load_si512((const void *)(win + ((B[i] >> s6) & wm64))));
            w = _mm512_add_epi16(w, p);
            o = _mm512_add_epi16(o, _mm512_srli_epi16(p, 8));
            We[i] = _mm512_add_epi16(We[i], st[i]);
            Wo[i] = _mm512_add_epi16(Wo[i], sto[i]);
            B[i] += dB[i];
        }
        _mm512_storeu_si512((void *)acc, order ? _mm512_shuffle_i64x2(w, o, 0x44) : w);
        _mm512_storeu_si512((void *)(acc + 1), order ? _mm512_shuffle_i64x2(w, o, 0xEE) : o);
    }
}

/* The two layouts of 64 columns' 16-bit sums, in place, either way: the
 * VBMI kernels' (the words of columns 0..63, then their odd bytes) and the
 * AVX2 kernels' (per 32 columns the words, then their odd bytes); the
 * 128-bit quarters 0 1 2 3 | 4 5 6 7 become 0 1 4 5 | 2 3 6 7 */
RT_VBMI_ATTR static void vb_swap_layout(__m512i *acc, int k64)
{
    for (int k = 0; k < k64; k += 64, acc += 2) {
        const __m512i w = _mm512_loadu_si512((const void *)acc), o = _mm512_loadu_si512((const void *)(acc + 1));
        _mm512_storeu_si512((void *)acc, _mm512_shuffle_i64x2(w, o, 0x44));
        _mm512_storeu_si512((void *)(acc + 1), _mm512_shuffle_i64x2(w, o, 0xEE));
    }
}

/* vb_prof64_regs for n directions from i0 (1 to VB_REGS_MAX), the count a
 * constant in each instance */
RT_VBMI_ATTR static inline __attribute__((always_inline)) void
vb_prof64_group(const aw_plan *pl, const rt_tile_args *ta, int k64, __m512i *acc, int i0, int n,
                const int first, const int order)
{
    const int low = ta->shift <= 8;
#define VB_REGS(N)                                                               \
    case N:                                                                      \
        if (low)                                                                 \
            vb_prof64_regs(pl, ta, k64, acc, i0, N, 1, first, order);            \
        else                                                                     \
            vb_prof64_regs(pl, ta, k64, acc, i0, N, 0, first, order);            \
        break;
    switch (n) {
        VB_REGS(1) VB_REGS(2) VB_REGS(3) VB_REGS(4) VB_REGS(5) VB_REGS(6)
    default: break;
    }
#undef VB_REGS
}

/* more than VB_REGS_MAX directions: VB_REGS_MAX at a time, the sums in
 * the VBMI layout between, in the same order (first and order not
 * constants here: one set of instances for this rare case) */
RT_VBMI_ATTR static void vb_prof64_many(const aw_plan *pl, const rt_tile_args *ta, int k64, __m512i *acc,
                                        int order)
{
    int i0 = 0;
    for (; pl->na - i0 > VB_REGS_MAX; i0 += VB_REGS_MAX)
        vb_prof64_group(pl, ta, k64, acc, i0, VB_REGS_MAX, i0 == 0, 0);
    vb_prof64_group(pl, ta, k64, acc, i0, pl->na - i0, 0, order);
}

/* The 16-bit sums of aw_prof8_sums for columns [0, k64) (k64 a multiple
 * of 64) into acc: in the AVX2 kernels' layout (order) or the VBMI
 * kernels' own; pl->na > 0, ta->win64 given and s <= 10. */
RT_VBMI_ATTR static inline __attribute__((always_inline)) void
vb_prof64_sums_(const aw_plan *pl, const rt_tile_args *ta, int k64, __m512i *acc, const int order)
{
    if (pl->na <= VB_REGS_MAX)
        vb_prof64_group(pl, ta, k64, acc, 0, pl->na, 1, order);
    else
        vb_prof64_many(pl, ta, k64, acc, order);
}

/* in the AVX2 kernels' layout (aw_sums64: aw_prof8_run converts them) */
RT_VBMI_ATTR static void vb_prof64_sums(const aw_plan *pl, const rt_tile_args *ta, int k64, __m512i *acc)
{
    vb_prof64_sums_(pl, ta, k64, acc, 1);
}

/* in the VBMI kernels' own (tile_prof16_vbmiw, for tile_classify_bytes_vbmiw) */
RT_VBMI_ATTR static void vb_prof64_sums_own(const aw_plan *pl, const rt_tile_args *ta, int k64, __m512i *acc)
{
    vb_prof64_sums_(pl, ta, k64, acc, 0);
}

/* The 64-byte windows' columns of a tile: where given, and s <= 10. */
static int vb_k64(const rt_tile_args *ta)
{
    return ta->win64 && ta->shift <= 10 ? ta->nk & ~63 : 0;
}

RT_VBMI_ATTR static void tile_prof_vbmiw(const rt_tile_args *ta, int32_t *restrict out)
{
    aw_plan pl;
    if (aw_win8_serves(ta, &pl))
        aw_prof_from(&pl, ta, out, vb_k64(ta), vb_prof64_sums);
    else
        vb_prof_coarse(ta, out);
}

/* profile sums for tile_classify_bytes_vbmiw: columns [0, k64), k64 = nk &
 * ~63, in the VBMI kernels' 16-bit form (per 64 columns the words of
 * aw_prof8_dir's sums, then the sums of their odd bytes: vb_prof64_sums_own,
 * or the 16-byte windows' sums where the 64-byte ones cannot serve, s = 11
 * or 12, put in that layout), the sum of a column *off + its 16-bit sum;
 * columns [k64, nk) as int32 at out + k64.  Returns k64, or 0 when all of
 * out is int32 (as tile_prof_vbmiw). */
RT_VBMI_ATTR static int tile_prof16_vbmiw(const rt_tile_args *ta, int32_t *restrict out, int32_t *off)
{
    aw_plan pl;
    if (!aw_win8_serves(ta, &pl)) {
        vb_prof_coarse(ta, out);
        return 0;
    }
    const int k64 = ta->nk & ~63;
    const int64_t o = (int64_t)pl.cst + (int64_t)pl.na * ta->win8_base;
    if (pl.na == 0 || k64 == 0 || o < INT32_MIN || o > INT32_MAX - 65536) {
        aw_prof_from(&pl, ta, out, vb_k64(ta), vb_prof64_sums);
        return 0;
    }
    if (vb_k64(ta)) {
        vb_prof64_sums_own(&pl, ta, k64, (__m512i *)(void *)out);
    } else {
        aw_prof8_sums(&pl, ta, 0, k64, (__m256i *)(void *)out);
        vb_swap_layout((__m512i *)(void *)out, k64);
    }
    *off = (int32_t)o;
    const int k1 = ta->nk & ~7;
    aw_dispatch(&pl, AW_PROF, ta, k64, k1, out, NULL, 0.0);
    for (int k = k1; k < ta->nk; k++) out[k] = aw_column(ta, k, 0);
    return k64;
}

/* The feature candidates of 16 columns (as aw_classify_bytes): f = ((fa *
 * xy + 64) mod 2^32 >> 7) & fmask equal to one of the codes fp, fx, fc */
RT_VBMI_ATTR static inline __attribute__((always_inline)) __mmask16
vb_candidates16(const int32_t *fa, __m512i xy, __m512i fmask, __m512i fp, __m512i fx, __m512i fc)
{
    const __m512i N = _mm512_mullo_epi32(_mm512_loadu_si512((const void *)fa), xy);
    const __m512i f = _mm512_and_si512(_mm512_srli_epi32(_mm512_add_epi32(N, _mm512_set1_epi32(64)), 7), fmask);
    return (__mmask16)(_mm512_cmpeq_epi32_mask(f, fp) | _mm512_cmpeq_epi32_mask(f, fx) |
                       _mm512_cmpeq_epi32_mask(f, fc));
}

/* Columns [0, K) of tile_classify_bytes_vbmiw (K = ca->k16, a multiple of
 * 64, the sums in tile_prof16_vbmiw's form): aw_classify_bytes' decisions,
 * 64 columns a step.  The vegetation and town codes in 16-bit lanes, even
 * and odd columns apart, as there; lake, mud, town and the feature
 * candidates as 64-bit column masks; the heights and depths by the same
 * operations on the same values (a lake column: the lake's height, and
 * its height less the column's; h < lake_lt exactly when h * 2^-s <
 * lake_height), stored by the AVX2 kernels' plain or streaming stores
 * (mode) in the same order. */
RT_VBMI_ATTR static inline __attribute__((always_inline)) int
vb_classify64(const rt_classify_args *ca, const int K, const int mode, const int lin)
{
    _Static_assert(RT_LAKE == 0, "lake columns' codes are cleared");
    const int bmode = mode == AW_ST_PLAIN ? AW_B_PLAIN : AW_B_NT;
    const __m512i t1 = _mm512_set1_epi16(aw_th16(ca->town_lt, ca->off1));
    const __m512i g2 = _mm512_set1_epi16(aw_th16(ca->grass_lt, ca->off2));
    const __m512i o3 = _mm512_set1_epi16(aw_th16(ca->open_lt, ca->off3));
    const __m512i h3 = _mm512_set1_epi16(aw_th16(ca->thicket_lt, ca->off3));
    const __m512i w_grass = _mm512_set1_epi16(RT_GRASS), w_moor = _mm512_set1_epi16(RT_MOOR);
    const __m512i w_wood = _mm512_set1_epi16(RT_WOOD), w_thicket = _mm512_set1_epi16(RT_THICKET);
    const __m512i w_town = _mm512_set1_epi16(RT_TOWN), b_town = _mm512_set1_epi8(RT_TOWN);
    const __m512i b_mud = _mm512_set1_epi8(RT_MUD), none = _mm512_set1_epi8(RT_NONE);
    const __m512i cand_b = _mm512_set1_epi8((char)0xff);
    const __m512i lake_lt = _mm512_set1_epi32(ca->lake_lt), mud_lt = _mm512_set1_epi32(ca->mud_lt);
    const __m512i fmask = _mm512_set1_epi32((int)ca->fmask);
    const __m512i fp = _mm512_set1_epi32(ca->fp_i), fx = _mm512_set1_epi32(ca->fx_i);
    const __m512i fc = _mm512_set1_epi32(ca->fc_i);
    const __m512i vyr = _mm512_set1_epi32((int)(uint32_t)(int32_t)(int64_t)ca->yr);
    const __m512d lh = _mm512_set1_pd(ca->lake_height), vs = _mm512_set1_pd(ca->scale);
    /* lin: xr * yr along the tile, 16 columns a step */
    __m512i vxy = _mm512_add_epi32(_mm512_set1_epi32((int)ca->xy0),
                                   _mm512_mullo_epi32(_mm512_loadu_si512((const void *)VBMI_LANES),
                                                      _mm512_set1_epi32((int)ca->dxy)));
    const __m512i dxy16 = _mm512_set1_epi32((int)(16u * ca->dxy));
    double *const height = ca->height, *const depth = ca->depth;
    uint8_t *const terrain = ca->terrain, *const feature = ca->feature, *const cmask = ca->cmask;
    const int32_t *const hnum = ca->hnum, *const ifa = ca->fa, *const ixr = ca->xr;
    const __m512i *s1 = (const __m512i *)(const void *)ca->a1;
    const __m512i *s2 = (const __m512i *)(const void *)ca->a2;
    const __m512i *s3 = (const __m512i *)(const void *)ca->a3;
    __m256d ch = _mm256_setzero_pd(), cd = ch, ct = ch, cf = ch; /* the streaming stores' carries */
    int any = 0;
    for (int k = 0; k < K; k += 64, s1 += 2, s2 += 2, s3 += 2) {
        const __m512i o1 = _mm512_loadu_si512((const void *)(s1 + 1));
        const __m512i o2 = _mm512_loadu_si512((const void *)(s2 + 1));
        const __m512i o3v = _mm512_loadu_si512((const void *)(s3 + 1));
        const __m512i e1 = _mm512_sub_epi16(_mm512_loadu_si512((const void *)s1), _mm512_slli_epi16(o1, 8));
        const __m512i e2 = _mm512_sub_epi16(_mm512_loadu_si512((const void *)s2), _mm512_slli_epi16(o2, 8));
        const __m512i e3 = _mm512_sub_epi16(_mm512_loadu_si512((const void *)s3), _mm512_slli_epi16(o3v, 8));
        /* the vegetation and town codes, even columns then odd ones */
        __m512i te = _mm512_mask_blend_epi16(
            _mm512_cmplt_epi16_mask(e2, g2),
            _mm512_mask_blend_epi16(_mm512_cmplt_epi16_mask(e3, h3), w_wood, w_thicket),
            _mm512_mask_blend_epi16(_mm512_cmplt_epi16_mask(e3, o3), w_moor, w_grass));
        __m512i to = _mm512_mask_blend_epi16(
            _mm512_cmplt_epi16_mask(o2, g2),
            _mm512_mask_blend_epi16(_mm512_cmplt_epi16_mask(o3v, h3), w_wood, w_thicket),
            _mm512_mask_blend_epi16(_mm512_cmplt_epi16_mask(o3v, o3), w_moor, w_grass));
        te = _mm512_mask_mov_epi16(te, _mm512_cmplt_epi16_mask(e1, t1), w_town);
        to = _mm512_mask_mov_epi16(to, _mm512_cmplt_epi16_mask(o1, t1), w_town);
        /* bytes in column order: even columns low, odd ones high */
        __m512i ter = _mm512_or_si512(te, _mm512_slli_epi16(to, 8));
        const __mmask64 town = _mm512_cmpeq_epi8_mask(ter, b_town);
        /* lake and mud from the int32 numerators, bit c for column k + c */
        __m512i H[4];
        __mmask16 lk[4], md[4];
        for (int g = 0; g < 4; g++) {
            H[g] = _mm512_loadu_si512((const void *)(hnum + k + 16 * g));
            lk[g] = _mm512_cmplt_epi32_mask(H[g], lake_lt);
            md[g] = _mm512_cmplt_epi32_mask(H[g], mud_lt);
        }
        const __mmask64 lake = _mm512_kunpackd(_mm512_kunpackw(lk[3], lk[2]), _mm512_kunpackw(lk[1], lk[0]));
        const __mmask64 mud = _mm512_kunpackd(_mm512_kunpackw(md[3], md[2]), _mm512_kunpackw(md[1], md[0]));
        ter = _mm512_mask_mov_epi8(ter, mud, b_mud);
        ter = _mm512_maskz_mov_epi8(_knot_mask64(lake), ter);
        const uint64_t excl = _cvtmask64_u64(town) | _cvtmask64_u64(lake) | _cvtmask64_u64(mud);
        /* feature candidates, 16 columns a group */
        uint64_t cm = 0;
        for (int g = 0; g < 4; g++) {
            const int kg = k + 16 * g;
            __m512i xy;
            if (lin) {
                xy = vxy;
                vxy = _mm512_add_epi32(vxy, dxy16);
            } else {
                xy = _mm512_mullo_epi32(_mm512_loadu_si512((const void *)(ixr + kg)), vyr);
            }
            const __mmask16 c = vb_candidates16(ifa + kg, xy, fmask, fp, fx, fc);
            cm |= (uint64_t)_cvtmask16_u32(c) << (16 * g);
        }
        cm &= ~excl;
        memcpy(cmask + (k >> 3), &cm, 8); /* bit k & 7 of byte k >> 3 (little-endian) */
        any |= cm != 0;
        const __m512i fv = cm ? _mm512_mask_mov_epi8(none, _cvtu64_mask64(cm), cand_b) : none;
        aw_store_32bytes_c(terrain + k, _mm512_castsi512_si256(ter), bmode, &ct, terrain);
        aw_store_32bytes_c(terrain + k + 32, _mm512_extracti64x4_epi64(ter, 1), bmode, &ct, terrain);
        aw_store_32bytes_c(feature + k, _mm512_castsi512_si256(fv), bmode, &cf, feature);
        aw_store_32bytes_c(feature + k + 32, _mm512_extracti64x4_epi64(fv, 1), bmode, &cf, feature);
        /* height and depth in doubles, eight columns a step */
        const uint64_t lakes = _cvtmask64_u64(lake);
        for (int g = 0; g < 8; g++) {
            const __m256i h8 = g & 1 ? _mm512_extracti64x4_epi64(H[g >> 1], 1) : _mm512_castsi512_si256(H[g >> 1]);
            const __mmask8 lg = (__mmask8)(lakes >> (8 * g));
            const __m512d hd = _mm512_mul_pd(_mm512_cvtepi32_pd(h8), vs);
            const __m512d ho = _mm512_mask_mov_pd(hd, lg, lh);
            const __m512d dd = _mm512_maskz_sub_pd(lg, lh, hd);
            double *const hp = height + k + 8 * g, *const dp = depth + k + 8 * g;
            aw_store_pd_c(hp, _mm512_castpd512_pd256(ho), mode, &ch, height);
            aw_store_pd_c(hp + 4, _mm512_extractf64x4_pd(ho, 1), mode, &ch, height);
            aw_store_pd_c(dp, _mm512_castpd512_pd256(dd), mode, &cd, depth);
            aw_store_pd_c(dp + 4, _mm512_extractf64x4_pd(dd, 1), mode, &cd, depth);
        }
    }
    aw_store_32bytes_end(terrain + K, ct, bmode);
    aw_store_32bytes_end(feature + K, cf, bmode);
    aw_store_pd_end(height + K, ch, mode);
    aw_store_pd_end(depth + K, cd, mode);
    return any;
}

/* Columns [k0, k1) (k1 - k0 a multiple of 16) of tile_classify_bytes_vbmiw
 * from int32 sums: aw_classify_bytes' int32 loop (the same decisions, the
 * same doubles), 16 columns a step with mask registers; the bytes by plain
 * stores as there (16 of each a step: streamed, partial lines between the
 * slower steps of coarse tiles cost more than they saved). */
RT_VBMI_ATTR static inline __attribute__((always_inline)) int
vb_classify16(const rt_classify_args *ca, const int k0, const int k1, const int mode, const int lin)
{
    const __m512i town_lt = _mm512_set1_epi32(ca->town_lt), grass_lt = _mm512_set1_epi32(ca->grass_lt);
    const __m512i open_lt = _mm512_set1_epi32(ca->open_lt), thicket_lt = _mm512_set1_epi32(ca->thicket_lt);
    const __m512i grass = _mm512_set1_epi32(RT_GRASS), moor = _mm512_set1_epi32(RT_MOOR);
    const __m512i thicket = _mm512_set1_epi32(RT_THICKET), wood = _mm512_set1_epi32(RT_WOOD);
    const __m512i town = _mm512_set1_epi32(RT_TOWN), mud = _mm512_set1_epi32(RT_MUD);
    const __m512i lake_lt = _mm512_set1_epi32(ca->lake_lt), mud_lt = _mm512_set1_epi32(ca->mud_lt);
    const __m512i fmask = _mm512_set1_epi32((int)ca->fmask);
    const __m512i fp = _mm512_set1_epi32(ca->fp_i), fx = _mm512_set1_epi32(ca->fx_i);
    const __m512i fc = _mm512_set1_epi32(ca->fc_i);
    const __m512i vyr = _mm512_set1_epi32((int)(uint32_t)(int32_t)(int64_t)ca->yr);
    const __m128i none = _mm_set1_epi8((char)RT_NONE), cand_b = _mm_set1_epi8((char)0xff);
    const __m512d lh = _mm512_set1_pd(ca->lake_height), vs = _mm512_set1_pd(ca->scale);
    __m512i vxy = _mm512_add_epi32(_mm512_set1_epi32((int)(ca->xy0 + (uint32_t)k0 * ca->dxy)),
                                   _mm512_mullo_epi32(_mm512_loadu_si512((const void *)VBMI_LANES),
                                                      _mm512_set1_epi32((int)ca->dxy)));
    const __m512i dxy16 = _mm512_set1_epi32((int)(16u * ca->dxy));
    double *const height = ca->height, *const depth = ca->depth;
    uint8_t *const terrain = ca->terrain, *const feature = ca->feature, *const cmask = ca->cmask;
    __m256d ch = _mm256_setzero_pd(), cd = ch;
    int any = 0;
    for (int k = k0; k < k1; k += 16) {
        const __m512i h = _mm512_loadu_si512((const void *)(ca->hnum + k));
        const __m512i a2 = _mm512_loadu_si512((const void *)(ca->a2 + k));
        const __m512i a3 = _mm512_loadu_si512((const void *)(ca->a3 + k));
        const __mmask16 klake = _mm512_cmplt_epi32_mask(h, lake_lt), kmud = _mm512_cmplt_epi32_mask(h, mud_lt);
        const __mmask16 ktown = _mm512_cmplt_epi32_mask(_mm512_loadu_si512((const void *)(ca->a1 + k)), town_lt);
        const __m512i open = _mm512_mask_blend_epi32(_mm512_cmplt_epi32_mask(a3, open_lt), moor, grass);
        const __m512i closed = _mm512_mask_blend_epi32(_mm512_cmplt_epi32_mask(a3, thicket_lt), wood, thicket);
        __m512i ter = _mm512_mask_blend_epi32(_mm512_cmplt_epi32_mask(a2, grass_lt), closed, open);
        ter = _mm512_mask_mov_epi32(ter, ktown, town);
        ter = _mm512_mask_mov_epi32(ter, kmud, mud);
        ter = _mm512_maskz_mov_epi32((__mmask16)~klake, ter); /* RT_LAKE is 0 */
        __m512i xy;
        if (lin) {
            xy = vxy;
            vxy = _mm512_add_epi32(vxy, dxy16);
        } else {
            xy = _mm512_mullo_epi32(_mm512_loadu_si512((const void *)(ca->xr + k)), vyr);
        }
        const __mmask16 kc = vb_candidates16(ca->fa + k, xy, fmask, fp, fx, fc);
        const uint32_t cm = _cvtmask16_u32(kc) & ~_cvtmask16_u32((__mmask16)(klake | kmud | ktown));
        cmask[k >> 3] = (uint8_t)cm;
        cmask[(k >> 3) + 1] = (uint8_t)(cm >> 8);
        any |= cm != 0;
        _mm_storeu_si128((__m128i *)(void *)(terrain + k), _mm512_cvtepi32_epi8(ter));
        _mm_storeu_si128((__m128i *)(void *)(feature + k),
                         cm ? _mm_mask_mov_epi8(none, (__mmask16)cm, cand_b) : none);
        for (int g = 0; g < 2; g++) {
            const __m256i h8 = g ? _mm512_extracti64x4_epi64(h, 1) : _mm512_castsi512_si256(h);
            const __mmask8 lg = (__mmask8)(_cvtmask16_u32(klake) >> (8 * g));
            const __m512d hd = _mm512_mul_pd(_mm512_cvtepi32_pd(h8), vs);
            const __m512d ho = _mm512_mask_mov_pd(hd, lg, lh);
            const __m512d dd = _mm512_maskz_sub_pd(lg, lh, hd);
            double *const hp = height + k + 8 * g, *const dp = depth + k + 8 * g;
            aw_store_pd_c(hp, _mm512_castpd512_pd256(ho), mode, &ch, height + k0);
            aw_store_pd_c(hp + 4, _mm512_extractf64x4_pd(ho, 1), mode, &ch, height + k0);
            aw_store_pd_c(dp, _mm512_castpd512_pd256(dd), mode, &cd, depth + k0);
            aw_store_pd_c(dp + 4, _mm512_extractf64x4_pd(dd, 1), mode, &cd, depth + k0);
        }
    }
    if (k1 > k0) {
        aw_store_pd_end(height + k1, ch, mode);
        aw_store_pd_end(depth + k1, cd, mode);
    }
    return any;
}

/* classify_bytes of the VBMI kernels: columns [0, k16) from their 16-bit
 * sums (vb_classify64), the next multiple of 16 from int32 ones
 * (vb_classify16), the last few by the AVX2 kernel's tails. */
RT_VBMI_ATTR static int tile_classify_bytes_vbmiw(const rt_classify_args *ca)
{
    const int K = ca->k16 > 0 ? ca->k16 : 0, KE = K + ((ca->nk - K) & ~15);
    const uintptr_t b = (uintptr_t)ca->terrain | (uintptr_t)ca->feature;
    const int mode = b % 8 == 0 ? aw_store_mode(ca->stream, ca->height, ca->depth) : AW_ST_PLAIN;
    const int lin = ca->xr == NULL;
    int any = 0;
#define VB_CLASSIFY(M)                                                              \
    do {                                                                            \
        if (K) any |= lin ? vb_classify64(ca, K, M, 1) : vb_classify64(ca, K, M, 0); \
        if (KE > K)                                                                 \
            any |= lin ? vb_classify16(ca, K, KE, M, 1) : vb_classify16(ca, K, KE, M, 0); \
    } while (0)
    if (mode == AW_ST_NT32)
        VB_CLASSIFY(AW_ST_NT32);
    else if (mode == AW_ST_NTS)
        VB_CLASSIFY(AW_ST_NTS);
    else if (mode == AW_ST_NT16)
        VB_CLASSIFY(AW_ST_NT16);
    else
        VB_CLASSIFY(AW_ST_PLAIN);
#undef VB_CLASSIFY
    if (KE < ca->nk) {
        /* the rest as a tile of its own from column KE (a multiple of 16:
         * the doubles' alignments as they were; its bytes by plain stores) */
        rt_classify_args rest = *ca;
        rest.nk = ca->nk - KE;
        rest.k16 = 0;
        rest.a1 += KE, rest.a2 += KE, rest.a3 += KE, rest.fa += KE, rest.hnum += KE;
        if (rest.xr) rest.xr += KE;
        rest.xy0 = ca->xy0 + (uint32_t)KE * ca->dxy;
        rest.height += KE, rest.depth += KE, rest.terrain += KE, rest.feature += KE;
        rest.cmask += KE / 8;
        any |= tile_classify_bytes_avx2w(&rest);
    }
    return any != 0;
}

/* (Streaming stores for the heights were measured at less than half the
 * speed of plain ones on the development VM, 128 MiB outputs included.) */
/* VBMI CPUs have AVX2: the heights by the rotated windows of terrain_avx2.h
 * (faster than two in-register lookups per term), the profile sums by its
 * byte windows where they serve and by the lookups here where not, classify
 * from terrain_avx2.h too, the point-path rows from point_rows_avx512.h. */
static const rt_tile_kernels tile_kernels_vbmi = {
    tile_height_vbmiw,         tile_prof_vbmiw,   tile_prof_at_vbmi,
    tile_classify_avx512,      tile_store_heights_avx512, tile_finish_avx2w,
    tile_height_store_vbmiw,   tile_classify_bytes_vbmiw, height_row_avx512w,
    tile_prof16_vbmiw,         prof_row_avx512w,  1,
    tile_classify_out_avx512w, height_row2_avx512w, 1};

/* The linear profile sums of the AVX-512 table on a VBMI CPU (the point
 * path's feature sums at whole steps, xr[0] + q*d): 64 columns a lookup
 * where the 64-byte windows serve, as tile_prof_vbmiw (the same sums), else
 * the AVX2 kernel (tile_prof_vbmiw's coarse path reads the byte profile,
 * which this table's callers do not have). */
RT_VBMI_ATTR static void tile_prof_lin64(const rt_tile_args *ta, int32_t *restrict out)
{
    aw_plan pl;
    if (aw_win8_serves(ta, &pl) && vb_k64(ta) > 0)
        aw_prof_from(&pl, ta, out, vb_k64(ta), vb_prof64_sums);
    else
        tile_prof_avx2w(ta, out);
}

/* The AVX-512 variant without byte profiles (or without VBMI; the point
 * path of any step, which has none, always): the window kernels of
 * terrain_avx2.h (their gather fallbacks are AVX2's), with AVX-512's
 * classify and stores, and the point path's rows of point_rows_avx512.h. */
static const rt_tile_kernels tile_kernels_avx512w = {
    tile_height_avx2w,         tile_prof_avx2w,   tile_prof_at_avx512w,
    tile_classify_avx512,      tile_store_heights_avx512, tile_finish_avx2w,
    tile_height_store_avx2w,   tile_classify_bytes_avx2w, height_row_avx512w,
    tile_prof16_avx2w,         prof_row_avx512w,  1,
    tile_classify_out_avx512w, height_row2_avx512w};

/* The same on a VBMI CPU: its linear sums 64 columns a lookup
 * (tile_prof_lin64, the 64-byte windows built for it: wide_tiles) */
static const rt_tile_kernels tile_kernels_avx512w_vbmi = {
    tile_height_avx2w,         tile_prof_lin64,   tile_prof_at_avx512w,
    tile_classify_avx512,      tile_store_heights_avx512, tile_finish_avx2w,
    tile_height_store_avx2w,   tile_classify_bytes_avx2w, height_row_avx512w,
    tile_prof16_avx2w,         prof_row_avx512w,  1,
    tile_classify_out_avx512w, height_row2_avx512w, 1};
