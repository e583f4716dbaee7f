#!/usr/bin/env python3
"""Fuzz: Terrain construction from odd keyword values, then a grid (maybe into out=)."""

import sys

import atheris

with atheris.instrument_imports():
    import numpy as np
    from _common import EXPECTED, bounded, coordinate, same, setup, small_int, snapshot, value

    import relfterrain as rt
    from relfterrain import _core

OPTIONS = ["profile", "ah", "bh", "a1", "b1", "a2", "b2", "a3", "b3", "lake_base",
           "lake_height", "feature_mask", "feature_point", "feature_x", "feature_cone",
           "mine_below", "boulder_below", "waterhole_below", "knoll_below", "x_below",
           "cone_below", "town_below", "grass_below", "open_below", "thicket_below",
           "with_paths", "mountain_base", "snow_height", "wood_only", "bleak", "simd"]


def vector(fdp):
    n = fdp.ConsumeIntInRange(0, 6)
    return [fdp.ConsumeIntInRange(-(2**21), 2**21) for _ in range(n)]


def one(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    options = {}
    for _ in range(fdp.ConsumeIntInRange(0, 4)):
        name = fdp.PickValueInList(OPTIONS)
        k = fdp.ConsumeIntInRange(0, 3)
        if k == 0 and name in ("ah", "bh", "a1", "b1", "a2", "b2", "a3", "b3"):
            options[name] = vector(fdp)
        elif k == 1 and name == "profile":
            n = fdp.ConsumeIntInRange(0, 9)
            options[name] = [fdp.ConsumeRegularFloat() for _ in range(n)]
        else:
            options[name] = value(fdp)
    kept = {k: snapshot(v) for k, v in options.items()}
    try:
        t = rt.Terrain(**options)
    except EXPECTED:
        return
    finally:
        for k, v in options.items():
            assert same(kept[k], v), f"Terrain() modified {k}"
    args = [coordinate(fdp), coordinate(fdp),
            *bounded([small_int(fdp), small_int(fdp)], 2**16, _core.physical_memory())]
    kw = {}
    if fdp.ConsumeBool():
        args.append(fdp.PickValueInList([1.0, 0.5, 0.3, 7.0, -1.0, 0.0, float("nan"),
                                         1e300, 2, value(fdp)]))
    if fdp.ConsumeBool():
        kw["offset"] = (small_int(fdp, 0, 1000), small_int(fdp, 0, 1000))
    if fdp.ConsumeBool():
        kw["threads"] = fdp.PickValueInList([1, 2, 0, -1, None, 1.5, "2"])
    method = fdp.PickValueInList(["grid", "height_grid", "terrain_grid", "feature_grid",
                                  "height", "sample"])
    if method in ("height", "sample"):
        args = [value(fdp) if fdp.ConsumeBool() else coordinate(fdp) for _ in range(2)]
        kw.pop("offset", None)
        if method == "height":
            kw.pop("threads", None)
    out = None
    if method != "grid" and method not in ("height", "sample") and fdp.ConsumeBool():
        out = value(fdp)
        kw["out"] = out
    before = snapshot(out)
    try:
        getattr(t, method)(*args, **kw)
    except EXPECTED:
        if isinstance(out, np.ndarray):
            assert same(before, out), f"a failed {method} changed out="


def main() -> None:
    setup()
    atheris.Setup(sys.argv, one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
