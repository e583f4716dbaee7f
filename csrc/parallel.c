/*
 * parallel.c - split a range of rows (or points) across threads.
 *
 * Threads take chunks of the range and write only the outputs of their own
 * chunks, so the result does not depend on the thread count or on timing.  POSIX threads where
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

#if RT_HAVE_PTHREADS
#include <stdatomic.h>

/* Chunks of the range are handed out from a shared counter, so a thread that
 * runs slower (a busy core) simply takes fewer of them.  Each index is done
 * exactly once by one thread, and the work on an index does not depend on
 * which thread does it, so the result is the same. */
typedef struct shared_range {
    rt_range_fn fn;
    void *ctx;
    int64_t n, chunk, parts;
    atomic_llong next;
} shared_range;

/* Guided chunks: a thread takes 1/parts of what is left (never less than
 * chunk), so the chunks shrink towards the end and a thread that the
 * system slowed leaves little for the others to wait on. */
static void *run_chunks(void *arg)
{
    shared_range *s = arg;
    long long begin = atomic_load(&s->next);
    for (;;) {
        long long take;
        do {
            if (begin >= s->n) return NULL;
            take = (s->n - begin) / s->parts;
            if (take < s->chunk) take = s->chunk;
        } while (!atomic_compare_exchange_weak(&s->next, &begin, begin + take));
        int64_t end = begin + take < s->n ? begin + take : s->n;
        s->fn(s->ctx, (int64_t)begin, end);
        begin = atomic_load(&s->next);
    }
}
#endif

void rt_parallel_for(int threads, int64_t n, rt_range_fn fn, void *ctx)
{
    if (n <= 0) return;
    if (threads > RT_MAX_THREADS) threads = RT_MAX_THREADS;
    if (threads > n) threads = (int)n;
#if RT_HAVE_PTHREADS
    if (threads > 1) {
        shared_range s;
        s.fn = fn;
        s.ctx = ctx;
        s.n = n;
        /* chunks from half a thread's share down to 1/64 of it: large
         * enough that taking one costs nothing, small enough at the end to
         * even out */
        s.parts = 2 * (int64_t)threads;
        s.chunk = n / ((int64_t)threads * 64);
        if (s.chunk < 1) s.chunk = 1;
        atomic_init(&s.next, 0);
        pthread_t tids[RT_MAX_THREADS];
        int started[RT_MAX_THREADS];
        for (int k = 1; k < threads; k++)
            started[k] = pthread_create(&tids[k], NULL, run_chunks, &s) == 0;
        run_chunks(&s); /* the calling thread works too, and finishes what is left */
        for (int k = 1; k < threads; k++)
            if (started[k]) pthread_join(tids[k], NULL);
        return;
    }
#endif
    fn(ctx, 0, n);
}
