/*
 * streams.c - streams from the ponds downhill, marshes, and soaking them
 * into the placed table (SPEC 7).
 *
 * A route scans the integer points around its current point (the
 * neighbourhood, dx outer, dy inner) for the lowest terra height, strictly
 * below the running minimum, and steps there until it reaches the lake,
 * finds no lower point (a hollow) or would pass its length cap.  Heights are
 * terra heights, which never depend on the placed table (rt__terra_height).
 *
 * Speed: an area scan traces every pond of the area; the routes of a group
 * of ponds stay within a window around them (a capped route cannot go
 * farther than its cap, plus the scan radius), so the window's heights are
 * computed once by the grid path (rt_height_grid: the same bits as the point
 * path at integer points, many times faster) and the routes read them; a
 * route that leaves the window (uncapped) continues on the point path.
 */
#include <math.h>
#include <stdlib.h>

#include "relfterrain.h"
#include "rt_internal.h"
#include "rt_terra.h"

#define SCAN 5                                /* the neighbourhood's radius */
#define WINDOW_POINTS ((int64_t)1 << 24)      /* largest height window: 128 MiB */
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

/* Heights of a block of integer points computed by the grid path. */
typedef struct window {
    const double *h; /* ny rows of nx ground heights, or NULL: none */
    int64_t x0, y0, nx, ny;
} window;

/* terra's height at an integer point, from the window where it has it. */
static inline double height_at(const rt_terrain *t, const window *w, int64_t x, int64_t y)
{
    double ht;
    int64_t c = x - w->x0, r = y - w->y0;
    if (w->h && c >= 0 && c < w->nx && r >= 0 && r < w->ny) {
        ht = w->h[r * w->nx + c];
        /* the ground height of the window; terra's water surface rule */
        if (t->bleak || (t->snow && ht > t->snow_height)) return ht;
        return t->lake_height > ht ? t->lake_height : ht;
    }
    return rt__terra_height(t, (double)x, (double)y);
}

typedef struct route_out {
    int64_t *xy;
    int64_t cap, n;
    double length;
    int end, marsh;
} route_out;

/* The route from (x, y); abandoned (r->end = -1) when the watch says stop. */
static void trace(const rt_terrain *t, const window *w, const scan_set *s,
                  const rt_stream_opts *o, int64_t x, int64_t y, route_out *r, rt__watch *wt)
{
    const double lake = t->lake_height;
    double h0 = height_at(t, w, x, y), length = 0.0;
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
            double h = height_at(t, w, x + s->dx[k], y + s->dy[k]);
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
    if (r->end == RT_END_HOLLOW) {
        rt_terra_res res;
        rt__terra_point(t, (double)x, (double)y, &res);
        r->marsh = res.terrain != RT_TOWN && res.terrain != RT_ROAD;
    }
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
    window w = {NULL, 0, 0, 0, 0};
    route_out r = {xy, cap < 0 ? 0 : cap, 0, 0.0, 0, 0};
    trace(t, &w, &set, o, x, y, &r, &wt);
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
 * gives a WATERHOLE.  Most points are ruled out by the low byte of xr*yr
 * alone (the xyff test of SPEC 5, exactly as feature_of computes it), most of
 * the rest by the feature value; terra decides the few left. */
typedef struct pond_job {
    const rt_terrain *bare;
    int64_t x0, y0, nx;
    uint8_t *band;
    uint32_t lo, hi; /* WATERHOLE needs lo <= xyff < hi */
    rt__watch *w;
} pond_job;

/* Columns of a row scanned between two checks of the watch. */
#define POND_RUN ((int64_t)1 << 16)

static void pond_rows(void *ctx, int64_t begin, int64_t end)
{
    const pond_job *j = ctx;
    for (int64_t r = begin; r < end; r++) {
        uint8_t *row = j->band + r * j->nx;
        double y = (double)(j->y0 + r);
        /* the low byte of the double product x*y, as feature_of takes it;
         * inside the domain the product is exact, so the integer one's */
        const int exact = fabs(y) <= RT_TERRAIN_DOMAIN && fabs((double)j->x0) <= RT_TERRAIN_DOMAIN &&
                          fabs((double)(j->x0 + j->nx)) <= RT_TERRAIN_DOMAIN;
        for (int64_t c0 = 0; c0 < j->nx; c0 += POND_RUN) {
            /* a long row is checked as it goes (the chunks check between rows) */
            if (c0 > 0 && rt__watch_stop(j->w, 4 * POND_RUN)) return;
            const int64_t c1 = j->nx - c0 > POND_RUN ? c0 + POND_RUN : j->nx;
            for (int64_t c = c0; c < c1; c++) {
                double x = (double)(j->x0 + c);
                uint32_t xyff = exact ? (uint32_t)(rt__u64((j->x0 + c) * (j->y0 + r)) & 0xffu)
                                      : rt__low32(x * y) & 0xffu;
                uint8_t pond = 0;
                if (xyff >= j->lo && xyff < j->hi &&
                    rt__point_feature(j->bare, x, y) == RT_WATERHOLE) {
                    rt_terra_res res;
                    rt__terra_point(j->bare, x, y, &res);
                    pond = res.feature == RT_WATERHOLE;
                }
                row[c] = pond;
            }
        }
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
    int64_t *px = NULL, *py = NULL;
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
    if (!band) goto done;
    rt_terrain bare = *t;
    bare.placed = NULL;
    uint32_t lo = t->mine_below > t->boulder_below ? t->mine_below : t->boulder_below;
    int64_t found = 0;
    for (int64_t r0 = 0; r0 < ny; r0 += rows) {
        int64_t nr = ny - r0 < rows ? ny - r0 : rows;
        pond_job j = {&bare, x0, y0 + r0, nx, band, lo, t->waterhole_below, &w};
        /* about 4 units a point: most are ruled out by one product */
        rt__parallel_watch(threads, nr, 4 * nx, pond_rows, &j, &w);
        if (rt__watch_stopped(&w)) {
            s = RT_ERR_INTERRUPTED;
            goto done;
        }
        for (int64_t k = 0; k < np; k++) {
            int64_t c = px[k] - x0, r = py[k] - (y0 + r0);
            if (c < 0 || c >= nx || r < 0 || r >= nr || soaked(pv[k])) continue;
            rt_terra_res res;
            rt__terra_point(t, (double)px[k], (double)py[k], &res);
            band[r * nx + c] = res.feature == RT_WATERHOLE;
        }
        for (int64_t k = 0; k < nr * nx; k++) {
            if (!band[k]) continue;
            if (found < cap) {
                xy[2 * found] = x0 + k % nx;
                xy[2 * found + 1] = y0 + r0 + k / nx;
            }
            found++;
        }
    }
    *count = found;
    s = RT_OK;
done:
    free(px);
    free(py);
    free(pv);
    free(band);
    return s;
}

/* ------------------------------------------------------------------------ */
/* Many routes                                                              */
/* ------------------------------------------------------------------------ */

typedef struct trace_job {
    const rt_terrain *t;
    const window *win;
    const scan_set *set;
    const rt_stream_opts *o;
    const int64_t *src;
    int64_t *xy, slot, *npts;
    double *length;
    uint8_t *end, *marsh;
    rt__watch *w;
} trace_job;

static void trace_range(void *ctx, int64_t begin, int64_t end)
{
    const trace_job *j = ctx;
    for (int64_t k = begin; k < end; k++) {
        route_out r = {j->xy + 2 * k * j->slot, j->slot, 0, 0.0, 0, 0};
        trace(j->t, j->win, j->set, j->o, j->src[2 * k], j->src[2 * k + 1], &r, j->w);
        if (r.end < 0) return; /* stopped */
        j->npts[k] = r.n;
        j->length[k] = r.length;
        j->end[k] = (uint8_t)r.end;
        j->marsh[k] = (uint8_t)r.marsh;
    }
}

typedef struct height_job {
    const rt_terrain *t;
    window *w;
} height_job;

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
    /* how far a route's heights can lie from its source (a capped route
     * cannot go farther than its cap; others read the window as far as it
     * goes and the point path beyond) */
    const int64_t reach = SCAN + (o->capped && o->max_length < 300.0 ? (int64_t)o->max_length : 300);
    double *heights = NULL;
    int64_t k0 = 0;
    while (k0 < n && !rt__watch_stopped(&wt)) {
        /* a group of consecutive sources whose window fits */
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
        window w = {NULL, xmin - reach, ymin - reach, xmax - xmin + 1 + 2 * reach,
                    ymax - ymin + 1 + 2 * reach};
        int inside = fabs((double)w.x0) <= RT_TERRAIN_DOMAIN &&
                     fabs((double)w.y0) <= RT_TERRAIN_DOMAIN &&
                     fabs((double)(w.x0 + w.nx)) <= RT_TERRAIN_DOMAIN &&
                     fabs((double)(w.y0 + w.ny)) <= RT_TERRAIN_DOMAIN;
        /* a window pays when it holds fewer points than the routes would
         * read: a route reads about 100 points a step, and most routes are
         * short (a few dozen steps); an uncapped route reads far more */
        int64_t reads = (k1 - k0) * (o->capped ? 4000 : 400000);
        if (inside && w.nx * w.ny <= WINDOW_POINTS && w.nx * w.ny <= reads) {
            heights = malloc((size_t)(w.nx * w.ny) * sizeof *heights);
            if (heights) {
                rt_block b = {(double)w.x0, (double)w.y0, 1.0, 0, 0, w.nx, w.ny};
                if (rt_height_grid(t, &b, heights, threads) == RT_OK) w.h = heights;
            }
        }
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
        free(heights);
        heights = NULL;
        k0 = k1;
    }
    return rt__watch_status(&wt);
}

/* ------------------------------------------------------------------------ */
/* Soaking into the placed table                                            */
/* ------------------------------------------------------------------------ */

/* Place value at (x, y) unless something is placed there or the ground is
 * TOWN (terra without a table: nothing is placed at the point). */
static rt_status soak(const rt_terrain *bare, rt_placed *table, int64_t x, int64_t y,
                      uint8_t value, int64_t *added)
{
    if (rt_placed_get(table, x, y)) return RT_OK;
    rt_terra_res res;
    rt__terra_point(bare, (double)x, (double)y, &res);
    if (res.terrain == RT_TOWN) return RT_OK;
    rt_status s = rt_placed_set(table, x, y, value);
    if (s == RT_OK) (*added)++;
    return s;
}

static rt_status soak_square(const rt_terrain *bare, rt_placed *table, int64_t x, int64_t y,
                             int half, uint8_t value, int64_t *added)
{
    for (int dx = -half; dx <= half; dx++)
        for (int dy = -half; dy <= half; dy++) {
            rt_status s = soak(bare, table, x + dx, y + dy, value, added);
            if (s != RT_OK) return s;
        }
    return RT_OK;
}

rt_status rt_mark_route(const rt_terrain *t, rt_placed *table, const int64_t *xy, int64_t n,
                        int end, int64_t *added)
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
    if (n == 2) s = soak_square(&bare, table, xy[2], xy[3], 1, stream, &count);
    for (int64_t i = 2; i < n && s == RT_OK; i++) {
        double ax = (double)xy[2 * i - 2], ay = (double)xy[2 * i - 1];
        double bx = (double)xy[2 * i], by = (double)xy[2 * i + 1];
        double d = sqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay));
        if (d == 0.0) { /* a repeated point: itself (0/0 otherwise) */
            s = soak_square(&bare, table, xy[2 * i - 2], xy[2 * i - 1], 1, stream, &count);
            continue;
        }
        int64_t steps = (int64_t)floor(d);
        for (int64_t k = 0; k <= steps && s == RT_OK; k++) {
            double kf = (double)k;
            int64_t qx = (int64_t)rt__round_js(ax + kf * (bx - ax) / d);
            int64_t qy = (int64_t)rt__round_js(ay + kf * (by - ay) / d);
            s = soak_square(&bare, table, qx, qy, 1, stream, &count);
        }
    }
    if (s == RT_OK && end == RT_END_HOLLOW && n > 0) {
        /* the last point's terrain with the table as it now is */
        rt_terrain with = *t;
        with.placed = table;
        rt_terra_res res;
        rt__terra_point(&with, (double)xy[2 * n - 2], (double)xy[2 * n - 1], &res);
        if (res.terrain != RT_TOWN && res.terrain != RT_ROAD)
            s = soak_square(&bare, table, xy[2 * n - 2], xy[2 * n - 1], 4,
                            RT_PLACED_TERRAIN(RT_MARSH), &count);
    }
    if (added) *added = count;
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
    for (int64_t k = 0; k < n && s == RT_OK; k++) {
        const int64_t *route = xy + 2 * offsets[k];
        int64_t m = offsets[k + 1] - offsets[k], got = 0;
        /* a route's points soak a 3 x 3 square each (terra at each cell) */
        if (rt__watch_stop(&w, (m + 81) * 9 * RT_WORK_POINT)) {
            s = RT_ERR_INTERRUPTED;
            break;
        }
        s = rt_mark_route(t, table, route, m, ends[k], &got);
        total += got;
        soaked_now += got;
        if (s == RT_OK && soaked_now > limit) {
            /* the seed's rule: clear every stream and marsh, start again here */
            rt_placed_remove_all(table, stream);
            rt_placed_remove_all(table, marsh);
            again++;
            s = rt_mark_route(t, table, route, m, ends[k], &got);
            total += got;
            soaked_now = got;
        }
    }
    if (added) *added = total;
    if (restarts) *restarts = again;
    return s;
}
