/*
 * test_interrupt.c - every core function that takes an rt_poll, in the C
 * driver: a poll that says stop at its first call stops the function with
 * RT_ERR_INTERRUPTED before it writes anything; one that says stop later
 * stops a long call (on one thread, so that the polls are deterministic;
 * the Python tests interrupt threaded calls); a poll that never says stop
 * changes no result (the same bytes as no poll), and is only ever called on
 * the thread that called the function.  The fingerprint covers those
 * results.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "relfterrain.h"
#include "rt_internal.h"

typedef struct probe {
    int calls;        /* calls so far */
    int stop_at;      /* say stop at this call (0: never) */
    int wrong_thread; /* calls made on another thread than the caller's */
    pthread_t caller;
} probe;

static int probe_fn(void *ctx)
{
    probe *p = ctx;
    p->calls++;
    if (!pthread_equal(pthread_self(), p->caller)) p->wrong_thread++;
    return p->stop_at > 0 && p->calls >= p->stop_at;
}

/* A poll that says stop at call `stop_at` (0: never); *pr is its state. */
static rt_poll make_poll(probe *pr, int stop_at)
{
    pr->calls = 0;
    pr->stop_at = stop_at;
    pr->wrong_thread = 0;
    pr->caller = pthread_self();
    return (rt_poll){probe_fn, pr};
}

/* Is every byte of buf equal to v? */
static int all_bytes(const void *buf, size_t n, unsigned char v)
{
    const unsigned char *p = buf;
    for (size_t k = 0; k < n; k++)
        if (p[k] != v) return 0;
    return 1;
}

static int all_nan(const double *v, int64_t n)
{
    for (int64_t k = 0; k < n; k++)
        if (!isnan(v[k])) return 0;
    return 1;
}

static double *uniforms(int64_t n, uint64_t seed)
{
    double *u = malloc((size_t)n * sizeof *u);
    for (int64_t k = 0; k < n; k++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        u[k] = (double)(seed >> 11) * 0x1p-53;
    }
    return u;
}

/* The three runs of a function: `CALL(poll)` is the call with that poll;
 * `FILL` sets its outputs to the sentinel byte 0xA5, `UNTOUCHED` checks they
 * still hold it; `SAVE`/`SAME` keep and compare the results of a run. */
#define FIRST_STOP(CALL, FILL, UNTOUCHED)                                       \
    do {                                                                         \
        probe pr_;                                                               \
        rt_poll po_ = make_poll(&pr_, 1);                                        \
        FILL;                                                                    \
        CHECK((CALL(&po_)) == RT_ERR_INTERRUPTED);                               \
        CHECK(pr_.calls == 1);                                                   \
        CHECK(UNTOUCHED);                                                        \
    } while (0)

#define LATER_STOP(CALL)                                                         \
    do {                                                                         \
        probe pr_;                                                               \
        rt_poll po_ = make_poll(&pr_, 2);                                        \
        CHECK((CALL(&po_)) == RT_ERR_INTERRUPTED);                               \
        CHECK(pr_.calls == 2 && pr_.wrong_thread == 0);                          \
    } while (0)

#define NEVER_STOP(CALL)                                                         \
    do {                                                                         \
        probe pr_;                                                               \
        rt_poll po_ = make_poll(&pr_, 0);                                        \
        CHECK((CALL(&po_)) == RT_OK);                                            \
        CHECK(pr_.calls >= 1 && pr_.wrong_thread == 0);                          \
    } while (0)

/* ------------------------------------------------------------------------ */

static uint64_t classic(uint64_t fp)
{
    /* small runs: with and without a poll, the same bytes */
    enum { IT = 12, N = (1 << IT) + 1, DS = 8, DN = (1 << DS) + 1, W = 300, H = 200 };
    double *u = uniforms(DN * DN > 2 * 4000 ? DN * DN : 2 * 4000, 7);
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
#define MIDPOINT(po) rt_midpoint_displacement(IT, 1.0, 0.6, u, b, po)
    CHECK(rt_midpoint_displacement(IT, 1.0, 0.6, u, a, NULL) == RT_OK);
    NEVER_STOP(MIDPOINT);
    CHECK(memcmp(a, b, N * sizeof *a) == 0);
    FIRST_STOP(MIDPOINT, memset(b, 0xA5, N * sizeof *b), all_bytes(b, N * sizeof *b, 0xA5));
    fp = fnv1a(fp, a, N * sizeof *a);
    free(a), free(b);

    double *g = malloc(DN * DN * sizeof *g), *g2 = malloc(DN * DN * sizeof *g2);
    for (int k = 0; k < DN * DN; k++) g[k] = g2[k] = NAN;
    CHECK(rt_diamond_square(DS, 1.0, 0.6, 0.0, 1, u, g, NULL) == RT_OK);
#define DIAMOND(po) rt_diamond_square(DS, 1.0, 0.6, 0.0, 1, u, g2, po)
    NEVER_STOP(DIAMOND);
    CHECK(memcmp(g, g2, DN * DN * sizeof *g) == 0);
    FIRST_STOP(DIAMOND, for (int k = 0; k < DN * DN; k++) g2[k] = NAN,
               all_nan(g2, DN * DN));
    fp = fnv1a(fp, g, DN * DN * sizeof *g);
    free(g), free(g2);

    double *h1 = malloc(W * H * sizeof *h1), *h2 = malloc(W * H * sizeof *h2);
    CHECK(rt_limited_random(W, H, 4.0, 0.0, 100.0, u, u + H, h1, NULL) == RT_OK);
#define LIMITED(po) rt_limited_random(W, H, 4.0, 0.0, 100.0, u, u + H, h2, po)
    NEVER_STOP(LIMITED);
    CHECK(memcmp(h1, h2, W * H * sizeof *h1) == 0);
    FIRST_STOP(LIMITED, memset(h2, 0xA5, W * H * sizeof *h2),
               all_bytes(h2, W * H * sizeof *h2, 0xA5));
    fp = fnv1a(fp, h1, W * H * sizeof *h1);
    CHECK(rt_circle_hill(W, H, 4000, 9.5, 3.0, 100.0, 50.0, u, h1, NULL) == RT_OK);
#define CIRCLES(po) rt_circle_hill(W, H, 4000, 9.5, 3.0, 100.0, 50.0, u, h2, po)
    NEVER_STOP(CIRCLES);
    CHECK(memcmp(h1, h2, W * H * sizeof *h1) == 0);
    FIRST_STOP(CIRCLES, memset(h2, 0xA5, W * H * sizeof *h2),
               all_bytes(h2, W * H * sizeof *h2, 0xA5));
    fp = fnv1a(fp, h1, W * H * sizeof *h1);
    free(h1), free(h2), free(u);

    /* long runs stopped at the second poll */
    enum { BIG = 21, BN = (1 << BIG) + 1, BW = 1500, BH = 1500, BD = 10, BDN = (1 << BD) + 1 };
    double *bu = uniforms(BW * BH + BH > BN ? BW * BH + BH : BN, 9);
    double *bo = malloc((size_t)BW * BH * sizeof *bo > BN * sizeof *bo ? (size_t)BW * BH * sizeof *bo
                                                                      : BN * sizeof *bo);
#define MIDPOINT_BIG(po) rt_midpoint_displacement(BIG, 1.0, 0.6, bu, bo, po)
    LATER_STOP(MIDPOINT_BIG);
#define LIMITED_BIG(po) rt_limited_random(BW, BH, 4.0, 0.0, 100.0, bu, bu + BH, bo, po)
    LATER_STOP(LIMITED_BIG);
#define CIRCLES_BIG(po) rt_circle_hill(BW, BH, 100000, 30.0, 3.0, 100.0, 50.0, bu, bo, po)
    LATER_STOP(CIRCLES_BIG);
    double *bg = malloc((size_t)BDN * BDN * sizeof *bg);
    double *bgu = uniforms((int64_t)BDN * BDN, 3);
    for (int64_t k = 0; k < (int64_t)BDN * BDN; k++) bg[k] = NAN;
#define DIAMOND_BIG(po) rt_diamond_square(BD, 1.0, 0.6, 0.0, 0, bgu, bg, po)
    LATER_STOP(DIAMOND_BIG);
    free(bg), free(bgu), free(bo), free(bu);
    return fp;
}

static uint64_t streams(uint64_t fp, const rt_terrain *t)
{
    rt_stream_opts o;
    rt_stream_opts_defaults(&o);
    int64_t slot = rt_stream_max_route(&o);
    /* ponds */
    enum { CAP = 1024 };
    int64_t src[2 * CAP], src2[2 * CAP], count = 0, count2 = -1;
    CHECK(rt_stream_ponds(t, 23096, 5018, 1400, 1200, src, CAP, &count, 2, NULL) == RT_OK);
    CHECK(count > 0 && count <= CAP);
#define PONDS(po) rt_stream_ponds(t, 23096, 5018, 1400, 1200, src2, CAP, &count2, 2, po)
    NEVER_STOP(PONDS);
    CHECK(count2 == count && memcmp(src, src2, (size_t)count * 2 * sizeof *src) == 0);
    FIRST_STOP(PONDS, (memset(src2, 0xA5, sizeof src2), count2 = -7),
               all_bytes(src2, sizeof src2, 0xA5) && count2 == -7);
    fp = fnv1a(fp, src, (size_t)count * 2 * sizeof *src);
#define PONDS_BIG(po) rt_stream_ponds(t, 0, 0, 4000, 4000, src2, CAP, &count2, 1, po)
    LATER_STOP(PONDS_BIG);

    /* one route, and the routes of the ponds */
    int64_t *one = malloc((size_t)slot * 2 * sizeof *one), n1 = -1, n2 = -1;
    double l1 = 0, l2 = 0;
    int e1 = -1, e2 = -1, m1 = -1, m2 = -1;
    CHECK(rt_trace_stream(t, 23907, 5835, &o, one, slot, &n1, &l1, &e1, &m1, NULL) == RT_OK);
    int64_t *two = malloc((size_t)slot * 2 * sizeof *two);
#define TRACE(po) rt_trace_stream(t, 23907, 5835, &o, two, slot, &n2, &l2, &e2, &m2, po)
    NEVER_STOP(TRACE);
    CHECK(n1 == n2 && same_bits(l1, l2) && e1 == e2 && m1 == m2 &&
          memcmp(one, two, (size_t)n1 * 2 * sizeof *one) == 0);
    FIRST_STOP(TRACE, (memset(two, 0xA5, (size_t)slot * 2 * sizeof *two), n2 = -7),
               all_bytes(two, (size_t)slot * 2 * sizeof *two, 0xA5) && n2 == -7);
    fp = fnv1a(fp, one, (size_t)n1 * 2 * sizeof *one);
    free(one), free(two);

    int64_t *xy = malloc((size_t)(count * slot) * 2 * sizeof *xy);
    int64_t *xy2 = malloc((size_t)(count * slot) * 2 * sizeof *xy2);
    int64_t *np = malloc((size_t)count * sizeof *np), *np2 = malloc((size_t)count * sizeof *np2);
    double *len = malloc((size_t)count * sizeof *len), *len2 = malloc((size_t)count * sizeof *len2);
    uint8_t *end = malloc((size_t)count), *end2 = malloc((size_t)count);
    uint8_t *marsh = malloc((size_t)count), *marsh2 = malloc((size_t)count);
    CHECK(rt_trace_streams(t, src, count, &o, xy, slot, np, len, end, marsh, 2, NULL) == RT_OK);
#define TRACES(po) rt_trace_streams(t, src, count, &o, xy2, slot, np2, len2, end2, marsh2, 2, po)
    NEVER_STOP(TRACES);
    int same = memcmp(np, np2, (size_t)count * sizeof *np) == 0 &&
               memcmp(len, len2, (size_t)count * sizeof *len) == 0 &&
               memcmp(end, end2, (size_t)count) == 0 && memcmp(marsh, marsh2, (size_t)count) == 0;
    for (int64_t k = 0; same && k < count; k++)
        same = memcmp(xy + 2 * k * slot, xy2 + 2 * k * slot, (size_t)np[k] * 2 * sizeof *xy) == 0;
    CHECK(same);
    FIRST_STOP(TRACES, memset(np2, 0xA5, (size_t)count * sizeof *np2),
               all_bytes(np2, (size_t)count * sizeof *np2, 0xA5));

    /* marking: a first stop leaves the table as it was; no stop, as no poll */
    int64_t *off = malloc((size_t)(count + 1) * sizeof *off);
    int64_t *packed = malloc((size_t)(count * slot) * 2 * sizeof *packed);
    off[0] = 0;
    for (int64_t k = 0; k < count; k++) {
        memcpy(packed + 2 * off[k], xy + 2 * k * slot, (size_t)np[k] * 2 * sizeof *xy);
        off[k + 1] = off[k] + np[k];
    }
    rt_placed *a = rt_placed_new(), *b = rt_placed_new();
    int64_t added = -1, added2 = -1, restarts = -1, restarts2 = -1;
    CHECK(rt_mark_routes(t, a, packed, off, end, count, 300000, &added, &restarts, NULL) == RT_OK);
#define MARK(po) rt_mark_routes(t, b, packed, off, end, count, 300000, &added2, &restarts2, po)
    FIRST_STOP(MARK, (void)0, rt_placed_count(b) == 0 && added2 == -1);
    NEVER_STOP(MARK);
    CHECK(added == added2 && restarts == restarts2 && rt_placed_count(a) == rt_placed_count(b));
    int64_t na = rt_placed_count(a), *ax = malloc((size_t)(na + 1) * 2 * sizeof *ax);
    uint8_t *av = malloc((size_t)na + 1);
    CHECK(rt_placed_items(a, ax, ax + na, av, na) == na);
    int agree = 1;
    for (int64_t k = 0; k < na; k++) agree &= rt_placed_get(b, ax[k], ax[na + k]) == av[k];
    CHECK(agree);
    fp = fnv1a(fp, &added, sizeof added);
    free(ax), free(av);
    rt_placed_free(a), rt_placed_free(b);
    free(off), free(packed), free(xy), free(xy2), free(np), free(np2), free(len), free(len2);
    free(end), free(end2), free(marsh), free(marsh2);
    return fp;
}

static uint64_t sites(uint64_t fp, const rt_terrain *t)
{
    rt_site_options o;
    rt_site_defaults(&o);
    rt_site s1, s2;
    memset(&s2, 0xA5, sizeof s2);
    CHECK(rt_find_good_site(t, 23450, 5450, 0.0, &o, &s1, NULL) == RT_OK);
#define SITE(po) rt_find_good_site(t, 23450, 5450, 0.0, &o, &s2, po)
    FIRST_STOP(SITE, memset(&s2, 0xA5, sizeof s2), all_bytes(&s2, sizeof s2, 0xA5));
    NEVER_STOP(SITE);
    CHECK(memcmp(&s1, &s2, sizeof s1) == 0);
    fp = fnv1a(fp, &s1, sizeof s1);
    enum { N = 40 };
    double xs[N], ys[N];
    for (int k = 0; k < N; k++) xs[k] = 23400 + 17 * k, ys[k] = 5320 + 11 * k;
    rt_site m1[N], m2[N];
    CHECK(rt_find_good_sites(t, xs, ys, NULL, N, &o, m1, 2, NULL) == RT_OK);
#define SITES(po) rt_find_good_sites(t, xs, ys, NULL, N, &o, m2, 2, po)
    FIRST_STOP(SITES, memset(m2, 0xA5, sizeof m2), all_bytes(m2, sizeof m2, 0xA5));
    NEVER_STOP(SITES);
    CHECK(memcmp(m1, m2, sizeof m1) == 0);
    fp = fnv1a(fp, m1, sizeof m1);
    /* no dry land anywhere: 10^7 jumps each, stopped at the second poll */
    rt_site_options dry = o;
    dry.min_height = 1e9;
    dry.max_loops = RT_SITE_MAX_LOOPS;
#define SITE_LONG(po) rt_find_good_site(t, 23450, 5450, 0.0, &dry, &s2, po)
    memset(&s2, 0xA5, sizeof s2);
    LATER_STOP(SITE_LONG);
    CHECK(all_bytes(&s2, sizeof s2, 0xA5));
#define SITES_LONG(po) rt_find_good_sites(t, xs, ys, NULL, N, &dry, m2, 1, po)
    memset(m2, 0xA5, sizeof m2);
    LATER_STOP(SITES_LONG);
    CHECK(all_bytes(m2, sizeof m2, 0xA5)); /* results are copied out only at the end */
    return fp;
}

static uint64_t mines(uint64_t fp, const rt_terrain *t)
{
    rt_mines m;
    rt_mines_defaults(&m);
    enum { NX = 50, NY = 38, NC = NX * NY };
    rt_cells b = {23392, 5312, NX, NY};
    uint8_t ab1[NC], ab2[NC], op1[NC], op2[NC];
    CHECK(rt_mines_above(&m, t, &b, ab1, 2, NULL) == RT_OK);
#define ABOVE(po) rt_mines_above(&m, t, &b, ab2, 2, po)
    FIRST_STOP(ABOVE, memset(ab2, 0xA5, NC), all_bytes(ab2, NC, 0xA5));
    NEVER_STOP(ABOVE);
    CHECK(memcmp(ab1, ab2, NC) == 0);
    CHECK(rt_mines_open(&m, &b, ab1, op1, 2, NULL) == RT_OK);
#define OPEN(po) rt_mines_open(&m, &b, ab1, op2, 2, po)
    FIRST_STOP(OPEN, memset(op2, 0xA5, NC), all_bytes(op2, NC, 0xA5));
    NEVER_STOP(OPEN);
    CHECK(memcmp(op1, op2, NC) == 0);
    int32_t l1[NC], l2[NC];
    int64_t c1 = -1, c2 = -1;
    CHECK(rt_label_cells(1, NY, NX, op1, l1, &c1, 2, NULL) == RT_OK);
#define LABEL(po) rt_label_cells(1, NY, NX, op1, l2, &c2, 2, po)
    FIRST_STOP(LABEL, (memset(l2, 0xA5, sizeof l2), c2 = -7),
               all_bytes(l2, sizeof l2, 0xA5) && c2 == -7);
    NEVER_STOP(LABEL);
    CHECK(c1 == c2 && memcmp(l1, l2, sizeof l1) == 0);
    int64_t *sz1 = malloc((size_t)(c1 + 1) * sizeof *sz1), *sz2 = malloc((size_t)(c1 + 1) * sizeof *sz2);
    int64_t *fl1 = malloc((size_t)(c1 + 1) * sizeof *fl1), *fl2 = malloc((size_t)(c1 + 1) * sizeof *fl2);
    CHECK(rt_label_census(l1, NC, c1, ab1, NC, sz1, fl1, NULL) == RT_OK);
#define CENSUS(po) rt_label_census(l1, NC, c1, ab1, NC, sz2, fl2, po)
    FIRST_STOP(CENSUS, memset(sz2, 0xA5, (size_t)(c1 + 1) * sizeof *sz2),
               all_bytes(sz2, (size_t)(c1 + 1) * sizeof *sz2, 0xA5));
    NEVER_STOP(CENSUS);
    CHECK(memcmp(sz1, sz2, (size_t)(c1 + 1) * sizeof *sz1) == 0 &&
          memcmp(fl1, fl2, (size_t)(c1 + 1) * sizeof *fl1) == 0);
    fp = fnv1a(fp, ab1, NC);
    fp = fnv1a(fp, op1, NC);
    fp = fnv1a(fp, l1, sizeof l1);
    fp = fnv1a(fp, sz1, (size_t)(c1 + 1) * sizeof *sz1);
    free(sz1), free(sz2), free(fl1), free(fl2);

    enum { CAP = 64 };
    int64_t x1[CAP], y1[CAP], x2[CAP], y2[CAP], n1 = -1, n2 = -1;
    double s1[CAP], s2[CAP];
    CHECK(rt_cave_mouths(t, 23396, 5318, 800, 600, 1.0, x1, y1, s1, CAP, &n1, 2, NULL) == RT_OK);
#define MOUTHS(po) rt_cave_mouths(t, 23396, 5318, 800, 600, 1.0, x2, y2, s2, CAP, &n2, 2, po)
    FIRST_STOP(MOUTHS, (memset(x2, 0xA5, sizeof x2), n2 = -7),
               all_bytes(x2, sizeof x2, 0xA5) && n2 == -7);
    NEVER_STOP(MOUTHS);
    CHECK(n1 == n2 && n1 <= CAP && memcmp(x1, x2, (size_t)n1 * sizeof *x1) == 0 &&
          memcmp(s1, s2, (size_t)n1 * sizeof *s1) == 0);
    fp = fnv1a(fp, s1, (size_t)n1 * sizeof *s1);

    /* rows of more than 2^20 cells (the labelling's wide path, its runs
     * checked one by one): the labels of a naive union-find over the cells
     * in order, numbered by first cell */
    {
        enum { WN = 1 << 20, WZ = 2 };
        uint8_t *wo = malloc((size_t)WN * WZ);
        int32_t *wl = malloc((size_t)WN * WZ * sizeof *wl), *wp = malloc((size_t)WN * WZ * sizeof *wp);
        uint64_t st = 12345;
        for (int64_t k = 0; k < (int64_t)WN * WZ; k++) {
            st = st * 6364136223846793005u + 1442695040888963407u;
            wo[k] = (uint8_t)((st >> 33) % 10 < 6);
        }
        int64_t wc = -1;
#define WIDE(po) rt_label_cells(WZ, 1, WN, wo, wl, &wc, 2, po)
        NEVER_STOP(WIDE);
        /* naive: parent of each open cell, union with west and the layer below */
        for (int64_t i = 0; i < (int64_t)WN * WZ; i++) wp[i] = wo[i] ? (int32_t)i : -1;
        for (int64_t i = 0; i < (int64_t)WN * WZ; i++) {
            if (!wo[i]) continue;
            int64_t nb2[2] = {i % WN > 0 ? i - 1 : -1, i >= WN ? i - WN : -1};
            for (int q = 0; q < 2; q++) {
                if (nb2[q] < 0 || !wo[nb2[q]]) continue;
                int32_t a = (int32_t)nb2[q], bb = (int32_t)i;
                while (wp[a] != a) a = wp[a];
                while (wp[bb] != bb) bb = wp[bb];
                if (a < bb) wp[bb] = a;
                else if (bb < a) wp[a] = bb;
            }
        }
        int32_t next = 0;
        int agree = 1;
        for (int64_t i = 0; i < (int64_t)WN * WZ; i++) {
            int32_t want;
            if (wp[i] < 0) {
                want = 0;
            } else {
                int32_t rr = (int32_t)i;
                while (wp[rr] != rr) rr = wp[rr];
                wp[i] = rr;
                want = rr == i ? ++next : -1; /* a root: a new label */
                if (rr != i) want = wl[rr];
            }
            agree &= wl[i] == want;
        }
        CHECK(agree && wc == next);
        free(wo), free(wl), free(wp);
    }

    /* long ones, stopped at the second poll */
    enum { BX = 1024, BY = 1024, BL = 3, BO = 12 };
    uint8_t *big = malloc((size_t)BX * BY * BO);
    int32_t *bigl = malloc((size_t)BX * BY * BL * sizeof *bigl);
    rt_cells bb = {0, 0, 256, 256};
#define ABOVE_BIG(po) rt_mines_above(&m, t, &bb, big, 1, po)
    LATER_STOP(ABOVE_BIG);
    rt_cells bo = {0, 0, BX, BY};
    rt_mines ml = m;
    ml.levels = BO;
#define OPEN_BIG(po) rt_mines_open(&ml, &bo, NULL, big, 1, po)
    LATER_STOP(OPEN_BIG);
    ml.levels = BL;
    CHECK(rt_mines_open(&ml, &bo, NULL, big, 2, NULL) == RT_OK);
    int64_t cb = 0;
#define LABEL_BIG(po) rt_label_cells(BL, BY, BX, big, bigl, &cb, 1, po)
    LATER_STOP(LABEL_BIG);
    CHECK(rt_label_cells(BL, BY, BX, big, bigl, &cb, 2, NULL) == RT_OK);
    int64_t *bsz = malloc((size_t)(cb + 1) * sizeof *bsz);
#define CENSUS_BIG(po) rt_label_census(bigl, (int64_t)BX * BY * BL, cb, NULL, 0, bsz, NULL, po)
    LATER_STOP(CENSUS_BIG);
#define MOUTHS_BIG(po) rt_cave_mouths(t, 0, 0, 3000, 3000, 1.0, NULL, NULL, NULL, 0, &n2, 1, po)
    LATER_STOP(MOUTHS_BIG);
    free(big), free(bigl), free(bsz);
    return fp;
}

static uint64_t space(uint64_t fp)
{
    rt_nebula nb;
    rt_nebula_defaults(&nb);
    rt_grid3 g = {-20, 30, 5, 1.0, 25, 6, 4};
    enum { NN = 25 * 6 * 4 };
    double d1[NN], d2[NN], a1 = -1, a2 = -7;
    rt_nebula_out o1 = {d1, NULL, NULL, &a1}, o2 = {d2, NULL, NULL, &a2};
    CHECK(rt_nebula_grid(&nb, &g, &o1, 2, NULL) == RT_OK);
#define NEBULA(po) rt_nebula_grid(&nb, &g, &o2, 2, po)
    FIRST_STOP(NEBULA, (memset(d2, 0xA5, sizeof d2), a2 = -7),
               all_bytes(d2, sizeof d2, 0xA5) && a2 == -7);
    NEVER_STOP(NEBULA);
    CHECK(memcmp(d1, d2, sizeof d1) == 0 && same_bits(a1, a2));
    fp = fnv1a(fp, d1, sizeof d1);
    rt_grid3 gb = {0, 0, 0, 1.0, 256, 256, 256}; /* the amount alone */
    double ab = -7;
    rt_nebula_out ob = {NULL, NULL, NULL, &ab};
#define NEBULA_BIG(po) rt_nebula_grid(&nb, &gb, &ob, 1, po)
    LATER_STOP(NEBULA_BIG);
    CHECK(ab == -7);

    rt_planet p;
    rt_planet_defaults(&p);
    enum { MX = 61, MY = 41, MN = MX * MY };
    double h1[MN], h2[MN], dp1[MN], dp2[MN];
    uint8_t t1[MN], t2[MN], f1[MN], f2[MN], v1[MN], v2[MN];
    rt_terra_out m1 = {h1, dp1, t1, f1}, m2 = {h2, dp2, t2, f2};
    CHECK(rt_planet_map(&p, 90.0, 0.0, MX, MY, 400.0, &m1, v1, 2, NULL) == RT_OK);
#define PLANET(po) rt_planet_map(&p, 90.0, 0.0, MX, MY, 400.0, &m2, v2, 2, po)
    FIRST_STOP(PLANET, (memset(h2, 0xA5, sizeof h2), memset(t2, 0xA5, sizeof t2)),
               all_bytes(h2, sizeof h2, 0xA5) && all_bytes(t2, sizeof t2, 0xA5));
    NEVER_STOP(PLANET);
    CHECK(memcmp(t1, t2, MN) == 0 && memcmp(f1, f2, MN) == 0 && memcmp(v1, v2, MN) == 0);
    int same = 1;
    for (int k = 0; k < MN; k++) same &= !v1[k] || same_bits(h1[k], h2[k]);
    CHECK(same);
    fp = fnv1a(fp, t1, MN);
    enum { PB = 800 };
    double *ph = malloc((size_t)PB * PB * sizeof *ph);
    rt_terra_out pbo = {ph, NULL, NULL, NULL};
#define PLANET_BIG(po) rt_planet_map(&p, 10.0, 20.0, PB, PB, 10.0, &pbo, NULL, 1, po)
    LATER_STOP(PLANET_BIG);
    free(ph);

    /* islands */
    enum { IX = 97, IY = 61, IN = IX * IY };
    uint8_t land[IN];
    for (int k = 0; k < IN; k++) land[k] = (uint8_t)(((k * 2654435761u) >> 7) % 3 != 0);
    int32_t il1[IN], il2[IN];
    int64_t ic1[IN + 1], ic2[IN + 1], in1 = -1, in2 = -1;
    CHECK(rt_label_islands(land, IX, IY, il1, ic1, &in1, NULL) == RT_OK);
#define ISLANDS(po) rt_label_islands(land, IX, IY, il2, ic2, &in2, po)
    FIRST_STOP(ISLANDS, (memset(il2, 0xA5, sizeof il2), memset(ic2, 0xA5, sizeof ic2), in2 = -7),
               all_bytes(il2, sizeof il2, 0xA5) && all_bytes(ic2, sizeof ic2, 0xA5) && in2 == -7);
    NEVER_STOP(ISLANDS);
    CHECK(in1 == in2 && memcmp(il1, il2, sizeof il1) == 0 &&
          memcmp(ic1, ic2, (size_t)(in1 + 1) * sizeof *ic1) == 0);
    fp = fnv1a(fp, il1, sizeof il1);
    enum { BI = 1500 };
    uint8_t *bl = malloc((size_t)BI * BI);
    for (int64_t k = 0; k < (int64_t)BI * BI; k++) bl[k] = (uint8_t)((k * 2654435761u >> 9) & 1);
    int32_t *bil = malloc((size_t)BI * BI * sizeof *bil);
    int64_t *bic = malloc(((size_t)BI * BI + 1) * sizeof *bic), bin = -7;
#define ISLANDS_BIG(po) rt_label_islands(bl, BI, BI, bil, bic, &bin, po)
    LATER_STOP(ISLANDS_BIG);
    CHECK(bin == -7);
    free(bl), free(bil), free(bic);
    return fp;
}

static uint64_t roads_contours(uint64_t fp, const rt_terrain *t)
{
    int64_t px[3] = {23400, 23600, 23800}, py[3] = {5330, 5360, 5340};
    rt_road r = {px, py, 3, 2, 60, 0};
    int64_t bound = 0;
    CHECK(rt_road_check(&r, &bound) == RT_OK);
    int64_t *c1 = malloc((size_t)bound * 2 * sizeof *c1), *c2 = malloc((size_t)bound * 2 * sizeof *c2);
    int64_t n1 = -1, n2 = -1, b1[2], b2[2], bad1 = -7, bad2 = -7;
    CHECK(rt_road_cells(t, &r, c1, bound, &n1, b1, &bad1, 2, NULL) == RT_OK);
#define ROAD(po) rt_road_cells(t, &r, c2, bound, &n2, b2, &bad2, 2, po)
    FIRST_STOP(ROAD, (memset(c2, 0xA5, (size_t)bound * 2 * sizeof *c2), n2 = -7, bad2 = -7),
               all_bytes(c2, (size_t)bound * 2 * sizeof *c2, 0xA5) && n2 == -7 && bad2 == -7);
    NEVER_STOP(ROAD);
    CHECK(n1 == n2 && bad1 == bad2 && memcmp(c1, c2, (size_t)n1 * 2 * sizeof *c1) == 0 &&
          memcmp(b1, b2, sizeof b1) == 0);
    fp = fnv1a(fp, c1, (size_t)n1 * 2 * sizeof *c1);
    free(c1), free(c2);
    /* a wide road: about 5 M cells to sort, more than one qsort takes (the
     * runs-and-merges path): sorted, distinct, every square's corners there */
    int64_t wx[2] = {0, 3000}, wy[2] = {0, 1000};
    rt_road wide = {wx, wy, 2, 20, -1, 0};
    CHECK(rt_road_check(&wide, &bound) == RT_OK);
    CHECK(bound > ((int64_t)1 << 22));
    int64_t *wc = malloc((size_t)bound * 2 * sizeof *wc), wb[1];
#define ROAD_BIG(po) rt_road_cells(t, &wide, wc, bound, &n2, wb, &bad2, 1, po)
    LATER_STOP(ROAD_BIG);
    NEVER_STOP(ROAD_BIG);
    int ordered = 1;
    for (int64_t k = 1; k < n2; k++)
        ordered &= wc[2 * k - 2] < wc[2 * k] || (wc[2 * k - 2] == wc[2 * k] && wc[2 * k - 1] < wc[2 * k + 1]);
    CHECK(ordered && n2 > 0);
    int found = 1;
    double d = sqrt(3000.0 * 3000.0 + 1000.0 * 1000.0);
    for (int64_t k = 0; k <= (int64_t)floor(d); k += 7) {
        int64_t qx = (int64_t)rt_round_js(0.0 + (double)k * 3000.0 / d);
        int64_t qy = (int64_t)rt_round_js(0.0 + (double)k * 1000.0 / d);
        for (int corner = 0; corner < 4; corner++) {
            int64_t key[2] = {qx + (corner & 1 ? 20 : -20), qy + (corner & 2 ? 20 : -20)};
            int64_t lo = 0, hi = n2;
            while (lo < hi) {
                int64_t mid = lo + (hi - lo) / 2;
                if (wc[2 * mid] < key[0] || (wc[2 * mid] == key[0] && wc[2 * mid + 1] < key[1]))
                    lo = mid + 1;
                else
                    hi = mid;
            }
            found &= lo < n2 && wc[2 * lo] == key[0] && wc[2 * lo + 1] == key[1];
        }
    }
    CHECK(found);
    fp = fnv1a(fp, wc, (size_t)n2 * 2 * sizeof *wc);
    free(wc);

    enum { ZX = 200, ZY = 150, ZN = ZX * ZY };
    double *z = malloc(ZN * sizeof *z);
    rt_block blk = {23396, 5318, 4.0, 0, 0, ZX, ZY};
    CHECK(rt_height_grid(t, &blk, z, 1) == RT_OK);
    uint8_t *k1 = malloc(ZN), *k2 = malloc(ZN);
    int64_t x1 = -1, x2 = -1;
    CHECK(rt_contour_mask(z, ZX, ZY, 5.0, 5, INT64_MAX, k1, &x1, NULL) == RT_OK);
#define CONTOURS(po) rt_contour_mask(z, ZX, ZY, 5.0, 5, INT64_MAX, k2, &x2, po)
    FIRST_STOP(CONTOURS, memset(k2, 0xA5, ZN), all_bytes(k2, ZN, 0xA5));
    NEVER_STOP(CONTOURS);
    CHECK(x1 == x2 && memcmp(k1, k2, ZN) == 0);
    fp = fnv1a(fp, k1, ZN);
    free(z), free(k1), free(k2);
    enum { CB = 1500 };
    double *zb = malloc((size_t)CB * CB * sizeof *zb);
    rt_block bb = {0, 0, 1.0, 0, 0, CB, CB};
    CHECK(rt_height_grid(t, &bb, zb, 2) == RT_OK);
    uint8_t *kb = malloc((size_t)CB * CB);
#define CONTOURS_BIG(po) rt_contour_mask(zb, CB, CB, 1.0, 5, INT64_MAX, kb, &x2, po)
    LATER_STOP(CONTOURS_BIG);
    free(zb), free(kb);
    return fp;
}

/* The polling parallel loop: a stop (here set by index STOP_AT itself, on
 * whichever thread runs it) is seen by every thread before its next chunk,
 * so at most one more chunk a thread is done; with no stop every index is
 * done exactly once. */
enum { PW_N = 4000, STOP_AT = 100, PW_THREADS = 4 };
typedef struct pw_job {
    rt__watch *w;
    atomic_int done[PW_N];
    atomic_int total;
    atomic_int after; /* indices begun with the stop already set */
    int stop;
} pw_job;

static void pw_range(void *ctx, int64_t begin, int64_t end)
{
    pw_job *j = ctx;
    for (int64_t k = begin; k < end; k++) {
        if (atomic_load(&j->w->stop)) atomic_fetch_add(&j->after, 1);
        atomic_fetch_add(&j->done[k], 1);
        atomic_fetch_add(&j->total, 1);
        if (j->stop && k == STOP_AT) atomic_store(&j->w->stop, 1);
    }
}

static void parallel_watch(void)
{
    static pw_job j;
    for (int stop = 0; stop <= 1; stop++) {
        rt__watch w;
        CHECK(rt__watch_start(&w, NULL) == 0);
        j.w = &w;
        j.stop = stop;
        atomic_init(&j.total, 0);
        atomic_init(&j.after, 0);
        for (int k = 0; k < PW_N; k++) atomic_init(&j.done[k], 0);
        /* one index a chunk: its work is a whole chunk's */
        rt__parallel_watch(PW_THREADS, PW_N, RT_WATCH_BUDGET, pw_range, &j, &w);
        int once = 1, total = atomic_load(&j.total);
        for (int k = 0; k < PW_N; k++) once &= atomic_load(&j.done[k]) <= 1;
        CHECK(once);
        if (stop) {
            CHECK(rt__watch_status(&w) == RT_ERR_INTERRUPTED);
            CHECK(atomic_load(&j.done[STOP_AT]) == 1);
            /* once the stop is set, a thread finishes at most the chunk it
             * holds and one it took just before seeing the flag (the bound
             * counts from the store, not from index STOP_AT: the thread
             * that stores may be descheduled between taking STOP_AT and the
             * store, as under qemu, while the others go on) */
            CHECK(atomic_load(&j.after) <= 2 * PW_THREADS);
        } else {
            CHECK(rt__watch_status(&w) == RT_OK && total == PW_N);
        }
    }
}

uint64_t test_interrupt(void)
{
    parallel_watch();
    CHECK(rt_strerror(RT_ERR_INTERRUPTED)[0] != 0);
    CHECK(strcmp(rt_strerror(RT_ERR_INTERRUPTED), "unknown status") != 0);
    /* a poll with no function is no poll */
    rt_poll none = {NULL, NULL};
    double u[3] = {0.5, 0.5, 0.5}, out[3];
    CHECK(rt_midpoint_displacement(1, 1.0, 0.5, u, out, &none) == RT_OK);

    rt_terrain t;
    rt_terrain_defaults(&t);
    uint64_t fp = FNV_START;
    fp = classic(fp);
    fp = streams(fp, &t);
    fp = sites(fp, &t);
    fp = mines(fp, &t);
    fp = space(fp);
    fp = roads_contours(fp, &t);
    return fp;
}
