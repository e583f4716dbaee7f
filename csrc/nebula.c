/*
 * nebula.c - gas in 3-D space (SPEC 14): the density at (x, y, z) is
 * calcHeight with three vectors, gas where it exceeds a threshold ("3-D
 * islands"), the amount of gas density - threshold.
 *
 * Two paths give the same bits: the seed's double arithmetic (rt__sum3)
 * everywhere, and for blocks of integer points with integer vectors inside
 * the domain (|coordinate| <= RT_TERRAIN_DOMAIN) the sum A*x + B*y + C*z in
 * int64: there it is an exact double anyway (below 2^49), so j = V/128,
 * floor(j) = V >> 7 and j - floor(j) = (V & 127)/128 are exactly what the
 * double arithmetic gives, and the interpolation is the same double
 * expression.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "relfterrain.h"
#include "rt_internal.h"
#include "rt_space.h"

void rt_nebula_defaults(rt_nebula *nb)
{
    memset(nb, 0, sizeof *nb);
    nb->profile = rt_classic_profile();
    nb->profile_len = RT_CLASSIC_PROFILE_LEN;
    nb->directions = RT_CLASSIC_DIRECTIONS;
    const int32_t *ch = rt_planet_third_vector(RT_PLANET_CH);
    for (int i = 0; i < RT_CLASSIC_DIRECTIONS; i++) {
        nb->a[i] = (double)rt_classic_vector(RT_AH)[i];
        nb->b[i] = (double)rt_classic_vector(RT_BH)[i];
        nb->c[i] = (double)ch[i];
    }
    nb->threshold = 450.0;
}

rt_status rt_nebula_check(const rt_nebula *nb, int *bad_vector)
{
    if (!nb) return RT_ERR_NULL;
    rt_status s = rt__check_profile(nb->profile, nb->profile_len);
    if (s != RT_OK) return s;
    if (nb->directions < 1 || nb->directions > RT_MAX_DIRECTIONS) return RT_ERR_VECTOR_LENGTH;
    const double *v[3] = {nb->a, nb->b, nb->c};
    for (int k = 0; k < 3; k++)
        if (!rt__vector_ok(v[k], nb->directions)) {
            if (bad_vector) *bad_vector = k;
            return RT_ERR_VECTOR_VALUE;
        }
    if (!isfinite(nb->threshold)) return RT_ERR_PARAM;
    return RT_OK;
}

typedef struct nebula_job {
    const rt_nebula *nb;
    const rt_grid3 *g;
    const double *x, *y, *z;
    double *out64;
    float *out32;
    uint8_t *gas;
    double *row_amount;
    int fast;
    int64_t IA[RT_MAX_DIRECTIONS], IB[RT_MAX_DIRECTIONS], IC[RT_MAX_DIRECTIONS];
    int64_t X0, Y0, Z0, S;
    rt__watch *w;
} nebula_job;

/* m points of a row of the block path, from X0: V_i(c) = A_i*(X0 + c*S) +
 * (B_i*Y + C_i*Z). */
#if defined(__GNUC__)
__attribute__((noinline, aligned(64))) /* the hot loop's alignment fixed, whatever surrounds it */
#endif
static void row_fast(const nebula_job *j, int64_t X0, int64_t m, int64_t Y, int64_t Z, double *d)
{
    const rt_nebula *nb = j->nb;
    const double *P = nb->profile;
    const uint32_t n = nb->directions;
    const uint64_t mask = nb->profile_len - 1;
    int64_t byz[RT_MAX_DIRECTIONS];
    for (uint32_t i = 0; i < n; i++) byz[i] = j->IB[i] * Y + j->IC[i] * Z;
    for (int64_t c = 0; c < m; c++) {
        int64_t X = X0 + c * j->S;
        double ht = 0.0;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t u = rt__u64(j->IA[i] * X + byz[i]);
            uint64_t q = u >> 7; /* floor(V / 128) modulo 2^57: its low bits */
            double jfrac = (double)(u & 127u) * RT_RECIP128;
            double p0 = P[q & mask], p1 = P[(q + 1) & mask];
            ht += p0 + jfrac * (p1 - p0);
        }
        d[c] = ht;
    }
}

static void grid_rows(void *ctx, int64_t begin, int64_t end)
{
    const nebula_job *j = ctx;
    const rt_nebula *nb = j->nb;
    const rt_grid3 *g = j->g;
    const uint32_t mask = nb->profile_len - 1;
    double row[512];
    int64_t pending = 0;
    for (int64_t rr = begin; rr < end; rr++) {
        int64_t k = rr / g->ny, r = rr % g->ny;
        double y = g->y0 + (double)r * g->step, z = g->z0 + (double)k * g->step;
        double amount = 0.0;
        for (int64_t c0 = 0; c0 < g->nx; c0 += 512) {
            if (rt__watch_charge(j->w, &pending, 512 * RT_WORK_POINT)) return;
            int64_t m = g->nx - c0 < 512 ? g->nx - c0 : 512;
            if (j->fast) {
                row_fast(j, j->X0 + c0 * j->S, m, j->Y0 + r * j->S, j->Z0 + k * j->S, row);
            } else {
                for (int64_t c = 0; c < m; c++) {
                    double x = g->x0 + (double)(c0 + c) * g->step;
                    row[c] = rt__sum3(nb->profile, mask, nb->a, nb->b, nb->c, nb->directions, x,
                                      y, z);
                }
            }
            int64_t base = rr * g->nx + c0;
            for (int64_t c = 0; c < m; c++) {
                double d = row[c];
                if (j->out64) j->out64[base + c] = d;
                if (j->out32) j->out32[base + c] = (float)d;
                if (j->gas) j->gas[base + c] = d > nb->threshold;
                if (d > nb->threshold) amount += d - nb->threshold;
            }
        }
        if (j->row_amount) j->row_amount[rr] = amount;
    }
}

/* The block path applies: integer vectors, integer origin and step, every
 * point inside the domain. */
static int plan_fast(nebula_job *j)
{
    const rt_nebula *nb = j->nb;
    const rt_grid3 *g = j->g;
    const double lim = RT_TERRAIN_DOMAIN;
    for (uint32_t i = 0; i < nb->directions; i++) {
        if (nb->a[i] != floor(nb->a[i]) || nb->b[i] != floor(nb->b[i]) ||
            nb->c[i] != floor(nb->c[i]))
            return 0;
        j->IA[i] = (int64_t)nb->a[i];
        j->IB[i] = (int64_t)nb->b[i];
        j->IC[i] = (int64_t)nb->c[i];
    }
    if (!rt__is_int_within(g->x0, lim) || !rt__is_int_within(g->y0, lim) ||
        !rt__is_int_within(g->z0, lim) || !rt__is_int_within(g->step, lim))
        return 0;
    double xl = g->x0 + (double)(g->nx - 1) * g->step, yl = g->y0 + (double)(g->ny - 1) * g->step;
    double zl = g->z0 + (double)(g->nz - 1) * g->step;
    if (!(fabs(xl) <= lim && fabs(yl) <= lim && fabs(zl) <= lim)) return 0;
    j->X0 = (int64_t)g->x0;
    j->Y0 = (int64_t)g->y0;
    j->Z0 = (int64_t)g->z0;
    j->S = (int64_t)g->step;
    return 1;
}

rt_status rt_check_grid3(const rt_grid3 *g)
{
    if (!g) return RT_ERR_NULL;
    if (g->nx < 1 || g->ny < 1 || g->nz < 1) return RT_ERR_SIZE;
    const int64_t lim = (int64_t)1 << 53;
    if (g->nx > lim || g->ny > lim || g->nz > lim) return RT_ERR_SIZE;
    if (g->nx > INT64_MAX / 16 / g->ny || g->nx * g->ny > INT64_MAX / 16 / g->nz) return RT_ERR_SIZE;
    if (!isfinite(g->x0) || !isfinite(g->y0) || !isfinite(g->z0) || !isfinite(g->step) ||
        !(g->step > 0))
        return RT_ERR_COORD;
    double xl = g->x0 + (double)(g->nx - 1) * g->step, yl = g->y0 + (double)(g->ny - 1) * g->step;
    double zl = g->z0 + (double)(g->nz - 1) * g->step;
    if (!isfinite(xl) || !isfinite(yl) || !isfinite(zl)) return RT_ERR_COORD;
    return RT_OK;
}

rt_status rt_nebula_grid(const rt_nebula *nb, const rt_grid3 *g, const rt_nebula_out *out,
                         int threads, const rt_poll *poll)
{
    rt_status s = rt_nebula_check(nb, NULL);
    if (s == RT_OK) s = rt_check_grid3(g);
    if (s != RT_OK) return s;
    if (!out) return RT_ERR_NULL;
    rt__watch w;
    if (rt__watch_start(&w, poll)) return RT_ERR_INTERRUPTED;
    nebula_job j;
    memset(&j, 0, sizeof j);
    j.w = &w;
    j.nb = nb;
    j.g = g;
    j.out64 = out->density;
    j.out32 = out->density32;
    j.gas = out->gas;
    j.fast = plan_fast(&j);
    int64_t rows = g->ny * g->nz;
    if (out->amount) {
        j.row_amount = malloc((size_t)rows * sizeof *j.row_amount);
        if (!j.row_amount) return RT_ERR_NOMEM;
    }
    rt__parallel_watch(threads, rows, RT_WORK_POINT * g->nx, grid_rows, &j, &w);
    if (out->amount) {
        double total = 0.0;
        for (int64_t r = 0; r < rows; r++) total += j.row_amount[r];
        if (!rt__watch_stopped(&w)) *out->amount = total;
        free(j.row_amount);
    }
    return rt__watch_status(&w);
}

static void point_range(void *ctx, int64_t begin, int64_t end)
{
    const nebula_job *j = ctx;
    const rt_nebula *nb = j->nb;
    const uint32_t mask = nb->profile_len - 1;
    for (int64_t k = begin; k < end; k++)
        j->out64[k] = rt__sum3(nb->profile, mask, nb->a, nb->b, nb->c, nb->directions, j->x[k],
                               j->y[k], j->z[k]);
}

rt_status rt_nebula_points(const rt_nebula *nb, const double *x, const double *y,
                           const double *z, int64_t n, double *out, int threads)
{
    rt_status s = rt_nebula_check(nb, NULL);
    if (s != RT_OK) return s;
    if (n < 0) return RT_ERR_SIZE;
    if (n > 0 && (!x || !y || !z || !out)) return RT_ERR_NULL;
    for (int64_t k = 0; k < n; k++)
        if (!isfinite(x[k]) || !isfinite(y[k]) || !isfinite(z[k])) return RT_ERR_COORD;
    nebula_job j;
    memset(&j, 0, sizeof j);
    j.nb = nb;
    j.x = x;
    j.y = y;
    j.z = z;
    j.out64 = out;
    rt_parallel_for(threads, n, point_range, &j);
    return RT_OK;
}
