/*
 * rt_space.h - the three-term sums shared by the evolving terrain, nebulae
 * and planets (SPEC 14).  Internal; not installed.
 */
#ifndef RT_SPACE_H
#define RT_SPACE_H

#include <stdint.h>

#include "relfterrain.h"
#include "rt_internal.h"

/* calcHeight with a third term, by the seed's double arithmetic:
 * j = (A[i]*x + B[i]*y + C[i]*z) * (1/128) (left to right), jint = floor(j),
 * jfrac = j - jint, ht += p0 + jfrac*(p1 - p0). */
static inline double rt__sum3(const double *P, uint32_t mask, const double *A, const double *B,
                              const double *C, uint32_t n, double x, double y, double z)
{
    double ht = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        double j = (A[i] * x + B[i] * y + C[i] * z) * RT_RECIP128;
        double jint = rt__floor(j);
        double jfrac = j - jint;
        double p0 = P[rt__low32(jint) & mask];
        double p1 = P[rt__low32(jint + 1.0) & mask];
        ht += p0 + jfrac * (p1 - p0);
    }
    return ht;
}

/* calcProf with three vectors: sum of P[floordiv(floor(A*x + B*y + C*z), 128) & mask]. */
static inline double rt__prof3(const double *P, uint32_t mask, const double *A, const double *B,
                               const double *C, uint32_t n, double x, double y, double z)
{
    double s = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        double v = A[i] * x + B[i] * y + C[i] * z;
        /* floor(v) is an integer, so the scaling by 2^-7 is exact */
        double q = rt__floor(rt__floor(v) * RT_RECIP128);
        s += P[rt__low32(q) & mask];
    }
    return s;
}

/* A profile is usable: length a power of two in 1..RT_MAX_PROFILE, values finite. */
static inline rt_status rt__check_profile(const double *P, uint32_t len)
{
    if (!P) return RT_ERR_NULL;
    if (len == 0 || len > RT_MAX_PROFILE || (len & (len - 1)) != 0) return RT_ERR_PROFILE_LENGTH;
    for (uint32_t k = 0; k < len; k++)
        if (!isfinite(P[k])) return RT_ERR_PROFILE_VALUE;
    return RT_OK;
}

/* A vector of n components, each finite with |v| <= RT_MAX_VECTOR. */
static inline int rt__vector_ok(const double *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!(fabs(v[i]) <= (double)RT_MAX_VECTOR)) return 0;
    return 1;
}

#endif /* RT_SPACE_H */
