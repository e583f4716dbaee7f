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
#include <stdlib.h>

/* Chunks of the range are handed out from a shared counter, so a thread that
 * runs slower (a busy core) simply takes fewer of them.  Each index is done
 * exactly once by one thread, and the work on an index does not depend on
 * which thread does it, so the result is the same.
 *
 * The caller never waits for a thread that has not taken a chunk: on a busy
 * machine a new thread may not run for milliseconds, and joining it made a
 * small grid on two threads 7 times slower than on one.  So the helper
 * threads are detached, the shared state is on the heap with a reference
 * count (the last thread out frees it), and the caller waits only while
 * some thread is inside a chunk (`active`).  A thread counts itself active
 * before it claims a chunk; once the counter has passed the end no claim
 * succeeds, so a thread starting after the caller has returned touches
 * nothing but the shared state. */
typedef struct shared_range {
    rt_range_fn fn;
    void *ctx;
    int64_t n, chunk, parts;
    atomic_llong next;
    atomic_int active; /* threads inside (or about to claim) a chunk */
    atomic_int refs;   /* the caller and every started thread */
    pthread_mutex_t lock;
    pthread_cond_t idle; /* signalled when active drops to 0 */
} shared_range;

static void range_release(shared_range *s)
{
    if (atomic_fetch_sub(&s->refs, 1) == 1) {
        pthread_cond_destroy(&s->idle);
        pthread_mutex_destroy(&s->lock);
        free(s);
    }
}

/* Guided chunks: a thread takes 1/parts of what is left (never less than
 * chunk), so the chunks shrink towards the end and a thread that the
 * system slowed leaves little for the others to wait on. */
static void run_chunks(shared_range *s)
{
    for (;;) {
        atomic_fetch_add(&s->active, 1);
        long long begin = atomic_load(&s->next), take = 0;
        int got = 0;
        while (begin < s->n) {
            take = (s->n - begin) / s->parts;
            if (take < s->chunk) take = s->chunk;
            if (atomic_compare_exchange_weak(&s->next, &begin, begin + take)) {
                got = 1;
                break;
            }
        }
        if (got) {
            int64_t end = begin + take < s->n ? begin + take : s->n;
            s->fn(s->ctx, (int64_t)begin, end);
        }
        pthread_mutex_lock(&s->lock);
        if (atomic_fetch_sub(&s->active, 1) == 1) pthread_cond_broadcast(&s->idle);
        pthread_mutex_unlock(&s->lock);
        if (!got) return;
    }
}

static void *run_thread(void *arg)
{
    shared_range *s = arg;
    run_chunks(s);
    range_release(s);
    return NULL;
}
#endif

void rt_parallel_for(int threads, int64_t n, rt_range_fn fn, void *ctx)
{
    if (n <= 0) return;
    if (threads > RT_MAX_THREADS) threads = RT_MAX_THREADS;
    if (threads > n) threads = (int)n;
#if RT_HAVE_PTHREADS
    shared_range *s = threads > 1 ? malloc(sizeof *s) : NULL;
    if (s && pthread_mutex_init(&s->lock, NULL) != 0) {
        free(s);
        s = NULL;
    }
    if (s && pthread_cond_init(&s->idle, NULL) != 0) {
        pthread_mutex_destroy(&s->lock);
        free(s);
        s = NULL;
    }
    if (s) {
        s->fn = fn;
        s->ctx = ctx;
        s->n = n;
        /* chunks from a quarter of a thread's share down to 1/64 of it:
         * large enough that taking one costs nothing, small enough that a
         * thread the system stops while it holds one leaves little to wait on */
        s->parts = 4 * (int64_t)threads;
        s->chunk = n / ((int64_t)threads * 64);
        if (s->chunk < 1) s->chunk = 1;
        atomic_init(&s->next, 0);
        atomic_init(&s->active, 0);
        atomic_init(&s->refs, 1);
        pthread_attr_t attr;
        int have_attr = pthread_attr_init(&attr) == 0 &&
                        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0;
        for (int k = 1; have_attr && k < threads; k++) {
            pthread_t tid;
            atomic_fetch_add(&s->refs, 1);
            if (pthread_create(&tid, &attr, run_thread, s) != 0) {
                atomic_fetch_sub(&s->refs, 1);
                break; /* the threads started and the caller do it all */
            }
        }
        if (have_attr) pthread_attr_destroy(&attr);
        run_chunks(s); /* the calling thread works too, and finishes what is left */
        pthread_mutex_lock(&s->lock);
        while (atomic_load(&s->active) > 0) pthread_cond_wait(&s->idle, &s->lock);
        pthread_mutex_unlock(&s->lock);
        range_release(s);
        return;
    }
#endif
    fn(ctx, 0, n);
}
