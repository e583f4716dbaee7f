/*
 * tile_kernels.c - the tile passes instantiated once per instruction set,
 * and the dispatch from an rt_simd variant to its kernel table.  The
 * templates are simd/terrain_tile.h (scalar, AVX2 and AVX-512 gathers),
 * simd/terrain_avx2.h (AVX2 rotated-window lookups, classify into the
 * outputs, point-path rows), simd/point_rows_avx512.h (the point path's
 * rows with eight double lanes), simd/terrain_vbmi.h (AVX-512 VBMI in-register
 * lookups) and simd/terrain_neon.h (AArch64 tbl lookups); CPU detection is
 * cpu.c.  A new ISA is one more instantiation and one more case.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

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
/* its gather passes serve the AVX2 window table (terrain_avx2.h) */
#define RT_TILE_TABLE_ATTR __attribute__((unused))
#include "simd/terrain_tile.h"
#undef RT_TILE_TABLE_ATTR
#undef RT_TILE_SUFFIX
#undef RT_TILE_ATTR
#define RT_TILE_SUFFIX avx512
#define RT_TILE_ATTR __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))
/* its gather passes serve the VBMI tails; its table is tile_kernels_avx512w */
#define RT_TILE_TABLE_ATTR __attribute__((unused))
#include "simd/terrain_tile.h"
#undef RT_TILE_TABLE_ATTR
#undef RT_TILE_SUFFIX
#undef RT_TILE_ATTR
#include "simd/point_rows_avx2.h"
#include "simd/terrain_avx2.h"
#include "simd/point_rows_avx512.h"
#include "simd/terrain_vbmi.h"
#else
#define RT_HAVE_X86_VARIANTS 0
#endif

#if defined(__aarch64__)
#define RT_HAVE_NEON_VARIANT 1
#include "simd/terrain_neon.h"
#else
#define RT_HAVE_NEON_VARIANT 0
#endif

/* The packed entry e: P[e] << 16 | (uint16_t)(P[e+1] - P[e]) */
static int32_t tile_pack(const int32_t *iprof, uint32_t mask, uint32_t e)
{
    const int32_t p0 = iprof[e & mask], d = iprof[(e + 1) & mask] - p0;
    return (int32_t)((uint32_t)p0 << 16 | (uint16_t)d);
}

/* Packed rotated windows of `lanes` (8 or 16) entries a row (rt__tile_windows
 * and rt__tile_windows16). */
static int tile_windows_lanes(const int32_t *iprof, uint32_t len, int32_t *win, uint32_t lanes)
{
    const uint32_t mask = len - 1, rows = len < lanes ? lanes : len;
    if (rows > RT_WIN_ROWS) return -1;
    for (uint32_t k = 0; k < len; k++) {
        int32_t p0 = iprof[k], d = iprof[(k + 1) & mask] - p0;
        if (p0 < INT16_MIN || p0 > INT16_MAX || d < INT16_MIN || d > INT16_MAX) return -1;
    }
    /* row 0 holds e = j; row b + 1 is row b but for lane b mod lanes,
     * where entry b gives way to entry b + lanes (a copy a row: these are
     * built once a grid call, small grids included) */
    for (uint32_t j = 0; j < lanes; j++) win[j] = tile_pack(iprof, mask, j);
    for (uint32_t b = 0; b + 1 < rows; b++) {
        memcpy(win + (b + 1) * lanes, win + b * lanes, lanes * sizeof *win);
        win[(b + 1) * lanes + (b & (lanes - 1))] = tile_pack(iprof, mask, b + lanes);
    }
    return (int)(rows - 1);
}

int rt__tile_windows(const int32_t *iprof, uint32_t len, int32_t *win)
{
    return tile_windows_lanes(iprof, len, win, 8);
}

int rt__tile_windows16(const int32_t *iprof, uint32_t len, int32_t *win16p)
{
    return tile_windows_lanes(iprof, len, win16p, 16);
}

/* The double windows of `lanes` (4 or 8) columns: row b holds p0 of the
 * entries b + ((j - b) mod lanes), then their p1 - p0 (rt__point_dwin and
 * rt__point_dwin8 below). */
static int point_dwin_lanes(const double *profile, uint32_t len, double *dwin,
                            uint32_t lanes, uint32_t max_rows)
{
    const uint32_t mask = len - 1, rows = len < lanes ? lanes : len;
    if (rows > max_rows) return -1;
    for (uint32_t b = 0; b < rows; b++)
        for (uint32_t j = 0; j < lanes; j++) {
            uint32_t e = b + ((j - b) & (lanes - 1));
            double p0 = profile[e & mask], p1 = profile[(e + 1) & mask];
            dwin[b * 2 * lanes + j] = p0;
            dwin[b * 2 * lanes + lanes + j] = p1 - p0;
        }
    return (int)(rows - 1);
}

int rt__point_dwin(const double *profile, uint32_t len, double *dwin)
{
    return point_dwin_lanes(profile, len, dwin, 4, RT_DWIN_ROWS);
}

int rt__point_dwin8(const double *profile, uint32_t len, double *dwin8)
{
    return point_dwin_lanes(profile, len, dwin8, 8, RT_DWIN8_ROWS);
}

int rt__point_cwin8(const double *profile, uint32_t len, double *cwin8)
{
    const uint32_t mask = len - 1, rows = len < 8 ? 8 : len;
    if (rows > RT_DWIN8_ROWS) return -1;
    for (uint32_t k = 0; k < len; k++)
        if (!(profile[k] == floor(profile[k])) || !(fabs(profile[k]) < 1048576.0)) return -1;
    for (uint32_t b = 0; b < rows; b++)
        for (uint32_t j = 0; j < 8; j++) {
            uint32_t e = b + ((j - b) & 7u);
            double p0 = profile[e & mask], d = profile[(e + 1) & mask] - p0;
            cwin8[b * 8 + j] = p0 - (double)e * d; /* exact: below 2^33 */
        }
    return (int)(rows - 1);
}

int rt__point_dwin2(const double *profile, uint32_t len, double *dwin2)
{
    return point_dwin_lanes(profile, len, dwin2, 2, RT_DWIN2_ROWS);
}

double rt__point_fma_min(const double *profile, uint32_t len)
{
    const uint32_t mask = len - 1;
    int bits = 0;
    for (uint32_t e = 0; e < len; e++) {
        const double d = profile[(e + 1) & mask] - profile[e];
        if (d == 0.0) continue;
        if (!isfinite(d) || fabs(d) < 0x1p-900) return 0.0;
        /* d is normal here: its significand 2^52 + the 52 stored bits has
         * 53 - (its trailing zeros) significant bits */
        uint64_t u;
        memcpy(&u, &d, sizeof u);
        const uint64_t m = (u & 0xFFFFFFFFFFFFFull) | 0x10000000000000ull;
        const int b = 53 - __builtin_ctzll(m);
        if (b > bits) bits = b;
    }
    if (bits > 30) return 0.0;
    return ldexp(1.0, bits - 1); /* (bits 0: every d is 0, 2^-1 will do) */
}

/* Plain int32 windows of `lanes` (8 or 16) columns: row b holds P[e & mask]
 * in slot e mod lanes for e in [b, b + lanes) (rt__point_win16 and
 * rt__point_win8 below). */
static int point_win_lanes(const int32_t *iprof, uint32_t len, int32_t *win, uint32_t lanes,
                           uint32_t max_rows)
{
    const uint32_t mask = len - 1, rows = len < lanes ? lanes : len;
    if (rows > max_rows) return -1;
    for (uint32_t b = 0; b < rows; b++)
        for (uint32_t j = 0; j < lanes; j++)
            win[b * lanes + j] = iprof[(b + ((j - b) & (lanes - 1))) & mask];
    return (int)(rows - 1);
}

int rt__point_win16(const int32_t *iprof, uint32_t len, int32_t *win16)
{
    return point_win_lanes(iprof, len, win16, 16, RT_WIN16_ROWS);
}

int rt__point_win8(const int32_t *iprof, uint32_t len, int32_t *win8)
{
    return point_win_lanes(iprof, len, win8, 8, RT_WIN16_ROWS);
}

/* Rotated byte windows of `lanes` (16 or 64) entries a row, less the
 * profile's minimum (*base): row 0 holds e = j; row b + 1 is row b but for
 * byte b mod lanes, where entry b gives way to entry b + lanes (a copy a
 * row, as tile_windows_lanes) */
static int byte_windows(const int32_t *iprof, uint32_t len, uint8_t *win, uint32_t lanes,
                        int32_t *base)
{
    const uint32_t mask = len - 1, rows = len < lanes ? lanes : len;
    if (rows > RT_WIN8_ROWS) return -1;
    int32_t lo = iprof[0], hi = iprof[0];
    for (uint32_t k = 1; k < len; k++) {
        if (iprof[k] < lo) lo = iprof[k];
        if (iprof[k] > hi) hi = iprof[k];
    }
    if ((int64_t)hi - lo > 255) return -1;
    for (uint32_t j = 0; j < lanes; j++) win[j] = (uint8_t)(iprof[j & mask] - lo);
    for (uint32_t b = 0; b + 1 < rows; b++) {
        memcpy(win + (b + 1) * lanes, win + b * lanes, lanes);
        win[(b + 1) * lanes + (b & (lanes - 1))] = (uint8_t)(iprof[(b + lanes) & mask] - lo);
    }
    *base = lo;
    return (int)(rows - 1);
}

int rt__tile_windows8(const int32_t *iprof, uint32_t len, uint8_t *win8, int32_t *base)
{
    return byte_windows(iprof, len, win8, 16, base);
}

int rt__tile_windows64(const int32_t *iprof, uint32_t len, uint8_t *win64)
{
    int32_t base;
    return byte_windows(iprof, len, win64, 64, &base);
}

const rt_tile_kernels *rt__tile_kernels(int variant, int bytes)
{
    (void)bytes; /* only the x86-64 and NEON variants use it */
    switch (rt_simd_resolve(variant)) {
#if RT_HAVE_NEON_VARIANT
    case RT_SIMD_NEON: return bytes ? &tile_kernels_neon : &tile_kernels_neon_rows;
#endif
#if RT_HAVE_X86_VARIANTS
    case RT_SIMD_AVX512VBMI: return bytes ? &tile_kernels_vbmi : &tile_kernels_avx512w_vbmi;
    case RT_SIMD_AVX512: return &tile_kernels_avx512w;
    case RT_SIMD_AVX2: return &tile_kernels_avx2w;
#endif
    default: return &tile_kernels_scalar;
    }
}
