"""Mines, caverns and cave mouths (SPEC 8) against tests/mines_reference.py."""

import mines_reference as MR
import numpy as np
import pytest
import reference as R
from helpers import assert_f64_exact, bits
from hypothesis import given
from hypothesis import strategies as st

import relfterrain as rt

# A generated MINE of the classic terrain, and the cell block around it.
MINE_POINT = (23574, 5539)
BLOCK = (23536, 5504, 5, 4)  # xg0, yg0, ncx, ncy (cs 16): holds the mine's cell


def ref_block(mines, xg0, yg0, ncx, ncy, placed=None, shafts=True):
    kw = {"variant": mines.variant, "threshold": mines.threshold, "cs": mines.cell_size,
              "placed": placed, "shafts": shafts}
    return np.array(MR.open_block(R.CLASSIC, xg0, yg0, ncx, ncy, mines.levels, **kw), dtype=bool)


def test_reference_mine_point_is_a_mine():
    assert R.terra(R.CLASSIC, *MINE_POINT)[2] == R.F_MINE
    assert MR.cell_of(*MINE_POINT) == (23568, 5536)


@pytest.mark.parametrize("variant", ["classic", "sincos"])
@pytest.mark.parametrize("threshold, levels", [(0.4, 1), (0.5, 3), (0.0, 2), (0.93, 1)])
def test_open_blocks_equal_reference(variant, threshold, levels):
    m = rt.Mines(rt.Terrain(), variant=variant, threshold=threshold, levels=levels)
    want = ref_block(m, *BLOCK)
    got = m.open_grid(*BLOCK, level=None)
    assert got.dtype == np.bool_ and got.shape == (levels, BLOCK[3], BLOCK[2])
    assert np.array_equal(got, want)
    for k in range(levels):
        assert np.array_equal(m.open_grid(*BLOCK, level=k), want[k])
    above = np.array(MR.above_block(R.CLASSIC, *BLOCK), dtype=bool)
    assert above.sum() == 1  # the mine's cell
    assert np.array_equal(m.open_above_grid(*BLOCK), above)


@pytest.mark.parametrize("cs, xg0, yg0", [(5, 23570, 5535), (1, 23572, 5537), (7, -21, -14),
                                          (16, -32, -16)])
def test_cell_sizes_and_axes(cs, xg0, yg0):
    m = rt.Mines(rt.Terrain(), cell_size=cs, levels=2)
    want = ref_block(m, xg0, yg0, 4, 3)
    assert np.array_equal(m.open_grid(xg0, yg0, 4, 3, level=None), want)


def test_placed_mine_and_hidden_shaft():
    t = rt.Terrain()
    m = rt.Mines(t)
    t.place(*MINE_POINT, rt.Feature.NONE)          # hides the shaft
    t.place(23545, 5510, rt.Feature.MINE)          # a new one elsewhere
    t.place(23560, 5530, rt.TerrainType.ROAD)
    placed = {MINE_POINT: ("F", R.F_NONE), (23545, 5510): ("F", R.F_MINE),
              (23560, 5530): ("T", R.ROAD)}
    above = np.array(MR.above_block(R.CLASSIC, *BLOCK, placed=placed), dtype=bool)
    got = m.open_above_grid(*BLOCK)
    assert np.array_equal(got, above)
    assert not m.open_above(*MINE_POINT) and m.open_above(23545, 5510)
    assert np.array_equal(m.open_grid(*BLOCK), ref_block(m, *BLOCK, placed=placed)[0])


def test_shafts_of_long_rows():
    # rows of more than 65536 points hold many periods of the profile sums,
    # which the scan computes once per row: against the NumPy transcription,
    # itself checked against the scalar one on a small block first
    placed = {MINE_POINT: ("F", R.F_NONE), (23545, 5510): ("F", R.F_MINE),
              (23560, 5530): ("T", R.ROAD), (90000, 5520): ("F", R.F_MINE)}
    assert MR.above_block_numpy(R.CLASSIC, *BLOCK, placed=placed) == \
        MR.above_block(R.CLASSIC, *BLOCK, placed=placed)
    t = rt.Terrain()
    for (x, y), (kind, code) in placed.items():
        t.place(x, y, rt.Feature(code) if kind == "F" else rt.TerrainType(code))
    for cs, (xg0, yg0, ncx, ncy) in ((16, (23392, 5504, 4200, 2)), (16, (-40000, -4096, 4200, 1)),
                                     (1, (-30000, 1 << 20, 70000, 3))):
        want = np.array(MR.above_block_numpy(R.CLASSIC, xg0, yg0, ncx, ncy, cs, placed), dtype=bool)
        assert want.any()
        for threads in (1, 2):
            got = rt.Mines(t, cell_size=cs).open_above_grid(xg0, yg0, ncx, ncy, threads=threads)
            assert np.array_equal(got, want), (cs, xg0, yg0, threads)


def test_single_cell_calls():
    m = rt.Mines(rt.Terrain(), levels=2)
    assert m.cell_of(23575.9, 5544.0) == MR.cell_of(23575.9, 5544.0) == (23568, 5552)
    assert m.cell_of(-8.0, 7.99) == MR.cell_of(-8.0, 7.99)
    assert m.open_above(*MINE_POINT) is True
    assert m.is_open(*MINE_POINT) is True
    xg, yg = m.cell_of(*MINE_POINT)
    assert m.is_open(*MINE_POINT, level=1) == MR.is_open(R.CLASSIC, xg, yg, 1)
    assert m.is_open(0, 0) is False  # u = 0 along the axes


def canonical_check(labels, count, open3):
    want, n = MR.flood_labels(open3.tolist())
    assert count == n
    assert labels.dtype == np.int32
    assert np.array_equal(labels, np.array(want, dtype=np.int32))


@pytest.mark.parametrize("variant, levels", [("classic", 1), ("sincos", 1), ("classic", 3),
                                             ("sincos", 2)])
def test_labels_equal_flood_fill(variant, levels):
    m = rt.Mines(rt.Terrain(), variant=variant, levels=levels)
    lab = m.label(23392, 5312, 40, 30, shafts=False)
    want_open = ref_block(m, 23392, 5312, 40, 30, shafts=False)
    assert np.array_equal(lab.open, want_open)
    canonical_check(lab.labels, lab.n_mines, want_open)
    assert lab.sizes.sum() == want_open.size and lab.sizes[0] == (~want_open).sum()
    assert not lab.reachable.any()


def test_labels_with_shafts_and_reachability():
    m = rt.Mines(rt.Terrain(), levels=2)
    lab = m.label(*BLOCK)
    want_open = ref_block(m, *BLOCK)
    canonical_check(lab.labels, lab.n_mines, want_open)
    above = np.array(MR.above_block(R.CLASSIC, *BLOCK), dtype=bool)
    want_reach = set(np.array(MR.flood_labels(want_open.tolist())[0])[0][above].tolist())
    assert set(np.flatnonzero(lab.reachable).tolist()) == want_reach
    assert lab.shafts.sum() == above.sum()
    assert np.array_equal(lab.reachable_cells(), np.isin(lab.labels, list(want_reach)))


@given(st.integers(1, 3), st.integers(1, 9), st.integers(1, 9), st.integers(0, 2**32 - 1),
       st.floats(0.05, 0.95))
def test_label_cells_random_masks(nz, ny, nx, seed, p):
    mask = np.random.default_rng(seed).random((nz, ny, nx)) < p
    labels, count = rt.label_cells(mask, threads=1 + seed % 3)
    canonical_check(labels, count, mask)


def test_label_cells_against_scipy():
    ndimage = pytest.importorskip("scipy.ndimage")
    mask = np.random.default_rng(5).random((300, 200)) < 0.59
    labels, count = rt.label_cells(mask)
    sl, sn = ndimage.label(mask)
    assert sn == count
    # same partition: a one-to-one map between the numberings
    pairs = np.unique(np.stack([labels[mask], sl[mask]]), axis=1)
    assert pairs.shape[1] == count
    # canonical: first appearances in C order are 1, 2, 3, ...
    flat = labels.ravel()
    first = flat[np.sort(np.unique(flat, return_index=True)[1])]
    assert np.array_equal(first[first > 0], np.arange(1, count + 1))


def test_threads_same_bits():
    m = rt.Mines(rt.Terrain(), variant="sincos", levels=2, threshold=0.45)
    base = m.label(23392, 5312, 70, 53, threads=1)
    for th in (2, 3, 5):
        lab = m.label(23392, 5312, 70, 53, threads=th)
        assert np.array_equal(lab.labels, base.labels)
        assert np.array_equal(lab.above, base.above)
        assert np.array_equal(m.open_grid(23392, 5312, 70, 53, level=None, threads=th),
                              base.open)
    cv = rt.Caverns(rt.Terrain(), scale=0.7, dz=5)
    s1 = cv.space_grid(23396, 5318, 90, 41, 0.5, threads=1)
    for th in (2, 3):
        assert np.array_equal(bits(cv.space_grid(23396, 5318, 90, 41, 0.5, threads=th)), bits(s1))


@pytest.mark.parametrize("params, step", [((1.0, 64.0, 32.0, 0.0), 1.0),
                                          ((0.3, 64.5, -32.0, 3.0), 0.25),
                                          ((-2.0, 1.0, 2.0, -1.0), 1.0),
                                          ((1.5, 0.1, 0.2, 7.5), 0.3)])
def test_caverns_equal_reference(params, step):
    scale, dx, dy, dz = params
    cv = rt.Caverns(rt.Terrain(), scale, dx, dy, dz)
    floor, roof, space = MR.caverns(R.CLASSIC, 23396.0, 5318.0, 23, 7, step, scale, dx, dy, dz)
    assert_f64_exact(cv.floor_grid(23396, 5318, 23, 7, step), floor, "floor")
    assert_f64_exact(cv.roof_grid(23396, 5318, 23, 7, step), roof, "roof")
    assert_f64_exact(cv.space_grid(23396, 5318, 23, 7, step), space, "space")
    kinds.update(np.sign(np.array(space)).ravel().tolist())


kinds: set = set()


def test_caverns_cases_were_not_trivial():
    # runs after the parametrized cases: some space open, some closed
    assert kinds == {0.0, 1.0}


def test_caverns_out():
    cv = rt.Caverns(rt.Terrain())
    out = np.full((3, 4), np.nan)
    assert cv.space_grid(0, 0, 4, 3, out=out) is out
    assert_f64_exact(out, MR.caverns(R.CLASSIC, 0.0, 0.0, 4, 3)[2])


@pytest.mark.parametrize("steepness", [-1.0, 1.0, 2.5])
def test_cave_mouths_equal_reference(steepness):
    t = rt.Terrain()
    t.place(23590, 5520, rt.Feature.MINE)
    placed = {(23590, 5520): ("F", R.F_MINE)}
    m = rt.Mines(t)
    want = MR.cave_mouths(R.CLASSIC, 23560, 5515, 40, 30, steepness, placed)
    got = m.cave_mouths(23560, 5515, 40, 30, steepness)
    assert [(int(x), int(y)) for x, y, _ in want] == list(zip(got.x.tolist(), got.y.tolist()))
    assert_f64_exact(got.slope, [s for _, _, s in want], "slope")
    if steepness < 0:
        assert len(want) == 2


def test_percolation_rows():
    m = rt.Mines(rt.Terrain())
    rows = m.percolation([24, 40], [0.4, 0.6], xg0=23392, yg0=5312, threads=2)
    assert [(r.size, r.threshold) for r in rows] == [(24, 0.4), (24, 0.6), (40, 0.4), (40, 0.6)]
    lab = m.label(23392, 5312, 40, 40)
    r = rows[2]
    n_open = lab.open.sum()
    assert r.open_share == n_open / 1600
    assert r.mines == lab.n_mines
    assert r.largest_share == lab.sizes[1:].max() / n_open
    l0 = lab.labels[0]
    assert r.spans_we == bool(set(l0[:, 0].tolist()) & set(l0[:, -1].tolist()) - {0})
    assert r.spans_sn == bool(set(l0[0].tolist()) & set(l0[-1].tolist()) - {0})
    assert rows[3].open_share < rows[2].open_share


@pytest.mark.parametrize("kwargs, name, exc", [
    ({"threshold": 1.0}, "threshold", ValueError),
    ({"threshold": -0.1}, "threshold", ValueError),
    ({"threshold": float("nan")}, "threshold", ValueError),
    ({"cell_size": 0}, "cell_size", ValueError),
    ({"cell_size": 5000}, "cell_size", ValueError),
    ({"cell_size": 2.5}, "cell_size", TypeError),
    ({"levels": 0}, "levels", ValueError),
    ({"variant": "cos"}, "variant", ValueError),
])
def test_bad_mines(kwargs, name, exc):
    with pytest.raises(exc, match=name):
        rt.Mines(rt.Terrain(), **kwargs)


def test_bad_blocks():
    m = rt.Mines(rt.Terrain())
    with pytest.raises(ValueError, match="xg0"):
        m.open_grid(8, 0, 2, 2)
    with pytest.raises(ValueError, match="ncx"):
        m.open_grid(0, 0, 0, 2)
    with pytest.raises(ValueError, match="xg0"):
        m.open_grid(2**52, 0, 2, 2)
    with pytest.raises(ValueError, match="ncx, ncy"):
        m.label(0, 0, 50000, 50000)
    with pytest.raises(MemoryError, match="ncx"):
        m.open_grid(0, 0, 2**40, 2**40, shafts=False)
    with pytest.raises(ValueError, match="level"):
        m.open_grid(0, 0, 2, 2, level=1)
    with pytest.raises(ValueError, match="steepness"):
        m.cave_mouths(0, 0, 2, 2, float("inf"))
    with pytest.raises(TypeError, match="terrain"):
        rt.Mines(object())
    with pytest.raises(ValueError, match="scale"):
        rt.Caverns(rt.Terrain(), scale=float("inf"))
    with pytest.raises(ValueError, match="step"):
        rt.Caverns(rt.Terrain()).space_grid(0, 0, 2, 2, 0)
    with pytest.raises(ValueError, match="open"):
        rt.label_cells(np.zeros(5))
    with pytest.raises(ValueError, match="sizes"):
        m.percolation([0])
    with pytest.raises(ValueError, match="thresholds"):
        m.percolation([4], [1.5])


def test_terrain_wrappers():
    t = rt.Terrain()
    assert isinstance(t.mines(levels=2), rt.Mines) and t.mines(levels=2).levels == 2
    assert isinstance(t.caverns(dz=3), rt.Caverns)
