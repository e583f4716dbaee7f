/*
 * rt_tile.h - the tile passes of the terrain block path: their arguments and
 * the per-ISA kernel tables (tile_kernels.c).  Internal; not installed.
 *
 * For integer profiles every floating-point step of the seed is exact, so a
 * tile of up to TILE columns of a row is summed in integers by one of the
 * kernel tables (scalar, AVX2, AVX-512, AVX-512 VBMI) and decided by a
 * branch-free classify pass.  All tables give the same bits.
 */
#ifndef RT_TILE_H
#define RT_TILE_H

#include <stdint.h>

#include "relfterrain.h"

#define TILE 512
#define INT_PROFILE_MAX 4096 /* longest profile the integer passes take */

typedef struct rt_tile_args {
    const int32_t *profile;  /* the profile as int32 */
    const uint8_t *bytes;    /* the profile as 256 bytes (VBMI kernels), or NULL */
    uint32_t mask, shift, n;
    int nk;                  /* columns in this tile */
    uint32_t v0[RT_MAX_DIRECTIONS], dv[RT_MAX_DIRECTIONS];
} rt_tile_args;

typedef struct rt_classify_args {
    int nk;
    double lake_height, lake_base;
    double yr;                  /* the row's rounded y */
    double fmod_m, fmod_inv;    /* feature mask + 1, and its reciprocal */
    double f_point, f_x, f_cone;
    const double *ht;           /* heights, mountains applied */
    const int32_t *a1, *a2, *a3, *fa, *xr;
    double *height, *depth;     /* outputs */
    int32_t *code;              /* terrain | candidate << 8 */
    /* the vegetation thresholds as integers: for an integer sum a,
     * a < T exactly when a < ceil(T) */
    int32_t town_lt, grass_lt, open_lt, thicket_lt;
    int32_t town_abs;           /* nonzero: the town test is on |a1| */
} rt_classify_args;

typedef struct rt_tile_kernels {
    void (*height)(const rt_tile_args *, int32_t *);
    void (*prof)(const rt_tile_args *, int32_t *);
    void (*prof_at)(const rt_tile_args *, const uint32_t *, int32_t *);
    void (*classify)(const rt_classify_args *);
    void (*store_heights)(const int32_t *, int, double, double *);
    /* called once a thread has finished its rows (NULL: nothing to do);
     * the streaming stores of a variant are made visible here */
    void (*finish)(void);
} rt_tile_kernels;

/* The kernels of an rt_simd variant on this CPU (resolved with
 * rt_simd_resolve); `bytes` says whether a 256-byte profile is available,
 * which the VBMI kernels need. */
const rt_tile_kernels *rt__tile_kernels(int variant, int bytes);

#endif /* RT_TILE_H */
