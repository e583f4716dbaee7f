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
           "relfterrain.explorer", "relfterrain.plot"]


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
