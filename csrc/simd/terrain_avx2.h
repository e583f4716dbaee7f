/*
 * terrain_avx2.h - tile passes with AVX2 and no gathers (included by
 * tile_kernels.c on x86-64 with GCC or Clang, after the template
 * instantiation "avx2", whose gather kernels serve what these cannot).
 *
 * Along a row the index of direction i moves by dv_i / 2^s per column.  When
 * |dv_i| <= 2^s, the indices q of 8 consecutive columns lie in a window
 * [b, b+8) of the profile, b the smallest of them.  The rotated windows of
 * rt__tile_windows hold entry e of every window in lane e & 7, so a single
 * vpermd by q itself (it reads the low 3 bits) picks, for all 8 columns, the
 * packed P[q] << 16 | (P[q+1] - P[q]); one vpmaddwd with (2^s << 16 | frac)
 * then gives the height term P[q]*2^s + frac*(P[q+1] - P[q]) exactly as the
 * portable pass computes it.  Directions with dv = 0 are constant along the
 * row and summed once per tile.  A tile some direction of which moves faster
 * (coarse steps) goes to the strided tables where they serve (below: eight
 * terms of a lane by one load), else to the gather kernels.
 *
 * The point-path row kernel (any step) does the seed's double arithmetic
 * itself, 4 doubles a register, operation for operation (mul, add, mul by
 * 1/128, floor, sub; never an FMA), with the profile looked up the same way.
 */
#include <immintrin.h>

#include "kind_avx2.h"
#include "store_avx2.h"

#define AW_ATTR __attribute__((target("avx2")))
#define AW_INLINE static inline __attribute__((always_inline, target("avx2")))

/* The directions of a tile: the constant part and the moving ones. */
typedef struct aw_plan {
    int na;                       /* moving directions */
    int32_t cst;                  /* the sum of the constant ones */
    uint32_t v[RT_MAX_DIRECTIONS];    /* V at column 0 */
    uint32_t dv[RT_MAX_DIRECTIONS];
    uint32_t base[RT_MAX_DIRECTIONS]; /* V of the group's smallest lane, group 0 */
} aw_plan;

/* The height numerator of one direction at V (as tile_height_). */
static inline int32_t aw_term(const rt_tile_args *ta, uint32_t v, int height)
{
    const int32_t *P = ta->profile;
    const uint32_t q = v >> ta->shift;
    if (!height) return P[q & ta->mask];
    const int32_t p0 = P[q & ta->mask], p1 = P[(q + 1u) & ta->mask];
    const uint32_t fm = (1u << ta->shift) - 1u;
    return (int32_t)((uint32_t)p0 * (1u << ta->shift) + (uint32_t)(int32_t)(v & fm) *
                                                            (uint32_t)(p1 - p0));
}

/* 0: the tile cannot use the windows. */
static int aw_plan_make(const rt_tile_args *ta, int height, aw_plan *pl)
{
    if (!ta->win) return 0;
    const int32_t lim = (int32_t)1 << ta->shift;
    pl->na = 0;
    pl->cst = 0;
    for (uint32_t i = 0; i < ta->n; i++) {
        const uint32_t v0 = ta->v0[i], dv = ta->dv[i];
        if (dv == 0) {
            pl->cst = (int32_t)((uint32_t)pl->cst + (uint32_t)aw_term(ta, v0, height));
            continue;
        }
        const int32_t sd = (int32_t)dv; /* modulo 2^32, as all of V */
        if (sd > lim || sd < -lim) return 0;
        pl->v[pl->na] = v0;
        pl->dv[pl->na] = dv;
        pl->base[pl->na] = sd > 0 ? v0 : v0 + 7u * dv;
        pl->na++;
    }
    return 1;
}

/* what aw_run computes and stores: int32 height numerators, doubles (plain
 * or streaming stores: AW_DOUBLE_NT32 on 32 bytes, AW_DOUBLE_NTS 16 bytes
 * past, the shifted 32-byte ones of aw_store_pd_nts), or profile sums.
 * Five modes: every mode is an instance of aw_run in aw_dispatch for each
 * direction count, and under ASan each instance takes its own stack (a
 * sixth took aw_dispatch from 176 to 211 KiB, past the small-stack test's
 * 224 KiB with its callers). */
enum { AW_INT = 0, AW_DOUBLE = 1, AW_PROF = 2, AW_DOUBLE_NTS = 3, AW_DOUBLE_NT32 = 4 };

/* Columns [k0, k1) of the tile, k1 - k0 a multiple of 8: mode AW_INT and
 * AW_PROF store int32 sums into iout, AW_DOUBLE stores sum * scale into dout. */
AW_INLINE void aw_run(const aw_plan *pl, const int na, const int mode, const rt_tile_args *ta,
                      int k0, int k1, int32_t *iout, double *dout, double scale)
{
    const uint32_t s = ta->shift, wm = ta->win_mask;
    const int32_t *win = ta->win;
    const __m128i sh = _mm_cvtsi32_si128((int)s);
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i fm = _mm256_set1_epi32((int)((1u << s) - 1u));
    const __m256i hi = _mm256_set1_epi32((int)(1u << (s + 16)));
    const __m256i cst = _mm256_set1_epi32(pl->cst);
    const __m256d vs = _mm256_set1_pd(scale);
    __m256i V[RT_MAX_DIRECTIONS], step[RT_MAX_DIRECTIONS];
    uint32_t B[RT_MAX_DIRECTIONS], dB[RT_MAX_DIRECTIONS];
    for (int i = 0; i < na; i++) {
        const uint32_t dv = pl->dv[i];
        V[i] = _mm256_add_epi32(_mm256_set1_epi32((int)(pl->v[i] + (uint32_t)k0 * dv)),
                                _mm256_mullo_epi32(lanes, _mm256_set1_epi32((int)dv)));
        step[i] = _mm256_set1_epi32((int)(8u * dv));
        B[i] = pl->base[i] + (uint32_t)k0 * dv;
        dB[i] = 8u * dv;
    }
    __m256d carry = _mm256_setzero_pd(); /* AW_DOUBLE_NTS: aw_store_pd_nts */
    for (int k = k0; k < k1; k += 8) {
        __m256i acc = cst;
        for (int i = 0; i < na; i++) {
            const __m256i q = _mm256_srl_epi32(V[i], sh);
            const int32_t *w = win + (((B[i] >> s) & wm) << 3);
            const __m256i pe = _mm256_permutevar8x32_epi32(_mm256_load_si256((const __m256i *)w), q);
            if (mode == AW_PROF)
                acc = _mm256_add_epi32(acc, _mm256_srai_epi32(pe, 16));
            else
                acc = _mm256_add_epi32(
                    acc, _mm256_madd_epi16(pe, _mm256_or_si256(_mm256_and_si256(V[i], fm), hi)));
            V[i] = _mm256_add_epi32(V[i], step[i]);
            B[i] += dB[i];
        }
        if (mode == AW_DOUBLE || mode == AW_DOUBLE_NT32 || mode == AW_DOUBLE_NTS) {
            const int st = mode == AW_DOUBLE_NT32 ? AW_ST_NT32 : AW_ST_PLAIN;
            __m256d lo = _mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_castsi256_si128(acc)), vs);
            __m256d up = _mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_extracti128_si256(acc, 1)), vs);
            if (mode == AW_DOUBLE_NTS) {
                carry = aw_store_pd_nts(dout + k, lo, carry, dout + k0);
                carry = aw_store_pd_nts(dout + k + 4, up, carry, dout + k0);
            } else {
                aw_store_pd(dout + k, lo, st);
                aw_store_pd(dout + k + 4, up, st);
            }
        } else {
            _mm256_storeu_si256((__m256i *)(iout + k), acc);
        }
    }
    if (mode == AW_DOUBLE_NTS && k1 > k0) aw_store_pd_end(dout + k1, carry, AW_ST_NTS);
}

/* aw_run with the direction count a constant for the common counts. */
#define AW_MODES(N)                                                                          \
    switch (mode) {                                                                          \
    case AW_INT: aw_run(pl, N, AW_INT, ta, k0, k1, iout, dout, scale); break;                \
    case AW_PROF: aw_run(pl, N, AW_PROF, ta, k0, k1, iout, dout, scale); break;              \
    case AW_DOUBLE_NT32: aw_run(pl, N, AW_DOUBLE_NT32, ta, k0, k1, iout, dout, scale); break; \
    case AW_DOUBLE_NTS: aw_run(pl, N, AW_DOUBLE_NTS, ta, k0, k1, iout, dout, scale); break;   \
    default: aw_run(pl, N, AW_DOUBLE, ta, k0, k1, iout, dout, scale);                        \
    }
static AW_ATTR void aw_dispatch(const aw_plan *pl, int mode, const rt_tile_args *ta, int k0,
                                int k1, int32_t *iout, double *dout, double scale)
{
    switch (pl->na) {
    case 0: AW_MODES(0) break;
    case 1: AW_MODES(1) break;
    case 2: AW_MODES(2) break;
    case 3: AW_MODES(3) break;
    case 4: AW_MODES(4) break;
    case 5: AW_MODES(5) break;
    case 6: AW_MODES(6) break;
    default: AW_MODES(pl->na)
    }
}
#undef AW_MODES

/* Profile sums with byte windows, 32 columns a step, columns [k0, k1) of
 * the tile (k1 - k0 a multiple of 32).  Each 128-bit lane takes 16
 * consecutive columns, whose indices lie in a window [b, b+16) when every
 * moving |dv| <= 2^s; a vpshufb by q & 15 picks P[q] - base from the rotated
 * byte window of b (rt__tile_windows8).  q & 15 needs only V modulo 2^(s+4):
 * W = V << (12 - s) modulo 2^16 (s <= 12) keeps it in bits 12..15 of 16-bit
 * lanes, one vector for the even columns and one (+ dv) for the odd ones, so
 * the control bytes come by shifts and masks, and the picked bytes widen by
 * masks and shifts too (only the vpshufb is a shuffle).  The byte sums (at
 * most 64 * 255) are exact in 16 bits; the constant part, plus base for
 * every moving direction, is added in 32 bits. */
AW_INLINE void aw_prof8_dir(const rt_tile_args *ta, uint32_t v, uint32_t dv, int k0, int k1,
                            __m256i *acc, const int first, const int low)
{
    /* s >= 7 here (the tile shifts are m + 7) */
    const uint32_t s = ta->shift, up = 12u - s, s4 = s - 4u, wm16 = ta->win8_mask << 4;
    const uint8_t *win = ta->win8;
    const __m256i nib1 = _mm256_set1_epi16(0x0f00), hi7 = _mm256_set1_epi16(0x7f00);
    const __m256i cols = _mm256_setr_epi16(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const uint16_t dw = (uint16_t)(dv << up);
    /* W of the even columns, V << (12 - s): q & 15 in bits 12..15 */
    __m256i We = _mm256_add_epi16(_mm256_set1_epi16((short)(uint16_t)(v << up)),
                                  _mm256_mullo_epi16(cols, _mm256_set1_epi16((short)dw)));
    const __m256i step = _mm256_set1_epi16((short)(uint16_t)(32u * dw));
    /* the odd columns: low (s <= 8): V << (8 - s), q & 15 in bits 8..11 (a
     * vpshufb reads only bits 0..3 and 7 of its index byte, so masking bit
     * 15 and the low byte is enough); else as the even ones */
    const uint32_t upo = low ? 8u - s : up;
    const uint16_t dwo = (uint16_t)(dv << upo);
    __m256i Wo = _mm256_add_epi16(_mm256_set1_epi16((short)(uint16_t)((v + dv) << upo)),
                                  _mm256_mullo_epi16(cols, _mm256_set1_epi16((short)dwo)));
    const __m256i stepo = _mm256_set1_epi16((short)(uint16_t)(32u * dwo));
    /* V at the lane's column with the smallest index */
    uint32_t B = (int32_t)dv >= 0 ? v : v + 15u * dv;
    const uint32_t dB = 32u * dv, dL = 16u * dv;
#pragma GCC unroll 4
    for (int k = k0; k < k1; k += 32, acc += 2) {
        /* q & 15 of column 2j in byte 2j, of column 2j+1 in byte 2j+1 */
        const __m256i qo = low ? _mm256_and_si256(Wo, hi7)
                               : _mm256_and_si256(_mm256_srli_epi16(Wo, 4), nib1);
        const __m256i q = _mm256_or_si256(_mm256_srli_epi16(We, 12), qo);
        /* the byte offsets of the rows: ((B >> s) & wm) * 16 */
        const uint32_t r0 = (B >> s4) & wm16, r1 = ((B + dL) >> s4) & wm16;
        const __m256i w = _mm256_blend_epi32(
            _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(const void *)(win + r0))),
            _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(const void *)(win + r1))),
            0xf0);
        /* p: the even column's byte low, the odd one's high; acc[0] sums p
         * as 16-bit words (modulo 2^16), acc[1] the odd bytes alone, and
         * the even sums are acc[0] - (acc[1] << 8), exact (they are < 2^16) */
        const __m256i p = _mm256_shuffle_epi8(w, q);
        const __m256i odd = _mm256_srli_epi16(p, 8);
        if (first) {
            _mm256_storeu_si256(acc, p);
            _mm256_storeu_si256(acc + 1, odd);
        } else {
            _mm256_storeu_si256(acc, _mm256_add_epi16(_mm256_loadu_si256(acc), p));
            _mm256_storeu_si256(acc + 1, _mm256_add_epi16(_mm256_loadu_si256(acc + 1), odd));
        }
        We = _mm256_add_epi16(We, step);
        Wo = _mm256_add_epi16(Wo, stepo);
        B += dB;
    }
}

/* The 16-bit sums of columns [k0, k1) of the tile into acc (two vectors
 * per 32 columns, as aw_prof8_dir), direction after direction (few
 * registers live, the sums in L1); pl->na > 0. */
static AW_ATTR void aw_prof8_sums(const aw_plan *pl, const rt_tile_args *ta, int k0, int k1,
                                  __m256i *acc)
{
    if (ta->shift <= 8) {
        aw_prof8_dir(ta, pl->v[0] + (uint32_t)k0 * pl->dv[0], pl->dv[0], k0, k1, acc, 1, 1);
        for (int i = 1; i < pl->na; i++)
            aw_prof8_dir(ta, pl->v[i] + (uint32_t)k0 * pl->dv[i], pl->dv[i], k0, k1, acc, 0, 1);
    } else {
        aw_prof8_dir(ta, pl->v[0] + (uint32_t)k0 * pl->dv[0], pl->dv[0], k0, k1, acc, 1, 0);
        for (int i = 1; i < pl->na; i++)
            aw_prof8_dir(ta, pl->v[i] + (uint32_t)k0 * pl->dv[i], pl->dv[i], k0, k1, acc, 0, 0);
    }
}

/* Whether the byte windows serve the tile's profile sums (32 columns at
 * least, s <= 12, every moving |dv| <= 2^s); fills *pl. */
static int aw_win8_serves(const rt_tile_args *ta, aw_plan *pl)
{
    return ta->win8 != NULL && ta->shift <= 12 && ta->nk >= 32 && aw_plan_make(ta, 0, pl);
}

/* The VBMI kernels' 16-bit sums of columns [0, k64) (vb_prof64_sums): the
 * same sums in aw_prof8_sums' layout, 64 columns a lookup. */
typedef void (*aw_sums64)(const aw_plan *, const rt_tile_args *, int, __m512i *);

/* The 16-bit sums of columns [0, k1) into acc: [0, k64) by sums64 where
 * given, the rest by aw_prof8_sums. */
static AW_ATTR void aw_prof8_sums_from0(const aw_plan *pl, const rt_tile_args *ta, int k1, __m256i *acc,
                                        int k64, aw_sums64 sums64)
{
    if (!sums64) k64 = 0;
    if (k64) sums64(pl, ta, k64, (__m512i *)(void *)acc);
    if (k64 < k1) aw_prof8_sums(pl, ta, k64, k1, acc + k64 / 16);
}

static AW_ATTR void aw_prof8_run(const aw_plan *pl, const rt_tile_args *ta, int k1, int32_t *out,
                                 int k64, aw_sums64 sums64)
{
    /* the 16-bit sums of the tile, direction after direction (few
     * registers live, the sums in L1): the even columns of each step of 32,
     * then the odd ones.  They are kept in the second half of the output's
     * own bytes (no stack array: threads with small stacks), out[k1/2 ..]:
     * the conversion below writes the 128 bytes of a step only over sums
     * of steps already converted, or its own, read first. */
    __m256i *const acc = (__m256i *)(void *)(out + k1 / 2);
    const int na = pl->na;
    if (na == 0) {
        for (int k = 0; k < k1; k++) out[k] = pl->cst;
        return;
    }
    aw_prof8_sums_from0(pl, ta, k1, acc, k64, sums64);
    const __m256i cst = _mm256_set1_epi32(
        (int32_t)((uint32_t)pl->cst + (uint32_t)na * (uint32_t)ta->win8_base));
    const __m256i *a = acc;
    for (int k = 0; k < k1; k += 32, a += 2) {
        /* columns 0-7 | 16-23, then 8-15 | 24-31 */
        const __m256i o = _mm256_loadu_si256(a + 1);
        const __m256i e = _mm256_sub_epi16(_mm256_loadu_si256(a), _mm256_slli_epi16(o, 8));
        const __m256i lo = _mm256_unpacklo_epi16(e, o), hi = _mm256_unpackhi_epi16(e, o);
        _mm256_storeu_si256((__m256i *)(out + k),
                            _mm256_add_epi32(cst, _mm256_cvtepu16_epi32(_mm256_castsi256_si128(lo))));
        _mm256_storeu_si256((__m256i *)(out + k + 8),
                            _mm256_add_epi32(cst, _mm256_cvtepu16_epi32(_mm256_castsi256_si128(hi))));
        _mm256_storeu_si256((__m256i *)(out + k + 16),
                            _mm256_add_epi32(cst, _mm256_cvtepu16_epi32(_mm256_extracti128_si256(lo, 1))));
        _mm256_storeu_si256((__m256i *)(out + k + 24),
                            _mm256_add_epi32(cst, _mm256_cvtepu16_epi32(_mm256_extracti128_si256(hi, 1))));
    }
}

/* One column's sum by the portable arithmetic (tails). */
static int32_t aw_column(const rt_tile_args *ta, int k, int height)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i < ta->n; i++)
        sum += (uint32_t)aw_term(ta, ta->v0[i] + (uint32_t)k * ta->dv[i], height);
    return (int32_t)sum;
}

/* The tiles the windows cannot serve (coarse steps: the columns span more
 * profile entries than a window holds), by hardware gathers, eight columns
 * a step: tile_height_ and tile_prof_'s integer arithmetic operation for
 * operation (the compiler's vectorisation of those loops loads the entries
 * one by one).  The last columns by the portable loops. */
/* V of direction i at the eight columns k .. k+7 (modulo 2^32) */
AW_INLINE __m256i aw_v8(const rt_tile_args *ta, uint32_t i, int k)
{
    const uint32_t dv = ta->dv[i];
    return _mm256_add_epi32(_mm256_set1_epi32((int)(ta->v0[i] + (uint32_t)k * dv)),
                            _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                                               _mm256_set1_epi32((int)dv)));
}

static AW_ATTR void aw_height_gather_from(const rt_tile_args *ta, int k0, int32_t *restrict out)
{
    const int32_t *P = ta->profile;
    const int nk = ta->nk, k1 = nk & ~7;
    const __m128i sh = _mm_cvtsi32_si128((int)ta->shift);
    const __m256i mask = _mm256_set1_epi32((int)ta->mask), one = _mm256_set1_epi32(1);
    const __m256i seven = _mm256_set1_epi32(7);
    const __m256i fm = _mm256_set1_epi32((int)((1u << ta->shift) - 1u));
    /* one gather a term where the packed windows are: P[q] and P[q+1] - P[q]
     * packed (rt__tile_windows: row q & mask holds pack(q & mask) in lane
     * q & 7), the same ints, and frac * d one vpmaddwd of frac (below 2^15:
     * s <= 7 + RT_MAX_DYADIC, its high half 0) and the packed entry (d its
     * low half); two gathers otherwise.  (Four vpermd of the rows at the
     * lowest index and three blends, where the eight columns span at most 32
     * entries, took 1.1-1.2x the gather's time.) */
    const int packed = ta->win && ta->shift <= 15;
    for (int k = k0; k < k1; k += 8) {
        __m256i acc = _mm256_setzero_si256();
        for (uint32_t i = 0; i < ta->n; i++) {
            const __m256i v = aw_v8(ta, i, k);
            const __m256i q = _mm256_srl_epi32(v, sh), frac = _mm256_and_si256(v, fm);
            __m256i p0, fd;
            if (packed) {
                const __m256i at = _mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(q, mask), 3),
                                                   _mm256_and_si256(q, seven));
                const __m256i pk = _mm256_i32gather_epi32(ta->win, at, 4);
                p0 = _mm256_srai_epi32(pk, 16);
                fd = _mm256_madd_epi16(frac, pk);
            } else {
                p0 = _mm256_i32gather_epi32(P, _mm256_and_si256(q, mask), 4);
                const __m256i p1 = _mm256_i32gather_epi32(P, _mm256_and_si256(_mm256_add_epi32(q, one), mask), 4);
                fd = _mm256_mullo_epi32(frac, _mm256_sub_epi32(p1, p0));
            }
            acc = _mm256_add_epi32(acc, _mm256_add_epi32(_mm256_sll_epi32(p0, sh), fd));
        }
        _mm256_storeu_si256((__m256i *)(void *)(out + k), acc);
    }
    for (int k = k1; k < nk; k++) out[k] = aw_column(ta, k, 1);
}

static AW_ATTR void aw_prof_gather_from(const rt_tile_args *ta, int k0, int32_t *restrict out)
{
    const int32_t *P = ta->profile;
    const int nk = ta->nk, k1 = nk & ~7;
    const __m128i sh = _mm_cvtsi32_si128((int)ta->shift);
    const __m256i mask = _mm256_set1_epi32((int)ta->mask);
    for (int k = k0; k < k1; k += 8) {
        __m256i acc = _mm256_setzero_si256();
        for (uint32_t i = 0; i < ta->n; i++) {
            const __m256i v = aw_v8(ta, i, k);
            acc = _mm256_add_epi32(acc, _mm256_i32gather_epi32(P, _mm256_and_si256(_mm256_srl_epi32(v, sh), mask), 4));
        }
        _mm256_storeu_si256((__m256i *)(void *)(out + k), acc);
    }
    for (int k = k1; k < nk; k++) out[k] = aw_column(ta, k, 0);
}

/* ------------------------------------------------------------------------ */
/* Coarse steps by strided tables.  Where L * dv is a multiple of 2^s for
 * every moving direction (L in 8, 16, 32, 64: steps of 16 m and more at
 * the classic directions, 8 m where every A is even, ...), the columns
 * L*m + l of one lane l share the fraction frac_l = V_l mod 2^s, and their
 * index advances by the same D = (L*dv >> s) & mask from m to m + 1
 * (V_l + m*L*dv modulo 2^32, shifted right by s, is q_l + m*D modulo
 * 2^(32-s), and mask + 1 divides that).  So lane l reads, m after m, the
 * entries q_l, q_l + D, q_l + 2D, ... (modulo the length): with g the
 * largest power of two dividing D (g = len when D = 0) and T = len / g,
 * those are entries e, e+1, ... of coset r = q_l mod g of the table
 * S_r[e] = pack((r + e*D) & mask), e in [0, T + AW_SX_M) (e taken modulo
 * T), from e = t_l = ((q_l - r) / g) * inv(D / g) modulo T: a run of at
 * most AW_SX_M * L columns reads at most AW_SX_M entries of a lane, so no
 * index wraps.  Eight m of a lane are one plain load
 * instead of a gather; the term of eight columns (P[q] << s)
 * + frac * (P[q+1] - P[q]) is one vpmaddwd of the packed entries (P[q] << 16
 * | P[q+1] - P[q], rt__tile_windows) and (2^s << 16 | frac_l) (s <= 14: both
 * halves below 2^15; |P|, |d| <= 2^15, so the sum of the products is below
 * 2^30, the portable pass's value modulo 2^32); eight lanes' sums are
 * transposed into eight columns each.  The profile sums read P itself.
 * Sums modulo 2^32 in any order: the same bits as tile_height_/tile_prof_. */
#define AW_SX_MAXLEN 256  /* the longest profile the tables take */
#define AW_SX_CAP 8192    /* int32 entries of all the directions' tables */
#define AW_SX_DIRS 8      /* the most directions */
#define AW_SX_M 64        /* the most entries a lane reads in a run */

typedef struct aw_strided {
    int L, na, height;
    uint32_t shift, mask;
    uint32_t dv[AW_SX_DIRS];                  /* the moving directions' */
    int dir[AW_SX_DIRS];                      /* their index in the tile args */
    uint32_t glog[AW_SX_DIRS], inv[AW_SX_DIRS], tm[AW_SX_DIRS];
    uint32_t stride[AW_SX_DIRS];              /* T + AW_SX_M */
    const int32_t *tab[AW_SX_DIRS];           /* coset r at tab + r * stride */
} aw_strided;

/* the packed entry of index e (rt__tile_windows: row e & mask, lane e & 7) */
static inline int32_t aw_pack_at(const rt_tile_args *ta, uint32_t e)
{
    return ta->win[((e & ta->mask) << 3) | (e & 7u)];
}

/* The tables of a tile's directions into buf (AW_SX_CAP entries); they
 * depend on the profile, s and the dv only, not on v0 nor on the columns.
 * 0 when the tile is not theirs: a long profile, s too large, more than
 * AW_SX_DIRS directions, no packed entries (heights), no L, or tables
 * beyond the cap. */
static int aw_strided_make(const rt_tile_args *ta, int height, aw_strided *sx, int32_t *buf)
{
    const uint32_t len = ta->mask + 1u, s = ta->shift;
    if (len > AW_SX_MAXLEN || s > 14 || ta->n > AW_SX_DIRS || (height && !ta->win)) return 0;
    const uint32_t fm = (1u << s) - 1u;
    sx->height = height;
    sx->shift = s;
    sx->mask = ta->mask;
    sx->na = 0;
    for (uint32_t i = 0; i < ta->n; i++) {
        if (ta->dv[i] == 0) continue; /* constant: aw_strided_cst */
        sx->dir[sx->na] = (int)i;
        sx->dv[sx->na++] = ta->dv[i];
    }
    int L = 8;
    for (; L <= 64; L *= 2) {
        int ok = 1;
        for (int a = 0; a < sx->na; a++) ok &= ((uint32_t)L * sx->dv[a] & fm) == 0;
        if (ok) break;
    }
    if (L > 64) return 0;
    sx->L = L;
    size_t used = 0;
    for (int a = 0; a < sx->na; a++) {
        const uint32_t D = ((uint32_t)L * sx->dv[a] >> s) & ta->mask;
        const uint32_t g = D ? D & (0u - D) : len, T = len / g;
        uint32_t glog = 0;
        while ((1u << glog) < g) glog++;
        const uint32_t st = T + AW_SX_M;
        if (used + (size_t)g * st > AW_SX_CAP) return 0;
        /* the inverse of the odd D / g modulo 2^32 (Newton), hence modulo T */
        const uint32_t d1 = D >> glog;
        uint32_t inv = d1;
        for (int it = 0; it < 5; it++) inv *= 2u - d1 * inv;
        int32_t *tab = buf + used;
        for (uint32_t r = 0; r < g; r++) {
            int32_t *t = tab + r * st;
            uint32_t q = r;
            for (uint32_t e = 0; e < T; e++, q = (q + D) & ta->mask)
                t[e] = height ? aw_pack_at(ta, q) : ta->profile[q];
            for (uint32_t e = T; e < st; e++) t[e] = t[e & (T - 1u)];
        }
        sx->tab[a] = tab;
        sx->stride[a] = st;
        sx->glog[a] = glog;
        sx->inv[a] = T > 1 ? inv & (T - 1u) : 0;
        sx->tm[a] = T - 1u;
        used += (size_t)g * st;
    }
    return 1;
}

/* The sum of the constant directions' terms (dv = 0), modulo 2^32. */
static int32_t aw_strided_cst(const rt_tile_args *ta, int height)
{
    uint32_t c = 0;
    for (uint32_t i = 0; i < ta->n; i++)
        if (ta->dv[i] == 0) c += (uint32_t)aw_term(ta, ta->v0[i], height);
    return (int32_t)c;
}

/* rt_tile_args.cache as these kernels keep it: slots of tables, each with
 * what they were made from (the profile, its windows, s, the mask and the
 * dv: the same for every tile of a block's pair of vectors), filled in
 * turn; a block's tiles take turns through at most five pairs (heights,
 * the three profile sums, the features) */
typedef struct aw_sx_slot {
    int ok, height;
    uint32_t shift, mask, n;
    uint32_t dv[AW_SX_DIRS];
    const int32_t *profile, *win;
    aw_strided sx;
    int32_t buf[AW_SX_CAP];
} aw_sx_slot;

#define AW_SX_SLOTS 6

typedef struct aw_sx_cache {
    int used, next;
    aw_sx_slot slot[AW_SX_SLOTS];
} aw_sx_cache;

_Static_assert(sizeof(aw_sx_cache) <= RT_TILE_CACHE_BYTES, "RT_TILE_CACHE_BYTES holds the slots");

/* The tables of the tile: ta->cache's where it has them, else made there;
 * NULL where they do not serve it, or without a cache (made for one tile
 * only, they would cost more than they save: the buildings' lattice of 17
 * columns at 16 m is such a grid). */
static const aw_strided *aw_strided_get(const rt_tile_args *ta, int height)
{
    aw_sx_cache *c = ta->cache;
    if (!c || ta->n > AW_SX_DIRS || ta->nk < 64) return NULL;
    if (c->used == 0) c->next = 0; /* a new cache: only `used` was set */
    for (int k = 0; k < c->used; k++) {
        aw_sx_slot *t = &c->slot[k];
        if (t->height != height || t->shift != ta->shift || t->mask != ta->mask ||
            t->n != ta->n || t->profile != ta->profile || t->win != ta->win ||
            memcmp(t->dv, ta->dv, ta->n * sizeof *ta->dv) != 0)
            continue;
        return t->ok ? &t->sx : NULL;
    }
    aw_sx_slot *sl = &c->slot[c->next];
    c->next = (c->next + 1) % AW_SX_SLOTS;
    if (c->used < AW_SX_SLOTS) c->used++;
    sl->height = height;
    sl->shift = ta->shift;
    sl->mask = ta->mask;
    sl->n = ta->n;
    memcpy(sl->dv, ta->dv, ta->n * sizeof *ta->dv);
    sl->profile = ta->profile;
    sl->win = ta->win;
    sl->ok = aw_strided_make(ta, height, &sl->sx, sl->buf);
    return sl->ok ? &sl->sx : NULL;
}

/* Whether the strided tables serve a whole block of the tile (a cache to
 * keep them in, 8 * L columns at least). */
static int aw_strided_serves(const rt_tile_args *ta, int height)
{
    const aw_strided *sx = aw_strided_get(ta, height);
    return sx && ta->nk >= 8 * sx->L;
}

/* the 8 x 8 transpose of int32 rows: r[l] lane j to r[j] lane l */
AW_INLINE void aw_transpose8(__m256i r[8])
{
    __m256i t[8], u[8];
    for (int a = 0; a < 8; a += 2) {
        t[a] = _mm256_unpacklo_epi32(r[a], r[a + 1]);
        t[a + 1] = _mm256_unpackhi_epi32(r[a], r[a + 1]);
    }
    for (int a = 0; a < 8; a += 4) {
        u[a] = _mm256_unpacklo_epi64(t[a], t[a + 2]);
        u[a + 1] = _mm256_unpackhi_epi64(t[a], t[a + 2]);
        u[a + 2] = _mm256_unpacklo_epi64(t[a + 1], t[a + 3]);
        u[a + 3] = _mm256_unpackhi_epi64(t[a + 1], t[a + 3]);
    }
    for (int a = 0; a < 4; a++) {
        r[a] = _mm256_permute2x128_si256(u[a], u[a + 4], 0x20);
        r[a + 4] = _mm256_permute2x128_si256(u[a], u[a + 4], 0x31);
    }
}

/* Columns [0, nkb) of a run (nkb a multiple of 8 * L, at most AW_SX_M * L)
 * whose V at column 0 are v0 (the tile args' order): the numerators
 * (height) or the profile sums into out, or with st >= 0 the numerators
 * times scale into dout as doubles (aw_store_pd's mode st), eight columns
 * as soon as they are summed; na the moving directions. */
AW_INLINE void aw_strided_run_(const aw_strided *sx, const uint32_t *v0, int32_t cs, int nkb,
                               int32_t *restrict out, double *restrict dout, double scale,
                               const int st, const int na, const int height)
{
    const __m256d vs = _mm256_set1_pd(scale);
    const int L = sx->L, M = nkb / L;
    const uint32_t s = sx->shift, fm = (1u << s) - 1u;
    const __m256i cst = _mm256_set1_epi32(cs);
    /* two groups of eight columns (G0, G0 + 8) in turn within each eight
     * m: with L = 16 (step 8 at the classic directions) the sixteen
     * columns L*m .. L*m + 15 are then written together, whole lines, where
     * one group after the other wrote each line in two halves far apart in
     * time (2048^2 at step 8: 0.72-0.79 ns a point against 0.54-0.57 with
     * the output in the cache, plain stores) */
    for (int G0 = 0; G0 < L; G0 += 16) {
        const int ng = L - G0 >= 16 ? 2 : 1;
        /* each lane's first entry and coefficient, per group */
        const int32_t *at[2][AW_SX_DIRS][8];
        int32_t coef[2][AW_SX_DIRS][8];
        for (int g = 0; g < ng; g++)
            for (int a = 0; a < na; a++)
                for (int l = 0; l < 8; l++) {
                    const uint32_t V = v0[sx->dir[a]] + (uint32_t)(G0 + 8 * g + l) * sx->dv[a];
                    const uint32_t q = (V >> s) & sx->mask, glog = sx->glog[a];
                    const uint32_t r = q & ((1u << glog) - 1u);
                    at[g][a][l] = sx->tab[a] + (size_t)r * sx->stride[a] + (((q >> glog) * sx->inv[a]) & sx->tm[a]);
                    coef[g][a][l] = (int32_t)((1u << s) << 16 | (V & fm));
                }
        for (int m0 = 0; m0 < M; m0 += 8)
            for (int g = 0; g < ng; g++) {
                const int G = G0 + 8 * g;
                __m256i acc[8];
                for (int l = 0; l < 8; l++) {
                    __m256i c = cst;
                    for (int a = 0; a < na; a++) {
                        const __m256i e = _mm256_loadu_si256((const __m256i *)(const void *)(at[g][a][l] + m0));
                        c = _mm256_add_epi32(c, height ? _mm256_madd_epi16(e, _mm256_set1_epi32(coef[g][a][l])) : e);
                    }
                    acc[l] = c;
                }
                aw_transpose8(acc);
                for (int j = 0; j < 8; j++) {
                    const size_t k = (size_t)L * (m0 + j) + G;
                    if (st < 0) {
                        _mm256_storeu_si256((__m256i *)(void *)(out + k), acc[j]);
                    } else {
                        aw_store_pd(dout + k, _mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_castsi256_si128(acc[j])), vs), st);
                        aw_store_pd(dout + k + 4,
                                    _mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_extracti128_si256(acc[j], 1)), vs), st);
                    }
                }
            }
    }
}

/* Columns [0, nkb) of a tile (nkb a multiple of 8 * L) in runs of at most
 * AW_SX_M * L columns; v0 as aw_strided_run_, of column 0; cs the constant
 * directions' sum; into out (dout NULL) or as doubles into dout (st as
 * aw_strided_run_). */
static AW_ATTR void aw_strided_run(const aw_strided *sx, const uint32_t *v0, int32_t cs, int nkb,
                                   int32_t *restrict out, double *restrict dout, double scale, int st)
{
    uint32_t vr[AW_SX_DIRS];
    const int run = AW_SX_M * sx->L; /* AW_SX_M entries a lane */
    for (int k0 = 0; k0 < nkb; k0 += run) {
        const int nr = nkb - k0 < run ? nkb - k0 : run;
        for (int a = 0; a < sx->na; a++) {
            const int d = sx->dir[a];
            vr[d] = v0[d] + (uint32_t)k0 * sx->dv[a];
        }
        int32_t *o = out ? out + k0 : NULL;
        double *d = dout ? dout + k0 : NULL;
#define AW_SX_RUN(ST, H)                                                                 \
    do {                                                                                 \
        if (sx->na == 4) aw_strided_run_(sx, vr, cs, nr, o, d, scale, ST, 4, H);         \
        else if (sx->na == 5) aw_strided_run_(sx, vr, cs, nr, o, d, scale, ST, 5, H);    \
        else aw_strided_run_(sx, vr, cs, nr, o, d, scale, ST, sx->na, H);                \
    } while (0)
        if (!sx->height) AW_SX_RUN(-1, 0);
        else if (!dout) AW_SX_RUN(-1, 1);
        else if (st == AW_ST_NT32) AW_SX_RUN(AW_ST_NT32, 1);
        else if (st == AW_ST_NT16) AW_SX_RUN(AW_ST_NT16, 1);
        else AW_SX_RUN(AW_ST_PLAIN, 1);
#undef AW_SX_RUN
    }
}

/* heights straight into the output by a numerator pass `num_fn` in pieces
 * (a small stack array) and the table's `store` (out[k] = num[k] * scale) */
static void aw_height_store_pieces(const rt_tile_args *ta, double scale, double *restrict out,
                                   void (*num_fn)(const rt_tile_args *, int32_t *restrict),
                                   void (*store)(const int32_t *restrict, int, double, double *restrict))
{
    const int nk = ta->nk;
    int32_t num[RT_HS_TILE];
    rt_tile_args part = *ta;
    for (int k0 = 0; k0 < nk; k0 += RT_HS_TILE) {
        part.nk = nk - k0 < RT_HS_TILE ? nk - k0 : RT_HS_TILE;
        for (uint32_t i = 0; i < ta->n; i++) part.v0[i] = ta->v0[i] + (uint32_t)k0 * ta->dv[i];
        num_fn(&part, num);
        store(num, part.nk, scale, out + k0);
    }
}

/* The numerators (height) or profile sums of a tile the windows cannot
 * serve: by the strided tables where they serve (a cache, 8 * L columns),
 * the columns past their last block of 8 * L (and every column where they
 * do not) by gathers. */
static AW_ATTR void aw_coarse(const rt_tile_args *ta, int height, int32_t *restrict out)
{
    const aw_strided *sx = aw_strided_get(ta, height);
    int k0 = 0;
    if (sx && ta->nk >= 8 * sx->L) {
        k0 = ta->nk - ta->nk % (8 * sx->L);
        aw_strided_run(sx, ta->v0, aw_strided_cst(ta, height), k0, out, NULL, 0.0, -1);
    }
    if (height)
        aw_height_gather_from(ta, k0, out);
    else
        aw_prof_gather_from(ta, k0, out);
}

static AW_ATTR void aw_height_gather(const rt_tile_args *ta, int32_t *restrict out)
{
    aw_coarse(ta, 1, out);
}

static AW_ATTR void aw_height_gather_plain(const rt_tile_args *ta, int32_t *restrict out)
{
    aw_height_gather_from(ta, 0, out);
}

static AW_ATTR void aw_prof_gather(const rt_tile_args *ta, int32_t *restrict out)
{
    aw_coarse(ta, 0, out);
}

/* The heights of such a tile straight into the output (streaming stores
 * where ta->stream asks and they write whole lines): the strided tables'
 * columns from registers, the rest in pieces by gathers and `store`
 * (out[k] = num[k] * scale).  The tables write eight columns at a time,
 * in L / 8 interleaved passes: with L = 8 the pieces follow one another
 * and fill every line; with L >= 16 they are L columns apart, and fill
 * whole lines only where the output starts on one.  Elsewhere (NumPy's
 * large arrays start 16 bytes past a line) each piece would leave two lines
 * part-written in the write-combining buffers, which then go to memory a
 * part at a time: height_grid 4096^2 at step 8 (L = 16) into such an out=
 * took 49.5 ms by 16-byte streaming stores, 5.4x its time at step 1,
 * against 13.8 ms by plain ones (AMD EPYC, Zen 4). */
static AW_ATTR void aw_coarse_store(const rt_tile_args *ta, double scale, double *restrict out,
                                    void (*store)(const int32_t *restrict, int, double, double *restrict))
{
    const aw_strided *sx = aw_strided_get(ta, 1);
    const int nk = ta->nk;
    int kb = 0;
    if (sx && nk >= 8 * sx->L) {
        kb = nk - nk % (8 * sx->L);
        /* L = 8: the pieces follow one another, and the lines fill */
        const uintptr_t a = (uintptr_t)out;
        const int st = !ta->stream ? AW_ST_PLAIN
                       : a % 64 == 0 || (sx->L == 8 && a % 32 == 0) ? AW_ST_NT32
                       : sx->L == 8 && a % 16 == 0 ? AW_ST_NT16 : AW_ST_PLAIN;
        aw_strided_run(sx, ta->v0, aw_strided_cst(ta, 1), kb, NULL, out, scale, st);
    }
    if (kb == nk) return;
    rt_tile_args rest = *ta;
    rest.nk = nk - kb;
    for (uint32_t i = 0; i < ta->n; i++) rest.v0[i] = ta->v0[i] + (uint32_t)kb * ta->dv[i];
    rest.cache = NULL; /* fewer than 8 * L columns: the gathers */
    aw_height_store_pieces(&rest, scale, out + kb, aw_height_gather_plain, store);
}

/* height numerators, as tile_height_ */
static AW_ATTR void tile_height_avx2w(const rt_tile_args *ta, int32_t *restrict out)
{
    aw_plan pl;
    if (!aw_plan_make(ta, 1, &pl)) {
        aw_height_gather(ta, out);
        return;
    }
    const int k1 = ta->nk & ~7;
    aw_dispatch(&pl, AW_INT, ta, 0, k1, out, NULL, 0.0);
    for (int k = k1; k < ta->nk; k++) out[k] = aw_column(ta, k, 1);
}

/* profile sums, as tile_prof_, for a plan pl of ta (aw_plan_make: every
 * moving |dv| <= 2^s); columns [0, k64) by sums64 where given */
static AW_ATTR void aw_prof_from(const aw_plan *pl, const rt_tile_args *ta, int32_t *restrict out,
                                 int k64, aw_sums64 sums64)
{
    const int k32 = ta->win8 && ta->shift <= 12 ? ta->nk & ~31 : 0;
    if (k32) aw_prof8_run(pl, ta, k32, out, k64 <= k32 ? k64 : 0, sums64);
    const int k1 = ta->nk & ~7;
    aw_dispatch(pl, AW_PROF, ta, k32, k1, out, NULL, 0.0);
    for (int k = k1; k < ta->nk; k++) out[k] = aw_column(ta, k, 0);
}

static AW_ATTR void tile_prof_avx2w(const rt_tile_args *ta, int32_t *restrict out)
{
    aw_plan pl;
    if (!aw_plan_make(ta, 0, &pl)) {
        aw_prof_gather(ta, out);
        return;
    }
    aw_prof_from(&pl, ta, out, 0, NULL);
}

/* profile sums for classify_bytes in 16-bit form: columns [0, k32), k32 =
 * nk & ~31, as the byte-window sums of aw_prof8_dir (per 32 columns two
 * vectors: the 16-bit sums of the words p, and of the odd columns' bytes;
 * the even columns' sums are the first less the second << 8), in the first
 * 4 * k32 / 2 bytes of out; the sum of a column is *off + its 16-bit sum
 * (at most 64 * 255), exactly.  Columns [k32, nk) as int32 at out + k32.
 * Returns k32, or 0 when the windows cannot serve the tile (all of out as
 * int32 then, as tile_prof_avx2w). */
static AW_ATTR int tile_prof16_avx2w(const rt_tile_args *ta, int32_t *restrict out, int32_t *off)
{
    aw_plan pl;
    const int k32 = ta->nk & ~31;
    const int ok = aw_win8_serves(ta, &pl) && pl.na > 0;
    const int64_t o = ok ? (int64_t)pl.cst + (int64_t)pl.na * ta->win8_base : 0;
    if (!ok || o < INT32_MIN || o > INT32_MAX - 65536) {
        tile_prof_avx2w(ta, out);
        return 0;
    }
    aw_prof8_sums(&pl, ta, 0, k32, (__m256i *)(void *)out);
    *off = (int32_t)o;
    const int k1 = ta->nk & ~7;
    aw_dispatch(&pl, AW_PROF, ta, k32, k1, out, NULL, 0.0);
    for (int k = k1; k < ta->nk; k++) out[k] = aw_column(ta, k, 0);
    return k32;
}

/* heights straight into the output: out[k] = num[k] * scale */
static AW_ATTR void tile_height_store_avx2w(const rt_tile_args *ta, double scale,
                                            double *restrict out)
{
    aw_plan pl;
    const int nk = ta->nk;
    if (!aw_plan_make(ta, 1, &pl)) { /* strided tables or gathers */
        aw_coarse_store(ta, scale, out, tile_store_heights_avx2);
        return;
    }
    const int k1 = nk & ~7;
    /* streaming stores: 32-byte ones where the output is on 32 bytes, and
     * where it is 16 bytes past (NumPy's large arrays) the shifted 32-byte
     * ones of the classify pass (AW_ST_NTS: each store the upper half of
     * one vector and the lower of the next).  That replaced 16-byte
     * streaming stores, which on a Xeon took 0.94-0.98x the shifted ones'
     * time at 4096^2, and on an AMD EPYC (Zen 4) 1.09-1.13x (height_grid
     * 2900^2 and 4096^2 at step 1, 2026-11-28). */
    const int mode = !ta->stream ? AW_DOUBLE
                     : (uintptr_t)out % 32 == 0 ? AW_DOUBLE_NT32
                     : (uintptr_t)out % 32 == 16 ? AW_DOUBLE_NTS : AW_DOUBLE;
    aw_dispatch(&pl, mode, ta, 0, k1, NULL, out, scale);
    for (int k = k1; k < nk; k++) out[k] = (double)aw_column(ta, k, 1) * scale;
}

/* The profile sums of tile_prof_at_avx2w's fast path at columns [0, k1)
 * (k1 a multiple of 8) of xr, where eight columns' xr span at most
 * 7 * 2^s / |A| (its caller's check) */
typedef struct aw_at {
    __m256i A[8], BY[8];
    int off[8];
    const int32_t *win;
    int plain;
} aw_at;

AW_INLINE void aw_prof_at_cols(const rt_tile_args *ta, const aw_at *at, const uint32_t *xr,
                               int32_t *out, int k1)
{
    const uint32_t n = ta->n, s = ta->shift, wm = ta->win_mask;
    const __m256i sh = _mm256_set1_epi32((int)s);
    for (int k = 0; k < k1; k += 8) {
        const __m256i x = _mm256_loadu_si256((const __m256i *)(xr + k));
        __m256i acc = _mm256_setzero_si256();
        for (uint32_t i = 0; i < n; i++) {
            const __m256i q = _mm256_srlv_epi32(_mm256_add_epi32(_mm256_mullo_epi32(x, at->A[i]), at->BY[i]), sh);
            const uint32_t b = ta->dv[i] * xr[k + at->off[i]] + ta->v0[i];
            const __m256i w = _mm256_load_si256((const __m256i *)(at->win + (((b >> s) & wm) << 3)));
            const __m256i e = _mm256_permutevar8x32_epi32(w, q);
            acc = _mm256_add_epi32(acc, at->plain ? e : _mm256_srai_epi32(e, 16));
        }
        _mm256_storeu_si256((__m256i *)(out + k), acc);
    }
}

/* Columns [0, k1) where steps below 1 repeat each rounded x over columns in
 * a row (xr nondecreasing, eight columns spanning at most 7): the sums
 * depend on xr alone, so those of each distinct value are made once, over
 * consecutive integers, and spread by one permute a group of eight; in
 * chunks of AW_AT_CHUNK columns (the buffers on the stack) */
#define AW_AT_CHUNK 256
AW_INLINE void aw_prof_at_spread(const rt_tile_args *ta, const aw_at *at, const uint32_t *xr,
                                 int32_t *out, int k1)
{
    uint32_t xu[AW_AT_CHUNK + 8];
    int32_t su[AW_AT_CHUNK + 16];
    const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), eight = _mm256_set1_epi32(8);
    for (int c = 0; c < k1; c += AW_AT_CHUNK) {
        const int cn = k1 - c < AW_AT_CHUNK ? k1 - c : AW_AT_CHUNK;
        const uint32_t lo = xr[c], m = xr[c + cn - 1] - lo + 1;
        if (m > (uint32_t)cn) { /* not for the buffers (uniform steps below 1 never) */
            aw_prof_at_cols(ta, at, xr + c, out + c, cn);
            continue;
        }
        const int m8 = (int)((m + 7) & ~7u);
        __m256i v = _mm256_add_epi32(_mm256_set1_epi32((int)lo), iota);
        for (int q = 0; q < m8; q += 8) {
            _mm256_storeu_si256((__m256i *)(void *)(xu + q), v);
            v = _mm256_add_epi32(v, eight);
        }
        aw_prof_at_cols(ta, at, xu, su, m8);
        _mm256_storeu_si256((__m256i *)(void *)(su + m8), _mm256_setzero_si256()); /* read, unused */
        for (int k = c; k < c + cn; k += 8) {
            const __m256i x = _mm256_loadu_si256((const __m256i *)(xr + k));
            const __m256i idx = _mm256_sub_epi32(x, _mm256_set1_epi32((int)xr[k]));
            const __m256i w = _mm256_loadu_si256((const __m256i *)(const void *)(su + (xr[k] - lo)));
            _mm256_storeu_si256((__m256i *)(out + k), _mm256_permutevar8x32_epi32(w, idx));
        }
    }
}

/* profile sums at the rounded points, as tile_prof_at_; xr is nondecreasing */
static AW_ATTR void tile_prof_at_avx2w(const rt_tile_args *ta, const uint32_t *restrict xr,
                                       int32_t *restrict out)
{
    const int nk = ta->nk, k1 = nk & ~7;
    const uint32_t s = ta->shift;
    int ok = ta->win != NULL && ta->n <= 8;
    uint32_t span = 0; /* the widest xr[k+7] - xr[k] of a group */
    int64_t amax = 0;
    for (int k = 0; ok && k < k1; k += 8)
        if (xr[k + 7] - xr[k] > span) span = xr[k + 7] - xr[k];
    for (uint32_t i = 0; ok && i < ta->n; i++) {
        int64_t a = (int32_t)ta->dv[i];
        if (a < 0) a = -a;
        if (a > amax) amax = a;
        if (a * (int64_t)span > 7 * ((int64_t)1 << s)) ok = 0;
    }
    if (!ok) {
        tile_prof_at_avx2(ta, xr, out);
        return;
    }
    const uint32_t n = ta->n;
    aw_at at;
    for (uint32_t i = 0; i < n; i++) {
        at.A[i] = _mm256_set1_epi32((int)ta->dv[i]);
        at.BY[i] = _mm256_set1_epi32((int)ta->v0[i]);
        at.off[i] = (int32_t)ta->dv[i] < 0 ? 7 : 0;
    }
    /* the plain windows where there are (the point tiles): the same
     * entries, without the packed ones' shift */
    at.plain = ta->winp != NULL && ta->winp_mask == ta->win_mask;
    at.win = at.plain ? ta->winp : ta->win;
    /* repeated columns (at most half as many distinct values; consecutive
     * integers, eight spanning 7, within the windows' rule) */
    if (k1 >= 64 && span <= 7 && amax <= ((int64_t)1 << s) && /* |A| * 7 <= 7 * 2^s */
        (uint64_t)(xr[k1 - 1] - xr[0]) + 1 <= (uint64_t)k1 / 2)
        aw_prof_at_spread(ta, &at, xr, out, k1);
    else
        aw_prof_at_cols(ta, &at, xr, out, k1);
    for (int k = k1; k < nk; k++) {
        uint32_t sum = 0;
        for (uint32_t i = 0; i < n; i++)
            sum += (uint32_t)ta->profile[((ta->dv[i] * xr[k] + ta->v0[i]) >> s) & ta->mask];
        out[k] = (int32_t)sum;
    }
}

/* T - off clamped to [0, 2^15 - 1]: for u in [0, 2^15), off + u < T exactly
 * when u < aw_th16(T, off) */
static inline short aw_th16(int32_t T, int32_t off)
{
    const int64_t d = (int64_t)T - off;
    return (short)(d < 0 ? 0 : d > 32767 ? 32767 : d);
}

/* 32 bytes of a byte output: plain, or streaming by the pointer's alignment
 * (bmode AW_B_NT: every byte output 8-byte aligned at least) */
enum { AW_B_PLAIN = 0, AW_B_NT = 1 };
AW_INLINE void aw_store_32bytes(uint8_t *p, __m256i v, int bmode)
{
    if (bmode == AW_B_PLAIN) {
        _mm256_storeu_si256((__m256i *)(void *)p, v);
    } else if ((uintptr_t)p % 32 == 0) {
        _mm256_stream_si256((__m256i *)(void *)p, v);
    } else if ((uintptr_t)p % 16 == 0) {
        _mm_stream_si128((__m128i *)(void *)p, _mm256_castsi256_si128(v));
        _mm_stream_si128((__m128i *)(void *)(p + 16), _mm256_extracti128_si256(v, 1));
    } else {
        const __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
        _mm_stream_si64((long long *)(void *)p, _mm_cvtsi128_si64(lo));
        _mm_stream_si64((long long *)(void *)(p + 8), _mm_extract_epi64(lo, 1));
        _mm_stream_si64((long long *)(void *)(p + 16), _mm_cvtsi128_si64(hi));
        _mm_stream_si64((long long *)(void *)(p + 24), _mm_extract_epi64(hi, 1));
    }
}

/* aw_store_32bytes in a run at first, first + 32, ... in that order: where
 * p is 16 bytes past a 32-byte boundary, the shifted streaming stores of
 * aw_store_pd_c (the bits moved as they are); aw_store_32bytes_end stores
 * the last half */
AW_INLINE void aw_store_32bytes_c(uint8_t *p, __m256i v, int bmode, __m256d *carry,
                                  const uint8_t *first)
{
    if (bmode == AW_B_NT && (uintptr_t)p % 32 == 16)
        aw_store_pd_c((double *)(void *)p, _mm256_castsi256_pd(v), AW_ST_NTS, carry,
                      (const double *)(const void *)first);
    else
        aw_store_32bytes(p, v, bmode);
}

/* the end of a run of aw_store_32bytes_c whose last store was at end - 32 */
AW_INLINE void aw_store_32bytes_end(uint8_t *end, __m256d carry, int bmode)
{
    if (bmode == AW_B_NT && (uintptr_t)end % 32 == 16)
        aw_store_pd_end((double *)(void *)end, carry, AW_ST_NTS);
}

/* The columns k .. k+31 whose int32 value (H0 .. H3, 8 columns each) is
 * below lt, as a byte mask in column order: the packs interleave the
 * 128-bit lanes, and vpermd by (0, 4, 1, 5, 2, 6, 3, 7) puts the 4-byte
 * groups back. */
AW_INLINE __m256i aw_below_bytes(__m256i lt, __m256i H0, __m256i H1, __m256i H2, __m256i H3)
{
    return _mm256_permutevar8x32_epi32(
        _mm256_packs_epi16(_mm256_packs_epi32(_mm256_cmpgt_epi32(lt, H0), _mm256_cmpgt_epi32(lt, H1)),
                           _mm256_packs_epi32(_mm256_cmpgt_epi32(lt, H2), _mm256_cmpgt_epi32(lt, H3))),
        _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

/* One column of classify_bytes (tails): the same decisions as the vector loop. */
static int aw_classify_one(const rt_classify_args *ca, int k, uint32_t yr)
{
    const int32_t h = ca->hnum[k];
    const int lake = h < ca->lake_lt, mud = h < ca->mud_lt, town = ca->a1[k] < ca->town_lt;
    const double hd = (double)h * ca->scale;
    ca->height[k] = lake ? ca->lake_height : hd;
    ca->depth[k] = lake ? ca->lake_height - hd : 0.0;
    int ter = ca->a2[k] < ca->grass_lt ? (ca->a3[k] < ca->open_lt ? RT_GRASS : RT_MOOR)
                                       : (ca->a3[k] < ca->thicket_lt ? RT_THICKET : RT_WOOD);
    ter = town ? RT_TOWN : ter;
    ter = mud ? RT_MUD : ter;
    ter = lake ? RT_LAKE : ter;
    const uint32_t xy = ca->xr ? (uint32_t)ca->xr[k] * yr : ca->xy0 + (uint32_t)k * ca->dxy;
    const uint32_t N = (uint32_t)ca->fa[k] * xy;
    const int32_t f = (int32_t)(((N + 64u) >> 7) & ca->fmask);
    const int cand = (f == ca->fp_i || f == ca->fx_i || f == ca->fc_i) && !(lake | mud | town);
    ca->terrain[k] = (uint8_t)ter;
    ca->feature[k] = cand ? 0xff : RT_NONE;
    return cand;
}

/* classify straight into the outputs, integer feature values:
 * round_js(fa*xr*yr / 128) = (N + 64) >> 7 for the exact integer N = fa*xr*yr,
 * and only its low bits (mod 2^32) reach the mask. */
AW_INLINE int aw_classify_bytes(const rt_classify_args *ca, const int mode, const int lin)
{
    _Static_assert(RT_LAKE == 0, "the 16-bit classify clears lake columns' codes");
    const int bmode = mode == AW_ST_PLAIN ? AW_B_PLAIN : AW_B_NT;
    const int nk = ca->nk, k1 = nk & ~7;
    const uint32_t yr = (uint32_t)(int32_t)(int64_t)ca->yr;
    const __m256i vyr = _mm256_set1_epi32((int)yr);
    const __m256i lake_lt = _mm256_set1_epi32(ca->lake_lt), mud_lt = _mm256_set1_epi32(ca->mud_lt);
    const __m256i town_lt = _mm256_set1_epi32(ca->town_lt), grass_lt = _mm256_set1_epi32(ca->grass_lt);
    const __m256i open_lt = _mm256_set1_epi32(ca->open_lt);
    const __m256i thicket_lt = _mm256_set1_epi32(ca->thicket_lt);
    const __m256i c64 = _mm256_set1_epi32(64), fmask = _mm256_set1_epi32((int)ca->fmask);
    const __m256i fp = _mm256_set1_epi32(ca->fp_i), fx = _mm256_set1_epi32(ca->fx_i);
    const __m256i fc = _mm256_set1_epi32(ca->fc_i), candbyte = _mm256_set1_epi32(0xff00);
    /* per 128-bit half: the low bytes of the 4 dwords, then their second bytes */
    const __m256i pick = _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, -1, -1, -1, -1, -1, -1, -1, -1,
                                          0, 4, 8, 12, 1, 5, 9, 13, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m256d lh = _mm256_set1_pd(ca->lake_height), vs = _mm256_set1_pd(ca->scale);
    /* local copies: the byte stores could alias *ca, which would make the
     * compiler reload these every step */
    double *const height = ca->height, *const depth = ca->depth;
    uint8_t *const terrain = ca->terrain, *const feature = ca->feature, *const cmask = ca->cmask;
    const int32_t *const hnum = ca->hnum, *const ia1 = ca->a1, *const ia2 = ca->a2;
    const int32_t *const ia3 = ca->a3, *const ifa = ca->fa, *const ixr = ca->xr;
    /* lin: xr * yr along the tile, 8 columns a step */
    __m256i vxy = _mm256_add_epi32(_mm256_set1_epi32((int)ca->xy0),
                                   _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                                                      _mm256_set1_epi32((int)ca->dxy)));
    const __m256i dxy8 = _mm256_set1_epi32((int)(8u * ca->dxy));
    int any = 0;
    __m256d ch = _mm256_setzero_pd(), cd = ch; /* the carries of AW_ST_NTS */
    const int k16 = ca->k16;
    if (k16 > 0) {
        /* columns [0, k16): a1, a2, a3 as 16-bit sums (tile_prof16_avx2w),
         * 32 columns a step, even and odd columns apart in 16-bit lanes:
         * a < T exactly when the 16-bit sum u = a - off is below T - off,
         * clamped to [0, 2^15) as u is in [0, 2^15) */
        const __m256i t1 = _mm256_set1_epi16(aw_th16(ca->town_lt, ca->off1));
        const __m256i g2 = _mm256_set1_epi16(aw_th16(ca->grass_lt, ca->off2));
        const __m256i o3 = _mm256_set1_epi16(aw_th16(ca->open_lt, ca->off3));
        const __m256i h3 = _mm256_set1_epi16(aw_th16(ca->thicket_lt, ca->off3));
        const __m256i w_grass = _mm256_set1_epi16(RT_GRASS), w_moor = _mm256_set1_epi16(RT_MOOR);
        const __m256i w_wood = _mm256_set1_epi16(RT_WOOD), w_thicket = _mm256_set1_epi16(RT_THICKET);
        const __m256i w_town = _mm256_set1_epi16(RT_TOWN), b_mud = _mm256_set1_epi8(RT_MUD);
        const __m256i oddb = _mm256_set1_epi16((short)0xff00);
        const __m256i bsel = _mm256_set1_epi64x((long long)0x8040201008040201ull);
        const __m256i bidx = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                              2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
        const __m256i none = _mm256_set1_epi8(RT_NONE);
        __m256d ct = _mm256_setzero_pd(), cf = ct; /* aw_store_32bytes_c's carries */
        const __m256i *s1 = (const __m256i *)(const void *)ia1;
        const __m256i *s2 = (const __m256i *)(const void *)ia2;
        const __m256i *s3 = (const __m256i *)(const void *)ia3;
        for (int k = 0; k < k16; k += 32, s1 += 2, s2 += 2, s3 += 2) {
            const __m256i o1 = _mm256_loadu_si256(s1 + 1), o2 = _mm256_loadu_si256(s2 + 1);
            const __m256i o3v = _mm256_loadu_si256(s3 + 1);
            const __m256i e1 = _mm256_sub_epi16(_mm256_loadu_si256(s1), _mm256_slli_epi16(o1, 8));
            const __m256i e2 = _mm256_sub_epi16(_mm256_loadu_si256(s2), _mm256_slli_epi16(o2, 8));
            const __m256i e3 = _mm256_sub_epi16(_mm256_loadu_si256(s3), _mm256_slli_epi16(o3v, 8));
            /* the vegetation and town codes, even columns then odd ones */
            const __m256i town_e = _mm256_cmpgt_epi16(t1, e1), town_o = _mm256_cmpgt_epi16(t1, o1);
            __m256i te = _mm256_blendv_epi8(
                _mm256_blendv_epi8(w_wood, w_thicket, _mm256_cmpgt_epi16(h3, e3)),
                _mm256_blendv_epi8(w_moor, w_grass, _mm256_cmpgt_epi16(o3, e3)),
                _mm256_cmpgt_epi16(g2, e2));
            __m256i to = _mm256_blendv_epi8(
                _mm256_blendv_epi8(w_wood, w_thicket, _mm256_cmpgt_epi16(h3, o3v)),
                _mm256_blendv_epi8(w_moor, w_grass, _mm256_cmpgt_epi16(o3, o3v)),
                _mm256_cmpgt_epi16(g2, o2));
            te = _mm256_blendv_epi8(te, w_town, town_e);
            to = _mm256_blendv_epi8(to, w_town, town_o);
            /* bytes in column order: even columns low, odd ones high */
            __m256i ter = _mm256_or_si256(te, _mm256_slli_epi16(to, 8));
            const __m256i town = _mm256_blendv_epi8(town_e, town_o, oddb);
            /* lake and mud from the int32 numerators, as byte masks */
            const __m256i H0 = _mm256_loadu_si256((const __m256i *)(hnum + k));
            const __m256i H1 = _mm256_loadu_si256((const __m256i *)(hnum + k + 8));
            const __m256i H2 = _mm256_loadu_si256((const __m256i *)(hnum + k + 16));
            const __m256i H3 = _mm256_loadu_si256((const __m256i *)(hnum + k + 24));
            const __m256i lake = aw_below_bytes(lake_lt, H0, H1, H2, H3);
            const __m256i mud = aw_below_bytes(mud_lt, H0, H1, H2, H3);
            ter = _mm256_blendv_epi8(ter, b_mud, mud);
            ter = _mm256_andnot_si256(lake, ter); /* RT_LAKE is 0 */
            const uint32_t excl = (uint32_t)_mm256_movemask_epi8(
                _mm256_or_si256(town, _mm256_or_si256(lake, mud)));
            /* feature candidates, 8 columns a group, as before */
            uint32_t cm = 0;
            for (int g = 0; g < 4; g++) {
                const int kg = k + 8 * g;
                __m256i xy;
                if (lin) {
                    xy = vxy;
                    vxy = _mm256_add_epi32(vxy, dxy8);
                } else {
                    xy = _mm256_mullo_epi32(_mm256_loadu_si256((const __m256i *)(ixr + kg)), vyr);
                }
                const __m256i N = _mm256_mullo_epi32(_mm256_loadu_si256((const __m256i *)(ifa + kg)), xy);
                const __m256i f = _mm256_and_si256(_mm256_srli_epi32(_mm256_add_epi32(N, c64), 7), fmask);
                const __m256i cand = _mm256_or_si256(
                    _mm256_cmpeq_epi32(f, fp),
                    _mm256_or_si256(_mm256_cmpeq_epi32(f, fx), _mm256_cmpeq_epi32(f, fc)));
                cm |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(cand)) << (8 * g);
            }
            cm &= ~excl;
            memcpy(cmask + (k >> 3), &cm, 4); /* bit k & 7 of byte k >> 3 (little-endian) */
            any |= cm != 0;
            __m256i fv = none;
            if (cm) { /* rare */
                const __m256i b = _mm256_and_si256(
                    _mm256_shuffle_epi8(_mm256_set1_epi32((int)cm), bidx), bsel);
                fv = _mm256_blendv_epi8(none, _mm256_set1_epi8((char)0xff), _mm256_cmpeq_epi8(b, bsel));
            }
            aw_store_32bytes_c(terrain + k, ter, bmode, &ct, terrain);
            aw_store_32bytes_c(feature + k, fv, bmode, &cf, feature);
            /* height and depth in doubles; a group of 8 columns all dry or
             * all lake (by the lake bytes: h < lake_lt exactly when
             * h * 2^-s < lake_height) skips the selection, with the same
             * bits (a dry depth is +0.0, all bits clear) */
            const __m256i Hs[4] = {H0, H1, H2, H3};
            const uint32_t lakes = (uint32_t)_mm256_movemask_epi8(lake);
            for (int g = 0; g < 4; g++) {
                const __m256i h = Hs[g];
                const uint32_t lg = lakes >> (8 * g) & 0xffu;
                double *const hp = height + k + 8 * g, *const dp = depth + k + 8 * g;
                const __m256d h0 = _mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_castsi256_si128(h)), vs);
                const __m256d h1 = _mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_extracti128_si256(h, 1)), vs);
                if (lg == 0) {
                    const __m256d zero = _mm256_setzero_pd();
                    aw_store_pd_c(hp, h0, mode, &ch, height);
                    aw_store_pd_c(hp + 4, h1, mode, &ch, height);
                    aw_store_pd_c(dp, zero, mode, &cd, depth);
                    aw_store_pd_c(dp + 4, zero, mode, &cd, depth);
                } else if (lg == 0xffu) {
                    aw_store_pd_c(hp, lh, mode, &ch, height);
                    aw_store_pd_c(hp + 4, lh, mode, &ch, height);
                    aw_store_pd_c(dp, _mm256_sub_pd(lh, h0), mode, &cd, depth);
                    aw_store_pd_c(dp + 4, _mm256_sub_pd(lh, h1), mode, &cd, depth);
                } else {
                    const __m256d l0 = _mm256_cmp_pd(lh, h0, _CMP_GT_OQ), l1 = _mm256_cmp_pd(lh, h1, _CMP_GT_OQ);
                    aw_store_pd_c(hp, _mm256_blendv_pd(h0, lh, l0), mode, &ch, height);
                    aw_store_pd_c(hp + 4, _mm256_blendv_pd(h1, lh, l1), mode, &ch, height);
                    aw_store_pd_c(dp, _mm256_and_pd(l0, _mm256_sub_pd(lh, h0)), mode, &cd, depth);
                    aw_store_pd_c(dp + 4, _mm256_and_pd(l1, _mm256_sub_pd(lh, h1)), mode, &cd, depth);
                }
            }
        }
        aw_store_32bytes_end(terrain + k16, ct, bmode);
        aw_store_32bytes_end(feature + k16, cf, bmode);
    }
    for (int k = k16; k < k1; k += 8) {
        const __m256i h = _mm256_loadu_si256((const __m256i *)(hnum + k));
        const __m256i a1 = _mm256_loadu_si256((const __m256i *)(ia1 + k));
        const __m256i a2 = _mm256_loadu_si256((const __m256i *)(ia2 + k));
        const __m256i a3 = _mm256_loadu_si256((const __m256i *)(ia3 + k));
        const __m256i fa = _mm256_loadu_si256((const __m256i *)(ifa + k));
        __m256i xy;
        if (lin) {
            xy = vxy;
            vxy = _mm256_add_epi32(vxy, dxy8);
        } else {
            xy = _mm256_mullo_epi32(_mm256_loadu_si256((const __m256i *)(ixr + k)), vyr);
        }
        const __m256i lake = _mm256_cmpgt_epi32(lake_lt, h), mud = _mm256_cmpgt_epi32(mud_lt, h);
        const __m256i town = _mm256_cmpgt_epi32(town_lt, a1);
        const __m256i ter = rt__kind8_avx2(a2, a3, grass_lt, open_lt, thicket_lt, town, mud, lake);
        const __m256i N = _mm256_mullo_epi32(fa, xy);
        const __m256i f = _mm256_and_si256(_mm256_srli_epi32(_mm256_add_epi32(N, c64), 7), fmask);
        __m256i cand = _mm256_or_si256(_mm256_cmpeq_epi32(f, fp),
                                       _mm256_or_si256(_mm256_cmpeq_epi32(f, fx), _mm256_cmpeq_epi32(f, fc)));
        cand = _mm256_andnot_si256(_mm256_or_si256(lake, _mm256_or_si256(mud, town)), cand);
        const int cm = _mm256_movemask_ps(_mm256_castsi256_ps(cand));
        cmask[k >> 3] = (uint8_t)cm;
        any |= cm;
        const __m256i code = _mm256_shuffle_epi8(
            _mm256_or_si256(ter, _mm256_and_si256(cand, candbyte)), pick);
        const __m128i bytes = _mm_unpacklo_epi32(_mm256_castsi256_si128(code),
                                                 _mm256_extracti128_si256(code, 1));
        /* the bytes by plain stores: eight of each a step, streamed, left
         * partial lines in the write-combining buffers between the slower
         * steps of coarse tiles (2048^2 grids at steps 8 and 16 took 1.5x
         * the time on an AMD EPYC, Zen 4), as the point path found */
        _mm_storel_epi64((__m128i *)(void *)(terrain + k), bytes);
        _mm_storel_epi64((__m128i *)(void *)(feature + k), _mm_unpackhi_epi64(bytes, bytes));
        /* height and depth in doubles */
        const __m256d h0 = _mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_castsi256_si128(h)), vs);
        const __m256d h1 = _mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_extracti128_si256(h, 1)), vs);
        const __m256d l0 = _mm256_cmp_pd(lh, h0, _CMP_GT_OQ), l1 = _mm256_cmp_pd(lh, h1, _CMP_GT_OQ);
        const __m256d o0 = _mm256_blendv_pd(h0, lh, l0), o1 = _mm256_blendv_pd(h1, lh, l1);
        const __m256d d0 = _mm256_and_pd(l0, _mm256_sub_pd(lh, h0));
        const __m256d d1 = _mm256_and_pd(l1, _mm256_sub_pd(lh, h1));
        aw_store_pd_c(height + k, o0, mode, &ch, height);
        aw_store_pd_c(height + k + 4, o1, mode, &ch, height);
        aw_store_pd_c(depth + k, d0, mode, &cd, depth);
        aw_store_pd_c(depth + k + 4, d1, mode, &cd, depth);
    }
    if (k1 > 0) {
        aw_store_pd_end(height + k1, ch, mode);
        aw_store_pd_end(depth + k1, cd, mode);
    }
    if (k1 < nk) ca->cmask[k1 >> 3] = 0;
    for (int k = k1; k < nk; k++) {
        const int c = aw_classify_one(ca, k, yr);
        ca->cmask[k >> 3] = (uint8_t)(ca->cmask[k >> 3] | c << (k & 7));
        any |= c;
    }
    return any != 0;
}

static AW_ATTR int tile_classify_bytes_avx2w(const rt_classify_args *ca)
{
    const uintptr_t b = (uintptr_t)ca->terrain | (uintptr_t)ca->feature;
    const int mode = b % 8 == 0 ? aw_store_mode(ca->stream, ca->height, ca->depth) : AW_ST_PLAIN;
    if (mode == AW_ST_NT32)
        return ca->xr ? aw_classify_bytes(ca, AW_ST_NT32, 0) : aw_classify_bytes(ca, AW_ST_NT32, 1);
    if (mode == AW_ST_NTS)
        return ca->xr ? aw_classify_bytes(ca, AW_ST_NTS, 0) : aw_classify_bytes(ca, AW_ST_NTS, 1);
    if (mode == AW_ST_NT16)
        return ca->xr ? aw_classify_bytes(ca, AW_ST_NT16, 0) : aw_classify_bytes(ca, AW_ST_NT16, 1);
    return ca->xr ? aw_classify_bytes(ca, AW_ST_PLAIN, 0) : aw_classify_bytes(ca, AW_ST_PLAIN, 1);
}

/* streaming stores are weakly ordered: fence them before the rows are
 * handed back */
static AW_ATTR void tile_finish_avx2w(void)
{
    _mm_sfence();
}

/* One point of a height row by the seed's arithmetic (as height_xy). */
static double aw_height_point(const rt_point_row *r, double x)
{
    const rt_terrain *t = r->t;
    const double *P = t->profile;
    const uint32_t mask = t->profile_len - 1;
    double ht = 0.0;
    for (uint32_t i = 0; i < r->n; i++) {
        double j = ((double)t->vec[RT_AH][i] * x + (double)t->vec[RT_BH][i] * r->y) * RT_RECIP128;
        double jint = rt__floor(j);
        double jfrac = j - jint;
        double p0 = P[rt__low32(jint) & mask];
        double p1 = P[rt__low32(jint + 1.0) & mask];
        ht += p0 + jfrac * (p1 - p0);
    }
    return ht;
}

/* A height row, any step: the caller has checked that |j| < 2^30 at every
 * point, so floor(j) converts to int32 exactly (ToInt32 of it). */
static AW_ATTR void height_row_avx2w(const rt_point_row *r)
{
    if (pr_height_row_avx2(r)) return; /* double windows (point_rows_avx2.h) */
    const rt_terrain *t = r->t;
    const uint32_t n = r->n, mask = t->profile_len - 1;
    const double *P = t->profile;
    const int64_t nx = r->nx, n4 = nx & ~(int64_t)3;
    double ax[RT_MAX_DIRECTIONS], by[RT_MAX_DIRECTIONS];
    int use_win[RT_MAX_DIRECTIONS], off[RT_MAX_DIRECTIONS];
    for (uint32_t i = 0; i < n; i++) {
        const int32_t a = t->vec[RT_AH][i];
        ax[i] = (double)a;
        by[i] = (double)t->vec[RT_BH][i] * r->y;
        /* 4 columns span |a|*3*step/128 (+ rounding) <= 5 indices: a window */
        use_win[i] = r->win != NULL && fabs(ax[i]) * r->step <= 200.0;
        off[i] = a < 0 ? 3 : 0;
    }
    const __m256d r128 = _mm256_set1_pd(RT_RECIP128), vx0 = _mm256_set1_pd(r->x0);
    const __m256d vstep = _mm256_set1_pd(r->step), four = _mm256_set1_pd(4.0);
    const __m128i vmask = _mm_set1_epi32((int)mask), one = _mm_set1_epi32(1);
    const uint32_t wm = r->win_mask;
    __m256d ci = _mm256_setr_pd((double)r->c0, (double)(r->c0 + 1), (double)(r->c0 + 2),
                                (double)(r->c0 + 3));
    for (int64_t c = 0; c < n4; c += 4) {
        const __m256d x = _mm256_add_pd(vx0, _mm256_mul_pd(ci, vstep));
        __m256d ht = _mm256_setzero_pd();
        for (uint32_t i = 0; i < n; i++) {
            const __m256d j = _mm256_mul_pd(
                _mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(ax[i]), x), _mm256_set1_pd(by[i])), r128);
            const __m256d jint = _mm256_floor_pd(j);
            const __m256d jfrac = _mm256_sub_pd(j, jint);
            const __m128i q = _mm256_cvttpd_epi32(jint);
            __m256d p0, d;
            if (use_win[i]) {
                const uint32_t b = (uint32_t)(off[i] ? _mm_extract_epi32(q, 3) : _mm_cvtsi128_si32(q));
                const __m256i w = _mm256_load_si256((const __m256i *)(r->win + ((b & wm) << 3)));
                const __m128i pe =
                    _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(w, _mm256_castsi128_si256(q)));
                p0 = _mm256_cvtepi32_pd(_mm_srai_epi32(pe, 16));
                d = _mm256_cvtepi32_pd(_mm_srai_epi32(_mm_slli_epi32(pe, 16), 16));
            } else {
                p0 = _mm256_i32gather_pd(P, _mm_and_si128(q, vmask), 8);
                d = _mm256_sub_pd(_mm256_i32gather_pd(P, _mm_and_si128(_mm_add_epi32(q, one), vmask), 8),
                                  p0);
            }
            ht = _mm256_add_pd(ht, _mm256_add_pd(p0, _mm256_mul_pd(jfrac, d)));
        }
        _mm256_storeu_pd(r->out + c, ht);
        ci = _mm256_add_pd(ci, four);
    }
    for (int64_t c = n4; c < nx; c++)
        r->out[c] = aw_height_point(r, r->x0 + (double)(r->c0 + c) * r->step);
}

/* The profile sums of a terra row's tile, any step (rt_point_prof): eight
 * points a step in doubles, the seed's operations in its order.  Two exact
 * rewritings save work: floor(floor(v) / 128) = floor(v / 128) (for any
 * real v), and v / 128 = fl(fl(A*x) + fl(B*y)) * 2^-7 = fl(fl((A*2^-7)*x) +
 * fl(B*y)*2^-7), since scaling by a power of two commutes with rounding
 * where nothing is subnormal (the caller's rt_point_prof check).  The
 * profile by a rotated window where eight columns span at most 8 indices,
 * else by a gather. */
static AW_ATTR void prof_row_avx2w(const rt_point_prof *r)
{
    if (pr_prof_row_avx2(r)) return; /* point_rows_avx2.h */
    const rt_terrain *t = r->t;
    const uint32_t n = r->n, mask = t->profile_len - 1;
    const int nk = r->nk, n8 = nk & ~7;
    static const int pa[3] = {RT_A1, RT_A2, RT_A3}, pb[3] = {RT_B1, RT_B2, RT_B3};
    double ax[3][RT_MAX_DIRECTIONS], by[3][RT_MAX_DIRECTIONS];
    int use_win[3][RT_MAX_DIRECTIONS], off[3][RT_MAX_DIRECTIONS];
    for (int p = 0; p < 3; p++)
        for (uint32_t i = 0; i < n; i++) {
            const int32_t a = t->vec[pa[p]][i];
            ax[p][i] = (double)a * RT_RECIP128;
            by[p][i] = (double)t->vec[pb[p]][i] * r->y * RT_RECIP128;
            /* 8 columns span |a|*7*step/128 (+ rounding) <= 7 indices */
            use_win[p][i] = r->win != NULL && fabs((double)a) * r->step <= 100.0;
            off[p][i] = a < 0 ? 7 : 0;
        }
    const __m256d vx0 = _mm256_set1_pd(r->x0), vstep = _mm256_set1_pd(r->step);
    const __m256d eight = _mm256_set1_pd(8.0);
    const __m256d half = _mm256_set1_pd(0.5), onepd = _mm256_set1_pd(1.0);
    const __m256i vmask = _mm256_set1_epi32((int)mask);
    const uint32_t wm = r->win_mask;
    const int32_t *P = r->profile;
    __m256d ci0 = _mm256_setr_pd((double)r->c0, (double)(r->c0 + 1), (double)(r->c0 + 2),
                                 (double)(r->c0 + 3));
    __m256d ci1 = _mm256_setr_pd((double)(r->c0 + 4), (double)(r->c0 + 5), (double)(r->c0 + 6),
                                 (double)(r->c0 + 7));
    for (int c = 0; c < n8; c += 8) {
        const __m256d x0 = _mm256_add_pd(vx0, _mm256_mul_pd(ci0, vstep));
        const __m256d x1 = _mm256_add_pd(vx0, _mm256_mul_pd(ci1, vstep));
        for (int p = 0; p < 3; p++) {
            __m256i acc = _mm256_setzero_si256();
            for (uint32_t i = 0; i < n; i++) {
                const __m256d a = _mm256_set1_pd(ax[p][i]), bb = _mm256_set1_pd(by[p][i]);
                const __m128i q0 = _mm256_cvttpd_epi32(_mm256_floor_pd(_mm256_add_pd(_mm256_mul_pd(a, x0), bb)));
                const __m128i q1 = _mm256_cvttpd_epi32(_mm256_floor_pd(_mm256_add_pd(_mm256_mul_pd(a, x1), bb)));
                const __m256i q = _mm256_inserti128_si256(_mm256_castsi128_si256(q0), q1, 1);
                if (use_win[p][i]) {
                    const uint32_t b =
                        (uint32_t)(off[p][i] ? _mm_extract_epi32(q1, 3) : _mm_cvtsi128_si32(q0));
                    const __m256i w = _mm256_load_si256((const __m256i *)(r->win + ((b & wm) << 3)));
                    acc = _mm256_add_epi32(acc, _mm256_srai_epi32(_mm256_permutevar8x32_epi32(w, q), 16));
                } else {
                    acc = _mm256_add_epi32(acc, _mm256_i32gather_epi32(P, _mm256_and_si256(q, vmask), 4));
                }
            }
            _mm256_storeu_si256((__m256i *)(r->a[p] + c), acc);
        }
        /* round_js(x): floor, plus one if the fraction is >= 0.5 */
        const __m256d f0 = _mm256_floor_pd(x0), f1 = _mm256_floor_pd(x1);
        const __m256d u0 = _mm256_and_pd(_mm256_cmp_pd(_mm256_sub_pd(x0, f0), half, _CMP_GE_OQ), onepd);
        const __m256d u1 = _mm256_and_pd(_mm256_cmp_pd(_mm256_sub_pd(x1, f1), half, _CMP_GE_OQ), onepd);
        _mm_storeu_si128((__m128i *)(r->xr + c), _mm256_cvttpd_epi32(_mm256_add_pd(f0, u0)));
        _mm_storeu_si128((__m128i *)(r->xr + c + 4), _mm256_cvttpd_epi32(_mm256_add_pd(f1, u1)));
        ci0 = _mm256_add_pd(ci0, eight);
        ci1 = _mm256_add_pd(ci1, eight);
    }
    for (int c = n8; c < nk; c++) aw_prof_point(r, c, r->x0 + (double)(r->c0 + c) * r->step);
}

static const rt_tile_kernels tile_kernels_avx2w = {
    tile_height_avx2w,       tile_prof_avx2w,         tile_prof_at_avx2w,
    tile_classify_avx2,      tile_store_heights_avx2, tile_finish_avx2w,
    tile_height_store_avx2w, tile_classify_bytes_avx2w, height_row_avx2w,
    tile_prof16_avx2w,       prof_row_avx2w,          0,
    pr_classify_out_avx2};

#undef AW_ATTR
#undef AW_INLINE
