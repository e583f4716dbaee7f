/*
 * relfterrain.h - public interface of the relfterrain C core.
 *
 * The Relf Terrain Generator (Graham Relf, The Forest, 1983-) computed point
 * by point, exactly as the JavaScript original computes it (see docs/SPEC.md in the
 * project's shared documents).  Plain C11, no Python headers.
 *
 * Conventions, for every function declared here:
 *  - Every exported symbol starts with rt_ (types rt_..., macros RT_...).
 *  - Outputs go to caller-owned buffers; nothing here allocates except the
 *    placed table (rt_placed_*), which says so.
 *  - Errors are an rt_status return value, never a print or an abort.  A
 *    function that fails has written nothing to its outputs (a call stopped
 *    by its poll, RT_ERR_INTERRUPTED: see "Interrupts" below).
 *  - Reentrant and thread-safe: there is no mutable global state.  Functions
 *    take `const` parameter structs and may run concurrently on the same
 *    struct, provided nobody modifies the struct (or the placed table it
 *    points to) meanwhile.
 *  - Arithmetic is IEEE-754 double in the order the seed writes it; the core
 *    must be compiled with -ffp-contract=off and without -ffast-math.
 */
#ifndef RELFTERRAIN_H
#define RELFTERRAIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RT_VERSION "0.1.0"

/* ------------------------------------------------------------------------ */
/* Status codes                                                             */
/* ------------------------------------------------------------------------ */

typedef enum rt_status {
    RT_OK = 0,
    RT_ERR_PROFILE_LENGTH,  /* profile length not a power of two in 1..RT_MAX_PROFILE */
    RT_ERR_PROFILE_VALUE,   /* a profile value is NaN or infinite */
    RT_ERR_VECTOR_LENGTH,   /* direction count outside 1..RT_MAX_DIRECTIONS */
    RT_ERR_VECTOR_VALUE,    /* a direction component outside +-RT_MAX_VECTOR */
    RT_ERR_PARAM,           /* another parameter is invalid (non-finite level...) */
    RT_ERR_SIZE,            /* a block dimension < 1, or the block is too large */
    RT_ERR_COORD,           /* a coordinate or step is non-finite, or step <= 0 */
    RT_ERR_NOMEM,           /* memory allocation failed */
    RT_ERR_PLACED_VALUE,    /* a placed value is not a valid terrain type or feature */
    RT_ERR_NULL,            /* a required pointer argument is NULL */
    RT_ERR_INTERRUPTED      /* the caller's poll (rt_poll) asked the call to stop */
} rt_status;

/* A static English description of a status code. Thread-safe. */
const char *rt_strerror(rt_status status);

/* ------------------------------------------------------------------------ */
/* Codes (the Java enums' ordinals)                                         */
/* ------------------------------------------------------------------------ */

typedef enum rt_terrain_type {
    RT_LAKE = 0, RT_TOWN, RT_GRASS, RT_MOOR, RT_WOOD, RT_THICKET, RT_ROAD,
    RT_MUD, RT_PATH, RT_STREAM, RT_MARSH, RT_SNOW,
    RT_QUARRY, /* SPEC 17: terrain00.js (2026) digs quarries into moorland */
    RT_TERRAIN_TYPE_COUNT
} rt_terrain_type;

typedef enum rt_feature {
    RT_NONE = 0, RT_MINE, RT_BOULDER, RT_ROOT, RT_WATERHOLE, RT_KNOLL, RT_X,
    RT_CONE, RT_ROCKET, RT_BUILDING,
    RT_PHONE, /* SPEC 17: terrain00.js's phone box, a placed feature allowed in towns */
    RT_FEATURE_COUNT
} rt_feature;

/* The enums' names as the seed spells them ("LAKE", ..., "MINE", ...);
 * NULL outside 0 .. COUNT-1.  Thread-safe, static strings. */
const char *rt_terrain_type_name(int code);
const char *rt_feature_name(int code);

/* ------------------------------------------------------------------------ */
/* Limits                                                                   */
/* ------------------------------------------------------------------------ */

#define RT_MAX_PROFILE    (1u << 24) /* longest profile accepted */
#define RT_MAX_DIRECTIONS 64         /* longest direction vectors */
#define RT_MAX_VECTOR     (1 << 20)  /* largest |component| of a direction vector */
#define RT_MAX_THREADS    256        /* more threads than this are capped to it */
/* Domain of exactness (SPEC 10): inside it every result equals the
 * JavaScript original bit for bit; outside it results are defined (no
 * undefined behaviour) but beyond the original's precision. */
#define RT_TERRAIN_DOMAIN 67108864.0 /* 2^26: |x|, |y| */
#define RT_GALAXY_DOMAIN  131072.0   /* 2^17: |x|, |y|, |z| */

/* ------------------------------------------------------------------------ */
/* Number semantics of the JavaScript original (SPEC 2)                     */
/* ------------------------------------------------------------------------ */

/* Math.round: floor(v), plus one if v - floor(v) >= 0.5. */
double rt_round_js(double v);
/* JavaScript ToInt32: truncate toward zero, reduce modulo 2^32 to a signed
 * 32-bit value; NaN and infinities give 0. */
int32_t rt_toint32(double v);

/* ------------------------------------------------------------------------ */
/* The placed table (SPEC 6)                                                */
/* ------------------------------------------------------------------------ */

/* A hash table from an integer ground point (x, y) to a terrain type or a
 * feature.  Values are encoded as one byte: RT_PLACED_TERRAIN(t) for a
 * terrain type, RT_PLACED_FEATURE(f) for a feature; 0 means "nothing". */
#define RT_PLACED_TERRAIN(t) ((uint8_t)(0x40u | (unsigned)(t)))
#define RT_PLACED_FEATURE(f) ((uint8_t)(0x80u | (unsigned)(f)))
#define RT_PLACED_IS_TERRAIN(v) (((v) & 0xC0u) == 0x40u)
#define RT_PLACED_IS_FEATURE(v) (((v) & 0xC0u) == 0x80u)
#define RT_PLACED_CODE(v) ((unsigned)(v) & 0x3Fu)

typedef struct rt_placed rt_placed;

/* Allocate an empty table (NULL when out of memory).  Free with rt_placed_free. */
rt_placed *rt_placed_new(void);
/* A deep copy (NULL when out of memory). */
rt_placed *rt_placed_clone(const rt_placed *p);
void rt_placed_free(rt_placed *p);
/* Set (x, y) to value (an RT_PLACED_* encoding); may allocate.
 * RT_ERR_PLACED_VALUE for an invalid encoding, RT_ERR_NOMEM. */
rt_status rt_placed_set(rt_placed *p, int64_t x, int64_t y, uint8_t value);
/* The value at (x, y), or 0. p may be NULL (an empty table). */
uint8_t rt_placed_get(const rt_placed *p, int64_t x, int64_t y);
/* Remove (x, y); returns 1 if something was there, else 0. */
int rt_placed_remove(rt_placed *p, int64_t x, int64_t y);
/* Remove every entry equal to value; returns how many were removed. */
int64_t rt_placed_remove_all(rt_placed *p, uint8_t value);
/* Number of entries. p may be NULL. */
int64_t rt_placed_count(const rt_placed *p);
/* Number of entries equal to value. p may be NULL. */
int64_t rt_placed_count_value(const rt_placed *p, uint8_t value);
/* Write up to cap entries into xs, ys, values (any may be NULL) in an
 * unspecified but stable order; returns the number written. */
int64_t rt_placed_items(const rt_placed *p, int64_t *xs, int64_t *ys,
                        uint8_t *values, int64_t cap);

/* ------------------------------------------------------------------------ */
/* Terrain parameters                                                       */
/* ------------------------------------------------------------------------ */

/* Indices into rt_terrain.vec: the eight direction vectors of SPEC 3. */
enum { RT_AH = 0, RT_BH, RT_A1, RT_B1, RT_A2, RT_B2, RT_A3, RT_B3, RT_VECTOR_COUNT };

typedef struct rt_terrain {
    const double *profile;   /* borrowed, profile_len values, must outlive use */
    uint32_t profile_len;    /* a power of two; the index mask is len - 1 */
    uint32_t directions;     /* N: the length of every direction vector */
    int32_t vec[RT_VECTOR_COUNT][RT_MAX_DIRECTIONS]; /* AH, BH, A1, ... B3 */
    double lake_base;        /* LAKE_HT0: 204 */
    double lake_height;      /* current lake level (rain raises it) */
    int mountains;           /* nonzero: apply mountain_base */
    double mountain_base;    /* above it z = base + dz*sqrt(dz) */
    int snow;                /* nonzero: ground above snow_height is SNOW */
    double snow_height;
    int with_paths;          /* paths where height(x,y) ~ height(x+4000,y+2000) */
    int wood_only;           /* no vegetation: all WOOD (features kept) */
    int bleak;               /* heights only: GRASS, no lakes, no features */
    /* Point features (SPEC 5): f = toint32(round(a*xr*yr/128)) & feature_mask. */
    uint32_t feature_mask;   /* 0xfff */
    uint32_t feature_point;  /* f giving MINE..ROOT: 4 */
    uint32_t feature_x;      /* f giving X (man-made): 8 */
    uint32_t feature_cone;   /* f giving CONE: 16 */
    uint32_t mine_below, boulder_below, waterhole_below, knoll_below; /* 32,128,160,200 */
    uint32_t x_below;        /* round(PI1000*xryr) & 0xff below this: X. 4 */
    uint32_t cone_below;     /* round(PI10000*xryr) & 0xff below this: CONE. 8 */
    /* Vegetation (SPEC 5), finite: TOWN if calcProf(A1,B1) < town_below (120);
     * else a2 = calcProf(A2,B2), a3 = calcProf(A3,B3): a2 < grass_below (255)
     * gives GRASS if a3 < open_below (255) else MOOR; otherwise THICKET if
     * a3 < thicket_below (200) else WOOD. */
    double town_below, grass_below, open_below, thicket_below;
    /* nonzero: the town test is on |calcProf(A1,B1)| (Pieces of Eight, whose
     * random profile is balanced around zero: SPEC 16); 0: as above */
    int town_abs;
    /* Paths (SPEC 13), finite: PATH where ht > lake_height and
     * |ht - height(x + path_dx, y + path_dy)| < path_tolerance (4000, 2000, 2). */
    double path_dx, path_dy, path_tolerance;
    /* The author's 2026 and 2024 variants (SPEC 17); the defaults keep SPEC 3-16. */
    int calc_prof_js;        /* nonzero: calcProf as the JavaScript, (toint32(v) >> 7) & mask */
    int rock;                /* nonzero: dry ground above rock_above is MUD (bare rock) */
    double rock_above;
    int quarries;            /* nonzero: MOOR with a2 < quarry_below, ht > quarry_min_height */
    double quarry_below;     /*   is QUARRY, quarry_depth lower (40; min height 254) */
    double quarry_depth, quarry_min_height;
    int path_raw;            /* nonzero: the path test against the raw calcHeight */
    int snow_keeps_feature;  /* nonzero: SNOW decided after the point features, kept */
    double pi10000;          /* pi*10000: the CONE test, tree selector, mines' open test */
    const rt_placed *placed; /* borrowed, may be NULL */
    int simd;                /* rt_simd variant of the grid kernels: RT_SIMD_AUTO */
} rt_terrain;

/* The seed's constants (SPEC 3), the one copy every generator uses. */
#define RT_CLASSIC_PROFILE_LEN 256
#define RT_CLASSIC_DIRECTIONS 5
/* The classic 1983 profile (RT_CLASSIC_PROFILE_LEN values). */
const double *rt_classic_profile(void);
/* A classic direction vector (RT_CLASSIC_DIRECTIONS values): which is one of
 * RT_AH .. RT_B3; NULL for any other value. */
const int32_t *rt_classic_vector(int which);
/* Fill *t with the classic parameters: classic profile and vectors, lake
 * base and height 204, no mountains, snow or paths, feature mask 0xfff. */
void rt_terrain_defaults(rt_terrain *t);
/* Validate a parameter struct.  Returns RT_ERR_PROFILE_LENGTH,
 * RT_ERR_PROFILE_VALUE, RT_ERR_VECTOR_LENGTH, RT_ERR_VECTOR_VALUE (with
 * *bad_vector set to the RT_AH.. index when bad_vector is not NULL) or
 * RT_ERR_PARAM. Every computing function validates too. */
rt_status rt_terrain_check(const rt_terrain *t, int *bad_vector);

/* ------------------------------------------------------------------------ */
/* Blocks of a grid                                                         */
/* ------------------------------------------------------------------------ */

/* A grid is (x0, y0, step): its point [r][c] is (x0 + c*step, y0 + r*step),
 * computed as exactly that double expression, row 0 southernmost.  A block is
 * the rows r0 .. r0+ny-1 and columns c0 .. c0+nx-1 of it; output element
 * [i][j] (row-major, nx per row) is grid point [r0+i][c0+j].  So a grid cut
 * into blocks in any way gives the same bits as the whole. */
typedef struct rt_block {
    double x0, y0, step;     /* finite; step > 0 */
    int64_t c0, r0;          /* >= 0 */
    int64_t nx, ny;          /* >= 1 */
} rt_block;

/* The per-point outputs of terra.  Any pointer may be NULL (not wanted). */
typedef struct rt_terra_out {
    double *height;          /* terra's height: the water surface on lakes */
    double *depth;           /* lake depth, 0 elsewhere */
    uint8_t *terrain;        /* rt_terrain_type */
    uint8_t *feature;        /* rt_feature */
    /* The ground (SPEC 4 calcHeight, with mountains): the height before terra
     * flattens lakes to their surface, raises placed terrain or digs quarries;
     * the same bits as rt_height_grid / rt_height_points, written in the same
     * pass.  Last member, so that initialisers of the four above leave it
     * NULL.  Written by rt_terra_grid and rt_terra_points only. */
    double *ground;
} rt_terra_out;

/* threads: how many threads to split the rows (or points) across; 0 or 1
 * computes on the calling thread.  Results are identical for every count. */

/* The grids allocate their scratch on the heap (about 33 KB a call, and
 * 28 KB per thread for rt_terra_grid), never much on the stack: they run in
 * threads with small stacks.  RT_ERR_NOMEM when it cannot be had, with
 * nothing written. */

/* Ground height (SPEC 4, with mountains when enabled) of a block. */
rt_status rt_height_grid(const rt_terrain *t, const rt_block *b, double *out,
                         int threads);
/* rt_height_grid's doubles rounded to nearest into float32 (rt_round_f32),
 * row by row through a row buffer of each thread's: the same floats as
 * rt_height_grid followed by rt_round_f32, without a double array. */
rt_status rt_height_grid_f32(const rt_terrain *t, const rt_block *b, float *out,
                             int threads);
/* doubles to float32, rounded to nearest (NumPy's astype); a value at or
 * beyond FLT_MAX by half an ulp (0x1.ffffffp127, a tie rounding up) gives
 * +-inf, spelled out so that no conversion leaves float's finite range. */
void rt_round_f32(float *dst, const double *src, int64_t n);
/* rt_terra_grid's outputs with the heights, depths and ground as float32
 * (rt_round_f32 of rt_terra_grid's doubles); any may be NULL */
typedef struct rt_terra_out32 {
    float *height;
    float *depth;
    uint8_t *terrain;
    uint8_t *feature;
    float *ground;
} rt_terra_out32;
/* rt_terra_grid with its doubles rounded to float32 row by row, through row
 * buffers of each thread's: the same floats and bytes as rt_terra_grid
 * followed by rt_round_f32, without double arrays. */
rt_status rt_terra_grid_f32(const rt_terrain *t, const rt_block *b, const rt_terra_out32 *out,
                            int threads);
/* terra() of every point of a block. */
rt_status rt_terra_grid(const rt_terrain *t, const rt_block *b,
                        const rt_terra_out *out, int threads);
/* Ground height at n arbitrary points (x[k], y[k]). */
rt_status rt_height_points(const rt_terrain *t, const double *x,
                           const double *y, int64_t n, double *out,
                           int threads);
/* terra() at n arbitrary points. */
rt_status rt_terra_points(const rt_terrain *t, const double *x,
                          const double *y, int64_t n, const rt_terra_out *out,
                          int threads);

/* Tree selector at the rounded points: toint32(round(pi10000*xr*yr)) & 3
 * (pi10000: rt_terrain.pi10000, Math.PI * 10000 by default). */
rt_status rt_tree_selector_points(double pi10000, const double *x, const double *y, int64_t n,
                                  uint8_t *out);
/* The tree's offset within its 1 m ground tile at the rounded points (the
 * seed: "a similar thing is done for the exact positions of trees within
 * the square tiles"; it gives no formula, so this is the project's): with
 * v = toint32(round(PI10000*xr*yr)) as for the selector (whose bits are
 * v & 3), dx = (((v >> 2) & 15) + 0.5)/16 - 0.5 and dy = (((v >> 6) & 15) +
 * 0.5)/16 - 0.5, in metres, within (-0.5, 0.5). */
rt_status rt_tree_offsets_points(double pi10000, const double *x, const double *y, int64_t n,
                                 double *dx, double *dy);
/* 1 if a building stands with its centre at integer point (xr, yr): xr and
 * yr multiples of 16, the point TOWN, and toint32(PI10000*xr*yr) & 0xf < 8. */
int rt_building_at(const rt_terrain *t, int64_t xr, int64_t yr);

/* ------------------------------------------------------------------------ */
/* SIMD variants                                                            */
/* ------------------------------------------------------------------------ */

/* The grid kernels come in variants per instruction set, all giving the same
 * bits.  rt_terrain.simd picks one: RT_SIMD_AUTO (the best the CPU has, found
 * at run time) or a named one (a variant the CPU lacks falls back to scalar). */
typedef enum rt_simd {
    RT_SIMD_AUTO = 0,
    RT_SIMD_SCALAR = 1, /* portable C */
    RT_SIMD_AVX2 = 2,   /* x86-64 with AVX2 */
    RT_SIMD_AVX512 = 3, /* x86-64 with AVX-512 F, BW, DQ, VL */
    RT_SIMD_AVX512VBMI = 4, /* and VBMI: in-register profile lookups (byte profiles) */
    RT_SIMD_NEON = 5,   /* AArch64 NEON (baseline there): tbl lookups (byte profiles) */
    RT_SIMD_COUNT
} rt_simd;

/* 1 if this build and this CPU can run the variant. Thread-safe. */
int rt_simd_supported(int variant);
/* (The CPU is examined once, on the first call, and the answer cached.) */
/* "auto", "scalar", "avx2", "avx512", "avx512vbmi"; NULL for an unknown value. */
const char *rt_simd_name(int variant);
/* The variant that `variant` runs as on this CPU (never RT_SIMD_AUTO). */
int rt_simd_resolve(int variant);

/* ------------------------------------------------------------------------ */
/* Interrupts                                                               */
/* ------------------------------------------------------------------------ */

/* Every function that can run long on big input takes a last argument
 * `const rt_poll *poll` (NULL, or fn NULL: no polling).  It calls
 * poll->fn(poll->ctx) once at the start, before writing anything, and then
 * about every 1 to 50 ms of work, ONLY on the thread that called it (never
 * on its worker threads) and with no lock held.  A nonzero return stops the
 * call: its worker threads stop at their next check (every chunk of rows or
 * points, and inside long rows), scratch is freed, and it returns
 * RT_ERR_INTERRUPTED once they have.  A poll that stops the call at its
 * first call leaves every output untouched; one that stops it later leaves
 * its outputs holding part of the result (a caller that must keep them
 * computes into scratch and copies on RT_OK: the Python binding does so for
 * out= arrays).  Polling never changes a result: a call that is not stopped
 * gives the same bits, with or without a poll, for every thread count.
 * Checking costs a relaxed atomic load per chunk of work, and the poll is
 * called only every few milliseconds of work: rate-limit expensive checks
 * in fn itself (the binding's looks at the clock first). */
typedef struct rt_poll {
    int (*fn)(void *ctx); /* nonzero: stop now */
    void *ctx;
} rt_poll;

/* Every building centre of the lattice (xs + 16 i, ys + 16 j), i < kx, j < ky
 * (xs, ys multiples of 16, all within +-2^40): rt_building_at of each point,
 * in rows south to north, each west to east, into xy (x, y a centre; the
 * first cap of them); *count how many there are (more than cap: only cap
 * written).  The poll is called between chunks of the lattice. */
rt_status rt_buildings_lattice(const rt_terrain *t, int64_t xs, int64_t ys, int64_t kx,
                               int64_t ky, int64_t *xy, int64_t cap, int64_t *count,
                               const rt_poll *poll);

/* ------------------------------------------------------------------------ */
/* Threads                                                                  */
/* ------------------------------------------------------------------------ */

/* Run fn(ctx, begin, end) over [0, n) in chunks shared out among `threads`
 * threads (the calling thread one of them; at most RT_MAX_THREADS).  Each index is covered exactly
 * once; fn must write only the outputs of its own indices.  Falls back to
 * fewer threads if a thread cannot be started; the work done is the same. */
typedef void (*rt_range_fn)(void *ctx, int64_t begin, int64_t end);
void rt_parallel_for(int threads, int64_t n, rt_range_fn fn, void *ctx);

/* ------------------------------------------------------------------------ */
/* Streams (SPEC 7)                                                         */
/* ------------------------------------------------------------------------ */

/* Streams run from the ponds (WATERHOLE features) downhill.  Heights are
 * terra heights (the water surface on lakes; they never depend on the
 * placed table).  Which ponds exist is decided by terra with the placed
 * table, its STREAM and MARSH entries ignored, so marking streams changes
 * neither ponds nor routes. */

/* The points one step scans around the current point, dx outer ascending,
 * dy inner ascending over -5..5: */
typedef enum rt_neighbourhood {
    RT_CROSS = 0,  /* dx != 0 and dy != 0: 100 points (every surviving version of the code) */
    RT_SQUARE = 1, /* every point but the centre: 120 points */
    RT_CIRCLE = 2, /* dx*dx + dy*dy <= 25 but not the centre: 80 points (2025 text) */
    RT_NEIGHBOURHOOD_COUNT
} rt_neighbourhood;

/* How a route ended. */
typedef enum rt_stream_end {
    RT_END_LAKE = 0,   /* reached a point at or below the lake height */
    RT_END_HOLLOW = 1, /* no scanned point strictly lower */
    RT_END_LIMIT = 2   /* the next step would pass max_length, or max_points reached */
} rt_stream_end;

typedef struct rt_stream_opts {
    int neighbourhood;   /* rt_neighbourhood: RT_CROSS */
    int capped;          /* nonzero: max_length applies (1) */
    double max_length;   /* the seed's cap: 300 m; finite, >= 0 */
    int64_t max_points;  /* a route stops after this many points: 100000 (>= 1) */
} rt_stream_opts;

/* The largest |coordinate| of a route's start: routes then stay far inside
 * int64 and every coordinate is an exact double. */
#define RT_STREAM_COORD_LIMIT ((int64_t)1 << 50)
/* A route is a stream when it has more than this many points. */
#define RT_STREAM_MIN_POINTS 10

void rt_stream_opts_defaults(rt_stream_opts *o);
/* The most points a route can have under these options (each step is at
 * least 1 m long): min(max_points, floor(max_length) + 1) when capped. */
int64_t rt_stream_max_route(const rt_stream_opts *o);

/* One route from the integer point (x, y).  xy: room for `cap` points
 * (2*cap int64, x then y); *n receives the number of points of the route
 * and the first min(*n, cap) are written (cap >= rt_stream_max_route(o)
 * always suffices).  *length is the sum of the step lengths (hypot, in
 * order), *end an rt_stream_end, *marsh 1 when the route is a stream (more
 * than 10 points, SPEC 7), ends in a hollow
 * and its last point's terrain (terra with t->placed) is neither TOWN nor
 * ROAD.  Heights are read from a cache of 32 x 32 m tiles (8 KB each)
 * allocated as the route reaches them; without memory the point path serves
 * them (the same bits).  RT_ERR_PARAM: bad options; RT_ERR_COORD: |x| or |y|
 * beyond RT_STREAM_COORD_LIMIT.  poll: see "Interrupts" (an uncapped route
 * of max_points points reads 100 heights a step). */
rt_status rt_trace_stream(const rt_terrain *t, int64_t x, int64_t y, const rt_stream_opts *o,
                          int64_t *xy, int64_t cap, int64_t *n, double *length, int *end,
                          int *marsh, const rt_poll *poll);

/* The ponds of a block of integer points x0..x0+nx-1, y0..y0+ny-1 in
 * row-major order (y ascending, then x): *count receives their number and
 * the first min(*count, cap) are written to xy (2 int64 each; xy may be
 * NULL when cap is 0).  Computed in bands of rows with `threads` threads;
 * allocates a band of scratch (RT_ERR_NOMEM).  The work is the block's
 * nx*ny points, whatever the count: poll, see "Interrupts". */
rt_status rt_stream_ponds(const rt_terrain *t, int64_t x0, int64_t y0, int64_t nx, int64_t ny,
                          int64_t *xy, int64_t cap, int64_t *count, int threads,
                          const rt_poll *poll);

/* The routes from n sources (src: 2n int64), threaded across sources; the
 * results are those of rt_trace_stream for each, whatever the thread count.
 * Route k goes to xy + 2*k*slot (room for `slot` points, slot >=
 * rt_stream_max_route(o)); npts[k], length[k], end[k], marsh[k] as above.
 * The routes share one cache of heights (tiles computed once, by the grid
 * path, whichever thread reads them first).  poll: see "Interrupts". */
rt_status rt_trace_streams(const rt_terrain *t, const int64_t *src, int64_t n,
                           const rt_stream_opts *o, int64_t *xy, int64_t slot, int64_t *npts,
                           double *length, uint8_t *end, uint8_t *marsh, int threads,
                           const rt_poll *poll);

/* Soak one route into `table` (SPEC 7): the 3x3 square around each
 * interpolated point becomes a placed STREAM unless something is placed
 * there or the terrain is TOWN; then, for a route ending in a hollow whose
 * last point's terrain (terra with the table as it now is) is neither TOWN
 * nor ROAD, the 9x9 square around the last point becomes MARSH by the same
 * rule.  t->placed is ignored (the table is what is read and written).
 * *added (may be NULL) receives the number of entries placed.  RT_ERR_NOMEM
 * leaves the table with part of the route marked. */
rt_status rt_mark_route(const rt_terrain *t, rt_placed *table, const int64_t *xy, int64_t n,
                        int end, int64_t *added);

/* Mark n routes in order (route k: xy + 2*offsets[k], offsets[k+1] -
 * offsets[k] points; ends[k]); whenever the table's STREAM and MARSH entries
 * then exceed `limit`, every STREAM and MARSH entry is removed and that route
 * is marked again (the seed's 300,000 rule).  *added and *restarts (may be
 * NULL) receive the entries placed and the number of restarts.  poll: see
 * "Interrupts"; it is asked before each route, so a stop (like RT_ERR_NOMEM)
 * leaves the table with the routes marked so far: mark a copy
 * (rt_placed_clone) and keep it only on RT_OK for all or nothing, as the
 * Python binding does. */
rt_status rt_mark_routes(const rt_terrain *t, rt_placed *table, const int64_t *xy,
                         const int64_t *offsets, const uint8_t *ends, int64_t n, int64_t limit,
                         int64_t *added, int64_t *restarts, const rt_poll *poll);

/* ------------------------------------------------------------------------ */
/* Contours (SPEC 15)                                                       */
/* ------------------------------------------------------------------------ */

/* The pixels of CONREC's contours of a grid z (ny rows of nx values, row 0
 * south): each cell cut into four triangles meeting at its centre (the mean
 * of its corners, summed in the order (r,c), (r,c+1), (r+1,c+1), (r+1,c)),
 * every level k*interval crossing a triangle's edge (a < level <= b) giving
 * a vertex by linear interpolation, and mask[rr*nx + cc] set at the nearest
 * pixel (rr, cc) = (floor(row + 0.5), floor(col + 0.5)): 2 where k is a
 * multiple of index_every (> 0), else 1.  The same pixels as the NumPy
 * transcription in relfterrain/maps.py.  *crossings (may be NULL) receives
 * the number of vertices.  RT_ERR_SIZE: more than max_crossings vertices
 * (the mask is then incomplete); RT_ERR_PARAM: interval not a positive
 * finite number, index_every < 0 or a non-finite z.  poll: see "Interrupts". */
rt_status rt_contour_mask(const double *z, int64_t nx, int64_t ny, double interval,
                          int index_every, int64_t max_crossings, uint8_t *mask,
                          int64_t *crossings, const rt_poll *poll);
/* rt_contour_mask on up to `threads` threads (bands of rows; the same pixels
 * and the same status whatever the count). */
rt_status rt_contour_mask_threads(const double *z, int64_t nx, int64_t ny, double interval,
                                  int index_every, int64_t max_crossings, uint8_t *mask,
                                  int64_t *crossings, int threads, const rt_poll *poll);
/* rt_contour_mask_threads with the kernel of SIMD variant `simd` (rt_simd:
 * RT_SIMD_AUTO the best this CPU runs; a variant it cannot run falls back to
 * the portable one).  Every variant sets the same pixels.  RT_ERR_PARAM: simd
 * not an rt_simd code. */
rt_status rt_contour_mask_variant(const double *z, int64_t nx, int64_t ny, double interval,
                                  int index_every, int64_t max_crossings, uint8_t *mask,
                                  int64_t *crossings, int threads, int simd,
                                  const rt_poll *poll);

/* The map's ground colours (SPEC 15): img (ny, nx, 3), north up (image row i
 * is codes row ny-1-i, grids being south first), pixel = table[code] (ntable
 * rows of 3 bytes); counts (may be NULL) receives how many of each code
 * 0..255 there are (256 entries).  RT_ERR_PARAM: a code >= ntable (its pixel
 * black). */
rt_status rt_map_colours(const uint8_t *codes, int64_t nx, int64_t ny, const uint8_t *table,
                         int ntable, uint8_t *img, int64_t *counts);
/* Paint the contour lines of a mask (rt_contour_mask's: south first, 1
 * contour, 2 index) into an RGB image (ny, nx, 3) north up: every pixel
 * with a mask value and the pixels up to width-1 (index_width-1 for 2)
 * below, right and diagonally below-right of it (in the image) take rgb.
 * maps.py's _thicken, grown towards the south-east. */
void rt_paint_lines(const uint8_t *mask, int64_t nx, int64_t ny, uint8_t *img,
                    const uint8_t rgb[3], int width, int index_width);

/* images.c: byte passes over the maps' pictures.
 * How many of the n bytes at d are non-zero (0 for NULL or n <= 0). */
int64_t rt_count_nonzero_u8(const uint8_t *d, int64_t n);
/* The flat indices of the non-zero bytes of d[0..n), in order, into out,
 * at most cap of them (numpy.flatnonzero); returns how many were written. */
int64_t rt_flat_nonzero_u8(const uint8_t *d, int64_t n, int64_t *out, int64_t cap);
/* The palette of an RGB image of `total` pixels (3 bytes each): idx[k] the
 * palette index of pixel k, colours (room for 256 x 3 bytes) the colours in
 * order of first appearance, *ncolours how many.  RT_ERR_PARAM when there
 * are more than 256 (idx then partly written, *ncolours 257). */
rt_status rt_palette_index(const uint8_t *rgb, int64_t total, uint8_t *idx, uint8_t *colours,
                           int *ncolours);
/* The bytes of one PNG scanline of w palette pixels at `bits` (4 or 8) a
 * pixel, its filter byte included; -1 for another bits or w < 0. */
int64_t rt_palette_row_bytes(int64_t w, int bits);
/* The PNG scanlines (filter 0, none) of palette indices idx (h rows of w)
 * at `bits` a pixel into rows (h x rt_palette_row_bytes(w, bits)): at 4,
 * two pixels a byte, the first in the high nibble (indices below 16). */
rt_status rt_palette_rows(const uint8_t *idx, int64_t w, int64_t h, int bits, uint8_t *rows);

/* ------------------------------------------------------------------------ */
/* Classic fractal generators (seeds 001 and 002)                           */
/* ------------------------------------------------------------------------ */

/* The generators an analyst compares the Relf terrain with: Paul Martz's
 * midpoint displacement, diamond-square and cloud texture (seed 002) and the
 * Scorched Earth style limited-random and circle-hill heightmaps (seed 001).
 *
 * Randomness: there is no random state here.  Every function takes the
 * uniform numbers in [0, 1) it consumes as a caller-supplied array, in the
 * order each function documents, so the same numbers give the same bits on
 * every IEEE-754 platform (the Python layer draws them in bulk from
 * numpy.random.default_rng(seed)).  Only +, -, *, /, floor and comparisons
 * are used, plus rt_classic_cos below, which is itself made of those: no
 * libm function whose last bit varies between C libraries.
 *
 * All functions are reentrant and thread-safe; they write only their output
 * buffers and write nothing when they fail.  midpoint displacement,
 * diamond-square (whose grid is in and out: stopped, it holds part of the
 * passes), limited random and circle hill take a poll (see "Interrupts");
 * clouds, one pass of a few operations a value, does not. */

/* Largest iteration counts accepted: the 1-D line has 2^it + 1 points, the
 * 2-D square (2^it + 1)^2; both keep every index inside int64. */
#define RT_MAX_MIDPOINT_ITERATIONS 60
#define RT_MAX_DIAMOND_ITERATIONS  30

/* cos(x) for |x| <= 3.5 (a little beyond pi, so that a rounded
 * Math.PI * d / r^2 is always inside), NaN elsewhere; within 2 ulp of the
 * true value and the same bits on every IEEE-754 platform.  Used by
 * circle-hill for the seed's Math.cos(Math.PI * d / r^2). */
double rt_classic_cos(double x);

/* One-dimensional midpoint displacement (seed 002).
 * out: 2^iterations + 1 doubles.  out[0] = out[n-1] = 0; pass p = 0 ..
 * iterations-1 sets each midpoint i of the segments of length
 * s = 2^(iterations-p) (i = s/2, s/2 + s, ...) to
 *     (out[i - s/2] + out[i + s/2]) / 2 + r_p * (2*u[i] - 1)
 * with r_0 = scale and r_{p+1} = r_p * ratio (the seed's 2^-H).
 * u: n uniforms in [0, 1), one per point, indexed by the point (u[0] and
 * u[n-1] are not used).
 * RT_ERR_PARAM: iterations outside 0..RT_MAX_MIDPOINT_ITERATIONS, or scale,
 * ratio not finite.  RT_ERR_NULL: u or out NULL. */
rt_status rt_midpoint_displacement(int iterations, double scale, double ratio,
                                   const double *u, double *out, const rt_poll *poll);

/* The diamond-square algorithm (seed 002), n = 2^iterations + 1.
 * grid: n*n doubles, row-major, in and out.  On input NaN marks a point to
 * generate; any other value is a seed value kept as it is (the seed's
 * "Other Methods": only unset points are assigned).  Corners still NaN get
 * `corner`.
 * Pass p (square side s = 2^(iterations-p), h = s/2, random range r_p as in
 * rt_midpoint_displacement) does
 *   the diamond step: every square centre still NaN becomes
 *     (((tl + tr) + bl) + br) * 0.25 + r_p * (2*u[point] - 1);
 *   the square step: every diamond centre still NaN becomes the average of
 *     its diamond corners plus r_p * (2*u[point] - 1): with wrap
 *     (((up + down) + left) + right) * 0.25; without, 0.0 plus each corner
 *     that exists in the order up, down, left, right, times 0.25 (4 corners)
 *     or divided by 3 (3 corners, on the edge).
 * wrap != 0: the surface is a torus of period n-1.  A square-step point on
 * the edge takes its missing corner from the opposite side, only rows and
 * columns 0..n-2 are generated and row/column n-1 is a copy of row/column 0,
 * so opposite edges are identical and the surface tiles.  Seed values are
 * first made consistent: of two opposite edge points (or the four corners)
 * a NaN takes the other's value; two different values are RT_ERR_PARAM.
 * u: n*n uniforms in [0, 1), one per point, u[i*n + j] for point [i][j]
 * (points not generated leave theirs unused).
 * RT_ERR_PARAM: iterations outside 0..RT_MAX_DIAMOND_ITERATIONS, scale,
 * ratio or corner not finite, an infinite seed value, or inconsistent seed
 * edges with wrap.  RT_ERR_NULL: u or grid NULL. */
rt_status rt_diamond_square(int iterations, double scale, double ratio,
                            double corner, int wrap, const double *u,
                            double *grid, const rt_poll *poll);

/* Cloud opacity (seed 002, "Cloudy Skies"): the height array clamped to
 * clear sky (0) at and below `clear` and full cloud (1) at and above
 * `cloudy`, linear in between; NaN stays NaN.  clear == cloudy is a hard
 * threshold.  out may equal heights (in place).
 * RT_ERR_PARAM: clear or cloudy not finite, or clear > cloudy.
 * RT_ERR_SIZE: n < 0.  RT_ERR_NULL: heights or out NULL with n > 0. */
rt_status rt_clouds(const double *heights, int64_t n, double clear,
                    double cloudy, double *out);

/* Limited-random heightmap (seed 001), every cell of the array.
 * out: height*width doubles, out[j*width + i] the seed's heightMap(i, j);
 * cells are visited as the seed does, i (0..width-1) outer, j inner:
 *   a = i == 0 ? u_start[j] * height          (the seed's literal
 *                                               Math.random() * height)
 *     : j == 0 ? out(i-1, 0)
 *     : (out(i-1, j) + out(i, j-1)) / 2;
 *   out(i, j) = max(minimum, min(a + max_increase * (u_step[j*width+i] - 0.5),
 *                                maximum)).
 * u_start: height uniforms; u_step: height*width uniforms, row-major.
 * RT_ERR_SIZE: width or height < 1 or the array too large.
 * RT_ERR_PARAM: a parameter not finite, max_increase < 0 or
 * minimum > maximum.  RT_ERR_NULL: a NULL pointer. */
rt_status rt_limited_random(int64_t width, int64_t height, double max_increase,
                            double minimum, double maximum,
                            const double *u_start, const double *u_step,
                            double *out, const rt_poll *poll);

/* Circle-hill heightmap (seed 001), every cell of the array, at a cost of
 * O(n_circles * radius^2).  out: height*width doubles, out[k*width + j] the
 * seed's heightMap(j, k), first filled with `base`.  Circle c has centre
 * x = floor(u[2c] * width), y = floor(u[2c+1] * height); every cell within
 * d = (x-j)*(x-j) + (y-k)*(y-k) < radius*radius becomes
 *   min(out + (hill_height / 2) * (1 + rt_classic_cos(PI * d / r2)), maximum)
 * in the seed's order of operations, circles in order c = 0 .. n_circles-1.
 * Only the cells of the circle's bounding square are visited; the result
 * is the seed's full scan, bit for bit.
 * RT_ERR_SIZE: width or height < 1 or the array too large; n_circles < 0.
 * RT_ERR_PARAM: radius not finite or <= 0, hill_height, maximum or base not
 * finite.  RT_ERR_NULL: a NULL pointer (u may be NULL when n_circles = 0). */
rt_status rt_circle_hill(int64_t width, int64_t height, int64_t n_circles,
                         double radius, double hill_height, double maximum,
                         double base, const double *u, double *out, const rt_poll *poll);

/* ------------------------------------------------------------------------ */
/* Galaxy: stars scattered through 3-D space (SPEC 9)                       */
/* ------------------------------------------------------------------------ */

/* calcStar(x, y, z) of the seed at integer points (light years):
 *   a   = sum_i PROF[toint32((S[i]*x + T[i]*y + U[i]*z) * (1/128)) & mask]
 *   xyz = x*y*z
 *   f   = toint32(round_js(a * xyz * (1/128))) & 0xffff   (f_mask)
 * A star exists iff f == 127 (f_value) and 1 <= (xyz & 0xff) <= 7; then
 *   magnitude = MIN + RANGE * (xyz & 0xff) / 7,
 *   planets   = (xyz & 0xf00) >> 8    (0..15),
 *   colour    = (xyz & 0xf000) >> 12  (0..15),
 * the bit fields taken from the low 32 bits of xyz (two's complement).
 *
 * Exactness: every function evaluates the seed's double arithmetic (the
 * "point path"), or, where that arithmetic is provably exact (every product
 * and sum below 2^52 in magnitude, which holds inside the domain
 * |x|, |y|, |z| <= RT_GALAXY_DOMAIN with directions up to RT_MAX_VECTOR),
 * the same values in int64 (the "block path").  Both give the same bits;
 * outside the domain the results are those of the seed's double arithmetic
 * at the double nearest each coordinate: defined, but beyond the original's
 * precision (SPEC 10). */

#define RT_STAR_PLANETS 16           /* planets 0..15 */
#define RT_STAR_COLOURS 16           /* colour index 0..15 */

typedef struct rt_galaxy {
    const double *profile;   /* borrowed, profile_len values, must outlive use */
    uint32_t profile_len;    /* a power of two; the index mask is len - 1 */
    uint32_t directions;     /* N: the length of S, T and U */
    int32_t s[RT_MAX_DIRECTIONS]; /* S: the x factors (default A1 of SPEC 3) */
    int32_t t[RT_MAX_DIRECTIONS]; /* T: the y factors (default B1) */
    int32_t u[RT_MAX_DIRECTIONS]; /* U: the z factors (default B2) */
    double min_magnitude;    /* MIN_MAGNITUDE: 1.0, finite */
    double magnitude_range;  /* MAGNITUDE_RANGE: 5.0, finite */
    /* The star test f == f_value with f = toint32(round(...)) & f_mask:
     * the seed's 0xffff and 127.  A smaller mask makes a denser galaxy
     * (f_value must have no bit outside f_mask). */
    uint32_t f_mask;
    uint32_t f_value;
} rt_galaxy;

/* One star.  The layout is fixed (40 bytes: offsets 0, 8, 16, 24, 32, 33)
 * so that arrays of it can be viewed as a NumPy structured array. */
typedef struct rt_star {
    int64_t x, y, z;         /* position, light years */
    double magnitude;        /* MIN + RANGE * (xyz & 0xff) / 7 */
    uint8_t planets;         /* 0..15 */
    uint8_t colour;          /* 0..15 */
} rt_star;

/* A block of space: the integer points x0 .. x0+nx-1, y0 .. y0+ny-1,
 * z0 .. z0+nz-1.  Valid when nx, ny, nz >= 1, the last point of each axis
 * fits in int64 and nx*ny*nz <= INT64_MAX; otherwise RT_ERR_SIZE. */
typedef struct rt_block3 {
    int64_t x0, y0, z0;
    int64_t nx, ny, nz;
} rt_block3;

/* Fill *g with the defaults of SPEC 9: the classic profile, S = A1,
 * T = B1, U = B2, MIN = 1.0, RANGE = 5.0. */
void rt_galaxy_defaults(rt_galaxy *g);
/* Validate a parameter struct: RT_ERR_NULL, RT_ERR_PROFILE_LENGTH,
 * RT_ERR_PROFILE_VALUE, RT_ERR_VECTOR_LENGTH, RT_ERR_VECTOR_VALUE (with
 * *bad_vector set to 0, 1, 2 for S, T, U when bad_vector is not NULL) or
 * RT_ERR_PARAM (a non-finite magnitude parameter, or f_value & ~f_mask). */
rt_status rt_galaxy_check(const rt_galaxy *g, int *bad_vector);

/* calcStar at one point, always by the seed's double arithmetic.  *found is
 * set to 1 and *out filled when a star is there, else *found = 0 and *out
 * is untouched.  out may be NULL when only *found is wanted. */
rt_status rt_galaxy_star(const rt_galaxy *g, int64_t x, int64_t y, int64_t z,
                         rt_star *out, int *found);

/* The census of a block: census[planets * RT_STAR_COLOURS + colour] is the
 * number of stars with that number of planets and colour (the array is
 * overwritten, 256 values).  Allocates a small scratch array per call
 * (RT_ERR_NOMEM). */
rt_status rt_galaxy_census(const rt_galaxy *g, const rt_block3 *b,
                           int64_t census[RT_STAR_PLANETS * RT_STAR_COLOURS],
                           int threads);
/* The number of stars in a block. */
rt_status rt_galaxy_count(const rt_galaxy *g, const rt_block3 *b, int64_t *count,
                          int threads);
/* hist[k]: the number of stars with k planets, k = 0..15. */
rt_status rt_galaxy_planet_counts(const rt_galaxy *g, const rt_block3 *b,
                                  int64_t hist[RT_STAR_PLANETS], int threads);
/* The catalogue of a block, sorted by (x, y, z).  The protocol is that of
 * snprintf: *count receives the number of stars in the block, and the first
 * min(*count, cap) of them are written to out (out may be NULL when cap is
 * 0).  So a caller whose cap was too small knows the exact size to retry
 * with.  Stars found are gathered in scratch memory first (a few bytes per
 * star per thread; RT_ERR_NOMEM if it cannot be had, with nothing written). */
rt_status rt_galaxy_stars(const rt_galaxy *g, const rt_block3 *b, rt_star *out,
                          int64_t cap, int64_t *count, int threads);

/* ------------------------------------------------------------------------ */
/* findGoodSite (SPEC 12)                                                   */
/* ------------------------------------------------------------------------ */

/* A good site is an integer point s where, with terra and the placed table:
 *  (a) the terrain is not LAKE and terra height - lake_height >= min_height;
 *  (b) the terrain is GRASS, MOOR or WOOD;
 *  (c) there is no feature;
 *  (d) no MINE at any integer q with |q - s| < mine_distance (Euclidean);
 *  (e) no building (a 12 m square centred on an rt_building_at point) at a
 *      Euclidean distance < building_distance from s;
 *  (f) every integer q with |q - s| <= clearance is GRASS, MOOR or WOOD.
 * The search (SPEC 12): s = (round_js(x), round_js(y)); while the ground
 * height (rt_height_points) at s minus lake_height is below min_height, s
 * moves by (-100, +100), at most max_loops times; then the spiral: candidate
 * 0 is s, ring k = 1, 2, ... has radius r = 8k and 8k candidates
 *   theta = a0 + 2.0 * pi * j / (8 * k)    (left to right, in doubles)
 *   (round_js(s.x + r * rt_sin(theta)), round_js(s.y + r * rt_cos(theta)))
 * for j = 0 .. 8k-1; at most max_loops candidates (duplicates count); the
 * first meeting (a)-(f) is the site.  Otherwise, with may_alter, the first
 * candidate meeting (a) is made good by painting a disc (every integer
 * point with dx*dx + dy*dy <= R*R, R = max(patch_radius, clearance)) of
 * its own terrain (GRASS unless that is GRASS, MOOR or WOOD) into the
 * placed table; without, the first candidate meeting the most criteria is
 * reported with ok = 0.
 * A painted disc hides features and makes (b), (c) and (f) true and keeps
 * (a); (d) and (e) hold after painting when mine_distance <= R and
 * building_distance + 6*sqrt(2) <= R (the defaults: 7, 10 and R = 20). */

#define RT_SITE_MAX_DISTANCE 256.0   /* largest mine_distance, building_distance,
                                        clearance and patch_radius (metres) */
#define RT_SITE_MAX_LOOPS 10000000   /* largest max_loops */
#define RT_SITE_MAX_COORD 1125899906842624.0 /* 2^50: largest |x|, |y| of a start */

typedef enum rt_site_reason {
    RT_SITE_FOUND = 0,  /* ok: a good site (or a painted one, altered = 1) */
    RT_SITE_DRY = 1,    /* the dry-land search made max_loops jumps and s was
                           still below min_height above the lake */
    RT_SITE_SPIRAL = 2  /* no spiral candidate met every criterion (and, with
                           may_alter, none met (a)) */
} rt_site_reason;

typedef struct rt_site_options {
    double min_height;        /* (a), metres above lake_height: 10; finite */
    double mine_distance;     /* (d): 7; 0 .. RT_SITE_MAX_DISTANCE */
    double building_distance; /* (e): 10; 0 .. RT_SITE_MAX_DISTANCE */
    double clearance;         /* (f): 10; 0 .. RT_SITE_MAX_DISTANCE */
    int64_t max_loops;        /* jumps and candidates: 1000; 0 .. RT_SITE_MAX_LOOPS */
    int may_alter;            /* nonzero: paint a disc when no candidate is good */
    double patch_radius;      /* 20; 0 .. RT_SITE_MAX_DISTANCE */
} rt_site_options;

/* The result of one search. */
typedef struct rt_site {
    int64_t x, y;          /* the site; on failure the last dry-land point
                              (RT_SITE_DRY) or the first candidate meeting the
                              most criteria (RT_SITE_SPIRAL; s when max_loops = 0) */
    int64_t tries;         /* spiral candidates examined (0 for RT_SITE_DRY) */
    int64_t jumps;         /* dry-land jumps made */
    int64_t centre_x, centre_y; /* s after the dry-land search */
    uint8_t ok;            /* 1: (x, y) is good (after painting, if altered) */
    uint8_t altered;       /* 1: a disc must be painted (rt_site_paint) */
    uint8_t reason;        /* rt_site_reason */
    uint8_t criteria;      /* bit i: criterion (a)+i holds at (x, y) (before any
                              painting); 0 when nothing was examined */
    uint8_t patch;         /* altered: the RT_PLACED_TERRAIN value to paint; else 0 */
    uint8_t reserved[3];   /* 0; makes the layout fixed (48 bytes, no padding) */
} rt_site;

/* Fill *o with the defaults above (may_alter 0). */
void rt_site_defaults(rt_site_options *o);
/* Validate options: RT_ERR_NULL or RT_ERR_PARAM. */
rt_status rt_site_check(const rt_site_options *o);

/* findGoodSite from (x, y) with starting angle a0 (radians, finite).  Reads
 * t (and t->placed) only: with may_alter and altered = 1 in the result, the
 * disc is NOT painted here; call rt_site_paint on the table to make the
 * site good.  Deterministic; reentrant.  Allocates a cache of terra
 * results (about 2.3 KB per 16 x 16 m tile visited).
 * Errors: the parameter checks of rt_terrain_check (without the profile
 * scan); RT_ERR_PARAM (options, a0 not finite); RT_ERR_COORD (x, y not
 * finite or beyond RT_SITE_MAX_COORD); RT_ERR_NULL; RT_ERR_NOMEM.
 * poll: see "Interrupts" (max_loops up to 10^7 jumps and candidates);
 * *out is written only on RT_OK. */
rt_status rt_find_good_site(const rt_terrain *t, double x, double y, double a0,
                            const rt_site_options *o, rt_site *out, const rt_poll *poll);

/* Paint the disc of an altered result into table (nothing to do when
 * site->altered is 0): every integer point with dx*dx + dy*dy <= R*R,
 * R = max(o->patch_radius, o->clearance), around (site->x, site->y) becomes
 * site->patch (entries already there are overwritten).  All or nothing: on
 * RT_ERR_NOMEM the table is as it was.  RT_ERR_NULL, RT_ERR_PARAM (options,
 * or a patch value that is not a placed terrain). */
rt_status rt_site_paint(rt_placed *table, const rt_site *site, const rt_site_options *o);

/* findGoodSite from n starts (x[k], y[k]) with angles a0[k] (a0 may be NULL:
 * all 0), out[k] = rt_find_good_site of that start.
 * Without may_alter the starts are independent and split among `threads`
 * threads (same results for every count).  With may_alter they are
 * searched in order on one thread, each seeing the discs painted for the
 * earlier ones (painted into a private copy of t->placed made on the first
 * paint; the caller's table is never modified).  The searches share a
 * cache of terra tiles per thread (up to about 10 MB each, computed by the
 * grid path).  To alter the world, call
 * rt_site_paint(table, &out[k], o) for k = 0 .. n-1 in order: the table then
 * equals what the searches saw.  A failed call writes nothing, a stopped
 * one (poll, see "Interrupts") neither: results are copied to out at the end.
 * Errors: those of rt_find_good_site (every start checked before any
 * search); RT_ERR_SIZE for n < 0. */
rt_status rt_find_good_sites(const rt_terrain *t, const double *x, const double *y,
                             const double *a0, int64_t n, const rt_site_options *o,
                             rt_site *out, int threads, const rt_poll *poll);
/* Terrain evolving in time (SPEC 14)                                       */
/* ------------------------------------------------------------------------ */

/* height(x, y, t): calcHeight with a third vector T (tvec, t->directions
 * finite values with |T[i]| <= RT_MAX_VECTOR) for the time t (seconds):
 *   j = (AH[i]*x + BH[i]*y + T[i]*t) * (1/128)   (left to right)
 * then floor, interpolation and sum as SPEC 4, mountains applied.  At
 * t = +-0 every value equals rt_height_grid's / rt_height_points' (a T[i]*0
 * term can only change the sign of a zero sum, which changes no result).
 * The seed's double arithmetic, point by point.  RT_ERR_VECTOR_VALUE: a bad
 * T; RT_ERR_COORD: t (or a coordinate) not finite; else as rt_height_grid. */
rt_status rt_height_time_grid(const rt_terrain *t, const double *tvec, const rt_block *b,
                              double time, double *out, int threads);
/* The same at n points (x[k], y[k]) at times time[k]. */
rt_status rt_height_time_points(const rt_terrain *t, const double *tvec, const double *x,
                                const double *y, const double *time, int64_t n, double *out,
                                int threads);

/* ------------------------------------------------------------------------ */
/* Nebulae (SPEC 14)                                                        */
/* ------------------------------------------------------------------------ */

/* A 3-D grid: point [k][r][c] (row-major, nx fastest) is
 * (x0 + c*step, y0 + r*step, z0 + k*step), each that double expression.
 * Valid when nx, ny, nz >= 1, nx*ny*nz*16 fits in int64, every coordinate
 * finite and step > 0 (RT_ERR_SIZE, RT_ERR_COORD). */
typedef struct rt_grid3 {
    double x0, y0, z0, step;
    int64_t nx, ny, nz;
} rt_grid3;
rt_status rt_check_grid3(const rt_grid3 *g);

/* Gas density at (x, y, z): calcHeight with three vectors,
 *   j = (a[i]*x + b[i]*y + c[i]*z) * (1/128), floor, interpolate, sum;
 * gas where density > threshold, its amount density - threshold. */
typedef struct rt_nebula {
    const double *profile;   /* borrowed, profile_len finite values */
    uint32_t profile_len;    /* a power of two, 1..RT_MAX_PROFILE */
    uint32_t directions;     /* 1..RT_MAX_DIRECTIONS */
    double a[RT_MAX_DIRECTIONS], b[RT_MAX_DIRECTIONS], c[RT_MAX_DIRECTIONS]; /* |v| <= RT_MAX_VECTOR */
    double threshold;        /* finite */
} rt_nebula;

/* The classic profile, a = AH, b = BH, c = the planet's CH, threshold 450. */
void rt_nebula_defaults(rt_nebula *nb);
/* RT_ERR_NULL, RT_ERR_PROFILE_LENGTH, RT_ERR_PROFILE_VALUE,
 * RT_ERR_VECTOR_LENGTH, RT_ERR_VECTOR_VALUE (*bad_vector 0, 1, 2 for a, b,
 * c when not NULL), RT_ERR_PARAM (threshold not finite). */
rt_status rt_nebula_check(const rt_nebula *nb, int *bad_vector);

/* Outputs of rt_nebula_grid; any may be NULL (not wanted). */
typedef struct rt_nebula_out {
    double *density;   /* nx*ny*nz float64 */
    float *density32;  /* nx*ny*nz float32: (float) of the double density */
    uint8_t *gas;      /* 1 where density > threshold, else 0 */
    double *amount;    /* one value: the sum over the block of
                        * density - threshold where positive, summed along
                        * each row (x ascending) from 0.0, then the row sums
                        * in row order (y, then z) from 0.0: the same for
                        * every thread count.  Allocates ny*nz doubles of
                        * scratch (RT_ERR_NOMEM, nothing written). */
} rt_nebula_out;

/* Density, gas and amount of a block; integer blocks with integer vectors
 * inside |coordinate| <= RT_TERRAIN_DOMAIN take an exact integer path (the
 * same bits).  poll: see "Interrupts" (*amount is written only on RT_OK). */
rt_status rt_nebula_grid(const rt_nebula *nb, const rt_grid3 *g, const rt_nebula_out *out,
                         int threads, const rt_poll *poll);
/* Density at n points (x[k], y[k], z[k]); RT_ERR_COORD for a non-finite one. */
rt_status rt_nebula_points(const rt_nebula *nb, const double *x, const double *y,
                           const double *z, int64_t n, double *out, int threads);

/* ------------------------------------------------------------------------ */
/* Planets (SPEC 14)                                                        */
/* ------------------------------------------------------------------------ */

/* Indices into rt_planet.vec: (A, B, C) for height and the three calcProf sets. */
enum {
    RT_PLANET_AH = 0, RT_PLANET_BH, RT_PLANET_CH, RT_PLANET_A1, RT_PLANET_B1, RT_PLANET_C1,
    RT_PLANET_A2, RT_PLANET_B2, RT_PLANET_C2, RT_PLANET_A3, RT_PLANET_B3, RT_PLANET_C3,
    RT_PLANET_VECTOR_COUNT
};

/* The default third vectors (the project's choice; see relfterrain/planet.py
 * for why): CH, C1, C2, C3. */
#define RT_PLANET_CH_DEFAULT 11, -21, 25, -14, 19
#define RT_PLANET_C1_DEFAULT 37, -29, 12, -50, 27
#define RT_PLANET_C2_DEFAULT -31, 44, -19, 52, 20
#define RT_PLANET_C3_DEFAULT 40, -25, 58, 17, -47

/* Code of the map's points outside the planet's disc (terrain). */
#define RT_MAP_OUTSIDE 255

typedef struct rt_planet {
    const double *profile;   /* borrowed, profile_len finite values */
    uint32_t profile_len;
    uint32_t directions;
    double vec[RT_PLANET_VECTOR_COUNT][RT_MAX_DIRECTIONS]; /* |v| <= RT_MAX_VECTOR */
    double radius;           /* metres, 0 < radius <= RT_TERRAIN_DOMAIN */
    double lake_base;        /* 204: below it (and above the lake) MUD */
    double lake_height;      /* 204 */
    uint32_t feature_mask;   /* 0xfff */
    /* borrowed, may be NULL: keys (xr, rt_planet_key_y(yr, zr)) */
    const rt_placed *placed;
    int simd; /* rt_simd variant of rt_planet_map's rows: RT_SIMD_AUTO (the same bits in every one) */
} rt_planet;

/* One of the default third vectors (RT_CLASSIC_DIRECTIONS values) for
 * which = RT_PLANET_CH, RT_PLANET_C1, RT_PLANET_C2, RT_PLANET_C3; else NULL. */
const int32_t *rt_planet_third_vector(int which);
/* The classic profile and vectors, the default third vectors, radius 10 km,
 * lake base and height 204, feature mask 0xfff, no placed table, simd
 * RT_SIMD_AUTO. */
void rt_planet_defaults(rt_planet *p);
/* RT_ERR_NULL, profile and vector errors (*bad_vector an RT_PLANET_ index),
 * RT_ERR_PARAM (radius not in (0, RT_TERRAIN_DOMAIN], a level not finite). */
rt_status rt_planet_check(const rt_planet *p, int *bad_vector);
/* The placed table's second key for the rounded point (xr, yr, zr): the
 * table is keyed (xr, rt_planet_key_y(yr, zr)), so zr's sign counts. */
int64_t rt_planet_key_y(int64_t yr, int64_t zr);
/* The Cartesian point of (lat, lon) in degrees on a sphere of radius R:
 * phi = lat*(pi/180), lam = lon*(pi/180), x = R*cos(phi)*cos(lam),
 * y = R*cos(phi)*sin(lam), z = R*sin(phi) (rt_sin/rt_cos, left to right). */
void rt_planet_xyz(double radius, double lat, double lon, double *x, double *y, double *z);
/* Ground height (calcHeight with CH) at n points (lat[k], lon[k]), degrees. */
rt_status rt_planet_height_points(const rt_planet *p, const double *lat, const double *lon,
                                  int64_t n, double *out, int threads);
/* terra at n points: SPEC 5's order and classic thresholds with
 * three-vector sums (placed table; lake; mud; town < 120; the point feature
 * of planet.c's comment; vegetation 255 / 255 / 200). */
rt_status rt_planet_terra_points(const rt_planet *p, const double *lat, const double *lon,
                                 int64_t n, const rt_terra_out *out, int threads);
/* An orthographic map centred on (lat0, lon0), any point, poles included:
 * with c the centre's unit vector, e = (-sin lam0, cos lam0, 0) east and
 * n = (-sin phi0 cos lam0, -sin phi0 sin lam0, cos phi0) north, pixel
 * [r][c] (row 0 south) is the tangent-plane point u = (c - (nx-1)/2)*step,
 * w = (r - (ny-1)/2)*step (metres) and the sphere point
 *   x = u*ex + w*nx + d*cx, y = u*ey + w*ny + d*cy, z = w*nz + d*cz,
 *   d = sqrt(R*R - u*u - w*w)
 * on the visible hemisphere; where R*R - u*u - w*w < 0 the pixel is
 * outside: height and depth NaN, terrain RT_MAP_OUTSIDE, feature NONE,
 * visible 0.  visible (nx*ny bytes) may be NULL.  RT_ERR_SIZE: nx, ny < 1
 * or nx*ny > 2^40; RT_ERR_COORD: lat0, lon0 or step not finite, step <= 0.
 * poll: see "Interrupts" (the point functions above take none: a caller
 * splits big arrays of points, as the binding does). */
rt_status rt_planet_map(const rt_planet *p, double lat0, double lon0, int64_t nx, int64_t ny,
                        double step, const rt_terra_out *out, uint8_t *visible, int threads,
                        const rt_poll *poll);

/* ------------------------------------------------------------------------ */
/* Islands (Skylands, SPEC 14 and 16)                                       */
/* ------------------------------------------------------------------------ */

/* Largest block rt_label_islands takes: labels are int32. */
#define RT_MAX_ISLAND_POINTS 2147483646LL

/* Label the 4-neighbour connected components of land (nonzero bytes) of an
 * nx by ny row-major block.  labels (nx*ny int32): 0 where land is 0, else
 * 1 .. *count, numbered in the order of each component's first point (row
 * 0 first, column 0 first).  counts (capacity nx*ny + 1; the first
 * *count + 1 are written): counts[0] the points that are not land,
 * counts[k] the points of component k.  Allocates about 12 bytes per point
 * of scratch (RT_ERR_NOMEM, nothing written).  RT_ERR_SIZE: nx or ny < 1,
 * or nx*ny > RT_MAX_ISLAND_POINTS.  RT_ERR_NULL: a NULL pointer.
 * Reentrant; single-threaded.  poll: see "Interrupts"; counts and *count
 * are written only on RT_OK. */
rt_status rt_label_islands(const uint8_t *land, int64_t nx, int64_t ny, int32_t *labels,
                           int64_t *counts, int64_t *count, const rt_poll *poll);

/* ------------------------------------------------------------------------ */
/* fdlibm sin and cos                                                       */
/* ------------------------------------------------------------------------ */

/* sin(x) and cos(x) exactly as fdlibm 5.3 computes them, which is what
 * JavaScript's Math.sin and Math.cos give in V8 (node, Chrome): the same bits
 * on every IEEE-754 platform, whatever its libm.  Error < 1 ulp; every finite
 * x is reduced exactly (the large-argument path of __kernel_rem_pio2).
 * sin(+-0) = +-0, cos(+-0) = 1; a NaN or infinite x gives the quiet NaN
 * 0x7ff8000000000000.  Pure functions: thread-safe, no state, no errno. */
double rt_sin(double x);
double rt_cos(double x);

/* ------------------------------------------------------------------------ */
/* Roads (SPEC 13)                                                          */
/* ------------------------------------------------------------------------ */

/* A road: a polyline of integer ground points, paved `half_width` metres
 * either side of its centre line.  Paving follows the author's code: for
 * each segment a -> b with d = hypot(b - a) (computed as sqrt(dx*dx + dy*dy),
 * the same double: the sum is exact inside the limits below), for
 * k = 0 .. floor(d) the point
 *     q = (round_js(a.x + k*(b.x-a.x)/d), round_js(a.y + k*(b.y-a.y)/d))
 * (each expression in that order, IEEE doubles) and every point of the
 * (2w+1) x (2w+1) square around q (w = half_width) becomes ROAD.  A
 * zero-length segment (a == b) gives q = a alone.
 * The bridge check: segment i bridges the points q of it (repeats counted)
 * whose terra height (placed table honoured) is <= t->lake_base; a road with
 * a segment that bridges more than max_bridge of them is refused. */
#define RT_MAX_ROAD_HALF_WIDTH 1024          /* 0 .. this */
#define RT_MAX_ROAD_SEGMENT    (1 << 25)     /* |b.x - a.x|, |b.y - a.y| at most this */

typedef struct rt_road {
    const int64_t *x, *y;    /* n points, each |v| <= RT_TERRAIN_DOMAIN */
    int64_t n;               /* >= 2 */
    int half_width;          /* w, 0 .. RT_MAX_ROAD_HALF_WIDTH (the author's 2) */
    int64_t max_bridge;      /* the author's 60; < 0: no bridge check */
    /* what a bridged point is: 0 (SPEC 13) terra height <= lake_base; 1 terra
     * kind LAKE (water over the ground, as the game draws it: a point of an
     * earlier road or on dry ground exactly at lake_base is not water) */
    int bridge_lake;
} rt_road;

/* Validate a road: RT_ERR_NULL (x or y NULL), RT_ERR_SIZE (n < 2),
 * RT_ERR_PARAM (half_width out of range), RT_ERR_COORD (a point outside the
 * domain or a segment longer than RT_MAX_ROAD_SEGMENT in x or y).  On
 * success *bound (if not NULL) receives an upper bound of the number of cells
 * rt_road_cells can write before removing duplicates: the sum over the
 * segments of s^2 + floor(d) * min(s^2, 4s) with s = 2w + 1 (the first point's
 * square, then what each next point's square adds to its predecessor's: the
 * points of a segment step at most 2 in x and in y); RT_ERR_SIZE if that
 * exceeds INT64_MAX / 16. */
rt_status rt_road_check(const rt_road *r, int64_t *bound);

/* The cells a road paves and its bridge check, as one computation.
 *  - bridge (may be NULL): n - 1 values, bridge[i] the number of points q of
 *    segment i whose terra height is <= t->lake_base.  Written on success.
 *  - *bad_segment: the first segment i with bridge[i] > max_bridge (the road
 *    is refused: *count = 0 and nothing is written to cells), or -1.
 *  - cells: 2 * cap int64 (x, y pairs).  cap must be at least the bound of
 *    rt_road_check (the buffer is the sorting scratch too), else
 *    RT_ERR_SIZE.  On acceptance the distinct cells, sorted by (x, y), are
 *    written and *count receives their number.
 * Allocates scratch of about one byte per point q (RT_ERR_NOMEM).  The bridge
 * check runs on `threads` threads; results do not depend on the count.
 * Errors: those of rt_road_check, RT_ERR_NULL (t, cells, count or
 * bad_segment NULL), the parameter errors of rt_terrain_check.  Reentrant.
 * poll: see "Interrupts" (the cells are sorted in runs that are then merged,
 * through a buffer of 16 bytes a cell: RT_ERR_NOMEM); count, bridge and
 * bad_segment are written only on RT_OK. */
rt_status rt_road_cells(const rt_terrain *t, const rt_road *r, int64_t *cells, int64_t cap,
                        int64_t *count, int64_t *bridge, int64_t *bad_segment, int threads,
                        const rt_poll *poll);

/* ------------------------------------------------------------------------ */
/* Mines, caverns and cave mouths (SPEC 8)                                  */
/* ------------------------------------------------------------------------ */

/* The mine levels under the terrain: square cells of cell_size metres
 * centred on multiples of cell_size.  The point (x, y) lies in the cell
 * (cs*round_js(x/cs), cs*round_js(y/cs)); the integer points of the cell
 * (xg, yg) are xg - cs/2 .. xg - cs/2 + cs - 1 (cs/2 rounded down; for 16:
 * xg-8 .. xg+7, the seed's loop), likewise in y.
 *  - open above (level 0 only): terra has feature MINE at one of the cell's
 *    integer points (placed table honoured);
 *  - open on level k: open above (k = 0), or frac(u) > threshold with
 *    frac(u) = u - floor(u) and, left to right in doubles,
 *      classic: u = PI10000 * xg * yg * (k + 1)
 *      sincos:  u = PI10000 * rt_sin(xg) * rt_cos(yg) * (k + 1)
 *    (the factor (k + 1) = 1 on level 0 changes nothing).
 * Open cells connect to their 4 orthogonal neighbours on a level, and to the
 * same cell on the adjacent levels.
 * Every function below taking a poll honours it (see "Interrupts"); the
 * shaft scan's work is cs*cs points a cell, cave mouths' every point of the
 * block, however few the results. */

typedef enum rt_mine_variant {
    RT_MINES_CLASSIC = 0, /* The Forest: u = PI10000 * xg * yg */
    RT_MINES_SINCOS = 1,  /* My Terrain: u = PI10000 * sin(xg) * cos(yg) */
    RT_MINES_VARIANT_COUNT
} rt_mine_variant;

#define RT_MAX_CELL_SIZE 4096          /* largest cell_size */
#define RT_MAX_MINE_LEVELS 4096        /* most levels */
#define RT_MINES_LIMIT 1125899906842624 /* 2^50: largest |cell centre| */
#define RT_MAX_LABEL_CELLS 2147483647  /* most cells labelled in one call (int32 labels) */

typedef struct rt_mines {
    int variant;        /* rt_mine_variant */
    double threshold;   /* 0 <= threshold < 1: open if frac(u) > threshold (0.4) */
    int64_t cell_size;  /* 1 .. RT_MAX_CELL_SIZE metres (16) */
    int64_t levels;     /* 1 .. RT_MAX_MINE_LEVELS (1) */
    double pi10000;     /* the PI10000 of u: Math.PI * 10000 (SPEC 17: a terrain's pi10000) */
} rt_mines;

/* A block of cells: cell [r][c] is centred at (xg0 + c*cs, yg0 + r*cs).
 * xg0 and yg0 must be multiples of cs and every centre within
 * +-RT_MINES_LIMIT (RT_ERR_COORD); nx, ny >= 1 (RT_ERR_SIZE). */
typedef struct rt_cells {
    int64_t xg0, yg0;
    int64_t nx, ny;
} rt_cells;

/* The seed's mines: classic, threshold 0.4, cell size 16, one level. */
void rt_mines_defaults(rt_mines *m);
/* RT_ERR_NULL, or RT_ERR_PARAM for a variant, threshold, cell size or level
 * count out of range. */
rt_status rt_mines_check(const rt_mines *m);

/* above[r*nx + c] = 1 if cell [r][c] is open above (a mineshaft), else 0.
 * Cost: the cs*cs integer points of every cell.  Inside the domain of
 * exactness (|x|, |y| <= RT_TERRAIN_DOMAIN) only points whose generated
 * feature arithmetic (SPEC 5) gives MINE, and points with a placed entry,
 * are confirmed by terra; elsewhere terra runs at every point. */
rt_status rt_mines_above(const rt_mines *m, const rt_terrain *t, const rt_cells *b,
                         uint8_t *above, int threads, const rt_poll *poll);

/* open[(k*ny + r)*nx + c] = 1 if cell [r][c] is open on level k (k = 0 ..
 * levels-1), else 0.  above: the block's rt_mines_above result (level 0 is
 * open there), or NULL to leave the shafts out (the frac(u) test alone). */
rt_status rt_mines_open(const rt_mines *m, const rt_cells *b, const uint8_t *above,
                        uint8_t *open, int threads, const rt_poll *poll);

/* Connected components of the nonzero cells of open (nz*ny*nx bytes, index
 * (k*ny + r)*nx + c): 4 neighbours in a layer plus the same cell in the
 * layers above and below.  labels (same size) receives 0 for a zero cell and
 * 1 .. *count for the components, numbered in the order of each component's
 * first cell (lowest index), so the labelling is unique.  Union-find in bands
 * of rows across threads; the result does not depend on the thread count.
 * RT_ERR_SIZE: a dimension < 1 or more than RT_MAX_LABEL_CELLS cells. */
rt_status rt_label_cells(int64_t nz, int64_t ny, int64_t nx, const uint8_t *open,
                         int32_t *labels, int64_t *count, int threads, const rt_poll *poll);

/* Per component of a labelling (count components, n cells):
 * sizes[l] = cells labelled l (l = 0 .. count; sizes[0] the zero cells);
 * flagged[l] (may be NULL) = cells labelled l whose flags byte is nonzero,
 * flags covering the first nflags cells (0 <= nflags <= n; e.g. the shafts
 * of level 0).  RT_ERR_PARAM for a label outside 0..count. */
rt_status rt_label_census(const int32_t *labels, int64_t n, int64_t count,
                          const uint8_t *flags, int64_t nflags, int64_t *sizes,
                          int64_t *flagged, const rt_poll *poll);

/* The steepness of the ground at an integer point: the largest
 * |h(q) - h(p)| / |q - p| over its 8 integer neighbours q (|q - p| = 1 or
 * sqrt(2)), h the ground height (SPEC 4, mountains applied). */
double rt_ground_slope(const rt_terrain *t, int64_t x, int64_t y);

/* The MINE features (terra, placed table honoured) among the integer points
 * x0 .. x0+nx-1, y0 .. y0+ny-1 whose ground slope exceeds `steepness`
 * (finite; a cave mouth, SPEC 8), in row-major order (y, then x).  The
 * protocol of snprintf: *count receives how many there are and the first
 * min(*count, cap) are written to xs, ys, slope (NULL allowed when cap is 0).
 * Allocates ny counters (RT_ERR_NOMEM).  RT_ERR_SIZE / RT_ERR_COORD for a
 * block with a point beyond +-RT_MINES_LIMIT. */
rt_status rt_cave_mouths(const rt_terrain *t, int64_t x0, int64_t y0, int64_t nx, int64_t ny,
                         double steepness, int64_t *xs, int64_t *ys, double *slope,
                         int64_t cap, int64_t *count, int threads, const rt_poll *poll);

/* Caverns: the floor is the ground height H, the roof
 * H(x*scale + dx, y*scale + dy) + dz (each coordinate computed in doubles
 * in that order); open space where roof > floor, of height roof - floor. */
typedef struct rt_caverns {
    double scale, dx, dy, dz; /* finite: 1, 64, 32, 0 */
} rt_caverns;
void rt_caverns_defaults(rt_caverns *c);
/* floor, roof and space (height of the open space, 0 where roof <= floor)
 * on a grid block (each may be NULL; nx*ny doubles, row-major).  The roof
 * takes the height grid path when its points form a grid again (checked
 * exactly), else the point path.  Allocates scratch when space is wanted
 * without floor or roof (RT_ERR_NOMEM).  RT_ERR_PARAM: a non-finite cavern
 * parameter. */
rt_status rt_caverns_grid(const rt_terrain *t, const rt_caverns *c, const rt_block *b,
                          double *floor_out, double *roof_out, double *space_out,
                          int threads);

#ifdef __cplusplus
}
#endif
#endif /* RELFTERRAIN_H */
