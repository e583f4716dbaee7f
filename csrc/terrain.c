/*
 * terrain.c - the classic Relf terrain: height (SPEC 4) and terra (SPEC 5-6).
 *
 * Two evaluation paths give the same bits:
 *  - the point path transcribes the seed's double arithmetic directly and
 *    serves arbitrary points and grids;
 *  - the block path serves grids whose origin and step are multiples of
 *    2^-m (m <= RT_MAX_DYADIC) inside the domain of exactness.  There every
 *    `A*x + B*y` of the seed is an exact double, so it is carried as the
 *    integer V = (A*x + B*y) * 2^m: the profile index is V >> (m+7) and the
 *    interpolation fraction the low m+7 bits, exactly as floor() and j - jint
 *    would give them, with no floating-point rounding to reproduce.
 *    For integer profiles (the classic one) the block path goes further: every
 *    floating-point step is then exact too, so tiles of a row are summed in
 *    integers by per-ISA kernels (simd/terrain_tile.h, simd/terrain_vbmi.h)
 *    and decided by a branch-free pass; see "Tile passes" below.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "relfterrain.h"
#include "rt_internal.h"
#include "rt_terra.h"
#include "rt_tile.h"

#if defined(__GNUC__)
#define RT_INLINE static inline __attribute__((always_inline))
#else
#define RT_INLINE static inline
#endif

void rt_terrain_defaults(rt_terrain *t)
{
    memset(t, 0, sizeof *t);
    t->profile = rt_classic_profile();
    t->profile_len = RT_CLASSIC_PROFILE_LEN;
    t->directions = RT_CLASSIC_DIRECTIONS;
    for (int v = 0; v < RT_VECTOR_COUNT; v++)
        for (int i = 0; i < RT_CLASSIC_DIRECTIONS; i++) t->vec[v][i] = rt_classic_vector(v)[i];
    t->lake_base = 204.0;
    t->lake_height = 204.0;
    t->feature_mask = 0xfff;
    t->feature_point = 4;
    t->feature_x = 8;
    t->feature_cone = 16;
    t->mine_below = 32;
    t->boulder_below = 128;
    t->waterhole_below = 160;
    t->knoll_below = 200;
    t->x_below = 4;
    t->cone_below = 8;
    t->town_below = 120.0;
    t->grass_below = 255.0;
    t->open_below = 255.0;
    t->thicket_below = 200.0;
    t->path_dx = 4000.0;
    t->path_dy = 2000.0;
    t->path_tolerance = 2.0;
    t->quarry_depth = 40.0;
    t->quarry_min_height = 254.0; /* lake_base + 50 */
    t->pi10000 = RT_PI10000;
}

/* Structure checks, cheap enough for every call. */
rt_status rt__terrain_check_shape(const rt_terrain *t, int *bad_vector)
{
    if (!t || !t->profile) return RT_ERR_NULL;
    uint32_t n = t->profile_len;
    if (n == 0 || n > RT_MAX_PROFILE || (n & (n - 1)) != 0) return RT_ERR_PROFILE_LENGTH;
    if (t->directions < 1 || t->directions > RT_MAX_DIRECTIONS) return RT_ERR_VECTOR_LENGTH;
    for (int v = 0; v < RT_VECTOR_COUNT; v++) {
        for (uint32_t i = 0; i < t->directions; i++) {
            int32_t c = t->vec[v][i];
            if (c > RT_MAX_VECTOR || c < -RT_MAX_VECTOR) {
                if (bad_vector) *bad_vector = v;
                return RT_ERR_VECTOR_VALUE;
            }
        }
    }
    if (!isfinite(t->lake_base) || !isfinite(t->lake_height)) return RT_ERR_PARAM;
    if (t->mountains && !isfinite(t->mountain_base)) return RT_ERR_PARAM;
    if (t->snow && !isfinite(t->snow_height)) return RT_ERR_PARAM;
    if (!isfinite(t->town_below) || !isfinite(t->grass_below) || !isfinite(t->open_below) ||
        !isfinite(t->thicket_below) || !isfinite(t->path_dx) || !isfinite(t->path_dy) ||
        !isfinite(t->path_tolerance))
        return RT_ERR_PARAM;
    if ((t->rock && !isfinite(t->rock_above)) || !isfinite(t->pi10000) ||
        (t->quarries && (!isfinite(t->quarry_below) || !isfinite(t->quarry_depth) ||
                         !isfinite(t->quarry_min_height))))
        return RT_ERR_PARAM;
    return RT_OK;
}

rt_status rt_terrain_check(const rt_terrain *t, int *bad_vector)
{
    rt_status s = rt__terrain_check_shape(t, bad_vector);
    if (s != RT_OK) return s;
    for (uint32_t k = 0; k < t->profile_len; k++)
        if (!isfinite(t->profile[k])) return RT_ERR_PROFILE_VALUE;
    return RT_OK;
}

/* ------------------------------------------------------------------------ */
/* The point path: the seed's arithmetic, operation for operation.          */
/* ------------------------------------------------------------------------ */

static inline double mountain(const rt_terrain *t, double ht)
{
    if (t->mountains && ht > t->mountain_base) {
        double dz = ht - t->mountain_base;
        ht = t->mountain_base + dz * sqrt(dz);
    }
    return ht;
}

/* calcHeight (SPEC 4) without the mountains. */
RT_INLINE double raw_height_xy(const rt_terrain *t, double x, double y, uint32_t n)
{
    const double *P = t->profile;
    const uint32_t mask = t->profile_len - 1;
    const int32_t *A = t->vec[RT_AH], *B = t->vec[RT_BH];
    double ht = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        double j = ((double)A[i] * x + (double)B[i] * y) * RT_RECIP128;
        double jint = rt__floor(j);
        double jfrac = j - jint;
        double p0 = P[rt__low32(jint) & mask];
        double p1 = P[rt__low32(jint + 1.0) & mask];
        ht += p0 + jfrac * (p1 - p0);
    }
    return ht;
}

/* calcHeight (SPEC 4). */
RT_INLINE double height_xy(const rt_terrain *t, double x, double y, uint32_t n)
{
    return mountain(t, raw_height_xy(t, x, y, n));
}

/* calcProf (SPEC 5, the Java reference): floor, then >> 7, then & mask;
 * with calc_prof_js (SPEC 17) the JavaScript's (toint32(v) >> 7) & mask:
 * truncation toward zero instead of floor (the mask, below 2^25, takes bits
 * 7.. of the int32 alone, so the logical shift of its bits is the JS's
 * arithmetic one). */
RT_INLINE double prof_xy(const rt_terrain *t, const int32_t *A, double x,
                         const int32_t *B, double y, uint32_t n)
{
    const double *P = t->profile;
    const uint32_t mask = t->profile_len - 1;
    double p = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        double v = (double)A[i] * x + (double)B[i] * y;
        if (t->calc_prof_js) {
            p += P[(rt__low32(v) >> 7) & mask];
            continue;
        }
        /* floor(v) is an integer, so the scaling by 2^-7 is exact */
        double q = rt__floor(rt__floor(v) * RT_RECIP128);
        p += P[rt__low32(q) & mask];
    }
    return p;
}

/* The generated point feature at a rounded point, given xr*yr. */
RT_INLINE uint8_t feature_of(const rt_terrain *t, double a, double xryr)
{
    uint32_t f = rt__low32(rt__round_js(a * xryr * RT_RECIP128)) & t->feature_mask;
    if (f == t->feature_point) {
        uint32_t xyff = rt__low32(xryr) & 0xffu;
        if (xyff < t->mine_below) return RT_MINE;
        if (xyff < t->boulder_below) return RT_BOULDER;
        if (xyff < t->waterhole_below) return RT_WATERHOLE;
        if (xyff < t->knoll_below) return RT_KNOLL;
        return RT_ROOT;
    }
    if (f == t->feature_x && (rt__low32(rt__round_js(RT_PI1000 * xryr)) & 0xffu) < t->x_below)
        return RT_X;
    if (f == t->feature_cone &&
        (rt__low32(rt__round_js(t->pi10000 * xryr)) & 0xffu) < t->cone_below)
        return RT_CONE;
    return RT_NONE;
}

RT_INLINE uint8_t vegetation(const rt_terrain *t, double a2, double a3)
{
    if (a2 < t->grass_below) return a3 < t->open_below ? RT_GRASS : RT_MOOR;
    return a3 < t->thicket_below ? RT_THICKET : RT_WOOD;
}

typedef rt_terra_res terra_res;

RT_INLINE void store(const rt_terra_out *o, int64_t k, const terra_res *r)
{
    double *restrict h = o->height, *restrict d = o->depth;
    uint8_t *restrict te = o->terrain, *restrict fe = o->feature;
    if (h) h[k] = r->height;
    if (d) d[k] = r->depth;
    if (te) te[k] = r->terrain;
    if (fe) fe[k] = r->feature;
    if (o->ground) o->ground[k] = r->ground;
}

/* The placed value at a rounded point (0: none). */
static inline uint8_t placed_at(const rt_placed *p, double xr, double yr)
{
    /* keys are int64; points beyond +-2^62 cannot have an entry */
    if (!p || !(fabs(xr) < 4.6e18) || !(fabs(yr) < 4.6e18)) return 0;
    return rt_placed_get(p, (int64_t)xr, (int64_t)yr);
}

/* ------------------------------------------------------------------------ */
/* One point, evaluated by either path.                                     */
/* ------------------------------------------------------------------------ */

enum { PAIR_H = 0, PAIR_1, PAIR_2, PAIR_3, PAIR_COUNT };

/* The per-row state of the block path. */
typedef struct row_state {
    int shift;                                 /* m + 7 */
    uint64_t frac_mask;                        /* 2^shift - 1 */
    double frac_scale;                         /* 2^-shift */
    int64_t by[PAIR_COUNT][RT_MAX_DIRECTIONS]; /* B*Y for each pair, Y = y*2^m */
    int64_t path_off[RT_MAX_DIRECTIONS];       /* (AH*4000 + BH*2000) * 2^m */
    int64_t feat_by[RT_MAX_DIRECTIONS];        /* A3*yr, the feature pair */
    int64_t yr;                                /* the row's rounded y */
} row_state;

typedef struct point {
    double x, y;             /* the point itself (both paths) */
    const row_state *row;    /* block path only */
    int64_t X;               /* x * 2^m (block path) */
    /* MODE_TILE: the sums already computed by the tile passes, and round_js(x) */
    double ht, a1, a2, a3, fa, xr;
} point;

/* How terra_at evaluates a point: the seed's double arithmetic, the block
 * path's integers one point at a time, or values from the tile passes. */
enum { MODE_POINT = 0, MODE_BLOCK = 1, MODE_TILE = 2 };

static const int PAIR_A[PAIR_COUNT] = {RT_AH, RT_A1, RT_A2, RT_A3};
static const int PAIR_B[PAIR_COUNT] = {RT_BH, RT_B1, RT_B2, RT_B3};

RT_INLINE double height_at(const rt_terrain *t, const point *p, int fast, int path, uint32_t n)
{
    if (fast == MODE_POINT) {
        if (!path) return height_xy(t, p->x, p->y, n);
        double hp = raw_height_xy(t, p->x + t->path_dx, p->y + t->path_dy, n);
        return t->path_raw ? hp : mountain(t, hp); /* SPEC 17: terrain00.js compares raw */
    }
    if (fast == MODE_TILE && !path) return p->ht;
    const double *P = t->profile;
    const uint32_t mask = t->profile_len - 1;
    const int32_t *A = t->vec[RT_AH];
    const row_state *rs = p->row;
    double ht = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        int64_t V = (int64_t)A[i] * p->X + rs->by[PAIR_H][i];
        if (path) V += rs->path_off[i];
        uint64_t u = rt__u64(V);
        uint64_t q = u >> rs->shift; /* floor(j), modulo 2^(64-shift) */
        double jfrac = (double)(u & rs->frac_mask) * rs->frac_scale;
        double p0 = P[q & mask];
        double p1 = P[(q + 1) & mask];
        ht += p0 + jfrac * (p1 - p0);
    }
    return path && t->path_raw ? ht : mountain(t, ht);
}

RT_INLINE double prof_at(const rt_terrain *t, const point *p, int fast, int pair, uint32_t n)
{
    if (fast == MODE_POINT)
        return prof_xy(t, t->vec[PAIR_A[pair]], p->x, t->vec[PAIR_B[pair]], p->y, n);
    if (fast == MODE_TILE) return pair == PAIR_1 ? p->a1 : pair == PAIR_2 ? p->a2 : p->a3;
    const double *P = t->profile;
    const uint32_t mask = t->profile_len - 1;
    const int32_t *A = t->vec[PAIR_A[pair]];
    const row_state *rs = p->row;
    /* calc_prof_js: trunc(V / 2^m) = floor((V + 2^m - 1) / 2^m) for V < 0 */
    const int64_t js_up = t->calc_prof_js ? ((int64_t)1 << (rs->shift - 7)) - 1 : 0;
    double s = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        int64_t V = (int64_t)A[i] * p->X + rs->by[pair][i];
        if (V < 0) V += js_up;
        s += P[(rt__u64(V) >> rs->shift) & mask];
    }
    return s;
}

/* calcProf(B2, xr, A3, yr) at the rounded point. */
RT_INLINE double feature_prof_at(const rt_terrain *t, const point *p, int fast,
                                 double xr, double yr, uint32_t n)
{
    if (fast == MODE_POINT) return prof_xy(t, t->vec[RT_B2], xr, t->vec[RT_A3], yr, n);
    if (fast == MODE_TILE) return p->fa;
    const double *P = t->profile;
    const uint32_t mask = t->profile_len - 1;
    const int32_t *A = t->vec[RT_B2];
    int64_t xri = (int64_t)xr;
    double s = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        int64_t V = (int64_t)A[i] * xri + p->row->feat_by[i];
        s += P[(rt__u64(V) >> 7) & mask];
    }
    return s;
}

/* terra (SPEC 5): the order of the seed, written once for both paths. */
RT_INLINE void terra_at(const rt_terrain *t, const point *p, int fast, terra_res *r,
                        uint32_t n)
{
    double ht = height_at(t, p, fast, 0, n);
    r->ground = ht;
    r->height = ht;
    r->depth = 0.0;
    r->feature = RT_NONE;
    if (t->bleak) {
        r->terrain = RT_GRASS;
        return;
    }
    const int snowy = t->snow && ht > t->snow_height;
    if (snowy && !t->snow_keeps_feature) {
        r->terrain = RT_SNOW;
        return;
    }
    if (t->with_paths && ht > t->lake_height &&
        fabs(ht - height_at(t, p, fast, 1, n)) < t->path_tolerance) {
        r->terrain = RT_PATH;
        return;
    }
    double xr = fast == MODE_TILE ? p->xr : rt__round_js(p->x);
    double yr = fast ? (double)p->row->yr : rt__round_js(p->y);
    int feature = -1;
    uint8_t pv = placed_at(t->placed, xr, yr);
    if (pv) {
        if (RT_PLACED_IS_TERRAIN(pv)) {
            r->height = ht > t->lake_height ? ht : t->lake_height;
            r->terrain = (uint8_t)RT_PLACED_CODE(pv);
            return;
        }
        feature = (int)RT_PLACED_CODE(pv);
    }
    if (t->lake_height > ht) {
        r->height = t->lake_height;
        r->depth = t->lake_height - ht;
        r->terrain = RT_LAKE;
        r->feature = feature < 0 ? RT_NONE : (uint8_t)feature;
        return;
    }
    if (t->lake_base > ht) {
        r->terrain = RT_MUD;
        r->feature = feature < 0 ? RT_NONE : (uint8_t)feature;
        return;
    }
    /* SPEC 17: snow kept with its feature (Pieces of Eight) and bare rock
     * (terrain00.js) are decided after the point feature, before the town */
    if (snowy || (t->rock && ht > t->rock_above)) {
        if (feature < 0) feature = feature_of(t, feature_prof_at(t, p, fast, xr, yr, n), xr * yr);
        r->feature = (uint8_t)feature;
        r->terrain = snowy ? RT_SNOW : RT_MUD;
        return;
    }
    /* A town discards the feature, so decide the town first. */
    if (!t->wood_only) {
        double a1 = prof_at(t, p, fast, PAIR_1, n);
        if (t->town_abs) a1 = fabs(a1);
        if (a1 < t->town_below) {
            r->terrain = RT_TOWN;
            if (feature == RT_PHONE) r->feature = RT_PHONE; /* SPEC 17: a phone box */
            return;
        }
    }
    if (feature < 0) /* NB: swapped tables at the rounded point, as in the seed */
        feature = feature_of(t, feature_prof_at(t, p, fast, xr, yr, n), xr * yr);
    r->feature = (uint8_t)feature;
    if (t->wood_only) {
        r->terrain = RT_WOOD;
        return;
    }
    const double a2 = prof_at(t, p, fast, PAIR_2, n), a3 = prof_at(t, p, fast, PAIR_3, n);
    if (t->quarries && a2 < t->grass_below && !(a3 < t->open_below) && a2 < t->quarry_below &&
        ht > t->quarry_min_height) { /* SPEC 17: a quarry in the moor */
        r->terrain = RT_QUARRY;
        r->height = ht - t->quarry_depth;
        r->feature = RT_NONE;
        return;
    }
    r->terrain = vegetation(t, a2, a3);
}

/* ------------------------------------------------------------------------ */
/* Tile passes for integer profiles, one variant per instruction set        */
/* ------------------------------------------------------------------------ */

/* A byte profile: every value an integer in 0..255 and the length dividing
 * 256; *out gets it repeated to 256 entries (index & 255 then == index & mask). */
static int byte_profile(const rt_terrain *t, const int32_t *iprof, uint8_t *out)
{
    if (t->profile_len > 256 || t->directions > 64) return 0;
    for (uint32_t k = 0; k < t->profile_len; k++)
        if (iprof[k] < 0 || iprof[k] > 255) return 0;
    for (uint32_t k = 0; k < 256; k++) out[k] = (uint8_t)iprof[k & (t->profile_len - 1)];
    return 1;
}

/* Can the integer passes take this profile at dyadic level m?  Every value an
 * integer, and n * 3 * max|P| * 2^(m+7) < 2^31 so no int32 sum overflows. */
static int int_profile(const rt_terrain *t, int m, int32_t *out)
{
    if (t->profile_len > INT_PROFILE_MAX) return 0;
    double maxabs = 0.0;
    for (uint32_t k = 0; k < t->profile_len; k++) {
        double v = t->profile[k];
        if (!(v == rt__floor(v)) || !(fabs(v) < 1048576.0)) return 0;
        if (fabs(v) > maxabs) maxabs = fabs(v);
        out[k] = (int32_t)v;
    }
    return (double)t->directions * 3.0 * (maxabs + 1.0) * ldexp(1.0, m + 7) < 2147483648.0;
}

/* ------------------------------------------------------------------------ */
/* Blocks                                                                   */
/* ------------------------------------------------------------------------ */

/* The tile buffers of one thread of a terra grid (about 28 KB: on the heap,
 * so that a thread with a small stack can run the grids). */
typedef struct tile_buf {
    int32_t *h, *a1, *a2, *a3, *fa, *xr, *code;
    double *ht, *oh, *od;
    double *ht2; /* the point path's second row of heights (terra_point_row) */
    uint8_t *ot, *of;
    uint8_t *cmask; /* classify_bytes: the feature candidates */
    /* the point tiles (terra_point_row): the block's products fl(A*2^-7 * x)
     * of the height rows (rt_point_row.ax), kept from row to row (they do
     * not depend on the row): ax_cap doubles, the tile at column c in
     * [n*c, n*(c + nk)) (n directions), the tiles past ax_cap without;
     * ax_ready[c/TILE] set once the tile's are in; or ax NULL */
    double *ax;
    size_t ax_cap;
    int *ax_ready;
    /* the point tiles' fixed-point products of the profile sums
     * (rt_point_prof.fix): fix_cap uint32, *fix_ready once filled; or NULL */
    uint32_t *fix;
    size_t fix_cap;
    int *fix_ready;
    /* the point tiles: the first column and width of the tile whose
     * round_js(x) xr holds (rt_point_prof.xr_ready), or xr_nk 0 */
    int64_t xr_c0;
    int xr_nk;
    /* and xr's common difference where xr is an arithmetic sequence the
     * linear profile sums take (xr_linear), else -1 */
    int64_t xr_d;
    /* the point tiles' feature sums, kept from row to row: they depend on
     * the tile's xr and the row's rounded y alone (calcProf(B2, xr, A3,
     * yr)), so the rows after one with the same rounded y (2 or 3 in a row
     * at steps such as 0.37 or 1/3) take them as they are.  The tile at
     * column c keeps them at fa_keep + c (columns below fa_cap), those of
     * rounded y fa_yr[c/TILE] once fa_ready[c/TILE] is set; or fa_keep
     * NULL */
    int32_t *fa_keep;
    int64_t fa_cap;
    int64_t *fa_yr;
    int *fa_ready;
    /* the tile kernels' tables kept from tile to tile (rt_tile_args.cache),
     * or NULL */
    void *cache;
} tile_buf;

/* The scratch of one grid call, allocated once (grid_scratch_new). */
typedef struct grid_scratch {
    int32_t win[RT_WIN_ROWS * 8]; /* first: 64-byte aligned */
    uint8_t win8[RT_WIN8_ROWS * 16];
    uint8_t win64[RT_WIN8_ROWS * 64]; /* 64-byte aligned: the sizes above are */
    int32_t win16p[RT_WIN_ROWS * 16];
    int32_t iprof[INT_PROFILE_MAX];
    uint8_t bytes[256];
    double dwin[RT_DWIN_ROWS * 8]; /* 64-byte aligned: the size above is */
    double dwin8[RT_DWIN8_ROWS * 16];
    double cwin8[RT_DWIN8_ROWS * 8];
    double dwin2[RT_DWIN2_ROWS * 4];
    /* the wide kernels' 16-lane windows, or the others' plain eight-lane
     * windows (rt__point_win8: half of it) */
    int32_t win16[RT_WIN16_ROWS * 16];
    /* the point tiles' bounds of the vegetation sums (rt_veg_bounds.h) */
    rt_veg_bounds vb;
    uint64_t vbtab[RT_VB_TABLES * RT_VB_ROWS];
} grid_scratch;

typedef struct block_job {
    const rt_terrain *t;
    const rt_block *b;
    int fast, m;
    int64_t X0, Y0, S;        /* x0, y0, step times 2^m (block path) */
    double *height_out;       /* height grid */
    /* a float32 height grid (rt_height_grid_f32): each row computed into a
     * row buffer of its thread's (rowbufs, nrowbufs of rowstride doubles,
     * claimed as `busy` claims the tile buffers), then rounded into it */
    float *height_f32;
    double *rowbufs;
    atomic_int *rowbusy;
    int nrowbufs;
    int64_t rowstride;
    int stream32;             /* the float32 outputs far larger than the caches */
    int f32v;                 /* rt_simd_resolve(t->simd): the rounding's vectors */
    /* a float32 terra grid (rt_terra_grid_f32): the rows' doubles through
     * three row buffers a slot (height, depth, ground), as height_f32 */
    const rt_terra_out32 *out32;
    const rt_terra_out *out;  /* terra grid */
    const int32_t *iprof;     /* the profile as int32, or NULL: no tile passes */
    const uint8_t *bytes;     /* the profile as 256 bytes, or NULL */
    const rt_tile_kernels *kern;
    const int32_t *win;       /* rotated windows (rt__tile_windows), or NULL */
    uint32_t win_mask;
    const uint8_t *win8;      /* rotated byte windows (rt__tile_windows8), or NULL */
    uint32_t win8_mask;
    int32_t win8_base;
    const uint8_t *win64;     /* 64-byte windows (rt__tile_windows64), or NULL */
    uint32_t win64_mask;
    const int32_t *win16p;    /* 16-lane packed windows (rt__tile_windows16), or NULL */
    uint32_t win16p_mask;
    double fa_max;            /* a bound on |a profile sum| */
    /* terra grids: one tile_buf per thread that can run at once, each
     * claimed by the chunk of rows using it (busy[k]) */
    tile_buf *bufs;
    atomic_int *busy;
    int nbufs;
    int stream;               /* outputs far larger than the caches: streaming stores */
    /* the point path (any step): the integer profile of its tile passes
     * (prof_row), or NULL; point_tiles: terra rows take those passes */
    const int32_t *piprof;
    int point_tiles;
    /* the point path's height rows: double windows (rt__point_dwin), or NULL */
    const double *dwin;
    uint32_t dwin_mask;
    /* the wide kernels' (kern->wide) point path: eight-lane double windows
     * (rt__point_dwin8) and 16-lane int32 windows (rt__point_win16), or NULL */
    const double *dwin8;
    uint32_t dwin8_mask;
    /* their intercepts (rt__point_cwin8: an integer profile), or NULL */
    const double *cwin8;
    /* two-entry double windows (rt__point_dwin2), or NULL */
    const double *dwin2;
    uint32_t dwin2_mask;
    /* rt__point_fma_min of the profile (the point path's height rows) */
    double fma_min;
    const int32_t *win16;
    uint32_t win16_mask;
    /* the point tiles' plain eight-lane windows (rt__point_win8), or NULL */
    const int32_t *winp;
    uint32_t winp_mask;
    /* the point tiles' bounds of the vegetation sums, or NULL */
    const rt_veg_bounds *vb;
    /* the point tiles at a dyadic step from any origin (point_sums_linear):
     * step = lin_S * 2^-lin_m, or lin_m -1 where the step is not such */
    int lin_m;
    int64_t lin_S;
} block_job;

/* The first feature candidate at or after column q of a tile of nk
 * columns (bit q & 7 of cmask[q >> 3], as the classify kernels write
 * them: every group of the tile), or nk: up to eight bytes a test, since a
 * tile has few candidates (a scan byte by byte took 7.6 % of grid's time
 * at step 1 on the VBMI kernels, 2048^2, Zen 4). */
static int cmask_next(const uint8_t *cmask, int nk, int q)
{
    const int ng = (nk + 7) >> 3;
    while (q < nk) {
        const int g = q >> 3, nb = ng - g < 8 ? ng - g : 8;
        uint64_t w = 0;
        for (int i = 0; i < nb; i++) w |= (uint64_t)cmask[g + i] << (8 * i);
        w >>= q & 7;
        if (w) {
            const int c = q + __builtin_ctzll(w);
            return c < nk ? c : nk;
        }
        q = (g + nb) << 3;
    }
    return nk;
}

/* After a classify pass of the classic rules (no placed entry near the
 * tile, no paths): the mountains' heights where the pass wrote raw ones
 * (classify_bytes: `raw`), and SPEC 17's snow, rock and quarries (`late`)
 * in terra_at's order.  Snow (not keeping features) comes first; the lake
 * and the mud below its base stand; then kept snow and bare rock with the
 * generated feature; then a quarry in the moor.  xr NULL: the rounded x of
 * column q is xa + q*s (mod 2^32). */
static void after_classify(const rt_terrain *t, const tile_buf *tb, int nk, double scale,
                           double yr, const int32_t *xr, uint32_t xa, uint32_t s, int raw,
                           int late, uint8_t *restrict ot, uint8_t *restrict of,
                           double *restrict oh, double *restrict od)
{
    /* the parameters in locals (the stores through oh and od could alias
     * t's doubles); a rule that is off never fires */
    const int mtn = t->mountains, keeps = t->snow_keeps_feature;
    const double base = t->mountain_base, lake = t->lake_height, lake_base = t->lake_base;
    const double snow_h = t->snow ? t->snow_height : INFINITY;
    const double rock_h = t->rock ? t->rock_above : INFINITY;
    const double q_below = t->quarries ? t->quarry_below : -INFINITY;
    const double q_min = t->quarry_min_height, q_depth = t->quarry_depth;
    const double high = snow_h < rock_h ? snow_h : rock_h;
    const int32_t *h = tb->h, *a2 = tb->a2;
    for (int q = 0; q < nk; q++) {
        const double hr = (double)h[q] * scale;
        double ht = hr;
        if (mtn && hr > base) {
            const double dz = hr - base;
            ht = base + dz * sqrt(dz); /* mountain() */
            if (raw) oh[q] = ht;        /* never lake there */
        }
        if (!late || (!(ht > high) && ot[q] != RT_MOOR)) continue;
        const int snowy = ht > snow_h;
        if (snowy && !keeps) {
            ot[q] = RT_SNOW;
            of[q] = RT_NONE;
            oh[q] = ht;
            od[q] = 0.0;
            continue;
        }
        if (lake > ht || lake_base > ht) continue;
        if (snowy || ht > rock_h) {
            const int32_t x = xr ? xr[q] : (int32_t)(xa + (uint32_t)q * s);
            ot[q] = snowy ? RT_SNOW : RT_MUD;
            of[q] = feature_of(t, (double)tb->fa[q], (double)x * yr);
            continue;
        }
        if (ot[q] == RT_MOOR && (double)a2[q] < q_below && ht > q_min) {
            ot[q] = RT_QUARRY;
            of[q] = RT_NONE;
            oh[q] = ht - q_depth;
        }
    }
}

/* Points a thread at the least: height grids on the tile path, terra grids
 * on the tile path, and grids and points on the other paths */
#define RT_THREAD_POINTS ((int64_t)1 << 17)
#define RT_TERRA_THREAD_POINTS ((int64_t)1 << 15)
#define RT_THREAD_POINTS_SLOW ((int64_t)1 << 12)

/* Outputs beyond this many bytes are written with streaming stores where a
 * kernel has them: they would only evict the caches (and each written line
 * costs a read for ownership); smaller outputs stay in cache for the caller. */
#define RT_STREAM_BYTES ((int64_t)64 << 20)
/* The same for a float32 grid's floats, rounded from row buffers in the
 * cache (rt_height_grid_f32, rt_terra_grid_f32): measured lower (AMD EPYC,
 * Zen 4, one thread, heights: 2000^2, 16 MB, 2.50 ms streaming against 3.34
 * plain; 1000^2, 4 MB, 0.72 against 0.54) */
#define RT_STREAM_F32_BYTES ((int64_t)8 << 20)
/* The same for the point path's heights (any step or origin), whose rows
 * cost about 0.6 ns a point, the plain stores' reads for ownership then the
 * lesser part until the output outgrows the last-level cache: measured
 * lower (AMD EPYC, Zen 4, 32 MiB L3, one thread, AVX-512, step 0.37: 1800^2,
 * 26 MB, 0.65 ns a point streaming against 0.79 plain; 2048^2, 34 MB, 0.64
 * against 0.72; 1448^2, 17 MB, 0.69 against 0.64; 1024^2, 8 MB, 0.74
 * against 0.60; AVX2's rows, about 1.08 ns a point, the same either way) */
#define RT_STREAM_POINT_BYTES ((int64_t)24 << 20)

rt_status rt__check_block(const rt_block *b)
{
    if (!b) return RT_ERR_NULL;
    if (b->nx < 1 || b->ny < 1 || b->c0 < 0 || b->r0 < 0) return RT_ERR_SIZE;
    /* grid indices must convert to double exactly; the output must be
     * addressable with 16-byte elements */
    const int64_t lim = (int64_t)1 << 53;
    if (b->nx > lim - b->c0 || b->ny > lim - b->r0) return RT_ERR_SIZE;
    if (b->nx > INT64_MAX / 16 / b->ny) return RT_ERR_SIZE;
    if (!isfinite(b->x0) || !isfinite(b->y0) || !isfinite(b->step) || !(b->step > 0))
        return RT_ERR_COORD;
    /* every point finite: the extremes are */
    double xl = b->x0 + (double)(b->c0 + b->nx - 1) * b->step;
    double yl = b->y0 + (double)(b->r0 + b->ny - 1) * b->step;
    if (!isfinite(xl) || !isfinite(yl)) return RT_ERR_COORD;
    return RT_OK;
}

int rt__plan_dyadic(const rt_block *b, double lim, rt_dyadic *plan)
{
    double xa = b->x0 + (double)b->c0 * b->step;
    double xb = b->x0 + (double)(b->c0 + b->nx - 1) * b->step;
    double ya = b->y0 + (double)b->r0 * b->step;
    double yb = b->y0 + (double)(b->r0 + b->ny - 1) * b->step;
    if (!(fabs(b->x0) <= lim && fabs(b->y0) <= lim && fabs(xa) <= lim && fabs(xb) <= lim &&
          fabs(ya) <= lim && fabs(yb) <= lim && b->step <= lim))
        return 0;
    for (int m = 0; m <= RT_MAX_DYADIC; m++) {
        double s = ldexp(1.0, m);
        double X0 = b->x0 * s, Y0 = b->y0 * s, S = b->step * s;
        if (X0 == floor(X0) && Y0 == floor(Y0) && S == floor(S)) {
            plan->m = m;
            plan->X0 = (int64_t)X0;
            plan->Y0 = (int64_t)Y0;
            plan->S = (int64_t)S;
            return 1;
        }
    }
    return 0;
}

/* Can the block path serve this block?  A dyadic plan inside the domain of
 * exactness, and a path surface offset by whole metres within it. */
static void plan_block(block_job *j)
{
    const rt_terrain *t = j->t;
    const double lim = RT_TERRAIN_DOMAIN;
    rt_dyadic d;
    j->fast = 0;
    if (t->with_paths && !(rt__is_int_within(t->path_dx, lim) && rt__is_int_within(t->path_dy, lim)))
        return;
    if (!rt__plan_dyadic(j->b, lim, &d)) return;
    j->fast = 1;
    j->m = d.m;
    j->X0 = d.X0;
    j->Y0 = d.Y0;
    j->S = d.S;
}

static void row_setup(const block_job *j, int64_t r, row_state *rs)
{
    const rt_terrain *t = j->t;
    int64_t Y = j->Y0 + r * j->S;
    rs->shift = j->m + 7;
    rs->frac_mask = ((uint64_t)1 << rs->shift) - 1;
    rs->frac_scale = ldexp(1.0, -rs->shift);
    for (int pair = 0; pair < PAIR_COUNT; pair++)
        for (uint32_t i = 0; i < t->directions; i++)
            rs->by[pair][i] = (int64_t)t->vec[PAIR_B[pair]][i] * Y;
    for (uint32_t i = 0; i < t->directions; i++)
        rs->path_off[i] = ((int64_t)t->vec[RT_AH][i] * (int64_t)t->path_dx +
                           (int64_t)t->vec[RT_BH][i] * (int64_t)t->path_dy) *
                          ((int64_t)1 << j->m);
    double y = j->b->y0 + (double)r * j->b->step;
    rs->yr = (int64_t)rt__round_js(y);
    for (uint32_t i = 0; i < t->directions; i++)
        rs->feat_by[i] = (int64_t)t->vec[RT_A3][i] * rs->yr;
}

/* The tile arguments' windows: the block's (or the point tiles'), each
 * NULL where it was not made */
static void tile_windows_of(const block_job *j, rt_tile_args *ta)
{
    ta->win = j->win;
    ta->win_mask = j->win_mask;
    ta->win8 = j->win8;
    ta->win8_mask = j->win8_mask;
    ta->win8_base = j->win8_base;
    ta->win64 = j->win64;
    ta->win64_mask = j->win64_mask;
    ta->win16p = j->win16p;
    ta->win16p_mask = j->win16p_mask;
}

/* The tile arguments of a pair's sums over nk columns from X (units 2^-m). */
static void tile_pair(const block_job *j, const row_state *rs, int pair, int64_t X, int nk,
                      rt_tile_args *ta)
{
    const rt_terrain *t = j->t;
    ta->profile = j->iprof;
    ta->bytes = j->bytes;
    ta->mask = t->profile_len - 1;
    ta->shift = (uint32_t)rs->shift;
    ta->n = t->directions;
    ta->nk = nk;
    tile_windows_of(j, ta);
    for (uint32_t i = 0; i < t->directions; i++) {
        int64_t A = t->vec[PAIR_A[pair]][i];
        ta->v0[i] = (uint32_t)rt__u64(A * X + rs->by[pair][i]);
        ta->dv[i] = (uint32_t)rt__u64(A * j->S);
    }
}

/* A pair's sums over nk columns from X by calc_prof "js" (SPEC 17) at a
 * dyadic level m > 0: JavaScript truncates v = V * 2^-m toward zero where
 * Java floors it, so for V < 0 the index is that of V + 2^m - 1.  Each
 * direction's V changes sign at most once along the row: the tile is cut
 * into runs where no sign changes, and each run is summed by the kernel
 * with the negative directions' v0 raised by 2^m - 1 (into `scratch`, a
 * tile buffer, when the run does not start the tile). */
static void prof_js(const block_job *j, const row_state *rs, int pair, int64_t X, int nk,
                    int32_t *out, int32_t *scratch)
{
    const rt_terrain *t = j->t;
    const int64_t up = ((int64_t)1 << j->m) - 1;
    rt_tile_args ta = {0};
    for (int c = 0; c < nk;) {
        const int64_t Xc = X + c * j->S;
        int e = nk;
        for (uint32_t i = 0; i < t->directions; i++) {
            const int64_t A = t->vec[PAIR_A[pair]][i];
            const int64_t V0 = A * Xc + rs->by[pair][i], dV = A * j->S;
            int64_t k = -1; /* the first column of the run where the sign changes */
            if (V0 < 0 && dV > 0) k = (-V0 + dV - 1) / dV;
            else if (V0 >= 0 && dV < 0) k = V0 / -dV + 1;
            if (k > 0 && k < e - c) e = c + (int)k;
        }
        tile_pair(j, rs, pair, Xc, e - c, &ta);
        for (uint32_t i = 0; i < t->directions; i++) {
            const int64_t A = t->vec[PAIR_A[pair]][i];
            if (A * Xc + rs->by[pair][i] < 0) ta.v0[i] += (uint32_t)up;
        }
        if (c == 0) {
            j->kern->prof(&ta, out);
        } else {
            j->kern->prof(&ta, scratch);
            memcpy(out + c, scratch, (size_t)(e - c) * sizeof *out);
        }
        c = e;
    }
}

/* The tile arguments of calcProf(B2, xr, A3, yr): a_i in dv, A3*yr in v0
 * (for tile_prof_at, which takes xr itself).  With m = 0 the rounded x of
 * the tile are X + k*S exactly, so V_i(k) = B2_i*X + A3_i*yr + k*B2_i*S is a
 * linear sequence like the pairs': `linear` gives the arguments of the plain
 * profile-sum pass instead (v0 at column 0, dv per column). */
static void tile_feature(const block_job *j, const row_state *rs, int nk, int linear, int64_t X,
                         rt_tile_args *ta)
{
    const rt_terrain *t = j->t;
    ta->profile = j->iprof;
    ta->bytes = j->bytes;
    ta->mask = t->profile_len - 1;
    ta->shift = 7;
    ta->n = t->directions;
    ta->nk = nk;
    tile_windows_of(j, ta);
    for (uint32_t i = 0; i < t->directions; i++) {
        const int64_t a = t->vec[RT_B2][i];
        ta->dv[i] = (uint32_t)rt__u64(linear ? a * j->S : a);
        ta->v0[i] = (uint32_t)rt__u64(linear ? a * X + rs->feat_by[i] : rs->feat_by[i]);
    }
}

/* ceil(T) clamped to int32: the tile sums are far inside int32 (see
 * int_profile), so for every sum a, a < T exactly when a < int_threshold(T). */
static int32_t int_threshold(double T)
{
    double c = ceil(T);
    if (c > 2147483647.0) return INT32_MAX;
    if (c < -2147483647.0) return -INT32_MAX;
    return (int32_t)c;
}

/* round_js of the tile's x = X * 2^-m: floor((X + 2^(m-1)) / 2^m), exact.
 * The floor division shifts a non-negative value: X + 2^62 (in the domain
 * |X| < 2^31), and 2^62 is a multiple of 2^m. */
static void tile_round(int64_t X, int64_t S, int m, int nk, int32_t *xr)
{
    nk = (nk + 7) & ~7; /* the kernels may read up to there (values unused) */
    if (m == 0) { /* X + k*S, within int32 in the domain: an induction, mod 2^32 */
        uint32_t x = (uint32_t)rt__u64(X);
        const uint32_t s = (uint32_t)rt__u64(S);
        for (int k = 0; k < nk; k++, x += s) xr[k] = (int32_t)x;
        return;
    }
    const uint64_t off = (uint64_t)1 << 62;
    const uint64_t half = (uint64_t)1 << (m - 1);
    for (int k = 0; k < nk; k++) {
        uint64_t v = rt__u64(X + k * S) + off + half;
        xr[k] = (int32_t)((int64_t)(v >> m) - (int64_t)(off >> m));
    }
}

/* Can a height row go to a height_row kernel: |j| < 2^30 at every point of
 * it, so floor(j) and floor(j) + 1 convert to int32 exactly?  (x is
 * monotone along the row: its extremes bound it; the bound has ample margin
 * for the rounding of the products.) */
static int point_row_ok(const rt_terrain *t, const rt_block *b, double y)
{
    double xa = fabs(b->x0 + (double)b->c0 * b->step);
    double xb = fabs(b->x0 + (double)(b->c0 + b->nx - 1) * b->step);
    double xm = xa > xb ? xa : xb;
    for (uint32_t i = 0; i < t->directions; i++) {
        double v = fabs((double)t->vec[RT_AH][i]) * xm + fabs((double)t->vec[RT_BH][i] * y);
        if (!(v * RT_RECIP128 < 1073741824.0)) return 0;
    }
    return 1;
}

/* Is every fa * xr * yr of a tile exact (below 2^53), fa a profile sum? */
static int feature_exact(const block_job *j, int32_t xa, int32_t xb, int64_t yr)
{
    double xm = fabs((double)xa) > fabs((double)xb) ? fabs((double)xa) : fabs((double)xb);
    return j->fa_max * xm * fabs((double)yr) < 4503599627370496.0; /* 2^52: margin */
}

/* The first 64-byte boundary after p (p + 64 when p is on one): a block
 * of n bytes from malloc(n + 64) holds n aligned bytes there. */
static unsigned char *align64(void *p)
{
    return (unsigned char *)p + (64 - (uintptr_t)p % 64);
}

/* A cache for the tile kernels' tables (rt_tile_args.cache) where the
 * tile passes may use one (rows of 64 columns and more) and the block is
 * large enough to repay making the tables (16384 points: a 64 x 64 grid at
 * 16 m took 1.35x the gathers' time with them, 128 x 128 0.92, 256 x 256
 * 0.62, AVX2), or NULL. */
static void *tile_cache_new(const block_job *j)
{
    if (!((j->fast && j->iprof) || (j->point_tiles && j->lin_m >= 0)) || j->b->nx < 64 ||
        j->b->nx * j->b->ny < 16384)
        return NULL;
    void *c = malloc(RT_TILE_CACHE_BYTES);
    if (c) *(int *)c = 0;
    return c;
}

/* The row buffers of a float32 grid: nb slots of `rows` rows of nx doubles
 * (each 64-byte aligned), and a busy flag a slot; the block to free, or
 * NULL (RT_ERR_NOMEM). */
static void *rowbufs_new(block_job *j, int nb, int rows)
{
    const rt_block *b = j->b;
    j->rowstride = (b->nx + 7) & ~(int64_t)7;
    const size_t flags = ((size_t)nb * sizeof(atomic_int) + 63) & ~(size_t)63;
    const size_t per = (size_t)rows * 8;
    if ((uint64_t)j->rowstride > (SIZE_MAX - flags - 64) / per / (size_t)nb) return NULL;
    void *raw = malloc(flags + (size_t)nb * (size_t)j->rowstride * per + 64);
    if (!raw) return NULL;
    unsigned char *a = align64(raw);
    j->rowbusy = (atomic_int *)(void *)a;
    j->rowbufs = (double *)(void *)(a + flags);
    j->nrowbufs = nb;
    for (int k = 0; k < nb; k++) atomic_init(&j->rowbusy[k], 0);
    return raw;
}

/* A free one of n slots by their busy flags, now marked busy (no more
 * chunks of rows run at once than there are slots, so one is always free):
 * the tile buffers of a terra grid, the row buffers of a float32 grid. */
static int slot_claim(atomic_int *busy, int n)
{
    for (int k = 0;; k = k + 1 < n ? k + 1 : 0)
        if (atomic_exchange_explicit(&busy[k], 1, memory_order_acquire) == 0) return k;
}

static void slot_release(atomic_int *busy, int slot)
{
    if (slot >= 0) atomic_store_explicit(&busy[slot], 0, memory_order_release);
}

/* A free slot of the row buffers: its first row buffer, *slot set. */
static double *rowbufs_claim(const block_job *j, int rows, int *slot)
{
    *slot = slot_claim(j->rowbusy, j->nrowbufs);
    return j->rowbufs + (size_t)*slot * (size_t)rows * (size_t)j->rowstride;
}

RT_INLINE void height_rows_n(const block_job *j, int64_t begin, int64_t end, uint32_t n,
                             double *rowbuf)
{
    /* local copies: stores through the output pointers cannot alias them, so
     * the compiler keeps the parameters in registers */
    const rt_terrain tl = *j->t;
    const rt_terrain *t = &tl;
    const rt_block *b = j->b;
    row_state rs;
    rt_tile_args ta = {0};
    int32_t hs[RT_HS_TILE]; /* small: threads with small stacks */
    /* straight into the output (mountains then applied in place) */
    const int direct = j->kern->height_store != NULL;
    const int64_t tile = direct ? TILE : RT_HS_TILE;
    /* the point rows' products A*2^-7 * x of every column, computed by the
     * first row and read by the others (rt_point_row.ax): at most 512 KiB
     * of them (768 with the copies below), to stay in the L2 cache; without
     * it the rows compute them */
    double *ax = NULL;
    void *ax_raw = NULL;
    size_t ax_cap = 0;
    int ax_ready = 0;
    if (!j->fast && j->kern->height_row && (uint64_t)b->nx * n <= ((uint64_t)64 << 10)) {
        /* and half as much again: the products at columns o + 16k for
         * each o < 8, the AVX-512 rows' window addresses, and up to 7
         * doubles of shift (px_fill_ax, px_row_products) */
        ax_cap = (size_t)b->nx * n + ((size_t)b->nx / 16 + 1) * 8 * n + 8;
        /* 64-byte aligned: the AVX-512 rows read it eight doubles a load,
         * and a load across two cache lines costs more (malloc's 512 KiB
         * start 16 bytes past a page: every load crossed) */
        ax_raw = malloc(ax_cap * sizeof *ax + 64);
        if (ax_raw)
            ax = (double *)(void *)align64(ax_raw);
        else
            ax_cap = 0;
    }
    /* the tile kernels' tables, kept from row to row (coarse steps) */
    ta.cache = tile_cache_new(j);
    for (int64_t i = begin; i < end; i++) {
        int64_t r = b->r0 + i;
        double *out = rowbuf ? rowbuf : j->height_out + i * b->nx;
        point p = {0.0, b->y0 + (double)r * b->step, &rs, 0, 0, 0, 0, 0, 0, 0};
        if (j->fast && j->iprof) {
            row_setup(j, r, &rs);
            for (int64_t c = 0; c < b->nx; c += tile) {
                int nk = b->nx - c < tile ? (int)(b->nx - c) : (int)tile;
                tile_pair(j, &rs, PAIR_H, j->X0 + (b->c0 + c) * j->S, nk, &ta);
                if (direct) {
                    ta.stream = j->stream && !t->mountains;
                    j->kern->height_store(&ta, rs.frac_scale, out + c);
                    if (t->mountains) {
                        const double base = t->mountain_base;
                        for (int k = 0; k < nk; k++)
                            if (out[c + k] > base) out[c + k] = mountain(t, out[c + k]);
                    }
                    continue;
                }
                j->kern->height(&ta, hs);
                if (t->mountains)
                    for (int k = 0; k < nk; k++)
                        out[c + k] = mountain(t, (double)hs[k] * rs.frac_scale);
                else
                    j->kern->store_heights(hs, nk, rs.frac_scale, out + c);
            }
        } else if (j->fast) {
            row_setup(j, r, &rs);
            for (int64_t c = 0; c < b->nx; c++) {
                p.X = j->X0 + (b->c0 + c) * j->S;
                out[c] = height_at(t, &p, MODE_BLOCK, 0, n);
            }
        } else if (j->kern->height_row && point_row_ok(t, b, p.y)) {
            rt_point_row pr = {t,     j->win, j->win_mask, b->x0,  b->step,     p.y,
                               b->c0, b->nx,  n,           out,    j->dwin, j->dwin_mask,
                               j->dwin8, j->dwin8_mask, ax, ax_cap, &ax_ready,
                               j->dwin2, j->dwin2_mask, j->stream && !t->mountains,
                               j->fma_min, j->cwin8};
            /* two rows at once where the variant has it (a float32 grid:
             * into its two row buffers) */
            const double y2 = b->y0 + (double)(r + 1) * b->step;
            double *out2 = rowbuf ? rowbuf + j->rowstride : out + b->nx;
            int rows = 1;
            if (j->kern->height_row2 && i + 1 < end && point_row_ok(t, b, y2)) {
                rt_point_row pr2 = pr;
                pr2.y = y2;
                pr2.out = out2;
                j->kern->height_row2(&pr, &pr2);
                rows = 2;
            } else {
                j->kern->height_row(&pr);
            }
            if (t->mountains)
                for (int64_t c = 0; c < b->nx; c++) {
                    out[c] = mountain(t, out[c]);
                    if (rows == 2) out2[c] = mountain(t, out2[c]);
                }
            if (rowbuf && rows == 2) {
                /* the first row's floats here, the second's below */
                rt__round_f32_rows(j->height_f32 + i * b->nx, rowbuf, b->nx, j->stream32, j->f32v);
                out = out2;
            }
            i += rows - 1;
        } else {
            for (int64_t c = 0; c < b->nx; c++) {
                p.x = b->x0 + (double)(b->c0 + c) * b->step;
                out[c] = height_at(t, &p, MODE_POINT, 0, n);
            }
        }
        /* a float32 grid: the row's doubles, from the row buffer (in the
         * cache), rounded to nearest into the output */
        if (rowbuf)
            rt__round_f32_rows(j->height_f32 + i * b->nx, out, b->nx, j->stream32, j->f32v);
    }
    free(ax_raw);
    free(ta.cache);
}

/* The classic model sums 5 directions: a constant count lets the compiler
 * unroll the sums; any other count takes the general loop. */
static void height_rows(void *ctx, int64_t begin, int64_t end)
{
    const block_job *j = ctx;
    /* a float32 grid: a free row buffer (no more chunks run at once than
     * there are buffers, so one is always free) */
    int slot = -1;
    double *rowbuf = j->height_f32 ? rowbufs_claim(j, 2, &slot) : NULL;
    if (j->t->directions == 5)
        height_rows_n(j, begin, end, 5, rowbuf);
    else
        height_rows_n(j, begin, end, j->t->directions, rowbuf);
    slot_release(j->rowbusy, slot);
    /* streaming stores are weakly ordered: make them visible before the rows
     * are handed back (thread join or return) */
    if (j->kern->finish) j->kern->finish();
    if (j->stream32) rt__round_f32_fence();
}

/* Can a terra row of any step take the point tile passes (prof_row,
 * height_row): inside the domain of exactness, and |A*x + B*y| < 2^36 for
 * every pair at every point (the extremes of x bound it, with ample margin
 * for the rounding of the products)? */
static int point_prof_ok(const rt_terrain *t, const rt_block *b, double y)
{
    const double lim = RT_TERRAIN_DOMAIN;
    double xa = fabs(b->x0 + (double)b->c0 * b->step);
    double xb = fabs(b->x0 + (double)(b->c0 + b->nx - 1) * b->step);
    double xm = xa > xb ? xa : xb;
    if (!(xm <= lim && fabs(y) <= lim && fabs(b->x0) <= lim)) return 0;
    /* nothing subnormal (prof_row scales by 2^-7): every x, y, A*x, B*y is
     * 0 or a multiple of 2^-952 when x0, step and y are 0 or >= 2^-900 */
    const double tiny = 0x1p-900;
    if ((b->x0 != 0.0 && fabs(b->x0) < tiny) || b->step < tiny || (y != 0.0 && fabs(y) < tiny))
        return 0;
    for (int pair = 0; pair < PAIR_COUNT; pair++)
        for (uint32_t i = 0; i < t->directions; i++) {
            double v = fabs((double)t->vec[PAIR_A[pair]][i]) * xm +
                       fabs((double)t->vec[PAIR_B[pair]][i] * y);
            if (!(v < 68719476736.0)) return 0;
        }
    return 1;
}

/* The classify pass's codes into the byte outputs: terrain = code & 0xff,
 * feature NONE; nonzero when some column is a feature candidate.  (restrict:
 * byte stores could alias the codes, which kept the loop scalar.) */
static int split_codes(const int32_t *restrict code, int nk, uint8_t *restrict ot,
                       uint8_t *restrict of)
{
    int32_t any = 0;
    for (int q = 0; q < nk; q++) {
        ot[q] = (uint8_t)(code[q] & 0xff);
        any |= code[q] >> 8;
    }
    if (nk > 0) memset(of, RT_NONE, (size_t)nk);
    return any != 0;
}

/* The common difference d of a tile's round_js(x), xr[q] = xr[0] + q*d,
 * where xr is such a sequence and every direction's step B2*d of the
 * feature sums is at most 2^7 (the linear kernels' windows: aw_plan_make's
 * rule) or the tile has a cache for the strided tables of larger ones
 * (coarse), else -1.  Integer steps from any origin give one (step 1 from
 * (0.1, 0.3): d = 1) unless x crosses a rounding boundary's neighbourhood
 * within the tile; steps below 1 do not. */
static int64_t xr_linear(const rt_terrain *t, const int32_t *xr, int nk, int coarse)
{
    if (nk < 2) return -1;
    const int64_t d = (int64_t)xr[1] - xr[0];
    for (int q = 2; q < nk; q++)
        if ((int64_t)xr[q] - xr[q - 1] != d) return -1;
    for (uint32_t i = 0; !coarse && i < t->directions; i++) {
        const int64_t a = (int64_t)t->vec[RT_B2][i] * d;
        if (a > 128 || a < -128) return -1;
    }
    return d;
}

/* The vegetation sums of a point tile at a dyadic step, step = S 2^-m,
 * from any origin, by the block path's linear kernel (kern->prof): the same
 * sums as prof_row.  Direction (a, b) at column k of the tile (x_k = fl(x0 +
 * fl((c0 + k)*step)), fl((c0 + k)*step) exact) has the seed's v_k = fl(fl(a
 * x_k) + fl(b y)) and index floor(v_k / 128).  Against the real V_k = a (x0
 * + (c0 + k) step) + fl(b y), |v_k - V_k| <= e = (6 |a| Mx + 2 |fl(b y)| +
 * 2) 2^-53 (point_rows_avx2.h's pq fixed point has the derivation), and
 * 2^m V_k = 2^m V_0 + a S k, a whole step a column.  So with f the fraction
 * of 2^m v_0 (v_0 within e of V_0):
 *  - where tol <= f <= 1 - tol, tol = 4 e 2^m, no 2^m V_k is within 2^m e
 *    of an integer: floor(2^m v_k) = floor(2^m v_0) + a S k = N_k, and the
 *    index is N_k >> (m + 7) (modulo the profile: 2^32 / 2^(m+7) is a
 *    multiple of its length), the linear kernel's with v0 = N_0, dv = a S;
 *  - else every 2^m v_k lies within 1 of N_k = round(2^m v_0) + a S k, so
 *    that floor(v_k / 128) = N_k >> (m + 7) unless N_k is a multiple of
 *    M = 2^(m+7), where the seed's rounding decides: those columns (every
 *    M / gcd(a S, M)-th at most, the first by a modular inverse) are taken
 *    by the doubles and the kernel's entry replaced.
 * At step 1 from (0.1, 0.3) two of the classic model's fifteen directions
 * are of the second kind ((-56, 22) and (4, 32): a/10 + 3b/10 whole).
 * Returns 0 (nothing written) where it does not serve: not a dyadic step,
 * or coordinates so far out that tol is not small. */
static int point_sums_linear(const block_job *j, const rt_terrain *t, double y, int64_t c,
                             int nk, uint32_t n, tile_buf *tb)
{
    static const int pa[3] = {RT_A1, RT_A2, RT_A3}, pb[3] = {RT_B1, RT_B2, RT_B3};
    const rt_block *b = j->b;
    if (j->lin_m < 0 || n > RT_MAX_DIRECTIONS) return 0;
    const int m = j->lin_m;
    const uint32_t mask = t->profile_len - 1, sh = (uint32_t)m + 7u;
    const uint32_t M = 1u << sh; /* the index's unit, in 2^-m */
    const double sc = ldexp(1.0, m);
    const int64_t k0 = b->c0 + c;
    const double xc = b->x0 + (double)k0 * b->step; /* column 0, as the rows compute it */
    const double ka = fabs((double)k0), kb = fabs((double)(k0 + nk));
    const double mx = fabs(b->x0) + (ka > kb ? ka : kb) * b->step * (1.0 + 0x1p-40) + 1.0;
    rt_tile_args ta[3];
    struct {
        int p;
        uint32_t i;
    } near[3 * RT_MAX_DIRECTIONS];
    int nn = 0;
    for (int p = 0; p < 3; p++) {
        rt_tile_args *a = &ta[p];
        memset(a, 0, sizeof *a);
        a->profile = j->piprof;
        a->mask = mask;
        a->shift = sh;
        a->n = n;
        a->nk = nk;
        tile_windows_of(j, a);
        a->cache = tb->cache; /* the strided tables of coarse steps */
        for (uint32_t i = 0; i < n; i++) {
            const int64_t A = t->vec[pa[p]][i];
            const double by = (double)t->vec[pb[p]][i] * y;
            const double v = (double)A * xc + by; /* the seed's v_0 */
            const double e = (6.0 * fabs((double)A) * mx + 2.0 * fabs(by) + 2.0) * 0x1p-53;
            const double tol = 4.0 * e * sc;
            if (!(tol < 0x1p-4)) return 0;
            const double F = v * sc, fl = floor(F), f = F - fl; /* exact */
            double N = fl;
            if (!(f >= tol && f <= 1.0 - tol)) {
                N = f < 0.5 ? fl : fl + 1.0;
                near[nn].p = p;
                near[nn].i = i;
                nn++;
            }
            a->v0[i] = (uint32_t)rt__u64((int64_t)N);
            a->dv[i] = (uint32_t)rt__u64(A * j->lin_S);
        }
    }
    int32_t *sums[3] = {tb->a1, tb->a2, tb->a3};
    for (int p = 0; p < 3; p++) j->kern->prof(&ta[p], sums[p]);
    /* the near directions' columns whose N_k is a multiple of M:
     * N_0 + dv k = 0 (mod M), dv = 2^z D with D odd */
    for (int q = 0; q < nn; q++) {
        const int p = near[q].p;
        const uint32_t i = near[q].i;
        const uint32_t v0 = ta[p].v0[i], dv = ta[p].dv[i];
        int64_t first, period;
        if ((dv & (M - 1u)) == 0) {
            if ((v0 & (M - 1u)) != 0) continue;
            first = 0;
            period = 1;
        } else {
            const int z = __builtin_ctz(dv);
            if ((v0 & ((1u << z) - 1u)) != 0) continue;
            const uint32_t Mz = M >> z, D = dv >> z;
            uint32_t inv = D; /* D^-1 modulo 2^32 by Newton's steps (3, 6, 12, 24, 48 bits) */
            for (int it = 0; it < 4; it++) inv *= 2u - D * inv;
            first = (int64_t)((0u - (v0 >> z)) * inv & (Mz - 1u));
            period = (int64_t)Mz;
        }
        const int64_t A = t->vec[pa[p]][i];
        const double by = (double)t->vec[pb[p]][i] * y;
        for (int64_t k = first; k < nk; k += period) {
            const double x = b->x0 + (double)(k0 + k) * b->step;
            const double v = (double)A * x + by;
            const uint32_t qs = rt__low32(rt__floor(rt__floor(v) * RT_RECIP128)) & mask;
            const uint32_t qk = ((v0 + (uint32_t)k * dv) >> sh) & mask;
            if (qs != qk) sums[p][k] += j->piprof[qs] - j->piprof[qk];
        }
    }
    return 1;
}

/* One row's tile of the point path (terra_point_row) from its heights ht
 * (height_row's, mountains not applied): the profile sums and rounded x by
 * prof_row, the feature sums by prof_at, decided by the classify pass;
 * the tile at column c of the row (out: the row's outputs), nk columns. */
static void point_tile(const block_job *j, const rt_terrain *t, const rt_terra_out *out, double y,
                       int64_t c, int nk, uint32_t n, tile_buf *tb, double *ht,
                       const int32_t veg_lt[4], double fmod_m)
{
    const rt_block *b = j->b;
    const double yr = rt__round_js(y);
    const int64_t yri = (int64_t)yr;
    /* the feature mask and codes as classify_bytes takes them (the mask a
     * power of two less one: the caller's `simple`) */
    const int int_feature = t->feature_mask < (1u << 25) && t->feature_point < (1u << 25) &&
                            t->feature_x < (1u << 25) && t->feature_cone < (1u << 25);
    rt_tile_args ta = {0};
    ta.profile = j->piprof;
    ta.mask = t->profile_len - 1;
    ta.shift = 7;
    ta.n = n;
    ta.win = j->win;
    ta.win_mask = j->win_mask;
    ta.win16 = j->win16;
    ta.win16_mask = j->win16_mask;
    ta.winp = j->winp;
    ta.winp_mask = j->winp_mask;
    ta.win8 = j->win8; /* the linear sums' (xr_linear) */
    ta.win8_mask = j->win8_mask;
    ta.win8_base = j->win8_base;
    ta.win64 = j->win64; /* and the VBMI CPUs' (tile_prof_lin64) */
    ta.win64_mask = j->win64_mask;
    for (uint32_t i = 0; i < n; i++) { /* calcProf(B2, xr, A3, yr): B2*xr + A3*yr */
        ta.dv[i] = (uint32_t)rt__u64((int64_t)t->vec[RT_B2][i]);
        ta.v0[i] = (uint32_t)rt__u64((int64_t)t->vec[RT_A3][i] * yri);
    }
    if (t->mountains)
        for (int q = 0; q < nk; q++) ht[q] = mountain(t, ht[q]);
    if (out->ground) memcpy(out->ground + c, ht, (size_t)nk * sizeof(double));
    /* the sums after the heights: the kernel may leave out those of
     * lake and mud columns */
    rt_point_prof pp = {t, j->piprof, j->win, j->win_mask, b->x0, b->step, y, b->c0 + c, nk, n,
                        {tb->a1, tb->a2, tb->a3}, tb->xr, j->win16, j->win16_mask,
                        ht, t->lake_height, t->lake_base,
                        tb->fix, tb->fix_cap, tb->fix_ready, j->winp, j->winp_mask,
                        tb->xr_nk == nk && tb->xr_c0 == b->c0 + c, j->vb};
    if (point_sums_linear(j, t, y, c, nk, n, tb)) {
        /* round_js(x), where xr does not hold this tile's */
        for (int q = 0; !pp.xr_ready && q < nk; q++)
            tb->xr[q] = (int32_t)rt__round_js(b->x0 + (double)(b->c0 + c + q) * b->step);
    } else {
        j->kern->prof_row(&pp);
    }
    if (!pp.xr_ready) tb->xr_d = xr_linear(t, tb->xr, nk, tb->cache != NULL);
    tb->xr_c0 = b->c0 + c;
    tb->xr_nk = nk;
    for (int q = nk; q < ((nk + 7) & ~7); q++) tb->xr[q] = tb->xr[nk - 1]; /* read, unused */
    ta.nk = nk;
    /* the feature sums: kept where the scratch has room for the tile's */
    const int fa_keep = tb->fa_keep && c + nk <= tb->fa_cap;
    int32_t *fa = fa_keep ? tb->fa_keep + c : tb->fa;
    if (fa_keep && tb->fa_ready[c / TILE] && tb->fa_yr[c / TILE] == yri) {
        /* fa holds them: an earlier row's, of the same rounded y */
    } else if (tb->xr_d >= 0) {
        /* the sums at xr[0] + q*d by the linear kernel: v0 + B2*xr[q]
         * = (v0 + B2*xr[0]) + q*(B2*d) modulo 2^32, the same indices */
        rt_tile_args tl = ta;
        tl.cache = tb->cache;
        for (uint32_t i = 0; i < n; i++) {
            tl.v0[i] = ta.v0[i] + ta.dv[i] * (uint32_t)tb->xr[0];
            tl.dv[i] = ta.dv[i] * (uint32_t)tb->xr_d;
        }
        j->kern->prof(&tl, fa);
    } else {
        j->kern->prof_at(&ta, (const uint32_t *)tb->xr, fa);
    }
    if (fa_keep) {
        tb->fa_ready[c / TILE] = 1;
        tb->fa_yr[c / TILE] = yri;
    }
    /* as terra_rows_n's classify pass of the block path */
    uint8_t *ot = out->terrain ? out->terrain + c : tb->ot;
    uint8_t *of = out->feature ? out->feature + c : tb->of;
    rt_classify_args ca = {0};
    ca.nk = nk;
    ca.lake_height = t->lake_height;
    ca.lake_base = t->lake_base;
    ca.yr = yr;
    ca.fmod_m = fmod_m;
    ca.fmod_inv = 1.0 / fmod_m;
    ca.f_point = (double)t->feature_point;
    ca.f_x = (double)t->feature_x;
    ca.f_cone = (double)t->feature_cone;
    ca.ht = ht;
    ca.a1 = tb->a1;
    ca.a2 = tb->a2;
    ca.a3 = tb->a3;
    ca.fa = fa;
    ca.xr = tb->xr;
    ca.height = out->height ? out->height + c : tb->oh;
    ca.depth = out->depth ? out->depth + c : tb->od;
    ca.code = tb->code;
    ca.town_lt = veg_lt[0];
    ca.grass_lt = veg_lt[1];
    ca.open_lt = veg_lt[2];
    ca.thicket_lt = veg_lt[3];
    ca.town_abs = t->town_abs != 0;
    /* the feature values in integers where every product is exact
     * (classify_out's hint; xr is monotone: its ends bound it) */
    ca.int_feature = int_feature && feature_exact(j, tb->xr[0], tb->xr[nk - 1], yri);
    ca.fmask = t->feature_mask;
    ca.fp_i = (int32_t)t->feature_point;
    ca.fx_i = (int32_t)t->feature_x;
    ca.fc_i = (int32_t)t->feature_cone;
    if (j->kern->classify_out) { /* straight into the bytes */
        ca.terrain = ot;
        ca.feature = of;
        ca.cmask = tb->cmask;
        ca.stream = j->stream && out->height && out->depth && out->terrain && out->feature;
        if (j->kern->classify_out(&ca)) /* rare: feature candidates, exactly */
            for (int q = cmask_next(tb->cmask, nk, 0); q < nk; q = cmask_next(tb->cmask, nk, q + 1))
                of[q] = feature_of(t, (double)fa[q], (double)tb->xr[q] * yr);
        return;
    }
    j->kern->classify(&ca);
    const int any = split_codes(tb->code, nk, ot, of);
    for (int q = 0; any && q < nk; q++) /* rare: feature candidates, exactly */
        if (tb->code[q] >> 8)
            of[q] = feature_of(t, (double)fa[q], (double)tb->xr[q] * yr);
}

/* The tiles near a placed entry: terra_at point by point (MODE_POINT) */
static void point_tile_placed(const block_job *j, const rt_terrain *t, const rt_terra_out *out,
                              double y, int64_t c, int nk, uint32_t n)
{
    const rt_block *b = j->b;
    point p = {0.0, y, NULL, 0, 0, 0, 0, 0, 0, 0};
    terra_res res;
    for (int q = 0; q < nk; q++) {
        p.x = b->x0 + (double)(b->c0 + c + q) * b->step;
        terra_at(t, &p, MODE_POINT, &res, n);
        store(out, c + q, &res);
    }
}

/* A terra row of any step (the point path) by tiles, or two rows (out2
 * not NULL: the row after the first, at y2): the heights by height_row,
 * or by height_row2 for both rows at once where the variant has it (the
 * same doubles), the rest by point_tile: the seed's double arithmetic
 * operation for operation (SPEC 5), as terra_at's MODE_POINT, in SIMD.
 * For the common case (`simple`, without SPEC 17's late rules or calc_prof
 * "js") only; tiles near a placed entry take the point path. */
static void terra_point_row(const block_job *j, const rt_terrain *t, const rt_terra_out *out,
                            const rt_terra_out *out2, double y, double y2, uint32_t n,
                            tile_buf *tb, const int32_t veg_lt[4], double fmod_m)
{
    const rt_block *b = j->b;
    const int64_t yri = (int64_t)rt__round_js(y), yri2 = (int64_t)rt__round_js(y2);
    for (int64_t c = 0; c < b->nx; c += TILE) {
        const int nk = b->nx - c < TILE ? (int)(b->nx - c) : TILE;
        /* round_js(x) at the tile's ends (prof_row's xr[0] and xr[nk - 1]) */
        const double xa = rt__round_js(b->x0 + (double)(b->c0 + c) * b->step);
        const double xb = rt__round_js(b->x0 + (double)(b->c0 + c + nk - 1) * b->step);
        const int near = rt__placed_near(t->placed, (int64_t)xa, (int64_t)xb, yri);
        const int near2 = out2 && rt__placed_near(t->placed, (int64_t)xa, (int64_t)xb, yri2);
        /* the tile's products in the thread's scratch, where they fit (the
         * tile's columns, c0 and nk, are those of every row) */
        const size_t at = (size_t)c * n, an = (size_t)nk * n;
        const int keep = tb->ax && at + an <= tb->ax_cap;
        rt_point_row pr = {t,  j->win, j->win_mask, b->x0,  b->step,     y,
                           b->c0 + c, nk, n, tb->ht, j->dwin, j->dwin_mask,
                           j->dwin8, j->dwin8_mask, keep ? tb->ax + at : NULL, an,
                           keep ? tb->ax_ready + c / TILE : NULL, j->dwin2, j->dwin2_mask,
                           0, j->fma_min};
        rt_point_row pr2 = pr;
        pr2.y = y2;
        pr2.out = tb->ht2;
        if (out2 && !near && !near2) {
            j->kern->height_row2(&pr, &pr2);
        } else {
            if (!near) j->kern->height_row(&pr);
            if (out2 && !near2) j->kern->height_row(&pr2);
        }
        if (near)
            point_tile_placed(j, t, out, y, c, nk, n);
        else
            point_tile(j, t, out, y, c, nk, n, tb, tb->ht, veg_lt, fmod_m);
        if (!out2) continue;
        if (near2)
            point_tile_placed(j, t, out2, y2, c, nk, n);
        else
            point_tile(j, t, out2, y2, c, nk, n, tb, tb->ht2, veg_lt, fmod_m);
    }
}

/* The ground of a tile of the block path from its height numerators: as
 * height_rows_n computes it (num * 2^-shift exactly, then the mountains). */
static void ground_tile(const block_job *j, const rt_terrain *t, const int32_t *num, int nk,
                        double scale, double *restrict out)
{
    if (!t->mountains) {
        j->kern->store_heights(num, nk, scale, out);
        return;
    }
    for (int q = 0; q < nk; q++) out[q] = mountain(t, (double)num[q] * scale);
}

/* The outputs of row i of a terra grid, from the row's first column: the
 * grid's, or for a float32 grid the row buffers rb (height, depth, ground,
 * rowstride apart) and the grid's byte outputs. */
static rt_terra_out terra_row_out(const block_job *j, int64_t i, double *rb)
{
    const int64_t k = i * j->b->nx;
    if (rb) {
        const rt_terra_out32 *o = j->out32;
        return (rt_terra_out){o->height ? rb : NULL, o->depth ? rb + j->rowstride : NULL,
                              o->terrain ? o->terrain + k : NULL,
                              o->feature ? o->feature + k : NULL,
                              o->ground ? rb + 2 * j->rowstride : NULL};
    }
    const rt_terra_out *o = j->out;
    return (rt_terra_out){o->height ? o->height + k : NULL, o->depth ? o->depth + k : NULL,
                          o->terrain ? o->terrain + k : NULL, o->feature ? o->feature + k : NULL,
                          o->ground ? o->ground + k : NULL};
}

/* A float32 terra grid's row i: its row buffers rounded into the outputs. */
static void terra_row_round(const block_job *j, int64_t i, const double *rb)
{
    const rt_terra_out32 *o = j->out32;
    const int64_t nx = j->b->nx, k = i * nx;
    const int v = j->f32v;
    if (o->height) rt__round_f32_rows(o->height + k, rb, nx, j->stream32, v);
    if (o->depth) rt__round_f32_rows(o->depth + k, rb + j->rowstride, nx, j->stream32, v);
    if (o->ground) rt__round_f32_rows(o->ground + k, rb + 2 * j->rowstride, nx, j->stream32, v);
}

RT_INLINE void terra_rows_n(const block_job *j, int64_t begin, int64_t end, uint32_t n,
                            tile_buf *tb, double *rb)
{
    const rt_terrain tl = *j->t; /* local copies, as in height_rows_n */
    const rt_terrain *t = &tl;
    const rt_block *b = j->b;
    row_state rs;
    terra_res res;
    rt_tile_args ta = {0};
    ta.cache = tb ? tb->cache : NULL;
    /* the common case, decided by the classify pass */
    const uint32_t fmask = t->feature_mask;
    /* SPEC 17's snow, rock and quarries (and snow itself): decided after the
     * classify pass, from its heights and sums (after_classify) */
    const int late = t->snow || t->rock || t->quarries;
    const int simple = !t->bleak && !t->with_paths && !t->wood_only &&
                       fmask < 0x80000000u && (fmask & (fmask + 1)) == 0;
    const double fmod_m = (double)fmask + 1.0;
    const int32_t veg_lt[4] = {int_threshold(t->town_below), int_threshold(t->grass_below),
                               int_threshold(t->open_below), int_threshold(t->thicket_below)};
    /* integer feature values (classify_bytes): no mountains, the plain town
     * test, the feature codes below 2^25 and the mask taking bits 7..31 of
     * the numerator */
    /* (with mountains from above both lake levels, the pass's lake and mud
     * decisions on the raw heights are those on the transformed ones) */
    const int int_classify = simple && !t->town_abs &&
                             (!t->mountains || (t->mountain_base >= t->lake_height &&
                                                t->mountain_base >= t->lake_base)) &&
                             fmask < (1u << 25) &&
                             t->feature_point < (1u << 25) && t->feature_x < (1u << 25) &&
                             t->feature_cone < (1u << 25);
    /* classify_bytes' outputs revisited by after_classify: int32 sums, no
     * streaming stores */
    const int post = late || t->mountains;
    /* calc_prof "js" at fractional points: the sums by prof_js, int32 */
    const int js_frac = t->calc_prof_js && j->m > 0;
    for (int64_t i = begin; i < end; i++) {
        int64_t r = b->r0 + i;
        /* the row's outputs, from its first column (k counts along it) */
        const rt_terra_out out = terra_row_out(j, i, rb);
        int64_t k = 0;
        point p = {0.0, b->y0 + (double)r * b->step, &rs, 0, 0, 0, 0, 0, 0, 0};
        if (tb && j->fast) {
            row_setup(j, r, &rs);
            for (int64_t c = 0; c < b->nx; c += TILE) {
                int nk = b->nx - c < TILE ? (int)(b->nx - c) : TILE;
                int64_t X = j->X0 + (b->c0 + c) * j->S;
                /* the rounded x of the tile: with m = 0 they are X + q*S
                 * (tile_round), computed from that where the classify_bytes
                 * path takes the tile, else in tb->xr */
                const int lin = j->m == 0;
                int32_t xa, xb;
                if (lin) { /* x integer: a linear sequence of indices */
                    xa = (int32_t)(uint32_t)rt__u64(X);
                    xb = (int32_t)(uint32_t)rt__u64(X + (nk - 1) * j->S);
                } else {
                    tile_round(X, j->S, j->m, nk, tb->xr);
                    xa = tb->xr[0];
                    xb = tb->xr[nk - 1];
                }
                const int near = simple && rt__placed_near(t->placed, xa, xb, rs.yr);
                const int bytes_path = simple && !near && int_classify && j->kern->classify_bytes &&
                                       feature_exact(j, xa, xb, rs.yr);
                tile_pair(j, &rs, PAIR_H, X, nk, &ta);
                j->kern->height(&ta, tb->h);
                if (out.ground) ground_tile(j, t, tb->h, nk, rs.frac_scale, out.ground + k);
                /* a1, a2, a3: in the kernel's 16-bit form where it has one
                 * and the classify_bytes path takes the tile (all three
                 * alike, or all int32) */
                int k16 = 0;
                int32_t off[3] = {0, 0, 0};
                int32_t *const a123[3] = {tb->a1, tb->a2, tb->a3};
                for (int q = 0; q < 3; q++) {
                    if (js_frac) { /* SPEC 17: the JavaScript's calcProf */
                        prof_js(j, &rs, PAIR_1 + q, X, nk, a123[q], tb->code);
                        continue;
                    }
                    tile_pair(j, &rs, PAIR_1 + q, X, nk, &ta);
                    if (bytes_path && !post && !js_frac && j->kern->prof16 && (q == 0 || k16 > 0)) {
                        const int k = j->kern->prof16(&ta, a123[q], &off[q]);
                        if (q == 0 || k == k16) {
                            k16 = k;
                            continue;
                        }
                        /* the forms differ (a tile some pair of which the
                         * 16-bit form cannot serve): all int32 */
                        for (int r2 = 0; r2 < q; r2++) {
                            rt_tile_args tp;
                            tile_pair(j, &rs, PAIR_1 + r2, X, nk, &tp);
                            j->kern->prof(&tp, a123[r2]);
                        }
                        k16 = 0;
                    }
                    j->kern->prof(&ta, a123[q]);
                }
                if (lin) {
                    tile_feature(j, &rs, nk, 1, X, &ta);
                    j->kern->prof(&ta, tb->fa);
                } else {
                    tile_feature(j, &rs, nk, 0, X, &ta);
                    j->kern->prof_at(&ta, (const uint32_t *)tb->xr, tb->fa);
                }
                if (bytes_path) {
                    uint8_t *ot = out.terrain ? out.terrain + k : tb->ot;
                    uint8_t *of = out.feature ? out.feature + k : tb->of;
                    rt_classify_args ca = {0};
                    ca.nk = nk;
                    ca.lake_height = t->lake_height;
                    ca.yr = (double)rs.yr;
                    ca.a1 = tb->a1;
                    ca.a2 = tb->a2;
                    ca.a3 = tb->a3;
                    ca.fa = tb->fa;
                    ca.xr = lin ? NULL : tb->xr;
                    ca.xy0 = (uint32_t)xa * (uint32_t)rs.yr;
                    ca.dxy = (uint32_t)rt__u64(j->S) * (uint32_t)rs.yr;
                    ca.height = out.height ? out.height + k : tb->oh;
                    ca.depth = out.depth ? out.depth + k : tb->od;
                    ca.town_lt = veg_lt[0];
                    ca.grass_lt = veg_lt[1];
                    ca.open_lt = veg_lt[2];
                    ca.thicket_lt = veg_lt[3];
                    ca.hnum = tb->h;
                    ca.scale = rs.frac_scale;
                    ca.lake_lt = int_threshold(ldexp(t->lake_height, rs.shift));
                    ca.mud_lt = int_threshold(ldexp(t->lake_base, rs.shift));
                    ca.fmask = fmask;
                    ca.fp_i = (int32_t)t->feature_point;
                    ca.fx_i = (int32_t)t->feature_x;
                    ca.fc_i = (int32_t)t->feature_cone;
                    ca.terrain = ot;
                    ca.feature = of;
                    ca.stream = j->stream && !post && out.height && out.depth && out.terrain &&
                                out.feature;
                    ca.cmask = tb->cmask;
                    ca.k16 = k16;
                    ca.off1 = off[0];
                    ca.off2 = off[1];
                    ca.off3 = off[2];
                    if (j->kern->classify_bytes(&ca)) /* rare: feature candidates, exactly */
                        for (int q = cmask_next(tb->cmask, nk, 0); q < nk;
                             q = cmask_next(tb->cmask, nk, q + 1)) {
                            const int32_t x = lin ? (int32_t)((uint32_t)xa +
                                                              (uint32_t)q * (uint32_t)rt__u64(j->S))
                                                  : tb->xr[q];
                            of[q] = feature_of(t, (double)tb->fa[q], (double)x * (double)rs.yr);
                        }
                    if (post)
                        after_classify(t, tb, nk, rs.frac_scale, (double)rs.yr, lin ? NULL : tb->xr,
                                       (uint32_t)xa, (uint32_t)rt__u64(j->S), 1, late, ot, of,
                                       ca.height, ca.depth);
                    k += nk;
                    continue;
                }
                if (lin) tile_round(X, j->S, j->m, nk, tb->xr); /* the other paths need them */
                if (simple && !near) {
                    for (int q = 0; q < nk; q++)
                        tb->ht[q] = mountain(t, (double)tb->h[q] * rs.frac_scale);
                    /* outputs written in place; scratch for those not wanted */
                    uint8_t *ot = out.terrain ? out.terrain + k : tb->ot;
                    uint8_t *of = out.feature ? out.feature + k : tb->of;
                    rt_classify_args ca = {nk, t->lake_height, t->lake_base, (double)rs.yr,
                                           fmod_m, 1.0 / fmod_m, (double)t->feature_point,
                                           (double)t->feature_x, (double)t->feature_cone,
                                           tb->ht, tb->a1, tb->a2, tb->a3,
                                           tb->fa, tb->xr,
                                           out.height ? out.height + k : tb->oh,
                                           out.depth ? out.depth + k : tb->od, tb->code,
                                           veg_lt[0], veg_lt[1], veg_lt[2], veg_lt[3],
                                           NULL, 0.0, 0, 0, 0, 0, 0, 0, NULL, NULL,
                                           t->town_abs != 0, 0, NULL, 0, 0, 0, 0, 0, 0};
                    j->kern->classify(&ca);
                    int any = 0;
                    for (int q = 0; q < nk; q++) {
                        int32_t cd = tb->code[q];
                        ot[q] = (uint8_t)(cd & 0xff);
                        of[q] = RT_NONE;
                        any |= cd >> 8;
                    }
                    for (int q = 0; any && q < nk; q++) /* rare: feature candidates, exactly */
                        if (tb->code[q] >> 8)
                            of[q] = feature_of(t, (double)tb->fa[q],
                                               (double)tb->xr[q] * (double)rs.yr);
                    if (late)
                        after_classify(t, tb, nk, rs.frac_scale, (double)rs.yr, tb->xr, 0, 0, 0, 1,
                                       ot, of, out.height ? out.height + k : tb->oh,
                                       out.depth ? out.depth + k : tb->od);
                    k += nk;
                    continue;
                }
                for (int q = 0; q < nk; q++, k++) {
                    p.x = b->x0 + (double)(b->c0 + c + q) * b->step;
                    p.X = X + q * j->S;
                    p.ht = mountain(t, (double)tb->h[q] * rs.frac_scale);
                    p.a1 = tb->a1[q];
                    p.a2 = tb->a2[q];
                    p.a3 = tb->a3[q];
                    p.fa = tb->fa[q];
                    p.xr = (double)tb->xr[q];
                    terra_at(t, &p, MODE_TILE, &res, n);
                    store(&out, k, &res);
                }
            }
        } else if (j->fast) {
            row_setup(j, r, &rs);
            for (int64_t c = 0; c < b->nx; c++, k++) {
                p.x = b->x0 + (double)(b->c0 + c) * b->step;
                p.X = j->X0 + (b->c0 + c) * j->S;
                terra_at(t, &p, MODE_BLOCK, &res, n);
                store(&out, k, &res);
            }
        } else if (tb && simple && !late && !t->calc_prof_js && point_prof_ok(t, b, p.y)) {
            /* two rows at once where the variant's heights take two (not a
             * float32 grid's rows: one row buffer) */
            const double y2 = b->y0 + (double)(r + 1) * b->step;
            if (!rb && j->kern->height_row2 && i + 1 < end && point_prof_ok(t, b, y2)) {
                const rt_terra_out out2 = terra_row_out(j, i + 1, rb);
                terra_point_row(j, t, &out, &out2, p.y, y2, n, tb, veg_lt, fmod_m);
                i++;
            } else {
                terra_point_row(j, t, &out, NULL, p.y, 0.0, n, tb, veg_lt, fmod_m);
            }
        } else {
            for (int64_t c = 0; c < b->nx; c++, k++) {
                p.x = b->x0 + (double)(b->c0 + c) * b->step;
                terra_at(t, &p, MODE_POINT, &res, n);
                store(&out, k, &res);
            }
        }
        if (rb) terra_row_round(j, i, rb);
    }
}

static void terra_rows(void *ctx, int64_t begin, int64_t end)
{
    const block_job *j = ctx;
    /* the tile passes: a free tile_buf (no more chunks run at once than
     * there are buffers, so one is always free) */
    int slot = -1;
    tile_buf *tb = NULL;
    if ((j->fast && j->iprof) || j->point_tiles) {
        slot = slot_claim(j->busy, j->nbufs);
        tb = &j->bufs[slot];
    }
    /* a float32 grid: a free slot of row buffers */
    int rslot = -1;
    double *rb = j->out32 ? rowbufs_claim(j, 3, &rslot) : NULL;
    if (j->t->directions == 5)
        terra_rows_n(j, begin, end, 5, tb, rb);
    else
        terra_rows_n(j, begin, end, j->t->directions, tb, rb);
    slot_release(j->rowbusy, rslot);
    slot_release(j->busy, slot);
    if (j->kern->finish) j->kern->finish(); /* see height_rows */
    if (j->stream32) rt__round_f32_fence();
}

/* The rotated windows of an integer profile (the tile passes of the block
 * path, and the point-path rows of any step). */
static void prepare_windows(block_job *j, int32_t *iprof, int32_t *win, uint8_t *win8,
                            uint8_t *win64, int32_t *win16p)
{
    const rt_terrain *t = j->t;
    if (!j->iprof) { /* the point path: an integer profile still has windows */
        if (t->profile_len > INT_PROFILE_MAX) return;
        for (uint32_t k = 0; k < t->profile_len; k++) {
            double v = t->profile[k];
            if (!(v == rt__floor(v)) || !(fabs(v) < 32768.0)) return;
            iprof[k] = (int32_t)v;
        }
        j->piprof = iprof;
    }
    double maxabs = 0.0;
    for (uint32_t k = 0; k < t->profile_len; k++)
        if (fabs((double)iprof[k]) > maxabs) maxabs = fabs((double)iprof[k]);
    j->fa_max = (double)t->directions * maxabs;
    int wm = rt__tile_windows(iprof, t->profile_len, win);
    if (wm > 0) {
        j->win = win;
        j->win_mask = (uint32_t)wm;
    }
    /* the wide kernels' 16-lane ones: the block path's tiles of terra grids
     * (height grids write as fast at step 1 without) */
    const int wm16 = wm > 0 && j->kern->wide_tiles && j->iprof && (j->out || j->out32) && j->b->nx >= 64
                         ? rt__tile_windows16(iprof, t->profile_len, win16p) : -1;
    if (wm16 > 0) {
        j->win16p = win16p;
        j->win16p_mask = (uint32_t)wm16;
    }
    int32_t base = 0;
    /* the byte windows serve the profile sums of terra grids, 32 columns a
     * step (the block path's, and the point path's feature sums at whole
     * steps: terra_point_row): not built for height grids or narrow ones
     * (small grids are many and cheap: streams and sites compute such) */
    if (!(j->out || j->out32) || !(j->iprof || j->piprof) || j->b->nx < 32) return;
    int wm8 = rt__tile_windows8(iprof, t->profile_len, win8, &base);
    if (wm8 > 0) {
        j->win8 = win8;
        j->win8_mask = (uint32_t)wm8;
        j->win8_base = base;
        /* and the 64-byte ones of the kernels that read them */
        const int wm64 = j->kern->wide_tiles && j->b->nx >= 64
                             ? rt__tile_windows64(iprof, t->profile_len, win64) : -1;
        if (wm64 > 0) {
            j->win64 = win64;
            j->win64_mask = (uint32_t)wm64;
        }
    }
}

/* At most one thread per `per` points (at least one): below some tens of
 * microseconds of work a thread, starting one costs more than it saves,
 * and on a busy machine it may not run for milliseconds. */
static int threads_for(int threads, int64_t points, int64_t per)
{
    if (threads > 1 && points < (int64_t)threads * per) {
        const int64_t most = points / per;
        threads = most < 1 ? 1 : (int)most;
    }
    return threads;
}

/* The threads rt_parallel_for runs on n rows. */
static int thread_count(int threads, int64_t n)
{
    if (threads > RT_MAX_THREADS) threads = RT_MAX_THREADS;
    if (threads > n) threads = (int)n;
    return threads < 1 ? 1 : threads;
}

/* One heap block for a grid call: the scratch, 64-byte aligned, then
 * `nbufs` tile buffers and their flags.  *raw gets what to free. */
static grid_scratch *grid_scratch_new(int nbufs, int64_t nx, void **raw, tile_buf **bufs,
                                      atomic_int **busy)
{
    /* the tile buffers as wide as a tile of this grid can be (small grids,
     * as streams and sites compute, get small buffers), each array 64-byte
     * aligned; the kernels may write up to a multiple of 8 */
    const size_t w = (size_t)(nx < TILE ? (nx + 31) & ~(int64_t)31 : TILE);
    const size_t a4 = (w * 4 + 63) & ~(size_t)63, a8 = (w * 8 + 63) & ~(size_t)63;
    const size_t a1 = (w + 63) & ~(size_t)63, am = (w / 8 + 1 + 63) & ~(size_t)63;
    const size_t per = 7 * a4 + 4 * a8 + 2 * a1 + am;
    const size_t head = (sizeof(grid_scratch) + 63) & ~(size_t)63;
    const size_t heads = ((size_t)nbufs * (sizeof(tile_buf) + sizeof(atomic_int)) + 63) & ~(size_t)63;
    unsigned char *p = malloc(head + heads + (size_t)nbufs * per + 64);
    *raw = p;
    if (!p) return NULL;
    unsigned char *a = align64(p);
    grid_scratch *g = (grid_scratch *)(void *)a;
    *bufs = (tile_buf *)(void *)(a + head);
    *busy = (atomic_int *)(void *)(a + head + (size_t)nbufs * sizeof(tile_buf));
    unsigned char *q = a + head + heads;
    for (int k = 0; k < nbufs; k++) {
        tile_buf *tb = &(*bufs)[k];
        int32_t **i32[7] = {&tb->h, &tb->a1, &tb->a2, &tb->a3, &tb->fa, &tb->xr, &tb->code};
        double **f64[4] = {&tb->ht, &tb->oh, &tb->od, &tb->ht2};
        for (int m = 0; m < 7; m++, q += a4) *i32[m] = (int32_t *)(void *)q;
        for (int m = 0; m < 4; m++, q += a8) *f64[m] = (double *)(void *)q;
        tb->ot = q;
        q += a1;
        tb->of = q;
        q += a1;
        tb->cmask = q;
        q += am;
        tb->ax = NULL; /* rt_terra_grid's, where it keeps the products */
        tb->ax_cap = 0;
        tb->ax_ready = NULL;
        tb->fix = NULL; /* and these */
        tb->fix_cap = 0;
        tb->fix_ready = NULL;
        tb->xr_c0 = 0;
        tb->xr_nk = 0;
        tb->xr_d = -1;
        tb->fa_keep = NULL; /* rt_terra_grid's too */
        tb->fa_cap = 0;
        tb->fa_yr = NULL;
        tb->fa_ready = NULL;
        tb->cache = NULL; /* rt_terra_grid's too */
        atomic_init(&(*busy)[k], 0);
    }
    return g;
}

/* Plans a grid call: the path, the integer profile, the kernels, the windows. */
static void grid_plan(block_job *j, grid_scratch *g)
{
    plan_block(j);
    if (j->fast && int_profile(j->t, j->m, g->iprof)) {
        j->iprof = g->iprof;
        if (byte_profile(j->t, g->iprof, g->bytes)) j->bytes = g->bytes;
    }
    j->kern = rt__tile_kernels(j->t->simd, j->bytes != NULL);
    prepare_windows(j, g->iprof, g->win, g->win8, g->win64, g->win16p);
    if (!j->fast && j->kern->height_row) {
        const int dm = rt__point_dwin(j->t->profile, j->t->profile_len, g->dwin);
        if (dm > 0) {
            j->dwin = g->dwin;
            j->dwin_mask = (uint32_t)dm;
        }
        /* the two-entry windows: the height rows with the block's products */
        const int d2 = rt__point_dwin2(j->t->profile, j->t->profile_len, g->dwin2);
        if (d2 > 0) {
            j->dwin2 = g->dwin2;
            j->dwin2_mask = (uint32_t)d2;
        }
        j->fma_min = rt__point_fma_min(j->t->profile, j->t->profile_len);
        /* the wide kernels' windows: for rows of 16 columns and more */
        const int d8 = j->kern->wide && j->b->nx >= 16
                           ? rt__point_dwin8(j->t->profile, j->t->profile_len, g->dwin8) : -1;
        if (d8 > 0) {
            j->dwin8 = g->dwin8;
            j->dwin8_mask = (uint32_t)d8;
            if (rt__point_cwin8(j->t->profile, j->t->profile_len, g->cwin8) == d8)
                j->cwin8 = g->cwin8;
        }
        const int w16 = j->kern->wide && j->piprof && (j->out || j->out32) && j->b->nx >= 16
                            ? rt__point_win16(j->piprof, j->t->profile_len, g->win16) : -1;
        if (w16 > 0) {
            j->win16 = g->win16;
            j->win16_mask = (uint32_t)w16;
        }
        /* the AVX2 point tiles' plain windows, in the wide ones' room */
        const int wp = !j->kern->wide && j->piprof && (j->out || j->out32) && j->b->nx >= 8 &&
                       j->b->ny > 1
                           ? rt__point_win8(j->piprof, j->t->profile_len, g->win16) : -1;
        if (wp > 0) {
            j->winp = g->win16;
            j->winp_mask = (uint32_t)wp;
        }
    }
}

/* rt_height_grid into doubles (out) or, out32 given, into floats. */
static rt_status height_grid(const rt_terrain *t, const rt_block *b, double *out, float *out32,
                             int threads)
{
    rt_status s = rt__terrain_check_shape(t, NULL);
    if (s == RT_OK) s = rt__check_block(b);
    if (s != RT_OK) return s;
    if (!out && !out32) return RT_ERR_NULL;
    void *raw;
    tile_buf *bufs;
    atomic_int *busy;
    grid_scratch *g = grid_scratch_new(0, b->nx, &raw, &bufs, &busy);
    if (!g) return RT_ERR_NOMEM;
    block_job j = {.t = t, .b = b, .height_out = out, .height_f32 = out32};
    j.stream32 = out32 && b->nx * b->ny > RT_STREAM_F32_BYTES / 4;
    j.f32v = rt_simd_resolve(t->simd);
    grid_plan(&j, g);
    /* streaming from RT_STREAM_BYTES on the tile path, from
     * RT_STREAM_POINT_BYTES on the point path (j.fast unset); a float32
     * grid's rows go through its threads' row buffers, in the caches: no
     * streaming stores */
    j.stream = !out32 && b->nx * b->ny > (j.fast ? RT_STREAM_BYTES : RT_STREAM_POINT_BYTES) / 8;
    /* the tile path makes a point in about 0.4 ns: below RT_THREAD_POINTS
     * points a thread, starting one costs more than it saves (the bits are
     * the same for any count) */
    threads = threads_for(threads, b->nx * b->ny,
                          j.fast && j.iprof ? RT_THREAD_POINTS : RT_THREAD_POINTS_SLOW);
    /* one row buffer for each thread that can run at once */
    void *rows_raw = out32 ? rowbufs_new(&j, threads > 1 ? threads : 1, 2) : NULL;
    if (out32 && !rows_raw) {
        free(raw);
        return RT_ERR_NOMEM;
    }
    rt_parallel_for(threads, b->ny, height_rows, &j);
    free(rows_raw);
    free(raw);
    return RT_OK;
}

/* (the checks in height_grid's order: the terrain, the block, then out) */
rt_status rt_height_grid(const rt_terrain *t, const rt_block *b, double *out, int threads)
{
    return height_grid(t, b, out, NULL, threads);
}

rt_status rt_height_grid_f32(const rt_terrain *t, const rt_block *b, float *out, int threads)
{
    return height_grid(t, b, NULL, out, threads);
}

/* rt_terra_grid (out) or rt_terra_grid_f32 (out32). */
static rt_status terra_grid(const rt_terrain *t, const rt_block *b, const rt_terra_out *out,
                            const rt_terra_out32 *out32, int threads)
{
    rt_status s = rt__terrain_check_shape(t, NULL);
    if (s == RT_OK) s = rt__check_block(b);
    if (s != RT_OK) return s;
    if (!out && !out32) return RT_ERR_NULL;
    /* the features alone: from the feature value, terra at its candidates */
    if (out && out->feature && !out->height && !out->depth && !out->terrain && !out->ground) {
        s = rt__feature_grid_sparse(t, b, out->feature, threads);
        if (s != RT_ERR_PARAM) return s;
    }
    void *raw;
    block_job j = {.t = t, .b = b, .out = out, .out32 = out32};
    j.nbufs = thread_count(threads, b->ny);
    /* height, depth, terrain, feature; a float32 grid's rows through its
     * row buffers, in the cache, its floats streamed as height_grid's */
    j.stream = !out32 && b->nx * b->ny > RT_STREAM_BYTES / 18;
    j.stream32 = out32 && b->nx * b->ny > RT_STREAM_F32_BYTES / 4;
    j.f32v = rt_simd_resolve(t->simd);
    grid_scratch *g = grid_scratch_new(j.nbufs, b->nx, &raw, &j.bufs, &j.busy);
    if (!g) return RT_ERR_NOMEM;
    void *rows_raw = out32 ? rowbufs_new(&j, j.nbufs, 3) : NULL;
    if (out32 && !rows_raw) {
        free(raw);
        return RT_ERR_NOMEM;
    }
    grid_plan(&j, g);
    j.point_tiles = !j.fast && j.piprof && j.kern->prof_row && j.kern->height_row &&
                    j.kern->prof_at && j.kern->classify;
    /* a dyadic step from another origin: the point tiles' vegetation sums
     * by the linear kernel (point_sums_linear), where 2^32 / 2^(m+7) is a
     * multiple of the profile's length */
    j.lin_m = -1;
    for (int m = 0; j.point_tiles && m <= RT_MAX_DYADIC; m++) {
        const double S = ldexp(b->step, m);
        if (S == floor(S)) {
            if (S <= 1048576.0 && ((uint64_t)t->profile_len << (m + 7)) <= ((uint64_t)1 << 32)) {
                j.lin_m = m;
                j.lin_S = (int64_t)S;
            }
            break;
        }
    }
    /* the bounds of the vegetation sums for the fixed-point rows, a group
     * of 16 columns (the wide variants' vectors; two of AVX2's: deciding
     * each group of 8 measured alike within the noise, 0.95-1.04) */
    if (j.point_tiles && (j.win16 || j.winp)) {
        const int32_t veg_lt[4] = {int_threshold(t->town_below), int_threshold(t->grass_below),
                                   int_threshold(t->open_below), int_threshold(t->thicket_below)};
        if (rt__veg_bounds_init(&g->vb, g->vbtab, t, j.piprof, b->step, 16, veg_lt))
            j.vb = &g->vb;
    }
    /* the point tiles' products (tile_buf.ax) for every thread: at most
     * 512 KiB each (as height_rows_n's), to stay in the L2 cache; the tiles
     * past that compute them */
    void *axraw = NULL;
    if (j.point_tiles && b->ny > 1) {
        const int64_t ntiles = (b->nx + TILE - 1) / TILE;
        const uint64_t want = (uint64_t)b->nx * t->directions;
        const size_t cap = want < ((uint64_t)64 << 10) ? (size_t)want : (size_t)64 << 10;
        /* and the fixed-point products of the profile sums: three pairs of
         * directions a column of a chunk of 256 (point_rows_avx2.h: the
         * classic 5 directions take 15 KiB, 64 directions 192 KiB) */
        const int64_t fcols =
            ((b->nx < RT_POINT_FIX_COLS ? b->nx : RT_POINT_FIX_COLS) + 7) & ~(int64_t)7;
        const size_t fcap = RT_POINT_FIX_WORDS(t->directions, fcols);
        const size_t fat = (cap * sizeof(double) + (size_t)ntiles * sizeof(int) + 63) & ~(size_t)63;
        /* and the feature sums of every tile (tile_buf.fa_keep), at most
         * 64 KiB a thread, with room for the kernels' writes past a tile's
         * last column (rt_tile.h: up to a multiple of 8; AVX-512's spread
         * sums write whole groups of 16); a rounded y and a flag a tile */
        const int64_t facap = b->nx < ((int64_t)16 << 10) ? b->nx : (int64_t)16 << 10;
        const size_t fkat = (fat + fcap * sizeof(uint32_t) + sizeof(int) + 63) & ~(size_t)63;
        const size_t fasz = (((size_t)facap + 16) * sizeof(int32_t) + 63) & ~(size_t)63;
        const size_t per = (fkat + fasz + (size_t)ntiles * (sizeof(int64_t) + sizeof(int)) + 63) &
                           ~(size_t)63;
        /* each buffer 64-byte aligned (per is a multiple of 64): the
         * AVX-512 rows read the products eight doubles a load */
        axraw = calloc((size_t)j.nbufs * per + 64, 1);
        unsigned char *base = axraw ? align64(axraw) : NULL;
        for (int k = 0; axraw && k < j.nbufs; k++) {
            unsigned char *q = base + (size_t)k * per;
            j.bufs[k].ax = (double *)(void *)q;
            j.bufs[k].ax_cap = cap;
            j.bufs[k].ax_ready = (int *)(void *)(q + cap * sizeof(double));
            j.bufs[k].fix = fcap ? (uint32_t *)(void *)(q + fat) : NULL;
            j.bufs[k].fix_cap = fcap;
            j.bufs[k].fix_ready = (int *)(void *)(q + fat + fcap * sizeof(uint32_t));
            j.bufs[k].fa_keep = (int32_t *)(void *)(q + fkat);
            j.bufs[k].fa_cap = facap;
            j.bufs[k].fa_yr = (int64_t *)(void *)(q + fkat + fasz);
            j.bufs[k].fa_ready = (int *)(void *)(q + fkat + fasz + (size_t)ntiles * sizeof(int64_t));
        }
    }
    /* the tile kernels' tables, one cache a buffer */
    for (int k = 0; k < j.nbufs; k++) j.bufs[k].cache = tile_cache_new(&j);
    /* a terra point costs some 4 ns on the tile path, 10-100 on the others */
    threads = threads_for(threads, b->nx * b->ny,
                          j.fast && j.iprof ? RT_TERRA_THREAD_POINTS : RT_THREAD_POINTS_SLOW);
    rt_parallel_for(threads, b->ny, terra_rows, &j);
    for (int k = 0; k < j.nbufs; k++) free(j.bufs[k].cache);
    free(axraw);
    free(rows_raw);
    free(raw);
    return RT_OK;
}

/* (the checks in terra_grid's order: the terrain, the block, then out) */
rt_status rt_terra_grid(const rt_terrain *t, const rt_block *b, const rt_terra_out *out,
                        int threads)
{
    return terra_grid(t, b, out, NULL, threads);
}

rt_status rt_terra_grid_f32(const rt_terrain *t, const rt_block *b, const rt_terra_out32 *out,
                            int threads)
{
    if (out && !out->height && !out->depth && !out->ground) {
        const rt_terra_out o = {NULL, NULL, out->terrain, out->feature, NULL};
        return terra_grid(t, b, &o, NULL, threads);
    }
    return terra_grid(t, b, NULL, out, threads);
}

/* ------------------------------------------------------------------------ */
/* Arbitrary points                                                         */
/* ------------------------------------------------------------------------ */

typedef struct points_job {
    const rt_terrain *t;
    const double *x, *y;
    double *height_out;
    const rt_terra_out *out;
} points_job;

RT_INLINE void height_points_n(const points_job *j, int64_t begin, int64_t end, uint32_t n)
{
    for (int64_t k = begin; k < end; k++) j->height_out[k] = height_xy(j->t, j->x[k], j->y[k], n);
}

static void height_points(void *ctx, int64_t begin, int64_t end)
{
    const points_job *j = ctx;
    if (j->t->directions == 5)
        height_points_n(j, begin, end, 5);
    else
        height_points_n(j, begin, end, j->t->directions);
}

RT_INLINE void terra_points_n(const points_job *j, int64_t begin, int64_t end, uint32_t n)
{
    terra_res res;
    for (int64_t k = begin; k < end; k++) {
        point p = {j->x[k], j->y[k], NULL, 0, 0, 0, 0, 0, 0, 0};
        terra_at(j->t, &p, 0, &res, n);
        store(j->out, k, &res);
    }
}

static void terra_points(void *ctx, int64_t begin, int64_t end)
{
    const points_job *j = ctx;
    if (j->t->directions == 5)
        terra_points_n(j, begin, end, 5);
    else
        terra_points_n(j, begin, end, j->t->directions);
}

static rt_status check_points(const double *x, const double *y, int64_t n)
{
    if (n < 0) return RT_ERR_SIZE;
    if (n > 0 && (!x || !y)) return RT_ERR_NULL;
    for (int64_t k = 0; k < n; k++)
        if (!isfinite(x[k]) || !isfinite(y[k])) return RT_ERR_COORD;
    return RT_OK;
}

rt_status rt_height_points(const rt_terrain *t, const double *x, const double *y, int64_t n,
                           double *out, int threads)
{
    rt_status s = rt__terrain_check_shape(t, NULL);
    if (s == RT_OK) s = check_points(x, y, n);
    if (s != RT_OK) return s;
    if (n > 0 && !out) return RT_ERR_NULL;
    points_job j = {t, x, y, out, NULL};
    rt_parallel_for(threads_for(threads, n, RT_THREAD_POINTS_SLOW), n, height_points, &j);
    return RT_OK;
}

rt_status rt_terra_points(const rt_terrain *t, const double *x, const double *y, int64_t n,
                          const rt_terra_out *out, int threads)
{
    rt_status s = rt__terrain_check_shape(t, NULL);
    if (s == RT_OK) s = check_points(x, y, n);
    if (s != RT_OK) return s;
    if (!out) return RT_ERR_NULL;
    points_job j = {t, x, y, NULL, out};
    rt_parallel_for(threads_for(threads, n, RT_THREAD_POINTS_SLOW), n, terra_points, &j);
    return RT_OK;
}

/* ------------------------------------------------------------------------ */
/* Trees and buildings (SPEC 5)                                             */
/* ------------------------------------------------------------------------ */

rt_status rt_tree_selector_points(double pi10000, const double *x, const double *y, int64_t n,
                                  uint8_t *out)
{
    rt_status s = check_points(x, y, n);
    if (s == RT_OK && !isfinite(pi10000)) s = RT_ERR_PARAM;
    if (s != RT_OK) return s;
    if (n > 0 && !out) return RT_ERR_NULL;
    for (int64_t k = 0; k < n; k++) {
        /* left to right: (PI10000 * xr) * yr */
        double v = pi10000 * rt__round_js(x[k]) * rt__round_js(y[k]);
        out[k] = (uint8_t)(rt__low32(rt__round_js(v)) & 3u);
    }
    return RT_OK;
}

rt_status rt_tree_offsets_points(double pi10000, const double *x, const double *y, int64_t n,
                                 double *dx, double *dy)
{
    rt_status s = check_points(x, y, n);
    if (s == RT_OK && !isfinite(pi10000)) s = RT_ERR_PARAM;
    if (s != RT_OK) return s;
    if (n > 0 && (!dx || !dy)) return RT_ERR_NULL;
    for (int64_t k = 0; k < n; k++) {
        double v = pi10000 * rt__round_js(x[k]) * rt__round_js(y[k]);
        uint32_t bits = rt__low32(rt__round_js(v));
        /* the bits above the selector's two: 4 for x, the next 4 for y */
        dx[k] = ((double)((bits >> 2) & 0xfu) + 0.5) / 16.0 - 0.5;
        dy[k] = ((double)((bits >> 6) & 0xfu) + 0.5) / 16.0 - 0.5;
    }
    return RT_OK;
}

int rt_building_at(const rt_terrain *t, int64_t xr, int64_t yr)
{
    if (rt__terrain_check_shape(t, NULL) != RT_OK) return 0;
    /* JavaScript's % keeps the sign; only "divisible by 16" matters here */
    if (xr % 16 != 0 || yr % 16 != 0) return 0;
    double x = (double)xr, y = (double)yr;
    if ((rt__low32(RT_PI10000 * x * y) & 0xfu) >= 8) return 0;
    terra_res res;
    rt__terra_point(t, x, y, &res);
    return res.terrain == RT_TOWN;
}

/* ------------------------------------------------------------------------ */
/* Shared with the core's other generators (rt_terra.h)                     */
/* ------------------------------------------------------------------------ */

void rt__terra_point(const rt_terrain *t, double x, double y, rt_terra_res *r)
{
    point p = {x, y, NULL, 0, 0, 0, 0, 0, 0, 0};
    terra_at(t, &p, MODE_POINT, r, t->directions);
}

double rt__height_point(const rt_terrain *t, double x, double y)
{
    return height_xy(t, x, y, t->directions);
}

/* Would terra make (x, y), of ground height ht, a QUARRY (SPEC 17) if no
 * terrain were placed there?  terra's order, placed table aside. */
static int quarry_point(const rt_terrain *t, double x, double y, double ht)
{
    const uint32_t n = t->directions;
    if (!t->quarries || t->bleak || t->wood_only || !(ht > t->quarry_min_height) ||
        t->lake_height > ht || t->lake_base > ht || (t->snow && ht > t->snow_height) ||
        (t->rock && ht > t->rock_above))
        return 0;
    point p = {x, y, NULL, 0, 0, 0, 0, 0, 0, 0};
    if (t->with_paths && ht > t->lake_height &&
        fabs(ht - height_at(t, &p, MODE_POINT, 1, n)) < t->path_tolerance)
        return 0;
    double a1 = prof_at(t, &p, MODE_POINT, PAIR_1, n);
    if (t->town_abs) a1 = fabs(a1);
    if (a1 < t->town_below) return 0;
    const double a2 = prof_at(t, &p, MODE_POINT, PAIR_2, n);
    return a2 < t->grass_below && a2 < t->quarry_below &&
           !(prof_at(t, &p, MODE_POINT, PAIR_3, n) < t->open_below);
}

/* terra's height from the ground height ht: without quarries it never
 * depends on the placed table (a placed terrain gives max(ht, lake_height),
 * which is what the lake rule gives without it, and bleak, snow and paths
 * decide before the table is read).  A quarry is lowered unless a terrain
 * other than STREAM and MARSH is placed there (SPEC 7: those are ignored). */
double rt__terra_height_from(const rt_terrain *t, double x, double y, double ht)
{
    if (t->bleak || (t->snow && !t->snow_keeps_feature && ht > t->snow_height)) return ht;
    if (quarry_point(t, x, y, ht)) {
        uint8_t pv = placed_at(t->placed, rt__round_js(x), rt__round_js(y));
        if (!RT_PLACED_IS_TERRAIN(pv) || RT_PLACED_CODE(pv) == RT_STREAM ||
            RT_PLACED_CODE(pv) == RT_MARSH)
            return ht - t->quarry_depth;
    }
    return t->lake_height > ht ? t->lake_height : ht;
}

double rt__terra_height(const rt_terrain *t, double x, double y)
{
    return rt__terra_height_from(t, x, y, height_xy(t, x, y, t->directions));
}

uint8_t rt__point_feature(const rt_terrain *t, double xr, double yr)
{
    const double lim = RT_TERRAIN_DOMAIN;
    if (!(fabs(xr) <= lim && fabs(yr) <= lim))
        return feature_of(t, prof_xy(t, t->vec[RT_B2], xr, t->vec[RT_A3], yr, t->directions),
                          xr * yr);
    /* inside the domain B2*xr + A3*yr is an exact integer: floor(v / 128)
     * modulo the profile length is the unsigned shift (as the block path) */
    const double *P = t->profile;
    const uint32_t mask = t->profile_len - 1;
    const int32_t *A = t->vec[RT_B2], *B = t->vec[RT_A3];
    const int64_t x = (int64_t)xr, y = (int64_t)yr;
    double a = 0.0;
    for (uint32_t i = 0; i < t->directions; i++)
        a += P[(rt__u64((int64_t)A[i] * x + (int64_t)B[i] * y) >> 7) & mask];
    const double xryr = xr * yr; /* exact: |xr*yr| <= 2^52 */
    /* A fast rejection, exact: for an integer a with |a*xryr| < 2^52 the
     * seed's round_js(a*xryr/128) is floor((a*xryr + 64) / 128) of the exact
     * integer product, so f is known without floating point; most points
     * have none of the three feature values and are done here. */
    if (a == rt__floor(a) && fabs(a) * fabs(xryr) < 4503599627370496.0) {
        int64_t q = (int64_t)a * (int64_t)xryr + 64;
        int64_t r = q >= 0 ? q / 128 : -((-q + 127) / 128); /* floor(q / 128) */
        uint32_t f = (uint32_t)rt__u64(r) & t->feature_mask;
        if (f != t->feature_point && f != t->feature_x && f != t->feature_cone) return RT_NONE;
    }
    return feature_of(t, a, xryr);
}
