#!/usr/bin/env python3
"""Fuzz: the command line's argument parsing, relfterrain.cli.main([...]), in a temp dir.

Exit status 0/2 or argparse's SystemExit are fine; grids stay small (a huge
one must be refused with status 2, never allocated).
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


def one(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
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
        if a in ("--nx", "--ny") and argv[i + 1].lstrip("-").isdigit() and \
                abs(int(argv[i + 1])) > 64:
            argv[i + 1] = "64"
    cwd = os.getcwd()
    os.chdir(FOLDER)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            status = cli.main(argv)
        assert status in (0, 2), status
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
