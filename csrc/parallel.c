/*
 * parallel.c - split a range of rows (or points) across threads.
 *
 * Each thread gets one contiguous part and writes only its own outputs, so
 * the result does not depend on the thread count.  POSIX threads where
 * available; elsewhere everything runs on the calling thread.
 */
#include "relfterrain.h"

#if defined(_WIN32) || !defined(__has_include)
#define RT_HAVE_PTHREADS 0
#elif __has_include(<pthread.h>)
#define RT_HAVE_PTHREADS 1
#include <pthread.h>
#else
#define RT_HAVE_PTHREADS 0
#endif

#define RT_MAX_THREADS 256

typedef struct part {
    rt_range_fn fn;
    void *ctx;
    int64_t begin, end;
} part;

#if RT_HAVE_PTHREADS
static void *run_part(void *arg)
{
    part *p = arg;
    p->fn(p->ctx, p->begin, p->end);
    return NULL;
}
#endif

void rt_parallel_for(int threads, int64_t n, rt_range_fn fn, void *ctx)
{
    if (n <= 0) return;
    if (threads > RT_MAX_THREADS) threads = RT_MAX_THREADS;
    if (threads > n) threads = (int)n;
#if RT_HAVE_PTHREADS
    if (threads > 1) {
        part parts[RT_MAX_THREADS];
        pthread_t tids[RT_MAX_THREADS];
        int started[RT_MAX_THREADS];
        for (int k = 0; k < threads; k++) {
            parts[k].fn = fn;
            parts[k].ctx = ctx;
            parts[k].begin = n / threads * k + (k < n % threads ? k : n % threads);
            parts[k].end = parts[k].begin + n / threads + (k < n % threads ? 1 : 0);
        }
        for (int k = 1; k < threads; k++)
            started[k] = pthread_create(&tids[k], NULL, run_part, &parts[k]) == 0;
        fn(ctx, parts[0].begin, parts[0].end);
        for (int k = 1; k < threads; k++) {
            if (started[k])
                pthread_join(tids[k], NULL);
            else /* could not start a thread: do its part here */
                fn(ctx, parts[k].begin, parts[k].end);
        }
        return;
    }
#endif
    fn(ctx, 0, n);
}
