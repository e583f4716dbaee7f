#!/usr/bin/env python3
"""Fuzz: Galaxy construction and block scans (stars, census, count, planet_counts)."""

import sys

import atheris

with atheris.instrument_imports():
    from _common import EXPECTED, bounded, setup, value

    import relfterrain as rt


def one(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    kw = {}
    if fdp.ConsumeBool():
        kw["f_mask"] = fdp.PickValueInList([0xFFFF, 0xFF, 0x1F, 0, 1, value(fdp)])
        kw["f_value"] = fdp.PickValueInList([127, 0, 1, 31, value(fdp)])
    if fdp.ConsumeIntInRange(0, 3) == 0:
        name = fdp.PickValueInList(["profile", "s", "t", "u", "min_magnitude",
                                    "magnitude_range"])
        kw[name] = value(fdp)
    try:
        g = rt.Galaxy(**kw)
    except EXPECTED:
        return
    origin = []
    for _ in range(3):
        k = fdp.ConsumeIntInRange(0, 5)
        origin.append(value(fdp) if k == 0 else fdp.ConsumeInt(8) if k == 1
                      else fdp.ConsumeIntInRange(-(2**18), 2**18))
    sizes = []
    for _ in range(3):
        k = fdp.ConsumeIntInRange(0, 9)
        sizes.append(value(fdp) if k == 0 else fdp.ConsumeIntInRange(-2, 40))
    # keep an accepted scan short: at most 2**16 points unless it must be refused
    sizes = bounded(sizes, 2**16, rt.MAX_BLOCK_POINTS)
    method = fdp.PickValueInList(["stars", "census", "count", "planet_counts", "star"])
    try:
        if method == "star":
            g.star(*origin)
        else:
            extra = {}
            if fdp.ConsumeBool():
                extra["threads"] = fdp.PickValueInList([1, 2, 0, None, 2.5])
            if fdp.ConsumeBool():
                extra["planes_per_call"] = fdp.PickValueInList([1, 3, 0, -1, None, value(fdp)])
            getattr(g, method)(*origin, *sizes, **extra)
    except EXPECTED:
        pass


def main() -> None:
    setup()
    atheris.Setup(sys.argv, one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
