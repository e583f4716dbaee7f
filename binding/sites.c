/*
 * sites.c - findGoodSite (SPEC 12) for relfterrain._core:
 * find_good_site (one start, a tuple of Python values) and find_good_sites
 * (many starts, arrays).  The searches run without the GIL on a snapshot of
 * the placed table; a disc they ask for (may_alter) is painted afterwards,
 * with the GIL held, into the terrain's own table through rtpy_box_writable,
 * so a computation running meanwhile keeps its snapshot.
 */
#include "helpers.h"

/* The option keywords both functions share, parsed into *o. */
#define SITE_KWLIST "min_height", "mine_distance", "building_distance", "clearance", \
                    "max_loops", "may_alter", "patch_radius"

static int distance_bad(double v, const char *name)
{
    if (v >= 0.0 && v <= RT_SITE_MAX_DISTANCE) return 0;
    PyObject *f = PyFloat_FromDouble(v);
    PyErr_Format(PyExc_ValueError, "%s: must be between 0 and %g, got %R", name,
                 RT_SITE_MAX_DISTANCE, f);
    Py_XDECREF(f);
    return -1;
}

/* The options, each checked with a message naming it. */
static int check_options(const rt_site_options *o)
{
    if (!isfinite(o->min_height)) {
        PyObject *f = PyFloat_FromDouble(o->min_height);
        PyErr_Format(PyExc_ValueError, "min_height: must be finite, got %R", f);
        Py_XDECREF(f);
        return -1;
    }
    if (distance_bad(o->mine_distance, "mine_distance") ||
        distance_bad(o->building_distance, "building_distance") ||
        distance_bad(o->clearance, "clearance") || distance_bad(o->patch_radius, "patch_radius"))
        return -1;
    if (o->max_loops < 0 || o->max_loops > RT_SITE_MAX_LOOPS) {
        PyErr_Format(PyExc_ValueError, "max_loops: must be between 0 and %d, got %lld",
                     RT_SITE_MAX_LOOPS, (long long)o->max_loops);
        return -1;
    }
    return 0;
}

static PyObject *terrain_arg(PyObject *obj)
{
    if (!rtpy_terrain_check(obj)) {
        PyErr_Format(PyExc_TypeError, "terrain: must be a relfterrain._core.TerrainCore, got %R",
                     obj);
        return NULL;
    }
    return obj;
}

/* Paint the discs of res[0 .. n-1] (in order) into the terrain's table, all
 * or nothing: into a copy of the writable table, which then replaces it. */
static int paint_all(rtpy_terrain *self, const rt_site *res, int64_t n,
                     const rt_site_options *o)
{
    int64_t k0 = 0;
    while (k0 < n && !res[k0].altered) k0++;
    if (k0 == n) return 0;
    rt_placed *table = rtpy_box_writable(&self->placed);
    if (!table) return -1;
    int several = 0;
    for (int64_t k = k0 + 1; k < n && !several; k++) several = res[k].altered;
    if (!several) { /* one disc: rt_site_paint is all or nothing by itself */
        rt_status s = rt_site_paint(table, &res[k0], o);
        if (s != RT_OK) {
            rtpy_raise(s, "may_alter");
            return -1;
        }
        return 0;
    }
    rt_placed *copy = rt_placed_clone(table);
    if (!copy) {
        PyErr_NoMemory();
        return -1;
    }
    for (int64_t k = k0; k < n; k++) {
        rt_status s = rt_site_paint(copy, &res[k], o);
        if (s != RT_OK) {
            rt_placed_free(copy);
            rtpy_raise(s, "may_alter");
            return -1;
        }
        /* Ctrl-C between discs (the GIL is held): the copy is dropped, the
         * terrain's table stays as it was */
        if ((k & 255) == 255 && PyErr_CheckSignals() < 0) {
            rt_placed_free(copy);
            return -1;
        }
    }
    /* the box is ours alone (rtpy_box_writable made sure), so swap tables */
    rt_placed_free(self->placed->table);
    self->placed->table = copy;
    return 0;
}

static PyObject *sites_find_good_site(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"terrain", "x", "y", "a0", SITE_KWLIST, NULL};
    PyObject *core;
    double x, y, a0 = 0.0;
    long long max_loops = 1000;
    int may_alter = 0;
    rt_site_options o;
    rt_site_defaults(&o);
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Odd|d$ddddLpd", kwlist, &core, &x, &y, &a0,
                                     &o.min_height, &o.mine_distance, &o.building_distance,
                                     &o.clearance, &max_loops, &may_alter, &o.patch_radius))
        return NULL;
    if (!terrain_arg(core)) return NULL;
    o.max_loops = (int64_t)max_loops;
    o.may_alter = may_alter;
    if (check_options(&o) < 0) return NULL;
    if (!isfinite(a0)) {
        PyErr_SetString(PyExc_ValueError, "rng: the starting angle a0 must be finite");
        return NULL;
    }
    rtpy_terrain *self = (rtpy_terrain *)core;
    rt_terrain p;
    rt_site r;
    rt_status s;
    rtpy_placed_box *box = rtpy_terrain_snapshot(self, &p);
    rtpy_poll pl;
    const rt_poll *poll = rtpy_poll_init(&pl);
    Py_BEGIN_ALLOW_THREADS
    s = rt_find_good_site(&p, x, y, a0, &o, &r, poll);
    Py_END_ALLOW_THREADS
    rtpy_box_release(box);
    if (s != RT_OK) return rtpy_raise(s, s == RT_ERR_COORD ? "x, y" : "terrain");
    if (r.altered && paint_all(self, &r, 1, &o) < 0) return NULL;
    return Py_BuildValue("(LLOOiLiLLL)", (long long)r.x, (long long)r.y,
                         r.ok ? Py_True : Py_False, r.altered ? Py_True : Py_False,
                         (int)r.reason, (long long)r.tries, (int)r.criteria,
                         (long long)r.jumps, (long long)r.centre_x, (long long)r.centre_y);
}

enum { OUT_X, OUT_Y, OUT_OK, OUT_ALTERED, OUT_TRIES, OUT_REASON, OUT_CRITERIA, OUT_JUMPS,
       OUT_CX, OUT_CY, OUT_COUNT };

static PyObject *sites_find_good_sites(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"terrain", "x", "y", "a0", SITE_KWLIST, "threads", NULL};
    PyObject *core, *xo, *yo, *a0o = Py_None, *threads_obj = NULL;
    long long max_loops = 1000;
    int may_alter = 0, threads = 1;
    rt_site_options o;
    rt_site_defaults(&o);
    PyArrayObject *x = NULL, *y = NULL, *a0 = NULL;
    PyArrayObject *outs[OUT_COUNT] = {NULL};
    rt_site *res = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOO|O$ddddLpdO", kwlist, &core, &xo, &yo,
                                     &a0o, &o.min_height, &o.mine_distance,
                                     &o.building_distance, &o.clearance, &max_loops,
                                     &may_alter, &o.patch_radius, &threads_obj))
        return NULL;
    if (!terrain_arg(core)) return NULL;
    o.max_loops = (int64_t)max_loops;
    o.may_alter = may_alter;
    if (check_options(&o) < 0) return NULL;
    if (threads_obj && threads_obj != Py_None && rtpy_threads(threads_obj, &threads) < 0)
        return NULL;
    x = rtpy_input_1d(xo, "x", NPY_FLOAT64);
    if (!x) goto fail;
    y = rtpy_input_1d(yo, "y", NPY_FLOAT64);
    if (!y) goto fail;
    npy_intp n = PyArray_DIM(x, 0);
    if (PyArray_DIM(y, 0) != n) {
        PyErr_Format(PyExc_ValueError, "x, y: must have the same length, got %zd and %zd",
                     (Py_ssize_t)n, (Py_ssize_t)PyArray_DIM(y, 0));
        goto fail;
    }
    if (a0o != Py_None) {
        a0 = rtpy_input_1d(a0o, "rng", NPY_FLOAT64);
        if (!a0) goto fail;
        if (PyArray_DIM(a0, 0) != n) {
            PyErr_Format(PyExc_ValueError, "rng: need one angle per start, got %zd for %zd",
                         (Py_ssize_t)PyArray_DIM(a0, 0), (Py_ssize_t)n);
            goto fail;
        }
    }
    if ((size_t)n > PY_SSIZE_T_MAX / sizeof(rt_site)) {
        PyErr_SetString(PyExc_MemoryError, "x, y: too many starts");
        goto fail;
    }
    static const int types[OUT_COUNT] = {NPY_INT64, NPY_INT64, NPY_BOOL, NPY_BOOL, NPY_INT64,
                                         NPY_UINT8, NPY_UINT8, NPY_INT64, NPY_INT64, NPY_INT64};
    for (int k = 0; k < OUT_COUNT; k++) {
        outs[k] = (PyArrayObject *)PyArray_EMPTY(1, &n, types[k], 0);
        if (!outs[k]) goto fail;
    }
    res = PyMem_RawMalloc((size_t)(n > 0 ? n : 1) * sizeof *res);
    if (!res) {
        PyErr_NoMemory();
        goto fail;
    }
    rtpy_terrain *self = (rtpy_terrain *)core;
    rt_terrain p;
    rt_status s;
    const double *xd = PyArray_DATA(x), *yd = PyArray_DATA(y);
    const double *ad = a0 ? PyArray_DATA(a0) : NULL;
    rtpy_placed_box *box = rtpy_terrain_snapshot(self, &p);
    rtpy_poll pl;
    const rt_poll *poll = rtpy_poll_init(&pl);
    Py_BEGIN_ALLOW_THREADS
    s = rt_find_good_sites(&p, xd, yd, ad, (int64_t)n, &o, res, threads, poll);
    Py_END_ALLOW_THREADS
    rtpy_box_release(box);
    if (s != RT_OK) {
        rtpy_raise(s, s == RT_ERR_COORD ? "x, y" : s == RT_ERR_PARAM ? "rng" : "terrain");
        goto fail;
    }
    int64_t *ox = PyArray_DATA(outs[OUT_X]), *oy = PyArray_DATA(outs[OUT_Y]);
    npy_bool *ok = PyArray_DATA(outs[OUT_OK]), *alt = PyArray_DATA(outs[OUT_ALTERED]);
    int64_t *tries = PyArray_DATA(outs[OUT_TRIES]), *jumps = PyArray_DATA(outs[OUT_JUMPS]);
    uint8_t *reason = PyArray_DATA(outs[OUT_REASON]), *crit = PyArray_DATA(outs[OUT_CRITERIA]);
    int64_t *cx = PyArray_DATA(outs[OUT_CX]), *cy = PyArray_DATA(outs[OUT_CY]);
    for (npy_intp k = 0; k < n; k++) {
        /* Ctrl-C between blocks of the copying out (nothing painted yet) */
        if ((k & 0xffff) == 0xffff && PyErr_CheckSignals() < 0) goto fail;
        ox[k] = res[k].x;
        oy[k] = res[k].y;
        ok[k] = res[k].ok;
        alt[k] = res[k].altered;
        tries[k] = res[k].tries;
        reason[k] = res[k].reason;
        crit[k] = res[k].criteria;
        jumps[k] = res[k].jumps;
        cx[k] = res[k].centre_x;
        cy[k] = res[k].centre_y;
    }
    /* painted last, all or nothing, after every other phase */
    if (may_alter && paint_all(self, res, (int64_t)n, &o) < 0) goto fail;
    PyMem_RawFree(res);
    Py_DECREF(x);
    Py_DECREF(y);
    Py_XDECREF(a0);
    PyObject *tuple = PyTuple_New(OUT_COUNT);
    if (!tuple) {
        for (int k = 0; k < OUT_COUNT; k++) Py_DECREF(outs[k]);
        return NULL;
    }
    for (int k = 0; k < OUT_COUNT; k++) PyTuple_SET_ITEM(tuple, k, (PyObject *)outs[k]);
    return tuple;
fail:
    PyMem_RawFree(res);
    Py_XDECREF(x);
    Py_XDECREF(y);
    Py_XDECREF(a0);
    for (int k = 0; k < OUT_COUNT; k++) Py_XDECREF(outs[k]);
    return NULL;
}

static PyMethodDef sites_methods[] = {
    {"find_good_site", (PyCFunction)(void (*)(void))sites_find_good_site,
     METH_VARARGS | METH_KEYWORDS,
     "find_good_site(terrain, x, y, a0=0.0, *, min_height=10.0, mine_distance=7.0,\n"
     "               building_distance=10.0, clearance=10.0, max_loops=1000,\n"
     "               may_alter=False, patch_radius=20.0)\n--\n\n"
     "findGoodSite (SPEC 12) from one start: (x, y, ok, altered, reason, tries,\n"
     "criteria, jumps, centre_x, centre_y); with may_alter a disc is painted into\n"
     "the terrain's placed table when needed."},
    {"find_good_sites", (PyCFunction)(void (*)(void))sites_find_good_sites,
     METH_VARARGS | METH_KEYWORDS,
     "find_good_sites(terrain, x, y, a0=None, *, ..., threads=1)\n--\n\n"
     "findGoodSite from many starts: a tuple of arrays (x, y, ok, altered, tries,\n"
     "reason, criteria, jumps, centre_x, centre_y).  With may_alter the starts are\n"
     "searched in order (one thread), each seeing the earlier discs."},
    {NULL, NULL, 0, NULL},
};

int rtpy_sites_exec(PyObject *module)
{
    if (PyModule_AddFunctions(module, sites_methods) < 0) return -1;
    if (PyModule_AddIntConstant(module, "SITE_MAX_LOOPS", RT_SITE_MAX_LOOPS) < 0) return -1;
    if (rtpy_module_add(module, "SITE_MAX_DISTANCE", PyFloat_FromDouble(RT_SITE_MAX_DISTANCE)) < 0)
        return -1;
    if (rtpy_module_add(module, "SITE_MAX_COORD", PyFloat_FromDouble(RT_SITE_MAX_COORD)) < 0)
        return -1;
    return 0;
}
