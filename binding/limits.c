/*
 * limits.c - the memory limit the binding applies, for the Python
 * layer: physical_memory() and check_alloc(nbytes, what), the same check
 * rtpy_outputs and rtpy_check_block make before allocating, so a Python
 * function that allocates (e.g. random numbers drawn before a core call)
 * refuses a call with the same rule and message.
 */
#include "helpers.h"

static PyObject *limits_physical_memory(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyLong_FromUnsignedLongLong(rtpy_physical_memory());
}

static PyObject *limits_check_alloc(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *nbytes_obj;
    const char *what, *detail = NULL;
    if (!PyArg_ParseTuple(args, "Os|z:check_alloc", &nbytes_obj, &what, &detail)) return NULL;
    if (!PyLong_Check(nbytes_obj)) {
        PyErr_SetString(PyExc_TypeError, "check_alloc: nbytes must be an int");
        return NULL;
    }
    int overflow = 0;
    long long n = PyLong_AsLongLongAndOverflow(nbytes_obj, &overflow);
    if (n == -1 && PyErr_Occurred()) return NULL;
    unsigned long long bytes = overflow > 0 ? ULLONG_MAX : n < 0 ? 0 : (unsigned long long)n;
    if (rtpy_check_alloc_for(bytes, what, detail) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef limits_methods[] = {
    {"physical_memory", limits_physical_memory, METH_NOARGS,
     "physical_memory()\n--\n\nThis machine's physical memory in bytes (sysconf), 0 if "
     "unknown."},
    {"check_alloc", limits_check_alloc, METH_VARARGS,
     "check_alloc(nbytes, what, detail=None)\n--\n\nRaise MemoryError naming `what` when a "
     "call that would allocate nbytes in all exceeds the physical memory."},
    {NULL, NULL, 0, NULL},
};

int rtpy_limits_exec(PyObject *module)
{
    return PyModule_AddFunctions(module, limits_methods);
}
