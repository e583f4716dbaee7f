"""Every SIMD variant of the grid kernels gives the scalar variant's bits.

(The scalar variant itself is compared with the independent transcription of
the seed in test_exact.py and test_properties.py; "auto" is what those use.)
"""

import numpy as np
import pytest

import relfterrain as rt
from relfterrain import Feature, TerrainType

VARIANTS = rt.simd_variants()
OTHERS = [v for v in VARIANTS if v != "scalar"]

# integer and dyadic grids (the tile paths) and an irrational step (the point
# path); widths that leave tails of every size after 64-column blocks
GRIDS = [
    (23396, 5318, 800, 600, 1.0),
    (23396, 5318, 131, 37, 1.0),
    (-1000.5, -20.25, 203, 19, 0.25),
    (24000, 5500, 70, 50, 0.0625),
    # the finest dyadic steps the 16-bit byte-window sums take (s = 12) and
    # the first they leave to the 32-bit windows (s = 13)
    (24000.5, 5500.25, 97, 9, 0.5),  # s = 8: the last with the odd indices pre-shifted
    (24000.5, 5500.25, 97, 9, 1 / 32),
    # the VBMI kernels' 64-byte windows: s = 10 (the last they take, the odd
    # indices shifted down) and s = 11 (left to the 16-byte ones), with
    # tails of 64 columns left to the 16-byte windows and of 8 to neither
    (24000.5, 5500.25, 200, 9, 1 / 8),
    (24000.5, 5500.25, 233, 5, 1 / 16),
    (-24000.5, 5500.25, 97, 9, 1 / 64),
    (23396.3, 5318.7, 65, 33, 0.3),
    (2**26 - 300, -(2**26), 300, 8, 1.0),
    (-5, -5, 11, 11, 1.0),  # the axes: xr*yr = 0
    # non-dyadic steps: the point-path rows (AVX2 doubles, windows or gathers)
    (23396, 5318, 203, 21, 0.37),
    (23396.5, 5318, 131, 17, 1 / 3),
    (-8000.7, 123.3, 67, 13, 2.9),
    (6.0e7 + 0.3, -6.7e7, 45, 9, 0.37),  # large |j|
    # windows too wide for one register (|dv| > 2^s): the gather fallback
    (23396, 5318, 77, 21, 4.0),
    (-4000, 5318, 129, 17, 2.0),
    # rows wider than a tile (2048 columns) and than the pieces of 512 some
    # paths take: at steps that take the windows and the gathers
    (23396, 5318, 2100, 2, 1.0),
    (23396, 5318, 1100, 2, 4.0),
]

PROFILE64 = [float((k * 37) % 91) - 30.0 for k in range(64)]  # integers, negative too
PROFILE128 = [float((k * 29) % 83) for k in range(128)]       # bytes, length 128

CONFIGS = {
    "classic": {},
    "islands": {"lake_height": 230.0},
    "drained": {"lake_height": 190.0},
    "options": {"with_paths": True, "mountain_base": 300.0, "snow_height": 480.0},
    "wood_only": {"wood_only": True},
    "bleak": {"bleak": True},
    "mask": {"feature_mask": 0xFF},
    "odd_mask": {"feature_mask": 0x5FF},
    "profile64": {"profile": PROFILE64, "ah": [3, -7, 11], "bh": [5, 2, -9], "a1": [1, 2, 3],
                  "b1": [4, 5, 6], "a2": [-7, 8, 9], "b2": [10, -11, 12], "a3": [13, 14, -15],
                  "b3": [16, 17, 18], "lake_base": -20.0},
    "profile128": {"profile": PROFILE128},
    "fractional": {"profile": [v / 8 for v in PROFILE128]},
    # integers beyond int16 (no rotated windows), long and short profiles
    "profile_big": {"profile": [float((k * 7919) % 60001 - 30000) for k in range(64)]},
    "profile1024": {"profile": [float((k * 131) % 255) for k in range(1024)]},
    "profile4": {"profile": [0.0, 50.0, 100.0, 150.0]},
    # byte windows: a span of exactly 255 (taken) and of 256 (left to the
    # 32-bit windows), negative values, length 256
    "span255": {"profile": [float((k * 97) % 256) - 100.0 for k in range(256)]},
    "span256": {"profile": [float((k * 97) % 256) - 100.0 for k in range(255)] + [156.0]},
    "thresholds": {"town_below": 150.5, "grass_below": 240.0, "open_below": 270.25,
                   "thicket_below": 180.0, "mine_below": 64, "x_below": 32, "cone_below": 24,
                   "lake_base": 210.5, "lake_height": 207.25},
    # a one-bit feature mask and a point code of 1: every fa*xr*yr = 64 (mod
    # 128) on dry ground decides between a point feature and none, so the
    # rounding of the integer feature value (N + 64) >> 7 shows
    "feature_bit": {"feature_mask": 1, "feature_point": 1, "feature_x": 2, "feature_cone": 2},
    # thresholds below and above every sum (the 16-bit classify clamps them)
    "all_town": {"town_below": 1.0e6},
    "veg_extremes": {"town_below": -1.0e6, "grass_below": 1.0e6, "open_below": -1.0e6,
                     "thicket_below": 1.0e6},
    "veg_extremes2": {"grass_below": -1.0e6, "open_below": 1.0e6, "thicket_below": -1.0e6},
    # thresholds just below the smallest sum, which a quarter of the entries
    # of each direction reach: no point below them, the many at the minimum
    # included
    "at_minimum": {"profile": [0.0, 50.0, 100.0, 150.0], "town_below": -1.0, "grass_below": -1.0,
                   "open_below": -1.0, "thicket_below": -1.0},
    # one pair moving faster than the byte windows take at step 2 (|a| * 2 >
    # 2^7) while the others do not: the first, second or third of the
    # vegetation pairs (the 16-bit form for all three, or for none)
    **{f"fast_pair{q}": {"profile": PROFILE128, "ah": [3, -7, 11], "bh": [5, 2, -9],
                         "a1": [1, 2, 3], "b1": [4, 5, 6], "a2": [-7, 8, 9], "b2": [10, -11, 12],
                         "a3": [13, 14, -15], "b3": [16, 17, 18], f"a{q}": [90, -3, 5]}
       for q in (1, 2, 3)},
    # pairs moving one index a column at step 1 (|a| = 2^7 = 2^s: 64
    # columns span exactly the 64 entries of a VBMI window; 2 at step 2) and
    # one past it (|a| = 129: the gathers)
    "dv_edge": {"profile": PROFILE128, "ah": [3, -7, 11], "bh": [5, 2, -9], "a1": [128, -128, 3],
                "b1": [4, 5, 6], "a2": [-128, 8, 128], "b2": [10, -11, 12], "a3": [13, 14, -15],
                "b3": [16, 17, 18]},
    "dv_past": {"profile": PROFILE128, "a2": [-129, 8, 5, 7, 9], "b2": [10, -11, 12, 1, 2]},
    # more directions than the VBMI profile sums keep in registers (6)
    "eight_directions": {"profile": PROFILE128,
                         **{k: [((i * 37 + 11 * j) % 121) - 60 for i in range(8)]
                            for j, k in enumerate(("ah", "bh", "a1", "b1", "a2", "b2", "a3", "b3"))}},
    # SPEC 17: terrain00.js (2026) as shipped, the classic model as it computes it
    # (the JavaScript calcProf differs at negative fractional points), and its
    # rules on the classic model where the classic ground reaches them
    "forest_2026": rt.presets.preset_params("forest_2026").to_dict(),
    "calc_js": {"calc_prof": "js", "x_below": 32},
    "rock_quarry": {"rock_above": 430.0, "quarry_below": 200.0, "quarry_depth": 12.5,
                    "quarry_min_height": 260.0, "mountain_base": 400.0},
    "poe_rules": {"snow_height": 450.0, "snow_keeps_feature": True,
                  "pi10000": 3.141592653589793 * 1000 * 10, "cone_below": 128,
                  "with_paths": True, "path_height": "raw", "mountain_base": 380.0},
    # Pieces of Eight's rules (SPEC 16): the town test on |calcProf(A1)|
    "town_abs": {"profile": PROFILE64, "ah": [3, -7, 11], "bh": [5, 2, -9], "a1": [1, 2, 3],
                 "b1": [4, 5, 6], "a2": [-7, 8, 9], "b2": [10, -11, 12], "a3": [13, 14, -15],
                 "b3": [16, 17, 18], "lake_base": -20.0, "town_abs": True, "town_below": 9.5,
                 "grass_below": 20.0, "open_below": 20.0, "thicket_below": -50.0,
                 "mine_below": 64, "x_below": 32, "cone_below": 24},
}


def _terrain(config, simd):
    return rt.Terrain(simd=simd, **CONFIGS[config])


def _same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def test_variants_listed():
    assert VARIANTS[0] == "scalar"
    assert set(VARIANTS) <= {"scalar", "avx2", "avx512", "avx512vbmi", "neon"}
    t = rt.Terrain(simd="scalar")
    assert t.simd == "scalar"
    with pytest.raises(ValueError, match="simd"):
        rt.Terrain(simd="sse9")
    with pytest.raises(ValueError, match="simd"):
        t.simd = "nope"


def test_environment_variable_picks_the_variant(monkeypatch):
    monkeypatch.setenv("RELFTERRAIN_SIMD", "scalar")
    assert rt.Terrain().simd == "scalar"
    monkeypatch.setenv("RELFTERRAIN_SIMD", "bogus")
    with pytest.raises(ValueError, match="simd"):
        rt.Terrain()


@pytest.mark.parametrize("variant", OTHERS)
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_variant_equals_scalar(variant, config):
    scalar = _terrain(config, "scalar")
    fast = _terrain(config, variant)
    for (x0, y0, nx, ny, step) in GRIDS:
        for threads in (1, 2):
            a = scalar.grid(x0, y0, nx, ny, step, threads=1)
            b = fast.grid(x0, y0, nx, ny, step, threads=threads)
            for name in ("height", "depth", "terrain", "feature"):
                assert _same(getattr(a, name), getattr(b, name)), (variant, config, name, x0)
            assert _same(scalar.height_grid(x0, y0, nx, ny, step),
                         fast.height_grid(x0, y0, nx, ny, step, threads=threads))


OFFSET_GRIDS = [(23396, 5318, 0.37), (23396, 5318, 1.0), (-1000.5, -20.25, 0.25), (500, 700, 1 / 3)]


@pytest.mark.parametrize("variant", OTHERS)
@pytest.mark.parametrize("config", ["classic", "profile64", "thresholds"])
def test_variant_blocks_with_offsets(variant, config):
    """offset=(row, col) blocks of every variant equal the scalar whole grid."""
    scalar = _terrain(config, "scalar")
    fast = _terrain(config, variant)
    for (x0, y0, step) in OFFSET_GRIDS:
        whole = scalar.grid(x0, y0, 150, 40, step)
        hwhole = scalar.height_grid(x0, y0, 150, 40, step)
        for (r0, c0, nx, ny) in ((0, 37, 113, 40), (13, 5, 61, 9), (39, 149, 1, 1)):
            part = fast.grid(x0, y0, nx, ny, step, offset=(r0, c0))
            for name in ("height", "depth", "terrain", "feature"):
                assert _same(getattr(part, name), getattr(whole, name)[r0:r0 + ny, c0:c0 + nx])
            assert _same(fast.height_grid(x0, y0, nx, ny, step, offset=(r0, c0)),
                         hwhole[r0:r0 + ny, c0:c0 + nx])


@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_honours_placed_table(variant):
    t = rt.Terrain(simd=variant)
    x0, y0 = 23396, 5318
    before = t.grid(x0, y0, 300, 40)
    t.place(x0 + 100, y0 + 20, TerrainType.ROAD)
    t.place(x0 + 299, y0 + 39, Feature.CONE)
    g = t.grid(x0, y0, 300, 40)
    assert g.terrain[20, 100] == TerrainType.ROAD
    assert g.feature[39, 299] == Feature.CONE
    changed = np.argwhere((g.terrain != before.terrain) | (g.feature != before.feature))
    assert {tuple(p) for p in changed.tolist()} <= {(20, 100), (39, 299)}
    s = rt.Terrain(simd="scalar")
    s.place(x0 + 100, y0 + 20, TerrainType.ROAD)
    s.place(x0 + 299, y0 + 39, Feature.CONE)
    assert _same(s.grid(x0, y0, 300, 40).terrain, g.terrain)


@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_classic_map_features(variant):
    g = rt.Terrain(simd=variant).grid(*rt.CLASSIC_MAP)
    assert int((g.feature != Feature.NONE).sum()) == 90


def _aligned_empty(shape, dtype, offset):
    """An array whose data sits `offset` bytes past a 64-byte boundary, filled
    with a value no output holds (NaN, 0xAB), so that a column the kernels
    leave unwritten shows."""
    nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
    buf = np.empty(nbytes + 128, np.uint8)
    start = (offset - buf.ctypes.data) % 64
    a = buf[start:start + nbytes].view(dtype).reshape(shape)
    a.fill(np.nan if np.dtype(dtype).kind == "f" else 0xAB)
    return a


def _grid_outs(ny, nx, offsets):
    """grid's four outputs at these offsets past a 64-byte boundary."""
    dtypes = (np.float64, np.float64, np.uint8, np.uint8)
    return tuple(_aligned_empty((ny, nx), d, o) for d, o in zip(dtypes, offsets))


# the offsets of (height, depth, terrain, feature) the grids are written at:
# lines, 32 bytes (AVX2's aligned streaming stores), 16 past a 32-byte
# boundary (NumPy's large arrays: the shifted streaming stores), 48 (the
# same for AVX2, another start in a line for AVX-512), 8 (plain stores), and
# outputs of different alignments in one call
_GRID_OFFSETS = ((0,) * 4, (32,) * 4, (16,) * 4, (48,) * 4, (8,) * 4,
                 (16, 0, 16, 0), (0, 16, 8, 16), (16, 48, 0, 0))


@pytest.mark.parametrize("variant", OTHERS)
def test_streaming_stores_any_step(variant):
    """The point path's classify pass (any step) streams into large outputs where
    they are aligned for it: the same bits, aligned or not, rows of any width."""
    scalar, fast = rt.Terrain(simd="scalar"), rt.Terrain(simd=variant)
    # > 64 MiB; rows of 2050 and 2045 columns start at other offsets row to row
    for nx, ny, offsets in ((2048, 1900, _GRID_OFFSETS), (2050, 1900, ((0,) * 4, (16,) * 4)),
                            (2045, 1900, ((16,) * 4,))):
        want = scalar.grid(23396.1, 5318.3, nx, ny, 0.37, threads=2)
        for offset in offsets:
            outs = _grid_outs(ny, nx, offset)
            fast.grid(23396.1, 5318.3, nx, ny, 0.37, out=outs, threads=2)
            for name, a in zip(("height", "depth", "terrain", "feature"), outs):
                assert _same(getattr(want, name), a), (variant, nx, offset, name)


@pytest.mark.parametrize("variant", OTHERS)
def test_streaming_stores_any_step_heights(variant):
    """The point path's height rows (any step) stream whole cache lines into
    large outputs wherever a row starts (a row of 2900 doubles moves the line
    boundary by 32 bytes row to row; offsets 0, 16 and 8 past a line): the
    same bits as the scalar variant, heads and tails of the rows included."""
    scalar, fast = rt.Terrain(simd="scalar"), rt.Terrain(simd=variant)
    # 8.4 M and 8.6 M points: 8 bytes a point pass 64 MiB; 3.2 M points pass
    # the point path's 24 MiB (RT_STREAM_POINT_BYTES).  Rows of 4096
    # doubles start alike, so two rows' lines start at the same column s
    # (s = 0, 6, 7 and 2 at offsets 0, 16, 8 and 48: AVX-512's two-row
    # heights then compute columns s + 16k and stream whole lines as they
    # are, the first s columns and the last 16 - s by masked stores)
    for nx, ny, offsets in ((2900, 2900, (0, 16, 8)), (4096, 2100, (0, 16, 8, 48)),
                            (1800, 1800, (16, 8))):
        want = scalar.height_grid(23396.1, 5318.3, nx, ny, 0.37, threads=2)
        for offset in offsets:
            out = _aligned_empty((ny, nx), np.float64, offset)
            out.fill(np.nan)
            fast.height_grid(23396.1, 5318.3, nx, ny, 0.37, out=out, threads=2)
            assert _same(want, out), (variant, nx, offset)
        got = fast.height_grid(23396.1, 5318.3, nx, ny, 0.37, threads=2)  # fresh: on a line
        assert _same(want, got), (variant, nx)


# outputs past 64 MiB are written with streaming stores where the kernels
# have them and the arrays are aligned for them (16 or 32 bytes), with plain
# stores where not (8): every way gives the bits of the scalar variant
@pytest.mark.parametrize("variant", OTHERS)
def test_streaming_stores_give_the_same_bits(variant):
    scalar, fast = rt.Terrain(simd="scalar"), rt.Terrain(simd=variant)
    # 3.9 M points: grid's 18 bytes a point pass 64 MiB; rows of 2050 and
    # 2045 columns start at other offsets row to row
    for nx, ny, offsets in ((2048, 1900, _GRID_OFFSETS), (2050, 1900, ((16,) * 4,)),
                            (2045, 1900, ((16,) * 4,))):
        want = scalar.grid(23396, 5318, nx, ny)
        for offset in offsets:
            outs = _grid_outs(ny, nx, offset)
            got = fast.grid(23396, 5318, nx, ny, out=outs, threads=2)
            for name, a in zip(("height", "depth", "terrain", "feature"), outs):
                assert _same(getattr(want, name), a), (variant, nx, offset, name)
                assert _same(getattr(got, name), a)
    # 8.4 M points: height_grid's 8 bytes a point pass 64 MiB; 16 and 48
    # bytes past a line: the shifted 32-byte streaming stores of the step-1
    # heights (AW_DOUBLE_NTS), each run's first and last 16 bytes alone; rows
    # of 2900 doubles move the line boundary by 32 bytes row to row, rows of
    # 2901 by 40
    for nx, ny, offsets in ((2900, 2900, (0, 16, 48, 8)), (2901, 2900, (16,))):
        want_h = scalar.height_grid(23396, 5318, nx, ny)
        for offset in offsets:
            out = _aligned_empty((ny, nx), np.float64, offset)
            out.fill(np.nan)
            fast.height_grid(23396, 5318, nx, ny, out=out, threads=2)
            assert _same(want_h, out), (variant, nx, offset)
