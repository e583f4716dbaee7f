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


static void set_pixel(uint8_t *mask, int64_t nx, int64_t ny, double row, double col,
                      uint8_t value)
{
    int64_t rr = (int64_t)floor(row + 0.5), cc = (int64_t)floor(col + 0.5);
    if (rr < 0 || rr >= ny || cc < 0 || cc >= nx) return; /* cannot happen: inside the cell */
    uint8_t *p = mask + rr * nx + cc;
    if (*p < value) *p = value;
}

/* The vertices of the levels crossing the edge a -> b of the triangle of cell
 * (r, c); (ra, ca), (rb, cb) are the ends' offsets within the cell. */
static int64_t edge(uint8_t *mask, int64_t nx, int64_t ny, int64_t r, int64_t c, double va,
                    double vb, double ba, double bb, double ra, double ca, double rb, double cb,
                    double interval, int index_every)
{
    if (bb == ba) return 0;
    double lo = ba < bb ? ba : bb;
    int64_t count = (int64_t)fabs(bb - ba);
    for (int64_t m = 0; m < count; m++) {
        double k = count == 1 ? lo + 1.0 : (lo + 1.0) + (double)m;
        double t = (k * interval - va) / (vb - va);
        double row = (double)r + (ra + t * (rb - ra));
        double col = (double)c + (ca + t * (cb - ca));
        uint8_t value = 1;
        if (index_every) {
            /* k is a whole number: below 2^53 an integer remainder, the same
             * answer as fmod's (exact too) at a fraction of its cost */
            if (fabs(k) < 9007199254740992.0)
                value = (int64_t)k % index_every == 0 ? 2 : 1;
            else
                value = fmod(k, (double)index_every) == 0.0 ? 2 : 1;
        }
        set_pixel(mask, nx, ny, row, col, value);
    }
    return count;
}

rt_status rt_contour_mask(const double *z, int64_t nx, int64_t ny, double interval,
                          int index_every, int64_t max_crossings, uint8_t *mask,
                          int64_t *crossings, const rt_poll *poll)
{
    if (!z || !mask) return RT_ERR_NULL;
    if (nx < 1 || ny < 1 || nx > INT64_MAX / ny) return RT_ERR_SIZE;
    if (!(isfinite(interval) && interval > 0.0) || index_every < 0) return RT_ERR_PARAM;
    for (int64_t k = 0; k < nx * ny; k++)
        if (!isfinite(z[k])) return RT_ERR_PARAM;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    int64_t pending = 0;
    const double inverse = 1.0 / interval;
    /* the bands of two rows of points, each computed once */
    double *rowb = malloc((size_t)(2 * nx) * sizeof *rowb);
    if (!rowb) return RT_ERR_NOMEM;
    for (int64_t k = 0; k < nx * ny; k++) mask[k] = 0;
    int64_t total = 0;
    static const double dr[4] = {0.0, 0.0, 1.0, 1.0}, dc[4] = {0.0, 1.0, 1.0, 0.0};
    double *b0 = rowb, *b1 = rowb + nx;
    for (int64_t c = 0; c < nx; c++) b0[c] = band(z[c], interval, inverse);
    for (int64_t r = 0; r + 1 < ny; r++) {
        /* a row of cells: its bands, and the crossings of the few crossed */
        if (rt__watch_charge(&w, &pending, 16 * nx)) {
            free(rowb);
            return RT_ERR_INTERRUPTED;
        }
        const double *z0 = z + r * nx, *z1 = z0 + nx;
        for (int64_t c = 0; c < nx; c++) b1[c] = band(z1[c], interval, inverse);
        for (int64_t c = 0; c + 1 < nx; c++) {
            double v[4] = {z0[c], z0[c + 1], z1[c + 1], z1[c]};
            double b[4] = {b0[c], b0[c + 1], b1[c + 1], b1[c]};
            double vc = (((v[0] + v[1]) + v[2]) + v[3]) * 0.25;
            /* most cells lie in one band: the centre's band is that one exactly
             * when b*interval <= vc < (b+1)*interval (the inequalities band()
             * makes true, whose solution is unique), two products instead of a
             * floor and its corrections */
            if (b[1] == b[0] && b[2] == b[0] && b[3] == b[0] && vc >= b[0] * interval &&
                vc < (b[0] + 1.0) * interval)
                continue;
            double bc = band(vc, interval, inverse);
            for (int i = 0; i < 4; i++) {
                int j = (i + 1) % 4;
                /* an edge whose ends share a band has no vertex: no call */
                if (b[j] != b[i])
                    total += edge(mask, nx, ny, r, c, v[i], v[j], b[i], b[j], dr[i], dc[i],
                                  dr[j], dc[j], interval, index_every);
                if (bc != b[i])
                    total += edge(mask, nx, ny, r, c, v[i], vc, b[i], bc, dr[i], dc[i], 0.5,
                                  0.5, interval, index_every);
            }
            if (total > max_crossings) {
                free(rowb);
                if (crossings) *crossings = total;
                return RT_ERR_SIZE;
            }
        }
        double *swap = b0;
        b0 = b1;
        b1 = swap;
    }
    free(rowb);
    if (crossings) *crossings = total;
    return RT_OK;
}
