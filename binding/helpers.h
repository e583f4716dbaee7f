/*
 * helpers.h - what the binding files of relfterrain._core share.
 *
 * The extension module is one shared object built from module.c (module
 * definition and the registry of generators), helpers.c (the helpers
 * declared here) and one <generator>.c per generator; each of those
 * exports an exec function that adds its types and functions to the module.
 * A new generator is a new file plus one line in module.c.
 */
#ifndef RELFTERRAIN_BINDING_H
#define RELFTERRAIN_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define PY_ARRAY_UNIQUE_SYMBOL relfterrain_ARRAY_API
#ifndef RTPY_IMPORT_ARRAY
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include "relfterrain.h"

/* Set a Python exception for a failed core call and return NULL.  `what`
 * names the argument(s) the status is about, e.g. "profile".  An exception
 * already set (a signal handler's, raised during the call's poll) is the one
 * kept, whatever the status; RT_ERR_INTERRUPTED is always that exception
 * (KeyboardInterrupt if, against the core's contract, none is set). */
PyObject *rtpy_raise(rt_status status, const char *what);

/* ---- Interrupts: one poll for every core call that takes one ---------- */

/* The poll of a core call made with the GIL released (see rt_poll in
 * relfterrain.h; the core calls it on this thread only): it looks at the
 * clock and, at most every RTPY_POLL_SECONDS, takes the GIL and runs the
 * signal handlers (PyErr_CheckSignals).  Nonzero when a handler raised
 * (Ctrl-C: KeyboardInterrupt): the exception stays set, the core stops with
 * RT_ERR_INTERRUPTED and rtpy_raise returns it.  A call shorter than
 * RTPY_POLL_SECONDS never takes the GIL.  Set up with the GIL held. */
#define RTPY_POLL_SECONDS 0.1
typedef struct rtpy_poll {
    rt_poll poll;
    double next; /* the clock reading after which the next check is due */
} rtpy_poll;
const rt_poll *rtpy_poll_init(rtpy_poll *p);

/* A polled core call that writes outputs the caller may have given (out=):
 * rtpy_call_begin (GIL held) decides where each output is computed
 * (c->data[k]) and which poll to pass (c->poll); rtpy_call_end (GIL held)
 * copies given outputs back on RT_OK and frees the scratch.  The rule,
 * the same as rtpy_rows': a call of at most RTPY_ROWS_POINTS points of
 * work (`work`) with a given output runs unpolled, in place (well under a
 * second); a longer one computes given outputs in private scratch copies,
 * so an interrupted (or failed) call leaves them untouched (if the scratch
 * does not fit in the physical memory they are written in place, and an
 * interrupt leaves part of the result there).  Without given outputs the
 * call is always polled and writes the arrays directly. */
typedef struct rtpy_call {
    rtpy_poll pl;
    const rt_poll *poll;
    int count;
    PyArrayObject *arrays[8];
    void *scratch[8];
    void *data[8];
} rtpy_call;
void rtpy_call_begin(rtpy_call *c, int64_t work, int count, PyArrayObject *const *arrays,
                     const int *given);
void rtpy_call_end(rtpy_call *c, rt_status status);

/* Validate an output array, or allocate one when obj is None (or NULL).
 * The checks: a numpy.ndarray (TypeError), the dtype (TypeError), the shape,
 * C-contiguous, aligned and writeable (ValueError); `name` is used in every
 * message.  Returns a new reference, or NULL with an exception set. */
PyArrayObject *rtpy_output(PyObject *obj, const char *name, int typenum, int ndim,
                           const npy_intp *dims);

/* A 1-D C-contiguous aligned array of `typenum` from any array-like (a new
 * reference; copies only when needed), or NULL with a TypeError/ValueError
 * naming `name`. */
PyArrayObject *rtpy_input_1d(PyObject *obj, const char *name, int typenum);
/* The same for any number of dimensions in min_ndim..max_ndim (0, 0: any). */
PyArrayObject *rtpy_input(PyObject *obj, const char *name, int typenum, int min_ndim,
                          int max_ndim);

/* Copy a profile (a 1-D array-like of numbers whose length is a power of two
 * in 1..RT_MAX_PROFILE) into a new PyMem_RawMalloc buffer: 0, or -1 with a
 * TypeError/ValueError/MemoryError naming "profile". */
int rtpy_profile_copy(PyObject *obj, double **buf, uint32_t *len);
/* The one rule of a profile, with its messages (the Python layer calls it
 * too, as relfterrain._core.check_profile): length a power of two between 1
 * and RT_MAX_PROFILE, every value finite.  prof: a 1-D float64 array.
 * 0, or -1 with ValueError. */
int rtpy_profile_check(PyArrayObject *prof);

/* This machine's physical memory in bytes (sysconf _SC_PHYS_PAGES times the
 * page size), 0 if unknown. */
unsigned long long rtpy_physical_memory(void);
/* Check that a call may allocate `bytes` in all (the sum over everything it
 * will allocate) before allocating any of it: 0, or -1 with a MemoryError
 * naming `what` (the argument(s) the size comes from) and the sizes when
 * bytes exceeds the physical memory (or PY_SSIZE_T_MAX).  rtpy_output and
 * rtpy_outputs call it for the arrays they allocate. */
int rtpy_check_alloc(unsigned long long bytes, const char *what);
/* The same, the message adding " for <detail>" (e.g. the outputs' names). */
int rtpy_check_alloc_for(unsigned long long bytes, const char *what, const char *detail);

/* Parse a `threads` value (>= 1) into *out; -1 with ValueError otherwise. */
int rtpy_threads(PyObject *obj, int *out);
/* threads=None on the terrain's grids and points: the usable cores that
 * are idle right now (Linux: /proc/loadavg; one while tasks waited for a
 * CPU a fifth of the last 10 s, /proc/pressure/cpu), one for fewer than
 * RTPY_AUTO_THREAD_POINTS points; otherwise as rtpy_threads. */
#define RTPY_AUTO_THREAD_POINTS ((int64_t)1 << 17)
int rtpy_auto_threads(int64_t points);
int rtpy_threads_auto(PyObject *obj, int64_t points, int *out);

/* Check a grid block request before allocating: nx, ny >= 1, c0, r0 >= 0
 * and nx*ny*itemsize addressable and within the physical memory
 * (rtpy_check_alloc).  -1 with ValueError/MemoryError.  The Python API
 * checks a whole grid request first (relfterrain/_validate.py grid_args,
 * with the same words for the rules both check); this is the binding's own
 * guard for direct calls. */
int rtpy_check_block(long long nx, long long ny, long long c0, long long r0,
                     size_t itemsize);

/* Check (or allocate) `count` outputs of one call in one place.  outputs: a
 * sequence of `count` items, each None (not wanted), True (allocate) or an
 * array checked as rtpy_output does with names[k] and types[k]; and no two
 * of them may share memory.  Fills arrays[k] (new references or NULL) and
 * data[k] (their buffers or NULL); -1 with an exception and nothing held. */
int rtpy_outputs(PyObject *outputs, int count, const char *const *names, const int *types,
                 int ndim, const npy_intp *dims, PyArrayObject **arrays, void **data);
/* The same; a refusal for memory names `sizes` (the size arguments, e.g.
 * "nx, ny") first, then the outputs to allocate. */
int rtpy_outputs_sized(PyObject *outputs, int count, const char *const *names, const int *types,
                       int ndim, const npy_intp *dims, PyArrayObject **arrays, void **data,
                       const char *sizes);
/* Which of the `count` outputs that rtpy_outputs accepted the caller gave
 * as arrays (for rtpy_rows, rtpy_slices, rtpy_call_begin): given[k] = 0
 * where item k is None or True (allocated here), or where outputs is NULL
 * (all allocated here), 1 otherwise.  Sets no exception. */
void rtpy_outputs_given(PyObject *outputs, int count, int *given);
/* A grid computed in row blocks of about RTPY_ROWS_POINTS points, one core
 * call each with the GIL released, so that Ctrl-C is honoured within a
 * fraction of a second: between blocks PyErr_CheckSignals runs (the signal
 * handlers, KeyboardInterrupt) and other Python threads may run.  This is
 * the mechanism of every pointwise grid or array of points whose core call
 * can compute any block of rows (or slice of points: nx = 1, ny = n); the
 * others take a poll (rtpy_poll, rtpy_call).
 * fn(ctx, row0, nrows, data) computes rows row0 .. row0+nrows-1 into
 * data[k] (each output's first such row, NULL where not wanted).  Outputs the
 * caller gave (given[k]) are computed into private scratch copies and copied
 * at the end, so an interrupted or failed call leaves them untouched (if the
 * scratch does not fit in the memory they are written in place).  A grid of
 * at most RTPY_ROWS_POINTS points is one call.  0; or -1 with *status the
 * core's error (no exception set: map it with rtpy_raise), or -1 with
 * *status == RT_OK and an exception set (KeyboardInterrupt, MemoryError). */
/* 2^24: a 4096 x 4096 grid is one call (into out=, no scratch copy), and a
 * block takes well under a second on every path */
#define RTPY_ROWS_POINTS ((int64_t)1 << 24)
/* A grid with given outputs whose first rows show that the rest takes at
 * most this long runs the rest in one call straight into them (see
 * rows_direct in helpers.c): Ctrl-C is then honoured when it returns.
 * The environment variable RELFTERRAIN_DIRECT_SECONDS (0 to 1) replaces
 * it; 0 always takes the scratch path. */
#define RTPY_DIRECT_SECONDS 0.5
#define RTPY_ROWS_MAX_OUTPUTS 8
typedef rt_status (*rtpy_rows_fn)(void *ctx, int64_t row0, int64_t nrows, void *const *data);
int rtpy_rows(rtpy_rows_fn fn, void *ctx, int64_t nx, int64_t ny, int count,
              PyArrayObject *const *arrays, const int *given, rt_status *status);
/* The same with blocks of about block_points points, for grids whose points
 * cost more than the terrain's tile kernels' (point by point, several
 * heights a point). */
int rtpy_rows_sized(rtpy_rows_fn fn, void *ctx, int64_t nx, int64_t ny, int count,
                    PyArrayObject *const *arrays, const int *given, rt_status *status,
                    int64_t block_points);
/* The same for n arbitrary points (one a row) in slices of RTPY_SLICE_POINTS:
 * a point costs up to about 1 us (terra with 64 directions), so a slice
 * takes well under a second too. */
#define RTPY_SLICE_POINTS ((int64_t)1 << 18)
int rtpy_slices(rtpy_rows_fn fn, void *ctx, int64_t n, int count, PyArrayObject *const *arrays,
                const int *given, rt_status *status);

/* A tuple of the outputs (None where not wanted); steals the references. */
PyObject *rtpy_outputs_tuple(int count, PyArrayObject **arrays);

/* The placed table, shared copy-on-write: a computation that runs without
 * the GIL holds a reference to the box it started with, and a change made
 * meanwhile goes to a private copy (rtpy_box_writable), so neither sees the
 * other half-done.  Reference counts change only with the GIL held. */
typedef struct rtpy_placed_box {
    rt_placed *table;
    Py_ssize_t refs; /* the owner's reference plus running computations */
} rtpy_placed_box;
/* A box owning `table` with one reference (NULL when out of memory). */
rtpy_placed_box *rtpy_box_new(rt_placed *table);
/* One more reference, for a computation (returns b). */
rtpy_placed_box *rtpy_box_acquire(rtpy_placed_box *b);
/* Drop a reference; the last one frees the table. b may be NULL. */
void rtpy_box_release(rtpy_placed_box *b);
/* The owner's table, ready to modify: copied into a new box (replacing
 * *slot) first if a computation holds it.  NULL with MemoryError. */
rt_placed *rtpy_box_writable(rtpy_placed_box **slot);
/* A long change of the table made without the GIL (and so interruptible):
 * the caller acquires the current box (*slot), changes a private copy of
 * its table with the GIL released, then calls this with the GIL held: the
 * copy becomes the table (in a new box) if *slot is still `box` (nobody
 * changed the table meanwhile: a change would have gone to a new box,
 * copy-on-write, since the caller holds this one).  Releases the caller's
 * reference to box.  1: installed (the box owns the copy); 0: the table
 * changed meanwhile (the copy is the caller's: free it and start again);
 * -1: MemoryError (the copy is the caller's). */
int rtpy_box_install(rtpy_placed_box **slot, rtpy_placed_box *box, rt_placed *copy);

/* The terrain's C state, for the binding files of generators built on the
 * terrain (streams, sites, roads, mines): terrain.c owns the type. */
typedef struct rtpy_terrain {
    PyObject_HEAD
    rt_terrain params;  /* params.placed is set per call, from `placed` */
    double *profile;    /* owned copy; params.profile points here */
    rtpy_placed_box *placed;
} rtpy_terrain;
/* The parameters for one computation, with a reference to the current
 * placed table in params->placed (GIL held); release the box afterwards. */
rtpy_placed_box *rtpy_terrain_snapshot(rtpy_terrain *self, rt_terrain *params);
/* 1 if obj is a relfterrain._core.TerrainCore. */
int rtpy_terrain_check(PyObject *obj);

/* Add value to the module as `name`, stealing the reference in every case
 * (value may be NULL: an error already set).  0, or -1 with an exception. */
int rtpy_module_add(PyObject *module, const char *name, PyObject *value);

/* Exec functions of the generators, called by the module's exec slot. */
int rtpy_terrain_exec(PyObject *module);
int rtpy_classic_exec(PyObject *module);
int rtpy_galaxy_exec(PyObject *module);
int rtpy_streams_exec(PyObject *module);
int rtpy_math_exec(PyObject *module);
int rtpy_roads_exec(PyObject *module);
int rtpy_features_exec(PyObject *module);
int rtpy_sites_exec(PyObject *module);
int rtpy_mines_exec(PyObject *module);
int rtpy_islands_exec(PyObject *module);
int rtpy_evolve_exec(PyObject *module);
int rtpy_nebula_exec(PyObject *module);
int rtpy_planet_exec(PyObject *module);
int rtpy_contours_exec(PyObject *module);
int rtpy_limits_exec(PyObject *module);

#endif /* RELFTERRAIN_BINDING_H */
