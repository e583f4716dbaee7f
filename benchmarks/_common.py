"""Helpers the benchmark scripts share."""

from __future__ import annotations

import platform
import statistics
import time


def timeit(fn, repeat, warmup=1):
    """Median wall time (s) of fn() over `repeat` calls after `warmup` calls."""
    for _ in range(warmup):
        fn()
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), ts


def cpu_model():
    """The CPU's model name (Linux /proc/cpuinfo), else platform.processor()."""
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"
