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

#if defined(_WIN32) || !defined(__has_include)
#define RT_HAVE_THREADS 0
#elif __has_include(<pthread.h>) && !defined(__STDC_NO_ATOMICS__)
#define RT_HAVE_THREADS 1
#include <pthread.h>
#include <stdatomic.h>
#else
#define RT_HAVE_THREADS 0
#endif

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

/* The ground colours of a row of map codes on AVX-512 VBMI
 * (map_colours_vbmi.c): pixels [0, k) done, k a multiple of 64 (0 on other
 * CPUs, or from the first chunk with a code >= min(ntable, 64)), their
 * codes counted into counts[]; rt__map_colours_vbmi_ok: this CPU runs it. */
int64_t rt__map_colours_row_vbmi(const uint8_t *src, int64_t n, const uint8_t *table,
                                 int ntable, uint8_t *dst, int64_t *counts);
int rt__map_colours_vbmi_ok(void);

/* Might the placed table hold a key (x, y) with x0 <= x <= x1?  Conservative
 * (a bounding box); 0 for NULL or an empty table.  placed.c */
int rt__placed_near(const rt_placed *p, int64_t x0, int64_t x1, int64_t y);

/* ------------------------------------------------------------------------ */
/* Interrupts: the one mechanism behind every `const rt_poll *poll`          */
/* ------------------------------------------------------------------------ */

/* One watch per call, started on the calling thread.  Loops, on any thread,
 * charge their work with rt__watch_stop(w, work) (or run through
 * rt__parallel_watch) and stop when it returns nonzero.  Work is counted in
 * units of about one cheap element (a byte compared, a double stored);
 * RT_WORK_POINT is one profile sum or terra evaluation.  The caller's thread
 * calls the poll each RT_WATCH_BUDGET units (a few ms); other threads only
 * read the stop flag (one relaxed atomic load). */
#define RT_WATCH_BUDGET ((int64_t)1 << 22)
#define RT_WORK_POINT 32

typedef struct rt__watch {
    const rt_poll *poll; /* NULL: nothing to poll (and nothing can stop) */
    int64_t budget;      /* work left before the next poll (caller's thread only) */
#if RT_HAVE_THREADS
    atomic_int stop;
    pthread_t caller;
#else
    int stop;
#endif
} rt__watch;

/* Set up *w for a call with this poll (may be NULL) and make the first poll,
 * before the call writes anything: nonzero if it says stop.  poll.c */
int rt__watch_start(rt__watch *w, const rt_poll *poll);
/* The slow path of rt__watch_stop (a poll is set).  poll.c */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
int rt__watch_spend(rt__watch *w, int64_t work);
#if defined(__GNUC__)
#define RT__UNLIKELY(c) __builtin_expect(!!(c), 0)
#else
#define RT__UNLIKELY(c) (c)
#endif

/* Has the call been asked to stop? */
static inline int rt__watch_stopped(rt__watch *w)
{
#if RT_HAVE_THREADS
    return atomic_load_explicit(&w->stop, memory_order_relaxed);
#else
    return w->stop;
#endif
}

/* Charge `work` units; nonzero when the loop must stop (now or earlier, on
 * any thread).  Safe on every thread; only the caller's calls the poll. */
static inline int rt__watch_stop(rt__watch *w, int64_t work)
{
    if (RT__UNLIKELY(rt__watch_stopped(w))) return 1;
    return RT__UNLIKELY(w->poll != NULL) ? rt__watch_spend(w, work) : 0;
}

/* For loops of small steps: work accumulates in *pending (a local of the
 * loop's thread) and w is checked once it reaches RT_WATCH_STEP units, so a
 * step costs an add and a compare. */
#define RT_WATCH_STEP ((int64_t)1 << 16)
static inline int rt__watch_charge(rt__watch *w, int64_t *pending, int64_t work)
{
    *pending += work;
    if (!RT__UNLIKELY(*pending >= RT_WATCH_STEP)) return 0;
    int64_t spent = *pending;
    *pending = 0;
    return rt__watch_stop(w, spent);
}

/* The starts of rt_find_good_sites in the order they are searched (sites.c):
 * sorted by (strip, x, k), charging w; 0 when sorted, 1 when w said stop
 * (the order is then unspecified), -1 when out of memory. */
typedef struct rt__start_key {
    int64_t strip;
    double x;
    int64_t k;
} rt__start_key;
int rt__sort_starts(rt__start_key *a, int64_t n, rt__watch *w);

/* The status a watched call returns when its work is done (or abandoned). */
static inline rt_status rt__watch_status(rt__watch *w)
{
    return rt__watch_stopped(w) ? RT_ERR_INTERRUPTED : RT_OK;
}

/* rt_parallel_for with interrupts: fn(ctx, begin, end) over [0, n) on
 * `threads` threads, in chunks of about 1 ms of work (work_per_index units
 * an index) taken from a shared counter, w checked before each chunk, so
 * every thread stops within a chunk of a stop and the caller's thread polls
 * while the others work.  Each index is done at most once (exactly once
 * unless stopped); the result does not depend on the thread count.  Built
 * on rt_parallel_for.  poll.c */
void rt__parallel_watch(int threads, int64_t n, int64_t work_per_index, rt_range_fn fn,
                        void *ctx, rt__watch *w);

/* rt_round_f32 for the rows of a float32 grid, with the vectors of the
 * variant `resolved` (rt_simd_resolve's; the same bits in every variant),
 * by streaming stores where `stream` asks and the variant has them, which
 * the caller makes visible by rt__round_f32_fence once it has written its
 * rows.  common.c */
void rt__round_f32_rows(float *dst, const double *src, int64_t n, int stream, int resolved);
void rt__round_f32_fence(void);

#endif /* RT_INTERNAL_H */
