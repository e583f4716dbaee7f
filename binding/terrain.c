/*
 * terrain.c - binding of the terrain generator: the TerrainCore type.
 *
 * Parses arguments, checks shapes and dtypes, allocates the NumPy outputs,
 * releases the GIL around every core loop and maps status codes to
 * exceptions.  The Python API (relfterrain/terrain.py) adds the rest.
 *
 * The placed table is shared copy-on-write: a computation running without
 * the GIL holds a reference to the table it started with, and place() or
 * remove() meanwhile works on a private copy, so neither sees the other
 * half-done.  Reference counts change only with the GIL held.
 */
#include "helpers.h"

typedef rtpy_terrain TerrainCore;

static const char *const VECTOR_NAMES[RT_VECTOR_COUNT] = {"ah", "bh", "a1", "b1",
                                                          "a2", "b2", "a3", "b3"};
static PyObject *terrain_type; /* the TerrainCore type, set by rtpy_terrain_exec */

rtpy_placed_box *rtpy_terrain_snapshot(rtpy_terrain *self, rt_terrain *params)
{
    *params = self->params;
    params->placed = self->placed->table;
    return rtpy_box_acquire(self->placed);
}

int rtpy_terrain_check(PyObject *obj)
{
    return terrain_type && PyObject_TypeCheck(obj, (PyTypeObject *)terrain_type);
}

/* The scalar options of rt_terrain by name, parsed and reported from this
 * one table.  Kinds: 'd' finite double, 'u' uint32, 'b' flag, 'o' optional
 * level (None: off; `flag` is its on/off field). */
typedef struct option_spec {
    const char *name;
    char kind;
    size_t offset, flag;
} option_spec;

#define OPT(kind, field) {#field, kind, offsetof(rt_terrain, field), 0}
static const option_spec OPTIONS[] = {
    OPT('d', lake_base),     OPT('d', lake_height),     OPT('u', feature_mask),
    OPT('u', feature_point), OPT('u', feature_x),       OPT('u', feature_cone),
    OPT('u', mine_below),    OPT('u', boulder_below),   OPT('u', waterhole_below),
    OPT('u', knoll_below),   OPT('u', x_below),         OPT('u', cone_below),
    OPT('d', town_below),    OPT('d', grass_below),     OPT('d', open_below),
    OPT('d', thicket_below), OPT('d', path_dx),         OPT('d', path_dy),
    OPT('d', path_tolerance), OPT('b', with_paths),     OPT('b', wood_only),
    OPT('b', bleak),         OPT('b', town_abs),
    {"mountain_base", 'o', offsetof(rt_terrain, mountain_base), offsetof(rt_terrain, mountains)},
    {"snow_height", 'o', offsetof(rt_terrain, snow_height), offsetof(rt_terrain, snow)},
    /* SPEC 17 (the Python API's calc_prof and path_height strings arrive as flags) */
    OPT('b', calc_prof_js),  OPT('b', path_raw),        OPT('b', snow_keeps_feature),
    OPT('d', quarry_depth),  OPT('d', quarry_min_height), OPT('d', pi10000),
    {"rock_above", 'o', offsetof(rt_terrain, rock_above), offsetof(rt_terrain, rock)},
    {"quarry_below", 'o', offsetof(rt_terrain, quarry_below), offsetof(rt_terrain, quarries)},
};
#undef OPT
#define N_OPTIONS (sizeof OPTIONS / sizeof OPTIONS[0])

static int set_option(rt_terrain *t, const option_spec *o, PyObject *value)
{
    char *base = (char *)t;
    if (o->kind == 'b') {
        int v = PyObject_IsTrue(value);
        if (v < 0) return -1;
        *(int *)(base + o->offset) = v;
        return 0;
    }
    if (o->kind == 'u') {
        unsigned long long v = PyLong_AsUnsignedLongLong(value);
        if ((v == (unsigned long long)-1 && PyErr_Occurred()) || v > 0xffffffffull) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "%s: must be an int between 0 and 2**32 - 1, got %R",
                         o->name, value);
            return -1;
        }
        *(uint32_t *)(base + o->offset) = (uint32_t)v;
        return 0;
    }
    if (o->kind == 'o' && value == Py_None) {
        *(int *)(base + o->flag) = 0;
        return 0;
    }
    double v = PyFloat_AsDouble(value);
    if (v == -1.0 && PyErr_Occurred()) return -1;
    if (!isfinite(v)) {
        PyErr_Format(PyExc_ValueError, "%s: must be finite, got %R", o->name, value);
        return -1;
    }
    *(double *)(base + o->offset) = v;
    if (o->kind == 'o') *(int *)(base + o->flag) = 1;
    return 0;
}

static PyObject *get_option(const rt_terrain *t, const option_spec *o)
{
    const char *base = (const char *)t;
    switch (o->kind) {
    case 'b': return PyBool_FromLong(*(const int *)(base + o->offset));
    case 'u': return PyLong_FromUnsignedLong(*(const uint32_t *)(base + o->offset));
    case 'o':
        if (!*(const int *)(base + o->flag)) Py_RETURN_NONE;
        /* fall through */
    default: return PyFloat_FromDouble(*(const double *)(base + o->offset));
    }
}

/* ------------------------------------------------------------------------ */

static void TerrainCore_dealloc(TerrainCore *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    rtpy_box_release(self->placed);
    PyMem_RawFree(self->profile);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyObject *TerrainCore_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *profile_obj, *vectors_obj;
    if (!PyArg_ParseTuple(args, "OO:TerrainCore", &profile_obj, &vectors_obj)) return NULL;

    TerrainCore *self = (TerrainCore *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    PyArrayObject *vec = NULL;
    rt_terrain_defaults(&self->params);
    self->params.placed = NULL;

    if (rtpy_profile_copy(profile_obj, &self->profile, &self->params.profile_len) < 0) goto fail;
    self->params.profile = self->profile;

    vec = (PyArrayObject *)PyArray_FromAny(vectors_obj, PyArray_DescrFromType(NPY_INT64), 2, 2,
                                           NPY_ARRAY_IN_ARRAY, NULL);
    if (!vec) goto fail;
    npy_intp nd = PyArray_DIM(vec, 1);
    if (PyArray_DIM(vec, 0) != RT_VECTOR_COUNT || nd < 1 || nd > RT_MAX_DIRECTIONS) {
        PyErr_Format(PyExc_ValueError,
                     "vectors: need 8 vectors of one common length between 1 and %d",
                     RT_MAX_DIRECTIONS);
        goto fail;
    }
    self->params.directions = (uint32_t)nd;
    const int64_t *vd = PyArray_DATA(vec);
    for (int v = 0; v < RT_VECTOR_COUNT; v++) {
        for (npy_intp i = 0; i < nd; i++) {
            int64_t c = vd[v * nd + i];
            if (c > RT_MAX_VECTOR || c < -RT_MAX_VECTOR) {
                PyErr_Format(PyExc_ValueError, "%s: components must satisfy |v| <= %d, got %lld",
                             VECTOR_NAMES[v], RT_MAX_VECTOR, (long long)c);
                goto fail;
            }
            self->params.vec[v][i] = (int32_t)c;
        }
    }
    /* the scalar options, by name */
    if (kwds) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(kwds, &pos, &key, &value)) {
            const option_spec *o = NULL;
            for (size_t k = 0; k < N_OPTIONS && !o; k++)
                if (PyUnicode_CompareWithASCIIString(key, OPTIONS[k].name) == 0) o = &OPTIONS[k];
            if (!o) {
                PyErr_Format(PyExc_TypeError, "TerrainCore: unknown option %R", key);
                goto fail;
            }
            if (set_option(&self->params, o, value) < 0) goto fail;
        }
    }

    int bad = 0;
    rt_status s = rt_terrain_check(&self->params, &bad);
    if (s != RT_OK) {
        rtpy_raise(s, s == RT_ERR_VECTOR_VALUE ? VECTOR_NAMES[bad]
                      : (s == RT_ERR_PROFILE_LENGTH || s == RT_ERR_PROFILE_VALUE) ? "profile"
                                                                                  : "parameters");
        goto fail;
    }
    rt_placed *table = rt_placed_new();
    self->placed = table ? rtpy_box_new(table) : NULL;
    if (!self->placed) {
        rt_placed_free(table);
        PyErr_NoMemory();
        goto fail;
    }
    Py_DECREF(vec);
    return (PyObject *)self;

fail:
    Py_XDECREF(vec);
    Py_DECREF(self);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Grids                                                                    */
/* ------------------------------------------------------------------------ */

/* A grid in row blocks (rtpy_rows): the block, the parameters and the
 * placed table's snapshot taken once, so every block sees the same state. */
typedef struct grid_rows {
    const rt_block *b;
    rtpy_placed_box *box;
    int threads;
    rt_terrain p;
} grid_rows;

/* nx * ny, saturated (for the thread count; the block is checked apart) */
static int64_t grid_points(long long nx, long long ny)
{
    if (nx < 1 || ny < 1) return 0;
    return nx > INT64_MAX / ny ? INT64_MAX : (int64_t)nx * (int64_t)ny;
}

static rt_block rows_block(const rt_block *b, int64_t row0, int64_t nrows)
{
    rt_block r = *b;
    r.r0 = b->r0 + row0;
    r.ny = nrows;
    return r;
}

static rt_status height_rows(void *vctx, int64_t row0, int64_t nrows, void *const *data)
{
    grid_rows *c = vctx;
    rt_block r = rows_block(c->b, row0, nrows);
    return rt_height_grid(&c->p, &r, data[0], c->threads);
}

static rt_status terra_rows(void *vctx, int64_t row0, int64_t nrows, void *const *data)
{
    grid_rows *c = vctx;
    rt_block r = rows_block(c->b, row0, nrows);
    rt_terra_out o = {data[0], data[1], data[2], data[3], data[4]};
    return rt_terra_grid(&c->p, &r, &o, c->threads);
}

/* float32 grids (float32=True): the core rounds each row to nearest from
 * row buffers of its thread's (rt_height_grid_f32, rt_terra_grid_f32), so a
 * float32 grid needs no double array.  Which rows are computed where (out=
 * in place or in a scratch copy, Ctrl-C between blocks) is rtpy_rows' rule,
 * the same as for float64: the one out=/scratch rule of the package. */
static rt_status height_rows32(void *vctx, int64_t row0, int64_t nrows, void *const *data)
{
    grid_rows *c = vctx;
    rt_block r = rows_block(c->b, row0, nrows);
    return rt_height_grid_f32(&c->p, &r, data[0], c->threads);
}

static rt_status terra_rows32(void *vctx, int64_t row0, int64_t nrows, void *const *data)
{
    grid_rows *c = vctx;
    rt_block r = rows_block(c->b, row0, nrows);
    rt_terra_out32 o = {data[0], data[1], data[2], data[3], data[4]};
    return rt_terra_grid_f32(&c->p, &r, &o, c->threads);
}

static PyObject *TerrainCore_height_grid(TerrainCore *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"x0", "y0", "nx", "ny", "step", "c0", "r0", "out", "threads",
                             "float32", NULL};
    double x0, y0, step = 1.0;
    long long nx, ny, c0 = 0, r0 = 0;
    PyObject *out_obj = Py_None, *threads_obj = NULL;
    int threads = 1, f32 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ddLL|d$LLOOp", kwlist, &x0, &y0, &nx, &ny,
                                     &step, &c0, &r0, &out_obj, &threads_obj, &f32))
        return NULL;
    if (threads_obj && rtpy_threads_auto(threads_obj, grid_points(nx, ny), &threads) < 0)
        return NULL;
    if (rtpy_check_block(nx, ny, c0, r0, f32 ? sizeof(float) : sizeof(double)) < 0) return NULL;
    npy_intp dims[2] = {(npy_intp)ny, (npy_intp)nx};
    PyArrayObject *out = rtpy_output(out_obj, "out", f32 ? NPY_FLOAT32 : NPY_FLOAT64, 2, dims);
    if (!out) return NULL;
    int given = out_obj != Py_None;
    rt_block b = {x0, y0, step, c0, r0, nx, ny};
    grid_rows ctx = {&b, NULL, threads, {0}};
    rt_status s;
    ctx.box = rtpy_terrain_snapshot(self, &ctx.p);
    int rc = rtpy_rows(f32 ? height_rows32 : height_rows, &ctx, nx, ny, 1, &out, &given, &s);
    rtpy_box_release(ctx.box);
    if (rc < 0) {
        Py_DECREF(out);
        if (s == RT_OK) return NULL; /* interrupted */
        return rtpy_raise(s, s == RT_ERR_COORD ? "x0, y0, step" : "nx, ny");
    }
    return (PyObject *)out;
}

static const char *const TERRA_OUT_NAMES[5] = {"out.height", "out.depth", "out.terrain",
                                               "out.feature", "out.ground"};
static const int TERRA_OUT_TYPES[5] = {NPY_FLOAT64, NPY_FLOAT64, NPY_UINT8, NPY_UINT8,
                                       NPY_FLOAT64};

/* How many outputs: 5 when `outputs` is a sequence of 5 (the fifth: the
 * ground, rt_terra_out.ground), else 4 (height, depth, terrain, feature;
 * any other length is refused by rtpy_outputs_sized, naming 4). */
static int terra_count(PyObject *outputs)
{
    if (!outputs || !PySequence_Check(outputs)) return 4;
    Py_ssize_t n = PySequence_Size(outputs);
    if (n < 0) {
        PyErr_Clear();
        return 4;
    }
    return n == 5 ? 5 : 4;
}

/* outputs: `count` items (height, depth, terrain, feature[, ground]), NULL
 * for the first four. arrays: 5 slots (the fifth NULL when count is 4). */
static int terra_outputs(PyObject *outputs, int count, int ndim, const npy_intp *dims,
                         const int *types, PyArrayObject *arrays[5], rt_terra_out *o)
{
    void *data[5] = {NULL, NULL, NULL, NULL, NULL};
    PyObject *all = NULL;
    arrays[4] = NULL;
    if (!outputs) {
        outputs = all = Py_BuildValue("(OOOO)", Py_True, Py_True, Py_True, Py_True);
        if (!all) return -1;
    }
    int bad = rtpy_outputs_sized(outputs, count, TERRA_OUT_NAMES, types, ndim, dims, arrays,
                                 data, ndim == 2 ? "nx, ny" : "x, y");
    Py_XDECREF(all);
    if (bad) return -1;
    *o = (rt_terra_out){data[0], data[1], data[2], data[3], data[4]};
    return 0;
}

static PyObject *TerrainCore_terra_grid(TerrainCore *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"x0", "y0", "nx", "ny", "step", "c0", "r0", "outputs", "threads",
                             "float32", NULL};
    static const int TYPES32[5] = {NPY_FLOAT32, NPY_FLOAT32, NPY_UINT8, NPY_UINT8,
                                   NPY_FLOAT32};
    double x0, y0, step = 1.0;
    long long nx, ny, c0 = 0, r0 = 0;
    PyObject *outputs = NULL, *threads_obj = NULL;
    int threads = 1, f32 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ddLL|d$LLOOp", kwlist, &x0, &y0, &nx, &ny,
                                     &step, &c0, &r0, &outputs, &threads_obj, &f32))
        return NULL;
    if (threads_obj && rtpy_threads_auto(threads_obj, grid_points(nx, ny), &threads) < 0)
        return NULL;
    /* itemsize 1: terra_outputs checks the total of the outputs asked for */
    if (rtpy_check_block(nx, ny, c0, r0, 1) < 0) return NULL;
    npy_intp dims[2] = {(npy_intp)ny, (npy_intp)nx};
    PyArrayObject *arrays[5];
    rt_terra_out o;
    const int count = terra_count(outputs);
    if (terra_outputs(outputs, count, 2, dims, f32 ? TYPES32 : TERRA_OUT_TYPES, arrays, &o) < 0)
        return NULL;
    int given[5] = {0, 0, 0, 0, 0};
    rtpy_outputs_given(outputs, count, given);
    rt_block b = {x0, y0, step, c0, r0, nx, ny};
    grid_rows ctx = {&b, NULL, threads, {0}};
    rt_status s;
    ctx.box = rtpy_terrain_snapshot(self, &ctx.p);
    int rc = rtpy_rows(f32 ? terra_rows32 : terra_rows, &ctx, nx, ny, 5, arrays, given, &s);
    rtpy_box_release(ctx.box);
    if (rc < 0) {
        for (int k = 0; k < 5; k++) Py_CLEAR(arrays[k]);
        if (s == RT_OK) return NULL; /* interrupted */
        return rtpy_raise(s, s == RT_ERR_COORD ? "x0, y0, step" : "nx, ny");
    }
    return rtpy_outputs_tuple(count, arrays);
}

/* ------------------------------------------------------------------------ */
/* Points                                                                   */
/* ------------------------------------------------------------------------ */

/* Points in slices (rtpy_slices), the snapshot taken once. */
typedef struct point_rows {
    const rt_terrain *p;
    const double *x, *y;
    int threads;
} point_rows;

static rt_status height_point_rows(void *vctx, int64_t row0, int64_t nrows, void *const *data)
{
    const point_rows *c = vctx;
    return rt_height_points(c->p, c->x + row0, c->y + row0, nrows, data[0], c->threads);
}

static rt_status terra_point_rows(void *vctx, int64_t row0, int64_t nrows, void *const *data)
{
    const point_rows *c = vctx;
    rt_terra_out o = {data[0], data[1], data[2], data[3], data[4]};
    return rt_terra_points(c->p, c->x + row0, c->y + row0, nrows, &o, c->threads);
}

static rt_status selector_rows(void *vctx, int64_t row0, int64_t nrows, void *const *data)
{
    const point_rows *c = vctx;
    return rt_tree_selector_points(c->p->pi10000, c->x + row0, c->y + row0, nrows, data[0]);
}

static rt_status offset_rows(void *vctx, int64_t row0, int64_t nrows, void *const *data)
{
    const point_rows *c = vctx;
    return rt_tree_offsets_points(c->p->pi10000, c->x + row0, c->y + row0, nrows, data[0], data[1]);
}

/* rtpy_slices over n points; 0 or -1 with an exception set (what: the names) */
static int points_call(rtpy_rows_fn fn, point_rows *c, int64_t n, int count,
                       PyArrayObject *const *arrays, const int *given, const char *what)
{
    rt_status s = RT_OK;
    if (n == 0) return 0;
    if (rtpy_slices(fn, c, n, count, arrays, given, &s) == 0) return 0;
    if (s != RT_OK) rtpy_raise(s, what); /* else interrupted: the exception is set */
    return -1;
}

static int get_xy(PyObject *xo, PyObject *yo, PyArrayObject **x, PyArrayObject **y)
{
    *x = rtpy_input_1d(xo, "x", NPY_FLOAT64);
    *y = *x ? rtpy_input_1d(yo, "y", NPY_FLOAT64) : NULL;
    if (*y && PyArray_DIM(*x, 0) != PyArray_DIM(*y, 0))
        PyErr_SetString(PyExc_ValueError, "x, y: must have the same length");
    if (!*y || PyErr_Occurred()) {
        Py_CLEAR(*x);
        Py_CLEAR(*y);
        return -1;
    }
    return 0;
}

static PyObject *TerrainCore_height_points(TerrainCore *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"x", "y", "out", "threads", NULL};
    PyObject *xo, *yo, *out_obj = Py_None, *threads_obj = NULL;
    PyArrayObject *x = NULL, *y = NULL, *out = NULL;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|$OO", kwlist, &xo, &yo, &out_obj,
                                     &threads_obj))
        return NULL;
    if (threads_obj && threads_obj != Py_None && rtpy_threads(threads_obj, &threads) < 0)
        return NULL;
    if (get_xy(xo, yo, &x, &y) < 0) return NULL;
    npy_intp n = PyArray_DIM(x, 0);
    /* None: as a grid of 8 times the points (a point costs more) */
    if (threads_obj == Py_None) threads = rtpy_auto_threads(grid_points(n, 8));
    out = rtpy_output(out_obj, "out", NPY_FLOAT64, 1, &n);
    if (!out) goto fail;
    rt_terrain p;
    rtpy_placed_box *box = rtpy_terrain_snapshot(self, &p);
    point_rows c = {&p, PyArray_DATA(x), PyArray_DATA(y), threads};
    int given = out_obj != Py_None;
    int rc = points_call(height_point_rows, &c, (int64_t)n, 1, &out, &given, "x, y");
    rtpy_box_release(box);
    if (rc < 0) goto fail;
    Py_DECREF(x);
    Py_DECREF(y);
    return (PyObject *)out;
fail:
    Py_XDECREF(x);
    Py_XDECREF(y);
    Py_XDECREF(out);
    return NULL;
}

static PyObject *TerrainCore_terra_points(TerrainCore *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"x", "y", "outputs", "threads", NULL};
    PyObject *xo, *yo, *outputs = NULL, *threads_obj = NULL;
    PyArrayObject *x = NULL, *y = NULL, *arrays[5] = {NULL, NULL, NULL, NULL, NULL};
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|$OO", kwlist, &xo, &yo, &outputs,
                                     &threads_obj))
        return NULL;
    if (threads_obj && threads_obj != Py_None && rtpy_threads(threads_obj, &threads) < 0)
        return NULL;
    if (get_xy(xo, yo, &x, &y) < 0) return NULL;
    npy_intp n = PyArray_DIM(x, 0);
    /* None: as a grid of 8 times the points (a point costs more) */
    if (threads_obj == Py_None) threads = rtpy_auto_threads(grid_points(n, 8));
    rt_terra_out o;
    const int count = terra_count(outputs);
    if (terra_outputs(outputs, count, 1, &n, TERRA_OUT_TYPES, arrays, &o) < 0) goto fail;
    (void)o;
    int given[5] = {0, 0, 0, 0, 0};
    rtpy_outputs_given(outputs, count, given);
    rt_terrain p;
    rtpy_placed_box *box = rtpy_terrain_snapshot(self, &p);
    point_rows c = {&p, PyArray_DATA(x), PyArray_DATA(y), threads};
    int rc = points_call(terra_point_rows, &c, (int64_t)n, 5, arrays, given, "x, y");
    rtpy_box_release(box);
    if (rc < 0) goto fail;
    Py_DECREF(x);
    Py_DECREF(y);
    return rtpy_outputs_tuple(count, arrays);
fail:
    Py_XDECREF(x);
    Py_XDECREF(y);
    for (int k = 0; k < 5; k++) Py_CLEAR(arrays[k]);
    return NULL;
}

static PyObject *TerrainCore_tree_selector(TerrainCore *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"x", "y", NULL};
    PyObject *xo, *yo;
    PyArrayObject *x = NULL, *y = NULL, *out = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO", kwlist, &xo, &yo)) return NULL;
    if (get_xy(xo, yo, &x, &y) < 0) return NULL;
    npy_intp n = PyArray_DIM(x, 0);
    out = rtpy_output(Py_None, "out", NPY_UINT8, 1, &n);
    if (!out) goto fail;
    point_rows c = {&self->params, PyArray_DATA(x), PyArray_DATA(y), 1}; /* its pi10000 */
    int given = 0;
    if (points_call(selector_rows, &c, (int64_t)n, 1, &out, &given, "x, y") < 0) goto fail;
    Py_DECREF(x);
    Py_DECREF(y);
    return (PyObject *)out;
fail:
    Py_XDECREF(x);
    Py_XDECREF(y);
    Py_XDECREF(out);
    return NULL;
}

static PyObject *TerrainCore_tree_offsets(TerrainCore *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"x", "y", NULL};
    PyObject *xo, *yo;
    PyArrayObject *x = NULL, *y = NULL, *dx = NULL, *dy = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO", kwlist, &xo, &yo)) return NULL;
    if (get_xy(xo, yo, &x, &y) < 0) return NULL;
    npy_intp n = PyArray_DIM(x, 0);
    dx = rtpy_output(Py_None, "dx", NPY_FLOAT64, 1, &n);
    dy = dx ? rtpy_output(Py_None, "dy", NPY_FLOAT64, 1, &n) : NULL;
    if (!dy) goto fail;
    point_rows c = {&self->params, PyArray_DATA(x), PyArray_DATA(y), 1}; /* its pi10000 */
    PyArrayObject *both[2] = {dx, dy};
    int given[2] = {0, 0};
    if (points_call(offset_rows, &c, (int64_t)n, 2, both, given, "x, y") < 0) goto fail;
    Py_DECREF(x);
    Py_DECREF(y);
    return Py_BuildValue("(NN)", dx, dy);
fail:
    Py_XDECREF(x);
    Py_XDECREF(y);
    Py_XDECREF(dx);
    Py_XDECREF(dy);
    return NULL;
}

/* Building centres (multiples of 16) in [x0, x0+nx) x [y0, y0+ny). */
static PyObject *TerrainCore_buildings(TerrainCore *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"x0", "y0", "nx", "ny", NULL};
    long long x0, y0, nx, ny;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "LLLL", kwlist, &x0, &y0, &nx, &ny))
        return NULL;
    const long long lim = 1LL << 40;
    if (nx < 1 || ny < 1 || nx > lim || ny > lim || x0 > lim || x0 < -lim || y0 > lim ||
        y0 < -lim) {
        PyErr_SetString(PyExc_ValueError,
                        "x0, y0, nx, ny: need nx, ny >= 1 and every value within +-2**40");
        return NULL;
    }
    /* first multiple of 16 at or after x0 (floor division without UB) */
    long long xs = x0 >= 0 ? (x0 + 15) / 16 * 16 : -((-x0) / 16 * 16);
    long long ys = y0 >= 0 ? (y0 + 15) / 16 * 16 : -((-y0) / 16 * 16);
    long long kx = xs < x0 + nx ? (x0 + nx - 1 - xs) / 16 + 1 : 0;
    long long ky = ys < y0 + ny ? (y0 + ny - 1 - ys) / 16 + 1 : 0;
    if (kx > 0 && ky > PY_SSIZE_T_MAX / 16 / kx) {
        PyErr_SetString(PyExc_MemoryError, "x0, y0, nx, ny: area too large");
        return NULL;
    }
    long long cap = kx * ky;
    /* the centres' scratch: 16 bytes a lattice point, before allocating */
    if (rtpy_check_alloc_for((unsigned long long)(cap > 0 ? cap : 1) * 2 * sizeof(int64_t),
                             "nx, ny", "the building lattice of the area") < 0)
        return NULL;
    int64_t *buf = PyMem_RawMalloc((size_t)(cap > 0 ? cap : 1) * 2 * sizeof(int64_t));
    if (!buf) return PyErr_NoMemory();
    rt_terrain p;
    rtpy_placed_box *box = rtpy_terrain_snapshot(self, &p);
    rtpy_poll pl;
    const rt_poll *poll = rtpy_poll_init(&pl);
    int64_t n = 0;
    rt_status s;
    Py_BEGIN_ALLOW_THREADS
    s = rt_buildings_lattice(&p, xs, ys, kx, ky, buf, cap, &n, poll);
    Py_END_ALLOW_THREADS
    rtpy_box_release(box);
    if (s != RT_OK) {
        PyMem_RawFree(buf);
        return rtpy_raise(s, "nx, ny");
    }
    npy_intp dims[2] = {(npy_intp)n, 2};
    PyArrayObject *out = (PyArrayObject *)PyArray_EMPTY(2, dims, NPY_INT64, 0);
    if (out && n) memcpy(PyArray_DATA(out), buf, (size_t)n * 2 * sizeof(int64_t));
    PyMem_RawFree(buf);
    return (PyObject *)out;
}

/* ------------------------------------------------------------------------ */
/* The placed table                                                         */
/* ------------------------------------------------------------------------ */

static PyObject *TerrainCore_place(TerrainCore *self, PyObject *args)
{
    long long x, y;
    int value;
    if (!PyArg_ParseTuple(args, "LLi", &x, &y, &value)) return NULL;
    if (value < 0 || value > 255) return rtpy_raise(RT_ERR_PLACED_VALUE, "what");
    rt_placed *t = rtpy_box_writable(&self->placed);
    if (!t) return NULL;
    rt_status s = rt_placed_set(t, x, y, (uint8_t)value);
    if (s != RT_OK) return rtpy_raise(s, "what");
    Py_RETURN_NONE;
}

static PyObject *TerrainCore_at(TerrainCore *self, PyObject *args)
{
    long long x, y;
    if (!PyArg_ParseTuple(args, "LL", &x, &y)) return NULL;
    return PyLong_FromLong(rt_placed_get(self->placed->table, x, y));
}

static PyObject *TerrainCore_remove(TerrainCore *self, PyObject *args)
{
    long long x, y;
    if (!PyArg_ParseTuple(args, "LL", &x, &y)) return NULL;
    if (!rt_placed_get(self->placed->table, x, y)) Py_RETURN_FALSE;
    rt_placed *t = rtpy_box_writable(&self->placed);
    if (!t) return NULL;
    return PyBool_FromLong(rt_placed_remove(t, x, y));
}

static PyObject *TerrainCore_remove_all(TerrainCore *self, PyObject *arg)
{
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) return NULL;
    if (v < 0 || v > 255) return rtpy_raise(RT_ERR_PLACED_VALUE, "what");
    rt_placed *t = rtpy_box_writable(&self->placed);
    if (!t) return NULL;
    return PyLong_FromLongLong(rt_placed_remove_all(t, (uint8_t)v));
}

static PyObject *TerrainCore_placed_count(TerrainCore *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromLongLong(rt_placed_count(self->placed->table));
}

static PyObject *TerrainCore_placed_items(TerrainCore *self, PyObject *unused)
{
    (void)unused;
    /* the count and the items from one table: the allocations below may run
     * Python code (a collection, a finaliser) that lets another thread change
     * the terrain's table; ours is held, so it stays as it was counted */
    rtpy_placed_box *box = rtpy_box_acquire(self->placed);
    npy_intp n = (npy_intp)rt_placed_count(box->table);
    PyArrayObject *xs = (PyArrayObject *)PyArray_EMPTY(1, &n, NPY_INT64, 0);
    PyArrayObject *ys = (PyArrayObject *)PyArray_EMPTY(1, &n, NPY_INT64, 0);
    PyArrayObject *vs = (PyArrayObject *)PyArray_EMPTY(1, &n, NPY_UINT8, 0);
    if (!xs || !ys || !vs) {
        rtpy_box_release(box);
        Py_XDECREF(xs);
        Py_XDECREF(ys);
        Py_XDECREF(vs);
        return NULL;
    }
    rt_placed_items(box->table, PyArray_DATA(xs), PyArray_DATA(ys), PyArray_DATA(vs),
                    (int64_t)n);
    rtpy_box_release(box);
    return Py_BuildValue("(NNN)", xs, ys, vs);
}

/* ------------------------------------------------------------------------ */

static PyObject *TerrainCore_get_lake_height(TerrainCore *self, void *closure)
{
    (void)closure;
    return PyFloat_FromDouble(self->params.lake_height);
}

static int TerrainCore_set_lake_height(TerrainCore *self, PyObject *value, void *closure)
{
    (void)closure;
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "lake_height cannot be deleted");
        return -1;
    }
    double v = PyFloat_AsDouble(value);
    if (v == -1.0 && PyErr_Occurred()) return -1;
    if (!isfinite(v)) {
        PyErr_Format(PyExc_ValueError, "lake_height: must be finite, got %R", value);
        return -1;
    }
    self->params.lake_height = v;
    return 0;
}

static PyObject *TerrainCore_get_profile(TerrainCore *self, void *closure)
{
    (void)closure;
    npy_intp n = self->params.profile_len;
    PyArrayObject *a = (PyArrayObject *)PyArray_EMPTY(1, &n, NPY_FLOAT64, 0);
    if (a) memcpy(PyArray_DATA(a), self->profile, (size_t)n * sizeof(double));
    return (PyObject *)a;
}

static PyObject *TerrainCore_get_vectors(TerrainCore *self, void *closure)
{
    (void)closure;
    npy_intp dims[2] = {RT_VECTOR_COUNT, self->params.directions};
    PyArrayObject *a = (PyArrayObject *)PyArray_EMPTY(2, dims, NPY_INT64, 0);
    if (!a) return NULL;
    int64_t *d = PyArray_DATA(a);
    for (int v = 0; v < RT_VECTOR_COUNT; v++)
        for (uint32_t i = 0; i < self->params.directions; i++)
            d[v * dims[1] + i] = self->params.vec[v][i];
    return (PyObject *)a;
}

static PyObject *TerrainCore_get_options(TerrainCore *self, void *closure)
{
    (void)closure;
    PyObject *d = PyDict_New();
    for (size_t k = 0; d && k < N_OPTIONS; k++) {
        PyObject *v = get_option(&self->params, &OPTIONS[k]);
        if (!v || PyDict_SetItemString(d, OPTIONS[k].name, v) < 0) Py_CLEAR(d);
        Py_XDECREF(v);
    }
    return d;
}

static PyObject *TerrainCore_get_simd(TerrainCore *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->params.simd);
}

static int TerrainCore_set_simd(TerrainCore *self, PyObject *value, void *closure)
{
    (void)closure;
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "simd cannot be deleted");
        return -1;
    }
    long v = PyLong_AsLong(value);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0 || v >= RT_SIMD_COUNT || !rt_simd_supported((int)v)) {
        PyErr_Format(PyExc_ValueError, "simd: variant %ld is not available on this CPU", v);
        return -1;
    }
    self->params.simd = (int)v;
    return 0;
}

static PyGetSetDef TerrainCore_getset[] = {
    {"simd", (getter)TerrainCore_get_simd, (setter)TerrainCore_set_simd,
     "The grid kernels' SIMD variant (rt_simd code; 0 = auto).", NULL},
    {"lake_height", (getter)TerrainCore_get_lake_height, (setter)TerrainCore_set_lake_height,
     "The current lake level.", NULL},
    {"profile", (getter)TerrainCore_get_profile, NULL, "A copy of the profile.", NULL},
    {"vectors", (getter)TerrainCore_get_vectors, NULL, "A copy of the 8 vectors, (8, N).", NULL},
    {"options", (getter)TerrainCore_get_options, NULL,
     "Every scalar option (the keyword arguments of the constructor) as a dict.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef TerrainCore_methods[] = {
    {"height_grid", (PyCFunction)(void (*)(void))TerrainCore_height_grid,
     METH_VARARGS | METH_KEYWORDS,
     "height_grid(x0, y0, nx, ny, step=1.0, *, c0=0, r0=0, out=None, threads=1, float32=False)\n"
     "float32: round the doubles to float32, row by row as they are computed."},
    {"terra_grid", (PyCFunction)(void (*)(void))TerrainCore_terra_grid,
     METH_VARARGS | METH_KEYWORDS,
     "terra_grid(x0, y0, nx, ny, step=1.0, *, c0=0, r0=0, outputs=None, threads=1, float32=False)\n"
     "outputs: 4 items (height, depth, terrain, feature): None skip, True allocate, or array.\n"
     "float32: the heights, depths and ground rounded to float32, row by row."},
    {"height_points", (PyCFunction)(void (*)(void))TerrainCore_height_points,
     METH_VARARGS | METH_KEYWORDS, "height_points(x, y, *, out=None, threads=1)"},
    {"terra_points", (PyCFunction)(void (*)(void))TerrainCore_terra_points,
     METH_VARARGS | METH_KEYWORDS, "terra_points(x, y, *, outputs=None, threads=1)"},
    {"tree_selector", (PyCFunction)(void (*)(void))TerrainCore_tree_selector,
     METH_VARARGS | METH_KEYWORDS, "tree_selector(x, y)"},
    {"tree_offsets", (PyCFunction)(void (*)(void))TerrainCore_tree_offsets,
     METH_VARARGS | METH_KEYWORDS, "tree_offsets(x, y) -> (dx, dy) float64"},
    {"buildings", (PyCFunction)(void (*)(void))TerrainCore_buildings,
     METH_VARARGS | METH_KEYWORDS, "buildings(x0, y0, nx, ny) -> int64 (k, 2)"},
    {"place", (PyCFunction)TerrainCore_place, METH_VARARGS, "place(x, y, encoded_value)"},
    {"at", (PyCFunction)TerrainCore_at, METH_VARARGS, "at(x, y) -> encoded value or 0"},
    {"remove", (PyCFunction)TerrainCore_remove, METH_VARARGS, "remove(x, y) -> bool"},
    {"remove_all", (PyCFunction)TerrainCore_remove_all, METH_O, "remove_all(encoded) -> int"},
    {"placed_count", (PyCFunction)TerrainCore_placed_count, METH_NOARGS, "placed_count()"},
    {"placed_items", (PyCFunction)TerrainCore_placed_items, METH_NOARGS,
     "placed_items() -> (xs, ys, encoded values)"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot TerrainCore_slots[] = {
    {Py_tp_new, TerrainCore_new},
    {Py_tp_dealloc, TerrainCore_dealloc},
    {Py_tp_methods, TerrainCore_methods},
    {Py_tp_getset, TerrainCore_getset},
    {Py_tp_doc, "TerrainCore(profile, vectors, **options)\n--\n\n"
                "The terrain generator's C state. Use relfterrain.Terrain. options: the "
                "scalar fields of rt_terrain by name (see the options attribute)."},
    {0, NULL},
};

static PyType_Spec TerrainCore_spec = {
    "relfterrain._core.TerrainCore",
    sizeof(TerrainCore),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    TerrainCore_slots,
};

int rtpy_terrain_exec(PyObject *module)
{
    PyObject *type = PyType_FromModuleAndSpec(module, &TerrainCore_spec, NULL);
    if (!type) return -1;
    terrain_type = type; /* borrowed: the module keeps it alive */
    if (PyModule_AddObject(module, "TerrainCore", type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    npy_intp n = RT_CLASSIC_PROFILE_LEN;
    PyArrayObject *prof = (PyArrayObject *)PyArray_EMPTY(1, &n, NPY_FLOAT64, 0);
    if (!prof) return -1;
    memcpy(PyArray_DATA(prof), rt_classic_profile(), (size_t)n * sizeof(double));
    PyArray_CLEARFLAGS(prof, NPY_ARRAY_WRITEABLE);
    if (PyModule_AddObject(module, "CLASSIC_PROFILE", (PyObject *)prof) < 0) {
        Py_DECREF(prof);
        return -1;
    }
    rt_terrain d;
    rt_terrain_defaults(&d);
    PyObject *vecs = PyDict_New();
    if (!vecs) return -1;
    for (int v = 0; v < RT_VECTOR_COUNT; v++) {
        PyObject *tup = PyTuple_New(d.directions);
        if (!tup) {
            Py_DECREF(vecs);
            return -1;
        }
        for (uint32_t i = 0; i < d.directions; i++)
            PyTuple_SET_ITEM(tup, i, PyLong_FromLong(d.vec[v][i]));
        int bad = PyDict_SetItemString(vecs, VECTOR_NAMES[v], tup);
        Py_DECREF(tup);
        if (bad < 0) {
            Py_DECREF(vecs);
            return -1;
        }
    }
    if (PyModule_AddObject(module, "CLASSIC_VECTORS", vecs) < 0) {
        Py_DECREF(vecs);
        return -1;
    }
    return 0;
}
