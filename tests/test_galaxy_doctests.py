"""The examples in the galaxy's docstrings run and give what they say."""

import doctest

import pytest

import relfterrain._stats
import relfterrain.galaxy


@pytest.mark.parametrize("module", [relfterrain.galaxy, relfterrain._stats])
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
