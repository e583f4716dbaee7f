#!/usr/bin/env python3
"""Fuzz: relfterrain.load (the JSON terrain/roads loader) on arbitrary file bytes.

Seeds: the files Terrain.save writes; the fuzzer mutates them.  Only
ValueError (naming the file) is expected for a bad file, and MemoryError
(naming the file) for a road too long to pave on this machine.
"""

import os
import sys
import tempfile

import atheris

with atheris.instrument_imports():
    from _common import setup

    import relfterrain as rt

FOLDER = tempfile.mkdtemp(prefix="fuzz_load_")
PATH = os.path.join(FOLDER, "t.json")


def one(data: bytes) -> None:
    with open(PATH, "wb") as f:
        f.write(data)
    try:
        t = rt.load(PATH)
    except (ValueError, MemoryError) as e:
        assert str(e).startswith(PATH), str(e)
        return
    # what loads must compute and save again
    t.grid(23400, 5320, 3, 2)
    t.save(PATH + ".again")


def main() -> None:
    setup()
    atheris.Setup(sys.argv, one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
