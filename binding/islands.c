/*
 * islands.c - binding of rt_label_islands (csrc/islands.c):
 * label_islands(land) over a 2-D boolean array.  The Python API is
 * relfterrain/presets.py (islands).
 */
#include "helpers.h"

static PyObject *islands_label(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"land", NULL};
    PyObject *land_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:label_islands", kwlist, &land_obj))
        return NULL;
    PyArrayObject *land = NULL, *labels = NULL, *counts = NULL;
    int64_t *scratch = NULL;
    land = (PyArrayObject *)PyArray_FromAny(land_obj, PyArray_DescrFromType(NPY_BOOL), 2, 2,
                                            NPY_ARRAY_IN_ARRAY, NULL);
    if (!land) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "land: must be a 2-D array of booleans");
        goto fail;
    }
    npy_intp ny = PyArray_DIM(land, 0), nx = PyArray_DIM(land, 1);
    if (nx < 1 || ny < 1 || (long long)nx > RT_MAX_ISLAND_POINTS / (long long)ny) {
        PyErr_Format(PyExc_ValueError,
                     "land: the block must have 1 to %lld points, got %lld x %lld",
                     (long long)RT_MAX_ISLAND_POINTS, (long long)ny, (long long)nx);
        goto fail;
    }
    npy_intp dims[2] = {ny, nx};
    labels = (PyArrayObject *)PyArray_EMPTY(2, dims, NPY_INT32, 0);
    scratch = PyMem_RawMalloc(((size_t)nx * (size_t)ny + 1) * sizeof *scratch);
    if (!labels || !scratch) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto fail;
    }
    int64_t count = 0;
    rt_status s;
    rtpy_poll pl;
    const rt_poll *poll = rtpy_poll_init(&pl);
    Py_BEGIN_ALLOW_THREADS
    s = rt_label_islands(PyArray_DATA(land), nx, ny, PyArray_DATA(labels), scratch, &count, poll);
    Py_END_ALLOW_THREADS
    if (s != RT_OK) {
        rtpy_raise(s, "land");
        goto fail;
    }
    npy_intp cdims[1] = {(npy_intp)count + 1};
    counts = (PyArrayObject *)PyArray_EMPTY(1, cdims, NPY_INT64, 0);
    if (!counts) goto fail;
    memcpy(PyArray_DATA(counts), scratch, (size_t)(count + 1) * sizeof *scratch);
    PyMem_RawFree(scratch);
    Py_DECREF(land);
    return Py_BuildValue("(NN)", labels, counts);

fail:
    PyMem_RawFree(scratch);
    Py_XDECREF(land);
    Py_XDECREF(labels);
    Py_XDECREF(counts);
    return NULL;
}

static PyMethodDef islands_methods[] = {
    {"label_islands", (PyCFunction)(void (*)(void))islands_label, METH_VARARGS | METH_KEYWORDS,
     "label_islands(land)\n--\n\n4-neighbour components of a 2-D boolean array: (labels int32, "
     "counts int64) with counts[0] the points that are not land."},
    {NULL, NULL, 0, NULL},
};

int rtpy_islands_exec(PyObject *module)
{
    return PyModule_AddFunctions(module, islands_methods);
}
