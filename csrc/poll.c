/*
 * poll.c - interrupts: the watch every long-running function keeps (see
 * rt_poll in relfterrain.h and rt__watch in rt_internal.h), and a parallel
 * loop that honours it, built on rt_parallel_for.
 *
 * The caller's poll runs only on the thread that called the core function
 * (the Python binding's takes the GIL and runs the signal handlers, which
 * only that thread may do); worker threads see a stop through an atomic
 * flag, checked before every chunk of work.
 */
#include "relfterrain.h"
#include "rt_internal.h"

static int on_caller(const rt__watch *w)
{
#if RT_HAVE_THREADS
    return pthread_equal(pthread_self(), w->caller) != 0;
#else
    (void)w;
    return 1;
#endif
}

static void set_stop(rt__watch *w)
{
#if RT_HAVE_THREADS
    atomic_store_explicit(&w->stop, 1, memory_order_relaxed);
#else
    w->stop = 1;
#endif
}

int rt__watch_start(rt__watch *w, const rt_poll *poll)
{
    w->poll = poll && poll->fn ? poll : NULL;
    w->budget = RT_WATCH_BUDGET;
#if RT_HAVE_THREADS
    atomic_init(&w->stop, 0);
    w->caller = pthread_self();
#else
    w->stop = 0;
#endif
    if (w->poll && w->poll->fn(w->poll->ctx)) set_stop(w);
    return rt__watch_stopped(w);
}

int rt__watch_spend(rt__watch *w, int64_t work)
{
    if (!on_caller(w)) return rt__watch_stopped(w);
    w->budget -= work;
    if (w->budget > 0) return 0;
    w->budget = RT_WATCH_BUDGET;
    if (w->poll->fn(w->poll->ctx)) set_stop(w);
    return rt__watch_stopped(w);
}

/* ------------------------------------------------------------------------ */
/* The parallel loop                                                        */
/* ------------------------------------------------------------------------ */

/* Work of a chunk: about a quarter of the budget (~1 ms), so the caller's
 * thread polls every few chunks and a stop is seen within one. */
#define CHUNK_WORK (RT_WATCH_BUDGET / 4)

typedef struct watched_range {
    rt_range_fn fn;
    void *ctx;
    rt__watch *w;
    int64_t n, chunk, work_per_index;
#if RT_HAVE_THREADS
    atomic_llong next;
#else
    int64_t next;
#endif
} watched_range;

/* One "slot" of rt_parallel_for: take chunks until none are left or a stop. */
static void run_watched(void *ctx, int64_t begin, int64_t end)
{
    watched_range *s = ctx;
    for (int64_t slot = begin; slot < end; slot++) {
        for (;;) {
            if (rt__watch_stop(s->w, s->chunk * s->work_per_index)) return;
#if RT_HAVE_THREADS
            long long b = atomic_fetch_add(&s->next, (long long)s->chunk);
#else
            long long b = s->next;
            s->next += s->chunk;
#endif
            if (b >= s->n) break;
            int64_t e = (int64_t)b + s->chunk < s->n ? (int64_t)b + s->chunk : s->n;
            s->fn(s->ctx, (int64_t)b, e);
        }
    }
}

void rt__parallel_watch(int threads, int64_t n, int64_t work_per_index, rt_range_fn fn,
                        void *ctx, rt__watch *w)
{
    if (n <= 0 || rt__watch_stopped(w)) return;
    if (threads < 1) threads = 1;
    if (threads > RT_MAX_THREADS) threads = RT_MAX_THREADS;
    if (work_per_index < 1) work_per_index = 1;
    watched_range s;
    s.fn = fn;
    s.ctx = ctx;
    s.w = w;
    s.n = n;
    s.work_per_index = work_per_index;
    /* about 1 ms a chunk, and at least 8 chunks a thread to even out */
    int64_t chunk = CHUNK_WORK / work_per_index;
    int64_t even = n / ((int64_t)threads * 8);
    if (chunk > even) chunk = even;
    s.chunk = chunk < 1 ? 1 : chunk;
#if RT_HAVE_THREADS
    atomic_init(&s.next, 0);
#else
    s.next = 0;
#endif
    /* one slot per thread; each takes chunks from the shared counter */
    int64_t slots = threads < n ? threads : n;
    rt_parallel_for((int)slots, slots, run_watched, &s);
}
