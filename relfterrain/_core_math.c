/*
 * _core_math.c - binding of the core's fdlibm sin and cos (csrc/fdlibm.c):
 * module-level functions sin(x) and cos(x) over float64 arrays of any shape.
 *
 * The input is converted to a C-contiguous float64 array (copied only when
 * needed; only safe casts, so complex or non-numeric input is refused), the
 * output is allocated with the GIL held and the loop runs with it released.
 * The Python API is relfterrain/mathjs.py.
 */
#include "_binding.h"

/* A float64 array of any shape from an array-like, or NULL with the error
 * numpy raised (TypeError, ValueError...) prefixed by "x: ". */
static PyArrayObject *math_input(PyObject *obj)
{
    return rtpy_input(obj, "x", NPY_FLOAT64, 0, 0);
}

static PyObject *math_apply(PyObject *arg, double (*fn)(double))
{
    PyArrayObject *x = math_input(arg);
    if (!x) return NULL;
    PyArrayObject *out = (PyArrayObject *)PyArray_EMPTY(PyArray_NDIM(x), PyArray_DIMS(x),
                                                        NPY_FLOAT64, 0);
    if (!out) {
        Py_DECREF(x);
        return NULL;
    }
    const double *xd = PyArray_DATA(x);
    double *od = PyArray_DATA(out);
    npy_intp n = PyArray_SIZE(x);
    Py_BEGIN_ALLOW_THREADS
    for (npy_intp k = 0; k < n; k++) od[k] = fn(xd[k]);
    Py_END_ALLOW_THREADS
    Py_DECREF(x);
    return (PyObject *)out;
}

static PyObject *math_sin(PyObject *module, PyObject *arg)
{
    (void)module;
    return math_apply(arg, rt_sin);
}

static PyObject *math_cos(PyObject *module, PyObject *arg)
{
    (void)module;
    return math_apply(arg, rt_cos);
}

static PyMethodDef math_methods[] = {
    {"sin", math_sin, METH_O,
     "sin(x, /)\n--\n\nfdlibm sin (JavaScript's Math.sin) of a float64 array-like: a float64 "
     "array of x's shape (0-d for a scalar)."},
    {"cos", math_cos, METH_O,
     "cos(x, /)\n--\n\nfdlibm cos (JavaScript's Math.cos) of a float64 array-like: a float64 "
     "array of x's shape (0-d for a scalar)."},
    {NULL, NULL, 0, NULL},
};

int rtpy_math_exec(PyObject *module)
{
    return PyModule_AddFunctions(module, math_methods);
}
