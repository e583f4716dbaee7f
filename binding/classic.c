/*
 * classic.c - binding of the classic fractal generators (csrc/classic.c):
 * module-level functions taking the uniforms the Python layer drew.
 *
 * Every size is checked before anything is allocated, outputs are allocated
 * with the GIL held and every core loop runs with it released.  The Python
 * API (relfterrain/classic.py) validates the user's arguments and draws the
 * random numbers; these checks repeat the ones a caller could get wrong.
 */
#include "helpers.h"

/* A 1-D float64 array of exactly `n` uniforms, or NULL with ValueError. */
static PyArrayObject *uniforms(PyObject *obj, const char *name, npy_intp n)
{
    PyArrayObject *a = rtpy_input_1d(obj, name, NPY_FLOAT64);
    if (a && PyArray_DIM(a, 0) != n) {
        PyErr_Format(PyExc_ValueError, "%s: need %zd uniforms, got %zd", name, (Py_ssize_t)n,
                     (Py_ssize_t)PyArray_DIM(a, 0));
        Py_CLEAR(a);
    }
    return a;
}

/* Check a width x height float64 array before allocating it. */
static int check_wh(long long width, long long height)
{
    if (width < 1) {
        PyErr_Format(PyExc_ValueError, "width: must be >= 1, got %lld", width);
        return -1;
    }
    if (height < 1) {
        PyErr_Format(PyExc_ValueError, "height: must be >= 1, got %lld", height);
        return -1;
    }
    /* width*height*8 must fit in a Py_ssize_t before anything is allocated */
    if ((unsigned long long)width >
        (unsigned long long)PY_SSIZE_T_MAX / sizeof(double) / (unsigned long long)height) {
        PyErr_Format(PyExc_MemoryError,
                     "width, height: a %lld x %lld array is too large to allocate", height,
                     width);
        return -1;
    }
    return 0;
}

static PyObject *classic_midpoint_displacement(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"iterations", "scale", "ratio", "u", NULL};
    int iterations;
    double scale, ratio;
    PyObject *u_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iddO", kwlist, &iterations, &scale, &ratio,
                                     &u_obj))
        return NULL;
    /* 2^iterations + 1 doubles must be addressable */
    if (iterations < 0 || iterations > RT_MAX_MIDPOINT_ITERATIONS ||
        ((size_t)1 << iterations) >= (size_t)PY_SSIZE_T_MAX / sizeof(double)) {
        PyErr_Format(PyExc_ValueError,
                     "iterations: must be >= 0 and small enough for 2**iterations + 1 "
                     "values to be allocated, got %d", iterations);
        return NULL;
    }
    npy_intp n = ((npy_intp)1 << iterations) + 1;
    PyArrayObject *u = uniforms(u_obj, "u", n);
    if (!u) return NULL;
    PyArrayObject *out = (PyArrayObject *)PyArray_EMPTY(1, &n, NPY_FLOAT64, 0);
    if (!out) {
        Py_DECREF(u);
        return NULL;
    }
    const double *ud = PyArray_DATA(u);
    double *od = PyArray_DATA(out);
    rt_status s;
    rtpy_poll pl;
    const rt_poll *poll = rtpy_poll_init(&pl);
    Py_BEGIN_ALLOW_THREADS
    s = rt_midpoint_displacement(iterations, scale, ratio, ud, od, poll);
    Py_END_ALLOW_THREADS
    Py_DECREF(u);
    if (s != RT_OK) {
        Py_DECREF(out);
        return rtpy_raise(s, "scale, ratio");
    }
    return (PyObject *)out;
}

static PyObject *classic_diamond_square(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"iterations", "scale", "ratio", "corner", "wrap", "u", "grid",
                             NULL};
    int iterations, wrap;
    double scale, ratio, corner;
    PyObject *u_obj, *grid_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "idddpOO", kwlist, &iterations, &scale,
                                     &ratio, &corner, &wrap, &u_obj, &grid_obj))
        return NULL;
    /* (2^iterations + 1)^2 doubles must be addressable */
    int bits = (int)(sizeof(Py_ssize_t) * 8) - 1 - 3; /* log2(PY_SSIZE_T_MAX / 8) */
    if (iterations < 0 || iterations > RT_MAX_DIAMOND_ITERATIONS || 2 * (iterations + 1) > bits) {
        PyErr_Format(PyExc_ValueError,
                     "iterations: must be >= 0 and small enough for a (2**iterations + 1)**2 "
                     "grid to be allocated, got %d", iterations);
        return NULL;
    }
    npy_intp side = ((npy_intp)1 << iterations) + 1;
    npy_intp dims[2] = {side, side};
    PyArrayObject *u = uniforms(u_obj, "u", side * side);
    if (!u) return NULL;
    PyArrayObject *grid = rtpy_output(grid_obj, "grid", NPY_FLOAT64, 2, dims);
    if (!grid) {
        Py_DECREF(u);
        return NULL;
    }
    const double *ud = PyArray_DATA(u);
    double *gd = PyArray_DATA(grid);
    rt_status s;
    /* grid is in and out: the Python layer passes a fresh one (seeded) */
    rtpy_poll pl;
    const rt_poll *poll = rtpy_poll_init(&pl);
    Py_BEGIN_ALLOW_THREADS
    s = rt_diamond_square(iterations, scale, ratio, corner, wrap, ud, gd, poll);
    Py_END_ALLOW_THREADS
    Py_DECREF(u);
    if (s != RT_OK) {
        Py_DECREF(grid);
        return rtpy_raise(s, "scale, ratio, corner, seed_grid");
    }
    return (PyObject *)grid;
}

/* clouds in slices of values (rtpy_slices) */
typedef struct clouds_ctx {
    const double *heights;
    double clear, cloudy;
} clouds_ctx;

static rt_status clouds_rows(void *ctx, int64_t row0, int64_t nrows, void *const *data)
{
    const clouds_ctx *c = ctx;
    return rt_clouds(c->heights + row0, nrows, c->clear, c->cloudy, data[0]);
}

static PyObject *classic_clouds(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"heights", "clear", "cloudy", NULL};
    PyObject *h_obj;
    double clear, cloudy;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Odd", kwlist, &h_obj, &clear, &cloudy))
        return NULL;
    PyArrayObject *h = (PyArrayObject *)PyArray_FromAny(
        h_obj, PyArray_DescrFromType(NPY_FLOAT64), 0, 0, NPY_ARRAY_IN_ARRAY, NULL);
    if (!h) return NULL;
    PyArrayObject *out = (PyArrayObject *)PyArray_EMPTY(PyArray_NDIM(h), PyArray_DIMS(h),
                                                        NPY_FLOAT64, 0);
    if (!out) {
        Py_DECREF(h);
        return NULL;
    }
    int64_t n = (int64_t)PyArray_SIZE(h);
    rt_status s = RT_OK;
    clouds_ctx c = {PyArray_DATA(h), clear, cloudy};
    int given = 0, rc = 0;
    if (n > 0) {
        rc = rtpy_slices(clouds_rows, &c, n, 1, &out, &given, &s);
    } else { /* the parameter checks alone */
        Py_BEGIN_ALLOW_THREADS
        s = rt_clouds(NULL, 0, clear, cloudy, NULL);
        Py_END_ALLOW_THREADS
        rc = s == RT_OK ? 0 : -1;
    }
    Py_DECREF(h);
    if (rc < 0) {
        Py_DECREF(out);
        if (s == RT_OK) return NULL; /* interrupted */
        return rtpy_raise(s, "clear, cloudy");
    }
    return (PyObject *)out;
}

static PyObject *classic_limited_random(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"width", "height", "max_increase", "minimum", "maximum",
                             "u_start", "u_step", NULL};
    long long width, height;
    double max_increase, minimum, maximum;
    PyObject *start_obj, *step_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "LLdddOO", kwlist, &width, &height,
                                     &max_increase, &minimum, &maximum, &start_obj, &step_obj))
        return NULL;
    if (check_wh(width, height) < 0) return NULL;
    PyArrayObject *u_start = uniforms(start_obj, "u_start", (npy_intp)height);
    if (!u_start) return NULL;
    PyArrayObject *u_step = uniforms(step_obj, "u_step", (npy_intp)(width * height));
    if (!u_step) {
        Py_DECREF(u_start);
        return NULL;
    }
    npy_intp dims[2] = {(npy_intp)height, (npy_intp)width};
    PyArrayObject *out = (PyArrayObject *)PyArray_EMPTY(2, dims, NPY_FLOAT64, 0);
    if (!out) {
        Py_DECREF(u_start);
        Py_DECREF(u_step);
        return NULL;
    }
    const double *sd = PyArray_DATA(u_start), *td = PyArray_DATA(u_step);
    double *od = PyArray_DATA(out);
    rt_status s;
    rtpy_poll pl;
    const rt_poll *poll = rtpy_poll_init(&pl);
    Py_BEGIN_ALLOW_THREADS
    s = rt_limited_random(width, height, max_increase, minimum, maximum, sd, td, od, poll);
    Py_END_ALLOW_THREADS
    Py_DECREF(u_start);
    Py_DECREF(u_step);
    if (s != RT_OK) {
        Py_DECREF(out);
        return rtpy_raise(s, s == RT_ERR_SIZE ? "width, height"
                                              : "max_increase, minimum, maximum");
    }
    return (PyObject *)out;
}

static PyObject *classic_circle_hill(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"width", "height", "n_circles", "radius", "hill_height", "maximum",
                             "base", "u", NULL};
    long long width, height, n_circles;
    double radius, hill_height, maximum, base;
    PyObject *u_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "LLLddddO", kwlist, &width, &height,
                                     &n_circles, &radius, &hill_height, &maximum, &base, &u_obj))
        return NULL;
    if (check_wh(width, height) < 0) return NULL;
    if (n_circles < 0 || (unsigned long long)n_circles > (unsigned long long)PY_SSIZE_T_MAX / 16) {
        PyErr_Format(PyExc_ValueError, "n_circles: must be >= 0, got %lld", n_circles);
        return NULL;
    }
    PyArrayObject *u = uniforms(u_obj, "u", (npy_intp)(2 * n_circles));
    if (!u) return NULL;
    npy_intp dims[2] = {(npy_intp)height, (npy_intp)width};
    PyArrayObject *out = (PyArrayObject *)PyArray_EMPTY(2, dims, NPY_FLOAT64, 0);
    if (!out) {
        Py_DECREF(u);
        return NULL;
    }
    const double *ud = PyArray_DATA(u);
    double *od = PyArray_DATA(out);
    rt_status s;
    rtpy_poll pl;
    const rt_poll *poll = rtpy_poll_init(&pl);
    Py_BEGIN_ALLOW_THREADS
    s = rt_circle_hill(width, height, n_circles, radius, hill_height, maximum, base, ud, od,
                       poll);
    Py_END_ALLOW_THREADS
    Py_DECREF(u);
    if (s != RT_OK) {
        Py_DECREF(out);
        return rtpy_raise(s, s == RT_ERR_SIZE ? "width, height, n_circles"
                                              : "radius, hill_height, maximum, base");
    }
    return (PyObject *)out;
}

static PyObject *classic_cos(PyObject *module, PyObject *arg)
{
    (void)module;
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred()) return NULL;
    return PyFloat_FromDouble(rt_classic_cos(x));
}

static PyMethodDef classic_methods[] = {
    {"midpoint_displacement", (PyCFunction)(void (*)(void))classic_midpoint_displacement,
     METH_VARARGS | METH_KEYWORDS,
     "midpoint_displacement(iterations, scale, ratio, u) -> float64 (2**iterations + 1,)\n"
     "u: 2**iterations + 1 uniforms, one per point."},
    {"diamond_square", (PyCFunction)(void (*)(void))classic_diamond_square,
     METH_VARARGS | METH_KEYWORDS,
     "diamond_square(iterations, scale, ratio, corner, wrap, u, grid) -> grid\n"
     "grid: float64 (n, n), NaN where to generate, filled in place; u: n*n uniforms."},
    {"clouds", (PyCFunction)(void (*)(void))classic_clouds, METH_VARARGS | METH_KEYWORDS,
     "clouds(heights, clear, cloudy) -> float64 opacity of heights' shape"},
    {"limited_random", (PyCFunction)(void (*)(void))classic_limited_random,
     METH_VARARGS | METH_KEYWORDS,
     "limited_random(width, height, max_increase, minimum, maximum, u_start, u_step)\n"
     "-> float64 (height, width); u_start: height uniforms, u_step: height*width."},
    {"circle_hill", (PyCFunction)(void (*)(void))classic_circle_hill,
     METH_VARARGS | METH_KEYWORDS,
     "circle_hill(width, height, n_circles, radius, hill_height, maximum, base, u)\n"
     "-> float64 (height, width); u: 2*n_circles uniforms (x, y per circle)."},
    {"classic_cos", classic_cos, METH_O,
     "classic_cos(x) -> the core's portable cosine (|x| <= 3.5)"},
    {NULL, NULL, 0, NULL},
};

int rtpy_classic_exec(PyObject *module)
{
    if (PyModule_AddFunctions(module, classic_methods) < 0) return -1;
    if (PyModule_AddIntConstant(module, "MAX_MIDPOINT_ITERATIONS", RT_MAX_MIDPOINT_ITERATIONS) < 0)
        return -1;
    if (PyModule_AddIntConstant(module, "MAX_DIAMOND_ITERATIONS", RT_MAX_DIAMOND_ITERATIONS) < 0)
        return -1;
    return 0;
}
