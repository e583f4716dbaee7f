/*
 * contours.c - binding of the contour pixels (csrc/contours.c) for
 * relfterrain/maps.py.
 */
#include <string.h>

#include "helpers.h"

/* The mask of z's contours into mask (ny, nx), without the GIL; 0, or -1 with
 * the exception of contour_mask set. */
static int mask_of(PyArrayObject *z, double interval, int index_every, long long max_crossings,
                   int threads, int simd, uint8_t *md)
{
    rt_status s = RT_OK;
    int64_t crossings = 0;
    const npy_intp ny = PyArray_DIM(z, 0), nx = PyArray_DIM(z, 1);
    if (ny > 0 && nx > 0) {
        const double *zd = PyArray_DATA(z);
        rtpy_poll pl;
        const rt_poll *poll = rtpy_poll_init(&pl);
        Py_BEGIN_ALLOW_THREADS
        s = rt_contour_mask_variant(zd, nx, ny, interval, index_every, max_crossings, md,
                                    &crossings, threads, simd, poll);
        Py_END_ALLOW_THREADS
    }
    if (s == RT_OK) return 0;
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
    return -1;
}

static PyObject *contours_mask(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"z", "interval", "index_every", "max_crossings", "threads", "simd",
                             NULL};
    PyObject *z_obj, *threads_obj = NULL;
    double interval;
    int index_every, threads = 1, simd = RT_SIMD_AUTO;
    long long max_crossings;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OdiL|O$i", kwlist, &z_obj, &interval,
                                     &index_every, &max_crossings, &threads_obj, &simd))
        return NULL;
    if (threads_obj && rtpy_threads(threads_obj, &threads) < 0) return NULL;
    PyArrayObject *z = rtpy_input(z_obj, "z", NPY_FLOAT64, 2, 2), *mask = NULL;
    if (!z) return NULL;
    npy_intp dims[2] = {PyArray_DIM(z, 0), PyArray_DIM(z, 1)};
    mask = rtpy_output(Py_None, "mask", NPY_UINT8, 2, dims);
    if (!mask) goto fail;
    if (mask_of(z, interval, index_every, max_crossings, threads, simd, PyArray_DATA(mask)) < 0)
        goto fail;
    Py_DECREF(z);
    return (PyObject *)mask;
fail:
    Py_XDECREF(z);
    Py_XDECREF(mask);
    return NULL;
}

/* An RGB colour from a 3-sequence of ints 0..255 (maps.py checked it). */
static int rgb_of(PyObject *obj, uint8_t rgb[3])
{
    int r, g, b;
    if (!PyArg_ParseTuple(obj, "iii", &r, &g, &b)) return -1;
    if (r < 0 || r > 255 || g < 0 || g > 255 || b < 0 || b > 255) {
        PyErr_SetString(PyExc_ValueError, "colour: must be three ints 0..255");
        return -1;
    }
    rgb[0] = (uint8_t)r, rgb[1] = (uint8_t)g, rgb[2] = (uint8_t)b;
    return 0;
}

/* The image (ny, nx, 3) uint8 given: C-contiguous, writeable, the shape of z. */
static PyArrayObject *image_of(PyObject *obj, npy_intp ny, npy_intp nx)
{
    npy_intp dims[3] = {ny, nx, 3};
    return rtpy_output(obj, "img", NPY_UINT8, 3, dims);
}

static PyObject *contours_paint(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"z", "interval", "index_every", "max_crossings", "img", "colour",
                             "width", "index_width", "threads", "simd", NULL};
    PyObject *z_obj, *img_obj, *colour, *threads_obj = NULL;
    double interval;
    int index_every, width, index_width, threads = 1, simd = RT_SIMD_AUTO;
    long long max_crossings;
    uint8_t rgb[3];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OdiLOO!ii|O$i", kwlist, &z_obj, &interval,
                                     &index_every, &max_crossings, &img_obj, &PyTuple_Type,
                                     &colour, &width, &index_width, &threads_obj, &simd))
        return NULL;
    if (threads_obj && rtpy_threads(threads_obj, &threads) < 0) return NULL;
    if (rgb_of(colour, rgb) < 0) return NULL;
    PyArrayObject *z = rtpy_input(z_obj, "z", NPY_FLOAT64, 2, 2), *img = NULL;
    uint8_t *md = NULL;
    if (!z) return NULL;
    const npy_intp ny = PyArray_DIM(z, 0), nx = PyArray_DIM(z, 1);
    img = image_of(img_obj, ny, nx);
    if (!img) goto fail;
    md = PyMem_RawMalloc(ny * nx > 0 ? (size_t)(ny * nx) : 1);
    if (!md) {
        PyErr_NoMemory();
        goto fail;
    }
    if (mask_of(z, interval, index_every, max_crossings, threads, simd, md) < 0) goto fail;
    uint8_t *id = PyArray_DATA(img);
    Py_BEGIN_ALLOW_THREADS
    rt_paint_lines(md, nx, ny, id, rgb, width, index_width);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(md);
    Py_DECREF(z);
    Py_DECREF(img);
    Py_RETURN_NONE;
fail:
    PyMem_RawFree(md);
    Py_XDECREF(z);
    Py_XDECREF(img);
    return NULL;
}

static PyObject *map_colours(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *codes_obj, *table_obj;
    if (!PyArg_ParseTuple(args, "OO", &codes_obj, &table_obj)) return NULL;
    PyArrayObject *codes = rtpy_input(codes_obj, "codes", NPY_UINT8, 2, 2);
    if (!codes) return NULL;
    PyArrayObject *table = rtpy_input(table_obj, "table", NPY_UINT8, 2, 2), *img = NULL,
                  *counts = NULL;
    if (!table) goto fail;
    if (PyArray_DIM(table, 1) != 3 || PyArray_DIM(table, 0) > 256) {
        PyErr_SetString(PyExc_ValueError, "table: must be (n <= 256, 3) uint8");
        goto fail;
    }
    const npy_intp ny = PyArray_DIM(codes, 0), nx = PyArray_DIM(codes, 1);
    npy_intp cdims[1] = {256};
    img = image_of(Py_None, ny, nx);
    counts = rtpy_output(Py_None, "counts", NPY_INT64, 1, cdims);
    if (!img || !counts) goto fail;
    const uint8_t *cd = PyArray_DATA(codes), *td = PyArray_DATA(table);
    uint8_t *id = PyArray_DATA(img);
    int64_t *kd = PyArray_DATA(counts);
    const int ntable = (int)PyArray_DIM(table, 0);
    Py_BEGIN_ALLOW_THREADS
    (void)rt_map_colours(cd, nx, ny, td, ntable, id, kd); /* the caller reads the counts */
    Py_END_ALLOW_THREADS
    Py_DECREF(codes);
    Py_DECREF(table);
    return Py_BuildValue("(NN)", img, counts);
fail:
    Py_XDECREF(codes);
    Py_XDECREF(table);
    Py_XDECREF(img);
    Py_XDECREF(counts);
    return NULL;
}

/* numpy.flatnonzero of a uint8 array (C order): rt_flat_nonzero_u8 */
static PyObject *flat_nonzero(PyObject *module, PyObject *arg)
{
    (void)module;
    PyArrayObject *a = rtpy_input(arg, "a", NPY_UINT8, 0, 0), *out = NULL;
    if (!a) return NULL;
    const uint8_t *d = PyArray_DATA(a);
    const int64_t n = (int64_t)PyArray_SIZE(a);
    int64_t count;
    Py_BEGIN_ALLOW_THREADS
    count = rt_count_nonzero_u8(d, n);
    Py_END_ALLOW_THREADS
    npy_intp dims[1] = {(npy_intp)count};
    out = rtpy_output(Py_None, "indices", NPY_INT64, 1, dims);
    if (out) {
        int64_t *o = PyArray_DATA(out);
        Py_BEGIN_ALLOW_THREADS
        (void)rt_flat_nonzero_u8(d, n, o, count);
        Py_END_ALLOW_THREADS
    }
    Py_DECREF(a);
    return (PyObject *)out;
}

/* The PNG scanlines of an RGB image of at most 256 colours, as a palette
 * image (rt_palette_index, rt_palette_rows): (rows, colours, bits), rows
 * (h, 1 + ceil(w * bits / 8)) uint8, bits 4 when there are at most 16
 * colours, else 8; colours (n, 3) in order of first appearance.  None
 * beyond 256 colours. */
static PyObject *png_palette_rows(PyObject *module, PyObject *arg)
{
    (void)module;
    PyArrayObject *a = rtpy_input(arg, "array", NPY_UINT8, 3, 3), *idx = NULL, *rows = NULL,
                  *colours = NULL;
    if (!a) return NULL;
    if (PyArray_DIM(a, 2) != 3) {
        Py_DECREF(a);
        PyErr_SetString(PyExc_ValueError, "array: must be (height, width, 3) uint8");
        return NULL;
    }
    const npy_intp h = PyArray_DIM(a, 0), w = PyArray_DIM(a, 1);
    npy_intp idims[2] = {h, w};
    idx = rtpy_output(Py_None, "indices", NPY_UINT8, 2, idims);
    if (!idx) goto fail;
    uint8_t palette[256 * 3];
    int n = 0;
    rt_status st;
    const uint8_t *d = PyArray_DATA(a);
    uint8_t *o = PyArray_DATA(idx);
    Py_BEGIN_ALLOW_THREADS
    st = rt_palette_index(d, (int64_t)h * (int64_t)w, o, palette, &n);
    Py_END_ALLOW_THREADS
    if (st == RT_ERR_PARAM) { /* more than 256 colours */
        Py_DECREF(a);
        Py_DECREF(idx);
        Py_RETURN_NONE;
    }
    if (st != RT_OK) {
        (void)rtpy_raise(st, "png_palette_rows");
        goto fail;
    }
    const int bits = n <= 16 ? 4 : 8;
    npy_intp rdims[2] = {h, (npy_intp)rt_palette_row_bytes((int64_t)w, bits)}, cdims[2] = {n, 3};
    rows = rtpy_output(Py_None, "rows", NPY_UINT8, 2, rdims);
    colours = rtpy_output(Py_None, "colours", NPY_UINT8, 2, cdims);
    if (!rows || !colours) goto fail;
    memcpy(PyArray_DATA(colours), palette, (size_t)n * 3);
    uint8_t *r = PyArray_DATA(rows);
    Py_BEGIN_ALLOW_THREADS
    st = rt_palette_rows(o, (int64_t)w, (int64_t)h, bits, r); /* its checks passed above */
    Py_END_ALLOW_THREADS
    if (st != RT_OK) {
        (void)rtpy_raise(st, "png_palette_rows");
        goto fail;
    }
    Py_DECREF(a);
    Py_DECREF(idx);
    return Py_BuildValue("(NNi)", rows, colours, bits);
fail:
    Py_XDECREF(a);
    Py_XDECREF(idx);
    Py_XDECREF(rows);
    Py_XDECREF(colours);
    return NULL;
}

static PyMethodDef contours_methods[] = {
    {"contour_mask", (PyCFunction)(void (*)(void))contours_mask, METH_VARARGS | METH_KEYWORDS,
     "contour_mask(z, interval, index_every, max_crossings, threads=1, *, simd=0) -> uint8 "
     "(ny, nx)\n--\n\nsimd: the kernel's rt_simd variant (0 auto; the same pixels in all)."},
    {"contour_paint", (PyCFunction)(void (*)(void))contours_paint, METH_VARARGS | METH_KEYWORDS,
     "contour_paint(z, interval, index_every, max_crossings, img, colour, width, index_width, "
     "threads=1, *, simd=0)\n--\n\ncontour_mask's lines painted into img (ny, nx, 3) uint8, north up, "
     "grown width (index_width) pixels to the south-east (maps._thicken)."},
    {"png_palette_rows", png_palette_rows, METH_O,
     "png_palette_rows(array)\n--\n\n(rows, colours, bits) of an RGB image's palette PNG "
     "(filter 0; 4 bits a pixel up to 16 colours), or None beyond 256 colours."},
    {"flat_nonzero", flat_nonzero, METH_O,
     "flat_nonzero(a)\n--\n\nnumpy.flatnonzero of a uint8 array, skipping zero words."},
    {"map_colours", map_colours, METH_VARARGS,
     "map_colours(codes, table) -> (img, counts)\n--\n\nimg (ny, nx, 3) = table[codes] north "
     "up; counts[256] of each code (codes beyond the table: black pixels, counted)."},
    {NULL, NULL, 0, NULL},
};

int rtpy_contours_exec(PyObject *module)
{
    return PyModule_AddFunctions(module, contours_methods);
}
