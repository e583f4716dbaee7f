#!/usr/bin/env python3
"""Fuzz: the command line, relfterrain.cli.main([...]) in a temp dir: the
classic job's options and every subcommand (grid, features, stars, map,
streams, site) with fuzzed arguments.

Exit status 0/1/2 (site: 1 when no good site) or argparse's SystemExit are
fine; never a traceback.  Accepted requests stay small; a huge one must be
refused with status 2, never allocated or run.
"""

import contextlib
import io
import os
import sys
import tempfile

import atheris

with atheris.instrument_imports():
    from _common import setup

    from relfterrain import cli

FOLDER = tempfile.mkdtemp(prefix="fuzz_cli_")
OPTIONS = ["--x0", "--y0", "--nx", "--ny", "--step", "--lake-height", "--threads", "-o",
           "--output", "--help", "-h", "--", "--nx=", "-o=", "--bogus", "x"]
VALUES = ["0", "1", "3", "-1", "nan", "inf", "1e308", "0.5", "2", "99999999999", "", " ",
          "out.npz", "out.txt", ".", "sub/none.npz", "\u00e9.npz", "0x10", "1_0", "--nx"]


COMMANDS = ["grid", "features", "stars", "map", "streams", "site"]
SUB_OPTIONS = ["--step", "--dtype", "--chunk", "--compress", "--no-progress", "--threads",
               "--lake-height", "--margin", "--neighbourhood", "--max-length", "--palette",
               "--interval", "--no-contours", "--streams", "--f-mask", "--f-value",
               "--min-height", "--clearance", "--max-loops", "--seed", "-o", "--output"]
SUB_VALUES = ["0", "1", "2", "3", "4", "5", "-1", "nan", "inf", "-inf", "1e308", "0.5", "1e-9",
              "23400", "5320", "0x10", "float32", "float64", "cross", "square", "relf", "isom",
              "out.npz", "out.zarr", "out.nc", "out.csv", "out.geojson", "out.parquet",
              "out.png", "out.txt", "sub/none.csv", "", "\u00e9.csv", "99999999999"]


def _subcommand(fdp: atheris.FuzzedDataProvider) -> list[str]:
    """A subcommand with fuzzed arguments; sizes clamped so that what is
    accepted runs in a moment (huge requests must still be refused)."""
    argv = [fdp.PickValueInList(COMMANDS)]
    for _ in range(fdp.ConsumeIntInRange(0, 10)):
        k = fdp.ConsumeIntInRange(0, 5)
        if k == 0:
            argv.append(fdp.ConsumeUnicodeNoSurrogates(10).replace("\0", ""))
        elif k in (1, 2):
            argv.append(fdp.PickValueInList(SUB_OPTIONS))
        else:
            argv.append(fdp.PickValueInList(SUB_VALUES))
    # positional sizes: small, unless refused anyway (then kept to test the
    # refusal); a number is what int() (argparse's type) reads: a test of
    # the characters first let through a superscript "3" (isdigit) and then
    # "--1" (lstrip("-").isdecimal), and int() raised in this line
    for i, a in enumerate(argv[1:], 1):
        v = _int(a)
        if v is not None and abs(v) > 64 and a != "99999999999":
            argv[i] = "64"
    return argv


def _int(a: str) -> int | None:
    """int(a), or None where int() refuses it."""
    try:
        return int(a)
    except ValueError:
        return None


def one(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    if fdp.ConsumeBool():
        _run(_subcommand(fdp))
        return
    argv = []
    for _ in range(fdp.ConsumeIntInRange(0, 8)):
        k = fdp.ConsumeIntInRange(0, 4)
        if k == 0:
            argv.append(fdp.ConsumeUnicodeNoSurrogates(12).replace("\0", ""))
        elif k in (1, 2):
            argv.append(fdp.PickValueInList(OPTIONS))
        else:
            argv.append(fdp.PickValueInList(VALUES))
    # keep accepted grids small so the harness measures parsing, not computing
    if "--nx" not in argv and not any(a.startswith("--nx=") for a in argv):
        argv += ["--nx", "4"]
    if "--ny" not in argv and not any(a.startswith("--ny=") for a in argv):
        argv += ["--ny", "3"]
    for i, a in enumerate(argv[:-1]):
        # ASCII digits only: str.isdigit also takes digits int() refuses ('\u277a')
        if a in ("--nx", "--ny") and argv[i + 1].lstrip("-").isascii() and \
                argv[i + 1].lstrip("-").isdigit() and abs(int(argv[i + 1])) > 64:
            argv[i + 1] = "64"
    _run(argv)


def _run(argv: list[str]) -> None:
    cwd = os.getcwd()
    os.chdir(FOLDER)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            status = cli.main(argv)
        assert status in ((0, 1, 2) if argv[:1] == ["site"] else (0, 2)), (argv, status)
    except SystemExit as e:
        assert e.code in (0, 2), e.code
    except OSError:
        # KNOWN (issue 13, left to the CLI's rewrite on its own branch): an
        # output path in a missing folder fails after computing, with a
        # traceback.  Everything else is a finding.
        pass
    finally:
        os.chdir(cwd)


def main() -> None:
    setup()
    atheris.Setup(sys.argv, one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
