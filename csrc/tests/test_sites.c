/*
 * test_sites.c - findGoodSite (SPEC 12) in the C driver: every site found
 * passes a brute-force check of each criterion (terra through
 * rt_terra_points, buildings through rt_building_at) and no earlier spiral
 * candidate does; many starts equal single searches for every thread count;
 * the impossible cases fail with the right reason or paint a disc; bad input
 * is refused with nothing written.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "relfterrain.h"

static int open_kind(int t) { return t == RT_GRASS || t == RT_MOOR || t == RT_WOOD; }

static void terra1(const rt_terrain *t, int64_t x, int64_t y, double *h, uint8_t *te, uint8_t *fe)
{
    double xd = (double)x, yd = (double)y, hh, dd;
    rt_terra_out o = {&hh, &dd, te, fe};
    CHECK(rt_terra_points(t, &xd, &yd, 1, &o, 1) == RT_OK);
    if (h) *h = hh;
}

/* The six criteria at (sx, sy), as a mask, by brute force over squares. */
static unsigned brute(const rt_terrain *t, const rt_site_options *o, int64_t sx, int64_t sy)
{
    double h;
    uint8_t te, fe;
    terra1(t, sx, sy, &h, &te, &fe);
    unsigned m = 0;
    if (te != RT_LAKE && h - t->lake_height >= o->min_height) m |= 1u;
    if (open_kind(te)) m |= 2u;
    if (fe == RT_NONE) m |= 4u;
    int d = 1, f = 1, e = 1;
    int64_t lim = 20;
    for (int64_t dx = -lim; dx <= lim; dx++)
        for (int64_t dy = -lim; dy <= lim; dy++) {
            double d2 = (double)(dx * dx + dy * dy);
            uint8_t qt, qf;
            terra1(t, sx + dx, sy + dy, NULL, &qt, &qf);
            if (d2 < o->mine_distance * o->mine_distance && qf == RT_MINE) d = 0;
            if (d2 <= o->clearance * o->clearance && !open_kind(qt)) f = 0;
        }
    for (int64_t bx = sx - 40; bx <= sx + 40; bx++)
        for (int64_t by = sy - 40; by <= sy + 40; by++) {
            if (!rt_building_at(t, bx, by)) continue;
            /* distance from s to the square [bx-6, bx+6] x [by-6, by+6] */
            double ddx = fmax(fmax((double)(bx - 6 - sx), 0.0), (double)(sx - bx - 6));
            double ddy = fmax(fmax((double)(by - 6 - sy), 0.0), (double)(sy - by - 6));
            if (ddx * ddx + ddy * ddy < o->building_distance * o->building_distance) e = 0;
        }
    if (d) m |= 8u;
    if (e) m |= 16u;
    if (f) m |= 32u;
    return m;
}

/* Candidate i of the spiral around (sx, sy). */
static void candidate(int64_t sx, int64_t sy, double a0, int64_t i, int64_t *x, int64_t *y)
{
    if (i == 0) {
        *x = sx;
        *y = sy;
        return;
    }
    int64_t k = 1;
    while (i > 8 * k) {
        i -= 8 * k;
        k++;
    }
    int64_t j = i - 1;
    double r = (double)(8 * k);
    double th = a0 + 2.0 * 3.141592653589793 * (double)j / (double)(8 * k);
    *x = (int64_t)rt_round_js((double)sx + r * rt_sin(th));
    *y = (int64_t)rt_round_js((double)sy + r * rt_cos(th));
}

static void check_found(const rt_terrain *t, const rt_site_options *o, double a0, const rt_site *s)
{
    CHECK(s->ok && !s->altered && s->reason == RT_SITE_FOUND && s->criteria == 0x3f);
    CHECK(brute(t, o, s->x, s->y) == 0x3f);
    for (int64_t i = 0; i + 1 < s->tries; i++) {
        int64_t x, y;
        candidate(s->centre_x, s->centre_y, a0, i, &x, &y);
        CHECK(brute(t, o, x, y) != 0x3f);
    }
    int64_t x, y;
    candidate(s->centre_x, s->centre_y, a0, s->tries - 1, &x, &y);
    CHECK(x == s->x && y == s->y);
}

uint64_t test_sites(void)
{
    uint64_t fp = FNV_START;
    rt_terrain t;
    rt_terrain_defaults(&t);
    rt_site_options o;
    rt_site_defaults(&o);
    CHECK(o.min_height == 10.0 && o.max_loops == 1000 && o.patch_radius == 20.0);

    /* starts on and around the classic map */
    enum { N = 24 };
    double xs[N], ys[N], a0[N];
    for (int k = 0; k < N; k++) {
        xs[k] = 23396.0 + (double)((k * 7919) % 1000) - 100.0 + 0.25 * k;
        ys[k] = 5318.0 + (double)((k * 104729) % 800) - 100.0;
        a0[k] = k % 3 ? 0.0 : 0.37 * k;
    }
    rt_site one[N], many[N];
    for (int k = 0; k < N; k++) {
        CHECK(rt_find_good_site(&t, xs[k], ys[k], a0[k], &o, &one[k], NULL) == RT_OK);
        if (one[k].ok) check_found(&t, &o, a0[k], &one[k]);
    }
    for (int threads = 1; threads <= 4; threads++) {
        memset(many, 0xAB, sizeof many);
        CHECK(rt_find_good_sites(&t, xs, ys, a0, N, &o, many, threads, NULL) == RT_OK);
        CHECK(memcmp(one, many, sizeof one) == 0);
    }
    fp = fnv1a(fp, one, sizeof one);

    /* a sea: no dry land within max_loops jumps */
    rt_terrain sea = t;
    sea.lake_height = 1e6;
    rt_site s;
    o.max_loops = 50;
    CHECK(rt_find_good_site(&sea, 23500, 5500, 0.0, &o, &s, NULL) == RT_OK);
    CHECK(!s.ok && s.reason == RT_SITE_DRY && s.tries == 0 && s.jumps == 50);
    CHECK(s.x == 23500 - 50 * 100 && s.y == 5500 + 50 * 100);
    fp = fnv1a(fp, &s, sizeof s);
    o.max_loops = 1000;

    /* a large thicket: the spiral overruns; may_alter paints a disc */
    rt_placed *pl = rt_placed_new();
    CHECK(pl != NULL);
    for (int64_t x = 23600 - 140; x <= 23600 + 140; x++)
        for (int64_t y = 5600 - 140; y <= 5600 + 140; y++)
            CHECK(rt_placed_set(pl, x, y, RT_PLACED_TERRAIN(RT_THICKET)) == RT_OK);
    rt_terrain thick = t;
    thick.placed = pl;
    CHECK(rt_find_good_site(&thick, 23600, 5600, 0.0, &o, &s, NULL) == RT_OK);
    CHECK(!s.ok && s.reason == RT_SITE_SPIRAL && s.tries == 1000 && !s.altered);
    CHECK(brute(&thick, &o, s.x, s.y) == s.criteria);
    fp = fnv1a(fp, &s, sizeof s);
    o.may_alter = 1;
    int64_t before = rt_placed_count(pl);
    CHECK(rt_find_good_site(&thick, 23600, 5600, 0.0, &o, &s, NULL) == RT_OK);
    CHECK(s.ok && s.altered && s.reason == RT_SITE_FOUND && s.tries == 1000);
    CHECK(s.patch == RT_PLACED_TERRAIN(RT_GRASS));
    CHECK(rt_placed_count(pl) == before); /* the search paints nothing */
    CHECK(rt_site_paint(pl, &s, &o) == RT_OK);
    CHECK(rt_placed_get(pl, s.x + 20, s.y) == RT_PLACED_TERRAIN(RT_GRASS));
    CHECK(rt_placed_get(pl, s.x + 15, s.y + 13) == RT_PLACED_TERRAIN(RT_GRASS)); /* 394 <= 400 */
    CHECK(rt_placed_get(pl, s.x + 15, s.y + 14) == RT_PLACED_TERRAIN(RT_THICKET)); /* 421 */
    CHECK(brute(&thick, &o, s.x, s.y) == 0x3f);
    fp = fnv1a(fp, &s, sizeof s);
    /* many starts in order see the earlier patches; the table is untouched */
    rt_placed_free(pl);
    pl = rt_placed_new();
    for (int64_t x = 23600 - 140; x <= 23600 + 140; x++)
        for (int64_t y = 5600 - 140; y <= 5600 + 140; y++)
            CHECK(rt_placed_set(pl, x, y, RT_PLACED_TERRAIN(RT_THICKET)) == RT_OK);
    thick.placed = pl;
    double bx[3] = {23600, 23601, 23600}, by[3] = {5600, 5600, 5600};
    rt_site b3[3];
    CHECK(rt_find_good_sites(&thick, bx, by, NULL, 3, &o, b3, 2, NULL) == RT_OK);
    CHECK(b3[0].altered && b3[0].ok);
    CHECK(!b3[2].altered && b3[2].ok && b3[2].tries < 1000); /* finds the painted disc */
    CHECK(rt_placed_count(pl) == 281 * 281);
    for (int k = 0; k < 3; k++) CHECK(rt_site_paint(pl, &b3[k], &o) == RT_OK);
    CHECK(brute(&thick, &o, b3[2].x, b3[2].y) == 0x3f);
    fp = fnv1a(fp, b3, sizeof b3);
    rt_placed_free(pl);
    o.may_alter = 0;

    /* bad input: refused, nothing written */
    memset(&s, 0x5A, sizeof s);
    rt_site keep = s;
    rt_site_options bad = o;
    bad.clearance = -1;
    CHECK(rt_find_good_site(&t, 0, 0, 0, &bad, &s, NULL) == RT_ERR_PARAM);
    bad = o;
    bad.max_loops = RT_SITE_MAX_LOOPS + 1;
    CHECK(rt_find_good_site(&t, 0, 0, 0, &bad, &s, NULL) == RT_ERR_PARAM);
    bad = o;
    bad.min_height = NAN;
    CHECK(rt_find_good_site(&t, 0, 0, 0, &bad, &s, NULL) == RT_ERR_PARAM);
    CHECK(rt_find_good_site(&t, NAN, 0, 0, &o, &s, NULL) == RT_ERR_COORD);
    CHECK(rt_find_good_site(&t, 0, 1e300, 0, &o, &s, NULL) == RT_ERR_COORD);
    CHECK(rt_find_good_site(&t, 0, 0, INFINITY, &o, &s, NULL) == RT_ERR_PARAM);
    CHECK(rt_find_good_site(&t, 0, 0, 0, NULL, &s, NULL) == RT_ERR_NULL);
    CHECK(rt_find_good_site(&t, 0, 0, 0, &o, NULL, NULL) == RT_ERR_NULL);
    CHECK(memcmp(&s, &keep, sizeof s) == 0);
    xs[5] = NAN;
    memset(many, 0x5A, sizeof many);
    CHECK(rt_find_good_sites(&t, xs, ys, NULL, N, &o, many, 2, NULL) == RT_ERR_COORD);
    for (int k = 0; k < N; k++) CHECK(memcmp(&many[k], &keep, sizeof keep) == 0);
    CHECK(rt_find_good_sites(&t, xs, ys, NULL, -1, &o, many, 2, NULL) == RT_ERR_SIZE);
    CHECK(rt_site_paint(NULL, &s, &o) == RT_ERR_NULL);

    /* max_loops = 0: no candidate; the centre is reported */
    o.max_loops = 0;
    CHECK(rt_find_good_site(&t, 23400.4, 5319.6, 0.0, &o, &s, NULL) == RT_OK);
    CHECK(!s.ok && s.reason == RT_SITE_SPIRAL && s.tries == 0 && s.criteria == 0);
    CHECK(s.x == s.centre_x && s.y == s.centre_y);
    return fp;
}
