/*
 * fdlibm.c - binding of the core's fdlibm sin and cos (csrc/fdlibm.c):
 * module-level functions sin(x) and cos(x) over float64 arrays of any shape.
 *
 * The input is converted to a C-contiguous float64 array (copied only when
 * needed; only safe casts, so complex or non-numeric input is refused), the
 * output is allocated with the GIL held and the loop runs with it released.
 * The Python API is relfterrain/mathjs.py.
 */
#include "helpers.h"

/* A float64 array of any shape from an array-like, or NULL with the error
 * numpy raised (TypeError, ValueError...) prefixed by "x: ". */
static PyArrayObject *math_input(PyObject *obj)
{
    return rtpy_input(obj, "x", NPY_FLOAT64, 0, 0);
}

/* Values in slices (rtpy_slices), Ctrl-C between them. */
typedef struct math_ctx {
    const double *x;
    double (*fn)(double);
} math_ctx;

static rt_status math_rows(void *ctx, int64_t row0, int64_t nrows, void *const *data)
{
    const math_ctx *c = ctx;
    double *od = data[0];
    for (int64_t k = 0; k < nrows; k++) od[k] = c->fn(c->x[row0 + k]);
    return RT_OK;
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
    npy_intp n = PyArray_SIZE(x);
    math_ctx c = {PyArray_DATA(x), fn};
    int given = 0;
    rt_status s;
    int rc = n > 0 ? rtpy_slices(math_rows, &c, n, 1, &out, &given, &s) : 0;
    Py_DECREF(x);
    if (rc < 0) { /* interrupted */
        Py_DECREF(out);
        return NULL;
    }
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
