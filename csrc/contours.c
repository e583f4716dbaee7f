/*
 * contours.c - the pixels of CONREC's contours of a grid (SPEC 15).
 *
 * Each cell is cut into four triangles meeting at its centre, whose value is
 * the mean of its four corners; every level k*interval crossing an edge of a
 * triangle gives a vertex by linear interpolation along that edge, and the
 * pixel nearest each vertex is set.  The arithmetic is that of the vectorised
 * NumPy version in relfterrain/maps.py (contour_points, contour_mask),
 * operation for operation, so both set the same pixels; this one visits each
 * crossed cell once instead of building arrays of every vertex.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "relfterrain.h"
#include "rt_internal.h"

/* k with k*interval <= z < (k+1)*interval, exactly for the products used:
 * the estimate floor(z * (1/interval)) is within one of it (as floor(z /
 * interval) is), and the two corrections make it the one k that the
 * inequalities allow, the same k as the NumPy version's. */
static double band(double z, double interval, double inverse)
{
    double b = floor(z * inverse);
    b += z >= (b + 1.0) * interval;
    b -= z < b * interval;
    return b;
}

/* Below this |z / interval| a band is found through a 32-bit integer (the
 * fast paths); a grid beyond it takes floor() and the general cell path. */
#define FAST_BAND 1073741824.0 /* 2^30 */

/* band() of a row of n heights into b; 0 when one is beyond FAST_BAND (then
 * b is band() of each through floor).  floor(q) for |q| < 2^30 is the
 * truncation t less (t > q): the same value, in a loop without branches or
 * calls that the compiler vectorises (floor() is a call or a long sequence
 * on baseline x86-64). */
static int band_row(const double *z, double *b, int64_t n, double interval, double inverse)
{
    int far = 0;
    for (int64_t c = 0; c < n; c++) {
        double q = z[c] * inverse;
        far |= !(q > -FAST_BAND && q < FAST_BAND);
        double qc = q > -FAST_BAND ? (q < FAST_BAND ? q : FAST_BAND) : -FAST_BAND;
        double f = (double)(int32_t)qc;
        f -= f > qc;
        f += z[c] >= (f + 1.0) * interval;
        f -= z[c] < f * interval;
        b[c] = f;
    }
    if (!far) return 1;
    for (int64_t c = 0; c < n; c++) b[c] = band(z[c], interval, inverse);
    return 0;
}

/* band() of one height known to be within FAST_BAND (a cell's centre, the
 * mean of four such corners: |q| < 2^30 + 1 at most). */
static inline double band_near(double z, double interval, double inverse)
{
    double q = z * inverse;
    double f = q > -FAST_BAND && q < FAST_BAND ? (double)(int32_t)q : floor(q);
    f -= f > q;
    f += z >= (f + 1.0) * interval;
    f -= z < f * interval;
    return f;
}

/* Where a band of cell rows writes its pixels: the mask, except its first
 * pixel row, which the band above shares (a cell writes the pixels of its own
 * row and the next) and which this band writes into a row of its own, merged
 * after the bands are done, so no two threads write one byte. */
typedef struct target {
    uint8_t *mask;
    uint8_t *first; /* NULL: the first row goes to the mask too */
    int64_t nx, ny, first_row;
} target;

/* The pixel nearest (row, col), a point of cell (r, c): floor(row + 0.5),
 * floor(col + 0.5).  A vertex lies on its cell (0 <= t <= 1 and the offsets
 * in [0, 1]: see edge()), so row + 0.5 is in [r + 0.5, r + 1.5] and its floor
 * is r + (row + 0.5 >= r + 1), a comparison instead of a floor; anything else
 * (which cannot happen) takes the floor. */
static inline int64_t nearest(double x, int64_t base)
{
    double y = x + 0.5, lo = (double)base;
    if (y >= lo && y < lo + 2.0) return base + (y >= lo + 1.0);
    return (int64_t)floor(y); /* not reached */
}

static inline void set_pixel(const target *t, int64_t r, int64_t c, double row, double col,
                             uint8_t value)
{
    int64_t rr = nearest(row, r), cc = nearest(col, c);
    if (rr < 0 || rr >= t->ny || cc < 0 || cc >= t->nx) return; /* cannot happen: inside the cell */
    uint8_t *p = t->first && rr == t->first_row ? t->first + cc : t->mask + rr * t->nx + cc;
    if (*p < value) *p = value;
}

/* Whether the level k (a whole number) is a multiple of index_every = d:
 * below 2^32 Lemire's test (|k| * c <= c - 1 with c = 2^64 / d rounded up,
 * in 64-bit words; exact for every 32-bit |k| and d >= 1), the same answer as
 * fmod's at a fraction of a division's cost; beyond, an integer remainder
 * below 2^53 and fmod above (all exact). */
static inline int is_index(double k, int d, uint64_t c)
{
    double a = fabs(k);
    if (a < 4294967296.0) return (uint64_t)(uint32_t)a * c <= c - 1;
    if (a < 9007199254740992.0) return (int64_t)k % d == 0;
    return fmod(k, (double)d) == 0.0;
}

/* The vertices of the levels crossing the edge a -> b of the triangle of cell
 * (r, c); (ra, ca), (rb, cb) are the ends' offsets within the cell.  More
 * than `room` crossings (what the limit leaves) are not drawn: the count
 * (at least room + 1) is returned at once, so a tiny interval is refused in
 * the time of one cell, not of its 10^9 levels (issue 19). */
static int64_t edge(const target *tg, int64_t r, int64_t c, double va, double vb, double ba,
                    double bb, double ra, double ca, double rb, double cb, double interval,
                    int index_every, uint64_t index_c, int64_t room)
{
    if (bb == ba) return 0;
    double lo = ba < bb ? ba : bb;
    if (!(fabs(bb - ba) <= (double)room)) return room < INT64_MAX ? room + 1 : room;
    int64_t count = (int64_t)fabs(bb - ba);
    /* k*interval lies between va and vb (the bands' inequalities), so
     * 0 <= t <= 1 and the vertex lies on the edge, inside the cell */
    for (int64_t m = 0; m < count; m++) {
        double k = count == 1 ? lo + 1.0 : (lo + 1.0) + (double)m;
        double t = (k * interval - va) / (vb - va);
        double row = (double)r + (ra + t * (rb - ra));
        double col = (double)c + (ca + t * (cb - ca));
        uint8_t value = index_every && is_index(k, index_every, index_c) ? 2 : 1;
        set_pixel(tg, r, c, row, col, value);
    }
    return count;
}

/* One edge of fast_cell(): edge() for a band difference of 0 or 1, without
 * a branch.  The same operations in the same order as edge(); the pixel is
 * written with the value 0 (no change) where no level crosses (the t of
 * such an edge may be 0/0: its pixel is still one of the cell's).  rows[0]
 * and rows[1] are the cell's two pixel rows, fr and fc its corner. */
static inline int fast_edge(uint8_t *const rows[2], double fr, double fc, double va, double vb,
                            double ba, double bb, double ra, double ca, double rb, double cb,
                            double interval, int index_every, uint64_t index_c)
{
    int cross = bb != ba;
    double k = (ba < bb ? ba : bb) + 1.0;
    double t = (k * interval - va) / (vb - va);
    double row = fr + (ra + t * (rb - ra));
    double col = fc + (ca + t * (cb - ca));
    /* floor(row + 0.5) and floor(col + 0.5) of a point of the cell (nearest()) */
    int down = row + 0.5 >= fr + 1.0, right = col + 0.5 >= fc + 1.0;
    int index = index_every && (uint64_t)(uint32_t)fabs(k) * index_c <= index_c - 1;
    uint8_t value = (uint8_t)(cross + (cross & index));
    uint8_t *p = rows[down] + right;
    *p = *p < value ? value : *p;
    return cross;
}

/* The vertices of a crossed cell (r, c) whose eight edges cross one level at
 * most each (nearly every crossed cell), without branches; the bands are
 * within FAST_BAND (|k| < 2^32 for is_index's first test).  Returns the
 * vertices, or -1 when an edge crosses two levels or more (edge() then). */
static inline int fast_cell(const target *tg, int64_t r, int64_t c, const double v[4],
                            const double b[4], double vc, double bc, double interval,
                            int index_every, uint64_t index_c)
{
    double d = fabs(b[1] - b[0]);
    d = fmax(d, fabs(b[2] - b[1]));
    d = fmax(d, fabs(b[3] - b[2]));
    d = fmax(d, fabs(b[0] - b[3]));
    d = fmax(d, fabs(bc - b[0]));
    d = fmax(d, fabs(bc - b[1]));
    d = fmax(d, fabs(bc - b[2]));
    d = fmax(d, fabs(bc - b[3]));
    if (d > 1.0) return -1;
    uint8_t *rows[2] = {(tg->first && r == tg->first_row ? tg->first : tg->mask + r * tg->nx) + c,
                        tg->mask + (r + 1) * tg->nx + c};
    const double fr = (double)r, fc = (double)c;
    const int ie = index_every;
    const uint64_t ic = index_c;
    /* corners (0, 0), (0, 1), (1, 1), (1, 0) as (row, column) offsets; centre (0.5, 0.5) */
    return fast_edge(rows, fr, fc, v[0], v[1], b[0], b[1], 0.0, 0.0, 0.0, 1.0, interval, ie, ic) +
           fast_edge(rows, fr, fc, v[0], vc, b[0], bc, 0.0, 0.0, 0.5, 0.5, interval, ie, ic) +
           fast_edge(rows, fr, fc, v[1], v[2], b[1], b[2], 0.0, 1.0, 1.0, 1.0, interval, ie, ic) +
           fast_edge(rows, fr, fc, v[1], vc, b[1], bc, 0.0, 1.0, 0.5, 0.5, interval, ie, ic) +
           fast_edge(rows, fr, fc, v[2], v[3], b[2], b[3], 1.0, 1.0, 1.0, 0.0, interval, ie, ic) +
           fast_edge(rows, fr, fc, v[2], vc, b[2], bc, 1.0, 1.0, 0.5, 0.5, interval, ie, ic) +
           fast_edge(rows, fr, fc, v[3], v[0], b[3], b[0], 1.0, 0.0, 0.0, 0.0, interval, ie, ic) +
           fast_edge(rows, fr, fc, v[3], vc, b[3], bc, 1.0, 0.0, 0.5, 0.5, interval, ie, ic);
}

typedef struct job {
    const double *z;
    uint8_t *mask;
    uint8_t *firsts; /* (bands - 1) rows of nx: the first pixel row of bands 1.. */
    int64_t nx, ny, bands, max_crossings;
    int64_t *totals; /* per band; max_crossings + 1 when it stopped on the limit */
    int *nomem;
    double interval;
    int index_every;
    uint64_t index_c; /* is_index()'s constant for index_every */
    rt__watch *w;
} job;

/* Band b: the cells of rows [ny-1) * b / bands .. * (b+1) / bands. */
static int64_t band_start(const job *j, int64_t b)
{
    return (j->ny - 1) * b / j->bands;
}

static void run_bands(void *ctx, int64_t begin, int64_t end)
{
    const job *j = ctx;
    const int64_t nx = j->nx;
    const double interval = j->interval, inverse = 1.0 / interval;
    static const double dr[4] = {0.0, 0.0, 1.0, 1.0}, dc[4] = {0.0, 1.0, 1.0, 0.0};
    /* the bands of two rows of points, each computed once */
    double *rowb = malloc((size_t)(2 * nx) * sizeof *rowb);
    uint8_t *crossed = malloc((size_t)nx + 8);
    if (!rowb || !crossed) {
        free(rowb);
        free(crossed);
        *j->nomem = 1;
        return;
    }
    for (int64_t bi = begin; bi < end; bi++) {
        int64_t r0 = band_start(j, bi), r1 = band_start(j, bi + 1);
        target tg = {j->mask, bi > 0 ? j->firsts + (bi - 1) * nx : NULL, nx, j->ny, r0};
        int64_t total = 0, pending = 0;
        double *b0 = rowb, *b1 = rowb + nx;
        const double *z = j->z;
        int near0 = band_row(z + r0 * nx, b0, nx, interval, inverse), near1;
        for (int64_t r = r0; r < r1; r++) {
            /* a row of cells: its bands, and the crossings of the few crossed */
            if (rt__watch_charge(j->w, &pending, 16 * nx)) break;
            const double *z0 = z + r * nx, *z1 = z0 + nx;
            near1 = band_row(z1, b1, nx, interval, inverse);
            /* both rows' bands within FAST_BAND: the cells' fast paths */
            const int near = near0 && near1;
            /* Which cells of the row a level crosses, in a pass without
             * branches (the compiler vectorises it).  Most cells lie in one
             * band: the centre's band is that one exactly when
             * b*interval <= vc < (b+1)*interval (the inequalities band()
             * makes true, whose solution is unique). */
            for (int64_t c = 0; c + 1 < nx; c++) {
                double b00 = b0[c];
                double vc = (((z0[c] + z0[c + 1]) + z1[c + 1]) + z1[c]) * 0.25;
                crossed[c] = (uint8_t)((b0[c + 1] != b00) | (b1[c + 1] != b00) | (b1[c] != b00) |
                                       !(vc >= b00 * interval) | !(vc < (b00 + 1.0) * interval));
            }
            memset(crossed + (nx - 1), 0, 9); /* the end: eight zeros and one past */
            for (int64_t c = 0; c + 1 < nx; c++) {
                /* skip eight uncrossed cells at a time */
                uint64_t eight;
                memcpy(&eight, crossed + c, 8);
                if (eight == 0) {
                    c += 7;
                    continue;
                }
                if (!crossed[c]) continue;
                double v[4] = {z0[c], z0[c + 1], z1[c + 1], z1[c]};
                double b[4] = {b0[c], b0[c + 1], b1[c + 1], b1[c]};
                double vc = (((v[0] + v[1]) + v[2]) + v[3]) * 0.25;
                double bc = near ? band_near(vc, interval, inverse) : band(vc, interval, inverse);
                if (near && total <= j->max_crossings - 8) {
                    int n = fast_cell(&tg, r, c, v, b, vc, bc, interval, j->index_every,
                                      j->index_c);
                    if (n >= 0) {
                        total += n;
                        continue;
                    }
                }
                for (int i = 0; i < 4 && total <= j->max_crossings; i++) {
                    int k = (i + 1) % 4;
                    /* an edge whose ends share a band has no vertex: no call */
                    if (b[k] != b[i])
                        total += edge(&tg, r, c, v[i], v[k], b[i], b[k], dr[i], dc[i], dr[k],
                                      dc[k], interval, j->index_every, j->index_c, j->max_crossings - total);
                    if (bc != b[i] && total <= j->max_crossings)
                        total += edge(&tg, r, c, v[i], vc, b[i], bc, dr[i], dc[i], 0.5, 0.5,
                                      interval, j->index_every, j->index_c, j->max_crossings - total);
                }
                if (total > j->max_crossings) break;
            }
            if (total > j->max_crossings) break;
            double *swap = b0;
            b0 = b1;
            b1 = swap;
            near0 = near1;
        }
        j->totals[bi] = total;
    }
    free(rowb);
    free(crossed);
}

/* Bands of at least this many cells each (smaller: not worth a thread). */
#define CONTOUR_BAND_CELLS ((int64_t)1 << 17)

rt_status rt_contour_mask_threads(const double *z, int64_t nx, int64_t ny, double interval,
                                  int index_every, int64_t max_crossings, uint8_t *mask,
                                  int64_t *crossings, int threads, const rt_poll *poll)
{
    if (!z || !mask) return RT_ERR_NULL;
    if (nx < 1 || ny < 1 || nx > INT64_MAX / ny) return RT_ERR_SIZE;
    if (!(isfinite(interval) && interval > 0.0) || index_every < 0) return RT_ERR_PARAM;
    for (int64_t k = 0; k < nx * ny; k++)
        if (!isfinite(z[k])) return RT_ERR_PARAM;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    for (int64_t k = 0; k < nx * ny; k++) mask[k] = 0;
    if (crossings) *crossings = 0;
    if (ny < 2) return RT_OK;
    /* one band per thread, each with enough cells to pay for it; the pixels
     * do not depend on the number of bands */
    int64_t bands = threads < 1 ? 1 : threads;
    if (bands > RT_MAX_THREADS) bands = RT_MAX_THREADS;
    int64_t most = (ny - 1) * nx / CONTOUR_BAND_CELLS;
    if (bands > most) bands = most;
    if (bands > ny - 1) bands = ny - 1;
    if (bands < 1) bands = 1;
    int64_t totals[RT_MAX_THREADS];
    uint8_t *firsts = NULL;
    if (bands > 1) {
        firsts = calloc((size_t)((bands - 1) * nx), 1);
        if (!firsts) return RT_ERR_NOMEM;
    }
    int nomem = 0;
    uint64_t index_c = index_every > 0 ? UINT64_MAX / (uint64_t)index_every + 1 : 0;
    job j = {z, mask, firsts, nx, ny, bands, max_crossings, totals, &nomem, interval,
             index_every, index_c, &w};
    if (bands > 1)
        rt_parallel_for((int)bands, bands, run_bands, &j);
    else
        run_bands(&j, 0, 1);
    int64_t total = 0;
    for (int64_t b = 0; b < bands; b++) total += totals[b];
    /* the first pixel row of each band after the first, into the mask */
    for (int64_t b = 1; b < bands; b++) {
        uint8_t *row = mask + band_start(&j, b) * nx;
        const uint8_t *mine = firsts + (b - 1) * nx;
        for (int64_t c = 0; c < nx; c++)
            if (row[c] < mine[c]) row[c] = mine[c];
    }
    free(firsts);
    if (crossings) *crossings = total;
    if (nomem) return RT_ERR_NOMEM;
    if (rt__watch_stopped(&w)) return RT_ERR_INTERRUPTED;
    if (total > max_crossings) return RT_ERR_SIZE;
    return RT_OK;
}

rt_status rt_contour_mask(const double *z, int64_t nx, int64_t ny, double interval,
                          int index_every, int64_t max_crossings, uint8_t *mask,
                          int64_t *crossings, const rt_poll *poll)
{
    return rt_contour_mask_threads(z, nx, ny, interval, index_every, max_crossings, mask,
                                   crossings, 1, poll);
}
