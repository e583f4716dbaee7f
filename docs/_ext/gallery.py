"""The notebook gallery: copy ``notebooks/*.ipynb`` into ``docs/gallery/``.

myst-nb then executes each copy (``nb_execution_mode``, default ``cache``: a
notebook runs again only when its code changed) and renders it with its
pictures. Copies are rewritten only when the notebook changed, and copies of
notebooks that no longer exist are removed. ``gallery/index.md`` lists them
with a glob (hidden), so a new notebook appears by itself, and shows a card
per notebook with its first picture.
"""

from __future__ import annotations

import html
import logging
import os
import shutil
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx


def copy_notebooks(srcdir: str) -> list[str]:
    root = os.path.dirname(os.path.abspath(srcdir))
    source = os.path.join(root, "notebooks")
    target = os.path.join(srcdir, "gallery")
    os.makedirs(target, exist_ok=True)
    names = sorted(n for n in os.listdir(source) if n.endswith(".ipynb"))
    for name in names:
        src, dst = os.path.join(source, name), os.path.join(target, name)
        with open(src, "rb") as fh:
            data = fh.read()
        if os.path.exists(dst):
            with open(dst, "rb") as fh:
                if fh.read() == data:
                    continue
        shutil.copyfile(src, dst)
    for name in os.listdir(target):
        if name.endswith(".ipynb") and name not in names:
            os.remove(os.path.join(target, name))
    return names


def _on_config_inited(app: Sphinx, config: Any) -> None:
    copy_notebooks(app.srcdir)


class _OpenGlobs(logging.Filter):
    """The pages' catch-all globs (``*`` after the listed pages of the guide,
    the measurements of docs/performance/) may match nothing until someone adds
    a page: that is not an error. Any other empty glob still warns."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        location = str(getattr(record, "location", ""))
        return not ("didn't match any documents" in text and "'*'" in text
                    and ("guide/index" in location or "performance/index" in location))


def _thumbnail(env: Any, docname: str) -> str:
    """The output name of the first picture a notebook page shows, or ""."""
    doctree = env.get_doctree(docname)
    for node in doctree.findall(nodes.image):
        uri = node.get("uri", "")
        if uri in env.images:
            return env.images[uri][1]
    return ""


def _on_doctree_resolved(app: Sphinx, doctree: Any, docname: str) -> None:
    """The gallery's index shows a card per notebook: its title and first picture."""
    if docname != "gallery/index" or app.builder.format != "html":
        return
    env = app.env
    pages = sorted(d for d in env.found_docs if d.startswith("gallery/") and d != docname)
    cards = []
    for page in pages:
        href = html.escape(app.builder.get_relative_uri(docname, page))
        title = html.escape(env.titles[page].astext()) if page in env.titles else page
        thumb = _thumbnail(env, page)
        img = (f'<img src="../_images/{html.escape(thumb)}" alt="" loading="lazy">' if thumb
               else '<div class="gallery-nopicture">text and tables</div>')
        cards.append(f'<a class="gallery-card" href="{href}">{img}<span>{title}</span></a>')
    raw = nodes.raw("", '<div class="gallery-grid">' + "".join(cards) + "</div>", format="html")
    section = next(iter(doctree.findall(nodes.section)), doctree)
    section.append(raw)


def setup(app: Sphinx) -> dict[str, Any]:
    logging.getLogger("sphinx.sphinx.directives.other").addFilter(_OpenGlobs())
    app.connect("config-inited", _on_config_inited)
    app.connect("doctree-resolved", _on_doctree_resolved)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
