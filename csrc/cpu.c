/*
 * cpu.c - which SIMD variants this CPU can run, detected once.
 *
 * The answer is cached in one atomic word the first time it is asked for:
 * every thread that races to fill it computes the same value, so the cache
 * is invisible (the core has no other mutable global state).
 */
#include <stdatomic.h>

#include "relfterrain.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define RT_HAVE_X86_VARIANTS 1
#else
#define RT_HAVE_X86_VARIANTS 0
#endif

/* bit v set: variant v runs here; bit 31: detected */
static atomic_uint cpu_variants;

static unsigned detect(void)
{
    unsigned bits = 1u << RT_SIMD_AUTO | 1u << RT_SIMD_SCALAR;
#if RT_HAVE_X86_VARIANTS
    __builtin_cpu_init();
    /* the avx2 variant: AVX2 and FMA (x86-64-v3's vector part, NumPy's
     * "Haswell" target; every AVX2 CPU made has both): its height rows add
     * by fused multiply-adds where those are exact (point_rows_avx2.h) */
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        bits |= 1u << RT_SIMD_AVX2;
    /* the avx512 variants: F, BW, DQ and VL, and the avx2 variant's AVX2 and
     * FMA (their rows fuse too, and take the AVX2 kernels' rest) */
    if ((bits & 1u << RT_SIMD_AVX2) && __builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")) {
        bits |= 1u << RT_SIMD_AVX512;
        if (__builtin_cpu_supports("avx512vbmi")) bits |= 1u << RT_SIMD_AVX512VBMI;
    }
#endif
#if defined(__aarch64__)
    bits |= 1u << RT_SIMD_NEON; /* baseline on AArch64 */
#endif
    return bits | 1u << 31;
}

int rt_simd_supported(int variant)
{
    if (variant < 0 || variant >= RT_SIMD_COUNT) return 0;
    unsigned bits = atomic_load_explicit(&cpu_variants, memory_order_relaxed);
    if (!bits) {
        bits = detect();
        atomic_store_explicit(&cpu_variants, bits, memory_order_relaxed);
    }
    return (bits >> variant) & 1u;
}

const char *rt_simd_name(int variant)
{
    switch (variant) {
    case RT_SIMD_AUTO: return "auto";
    case RT_SIMD_SCALAR: return "scalar";
    case RT_SIMD_AVX2: return "avx2";
    case RT_SIMD_AVX512: return "avx512";
    case RT_SIMD_AVX512VBMI: return "avx512vbmi";
    case RT_SIMD_NEON: return "neon";
    default: return NULL;
    }
}

int rt_simd_resolve(int variant)
{
    if (variant != RT_SIMD_AUTO) return rt_simd_supported(variant) ? variant : RT_SIMD_SCALAR;
    if (rt_simd_supported(RT_SIMD_AVX512VBMI)) return RT_SIMD_AVX512VBMI;
    if (rt_simd_supported(RT_SIMD_AVX512)) return RT_SIMD_AVX512;
    if (rt_simd_supported(RT_SIMD_AVX2)) return RT_SIMD_AVX2;
    if (rt_simd_supported(RT_SIMD_NEON)) return RT_SIMD_NEON;
    return RT_SIMD_SCALAR;
}
