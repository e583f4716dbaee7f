/*
 * store_avx2.h - stores of four doubles for the AVX2 passes: plain, or
 * streaming where the outputs are aligned for them, including the shifted
 * streaming stores of arrays 16 bytes past a 32-byte boundary (NumPy's
 * large arrays).  Shared by the step-1 tile pass (terrain_avx2.h) and the
 * any-step point rows (point_rows_avx2.h).  Internal; included by them.
 */
#ifndef RT_STORE_AVX2_H
#define RT_STORE_AVX2_H

#include <immintrin.h>
#include <stdint.h>

#define RT_STORE_INLINE static inline __attribute__((always_inline, target("avx2")))

/* The modes: AW_ST_PLAIN; streaming, AW_ST_NT16: the doubles 16-byte
 * aligned, AW_ST_NT32: 32-byte, AW_ST_NTS: 16 bytes past a 32-byte boundary
 * (in runs, by aw_store_pd_c; aw_store_pd takes it as AW_ST_NT16). */
enum { AW_ST_PLAIN = 0, AW_ST_NT16 = 1, AW_ST_NT32 = 2, AW_ST_NTS = 3 };

RT_STORE_INLINE void aw_store_pd(double *p, __m256d v, const int mode)
{
    if (mode == AW_ST_NT32) {
        _mm256_stream_pd(p, v);
    } else if (mode == AW_ST_NT16 || mode == AW_ST_NTS) {
        _mm_stream_pd(p, _mm256_castpd256_pd128(v));
        _mm_stream_pd(p + 2, _mm256_extractf128_pd(v, 1));
    } else {
        _mm256_storeu_pd(p, v);
    }
}

/* A run of stores of four doubles at first, first + 4, ... in that order.
 * AW_ST_NTS (first 16 bytes past a 32-byte boundary, as NumPy's large
 * arrays are): every 32-byte streaming store is aligned, the upper half of
 * the previous vector (*carry) and the lower half of this one; the run's
 * first lower half goes alone, its last upper half by aw_store_pd_end.
 * Whole lines reach memory in two stores, not four (grid 4096^2 at step 1
 * into NumPy's arrays: 0.90-0.95 of the time with 16-byte stores, 2026-11-28).
 * Other modes: aw_store_pd. */
/* The AW_ST_NTS store of aw_store_pd_c, the carry by value: returns the
 * next carry (v).  For loops instantiated many times, where an
 * address-taken carry would cost each instance a stack slot under ASan. */
RT_STORE_INLINE __m256d aw_store_pd_nts(double *p, __m256d v, __m256d carry, const double *first)
{
    if (p == first)
        _mm_stream_pd(p, _mm256_castpd256_pd128(v));
    else
        _mm256_stream_pd(p - 2, _mm256_permute2f128_pd(carry, v, 0x21));
    return v;
}

RT_STORE_INLINE void aw_store_pd_c(double *p, __m256d v, const int mode, __m256d *carry,
                                   const double *first)
{
    if (mode == AW_ST_NTS)
        *carry = aw_store_pd_nts(p, v, *carry, first);
    else
        aw_store_pd(p, v, mode);
}

/* the end of a run of aw_store_pd_c whose last store was at end - 4 */
RT_STORE_INLINE void aw_store_pd_end(double *end, __m256d carry, const int mode)
{
    if (mode == AW_ST_NTS) _mm_stream_pd(end - 2, _mm256_extractf128_pd(carry, 1));
}

/* the store mode for doubles at p (and q, when not NULL: both must suit it) */
static inline int aw_store_mode(int stream, const double *p, const double *q)
{
    const uintptr_t a = (uintptr_t)p, b = q ? (uintptr_t)q : a;
    if (!stream) return AW_ST_PLAIN;
    if (a % 32 == 0 && b % 32 == 0) return AW_ST_NT32;
    if (a % 32 == 16 && b % 32 == 16) return AW_ST_NTS;
    if (a % 16 == 0 && b % 16 == 0) return AW_ST_NT16;
    return AW_ST_PLAIN;
}

#endif
