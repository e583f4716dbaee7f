"""float32 grids, this build against a baseline build, and float32 against float64.

    PYTHONPATH=. python benchmarks/bench_float32.py --baseline DIR [--repeat 7]

DIR is another checkout of the package with its extension built in place
(``git archive <commit> | tar -x -C DIR; cd DIR; python setup.py build_ext
--inplace``). ``height_grid`` and ``grid`` of 1024 x 1024 and 4096 x 4096
from (23396, 5318) at step 1 into fresh arrays, on one thread and with the
default, as float32 and as float64, and ``height_grid`` at step 0.37 on one
thread (the point path's rows, two at a time into a float32 grid's two row
buffers), timed on both builds in this one
process round after round (``_common.compare_rounds``). The new build's
``float32`` line against its ``float64`` line (the "new ms" column) is what
float32 costs; the ratio column is the change. The float32 rows are the
doubles rounded to nearest (``Terrain.height_grid(dtype="float32")``).
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _common import before_after_main  # noqa: E402

X0, Y0 = 23396, 5318


def workloads(rt, sizes=(1024, 4096)):
    """name -> a no-argument call, for the package `rt`."""
    t = rt.Terrain()
    w = {}
    for n in sizes:
        for threads, tname in ((1, "1 thread"), (None, "default threads")):
            for name in ("height_grid", "grid"):
                f = getattr(t, name)
                for dtype in ("float64", "float32"):
                    w[f"{name} {n}^2 {tname} {dtype}"] = (
                        lambda f=f, n=n, threads=threads, dtype=dtype:
                        f(X0, Y0, n, n, threads=threads, dtype=dtype))
        for dtype in ("float64", "float32"):
            w[f"height_grid {n}^2 step 0.37 1 thread {dtype}"] = (
                lambda n=n, dtype=dtype: t.height_grid(X0, Y0, n, n, 0.37, threads=1, dtype=dtype))
    return w


if __name__ == "__main__":
    before_after_main(__doc__, workloads)
