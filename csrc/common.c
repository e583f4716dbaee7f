/*
 * common.c - status strings, the enums' names and the exported JavaScript
 * number helpers.
 */
#include <math.h>

#include "relfterrain.h"
#include "rt_internal.h"

/* Doubles to float32 (rt_round_f32): IEEE round to nearest, as NumPy's
 * astype; from FLT_MAX plus half an ulp on (0x1.ffffffp127, a tie rounding
 * up) +-inf, spelled out so that no C conversion leaves float's finite
 * range.  The portable loop, cloned for the widest vectors the compiler
 * knows (the same IEEE rounding in every clone, so the same bits). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define RT_F32_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define RT_F32_CLONES
#endif
RT_F32_CLONES
static void round_f32_loop(float *dst, const double *src, int64_t n)
{
    const double lim = 0x1.ffffffp127;
    for (int64_t i = 0; i < n; i++) {
        const double v = src[i];
        const int big = fabs(v) >= lim; /* selects, so that the loop vectorises */
        const float f = (float)(big ? 0.0 : v);
        dst[i] = big ? (v > 0.0 ? (float)INFINITY : -(float)INFINITY) : f;
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* The vector loops' head: the elements before dst + i is on `align` bytes
 * (0: none), rounded by the portable loop; returns i (n when dst is not on
 * 4 bytes or the row ends first). */
static int64_t f32_head(float *dst, const double *src, int64_t n, unsigned align)
{
    int64_t h = align ? (int64_t)((align - (uintptr_t)dst % align) % align / 4) : 0;
    if ((uintptr_t)dst % 4 != 0 || h > n) h = n;
    round_f32_loop(dst, src, h);
    return h;
}

/* The same with AVX-512, sixteen a step: vcvtpd2ps rounds to nearest under
 * the default MXCSR (the package never changes it) and gives +-inf from
 * that bound on, so it needs none of the loop's selects (the clone above
 * spends most of its instructions on them).  stream: streaming stores of
 * whole lines, the head before the first line boundary and the tail by the
 * loop; the caller fences them (rt__round_f32_fence) once it has written
 * its rows: a fence after each row waited for its stores to drain. */
__attribute__((target("avx512f"))) static void round_f32_512(float *dst, const double *src,
                                                              int64_t n, int stream)
{
    int64_t i = f32_head(dst, src, n, stream ? 64 : 0);
    for (; i + 16 <= n; i += 16) {
        const __m256 a = _mm512_cvtpd_ps(_mm512_loadu_pd(src + i));
        const __m256 b = _mm512_cvtpd_ps(_mm512_loadu_pd(src + i + 8));
        const __m512 ab = _mm512_castpd_ps(_mm512_insertf64x4(
            _mm512_castpd256_pd512(_mm256_castps_pd(a)), _mm256_castps_pd(b), 1));
        if (stream)
            _mm512_stream_ps(dst + i, ab);
        else
            _mm512_storeu_ps(dst + i, ab);
    }
    round_f32_loop(dst + i, src + i, n - i);
}

/* The same with AVX, eight a step (streaming: 32-byte aligned stores). */
__attribute__((target("avx"))) static void round_f32_256(float *dst, const double *src,
                                                         int64_t n, int stream)
{
    int64_t i = f32_head(dst, src, n, stream ? 32 : 0);
    for (; i + 8 <= n; i += 8) {
        const __m128 a = _mm256_cvtpd_ps(_mm256_loadu_pd(src + i));
        const __m128 b = _mm256_cvtpd_ps(_mm256_loadu_pd(src + i + 4));
        const __m256 ab = _mm256_insertf128_ps(_mm256_castps128_ps256(a), b, 1);
        if (stream)
            _mm256_stream_ps(dst + i, ab);
        else
            _mm256_storeu_ps(dst + i, ab);
    }
    round_f32_loop(dst + i, src + i, n - i);
}
#endif

void rt__round_f32_rows(float *dst, const double *src, int64_t n, int stream, int resolved)
{
#if defined(__x86_64__) && defined(__GNUC__)
    switch (resolved) {
    case RT_SIMD_AVX512:
    case RT_SIMD_AVX512VBMI: round_f32_512(dst, src, n, stream); return;
    case RT_SIMD_AVX2: round_f32_256(dst, src, n, stream); return;
    default: break;
    }
#endif
    (void)stream;
    (void)resolved;
    round_f32_loop(dst, src, n);
}

void rt__round_f32_fence(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    _mm_sfence();
#endif
}

void rt_round_f32(float *dst, const double *src, int64_t n)
{
    rt__round_f32_rows(dst, src, n, 0, rt_simd_resolve(RT_SIMD_AUTO));
}

const char *rt_strerror(rt_status status)
{
    switch (status) {
    case RT_OK: return "success";
    case RT_ERR_PROFILE_LENGTH:
        return "profile length must be a power of two between 1 and 2**24";
    case RT_ERR_PROFILE_VALUE: return "profile values must be finite";
    case RT_ERR_VECTOR_LENGTH:
        return "direction vectors must all have one common length between 1 and 64";
    case RT_ERR_VECTOR_VALUE:
        return "direction vector components must be integers with |v| <= 2**20";
    case RT_ERR_PARAM: return "a parameter is not finite or out of range";
    case RT_ERR_SIZE: return "block dimensions must be >= 1 and the block not too large";
    case RT_ERR_COORD:
        return "coordinates must be finite and step a positive finite number";
    case RT_ERR_NOMEM: return "out of memory";
    case RT_ERR_PLACED_VALUE: return "placed value is not a terrain type or a feature";
    case RT_ERR_NULL: return "a required pointer is NULL";
    case RT_ERR_INTERRUPTED: return "interrupted: the caller's poll asked the call to stop";
    }
    return "unknown status";
}

double rt_round_js(double v) { return rt__round_js(v); }

int32_t rt_toint32(double v)
{
    uint32_t u = rt__low32(v);
    /* uint32 -> int32 without implementation-defined conversion. */
    return u < 0x80000000u ? (int32_t)u : (int32_t)(u - 0x80000000u) - INT32_MAX - 1;
}

static const char *const TERRAIN_TYPE_NAMES[RT_TERRAIN_TYPE_COUNT] = {
    "LAKE", "TOWN", "GRASS", "MOOR", "WOOD", "THICKET", "ROAD", "MUD", "PATH", "STREAM",
    "MARSH", "SNOW", "QUARRY"};
static const char *const FEATURE_NAMES[RT_FEATURE_COUNT] = {
    "NONE", "MINE", "BOULDER", "ROOT", "WATERHOLE", "KNOLL", "X", "CONE", "ROCKET", "BUILDING",
    "PHONE"};

const char *rt_terrain_type_name(int code)
{
    return code >= 0 && code < RT_TERRAIN_TYPE_COUNT ? TERRAIN_TYPE_NAMES[code] : NULL;
}

const char *rt_feature_name(int code)
{
    return code >= 0 && code < RT_FEATURE_COUNT ? FEATURE_NAMES[code] : NULL;
}

