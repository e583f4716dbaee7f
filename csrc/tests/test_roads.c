/*
 * test_roads.c - roads (SPEC 13) in the C driver: the cells of simple roads
 * counted by hand, the q points against a direct evaluation, the bridge
 * refusal with nothing written, thread counts agree, bad input refused.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "relfterrain.h"

/* Is (x, y) among the n sorted cells? */
static int has_cell(const int64_t *cells, int64_t n, int64_t x, int64_t y)
{
    for (int64_t k = 0; k < n; k++)
        if (cells[2 * k] == x && cells[2 * k + 1] == y) return 1;
    return 0;
}

static int64_t pave(const rt_terrain *t, const rt_road *r, int64_t **cells, int64_t *bridge,
                    int64_t *bad, int threads)
{
    int64_t bound = 0, n = -1;
    CHECK(rt_road_check(r, &bound) == RT_OK);
    *cells = malloc((size_t)(bound > 0 ? bound : 1) * 2 * sizeof **cells);
    CHECK(rt_road_cells(t, r, *cells, bound, &n, bridge, bad, threads, NULL) == RT_OK);
    return n;
}

uint64_t test_roads(void)
{
    uint64_t fp = FNV_START;
    rt_terrain t;
    rt_terrain_defaults(&t);

    /* a straight road east: q = 0..10, a 15 x 5 rectangle */
    int64_t x1[] = {23400, 23410}, y1[] = {5320, 5320};
    rt_road r = {x1, y1, 2, 2, 60, 0};
    int64_t *cells, bridge[4], bad = 7;
    int64_t n = pave(&t, &r, &cells, bridge, &bad, 1);
    CHECK(n == 15 * 5 && bad == -1);
    CHECK(has_cell(cells, n, 23398, 5318) && has_cell(cells, n, 23412, 5322));
    CHECK(!has_cell(cells, n, 23413, 5320) && !has_cell(cells, n, 23400, 5323));
    for (int64_t k = 1; k < n; k++) /* sorted by (x, y), distinct */
        CHECK(cells[2 * k - 2] < cells[2 * k] ||
              (cells[2 * k - 2] == cells[2 * k] && cells[2 * k - 1] < cells[2 * k + 1]));
    fp = fnv1a(fp, cells, (size_t)n * 2 * sizeof *cells);
    free(cells);

    /* a diagonal and a zero-length segment; every q of the diagonal is a cell
     * centre by the formula, evaluated here directly */
    int64_t x2[] = {0, 7, 7, -3}, y2[] = {0, 5, 5, 9};
    rt_road r2 = {x2, y2, 4, 0, -1, 0};
    n = pave(&t, &r2, &cells, bridge, &bad, 1);
    CHECK(bad == -1);
    double d = sqrt(49.0 + 25.0);
    CHECK(d == hypot(7.0, 5.0));
    for (int k = 0; k <= (int)floor(d); k++) {
        double qx = rt_round_js(0.0 + (double)k * 7.0 / d);
        double qy = rt_round_js(0.0 + (double)k * 5.0 / d);
        CHECK(has_cell(cells, n, (int64_t)qx, (int64_t)qy));
    }
    /* the author's paving need not reach a segment's end: k = 10 of the
     * last segment (d = sqrt(116)) is (-2, 9), and w = 0 paves no more */
    CHECK(has_cell(cells, n, 7, 5) && has_cell(cells, n, -2, 9) && !has_cell(cells, n, -3, 9));
    fp = fnv1a(fp, cells, (size_t)n * 2 * sizeof *cells);
    free(cells);

    /* the bridge: with the lake base above every height, every q is low */
    rt_terrain wet = t;
    wet.lake_base = 1e6;
    int64_t x3[] = {100, 100, 150}, y3[] = {0, 30, 30};
    rt_road r3 = {x3, y3, 3, 2, 40, 0};
    int64_t sentinel[2] = {-99, -99}, count = -1;
    CHECK(rt_road_cells(&wet, &r3, sentinel, 1, &count, bridge, &bad, 2, NULL) == RT_ERR_SIZE);
    CHECK(sentinel[0] == -99 && count == -1);
    int64_t bound = 0;
    CHECK(rt_road_check(&r3, &bound) == RT_OK && bound == (31 + 51) * 25);
    int64_t *buf = malloc((size_t)bound * 2 * sizeof *buf);
    buf[0] = -99;
    CHECK(rt_road_cells(&wet, &r3, buf, bound, &count, bridge, &bad, 2, NULL) == RT_OK);
    CHECK(bad == 1 && count == 0 && buf[0] == -99); /* segment 1 has 51 > 40 */
    CHECK(bridge[0] == 31 && bridge[1] == 51);
    r3.max_bridge = 51;
    for (int threads = 1; threads <= 3; threads++) {
        int64_t n2 = -1, b2[2];
        CHECK(rt_road_cells(&wet, &r3, buf, bound, &n2, b2, &bad, threads, NULL) == RT_OK);
        CHECK(bad == -1 && n2 == 5 * 35 + 55 * 5 - 25 && b2[0] == 31 && b2[1] == 51);
    }
    /* the classic dry ground bridges nothing */
    CHECK(rt_road_cells(&t, &r3, buf, bound, &count, bridge, &bad, 1, NULL) == RT_OK);
    CHECK(bad == -1 && bridge[0] + bridge[1] >= 0);
    fp = fnv1a(fp, bridge, sizeof bridge[0] * 2);
    free(buf);

    /* bad input */
    int64_t far[] = {0, (int64_t)RT_TERRAIN_DOMAIN + 1};
    rt_road bad_r = {far, far, 2, 2, 60, 0};
    CHECK(rt_road_check(&bad_r, NULL) == RT_ERR_COORD);
    int64_t longx[] = {0, RT_MAX_ROAD_SEGMENT + 1}, zero[] = {0, 0};
    bad_r = (rt_road){longx, zero, 2, 2, 60, 0};
    CHECK(rt_road_check(&bad_r, NULL) == RT_ERR_COORD);
    bad_r = (rt_road){x1, y1, 1, 2, 60, 0};
    CHECK(rt_road_check(&bad_r, NULL) == RT_ERR_SIZE);
    bad_r = (rt_road){x1, y1, 2, -1, 60, 0};
    CHECK(rt_road_check(&bad_r, NULL) == RT_ERR_PARAM);
    bad_r = (rt_road){x1, y1, 2, RT_MAX_ROAD_HALF_WIDTH + 1, 60, 0};
    CHECK(rt_road_check(&bad_r, NULL) == RT_ERR_PARAM);
    bad_r = (rt_road){NULL, y1, 2, 2, 60, 0};
    CHECK(rt_road_check(&bad_r, NULL) == RT_ERR_NULL);
    CHECK(rt_road_cells(&t, &r, NULL, 100, &count, NULL, &bad, 1, NULL) == RT_ERR_NULL);
    rt_terrain broken = t;
    broken.profile_len = 3;
    int64_t one[2];
    CHECK(rt_road_cells(&broken, &r, one, 1000, &count, NULL, &bad, 1, NULL) ==
          RT_ERR_PROFILE_LENGTH);
    return fp;
}
