/*
 * features.c - binding of the features, buildings and trees helpers
 * (SPEC 5): whether a building stands at given lattice points (GIL released).
 */
#include "helpers.h"

/* In slices of points (rtpy_slices). */
typedef struct building_ctx {
    const rt_terrain *p;
    const int64_t *x, *y;
} building_ctx;

static rt_status building_rows(void *ctx, int64_t row0, int64_t nrows, void *const *data)
{
    const building_ctx *c = ctx;
    uint8_t *od = data[0];
    for (int64_t k = 0; k < nrows; k++)
        od[k] = (uint8_t)rt_building_at(c->p, c->x[row0 + k], c->y[row0 + k]);
    return RT_OK;
}

/* building_at(core, x, y) -> uint8 (n,): rt_building_at at integer points. */
static PyObject *features_building_at(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *core, *xo, *yo;
    PyArrayObject *x = NULL, *y = NULL, *out = NULL;
    if (!PyArg_ParseTuple(args, "OOO:building_at", &core, &xo, &yo)) return NULL;
    if (!rtpy_terrain_check(core)) {
        PyErr_SetString(PyExc_TypeError, "core: must be a relfterrain._core.TerrainCore");
        return NULL;
    }
    x = rtpy_input_1d(xo, "x", NPY_INT64);
    y = x ? rtpy_input_1d(yo, "y", NPY_INT64) : NULL;
    if (!y) goto fail;
    npy_intp n = PyArray_DIM(x, 0);
    if (PyArray_DIM(y, 0) != n) {
        PyErr_SetString(PyExc_ValueError, "x, y: must have the same length");
        goto fail;
    }
    out = (PyArrayObject *)PyArray_EMPTY(1, &n, NPY_UINT8, 0);
    if (!out) goto fail;
    rt_terrain p;
    rtpy_placed_box *box = rtpy_terrain_snapshot((rtpy_terrain *)core, &p);
    building_ctx c = {&p, PyArray_DATA(x), PyArray_DATA(y)};
    int given = 0;
    rt_status s;
    int rc = n > 0 ? rtpy_slices(building_rows, &c, n, 1, &out, &given, &s) : 0;
    rtpy_box_release(box);
    if (rc < 0) goto fail; /* interrupted */
    Py_DECREF(x);
    Py_DECREF(y);
    return (PyObject *)out;
fail:
    Py_XDECREF(x);
    Py_XDECREF(y);
    Py_XDECREF(out);
    return NULL;
}

static PyMethodDef features_methods[] = {
    {"building_at", (PyCFunction)features_building_at, METH_VARARGS,
     "building_at(core, x, y)\n--\n\n1 where a building has its centre at the integer point "
     "(x[k], y[k]) (SPEC 5), else 0."},
    {NULL, NULL, 0, NULL},
};

int rtpy_features_exec(PyObject *module)
{
    return PyModule_AddFunctions(module, features_methods);
}
