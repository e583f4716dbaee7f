/*
 * evolve.c - binding of the evolving terrain (csrc/evolve.c):
 * height_time_points(core, tvec, x, y, t) and height_time_grid(core, tvec,
 * x0, y0, nx, ny, step, t).  The Python API is relfterrain/evolve.py.
 */
#include "helpers.h"

/* The terrain's parameters and a checked time vector, or -1. */
static int evolve_args(PyObject *core, PyObject *tvec_obj, rt_terrain *params,
                       PyArrayObject **tvec)
{
    if (!rtpy_terrain_check(core)) {
        PyErr_SetString(PyExc_TypeError, "terrain: must be a relfterrain._core.TerrainCore");
        return -1;
    }
    *params = ((rtpy_terrain *)core)->params;
    params->placed = NULL; /* heights do not read the placed table */
    *tvec = rtpy_input_1d(tvec_obj, "time_vector", NPY_FLOAT64);
    if (!*tvec) return -1;
    if (PyArray_DIM(*tvec, 0) != (npy_intp)params->directions) {
        PyErr_Format(PyExc_ValueError, "time_vector: must have %u components, got %zd",
                     params->directions, (Py_ssize_t)PyArray_DIM(*tvec, 0));
        Py_CLEAR(*tvec);
        return -1;
    }
    return 0;
}

/* Points in slices and grids in row blocks (rtpy_rows). */
typedef struct evolve_ctx {
    const rt_terrain *p;
    const double *tvec;
    const double *x, *y, *t; /* points */
    const rt_block *b;       /* grid */
    double time;
    int threads;
} evolve_ctx;

static rt_status evolve_point_rows(void *ctx, int64_t row0, int64_t nrows, void *const *data)
{
    const evolve_ctx *c = ctx;
    return rt_height_time_points(c->p, c->tvec, c->x + row0, c->y + row0, c->t + row0, nrows,
                                 data[0], c->threads);
}

static rt_status evolve_grid_rows(void *ctx, int64_t row0, int64_t nrows, void *const *data)
{
    const evolve_ctx *c = ctx;
    rt_block b = *c->b;
    b.r0 += row0;
    b.ny = nrows;
    return rt_height_time_grid(c->p, c->tvec, &b, c->time, data[0], c->threads);
}

static PyObject *evolve_points(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"terrain", "time_vector", "x", "y", "t", "threads", NULL};
    PyObject *core, *tv, *xo, *yo, *to, *th = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOO|$O:height_time_points", kwlist, &core,
                                     &tv, &xo, &yo, &to, &th))
        return NULL;
    rt_terrain params;
    PyArrayObject *tvec = NULL, *x = NULL, *y = NULL, *t = NULL, *out = NULL;
    int threads = 1;
    if (th && th != Py_None && rtpy_threads(th, &threads) < 0) return NULL;
    if (evolve_args(core, tv, &params, &tvec) < 0) goto fail;
    if (!(x = rtpy_input_1d(xo, "x", NPY_FLOAT64)) || !(y = rtpy_input_1d(yo, "y", NPY_FLOAT64)) ||
        !(t = rtpy_input_1d(to, "t", NPY_FLOAT64)))
        goto fail;
    npy_intp n = PyArray_DIM(x, 0);
    if (PyArray_DIM(y, 0) != n || PyArray_DIM(t, 0) != n) {
        PyErr_SetString(PyExc_ValueError, "x, y, t: must have one common length");
        goto fail;
    }
    out = (PyArrayObject *)PyArray_EMPTY(1, &n, NPY_FLOAT64, 0);
    if (!out) goto fail;
    rt_status s = RT_OK;
    evolve_ctx c = {&params, PyArray_DATA(tvec), PyArray_DATA(x), PyArray_DATA(y),
                    PyArray_DATA(t), NULL, 0.0, threads};
    int given = 0, rc = 0;
    if (n > 0) {
        rc = rtpy_slices(evolve_point_rows, &c, n, 1, &out, &given, &s);
    } else { /* the parameter checks alone */
        s = rt_height_time_points(&params, PyArray_DATA(tvec), NULL, NULL, NULL, 0, NULL, 1);
        rc = s == RT_OK ? 0 : -1;
    }
    if (rc < 0) {
        if (s != RT_OK) rtpy_raise(s, s == RT_ERR_VECTOR_VALUE ? "time_vector" : "x, y, t");
        goto fail;
    }
    Py_DECREF(tvec), Py_DECREF(x), Py_DECREF(y), Py_DECREF(t);
    return (PyObject *)out;
fail:
    Py_XDECREF(tvec), Py_XDECREF(x), Py_XDECREF(y), Py_XDECREF(t), Py_XDECREF(out);
    return NULL;
}

static PyObject *evolve_grid(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"terrain", "time_vector", "x0", "y0", "nx", "ny", "step", "t",
                             "c0", "r0", "out", "threads", NULL};
    PyObject *core, *tv, *out_obj = Py_None, *th = NULL;
    double x0, y0, step, time;
    long long nx, ny, c0 = 0, r0 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOddLLdd|$LLOO:height_time_grid", kwlist,
                                     &core, &tv, &x0, &y0, &nx, &ny, &step, &time, &c0, &r0,
                                     &out_obj, &th))
        return NULL;
    rt_terrain params;
    PyArrayObject *tvec = NULL, *out = NULL;
    int threads = 1;
    if (th && th != Py_None && rtpy_threads(th, &threads) < 0) return NULL;
    if (rtpy_check_block(nx, ny, c0, r0, sizeof(double)) < 0) return NULL;
    if (evolve_args(core, tv, &params, &tvec) < 0) goto fail;
    npy_intp dims[2] = {(npy_intp)ny, (npy_intp)nx};
    out = rtpy_output(out_obj, "out", NPY_FLOAT64, 2, dims);
    if (!out) goto fail;
    rt_block b = {x0, y0, step, c0, r0, nx, ny};
    rt_status s;
    evolve_ctx c = {&params, PyArray_DATA(tvec), NULL, NULL, NULL, &b, time, threads};
    int given = out_obj != Py_None;
    /* the point-by-point double arithmetic: blocks of 2^20 points */
    if (rtpy_rows_sized(evolve_grid_rows, &c, nx, ny, 1, &out, &given, &s, (int64_t)1 << 20) < 0) {
        if (s != RT_OK)
            rtpy_raise(s, s == RT_ERR_VECTOR_VALUE ? "time_vector" : "x0, y0, step, t");
        goto fail;
    }
    Py_DECREF(tvec);
    return (PyObject *)out;
fail:
    Py_XDECREF(tvec), Py_XDECREF(out);
    return NULL;
}

static PyMethodDef evolve_methods[] = {
    {"height_time_points", (PyCFunction)(void (*)(void))evolve_points,
     METH_VARARGS | METH_KEYWORDS,
     "height_time_points(terrain, time_vector, x, y, t, *, threads=1)\n--\n\n"
     "Height at (x[k], y[k]) at time t[k] (1-D float64, one length)."},
    {"height_time_grid", (PyCFunction)(void (*)(void))evolve_grid, METH_VARARGS | METH_KEYWORDS,
     "height_time_grid(terrain, time_vector, x0, y0, nx, ny, step, t, *, c0=0, r0=0, out=None, "
     "threads=1)\n--\n\nHeight on a grid block at time t."},
    {NULL, NULL, 0, NULL},
};

int rtpy_evolve_exec(PyObject *module)
{
    return PyModule_AddFunctions(module, evolve_methods);
}
