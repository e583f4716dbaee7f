/*
 * _core_terrain.c - binding of the terrain generator: the TerrainCore type.
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
#include "_binding.h"

typedef struct placed_box {
    rt_placed *table;
    Py_ssize_t refs; /* the owner's reference plus running computations */
} placed_box;

typedef struct {
    PyObject_HEAD
    rt_terrain params;  /* params.placed is set per call, from `placed` */
    double *profile;    /* owned copy; params.profile points here */
    placed_box *placed;
} TerrainCore;

static const char *const VECTOR_NAMES[RT_VECTOR_COUNT] = {"ah", "bh", "a1", "b1",
                                                          "a2", "b2", "a3", "b3"};

static placed_box *box_new(rt_placed *table)
{
    placed_box *b = PyMem_RawMalloc(sizeof *b);
    if (!b) return NULL;
    b->table = table;
    b->refs = 1;
    return b;
}

static void box_release(placed_box *b)
{
    if (b && --b->refs == 0) {
        rt_placed_free(b->table);
        PyMem_RawFree(b);
    }
}

/* A snapshot of the parameters for one computation (GIL held). */
static placed_box *acquire(TerrainCore *self, rt_terrain *params)
{
    *params = self->params;
    self->placed->refs++;
    params->placed = self->placed->table;
    return self->placed;
}

/* The table to modify: copied first if a computation is using it. */
static rt_placed *writable_table(TerrainCore *self)
{
    if (self->placed->refs > 1) {
        rt_placed *copy = rt_placed_clone(self->placed->table);
        placed_box *b = copy ? box_new(copy) : NULL;
        if (!b) {
            rt_placed_free(copy);
            PyErr_NoMemory();
            return NULL;
        }
        box_release(self->placed);
        self->placed = b;
    }
    return self->placed->table;
}

/* ------------------------------------------------------------------------ */

static void TerrainCore_dealloc(TerrainCore *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    box_release(self->placed);
    PyMem_RawFree(self->profile);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static int set_optional_level(PyObject *obj, const char *name, int *flag, double *value)
{
    if (obj == Py_None) {
        *flag = 0;
        return 0;
    }
    double v = PyFloat_AsDouble(obj);
    if (v == -1.0 && PyErr_Occurred()) return -1;
    if (!isfinite(v)) {
        PyErr_Format(PyExc_ValueError, "%s: must be finite or None, got %R", name, obj);
        return -1;
    }
    *flag = 1;
    *value = v;
    return 0;
}

static PyObject *TerrainCore_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"profile", "vectors", "lake_base", "lake_height", "feature_mask",
                             "with_paths", "mountain_base", "snow_height", "wood_only",
                             "bleak", NULL};
    PyObject *profile_obj, *vectors_obj, *mountain = Py_None, *snow = Py_None;
    double lake_base = 204.0, lake_height = 204.0;
    unsigned long long feature_mask = 0xfff;
    int with_paths = 0, wood_only = 0, bleak = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|$ddKpOOpp", kwlist, &profile_obj,
                                     &vectors_obj, &lake_base, &lake_height, &feature_mask,
                                     &with_paths, &mountain, &snow, &wood_only, &bleak))
        return NULL;

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
    if (!isfinite(lake_base)) {
        PyErr_SetString(PyExc_ValueError, "lake_base: must be finite");
        goto fail;
    }
    if (!isfinite(lake_height)) {
        PyErr_SetString(PyExc_ValueError, "lake_height: must be finite");
        goto fail;
    }
    if (feature_mask > 0xffffffffull) {
        PyErr_SetString(PyExc_ValueError, "feature_mask: must be between 0 and 2**32 - 1");
        goto fail;
    }
    self->params.lake_base = lake_base;
    self->params.lake_height = lake_height;
    self->params.feature_mask = (uint32_t)feature_mask;
    self->params.with_paths = with_paths;
    self->params.wood_only = wood_only;
    self->params.bleak = bleak;
    if (set_optional_level(mountain, "mountain_base", &self->params.mountains,
                           &self->params.mountain_base) < 0)
        goto fail;
    if (set_optional_level(snow, "snow_height", &self->params.snow, &self->params.snow_height) < 0)
        goto fail;

    int bad = 0;
    rt_status s = rt_terrain_check(&self->params, &bad);
    if (s != RT_OK) {
        rtpy_raise(s, s == RT_ERR_VECTOR_VALUE ? VECTOR_NAMES[bad]
                      : (s == RT_ERR_PROFILE_LENGTH || s == RT_ERR_PROFILE_VALUE) ? "profile"
                                                                                  : "parameters");
        goto fail;
    }
    rt_placed *table = rt_placed_new();
    self->placed = table ? box_new(table) : NULL;
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

static PyObject *TerrainCore_height_grid(TerrainCore *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"x0", "y0", "nx", "ny", "step", "c0", "r0", "out", "threads", NULL};
    double x0, y0, step = 1.0;
    long long nx, ny, c0 = 0, r0 = 0;
    PyObject *out_obj = Py_None, *threads_obj = NULL;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ddLL|d$LLOO", kwlist, &x0, &y0, &nx, &ny,
                                     &step, &c0, &r0, &out_obj, &threads_obj))
        return NULL;
    if (threads_obj && rtpy_threads(threads_obj, &threads) < 0) return NULL;
    if (rtpy_check_block(nx, ny, c0, r0, sizeof(double)) < 0) return NULL;
    npy_intp dims[2] = {(npy_intp)ny, (npy_intp)nx};
    PyArrayObject *out = rtpy_output(out_obj, "out", NPY_FLOAT64, 2, dims);
    if (!out) return NULL;
    rt_block b = {x0, y0, step, c0, r0, nx, ny};
    rt_terrain p;
    placed_box *box = acquire(self, &p);
    rt_status s;
    double *data = PyArray_DATA(out);
    Py_BEGIN_ALLOW_THREADS
    s = rt_height_grid(&p, &b, data, threads);
    Py_END_ALLOW_THREADS
    box_release(box);
    if (s != RT_OK) {
        Py_DECREF(out);
        return rtpy_raise(s, s == RT_ERR_COORD ? "x0, y0, step" : "nx, ny");
    }
    return (PyObject *)out;
}

static const char *const TERRA_OUT_NAMES[4] = {"out.height", "out.depth", "out.terrain",
                                               "out.feature"};
static const int TERRA_OUT_TYPES[4] = {NPY_FLOAT64, NPY_FLOAT64, NPY_UINT8, NPY_UINT8};

/* outputs: a 4-sequence; None = not wanted, True = allocate, else an array. */
static int terra_outputs(PyObject *outputs, int ndim, const npy_intp *dims,
                         PyArrayObject *arrays[4], rt_terra_out *o)
{
    PyObject *seq = PySequence_Fast(outputs, "outputs: must be a sequence of 4 items");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 4) {
        PyErr_SetString(PyExc_ValueError, "out: must hold 4 arrays (height, depth, terrain, feature)");
        Py_DECREF(seq);
        return -1;
    }
    void *ptrs[4] = {NULL, NULL, NULL, NULL};
    for (int k = 0; k < 4; k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, k);
        arrays[k] = NULL;
        if (item == Py_None) continue;
        arrays[k] = rtpy_output(item == Py_True ? Py_None : item, TERRA_OUT_NAMES[k],
                                TERRA_OUT_TYPES[k], ndim, dims);
        if (!arrays[k]) {
            for (int m = 0; m < k; m++) Py_CLEAR(arrays[m]);
            Py_DECREF(seq);
            return -1;
        }
        ptrs[k] = PyArray_DATA(arrays[k]);
    }
    Py_DECREF(seq);
    o->height = ptrs[0];
    o->depth = ptrs[1];
    o->terrain = ptrs[2];
    o->feature = ptrs[3];
    return 0;
}

static PyObject *outputs_tuple(PyArrayObject *arrays[4])
{
    PyObject *t = PyTuple_New(4);
    if (!t) {
        for (int k = 0; k < 4; k++) Py_CLEAR(arrays[k]);
        return NULL;
    }
    for (int k = 0; k < 4; k++) {
        PyObject *a = arrays[k] ? (PyObject *)arrays[k] : Py_NewRef(Py_None);
        PyTuple_SET_ITEM(t, k, a); /* steals */
    }
    return t;
}

static PyObject *TerrainCore_terra_grid(TerrainCore *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"x0", "y0", "nx", "ny", "step", "c0", "r0", "outputs", "threads",
                             NULL};
    double x0, y0, step = 1.0;
    long long nx, ny, c0 = 0, r0 = 0;
    PyObject *outputs = NULL, *threads_obj = NULL;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ddLL|d$LLOO", kwlist, &x0, &y0, &nx, &ny,
                                     &step, &c0, &r0, &outputs, &threads_obj))
        return NULL;
    if (threads_obj && rtpy_threads(threads_obj, &threads) < 0) return NULL;
    if (rtpy_check_block(nx, ny, c0, r0, sizeof(double)) < 0) return NULL;
    npy_intp dims[2] = {(npy_intp)ny, (npy_intp)nx};
    PyArrayObject *arrays[4];
    rt_terra_out o;
    PyObject *all = NULL;
    if (!outputs) outputs = all = Py_BuildValue("(OOOO)", Py_True, Py_True, Py_True, Py_True);
    int bad = outputs ? terra_outputs(outputs, 2, dims, arrays, &o) : -1;
    Py_XDECREF(all);
    if (bad) return NULL;
    rt_block b = {x0, y0, step, c0, r0, nx, ny};
    rt_terrain p;
    placed_box *box = acquire(self, &p);
    rt_status s;
    Py_BEGIN_ALLOW_THREADS
    s = rt_terra_grid(&p, &b, &o, threads);
    Py_END_ALLOW_THREADS
    box_release(box);
    if (s != RT_OK) {
        for (int k = 0; k < 4; k++) Py_CLEAR(arrays[k]);
        return rtpy_raise(s, s == RT_ERR_COORD ? "x0, y0, step" : "nx, ny");
    }
    return outputs_tuple(arrays);
}

/* ------------------------------------------------------------------------ */
/* Points                                                                   */
/* ------------------------------------------------------------------------ */

static int get_xy(PyObject *xo, PyObject *yo, PyArrayObject **x, PyArrayObject **y)
{
    *x = rtpy_input_1d(xo, "x", NPY_FLOAT64);
    if (!*x) return -1;
    *y = rtpy_input_1d(yo, "y", NPY_FLOAT64);
    if (!*y) {
        Py_CLEAR(*x);
        return -1;
    }
    if (PyArray_DIM(*x, 0) != PyArray_DIM(*y, 0)) {
        PyErr_SetString(PyExc_ValueError, "x, y: must have the same length");
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
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|$OO", kwlist, &xo, &yo, &out_obj,
                                     &threads_obj))
        return NULL;
    if (threads_obj && rtpy_threads(threads_obj, &threads) < 0) return NULL;
    PyArrayObject *x, *y;
    if (get_xy(xo, yo, &x, &y) < 0) return NULL;
    npy_intp n = PyArray_DIM(x, 0);
    PyArrayObject *out = rtpy_output(out_obj, "out", NPY_FLOAT64, 1, &n);
    if (!out) {
        Py_DECREF(x);
        Py_DECREF(y);
        return NULL;
    }
    rt_terrain p;
    placed_box *box = acquire(self, &p);
    rt_status s;
    const double *xd = PyArray_DATA(x), *yd = PyArray_DATA(y);
    double *od = PyArray_DATA(out);
    Py_BEGIN_ALLOW_THREADS
    s = rt_height_points(&p, xd, yd, (int64_t)n, od, threads);
    Py_END_ALLOW_THREADS
    box_release(box);
    Py_DECREF(x);
    Py_DECREF(y);
    if (s != RT_OK) {
        Py_DECREF(out);
        return rtpy_raise(s, "x, y");
    }
    return (PyObject *)out;
}

static PyObject *TerrainCore_terra_points(TerrainCore *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"x", "y", "outputs", "threads", NULL};
    PyObject *xo, *yo, *outputs = NULL, *threads_obj = NULL;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|$OO", kwlist, &xo, &yo, &outputs,
                                     &threads_obj))
        return NULL;
    if (threads_obj && rtpy_threads(threads_obj, &threads) < 0) return NULL;
    PyArrayObject *x, *y;
    if (get_xy(xo, yo, &x, &y) < 0) return NULL;
    npy_intp n = PyArray_DIM(x, 0);
    PyArrayObject *arrays[4];
    rt_terra_out o;
    PyObject *all = NULL;
    if (!outputs) outputs = all = Py_BuildValue("(OOOO)", Py_True, Py_True, Py_True, Py_True);
    int bad = outputs ? terra_outputs(outputs, 1, &n, arrays, &o) : -1;
    Py_XDECREF(all);
    if (bad) {
        Py_DECREF(x);
        Py_DECREF(y);
        return NULL;
    }
    rt_terrain p;
    placed_box *box = acquire(self, &p);
    rt_status s;
    const double *xd = PyArray_DATA(x), *yd = PyArray_DATA(y);
    Py_BEGIN_ALLOW_THREADS
    s = rt_terra_points(&p, xd, yd, (int64_t)n, &o, threads);
    Py_END_ALLOW_THREADS
    box_release(box);
    Py_DECREF(x);
    Py_DECREF(y);
    if (s != RT_OK) {
        for (int k = 0; k < 4; k++) Py_CLEAR(arrays[k]);
        return rtpy_raise(s, "x, y");
    }
    return outputs_tuple(arrays);
}

static PyObject *TerrainCore_tree_selector(TerrainCore *self, PyObject *args, PyObject *kwds)
{
    (void)self;
    static char *kwlist[] = {"x", "y", NULL};
    PyObject *xo, *yo;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO", kwlist, &xo, &yo)) return NULL;
    PyArrayObject *x, *y;
    if (get_xy(xo, yo, &x, &y) < 0) return NULL;
    npy_intp n = PyArray_DIM(x, 0);
    PyArrayObject *out = rtpy_output(Py_None, "out", NPY_UINT8, 1, &n);
    rt_status s = RT_OK;
    if (out) {
        const double *xd = PyArray_DATA(x), *yd = PyArray_DATA(y);
        uint8_t *od = PyArray_DATA(out);
        Py_BEGIN_ALLOW_THREADS
        s = rt_tree_selector_points(xd, yd, (int64_t)n, od);
        Py_END_ALLOW_THREADS
    }
    Py_DECREF(x);
    Py_DECREF(y);
    if (out && s != RT_OK) {
        Py_DECREF(out);
        return rtpy_raise(s, "x, y");
    }
    return (PyObject *)out;
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
    int64_t *buf = PyMem_RawMalloc((size_t)(cap > 0 ? cap : 1) * 2 * sizeof(int64_t));
    if (!buf) return PyErr_NoMemory();
    rt_terrain p;
    placed_box *box = acquire(self, &p);
    long long n = 0;
    Py_BEGIN_ALLOW_THREADS
    for (long long j = 0; j < ky; j++)
        for (long long i = 0; i < kx; i++) {
            int64_t bx = xs + 16 * i, by = ys + 16 * j;
            if (rt_building_at(&p, bx, by)) {
                buf[2 * n] = bx;
                buf[2 * n + 1] = by;
                n++;
            }
        }
    Py_END_ALLOW_THREADS
    box_release(box);
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
    rt_placed *t = writable_table(self);
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
    rt_placed *t = writable_table(self);
    if (!t) return NULL;
    return PyBool_FromLong(rt_placed_remove(t, x, y));
}

static PyObject *TerrainCore_remove_all(TerrainCore *self, PyObject *arg)
{
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) return NULL;
    if (v < 0 || v > 255) return rtpy_raise(RT_ERR_PLACED_VALUE, "what");
    rt_placed *t = writable_table(self);
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
    npy_intp n = (npy_intp)rt_placed_count(self->placed->table);
    PyArrayObject *xs = (PyArrayObject *)PyArray_EMPTY(1, &n, NPY_INT64, 0);
    PyArrayObject *ys = (PyArrayObject *)PyArray_EMPTY(1, &n, NPY_INT64, 0);
    PyArrayObject *vs = (PyArrayObject *)PyArray_EMPTY(1, &n, NPY_UINT8, 0);
    if (!xs || !ys || !vs) {
        Py_XDECREF(xs);
        Py_XDECREF(ys);
        Py_XDECREF(vs);
        return NULL;
    }
    rt_placed_items(self->placed->table, PyArray_DATA(xs), PyArray_DATA(ys), PyArray_DATA(vs),
                    (int64_t)n);
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
    const rt_terrain *t = &self->params;
    PyObject *mb = t->mountains ? PyFloat_FromDouble(t->mountain_base) : Py_NewRef(Py_None);
    PyObject *sh = t->snow ? PyFloat_FromDouble(t->snow_height) : Py_NewRef(Py_None);
    return Py_BuildValue("{s:d,s:k,s:O,s:N,s:N,s:O,s:O}", "lake_base", t->lake_base,
                         "feature_mask", (unsigned long)t->feature_mask, "with_paths",
                         t->with_paths ? Py_True : Py_False, "mountain_base", mb,
                         "snow_height", sh, "wood_only", t->wood_only ? Py_True : Py_False,
                         "bleak", t->bleak ? Py_True : Py_False);
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
    {"options", (getter)TerrainCore_get_options, NULL, "The scalar options as a dict.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef TerrainCore_methods[] = {
    {"height_grid", (PyCFunction)(void (*)(void))TerrainCore_height_grid,
     METH_VARARGS | METH_KEYWORDS,
     "height_grid(x0, y0, nx, ny, step=1.0, *, c0=0, r0=0, out=None, threads=1)"},
    {"terra_grid", (PyCFunction)(void (*)(void))TerrainCore_terra_grid,
     METH_VARARGS | METH_KEYWORDS,
     "terra_grid(x0, y0, nx, ny, step=1.0, *, c0=0, r0=0, outputs=None, threads=1)\n"
     "outputs: 4 items (height, depth, terrain, feature): None skip, True allocate, or array."},
    {"height_points", (PyCFunction)(void (*)(void))TerrainCore_height_points,
     METH_VARARGS | METH_KEYWORDS, "height_points(x, y, *, out=None, threads=1)"},
    {"terra_points", (PyCFunction)(void (*)(void))TerrainCore_terra_points,
     METH_VARARGS | METH_KEYWORDS, "terra_points(x, y, *, outputs=None, threads=1)"},
    {"tree_selector", (PyCFunction)(void (*)(void))TerrainCore_tree_selector,
     METH_VARARGS | METH_KEYWORDS, "tree_selector(x, y)"},
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
    {Py_tp_doc, "TerrainCore(profile, vectors, *, lake_base=204.0, lake_height=204.0, "
                "feature_mask=0xfff, with_paths=False, mountain_base=None, snow_height=None, "
                "wood_only=False, bleak=False)\n--\n\n"
                "The terrain generator's C state. Use relfterrain.Terrain."},
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
    if (PyModule_AddObject(module, "TerrainCore", type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    npy_intp n = 256;
    PyArrayObject *prof = (PyArrayObject *)PyArray_EMPTY(1, &n, NPY_FLOAT64, 0);
    if (!prof) return -1;
    memcpy(PyArray_DATA(prof), rt_classic_profile(), 256 * sizeof(double));
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
