/*
 * _binding.h - what the binding files of relfterrain._core share.
 *
 * The extension module is one shared object built from _core.c (module
 * definition, shared helpers) and one _core_<generator>.c per generator; each
 * of those exports an exec function that adds its types and functions to the
 * module.  A new generator is a new file plus one line in _core.c.
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
 * names the argument(s) the status is about, e.g. "profile". */
PyObject *rtpy_raise(rt_status status, const char *what);

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

/* Copy a profile (a 1-D array-like of numbers whose length is a power of two
 * in 1..RT_MAX_PROFILE) into a new PyMem_RawMalloc buffer: 0, or -1 with a
 * TypeError/ValueError/MemoryError naming "profile". */
int rtpy_profile_copy(PyObject *obj, double **buf, uint32_t *len);

/* Parse a `threads` value (>= 1) into *out; -1 with ValueError otherwise. */
int rtpy_threads(PyObject *obj, int *out);

/* Check a grid block request before allocating: nx, ny >= 1, c0, r0 >= 0
 * and nx*ny*itemsize addressable.  -1 with ValueError/MemoryError. */
int rtpy_check_block(long long nx, long long ny, long long c0, long long r0,
                     size_t itemsize);

/* Exec functions of the generators, called by the module's exec slot. */
int rtpy_terrain_exec(PyObject *module);
int rtpy_classic_exec(PyObject *module);
int rtpy_galaxy_exec(PyObject *module);
int rtpy_math_exec(PyObject *module);

#endif /* RELFTERRAIN_BINDING_H */
