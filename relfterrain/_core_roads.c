/*
 * _core_roads.c - binding of roads (SPEC 13): the cells a road paves with
 * its bridge check (GIL released), and the placed-table updates that paving
 * and removing roads need (many cells at once, all or nothing).
 */
#include "_binding.h"

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
    static char *kwlist[] = {"core", "points", "half_width", "max_bridge", "threads", NULL};
    PyObject *core, *points_obj, *threads_obj = NULL;
    int half_width = 2;
    long long max_bridge = 60;
    int threads = 1;
    PyArrayObject *pts = NULL, *bridge = NULL, *out = NULL;
    int64_t *scratch = NULL, *xs = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|$iLO", kwlist, &core, &points_obj,
                                     &half_width, &max_bridge, &threads_obj))
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
    rt_road road = {xs, xs + n, n, half_width, (int64_t)max_bridge};
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
    const int64_t *c = PyArray_DATA(cells);
    uint8_t *o = PyArray_DATA(out);
    const rt_placed *table = ((rtpy_terrain *)core)->placed->table;
    for (npy_intp k = 0; k < n; k++) o[k] = rt_placed_get(table, c[2 * k], c[2 * k + 1]);
    Py_DECREF(cells);
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
    copy = rt_placed_clone(self->placed->table);
    if (!copy) {
        PyErr_NoMemory();
        goto fail;
    }
    const int64_t *c = PyArray_DATA(cells);
    const uint8_t *v = PyArray_DATA(values);
    for (npy_intp k = 0; k < n; k++) {
        if (v[k] == 0) {
            rt_placed_remove(copy, c[2 * k], c[2 * k + 1]);
            continue;
        }
        rt_status s = rt_placed_set(copy, c[2 * k], c[2 * k + 1], v[k]);
        if (s != RT_OK) {
            rtpy_raise(s, "values");
            goto fail;
        }
    }
    rtpy_placed_box *box = rtpy_box_new(copy);
    if (!box) {
        PyErr_NoMemory();
        goto fail;
    }
    rtpy_box_release(self->placed);
    self->placed = box;
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
     "road_cells(core, points, *, half_width=2, max_bridge=60, threads=1)\n--\n\n"
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
