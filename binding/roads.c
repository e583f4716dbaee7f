/*
 * roads.c - binding of roads (SPEC 13): the cells a road paves with
 * its bridge check (GIL released), and the placed-table updates that paving
 * and removing roads need (many cells at once, all or nothing).
 */
#include "helpers.h"

/* The x and y columns of an (n, 2) int64 array of points (new references). */
static int points_xy(PyObject *obj, const char *name, PyArrayObject **arr)
{
    *arr = (PyArrayObject *)PyArray_FromAny(obj, PyArray_DescrFromType(NPY_INT64), 2, 2,
                                            NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST, NULL);
    if (!*arr) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: must be an (n, 2) array of integers", name);
        return -1;
    }
    if (PyArray_DIM(*arr, 1) != 2) {
        Py_CLEAR(*arr);
        PyErr_Format(PyExc_ValueError, "%s: must have shape (n, 2)", name);
        return -1;
    }
    return 0;
}

/* road_cells(core, points, *, half_width, max_bridge, threads)
 *   -> (cells int64 (k, 2) sorted by (x, y), bridge int64 (n-1,), bad_segment) */
static PyObject *roads_road_cells(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"core",    "points",      "half_width", "max_bridge",
                             "threads", "bridge_lake", NULL};
    PyObject *core, *points_obj, *threads_obj = NULL;
    int half_width = 2, bridge_lake = 0;
    long long max_bridge = 60;
    int threads = 1;
    PyArrayObject *pts = NULL, *bridge = NULL, *out = NULL;
    int64_t *scratch = NULL, *xs = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|$iLOp", kwlist, &core, &points_obj,
                                     &half_width, &max_bridge, &threads_obj, &bridge_lake))
        return NULL;
    if (!rtpy_terrain_check(core)) {
        PyErr_SetString(PyExc_TypeError, "core: must be a relfterrain._core.TerrainCore");
        return NULL;
    }
    if (threads_obj && rtpy_threads(threads_obj, &threads) < 0) return NULL;
    if (points_xy(points_obj, "points", &pts) < 0) return NULL;
    int64_t n = (int64_t)PyArray_DIM(pts, 0);
    /* the core wants x and y apart */
    xs = PyMem_RawMalloc((size_t)(n > 0 ? n : 1) * 2 * sizeof *xs);
    if (!xs) {
        PyErr_NoMemory();
        goto fail;
    }
    const int64_t *pd = PyArray_DATA(pts);
    for (int64_t k = 0; k < n; k++) {
        xs[k] = pd[2 * k];
        xs[n + k] = pd[2 * k + 1];
    }
    rt_road road = {xs, xs + n, n, half_width, (int64_t)max_bridge, bridge_lake};
    int64_t bound = 0;
    rt_status s = rt_road_check(&road, &bound);
    if (s != RT_OK) {
        rtpy_raise(s, s == RT_ERR_PARAM ? "half_width" : "points");
        goto fail;
    }
    /* bound <= INT64_MAX / 16: the byte count below cannot overflow int64 */
    if ((uint64_t)bound * 2 * sizeof(int64_t) > (uint64_t)PY_SSIZE_T_MAX) {
        PyErr_SetString(PyExc_MemoryError, "points: the road is too long");
        goto fail;
    }
    /* the cells (16 bytes a cell, the road's bound) and their sorting
     * buffer as large, before allocating */
    if (rtpy_check_alloc_for((unsigned long long)bound * 4 * sizeof(int64_t), "points, half_width",
                             "the cells the road paves and their sorting buffer") < 0)
        goto fail;
    scratch = PyMem_RawMalloc((size_t)(bound > 0 ? bound : 1) * 2 * sizeof *scratch);
    npy_intp nseg = (npy_intp)(n - 1);
    bridge = (PyArrayObject *)PyArray_ZEROS(1, &nseg, NPY_INT64, 0);
    if (!scratch || !bridge) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto fail;
    }
    rt_terrain p;
    rtpy_placed_box *box = rtpy_terrain_snapshot((rtpy_terrain *)core, &p);
    int64_t count = 0, bad = -1;
    int64_t *bd = PyArray_DATA(bridge);
    rtpy_poll pl;
    const rt_poll *poll = rtpy_poll_init(&pl);
    Py_BEGIN_ALLOW_THREADS
    s = rt_road_cells(&p, &road, scratch, bound, &count, bd, &bad, threads, poll);
    Py_END_ALLOW_THREADS
    rtpy_box_release(box);
    if (s != RT_OK) {
        rtpy_raise(s, "points");
        goto fail;
    }
    npy_intp dims[2] = {(npy_intp)count, 2};
    out = (PyArrayObject *)PyArray_EMPTY(2, dims, NPY_INT64, 0);
    if (!out) goto fail;
    if (count) memcpy(PyArray_DATA(out), scratch, (size_t)count * 2 * sizeof *scratch);
    PyMem_RawFree(scratch);
    PyMem_RawFree(xs);
    Py_DECREF(pts);
    return Py_BuildValue("(NNL)", out, bridge, (long long)bad);

fail:
    PyMem_RawFree(scratch);
    PyMem_RawFree(xs);
    Py_XDECREF(pts);
    Py_XDECREF(bridge);
    Py_XDECREF(out);
    return NULL;
}

/* Many cells of a table, in slices (rtpy_slices). */
typedef struct cells_ctx {
    const rt_placed *table; /* get */
    rt_placed *copy;        /* set: a private copy */
    const int64_t *cells;
    const uint8_t *values;
} cells_ctx;

static rt_status get_rows(void *vctx, int64_t row0, int64_t nrows, void *const *data)
{
    const cells_ctx *c = vctx;
    uint8_t *o = data[0];
    for (int64_t k = 0; k < nrows; k++)
        o[k] = rt_placed_get(c->table, c->cells[2 * (row0 + k)], c->cells[2 * (row0 + k) + 1]);
    return RT_OK;
}

static rt_status set_rows(void *vctx, int64_t row0, int64_t nrows, void *const *data)
{
    (void)data;
    const cells_ctx *c = vctx;
    for (int64_t k = row0; k < row0 + nrows; k++) {
        if (c->values[k] == 0) {
            rt_placed_remove(c->copy, c->cells[2 * k], c->cells[2 * k + 1]);
            continue;
        }
        rt_status s = rt_placed_set(c->copy, c->cells[2 * k], c->cells[2 * k + 1], c->values[k]);
        if (s != RT_OK) return s;
    }
    return RT_OK;
}

/* placed_get_many(core, cells) -> uint8 (k,): the encoded values (0: none). */
static PyObject *roads_placed_get_many(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *core, *cells_obj;
    PyArrayObject *cells = NULL;
    if (!PyArg_ParseTuple(args, "OO:placed_get_many", &core, &cells_obj)) return NULL;
    if (!rtpy_terrain_check(core)) {
        PyErr_SetString(PyExc_TypeError, "core: must be a relfterrain._core.TerrainCore");
        return NULL;
    }
    if (points_xy(cells_obj, "cells", &cells) < 0) return NULL;
    npy_intp n = PyArray_DIM(cells, 0);
    PyArrayObject *out = (PyArrayObject *)PyArray_EMPTY(1, &n, NPY_UINT8, 0);
    if (!out) {
        Py_DECREF(cells);
        return NULL;
    }
    /* from a snapshot, in slices without the GIL (Ctrl-C between them) */
    rt_terrain p;
    rtpy_placed_box *box = rtpy_terrain_snapshot((rtpy_terrain *)core, &p);
    cells_ctx ctx = {p.placed, NULL, PyArray_DATA(cells), NULL};
    int given = 0;
    rt_status s;
    int rc = n > 0 ? rtpy_slices(get_rows, &ctx, n, 1, &out, &given, &s) : 0;
    rtpy_box_release(box);
    Py_DECREF(cells);
    if (rc < 0) { /* interrupted */
        Py_DECREF(out);
        return NULL;
    }
    return (PyObject *)out;
}

/* placed_set_many(core, cells, values): cell k gets values[k] (0 removes it).
 * All or nothing: the changes are made on a copy of the table, which then
 * replaces it (a computation holding the old table keeps it). */
static PyObject *roads_placed_set_many(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *core, *cells_obj, *values_obj;
    PyArrayObject *cells = NULL, *values = NULL;
    rt_placed *copy = NULL;
    if (!PyArg_ParseTuple(args, "OOO:placed_set_many", &core, &cells_obj, &values_obj))
        return NULL;
    if (!rtpy_terrain_check(core)) {
        PyErr_SetString(PyExc_TypeError, "core: must be a relfterrain._core.TerrainCore");
        return NULL;
    }
    if (points_xy(cells_obj, "cells", &cells) < 0) return NULL;
    values = rtpy_input_1d(values_obj, "values", NPY_UINT8);
    if (!values) goto fail;
    npy_intp n = PyArray_DIM(cells, 0);
    if (PyArray_DIM(values, 0) != n) {
        PyErr_SetString(PyExc_ValueError, "cells, values: must have the same length");
        goto fail;
    }
    rtpy_terrain *self = (rtpy_terrain *)core;
    /* All or nothing, one step as seen from Python: a private copy changed
     * in slices without the GIL (Ctrl-C between them), installed if the
     * table did not change meanwhile (else done again on the new one). */
    for (;;) {
        rtpy_placed_box *box = rtpy_box_acquire(self->placed);
        copy = rt_placed_clone(box->table);
        if (!copy) {
            rtpy_box_release(box);
            PyErr_NoMemory();
            goto fail;
        }
        cells_ctx ctx = {NULL, copy, PyArray_DATA(cells), PyArray_DATA(values)};
        int given = 0;
        rt_status s = RT_OK;
        if (n > 0 && rtpy_slices(set_rows, &ctx, n, 0, NULL, &given, &s) < 0) {
            rtpy_box_release(box);
            if (s != RT_OK) rtpy_raise(s, "values"); /* else interrupted */
            goto fail;
        }
        int installed = rtpy_box_install(&self->placed, box, copy);
        if (installed < 0) goto fail;
        if (installed > 0) break;
        rt_placed_free(copy);
        copy = NULL;
    }
    Py_DECREF(cells);
    Py_DECREF(values);
    Py_RETURN_NONE;

fail:
    rt_placed_free(copy);
    Py_XDECREF(cells);
    Py_XDECREF(values);
    return NULL;
}

static PyMethodDef roads_methods[] = {
    {"road_cells", (PyCFunction)(void (*)(void))roads_road_cells, METH_VARARGS | METH_KEYWORDS,
     "road_cells(core, points, *, half_width=2, max_bridge=60, threads=1, bridge_lake=False)\n--\n\n"
     "(cells int64 (k, 2), bridge int64 (n-1,), bad_segment): the cells a road paves "
     "(sorted, distinct; empty when refused) and its bridge check (SPEC 13)."},
    {"placed_get_many", (PyCFunction)roads_placed_get_many, METH_VARARGS,
     "placed_get_many(core, cells)\n--\n\nThe encoded placed values at cells (k, 2); 0: none."},
    {"placed_set_many", (PyCFunction)roads_placed_set_many, METH_VARARGS,
     "placed_set_many(core, cells, values)\n--\n\n"
     "Set cell k to values[k] (0 removes), all or nothing."},
    {NULL, NULL, 0, NULL},
};

int rtpy_roads_exec(PyObject *module)
{
    if (PyModule_AddFunctions(module, roads_methods) < 0) return -1;
    if (PyModule_AddIntConstant(module, "MAX_ROAD_HALF_WIDTH", RT_MAX_ROAD_HALF_WIDTH) < 0)
        return -1;
    if (PyModule_AddIntConstant(module, "MAX_ROAD_SEGMENT", RT_MAX_ROAD_SEGMENT) < 0) return -1;
    return 0;
}
