"""Build the relfterrain C extension: the C core (csrc/) plus its CPython binding (binding/)."""
import glob
import sys

import numpy
from setuptools import Extension, setup

if sys.platform == "win32":
    compile_args = ["/O2", "/fp:precise"]
else:
    # Exactness: IEEE doubles in the seed's order, never contracted into FMA,
    # never reassociated (no -ffast-math).  -fno-trapping-math only tells the
    # compiler that no floating-point exception traps, so it may evaluate both
    # arms of a select and vectorise; it changes no IEEE result.
    compile_args = ["-std=c11", "-O3", "-ffp-contract=off", "-fno-fast-math",
                    "-fno-trapping-math",
                    "-Wall", "-Wextra", "-Wno-missing-field-initializers",
                    # A call to an undeclared function (a NumPy API the
                    # target version lacks) is an error, not a missing symbol.
                    "-Werror=implicit-function-declaration"]

core = Extension(
    "relfterrain._core",
    sources=sorted(glob.glob("csrc/*.c")) + sorted(glob.glob("binding/*.c")),
    # Every header, subfolders included (csrc/simd/, ...): a change to any rebuilds.
    depends=sorted(glob.glob("csrc/**/*.h", recursive=True)) + sorted(glob.glob("binding/*.h")),
    include_dirs=["csrc", numpy.get_include()],
    # NPY_TARGET_VERSION: the oldest NumPy the extension runs with, as
    # pyproject's dependencies say (numpy>=1.23).  Stated, not left to the
    # NumPy headers' default (1.19 in NumPy 2.0-2.3, 1.23 in 2.4): the output
    # cache's PyDataMem_SetHandler (1.22) exists only from a target >= 1.22.
    define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"),
                   ("NPY_TARGET_VERSION", "NPY_1_23_API_VERSION")],
    extra_compile_args=compile_args,
    libraries=[] if sys.platform == "win32" else ["m", "pthread"],
)

setup(ext_modules=[core])
