"""The notebook gallery: copy ``notebooks/*.ipynb`` into ``docs/gallery/``.

myst-nb then executes each copy (``nb_execution_mode``, default ``cache``: a
notebook runs again only when its code changed) and renders it with its
pictures. Copies are rewritten only when the notebook changed, and copies of
notebooks that no longer exist are removed. ``gallery/index.md`` lists them
with a glob, so a new notebook appears by itself.
"""

from __future__ import annotations

import logging
import os
import shutil
from typing import Any

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


def setup(app: Sphinx) -> dict[str, Any]:
    logging.getLogger("sphinx.sphinx.directives.other").addFilter(_OpenGlobs())
    app.connect("config-inited", _on_config_inited)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
