/*
 * tile_kernels.c - the tile passes instantiated once per instruction set,
 * and the dispatch from an rt_simd variant to its kernel table.  The
 * templates are simd/terrain_tile.h (scalar, AVX2, AVX-512) and
 * simd/terrain_vbmi.h (AVX-512 VBMI in-register lookups); CPU detection is
 * cpu.c.  A new ISA (NEON, say) is one more instantiation and one more case.
 */
#include <math.h>
#include <stdint.h>

#include "relfterrain.h"
#include "rt_internal.h"
#include "rt_tile.h"

/* floor: baseline x86-64 has no rounding instruction, so the scalar variant
 * uses the exact integer-conversion floor; the others have vroundpd. */
#define RT_TILE_SUFFIX scalar
#define RT_TILE_ATTR
#define RT_TILE_FLOOR rt__floor
#include "simd/terrain_tile.h"
#undef RT_TILE_FLOOR
#define RT_TILE_FLOOR floor
#undef RT_TILE_SUFFIX
#undef RT_TILE_ATTR

#if defined(__x86_64__) && defined(__GNUC__)
#define RT_HAVE_X86_VARIANTS 1
#define RT_TILE_SUFFIX avx2
#define RT_TILE_ATTR __attribute__((target("avx2")))
#include "simd/terrain_tile.h"
#undef RT_TILE_SUFFIX
#undef RT_TILE_ATTR
#define RT_TILE_SUFFIX avx512
#define RT_TILE_ATTR __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))
#include "simd/terrain_tile.h"
#undef RT_TILE_SUFFIX
#undef RT_TILE_ATTR
#include "simd/terrain_vbmi.h"
#else
#define RT_HAVE_X86_VARIANTS 0
#endif

const rt_tile_kernels *rt__tile_kernels(int variant, int bytes)
{
    (void)bytes; /* only the x86-64 variants use it */
    switch (rt_simd_resolve(variant)) {
#if RT_HAVE_X86_VARIANTS
    case RT_SIMD_AVX512VBMI: return bytes ? &tile_kernels_vbmi : &tile_kernels_avx512;
    case RT_SIMD_AVX512: return &tile_kernels_avx512;
    case RT_SIMD_AVX2: return &tile_kernels_avx2;
#endif
    default: return &tile_kernels_scalar;
    }
}
