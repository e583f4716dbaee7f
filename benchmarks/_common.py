"""Helpers the benchmark scripts share."""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import statistics
import sys
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


def load(path, name):
    """Import the package at path/relfterrain under the name `name` (two builds
    in one process: this checkout and a baseline)."""
    pkg = os.path.join(path, "relfterrain")
    spec = importlib.util.spec_from_file_location(name, os.path.join(pkg, "__init__.py"),
                                                  submodule_search_locations=[pkg])
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def fastest(fn, inner):
    """The fastest of `inner` calls of fn() (s)."""
    best = float("inf")
    for _ in range(inner):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def compare_rounds(fn, fo, repeat, inner):
    """fn and fo timed round after round, which goes first alternating, so both
    meet the same load and the same drift of the machine's speed; each round's
    time is the fastest of `inner` calls. Returns (median time of fn, median
    time of fo, median over rounds of the ratio fn / fo)."""
    fn(), fo()  # warm up
    tn, to, ratios = [], [], []
    for r in range(repeat):
        if r % 2:
            a = fastest(fo, inner)
            b = fastest(fn, inner)
        else:
            b = fastest(fn, inner)
            a = fastest(fo, inner)
        tn.append(b)
        to.append(a)
        ratios.append(b / a)
    return statistics.median(tn), statistics.median(to), statistics.median(ratios)


def before_after_main(doc, workloads, argv=None):
    """The main of a before/after benchmark: `workloads(rt)` gives name -> a
    no-argument call for the package `rt`; every workload is timed in this
    checkout and in the baseline checkout given by --baseline (both imported
    into this process), by compare_rounds, and printed with the ratio."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--baseline", required=True, help="a checkout with its extension built")
    ap.add_argument("--new", default=None,
                    help="the checkout to time against it (default: this one, the benchmark's own)")
    ap.add_argument("--repeat", type=int, default=15, help="rounds (default 15)")
    ap.add_argument("--inner", type=int, default=3, help="calls per round and build (fastest)")
    ap.add_argument("--only", default="", help="run the workloads whose name contains this")
    args = ap.parse_args(argv)
    here = args.new or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    new = load(os.path.abspath(here), "relfterrain")
    old = load(os.path.abspath(args.baseline), "relfterrain_base")
    print(f"CPU: {cpu_model()} ({os.cpu_count()} logical); load average "
          f"{os.getloadavg()[0]:.1f} at the start; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"new: {new.__file__}\nbaseline: {old.__file__}")
    wn, wo = workloads(new), workloads(old)
    names = [n for n in wn if args.only in n]
    width = max(len(n) for n in names)
    print(f"{'workload':<{width}}  {'new ms':>9}  {'base ms':>9}  new/base (median of {args.repeat} rounds)")
    ratios_all = []
    for name in names:
        tn, to, ratio = compare_rounds(wn[name], wo[name], args.repeat, args.inner)
        ratios_all.append(ratio)
        print(f"{name:<{width}}  {1e3 * tn:9.3f}  {1e3 * to:9.3f}  {ratio:.3f}", flush=True)
    print(f"median over workloads {statistics.median(ratios_all):.3f}, "
          f"largest {max(ratios_all):.3f}; load average {os.getloadavg()[0]:.1f} at the end")
    return ratios_all
