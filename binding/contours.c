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

/* The flat indices of the non-zero bytes of a uint8 array (C order), as
 * numpy.flatnonzero: a pass that skips eight zero bytes at a time, for the
 * sparse masks of a map (its point features). */
static PyObject *flat_nonzero(PyObject *module, PyObject *arg)
{
    (void)module;
    PyArrayObject *a = rtpy_input(arg, "a", NPY_UINT8, 0, 0), *out = NULL;
    if (!a) return NULL;
    const uint8_t *d = PyArray_DATA(a);
    const npy_intp n = PyArray_SIZE(a);
    npy_intp count = 0, k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t w;
        memcpy(&w, d + k, 8);
        if (w)
            for (int i = 0; i < 8; i++) count += d[k + i] != 0;
    }
    for (; k < n; k++) count += d[k] != 0;
    npy_intp dims[1] = {count};
    out = rtpy_output(Py_None, "indices", NPY_INTP, 1, dims);
    if (!out) {
        Py_DECREF(a);
        return NULL;
    }
    npy_intp *o = PyArray_DATA(out), m = 0;
    for (k = 0; k + 8 <= n && m < count; k += 8) {
        uint64_t w;
        memcpy(&w, d + k, 8);
        if (w)
            for (int i = 0; i < 8; i++)
                if (d[k + i]) o[m++] = k + i;
    }
    for (; k < n && m < count; k++)
        if (d[k]) o[m++] = k;
    Py_DECREF(a);
    return (PyObject *)out;
}

/* The PNG scanlines of an RGB image of at most 256 colours, as a palette
 * image: (rows, colours, bits), rows (h, 1 + ceil(w * bits / 8)) uint8, each
 * a filter byte 0 and the pixels' palette indices (bits 4: two a byte, the
 * first in the high nibble, when there are at most 16 colours; else 8);
 * colours (n, 3) in order of first appearance.  None beyond 256 colours. */
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
    /* an exact hash of the 24-bit colours: 1024 slots, linear probing */
    uint32_t keys[1024], palette[256];
    int16_t slot_of[1024];
    memset(slot_of, -1, sizeof slot_of);
    int n = 0, over = 0;
    const uint8_t *d = PyArray_DATA(a);
    uint8_t *o = PyArray_DATA(idx);
    Py_BEGIN_ALLOW_THREADS
    /* index_of[h]: the palette index of the colour in slot h; a pixel whose
     * colour sits in its home slot (nearly all, after the first of each
     * colour) takes it without a branch that mispredicts at each change of
     * colour; the others probe and insert */
    uint8_t index_of[1024] = {0};
    const npy_intp total = h * w;
    for (npy_intp k = 0; k < total; k++) {
        uint32_t key;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (k + 1 < total) { /* four bytes read, the fourth dropped */
            memcpy(&key, d + 3 * k, 4);
            key &= 0xFFFFFFu;
        } else
#endif
        {
            key = (uint32_t)d[3 * k] | (uint32_t)d[3 * k + 1] << 8 | (uint32_t)d[3 * k + 2] << 16;
        }
        uint32_t hsh = (key * 2654435761u) >> 22;
        if (slot_of[hsh] >= 0 && keys[hsh] == key) {
            o[k] = index_of[hsh];
            continue;
        }
        while (slot_of[hsh] >= 0 && keys[hsh] != key) hsh = (hsh + 1) & 1023u;
        if (slot_of[hsh] < 0) {
            if (n == 256) {
                over = 1;
                break;
            }
            keys[hsh] = key;
            palette[n] = key;
            index_of[hsh] = (uint8_t)n;
            slot_of[hsh] = (int16_t)n++;
        }
        o[k] = index_of[hsh];
    }
    Py_END_ALLOW_THREADS
    if (over) {
        Py_DECREF(a);
        Py_DECREF(idx);
        Py_RETURN_NONE;
    }
    const int bits = n <= 16 ? 4 : 8;
    const npy_intp row_bytes = 1 + (bits == 4 ? (w + 1) / 2 : w);
    npy_intp rdims[2] = {h, row_bytes}, cdims[2] = {n, 3};
    rows = rtpy_output(Py_None, "rows", NPY_UINT8, 2, rdims);
    colours = rtpy_output(Py_None, "colours", NPY_UINT8, 2, cdims);
    if (!rows || !colours) goto fail;
    uint8_t *c = PyArray_DATA(colours), *r = PyArray_DATA(rows);
    for (int i = 0; i < n; i++) {
        c[3 * i] = (uint8_t)palette[i], c[3 * i + 1] = (uint8_t)(palette[i] >> 8);
        c[3 * i + 2] = (uint8_t)(palette[i] >> 16);
    }
    Py_BEGIN_ALLOW_THREADS
    for (npy_intp y = 0; y < h; y++) {
        uint8_t *row = r + y * row_bytes;
        const uint8_t *src = o + y * w;
        row[0] = 0; /* filter: none */
        if (bits == 8) {
            memcpy(row + 1, src, (size_t)w);
        } else {
            for (npy_intp x = 0; x < w / 2; x++)
                row[1 + x] = (uint8_t)(src[2 * x] << 4 | src[2 * x + 1]);
            if (w % 2) row[row_bytes - 1] = (uint8_t)(src[w - 1] << 4);
        }
    }
    Py_END_ALLOW_THREADS
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
