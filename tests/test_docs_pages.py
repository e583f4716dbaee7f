"""Every code block of the documentation's pages runs as written.

Each page of ``docs/guide/`` and ``docs/*.md`` is a test of its own: its
```python blocks run top to bottom in one fresh namespace (as a reader pasting
them into a new session would), in a fresh folder; blocks written as doctests
(``>>>``) must also print what they show, and so must a block followed by
the output it prints (a ```text block, or one introduced by "printed"). In ```bash blocks, the lines that
run the ``relfterrain`` command are run through ``relfterrain.cli.main`` and
must exit 0; other shell lines (``pip install ...``) are what CI itself runs.
```console blocks are shown, not run (say, ``relfterrain serve``, which runs
until stopped).

The README's blocks are tests/test_readme.py's.
"""

from __future__ import annotations

import doctest
import glob
import os
import re
import shlex
import warnings

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, "docs")
PAGES = sorted(
    p for p in glob.glob(os.path.join(DOCS, "*.md")) + glob.glob(os.path.join(DOCS, "guide", "*.md"))
    if os.path.basename(p) != "SPEC.md"  # the specification's snippets are the seed's, not Python
)
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", flags=re.S | re.M)


def blocks(path: str) -> list[tuple[str, str]]:
    """The fenced code blocks of a page: ``(language, text)``, in order."""
    with open(path, encoding="utf-8") as fh:
        return [(m.group(1), m.group(2)) for m in FENCE.finditer(fh.read())]


#: between a Python block and the output it prints: nothing, or one line that says so
_PRINTED = re.compile(r"\s*(printed[^\n]*)?\s*")


def expected_outputs(path: str) -> dict[int, str]:
    """The blocks that show what a Python block prints: ``{python block index: text}``.

    A plain or ``text`` fenced block right after a Python block (nothing
    between them but blank lines, or a line starting "printed") is its output.
    """
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    found = list(FENCE.finditer(text))
    out = {}
    for k, (a, b) in enumerate(zip(found, found[1:])):
        if (a.group(1) == "python" and b.group(1) in ("", "text")
                and _PRINTED.fullmatch(text[a.end():b.start()])):
            out[k] = b.group(2)
    return out


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.strip().splitlines()]


def command_lines(text: str) -> list[list[str]]:
    """The ``relfterrain ...`` command lines of a shell block, as argument lists."""
    out = []
    for line in text.splitlines():
        line = line.split(" #", 1)[0].strip()
        if line == "relfterrain" or line.startswith("relfterrain "):
            out.append(shlex.split(line)[1:])
    return out


def _runnable(path: str) -> list[str]:
    return [b for lang, b in blocks(path)
            if lang == "python" or (lang == "bash" and command_lines(b))]


#: the pages with code to run, and their blocks that run
RUNNABLE = {p: _runnable(p) for p in PAGES if _runnable(p)}


def _name(path: str) -> str:
    return os.path.relpath(path, DOCS)


def test_the_pages_are_found():
    names = [_name(p) for p in PAGES]
    assert sum(len(expected_outputs(p)) for p in PAGES) >= 5
    assert "guide/terrain-and-grids.md" in names and "guarantees.md" in names
    assert len(RUNNABLE) >= 12


def test_the_guide_covers_every_subcommand():
    # each subcommand is named and shown at work; those that end by themselves
    # are in bash blocks, which the test below runs
    from relfterrain import cli

    page = os.path.join(DOCS, "guide", "command-line.md")
    with open(page, encoding="utf-8") as fh:
        text = fh.read()
    shown = {args[0] for lang, b in blocks(page) if lang in ("bash", "console")
             for args in command_lines(b) if args}
    run = {args[0] for lang, b in blocks(page) if lang == "bash"
           for args in command_lines(b) if args}
    for name in cli.COMMANDS:
        assert f"relfterrain {name}" in text, name
        assert name in shown, f"no example of relfterrain {name}"
    assert len(run) >= 6


@pytest.mark.parametrize("path", sorted(RUNNABLE), ids=_name)
def test_every_code_block_of_the_page_runs(path, tmp_path, monkeypatch, capsys):
    pytest.importorskip("PIL")
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    # zarr 3 warns that consolidated metadata is not in its v3 spec yet (the
    # pipelines page says so: it is what lets xarray.open_zarr open the store)
    warnings.filterwarnings("ignore", message="Consolidated metadata", category=UserWarning)
    namespace = {"__name__": "__main__"}
    name = _name(path)
    outputs = expected_outputs(path)
    ran = 0
    for k, (lang, block) in enumerate(blocks(path)):
        where = f"{name} block {k}"
        if lang == "python" and block.lstrip().startswith(">>>"):
            test = doctest.DocTestParser().get_doctest(block, namespace, where, path, 0)
            runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
            runner.run(test)
            assert runner.failures == 0, f"{where} printed something else"
            namespace.update(test.globs)
        elif lang == "python":
            capsys.readouterr()
            try:
                exec(compile(block, where, "exec"), namespace)
            except Exception as e:  # noqa: BLE001 - report which block failed
                raise AssertionError(f"{where} failed: {e!r}\n{block}") from e
            if k in outputs:  # the page shows what it prints
                printed = capsys.readouterr().out
                assert _lines(printed) == _lines(outputs[k]), \
                    f"{where} printed\n{printed}\nthe page shows\n{outputs[k]}"
        elif lang == "bash":
            from relfterrain import cli

            lines = command_lines(block)
            for args in lines:
                status = cli.main(args)
                err = capsys.readouterr().err
                assert status == 0, f"{where}: relfterrain {shlex.join(args)} -> {status}\n{err}"
            ran += bool(lines)
            continue
        else:
            continue
        ran += 1
    assert ran == len(RUNNABLE[path]), f"{name}: {ran} of {len(RUNNABLE[path])} blocks ran"
