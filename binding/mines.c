/*
 * mines.c - binding of mines, caverns and cave mouths (SPEC 8):
 * module functions taking a TerrainCore where the terrain is needed.
 * Outputs are allocated (or checked) before the GIL is released; the
 * placed table is used through a copy-on-write snapshot.
 */
#include "helpers.h"

/* Parse the mine parameters shared by several functions. */
static int mines_params(int variant, double threshold, long long cell_size, long long levels,
                        rt_mines *m)
{
    rt_mines_defaults(m);
    m->variant = variant;
    m->threshold = threshold;
    m->cell_size = cell_size;
    m->levels = levels;
    if (variant < 0 || variant >= RT_MINES_VARIANT_COUNT) {
        PyErr_Format(PyExc_ValueError, "variant: must be 0 (classic) or 1 (sincos), got %d",
                     variant);
        return -1;
    }
    if (!(threshold >= 0.0 && threshold < 1.0)) {
        char *txt = PyOS_double_to_string(threshold, 'r', 0, 0, NULL);
        if (txt) PyErr_Format(PyExc_ValueError, "threshold: must be in [0, 1), got %s", txt);
        PyMem_Free(txt);
        return -1;
    }
    if (cell_size < 1 || cell_size > RT_MAX_CELL_SIZE) {
        PyErr_Format(PyExc_ValueError, "cell_size: must be between 1 and %d, got %lld",
                     RT_MAX_CELL_SIZE, cell_size);
        return -1;
    }
    if (levels < 1 || levels > RT_MAX_MINE_LEVELS) {
        PyErr_Format(PyExc_ValueError, "levels: must be between 1 and %d, got %lld",
                     RT_MAX_MINE_LEVELS, levels);
        return -1;
    }
    return 0;
}

static const char *cells_what(rt_status s)
{
    return s == RT_ERR_COORD ? "xg0, yg0: cell centres multiples of cell_size within +-2**50"
                             : "ncx, ncy";
}

/* mines_above(terrain, xg0, yg0, ncx, ncy, *, variant, threshold, cell_size, levels, out, threads) */
static PyObject *mines_above(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"terrain", "xg0", "yg0", "ncx", "ncy", "variant", "threshold",
                             "cell_size", "levels", "out", "threads", "pi10000", NULL};
    PyObject *tobj, *out_obj = Py_None, *threads_obj = NULL;
    long long xg0, yg0, nx, ny, cs = 16, levels = 1;
    int variant = 0, threads = 1;
    double threshold = 0.4, pi10000 = 0.0; /* the open test's: not used here */
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OLLLL|$idLLOOd", kwlist, &tobj, &xg0, &yg0, &nx,
                                     &ny, &variant, &threshold, &cs, &levels, &out_obj,
                                     &threads_obj, &pi10000))
        return NULL;
    (void)pi10000;
    if (!rtpy_terrain_check(tobj)) {
        PyErr_SetString(PyExc_TypeError, "terrain: must be a relfterrain._core.TerrainCore");
        return NULL;
    }
    rt_mines m;
    if (mines_params(variant, threshold, cs, levels, &m) < 0) return NULL;
    if (threads_obj && rtpy_threads(threads_obj, &threads) < 0) return NULL;
    if (rtpy_check_block(nx, ny, 0, 0, 1) < 0) return NULL;
    npy_intp dims[2] = {(npy_intp)ny, (npy_intp)nx};
    PyArrayObject *out = rtpy_output(out_obj, "out", NPY_BOOL, 2, dims);
    if (!out) return NULL;
    rt_cells b = {xg0, yg0, nx, ny};
    rt_terrain p;
    rtpy_placed_box *box = rtpy_terrain_snapshot((rtpy_terrain *)tobj, &p);
    rt_status s;
    /* the work: cs*cs points a cell (an out= is filled from scratch when long) */
    int given = out_obj != Py_None;
    double work = (double)nx * (double)ny * (double)(cs * cs);
    rtpy_call c;
    rtpy_call_begin(&c, work < 9e18 ? (int64_t)work : INT64_MAX, 1, &out, &given);
    uint8_t *data = c.data[0];
    Py_BEGIN_ALLOW_THREADS
    s = rt_mines_above(&m, &p, &b, data, threads, c.poll);
    Py_END_ALLOW_THREADS
    rtpy_call_end(&c, s);
    rtpy_box_release(box);
    if (s != RT_OK) {
        Py_DECREF(out);
        return rtpy_raise(s, cells_what(s));
    }
    return (PyObject *)out;
}

/* mines_open(xg0, yg0, ncx, ncy, above=None, *, variant, threshold, cell_size, levels, out, threads):
 * (levels, ncy, ncx) bool. */
static PyObject *mines_open(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"xg0", "yg0", "ncx", "ncy", "above", "variant", "threshold",
                             "cell_size", "levels", "out", "threads", "pi10000", NULL};
    PyObject *above_obj = Py_None, *out_obj = Py_None, *threads_obj = NULL;
    long long xg0, yg0, nx, ny, cs = 16, levels = 1;
    int variant = 0, threads = 1;
    double threshold = 0.4, pi10000 = -1.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "LLLL|O$idLLOOd", kwlist, &xg0, &yg0, &nx, &ny,
                                     &above_obj, &variant, &threshold, &cs, &levels, &out_obj,
                                     &threads_obj, &pi10000))
        return NULL;
    rt_mines m;
    if (mines_params(variant, threshold, cs, levels, &m) < 0) return NULL;
    if (pi10000 != -1.0) { /* SPEC 17: the terrain's pi10000 (default Math.PI * 10000) */
        if (!isfinite(pi10000)) {
            PyErr_SetString(PyExc_ValueError, "pi10000: must be finite");
            return NULL;
        }
        m.pi10000 = pi10000;
    }
    if (threads_obj && rtpy_threads(threads_obj, &threads) < 0) return NULL;
    if (rtpy_check_block(nx, ny, 0, 0, 1) < 0) return NULL;
    if ((unsigned long long)levels > (unsigned long long)PY_SSIZE_T_MAX / (unsigned long long)nx /
                                         (unsigned long long)ny) {
        PyErr_SetString(PyExc_MemoryError, "ncx, ncy, levels: the block is too large");
        return NULL;
    }
    npy_intp dims[3] = {(npy_intp)levels, (npy_intp)ny, (npy_intp)nx};
    PyArrayObject *above = NULL, *out = NULL;
    if (above_obj != Py_None) {
        above = (PyArrayObject *)PyArray_FromAny(above_obj, PyArray_DescrFromType(NPY_BOOL), 2, 2,
                                                 NPY_ARRAY_IN_ARRAY, NULL);
        if (!above) return NULL;
        if (PyArray_DIM(above, 0) != dims[1] || PyArray_DIM(above, 1) != dims[2]) {
            PyErr_SetString(PyExc_ValueError, "above: shape must be (ncy, ncx)");
            goto fail;
        }
    }
    out = rtpy_output(out_obj, "out", NPY_BOOL, 3, dims);
    if (!out) goto fail;
    rt_cells b = {xg0, yg0, nx, ny};
    const uint8_t *ad = above ? PyArray_DATA(above) : NULL;
    rt_status s;
    int given = out_obj != Py_None;
    rtpy_call c;
    rtpy_call_begin(&c, (int64_t)(nx * ny * levels), 1, &out, &given);
    uint8_t *od = c.data[0];
    Py_BEGIN_ALLOW_THREADS
    s = rt_mines_open(&m, &b, ad, od, threads, c.poll);
    Py_END_ALLOW_THREADS
    rtpy_call_end(&c, s);
    if (s != RT_OK) {
        rtpy_raise(s, cells_what(s));
        goto fail;
    }
    Py_XDECREF(above);
    return (PyObject *)out;
fail:
    Py_XDECREF(above);
    Py_XDECREF(out);
    return NULL;
}

/* label_cells(open, *, threads): (labels int32 of open's shape (2-D or 3-D), count) */
static PyObject *label_cells(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"open", "out", "threads", NULL};
    PyObject *open_obj, *out_obj = Py_None, *threads_obj = NULL;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$OO", kwlist, &open_obj, &out_obj,
                                     &threads_obj))
        return NULL;
    if (threads_obj && rtpy_threads(threads_obj, &threads) < 0) return NULL;
    PyArrayObject *open = (PyArrayObject *)PyArray_FromAny(
        open_obj, PyArray_DescrFromType(NPY_BOOL), 2, 3, NPY_ARRAY_IN_ARRAY, NULL);
    if (!open) return NULL;
    PyArrayObject *out = NULL;
    int nd = PyArray_NDIM(open);
    npy_intp *dims = PyArray_DIMS(open);
    long long nz = nd == 3 ? dims[0] : 1, ny = dims[nd - 2], nx = dims[nd - 1];
    if (nz < 1 || ny < 1 || nx < 1) {
        PyErr_SetString(PyExc_ValueError, "open: every dimension must be >= 1");
        goto fail;
    }
    if (nx > RT_MAX_LABEL_CELLS / ny || nx * ny > RT_MAX_LABEL_CELLS / nz) {
        PyErr_Format(PyExc_ValueError, "open: at most %lld cells can be labelled at once, got %lld",
                     (long long)RT_MAX_LABEL_CELLS, nz * ny * nx);
        goto fail;
    }
    out = rtpy_output(out_obj, "out", NPY_INT32, nd, dims);
    if (!out) goto fail;
    const uint8_t *od = PyArray_DATA(open);
    int64_t count = 0;
    rt_status s;
    int given = out_obj != Py_None;
    rtpy_call c;
    rtpy_call_begin(&c, (int64_t)(nz * ny * nx), 1, &out, &given);
    int32_t *ld = c.data[0];
    Py_BEGIN_ALLOW_THREADS
    s = rt_label_cells(nz, ny, nx, od, ld, &count, threads, c.poll);
    Py_END_ALLOW_THREADS
    rtpy_call_end(&c, s);
    if (s != RT_OK) {
        rtpy_raise(s, "open");
        goto fail;
    }
    Py_DECREF(open);
    return Py_BuildValue("(NL)", (PyObject *)out, (long long)count);
fail:
    Py_XDECREF(open);
    Py_XDECREF(out);
    return NULL;
}

/* label_census(labels, count, flags=None): (sizes, flagged or None), int64 (count + 1,) */
static PyObject *label_census(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"labels", "count", "flags", NULL};
    PyObject *lab_obj, *flags_obj = Py_None;
    long long count;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OL|O", kwlist, &lab_obj, &count, &flags_obj))
        return NULL;
    if (count < 0 || count > RT_MAX_LABEL_CELLS) {
        PyErr_Format(PyExc_ValueError, "count: must be between 0 and 2**31 - 1, got %lld", count);
        return NULL;
    }
    PyArrayObject *lab = (PyArrayObject *)PyArray_FromAny(
        lab_obj, PyArray_DescrFromType(NPY_INT32), 0, 0, NPY_ARRAY_IN_ARRAY, NULL);
    if (!lab) return NULL;
    PyArrayObject *flags = NULL, *sizes = NULL, *flagged = NULL;
    if (flags_obj != Py_None) {
        flags = (PyArrayObject *)PyArray_FromAny(flags_obj, PyArray_DescrFromType(NPY_BOOL), 0, 0,
                                                 NPY_ARRAY_IN_ARRAY, NULL);
        if (!flags) goto fail;
        if (PyArray_SIZE(flags) > PyArray_SIZE(lab)) {
            PyErr_SetString(PyExc_ValueError, "flags: must not have more cells than labels");
            goto fail;
        }
    }
    npy_intp dim = (npy_intp)count + 1;
    sizes = (PyArrayObject *)PyArray_EMPTY(1, &dim, NPY_INT64, 0);
    if (!sizes) goto fail;
    if (flags) {
        flagged = (PyArrayObject *)PyArray_EMPTY(1, &dim, NPY_INT64, 0);
        if (!flagged) goto fail;
    }
    const int32_t *ld = PyArray_DATA(lab);
    const uint8_t *fd = flags ? PyArray_DATA(flags) : NULL;
    int64_t n = PyArray_SIZE(lab), nf = flags ? PyArray_SIZE(flags) : 0;
    int64_t *sd = PyArray_DATA(sizes), *gd = flagged ? PyArray_DATA(flagged) : NULL;
    rt_status s;
    rtpy_poll pl;
    const rt_poll *poll = rtpy_poll_init(&pl);
    Py_BEGIN_ALLOW_THREADS
    s = rt_label_census(ld, n, count, fd, nf, sd, gd, poll);
    Py_END_ALLOW_THREADS
    if (s != RT_OK) {
        rtpy_raise(s, "labels: values must be between 0 and count");
        goto fail;
    }
    Py_DECREF(lab);
    Py_XDECREF(flags);
    return Py_BuildValue("(NN)", (PyObject *)sizes,
                         flagged ? (PyObject *)flagged : Py_NewRef(Py_None));
fail:
    Py_XDECREF(lab);
    Py_XDECREF(flags);
    Py_XDECREF(sizes);
    Py_XDECREF(flagged);
    return NULL;
}

/* cave_mouths(terrain, x0, y0, nx, ny, steepness, *, threads): (x int64, y int64, slope f64) */
static PyObject *cave_mouths(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"terrain", "x0", "y0", "nx", "ny", "steepness", "threads", NULL};
    PyObject *tobj, *threads_obj = NULL;
    long long x0, y0, nx, ny;
    double steep;
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OLLLLd|$O", kwlist, &tobj, &x0, &y0, &nx, &ny,
                                     &steep, &threads_obj))
        return NULL;
    if (!rtpy_terrain_check(tobj)) {
        PyErr_SetString(PyExc_TypeError, "terrain: must be a relfterrain._core.TerrainCore");
        return NULL;
    }
    if (threads_obj && rtpy_threads(threads_obj, &threads) < 0) return NULL;
    if (nx < 1 || ny < 1) {
        PyErr_Format(PyExc_ValueError, "nx, ny: must be >= 1, got %lld, %lld", nx, ny);
        return NULL;
    }
    /* what the call allocates: a counter per row (the results, after
     * counting); the area's work is limited by the Python layer */
    if ((unsigned long long)ny > (unsigned long long)PY_SSIZE_T_MAX / 8 ||
        rtpy_check_alloc((unsigned long long)ny * 8, "nx, ny") < 0)
        return NULL;
    rt_terrain p;
    rtpy_placed_box *box = rtpy_terrain_snapshot((rtpy_terrain *)tobj, &p);
    int64_t count = 0;
    rt_status s;
    PyArrayObject *xs = NULL, *ys = NULL, *sl = NULL;
    rtpy_poll pl;
    const rt_poll *poll = rtpy_poll_init(&pl);
    Py_BEGIN_ALLOW_THREADS
    s = rt_cave_mouths(&p, x0, y0, nx, ny, steep, NULL, NULL, NULL, 0, &count, threads, poll);
    Py_END_ALLOW_THREADS
    if (s != RT_OK) goto fail_status;
    npy_intp dim = (npy_intp)count;
    xs = (PyArrayObject *)PyArray_EMPTY(1, &dim, NPY_INT64, 0);
    ys = xs ? (PyArrayObject *)PyArray_EMPTY(1, &dim, NPY_INT64, 0) : NULL;
    sl = ys ? (PyArrayObject *)PyArray_EMPTY(1, &dim, NPY_FLOAT64, 0) : NULL;
    if (!sl) goto fail;
    int64_t got = 0, *xd = PyArray_DATA(xs), *yd = PyArray_DATA(ys);
    double *sd = PyArray_DATA(sl);
    poll = rtpy_poll_init(&pl);
    Py_BEGIN_ALLOW_THREADS
    s = rt_cave_mouths(&p, x0, y0, nx, ny, steep, xd, yd, sd, count, &got, threads, poll);
    Py_END_ALLOW_THREADS
    if (s != RT_OK) goto fail_status;
    rtpy_box_release(box);
    return Py_BuildValue("(NNN)", (PyObject *)xs, (PyObject *)ys, (PyObject *)sl);
fail_status:
    rtpy_raise(s, s == RT_ERR_PARAM ? "steepness: must be finite"
                  : s == RT_ERR_COORD ? "x0, y0: the area must lie within +-2**50"
                                      : "nx, ny");
fail:
    rtpy_box_release(box);
    Py_XDECREF(xs);
    Py_XDECREF(ys);
    Py_XDECREF(sl);
    return NULL;
}

/* Caverns in row blocks (rtpy_rows): the block's rows r0 + row0 .. */
typedef struct cavern_rows_ctx {
    const rt_terrain *p;
    const rt_caverns *cv;
    const rt_block *b;
    int threads;
} cavern_rows_ctx;

static rt_status cavern_rows(void *ctx, int64_t row0, int64_t nrows, void *const *data)
{
    const cavern_rows_ctx *c = ctx;
    rt_block b = *c->b;
    b.r0 += row0;
    b.ny = nrows;
    return rt_caverns_grid(c->p, c->cv, &b, data[0], data[1], data[2], c->threads);
}

static const char *const CAVERN_NAMES[3] = {"out.floor", "out.roof", "out.space"};
static const int CAVERN_TYPES[3] = {NPY_FLOAT64, NPY_FLOAT64, NPY_FLOAT64};

/* caverns_grid(terrain, x0, y0, nx, ny, step, *, scale, dx, dy, dz, c0, r0, outputs, threads) */
static PyObject *caverns_grid(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"terrain", "x0", "y0", "nx", "ny", "step", "scale", "dx", "dy",
                             "dz", "c0", "r0", "outputs", "threads", NULL};
    PyObject *tobj, *outputs = NULL, *threads_obj = NULL;
    double x0, y0, step = 1.0;
    long long nx, ny, c0 = 0, r0 = 0;
    rt_caverns cv;
    rt_caverns_defaults(&cv);
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OddLL|d$ddddLLOO", kwlist, &tobj, &x0, &y0,
                                     &nx, &ny, &step, &cv.scale, &cv.dx, &cv.dy, &cv.dz, &c0,
                                     &r0, &outputs, &threads_obj))
        return NULL;
    if (!rtpy_terrain_check(tobj)) {
        PyErr_SetString(PyExc_TypeError, "terrain: must be a relfterrain._core.TerrainCore");
        return NULL;
    }
    if (threads_obj && rtpy_threads(threads_obj, &threads) < 0) return NULL;
    if (rtpy_check_block(nx, ny, c0, r0, sizeof(double)) < 0) return NULL;
    npy_intp dims[2] = {(npy_intp)ny, (npy_intp)nx};
    PyArrayObject *arrays[3];
    void *data[3];
    PyObject *all = NULL;
    if (!outputs) {
        outputs = all = Py_BuildValue("(OOO)", Py_True, Py_True, Py_True);
        if (!all) return NULL;
    }
    int bad = rtpy_outputs_sized(outputs, 3, CAVERN_NAMES, CAVERN_TYPES, 2, dims, arrays, data,
                                 "nx, ny");
    int given[3] = {0, 0, 0};
    if (!bad) rtpy_outputs_given(outputs, 3, given);
    Py_XDECREF(all);
    if (bad) return NULL;
    rt_block b = {x0, y0, step, c0, r0, nx, ny};
    rt_terrain p;
    rtpy_placed_box *box = rtpy_terrain_snapshot((rtpy_terrain *)tobj, &p);
    rt_status s;
    cavern_rows_ctx ctx = {&p, &cv, &b, threads};
    /* two height grids a point, row by row: smaller blocks than the terrain's */
    int rc = rtpy_rows_sized(cavern_rows, &ctx, nx, ny, 3, arrays, given, &s, (int64_t)1 << 21);
    rtpy_box_release(box);
    if (rc < 0) {
        for (int k = 0; k < 3; k++) Py_CLEAR(arrays[k]);
        if (s == RT_OK) return NULL; /* interrupted */
        return rtpy_raise(s, s == RT_ERR_PARAM ? "scale, dx, dy, dz: must be finite"
                             : s == RT_ERR_COORD ? "x0, y0, step, scale, dx, dy: a floor or roof coordinate is not finite"
                                                 : "nx, ny");
    }
    return rtpy_outputs_tuple(3, arrays);
}

static PyMethodDef mines_methods[] = {
    {"mines_above", (PyCFunction)(void (*)(void))mines_above, METH_VARARGS | METH_KEYWORDS,
     "mines_above(terrain, xg0, yg0, ncx, ncy, *, variant=0, threshold=0.4, cell_size=16, "
     "levels=1, out=None, threads=1)\n--\n\nOpen above (a mineshaft) per cell: bool (ncy, ncx)."},
    {"mines_open", (PyCFunction)(void (*)(void))mines_open, METH_VARARGS | METH_KEYWORDS,
     "mines_open(xg0, yg0, ncx, ncy, above=None, *, variant=0, threshold=0.4, cell_size=16, "
     "levels=1, out=None, threads=1)\n--\n\nOpen per cell and level: bool (levels, ncy, ncx)."},
    {"label_cells", (PyCFunction)(void (*)(void))label_cells, METH_VARARGS | METH_KEYWORDS,
     "label_cells(open, *, out=None, threads=1)\n--\n\nConnected components: (int32 labels, count)."},
    {"label_census", (PyCFunction)(void (*)(void))label_census, METH_VARARGS | METH_KEYWORDS,
     "label_census(labels, count, flags=None)\n--\n\n(sizes, flagged) per label 0..count."},
    {"cave_mouths", (PyCFunction)(void (*)(void))cave_mouths, METH_VARARGS | METH_KEYWORDS,
     "cave_mouths(terrain, x0, y0, nx, ny, steepness, *, threads=1)\n--\n\n"
     "MINE features steeper than steepness: (x, y, slope)."},
    {"caverns_grid", (PyCFunction)(void (*)(void))caverns_grid, METH_VARARGS | METH_KEYWORDS,
     "caverns_grid(terrain, x0, y0, nx, ny, step=1.0, *, scale=1, dx=64, dy=32, dz=0, c0=0, "
     "r0=0, outputs, threads=1)\n--\n\n(floor, roof, space) grids."},
    {NULL, NULL, 0, NULL},
};

int rtpy_mines_exec(PyObject *module)
{
    if (PyModule_AddFunctions(module, mines_methods) < 0) return -1;
    if (PyModule_AddIntConstant(module, "MAX_CELL_SIZE", RT_MAX_CELL_SIZE) < 0) return -1;
    if (PyModule_AddIntConstant(module, "MAX_MINE_LEVELS", RT_MAX_MINE_LEVELS) < 0) return -1;
    if (PyModule_AddIntConstant(module, "MAX_LABEL_CELLS", RT_MAX_LABEL_CELLS) < 0) return -1;
    return 0;
}
