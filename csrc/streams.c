/*
 * streams.c - streams from the ponds downhill, marshes, and soaking them
 * into the placed table (SPEC 7).
 *
 * A route scans the integer points around its current point (the
 * neighbourhood, dx outer, dy inner) for the lowest terra height, strictly
 * below the running minimum, and steps there until it reaches the lake,
 * finds no lower point (a hollow) or would pass its length cap.  Heights are
 * terra heights (rt__terra_height), which never depend on the placed table
 * but where a quarry (SPEC 17) has a placed terrain other than STREAM or MARSH.
 *
 * Speed: no height is computed twice in a call.  The routes of a call read
 * their heights from one cache, a window of integer points around their
 * sources cut into 32 x 32 tiles; a tile is computed whole, by the grid path
 * (rt_height_grid: the point path's bits at integer points, many times
 * faster), the first time a route reads it, and kept for every route of the
 * call, threads included (a point read while another thread is filling its
 * tile is computed on the spot).  A capped route cannot leave the window (it
 * cannot go farther than its cap plus the scan radius); an uncapped one
 * continues on the point path beyond it.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "relfterrain.h"
#include "rt_feature_rows.h"
#include "rt_internal.h"
#include "rt_terra.h"

#define SCAN 5                                /* the neighbourhood's radius */
#define WINDOW_POINTS ((int64_t)1 << 28)      /* largest window: 2^18 tiles (2 MiB of slots) */
#define UNCAPPED_REACH 1024                   /* an uncapped route's window around its source */
#define POND_BAND_POINTS ((int64_t)1 << 20)   /* points per band of the pond scan */

void rt_stream_opts_defaults(rt_stream_opts *o)
{
    o->neighbourhood = RT_CROSS;
    o->capped = 1;
    o->max_length = 300.0;
    o->max_points = 100000;
}

static rt_status check_opts(const rt_stream_opts *o)
{
    if (!o) return RT_ERR_NULL;
    if (o->neighbourhood < 0 || o->neighbourhood >= RT_NEIGHBOURHOOD_COUNT) return RT_ERR_PARAM;
    if (o->capped && !(isfinite(o->max_length) && o->max_length >= 0.0)) return RT_ERR_PARAM;
    if (o->max_points < 1 || o->max_points > ((int64_t)1 << 40)) return RT_ERR_PARAM;
    return RT_OK;
}

int64_t rt_stream_max_route(const rt_stream_opts *o)
{
    int64_t n = o->max_points;
    /* every step is at least 1 m, so a capped route has at most cap + 1 points */
    if (o->capped && o->max_length + 1.0 < (double)n) n = (int64_t)floor(o->max_length) + 1;
    return n;
}

/* The scanned offsets in scan order, and their lengths (hypot, as the seed's
 * Math.sqrt(dx*dx + dy*dy): exact integers under the root). */
typedef struct scan_set {
    int n;
    int8_t dx[120], dy[120];
    double len[120];
} scan_set;

static void scan_offsets(int neighbourhood, scan_set *s)
{
    s->n = 0;
    for (int dx = -SCAN; dx <= SCAN; dx++)
        for (int dy = -SCAN; dy <= SCAN; dy++) {
            int ok = neighbourhood == RT_CROSS    ? dx != 0 && dy != 0
                     : neighbourhood == RT_SQUARE ? !(dx == 0 && dy == 0)
                                                  : dx * dx + dy * dy <= 25 && !(dx == 0 && dy == 0);
            if (!ok) continue;
            s->dx[s->n] = (int8_t)dx;
            s->dy[s->n] = (int8_t)dy;
            s->len[s->n] = sqrt((double)(dx * dx + dy * dy));
            s->n++;
        }
}

/* The heights of the routes of one call: tiles of TILE x TILE integer points
 * over a window, each computed whole on first use. */
#define TILE_SHIFT 5
#define TILE (1 << TILE_SHIFT)
enum { TILE_EMPTY = 0, TILE_BUSY = 1, TILE_READY = 2 };

typedef struct height_cache {
    const rt_terrain *t;
    int64_t x0, y0;         /* the window's south-west corner */
    int64_t side_x, side_y; /* tiles per row and per column (0: no window) */
    atomic_uchar *state;    /* per tile: TILE_EMPTY, TILE_BUSY, TILE_READY */
    double **tiles;         /* written before state becomes TILE_READY */
} height_cache;

/* A cache over the integer points x0 .. x0+nx-1, y0 .. y0+ny-1 (nx, ny >= 1);
 * without memory for its slots it has no window and every height comes from
 * the point path. */
static void cache_open(height_cache *c, const rt_terrain *t, int64_t x0, int64_t y0, int64_t nx,
                       int64_t ny)
{
    c->t = t;
    c->x0 = x0;
    c->y0 = y0;
    c->side_x = (nx + TILE - 1) >> TILE_SHIFT;
    c->side_y = (ny + TILE - 1) >> TILE_SHIFT;
    size_t n = (size_t)(c->side_x * c->side_y);
    c->state = malloc(n * sizeof *c->state);
    c->tiles = calloc(n, sizeof *c->tiles);
    if (!c->state || !c->tiles) {
        free(c->state);
        free(c->tiles);
        c->state = NULL;
        c->tiles = NULL;
        c->side_x = c->side_y = 0;
        return;
    }
    for (size_t k = 0; k < n; k++) atomic_init(&c->state[k], TILE_EMPTY);
}

static void cache_close(height_cache *c)
{
    size_t n = (size_t)(c->side_x * c->side_y);
    for (size_t k = 0; k < n; k++) free(c->tiles[k]);
    free(c->tiles);
    free(c->state);
}

/* terra's height from the ground height: the water surface on lakes */
static inline double water(const rt_terrain *t, double ht)
{
    if (t->bleak || (t->snow && !t->snow_keeps_feature && ht > t->snow_height)) return ht;
    return t->lake_height > ht ? t->lake_height : ht;
}

/* Tile k, computed now if nobody has; NULL when another thread is computing
 * it or there is no memory (the caller takes the point path). */
static const double *cache_tile(height_cache *c, int64_t k)
{
    if (atomic_load_explicit(&c->state[k], memory_order_acquire) == TILE_READY) return c->tiles[k];
    unsigned char expect = TILE_EMPTY;
    if (!atomic_compare_exchange_strong_explicit(&c->state[k], &expect, TILE_BUSY,
                                                 memory_order_acquire, memory_order_acquire))
        return expect == TILE_READY ? c->tiles[k] : NULL;
    double *h = malloc(TILE * TILE * sizeof *h);
    if (!h) {
        atomic_store_explicit(&c->state[k], TILE_EMPTY, memory_order_release);
        return NULL;
    }
    const rt_terrain *t = c->t;
    int64_t tx = c->x0 + (k % c->side_x) * TILE, ty = c->y0 + (k / c->side_x) * TILE;
    const double lim = RT_TERRAIN_DOMAIN;
    rt_block b = {(double)tx, (double)ty, 1.0, 0, 0, TILE, TILE};
    /* the grid path gives the point path's bits at integer points of the domain */
    int inside = fabs((double)tx) <= lim && fabs((double)ty) <= lim &&
                 fabs((double)(tx + TILE)) <= lim && fabs((double)(ty + TILE)) <= lim;
    if (inside && rt_height_grid(t, &b, h, 1) == RT_OK) {
        if (t->quarries) /* SPEC 17: a quarry's floor, by its kinds */
            for (int i = 0; i < TILE * TILE; i++)
                h[i] = rt__terra_height_from(t, (double)(tx + (i & (TILE - 1))),
                                             (double)(ty + (i >> TILE_SHIFT)), h[i]);
        else
            for (int i = 0; i < TILE * TILE; i++) h[i] = water(t, h[i]);
    } else {
        for (int i = 0; i < TILE * TILE; i++)
            h[i] = rt__terra_height(t, (double)(tx + (i & (TILE - 1))),
                                    (double)(ty + (i >> TILE_SHIFT)));
    }
    c->tiles[k] = h;
    atomic_store_explicit(&c->state[k], TILE_READY, memory_order_release);
    return h;
}

/* terra's height at an integer point. */
static inline double height_at(height_cache *c, int64_t x, int64_t y)
{
    /* unsigned: points west or south of the window wrap to huge offsets */
    uint64_t ix = rt__u64(x - c->x0), iy = rt__u64(y - c->y0);
    if ((ix >> TILE_SHIFT) < (uint64_t)c->side_x && (iy >> TILE_SHIFT) < (uint64_t)c->side_y) {
        int64_t k = (int64_t)(iy >> TILE_SHIFT) * c->side_x + (int64_t)(ix >> TILE_SHIFT);
        const double *tl = cache_tile(c, k);
        if (tl) return tl[(iy & (TILE - 1)) << TILE_SHIFT | (ix & (TILE - 1))];
    }
    return rt__terra_height(c->t, (double)x, (double)y);
}

typedef struct route_out {
    int64_t *xy;
    int64_t cap, n;
    double length;
    int end, marsh;
} route_out;

/* The route from (x, y); abandoned (r->end = -1) when the watch says stop. */
static void trace(const rt_terrain *t, height_cache *w, const scan_set *s,
                  const rt_stream_opts *o, int64_t x, int64_t y, route_out *r, rt__watch *wt)
{
    const double lake = t->lake_height;
    double h0 = height_at(w, x, y), length = 0.0;
    int64_t n = 0, pending = 0;
    if (n < r->cap) r->xy[2 * n] = x, r->xy[2 * n + 1] = y;
    n++;
    for (;;) {
        /* a step reads s->n heights */
        if (rt__watch_charge(wt, &pending, s->n * RT_WORK_POINT)) {
            r->end = -1;
            break;
        }
        int best = -1;
        double hmin = h0;
        for (int k = 0; k < s->n; k++) {
            double h = height_at(w, x + s->dx[k], y + s->dy[k]);
            if (h < hmin) { /* strict: the first found wins ties */
                hmin = h;
                best = k;
            }
        }
        if (best < 0) {
            r->end = RT_END_HOLLOW;
            break;
        }
        double next = length + s->len[best];
        if (o->capped && next > o->max_length) {
            r->end = RT_END_LIMIT;
            break;
        }
        x += s->dx[best];
        y += s->dy[best];
        if (n < r->cap) r->xy[2 * n] = x, r->xy[2 * n + 1] = y;
        n++;
        length = next;
        if (hmin <= lake) {
            r->end = RT_END_LAKE;
            break;
        }
        if (n >= o->max_points) {
            r->end = RT_END_LIMIT;
            break;
        }
        h0 = hmin;
    }
    r->n = n;
    r->length = length;
    r->marsh = 0;
    if (r->end < 0) return;
    /* SPEC 7: only a stream (more than 10 points) that ends in a hollow gets
     * a marsh, as mark_route places them */
    if (r->end == RT_END_HOLLOW && n > 10) {
        rt_terra_res res;
        rt__terra_point(t, (double)x, (double)y, &res);
        r->marsh = res.terrain != RT_TOWN && res.terrain != RT_ROAD;
    }
}

/* How far from its source a route reads heights: a capped route cannot go
 * farther than its cap (every step is at least 1 m), plus the scan radius;
 * an uncapped one gets a window of UNCAPPED_REACH and goes on beyond it. */
static int64_t route_reach(const rt_stream_opts *o)
{
    if (o->capped && o->max_length < (double)UNCAPPED_REACH) return SCAN + (int64_t)o->max_length;
    return SCAN + UNCAPPED_REACH;
}

static int coord_ok(int64_t v)
{
    return v <= RT_STREAM_COORD_LIMIT && v >= -RT_STREAM_COORD_LIMIT;
}

rt_status rt_trace_stream(const rt_terrain *t, int64_t x, int64_t y, const rt_stream_opts *o,
                          int64_t *xy, int64_t cap, int64_t *n, double *length, int *end,
                          int *marsh, const rt_poll *poll)
{
    rt_status s = rt__terrain_check_shape(t, NULL);
    if (s == RT_OK) s = check_opts(o);
    if (s != RT_OK) return s;
    if (!n || !length || !end || !marsh || (cap > 0 && !xy)) return RT_ERR_NULL;
    if (!coord_ok(x) || !coord_ok(y)) return RT_ERR_COORD;
    rt__watch wt;
    if (rt__watch_start(&wt, poll)) return RT_ERR_INTERRUPTED;
    scan_set set;
    scan_offsets(o->neighbourhood, &set);
    const int64_t reach = route_reach(o);
    height_cache w;
    cache_open(&w, t, x - reach, y - reach, 2 * reach + 1, 2 * reach + 1);
    route_out r = {xy, cap < 0 ? 0 : cap, 0, 0.0, 0, 0};
    trace(t, &w, &set, o, x, y, &r, &wt);
    cache_close(&w);
    if (rt__watch_stopped(&wt)) return RT_ERR_INTERRUPTED;
    *n = r.n;
    *length = r.length;
    *end = r.end;
    *marsh = r.marsh;
    return RT_OK;
}

/* ------------------------------------------------------------------------ */
/* Ponds                                                                    */
/* ------------------------------------------------------------------------ */

static int soaked(uint8_t v)
{
    return v == RT_PLACED_TERRAIN(RT_STREAM) || v == RT_PLACED_TERRAIN(RT_MARSH);
}

/* A band of rows of the pond scan: band[k] = 1 where terra without a table
 * gives a WATERHOLE, count[r] = how many in row r.  Inside the domain only
 * the points whose xyff (the low byte of xr*yr) lies in the WATERHOLE range
 * are visited (rt_feature_rows.h: found once per row from x mod 256), and
 * only those whose feature value is feature_point go to terra, which decides
 * (about 1 point in 20,000); outside it every point takes the seed's double
 * arithmetic. */
typedef struct pond_job {
    const rt_terrain *bare;
    int64_t x0, y0, nx;
    uint8_t *band;
    int64_t *count;
    uint32_t lo, hi; /* WATERHOLE needs lo <= xyff < hi */
    rt__watch *w;
} pond_job;

static int terra_pond(const rt_terrain *t, double x, double y)
{
    rt_terra_res res;
    rt__terra_point(t, x, y, &res);
    return res.feature == RT_WATERHOLE;
}

/* Columns of a row scanned between two checks of the watch. */
#define POND_RUN ((int64_t)1 << 16)

static void pond_rows(void *ctx, int64_t begin, int64_t end)
{
    const pond_job *j = ctx;
    const double lim = RT_TERRAIN_DOMAIN;
    const int64_t xb = j->x0 + j->nx - 1;
    const int exact_x = fabs((double)j->x0) <= lim && fabs((double)xb) <= lim;
    for (int64_t r = begin; r < end; r++) {
        uint8_t *row = j->band + r * j->nx;
        const int64_t yi = j->y0 + r;
        const double y = (double)yi;
        int64_t found = 0;
        memset(row, 0, (size_t)j->nx);
        if (exact_x && fabs(y) <= lim) {
            uint8_t res[256];
            const int nres = rt__xyff_residues(yi, j->lo, j->hi, res);
            int64_t cand[RT_FEATURE_ROW_CHUNK];
            for (int64_t xa = j->x0; nres > 0 && xa <= xb; xa += RT_FEATURE_ROW_CHUNK) {
                /* a long row is checked as it goes (the chunks check between rows) */
                if (xa > j->x0 && rt__watch_stop(j->w, 4 * RT_FEATURE_ROW_CHUNK)) return;
                int64_t x1 = xb - xa < RT_FEATURE_ROW_CHUNK ? xb : xa + RT_FEATURE_ROW_CHUNK - 1;
                int nc = rt__xyff_candidates(xa, x1, res, nres, cand);
                nc = j->bare->directions == 5
                         ? rt__feature_point_filter(j->bare, yi, cand, nc, 5)
                         : rt__feature_point_filter(j->bare, yi, cand, nc, j->bare->directions);
                for (int q = 0; q < nc; q++)
                    if (terra_pond(j->bare, (double)cand[q], y)) {
                        row[cand[q] - j->x0] = 1;
                        found++;
                    }
            }
        } else {
            for (int64_t c = 0; c < j->nx; c++) {
                if (c > 0 && c % POND_RUN == 0 && rt__watch_stop(j->w, 4 * POND_RUN)) return;
                double x = (double)(j->x0 + c);
                uint32_t xyff = rt__low32(x * y) & 0xffu;
                if (xyff >= j->lo && xyff < j->hi &&
                    rt__point_feature(j->bare, x, y) == RT_WATERHOLE && terra_pond(j->bare, x, y)) {
                    row[c] = 1;
                    found++;
                }
            }
        }
        j->count[r] = found;
    }
}

rt_status rt_stream_ponds(const rt_terrain *t, int64_t x0, int64_t y0, int64_t nx, int64_t ny,
                          int64_t *xy, int64_t cap, int64_t *count, int threads,
                          const rt_poll *poll)
{
    rt_status s = rt__terrain_check_shape(t, NULL);
    if (s != RT_OK) return s;
    if (!count || (cap > 0 && !xy)) return RT_ERR_NULL;
    if (nx < 1 || ny < 1 || nx > RT_STREAM_COORD_LIMIT || ny > RT_STREAM_COORD_LIMIT)
        return RT_ERR_SIZE;
    if (!coord_ok(x0) || !coord_ok(y0) || !coord_ok(x0 + nx - 1) || !coord_ok(y0 + ny - 1))
        return RT_ERR_COORD;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    /* generated ponds first (no table), then the points the table speaks
     * for, STREAM and MARSH entries aside, by terra with the table */
    int64_t np = rt_placed_count(t->placed);
    int64_t *px = NULL, *py = NULL, *rowc = NULL;
    uint8_t *pv = NULL, *band = NULL;
    int64_t rows = POND_BAND_POINTS / nx > 0 ? POND_BAND_POINTS / nx : 1;
    if (rows > ny) rows = ny;
    s = RT_ERR_NOMEM;
    if (np > 0) {
        px = malloc((size_t)np * sizeof *px);
        py = malloc((size_t)np * sizeof *py);
        pv = malloc((size_t)np);
        if (!px || !py || !pv) goto done;
        np = rt_placed_items(t->placed, px, py, pv, np);
    }
    band = malloc((size_t)(rows * nx));
    rowc = malloc((size_t)rows * sizeof *rowc);
    if (!band || !rowc) goto done;
    rt_terrain bare = *t;
    bare.placed = NULL;
    uint32_t lo = t->mine_below > t->boulder_below ? t->mine_below : t->boulder_below;
    int64_t found = 0;
    for (int64_t r0 = 0; r0 < ny; r0 += rows) {
        int64_t nr = ny - r0 < rows ? ny - r0 : rows;
        pond_job j = {&bare, x0, y0 + r0, nx, band, rowc, lo, t->waterhole_below, &w};
        /* about 4 units a point: most are ruled out by one product */
        rt__parallel_watch(threads, nr, 4 * nx, pond_rows, &j, &w);
        if (rt__watch_stopped(&w)) {
            s = RT_ERR_INTERRUPTED;
            goto done;
        }
        for (int64_t k = 0; k < np; k++) {
            int64_t c = px[k] - x0, r = py[k] - (y0 + r0);
            if (c < 0 || c >= nx || r < 0 || r >= nr || soaked(pv[k])) continue;
            uint8_t now = (uint8_t)terra_pond(t, (double)px[k], (double)py[k]);
            rowc[r] += (int64_t)now - (int64_t)band[r * nx + c];
            band[r * nx + c] = now;
        }
        /* ponds are rare: only the rows holding one are read */
        for (int64_t r = 0; r < nr; r++) {
            const uint8_t *row = band + r * nx, *p = row;
            for (int64_t left = rowc[r]; left > 0; left--, p++) {
                p = memchr(p, 1, (size_t)(nx - (p - row)));
                if (found < cap) {
                    xy[2 * found] = x0 + (p - row);
                    xy[2 * found + 1] = y0 + r0 + r;
                }
                found++;
            }
        }
    }
    *count = found;
    s = RT_OK;
done:
    free(px);
    free(py);
    free(pv);
    free(band);
    free(rowc);
    return s;
}

/* ------------------------------------------------------------------------ */
/* Many routes                                                              */
/* ------------------------------------------------------------------------ */

typedef struct trace_job {
    const rt_terrain *t;
    height_cache *w;
    const scan_set *set;
    const rt_stream_opts *o;
    const int64_t *src;
    int64_t *xy, slot, *npts;
    double *length;
    uint8_t *end, *marsh;
    rt__watch *wt;
} trace_job;

static void trace_range(void *ctx, int64_t begin, int64_t end)
{
    const trace_job *j = ctx;
    for (int64_t k = begin; k < end; k++) {
        route_out r = {j->xy + 2 * k * j->slot, j->slot, 0, 0.0, 0, 0};
        trace(j->t, j->w, j->set, j->o, j->src[2 * k], j->src[2 * k + 1], &r, j->wt);
        if (r.end < 0) return; /* stopped */
        j->npts[k] = r.n;
        j->length[k] = r.length;
        j->end[k] = (uint8_t)r.end;
        j->marsh[k] = (uint8_t)r.marsh;
    }
}

rt_status rt_trace_streams(const rt_terrain *t, const int64_t *src, int64_t n,
                           const rt_stream_opts *o, int64_t *xy, int64_t slot, int64_t *npts,
                           double *length, uint8_t *end, uint8_t *marsh, int threads,
                           const rt_poll *poll)
{
    rt_status s = rt__terrain_check_shape(t, NULL);
    if (s == RT_OK) s = check_opts(o);
    if (s != RT_OK) return s;
    if (n < 0) return RT_ERR_SIZE;
    if (n > 0 && (!src || !xy || !npts || !length || !end || !marsh)) return RT_ERR_NULL;
    if (slot < rt_stream_max_route(o)) return RT_ERR_SIZE;
    for (int64_t k = 0; k < 2 * n; k++)
        if (!coord_ok(src[k])) return RT_ERR_COORD;
    rt__watch wt;
    if (rt__watch_start(&wt, poll)) return RT_ERR_INTERRUPTED;
    scan_set set;
    scan_offsets(o->neighbourhood, &set);
    const int64_t reach = route_reach(o);
    int64_t k0 = 0;
    while (k0 < n && !rt__watch_stopped(&wt)) {
        /* a group of consecutive sources whose window fits: one cache */
        int64_t xmin = src[2 * k0], xmax = xmin, ymin = src[2 * k0 + 1], ymax = ymin, k1 = k0 + 1;
        while (k1 < n) {
            int64_t ax = src[2 * k1] < xmin ? src[2 * k1] : xmin;
            int64_t bx = src[2 * k1] > xmax ? src[2 * k1] : xmax;
            int64_t ay = src[2 * k1 + 1] < ymin ? src[2 * k1 + 1] : ymin;
            int64_t by = src[2 * k1 + 1] > ymax ? src[2 * k1 + 1] : ymax;
            if ((double)(bx - ax + 1 + 2 * reach) * (double)(by - ay + 1 + 2 * reach) >
                (double)WINDOW_POINTS)
                break;
            xmin = ax, xmax = bx, ymin = ay, ymax = by;
            k1++;
        }
        height_cache w;
        cache_open(&w, t, xmin - reach, ymin - reach, xmax - xmin + 1 + 2 * reach,
                   ymax - ymin + 1 + 2 * reach);
        trace_job j = {t, &w, &set, o, src, xy, slot, npts, length, end, marsh, &wt};
        /* rt_parallel_for hands out indices from 0: shift the arrays */
        j.src = src + 2 * k0;
        j.xy = xy + 2 * k0 * slot;
        j.npts = npts + k0;
        j.length = length + k0;
        j.end = end + k0;
        j.marsh = marsh + k0;
        /* a route: a few dozen steps of ~100 heights each, typically */
        rt__parallel_watch(threads, k1 - k0, 4000 * RT_WORK_POINT, trace_range, &j, &wt);
        cache_close(&w);
        k0 = k1;
    }
    return rt__watch_status(&wt);
}

/* ------------------------------------------------------------------------ */
/* Soaking into the placed table                                            */
/* ------------------------------------------------------------------------ */

/* Whether the bare ground is TOWN, for the points soaking has asked about in
 * one call: the 3 x 3 squares of a line overlap, and a TOWN point is never
 * placed, so without this it would be asked again (and, after a restart,
 * every point of the current route).  Open addressing on (x, y); without
 * memory it remembers nothing and terra answers again. */
typedef struct town_memo {
    int64_t *key;  /* x, y per slot */
    uint8_t *val;  /* 0 empty, 1 TOWN, 2 not TOWN */
    int64_t cap, used;
} town_memo;

static void memo_close(town_memo *m)
{
    free(m->key);
    free(m->val);
    m->key = NULL;
    m->val = NULL;
    m->cap = m->used = 0;
}

static int64_t memo_find(const town_memo *m, int64_t x, int64_t y)
{
    uint64_t h = rt__u64(x) * 0x9E3779B97F4A7C15u ^ rt__u64(y) * 0xC2B2AE3D27D4EB4Fu;
    int64_t k = (int64_t)((h ^ (h >> 29)) & (uint64_t)(m->cap - 1));
    while (m->val[k] && (m->key[2 * k] != x || m->key[2 * k + 1] != y)) k = (k + 1) & (m->cap - 1);
    return k;
}

static int memo_grow(town_memo *m)
{
    int64_t cap = m->cap ? 2 * m->cap : 1024;
    town_memo g = {malloc((size_t)cap * 2 * sizeof *g.key), calloc((size_t)cap, 1), cap, 0};
    if (!g.key || !g.val) {
        memo_close(&g);
        return 0;
    }
    for (int64_t k = 0; k < m->cap; k++)
        if (m->val[k]) {
            int64_t at = memo_find(&g, m->key[2 * k], m->key[2 * k + 1]);
            g.key[2 * at] = m->key[2 * k];
            g.key[2 * at + 1] = m->key[2 * k + 1];
            g.val[at] = m->val[k];
        }
    g.used = m->used;
    memo_close(m);
    *m = g;
    return 1;
}

static int bare_town(const rt_terrain *bare, town_memo *m, int64_t x, int64_t y)
{
    int64_t at = -1;
    if (m->cap && (at = memo_find(m, x, y), m->val[at])) return m->val[at] == 1;
    rt_terra_res res;
    rt__terra_point(bare, (double)x, (double)y, &res);
    int town = res.terrain == RT_TOWN;
    if (2 * (m->used + 1) > m->cap) at = memo_grow(m) ? memo_find(m, x, y) : -1;
    if (at >= 0) {
        m->key[2 * at] = x;
        m->key[2 * at + 1] = y;
        m->val[at] = town ? 1 : 2;
        m->used++;
    }
    return town;
}

/* Place value at (x, y) unless something is placed there or the ground is
 * TOWN (terra without a table: nothing is placed at the point). */
static rt_status soak(const rt_terrain *bare, town_memo *memo, rt_placed *table, int64_t x,
                      int64_t y, uint8_t value, int64_t *added)
{
    if (rt_placed_get(table, x, y)) return RT_OK;
    if (bare_town(bare, memo, x, y)) return RT_OK;
    rt_status s = rt_placed_set(table, x, y, value);
    if (s == RT_OK) (*added)++;
    return s;
}

static rt_status soak_square(const rt_terrain *bare, town_memo *memo, rt_placed *table,
                             int64_t x, int64_t y, int half, uint8_t value, int64_t *added)
{
    for (int dx = -half; dx <= half; dx++)
        for (int dy = -half; dy <= half; dy++) {
            rt_status s = soak(bare, memo, table, x + dx, y + dy, value, added);
            if (s != RT_OK) return s;
        }
    return RT_OK;
}

static rt_status mark_route(const rt_terrain *t, town_memo *memo, rt_placed *table,
                            const int64_t *xy, int64_t n, int end, int64_t *added)
{
    rt_status s = rt__terrain_check_shape(t, NULL);
    if (s != RT_OK) return s;
    if (!table || (n > 0 && !xy)) return RT_ERR_NULL;
    if (n < 0) return RT_ERR_SIZE;
    for (int64_t k = 0; k < 2 * n; k++)
        if (!coord_ok(xy[k])) return RT_ERR_COORD;
    rt_terrain bare = *t;
    bare.placed = NULL;
    int64_t count = 0;
    const uint8_t stream = RT_PLACED_TERRAIN(RT_STREAM);
    if (n == 2) s = soak_square(&bare, memo, table, xy[2], xy[3], 1, stream, &count);
    for (int64_t i = 2; i < n && s == RT_OK; i++) {
        double ax = (double)xy[2 * i - 2], ay = (double)xy[2 * i - 1];
        double bx = (double)xy[2 * i], by = (double)xy[2 * i + 1];
        double d = sqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay));
        if (d == 0.0) { /* a repeated point: itself (0/0 otherwise) */
            s = soak_square(&bare, memo, table, xy[2 * i - 2], xy[2 * i - 1], 1, stream, &count);
            continue;
        }
        int64_t steps = (int64_t)floor(d);
        for (int64_t k = 0; k <= steps && s == RT_OK; k++) {
            double kf = (double)k;
            int64_t qx = (int64_t)rt__round_js(ax + kf * (bx - ax) / d);
            int64_t qy = (int64_t)rt__round_js(ay + kf * (by - ay) / d);
            s = soak_square(&bare, memo, table, qx, qy, 1, stream, &count);
        }
    }
    if (s == RT_OK && end == RT_END_HOLLOW && n > 0) {
        /* the last point's terrain with the table as it now is */
        rt_terrain with = *t;
        with.placed = table;
        rt_terra_res res;
        rt__terra_point(&with, (double)xy[2 * n - 2], (double)xy[2 * n - 1], &res);
        if (res.terrain != RT_TOWN && res.terrain != RT_ROAD)
            s = soak_square(&bare, memo, table, xy[2 * n - 2], xy[2 * n - 1], 4,
                            RT_PLACED_TERRAIN(RT_MARSH), &count);
    }
    if (added) *added = count;
    return s;
}

rt_status rt_mark_route(const rt_terrain *t, rt_placed *table, const int64_t *xy, int64_t n,
                        int end, int64_t *added)
{
    town_memo memo = {NULL, NULL, 0, 0};
    rt_status s = mark_route(t, &memo, table, xy, n, end, added);
    memo_close(&memo);
    return s;
}

rt_status rt_mark_routes(const rt_terrain *t, rt_placed *table, const int64_t *xy,
                         const int64_t *offsets, const uint8_t *ends, int64_t n, int64_t limit,
                         int64_t *added, int64_t *restarts, const rt_poll *poll)
{
    if (n < 0 || limit < 0) return RT_ERR_SIZE;
    if (!table || (n > 0 && (!xy || !offsets || !ends))) return RT_ERR_NULL;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    const uint8_t stream = RT_PLACED_TERRAIN(RT_STREAM), marsh = RT_PLACED_TERRAIN(RT_MARSH);
    int64_t soaked_now = rt_placed_count_value(table, stream) + rt_placed_count_value(table, marsh);
    int64_t total = 0, again = 0;
    rt_status s = RT_OK;
    town_memo memo = {NULL, NULL, 0, 0};
    for (int64_t k = 0; k < n && s == RT_OK; k++) {
        const int64_t *route = xy + 2 * offsets[k];
        int64_t m = offsets[k + 1] - offsets[k], got = 0;
        /* a route's points soak a 3 x 3 square each (terra at each cell) */
        if (rt__watch_stop(&w, (m + 81) * 9 * RT_WORK_POINT)) {
            s = RT_ERR_INTERRUPTED;
            break;
        }
        s = mark_route(t, &memo, table, route, m, ends[k], &got);
        total += got;
        soaked_now += got;
        if (s == RT_OK && soaked_now > limit) {
            /* the seed's rule: clear every stream and marsh, start again here */
            rt_placed_remove_all(table, stream);
            rt_placed_remove_all(table, marsh);
            again++;
            s = mark_route(t, &memo, table, route, m, ends[k], &got);
            total += got;
            soaked_now = got;
        }
    }
    memo_close(&memo);
    if (added) *added = total;
    if (restarts) *restarts = again;
    return s;
}
