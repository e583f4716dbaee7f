"""What a notebook says against what it shows.

Two checks on an executed notebook (``nbformat`` node with outputs), used by
``tests/test_notebooks.py``:

* :func:`claim_problems` - the **prose-number rule** and the **draws rule**.

  Every number in the prose of a markdown cell is a claim. It must be shown
  by the notebook: equal (to the number of decimals the prose gives) to a
  number in the text output of a code cell *before* it or of the *next* code
  cell; or be an input the code states (a number in the source of a code
  cell); or be listed in the notebook's metadata ``relfterrain.given`` (the
  few definitions that are neither, e.g. the year 1983). Not claims: text in
  code spans and blocks, LaTeX, link targets, quotations in double quotes,
  section and list numbering and "SPEC n" references. Number words ("six")
  count as numbers.

  A markdown cell that says it draws something (draw, plot, picture,
  figure, ...) must be followed by a code cell that shows a picture
  (an ``image/png`` output); the first cell (the notebook's introduction)
  only needs a picture somewhere in the notebook.

* :data:`AUDIT_SOURCE` / :func:`audit_problems` - the **figure rule**, run in
  the kernel: every matplotlib figure the notebook shows is inspected as it is
  rendered. Every axes with content has its axes on and both axis labels;
  a colour-mapped image, scatter or filled contour has a colourbar (or a
  legend; a colourbar serves every mappable of the figure with the same
  colour map and limits); every colourbar has a label; an RGB image has a legend (its colours mean something); several
  labelled lines have a legend; no scatter marker is cut by the frame.
"""

from __future__ import annotations

import json
import re
from typing import Any

WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
         "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
DRAWS = re.compile(r"\b(draws?|drawn|drawing|plots?|plotted|pictures?|figures?)\b", re.I)
_NUM = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\w])")
_WORD = re.compile(r"\b(" + "|".join(WORDS) + r")\b", re.I)


def _text(cell: Any) -> str:
    src = cell.source
    return src if isinstance(src, str) else "".join(src)


def prose(markdown: str) -> str:
    """The part of a markdown cell that makes claims (see the module doc)."""
    s = re.sub(r"<!--.*?-->", " ", markdown, flags=re.S)
    s = re.sub(r"```.*?```", " ", s, flags=re.S)
    s = re.sub(r"(?m)^(?: {4}|\t).*$", " ", s)            # indented code blocks
    s = re.sub(r"`[^`]*`", " ", s)
    s = re.sub(r"\$\$.*?\$\$|\$[^$]*\$", " ", s, flags=re.S)
    s = re.sub(r"\]\([^)]*\)", "]", s)                     # link targets
    s = re.sub(r"https?://\S+", " ", s)
    s = re.sub(r'"[^"\n]*"|\u201c[^\u201d]*\u201d', " ", s)  # quotations
    s = re.sub(r"(?m)^\s*(?:#+\s*)?\d+\.\s", " ", s)      # section / list numbering
    s = re.sub(r"\bSPEC\s+\d+(?:\s*(?:,|and|-)\s*\d+)*", " ", s)
    return s


def numbers_in(text: str) -> list[tuple[float, int, str]]:
    """(value, decimals, as written) of every number in ``text``."""
    out = []
    for m in _NUM.finditer(text):
        whole, frac = m.group(1).replace(",", ""), m.group(2) or ""
        out.append((float(whole + frac), max(len(frac) - 1, 0), m.group(0)))
    for m in _WORD.finditer(text):
        out.append((float(WORDS[m.group(1).lower()]), 0, m.group(0)))
    return out


def _source_numbers(text: str) -> list[float]:
    text = re.sub(r"(?<=\d)_(?=\d)", "", text)
    return [v for v, _, _ in numbers_in(text) if True]


def _output_text(cell: Any) -> str:
    parts = []
    for o in cell.get("outputs", []):
        if "text" in o:
            parts.append(o["text"] if isinstance(o["text"], str) else "".join(o["text"]))
        for kind in ("text/plain", "text/markdown", "text/html"):
            d = o.get("data", {}).get(kind)
            if d is not None:
                parts.append(d if isinstance(d, str) else "".join(d))
    return "\n".join(parts)


def _shows_picture(cell: Any) -> bool:
    return any("image/png" in o.get("data", {}) for o in cell.get("outputs", []))


def _matches(value: float, decimals: int, shown: list[float]) -> bool:
    return any(round(y, decimals) == value or abs(y) == value for y in shown)


def claim_problems(nb: Any) -> list[str]:
    """Every prose claim of ``nb`` that its outputs do not show (empty: all shown)."""
    cells = nb.cells
    given = [float(str(g).replace(",", "")) for g in
             nb.metadata.get("relfterrain", {}).get("given", [])]
    inputs = [v for c in cells if c.cell_type == "code" for v in _source_numbers(_text(c))]
    problems = []
    any_picture = any(_shows_picture(c) for c in cells if c.cell_type == "code")
    for i, cell in enumerate(cells):
        if cell.cell_type != "markdown":
            continue
        text = prose(_text(cell))
        before = [c for c in cells[:i] if c.cell_type == "code"]
        after = next((c for c in cells[i + 1:] if c.cell_type == "code"), None)
        shown_cells = before + ([after] if after is not None else [])
        shown = [v for c in shown_cells for v, _, _ in numbers_in(_output_text(c))]
        for value, decimals, written in numbers_in(text):
            if not (_matches(value, decimals, shown) or value in inputs or value in given):
                problems.append(f"cell {i}: claims {written!r}, which no output before it "
                                f"or of the next code cell shows (and no code states)")
        m = DRAWS.search(text)
        if m:
            ok = any_picture if i == 0 else (after is not None and _shows_picture(after))
            if not ok:
                problems.append(f"cell {i}: says {m.group(0)!r} but the next code cell "
                                f"shows no picture")
    return problems


#: run in the kernel before the notebook: audits every figure as it is rendered
AUDIT_SOURCE = r'''
import json as _json
import math as _math
from matplotlib.backend_bases import FigureCanvasBase as _FCB
from matplotlib.contour import ContourSet as _CS
from matplotlib.collections import PathCollection as _PC
_RT_AUDIT = []
def _rt_audit(fig):
    bad = []
    fig_legend = bool(fig.legends)
    # mappables with a colourbar; another with the same colour map and limits shares it
    keyed = set()
    for ax in fig.axes:
        for m in list(ax.images) + list(ax.collections):
            if getattr(m, "colorbar", None) is not None:
                keyed.add((m.get_cmap().name, m.norm.vmin, m.norm.vmax))

    def has_bar(m):
        return m.colorbar is not None or (m.get_cmap().name, m.norm.vmin, m.norm.vmax) in keyed
    for k, ax in enumerate(fig.axes):
        if hasattr(ax, "_colorbar"):
            if not ax.get_ylabel() and not ax.get_xlabel():
                bad.append(f"axes {k}: a colourbar without a label")
            continue
        content = ax.images or ax.lines or ax.collections or ax.patches
        if not content:
            continue
        name = ax.get_title() or f"axes {k}"
        if not ax.axison:
            bad.append(f"{name!r}: axes turned off")
        if ax.name != "3d" and (not ax.get_xlabel() or not ax.get_ylabel()):
            bad.append(f"{name!r}: an axis without a label")
        legend = ax.get_legend() is not None or fig_legend
        for im in ax.images:
            a = im.get_array()
            if a is not None and a.ndim == 2 and not has_bar(im) and not legend:
                bad.append(f"{name!r}: a colour-mapped image without a colourbar or legend")
            if a is not None and a.ndim == 3 and not legend and im.colorbar is None:
                bad.append(f"{name!r}: an RGB image without a legend")
        for c in ax.collections:
            if isinstance(c, _CS):
                if c.filled and not has_bar(c) and not legend:
                    bad.append(f"{name!r}: filled contours without a colourbar")
                continue
            if c.get_array() is not None and not has_bar(c) and not legend:
                bad.append(f"{name!r}: colour-mapped points without a colourbar")
            if isinstance(c, _PC) and len(c.get_offsets()):
                fig.canvas.draw()
                box = ax.get_window_extent()
                pts = c.get_offset_transform().transform(c.get_offsets())
                sizes = c.get_sizes() if len(c.get_sizes()) else [36.0]
                r = _math.sqrt(max(sizes)) / 2 * fig.dpi / 72
                inside = ((pts[:, 0] - r >= box.x0 - 0.5) & (pts[:, 0] + r <= box.x1 + 0.5)
                          & (pts[:, 1] - r >= box.y0 - 0.5) & (pts[:, 1] + r <= box.y1 + 0.5))
                if not inside.all():
                    bad.append(f"{name!r}: {int((~inside).sum())} markers cut by the frame")
        labelled = [ln for ln in ax.lines if not ln.get_label().startswith("_")]
        if len(labelled) >= 2 and not legend:
            bad.append(f"{name!r}: {len(labelled)} labelled lines without a legend")
    return bad
_rt_print_figure = _FCB.print_figure
def _rt_audited_print_figure(self, *a, **k):
    _RT_AUDIT.append(_rt_audit(self.figure))
    return _rt_print_figure(self, *a, **k)
_FCB.print_figure = _rt_audited_print_figure
'''

#: run in the kernel after the notebook: prints the audit as one JSON line
AUDIT_REPORT = "print('RT-AUDIT ' + _json.dumps(_RT_AUDIT))"


def audit_problems(report_text: str) -> tuple[int, list[str]]:
    """(figures audited, problems) from the output of :data:`AUDIT_REPORT`."""
    line = next(ln for ln in report_text.splitlines() if ln.startswith("RT-AUDIT "))
    figures = json.loads(line[len("RT-AUDIT "):])
    return len(figures), [f"figure {k}: {p}" for k, f in enumerate(figures) for p in f]
