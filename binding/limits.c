/*
 * limits.c - the memory limit the binding applies, for the Python
 * layer: physical_memory() and check_alloc(nbytes, what), the same check
 * rtpy_outputs and rtpy_check_block make before allocating, so a Python
 * function that allocates (e.g. random numbers drawn before a core call)
 * refuses a call with the same rule and message; check_profile(profile),
 * the rule every constructor that takes a profile applies.
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

static PyObject *limits_check_profile(PyObject *module, PyObject *obj)
{
    (void)module;
    PyArrayObject *prof = rtpy_input_1d(obj, "profile", NPY_FLOAT64);
    if (!prof) return NULL;
    int rc = rtpy_profile_check(prof);
    Py_DECREF(prof);
    if (rc < 0) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef limits_methods[] = {
    {"check_profile", limits_check_profile, METH_O,
     "check_profile(profile)\n--\n\nRaise ValueError unless the 1-D float64 profile has a "
     "power-of-two length in 1 .. 2**24 and finite values (the one rule of a profile, the "
     "binding's and the Python layer's)."},
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
