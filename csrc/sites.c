/*
 * sites.c - findGoodSite (SPEC 12): the first point of a turning spiral
 * where an object or the player may be put.
 *
 * Speed comes from never computing terra twice at a point: not in one
 * search, nor in the searches one thread does for a batch (unless its pool
 * outgrows POOL_KEEP tiles, when it is emptied between searches).  The
 * criteria read terra (terrain, feature, height) from a cache, 16 x 16 m tiles kept in
 * a pool by position and seen by each search through a directory of its
 * neighbourhood (a window around the spiral's centre).  One search computes
 * the points it reads one by one; the searches of a batch share one pool per
 * thread and compute tiles whole by the grid path, which is several times
 * cheaper per point, and are handed out to the threads in runs of
 * neighbours (sorted by strips of y, then x), so that a thread's searches
 * share its tiles.  The cheap criteria are tested first and
 * each criterion stops at its first failing point; the clearance disc (f)
 * is scanned from its rim inwards, where a lake, town or thicket that spoils
 * it is usually met first.  The order changes the speed only: a criterion's
 * truth does not depend on it.
 *
 * When no candidate is good and a report is wanted, a second pass counts
 * the criteria of every candidate (from the cache) to find the first one
 * meeting the most, skipping a candidate as soon as it cannot beat the best.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "relfterrain.h"
#include "rt_internal.h"
#include "rt_terra.h"

enum { CRIT_A = 0, CRIT_B, CRIT_C, CRIT_D, CRIT_E, CRIT_F, CRIT_COUNT };
#define ALL_CRITERIA ((1u << CRIT_COUNT) - 1u)

/* The dry-land jump of the author's code. */
#define JUMP_X (-100)
#define JUMP_Y 100

void rt_site_defaults(rt_site_options *o)
{
    memset(o, 0, sizeof *o);
    o->min_height = 10.0;
    o->mine_distance = 7.0;
    o->building_distance = 10.0;
    o->clearance = 10.0;
    o->max_loops = 1000;
    o->may_alter = 0;
    o->patch_radius = 20.0;
}

static int distance_ok(double d) { return d >= 0.0 && d <= RT_SITE_MAX_DISTANCE; }

rt_status rt_site_check(const rt_site_options *o)
{
    if (!o) return RT_ERR_NULL;
    if (!isfinite(o->min_height) || !distance_ok(o->mine_distance) ||
        !distance_ok(o->building_distance) || !distance_ok(o->clearance) ||
        !distance_ok(o->patch_radius) || o->max_loops < 0 || o->max_loops > RT_SITE_MAX_LOOPS)
        return RT_ERR_PARAM;
    return RT_OK;
}

static int is_open(unsigned terrain)
{
    return terrain == RT_GRASS || terrain == RT_MOOR || terrain == RT_WOOD;
}

/* floor(a / b) for b > 0, without relying on C's truncation for negatives. */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* ------------------------------------------------------------------------ */
/* The plan: what every search with the same options shares                 */
/* ------------------------------------------------------------------------ */

typedef struct plan {
    const rt_site_options *o;
    int32_t *f_off;   /* clearance disc (dx, dy) pairs, rim first */
    int64_t nf;
    int32_t *d_off;   /* open mine disc (dx, dy) pairs */
    int64_t nd;
    double bd2;       /* building_distance squared */
    int64_t half;     /* building centres with |bx - sx|, |by - sy| <= half matter */
    int64_t rings;    /* rings needed for max_loops candidates */
    int64_t window;   /* half-side of the cached window around s */
} plan;

/* Offsets with dx*dx + dy*dy <= rr (closed) or < rr (open) for |dx|, |dy| <=
 * lim, ordered by decreasing dx*dx + dy*dy (a counting sort), into *out. */
static int64_t disc(int64_t lim, double rr, int closed, int32_t **out)
{
    int64_t side = 2 * lim + 1, maxd2 = 2 * lim * lim;
    int64_t *count = calloc((size_t)maxd2 + 2, sizeof *count);
    int32_t *off = malloc((size_t)(side * side) * 2 * sizeof *off);
    if (!count || !off) {
        free(count);
        free(off);
        return -1;
    }
    int64_t n = 0;
    for (int64_t dx = -lim; dx <= lim; dx++)
        for (int64_t dy = -lim; dy <= lim; dy++) {
            double d2 = (double)(dx * dx + dy * dy);
            if (closed ? d2 <= rr : d2 < rr) {
                count[maxd2 - (dx * dx + dy * dy)]++;
                n++;
            }
        }
    /* count[i]: how many with key i (key = maxd2 - d2); turn into starts */
    int64_t start = 0;
    for (int64_t i = 0; i <= maxd2; i++) {
        int64_t c = count[i];
        count[i] = start;
        start += c;
    }
    for (int64_t dx = -lim; dx <= lim; dx++)
        for (int64_t dy = -lim; dy <= lim; dy++) {
            double d2 = (double)(dx * dx + dy * dy);
            if (closed ? d2 <= rr : d2 < rr) {
                int64_t at = count[maxd2 - (dx * dx + dy * dy)]++;
                off[2 * at] = (int32_t)dx;
                off[2 * at + 1] = (int32_t)dy;
            }
        }
    free(count);
    *out = off;
    return n;
}

static void plan_free(plan *p)
{
    free(p->f_off);
    free(p->d_off);
    p->f_off = p->d_off = NULL;
}

static rt_status plan_make(const rt_site_options *o, plan *p)
{
    memset(p, 0, sizeof *p);
    p->o = o;
    /* (f): |dx| <= floor(clearance); (d): |dx| < mine_distance <= ceil */
    int64_t lf = (int64_t)floor(o->clearance), ld = (int64_t)ceil(o->mine_distance);
    p->nf = disc(lf, o->clearance * o->clearance, 1, &p->f_off);
    p->nd = disc(ld, o->mine_distance * o->mine_distance, 0, &p->d_off);
    if (p->nf < 0 || p->nd < 0) {
        plan_free(p);
        return RT_ERR_NOMEM;
    }
    p->bd2 = o->building_distance * o->building_distance;
    /* a square closer than bd has |bx - sx| < bd + 6 */
    p->half = (int64_t)ceil(o->building_distance) + 6;
    int64_t k = 0;
    while (1 + 4 * k * (k + 1) < o->max_loops) k++;
    p->rings = k;
    int64_t margin = lf > ld ? lf : ld;
    if (p->half > margin) margin = p->half;
    /* a candidate is within 8k of s (|r sin| <= r, and rounding stays inside) */
    p->window = 8 * k + margin + 1;
    return RT_OK;
}

/* ------------------------------------------------------------------------ */
/* The terra cache                                                          */
/* ------------------------------------------------------------------------ */

#define TILE_SHIFT 4
#define TILE (1 << TILE_SHIFT)
/* tile keys: (v + 2^62) >> TILE_SHIFT, unsigned (|v| stays far below 2^62) */
#define KEY_OFFSET ((uint64_t)1 << 62)
/* a pool holding more tiles than this (about 10 MB) is emptied between searches */
#define POOL_KEEP 4096

typedef struct tile {
    struct tile *next;          /* every tile of the pool, for freeing */
    uint64_t kx, ky;
    uint8_t code[TILE * TILE];  /* 0: unknown, else 1 + (terrain << 4 | feature) */
    double height[TILE * TILE];
} tile;

/* The tiles of terra computed so far, by key (open addressing), kept from
 * search to search of one call: the searches of a batch share them. */
typedef struct pool {
    const rt_terrain *t;
    int grid;       /* tiles are computed whole by the grid path */
    tile **slot;
    int64_t cap, count;
    tile *all;
} pool;

/* grid: compute tiles whole by the grid path.  It gives terra's bits at
 * integer points, about 25 ns a point for a 16 x 16 tile against 110 ns for
 * the point path, but a tile holds more points than one search reads (about
 * 320 when the first candidate is good): it pays when searches share tiles,
 * as the searches of a batch do. */
static void pool_init(pool *pl, const rt_terrain *t, int grid)
{
    memset(pl, 0, sizeof *pl);
    pl->t = t;
    /* the grid call reads the whole profile: not for very long ones */
    pl->grid = grid && t->profile_len <= 4096;
}

static void pool_clear(pool *pl)
{
    for (tile *tl = pl->all; tl;) {
        tile *next = tl->next;
        free(tl);
        tl = next;
    }
    free(pl->slot);
    pl->slot = NULL;
    pl->all = NULL;
    pl->cap = pl->count = 0;
}

static int64_t pool_find(const pool *pl, uint64_t kx, uint64_t ky)
{
    uint64_t h = kx * 0x9E3779B97F4A7C15u ^ ky * 0xC2B2AE3D27D4EB4Fu;
    int64_t k = (int64_t)((h ^ (h >> 29)) & (uint64_t)(pl->cap - 1));
    while (pl->slot[k] && (pl->slot[k]->kx != kx || pl->slot[k]->ky != ky))
        k = (k + 1) & (pl->cap - 1);
    return k;
}

/* Compute every point of a new tile by the grid path; 0 if it cannot (then
 * its points are computed one by one as they are asked for). */
static int tile_fill(const rt_terrain *t, tile *tl)
{
    double x0 = (double)((int64_t)(tl->kx << TILE_SHIFT) - (int64_t)KEY_OFFSET);
    double y0 = (double)((int64_t)(tl->ky << TILE_SHIFT) - (int64_t)KEY_OFFSET);
    const double lim = RT_TERRAIN_DOMAIN;
    if (!(fabs(x0) <= lim && fabs(y0) <= lim && fabs(x0 + TILE) <= lim && fabs(y0 + TILE) <= lim))
        return 0;
    double depth[TILE * TILE];
    uint8_t te[TILE * TILE], fe[TILE * TILE];
    rt_terra_out o = {tl->height, depth, te, fe};
    rt_block b = {x0, y0, 1.0, 0, 0, TILE, TILE};
    if (rt_terra_grid(t, &b, &o, 1) != RT_OK) return 0;
    for (int i = 0; i < TILE * TILE; i++)
        tl->code[i] = (uint8_t)(1u + ((unsigned)te[i] << 4 | fe[i]));
    return 1;
}

/* The tile with the keys (kx, ky), made (and computed) if new; NULL when out
 * of memory. */
static tile *pool_tile(pool *pl, uint64_t kx, uint64_t ky)
{
    if (2 * (pl->count + 1) > pl->cap) {
        int64_t cap = pl->cap ? 2 * pl->cap : 256;
        pool g = *pl;
        g.cap = cap;
        g.slot = calloc((size_t)cap, sizeof *g.slot);
        if (!g.slot) return NULL;
        for (int64_t k = 0; k < pl->cap; k++)
            if (pl->slot[k]) g.slot[pool_find(&g, pl->slot[k]->kx, pl->slot[k]->ky)] = pl->slot[k];
        free(pl->slot);
        *pl = g;
    }
    int64_t at = pool_find(pl, kx, ky);
    if (pl->slot[at]) return pl->slot[at];
    tile *tl = malloc(sizeof *tl);
    if (!tl) return NULL;
    tl->kx = kx;
    tl->ky = ky;
    if (!(pl->grid && tile_fill(pl->t, tl))) memset(tl->code, 0, sizeof tl->code);
    tl->next = pl->all;
    pl->all = tl;
    pl->slot[at] = tl;
    pl->count++;
    return tl;
}

/* One search's view of the pool: a directory of the tiles over a window
 * around the spiral's centre, filled on first use. */
typedef struct cache {
    pool *pl;
    uint64_t kx0, ky0; /* the keys of the window's south-west tile */
    int64_t side;      /* tiles per row and column */
    tile **dir;
} cache;

static rt_status cache_open(cache *c, pool *pl, const plan *p, int64_t sx, int64_t sy)
{
    c->pl = pl;
    c->kx0 = (rt__u64(sx - p->window) + KEY_OFFSET) >> TILE_SHIFT;
    c->ky0 = (rt__u64(sy - p->window) + KEY_OFFSET) >> TILE_SHIFT;
    /* 2*window + 1 points touch at most this many tiles, however aligned */
    c->side = ((2 * p->window) >> TILE_SHIFT) + 2;
    c->dir = calloc((size_t)(c->side * c->side), sizeof *c->dir);
    return c->dir ? RT_OK : RT_ERR_NOMEM;
}

static void cache_close(cache *c)
{
    free(c->dir);
    c->dir = NULL;
}

/* terra at the integer point (x, y), which lies inside the window: the
 * cached code (terrain << 4 | feature), and the height through *h when h is
 * not NULL.  -1 when a tile cannot be allocated. */
static int cache_get(cache *c, int64_t x, int64_t y, double *h)
{
    uint64_t ux = rt__u64(x) + KEY_OFFSET, uy = rt__u64(y) + KEY_OFFSET;
    int64_t k = (int64_t)((uy >> TILE_SHIFT) - c->ky0) * c->side +
                (int64_t)((ux >> TILE_SHIFT) - c->kx0);
    tile *tl = c->dir[k];
    if (!tl) {
        tl = pool_tile(c->pl, ux >> TILE_SHIFT, uy >> TILE_SHIFT);
        if (!tl) return -1;
        c->dir[k] = tl;
    }
    int64_t i = (int64_t)((uy & (TILE - 1)) << TILE_SHIFT | (ux & (TILE - 1)));
    uint8_t v = tl->code[i];
    if (!v) {
        rt_terra_res r;
        rt__terra_point(c->pl->t, (double)x, (double)y, &r);
        v = (uint8_t)(1u + ((unsigned)r.terrain << 4 | r.feature));
        tl->code[i] = v;
        tl->height[i] = r.height;
    }
    if (h) *h = tl->height[i];
    return v - 1;
}

#define TERRAIN(code) ((unsigned)(code) >> 4)
#define FEATURE(code) ((unsigned)(code) & 15u)

/* ------------------------------------------------------------------------ */
/* The criteria                                                             */
/* ------------------------------------------------------------------------ */

/* Is a building (its 12 m square) closer than building_distance to s?
 * 1 yes, 0 no, -1 out of memory. */
static int building_near(cache *c, const plan *p, int64_t sx, int64_t sy)
{
    /* centres: multiples of 16 with |bx - sx|, |by - sy| <= half */
    int64_t bx0 = -floor_div(-(sx - p->half), 16) * 16;
    int64_t by0 = -floor_div(-(sy - p->half), 16) * 16;
    for (int64_t by = by0; by <= sy + p->half; by += 16) {
        int64_t ddy = by - 6 - sy > 0 ? by - 6 - sy : (sy - (by + 6) > 0 ? sy - (by + 6) : 0);
        for (int64_t bx = bx0; bx <= sx + p->half; bx += 16) {
            int64_t ddx = bx - 6 - sx > 0 ? bx - 6 - sx : (sx - (bx + 6) > 0 ? sx - (bx + 6) : 0);
            if (!((double)(ddx * ddx + ddy * ddy) < p->bd2)) continue;
            /* rt_building_at's test, with terra from the cache */
            if ((rt__low32(RT_PI10000 * (double)bx * (double)by) & 0xfu) >= 8) continue;
            int v = cache_get(c, bx, by, NULL);
            if (v < 0) return -1;
            if (TERRAIN(v) == RT_TOWN) return 1;
        }
    }
    return 0;
}

/* 1 if every point of the clearance disc is open, 0 if not, -1 no memory. */
static int clear_around(cache *c, const plan *p, int64_t sx, int64_t sy)
{
    for (int64_t i = 0; i < p->nf; i++) {
        int v = cache_get(c, sx + p->f_off[2 * i], sy + p->f_off[2 * i + 1], NULL);
        if (v < 0) return -1;
        if (!is_open(TERRAIN(v))) return 0;
    }
    return 1;
}

/* 1 if no MINE lies in the open mine disc, 0 if one does, -1 no memory. */
static int no_mine_near(cache *c, const plan *p, int64_t sx, int64_t sy)
{
    for (int64_t i = 0; i < p->nd; i++) {
        int v = cache_get(c, sx + p->d_off[2 * i], sy + p->d_off[2 * i + 1], NULL);
        if (v < 0) return -1;
        if (FEATURE(v) == RT_MINE) return 0;
    }
    return 1;
}

/* The criteria at s as a bit mask (bit CRIT_A ...).  Evaluated in the order
 * a, b, c, e, f, d; stops as soon as the criteria held plus those left
 * cannot exceed `beat` (beat = 5: stop at the first failure).  Bits of
 * criteria not evaluated are 0.  -1 when out of memory. */
static int criteria(cache *c, const plan *p, int64_t sx, int64_t sy, int beat)
{
    static const int order[CRIT_COUNT] = {CRIT_A, CRIT_B, CRIT_C, CRIT_E, CRIT_F, CRIT_D};
    double h;
    int v = cache_get(c, sx, sy, &h);
    if (v < 0) return -1;
    unsigned mask = 0;
    int held = 0;
    for (int n = 0; n < CRIT_COUNT; n++) {
        int k = order[n], ok;
        switch (k) {
        case CRIT_A:
            ok = TERRAIN(v) != RT_LAKE && h - c->pl->t->lake_height >= p->o->min_height;
            break;
        case CRIT_B: ok = is_open(TERRAIN(v)); break;
        case CRIT_C: ok = FEATURE(v) == RT_NONE; break;
        case CRIT_E:
            ok = building_near(c, p, sx, sy);
            if (ok < 0) return -1;
            ok = !ok;
            break;
        case CRIT_F: ok = clear_around(c, p, sx, sy); break;
        default: ok = no_mine_near(c, p, sx, sy); break;
        }
        if (ok < 0) return -1;
        if (ok) {
            mask |= 1u << k;
            held++;
        }
        if (held + (CRIT_COUNT - 1 - n) <= beat) break;
    }
    return (int)mask;
}

static int popcount6(unsigned m)
{
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

/* ------------------------------------------------------------------------ */
/* The spiral                                                               */
/* ------------------------------------------------------------------------ */

typedef struct spiral {
    int64_t sx, sy;
    double a0;
    int64_t k, j; /* the next candidate: ring k (0: s itself), index j */
} spiral;

static void spiral_start(spiral *sp, int64_t sx, int64_t sy, double a0)
{
    sp->sx = sx;
    sp->sy = sy;
    sp->a0 = a0;
    sp->k = 0;
    sp->j = 0;
}

static void spiral_next(spiral *sp, int64_t *x, int64_t *y)
{
    if (sp->k == 0) {
        *x = sp->sx;
        *y = sp->sy;
        sp->k = 1;
        sp->j = 0;
        return;
    }
    int64_t m = 8 * sp->k;
    double r = (double)m;
    /* a0 + 2.0 * pi * j / (8k), left to right, as the reference writes it */
    double theta = sp->a0 + 2.0 * RT_PI * (double)sp->j / (double)m;
    *x = (int64_t)rt__round_js((double)sp->sx + r * rt_sin(theta));
    *y = (int64_t)rt__round_js((double)sp->sy + r * rt_cos(theta));
    if (++sp->j == m) {
        sp->k++;
        sp->j = 0;
    }
}

/* ------------------------------------------------------------------------ */
/* One search                                                               */
/* ------------------------------------------------------------------------ */

static rt_status check_start(double x, double y, double a0)
{
    if (!isfinite(a0)) return RT_ERR_PARAM;
    if (!(fabs(x) <= RT_SITE_MAX_COORD) || !(fabs(y) <= RT_SITE_MAX_COORD)) return RT_ERR_COORD;
    return RT_OK;
}

/* One search; RT_ERR_INTERRUPTED (nothing written) when the watch says stop. */
/* `pending` is the work not yet charged to w, kept by the caller's loop
 * across its searches: a search's own work is often far below
 * RT_WATCH_STEP, and a count local to the search (as before) was dropped
 * at its end, so millions of short searches never reached a poll (issue 19:
 * 6,000,000 starts answered Ctrl-C after seconds). */
static rt_status search(const rt_terrain *t, const plan *p, pool *pl, double x, double y,
                        double a0, rt_site *out, rt__watch *w, int64_t *pending)
{
    const rt_site_options *o = p->o;
    rt_site res;
    memset(&res, 0, sizeof res);
    int64_t sx = (int64_t)rt__round_js(x), sy = (int64_t)rt__round_js(y);
    /* a candidate reads at most its discs (from the cache) */
    const int64_t per_try = 64 + p->nf + p->nd;
    /* the start's height point and the cache's directory */
    if (rt__watch_charge(w, pending, 2 * RT_WORK_POINT)) return RT_ERR_INTERRUPTED;

    /* 1. dry land by big jumps (ground height, not terra) */
    int64_t jumps = 0;
    while (rt__height_point(t, (double)sx, (double)sy) - t->lake_height < o->min_height) {
        if (rt__watch_charge(w, pending, RT_WORK_POINT)) return RT_ERR_INTERRUPTED;
        if (jumps >= o->max_loops) {
            res.x = sx;
            res.y = sy;
            res.jumps = jumps;
            res.centre_x = sx;
            res.centre_y = sy;
            res.reason = RT_SITE_DRY;
            *out = res;
            return RT_OK;
        }
        sx += JUMP_X;
        sy += JUMP_Y;
        jumps++;
    }
    res.jumps = jumps;
    res.centre_x = sx;
    res.centre_y = sy;

    /* 2. the spiral */
    if (pl->count > POOL_KEEP) pool_clear(pl);
    cache c;
    rt_status st = cache_open(&c, pl, p, sx, sy);
    if (st != RT_OK) return st;
    spiral sp;
    spiral_start(&sp, sx, sy, a0);
    int64_t tries = 0, ax = 0, ay = 0;
    int have_a = 0;
    for (; tries < o->max_loops; tries++) {
        if (rt__watch_charge(w, pending, per_try)) goto stopped;
        int64_t cx, cy;
        spiral_next(&sp, &cx, &cy);
        int m = criteria(&c, p, cx, cy, CRIT_COUNT - 1);
        if (m < 0) goto nomem;
        if ((unsigned)m == ALL_CRITERIA) {
            res.x = cx;
            res.y = cy;
            res.tries = tries + 1;
            res.ok = 1;
            res.criteria = (uint8_t)m;
            goto done;
        }
        if (!have_a && (m & (1 << CRIT_A))) {
            have_a = 1;
            ax = cx;
            ay = cy;
        }
    }
    res.tries = tries;

    /* 3. paint, or report the candidate meeting most */
    if (o->may_alter && have_a) {
        int v = cache_get(&c, ax, ay, NULL);
        if (v < 0) goto nomem;
        unsigned own = TERRAIN(v);
        res.x = ax;
        res.y = ay;
        res.ok = 1;
        res.altered = 1;
        res.patch = RT_PLACED_TERRAIN(is_open(own) ? own : RT_GRASS);
        /* the first pass stopped at the first failure: count them all */
        int m = criteria(&c, p, ax, ay, -1);
        if (m < 0) goto nomem;
        res.criteria = (uint8_t)m;
        goto done;
    }
    res.reason = RT_SITE_SPIRAL;
    res.x = sx;
    res.y = sy;
    {
        int best = -1;
        spiral_start(&sp, sx, sy, a0);
        for (int64_t i = 0; i < o->max_loops; i++) {
            if (rt__watch_charge(w, pending, per_try)) goto stopped;
            int64_t cx, cy;
            spiral_next(&sp, &cx, &cy);
            int m = criteria(&c, p, cx, cy, best);
            if (m < 0) goto nomem;
            int n = popcount6((unsigned)m);
            if (n > best) {
                best = n;
                res.x = cx;
                res.y = cy;
                res.criteria = (uint8_t)m;
            }
        }
    }
done:
    cache_close(&c);
    *out = res;
    return RT_OK;
nomem:
    cache_close(&c);
    return RT_ERR_NOMEM;
stopped:
    cache_close(&c);
    return RT_ERR_INTERRUPTED;
}

rt_status rt_find_good_site(const rt_terrain *t, double x, double y, double a0,
                            const rt_site_options *o, rt_site *out, const rt_poll *poll)
{
    rt_status s = rt__terrain_check_shape(t, NULL);
    if (s == RT_OK) s = rt_site_check(o);
    if (s != RT_OK) return s;
    if (!out) return RT_ERR_NULL;
    s = check_start(x, y, a0);
    if (s != RT_OK) return s;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    plan p;
    s = plan_make(o, &p);
    if (s != RT_OK) return s;
    pool pl;
    pool_init(&pl, t, 0);
    int64_t pending = 0;
    s = search(t, &p, &pl, x, y, a0, out, &w, &pending);
    pool_clear(&pl);
    plan_free(&p);
    return s;
}

/* ------------------------------------------------------------------------ */
/* Painting                                                                 */
/* ------------------------------------------------------------------------ */

rt_status rt_site_paint(rt_placed *table, const rt_site *site, const rt_site_options *o)
{
    if (!table || !site) return RT_ERR_NULL;
    rt_status s = rt_site_check(o);
    if (s != RT_OK) return s;
    if (!site->altered) return RT_OK;
    if (!RT_PLACED_IS_TERRAIN(site->patch) || RT_PLACED_CODE(site->patch) >= RT_TERRAIN_TYPE_COUNT)
        return RT_ERR_PARAM;
    if (!(fabs((double)site->x) <= RT_SITE_MAX_COORD) ||
        !(fabs((double)site->y) <= RT_SITE_MAX_COORD))
        return RT_ERR_COORD;
    double R = o->patch_radius > o->clearance ? o->patch_radius : o->clearance;
    int32_t *off;
    int64_t n = disc((int64_t)floor(R), R * R, 1, &off);
    if (n < 0) return RT_ERR_NOMEM;
    uint8_t *fresh = malloc((size_t)n + 1);
    if (!fresh) {
        free(off);
        return RT_ERR_NOMEM;
    }
    /* All or nothing.  First the new keys (undone by removal, which never
     * allocates); then the existing ones, overwritten: only the first of
     * those can grow the table (overwriting does not change its load), so a
     * failure there comes before any overwrite. */
    for (int64_t i = 0; i < n; i++)
        fresh[i] = rt_placed_get(table, site->x + off[2 * i], site->y + off[2 * i + 1]) == 0;
    int64_t done = 0;
    for (; done < n && s == RT_OK; done++)
        if (fresh[done])
            s = rt_placed_set(table, site->x + off[2 * done], site->y + off[2 * done + 1],
                              site->patch);
    for (int64_t i = 0; i < n && s == RT_OK; i++)
        if (!fresh[i])
            s = rt_placed_set(table, site->x + off[2 * i], site->y + off[2 * i + 1], site->patch);
    if (s != RT_OK)
        for (int64_t i = 0; i < done; i++)
            if (fresh[i]) rt_placed_remove(table, site->x + off[2 * i], site->y + off[2 * i + 1]);
    free(fresh);
    free(off);
    return s;
}

/* ------------------------------------------------------------------------ */
/* Many starts                                                              */
/* ------------------------------------------------------------------------ */

/* The starts of a batch in the order they are searched: by strips of
 * STRIP m of y, then by x, so that the searches one worker does one after
 * the other lie near each other and share tiles. */
#define STRIP_SHIFT 7
typedef rt__start_key start_key;

static int start_cmp(const void *a, const void *b)
{
    const start_key *p = a, *q = b;
    if (p->strip != q->strip) return p->strip < q->strip ? -1 : 1;
    if (p->x != q->x) return p->x < q->x ? -1 : 1;
    return p->k < q->k ? -1 : p->k > q->k;
}

/* Sorting the starts charges the watch: millions of unsorted starts take
 * seconds to sort, and Ctrl-C must stop that too.  Runs of SORT_RUN keys are
 * sorted with qsort, then merged bottom-up (a total order: k breaks ties, so
 * the result is qsort's over the whole array). */
#define SORT_RUN 4096
int rt__sort_starts(rt__start_key *a, int64_t n, rt__watch *w)
{
    for (int64_t i = 0; i < n; i += SORT_RUN) {
        int64_t m = n - i < SORT_RUN ? n - i : SORT_RUN;
        qsort(a + i, (size_t)m, sizeof *a, start_cmp);
        if (rt__watch_stop(w, m * 12 * 8)) return 1; /* ~ m log2(m) compares */
    }
    if (n <= SORT_RUN) return 0;
    start_key *tmp = (uint64_t)n <= SIZE_MAX / sizeof *tmp ? malloc((size_t)n * sizeof *tmp)
                                                            : NULL;
    if (!tmp) return -1;
    start_key *src = a, *dst = tmp;
    int64_t pending = 0;
    int stopped = 0;
    for (int64_t width = SORT_RUN; width < n && !stopped; width *= 2) {
        for (int64_t lo = 0; lo < n && !stopped; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n;
            int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi && !stopped) {
                dst[k++] = start_cmp(&src[j], &src[i]) < 0 ? src[j++] : src[i++];
                stopped = rt__watch_charge(w, &pending, 8);
            }
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        start_key *swap = src;
        src = dst;
        dst = swap;
    }
    if (!stopped && src != a) memcpy(a, src, (size_t)n * sizeof *a);
    free(tmp);
    return stopped;
}


typedef struct batch {
    const rt_terrain *t;
    const plan *p;
    const double *x, *y, *a0;
    const start_key *order;
    int64_t n, run;    /* starts handed out at once: neighbours for one worker */
    atomic_llong next; /* the next run of the order to search */
    rt_site *res;
    uint8_t *failed;   /* per start: 1 when out of memory */
    rt__watch *w;
} batch;

/* A worker: searches runs of neighbouring starts as they come, with its own
 * pool of tiles, so the searches near each other share what they computed. */
static void batch_worker(void *ctx, int64_t begin, int64_t end)
{
    batch *b = ctx;
    for (int64_t w = begin; w < end; w++) {
        pool pl;
        pool_init(&pl, b->t, b->n > 1);
        int64_t pending = 0; /* charged across this worker's searches */
        while (!rt__watch_stopped(b->w)) {
            long long r0 = atomic_fetch_add(&b->next, (long long)b->run);
            if (r0 >= b->n) break;
            for (long long r = r0; r < r0 + b->run && r < b->n; r++) {
                int64_t k = b->order[r].k;
                rt_status s = search(b->t, b->p, &pl, b->x[k], b->y[k], b->a0 ? b->a0[k] : 0.0,
                                     &b->res[k], b->w, &pending);
                if (s == RT_ERR_INTERRUPTED) break;
                b->failed[k] = s != RT_OK;
            }
        }
        pool_clear(&pl);
    }
}

rt_status rt_find_good_sites(const rt_terrain *t, const double *x, const double *y,
                             const double *a0, int64_t n, const rt_site_options *o,
                             rt_site *out, int threads, const rt_poll *poll)
{
    rt_status s = rt__terrain_check_shape(t, NULL);
    if (s == RT_OK) s = rt_site_check(o);
    if (s != RT_OK) return s;
    if (n < 0) return RT_ERR_SIZE;
    if (n == 0) return RT_OK;
    if (!x || !y || !out) return RT_ERR_NULL;
    if ((uint64_t)n > SIZE_MAX / sizeof(rt_site)) return RT_ERR_NOMEM;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    /* every pass over the starts charges the watch (issue 19: Ctrl-C
     * whatever the number and order of the starts) */
    int64_t pending = 0;
    for (int64_t k = 0; k < n; k++) {
        s = check_start(x[k], y[k], a0 ? a0[k] : 0.0);
        if (s != RT_OK) return s;
        if (rt__watch_charge(&w, &pending, 4)) return RT_ERR_INTERRUPTED;
    }
    plan p;
    s = plan_make(o, &p);
    if (s != RT_OK) return s;
    rt_site *res = malloc((size_t)n * sizeof *res);
    uint8_t *failed = calloc((size_t)n, 1);
    if (!res || !failed) {
        s = RT_ERR_NOMEM;
        goto out;
    }
    if (!o->may_alter) {
        start_key *order = (uint64_t)n <= SIZE_MAX / sizeof *order
                               ? malloc((size_t)n * sizeof *order) : NULL;
        if (!order) {
            s = RT_ERR_NOMEM;
            goto out;
        }
        for (int64_t k = 0; k < n; k++) {
            /* |y| <= 2^50: floor(y) >> STRIP_SHIFT without a signed shift */
            order[k].strip = (int64_t)((rt__u64((int64_t)floor(y[k])) + ((uint64_t)1 << 62)) >>
                                       STRIP_SHIFT);
            order[k].x = x[k];
            order[k].k = k;
            if (rt__watch_charge(&w, &pending, 8)) break;
        }
        if (rt__watch_stopped(&w)) {
            free(order);
            s = RT_ERR_INTERRUPTED;
            goto out;
        }
        int sorted = rt__sort_starts(order, n, &w);
        if (sorted != 0) {
            free(order);
            s = sorted < 0 ? RT_ERR_NOMEM : RT_ERR_INTERRUPTED;
            goto out;
        }
        int workers = threads < 1 ? 1 : threads > RT_MAX_THREADS ? RT_MAX_THREADS : threads;
        if (workers > n) workers = (int)n;
        /* a few runs a worker: long enough that the tiles at their borders,
         * which two workers may both compute, are few; enough to even out */
        int64_t run = n / (4 * (int64_t)workers);
        batch b = {t, &p, x, y, a0, order, n, run < 16 ? 16 : run, 0, res, failed, &w};
        atomic_init(&b.next, 0);
        /* the searches charge the watch themselves; the caller's thread
         * is one of the workers, so it polls */
        rt_parallel_for(workers, workers, batch_worker, &b);
        free(order);
        for (int64_t k = 0; k < n; k++)
            if (failed[k]) s = RT_ERR_NOMEM;
        if (rt__watch_stopped(&w)) s = RT_ERR_INTERRUPTED;
    } else {
        /* in order, each search seeing the discs painted before it */
        rt_terrain local = *t;
        rt_placed *own = NULL;
        pool pl;
        pool_init(&pl, &local, n > 1);
        int64_t search_pending = 0;
        for (int64_t k = 0; k < n && s == RT_OK; k++) {
            s = search(&local, &p, &pl, x[k], y[k], a0 ? a0[k] : 0.0, &res[k], &w,
                       &search_pending);
            if (s != RT_OK || !res[k].altered) continue;
            pool_clear(&pl); /* the disc changes terra */
            if (!own) {
                own = t->placed ? rt_placed_clone(t->placed) : rt_placed_new();
                if (!own) {
                    s = RT_ERR_NOMEM;
                    break;
                }
                local.placed = own;
            }
            s = rt_site_paint(own, &res[k], o);
        }
        pool_clear(&pl);
        rt_placed_free(own);
    }
    if (s == RT_OK) memcpy(out, res, (size_t)n * sizeof *res);
out:
    free(res);
    free(failed);
    plan_free(&p);
    return s;
}
