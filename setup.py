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
                    "-Wall", "-Wextra", "-Wno-missing-field-initializers"]

core = Extension(
    "relfterrain._core",
    sources=sorted(glob.glob("csrc/*.c")) + sorted(glob.glob("binding/*.c")),
    # Every header, subfolders included (csrc/simd/, ...): a change to any rebuilds.
    depends=sorted(glob.glob("csrc/**/*.h", recursive=True)) + sorted(glob.glob("binding/*.h")),
    include_dirs=["csrc", numpy.get_include()],
    define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    extra_compile_args=compile_args,
    libraries=[] if sys.platform == "win32" else ["m", "pthread"],
)

setup(ext_modules=[core])
