"""Maps as pictures (SPEC 15): colours, orientation, contours, layers, PNG, widgets.

The expectations are built here from SPEC 15 (an independent palette table,
an independent CONREC band check, contourpy as a second CONREC) and from the
terrain's own grids, never from relfterrain.maps' internals.
"""

import io
import math
import os
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import relfterrain as rt
from relfterrain import maps

PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

T = rt.TerrainType
X0, Y0, NX, NY = rt.CLASSIC_MAP

# SPEC 15, the author's colours, and ISOM 2017-2 (OpenOrienteering Mapper's
# "ISOM 2017-2_15000.omap" RGB values, rounded: yellow 1/.73/.21, yellow 50 %
# 1/.865/.605, green 100 % .24/1/.09, blue 100 % 0/1/1, blue 50 % .5/1/1,
# brown 50 % .91/.68/.5, yellow 100 %/green 50 % .62/.73/.114, black 25 % .75).
RELF = {
    T.LAKE: (0, 170, 231), T.TOWN: (153, 153, 153), T.GRASS: (253, 183, 59),
    T.MOOR: (192, 192, 127), T.WOOD: (255, 255, 255), T.THICKET: (0, 128, 0),
    T.ROAD: (200, 200, 200), T.MUD: (92, 39, 14), T.PATH: (153, 153, 153),
    T.STREAM: (0, 170, 231), T.MARSH: (0, 170, 231), T.SNOW: (230, 240, 255),
    T.QUARRY: (181, 160, 132),  # SPEC 17's quarry: the project's pale stone
}
ISOM = {
    T.LAKE: (0, 255, 255), T.TOWN: (158, 186, 29), T.GRASS: (255, 186, 54),
    T.MOOR: (255, 221, 154), T.WOOD: (255, 255, 255), T.THICKET: (61, 255, 23),
    T.ROAD: (232, 173, 128), T.MUD: (128, 255, 255), T.PATH: (191, 191, 191),
    T.STREAM: (0, 255, 255), T.MARSH: (0, 255, 255), T.SNOW: (230, 240, 255),
    T.QUARRY: (178, 178, 178),  # 214 bare rock: black 30 %
}
CONTOUR = {"relf": (184, 78, 27), "isom": (209, 92, 0)}
TABLES = {"relf": RELF, "isom": ISOM}
BARE = {"contours": False, "features": False, "buildings": False}


@pytest.fixture(scope="module")
def terrain():
    return rt.Terrain()


@pytest.fixture(scope="module")
def classic(terrain):
    return terrain.grid(X0, Y0, NX, NY)


def expected_colours(codes, table):
    """Palette colours of a south-up grid of codes, north up."""
    lut = np.array([table[k] for k in T], dtype=np.uint8)
    return lut[codes[::-1]]


def strict_band_cells(z, interval):
    """Cells whose four corners and centre lie strictly inside one band (k*I, (k+1)*I)."""
    c = [z[:-1, :-1], z[:-1, 1:], z[1:, 1:], z[1:, :-1]]
    centre = (c[0] + c[1] + c[2] + c[3]) / 4.0
    vals = np.stack(c + [centre])
    lo = vals.min(axis=0)
    hi = vals.max(axis=0)
    k = np.floor(lo / interval)
    return (lo > k * interval) & (hi < (k + 1) * interval)


def corners_of(cells):
    """Grid points that are a corner of at least one of the given cells."""
    ny, nx = cells.shape[0] + 1, cells.shape[1] + 1
    out = np.zeros((ny, nx), bool)
    out[:-1, :-1] |= cells
    out[:-1, 1:] |= cells
    out[1:, :-1] |= cells
    out[1:, 1:] |= cells
    return out


def is_colour(img, rgb):
    return np.all(img == np.array(rgb, np.uint8), axis=-1)


# -- shape, orientation, palettes ----------------------------------------------

def test_shape_dtype_and_north_up(terrain, classic):
    img = terrain.map(X0, Y0, NX, NY, **BARE)
    assert img.shape == (NY, NX, 3) and img.dtype == np.uint8
    lake = np.argwhere(classic.terrain == T.LAKE)
    dry = np.argwhere(classic.terrain == T.WOOD)
    # a lake cell in the south half and a wood cell: row r of the grid is image row ny-1-r
    r, c = lake[len(lake) // 3]
    assert tuple(img[NY - 1 - r, c]) == RELF[T.LAKE]
    r, c = dry[len(dry) // 2]
    assert tuple(img[NY - 1 - r, c]) == RELF[T.WOOD]
    # the image is not symmetric: flipping would break it
    assert not np.array_equal(img, expected_colours(classic.terrain[::-1], RELF))


@pytest.mark.parametrize("palette", ["relf", "isom"])
def test_every_terrain_colour_from_the_palette(terrain, classic, palette):
    img = terrain.map(X0, Y0, NX, NY, palette=palette, **BARE)
    np.testing.assert_array_equal(img, expected_colours(classic.terrain, TABLES[palette]))


def test_palette_tables_are_the_spec(terrain):
    for name, table in TABLES.items():
        pal = maps.PALETTES[name]
        for k in T:
            assert tuple(int(v) for v in pal.terrain[k]) == table[k], (name, k)
        assert pal.contour == CONTOUR[name]


def test_all_kinds_rendered(terrain):
    # every terrain code, placed on a strip, shows its palette colour
    t = terrain.copy()
    for i, k in enumerate(T):
        t.place(1000 + i, 2000, k)
    for name, table in TABLES.items():
        img = t.map(1000, 2000, len(T), 1, palette=name, **BARE, water=True, roads=True,
                    paths=True)
        got = [tuple(int(v) for v in px) for px in img[0]]
        want = [table[k] for k in T]
        # marsh: dashes on the vegetation beneath, never the marsh entry as ground
        i_marsh = list(T).index(T.MARSH)
        del got[i_marsh], want[i_marsh]
        assert got == want, name


def test_uncovered_pixels_are_the_palette(terrain, classic):
    """With every layer on, pixels away from contours and symbols are the ground colour."""
    img = terrain.map(X0, Y0, NX, NY)
    want = expected_colours(classic.terrain, RELF)
    z = classic.height
    contour_px = corners_of(~strict_band_cells(z, 5.0))
    # index contours are 2 px: one more pixel to the south-east in the image
    grown = contour_px[::-1].copy()
    grown[1:, :] |= grown[:-1, :].copy()
    grown[:, 1:] |= grown[:, :-1].copy()
    symbol = np.zeros((NY, NX), bool)
    fr, fc = np.nonzero(classic.feature)
    for r, c in zip(NY - 1 - fr, fc):
        symbol[max(r - 4, 0):r + 5, max(c - 4, 0):c + 5] = True
    for bx, by in terrain.buildings(X0 - 8, Y0 - 8, NX + 16, NY + 16):
        c, r = bx - X0, NY - 1 - (by - Y0)
        symbol[max(r - 8, 0):max(r + 9, 0), max(c - 8, 0):max(c + 9, 0)] = True
    free = ~grown & ~symbol
    assert free.mean() > 0.3
    np.testing.assert_array_equal(img[free], want[free])


# -- contours -------------------------------------------------------------------

@pytest.mark.parametrize("interval", [5.0, 2.5, 7.0])
def test_contour_pixels_where_conrec_crosses(terrain, classic, interval):
    img = terrain.map(X0, Y0, NX, NY, interval=interval, index_every=0,
                      features=False, buildings=False)
    lit = is_colour(img, CONTOUR["relf"])[::-1]  # south up, as the grid
    z = classic.height
    strict = strict_band_cells(z, interval)
    assert lit.any()
    # no contour pixel away from every crossing cell
    assert not (lit & ~corners_of(~strict)).any()
    # every cell crossed clearly (a level strictly between its lowest and highest
    # value, by a margin) has a lit corner
    c = [z[:-1, :-1], z[:-1, 1:], z[1:, 1:], z[1:, :-1]]
    vals = np.stack(c + [(c[0] + c[1] + c[2] + c[3]) / 4.0])
    lo, hi = vals.min(axis=0), vals.max(axis=0)
    level = np.ceil(lo / interval) * interval
    clear = (level > lo + 1e-6) & (level < hi - 1e-6)
    corner_lit = lit[:-1, :-1] | lit[:-1, 1:] | lit[1:, :-1] | lit[1:, 1:]
    assert corner_lit[clear].all()


def test_contours_equal_contourpy_vertices(terrain):
    contourpy = pytest.importorskip("contourpy")
    g = terrain.grid(X0, Y0, 300, 200, 0.75)
    z = g.height
    img = terrain.map(X0, Y0, 300, 200, 0.75, index_every=0, features=False, buildings=False)
    lit = is_colour(img, CONTOUR["relf"])[::-1]
    levels = np.arange(np.ceil(z.min() / 5) * 5, z.max() + 5, 5)
    gen = contourpy.contour_generator(z=z, quad_as_tri=True, line_type="Separate")
    pts = np.concatenate([p for lines in gen.multi_lines(levels) for p in lines])
    ref = np.zeros_like(lit)
    ref[np.floor(pts[:, 1] + 0.5).astype(int), np.floor(pts[:, 0] + 0.5).astype(int)] = True
    np.testing.assert_array_equal(lit, ref)


def test_index_contours_are_thicker(terrain):
    thin = terrain.map(X0, Y0, NX, NY, index_every=0, features=False, buildings=False)
    thick = terrain.map(X0, Y0, NX, NY, index_every=5, features=False, buildings=False)
    a = is_colour(thin, CONTOUR["relf"])
    b = is_colour(thick, CONTOUR["relf"])
    assert (a & ~b).sum() == 0 and (b & ~a).sum() > 1000


# -- layers -----------------------------------------------------------------------

def test_layers_off_remove_them(terrain, classic):
    full = terrain.map(X0, Y0, NX, NY)
    ground = expected_colours(classic.terrain, RELF)
    assert not is_colour(terrain.map(X0, Y0, NX, NY, contours=False, features=False,
                                     buildings=False), CONTOUR["relf"]).any()
    assert is_colour(full, CONTOUR["relf"]).sum() > 10000
    no_symbols = terrain.map(X0, Y0, NX, NY, contours=False, features=False, buildings=False)
    np.testing.assert_array_equal(no_symbols, ground)
    # features only: black dots appear where the ground is not black
    feats = terrain.map(X0, Y0, NX, NY, contours=False, buildings=False)
    assert is_colour(feats, (0, 0, 0)).sum() > 100
    fr, fc = np.nonzero(classic.feature == rt.Feature.BOULDER)
    alone = [(r, c) for r, c in zip(fr, fc)
             if np.count_nonzero(classic.feature[max(r - 5, 0):r + 6, max(c - 5, 0):c + 6]) == 1]
    assert len(alone) > 10
    assert all(tuple(feats[NY - 1 - r, c]) == (0, 0, 0) for r, c in alone)
    # buildings only: black squares centred on the building centres
    blds = terrain.map(X0, Y0, NX, NY, contours=False, features=False)
    centres = terrain.buildings(X0, Y0, NX, NY)
    assert len(centres)
    for bx, by in centres:
        r, c = NY - 1 - (by - Y0), bx - X0
        assert is_colour(blds[r - 5:r + 6, c - 5:c + 6], (0, 0, 0)).all()


def test_water_roads_paths_layers(terrain):
    t = terrain.copy()
    x0, y0 = 24000, 5400   # grass, moor and wood
    under = t.grid(x0, y0, 40, 30).terrain
    for x in range(x0 + 2, x0 + 38):
        t.place(x, y0 + 5, T.STREAM)
    for x in range(x0 + 5, x0 + 15):
        for y in range(y0 + 12, y0 + 24):
            t.place(x, y, T.MARSH)
    for x in range(x0 + 20, x0 + 38):
        for y in range(y0 + 12, y0 + 17):
            t.place(x, y, T.ROAD)
    kw = {"contours": False, "features": False, "buildings": False}
    on = t.map(x0, y0, 40, 30, **kw)
    r_stream = 29 - 5
    assert all(tuple(on[r_stream, c]) == RELF[T.STREAM] for c in range(2, 38))
    marsh = on[29 - 23:29 - 11, 5:15]
    assert is_colour(marsh, RELF[T.MARSH]).sum() > 20       # blue dashes
    assert not is_colour(marsh, RELF[T.MARSH]).all()        # on the vegetation
    road = on[29 - 16:29 - 11, 20:38]
    assert is_colour(road, (0, 0, 0)).sum() > 10            # dashed black edges
    assert is_colour(road, RELF[T.ROAD]).sum() > 10
    off = t.map(x0, y0, 40, 30, water=False, roads=False, **kw)
    np.testing.assert_array_equal(off, expected_colours(under, RELF))
    # paths: the with_paths terrain's PATH ground goes back to its vegetation
    tp = rt.Terrain(with_paths=True)
    g = tp.grid(X0, Y0, 200, 150)
    assert (g.terrain == T.PATH).any()
    no_paths = tp.map(X0, Y0, 200, 150, paths=False, **kw)
    plain = rt.Terrain().grid(X0, Y0, 200, 150).terrain
    np.testing.assert_array_equal(no_paths, expected_colours(plain, RELF))


def test_coarse_map_keeps_streams_and_features(terrain):
    t = terrain.copy()
    x0, y0 = 23900, 5400
    for y in range(y0, y0 + 200):
        t.place(x0 + 101, y, T.STREAM)   # an odd column: between the grid points at step 2
    img = t.map(x0, y0, 100, 100, 2.0, contours=False, features=False, buildings=False)
    col = is_colour(img, RELF[T.STREAM]).any(axis=0)
    assert col[50] or col[51]
    # the features of the integer points, even where no grid point falls
    f = t.feature_grid(X0, Y0, NX, NY)
    img = t.map(X0, Y0, NX // 2, NY // 2, 2.0, contours=False, buildings=False)
    n_black = is_colour(img, (0, 0, 0)).sum()
    assert n_black > 0 and int((f == rt.Feature.BOULDER).sum()) > 0


def test_threads_same_image(terrain):
    a = terrain.map(X0, Y0, 300, 200, threads=1)
    b = terrain.map(X0, Y0, 300, 200, threads=2)
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("step", [0.5, 4.0])
def test_other_steps(terrain, step):
    img = terrain.map(X0, Y0, 100, 80, step, palette="isom")
    g = terrain.grid(X0, Y0, 100, 80, step)
    assert img.shape == (80, 100, 3)
    bare = terrain.map(X0, Y0, 100, 80, step, palette="isom", **BARE)
    np.testing.assert_array_equal(bare, expected_colours(g.terrain, ISOM))


@pytest.mark.parametrize("kwargs, exc, name", [
    ({"palette": "ocad"}, ValueError, "palette"),
    ({"interval": 0}, ValueError, "interval"),
    ({"interval": float("nan")}, ValueError, "interval"),
    ({"index_every": -1}, ValueError, "index_every"),
    ({"contours": 1}, TypeError, "contours"),
    ({"roads": "yes"}, TypeError, "roads"),
    ({"threads": 0}, ValueError, "threads"),
])
def test_bad_options(terrain, kwargs, exc, name):
    with pytest.raises(exc, match=name):
        terrain.map(X0, Y0, 10, 10, **kwargs)


def test_bad_grid(terrain):
    with pytest.raises(ValueError, match="step"):
        terrain.map(X0, Y0, 10, 10, -1.0)
    with pytest.raises(ValueError, match="nx"):
        terrain.map(X0, Y0, 0, 10)


def test_tiny_interval_refused(terrain):
    with pytest.raises(ValueError, match="interval"):
        terrain.map(X0, Y0, 400, 300, interval=1e-6, features=False, buildings=False)


def test_tiny_interval_refused_by_the_binding_by_keyword_or_position():
    # the message names the parsed interval however it was passed (by keyword
    # the argument tuple holds z alone)
    from relfterrain import _core

    z = np.random.default_rng(1).normal(0, 20, (30, 30))
    msg = r"^interval: too small for this map \(more than 3 contour crossings\), got 0\.5$"
    with pytest.raises(ValueError, match=msg):
        _core.contour_mask(z, interval=0.5, index_every=5, max_crossings=3)
    with pytest.raises(ValueError, match=msg):
        _core.contour_mask(z=z, interval=0.5, index_every=5, max_crossings=3)
    with pytest.raises(ValueError, match=msg):
        _core.contour_mask(z, 0.5, 5, 3)
    assert _core.contour_mask(z, interval=0.5, index_every=5, max_crossings=1 << 26).any()


# -- PNG --------------------------------------------------------------------------

def test_save_png_round_trip(terrain, tmp_path):
    img = terrain.map(X0, Y0, 120, 90)
    path = tmp_path / "map.png"
    maps.save_png(img, path)
    back = np.asarray(Image.open(path).convert("RGB"))
    np.testing.assert_array_equal(back, img)
    terrain.save_map(tmp_path / "again.png", X0, Y0, 120, 90)
    # a map of few colours is written as a palette PNG: decode it to RGB
    again = Image.open(tmp_path / "again.png")
    assert again.mode == "P"
    np.testing.assert_array_equal(np.asarray(again.convert("RGB")), img)
    assert sorted(os.listdir(tmp_path)) == ["again.png", "map.png"]
    # an ordinary file, not mkstemp's private 0600
    mask = os.umask(0o022)
    os.umask(mask)
    assert (path.stat().st_mode & 0o777) == 0o666 & ~mask
    path.chmod(0o640)
    maps.save_png(img, path)
    assert (path.stat().st_mode & 0o777) == 0o640


def test_save_png_atomic(terrain, tmp_path, monkeypatch):
    path = tmp_path / "map.png"
    path.write_bytes(b"old map")

    def broken(fd):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(OSError, match="disk full"):
        maps.save_png(np.zeros((4, 5, 3), np.uint8), path)
    assert path.read_bytes() == b"old map"
    assert os.listdir(tmp_path) == ["map.png"]   # no temporary file left


def test_save_png_bad_array(tmp_path):
    with pytest.raises(ValueError, match="array"):
        maps.save_png(np.zeros((4, 5), np.uint8), tmp_path / "x.png")
    with pytest.raises(ValueError, match="array"):
        maps.save_png(np.zeros((4, 5, 3), np.float64), tmp_path / "x.png")


def test_missing_pillow_is_a_clear_import_error(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "PIL", None)
    monkeypatch.setitem(sys.modules, "PIL.Image", None)
    monkeypatch.setitem(sys.modules, "PIL.ImageDraw", None)
    with pytest.raises(ImportError, match=r"relfterrain\[maps\]"):
        maps.save_png(np.zeros((4, 5, 3), np.uint8), tmp_path / "x.png")
    with pytest.raises(ImportError, match=r"relfterrain\[maps\]"):
        rt.Terrain().map(X0, Y0, 20, 20)
    # a map without symbols needs no Pillow; the notebook picture degrades to text
    assert rt.Terrain().map(X0, Y0, 20, 20, features=False, buildings=False).shape == (20, 20, 3)
    assert rt.Terrain().grid(X0, Y0, 4, 3)._repr_png_() is None


def test_repr_png(terrain, classic):
    data = classic._repr_png_()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    back = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
    np.testing.assert_array_equal(back, expected_colours(classic.terrain, RELF))
    big = terrain.grid(X0, Y0, 2100, 10)
    assert Image.open(io.BytesIO(big._repr_png_())).size == (700, 4)


# -- stars, matplotlib, widgets ----------------------------------------------------

def test_star_field():
    g = rt.Galaxy()
    block = rt.Block(-100, -80, 1, 200, 160, 300)
    stars = g.stars(*block)
    m = maps.star_margin(1.0)
    img = maps.star_field(g, block)
    assert img.shape == (160 + 2 * m, 200 + 2 * m, 3) and img.dtype == np.uint8
    assert len(stars) > 0
    for s in stars:
        r, c = m + block.y0 + block.ny - 1 - int(s["y"]), m + int(s["x"]) - block.x0
        assert img[r, c].max() > 100          # the star's centre, north up
    assert (img.max(axis=-1) == 0).mean() > 0.9    # black sky
    # colour index: blue-white stars are bluer than red ones
    table = maps.STAR_COLOURS
    assert table[0, 2] > table[0, 0] and table[15, 0] > table[15, 2]
    m2 = maps.star_margin(2.0)
    assert maps.star_field(g, block, scale=2.0).shape == (320 + 2 * m2, 400 + 2 * m2, 3)
    assert maps.star_field(g, block, edges="cut").shape == (160, 200, 3)
    with pytest.raises(ValueError, match="scale"):
        maps.star_field(g, block, scale=0)
    with pytest.raises(ValueError, match="edges: must be 'whole' or 'cut'"):
        maps.star_field(g, block, edges="crop")
    with pytest.raises(TypeError, match="galaxy"):
        maps.star_field("milky way", block)


def _edge_block():
    """The initial view's stars and the smallest block holding them all: a star
    lies on each of its four edges."""
    g = rt.Galaxy()
    s = g.stars(*rt.INITIAL_VIEW)
    x0, y0 = int(s["x"].min()), int(s["y"].min())
    block = rt.Block(x0, y0, 1, int(s["x"].max()) - x0 + 1, int(s["y"].max()) - y0 + 1, 300)
    assert len(g.stars(*block)) == len(s) > 20
    return g, s, block


@pytest.mark.parametrize("scale", [0.25, 0.5, 1.0, 2.5])
def test_star_field_clips_no_star(scale):
    # the picture's outermost pixels stay black: a disc that crossed the frame
    # would colour them (a disc is convex around its centre, which lies inside)
    g, s, block = _edge_block()
    img = maps.star_field(g, block, scale=scale)
    for edge in (img[0], img[-1], img[:, 0], img[:, -1]):
        assert not edge.any()
    # cut at the block's edges ("cut", as a map tile) those stars' discs reach the edges
    cut = maps.star_field(g, block, scale=scale, edges="cut")
    for edge in (cut[0], cut[-1], cut[:, 0], cut[:, -1]):
        assert edge.any()


@pytest.mark.parametrize("scale", [0.25, 1.0, 2.0])
def test_star_field_cut_tiles_join_without_seam(scale):
    g, s, both = _edge_block()
    # split the block just east of a star (in the middle third), which lies on the seam
    mid = np.sort(s["x"])[len(s) // 2]
    k = int(mid) - both.x0 + 1
    west = rt.Block(both.x0, both.y0, 1, k, both.ny, 300)
    east = rt.Block(both.x0 + k, both.y0, 1, both.nx - k, both.ny, 300)
    pw = maps.star_field(g, west, scale=scale, edges="cut")
    pe = maps.star_field(g, east, scale=scale, edges="cut")
    whole = maps.star_field(g, both, scale=scale, edges="cut")
    if (k * scale).is_integer():
        assert np.array_equal(np.hstack([pw, pe]), whole)
    assert pe[:, 0].any()  # the star west of the seam shows in the east picture
    # the cut picture is the whole picture of a larger block, cropped: the
    # stars beyond the cut picture's halo reach no pixel of it
    m = maps.star_margin(scale)
    grow = 2 * math.ceil(m / scale)
    large = rt.Block(both.x0 - grow, both.y0 - grow, 1, both.nx + 2 * grow, both.ny + 2 * grow,
                     300)
    big = maps.star_field(g, large, scale=scale)
    off = m + round(grow * scale)
    assert np.array_equal(big[off:off + whole.shape[0], off:off + whole.shape[1]], whole)


def test_plot_map_extent(terrain):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    try:
        im = maps.plot_map(ax, terrain, X0, Y0, 40, 30, 2.0, contours=False)
        assert im.get_extent() == [X0 - 1.0, X0 + 79.0, Y0 - 1.0, Y0 + 59.0]
        assert im.origin == "upper"
        np.testing.assert_array_equal(im.get_array(),
                                      terrain.map(X0, Y0, 40, 30, 2.0, contours=False))
    finally:
        plt.close(fig)


def test_redesign_widget_redraws(terrain):
    pytest.importorskip("ipywidgets")
    w = maps.redesign(terrain, nx=80, ny=60, step=4.0)
    first = w.image.value
    assert first[:8] == b"\x89PNG\r\n\x1a\n"
    assert ("ah", 0) in w.sliders and ("b3", 4) in w.sliders and "lake_height" in w.sliders
    w.sliders["lake_height"].value = terrain.lake_height + 40
    assert w.image.value != first
    assert w.terrain.lake_height == terrain.lake_height + 40
    second = w.image.value
    w.sliders[("a2", 1)].value = w.sliders[("a2", 1)].value + 7
    assert w.image.value != second
    assert w.terrain.a2[1] == terrain.a2[1] + 7
    assert w.message.value == ""


def test_mines_map_colours_every_cell_by_its_mine():
    from relfterrain.maps import MINE_COLOURS, mines_map

    t = rt.Terrain()
    m = rt.Mines(t)
    xg0, yg0 = m.cell_of(23396, 5318)
    lab = m.label(xg0, yg0, 30, 20)
    img = mines_map(m, xg0, yg0, 30, 20, scale=5)
    assert img.shape == (100, 150, 3) and img.dtype == np.uint8
    labels, above = lab.labels[0], lab.above
    for r in range(20):
        for c in range(30):
            block = img[(19 - r) * 5:(20 - r) * 5, c * 5:(c + 1) * 5]  # north up
            kind = ("rock" if labels[r, c] == 0 else
                    "reachable" if lab.reachable[labels[r, c]] else "sealed")
            colours = {tuple(p) for p in block.reshape(-1, 3).tolist()}
            if above[r, c]:
                assert colours == {MINE_COLOURS[kind], MINE_COLOURS["shaft"]}
            else:
                assert colours == {MINE_COLOURS[kind]}
    assert above.any() and (labels > 0).any() and (labels == 0).any()
    with pytest.raises(ValueError, match="^scale"):
        mines_map(m, xg0, yg0, 3, 3, scale=0)
    with pytest.raises(TypeError, match="^mines"):
        mines_map(t, xg0, yg0, 3, 3)


@pytest.mark.parametrize("interval, index_every", [(5.0, 5), (2.5, 0), (10.0, 3), (0.7, 4)])
def test_contour_mask_in_c_equals_the_numpy_transcription(interval, index_every):
    from relfterrain.maps import _contour_mask_numpy, contour_mask

    t = rt.Terrain()
    rng = np.random.default_rng(5)
    grids = [t.height_grid(23396, 5318, 200, 150), t.height_grid(23396.3, 5318.7, 90, 70, 0.37),
             rng.normal(0, 20, (60, 70)), rng.integers(0, 30, (40, 50)).astype(float),
             np.full((5, 5), 10.0), rng.normal(0, 3, (1, 9)), rng.normal(0, 3, (9, 1))]
    for z in grids:
        assert np.array_equal(contour_mask(z, interval, index_every),
                              _contour_mask_numpy(z, interval, index_every))


# -- the map as The Forest shows it (orienteering_map, interval="auto", north lines) ---

def test_auto_interval_by_pixel_size():
    # 10 x step rounded up to 5, 10, 20, 25, 50, ... and never below SPEC 15's 5
    want = {0.1: 5.0, 0.5: 5.0, 0.6: 10.0, 1.0: 10.0, 1.5: 20.0, 2.0: 20.0, 2.2: 25.0,
            4.0: 50.0, 10.0: 100.0, 30.0: 500.0, 1000.0: 10000.0}
    for step, interval in want.items():
        assert maps.auto_interval(step) == interval, step
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="step"):
            maps.auto_interval(bad)


def test_orienteering_map_is_render_with_auto_interval_and_north_lines(terrain):
    img = maps.orienteering_map(terrain, X0, Y0, 300, 200, 2)
    assert img.shape == (400, 600, 3)
    want = maps.render(terrain, X0, Y0, 600, 400, 0.5, interval=5.0, north_lines=300.0)
    np.testing.assert_array_equal(img, want)
    one = maps.orienteering_map(terrain, X0, Y0, 300, 200, 1)
    np.testing.assert_array_equal(
        one, maps.render(terrain, X0, Y0, 300, 200, 1.0, interval=10.0, north_lines=300.0))
    # the default map is SPEC 15's: 5 height units, no north lines
    np.testing.assert_array_equal(terrain.map(X0, Y0, 300, 200),
                                  maps.render(terrain, X0, Y0, 300, 200, interval=5.0,
                                              north_lines=None))


def test_north_lines_at_multiples_of_their_spacing(terrain):
    x0 = 23390.0
    img = maps.render(terrain, x0, Y0, 700, 50, 1.0, contours=False, features=False,
                      buildings=False, water=False, roads=False, paths=False,
                      north_lines=300.0)
    black = (img == 0).all(axis=2).all(axis=0)
    # the columns of x = 23400 and 23700 (x0 + 10, x0 + 310); no other column
    assert np.flatnonzero(black).tolist() == [10, 310, 610]
    # anchored to the world: a window shifted east by 100 m has them 100 columns left
    img2 = maps.render(terrain, x0 + 100, Y0, 700, 50, 1.0, contours=False, features=False,
                       buildings=False, water=False, roads=False, paths=False,
                       north_lines=300.0)
    np.testing.assert_array_equal(img2[:, :600], img[:, 100:])
    # twice as wide at 4 pixels a metre (as a contour)
    fine = maps.render(terrain, 23399.0, Y0, 12, 8, 0.25, contours=False, features=False,
                       buildings=False, water=False, roads=False, paths=False,
                       north_lines=300.0)
    assert np.flatnonzero((fine == 0).all(axis=2).all(axis=0)).tolist() == [4, 5]


def test_north_lines_and_pixels_per_metre_bad_input(terrain):
    for bad in (0, -300, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="north_lines"):
            maps.render(terrain, X0, Y0, 10, 10, north_lines=bad)
    with pytest.raises(TypeError, match="north_lines"):
        maps.render(terrain, X0, Y0, 10, 10, north_lines="300")
    with pytest.raises(ValueError, match="pixels_per_metre"):
        maps.orienteering_map(terrain, X0, Y0, 10, 10, 0)
    with pytest.raises(ValueError, match="width, height"):
        maps.orienteering_map(terrain, X0, Y0, 0.1, 10, 1)
    with pytest.raises(ValueError, match="interval"):
        maps.render(terrain, X0, Y0, 10, 10, interval="fine")


@pytest.mark.parametrize("colours", [1, 2, 3, 16, 17, 200, 256, 257, 5000])
@pytest.mark.parametrize("width", [1, 2, 7, 64])
@pytest.mark.parametrize("deflate", ["isal", "zlib"])
def test_png_decodes_to_the_same_pixels(colours, width, deflate, monkeypatch):
    # ISA-L's deflate when python-isal is there, zlib's without it
    pytest.importorskip("isal")  # a test extra: both streams are checked
    if deflate == "zlib":
        monkeypatch.setitem(sys.modules, "isal", None)
    rng = np.random.default_rng(colours * 100 + width)
    table = np.unique(rng.integers(0, 256, (colours, 3), dtype=np.uint8), axis=0)
    img = table[rng.integers(0, len(table), (9, width))]
    data = maps.png_bytes(img)
    back = Image.open(io.BytesIO(data))
    assert back.mode == ("P" if len(np.unique(img.reshape(-1, 3), axis=0)) <= 256 else "RGB")
    np.testing.assert_array_equal(np.asarray(back.convert("RGB")), img)


def test_png_text_chunks_and_rgba():
    rgba = np.random.default_rng(1).integers(0, 256, (5, 6, 4), dtype=np.uint8)
    back = Image.open(io.BytesIO(maps.png_bytes(rgba, text={"Software": "relfterrain"})))
    assert back.mode == "RGBA" and back.text == {"Software": "relfterrain"}
    np.testing.assert_array_equal(np.asarray(back), rgba)
    with pytest.raises(ValueError, match="text"):
        maps.png_bytes(rgba, text={"": "empty key"})
    with pytest.raises(ValueError, match="text"):
        maps.png_bytes(rgba, text={"k": 3})


@pytest.mark.parametrize("threads", [1, 2, 3, 5, 16])
def test_contour_mask_the_same_on_any_thread_count(terrain, threads):
    # bands of rows on several threads: the same pixels as the NumPy transcription
    z = terrain.height_grid(23000, 5000, 700, 400, 0.7)
    for interval, index_every in ((5.0, 5), (2.5, 3), (0.5, 0)):
        want = maps._contour_mask_numpy(z, interval, index_every)
        got = maps.contour_mask(z, interval, index_every, threads=threads)
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(
        terrain.map(23000, 5000, 700, 400, 0.7, threads=threads),
        terrain.map(23000, 5000, 700, 400, 0.7, threads=1))


def test_contour_mask_limit_on_threads(terrain):
    from relfterrain import _core

    z = terrain.height_grid(23000, 5000, 700, 400)
    for threads in (1, 2, 4):
        with pytest.raises(ValueError, match="too small for this map"):
            _core.contour_mask(z, 0.01, 5, 1000, threads=threads)
    with pytest.raises(ValueError, match="threads"):
        maps.contour_mask(z, 5.0, 5, threads=0)


# -- the painting in C (csrc/contours.c, contours_kernel.h) ---------------------

def _kernel_grids():
    t = rt.Terrain()
    rng = np.random.default_rng(23)
    steep = rng.normal(0, 40, (70, 90))            # edges crossing several levels
    ties = rng.integers(-20, 40, (50, 61)).astype(float)  # heights on the levels
    far = 1.0e12 + rng.normal(0, 30, (40, 33))     # bands beyond 2^30: the floor path
    # at interval 5, bands about 2^30: some rows of points beyond it, some not
    mixed = 5.0 * 2.0**30 + rng.normal(0, 30, (60, 65))
    mixed[::3] -= 200.0
    return [t.height_grid(23396, 5318, 300, 200), t.height_grid(23396.3, 5318.7, 97, 41, 0.37),
            steep, ties, far, mixed, -ties, rng.normal(0, 3, (2, 17))]


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_contour_kernel_every_simd_variant_equals_the_numpy_transcription(threads):
    from relfterrain import _core

    codes = sorted({code for code, _, _ in _core.simd_variants().values()})
    for z in _kernel_grids():
        for interval, index_every in ((5.0, 5), (1.0, 3), (0.7, 1), (2.5, 0)):
            want = maps._contour_mask_numpy(z, interval, index_every)
            for simd in codes:
                got = _core.contour_mask(z, interval, index_every, 1 << 26, threads=threads,
                                         simd=simd)
                np.testing.assert_array_equal(got, want, err_msg=f"simd {simd}, {interval}")
    with pytest.raises(ValueError):
        _core.contour_mask(np.zeros((3, 3)), 5.0, 5, 100, simd=99)


def _variant_codes():
    from relfterrain import _core

    return sorted({code for code, _, _ in _core.simd_variants().values()})


def _assert_variants_equal_numpy(z, interval, index_every, threads=1):
    from relfterrain import _core

    want = maps._contour_mask_numpy(z, interval, index_every)
    for simd in [0] + _variant_codes():
        got = _core.contour_mask(np.ascontiguousarray(z), interval, index_every, 1 << 26,
                                 threads=threads, simd=simd)
        np.testing.assert_array_equal(got, want, err_msg=f"simd {simd}, {interval}, "
                                                         f"{z.shape}")


@pytest.mark.parametrize("nx", [1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65])
def test_contour_kernel_variants_on_every_width(nx):
    # the AVX-512 rows take eight cells a vector and merge sixteen pixels a
    # vector: widths about those, and one row, two columns
    t = rt.Terrain()
    rng = np.random.default_rng(nx)
    grids = [t.height_grid(23396, 5318, nx, 23, 0.5), rng.normal(0, 25, (19, nx)),
             rng.normal(0, 3, (1, nx)), rng.normal(0, 25, (2, nx))]
    for z in grids:
        for interval, index_every in ((5.0, 5), (0.5, 3), (2.5, 0)):
            _assert_variants_equal_numpy(z, interval, index_every)


def test_contour_kernel_variants_many_crossed_cells_and_huge_bands():
    rng = np.random.default_rng(31)
    t = rt.Terrain()
    classic = t.height_grid(*rt.CLASSIC_MAP[:4])
    cases = [
        (classic, 5.0, 5),                      # the classic map: ~108,000 crossed cells
        (classic, 0.3, 4),                      # nearly every cell, edges crossing 2+ levels
        (rng.normal(0, 9, (90, 77)), 1.0, 5),   # most edges crossing 2+ levels
        (classic + 5.0 * 2.0**30, 5.0, 5),      # bands just beyond 2^30: the general path
        (classic + 5.0 * 2.0**30 - 300.0, 5.0, 5),  # about 2^30: rows of both paths
        (classic * 1e6 + 4.0e15, 1e6, 5),       # bands beyond 2^32 (the index by remainder)
        (-classic, 5.0, 2),
    ]
    for z, interval, index_every in cases:
        _assert_variants_equal_numpy(z, interval, index_every)


@pytest.mark.parametrize("threads", [2, 3])
def test_contour_kernel_variants_limit_on_threads(threads):
    # refused alike by every variant, at any limit (a batch of eight cells
    # adds up to 64 crossings: limits about it and about the count)
    from relfterrain import _core

    z = rt.Terrain().height_grid(23000, 5000, 700, 400)
    count = int((maps._contour_mask_numpy(z, 5.0, 5) > 0).sum())  # some pixels; fewer than crossings
    for limit in (0, 7, 8, 63, 64, 65, 1000, count):
        for simd in [0] + _variant_codes():
            with pytest.raises(ValueError, match="too small for this map"):
                _core.contour_mask(z, 5.0, 5, limit, threads=threads, simd=simd)


@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 2**32 - 1),
       st.sampled_from([0.5, 1.0, 2.5, 5.0]), st.integers(0, 6),
       st.sampled_from([1.0, 10.0, 60.0]))
@settings(max_examples=60)
def test_contour_kernel_variants_random_grids(nx, ny, seed, interval, index_every, scale):
    z = np.random.default_rng(seed).normal(0, scale, (ny, nx))
    _assert_variants_equal_numpy(z, interval, index_every)


# up to 8 wide the rows are pulled (rt_paint_lines), beyond pushed pixel by pixel
@pytest.mark.parametrize("width, index_width", [(1, 2), (1, 1), (2, 3), (3, 3), (4, 2), (8, 8),
                                                (9, 2), (1, 10)])
def test_contour_paint_equals_the_numpy_painting(width, index_width):
    from relfterrain import _core

    rng = np.random.default_rng(width * 10 + index_width)
    for z in _kernel_grids()[:4]:
        base = rng.integers(0, 256, z.shape + (3,), dtype=np.uint8)
        want = base.copy()
        maps._paint_lines_numpy(want, maps._contour_mask_numpy(z, 5.0, 5), (184, 78, 27),
                                width, index_width)
        for threads in (1, 2):
            got = base.copy()
            _core.contour_paint(z, 5.0, 5, 1 << 26, got, (184, 78, 27), width, index_width,
                                threads=threads)
            np.testing.assert_array_equal(got, want)


def test_map_colours_equals_take_and_bincount():
    from relfterrain import _core

    rng = np.random.default_rng(7)
    table = maps.PALETTES["isom"].terrain
    for shape in ((1, 1), (3, 7), (64, 129), (0, 5)):
        codes = rng.integers(0, len(rt.TerrainType), shape, dtype=np.uint8)
        img, counts = _core.map_colours(codes, table)
        np.testing.assert_array_equal(img, np.take(table, codes[::-1], axis=0))
        np.testing.assert_array_equal(counts, np.bincount(codes.ravel(), minlength=256))
    bad = np.array([[0, 13], [200, 1]], np.uint8)
    with pytest.raises(ValueError, match=r"^codes: terrain codes are 0\.\.12, got 200$"):
        maps.terrain_colours(bad)
    # a Palette of wider integers: the NumPy path, the same colours in its dtype
    wide = maps.PALETTES["relf"]._replace(terrain=maps.PALETTES["relf"].terrain.astype(np.int64))
    codes = rng.integers(0, len(rt.TerrainType), (9, 11), dtype=np.uint8)
    np.testing.assert_array_equal(maps.terrain_colours(codes, wide),
                                  maps.terrain_colours(codes, "relf"))


@pytest.mark.parametrize("ntable", [1, 13, 63, 64, 65, 256])
@pytest.mark.parametrize("width", [1, 63, 64, 65, 200, 257])
def test_map_colours_any_table_and_width(ntable, width):
    # sixty-four pixels a step on AVX-512 VBMI (csrc/map_colours_vbmi.c), the
    # rest and the chunks holding a code >= min(ntable, 64) by the scalar loop:
    # every code painted and counted as take and bincount do, codes beyond
    # the table black and counted
    from relfterrain import _core

    rng = np.random.default_rng(ntable * 1000 + width)
    table = rng.integers(0, 256, (ntable, 3), dtype=np.uint8)
    padded = np.zeros((256, 3), np.uint8)
    padded[:ntable] = table
    codes = rng.integers(0, ntable, (5, width), dtype=np.uint8)
    if width > 70:
        codes[2, 70] = 255  # a code beyond (or at the end of) the table mid-row
    img, counts = _core.map_colours(codes, table)
    np.testing.assert_array_equal(img, padded[codes[::-1]])
    np.testing.assert_array_equal(counts, np.bincount(codes.ravel(), minlength=256))


def test_flat_nonzero_equals_numpy():
    from relfterrain import _core

    rng = np.random.default_rng(3)
    for n in (0, 1, 7, 8, 9, 63, 64, 65, 1001):
        for density in (0.0, 0.01, 0.5, 1.0):
            a = (rng.random(n) < density).astype(np.uint8) * rng.integers(1, 256, n, dtype=np.uint8)
            np.testing.assert_array_equal(_core.flat_nonzero(a), np.flatnonzero(a))
            np.testing.assert_array_equal(_core.flat_nonzero(a.reshape(1, -1)), np.flatnonzero(a))
