"""One rule, one message: a bad profile, grid block or output array gets the
same words whichever layer or path meets it first.

The profile's rule lives in the binding (``rtpy_profile_check``, exposed as
``relfterrain._core.check_profile``), used by every constructor that takes a
profile and by the Python parameter checks; a grid block's size rules have
the same words in ``_validate.grid_args`` and the binding's guard; float32
outputs go through the binding's output checks like float64 ones.
"""

from __future__ import annotations

import numpy as np
import pytest

import relfterrain as rt
from relfterrain import _core

BAD_PROFILES = [
    (np.zeros(3), "profile: length must be a power of two between 1 and 2**24, got 3"),
    (np.zeros(0), "profile: length must be a power of two between 1 and 2**24, got 0"),
    (np.array([1.0, np.nan]), "profile: values must be finite, index 1 is nan"),
    (np.array([0.0, 1.0, 2.0, -np.inf]), "profile: values must be finite, index 3 is -inf"),
]


def _message(f) -> tuple[type, str]:
    with pytest.raises(Exception) as e:  # the type is compared by the caller
        f()
    return e.type, str(e.value)


@pytest.mark.parametrize("profile, want", BAD_PROFILES)
def test_profile_message_everywhere(profile, want):
    (prof, vec), kw = rt.Terrain().params.core_args()
    makers = {
        "Terrain": lambda: rt.Terrain(profile=profile),
        "TerrainParams": lambda: rt.TerrainParams(profile=profile),
        "Terrain.replace": lambda: rt.Terrain().replace(profile=profile),
        "Galaxy": lambda: rt.Galaxy(profile=profile),
        "GalaxyParams": lambda: rt.GalaxyParams(profile=profile),
        "Nebula": lambda: rt.Nebula(450.0, profile=profile),
        "Planet": lambda: rt.Planet(100.0, profile=profile),
        "_core.check_profile": lambda: _core.check_profile(profile),
        "_core.TerrainCore": lambda: _core.TerrainCore(profile, vec, **kw),
    }
    got = {name: _message(f) for name, f in makers.items()}
    assert got == dict.fromkeys(makers, (ValueError, want))


def test_good_profiles_pass():
    for n in (1, 2, 256, 4096):
        _core.check_profile(np.arange(n, dtype=np.float64))
    assert rt.Terrain(profile=np.zeros(1)).height(0, 0) == 0.0


@pytest.mark.parametrize("nx, ny, want", [(0, 5, "nx: must be >= 1, got 0"),
                                          (5, 0, "ny: must be >= 1, got 0"),
                                          (-3, 5, "nx: must be >= 1, got -3")])
def test_grid_size_message_in_both_layers(nx, ny, want):
    t = rt.Terrain()
    paths = {
        "height_grid": lambda: t.height_grid(0, 0, nx, ny),
        "grid": lambda: t.grid(0, 0, nx, ny),
        "grid float32": lambda: t.grid(0, 0, nx, ny, dtype="float32"),
        "_core.height_grid": lambda: t._core.height_grid(0.0, 0.0, nx, ny),
        "_core.terra_grid": lambda: t._core.terra_grid(0.0, 0.0, nx, ny),
        "_core.height_grid float32": lambda: t._core.height_grid(0.0, 0.0, nx, ny, float32=True),
    }
    got = {name: _message(f) for name, f in paths.items()}
    assert got == dict.fromkeys(paths, (ValueError, want))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_output_messages_same_for_both_dtypes(dtype):
    t = rt.Terrain()
    name = np.dtype(dtype).name
    u8 = np.zeros((2, 3), np.uint8)
    cases = [
        (lambda: t.height_grid(0, 0, 4, 2, out=np.zeros((2, 3), dtype), dtype=dtype),
         ValueError, "out: shape must be (2, 4), got (2, 3)"),
        (lambda: t.height_grid(0, 0, 3, 2, out=np.zeros((3, 2), dtype).T, dtype=dtype),
         ValueError, "out: must be C-contiguous and aligned"),
        (lambda: t.grid(0, 0, 3, 2, out=(np.zeros((2, 3), dtype),) * 2 + (u8, np.zeros_like(u8)),
                        dtype=dtype),
         ValueError, "out.height, out.depth: output arrays must not share memory"),
        (lambda: t.grid(0, 0, 3, 2, out=(np.zeros((2, 3), dtype), np.zeros((2, 3), np.int32),
                                         u8, np.zeros_like(u8)), dtype=dtype),
         TypeError, f"out.depth: dtype must be {name}, got int32"),
        (lambda: t.grid(0, 0, 3, 2, out=(np.zeros((2, 3), dtype), np.zeros((2, 3), dtype),
                                         np.zeros((2, 3), np.int8), np.zeros_like(u8)),
                        dtype=dtype),
         TypeError, "out.terrain: dtype must be uint8, got int8"),
    ]
    for f, exc, want in cases:
        assert _message(f) == (exc, want)


def test_band_argument_gone():
    # float32 grids are rounded row by row by the core: no band to choose
    with pytest.raises(TypeError, match="band"):
        rt.Terrain()._core.terra_grid(0.0, 0.0, 3, 2, float32=True, band=5)
    with pytest.raises(TypeError, match="band"):
        rt.Terrain()._core.height_grid(0.0, 0.0, 3, 2, float32=True, band=5)
