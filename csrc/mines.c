/*
 * mines.c - mines, caverns and cave mouths (SPEC 8).
 *
 * Open above: a cell has a mineshaft when terra gives MINE at one of its
 * integer points.  Running terra at all cs*cs points would cost a full terra
 * per point; instead, inside the domain of exactness, each row of points is
 * scanned with the generated feature's own arithmetic (SPEC 5): MINE needs
 * (xr*yr) & 0xff < mine_below and f == feature_point, tested in that order
 * (rt_feature_rows.h: the first depends on x mod 256 alone, so the residues
 * that pass are found once per row and only those points, about 1 in 8, are
 * visited and get the profile sums; a row holding many periods of those sums,
 * 32768 points for the classic profile, computes each sum once and reuses it
 * along the row).  Those tests are exact there (every A*x + B*y
 * and xr*yr is an exact integer), so they only skip points terra could not
 * call MINE; every point that passes, and every point with a placed entry,
 * is decided by the shared terra (rt__terra_point), which applies lakes,
 * towns, snow, paths and the placed table.  Outside the domain terra runs
 * at every point.
 *
 * Labelling: union-find with the smaller index as the root, so every
 * parent precedes its child and the root is the component's first cell; one
 * final pass in index order then numbers components canonically.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "relfterrain.h"
#include "rt_feature_rows.h"
#include "rt_internal.h"
#include "rt_terra.h"

void rt_mines_defaults(rt_mines *m)
{
    m->variant = RT_MINES_CLASSIC;
    m->threshold = 0.4;
    m->cell_size = 16;
    m->levels = 1;
    m->pi10000 = RT_PI10000;
}

rt_status rt_mines_check(const rt_mines *m)
{
    if (!m) return RT_ERR_NULL;
    if (m->variant < 0 || m->variant >= RT_MINES_VARIANT_COUNT) return RT_ERR_PARAM;
    if (!(m->threshold >= 0.0 && m->threshold < 1.0)) return RT_ERR_PARAM;
    if (!isfinite(m->pi10000)) return RT_ERR_PARAM;
    if (m->cell_size < 1 || m->cell_size > RT_MAX_CELL_SIZE) return RT_ERR_PARAM;
    if (m->levels < 1 || m->levels > RT_MAX_MINE_LEVELS) return RT_ERR_PARAM;
    return RT_OK;
}

/* The block is valid for these mines; the centres' extremes within limits. */
static rt_status check_cells(const rt_mines *m, const rt_cells *b)
{
    rt_status s = rt_mines_check(m);
    if (s != RT_OK) return s;
    if (!b) return RT_ERR_NULL;
    if (b->nx < 1 || b->ny < 1) return RT_ERR_SIZE;
    const int64_t cs = m->cell_size, lim = RT_MINES_LIMIT;
    if (b->xg0 % cs != 0 || b->yg0 % cs != 0) return RT_ERR_COORD;
    if (b->xg0 > lim || b->xg0 < -lim || b->yg0 > lim || b->yg0 < -lim) return RT_ERR_COORD;
    /* (n-1)*cs below 2^51 keeps every sum below inside int64 */
    if (b->nx - 1 > 2 * lim / cs || b->ny - 1 > 2 * lim / cs) return RT_ERR_COORD;
    int64_t xl = b->xg0 + (b->nx - 1) * cs, yl = b->yg0 + (b->ny - 1) * cs;
    if (xl > lim || yl > lim) return RT_ERR_COORD;
    if (b->nx > INT64_MAX / b->ny || b->nx * b->ny > INT64_MAX / m->levels) return RT_ERR_SIZE;
    return RT_OK;
}

/* ------------------------------------------------------------------------ */
/* MINE features along a row of integer points                              */
/* ------------------------------------------------------------------------ */

/* Does terra give MINE at the integer point (x, y)? */
static inline int terra_mine(const rt_terrain *t, int64_t x, int64_t y)
{
    rt_terra_res r;
    rt__terra_point(t, (double)x, (double)y, &r);
    return r.feature == RT_MINE;
}

/* Where the MINE points of a row go: marks in a row of cells, or a list. */
typedef struct mine_sink {
    uint8_t *above;  /* cells: above[(x - x_first) / cs] = 1 */
    int64_t x_first, cs;
    int64_t *xs;     /* list: the x of each MINE, up to cap */
    int64_t cap, n;
    int64_t *sums;   /* PERIOD_SUMS scratch for long rows, or NULL */
} mine_sink;

/* the largest table of periodic sums (residues x period): 32 x 128 for the
 * classic profile on most rows */
#define PERIOD_SUMS 4096

static inline void sink_put(mine_sink *s, int64_t x)
{
    if (s->above) s->above[(x - s->x_first) / s->cs] = 1;
    if (s->xs && s->n < s->cap) s->xs[s->n] = x;
    s->n++;
}

/* Every point x = xa .. xb of row y whose terra feature is MINE. */
static void mine_row(const rt_terrain *t, int64_t y, int64_t xa, int64_t xb, mine_sink *s)
{
    const double lim = RT_TERRAIN_DOMAIN;
    const int near = rt__placed_near(t->placed, xa, xb, y);
    const int domain = fabs((double)xa) <= lim && fabs((double)xb) <= lim &&
                       fabs((double)y) <= lim;
    if (!domain) {
        for (int64_t x = xa; x <= xb; x++)
            if (terra_mine(t, x, y)) sink_put(s, x);
        return;
    }
    if (near) /* the placed entries of the row, decided by terra */
        for (int64_t x = xa; x <= xb; x++)
            if (rt_placed_get(t->placed, x, y) && terra_mine(t, x, y)) sink_put(s, x);
    if (t->bleak || t->mine_below == 0) return; /* no generated MINE then */
    /* xyff = (x*y) & 0xff < mine_below: the residues of x mod 256 once per
     * row, then only those x (about 1 in 8) get the feature value */
    uint8_t res[256];
    const int nres = rt__xyff_residues(y, 0, t->mine_below, res);
    if (nres == 0) return;
    /* a long row holds many periods of the profile sums: compute each once */
    const int64_t period = rt__feature_period(t), base0 = xa - (int64_t)(rt__u64(xa) & 0xffu);
    /* every x the loop below multiplies (up to 255 beyond either end) */
    const double xmax = fmax(fabs((double)xa), fabs((double)xb)) + 256.0;
    if (s->sums && (xb - base0) / 256 >= 2 * period && nres * period <= PERIOD_SUMS &&
        rt__feature_period_sums(t, y, base0, res, nres, period, xmax * fabs((double)y), s->sums)) {
        const uint32_t fmask = t->feature_mask, fpoint = t->feature_point;
        int64_t k = 0;
        for (int64_t base = base0; base <= xb; base += 256) {
            const int64_t *a = s->sums + k * nres;
            if (++k == period) k = 0;
            for (int j = 0; j < nres; j++) {
                const int64_t x = base + res[j];
                /* floor((a*x*y + 64) / 128), exact: |a*x*y| < 2^52 */
                uint32_t f = (uint32_t)(rt__u64(a[j] * (x * y) + 64) >> 7);
                if ((f & fmask) != fpoint || x < xa || x > xb) continue;
                if (near && rt_placed_get(t->placed, x, y)) continue; /* done above */
                if (terra_mine(t, x, y)) sink_put(s, x);
            }
        }
        return;
    }
    int64_t cand[RT_FEATURE_ROW_CHUNK];
    for (int64_t x0 = xa; x0 <= xb; x0 += RT_FEATURE_ROW_CHUNK) {
        int64_t x1 = xb - x0 < RT_FEATURE_ROW_CHUNK ? xb : x0 + RT_FEATURE_ROW_CHUNK - 1;
        int nc = rt__xyff_candidates(x0, x1, res, nres, cand);
        nc = t->directions == 5 ? rt__feature_point_filter(t, y, cand, nc, 5)
                                : rt__feature_point_filter(t, y, cand, nc, t->directions);
        for (int q = 0; q < nc; q++) {
            int64_t x = cand[q];
            if (near && rt_placed_get(t->placed, x, y)) continue; /* done above */
            if (terra_mine(t, x, y)) sink_put(s, x);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Open above                                                               */
/* ------------------------------------------------------------------------ */

typedef struct above_job {
    const rt_mines *m;
    const rt_terrain *t;
    const rt_cells *b;
    uint8_t *above;
    rt__watch *w;
} above_job;

/* Work of a scanned point: the xyff test, and a profile sum for about one
 * in eight (137 M points/s on one core). */
#define WORK_SCAN 8

static void above_rows(void *ctx, int64_t begin, int64_t end)
{
    const above_job *j = ctx;
    const int64_t cs = j->m->cell_size, half = cs / 2;
    const rt_cells *b = j->b;
    /* scratch for the periodic sums of long rows (none: the direct scan) */
    int64_t *sums = malloc(PERIOD_SUMS * sizeof *sums);
    for (int64_t r = begin; r < end; r++) {
        uint8_t *row = j->above + r * b->nx;
        memset(row, 0, (size_t)b->nx);
        int64_t yg = b->yg0 + r * cs;
        int64_t xa = b->xg0 - half, xb = b->xg0 + (b->nx - 1) * cs - half + cs - 1;
        mine_sink s = {row, xa, cs, NULL, 0, 0, sums};
        int64_t pending = 0;
        for (int64_t y = yg - half; y < yg - half + cs; y++) {
            if (rt__watch_charge(j->w, &pending, WORK_SCAN * (xb - xa + 1))) {
                free(sums);
                return;
            }
            mine_row(j->t, y, xa, xb, &s);
        }
    }
    free(sums);
}

rt_status rt_mines_above(const rt_mines *m, const rt_terrain *t, const rt_cells *b,
                         uint8_t *above, int threads, const rt_poll *poll)
{
    rt_status s = check_cells(m, b);
    if (s == RT_OK) s = rt__terrain_check_shape(t, NULL);
    if (s != RT_OK) return s;
    if (!above) return RT_ERR_NULL;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    above_job j = {m, t, b, above, &w};
    /* a row of cells: cs rows of nx*cs points */
    const int64_t cs = m->cell_size;
    const double row_work = (double)WORK_SCAN * (double)b->nx * (double)(cs * cs);
    rt__parallel_watch(threads, b->ny, row_work < 4e18 ? (int64_t)row_work : (int64_t)4e18,
                       above_rows, &j, &w);
    return rt__watch_status(&w);
}

/* ------------------------------------------------------------------------ */
/* Open                                                                     */
/* ------------------------------------------------------------------------ */

typedef struct open_job {
    const rt_mines *m;
    const rt_cells *b;
    const uint8_t *above;
    uint8_t *open;
    const double *colv; /* per column: xg (classic) or sin(xg) (sincos) */
    rt__watch *w;
} open_job;

/* Cells of a row done between two checks of the watch. */
#define OPEN_RUN ((int64_t)1 << 16)

static void open_rows(void *ctx, int64_t begin, int64_t end)
{
    const open_job *j = ctx;
    const rt_cells *b = j->b;
    const double thr = j->m->threshold, pi10000 = j->m->pi10000;
    const int64_t nx = b->nx, ny = b->ny, cs = j->m->cell_size;
    const int sincos = j->m->variant == RT_MINES_SINCOS;
    for (int64_t q = begin; q < end; q++) { /* q = k*ny + r */
        int64_t k = q / ny, r = q % ny;
        double yv = (double)(b->yg0 + r * cs);
        if (sincos) yv = rt_cos(yv);
        const double kk = (double)(k + 1);
        uint8_t *o = j->open + q * nx;
        const uint8_t *ab = k == 0 && j->above ? j->above + r * nx : NULL;
        for (int64_t c0 = 0; c0 < nx; c0 += OPEN_RUN) {
            if (c0 > 0 && rt__watch_stop(j->w, 4 * OPEN_RUN)) return; /* a long row */
            const int64_t c1 = nx - c0 > OPEN_RUN ? c0 + OPEN_RUN : nx;
            for (int64_t c = c0; c < c1; c++) {
                /* left to right: PI10000 * x * y * (k + 1) */
                double u = pi10000 * j->colv[c] * yv * kk;
                o[c] = (uint8_t)(u - rt__floor(u) > thr);
            }
        }
        if (ab)
            for (int64_t c = 0; c < nx; c++) o[c] |= ab[c];
    }
}

rt_status rt_mines_open(const rt_mines *m, const rt_cells *b, const uint8_t *above,
                        uint8_t *open, int threads, const rt_poll *poll)
{
    rt_status s = check_cells(m, b);
    if (s != RT_OK) return s;
    if (!open) return RT_ERR_NULL;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    double *colv = malloc((size_t)b->nx * sizeof *colv);
    if (!colv) return RT_ERR_NOMEM;
    for (int64_t c = 0; c < b->nx; c++) {
        double xg = (double)(b->xg0 + c * m->cell_size);
        colv[c] = m->variant == RT_MINES_SINCOS ? rt_sin(xg) : xg;
    }
    open_job j = {m, b, above, open, colv, &w};
    rt__parallel_watch(threads, m->levels * b->ny, 4 * b->nx, open_rows, &j, &w);
    free(colv);
    return rt__watch_status(&w);
}

/* ------------------------------------------------------------------------ */
/* Labelling                                                                */
/* ------------------------------------------------------------------------ */

/* Path halving keeps every parent at a smaller or equal index. */
static inline int32_t uf_find(int32_t *par, int32_t x)
{
    while (par[x] != x) {
        par[x] = par[par[x]];
        x = par[x];
    }
    return x;
}

static inline void uf_union(int32_t *par, int32_t a, int32_t b)
{
    a = uf_find(par, a);
    b = uf_find(par, b);
    if (a < b)
        par[b] = a;
    else if (b < a)
        par[a] = b;
}

/* Labels cell i (column c of its row, layer k): -1 if rock, else its own
 * index joined with its open west neighbour, its open south one when that
 * row is in the cell's band (south), and its open one a layer below. */
static inline void label_cell(const uint8_t *open, int32_t *lab, int64_t i, int64_t c, int south,
                              int64_t k, int64_t nx, int64_t layer)
{
    if (!open[i]) {
        lab[i] = -1;
    } else {
        lab[i] = (int32_t)i;
        if (c > 0 && open[i - 1]) uf_union(lab, (int32_t)(i - 1), (int32_t)i);
        if (south && open[i - nx]) uf_union(lab, (int32_t)(i - nx), (int32_t)i);
        if (k > 0 && open[i - layer]) uf_union(lab, (int32_t)(i - layer), (int32_t)i);
    }
}

typedef struct label_job {
    int64_t nz, ny, nx, band; /* band: rows per band */
    const uint8_t *open;
    int32_t *lab;
    rt__watch *w;
} label_job;

/* Union-find work of a cell, in watch units; cells of a band. */
#define WORK_LABEL 8
#define LABEL_BAND ((int64_t)1 << 20)

/* Union-find inside bands of rows (all layers); parents stay in the band.
 * The watch is checked between bands (rt__parallel_watch), which hold about
 * LABEL_BAND cells; label_wide_bands serves rows too long for that. */
#if defined(__GNUC__)
__attribute__((aligned(64))) /* its loops' alignment fixed, whatever surrounds it */
#endif
static void label_bands(void *ctx, int64_t begin, int64_t end)
{
    const label_job *j = ctx;
    const int64_t nx = j->nx, ny = j->ny;
    const uint8_t *open = j->open;
    int32_t *lab = j->lab;
    for (int64_t bd = begin; bd < end; bd++) {
        int64_t r0 = bd * j->band, r1 = r0 + j->band < ny ? r0 + j->band : ny;
        for (int64_t k = 0; k < j->nz; k++)
            for (int64_t r = r0; r < r1; r++) {
                int64_t base = (k * ny + r) * nx;
                for (int64_t c = 0; c < nx; c++)
                    label_cell(open, lab, base + c, c, r > r0, k, nx, ny * nx);
            }
    }
}

/* The same for bands of one row of more than LABEL_BAND cells (all layers):
 * the row in runs of LABEL_BAND cells, the watch checked between runs. */
static void label_wide_bands(void *ctx, int64_t begin, int64_t end)
{
    const label_job *j = ctx;
    const int64_t nx = j->nx, ny = j->ny;
    const uint8_t *open = j->open;
    int32_t *lab = j->lab;
    for (int64_t r = begin; r < end; r++) /* a band is a row */
        for (int64_t k = 0; k < j->nz; k++) {
            int64_t base = (k * ny + r) * nx;
            for (int64_t c0 = 0; c0 < nx; c0 += LABEL_BAND) {
                if (rt__watch_stop(j->w, WORK_LABEL * LABEL_BAND)) return;
                const int64_t c1 = nx - c0 > LABEL_BAND ? c0 + LABEL_BAND : nx;
                for (int64_t c = c0; c < c1; c++) /* no south: a band is a row */
                    label_cell(open, lab, base + c, c, 0, k, nx, ny * nx);
            }
        }
}

rt_status rt_label_cells(int64_t nz, int64_t ny, int64_t nx, const uint8_t *open,
                         int32_t *labels, int64_t *count, int threads, const rt_poll *poll)
{
    if (nz < 1 || ny < 1 || nx < 1) return RT_ERR_SIZE;
    if (nx > RT_MAX_LABEL_CELLS / ny || nx * ny > RT_MAX_LABEL_CELLS / nz) return RT_ERR_SIZE;
    if (!open || !labels || !count) return RT_ERR_NULL;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    if (threads < 1) threads = 1;
    if (threads > RT_MAX_THREADS) threads = RT_MAX_THREADS;
    /* bands of about LABEL_BAND cells (a few ms: the watch is checked
     * between them), at least a few a thread; the labelling does not
     * depend on the banding */
    int64_t nb = (int64_t)threads * 4;
    if (nb < nz * ny * nx / LABEL_BAND) nb = nz * ny * nx / LABEL_BAND;
    if (nb > ny) nb = ny;
    int64_t band = (ny + nb - 1) / nb;
    nb = (ny + band - 1) / band;
    label_job j = {nz, ny, nx, band, open, labels, &w};
    rt__parallel_watch(threads, nb, WORK_LABEL * band * nx * nz,
                       band == 1 && nx * nz > LABEL_BAND ? label_wide_bands : label_bands, &j, &w);
    if (rt__watch_stopped(&w)) return RT_ERR_INTERRUPTED;
    /* join the bands across their boundaries */
    int64_t pending = 0;
    for (int64_t bd = 1; bd < nb; bd++) {
        int64_t r = bd * band;
        for (int64_t k = 0; k < nz; k++) {
            int64_t base = (k * ny + r) * nx;
            for (int64_t c0 = 0; c0 < nx; c0 += LABEL_BAND) {
                const int64_t c1 = nx - c0 > LABEL_BAND ? c0 + LABEL_BAND : nx;
                if (rt__watch_charge(&w, &pending, WORK_LABEL * (c1 - c0)))
                    return RT_ERR_INTERRUPTED;
                for (int64_t c = c0; c < c1; c++) {
                    int64_t i = base + c;
                    if (open[i] && open[i - nx]) uf_union(labels, (int32_t)(i - nx), (int32_t)i);
                }
            }
        }
    }
    /* number the components in the order of their first cells: a parent
     * precedes its child and already holds its final label */
    int32_t next = 0;
    const int64_t n = nz * ny * nx;
    const int64_t run = (int64_t)1 << 20; /* cells between checks (a few ms) */
    for (int64_t i0 = 0; i0 < n; i0 += run) {
        if (rt__watch_stop(&w, 4 * run)) return RT_ERR_INTERRUPTED;
        const int64_t i1 = n - i0 > run ? i0 + run : n;
        for (int64_t i = i0; i < i1; i++) {
            int32_t p = labels[i];
            if (p < 0)
                labels[i] = 0;
            else if (p == i)
                labels[i] = ++next;
            else
                labels[i] = labels[p];
        }
    }
    *count = next;
    return RT_OK;
}

rt_status rt_label_census(const int32_t *labels, int64_t n, int64_t count,
                          const uint8_t *flags, int64_t nflags, int64_t *sizes,
                          int64_t *flagged, const rt_poll *poll)
{
    if (n < 0 || count < 0 || nflags < 0 || nflags > n) return RT_ERR_SIZE;
    if ((n > 0 && !labels) || !sizes || (nflags > 0 && flagged && !flags)) return RT_ERR_NULL;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    /* three passes over the labels, in runs between checks of the watch */
    const int64_t run = RT_WATCH_STEP;
    for (int64_t i0 = 0; i0 < n; i0 += run) {
        if (rt__watch_stop(&w, run)) return RT_ERR_INTERRUPTED;
        const int64_t i1 = n - i0 > run ? i0 + run : n;
        for (int64_t i = i0; i < i1; i++)
            if (labels[i] < 0 || labels[i] > count) return RT_ERR_PARAM;
    }
    memset(sizes, 0, (size_t)(count + 1) * sizeof *sizes);
    for (int64_t i0 = 0; i0 < n; i0 += run) {
        if (rt__watch_stop(&w, 2 * run)) return RT_ERR_INTERRUPTED;
        const int64_t i1 = n - i0 > run ? i0 + run : n;
        for (int64_t i = i0; i < i1; i++) sizes[labels[i]]++;
    }
    if (flagged) {
        memset(flagged, 0, (size_t)(count + 1) * sizeof *flagged);
        for (int64_t i0 = 0; i0 < nflags; i0 += run) {
            if (rt__watch_stop(&w, 2 * run)) return RT_ERR_INTERRUPTED;
            const int64_t i1 = nflags - i0 > run ? i0 + run : nflags;
            for (int64_t i = i0; i < i1; i++)
                if (flags[i]) flagged[labels[i]]++;
        }
    }
    return RT_OK;
}

/* ------------------------------------------------------------------------ */
/* Cave mouths                                                              */
/* ------------------------------------------------------------------------ */

double rt_ground_slope(const rt_terrain *t, int64_t x, int64_t y)
{
    if (rt__terrain_check_shape(t, NULL) != RT_OK) return NAN;
    const double xd = (double)x, yd = (double)y, h0 = rt__height_point(t, xd, yd);
    const double diag = sqrt(2.0); /* Math.SQRT2 */
    double best = 0.0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if (!dx && !dy) continue;
            double dh = fabs(rt__height_point(t, (double)(x + dx), (double)(y + dy)) - h0);
            double s = dx && dy ? dh / diag : dh;
            if (s > best) best = s;
        }
    return best;
}

typedef struct mouth_job {
    const rt_terrain *t;
    int64_t x0, y0, nx;
    double steepness;
    int64_t *row_count; /* pass 1: counts; pass 2: the first index of each row */
    int64_t *xs, *ys;
    double *slope;
    int64_t cap;
    int fill;
    rt__watch *w;
} mouth_job;

enum { MOUTH_CHUNK = 64 };

static void mouth_rows(void *ctx, int64_t begin, int64_t end)
{
    const mouth_job *j = ctx;
    int64_t buf[MOUTH_CHUNK];
    int64_t pending = 0;
    for (int64_t r = begin; r < end; r++) {
        int64_t y = j->y0 + r, k = j->fill ? j->row_count[r] : 0, found = 0;
        for (int64_t xa = j->x0; xa < j->x0 + j->nx; xa += MOUTH_CHUNK) {
            if (rt__watch_charge(j->w, &pending, WORK_SCAN * MOUTH_CHUNK)) return;
            int64_t xb = xa + MOUTH_CHUNK - 1 < j->x0 + j->nx - 1 ? xa + MOUTH_CHUNK - 1
                                                                  : j->x0 + j->nx - 1;
            mine_sink s = {NULL, 0, 1, buf, MOUTH_CHUNK, 0, NULL};
            mine_row(j->t, y, xa, xb, &s);
            for (int64_t q = 1; q < s.n; q++) /* placed ones come first: sort by x */
                for (int64_t e = q; e > 0 && buf[e - 1] > buf[e]; e--) {
                    int64_t tmp = buf[e];
                    buf[e] = buf[e - 1];
                    buf[e - 1] = tmp;
                }
            for (int64_t q = 0; q < s.n; q++) {
                double sl = rt_ground_slope(j->t, buf[q], y);
                if (!(sl > j->steepness)) continue;
                if (j->fill && k < j->cap) {
                    j->xs[k] = buf[q];
                    j->ys[k] = y;
                    j->slope[k] = sl;
                }
                k++;
                found++;
            }
        }
        if (!j->fill) j->row_count[r] = found;
    }
}

rt_status rt_cave_mouths(const rt_terrain *t, int64_t x0, int64_t y0, int64_t nx, int64_t ny,
                         double steepness, int64_t *xs, int64_t *ys, double *slope,
                         int64_t cap, int64_t *count, int threads, const rt_poll *poll)
{
    rt_status s = rt__terrain_check_shape(t, NULL);
    if (s != RT_OK) return s;
    if (nx < 1 || ny < 1 || cap < 0) return RT_ERR_SIZE;
    const int64_t lim = RT_MINES_LIMIT;
    if (x0 < -lim || x0 > lim || y0 < -lim || y0 > lim || nx > lim || ny > lim ||
        x0 + nx - 1 > lim || y0 + ny - 1 > lim)
        return RT_ERR_COORD;
    if (!isfinite(steepness)) return RT_ERR_PARAM;
    if (!count || (cap > 0 && (!xs || !ys || !slope))) return RT_ERR_NULL;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    int64_t *rc = malloc((size_t)ny * sizeof *rc);
    if (!rc) return RT_ERR_NOMEM;
    mouth_job j = {t, x0, y0, nx, steepness, rc, xs, ys, slope, cap, 0, &w};
    rt__parallel_watch(threads, ny, WORK_SCAN * nx, mouth_rows, &j, &w);
    if (rt__watch_stopped(&w)) {
        free(rc);
        return RT_ERR_INTERRUPTED;
    }
    int64_t total = 0;
    for (int64_t r = 0; r < ny; r++) {
        int64_t c = rc[r];
        rc[r] = total;
        total += c;
    }
    if (cap > 0 && total > 0) {
        j.fill = 1;
        rt__parallel_watch(threads, ny, WORK_SCAN * nx, mouth_rows, &j, &w);
    }
    free(rc);
    if (rt__watch_stopped(&w)) return RT_ERR_INTERRUPTED;
    *count = total;
    return RT_OK;
}

/* ------------------------------------------------------------------------ */
/* Caverns                                                                  */
/* ------------------------------------------------------------------------ */

void rt_caverns_defaults(rt_caverns *c)
{
    c->scale = 1.0;
    c->dx = 64.0;
    c->dy = 32.0;
    c->dz = 0.0;
}

typedef struct cavern_job {
    const rt_terrain *t;
    const rt_caverns *cv;
    const rt_block *b;
    const double *xs;   /* the roof's x per column */
    int roof_grid;      /* xs[c] == xs[0] + c*(xs[1]-xs[0]) for every c */
    double roof_step;
    double *fl, *rf, *sp;
} cavern_job;

static void cavern_rows(void *ctx, int64_t begin, int64_t end)
{
    const cavern_job *j = ctx;
    const rt_block *b = j->b;
    const int64_t nx = b->nx;
    for (int64_t i = begin; i < end; i++) {
        double *fl = j->fl + i * nx, *rf = j->rf + i * nx;
        /* the floor: this row of the grid, by the height grid path */
        /* (a grid that cannot have its scratch: the point path, same bits) */
        rt_block fb = {b->x0, b->y0, b->step, b->c0, b->r0 + i, nx, 1};
        double y = b->y0 + (double)(b->r0 + i) * b->step;
        if (rt_height_grid(j->t, &fb, fl, 1) != RT_OK)
            for (int64_t c = 0; c < nx; c++)
                fl[c] = rt__height_point(j->t, b->x0 + (double)(b->c0 + c) * b->step, y);
        double yr = y * j->cv->scale + j->cv->dy;
        if (j->roof_grid) {
            rt_block rb = {j->xs[0], yr, j->roof_step, 0, 0, nx, 1};
            if (rt_height_grid(j->t, &rb, rf, 1) != RT_OK)
                for (int64_t c = 0; c < nx; c++)
                    rf[c] = rt__height_point(j->t, j->xs[c], yr);
        } else {
            for (int64_t c = 0; c < nx; c++) rf[c] = rt__height_point(j->t, j->xs[c], yr);
        }
        for (int64_t c = 0; c < nx; c++) rf[c] = rf[c] + j->cv->dz;
        if (j->sp) {
            double *sp = j->sp + i * nx;
            for (int64_t c = 0; c < nx; c++) sp[c] = rf[c] > fl[c] ? rf[c] - fl[c] : 0.0;
        }
    }
}

rt_status rt_caverns_grid(const rt_terrain *t, const rt_caverns *c, const rt_block *b,
                          double *floor_out, double *roof_out, double *space_out, int threads)
{
    rt_status s = rt__terrain_check_shape(t, NULL);
    if (s == RT_OK) s = rt__check_block(b);
    if (s != RT_OK) return s;
    if (!c) return RT_ERR_NULL;
    if (!isfinite(c->scale) || !isfinite(c->dx) || !isfinite(c->dy) || !isfinite(c->dz))
        return RT_ERR_PARAM;
    if (!floor_out && !roof_out && !space_out) return RT_OK;
    const int64_t nx = b->nx, n = b->nx * b->ny;
    double *xs = malloc((size_t)nx * sizeof *xs);
    double *fl = floor_out ? floor_out : malloc((size_t)n * sizeof *fl);
    double *rf = roof_out ? roof_out : malloc((size_t)n * sizeof *rf);
    if (!xs || !fl || !rf) {
        free(xs);
        if (!floor_out) free(fl);
        if (!roof_out) free(rf);
        return RT_ERR_NOMEM;
    }
    /* the roof's coordinates: (x0 + c*step)*scale + dx, in that order; the
     * roof is a grid again when every one equals xs[0] + c*(xs[1]-xs[0]) */
    for (int64_t k = 0; k < nx; k++)
        xs[k] = (b->x0 + (double)(b->c0 + k) * b->step) * c->scale + c->dx;
    int finite = 1;
    for (int64_t k = 0; k < nx; k++) finite &= isfinite(xs[k]) != 0;
    /* y*scale + dy is monotonic in y: its extremes are finite, so all are */
    double ya = (b->y0 + (double)b->r0 * b->step) * c->scale + c->dy;
    double yb = (b->y0 + (double)(b->r0 + b->ny - 1) * b->step) * c->scale + c->dy;
    if (!finite || !isfinite(ya) || !isfinite(yb)) {
        free(xs);
        if (!floor_out) free(fl);
        if (!roof_out) free(rf);
        return RT_ERR_COORD;
    }
    double rstep = nx > 1 ? xs[1] - xs[0] : 1.0;
    int grid = isfinite(rstep) && rstep > 0;
    for (int64_t k = 0; grid && k < nx; k++) grid = xs[0] + (double)k * rstep == xs[k];
    cavern_job j = {t, c, b, xs, grid, rstep, fl, rf, space_out};
    rt_parallel_for(threads, b->ny, cavern_rows, &j);
    free(xs);
    if (!floor_out) free(fl);
    if (!roof_out) free(rf);
    return RT_OK;
}
