"""Every notebook runs from top to bottom with the installed package, and the
notebooks that draw show their pictures (at least one PNG output each).

This replaces a bare execution (nbmake): a notebook whose pictures are
swallowed (say, by ``matplotlib.use("Agg")``) fails here.
"""

import base64
import os

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

HERE = os.path.dirname(os.path.abspath(__file__))
NOTEBOOKS = os.path.join(os.path.dirname(HERE), "notebooks")
NAMES = sorted(n for n in os.listdir(NOTEBOOKS) if n.endswith(".ipynb"))
#: the notebooks that draw, and the fewest pictures each must show
PICTURES = {
    "quick_start.ipynb": 3,
    "terrain_tour.ipynb": 1,
    "streams_and_sites.ipynb": 1,
    "mines.ipynb": 1,
    "planets_and_space.ipynb": 1,
    "classic_generators.ipynb": 1,
    "star_exercises.ipynb": 0,
    "limitless_map.ipynb": 2,
}


def test_every_notebook_is_listed():
    assert sorted(PICTURES) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs_and_shows_its_pictures(name, tmp_path, monkeypatch):
    # the kernel imports the package this process tests (installed, or built in place)
    import relfterrain

    root = os.path.dirname(os.path.dirname(os.path.abspath(relfterrain.__file__)))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        p for p in (root, os.environ.get("PYTHONPATH")) if p))
    nb = nbformat.read(os.path.join(NOTEBOOKS, name), as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError on any failing cell
    pngs = [o["data"]["image/png"] for c in nb.cells if c.cell_type == "code"
            for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
    assert len(pngs) >= PICTURES[name], f"{name}: {len(pngs)} pictures shown"
    for png in pngs:
        assert base64.b64decode(png)[:8] == b"\x89PNG\r\n\x1a\n"
