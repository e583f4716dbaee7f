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
#include "rt_veg_bounds.h"

/* Columns a tile: larger tiles spread the set-up of the passes thinner
 * (2048 gave 6-10 % faster grids than 512 on the development VM; 4096 was
 * slower again), and the tile buffers (about 110 KiB) stay in L2. */
#define TILE 2048
/* the pieces of a tile whose int32 numerators go through a stack array */
#define RT_HS_TILE 512
#define INT_PROFILE_MAX 4096 /* longest profile the integer passes take */

typedef struct rt_tile_args {
    const int32_t *profile;  /* the profile as int32 */
    const uint8_t *bytes;    /* the profile as 256 bytes (VBMI kernels), or NULL */
    uint32_t mask, shift, n;
    int nk;                  /* columns in this tile */
    uint32_t v0[RT_MAX_DIRECTIONS], dv[RT_MAX_DIRECTIONS];
    /* rotated windows of the profile (rt__tile_windows), or NULL: row b holds
     * the packed entries b .. b+7 with entry e in lane e & 7 */
    const int32_t *win;
    uint32_t win_mask;       /* rows - 1 */
    /* rotated byte windows (rt__tile_windows8), or NULL: row b holds the
     * entries b .. b+15 less win8_base, entry e in byte e & 15 */
    const uint8_t *win8;
    uint32_t win8_mask;      /* rows - 1 */
    int32_t win8_base;       /* the smallest profile value */
    /* rotated 64-byte windows (rt__tile_windows64: the VBMI kernels' profile
     * sums, `wide_tiles` in their table), or NULL: row b holds the entries
     * b .. b+63 less win8_base, entry e in byte e & 63 */
    const uint8_t *win64;
    uint32_t win64_mask;     /* rows - 1 */
    /* rotated 16-lane windows (rt__tile_windows16: the VBMI kernels' height
     * sums, as `win64`), or NULL: row b holds the packed entries b .. b+15
     * with entry e in lane e & 15 */
    const int32_t *win16p;
    uint32_t win16p_mask;    /* rows - 1 */
    /* height_store only: nonzero when the output is large enough that
     * streaming stores pay (used where aligned for them; `finish` orders them) */
    int stream;
    /* prof_at of the wide variants only: 16-lane windows (rt__point_win16),
     * or NULL */
    const int32_t *win16;
    uint32_t win16_mask;     /* rows - 1 */
    /* prof_at of the AVX2 variant: plain eight-lane windows
     * (rt__point_win8), or NULL */
    const int32_t *winp;
    uint32_t winp_mask;      /* rows - 1 */
    /* a kernel's tables kept from tile to tile of one block on one thread,
     * or NULL: RT_TILE_CACHE_BYTES of memory from malloc whose first int
     * was 0 when the block began (what the kernels keep there is theirs:
     * terrain_avx2.h's strided tables of coarse steps) */
    void *cache;
} rt_tile_args;

/* six slots of tables (terrain_avx2.h's aw_sx_cache, which asserts it fits) */
#define RT_TILE_CACHE_BYTES ((size_t)6 * 33280 + 64)

/* Rotated windows: at most RT_WIN_ROWS rows of 8 packed entries,
 * pack(e) = P[e & mask] << 16 | (uint16_t)(P[(e+1) & mask] - P[e & mask]),
 * so one vpermd/tbl by the index q picks P[q] and P[q+1] - P[q] for every
 * q of a window [b, b+8).  Needs every P and difference within int16. */
#define RT_WIN_ROWS 512
/* Fills win (RT_WIN_ROWS * 8 entries); returns the row count - 1 (the mask
 * to apply to a window base), or -1 when the profile does not fit. */
int rt__tile_windows(const int32_t *iprof, uint32_t len, int32_t *win);
/* The same with rows of 16 packed entries (a vpermd of 16 lanes): fills
 * win16p (RT_WIN_ROWS * 16 entries); returns as rt__tile_windows. */
int rt__tile_windows16(const int32_t *iprof, uint32_t len, int32_t *win16p);

/* Rotated byte windows, for the profile-sum passes (16 or 32 columns a
 * lookup): at most RT_WIN8_ROWS rows of 16 bytes, row b holding
 * P[e & mask] - base for e in [b, b+16) in byte e & 15, base = min P.  Fills
 * win8 and *base; returns the row count - 1, or -1 when the profile spans
 * more than 255 or is longer than RT_WIN8_ROWS. */
#define RT_WIN8_ROWS 512
int rt__tile_windows8(const int32_t *iprof, uint32_t len, uint8_t *win8, int32_t *base);

/* The same with rows of 64 bytes (one vpermb a lookup of 64 columns): at
 * most RT_WIN8_ROWS rows, row b holding P[e & mask] - base for e in
 * [b, b+64) in byte e & 63.  Fills win64 (RT_WIN8_ROWS * 64 bytes, base as
 * rt__tile_windows8 finds it); returns the row count - 1, or -1 as
 * rt__tile_windows8. */
int rt__tile_windows64(const int32_t *iprof, uint32_t len, uint8_t *win64);

/* A row of a height grid by the point path's double arithmetic (any step):
 * x = x0 + (double)(c0 + c) * step for c in [0, nx), y fixed. */
typedef struct rt_point_row {
    const rt_terrain *t;
    const int32_t *win;      /* rotated windows of the (integer) profile, or NULL */
    uint32_t win_mask;
    double x0, step, y;
    int64_t c0, nx;
    uint32_t n;              /* directions */
    double *out;
    /* double windows of the profile (rt__point_dwin), or NULL */
    const double *dwin;
    uint32_t dwin_mask;
    /* the wide variants: eight-lane double windows (rt__point_dwin8), or NULL */
    const double *dwin8;
    uint32_t dwin8_mask;
    /* scratch kept from row to row of one block (x does not depend on the
     * row): fl(A*2^-7 * x) of every direction and column, filled by the
     * first row of a kernel that uses it (*ax_ready set); or NULL */
    double *ax;
    size_t ax_cap;           /* its length in doubles */
    int *ax_ready;
    /* two-entry double windows (rt__point_dwin2), or NULL */
    const double *dwin2;
    uint32_t dwin2_mask;
    /* out is far larger than the caches: streaming stores pay (the wide
     * rows use them on the aligned part; `finish` orders them) */
    int stream;
    /* rt__point_fma_min of the profile: a row whose every j has |j| >= it
     * may add p0 + jfrac*d by one fused multiply-add; 0: never */
    double fma_min;
    /* the intercepts of the eight-lane windows (rt__point_cwin8), or NULL:
     * an integer profile's (the wide variants' two-row heights) */
    const double *cwin8;
} rt_point_row;

/* The smallest |j| (a power of two) from which jfrac*d is exact for every
 * d = fl(P[(e+1) & mask] - P[e & mask]) of the profile, so that the seed's
 * fl(p0 + fl(jfrac*d)) is fma(jfrac, d, p0): with 2^k <= |j| < 2^(k+1),
 * jfrac = j - floor(j) is a multiple of 2^(k-52) below 1, an integer m <
 * 2^(52-k) times 2^(k-52); d = D*2^t with D odd, |D| < 2^b; m*D < 2^(52-k+b)
 * fits a double's 53 bits when b <= k + 1.  So 2^(b-1), b the most
 * significant bits of any d (the classic profile: b = 3, |j| >= 4).  0 (never)
 * when that is not below 2^30 (the rows' bound on |j|), or some d is not
 * finite or is nonzero below 2^-900 (the product could lose bits below the
 * normal range). */
double rt__point_fma_min(const double *profile, uint32_t len);

/* Double windows for the point path's height rows (any profile, any step):
 * row b (RT_DWIN_ROWS at most, 8 doubles, 64 bytes) holds in slot e & 3
 * P[e & mask] and in slot 4 + (e & 3) fl(P[(e+1) & mask] - P[e & mask]) for
 * e in [b, b+4), so one permute by e & 3 picks p0 and p1 - p0 of the seed.
 * Fills dwin; returns the row count - 1, or -1 when the profile is longer
 * than RT_DWIN_ROWS. */
#define RT_DWIN_ROWS 1024
int rt__point_dwin(const double *profile, uint32_t len, double *dwin);

/* The same for eight lanes (the wide variants' height rows): row b (16
 * doubles, 128 bytes) holds in slot e & 7 P[e & mask] and in slot 8 + (e & 7)
 * fl(P[(e+1) & mask] - P[e & mask]) for e in [b, b+8).  Returns the row
 * count - 1, or -1 when the profile is longer than RT_DWIN8_ROWS. */
#define RT_DWIN8_ROWS 1024
int rt__point_dwin8(const double *profile, uint32_t len, double *dwin8);

/* The intercepts of those windows, for an integer profile: row b (8
 * doubles, 64 bytes) holds in slot e & 7 c(e) = P[e & mask] - e*D[e & mask]
 * for e in [b, b+8) (e not reduced by the mask: up to rows + 6), D =
 * P[(e+1) & mask] - P[e & mask].  With every P an integer below 2^20 in
 * magnitude every such value is an exact integer, and so is P - K*D for any
 * |K| <= 2^31: the window of an absolute index K = e + M (M a multiple of
 * the row count) has intercepts c(e) - M*D, one exact fused multiply-add.
 * Fills cwin8 (RT_DWIN8_ROWS * 8); returns the row count - 1 (as
 * rt__point_dwin8), or -1 when some P is not such an integer or the
 * profile is longer than RT_DWIN8_ROWS. */
int rt__point_cwin8(const double *profile, uint32_t len, double *cwin8);

/* The same for two entries (the AVX2 height rows where four columns span at
 * most two): row b (4 doubles, 32 bytes) holds in slot e & 1 P[e & mask] and
 * in slot 2 + (e & 1) fl(P[(e+1) & mask] - P[e & mask]) for e in [b, b+2).
 * Returns the row count - 1, or -1 when the profile is longer than
 * RT_DWIN2_ROWS. */
#define RT_DWIN2_ROWS 1024
int rt__point_dwin2(const double *profile, uint32_t len, double *dwin2);

/* Rotated windows of 16 plain int32 entries (the wide variants' profile
 * sums): row b (64 bytes) holds P[e & mask] in lane e & 15 for e in
 * [b, b+16).  Returns the row count - 1, or -1 when the profile is longer
 * than RT_WIN16_ROWS. */
#define RT_WIN16_ROWS 1024
int rt__point_win16(const int32_t *iprof, uint32_t len, int32_t *win16);
/* The same of eight lanes (RT_WIN16_ROWS * 8 entries), for the AVX2 rows'
 * fixed-point profile sums (rt_point_prof.winp). */
int rt__point_win8(const int32_t *iprof, uint32_t len, int32_t *win8);

/* The profile sums of a tile of a terra row by the point path's double
 * arithmetic (any step and origin), for an integer profile:
 * x = x0 + (double)(c0 + c) * step for c in [0, nk), y fixed;
 * a[p][c] = the sum over i of P[floor(floor(A_i*x + B_i*y) / 128) & mask]
 * for the pairs (A1,B1), (A2,B2), (A3,B3) exactly as calcProf (SPEC 5) adds
 * them, and xr[c] = round_js(x).  The caller has checked that
 * |A_i*x + B_i*y| < 2^36 for every pair and |x| < 2^30 at every point, so
 * every quotient and round_js(x) converts to int32 exactly. */
typedef struct rt_point_prof {
    const rt_terrain *t;
    const int32_t *profile;  /* the profile as int32 */
    const int32_t *win;      /* rotated windows (rt__tile_windows), or NULL */
    uint32_t win_mask;
    double x0, step, y;
    int64_t c0;
    int nk;
    uint32_t n;              /* directions */
    int32_t *a[3];           /* the sums of the three pairs */
    int32_t *xr;             /* round_js(x) */
    /* the wide variants: 16-lane windows (rt__point_win16), or NULL */
    const int32_t *win16;
    uint32_t win16_mask;
    /* the tile's heights (mountains applied), or NULL: where all eight of
     * columns [8g, 8g+8) are below lake_height or lake_base, the kernel may
     * write 0 for their sums, which no classify pass reads for a lake or
     * mud column (terrain, height, depth and feature follow from the height
     * alone: SPEC 5's lake and mud come first and have no feature) */
    const double *ht;
    double lake_height, lake_base;
    /* scratch kept from row to row of one block (it depends on the
     * directions, the step and the column within the call only): the fixed
     * point products of the AVX2 rows (point_rows_avx2.h), fix_cap uint32,
     * filled by the first row that uses them (*fix_ready set); or NULL */
    uint32_t *fix;
    size_t fix_cap;          /* RT_POINT_FIX_WORDS(n, columns) */
    int *fix_ready;
    /* plain eight-lane windows (rt__point_win8) for the AVX2 rows'
     * fixed-point sums, or NULL */
    const int32_t *winp;
    uint32_t winp_mask;
    /* nonzero: xr already holds round_js(x) of these columns (the previous
     * row's, which x does not depend on); a kernel may leave it */
    int xr_ready;
    /* the vegetation sums' bounds (rt_veg_bounds.h), or NULL: where set, a
     * kernel may write to the lanes of a group any value the classify pass
     * takes as it takes their sums (the sums are read by nothing else) */
    const rt_veg_bounds *vb;
} rt_point_prof;

/* rt_point_prof.fix: the AVX2 rows take a row in chunks of RT_POINT_FIX_COLS
 * columns; `cols` columns (a multiple of 8) of n directions a pair take
 * RT_POINT_FIX_WORDS(n, cols) uint32 (point_rows_avx2.h's pq_fill has the
 * layout) */
#define RT_POINT_FIX_COLS 256
#define RT_POINT_FIX_WORDS(n, cols) \
    ((size_t)3 * (n) * (size_t)(cols) + (size_t)(cols) / 8 * (((size_t)3 * (n) + 7) & ~(size_t)7))

/* Kernels may write the int32 tile buffers up to nk rounded up to 8
 * (never beyond TILE), and read xr up to there: tile buffers hold TILE. */
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
    /* classify_bytes only: */
    const int32_t *hnum;        /* height numerators (no mountains) */
    double scale;               /* 2^-s */
    int32_t lake_lt, mud_lt;    /* a numerator h is lake when h < lake_lt, mud when < mud_lt */
    uint32_t fmask;             /* feature mask, below 2^25 */
    int32_t fp_i, fx_i, fc_i;   /* the feature codes */
    uint8_t *terrain, *feature; /* outputs; 0xff in feature marks a candidate */
    int32_t town_abs;           /* nonzero: the town test is on |a1| */
    /* classify_bytes and classify_out only: nonzero when the outputs are
     * large enough that streaming (non-temporal) stores pay; the kernel uses them where the
     * pointers are aligned for them, and `finish` orders them */
    int stream;
    /* classify_bytes only: bit k & 7 of cmask[k >> 3] set when column k is
     * a feature candidate (every group of the tile written), so that the
     * caller need not read the outputs back */
    uint8_t *cmask;
    /* classify_bytes with xr NULL: xr[k] * yr = xy0 + k * dxy (mod 2^32) */
    uint32_t xy0, dxy;
    /* classify_bytes: columns [0, k16) of a1, a2, a3 are in the 16-bit form
     * of prof16 (sum = off + u), the rest int32; 0 where there is no prof16 */
    int k16;
    int32_t off1, off2, off3;
    /* classify_out: nonzero when every |fa * xr * yr| of the tile is below
     * 2^53 and fmask, fp_i, fx_i, fc_i are set (below 2^25), so that the
     * kernel may take the feature values in integers as classify_bytes does
     * (a hint: the double arithmetic gives the same bits) */
    int int_feature;
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
    /* optional (NULL: not in this variant) */
    /* heights of a tile straight into the output: (double)num * scale */
    void (*height_store)(const rt_tile_args *, double scale, double *out);
    /* classify with integer feature values, straight into the outputs; for
     * tiles where |fa * xr * yr| < 2^53 (every product exact); returns
     * nonzero when some point is a feature candidate */
    int (*classify_bytes)(const rt_classify_args *);
    /* a height row by the point path's arithmetic (mountains not applied) */
    void (*height_row)(const rt_point_row *);
    /* profile sums for classify_bytes: columns [0, k16) in a 16-bit form of
     * the variant's own (sum = *off + u, u in [0, 2^15)), the rest int32;
     * returns k16 (a multiple of 32), 0 when all is int32 */
    int (*prof16)(const rt_tile_args *, int32_t *, int32_t *off);
    /* the profile sums and rounded x of a tile of a terra row by the point
     * path's arithmetic (NULL: not in this variant) */
    void (*prof_row)(const rt_point_prof *);
    /* nonzero: height_row, prof_row and prof_at read the wide windows
     * (dwin8, win16) where the caller provides them */
    int wide;
    /* optional: classify (its inputs, height and depth) with the terrain
     * codes straight into `terrain`, RT_NONE into `feature` and the
     * candidates into `cmask` (as classify_bytes: every group written);
     * returns nonzero when some column is a feature candidate */
    int (*classify_out)(const rt_classify_args *);
    /* optional: two height rows of a block (the second the row after the
     * first: the same columns and scratch, its own y and output), the same
     * doubles as height_row of each; NULL: height_row row by row */
    void (*height_row2)(const rt_point_row *, const rt_point_row *);
    /* nonzero: the tile passes read the wide windows (win64, win16p) where
     * the caller provides them */
    int wide_tiles;
} rt_tile_kernels;

/* The kernels of an rt_simd variant on this CPU (resolved with
 * rt_simd_resolve); `bytes` says whether a 256-byte profile is available,
 * which the VBMI kernels need. */
const rt_tile_kernels *rt__tile_kernels(int variant, int bytes);

#endif /* RT_TILE_H */
