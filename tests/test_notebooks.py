"""Every notebook runs from top to bottom with the installed package, shows its
pictures, and says only what it shows.

This replaces a bare execution (nbmake): a notebook whose pictures are
swallowed (say, by ``matplotlib.use("Agg")``) fails here, and so does one
whose prose claims a number or a picture its outputs do not show, or whose
figures lack axis labels, colourbars or legends (the rules are in
``tests/notebook_claims.py``). The checks are shown to fail on contradictions
planted into copies.
"""

import base64
import copy
import os

import notebook_claims as claims
import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

HERE = os.path.dirname(os.path.abspath(__file__))
NOTEBOOKS = os.path.join(os.path.dirname(HERE), "notebooks")
NAMES = sorted(n for n in os.listdir(NOTEBOOKS) if n.endswith(".ipynb"))
#: the notebooks that draw, and the fewest pictures each must show
PICTURES = {
    "quick_start.ipynb": 4,
    "terrain_tour.ipynb": 4,
    "streams_and_sites.ipynb": 1,
    "mines.ipynb": 3,
    "planets_and_space.ipynb": 5,
    "classic_generators.ipynb": 5,
    "star_exercises.ipynb": 6,
    "forest_2026.ipynb": 3,
    "limitless_map.ipynb": 2,
    "terrain_analysis.ipynb": 4,
}
#: pictures a notebook shows as bare PNGs on purpose (not matplotlib figures):
#: a grid's ``_repr_png_``, which is what the cell demonstrates
BARE_PICTURES = {"quick_start.ipynb": 1, "terrain_tour.ipynb": 1}

_EXECUTED = {}


def execute(name, tmp_path_factory):
    """The notebook executed once per session, with the figure audit around it."""
    if name not in _EXECUTED:
        import relfterrain

        root = os.path.dirname(os.path.dirname(os.path.abspath(relfterrain.__file__)))
        env_path = os.environ.get("PYTHONPATH")
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (root, env_path) if p)
        try:
            nb = nbformat.read(os.path.join(NOTEBOOKS, name), as_version=4)
            nb.cells.insert(0, nbformat.v4.new_code_cell(claims.AUDIT_SOURCE))
            nb.cells.append(nbformat.v4.new_code_cell(claims.AUDIT_REPORT))
            path = tmp_path_factory.mktemp(name.replace(".", "_"))
            client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                             resources={"metadata": {"path": str(path)}})
            client.execute()  # raises CellExecutionError on any failing cell
        finally:
            if env_path is None:
                os.environ.pop("PYTHONPATH", None)
            else:
                os.environ["PYTHONPATH"] = env_path
        report = nb.cells.pop()
        nb.cells.pop(0)
        text = "".join(o.get("text", "") for o in report.outputs)
        _EXECUTED[name] = (nb, claims.audit_problems(text))
    nb, audit = _EXECUTED[name]
    return copy.deepcopy(nb), audit


def pngs(nb):
    return [o["data"]["image/png"] for c in nb.cells if c.cell_type == "code"
            for o in c.get("outputs", []) if "image/png" in o.get("data", {})]


def test_every_notebook_is_listed():
    assert set(PICTURES) == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs_and_shows_its_pictures(name, tmp_path_factory):
    nb, (figures, _) = execute(name, tmp_path_factory)
    shown = pngs(nb)
    assert len(shown) >= PICTURES.get(name, 1), f"{name}: {len(shown)} pictures shown"
    for png in shown:
        assert base64.b64decode(png)[:8] == b"\x89PNG\r\n\x1a\n"
    # every picture but the declared bare ones is an audited matplotlib figure
    assert len(shown) - figures == BARE_PICTURES.get(name, 0), (
        f"{name}: {len(shown)} pictures, {figures} matplotlib figures")


@pytest.mark.parametrize("name", NAMES)
def test_notebook_says_only_what_it_shows(name, tmp_path_factory):
    nb, _ = execute(name, tmp_path_factory)
    assert claims.claim_problems(nb) == []


@pytest.mark.parametrize("name", NAMES)
def test_notebook_figures_have_labels_and_keys(name, tmp_path_factory):
    _, (_, problems) = execute(name, tmp_path_factory)
    assert problems == []


# -- the checks catch what they are for -----------------------------------------

def test_a_planted_number_is_caught(tmp_path_factory):
    nb, _ = execute("planets_and_space.ipynb", tmp_path_factory)
    assert claims.claim_problems(nb) == []
    md = next(c for c in nb.cells if c.cell_type == "markdown" and "uniform points" in c.source)
    md.source += "\n\nOver 400,000 uniform points the sphere has 14.7 % lake."
    problems = claims.claim_problems(nb)
    assert any("'400,000'" in p for p in problems) and any("'14.7'" in p for p in problems)


@pytest.mark.parametrize("name, cell_has, true, planted", [
    # the preset's snow line (printed by the first code cell), changed
    ("forest_2026.ipynb", "whose top above", "above 680 m is snow", "above 693 m is snow"),
    # the quarry's depth (printed by the cell after the prose), changed
    ("forest_2026.ipynb", "whose top above", "dug 40 m into", "dug 47 m into"),
    # a south-up Dataset's aspect error (printed by the next cell), changed
    ("terrain_analysis.ipynb", "south-up", "a median of 92 degrees", "a median of 37 degrees"),
    # the size of the lazy world (printed before), changed
    ("terrain_analysis.ipynb", "nothing has been computed", "is 1.8 x 10^14", "is 2.5 x 10^14"),
])
def test_a_planted_contradiction_is_caught(name, cell_has, true, planted, tmp_path_factory):
    nb, _ = execute(name, tmp_path_factory)
    assert claims.claim_problems(nb) == []
    md = next(c for c in nb.cells if c.cell_type == "markdown" and cell_has in c.source)
    assert true in md.source
    md.source = md.source.replace(true, planted)
    wrong = planted.split()[-3] if "10^14" in planted else \
        next(w for w in planted.split() if w.isdigit())
    problems = claims.claim_problems(nb)
    assert any(f"claims {wrong!r}" in p for p in problems), problems


def test_a_planted_picture_claim_is_caught(tmp_path_factory):
    nb, _ = execute("streams_and_sites.ipynb", tmp_path_factory)
    printing = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.outputs
                    and not any("image/png" in o.get("data", {}) for o in c.outputs))
    nb.cells.insert(printing, nbformat.v4.new_markdown_cell("The next cell draws the streams."))
    problems = claims.claim_problems(nb)
    assert any("'draws'" in p for p in problems)


def test_a_planted_count_word_is_caught():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("print(len(sites), 'sites')"),
        nbformat.v4.new_markdown_cell("The map shows the six sites as red squares."),
    ])
    nb.cells[0].outputs = [nbformat.v4.new_output("stream", name="stdout", text="3 sites\n")]
    assert any("'six'" in p for p in claims.claim_problems(nb))
    nb.cells[0].outputs[0]["text"] = "6 sites\n"
    assert claims.claim_problems(nb) == []


def test_a_planted_bad_figure_is_caught():
    import matplotlib.pyplot as plt
    import numpy as np

    namespace = {}
    exec(claims.AUDIT_SOURCE, namespace)
    audit = namespace["_rt_audit"]
    fig, (a, b) = plt.subplots(1, 2)
    a.imshow(np.arange(12.0).reshape(3, 4))
    a.set_axis_off()
    b.scatter([0, 1], [0, 1], s=200)
    b.set(xlim=(0, 1), ylim=(0, 1), xlabel="x (m)", ylabel="y (m)")
    problems = audit(fig)
    assert any("turned off" in p for p in problems)
    assert any("without a colourbar" in p for p in problems)
    assert any("cut by the frame" in p for p in problems)
    plt.close(fig)
    fig, ax = plt.subplots()
    im = ax.imshow(np.arange(12.0).reshape(3, 4))
    fig.colorbar(im, ax=ax, label="height (m)")
    ax.set(xlabel="x (m)", ylabel="y (m)")
    assert audit(fig) == []
    plt.close(fig)
