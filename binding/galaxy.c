/*
 * galaxy.c - binding of the star generator: the GalaxyCore type.
 *
 * Parses and checks arguments (every block size before anything is
 * allocated), releases the GIL around every scan and maps status codes to
 * exceptions.  The Python API (relfterrain/galaxy.py) adds the rest: the
 * structured dtype, slabs with a progress bar, the exercises.
 *
 * The parameters are immutable after construction, so a scan running
 * without the GIL can read them while another thread uses the object.
 */
#include "helpers.h"

typedef struct {
    PyObject_HEAD
    rt_galaxy params;
    double *profile; /* owned copy; params.profile points here */
} GalaxyCore;

static const char *const GALAXY_VECTOR_NAMES[3] = {"s", "t", "u"};

static void GalaxyCore_dealloc(GalaxyCore *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyMem_RawFree(self->profile);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

/* One direction vector into dst; -1 with an exception naming it. */
static int read_vector(PyObject *obj, const char *name, int32_t *dst, npy_intp *len)
{
    PyArrayObject *v = (PyArrayObject *)PyArray_FromAny(
        obj, PyArray_DescrFromType(NPY_INT64), 1, 1, NPY_ARRAY_IN_ARRAY, NULL);
    if (!v) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s: must be a 1-D sequence of integers", name);
        return -1;
    }
    npy_intp n = PyArray_DIM(v, 0);
    if (n < 1 || n > RT_MAX_DIRECTIONS) {
        PyErr_Format(PyExc_ValueError, "%s: length must be between 1 and %d, got %zd", name,
                     RT_MAX_DIRECTIONS, (Py_ssize_t)n);
        Py_DECREF(v);
        return -1;
    }
    const int64_t *d = PyArray_DATA(v);
    for (npy_intp i = 0; i < n; i++) {
        if (d[i] > RT_MAX_VECTOR || d[i] < -RT_MAX_VECTOR) {
            PyErr_Format(PyExc_ValueError, "%s: components must satisfy |v| <= %d, got %lld",
                         name, RT_MAX_VECTOR, (long long)d[i]);
            Py_DECREF(v);
            return -1;
        }
        dst[i] = (int32_t)d[i];
    }
    *len = n;
    Py_DECREF(v);
    return 0;
}

static PyObject *GalaxyCore_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"profile", "s", "t", "u", "min_magnitude", "magnitude_range",
                             "f_mask", "f_value", NULL};
    PyObject *profile_obj, *vec_obj[3];
    double min_mag = 1.0, range = 5.0;
    unsigned long long f_mask = 0xffff, f_value = 127;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO|$ddKK", kwlist, &profile_obj,
                                     &vec_obj[0], &vec_obj[1], &vec_obj[2], &min_mag, &range,
                                     &f_mask, &f_value))
        return NULL;
    GalaxyCore *self = (GalaxyCore *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    rt_galaxy_defaults(&self->params);
    if (rtpy_profile_copy(profile_obj, &self->profile, &self->params.profile_len) < 0) goto fail;
    self->params.profile = self->profile;
    int32_t *dst[3] = {self->params.s, self->params.t, self->params.u};
    npy_intp lens[3];
    for (int v = 0; v < 3; v++)
        if (read_vector(vec_obj[v], GALAXY_VECTOR_NAMES[v], dst[v], &lens[v]) < 0) goto fail;
    if (lens[0] != lens[1] || lens[0] != lens[2]) {
        PyErr_Format(PyExc_ValueError,
                     "s, t, u: the vectors must have one common length, got %zd, %zd, %zd",
                     (Py_ssize_t)lens[0], (Py_ssize_t)lens[1], (Py_ssize_t)lens[2]);
        goto fail;
    }
    self->params.directions = (uint32_t)lens[0];
    if (!isfinite(min_mag)) {
        PyErr_SetString(PyExc_ValueError, "min_magnitude: must be finite");
        goto fail;
    }
    if (!isfinite(range)) {
        PyErr_SetString(PyExc_ValueError, "magnitude_range: must be finite");
        goto fail;
    }
    if (f_mask > 0xffffffffull) {
        PyErr_SetString(PyExc_ValueError, "f_mask: must be between 0 and 2**32 - 1");
        goto fail;
    }
    if ((f_value & ~f_mask) != 0) {
        PyErr_Format(PyExc_ValueError, "f_value: %llu has bits outside f_mask %#llx", f_value,
                     f_mask);
        goto fail;
    }
    self->params.f_mask = (uint32_t)f_mask;
    self->params.f_value = (uint32_t)f_value;
    self->params.min_magnitude = min_mag;
    self->params.magnitude_range = range;
    rt_status s = rt_galaxy_check(&self->params, NULL);
    if (s != RT_OK) {
        rtpy_raise(s, "profile");
        goto fail;
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

/* Parse (x0, y0, z0, nx, ny, nz, *, threads) into a checked block. */
static int parse_block(PyObject *args, PyObject *kwds, rt_block3 *b, int *threads)
{
    static char *kwlist[] = {"x0", "y0", "z0", "nx", "ny", "nz", "threads", NULL};
    long long v[6];
    PyObject *threads_obj = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "LLLLLL|$O", kwlist, &v[0], &v[1], &v[2],
                                     &v[3], &v[4], &v[5], &threads_obj))
        return -1;
    *threads = 1;
    if (threads_obj && rtpy_threads(threads_obj, threads) < 0) return -1;
    static const char *const N[3] = {"nx", "ny", "nz"};
    static const char *const O[3] = {"x0", "y0", "z0"};
    for (int k = 0; k < 3; k++) {
        if (v[3 + k] < 1) {
            PyErr_Format(PyExc_ValueError, "%s: must be >= 1, got %lld", N[k], v[3 + k]);
            return -1;
        }
        /* the last point must be representable */
        if (v[k] > LLONG_MAX - (v[3 + k] - 1)) {
            PyErr_Format(PyExc_ValueError, "%s, %s: the block's last point overflows int64", O[k],
                         N[k]);
            return -1;
        }
    }
    /* nx*ny*nz must fit in int64 (counts are int64) */
    if (v[3] > LLONG_MAX / v[4] || v[3] * v[4] > LLONG_MAX / v[5]) {
        PyErr_Format(PyExc_ValueError,
                     "nx, ny, nz: a %lld x %lld x %lld block has more than 2**63 points", v[3],
                     v[4], v[5]);
        return -1;
    }
    b->x0 = v[0];
    b->y0 = v[1];
    b->z0 = v[2];
    b->nx = v[3];
    b->ny = v[4];
    b->nz = v[5];
    return 0;
}

static PyObject *star_tuple(const rt_star *s)
{
    return Py_BuildValue("(LLLdii)", (long long)s->x, (long long)s->y, (long long)s->z,
                         s->magnitude, (int)s->planets, (int)s->colour);
}

static PyObject *GalaxyCore_star(GalaxyCore *self, PyObject *args)
{
    long long x, y, z;
    if (!PyArg_ParseTuple(args, "LLL", &x, &y, &z)) return NULL;
    rt_star st;
    int found = 0;
    rt_status s = rt_galaxy_star(&self->params, x, y, z, &st, &found);
    if (s != RT_OK) return rtpy_raise(s, "x, y, z");
    if (!found) Py_RETURN_NONE;
    return star_tuple(&st);
}

static PyObject *GalaxyCore_census(GalaxyCore *self, PyObject *args, PyObject *kwds)
{
    rt_block3 b;
    int threads;
    if (parse_block(args, kwds, &b, &threads) < 0) return NULL;
    npy_intp dims[2] = {RT_STAR_PLANETS, RT_STAR_COLOURS};
    PyArrayObject *out = (PyArrayObject *)PyArray_ZEROS(2, dims, NPY_INT64, 0);
    if (!out) return NULL;
    int64_t *od = PyArray_DATA(out);
    rt_status s;
    Py_BEGIN_ALLOW_THREADS
    s = rt_galaxy_census(&self->params, &b, od, threads);
    Py_END_ALLOW_THREADS
    if (s != RT_OK) {
        Py_DECREF(out);
        return rtpy_raise(s, "x0, y0, z0, nx, ny, nz");
    }
    return (PyObject *)out;
}

/* The catalogue as a uint8 array (n, sizeof(rt_star)); galaxy.py views it
 * with STAR_DTYPE.  One scan in the usual case: the first buffer holds a
 * generous multiple of the expected number of stars (about 3e-7 per point
 * with the defaults); a block with more is scanned again with the exact
 * size the first scan reported. */
static PyObject *GalaxyCore_stars(GalaxyCore *self, PyObject *args, PyObject *kwds)
{
    rt_block3 b;
    int threads;
    if (parse_block(args, kwds, &b, &threads) < 0) return NULL;
    int64_t points = b.nx * b.ny * b.nz; /* checked by parse_block */
    int64_t cap = 4096 + points / (1 << 18);
    const int64_t maxcap = (int64_t)(PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(rt_star));
    if (cap > maxcap) cap = maxcap;
    for (int attempt = 0; attempt < 2; attempt++) {
        /* the second attempt's size is the count the first one reported
         * (snprintf-style): checked against the memory before allocating */
        char detail[64];
        PyOS_snprintf(detail, sizeof detail, "a catalogue of %lld stars", (long long)cap);
        if (rtpy_check_alloc_for((unsigned long long)cap * sizeof(rt_star), "nx, ny, nz",
                                 attempt ? detail : NULL) < 0)
            return NULL;
        npy_intp dims[2] = {(npy_intp)cap, (npy_intp)sizeof(rt_star)};
        PyArrayObject *buf = (PyArrayObject *)PyArray_EMPTY(2, dims, NPY_UINT8, 0);
        if (!buf) return NULL;
        rt_star *od = PyArray_DATA(buf);
        int64_t count = 0;
        rt_status s;
        Py_BEGIN_ALLOW_THREADS
        s = rt_galaxy_stars(&self->params, &b, od, cap, &count, threads);
        Py_END_ALLOW_THREADS
        if (s != RT_OK) {
            Py_DECREF(buf);
            return rtpy_raise(s, "x0, y0, z0, nx, ny, nz");
        }
        if (count <= cap) {
            if (count < cap) {
                /* shrink to the catalogue's size (a copy: the buffer may be large) */
                PyObject *res = PySequence_GetSlice((PyObject *)buf, 0, (Py_ssize_t)count);
                Py_DECREF(buf);
                if (!res) return NULL;
                PyObject *copy = PyArray_NewCopy((PyArrayObject *)res, NPY_CORDER);
                Py_DECREF(res);
                return copy;
            }
            return (PyObject *)buf;
        }
        Py_DECREF(buf);
        if (count > maxcap) {
            PyErr_Format(PyExc_MemoryError,
                         "x0, y0, z0, nx, ny, nz: %lld stars are too many to allocate",
                         (long long)count);
            return NULL;
        }
        cap = count;
    }
    PyErr_SetString(PyExc_SystemError, "stars: the catalogue changed size between two scans");
    return NULL;
}

static PyObject *GalaxyCore_get_profile(GalaxyCore *self, void *closure)
{
    (void)closure;
    npy_intp n = self->params.profile_len;
    PyArrayObject *a = (PyArrayObject *)PyArray_EMPTY(1, &n, NPY_FLOAT64, 0);
    if (a) memcpy(PyArray_DATA(a), self->profile, (size_t)n * sizeof(double));
    return (PyObject *)a;
}

static PyObject *GalaxyCore_get_vectors(GalaxyCore *self, void *closure)
{
    (void)closure;
    npy_intp dims[2] = {3, self->params.directions};
    PyArrayObject *a = (PyArrayObject *)PyArray_EMPTY(2, dims, NPY_INT64, 0);
    if (!a) return NULL;
    int64_t *d = PyArray_DATA(a);
    const int32_t *src[3] = {self->params.s, self->params.t, self->params.u};
    for (int v = 0; v < 3; v++)
        for (uint32_t i = 0; i < self->params.directions; i++) d[v * dims[1] + i] = src[v][i];
    return (PyObject *)a;
}

static PyObject *GalaxyCore_get_min_magnitude(GalaxyCore *self, void *closure)
{
    (void)closure;
    return PyFloat_FromDouble(self->params.min_magnitude);
}

static PyObject *GalaxyCore_get_magnitude_range(GalaxyCore *self, void *closure)
{
    (void)closure;
    return PyFloat_FromDouble(self->params.magnitude_range);
}

static PyObject *GalaxyCore_get_f_mask(GalaxyCore *self, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLong(self->params.f_mask);
}

static PyObject *GalaxyCore_get_f_value(GalaxyCore *self, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLong(self->params.f_value);
}

static PyGetSetDef GalaxyCore_getset[] = {
    {"f_mask", (getter)GalaxyCore_get_f_mask, NULL, "The mask of f (0xffff).", NULL},
    {"f_value", (getter)GalaxyCore_get_f_value, NULL, "The f that makes a star (127).", NULL},
    {"profile", (getter)GalaxyCore_get_profile, NULL, "A copy of the profile.", NULL},
    {"vectors", (getter)GalaxyCore_get_vectors, NULL, "A copy of S, T, U as (3, N).", NULL},
    {"min_magnitude", (getter)GalaxyCore_get_min_magnitude, NULL, "MIN_MAGNITUDE.", NULL},
    {"magnitude_range", (getter)GalaxyCore_get_magnitude_range, NULL, "MAGNITUDE_RANGE.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef GalaxyCore_methods[] = {
    {"star", (PyCFunction)GalaxyCore_star, METH_VARARGS,
     "star(x, y, z) -> (x, y, z, magnitude, planets, colour) or None"},
    {"census", (PyCFunction)(void (*)(void))GalaxyCore_census, METH_VARARGS | METH_KEYWORDS,
     "census(x0, y0, z0, nx, ny, nz, *, threads=1) -> int64 (16 planets, 16 colours)"},
    {"stars", (PyCFunction)(void (*)(void))GalaxyCore_stars, METH_VARARGS | METH_KEYWORDS,
     "stars(x0, y0, z0, nx, ny, nz, *, threads=1) -> uint8 (n, STAR_ITEMSIZE) records"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot GalaxyCore_slots[] = {
    {Py_tp_new, GalaxyCore_new},
    {Py_tp_dealloc, GalaxyCore_dealloc},
    {Py_tp_methods, GalaxyCore_methods},
    {Py_tp_getset, GalaxyCore_getset},
    {Py_tp_doc, "GalaxyCore(profile, s, t, u, *, min_magnitude=1.0, magnitude_range=5.0, "
                "f_mask=0xffff, f_value=127)\n--\n\n"
                "The star generator's C state. Use relfterrain.Galaxy."},
    {0, NULL},
};

static PyType_Spec GalaxyCore_spec = {
    "relfterrain._core.GalaxyCore",
    sizeof(GalaxyCore),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    GalaxyCore_slots,
};

int rtpy_galaxy_exec(PyObject *module)
{
    PyObject *type = PyType_FromModuleAndSpec(module, &GalaxyCore_spec, NULL);
    if (!type) return -1;
    if (PyModule_AddObject(module, "GalaxyCore", type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    /* the record layout, for STAR_DTYPE */
    PyObject *layout = Py_BuildValue(
        "{s:n,s:n,s:n,s:n,s:n,s:n,s:n}", "itemsize", (Py_ssize_t)sizeof(rt_star), "x",
        (Py_ssize_t)offsetof(rt_star, x), "y", (Py_ssize_t)offsetof(rt_star, y), "z",
        (Py_ssize_t)offsetof(rt_star, z), "magnitude", (Py_ssize_t)offsetof(rt_star, magnitude),
        "planets", (Py_ssize_t)offsetof(rt_star, planets), "colour",
        (Py_ssize_t)offsetof(rt_star, colour));
    if (!layout) return -1;
    if (PyModule_AddObject(module, "STAR_LAYOUT", layout) < 0) {
        Py_DECREF(layout);
        return -1;
    }
    rt_galaxy d;
    rt_galaxy_defaults(&d);
    PyObject *vecs = PyTuple_New(3);
    if (!vecs) return -1;
    const int32_t *src[3] = {d.s, d.t, d.u};
    for (int v = 0; v < 3; v++) {
        PyObject *tup = PyTuple_New(d.directions);
        if (!tup) {
            Py_DECREF(vecs);
            return -1;
        }
        for (uint32_t i = 0; i < d.directions; i++)
            PyTuple_SET_ITEM(tup, i, PyLong_FromLong(src[v][i]));
        PyTuple_SET_ITEM(vecs, v, tup);
    }
    if (PyModule_AddObject(module, "GALAXY_VECTORS", vecs) < 0) {
        Py_DECREF(vecs);
        return -1;
    }
    return 0;
}
