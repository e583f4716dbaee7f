/*
 * helpers.c - the helpers every binding file shares: mapping core status
 * codes to exceptions, argument checks, input and output arrays (checked in
 * one place, overlap included), and the placed table's copy-on-write
 * snapshots.  No module definition here (that is module.c), so the binding
 * files depend on this one and it on none of them.
 */
#include "helpers.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <pythread.h>

PyObject *rtpy_raise(rt_status status, const char *what)
{
    const char *msg = rt_strerror(status);
    /* a signal handler's exception, raised during the call's poll */
    if (status != RT_OK && PyErr_Occurred()) return NULL;
    switch (status) {
    case RT_OK:
        PyErr_SetString(PyExc_SystemError, "rtpy_raise called without an error");
        break;
    case RT_ERR_INTERRUPTED:
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        break;
    case RT_ERR_NOMEM:
        PyErr_Format(PyExc_MemoryError, "%s: %s", what, msg);
        break;
    case RT_ERR_PLACED_VALUE:
        PyErr_Format(PyExc_TypeError, "%s: %s", what, msg);
        break;
    case RT_ERR_NULL:
        PyErr_Format(PyExc_SystemError, "%s: %s", what, msg);
        break;
    default:
        PyErr_Format(PyExc_ValueError, "%s: %s", what, msg);
        break;
    }
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Interrupts                                                               */
/* ------------------------------------------------------------------------ */

static double monotonic_seconds(void)
{
#ifdef CLOCK_MONOTONIC
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0) return (double)ts.tv_sec + 1e-9 * ts.tv_nsec;
#endif
    return -1.0; /* no clock: check at every poll */
}

static int poll_signals(void *ctx)
{
    rtpy_poll *p = ctx;
    double now = monotonic_seconds();
    if (now >= 0.0 && now < p->next) return 0;
    p->next = now + RTPY_POLL_SECONDS;
    /* the thread's own thread state: the exception set here is still set
     * when the caller takes the GIL back after the core call */
    PyGILState_STATE g = PyGILState_Ensure();
    int stop = PyErr_CheckSignals() < 0;
    PyGILState_Release(g);
    return stop;
}

const rt_poll *rtpy_poll_init(rtpy_poll *p)
{
    p->poll.fn = poll_signals;
    p->poll.ctx = p;
    double now = monotonic_seconds();
    p->next = now >= 0.0 ? now + RTPY_POLL_SECONDS : 0.0;
    return &p->poll;
}

void rtpy_call_begin(rtpy_call *c, int64_t work, int count, PyArrayObject *const *arrays,
                     const int *given)
{
    int any_given = 0;
    unsigned long long need = 0;
    c->count = count;
    for (int k = 0; k < count; k++) {
        c->arrays[k] = arrays[k];
        c->scratch[k] = NULL;
        c->data[k] = arrays[k] ? PyArray_DATA(arrays[k]) : NULL;
        if (arrays[k] && given && given[k]) {
            any_given = 1;
            need += (unsigned long long)PyArray_NBYTES(arrays[k]);
        }
    }
    c->poll = rtpy_poll_init(&c->pl);
    if (!any_given) return;
    if (work <= RTPY_ROWS_POINTS) {
        c->poll = NULL; /* short: in place, not interrupted */
        return;
    }
    int ok = need > 0 && rtpy_check_alloc(need, "out") == 0;
    if (!ok) PyErr_Clear(); /* no room for a scratch: written in place */
    for (int k = 0; ok && k < count; k++) {
        if (!(arrays[k] && given[k])) continue;
        c->scratch[k] = PyMem_RawMalloc((size_t)PyArray_NBYTES(arrays[k]));
        if (!c->scratch[k]) ok = 0;
    }
    for (int k = 0; k < count; k++) {
        if (!ok) {
            PyMem_RawFree(c->scratch[k]);
            c->scratch[k] = NULL;
        } else if (c->scratch[k]) {
            c->data[k] = c->scratch[k];
        }
    }
}

void rtpy_call_end(rtpy_call *c, rt_status status)
{
    for (int k = 0; k < c->count; k++) {
        if (c->scratch[k] && status == RT_OK)
            memcpy(PyArray_DATA(c->arrays[k]), c->scratch[k],
                   (size_t)PyArray_NBYTES(c->arrays[k]));
        PyMem_RawFree(c->scratch[k]);
        c->scratch[k] = NULL;
    }
}

unsigned long long rtpy_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || size <= 0) return 0; /* unknown: no limit */
    if ((unsigned long long)pages > ULLONG_MAX / (unsigned long long)size) return ULLONG_MAX;
    return (unsigned long long)pages * (unsigned long long)size;
}

static double gib(unsigned long long bytes)
{
    return (double)bytes / (1024.0 * 1024.0 * 1024.0);
}

int rtpy_check_alloc_for(unsigned long long bytes, const char *what, const char *detail)
{
    unsigned long long phys = rtpy_physical_memory();
    if (bytes > (unsigned long long)PY_SSIZE_T_MAX || (phys > 0 && bytes > phys)) {
        char need[96], have[48];
        if (bytes == ULLONG_MAX)
            PyOS_snprintf(need, sizeof need, "more than 2**64 bytes");
        else
            PyOS_snprintf(need, sizeof need, "%llu bytes (%.1f GiB) in all", bytes, gib(bytes));
        if (phys > 0)
            PyOS_snprintf(have, sizeof have, "%.1f GiB", gib(phys));
        else
            PyOS_snprintf(have, sizeof have, "unknown");
        PyErr_Format(PyExc_MemoryError,
                     "%s: the call needs %s%s%s, more than this machine's physical memory "
                     "(%s); nothing was allocated",
                     what, need, detail ? " for " : "", detail ? detail : "", have);
        return -1;
    }
    return 0;
}

int rtpy_check_alloc(unsigned long long bytes, const char *what)
{
    return rtpy_check_alloc_for(bytes, what, NULL);
}

static size_t itemsize_of(int typenum)
{
    PyArray_Descr *d = PyArray_DescrFromType(typenum);
    size_t n = d ? (size_t)PyDataType_ELSIZE(d) : 8;
    Py_XDECREF(d);
    return n;
}

/* nbytes of an array of `ndim` dims and itemsize, or ULLONG_MAX on overflow */
static unsigned long long array_bytes(int ndim, const npy_intp *dims, size_t itemsize)
{
    unsigned long long n = itemsize;
    for (int k = 0; k < ndim; k++) {
        if (dims[k] < 0) return ULLONG_MAX;
        if (dims[k] != 0 && n > ULLONG_MAX / (unsigned long long)dims[k]) return ULLONG_MAX;
        n *= (unsigned long long)dims[k];
    }
    return n;
}

int rtpy_threads(PyObject *obj, int *out)
{
    long v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "threads: must be an int >= 1 (or None for all cores)");
        return -1;
    }
    if (v < 1) {
        PyErr_Format(PyExc_ValueError, "threads: must be >= 1, got %ld", v);
        return -1;
    }
    *out = v > RT_MAX_THREADS ? RT_MAX_THREADS : (int)v;
    return 0;
}

/* The usable cores: the affinity mask's CPUs where there is one. */
static int usable_cores(void)
{
#if defined(__linux__) && defined(CPU_COUNT)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        const int n = CPU_COUNT(&set);
        if (n > 0) return n;
    }
#endif
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (n > RT_MAX_THREADS ? RT_MAX_THREADS : (int)n) : 1;
}

/* Tasks runnable on the machine right now, this thread included (Linux's
 * /proc/loadavg, fourth field "running/total"); -1 when unknown. */
static int runnable_tasks(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f) return -1;
    double l1, l5, l15;
    int running = -1, total;
    if (fscanf(f, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &running, &total) != 5) running = -1;
    fclose(f);
    return running;
}

/* The share of the last 10 s in which some task waited for a CPU (Linux
 * pressure stall information, /proc/pressure/cpu), in percent; -1 when
 * unknown. */
#define RTPY_BUSY_PRESSURE 20.0
static double cpu_pressure(void)
{
    FILE *f = fopen("/proc/pressure/cpu", "r");
    if (!f) return -1.0;
    double some = -1.0;
    if (fscanf(f, "some avg10=%lf", &some) != 1) some = -1.0;
    fclose(f);
    return some;
}

/* The look at the machine's load (below) reads two files of /proc, some
 * 17 us: a sixth of a 400 x 400 height_grid (0.105 ms on one thread; the
 * core runs it on one thread anyway).  Its answer is kept for
 * RTPY_LOAD_TTL_NS: the load of the last few milliseconds is as good a
 * guess of the next as the instant's (which may change before the threads
 * start anyway).  The GIL is held here (argument parsing), which keeps
 * the two statics consistent. */
#define RTPY_LOAD_TTL_NS ((int64_t)10 * 1000 * 1000)
static int64_t load_seen_ns = -1; /* when idle_cores last looked; -1: never */
static int load_cores = 1;        /* what it found */

static int64_t monotonic_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return -1;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The usable cores that other tasks leave idle (one when tasks have been
 * waiting for a CPU). */
static int idle_cores(void)
{
    int cores = usable_cores();
    if (cores <= 1) return 1;
    /* the cores other tasks keep busy would share their time with ours:
     * a thread of ours the system stops for milliseconds while it holds
     * rows makes the whole call wait, so only idle cores are used */
    /* tasks have been waiting for a CPU much of the last seconds: no core
     * is idle for long, whatever the instant says */
    if (cpu_pressure() >= RTPY_BUSY_PRESSURE) return 1;
    const int running = runnable_tasks();
    if (running > 1) {
        const int idle = cores - (running - 1);
        cores = idle < 1 ? 1 : idle;
    }
    return cores;
}

int rtpy_auto_threads(int64_t points)
{
    /* below this many points the core runs one thread anyway (and the
     * look at the machine's load would cost more than it saves) */
    if (points < RTPY_AUTO_THREAD_POINTS) return 1;
    const int64_t now = monotonic_ns();
    if (now >= 0 && load_seen_ns >= 0 && now - load_seen_ns < RTPY_LOAD_TTL_NS) return load_cores;
    load_cores = idle_cores();
    load_seen_ns = now;
    return load_cores;
}

int rtpy_threads_auto(PyObject *obj, int64_t points, int *out)
{
    if (obj == Py_None) {
        *out = rtpy_auto_threads(points);
        return 0;
    }
    return rtpy_threads(obj, out);
}

int rtpy_check_block(long long nx, long long ny, long long c0, long long r0, size_t itemsize)
{
    if (nx < 1) {
        PyErr_Format(PyExc_ValueError, "nx: must be >= 1, got %lld", nx);
        return -1;
    }
    if (ny < 1) {
        PyErr_Format(PyExc_ValueError, "ny: must be >= 1, got %lld", ny);
        return -1;
    }
    if (c0 < 0 || r0 < 0) {
        PyErr_Format(PyExc_ValueError, "c0, r0: block offsets must be >= 0, got %lld, %lld",
                     c0, r0);
        return -1;
    }
    /* nx*ny*itemsize must fit in a Py_ssize_t before anything is allocated */
    if ((unsigned long long)nx > (unsigned long long)PY_SSIZE_T_MAX / itemsize / (unsigned long long)ny) {
        PyErr_Format(PyExc_MemoryError,
                     "nx, ny: a %lld x %lld grid is too large to allocate", ny, nx);
        return -1;
    }
    return rtpy_check_alloc((unsigned long long)nx * (unsigned long long)ny * itemsize, "nx, ny");
}

/* ------------------------------------------------------------------------ */
/* Fresh outputs: a small cache of large data buffers                       */
/* ------------------------------------------------------------------------ */

/* A fresh output of many megabytes is new memory from the system: its first
 * write faults every page in and the kernel zeroes it first, which made a
 * height grid into a fresh array 2-3 times slower than into out= (the
 * computation writes as fast as the memory takes it).  Fresh outputs of at
 * least POOL_MIN_BYTES therefore get a NumPy data handler of their own
 * whose `free` keeps a few recently freed buffers (at most pool_cap bytes
 * in all; RELFTERRAIN_OUTPUT_CACHE_MB sets it, 0 turns the cache off) and
 * whose `malloc` hands one of exactly the size asked back: the arrays of a
 * loop of grid calls reuse memory whose pages are already in place.  The
 * arrays own their data as any NumPy array; only the memory behind them is
 * recycled.  A buffer taken from the cache holds old values, as any
 * np.empty may: every output is written entirely by the call. */
/* 64 KiB: a 256 x 256 map tile's grids (512 and 64 KiB) too; below
 * 1 MiB glibc's malloc hands back fresh pages for them on every call (a
 * quarter of the tile's time, 2026-11-27) */
#define POOL_MIN_BYTES ((size_t)1 << 16)
#define POOL_SLOTS 16

static struct {
    PyThread_type_lock lock;
    void *ptr[POOL_SLOTS];
    size_t size[POOL_SLOTS];
    unsigned long long age[POOL_SLOTS];
    unsigned long long clock;
    size_t bytes, cap;
} pool;

static void *pool_malloc(void *ctx, size_t size)
{
    (void)ctx;
    if (size >= POOL_MIN_BYTES && pool.lock) {
        void *p = NULL;
        PyThread_acquire_lock(pool.lock, WAIT_LOCK);
        int best = -1;
        for (int k = 0; k < POOL_SLOTS; k++) /* the most recent buffer of that size */
            if (pool.ptr[k] && pool.size[k] == size && (best < 0 || pool.age[k] > pool.age[best]))
                best = k;
        if (best >= 0) {
            p = pool.ptr[best];
            pool.ptr[best] = NULL;
            pool.bytes -= size;
        }
        PyThread_release_lock(pool.lock);
        if (p) return p;
    }
    /* large buffers on a 64-byte boundary (malloc's are 16 bytes past a
     * page): the kernels' aligned streaming stores of whole cache lines
     * take them, and no vector of theirs straddles two lines */
    void *p = NULL;
    if (size < POOL_MIN_BYTES || posix_memalign(&p, 64, size) != 0) p = malloc(size ? size : 1);
#ifdef MADV_HUGEPAGE
    /* as NumPy's own allocator: huge pages fault 512 times less often */
    if (p && size >= ((size_t)4 << 20)) {
        const uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
        const uintptr_t e = ((uintptr_t)p + size) & ~(uintptr_t)4095;
        if (e > a) madvise((void *)a, e - a, MADV_HUGEPAGE);
    }
#endif
    return p;
}

static void *pool_calloc(void *ctx, size_t nelem, size_t elsize)
{
    (void)ctx;
    return calloc(nelem ? nelem : 1, elsize ? elsize : 1);
}

static void *pool_realloc(void *ctx, void *ptr, size_t new_size)
{
    (void)ctx;
    return realloc(ptr, new_size ? new_size : 1);
}

static void pool_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    if (!ptr) return;
    if (size >= POOL_MIN_BYTES && size <= pool.cap && pool.lock) {
        void *evict[POOL_SLOTS];
        int ne = 0;
        PyThread_acquire_lock(pool.lock, WAIT_LOCK);
        /* room: the oldest buffers go back to the system first */
        for (;;) {
            int oldest = -1, empty = -1;
            for (int k = 0; k < POOL_SLOTS; k++) {
                if (!pool.ptr[k]) {
                    if (empty < 0) empty = k;
                } else if (oldest < 0 || pool.age[k] < pool.age[oldest]) {
                    oldest = k;
                }
            }
            if (empty >= 0 && pool.bytes + size <= pool.cap) {
                pool.ptr[empty] = ptr;
                pool.size[empty] = size;
                pool.age[empty] = ++pool.clock;
                pool.bytes += size;
                ptr = NULL;
                break;
            }
            if (oldest < 0) break;
            evict[ne++] = pool.ptr[oldest];
            pool.bytes -= pool.size[oldest];
            pool.ptr[oldest] = NULL;
        }
        PyThread_release_lock(pool.lock);
        for (int k = 0; k < ne; k++) free(evict[k]);
    }
    free(ptr);
}

static PyDataMem_Handler pool_handler = {
    "relfterrain_output_cache",
    1,
    {NULL, pool_malloc, pool_calloc, pool_realloc, pool_free},
};

/* The handler's capsule, made on first use (NULL: no cache). */
static PyObject *pool_capsule(void)
{
    static PyObject *capsule = NULL;
    static int tried = 0;
    if (tried) return capsule;
    tried = 1;
    unsigned long long phys = rtpy_physical_memory();
    unsigned long long cap = phys > 0 ? phys / 8 : (1ull << 30);
    if (cap > (1ull << 30)) cap = 1ull << 30;
    const char *env = getenv("RELFTERRAIN_OUTPUT_CACHE_MB");
    if (env && *env) {
        char *end;
        const double v = strtod(env, &end);
        if (end != env && *end == '\0' && v >= 0.0 && v < 1e9) cap = (unsigned long long)(v * 1048576.0);
    }
    if (cap < POOL_MIN_BYTES) return NULL;
    pool.cap = (size_t)cap;
    pool.lock = PyThread_allocate_lock();
    if (!pool.lock) return NULL;
    capsule = PyCapsule_New(&pool_handler, "mem_handler", NULL);
    if (!capsule) {
        PyErr_Clear();
        PyThread_free_lock(pool.lock);
        pool.lock = NULL;
    }
    return capsule;
}

/* A fresh C-contiguous array; large ones through the cache above. */
static PyArrayObject *fresh_array(int ndim, const npy_intp *dims, int typenum, size_t nbytes)
{
    PyObject *h = nbytes >= POOL_MIN_BYTES ? pool_capsule() : NULL;
    PyObject *old = h ? PyDataMem_SetHandler(h) : NULL;
    if (h && !old) PyErr_Clear(); /* no handler set: NumPy's own */
    PyArrayObject *a = (PyArrayObject *)PyArray_EMPTY(ndim, (npy_intp *)dims, typenum, 0);
    if (old) {
        PyObject *mine = PyDataMem_SetHandler(old);
        Py_XDECREF(mine);
        Py_DECREF(old);
        if (!mine) {
            Py_XDECREF(a);
            return NULL;
        }
    }
    return a;
}

PyArrayObject *rtpy_output(PyObject *obj, const char *name, int typenum, int ndim,
                           const npy_intp *dims)
{
    if (obj == NULL || obj == Py_None) {
        size_t itemsize = itemsize_of(typenum);
        const unsigned long long nbytes = array_bytes(ndim, dims, itemsize);
        if (rtpy_check_alloc(nbytes, name) < 0) return NULL;
        /* NULL with MemoryError if it cannot be allocated */
        return fresh_array(ndim, dims, typenum, (size_t)nbytes);
    }
    if (!PyArray_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: must be a numpy.ndarray, got %.100s", name,
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    PyArrayObject *a = (PyArrayObject *)obj;
    PyArray_Descr *want = PyArray_DescrFromType(typenum);
    int same = PyArray_EquivTypes(PyArray_DESCR(a), want) && PyArray_ISNBO(PyArray_DESCR(a)->byteorder);
    if (!same) {
        PyErr_Format(PyExc_TypeError, "%s: dtype must be %S, got %S", name, (PyObject *)want,
                     (PyObject *)PyArray_DESCR(a));
        Py_DECREF(want);
        return NULL;
    }
    Py_DECREF(want);
    int shape_ok = PyArray_NDIM(a) == ndim;
    for (int k = 0; shape_ok && k < ndim; k++) shape_ok = PyArray_DIM(a, k) == dims[k];
    if (!shape_ok) {
        PyObject *want_shape = PyTuple_New(ndim);
        PyObject *got_shape = PyTuple_New(PyArray_NDIM(a));
        if (want_shape && got_shape) {
            for (int k = 0; k < ndim; k++)
                PyTuple_SET_ITEM(want_shape, k, PyLong_FromSsize_t(dims[k]));
            for (int k = 0; k < PyArray_NDIM(a); k++)
                PyTuple_SET_ITEM(got_shape, k, PyLong_FromSsize_t(PyArray_DIM(a, k)));
            PyErr_Format(PyExc_ValueError, "%s: shape must be %S, got %S", name, want_shape,
                         got_shape);
        }
        Py_XDECREF(want_shape);
        Py_XDECREF(got_shape);
        return NULL;
    }
    if (!PyArray_IS_C_CONTIGUOUS(a) || !PyArray_ISALIGNED(a)) {
        PyErr_Format(PyExc_ValueError, "%s: must be C-contiguous and aligned", name);
        return NULL;
    }
    if (!PyArray_ISWRITEABLE(a)) {
        PyErr_Format(PyExc_ValueError, "%s: must be writeable", name);
        return NULL;
    }
    Py_INCREF(a);
    return a;
}

PyArrayObject *rtpy_input(PyObject *obj, const char *name, int typenum, int min_ndim,
                          int max_ndim)
{
    PyArray_Descr *d = PyArray_DescrFromType(typenum); /* stolen below */
    PyObject *a = PyArray_FromAny(obj, d, min_ndim, max_ndim, NPY_ARRAY_IN_ARRAY, NULL);
    if (!a) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        int is_type = type && PyErr_GivenExceptionMatches(type, PyExc_TypeError);
        PyErr_Format(is_type ? PyExc_TypeError : PyExc_ValueError,
                     "%s: must be %s array-like of real numbers convertible to %s (%S)", name,
                     min_ndim == 1 && max_ndim == 1 ? "a 1-D" : "an",
                     typenum == NPY_FLOAT64 ? "float64" : "the expected type",
                     value ? value : Py_None);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        return NULL;
    }
    return (PyArrayObject *)a;
}

PyArrayObject *rtpy_input_1d(PyObject *obj, const char *name, int typenum)
{
    return rtpy_input(obj, name, typenum, 1, 1);
}

_Static_assert(RT_MAX_PROFILE == (1u << 24), "the message of rtpy_profile_check says 2**24");

int rtpy_profile_check(PyArrayObject *prof)
{
    const npy_intp n = PyArray_DIM(prof, 0);
    if (n < 1 || n > (npy_intp)RT_MAX_PROFILE || (n & (n - 1)) != 0) {
        PyErr_Format(PyExc_ValueError,
                     "profile: length must be a power of two between 1 and 2**24, got %zd",
                     (Py_ssize_t)n);
        return -1;
    }
    const double *p = PyArray_DATA(prof);
    for (npy_intp k = 0; k < n; k++) {
        if (isfinite(p[k])) continue;
        PyObject *v = PyFloat_FromDouble(p[k]);
        if (v) PyErr_Format(PyExc_ValueError, "profile: values must be finite, index %zd is %R",
                            (Py_ssize_t)k, v);
        Py_XDECREF(v);
        return -1;
    }
    return 0;
}

int rtpy_profile_copy(PyObject *obj, double **buf, uint32_t *len)
{
    PyArrayObject *prof = rtpy_input_1d(obj, "profile", NPY_FLOAT64);
    if (!prof) return -1;
    npy_intp n = PyArray_DIM(prof, 0);
    if (rtpy_profile_check(prof) < 0) {
        Py_DECREF(prof);
        return -1;
    }
    *buf = PyMem_RawMalloc((size_t)n * sizeof(double));
    if (!*buf) {
        Py_DECREF(prof);
        PyErr_NoMemory();
        return -1;
    }
    memcpy(*buf, PyArray_DATA(prof), (size_t)n * sizeof(double));
    *len = (uint32_t)n;
    Py_DECREF(prof);
    return 0;
}

/* Do the bytes of a and b overlap?  Both are C-contiguous (checked before). */
static int overlap(PyArrayObject *a, PyArrayObject *b)
{
    const char *a0 = PyArray_BYTES(a), *b0 = PyArray_BYTES(b);
    const char *a1 = a0 + PyArray_NBYTES(a), *b1 = b0 + PyArray_NBYTES(b);
    return PyArray_NBYTES(a) > 0 && PyArray_NBYTES(b) > 0 && a0 < b1 && b0 < a1;
}

int rtpy_outputs(PyObject *outputs, int count, const char *const *names, const int *types,
                 int ndim, const npy_intp *dims, PyArrayObject **arrays, void **data)
{
    return rtpy_outputs_sized(outputs, count, names, types, ndim, dims, arrays, data, NULL);
}

void rtpy_outputs_given(PyObject *outputs, int count, int *given)
{
    for (int k = 0; k < count; k++) {
        /* a sequence, rtpy_outputs checked; an item it cannot give is not given */
        PyObject *item = outputs ? PySequence_GetItem(outputs, k) : NULL;
        if (!item && outputs) PyErr_Clear();
        given[k] = item && item != Py_None && item != Py_True;
        Py_XDECREF(item);
    }
}

int rtpy_outputs_sized(PyObject *outputs, int count, const char *const *names, const int *types,
                       int ndim, const npy_intp *dims, PyArrayObject **arrays, void **data,
                       const char *sizes)
{
    for (int k = 0; k < count; k++) arrays[k] = NULL, data[k] = NULL;
    PyObject *seq = PySequence_Fast(outputs, "out: must be a sequence of arrays");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != count) {
        PyErr_Format(PyExc_ValueError, "out: must hold %d items, got %zd", count,
                     PySequence_Fast_GET_SIZE(seq));
        goto fail;
    }
    /* the total of what is to be allocated, checked before allocating any */
    {
        unsigned long long total = 0;
        char what[256] = "";
        size_t used = 0;
        for (int k = 0; k < count; k++) {
            if (PySequence_Fast_GET_ITEM(seq, k) != Py_True) continue;
            size_t itemsize = itemsize_of(types[k]);
            unsigned long long b = array_bytes(ndim, dims, itemsize);
            total = (b == ULLONG_MAX || total > ULLONG_MAX - b) ? ULLONG_MAX : total + b;
            int w = PyOS_snprintf(what + used, sizeof what - used, "%s%s", used ? ", " : "",
                                  names[k]);
            if (w > 0 && (size_t)w < sizeof what - used) used += (size_t)w;
        }
        if (total > 0 && (sizes ? rtpy_check_alloc_for(total, sizes, what)
                                : rtpy_check_alloc(total, what)) < 0)
            goto fail;
    }
    for (int k = 0; k < count; k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, k);
        if (item == Py_None) continue;
        arrays[k] = rtpy_output(item == Py_True ? Py_None : item, names[k], types[k], ndim, dims);
        if (!arrays[k]) goto fail;
        data[k] = PyArray_DATA(arrays[k]);
    }
    /* one array for two outputs, or two views of one buffer, would mix them */
    for (int k = 0; k < count; k++)
        for (int m = k + 1; m < count; m++)
            if (arrays[k] && arrays[m] && overlap(arrays[k], arrays[m])) {
                PyErr_Format(PyExc_ValueError, "%s, %s: output arrays must not share memory",
                             names[k], names[m]);
                goto fail;
            }
    Py_DECREF(seq);
    return 0;
fail:
    for (int k = 0; k < count; k++) Py_CLEAR(arrays[k]);
    Py_DECREF(seq);
    return -1;
}

int rtpy_rows(rtpy_rows_fn fn, void *ctx, int64_t nx, int64_t ny, int count,
              PyArrayObject *const *arrays, const int *given, rt_status *status)
{
    return rtpy_rows_sized(fn, ctx, nx, ny, count, arrays, given, status, RTPY_ROWS_POINTS);
}

int rtpy_slices(rtpy_rows_fn fn, void *ctx, int64_t n, int count, PyArrayObject *const *arrays,
                const int *given, rt_status *status)
{
    return rtpy_rows_sized(fn, ctx, 1, n, count, arrays, given, status, RTPY_SLICE_POINTS);
}

/* The row-block path of a grid with given outputs, when it is short: the
 * first rows (1/64 of a block) are computed into small scratch
 * copies and timed; if the rest would take at most RTPY_DIRECT_SECONDS at
 * that speed, it is one core call straight into the outputs (the signal
 * handlers run when it returns, well within a second), and the first rows
 * are copied in after it.  An interrupt during the first rows leaves the
 * outputs untouched, and the rest is never interrupted, so no output is
 * half-written; nor is a 2 GiB scratch copy paid (page faults and a copy
 * made such a call 11 times slower than the computation).  Returns 1 when
 * the path is not taken (nothing written, no exception), else as
 * rtpy_rows_sized. */
static int rows_direct(rtpy_rows_fn fn, void *ctx, int64_t ny, int64_t rows, int count,
                       PyArrayObject *const *arrays, const int *given, const size_t *rowbytes,
                       rt_status *status)
{
    const int64_t first = rows / 64 > 0 ? rows / 64 : 1;
    void *part[RTPY_ROWS_MAX_OUTPUTS] = {NULL}, *d[RTPY_ROWS_MAX_OUTPUTS];
    int rc = 1;
    rt_status s;
    /* RELFTERRAIN_DIRECT_SECONDS in [0, 1] replaces the limit (0: never) */
    double limit = RTPY_DIRECT_SECONDS;
    const char *env = getenv("RELFTERRAIN_DIRECT_SECONDS");
    if (env && *env) {
        char *end;
        const double v = strtod(env, &end);
        if (end != env && *end == '\0' && v >= 0.0 && v <= 1.0) limit = v;
    }
    if (!(limit > 0.0)) return 1;
    for (int k = 0; k < count; k++) {
        d[k] = arrays[k] ? PyArray_DATA(arrays[k]) : NULL;
        if (!(arrays[k] && given[k])) continue;
        part[k] = PyMem_RawMalloc((size_t)first * rowbytes[k]);
        if (!part[k]) goto done; /* not taken: the scratch path decides */
        d[k] = part[k];
    }
    const double t0 = monotonic_seconds();
    Py_BEGIN_ALLOW_THREADS
    s = fn(ctx, 0, first, d);
    Py_END_ALLOW_THREADS
    const double t1 = monotonic_seconds();
    if (s != RT_OK) {
        *status = s;
        rc = -1;
        goto done;
    }
    if (PyErr_CheckSignals() < 0) {
        *status = RT_OK;
        rc = -1;
        goto done;
    }
    if (!(t0 >= 0.0 && (t1 - t0) * (double)(ny - first) <= limit * (double)first))
        goto done; /* long: the scratch path (the first rows are computed again) */
    for (int k = 0; k < count; k++)
        d[k] = arrays[k] ? (char *)PyArray_DATA(arrays[k]) + (size_t)first * rowbytes[k] : NULL;
    Py_BEGIN_ALLOW_THREADS
    s = fn(ctx, first, ny - first, d);
    Py_END_ALLOW_THREADS
    if (s != RT_OK) {
        *status = s;
        rc = -1;
        goto done;
    }
    for (int k = 0; k < count; k++)
        if (part[k]) memcpy(PyArray_DATA(arrays[k]), part[k], (size_t)first * rowbytes[k]);
    *status = RT_OK;
    rc = 0;
done:
    for (int k = 0; k < count; k++) PyMem_RawFree(part[k]);
    return rc;
}

int rtpy_rows_sized(rtpy_rows_fn fn, void *ctx, int64_t nx, int64_t ny, int count,
                    PyArrayObject *const *arrays, const int *given, rt_status *status,
                    int64_t block_points)
{
    size_t rowbytes[RTPY_ROWS_MAX_OUTPUTS];
    *status = RT_OK;
    if (count > RTPY_ROWS_MAX_OUTPUTS) {
        PyErr_SetString(PyExc_SystemError, "rtpy_rows: too many outputs");
        return -1;
    }
    int64_t rows = nx >= block_points ? 1 : block_points / nx;
    int chunked = rows < ny;
    for (int k = 0; k < count; k++)
        rowbytes[k] = arrays[k] ? (size_t)nx * (size_t)PyArray_ITEMSIZE(arrays[k]) : 0;
    int any_given = 0;
    for (int k = 0; k < count; k++) any_given |= arrays[k] && given && given[k];
    if (chunked && any_given) {
        int rc = rows_direct(fn, ctx, ny, rows, count, arrays, given, rowbytes, status);
        if (rc != 1) return rc;
    }
    /* given outputs in scratch when there is more than one block (the one
     * core call of a single block is never interrupted) */
    rtpy_call c;
    rtpy_call_begin(&c, chunked ? INT64_MAX : 0, count, arrays, given);
    int rc = 0;
    for (int64_t r = 0; r < ny; r += rows) {
        int64_t n = rows < ny - r ? rows : ny - r;
        void *d[RTPY_ROWS_MAX_OUTPUTS];
        for (int k = 0; k < count; k++)
            d[k] = c.data[k] ? (char *)c.data[k] + (size_t)r * rowbytes[k] : NULL;
        rt_status s;
        Py_BEGIN_ALLOW_THREADS
        s = fn(ctx, r, n, d);
        Py_END_ALLOW_THREADS
        if (s != RT_OK) {
            *status = s;
            rc = -1;
            break;
        }
        if (r + n < ny && PyErr_CheckSignals() < 0) {
            rc = -1;
            break;
        }
    }
    rtpy_call_end(&c, rc == 0 ? RT_OK : RT_ERR_INTERRUPTED);
    return rc;
}

PyObject *rtpy_outputs_tuple(int count, PyArrayObject **arrays)
{
    PyObject *t = PyTuple_New(count);
    if (!t) {
        for (int k = 0; k < count; k++) Py_CLEAR(arrays[k]);
        return NULL;
    }
    for (int k = 0; k < count; k++) {
        PyObject *a = arrays[k] ? (PyObject *)arrays[k] : Py_NewRef(Py_None);
        arrays[k] = NULL;
        PyTuple_SET_ITEM(t, k, a); /* steals */
    }
    return t;
}

/* ------------------------------------------------------------------------ */
/* The placed table, shared copy-on-write                                   */
/* ------------------------------------------------------------------------ */

rtpy_placed_box *rtpy_box_new(rt_placed *table)
{
    rtpy_placed_box *b = PyMem_RawMalloc(sizeof *b);
    if (!b) return NULL;
    b->table = table;
    b->refs = 1;
    return b;
}

void rtpy_box_release(rtpy_placed_box *b)
{
    if (b && --b->refs == 0) {
        rt_placed_free(b->table);
        PyMem_RawFree(b);
    }
}

rtpy_placed_box *rtpy_box_acquire(rtpy_placed_box *b)
{
    b->refs++;
    return b;
}

rt_placed *rtpy_box_writable(rtpy_placed_box **slot)
{
    rtpy_placed_box *b = *slot;
    if (b->refs > 1) {
        rt_placed *copy = rt_placed_clone(b->table);
        rtpy_placed_box *nb = copy ? rtpy_box_new(copy) : NULL;
        if (!nb) {
            rt_placed_free(copy);
            PyErr_NoMemory();
            return NULL;
        }
        rtpy_box_release(b);
        *slot = nb;
    }
    return (*slot)->table;
}

int rtpy_box_install(rtpy_placed_box **slot, rtpy_placed_box *box, rt_placed *copy)
{
    if (*slot != box) {
        rtpy_box_release(box);
        return 0;
    }
    rtpy_placed_box *fresh = rtpy_box_new(copy);
    if (!fresh) {
        rtpy_box_release(box);
        PyErr_NoMemory();
        return -1;
    }
    *slot = fresh;
    rtpy_box_release(box); /* the caller's */
    rtpy_box_release(box); /* the owner's */
    return 1;
}

int rtpy_module_add(PyObject *module, const char *name, PyObject *value)
{
    if (!value) return -1;
    if (PyModule_AddObject(module, name, value) < 0) {
        Py_DECREF(value);
        return -1;
    }
    return 0;
}
