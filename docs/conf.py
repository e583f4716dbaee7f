"""Sphinx configuration of the relfterrain documentation.

Build (from the repository root, with the package built or installed and the
``docs`` extra installed)::

    sphinx-build -W -n --keep-going -b html docs docs/_build/html

Warnings are errors (``-W``) and every cross-reference must resolve (``-n``).
The API pages are written by ``_ext/apipages.py`` from the package itself (one
page per public module, one per name of ``relfterrain.__all__``), the CLI
reference by sphinx-argparse from the parser of ``relfterrain.cli``, and the
notebooks of ``notebooks/`` are copied into ``gallery/`` and executed by myst-nb
(cached in ``_build/.jupyter_cache``: a notebook runs again only when it changed).
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "_ext"))
# the package: the installed one, else the source tree built in place
try:
    import relfterrain
except ImportError:
    sys.path.insert(0, ROOT)
    import relfterrain
# the notebooks' kernels import the same package (installed, or built in place)
_pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(relfterrain.__file__)))
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (_pkg_parent, os.environ.get("PYTHONPATH")) if p)

project = "relfterrain"
author = "the relfterrain authors; terrain by Graham Relf"
copyright = "2026, " + author
release = version = relfterrain.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_nb",
    "sphinx_copybutton",
    "sphinx_design",
    "sphinxarg.ext",
    "apipages",
    "gallery",
]

# --- sources -------------------------------------------------------------------
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "_templates", "**.ipynb_checkpoints", "README.md", "SPEC.md"]
root_doc = "index"
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath", "attrs_inline"]
myst_heading_anchors = 3
# notebooks start at a level-1 title, not always; sphinx-argparse has no "any" xrefs;

suppress_warnings = ["myst.header", "myst.domains"]

# --- notebooks (the gallery) ---------------------------------------------------
nb_execution_mode = os.environ.get("RELFTERRAIN_DOCS_EXECUTE", "cache")
nb_execution_cache_path = os.path.join(HERE, "_build", ".jupyter_cache")
nb_execution_timeout = 600
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True

# --- API -----------------------------------------------------------------------
autosummary_generate = False  # _ext/apipages.py writes the pages
autodoc_typehints = "none"  # the numpydoc sections give the types
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()
add_module_names = False

nitpicky = True
# Names the docstrings mention that have no page here: NumPy's, the
# standard library's and other projects' (no intersphinx: the build is offline).
nitpick_ignore_regex = [
    (r"py:.*", r"(np|numpy|xarray|dask|distributed|matplotlib|PIL|pathlib|os|typing|"
               r"collections|concurrent|enum|argparse|math|json|decimal)(\..*)?"),
    (r"py:.*", r"(int|float|str|bool|bytes|tuple|list|dict|object|None|callable|"
               r"Exception|ValueError|TypeError|MemoryError|KeyboardInterrupt|ImportError|"
               r"OSError|IntEnum|NamedTuple|Any|Sequence|Iterator|Callable)"),
]

# --- HTML ----------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = "relfterrain"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_theme_options = {
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "header_links_before_dropdown": 6,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_sidebars = {page: [] for page in ("index", "changes", "spec", "guarantees", "cli", "develop")}
html_show_sourcelink = False
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
