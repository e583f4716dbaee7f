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


def test_the_readme_has_python_blocks():
    assert len(_blocks()) >= 10


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
