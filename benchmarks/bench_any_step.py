"""Any step and origin (issue 23), this build against a baseline build.

    PYTHONPATH=. python benchmarks/bench_any_step.py --baseline DIR [--repeat 25] [--new DIR2]
    RELFTERRAIN_SIMD=avx2 PYTHONPATH=. python benchmarks/bench_any_step.py --baseline DIR

DIR is another checkout of the package with its extension built in place
(``git archive <commit> | tar -x -C DIR; cd DIR; python setup.py build_ext
--inplace``). ``grid`` and ``height_grid`` of 2048 x 2048 into ``out=`` on
one thread at issue 23's non-dyadic steps and origins (0.37 and 1/3 from
whole metres, step 1 from 23396.1, 5318.3), at step 1, at the coarse
dyadic steps 8 and 16 (the tile path's strided tables), and at steps 0.5,
8 and 16 from 23396.1, 5318.3 (the point path's linear sums), timed on both
builds in this one process, round after round, which goes first
alternating (``_common.compare_rounds``); the figure is the median over
rounds of new / baseline; both builds write into the same arrays.
``--new DIR2`` times another checkout in place of this one.
``bench_speed.py`` gives the same cases as ratios to step 1 within one
build; this gives a change's effect, which the machine's drift hides
there. RELFTERRAIN_SIMD picks the variant of both.
"""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _common import before_after_main  # noqa: E402

X0, Y0 = 23396, 5318
N = 2048
CASES = (("step 0.37", X0, Y0, 0.37), ("step 1/3", X0, Y0, 1 / 3),
         ("origin + (0.1, 0.3)", X0 + 0.1, Y0 + 0.3, 1.0), ("step 1", X0, Y0, 1.0),
         ("step 8", X0, Y0, 8.0), ("step 16", X0, Y0, 16.0),
         ("step 0.5 from (0.1, 0.3)", X0 + 0.1, Y0 + 0.3, 0.5),
         ("step 8 from (0.1, 0.3)", X0 + 0.1, Y0 + 0.3, 8.0),
         ("step 16 from (0.1, 0.3)", X0 + 0.1, Y0 + 0.3, 16.0))


_OUT: dict[int, tuple] = {}


def _outputs(n: int):
    """The out= arrays, one set for both builds: where an array lies in memory
    (its physical pages, its offset from a cache line) moves a call's time by
    several per cent, which two sets of arrays would add to the builds' ratio."""
    if n not in _OUT:
        _OUT[n] = (np.ones((n, n)), (np.ones((n, n)), np.ones((n, n)),
                                     np.ones((n, n), np.uint8), np.ones((n, n), np.uint8)))
    return _OUT[n]


def workloads(rt, n: int = N):
    """name -> a no-argument call, for the package `rt`."""
    t = rt.Terrain()
    oh, o4 = _outputs(n)
    w = {}
    for label, x0, y0, step in CASES:
        w[f"grid {n}^2 {label}"] = (
            lambda x0=x0, y0=y0, step=step: t.grid(x0, y0, n, n, step, out=o4, threads=1))
    for label, x0, y0, step in CASES:
        w[f"height_grid {n}^2 {label}"] = (
            lambda x0=x0, y0=y0, step=step: t.height_grid(x0, y0, n, n, step, out=oh, threads=1))
    return w


if __name__ == "__main__":
    before_after_main(__doc__, workloads)
