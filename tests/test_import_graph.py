"""The Python modules of relfterrain/ import each other without a circle.

Every ``relfterrain/*.py`` is parsed with :mod:`ast`; every import of a
module of the package counts, at module level and inside functions
(``from . import x``, ``from .x import y``, ``from relfterrain.x import y``,
``import relfterrain.x``), except those under ``if TYPE_CHECKING:``, which
never run (they serve the type checker only). The graph must be acyclic:
``Terrain`` is the front door and may import the subsystems (lazily, inside
its methods), and the subsystems take what they need of a terrain from the
shared modules below, never from ``relfterrain.terrain``.

A private name (``_x``) is imported from another module only from the
designated shared modules, the package's small common base (the binding
``_core`` and the helpers every layer uses).
"""

from __future__ import annotations

import ast
import os

PKG = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "relfterrain")

#: The shared modules: private names may be imported from these (and only these).
SHARED = {"_core", "_extras", "_files", "_params", "_precision", "_seed", "_stats", "_types",
          "_validate", "_version", "_shared"}


def _modules() -> dict[str, ast.Module]:
    out = {}
    for name in sorted(os.listdir(PKG)):
        if name.endswith(".py"):
            with open(os.path.join(PKG, name), encoding="utf-8") as f:
                out[name[:-3]] = ast.parse(f.read(), name)
    return out


def _type_checking(node: ast.AST) -> bool:
    t = node.test if isinstance(node, ast.If) else None
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or \
        (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _walk(node: ast.AST):
    """Every node under ``node``, skipping ``if TYPE_CHECKING:`` bodies."""
    for child in ast.iter_child_nodes(node):
        if _type_checking(child):
            yield from (n for c in child.orelse for n in [c, *_walk(c)])  # type: ignore[attr-defined]
            continue
        yield child
        yield from _walk(child)


def imports(tree: ast.Module, modules: set[str]) -> list[tuple[str, str | None, int]]:
    """``(module, name or None, line)`` for each import of a package module.

    ``from . import x`` gives ``(x, None)`` when x is a module, else
    ``("__init__", x)``; ``from .x import y`` gives ``(x, y)``.
    """
    out: list[tuple[str, str | None, int]] = []
    for node in _walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module is None:
                for a in node.names:
                    if a.name in modules:
                        out.append((a.name, None, node.lineno))
                    else:
                        out.append(("__init__", a.name, node.lineno))
                continue
            if node.level == 1:
                mod = node.module
            elif node.level == 0 and node.module and (node.module == "relfterrain" or
                                                      node.module.startswith("relfterrain.")):
                mod = node.module.split(".", 1)[1] if "." in node.module else "__init__"
            else:
                continue
            assert mod is not None
            top = mod.split(".")[0]
            for a in node.names:
                if mod == "__init__" and a.name in modules:
                    out.append((a.name, None, node.lineno))
                else:
                    out.append((top, a.name, node.lineno))
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("relfterrain."):
                    out.append((a.name.split(".")[1], None, node.lineno))
                elif a.name == "relfterrain":
                    out.append(("__init__", None, node.lineno))
    return out


def graph() -> dict[str, set[str]]:
    trees = _modules()
    names = set(trees) | {"_core"}
    g: dict[str, set[str]] = {m: set() for m in names}
    for m, tree in trees.items():
        for target, _, _ in imports(tree, names):
            if target != m:
                g[m].add(target)
    return g


def find_cycle(g: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``g`` as a list of modules (first == last), or None."""
    colour = dict.fromkeys(g, 0)
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        colour[m] = 1
        stack.append(m)
        for n in sorted(g[m]):
            if colour[n] == 1:
                return stack[stack.index(n):] + [n]
            if colour[n] == 0:
                c = visit(n)
                if c:
                    return c
        stack.pop()
        colour[m] = 2
        return None

    for m in sorted(g):
        if colour[m] == 0:
            c = visit(m)
            if c:
                return c
    return None


def test_finder_sees_a_cycle():
    # the checker itself: a made-up graph with a circle is caught
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_imports_seen_everywhere():
    # the parser sees module-level, function-local and absolute imports,
    # and skips only TYPE_CHECKING blocks
    src = ("from . import a, _b\nfrom .c import d\nimport relfterrain.e\n"
           "from relfterrain.f import g\ndef h():\n    from .i import _j\n"
           "if TYPE_CHECKING:\n    from .k import L\n")
    got = imports(ast.parse(src), {"a", "_b", "c", "e", "f", "i", "k"})
    assert [(m, n) for m, n, _ in got] == [("a", None), ("_b", None), ("c", "d"),
                                            ("e", None), ("f", "g"), ("i", "_j")]


def test_no_import_cycle():
    cycle = find_cycle(graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_private_names_only_from_shared_modules():
    trees = _modules()
    names = set(trees) | {"_core"}
    bad = []
    for m, tree in trees.items():
        for target, name, line in imports(tree, names):
            if target == m or target in SHARED:
                continue
            if name is None and target.startswith("_"):
                bad.append(f"relfterrain/{m}.py:{line}: private module {target}")
            elif name is not None and name.startswith("_") and not name.startswith("__"):
                bad.append(f"relfterrain/{m}.py:{line}: {target}.{name}")
    assert not bad, "private names imported from non-shared modules:\n" + "\n".join(bad)
