/*
 * nebula.c - binding of the nebulae (csrc/nebula.c): nebula_points
 * and nebula_grid, stateless (the parameters are passed in each call; the
 * arrays are borrowed while the GIL is released).  The Python API is
 * relfterrain/nebula.py.
 */
#include "helpers.h"

/* Fill *nb from (profile, vectors (3, N) float64, threshold); the arrays
 * are returned (new references) for the caller to hold. */
static int nebula_params(PyObject *prof_obj, PyObject *vec_obj, double threshold, rt_nebula *nb,
                         PyArrayObject **prof, PyArrayObject **vec)
{
    rt_nebula_defaults(nb);
    *prof = rtpy_input_1d(prof_obj, "profile", NPY_FLOAT64);
    if (!*prof) return -1;
    if (rtpy_profile_check(*prof) < 0) return -1;
    *vec = (PyArrayObject *)PyArray_FromAny(vec_obj, PyArray_DescrFromType(NPY_FLOAT64), 2, 2,
                                            NPY_ARRAY_IN_ARRAY, NULL);
    if (!*vec) return -1;
    npy_intp n = PyArray_DIM(*vec, 1);
    if (PyArray_DIM(*vec, 0) != 3 || n < 1 || n > RT_MAX_DIRECTIONS) {
        PyErr_SetString(PyExc_ValueError, "a, b, c: need 3 vectors of one length 1..64");
        return -1;
    }
    const double *v = PyArray_DATA(*vec);
    nb->directions = (uint32_t)n;
    for (npy_intp i = 0; i < n; i++) {
        nb->a[i] = v[i];
        nb->b[i] = v[n + i];
        nb->c[i] = v[2 * n + i];
    }
    nb->profile = PyArray_DATA(*prof);
    nb->profile_len = (uint32_t)PyArray_DIM(*prof, 0);
    nb->threshold = threshold;
    int bad = 0;
    rt_status s = rt_nebula_check(nb, &bad);
    if (s != RT_OK) {
        static const char *const names[3] = {"a", "b", "c"};
        rtpy_raise(s, s == RT_ERR_VECTOR_VALUE ? names[bad] : s == RT_ERR_PARAM ? "threshold"
                                                                               : "profile");
        return -1;
    }
    return 0;
}

/* Points in slices (rtpy_slices). */
typedef struct nebula_rows_ctx {
    const rt_nebula *nb;
    const double *x, *y, *z;
    int threads;
} nebula_rows_ctx;

static rt_status nebula_rows(void *ctx, int64_t row0, int64_t nrows, void *const *data)
{
    const nebula_rows_ctx *c = ctx;
    return rt_nebula_points(c->nb, c->x + row0, c->y + row0, c->z + row0, nrows, data[0],
                            c->threads);
}

static PyObject *nebula_points(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"profile", "vectors", "threshold", "x", "y", "z", "threads", NULL};
    PyObject *po, *vo, *xo, *yo, *zo, *th = NULL;
    double threshold;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOdOOO|$O:nebula_points", kwlist, &po, &vo,
                                     &threshold, &xo, &yo, &zo, &th))
        return NULL;
    PyArrayObject *prof = NULL, *vec = NULL, *x = NULL, *y = NULL, *z = NULL, *out = NULL;
    rt_nebula nb;
    int threads = 1;
    if (th && th != Py_None && rtpy_threads(th, &threads) < 0) return NULL;
    if (nebula_params(po, vo, threshold, &nb, &prof, &vec) < 0) goto fail;
    if (!(x = rtpy_input_1d(xo, "x", NPY_FLOAT64)) || !(y = rtpy_input_1d(yo, "y", NPY_FLOAT64)) ||
        !(z = rtpy_input_1d(zo, "z", NPY_FLOAT64)))
        goto fail;
    npy_intp n = PyArray_DIM(x, 0);
    if (PyArray_DIM(y, 0) != n || PyArray_DIM(z, 0) != n) {
        PyErr_SetString(PyExc_ValueError, "x, y, z: must have one common length");
        goto fail;
    }
    out = (PyArrayObject *)PyArray_EMPTY(1, &n, NPY_FLOAT64, 0);
    if (!out) goto fail;
    rt_status s = RT_OK;
    nebula_rows_ctx ctx = {&nb, PyArray_DATA(x), PyArray_DATA(y), PyArray_DATA(z), threads};
    int given = 0;
    if (n > 0 && rtpy_slices(nebula_rows, &ctx, n, 1, &out, &given, &s) < 0) {
        if (s != RT_OK) rtpy_raise(s, "x, y, z");
        goto fail;
    }
    Py_DECREF(prof), Py_DECREF(vec), Py_DECREF(x), Py_DECREF(y), Py_DECREF(z);
    return (PyObject *)out;
fail:
    Py_XDECREF(prof), Py_XDECREF(vec), Py_XDECREF(x), Py_XDECREF(y), Py_XDECREF(z);
    Py_XDECREF(out);
    return NULL;
}

static PyObject *nebula_grid(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"profile", "vectors", "threshold", "x0", "y0", "z0", "nx", "ny",
                             "nz", "step", "outputs", "amount", "threads", NULL};
    PyObject *po, *vo, *outputs, *th = NULL;
    double threshold, x0, y0, z0, step;
    long long nx, ny, nz;
    int want_amount = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOddddLLLdO|$pO:nebula_grid", kwlist, &po, &vo,
                                     &threshold, &x0, &y0, &z0, &nx, &ny, &nz, &step, &outputs,
                                     &want_amount, &th))
        return NULL;
    PyArrayObject *prof = NULL, *vec = NULL, *arrays[3] = {NULL, NULL, NULL};
    void *data[3];
    rt_nebula nb;
    int threads = 1;
    if (th && th != Py_None && rtpy_threads(th, &threads) < 0) return NULL;
    if (nx < 1 || ny < 1 || nz < 1) {
        PyErr_Format(PyExc_ValueError, "nx, ny, nz: must be >= 1, got %lld, %lld, %lld", nx, ny,
                     nz);
        return NULL;
    }
    /* nx*ny*nz*8 bytes must be addressable before anything is allocated */
    if ((unsigned long long)nx > (unsigned long long)PY_SSIZE_T_MAX / 8 / (unsigned long long)ny ||
        (unsigned long long)(nx * ny) > (unsigned long long)PY_SSIZE_T_MAX / 8 / (unsigned long long)nz) {
        PyErr_Format(PyExc_MemoryError, "nx, ny, nz: a %lld x %lld x %lld block is too large",
                     nz, ny, nx);
        return NULL;
    }
    if (nebula_params(po, vo, threshold, &nb, &prof, &vec) < 0) goto fail;
    npy_intp dims[3] = {(npy_intp)nz, (npy_intp)ny, (npy_intp)nx};
    static const char *const names[3] = {"out", "out32", "gas"};
    static const int types[3] = {NPY_FLOAT64, NPY_FLOAT32, NPY_BOOL};
    if (rtpy_outputs_sized(outputs, 3, names, types, 3, dims, arrays, data, "nx, ny, nz") < 0)
        goto fail;
    int given[3];
    rtpy_outputs_given(outputs, 3, given);
    rtpy_call c;
    rtpy_call_begin(&c, (int64_t)(nx * ny * nz), 3, arrays, given);
    double amount = 0.0;
    rt_nebula_out o = {c.data[0], c.data[1], c.data[2], want_amount ? &amount : NULL};
    rt_grid3 g = {x0, y0, z0, step, nx, ny, nz};
    rt_status s;
    Py_BEGIN_ALLOW_THREADS
    s = rt_nebula_grid(&nb, &g, &o, threads, c.poll);
    Py_END_ALLOW_THREADS
    rtpy_call_end(&c, s);
    if (s != RT_OK) {
        rtpy_raise(s, s == RT_ERR_SIZE ? "nx, ny, nz" : "x0, y0, z0, step");
        goto fail;
    }
    Py_DECREF(prof), Py_DECREF(vec);
    PyObject *tup = rtpy_outputs_tuple(3, arrays);
    if (!tup) return NULL;
    return Py_BuildValue("(Nd)", tup, amount);
fail:
    Py_XDECREF(prof), Py_XDECREF(vec);
    for (int k = 0; k < 3; k++) Py_XDECREF(arrays[k]);
    return NULL;
}

static PyMethodDef nebula_methods[] = {
    {"nebula_points", (PyCFunction)(void (*)(void))nebula_points, METH_VARARGS | METH_KEYWORDS,
     "nebula_points(profile, vectors, threshold, x, y, z, *, threads=1)\n--\n\n"
     "Density at points (1-D float64 arrays of one length)."},
    {"nebula_grid", (PyCFunction)(void (*)(void))nebula_grid, METH_VARARGS | METH_KEYWORDS,
     "nebula_grid(profile, vectors, threshold, x0, y0, z0, nx, ny, nz, step, outputs, *, "
     "amount=False, threads=1)\n--\n\n((density64, density32, gas), amount) of a block; "
     "outputs as rtpy_outputs: None, True or an array each."},
    {NULL, NULL, 0, NULL},
};

int rtpy_nebula_exec(PyObject *module)
{
    return PyModule_AddFunctions(module, nebula_methods);
}
