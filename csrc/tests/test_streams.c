/*
 * test_streams.c - streams (SPEC 7) in the C driver: the windowed area path
 * equals the point path route for route, for every thread count; routes
 * fall strictly and step within the neighbourhood; marking follows its
 * rules; terra's height does not depend on the placed table.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "relfterrain.h"
#include "rt_terra.h"

static void check_route(const rt_terrain *t, const int64_t *xy, int64_t n, int nb, int end,
                        double length, const rt_stream_opts *o)
{
    double total = 0.0, prev = rt__terra_height(t, (double)xy[0], (double)xy[1]);
    for (int64_t k = 1; k < n; k++) {
        int64_t dx = xy[2 * k] - xy[2 * k - 2], dy = xy[2 * k + 1] - xy[2 * k - 1];
        int ok = dx >= -5 && dx <= 5 && dy >= -5 && dy <= 5 && (dx || dy);
        if (nb == RT_CROSS) ok = ok && dx && dy;
        if (nb == RT_CIRCLE) ok = ok && dx * dx + dy * dy <= 25;
        CHECK(ok);
        double h = rt__terra_height(t, (double)xy[2 * k], (double)xy[2 * k + 1]);
        CHECK(h < prev);
        prev = h;
        total += sqrt((double)(dx * dx + dy * dy));
    }
    CHECK(same_bits(total, length));
    CHECK(!o->capped || length <= o->max_length);
    if (end == RT_END_LAKE) CHECK(prev <= t->lake_height);
    else CHECK(n == 1 || prev > t->lake_height);
}

uint64_t test_streams(void)
{
    uint64_t fp = FNV_START;
    rt_terrain t;
    rt_terrain_defaults(&t);
    rt_placed *table = rt_placed_new();
    CHECK(table != NULL);
    /* terra's height is independent of the table */
    for (int k = 0; k < 50; k++)
        CHECK(rt_placed_set(table, 23400 + k, 5400 + 2 * k,
                            k % 2 ? RT_PLACED_TERRAIN(RT_ROAD) : RT_PLACED_FEATURE(RT_MINE)) == RT_OK);
    t.placed = table;
    for (int k = 0; k < 100; k++) {
        rt_terra_res r;
        rt__terra_point(&t, 23400 + k / 2, 5400 + k, &r);
        CHECK(same_bits(r.height, rt__terra_height(&t, 23400 + k / 2, 5400 + k)));
    }
    /* ponds of an area, then the routes both ways */
    int64_t count = 0, cap = 4096;
    int64_t *src = malloc((size_t)cap * 2 * sizeof *src);
    CHECK(rt_stream_ponds(&t, 23096, 5018, 1400, 1200, src, cap, &count, 2, NULL) == RT_OK);
    CHECK(count > 0 && count <= cap);
    for (int64_t k = 0; k < count && k < cap; k++) fp = fnv1a(fp, src + 2 * k, 2 * sizeof *src);
    for (int nb = 0; nb < RT_NEIGHBOURHOOD_COUNT; nb++) {
        rt_stream_opts o;
        rt_stream_opts_defaults(&o);
        o.neighbourhood = nb;
        if (nb == RT_SQUARE) o.max_length = 120.5;
        int64_t slot = rt_stream_max_route(&o);
        int64_t *xy = malloc((size_t)(count * slot) * 2 * sizeof *xy);
        int64_t *npts = malloc((size_t)count * sizeof *npts);
        double *len = malloc((size_t)count * sizeof *len);
        uint8_t *end = malloc((size_t)count), *marsh = malloc((size_t)count);
        int64_t *one = malloc((size_t)slot * 2 * sizeof *one);
        for (int threads = 1; threads <= 3; threads += 2) {
            CHECK(rt_trace_streams(&t, src, count, &o, xy, slot, npts, len, end, marsh, threads, NULL) ==
                  RT_OK);
            for (int64_t k = 0; k < count; k++) {
                int64_t n1 = 0;
                double l1 = 0;
                int e1 = -1, m1 = -1;
                CHECK(rt_trace_stream(&t, src[2 * k], src[2 * k + 1], &o, one, slot, &n1, &l1, &e1,
                                      &m1, NULL) == RT_OK);
                CHECK(n1 == npts[k] && same_bits(l1, len[k]) && e1 == end[k] && m1 == marsh[k]);
                CHECK(memcmp(one, xy + 2 * k * slot, (size_t)n1 * 2 * sizeof *one) == 0);
                check_route(&t, one, n1, nb, e1, l1, &o);
                if (threads == 1) {
                    fp = fnv1a(fp, one, (size_t)n1 * 2 * sizeof *one);
                    fp = fnv1a(fp, &l1, sizeof l1);
                }
            }
        }
        /* marking: nothing where something is placed; a restart with a small limit */
        if (nb == RT_CROSS) {
            int64_t *off = malloc((size_t)(count + 1) * sizeof *off), m = 0;
            int64_t *packed = malloc((size_t)(count * slot) * 2 * sizeof *packed);
            off[0] = 0;
            for (int64_t k = 0; k < count; k++) {
                memcpy(packed + 2 * off[k], xy + 2 * k * slot, (size_t)npts[k] * 2 * sizeof *xy);
                off[k + 1] = off[k] + npts[k];
                m++;
            }
            rt_placed *marked = rt_placed_clone(table);
            int64_t added = 0, restarts = 0;
            CHECK(rt_mark_routes(&t, marked, packed, off, end, m, 300000, &added, &restarts, NULL) ==
                  RT_OK);
            CHECK(restarts == 0 && added > 0);
            CHECK(rt_placed_count(marked) == rt_placed_count(table) + added);
            for (int k = 0; k < 50; k++) /* what was placed stays */
                CHECK(rt_placed_get(marked, 23400 + k, 5400 + 2 * k) ==
                      rt_placed_get(table, 23400 + k, 5400 + 2 * k));
            fp = fnv1a(fp, &added, sizeof added);
            rt_placed *small = rt_placed_clone(table);
            CHECK(rt_mark_routes(&t, small, packed, off, end, m, added / 3, &added, &restarts, NULL) ==
                  RT_OK);
            CHECK(restarts > 0);
            CHECK(rt_placed_count_value(small, RT_PLACED_TERRAIN(RT_STREAM)) +
                      rt_placed_count_value(small, RT_PLACED_TERRAIN(RT_MARSH)) <=
                  rt_placed_count(marked));
            rt_placed_free(marked);
            rt_placed_free(small);
            free(off);
            free(packed);
        }
        free(xy), free(npts), free(len), free(end), free(marsh), free(one);
    }
    /* bad input */
    rt_stream_opts o;
    rt_stream_opts_defaults(&o);
    int64_t n = 0, buf[2];
    double l;
    int e, m;
    o.neighbourhood = 7;
    CHECK(rt_trace_stream(&t, 0, 0, &o, buf, 1, &n, &l, &e, &m, NULL) == RT_ERR_PARAM);
    rt_stream_opts_defaults(&o);
    o.max_length = NAN;
    CHECK(rt_trace_stream(&t, 0, 0, &o, buf, 1, &n, &l, &e, &m, NULL) == RT_ERR_PARAM);
    rt_stream_opts_defaults(&o);
    CHECK(rt_trace_stream(&t, INT64_MAX, 0, &o, buf, 1, &n, &l, &e, &m, NULL) == RT_ERR_COORD);
    CHECK(rt_stream_ponds(&t, 0, 0, 0, 5, NULL, 0, &count, 1, NULL) == RT_ERR_SIZE);
    free(src);
    rt_placed_free(table);
    return fp;
}
