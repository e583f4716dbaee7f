/*
 * test_mines.c - mines, caverns and cave mouths (SPEC 8) in the C driver:
 * open above equals terra at every point of the cells (placed entries
 * included), open equals the frac(u) formula, labels equal a flood fill, the
 * cavern grid equals the point path, every thread count gives the same bits,
 * bad input is refused with nothing written.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "relfterrain.h"

/* Open above by terra at every point of every cell. */
static void brute_above(const rt_mines *m, const rt_terrain *t, const rt_cells *b, uint8_t *out)
{
    int64_t cs = m->cell_size, h = cs / 2;
    for (int64_t r = 0; r < b->ny; r++)
        for (int64_t c = 0; c < b->nx; c++) {
            int64_t xg = b->xg0 + c * cs, yg = b->yg0 + r * cs;
            uint8_t any = 0;
            for (int64_t x = xg - h; x < xg - h + cs && !any; x++)
                for (int64_t y = yg - h; y < yg - h + cs && !any; y++) {
                    double xd = (double)x, yd = (double)y;
                    uint8_t f;
                    rt_terra_out o = {NULL, NULL, NULL, &f};
                    CHECK(rt_terra_points(t, &xd, &yd, 1, &o, 1) == RT_OK);
                    any = f == RT_MINE;
                }
            out[r * b->nx + c] = any;
        }
}

/* Flood fill labels in index order: the canonical numbering. */
static int64_t flood(int64_t nz, int64_t ny, int64_t nx, const uint8_t *open, int32_t *lab)
{
    int64_t n = nz * ny * nx, next = 0;
    int64_t *stack = malloc((size_t)n * sizeof *stack);
    for (int64_t i = 0; i < n; i++) lab[i] = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!open[i] || lab[i]) continue;
        int64_t sp = 0;
        lab[i] = (int32_t)++next;
        stack[sp++] = i;
        while (sp) {
            int64_t q = stack[--sp], c = q % nx, r = (q / nx) % ny, k = q / (nx * ny);
            int64_t nb[6] = {c > 0 ? q - 1 : -1,           c < nx - 1 ? q + 1 : -1,
                             r > 0 ? q - nx : -1,          r < ny - 1 ? q + nx : -1,
                             k > 0 ? q - nx * ny : -1,     k < nz - 1 ? q + nx * ny : -1};
            for (int e = 0; e < 6; e++)
                if (nb[e] >= 0 && open[nb[e]] && !lab[nb[e]]) {
                    lab[nb[e]] = (int32_t)next;
                    stack[sp++] = nb[e];
                }
        }
    }
    free(stack);
    return next;
}

static int64_t shafts_seen = 0; /* the blocks must exercise open above */

static uint64_t check_block(const rt_mines *m, const rt_terrain *t, const rt_cells *b, uint64_t h)
{
    int64_t n = b->nx * b->ny, L = m->levels;
    uint8_t *want = malloc((size_t)n), *above = malloc((size_t)n);
    uint8_t *open = malloc((size_t)(n * L)), *open2 = malloc((size_t)(n * L));
    int32_t *lab = malloc((size_t)(n * L) * sizeof *lab), *ref = malloc((size_t)(n * L) * sizeof *ref);
    brute_above(m, t, b, want);
    for (int64_t i = 0; i < n; i++) shafts_seen += want[i];
    int64_t count = -1;
    for (int threads = 1; threads <= 3; threads++) {
        CHECK(rt_mines_above(m, t, b, above, threads, NULL) == RT_OK);
        CHECK(memcmp(above, want, (size_t)n) == 0);
        CHECK(rt_mines_open(m, b, above, open, threads, NULL) == RT_OK);
        if (threads == 1) memcpy(open2, open, (size_t)(n * L));
        CHECK(memcmp(open, open2, (size_t)(n * L)) == 0);
        CHECK(rt_label_cells(L, b->ny, b->nx, open, lab, &count, threads, NULL) == RT_OK);
        int64_t rc = flood(L, b->ny, b->nx, open, ref);
        CHECK(rc == count && memcmp(lab, ref, (size_t)(n * L) * sizeof *lab) == 0);
    }
    /* open against the formula, one cell at a time */
    for (int64_t k = 0; k < L; k++)
        for (int64_t r = 0; r < b->ny; r++)
            for (int64_t c = 0; c < b->nx; c++) {
                double xg = (double)(b->xg0 + c * m->cell_size), yg = (double)(b->yg0 + r * m->cell_size);
                double u = m->variant == RT_MINES_SINCOS ? 31415.926535897932 * rt_sin(xg) * rt_cos(yg)
                                                         : 31415.926535897932 * xg * yg;
                u = u * (double)(k + 1);
                int o = u - floor(u) > m->threshold || (k == 0 && want[r * b->nx + c]);
                CHECK(open[(k * b->ny + r) * b->nx + c] == o);
            }
    int64_t *sizes = malloc((size_t)(count + 1) * sizeof *sizes);
    int64_t *shafts = malloc((size_t)(count + 1) * sizeof *shafts);
    CHECK(rt_label_census(lab, n * L, count, above, n, sizes, shafts, NULL) == RT_OK);
    int64_t total = 0;
    for (int64_t l = 0; l <= count; l++) total += sizes[l];
    CHECK(total == n * L);
    h = fnv1a(h, above, (size_t)n);
    h = fnv1a(h, lab, (size_t)(n * L) * sizeof *lab);
    free(sizes);
    free(shafts);
    free(want);
    free(above);
    free(open);
    free(open2);
    free(lab);
    free(ref);
    return h;
}

static uint64_t test_mine_blocks(uint64_t h)
{
    rt_terrain t;
    rt_terrain_defaults(&t);
    rt_mines m;
    rt_mines_defaults(&m);
    /* the classic map's corner, with shafts */
    rt_cells b = {23392, 5312, 12, 9};
    h = check_block(&m, &t, &b, h);
    m.variant = RT_MINES_SINCOS;
    m.levels = 3;
    m.threshold = 0.5;
    h = check_block(&m, &t, &b, h);
    /* placed entries: a MINE placed, and the block's shafts hidden */
    rt_placed *p = rt_placed_new();
    CHECK(rt_placed_set(p, 23400, 5330, RT_PLACED_FEATURE(RT_MINE)) == RT_OK);
    CHECK(rt_placed_set(p, 23500, 5400, RT_PLACED_TERRAIN(RT_ROAD)) == RT_OK);
    t.placed = p;
    rt_mines_defaults(&m);
    m.cell_size = 7;
    rt_cells b7 = {23394, 5320, 10, 8};
    h = check_block(&m, &t, &b7, h);
    rt_placed_free(p);
    t.placed = NULL;
    CHECK(shafts_seen >= 3);
    /* across the axes (negative coordinates) and beyond the domain of exactness */
    m.cell_size = 4;
    rt_cells ba = {-20, -12, 11, 7};
    h = check_block(&m, &t, &ba, h);
    rt_cells bf = {(int64_t)1 << 27, -((int64_t)1 << 27), 3, 2};
    h = check_block(&m, &t, &bf, h);
    /* rows of more than 65536 points: the profile sums computed once a period */
    m.cell_size = 16;
    int64_t before = shafts_seen;
    rt_cells bw = {23392, 5504, 4200, 1};
    h = check_block(&m, &t, &bw, h);
    m.cell_size = 1;
    rt_cells bw1 = {-40000, (int64_t)1 << 20, 70000, 2};
    h = check_block(&m, &t, &bw1, h);
    CHECK(shafts_seen > before);
    return h;
}

static void test_mine_errors(void)
{
    rt_terrain t;
    rt_terrain_defaults(&t);
    rt_mines m;
    rt_mines_defaults(&m);
    uint8_t out[4] = {7, 7, 7, 7};
    rt_cells b = {16, 16, 2, 2};
    m.threshold = 1.0;
    CHECK(rt_mines_open(&m, &b, NULL, out, 1, NULL) == RT_ERR_PARAM);
    m.threshold = NAN;
    CHECK(rt_mines_check(&m) == RT_ERR_PARAM);
    rt_mines_defaults(&m);
    m.cell_size = 0;
    CHECK(rt_mines_above(&m, &t, &b, out, 1, NULL) == RT_ERR_PARAM);
    rt_mines_defaults(&m);
    m.levels = 0;
    CHECK(rt_mines_check(&m) == RT_ERR_PARAM);
    rt_mines_defaults(&m);
    rt_cells bad = {8, 16, 2, 2};
    CHECK(rt_mines_open(&m, &bad, NULL, out, 1, NULL) == RT_ERR_COORD);
    rt_cells far = {RT_MINES_LIMIT, 0, 2, 1};
    CHECK(rt_mines_open(&m, &far, NULL, out, 1, NULL) == RT_ERR_COORD);
    rt_cells empty = {0, 0, 0, 1};
    CHECK(rt_mines_open(&m, &empty, NULL, out, 1, NULL) == RT_ERR_SIZE);
    CHECK(out[0] == 7 && out[3] == 7);
    int32_t lab[4];
    int64_t count;
    CHECK(rt_label_cells(1, 65536, 65536, out, lab, &count, 1, NULL) == RT_ERR_SIZE);
    int64_t sizes[2];
    int32_t wrong[2] = {0, 5};
    CHECK(rt_label_census(wrong, 2, 1, NULL, 0, sizes, NULL, NULL) == RT_ERR_PARAM);
    CHECK(rt_cave_mouths(&t, 0, 0, 4, 4, NAN, NULL, NULL, NULL, 0, &count, 1, NULL) == RT_ERR_PARAM);
    rt_caverns cv;
    rt_caverns_defaults(&cv);
    cv.scale = INFINITY;
    double d[4];
    rt_block gb = {0, 0, 1, 0, 0, 2, 2};
    CHECK(rt_caverns_grid(&t, &cv, &gb, d, NULL, NULL, 1) == RT_ERR_PARAM);
    rt_caverns_defaults(&cv);
    cv.scale = 1e308;
    d[0] = 5.0;
    CHECK(rt_caverns_grid(&t, &cv, &(rt_block){1e10, 0, 1, 0, 0, 2, 2}, d, NULL, NULL, 1) ==
          RT_ERR_COORD);
    CHECK(d[0] == 5.0);
}

static uint64_t test_caverns(uint64_t h)
{
    rt_terrain t;
    rt_terrain_defaults(&t);
    rt_caverns cv;
    const double params[3][4] = {{1, 64, 32, 0}, {0.3, 64.5, -32, 3}, {-2, 1, 2, -1}};
    enum { NX = 37, NY = 5 };
    double fl[NX * NY], rf[NX * NY], sp[NX * NY], sp2[NX * NY];
    for (int q = 0; q < 3; q++) {
        cv = (rt_caverns){params[q][0], params[q][1], params[q][2], params[q][3]};
        rt_block b = {23396, 5318, q == 1 ? 0.25 : 1.0, 3, 2, NX, NY};
        CHECK(rt_caverns_grid(&t, &cv, &b, fl, rf, sp, 2) == RT_OK);
        CHECK(rt_caverns_grid(&t, &cv, &b, NULL, NULL, sp2, 1) == RT_OK);
        CHECK(memcmp(sp, sp2, sizeof sp) == 0);
        for (int r = 0; r < NY; r++)
            for (int c = 0; c < NX; c++) {
                double x = b.x0 + (double)(b.c0 + c) * b.step, y = b.y0 + (double)(b.r0 + r) * b.step;
                double xr = x * cv.scale + cv.dx, yr = y * cv.scale + cv.dy, f, ro;
                CHECK(rt_height_points(&t, &x, &y, 1, &f, 1) == RT_OK);
                CHECK(rt_height_points(&t, &xr, &yr, 1, &ro, 1) == RT_OK);
                ro = ro + cv.dz;
                int k = r * NX + c;
                CHECK(same_bits(fl[k], f) && same_bits(rf[k], ro));
                CHECK(same_bits(sp[k], ro > f ? ro - f : 0.0));
            }
        h = fnv1a(h, sp, sizeof sp);
    }
    return h;
}

static uint64_t test_mouths(uint64_t h)
{
    rt_terrain t;
    rt_terrain_defaults(&t);
    int64_t count = -1, c2 = -1;
    enum { CAP = 256 };
    int64_t xs[CAP], ys[CAP];
    double sl[CAP];
    /* every MINE of the classic map with its slope (steepness -1 keeps all) */
    CHECK(rt_cave_mouths(&t, 23396, 5318, 800, 600, -1.0, xs, ys, sl, CAP, &count, 2, NULL) == RT_OK);
    CHECK(count > 0 && count < CAP);
    int64_t prev = INT64_MIN;
    for (int64_t k = 0; k < count && k < CAP; k++) {
        double x = (double)xs[k], y = (double)ys[k];
        uint8_t f;
        rt_terra_out o = {NULL, NULL, NULL, &f};
        CHECK(rt_terra_points(&t, &x, &y, 1, &o, 1) == RT_OK && f == RT_MINE);
        CHECK(ys[k] * 1000000 + xs[k] > prev); /* row-major order */
        prev = ys[k] * 1000000 + xs[k];
        CHECK(same_bits(sl[k], rt_ground_slope(&t, xs[k], ys[k])));
    }
    CHECK(rt_cave_mouths(&t, 23396, 5318, 800, 600, -1.0, NULL, NULL, NULL, 0, &c2, 1, NULL) == RT_OK);
    CHECK(c2 == count);
    h = fnv1a(h, xs, (size_t)count * sizeof xs[0]);
    h = fnv1a(h, sl, (size_t)count * sizeof sl[0]);
    return h;
}

uint64_t test_mines(void)
{
    uint64_t h = FNV_START;
    h = test_mine_blocks(h);
    test_mine_errors();
    h = test_caverns(h);
    h = test_mouths(h);
    return h;
}
