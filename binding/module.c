/*
 * module.c - the relfterrain._core extension module: its definition and the
 * registry of generators (one exec line each).  The helpers the binding
 * files share are in helpers.c; each generator's binding in <name>.c.
 */
#define RTPY_IMPORT_ARRAY
#include "helpers.h"

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

/* empty(ny, nx, typenum): a fresh C-contiguous (ny, nx) array allocated as
 * the grids allocate theirs (large ones through the output cache), for
 * results that Python fills with the grids' out= (relfterrain.dask.compute). */
static PyObject *core_empty(PyObject *module, PyObject *args)
{
    (void)module;
    long long ny, nx;
    int typenum;
    if (!PyArg_ParseTuple(args, "LLi", &ny, &nx, &typenum)) return NULL;
    if (ny < 0 || nx < 0) {
        PyErr_SetString(PyExc_ValueError, "ny, nx: must be >= 0");
        return NULL;
    }
    if (typenum != NPY_FLOAT64 && typenum != NPY_FLOAT32 && typenum != NPY_UINT8) {
        PyErr_SetString(PyExc_ValueError, "typenum: float64, float32 or uint8");
        return NULL;
    }
    npy_intp dims[2] = {(npy_intp)ny, (npy_intp)nx};
    return (PyObject *)rtpy_output(Py_None, "ny, nx", typenum, 2, dims);
}

static PyMethodDef core_methods[] = {
    {"empty", core_empty, METH_VARARGS,
     "empty(ny, nx, typenum)\n--\n\nA fresh (ny, nx) array allocated as the grids' results."},
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
    if (PyModule_AddIntConstant(module, "MAX_THREADS", RT_MAX_THREADS) < 0) return -1;
    /* the status a call stopped by its poll returns (never raised as such:
     * the signal handler's exception is) */
    if (PyModule_AddIntConstant(module, "ERR_INTERRUPTED", RT_ERR_INTERRUPTED) < 0) return -1;
    /* the codes and the placed encoding, so Python never retypes them */
    PyObject *names = PyTuple_New(RT_TERRAIN_TYPE_COUNT);
    for (int k = 0; names && k < RT_TERRAIN_TYPE_COUNT; k++)
        PyTuple_SET_ITEM(names, k, PyUnicode_FromString(rt_terrain_type_name(k)));
    if (rtpy_module_add(module, "TERRAIN_TYPE_NAMES", names) < 0) return -1;
    names = PyTuple_New(RT_FEATURE_COUNT);
    for (int k = 0; names && k < RT_FEATURE_COUNT; k++)
        PyTuple_SET_ITEM(names, k, PyUnicode_FromString(rt_feature_name(k)));
    if (rtpy_module_add(module, "FEATURE_NAMES", names) < 0) return -1;
    if (PyModule_AddIntConstant(module, "PLACED_TERRAIN", RT_PLACED_TERRAIN(0)) < 0) return -1;
    if (PyModule_AddIntConstant(module, "PLACED_FEATURE", RT_PLACED_FEATURE(0)) < 0) return -1;
    if (PyModule_AddIntConstant(module, "PLACED_CODE_MASK", RT_PLACED_CODE(0xff)) < 0) return -1;
    /* one line per generator */
    if (rtpy_terrain_exec(module) < 0) return -1;
    if (rtpy_classic_exec(module) < 0) return -1;
    if (rtpy_galaxy_exec(module) < 0) return -1;
    if (rtpy_streams_exec(module) < 0) return -1;
    if (rtpy_math_exec(module) < 0) return -1;
    if (rtpy_roads_exec(module) < 0) return -1;
    if (rtpy_features_exec(module) < 0) return -1;
    if (rtpy_sites_exec(module) < 0) return -1;
    if (rtpy_mines_exec(module) < 0) return -1;
    if (rtpy_islands_exec(module) < 0) return -1;
    if (rtpy_evolve_exec(module) < 0) return -1;
    if (rtpy_nebula_exec(module) < 0) return -1;
    if (rtpy_planet_exec(module) < 0) return -1;
    if (rtpy_contours_exec(module) < 0) return -1;
    if (rtpy_limits_exec(module) < 0) return -1;
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
