/*
 * planet.c - binding of the planets (csrc/planet.c): planet_points
 * and planet_map, stateless (the parameters are passed in each call), and
 * planet_placed, which builds a planet's placed table once: a capsule that
 * owns it, never changed afterwards, so a computation that releases the GIL
 * can read it while the Planet makes a new one.  The Python API is
 * relfterrain/planet.py.
 */
#include "helpers.h"

#define PLACED_CAPSULE "relfterrain._core.planet_placed"

typedef struct planet_args {
    rt_planet p;
    PyArrayObject *prof, *vec;
} planet_args;

static void planet_args_free(planet_args *a)
{
    Py_XDECREF(a->prof);
    Py_XDECREF(a->vec);
    a->prof = a->vec = NULL;
}

static void placed_capsule_free(PyObject *capsule)
{
    rt_placed_free(PyCapsule_GetPointer(capsule, PLACED_CAPSULE));
}

/* planet_placed(xs, ys, zs, codes): the placed table of (xs[k], ys[k], zs[k])
 * -> codes[k], built once, in a capsule (the planets' key: rt_planet_key_y). */
static PyObject *planet_placed(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *obj[4];
    PyArrayObject *cols[4] = {NULL, NULL, NULL, NULL};
    static const char *const names[4] = {"placed xs", "placed ys", "placed zs", "placed codes"};
    rt_placed *table = NULL;
    PyObject *capsule = NULL;
    if (!PyArg_ParseTuple(args, "OOOO:planet_placed", &obj[0], &obj[1], &obj[2], &obj[3]))
        return NULL;
    for (int k = 0; k < 4; k++)
        if (!(cols[k] = rtpy_input_1d(obj[k], names[k], NPY_INT64))) goto fail;
    npy_intp n = PyArray_DIM(cols[0], 0);
    for (int k = 1; k < 4; k++)
        if (PyArray_DIM(cols[k], 0) != n) {
            PyErr_SetString(PyExc_ValueError, "placed: columns must have one common length");
            goto fail;
        }
    if (!(table = rt_placed_new())) {
        PyErr_NoMemory();
        goto fail;
    }
    const int64_t *xs = PyArray_DATA(cols[0]), *ys = PyArray_DATA(cols[1]);
    const int64_t *zs = PyArray_DATA(cols[2]), *cs = PyArray_DATA(cols[3]);
    for (npy_intp i = 0; i < n; i++) {
        rt_status st = rt_placed_set(table, xs[i], rt_planet_key_y(ys[i], zs[i]), (uint8_t)cs[i]);
        if (st != RT_OK) {
            rtpy_raise(st, "placed");
            goto fail;
        }
    }
    if (!(capsule = PyCapsule_New(table, PLACED_CAPSULE, placed_capsule_free))) goto fail;
    for (int k = 0; k < 4; k++) Py_DECREF(cols[k]);
    return capsule;
fail:
    rt_placed_free(table);
    for (int k = 0; k < 4; k++) Py_XDECREF(cols[k]);
    return NULL;
}

/* params: (profile, vectors (12, N), radius, lake_base, lake_height,
 * feature_mask, placed) with placed None or a planet_placed capsule, borrowed
 * for the call (the params tuple holds it). */
static int planet_parse(PyObject *params, planet_args *a)
{
    PyObject *po, *vo, *placed;
    double radius, lake_base, lake_height;
    unsigned long mask;
    memset(a, 0, sizeof *a);
    if (!PyArg_ParseTuple(params, "OOdddkO:planet params", &po, &vo, &radius, &lake_base,
                          &lake_height, &mask, &placed))
        return -1;
    rt_planet_defaults(&a->p);
    a->prof = rtpy_input_1d(po, "profile", NPY_FLOAT64);
    if (!a->prof) return -1;
    if (rtpy_profile_check(a->prof) < 0) return -1;
    a->vec = (PyArrayObject *)PyArray_FromAny(vo, PyArray_DescrFromType(NPY_FLOAT64), 2, 2,
                                              NPY_ARRAY_IN_ARRAY, NULL);
    if (!a->vec) return -1;
    npy_intp n = PyArray_DIM(a->vec, 1);
    if (PyArray_DIM(a->vec, 0) != RT_PLANET_VECTOR_COUNT || n < 1 || n > RT_MAX_DIRECTIONS) {
        PyErr_SetString(PyExc_ValueError, "vectors: need 12 vectors of one length 1..64");
        return -1;
    }
    const double *v = PyArray_DATA(a->vec);
    a->p.directions = (uint32_t)n;
    for (int k = 0; k < RT_PLANET_VECTOR_COUNT; k++)
        for (npy_intp i = 0; i < n; i++) a->p.vec[k][i] = v[k * n + i];
    a->p.profile = PyArray_DATA(a->prof);
    a->p.profile_len = (uint32_t)PyArray_DIM(a->prof, 0);
    a->p.radius = radius;
    a->p.lake_base = lake_base;
    a->p.lake_height = lake_height;
    a->p.feature_mask = (uint32_t)mask;
    rt_status s = rt_planet_check(&a->p, NULL);
    if (s != RT_OK) {
        rtpy_raise(s, s == RT_ERR_PARAM ? "radius, lake_base, lake_height"
                      : s == RT_ERR_VECTOR_VALUE ? "vectors" : "profile");
        return -1;
    }
    if (placed != Py_None) {
        rt_placed *table = PyCapsule_GetPointer(placed, PLACED_CAPSULE);
        if (!table) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "placed: must be None or a planet_placed table");
            return -1;
        }
        a->p.placed = table;
    }
    return 0;
}

/* Points in slices (rtpy_slices). */
typedef struct planet_rows_ctx {
    const rt_planet *p;
    const double *lat, *lon;
    int terra, threads;
} planet_rows_ctx;

static rt_status planet_rows(void *ctx, int64_t row0, int64_t nrows, void *const *data)
{
    const planet_rows_ctx *c = ctx;
    if (!c->terra)
        return rt_planet_height_points(c->p, c->lat + row0, c->lon + row0, nrows, data[0],
                                       c->threads);
    rt_terra_out o = {data[0], data[1], data[2], data[3]};
    return rt_planet_terra_points(c->p, c->lat + row0, c->lon + row0, nrows, &o, c->threads);
}

static PyObject *planet_points(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"params", "lat", "lon", "terra", "threads", NULL};
    PyObject *params, *lato, *lono, *th = NULL;
    int terra = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO|$pO:planet_points", kwlist, &params, &lato,
                                     &lono, &terra, &th))
        return NULL;
    planet_args a;
    PyArrayObject *lat = NULL, *lon = NULL, *outs[4] = {NULL, NULL, NULL, NULL};
    int threads = 1;
    if (th && th != Py_None && rtpy_threads(th, &threads) < 0) return NULL;
    if (planet_parse(params, &a) < 0) goto fail;
    if (!(lat = rtpy_input_1d(lato, "lat", NPY_FLOAT64)) ||
        !(lon = rtpy_input_1d(lono, "lon", NPY_FLOAT64)))
        goto fail;
    npy_intp n = PyArray_DIM(lat, 0);
    if (PyArray_DIM(lon, 0) != n) {
        PyErr_SetString(PyExc_ValueError, "lat, lon: must have one common length");
        goto fail;
    }
    static const int types[4] = {NPY_FLOAT64, NPY_FLOAT64, NPY_UINT8, NPY_UINT8};
    for (int k = 0; k < (terra ? 4 : 1); k++)
        if (!(outs[k] = (PyArrayObject *)PyArray_EMPTY(1, &n, types[k], 0))) goto fail;
    rt_status s = RT_OK;
    planet_rows_ctx ctx = {&a.p, PyArray_DATA(lat), PyArray_DATA(lon), terra, threads};
    int given[4] = {0, 0, 0, 0};
    if (n > 0 && rtpy_slices(planet_rows, &ctx, n, terra ? 4 : 1, outs, given, &s) < 0) {
        if (s != RT_OK) rtpy_raise(s, "lat, lon");
        goto fail;
    }
    planet_args_free(&a);
    Py_DECREF(lat), Py_DECREF(lon);
    if (!terra) return (PyObject *)outs[0];
    return Py_BuildValue("(NNNN)", outs[0], outs[1], outs[2], outs[3]);
fail:
    planet_args_free(&a);
    Py_XDECREF(lat), Py_XDECREF(lon);
    for (int k = 0; k < 4; k++) Py_XDECREF(outs[k]);
    return NULL;
}

static PyObject *planet_map(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"params", "lat0", "lon0", "nx", "ny", "step", "threads", "simd", NULL};
    PyObject *params, *th = NULL;
    double lat0, lon0, step;
    long long nx, ny;
    int simd = RT_SIMD_AUTO;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OddLLd|$Oi:planet_map", kwlist, &params, &lat0,
                                     &lon0, &nx, &ny, &step, &th, &simd))
        return NULL;
    if (simd < 0 || simd >= RT_SIMD_COUNT || !rt_simd_supported(simd)) {
        PyErr_Format(PyExc_ValueError, "simd: must be a variant this CPU runs (simd_variants()), got %d",
                     simd);
        return NULL;
    }
    planet_args a;
    PyArrayObject *outs[5] = {NULL, NULL, NULL, NULL, NULL};
    int threads = 1;
    if (th && th != Py_None && rtpy_threads(th, &threads) < 0) return NULL;
    if (rtpy_check_block(nx, ny, 0, 0, 8) < 0) return NULL;
    if (planet_parse(params, &a) < 0) goto fail;
    a.p.simd = simd;
    npy_intp dims[2] = {(npy_intp)ny, (npy_intp)nx};
    static const int types[5] = {NPY_FLOAT64, NPY_FLOAT64, NPY_UINT8, NPY_UINT8, NPY_BOOL};
    static const char *const names[5] = {"height", "depth", "terrain", "feature", "visible"};
    /* fresh arrays through the output cache (helpers.c): a loop of maps does
     * not fault its 19 bytes a pixel in anew (3 ms of a 800 x 600 map) */
    for (int k = 0; k < 5; k++)
        if (!(outs[k] = rtpy_output(NULL, names[k], types[k], 2, dims))) goto fail;
    rt_terra_out o = {PyArray_DATA(outs[0]), PyArray_DATA(outs[1]), PyArray_DATA(outs[2]),
                      PyArray_DATA(outs[3])};
    rt_status s;
    rtpy_poll pl;
    const rt_poll *poll = rtpy_poll_init(&pl);
    Py_BEGIN_ALLOW_THREADS
    s = rt_planet_map(&a.p, lat0, lon0, nx, ny, step, &o, PyArray_DATA(outs[4]), threads, poll);
    Py_END_ALLOW_THREADS
    if (s != RT_OK) {
        rtpy_raise(s, s == RT_ERR_SIZE ? "nx, ny" : "lat0, lon0, step");
        goto fail;
    }
    planet_args_free(&a);
    return Py_BuildValue("(NNNNN)", outs[0], outs[1], outs[2], outs[3], outs[4]);
fail:
    planet_args_free(&a);
    for (int k = 0; k < 5; k++) Py_XDECREF(outs[k]);
    return NULL;
}

static PyMethodDef planet_methods[] = {
    {"planet_placed", (PyCFunction)planet_placed, METH_VARARGS,
     "planet_placed(xs, ys, zs, codes)\n--\n\n"
     "A planet's placed table (xs[k], ys[k], zs[k]) -> codes[k], built once, for planet_points "
     "and planet_map."},
    {"planet_points", (PyCFunction)(void (*)(void))planet_points, METH_VARARGS | METH_KEYWORDS,
     "planet_points(params, lat, lon, *, terra=False, threads=1)\n--\n\n"
     "Ground height (terra=False) or (height, depth, terrain, feature) at (lat, lon) points."},
    {"planet_map", (PyCFunction)(void (*)(void))planet_map, METH_VARARGS | METH_KEYWORDS,
     "planet_map(params, lat0, lon0, nx, ny, step, *, threads=1, simd=0)\n--\n\n"
     "(height, depth, terrain, feature, visible) of an orthographic map; simd: an rt_simd code "
     "(0 auto), the same bits in every one."},
    {NULL, NULL, 0, NULL},
};

int rtpy_planet_exec(PyObject *module)
{
    if (PyModule_AddIntConstant(module, "MAP_OUTSIDE", RT_MAP_OUTSIDE) < 0) return -1;
    return PyModule_AddFunctions(module, planet_methods);
}
