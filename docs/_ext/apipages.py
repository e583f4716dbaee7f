"""Write the API reference from the package itself, before Sphinx reads the sources.

* ``api/index.rst``: the package docstring, a table of every name of
  ``relfterrain.__all__`` (by kind) and of every public submodule;
* ``api/relfterrain.<Name>.rst``: one page per name of ``__all__`` (a class
  with its members, a function, a constant with the ``#:`` comment written
  where it is defined);
* ``api/relfterrain.<module>.rst``: one page per public submodule (found with
  ``pkgutil``, so a new module gets its page): its docstring, links to the
  names it shares with ``relfterrain``, and everything else it exports
  documented in place.

The pages are generated into ``api/`` (ignored by git) and rewritten only
when their text changes, so an unchanged build does not read them again.

A ``missing-reference`` handler lets a docstring name a public object the
short way (``Terrain.grid``, ``maps.render``, ``CRITERIA``): an unresolved
Python reference is looked up as ``relfterrain.<target>`` and then as the
one documented object whose full name ends in ``.<target>``. Anything still
unresolved is a warning (the build runs with ``-n -W``).
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import types
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging

logger = logging.getLogger(__name__)

PACKAGE = "relfterrain"


def _kind(obj: Any) -> str:
    if isinstance(obj, types.ModuleType):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "function"
    return "data"


def _public_modules(pkg: types.ModuleType) -> list[str]:
    names = []
    for info in pkgutil.iter_modules(pkg.__path__):
        if not info.name.startswith("_"):
            names.append(info.name)
    return sorted(names)


def _module_names(mod: types.ModuleType) -> list[str]:
    if hasattr(mod, "__all__"):
        return list(mod.__all__)
    out = []
    for name, obj in vars(mod).items():
        if name.startswith("_") or isinstance(obj, types.ModuleType):
            continue
        if (inspect.isclass(obj) or inspect.isfunction(obj)) and \
                getattr(obj, "__module__", None) == mod.__name__:
            out.append(name)
    return out


def _attr_doc(name: str, obj: Any, modules: list[str]) -> tuple[str, list[str]]:
    """Where a constant is defined (a module whose ``#:`` comment documents it)."""
    for modname in modules:
        mod = importlib.import_module(modname)
        if getattr(mod, name, _MISSING) is not obj:
            continue
        try:
            docs = ModuleAnalyzer.for_module(modname).find_attr_docs()
        except Exception:  # noqa: BLE001 - a module without source: no comment
            continue
        lines = docs.get(("", name))
        if lines:
            return modname, [line for line in lines]
    return "", []


_MISSING = object()


def _title(text: str, char: str = "=") -> list[str]:
    return [text, char * len(text), ""]


def _data_block(qualname: str, lines: list[str], defined_in: str, obj: Any) -> list[str]:
    out = [f".. py:data:: {qualname}", ""]
    body = [line for line in lines if line.strip()] and lines
    if not body:
        logger.warning("%s: no '#:' comment where it is defined (%s)", qualname,
                       defined_in or "?")
        body = ["(undocumented)"]
    out += ["   " + line if line else "" for line in body]
    r = repr(obj)
    if len(r) <= 120:
        out += ["", f"   Value: ``{r}``"]
    else:
        out += ["", f"   A ``{type(obj).__name__}``."]
    return out + [""]


def _summaries(names: list[str], owner: types.ModuleType, docmods: list[str]) -> list[str]:
    """An autosummary table of the classes and functions, a list of the constants
    (autosummary would show the docstring of their type) with their ``#:`` text."""
    calls = [n for n in names if _kind(getattr(owner, n)) in ("class", "function", "module")]
    data = [n for n in names if n not in calls]
    out: list[str] = []
    if calls:
        out += [".. autosummary::", ""] + [f"   {n}" for n in calls] + [""]
    if data:
        out += [".. list-table::", "   :widths: 30 70", ""]
        for n in data:
            _, doc = _attr_doc(n, getattr(owner, n), docmods)
            first = " ".join(doc).strip().split(". ")[0].rstrip(".") + "." if doc else ""
            out += [f"   * - :data:`{n}`", f"     - {first}"]
        out += [""]
    return out


def _class_block(name: str, indent: str = "") -> list[str]:
    # members inherited from the package's own (private) base classes are
    # documented; those of tuple, int, Enum and object are not
    return [f"{indent}.. autoclass:: {name}", f"{indent}   :members:",
            f"{indent}   :inherited-members: tuple, int, object, Enum, IntEnum, dict, Exception, Mapping",
            f"{indent}   :special-members: __call__", ""]


def _write(path: str, lines: list[str]) -> None:
    text = "\n".join(lines).rstrip() + "\n"
    try:
        with open(path, encoding="utf-8") as fh:
            if fh.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def generate(srcdir: str) -> None:
    pkg = importlib.import_module(PACKAGE)
    outdir = os.path.join(srcdir, "api")
    os.makedirs(outdir, exist_ok=True)
    modules = _public_modules(pkg)
    modnames = [f"{PACKAGE}.{m}" for m in modules]
    private = [f"{PACKAGE}.{i.name}" for i in pkgutil.iter_modules(pkg.__path__)
               if i.name.startswith("_") and i.name != "__main__"]
    top = sorted(dict.fromkeys(pkg.__all__), key=str.lower)
    wanted: set[str] = set()

    # one page per name of __all__
    kinds: dict[str, list[str]] = {"class": [], "function": [], "data": [], "module": []}
    for name in top:
        obj = getattr(pkg, name)
        kind = _kind(obj)
        kinds[kind].append(name)
        if kind == "module":
            continue
        lines = _title(name) + [f".. currentmodule:: {PACKAGE}", ""]
        if kind == "class":
            lines += _class_block(name)
        elif kind == "function":
            lines += [f".. autofunction:: {name}", ""]
        else:
            where, doc = _attr_doc(name, obj, modnames + private)
            lines += _data_block(name, doc, where, obj)
        wanted.add(f"{PACKAGE}.{name}.rst")
        _write(os.path.join(outdir, f"{PACKAGE}.{name}.rst"), lines)

    # one page per public module
    for modname in modnames:
        mod = importlib.import_module(modname)
        lines = _title(f"{modname}")
        lines += [f".. automodule:: {modname}", "   :no-members:", ""]
        shared, own = [], []
        for name in _module_names(mod):
            obj = getattr(mod, name, _MISSING)
            if obj is _MISSING:
                continue
            (shared if getattr(pkg, name, _MISSING) is obj and name in top else own).append(name)
        if shared:
            lines += _title("Also in ``relfterrain``", "-")
            lines += [f".. currentmodule:: {PACKAGE}", ""]
            lines += _summaries(shared, pkg, [modname] + modnames + private)
            lines += [f".. currentmodule:: {modname}", ""]
        if own:
            lines += _title(f"Only in ``{modname}``", "-")
            lines += _summaries(own, mod, [modname] + modnames + private)
            for name in own:
                obj = getattr(mod, name)
                kind = _kind(obj)
                if kind == "class":
                    lines += _class_block(name)
                elif kind == "function":
                    lines += [f".. autofunction:: {name}", ""]
                elif kind == "data":
                    where, doc = _attr_doc(name, obj, [modname] + modnames + private)
                    lines += _data_block(name, doc, where, obj)
        wanted.add(f"{modname}.rst")
        _write(os.path.join(outdir, f"{modname}.rst"), lines)

    # the index
    lines = [".. _api:", ""] + _title("API reference")
    lines += [
        "Every public name: the package ``relfterrain`` (what ``import relfterrain as rt``",
        "gives, ``rt.__all__``) and its public submodules. Named results are tuples whose",
        "fields are documented one by one; unpack them or read them by name.",
        "",
        f".. currentmodule:: {PACKAGE}",
        "",
    ]
    headings = {"class": "Classes and named results", "function": "Functions",
                "data": "Constants"}
    for kind in ("class", "function", "data"):
        if kinds[kind]:
            lines += _title(headings[kind], "-")
            lines += _summaries(kinds[kind], pkg, modnames + private)
    lines += _title("Modules", "-") + [".. autosummary::", ""]
    lines += [f"   {m.split('.', 1)[1]}" for m in modnames] + [""]
    for caption, names in (("Modules", modnames),
                           ("Classes and named results", [f"{PACKAGE}.{n}" for n in kinds["class"]]),
                           ("Functions", [f"{PACKAGE}.{n}" for n in kinds["function"]]),
                           ("Constants", [f"{PACKAGE}.{n}" for n in kinds["data"]])):
        if names:
            lines += [".. toctree::", "   :hidden:", f"   :caption: {caption}", ""]
            lines += [f"   {n}" for n in names] + [""]
    wanted.add("index.rst")
    _write(os.path.join(outdir, "index.rst"), lines)

    for stale in os.listdir(outdir):
        if stale.endswith(".rst") and stale not in wanted:
            os.remove(os.path.join(outdir, stale))


def _on_builder_inited(app: Sphinx) -> None:
    generate(app.srcdir)


def _on_missing_reference(app: Sphinx, env: Any, node: Any, contnode: Any) -> Any:
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    if not target or target.startswith(("np.", "numpy.")):
        return None
    domain = env.get_domain("py")
    objects = domain.objects
    candidates = [f"{PACKAGE}.{target}"] if not target.startswith(PACKAGE + ".") else []
    found = [c for c in candidates if c in objects]
    if not found:
        tail = "." + target.split(PACKAGE + ".", 1)[-1]
        found = sorted({n for n in objects if n.endswith(tail)})
        if len(found) > 1:  # prefer the shorter (the public, top-level) name
            shortest = min(len(n) for n in found)
            found = [n for n in found if len(n) == shortest]
    if len(found) != 1:
        return None
    name = found[0]
    entry = objects[name]
    title = contnode.astext()
    newnode = nodes.reference("", "", internal=True)
    newnode["refuri"] = app.builder.get_relative_uri(node["refdoc"], entry.docname) + \
        "#" + entry.node_id
    newnode["reftitle"] = name
    newnode.append(contnode if title else nodes.literal(name, name))
    return newnode


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", _on_builder_inited)
    app.connect("missing-reference", _on_missing_reference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
