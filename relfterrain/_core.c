/*
 * _core.c - the relfterrain._core extension module: module definition and
 * the helpers every binding file shares (argument checks, output arrays,
 * mapping core status codes to Python exceptions in one place).
 */
#define RTPY_IMPORT_ARRAY
#include "_binding.h"

PyObject *rtpy_raise(rt_status status, const char *what)
{
    const char *msg = rt_strerror(status);
    switch (status) {
    case RT_OK:
        PyErr_SetString(PyExc_SystemError, "rtpy_raise called without an error");
        break;
    case RT_ERR_NOMEM:
        PyErr_Format(PyExc_MemoryError, "%s: %s", what, msg);
        break;
    case RT_ERR_PLACED_VALUE:
        PyErr_Format(PyExc_TypeError, "%s: %s", what, msg);
        break;
    case RT_ERR_NULL:
        PyErr_Format(PyExc_SystemError, "%s: %s", what, msg);
        break;
    default:
        PyErr_Format(PyExc_ValueError, "%s: %s", what, msg);
        break;
    }
    return NULL;
}

int rtpy_threads(PyObject *obj, int *out)
{
    long v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "threads: must be an int >= 1 (or None for all cores)");
        return -1;
    }
    if (v < 1) {
        PyErr_Format(PyExc_ValueError, "threads: must be >= 1, got %ld", v);
        return -1;
    }
    *out = v > 256 ? 256 : (int)v;
    return 0;
}

int rtpy_check_block(long long nx, long long ny, long long c0, long long r0, size_t itemsize)
{
    if (nx < 1) {
        PyErr_Format(PyExc_ValueError, "nx: the number of columns must be >= 1, got %lld", nx);
        return -1;
    }
    if (ny < 1) {
        PyErr_Format(PyExc_ValueError, "ny: the number of rows must be >= 1, got %lld", ny);
        return -1;
    }
    if (c0 < 0 || r0 < 0) {
        PyErr_Format(PyExc_ValueError, "c0, r0: block offsets must be >= 0, got %lld, %lld",
                     c0, r0);
        return -1;
    }
    /* nx*ny*itemsize must fit in a Py_ssize_t before anything is allocated */
    if ((unsigned long long)nx > (unsigned long long)PY_SSIZE_T_MAX / itemsize / (unsigned long long)ny) {
        PyErr_Format(PyExc_MemoryError,
                     "nx, ny: a %lld x %lld grid is too large to allocate", ny, nx);
        return -1;
    }
    return 0;
}

PyArrayObject *rtpy_output(PyObject *obj, const char *name, int typenum, int ndim,
                           const npy_intp *dims)
{
    if (obj == NULL || obj == Py_None) {
        PyArrayObject *a = (PyArrayObject *)PyArray_EMPTY(ndim, (npy_intp *)dims, typenum, 0);
        return a; /* NULL with MemoryError if it cannot be allocated */
    }
    if (!PyArray_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: must be a numpy.ndarray, got %.100s", name,
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    PyArrayObject *a = (PyArrayObject *)obj;
    PyArray_Descr *want = PyArray_DescrFromType(typenum);
    int same = PyArray_EquivTypes(PyArray_DESCR(a), want) && PyArray_ISNBO(PyArray_DESCR(a)->byteorder);
    if (!same) {
        PyErr_Format(PyExc_TypeError, "%s: dtype must be %S, got %S", name, (PyObject *)want,
                     (PyObject *)PyArray_DESCR(a));
        Py_DECREF(want);
        return NULL;
    }
    Py_DECREF(want);
    int shape_ok = PyArray_NDIM(a) == ndim;
    for (int k = 0; shape_ok && k < ndim; k++) shape_ok = PyArray_DIM(a, k) == dims[k];
    if (!shape_ok) {
        PyObject *want_shape = PyTuple_New(ndim);
        PyObject *got_shape = PyTuple_New(PyArray_NDIM(a));
        if (want_shape && got_shape) {
            for (int k = 0; k < ndim; k++)
                PyTuple_SET_ITEM(want_shape, k, PyLong_FromSsize_t(dims[k]));
            for (int k = 0; k < PyArray_NDIM(a); k++)
                PyTuple_SET_ITEM(got_shape, k, PyLong_FromSsize_t(PyArray_DIM(a, k)));
            PyErr_Format(PyExc_ValueError, "%s: shape must be %S, got %S", name, want_shape,
                         got_shape);
        }
        Py_XDECREF(want_shape);
        Py_XDECREF(got_shape);
        return NULL;
    }
    if (!PyArray_IS_C_CONTIGUOUS(a) || !PyArray_ISALIGNED(a)) {
        PyErr_Format(PyExc_ValueError, "%s: must be C-contiguous and aligned", name);
        return NULL;
    }
    if (!PyArray_ISWRITEABLE(a)) {
        PyErr_Format(PyExc_ValueError, "%s: must be writeable", name);
        return NULL;
    }
    Py_INCREF(a);
    return a;
}

PyArrayObject *rtpy_input_1d(PyObject *obj, const char *name, int typenum)
{
    PyArray_Descr *d = PyArray_DescrFromType(typenum); /* stolen below */
    PyObject *a = PyArray_FromAny(obj, d, 1, 1, NPY_ARRAY_IN_ARRAY, NULL);
    if (!a) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_Format(PyExc_ValueError, "%s: must be a 1-D array-like of numbers (%S)", name,
                     value ? value : Py_None);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        return NULL;
    }
    return (PyArrayObject *)a;
}

int rtpy_profile_copy(PyObject *obj, double **buf, uint32_t *len)
{
    PyArrayObject *prof = rtpy_input_1d(obj, "profile", NPY_FLOAT64);
    if (!prof) return -1;
    npy_intp n = PyArray_DIM(prof, 0);
    if (n < 1 || n > (npy_intp)RT_MAX_PROFILE || (n & (n - 1)) != 0) {
        PyErr_Format(PyExc_ValueError,
                     "profile: length must be a power of two between 1 and %u, got %zd",
                     (unsigned)RT_MAX_PROFILE, (Py_ssize_t)n);
        Py_DECREF(prof);
        return -1;
    }
    *buf = PyMem_RawMalloc((size_t)n * sizeof(double));
    if (!*buf) {
        Py_DECREF(prof);
        PyErr_NoMemory();
        return -1;
    }
    memcpy(*buf, PyArray_DATA(prof), (size_t)n * sizeof(double));
    *len = (uint32_t)n;
    Py_DECREF(prof);
    return 0;
}

static PyObject *core_strerror(PyObject *module, PyObject *arg)
{
    (void)module;
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) return NULL;
    return PyUnicode_FromString(rt_strerror((rt_status)v));
}

/* The SIMD variants: a dict name -> (code, supported here, runs as). */
static PyObject *core_simd_variants(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    for (int v = 0; v < RT_SIMD_COUNT; v++) {
        PyObject *item = Py_BuildValue("(iOs)", v, rt_simd_supported(v) ? Py_True : Py_False,
                                       rt_simd_name(rt_simd_resolve(v)));
        if (!item || PyDict_SetItemString(d, rt_simd_name(v), item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(item);
    }
    return d;
}

static PyMethodDef core_methods[] = {
    {"simd_variants", core_simd_variants, METH_NOARGS,
     "simd_variants()\n--\n\n{name: (code, supported, runs_as)} for every SIMD variant."},
    {"strerror", core_strerror, METH_O, "strerror(status)\n--\n\nThe core's text for a status code."},
    {NULL, NULL, 0, NULL},
};

static int core_exec(PyObject *module)
{
    if (PyModule_AddStringConstant(module, "CORE_VERSION", RT_VERSION) < 0) return -1;
    if (PyModule_AddObject(module, "TERRAIN_DOMAIN", PyFloat_FromDouble(RT_TERRAIN_DOMAIN)) < 0)
        return -1;
    if (PyModule_AddObject(module, "GALAXY_DOMAIN", PyFloat_FromDouble(RT_GALAXY_DOMAIN)) < 0)
        return -1;
    if (PyModule_AddIntConstant(module, "MAX_PROFILE", RT_MAX_PROFILE) < 0) return -1;
    if (PyModule_AddIntConstant(module, "MAX_DIRECTIONS", RT_MAX_DIRECTIONS) < 0) return -1;
    if (PyModule_AddIntConstant(module, "MAX_VECTOR", RT_MAX_VECTOR) < 0) return -1;
    /* one line per generator */
    if (rtpy_terrain_exec(module) < 0) return -1;
    if (rtpy_classic_exec(module) < 0) return -1;
    if (rtpy_galaxy_exec(module) < 0) return -1;
    if (rtpy_math_exec(module) < 0) return -1;
    return 0;
}

static PyModuleDef_Slot core_slots[] = {
    {Py_mod_exec, core_exec},
    {0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    "relfterrain._core",
    "The relfterrain C core's binding (use the relfterrain package instead).",
    0,
    core_methods,
    core_slots,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    import_array();
    return PyModuleDef_Init(&core_module);
}
