"""The benchmark scripts still run against the package (no timings asserted).

A benchmark is run by hand, not in CI, so an API change can break it
unnoticed: ``bench_speed.py``'s zarr section called ``make_dataset`` with the
arguments of an older signature and ended in a TypeError after all the other
sections had run. Here the cheap sections run on tiny sizes, so such a break
fails the suite; what they print is checked to hold the ratio lines.
"""

import importlib.util
import os

import relfterrain as rt

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks")


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, os.path.join(BENCH, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _load_before_after(name: str):
    """A before/after benchmark, which imports ``_common`` from its folder."""
    import sys

    sys.path.insert(0, BENCH)
    try:
        return _load(name)
    finally:
        sys.path.remove(BENCH)


def test_bench_speed_zarr_section_runs(capsys):
    bench = _load("bench_speed")
    bench.zarr_codec(rt.Terrain(), 64)
    out = capsys.readouterr().out
    assert "tofile | zarr default (compression" in out
    assert "tofile | CLI codec (compression" in out


def test_bench_speed_step_and_thread_sections_run(capsys):
    bench = _load("bench_speed")
    t = rt.Terrain()
    bench.default_threads(t, 1)
    bench.any_step(t, 64, 1)
    out = capsys.readouterr().out
    assert out.count("ratio") >= 6


def test_bench_standing_workloads_run():
    # every standing workload is a call the current API accepts (the 4096^2
    # ones are the 1024^2 calls at a larger size: left out for time)
    import sys

    sys.path.insert(0, BENCH)
    try:
        bench = _load("bench_standing")
        common = _load("_common")
    finally:
        sys.path.remove(BENCH)
    w = bench.workloads(rt)
    assert len(w) >= 20
    for name, call in w.items():
        if "4096" not in name:
            call()
    # the before/after rounds: medians of each side and of the ratios
    calls = []
    tn, to, ratio = common.compare_rounds(lambda: calls.append("n"), lambda: calls.append("o"), 4, 2)
    assert calls[:2] == ["n", "o"]  # the warm-up
    # which goes first alternates round by round, `inner` calls each
    assert "".join(calls[2:]) == "nnoo" + "oonn" + "nnoo" + "oonn"
    assert tn > 0 and to > 0 and ratio > 0


def test_bench_any_step_workloads_run():
    # the any-step before/after workloads, on a small grid
    w = _load_before_after("bench_any_step").workloads(rt, 32)
    assert len(w) == 18  # grid and height_grid at nine steps and origins
    for call in w.values():
        call()


def test_bench_float32_workloads_run():
    # the float32 before/after workloads, on small grids; each float32 call
    # gives float32 arrays
    w = _load_before_after("bench_float32").workloads(rt, (16, 40))
    # two sizes: two thread choices, two functions, two dtypes; and the
    # heights at step 0.37 in both dtypes
    assert len(w) == 20
    for name, call in w.items():
        res = call()
        h = res if name.startswith("height_grid") else res.height
        assert h.dtype.name == name.split()[-1], name
