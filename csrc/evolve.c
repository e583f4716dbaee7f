/*
 * evolve.c - terrain evolving in time (SPEC 14): calcHeight with a third
 * vector T for the time t, j = (AH[i]*x + BH[i]*y + T[i]*t) * (1/128).
 *
 * The seed's double arithmetic point by point.  At t = 0 (either sign) every
 * result equals the static terrain's (rt_height_grid on any SIMD variant):
 * T[i]*0 is +-0, adding it can only change the sign of a zero sum, and a
 * signed zero j gives jint = +-0, jfrac = +0 and the same profile entries.
 */
#include <math.h>

#include "relfterrain.h"
#include "rt_internal.h"
#include "rt_space.h"
#include "rt_terra.h"

static inline double mountain(const rt_terrain *t, double ht)
{
    if (t->mountains && ht > t->mountain_base) {
        double dz = ht - t->mountain_base;
        ht = t->mountain_base + dz * sqrt(dz);
    }
    return ht;
}

typedef struct evolve_job {
    const rt_terrain *t;
    double A[RT_MAX_DIRECTIONS], B[RT_MAX_DIRECTIONS], T[RT_MAX_DIRECTIONS];
    const rt_block *b;
    double time;
    const double *x, *y, *tp; /* points */
    double *out;
} evolve_job;

static rt_status setup(evolve_job *j, const rt_terrain *t, const double *tvec)
{
    rt_status s = rt__terrain_check_shape(t, NULL);
    if (s != RT_OK) return s;
    if (!tvec) return RT_ERR_NULL;
    if (!rt__vector_ok(tvec, t->directions)) return RT_ERR_VECTOR_VALUE;
    j->t = t;
    for (uint32_t i = 0; i < t->directions; i++) {
        j->A[i] = (double)t->vec[RT_AH][i];
        j->B[i] = (double)t->vec[RT_BH][i];
        j->T[i] = tvec[i];
    }
    return RT_OK;
}

static void grid_rows(void *ctx, int64_t begin, int64_t end)
{
    const evolve_job *j = ctx;
    const rt_terrain *t = j->t;
    const rt_block *b = j->b;
    const uint32_t mask = t->profile_len - 1, n = t->directions;
    for (int64_t i = begin; i < end; i++) {
        double y = b->y0 + (double)(b->r0 + i) * b->step;
        double *o = j->out + i * b->nx;
        for (int64_t c = 0; c < b->nx; c++) {
            double x = b->x0 + (double)(b->c0 + c) * b->step;
            o[c] = mountain(t, rt__sum3(t->profile, mask, j->A, j->B, j->T, n, x, y, j->time));
        }
    }
}

rt_status rt_height_time_grid(const rt_terrain *t, const double *tvec, const rt_block *b,
                              double time, double *out, int threads)
{
    evolve_job j;
    rt_status s = setup(&j, t, tvec);
    if (s == RT_OK) s = rt__check_block(b);
    if (s != RT_OK) return s;
    if (!isfinite(time)) return RT_ERR_COORD;
    if (!out) return RT_ERR_NULL;
    j.b = b;
    j.time = time;
    j.out = out;
    rt_parallel_for(threads, b->ny, grid_rows, &j);
    return RT_OK;
}

static void point_range(void *ctx, int64_t begin, int64_t end)
{
    const evolve_job *j = ctx;
    const rt_terrain *t = j->t;
    const uint32_t mask = t->profile_len - 1, n = t->directions;
    for (int64_t k = begin; k < end; k++)
        j->out[k] = mountain(t, rt__sum3(t->profile, mask, j->A, j->B, j->T, n, j->x[k], j->y[k],
                                         j->tp[k]));
}

rt_status rt_height_time_points(const rt_terrain *t, const double *tvec, const double *x,
                                const double *y, const double *time, int64_t n, double *out,
                                int threads)
{
    evolve_job j;
    rt_status s = setup(&j, t, tvec);
    if (s != RT_OK) return s;
    if (n < 0) return RT_ERR_SIZE;
    if (n > 0 && (!x || !y || !time || !out)) return RT_ERR_NULL;
    for (int64_t k = 0; k < n; k++)
        if (!isfinite(x[k]) || !isfinite(y[k]) || !isfinite(time[k])) return RT_ERR_COORD;
    j.x = x;
    j.y = y;
    j.tp = time;
    j.out = out;
    rt_parallel_for(threads, n, point_range, &j);
    return RT_OK;
}
