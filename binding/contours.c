/*
 * contours.c - binding of the contour pixels (csrc/contours.c) for
 * relfterrain/maps.py.
 */
#include "helpers.h"

static PyObject *contours_mask(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"z", "interval", "index_every", "max_crossings", "threads", NULL};
    PyObject *z_obj, *threads_obj = NULL;
    double interval;
    int index_every, threads = 1;
    long long max_crossings;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OdiL|O", kwlist, &z_obj, &interval,
                                     &index_every, &max_crossings, &threads_obj))
        return NULL;
    if (threads_obj && rtpy_threads(threads_obj, &threads) < 0) return NULL;
    PyArrayObject *z = rtpy_input(z_obj, "z", NPY_FLOAT64, 2, 2), *mask = NULL;
    if (!z) return NULL;
    npy_intp dims[2] = {PyArray_DIM(z, 0), PyArray_DIM(z, 1)};
    mask = rtpy_output(Py_None, "mask", NPY_UINT8, 2, dims);
    if (!mask) goto fail;
    rt_status s = RT_OK;
    int64_t crossings = 0;
    if (dims[0] > 0 && dims[1] > 0) {
        const double *zd = PyArray_DATA(z);
        uint8_t *md = PyArray_DATA(mask);
        rtpy_poll pl;
        const rt_poll *poll = rtpy_poll_init(&pl);
        Py_BEGIN_ALLOW_THREADS
        s = rt_contour_mask_threads(zd, dims[1], dims[0], interval, index_every, max_crossings,
                                    md, &crossings, threads, poll);
        Py_END_ALLOW_THREADS
    }
    if (s != RT_OK) {
        if (s == RT_ERR_SIZE) {
            /* the parsed value, not args[1]: interval may have come by keyword */
            PyObject *got = PyFloat_FromDouble(interval);
            if (got) {
                PyErr_Format(PyExc_ValueError,
                             "interval: too small for this map (more than %lld contour "
                             "crossings), got %R", max_crossings, got);
                Py_DECREF(got);
            }
        } else {
            rtpy_raise(s, "z, interval, index_every");
        }
        goto fail;
    }
    Py_DECREF(z);
    return (PyObject *)mask;
fail:
    Py_XDECREF(z);
    Py_XDECREF(mask);
    return NULL;
}

static PyMethodDef contours_methods[] = {
    {"contour_mask", (PyCFunction)(void (*)(void))contours_mask, METH_VARARGS | METH_KEYWORDS,
     "contour_mask(z, interval, index_every, max_crossings, threads=1) -> uint8 (ny, nx)"},
    {NULL, NULL, 0, NULL},
};

int rtpy_contours_exec(PyObject *module)
{
    return PyModule_AddFunctions(module, contours_methods);
}
