/*
 * streams.c - binding of the streams (SPEC 7, csrc/streams.c):
 * module-level functions on a TerrainCore.  The Python API is
 * relfterrain/streams.py.
 *
 * Areas are computed from a copy-on-write snapshot of the placed table with
 * the GIL released; marking marks a private copy of the terrain's table
 * (GIL released, Ctrl-C honoured) that replaces the table only when it is
 * complete and nothing changed the table meanwhile, so concurrent place()
 * calls see it as one step and an interrupted call changes nothing.
 */
#include "helpers.h"

/* Scratch per batch of routes: at most this many bytes of route points. */
#define ROUTE_BATCH_BYTES ((int64_t)64 << 20)

static int parse_opts(const char *neighbourhood, PyObject *max_length, long long max_points,
                      rt_stream_opts *o)
{
    rt_stream_opts_defaults(o);
    static const char *const names[RT_NEIGHBOURHOOD_COUNT] = {"cross", "square", "circle"};
    o->neighbourhood = -1;
    for (int k = 0; k < RT_NEIGHBOURHOOD_COUNT; k++)
        if (strcmp(neighbourhood, names[k]) == 0) o->neighbourhood = k;
    if (o->neighbourhood < 0) {
        PyErr_Format(PyExc_ValueError,
                     "neighbourhood: must be 'cross', 'square' or 'circle', got %R",
                     PyUnicode_FromString(neighbourhood));
        return -1;
    }
    o->capped = max_length != Py_None;
    if (o->capped) {
        o->max_length = PyFloat_AsDouble(max_length);
        if (o->max_length == -1.0 && PyErr_Occurred()) return -1;
        if (!isfinite(o->max_length) || o->max_length < 0) {
            PyErr_Format(PyExc_ValueError,
                         "max_length: must be a finite number >= 0 or None, got %R", max_length);
            return -1;
        }
    }
    if (max_points < 1 || max_points > ((long long)1 << 40)) {
        PyErr_Format(PyExc_ValueError, "max_points: must be between 1 and 2**40, got %lld",
                     max_points);
        return -1;
    }
    o->max_points = max_points;
    return 0;
}

static rtpy_terrain *terrain_arg(PyObject *obj)
{
    if (!rtpy_terrain_check(obj)) {
        PyErr_Format(PyExc_TypeError, "terrain: must be a TerrainCore, got %.100s",
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    return (rtpy_terrain *)obj;
}

static PyObject *streams_trace(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"terrain", "x", "y", "neighbourhood", "max_length", "max_points",
                             NULL};
    PyObject *core, *max_length = Py_None;
    long long x, y, max_points = 100000;
    const char *nb = "cross";
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OLL|$sOL", kwlist, &core, &x, &y, &nb,
                                     &max_length, &max_points))
        return NULL;
    rtpy_terrain *self = terrain_arg(core);
    rt_stream_opts o;
    if (!self || parse_opts(nb, max_length, max_points, &o) < 0) return NULL;
    npy_intp cap = (npy_intp)rt_stream_max_route(&o);
    if (cap > (npy_intp)1 << 24) cap = (npy_intp)1 << 24; /* retried below if too small */
    PyArrayObject *xy = NULL;
    int64_t n = 0;
    double length = 0.0;
    int end = 0, marsh = 0;
    rt_status s = RT_OK;
    for (;;) {
        npy_intp dims[2] = {cap, 2};
        xy = (PyArrayObject *)PyArray_EMPTY(2, dims, NPY_INT64, 0);
        if (!xy) return NULL;
        rt_terrain p;
        rtpy_placed_box *box = rtpy_terrain_snapshot(self, &p);
        int64_t *data = PyArray_DATA(xy);
        rtpy_poll pl;
        const rt_poll *poll = rtpy_poll_init(&pl);
        Py_BEGIN_ALLOW_THREADS
        s = rt_trace_stream(&p, x, y, &o, data, cap, &n, &length, &end, &marsh, poll);
        Py_END_ALLOW_THREADS
        rtpy_box_release(box);
        if (s != RT_OK || n <= cap) break;
        Py_DECREF(xy);
        cap = (npy_intp)n;
    }
    if (s != RT_OK) {
        Py_DECREF(xy);
        return rtpy_raise(s, s == RT_ERR_COORD ? "x, y" : "neighbourhood, max_length");
    }
    /* the route's own length */
    PyArrayObject *route = (PyArrayObject *)PyArray_Resize(
        xy, &(PyArray_Dims){(npy_intp[]){(npy_intp)n, 2}, 2}, 0, NPY_CORDER);
    if (!route) {
        Py_DECREF(xy);
        return NULL;
    }
    Py_DECREF(route); /* PyArray_Resize returns None on success, resizing in place */
    return Py_BuildValue("(Ndii)", xy, length, end, marsh);
}

/* The ponds of an area (a new (k, 2) int64 array), from a snapshot. */
static PyArrayObject *ponds_of(const rt_terrain *p, long long x0, long long y0, long long nx,
                               long long ny, int threads)
{
    int64_t cap = nx * ny / 4096 + 1024, count = 0;
    for (;;) {
        npy_intp dims[2] = {(npy_intp)cap, 2};
        PyArrayObject *a = (PyArrayObject *)PyArray_EMPTY(2, dims, NPY_INT64, 0);
        if (!a) return NULL;
        int64_t *data = PyArray_DATA(a);
        rt_status s;
        rtpy_poll pl;
        const rt_poll *poll = rtpy_poll_init(&pl);
        Py_BEGIN_ALLOW_THREADS
        s = rt_stream_ponds(p, x0, y0, nx, ny, data, cap, &count, threads, poll);
        Py_END_ALLOW_THREADS
        if (s != RT_OK) {
            Py_DECREF(a);
            rtpy_raise(s, s == RT_ERR_COORD ? "x0, y0, nx, ny, margin" : "nx, ny");
            return NULL;
        }
        if (count <= cap) {
            PyArray_Dims shape = {(npy_intp[]){(npy_intp)count, 2}, 2};
            PyObject *r = PyArray_Resize(a, &shape, 0, NPY_CORDER);
            if (!r) {
                Py_DECREF(a);
                return NULL;
            }
            Py_DECREF(r);
            return a;
        }
        Py_DECREF(a);
        cap = count;
    }
}

/* Every stream of the ponds `src` (k, 2): the routes with more than
 * RT_STREAM_MIN_POINTS points, packed.  Returns a tuple
 * (sources (m, 2), offsets (m+1,), points (N, 2), lengths (m,), ends (m,),
 * marsh (m,)). */
static PyObject *streams_of(const rt_terrain *p, PyArrayObject *src, const rt_stream_opts *o,
                            int threads)
{
    int64_t k = PyArray_DIM(src, 0), slot = rt_stream_max_route(o);
    int64_t batch = ROUTE_BATCH_BYTES / (slot * 16);
    if (batch < 1) batch = 1;
    if (batch > k) batch = k > 0 ? k : 1;
    const int64_t *sd = PyArray_DATA(src);
    int64_t *xy = PyMem_RawMalloc((size_t)(batch * slot) * 2 * sizeof *xy);
    int64_t *npts = PyMem_RawMalloc((size_t)batch * sizeof *npts);
    double *len = PyMem_RawMalloc((size_t)batch * sizeof *len);
    uint8_t *end = PyMem_RawMalloc((size_t)batch), *marsh = PyMem_RawMalloc((size_t)batch);
    PyObject *result = NULL;
    /* the kept routes, grown as found */
    int64_t kept = 0, points = 0, kept_cap = 64, points_cap = 4096;
    int64_t *ksrc = PyMem_RawMalloc((size_t)kept_cap * 2 * sizeof *ksrc);
    int64_t *koff = PyMem_RawMalloc((size_t)(kept_cap + 1) * sizeof *koff);
    int64_t *kxy = PyMem_RawMalloc((size_t)points_cap * 2 * sizeof *kxy);
    double *klen = PyMem_RawMalloc((size_t)kept_cap * sizeof *klen);
    uint8_t *kend = PyMem_RawMalloc((size_t)kept_cap), *kmarsh = PyMem_RawMalloc((size_t)kept_cap);
    if (!xy || !npts || !len || !end || !marsh || !ksrc || !koff || !kxy || !klen || !kend ||
        !kmarsh) {
        PyErr_NoMemory();
        goto done;
    }
    koff[0] = 0;
    for (int64_t b0 = 0; b0 < k; b0 += batch) {
        int64_t nb = k - b0 < batch ? k - b0 : batch;
        rt_status s;
        rtpy_poll pl;
        const rt_poll *poll = rtpy_poll_init(&pl);
        Py_BEGIN_ALLOW_THREADS
        s = rt_trace_streams(p, sd + 2 * b0, nb, o, xy, slot, npts, len, end, marsh, threads,
                             poll);
        Py_END_ALLOW_THREADS
        if (s != RT_OK) {
            rtpy_raise(s, "x0, y0, nx, ny, margin");
            goto done;
        }
        for (int64_t j = 0; j < nb; j++) {
            if (npts[j] <= RT_STREAM_MIN_POINTS) continue;
            if (kept == kept_cap) {
                kept_cap *= 2;
                void *a = PyMem_RawRealloc(ksrc, (size_t)kept_cap * 2 * sizeof *ksrc);
                if (a) ksrc = a;
                void *b = PyMem_RawRealloc(koff, (size_t)(kept_cap + 1) * sizeof *koff);
                if (b) koff = b;
                void *c = PyMem_RawRealloc(klen, (size_t)kept_cap * sizeof *klen);
                if (c) klen = c;
                void *d = PyMem_RawRealloc(kend, (size_t)kept_cap);
                if (d) kend = d;
                void *e = PyMem_RawRealloc(kmarsh, (size_t)kept_cap);
                if (e) kmarsh = e;
                if (!a || !b || !c || !d || !e) {
                    PyErr_NoMemory();
                    goto done;
                }
            }
            while (points + npts[j] > points_cap) {
                points_cap *= 2;
                void *a = PyMem_RawRealloc(kxy, (size_t)points_cap * 2 * sizeof *kxy);
                if (!a) {
                    PyErr_NoMemory();
                    goto done;
                }
                kxy = a;
            }
            memcpy(kxy + 2 * points, xy + 2 * j * slot, (size_t)npts[j] * 2 * sizeof *kxy);
            ksrc[2 * kept] = sd[2 * (b0 + j)];
            ksrc[2 * kept + 1] = sd[2 * (b0 + j) + 1];
            klen[kept] = len[j];
            kend[kept] = end[j];
            kmarsh[kept] = marsh[j];
            points += npts[j];
            kept++;
            koff[kept] = points;
        }
    }
    {
        npy_intp d_src[2] = {(npy_intp)kept, 2}, d_off = (npy_intp)kept + 1,
                 d_xy[2] = {(npy_intp)points, 2}, d_k = (npy_intp)kept;
        PyArrayObject *a[6] = {
            (PyArrayObject *)PyArray_EMPTY(2, d_src, NPY_INT64, 0),
            (PyArrayObject *)PyArray_EMPTY(1, &d_off, NPY_INT64, 0),
            (PyArrayObject *)PyArray_EMPTY(2, d_xy, NPY_INT64, 0),
            (PyArrayObject *)PyArray_EMPTY(1, &d_k, NPY_FLOAT64, 0),
            (PyArrayObject *)PyArray_EMPTY(1, &d_k, NPY_UINT8, 0),
            (PyArrayObject *)PyArray_EMPTY(1, &d_k, NPY_BOOL, 0),
        };
        if (a[0] && a[1] && a[2] && a[3] && a[4] && a[5]) {
            memcpy(PyArray_DATA(a[0]), ksrc, (size_t)kept * 2 * sizeof *ksrc);
            memcpy(PyArray_DATA(a[1]), koff, (size_t)(kept + 1) * sizeof *koff);
            memcpy(PyArray_DATA(a[2]), kxy, (size_t)points * 2 * sizeof *kxy);
            memcpy(PyArray_DATA(a[3]), klen, (size_t)kept * sizeof *klen);
            memcpy(PyArray_DATA(a[4]), kend, (size_t)kept);
            memcpy(PyArray_DATA(a[5]), kmarsh, (size_t)kept);
            result = rtpy_outputs_tuple(6, a);
        } else {
            for (int j = 0; j < 6; j++) Py_XDECREF(a[j]);
        }
    }
done:
    PyMem_RawFree(xy), PyMem_RawFree(npts), PyMem_RawFree(len), PyMem_RawFree(end);
    PyMem_RawFree(marsh), PyMem_RawFree(ksrc), PyMem_RawFree(koff), PyMem_RawFree(kxy);
    PyMem_RawFree(klen), PyMem_RawFree(kend), PyMem_RawFree(kmarsh);
    return result;
}

/* Parse (terrain, x0, y0, nx, ny, *, margin, neighbourhood, max_length,
 * max_points, threads[, limit]) and return the streams of the area. */
static PyObject *area_streams(PyObject *args, PyObject *kwds, rtpy_terrain **self_out,
                              long long *limit)
{
    static char *kwlist[] = {"terrain", "x0", "y0", "nx", "ny", "margin", "neighbourhood",
                             "max_length", "max_points", "threads", "limit", NULL};
    PyObject *core, *max_length = Py_None, *threads_obj = NULL;
    long long x0, y0, nx, ny, margin = 300, max_points = 100000, lim = 300000;
    const char *nb = "cross";
    int threads = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OLLLL|$LsOLOL", kwlist, &core, &x0, &y0, &nx,
                                     &ny, &margin, &nb, &max_length, &max_points, &threads_obj,
                                     &lim))
        return NULL;
    rtpy_terrain *self = terrain_arg(core);
    rt_stream_opts o;
    if (!self || parse_opts(nb, max_length, max_points, &o) < 0) return NULL;
    if (threads_obj && rtpy_threads(threads_obj, &threads) < 0) return NULL;
    const long long big = RT_STREAM_COORD_LIMIT;
    if (nx < 1 || ny < 1 || margin < 0 || margin > big || nx > big || ny > big) {
        PyErr_Format(PyExc_ValueError,
                     "nx, ny, margin: need nx, ny >= 1 and 0 <= margin, all at most 2**50, "
                     "got %lld, %lld, %lld", nx, ny, margin);
        return NULL;
    }
    if (lim < 0) {
        PyErr_Format(PyExc_ValueError, "limit: must be >= 0, got %lld", lim);
        return NULL;
    }
    if (x0 < -big || x0 > big || y0 < -big || y0 > big) {
        PyErr_Format(PyExc_ValueError, "x0, y0: must be within +-2**50, got %lld, %lld", x0, y0);
        return NULL;
    }
    if (self_out) *self_out = self;
    if (limit) *limit = lim;
    rt_terrain p;
    rtpy_placed_box *box = rtpy_terrain_snapshot(self, &p);
    PyObject *result = NULL;
    PyArrayObject *src = ponds_of(&p, x0 - margin, y0 - margin, nx + 2 * margin, ny + 2 * margin,
                                  threads);
    if (src) result = streams_of(&p, src, &o, threads);
    Py_XDECREF(src);
    rtpy_box_release(box);
    return result;
}

static PyObject *streams_area(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    return area_streams(args, kwds, NULL, NULL);
}

static PyObject *streams_mark(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    rtpy_terrain *self = NULL;
    long long limit = 300000;
    PyObject *found = area_streams(args, kwds, &self, &limit);
    if (!found) return NULL;
    PyArrayObject *off = (PyArrayObject *)PyTuple_GET_ITEM(found, 1);
    PyArrayObject *xy = (PyArrayObject *)PyTuple_GET_ITEM(found, 2);
    PyArrayObject *ends = (PyArrayObject *)PyTuple_GET_ITEM(found, 4);
    int64_t n = PyArray_DIM(ends, 0), added = 0, restarts = 0;
    const int64_t *xyd = PyArray_DATA(xy), *offd = PyArray_DATA(off);
    const uint8_t *endd = PyArray_DATA(ends);
    PyObject *result = NULL;
    rt_status s = RT_OK;
    /* All or nothing, one step as seen from Python: a private copy of the
     * table is marked with the GIL released (Ctrl-C honoured) and becomes
     * the terrain's table if nobody changed that meanwhile (a change goes to
     * a new box, copy-on-write, since we hold this one); else the marking is
     * done again on the new table.  After a few such races the last try
     * marks the table itself with the GIL held, unpolled. */
    for (int attempt = 0;; attempt++) {
        if (attempt == 3) {
            rt_placed *table = rtpy_box_writable(&self->placed);
            if (!table) break;
            s = rt_mark_routes(&self->params, table, xyd, offd, endd, n, limit, &added,
                               &restarts, NULL);
            break;
        }
        rtpy_placed_box *box = rtpy_box_acquire(self->placed);
        rt_terrain params = self->params;
        rt_placed *copy = rt_placed_clone(box->table);
        if (!copy) {
            rtpy_box_release(box);
            PyErr_NoMemory();
            break;
        }
        rtpy_poll pl;
        const rt_poll *poll = rtpy_poll_init(&pl);
        Py_BEGIN_ALLOW_THREADS
        s = rt_mark_routes(&params, copy, xyd, offd, endd, n, limit, &added, &restarts, poll);
        Py_END_ALLOW_THREADS
        if (s != RT_OK) {
            rt_placed_free(copy);
            rtpy_box_release(box);
            break;
        }
        int installed = rtpy_box_install(&self->placed, box, copy);
        if (installed > 0) break;
        rt_placed_free(copy);
        if (installed < 0) break;
    }
    if (!PyErr_Occurred() && s == RT_OK)
        result = Py_BuildValue("(OLL)", found, (long long)added, (long long)restarts);
    else if (s != RT_OK)
        rtpy_raise(s, "x0, y0, nx, ny");
    Py_DECREF(found);
    return result;
}

static PyObject *streams_mark_route(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"terrain", "route", "end", NULL};
    PyObject *core, *route_obj;
    int end;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOi", kwlist, &core, &route_obj, &end))
        return NULL;
    rtpy_terrain *self = terrain_arg(core);
    if (!self) return NULL;
    PyArrayObject *route = rtpy_input(route_obj, "route", NPY_INT64, 2, 2);
    if (!route) return NULL;
    PyObject *result = NULL;
    if (PyArray_DIM(route, 1) != 2) {
        PyErr_SetString(PyExc_ValueError, "route: must have shape (n, 2)");
        goto done;
    }
    /* one route (at most max_points): marked with the GIL held, unpolled */
    rt_placed *table = rtpy_box_writable(&self->placed);
    if (!table) goto done;
    int64_t added = 0;
    rt_status s = rt_mark_route(&self->params, table, PyArray_DATA(route), PyArray_DIM(route, 0),
                                end, &added);
    if (s != RT_OK)
        rtpy_raise(s, "route");
    else
        result = PyLong_FromLongLong(added);
done:
    Py_DECREF(route);
    return result;
}

static PyMethodDef streams_methods[] = {
    {"trace_stream", (PyCFunction)(void (*)(void))streams_trace, METH_VARARGS | METH_KEYWORDS,
     "trace_stream(terrain, x, y, *, neighbourhood='cross', max_length=None, max_points=100000)"
     "\n-> (route (n, 2) int64, length, end, marsh)"},
    {"area_streams", (PyCFunction)(void (*)(void))streams_area, METH_VARARGS | METH_KEYWORDS,
     "area_streams(terrain, x0, y0, nx, ny, *, margin=300, neighbourhood='cross', "
     "max_length=None, max_points=100000, threads=1)\n"
     "-> (sources, offsets, points, lengths, ends, marsh)"},
    {"mark_streams", (PyCFunction)(void (*)(void))streams_mark, METH_VARARGS | METH_KEYWORDS,
     "mark_streams(terrain, x0, y0, nx, ny, *, ..., limit=300000) -> (streams, added, restarts)"},
    {"mark_route", (PyCFunction)(void (*)(void))streams_mark_route,
     METH_VARARGS | METH_KEYWORDS, "mark_route(terrain, route, end) -> entries added"},
    {NULL, NULL, 0, NULL},
};

int rtpy_streams_exec(PyObject *module)
{
    if (PyModule_AddFunctions(module, streams_methods) < 0) return -1;
    if (PyModule_AddIntConstant(module, "STREAM_MIN_POINTS", RT_STREAM_MIN_POINTS) < 0) return -1;
    return 0;
}
