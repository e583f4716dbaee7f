"""Every Python block of the README runs as written, top to bottom in one
namespace (as a reader pasting them into one session would), in a fresh
folder; blocks written as doctests (>>>) must also print what they show.
Shell blocks are the install and test commands, which CI itself runs."""

import doctest
import os
import re
import warnings

import pytest

README = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.md")


def _blocks():
    with open(README, encoding="utf-8") as fh:
        text = fh.read()
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def _text():
    with open(README, encoding="utf-8") as fh:
        return fh.read()


def test_the_readme_is_a_front_door():
    # at most 200 lines, a tour of at most 20 lines of code; the rest lives in docs/
    text = _text()
    assert len(text.splitlines()) <= 200
    assert len(_blocks()) >= 1
    tour = [line for line in _blocks()[0].splitlines() if line.strip()]
    assert 10 <= len(tour) <= 20
    # a picture first, and it is in the repository
    images = re.findall(r"!\[[^]]+\]\(([^)]+)\)", text)
    assert images, "the README shows no picture"
    for path in images:
        assert os.path.isfile(os.path.join(os.path.dirname(README), path)), path


def test_the_readme_names_every_subcommand():
    from relfterrain import cli

    line = " ".join(_text().split())  # the command-line sentence may wrap
    for name in cli.COMMANDS:
        assert re.search(rf"`relfterrain (\w+ \| )*{name}[` ]", line), name


def test_ci_runs_what_the_readme_says():
    # .ci/run installs exactly as the README says and runs its test and docs commands
    text = _text()
    with open(os.path.join(os.path.dirname(README), ".ci", "run"), encoding="utf-8") as fh:
        ci = fh.read()
    shells = re.findall(r"```bash\n(.*?)```", text, flags=re.S)
    commands = [c.strip() for block in shells for line in block.splitlines()
                for c in line.split("&&")]
    for command in commands:
        if command in ("relfterrain",) or command.startswith("pip install ."):
            continue  # the main job; CI installs the test extras, which include it
        assert command.replace("pip install", "python -m pip install") in ci or command in ci, \
            command
    assert 'pip install ".[test]"' in text and "pytest" in text


def test_the_readme_links_exist():
    root = os.path.dirname(README)
    for target in re.findall(r"\]\(([^)#]+)\)", _text()):
        if "://" not in target:
            assert os.path.exists(os.path.join(root, target)), target


def test_every_readme_python_block_runs(tmp_path, monkeypatch):
    pytest.importorskip("PIL")
    pytest.importorskip("xarray")
    pytest.importorskip("dask")
    pytest.importorskip("distributed")
    pytest.importorskip("zarr")
    monkeypatch.chdir(tmp_path)
    # zarr 3 warns that consolidated metadata is not in its v3 spec yet; the
    # README says so (it is what lets xarray.open_zarr open the store)
    warnings.filterwarnings("ignore", message="Consolidated metadata", category=UserWarning)
    namespace = {"__name__": "__main__"}
    for k, block in enumerate(_blocks()):
        if block.lstrip().startswith(">>>"):
            test = doctest.DocTestParser().get_doctest(block, namespace, f"README block {k}",
                                                      README, 0)
            runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
            runner.run(test)
            assert runner.failures == 0, f"README block {k} printed something else"
            namespace.update(test.globs)
            continue
        try:
            exec(compile(block, f"README block {k}", "exec"), namespace)
        except Exception as e:  # noqa: BLE001 - report which block failed
            raise AssertionError(f"README block {k} failed: {e!r}\n{block}") from e
