#!/usr/bin/env python3
"""Fuzz: the classic generators (seed 001..005) with odd arguments."""

import operator
import sys

import atheris

with atheris.instrument_imports():
    import numpy as np
    from _common import EXPECTED, bounded, same, setup, small_int, snapshot, value

    from relfterrain import _core, classic


def arg(fdp, kind):
    if fdp.ConsumeIntInRange(0, 5) == 0:
        return value(fdp)
    if kind == "iterations":
        return fdp.ConsumeIntInRange(-2, 9)
    if kind == "size":
        return small_int(fdp, -2, 48)
    if kind == "real":
        return fdp.PickValueInList([0.0, 0.5, 1.0, -1.0, 3.0, 255.0, float("nan"),
                                    float("inf"), fdp.ConsumeRegularFloat()])
    return fdp.ConsumeIntInRange(0, 2**32)  # rng seed


def iterations(fdp):
    """Iterations; 10 .. 31 (accepted but large, or too slow here) become 9."""
    it = arg(fdp, "iterations")
    try:
        if 10 <= operator.index(it) <= 31 and not isinstance(it, (bool, np.bool_)):
            return 9
    except TypeError:
        pass
    return it


def sizes(fdp):
    return bounded([arg(fdp, "size"), arg(fdp, "size")], 2**16, _core.physical_memory())


def one(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    which = fdp.ConsumeIntInRange(0, 5)
    try:
        if which == 0:
            classic.midpoint_displacement(iterations(fdp), arg(fdp, "real"),
                                          arg(fdp, "rng"), scale=arg(fdp, "real"))
        elif which == 1:
            classic.diamond_square(iterations(fdp), arg(fdp, "real"), arg(fdp, "rng"))
        elif which == 2:
            heights = value(fdp) if fdp.ConsumeBool() else np.frombuffer(
                fdp.ConsumeBytes(8 * 16).ljust(8 * 16, b"\0"), dtype="<f8").reshape(4, 4)
            kept = snapshot(heights)
            try:
                if fdp.ConsumeBool():
                    classic.clouds(heights)
                else:
                    classic.clouds(heights, arg(fdp, "real"), arg(fdp, "real"))
            finally:
                assert same(kept, heights), "clouds modified its input"
        elif which == 3:
            classic.limited_random(*sizes(fdp), arg(fdp, "real"),
                                   arg(fdp, "real"), arg(fdp, "real"), arg(fdp, "rng"))
        elif which == 4:
            n_circles = bounded([arg(fdp, "size")], 10000, _core.physical_memory() // 16)[0]
            classic.circle_hill(*sizes(fdp), n_circles, arg(fdp, "real"),
                                arg(fdp, "real"), arg(fdp, "real"), rng=arg(fdp, "rng"))
        else:
            heights = value(fdp) if fdp.ConsumeBool() else np.frombuffer(
                fdp.ConsumeBytes(8 * 64).ljust(8 * 64, b"\0"), dtype="<f8").reshape(8, 8)
            kept = snapshot(heights)
            scales = None if fdp.ConsumeBool() else value(fdp)
            try:
                classic.roughness(heights, scales)
            finally:
                assert same(kept, heights), "roughness modified its input"
    except EXPECTED:
        pass


def main() -> None:
    setup()
    atheris.Setup(sys.argv, one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
