"""Fuzz: the classic generators (seed 001..005) with odd arguments."""

import sys

import atheris

with atheris.instrument_imports():
    import numpy as np
    from _common import EXPECTED, same, setup, small_int, snapshot, value

    from relfterrain import classic


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


def one(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    which = fdp.ConsumeIntInRange(0, 5)
    try:
        if which == 0:
            classic.midpoint_displacement(arg(fdp, "iterations"), arg(fdp, "real"),
                                          arg(fdp, "rng"), scale=arg(fdp, "real"))
        elif which == 1:
            classic.diamond_square(arg(fdp, "iterations"), arg(fdp, "real"), arg(fdp, "rng"))
        elif which == 2:
            classic.clouds(arg(fdp, "size"), arg(fdp, "size"), rng=arg(fdp, "rng"))
        elif which == 3:
            classic.limited_random(arg(fdp, "size"), arg(fdp, "size"), arg(fdp, "real"),
                                   arg(fdp, "real"), arg(fdp, "real"), arg(fdp, "rng"))
        elif which == 4:
            classic.circle_hill(arg(fdp, "size"), arg(fdp, "size"), rng=arg(fdp, "rng"))
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
