/*
 * roads.c - paving roads (SPEC 13): the cells of a road and its bridge check.
 *
 * The author's paving: for each segment a -> b, d = hypot(b - a), the points
 * q_k = (round_js(a.x + k*(b.x-a.x)/d), round_js(a.y + k*(b.y-a.y)/d)),
 * k = 0 .. floor(d), and the (2w+1)-square around each.  The placed table is
 * not modified here: the caller writes the cells (so that a refused road
 * paves nothing, and so that what a road covered can be restored).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "relfterrain.h"
#include "rt_internal.h"
#include "rt_terra.h"

/* The segment a -> b: its length d and its number of points q. */
static int64_t segment_points(int64_t ax, int64_t ay, int64_t bx, int64_t by, double *d)
{
    double dx = (double)(bx - ax), dy = (double)(by - ay);
    /* |dx|, |dy| <= 2^25: the sum of squares is an exact double, so the
     * correctly rounded sqrt is the correctly rounded hypot */
    *d = sqrt(dx * dx + dy * dy);
    return (int64_t)rt__floor(*d) + 1;
}

/* q_k of the segment a -> b of length d. */
static void segment_point(int64_t ax, int64_t ay, int64_t bx, int64_t by, double d, int64_t k,
                          int64_t *qx, int64_t *qy)
{
    if (d == 0.0) { /* a == b: the one point (the formula would divide 0 by 0) */
        *qx = ax;
        *qy = ay;
        return;
    }
    double kf = (double)k;
    /* a.x + k*(b.x-a.x)/d, left to right: a.x + ((k*(b.x-a.x))/d) */
    *qx = (int64_t)rt__round_js((double)ax + kf * (double)(bx - ax) / d);
    *qy = (int64_t)rt__round_js((double)ay + kf * (double)(by - ay) / d);
}

rt_status rt_road_check(const rt_road *r, int64_t *bound)
{
    if (!r || !r->x || !r->y) return RT_ERR_NULL;
    if (r->n < 2) return RT_ERR_SIZE;
    if (r->half_width < 0 || r->half_width > RT_MAX_ROAD_HALF_WIDTH) return RT_ERR_PARAM;
    const int64_t lim = (int64_t)RT_TERRAIN_DOMAIN;
    for (int64_t i = 0; i < r->n; i++)
        if (r->x[i] > lim || r->x[i] < -lim || r->y[i] > lim || r->y[i] < -lim)
            return RT_ERR_COORD;
    int64_t side = 2 * (int64_t)r->half_width + 1, total = 0;
    for (int64_t i = 0; i + 1 < r->n; i++) {
        int64_t dx = r->x[i + 1] - r->x[i], dy = r->y[i + 1] - r->y[i];
        if (dx > RT_MAX_ROAD_SEGMENT || dx < -RT_MAX_ROAD_SEGMENT || dy > RT_MAX_ROAD_SEGMENT ||
            dy < -RT_MAX_ROAD_SEGMENT)
            return RT_ERR_COORD;
        double d;
        int64_t nq = segment_points(r->x[i], r->y[i], r->x[i + 1], r->y[i + 1], &d);
        /* nq < 2^26 and side^2 < 2^22: the product fits; the sum is guarded */
        int64_t cells = nq * side * side;
        if (cells > INT64_MAX / 16 - total) return RT_ERR_SIZE;
        total += cells;
    }
    if (bound) *bound = total;
    return RT_OK;
}

/* The bridge check's job: one flag per point q of the whole road. */
typedef struct bridge_job {
    const rt_terrain *t;
    const rt_road *r;
    const int64_t *start;    /* n: first global index of each segment, start[n-1] = total */
    const double *length;    /* n - 1 segment lengths */
    uint8_t *low;            /* total flags: terra height <= lake_base */
} bridge_job;

/* ------------------------------------------------------------------------ */
/* Sorting the cells, interruptibly                                         */
/* ------------------------------------------------------------------------ */

/* (x, y) pairs in (x, y) order.  Up to SORT_WHOLE cells (a few tenths of a
 * second at most): one qsort.  More: runs of SORT_RUN cells sorted by qsort
 * (tens of milliseconds each), then merged pairwise through a buffer of n
 * cells, the watch checked between runs and every SORT_RUN cells merged.
 * Equal pairs are identical, so the result is the one a single qsort gives.
 * 0; -1 when stopped; 1 when the buffer could not be had (RT_ERR_NOMEM). */
#define SORT_WHOLE ((int64_t)1 << 22)
#define SORT_RUN ((int64_t)1 << 18)

static int compare_cells(const void *pa, const void *pb)
{
    const int64_t *a = pa, *b = pb;
    if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
    if (a[1] != b[1]) return a[1] < b[1] ? -1 : 1;
    return 0;
}

static int sort_cells(int64_t *c, int64_t n, rt__watch *w)
{
    if (n <= SORT_WHOLE) {
        qsort(c, (size_t)n, 2 * sizeof *c, compare_cells);
        return 0;
    }
    for (int64_t i = 0; i < n; i += SORT_RUN) {
        if (i > 0 && rt__watch_stop(w, 64 * SORT_RUN)) return -1;
        int64_t m = n - i < SORT_RUN ? n - i : SORT_RUN;
        qsort(c + 2 * i, (size_t)m, 2 * sizeof *c, compare_cells);
    }
    if (n <= SORT_RUN) return 0;
    int64_t *tmp = malloc((size_t)n * 2 * sizeof *tmp);
    if (!tmp) return 1;
    int64_t *src = c, *dst = tmp;
    for (int64_t width = SORT_RUN; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = n - lo > width ? lo + width : n;
            int64_t hi = n - lo > 2 * width ? lo + 2 * width : n;
            int64_t a = lo, b = mid, k = lo;
            while (k < hi) {
                if (rt__watch_stop(w, 8 * SORT_RUN)) {
                    free(tmp);
                    return -1;
                }
                int64_t stop = hi - k > SORT_RUN ? k + SORT_RUN : hi;
                /* both runs non-empty: the smaller head (the left on ties) */
                while (k < stop && a < mid && b < hi) {
                    const int64_t *pa = src + 2 * a, *pb = src + 2 * b;
                    int left = pa[0] < pb[0] || (pa[0] == pb[0] && pa[1] <= pb[1]);
                    const int64_t *p = left ? pa : pb;
                    a += left;
                    b += !left;
                    dst[2 * k] = p[0];
                    dst[2 * k + 1] = p[1];
                    k++;
                }
                /* one run is done: the rest of the other */
                for (; k < stop && a < mid; k++, a++) {
                    dst[2 * k] = src[2 * a];
                    dst[2 * k + 1] = src[2 * a + 1];
                }
                for (; k < stop && b < hi; k++, b++) {
                    dst[2 * k] = src[2 * b];
                    dst[2 * k + 1] = src[2 * b + 1];
                }
            }
        }
        int64_t *swap = src;
        src = dst;
        dst = swap;
    }
    if (src != c) memcpy(c, src, (size_t)n * 2 * sizeof *c);
    free(tmp);
    return 0;
}

static void bridge_range(void *ctx, int64_t begin, int64_t end)
{
    const bridge_job *j = ctx;
    const rt_road *r = j->r;
    /* the segment holding `begin`: the last i with start[i] <= begin */
    int64_t lo = 0, hi = r->n - 2;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (j->start[mid] <= begin) lo = mid;
        else hi = mid - 1;
    }
    int64_t i = lo;
    for (int64_t g = begin; g < end; g++) {
        while (g >= j->start[i + 1]) i++;
        int64_t qx, qy;
        segment_point(r->x[i], r->y[i], r->x[i + 1], r->y[i + 1], j->length[i], g - j->start[i],
                      &qx, &qy);
        rt_terra_res res;
        rt__terra_point(j->t, (double)qx, (double)qy, &res);
        j->low[g] = r->bridge_lake ? res.terrain == RT_LAKE : res.height <= j->t->lake_base;
    }
}

rt_status rt_road_cells(const rt_terrain *t, const rt_road *r, int64_t *cells, int64_t cap,
                        int64_t *count, int64_t *bridge, int64_t *bad_segment, int threads,
                        const rt_poll *poll)
{
    if (!t || !cells || !count || !bad_segment) return RT_ERR_NULL;
    rt_status s = rt__terrain_check_shape(t, NULL);
    if (s != RT_OK) return s;
    int64_t bound = 0;
    s = rt_road_check(r, &bound);
    if (s != RT_OK) return s;
    if (cap < bound) return RT_ERR_SIZE;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;

    int64_t nseg = r->n - 1;
    int64_t *start = malloc((size_t)r->n * sizeof *start);
    double *length = malloc((size_t)nseg * sizeof *length);
    int64_t *counts = calloc((size_t)nseg, sizeof *counts);
    uint8_t *low = NULL;
    if (!start || !length || !counts) goto nomem;
    start[0] = 0;
    for (int64_t i = 0; i < nseg; i++)
        start[i + 1] = start[i] + segment_points(r->x[i], r->y[i], r->x[i + 1], r->y[i + 1],
                                                 &length[i]);
    low = malloc((size_t)start[nseg]);
    if (!low) goto nomem;
    bridge_job job = {t, r, start, length, low};
    rt__parallel_watch(threads, start[nseg], RT_WORK_POINT, bridge_range, &job, &w);
    if (rt__watch_stopped(&w)) goto stopped;
    int64_t bad = -1;
    for (int64_t i = 0; i < nseg; i++) {
        for (int64_t g = start[i]; g < start[i + 1]; g++) counts[i] += low[g];
        if (bad < 0 && r->max_bridge >= 0 && counts[i] > r->max_bridge) bad = i;
    }
    free(low);
    low = NULL;

    int64_t n = 0;
    if (bad < 0) {
        int64_t hw = r->half_width, pending = 0;
        for (int64_t i = 0; i < nseg; i++)
            for (int64_t k = 0; k < start[i + 1] - start[i]; k++) {
                if (rt__watch_charge(&w, &pending, (2 * hw + 1) * (2 * hw + 1) + 16))
                    goto stopped;
                int64_t qx, qy;
                segment_point(r->x[i], r->y[i], r->x[i + 1], r->y[i + 1], length[i], k, &qx,
                              &qy);
                for (int64_t dx = -hw; dx <= hw; dx++)
                    for (int64_t dy = -hw; dy <= hw; dy++) {
                        cells[2 * n] = qx + dx;
                        cells[2 * n + 1] = qy + dy;
                        n++;
                    }
            }
        int sorted = sort_cells(cells, n, &w);
        if (sorted < 0) goto stopped;
        if (sorted > 0) goto nomem;
        int64_t u = 0;
        for (int64_t k = 0; k < n; k++) {
            if (u > 0 && cells[2 * k] == cells[2 * (u - 1)] &&
                cells[2 * k + 1] == cells[2 * (u - 1) + 1])
                continue;
            cells[2 * u] = cells[2 * k];
            cells[2 * u + 1] = cells[2 * k + 1];
            u++;
        }
        n = u;
    }
    if (bridge) memcpy(bridge, counts, (size_t)nseg * sizeof *counts);
    *count = n;
    *bad_segment = bad;
    free(start);
    free(length);
    free(counts);
    return RT_OK;

stopped:
    free(low);
    free(start);
    free(length);
    free(counts);
    return RT_ERR_INTERRUPTED;

nomem:
    free(start);
    free(length);
    free(counts);
    return RT_ERR_NOMEM;
}
