"""The examples in the docstrings run (as doctests) against the installed package."""

import doctest
import importlib

import pytest

MODULES = ["relfterrain", "relfterrain.terrain", "relfterrain._types", "relfterrain.cli",
           "relfterrain.maps", "relfterrain.mines", "relfterrain.random_profile",
           "relfterrain.presets", "relfterrain.evolve", "relfterrain.nebula",
           "relfterrain.planet", "relfterrain.streams", "relfterrain.sites",
           "relfterrain.roads", "relfterrain.features", "relfterrain._params",
           "relfterrain._files", "relfterrain.mathjs", "relfterrain.classic",
           "relfterrain.galaxy", "relfterrain.tiles", "relfterrain.serve",
           "relfterrain.explorer", "relfterrain.plot", "relfterrain._fields"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    if name in ("relfterrain", "relfterrain.terrain"):
        assert result.attempted > 0  # the examples are really there


def test_every_public_function_documented():
    import relfterrain as rt

    for name in rt.__all__:
        obj = getattr(rt, name)
        if callable(obj):
            assert obj.__doc__, f"{name} has no docstring"
    for name in dir(rt.Terrain):
        if not name.startswith("_"):
            assert getattr(rt.Terrain, name).__doc__, f"Terrain.{name} has no docstring"


def _named_results():
    import importlib
    import pkgutil

    import relfterrain as rt

    seen = {}
    modules = [rt] + [importlib.import_module(f"relfterrain.{info.name}")
                      for info in pkgutil.iter_modules(rt.__path__)
                      if not info.name.startswith("_")]
    for module in modules:
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if isinstance(obj, type) and issubclass(obj, tuple) and hasattr(obj, "_fields"):
                seen.setdefault(obj, f"{module.__name__}.{name}")
    return seen


def test_every_field_of_every_named_result_is_documented():
    # help(rt.Stream) must say what each field holds, not "Alias for field number 0"
    named = _named_results()
    assert len(named) >= 25
    for cls, where in named.items():
        assert cls.__doc__ and not cls.__doc__.startswith(cls.__name__ + "("), where
        for field in cls._fields:
            doc = getattr(cls, field).__doc__ or ""
            assert doc and not doc.startswith("Alias for field"), \
                f"{where}.{field} has no docstring: decorate {cls.__name__} with " \
                "relfterrain._fields.documented(field=\"what it holds\", ...)"


def test_sites_explains_its_codes():
    import relfterrain as rt

    doc = rt.Sites.__doc__
    for word in ("SiteReason.NONE", "SiteReason.DRY", "SiteReason.SPIRAL", "bitmask", "63"):
        assert word in doc
    for criterion in rt.sites.CRITERIA:
        assert criterion.split(") ")[1].split()[0] in doc
    assert "criterion" in rt.Sites.criteria.__doc__ and "SiteReason" in rt.Sites.reason.__doc__


def test_documented_refuses_a_field_without_a_docstring():
    from typing import NamedTuple

    from relfterrain._fields import documented

    with pytest.raises(TypeError, match=r"fields without a docstring \['y'\]"):
        @documented(x="east")
        class P(NamedTuple):
            x: float
            y: float
