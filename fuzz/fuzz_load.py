#!/usr/bin/env python3
"""Fuzz: relfterrain.load (the JSON terrain/roads loader) on arbitrary file bytes.

Seeds: the files Terrain.save writes; the fuzzer mutates them.  Inputs that
start with the byte 0x01 are turned into hostile worlds instead (deep
nesting, duplicate keys, huge and special numbers, the format's keys with
wrong values).  Only ValueError (naming the file) is expected for a bad
file, and MemoryError (naming the file) for a road too long to pave on this
machine; what loads saves and loads again as the same world, and its roads
can all be removed.
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


KEYS = ["format", "version", "params", "roads", "placed", "cleared", "beneath_roads", "path",
        "half_width", "x", "y", "terrain", "feature", "lake_height", "ah", "profile"]
NAMES = ["relfterrain.terrain", "ROAD", "WOOD", "BOULDER", "MINE", "LAKE", "NONE", "x", ""]
NUMBERS = ["0", "1", "-1", "2", "23400", "5320", "1024", "1025", "9007199254740992",
           "9007199254740993", "2305843009213693952", "1e999", "-1e999", "NaN", "Infinity",
           "1.5", "1e300", "0.0", "-0", "1" + "0" * 60, "60", "2147483648"]


def _hostile(fdp: atheris.FuzzedDataProvider, depth: int) -> str:
    """A JSON text of a hostile world: deep nesting, duplicate keys, huge or
    special numbers, wrong types, the format's keys in the wrong places."""
    k = fdp.ConsumeIntInRange(0, 9 if depth < 40 else 3)
    if k == 0:
        return fdp.PickValueInList(NUMBERS)
    if k == 1:
        return '"' + fdp.PickValueInList(NAMES) + '"'
    if k == 2:
        return fdp.PickValueInList(["true", "false", "null", "[]", "{}"])
    if k == 3:
        return "[" * fdp.ConsumeIntInRange(0, 3000) + "0" + "]" * fdp.ConsumeIntInRange(0, 3000)
    if k in (4, 5, 6):  # an object, keys possibly repeated
        items = [f'"{fdp.PickValueInList(KEYS)}": {_hostile(fdp, depth + 1)}'
                 for _ in range(fdp.ConsumeIntInRange(0, 6))]
        return "{" + ", ".join(items) + "}"
    items = [_hostile(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 6))]
    return "[" + ", ".join(items) + "]"


def one(data: bytes) -> None:
    if data[:1] == b"\x01":  # a generated hostile world (else the bytes as they are)
        fdp = atheris.FuzzedDataProvider(data[1:])
        body = ", ".join(f'"{fdp.PickValueInList(KEYS)}": {_hostile(fdp, 1)}'
                         for _ in range(fdp.ConsumeIntInRange(0, 8)))
        data = ('{"format": "relfterrain.terrain", "version": 1'
                + (", " + body if body else "") + "}").encode()
    with open(PATH, "wb") as f:
        f.write(data)
    try:
        t = rt.load(PATH)
    except (ValueError, MemoryError) as e:
        assert str(e).startswith(PATH), str(e)
        return
    # what loads must compute, save again and load as the same world ...
    t.grid(23400, 5320, 3, 2)
    t.save(PATH + ".again")
    again = rt.load(PATH + ".again")
    assert again == t and len(again.roads) == len(t.roads)
    # ... whose roads and paved cells agree: removing every road leaves
    # ROAD only where the file placed it by hand
    for _ in range(len(t.roads)):
        t.remove_road(0)
    assert t.roads == ()


def main() -> None:
    setup()
    atheris.Setup(sys.argv, one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
