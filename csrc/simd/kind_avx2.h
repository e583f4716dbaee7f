/*
 * kind_avx2.h - the terrain kind of eight columns from their sums (SPEC 5),
 * shared by the step-1 tile pass (terrain_avx2.h) and the any-step point
 * rows (point_rows_avx2.h).  Internal; included by them.
 */
#ifndef RT_KIND_AVX2_H
#define RT_KIND_AVX2_H

#include <immintrin.h>

#include "relfterrain.h"

/* Eight int32 lanes: GRASS or MOOR where a2 < grass_lt (by a3 < open_lt),
 * else THICKET or WOOD (by a3 < thicket_lt); then TOWN, MUD and LAKE over
 * that where their masks (all-ones lanes) say, in that order, as terra
 * decides them (lake first, then mud, then town, then the vegetation). */
static inline __attribute__((target("avx2"))) __m256i
rt__kind8_avx2(__m256i a2, __m256i a3, __m256i grass_lt, __m256i open_lt, __m256i thicket_lt,
               __m256i ktown, __m256i kmud, __m256i klake)
{
    const __m256i open = _mm256_blendv_epi8(_mm256_set1_epi32(RT_MOOR), _mm256_set1_epi32(RT_GRASS),
                                            _mm256_cmpgt_epi32(open_lt, a3));
    const __m256i closed = _mm256_blendv_epi8(_mm256_set1_epi32(RT_WOOD),
                                              _mm256_set1_epi32(RT_THICKET),
                                              _mm256_cmpgt_epi32(thicket_lt, a3));
    __m256i ter = _mm256_blendv_epi8(closed, open, _mm256_cmpgt_epi32(grass_lt, a2));
    ter = _mm256_blendv_epi8(ter, _mm256_set1_epi32(RT_TOWN), ktown);
    ter = _mm256_blendv_epi8(ter, _mm256_set1_epi32(RT_MUD), kmud);
    return _mm256_blendv_epi8(ter, _mm256_set1_epi32(RT_LAKE), klake);
}

#endif /* RT_KIND_AVX2_H */
