"""The C core's benchmark harnesses build and run (no timings asserted).

``benchmarks/height_grid_core.c`` and ``benchmarks/terra_grid_core.c`` time
``rt_height_grid`` and ``rt_terra_grid`` without Python; they are built by
hand from the lines in their headers, so a change of the core's API could
break them unnoticed.  Here the core's sources are compiled once (at -O1,
for time: the headers say -O3) and linked with each harness, which runs on a
tiny grid and prints its one line.
"""

import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CSRC = os.path.join(ROOT, "csrc")
FLAGS = ["-std=c11", "-O1", "-ffp-contract=off", "-fno-fast-math", "-fno-trapping-math"]


def _env():
    """The environment without a preloaded sanitizer runtime (the ASan run
    of the suite preloads one; the compiler must not run under it)."""
    return {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS",
                                                               "UBSAN_OPTIONS", "LSAN_OPTIONS")}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the harnesses use Linux calls")
def test_core_harnesses_build_and_run(tmp_path):
    cc = shutil.which("cc")
    assert cc, "a C compiler is needed (the extension is built with one)"
    if not os.path.isdir(CSRC):
        pytest.fail("csrc/ is missing: run from the source tree")
    objs = []
    for name in sorted(os.listdir(CSRC)):
        if name.endswith(".c"):
            obj = tmp_path / (name[:-2] + ".o")
            subprocess.run([cc, *FLAGS, "-I", CSRC, "-c", os.path.join(CSRC, name), "-o", str(obj)],
                           check=True, env=_env())
            objs.append(str(obj))
    for harness, args, env in (("height_grid_core", ["64", "8", "0.37", "0.01"], {"OFF": "3"}),
                               ("terra_grid_core", ["64", "8", "1", "0.01"],
                                {"OX": "0.1", "OY": "0.3", "SIMDV": "1"})):
        exe = tmp_path / harness
        subprocess.run([cc, *FLAGS, "-I", CSRC, os.path.join(ROOT, "benchmarks", harness + ".c"),
                        *objs, "-lm", "-lpthread", "-o", str(exe)], check=True, env=_env())
        out = subprocess.run([str(exe), *args], check=True, capture_output=True, text=True,
                             env={**_env(), **env}).stdout
        assert re.fullmatch(r".*64x8 step [0-9.]+.*: [0-9.]+ ns a point\n", out), out
