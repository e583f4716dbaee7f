/*
 * rt_internal.h - helpers shared by the core's .c files; not installed.
 *
 * JavaScript number semantics (SPEC 2) as inline functions, so the hot loops
 * of every generator use one definition of each.
 */
#ifndef RT_INTERNAL_H
#define RT_INTERNAL_H

#include <math.h>
#include <stdint.h>

#include "relfterrain.h"

/* The seed's numeric constants (its other constants are in seed.c). */
#define RT_RECIP128 (1.0 / 128.0)
#define RT_PI 3.141592653589793 /* Math.PI */
/* Math.PI * 1000 and Math.PI * 10000: a double product, rounded once. */
#define RT_PI1000 (RT_PI * 1000.0)
#define RT_PI10000 (RT_PI * 10000.0)

/* floor(v), exact, without a libm call on baseline x86-64: below 2^52 in
 * magnitude the truncating conversion to int64 is exact; at or above it (and
 * for NaN and infinities) v is its own floor.  copysign keeps floor(-0.0) =
 * -0.0 and is right for every other v, whose floor has v's sign. */
static inline double rt__floor(double v)
{
    if (!(fabs(v) < 4503599627370496.0)) return v;
    double r = (double)(int64_t)v;
    if (r > v) r -= 1.0;
    return copysign(r, v);
}

/* Math.round. */
static inline double rt__round_js(double v)
{
    double r = rt__floor(v);
    if (v - r >= 0.5) r += 1.0;
    return r;
}

/* The low 32 bits of ToInt32(v), as JavaScript's `v & mask` sees them.
 * Exact for every double: values beyond int64 are reduced with fmod, which is
 * exact.  Non-finite values give 0. */
static inline uint32_t rt__low32(double v)
{
    /* the conversion truncates toward zero, as ToInt32 does; int64 -> uint64
     * is reduction modulo 2^64, well defined for negatives */
    if (fabs(v) < 9.2e18) return (uint32_t)(uint64_t)(int64_t)v;
    if (!isfinite(v)) return 0;
    /* beyond int64: fmod is exact and keeps the residue modulo 2^32 */
    return (uint32_t)(uint64_t)(int64_t)fmod(trunc(v), 4294967296.0);
}

/* The low bits of an int64 in two's complement, without UB for negatives. */
static inline uint64_t rt__u64(int64_t v) { return (uint64_t)v; }

/* Is v an integer-valued double with |v| <= limit? */
static inline int rt__is_int_within(double v, double limit)
{
    return isfinite(v) && fabs(v) <= limit && v == floor(v);
}

/* Might the placed table hold a key (x, y) with x0 <= x <= x1?  Conservative
 * (a bounding box); 0 for NULL or an empty table.  placed.c */
int rt__placed_near(const rt_placed *p, int64_t x0, int64_t x1, int64_t y);

#endif /* RT_INTERNAL_H */
