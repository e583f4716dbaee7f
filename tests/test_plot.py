"""relfterrain.plot: labelled axes, colourbars and legends that say what is shown,
north up whichever way the rows run, and a known point at its pixel."""

from __future__ import annotations

import inspect
import io
import os
import sys

import numpy as np
import pytest

import relfterrain as rt
from relfterrain import maps

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")  # the test process only: no example changes the backend
import matplotlib.pyplot as plt  # noqa: E402

from relfterrain import plot  # noqa: E402

X0, Y0 = rt.CLASSIC_MAP[:2]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def terrain():
    return rt.Terrain()


def _rendered(fig) -> np.ndarray:
    fig.canvas.draw()
    return np.asarray(fig.canvas.buffer_rgba())[:, :, :3].copy()


def _pixel_at(ax, x: float, y: float) -> tuple[int, int]:
    """The canvas (row, column) of the data point (x, y)."""
    fig = ax.figure
    u, v = ax.transData.transform((x, y))
    height = fig.canvas.get_width_height()[1]
    return int(height - v), int(u)


def _legend_texts(legend) -> list[str]:
    return [t.get_text() for t in legend.get_texts()]


def _colourbar_labels(fig, ax) -> list[str]:
    return [a.get_ylabel() for a in fig.axes if a is not ax]


# -- labelled axes, colourbars, legends ----------------------------------------------

def test_height_has_units_and_colourbar(terrain):
    g = terrain.grid(X0, Y0, 120, 90)
    ax = plot.height(g)
    assert ax.get_xlabel() == "x (m east)" and ax.get_ylabel() == "y (m north)"
    assert _colourbar_labels(ax.figure, ax) == ["height (m)"]
    im = ax.images[0]
    lo, hi = im.get_clim()
    assert lo == pytest.approx(g.height.min()) and hi == pytest.approx(g.height.max())
    # the pixel edges: each sample point at the centre of its pixel
    assert im.get_extent() == [X0 - 0.5, X0 + 119.5, Y0 - 0.5, Y0 + 89.5]


def test_terrain_legend_lists_exactly_the_kinds_present(terrain):
    for window in [(X0, Y0, 200, 150, 1.0), (X0, Y0, 800, 600, 1.0), (23000, 4000, 300, 300, 4.0)]:
        g = terrain.grid(*window)
        ax = plot.terrain(g)
        # independent: the codes' distinct values, named as the enum names them
        want = [rt.TerrainType(int(k)).name.capitalize() for k in sorted(set(g.terrain.ravel()))]
        assert _legend_texts(ax.get_legend()) == want
        # and each legend patch has the kind's palette colour
        for patch, name in zip(ax.get_legend().get_patches(), want):
            rgb = maps.PALETTES["relf"].terrain[rt.TerrainType[name.upper()]] / 255.0
            np.testing.assert_allclose(patch.get_facecolor()[:3], rgb)
        plt.close(ax.figure)


def test_terrain_is_categorical(terrain):
    """Each code's pixels have exactly its palette colour (no continuous colour map)."""
    n = len(rt.TerrainType)
    codes = np.arange(n, dtype=np.uint8).reshape(1, n)
    ax = plot.terrain(codes, palette="isom")
    rgba = ax.images[0].to_rgba(ax.images[0].get_array(), bytes=True)
    np.testing.assert_array_equal(rgba[:, :, :3], maps.PALETTES["isom"].terrain[codes])
    assert _legend_texts(ax.get_legend()) == [k.name.capitalize() for k in rt.TerrainType]


def test_features_legend_and_symbols(terrain):
    g = terrain.grid(X0, Y0, 300, 200)
    ax = plot.features(g)
    legends = [c for c in ax.get_children() if isinstance(c, matplotlib.legend.Legend)]
    titles = sorted(lg.get_title().get_text() for lg in legends)
    assert titles == ["features", "terrain"]
    feat = next(lg for lg in legends if lg.get_title().get_text() == "features")
    drawn = {rt.Feature(int(k)) for k in np.unique(g.feature)} & set(plot.FEATURE_STYLES)
    names = {rt.Feature.BOULDER: "boulder", rt.Feature.KNOLL: "knoll",
             rt.Feature.MINE: "mineshaft", rt.Feature.WATERHOLE: "water hole",
             rt.Feature.X: "man-made object", rt.Feature.ROOT: "rootstock"}
    assert _legend_texts(feat) == [names[k] for k in sorted(drawn)]
    # every boulder is a black dot at its world point
    r, c = np.nonzero(g.feature == rt.Feature.BOULDER)
    dots = [ln for ln in ax.lines if ln.get_marker() == "o"
            and tuple(ln.get_color()) == (0.0, 0.0, 0.0)]
    assert len(dots) == 1
    got = sorted(zip(dots[0].get_xdata().tolist(), dots[0].get_ydata().tolist()))
    assert got == sorted(zip(g.x[c].tolist(), g.y[r].tolist()))
    assert ax.get_xlabel() == "x (m east)"


def test_hillshade_colourbar_and_light_direction():
    # a plane rising to the north faces south: lit from the south it is bright,
    # from the north dark. Rows south first (SPEC 1).
    y = np.arange(50, dtype=float)
    z = np.repeat(y[:, None], 40, axis=1) * 0.5
    def lit(z, azimuth):
        return float(np.mean(plot.hillshade(z, azimuth=azimuth).images[0].get_array()))

    assert lit(z, 180.0) > 0.9 and lit(z, 0.0) < 0.35
    # and a plane rising to the east faces west
    assert lit(z.T.copy(), 270.0) > 0.9 and lit(z.T.copy(), 90.0) < 0.35
    ax = plot.hillshade(z)
    assert _colourbar_labels(ax.figure, ax) == ["illumination (0 shadow, 1 lit)"]
    assert ax.get_xlabel() == "x (samples east)"


# -- orientation: a known point lands at its pixel -------------------------------------

def _marked(ny=60, nx=80):
    """Wood with a lake block in the north-east and a thicket block in the south-west."""
    codes = np.full((ny, nx), rt.TerrainType.WOOD, np.uint8)
    codes[ny - 10:, nx - 10:] = rt.TerrainType.LAKE       # rows at the end: north (SPEC 1)
    codes[:10, :10] = rt.TerrainType.THICKET
    return codes


def test_a_known_cell_lands_at_its_pixel():
    codes = _marked()
    x = 1000.0 + 2.0 * np.arange(80)
    y = 5000.0 + 2.0 * np.arange(60)
    ax = plot.terrain(codes, x=x, y=y)
    img = _rendered(ax.figure)
    lake = maps.PALETTES["relf"].terrain[rt.TerrainType.LAKE]
    thicket = maps.PALETTES["relf"].terrain[rt.TerrainType.THICKET]
    ne = _pixel_at(ax, x[-5], y[-5])
    sw = _pixel_at(ax, x[4], y[4])
    nw = _pixel_at(ax, x[4], y[-5])
    np.testing.assert_array_equal(img[ne], lake)
    np.testing.assert_array_equal(img[sw], thicket)
    np.testing.assert_array_equal(img[nw], [255, 255, 255])
    assert ne[0] < sw[0] and ne[1] > sw[1]  # north is up, east is right


def test_dataset_either_row_order_draws_the_same():
    xr = pytest.importorskip("xarray")
    codes = _marked()
    x = 1000.0 + np.arange(80)
    y = 5000.0 + np.arange(60)
    up = xr.Dataset({"terrain": (("y", "x"), codes)}, coords={"x": x, "y": y})
    down = up.isel(y=slice(None, None, -1))  # y descending: rows north first
    assert down.y.values[0] > down.y.values[-1]
    a = plot.terrain(up)
    b = plot.terrain(down)
    np.testing.assert_array_equal(a.images[0].get_array(), b.images[0].get_array())
    assert a.images[0].get_extent() == b.images[0].get_extent()
    np.testing.assert_array_equal(_rendered(a.figure), _rendered(b.figure))
    img = _rendered(b.figure)
    np.testing.assert_array_equal(img[_pixel_at(b, x[-3], y[-3])],
                                  maps.PALETTES["relf"].terrain[rt.TerrainType.LAKE])


def test_terrain_dataset_and_accessor(terrain):
    pytest.importorskip("xarray")
    ds = terrain.dataset(X0, Y0, 200, 150)
    g = terrain.grid(X0, Y0, 200, 150)
    want = [rt.TerrainType(int(k)).name.capitalize() for k in sorted(set(g.terrain.ravel()))]
    ax = ds.rt.plot_terrain()
    assert _legend_texts(ax.get_legend()) == want
    # xarray's own DataArray, through the accessor: categories from flag_meanings
    ax2 = ds.terrain.rt.plot()
    assert _legend_texts(ax2.get_legend()) == want
    np.testing.assert_array_equal(ax.images[0].get_array(), ax2.images[0].get_array())
    ax3 = ds.surface_height.rt.plot()
    assert _colourbar_labels(ax3.figure, ax3) == ["height (m)"]
    ax4 = ds.rt.plot_features(background=None)
    assert ax4.get_legend().get_title().get_text() == "features"
    ax5 = ds.rt.plot_height()
    assert ax5.get_xlabel() == "x (m east)" and ax5.get_ylabel() == "y (m north)"


def test_feature_pixel_in_the_map(terrain):
    """A boulder of the terrain is drawn where the axes say it is."""
    g = terrain.grid(X0, Y0, 200, 150)
    r, c = np.nonzero(g.feature == rt.Feature.BOULDER)
    assert r.size
    ax = plot.features(g, background=None)
    img = _rendered(ax.figure)
    for rr, cc in zip(r.tolist(), c.tolist()):
        np.testing.assert_array_equal(img[_pixel_at(ax, g.x[cc], g.y[rr])], [0, 0, 0])


# -- the map -----------------------------------------------------------------------

def test_map_legend_scale_bar_and_north_lines(terrain):
    ax = plot.map(terrain, X0, Y0, 400, 300, pixels_per_metre=2)
    texts = _legend_texts(ax.get_legend())
    g = terrain.grid(X0, Y0, 800, 600, 0.5)
    kinds = [rt.TerrainType(int(k)) for k in sorted(set(g.terrain.ravel()))]
    assert texts[:len(kinds)] == [k.name.capitalize() for k in kinds]
    assert "contour, every 5 m" in texts and "index contour, every 25 m" in texts
    assert "magnetic north, 300 m apart" in texts
    # a map no north line crosses does not list one
    assert (X0 + 10) // 300 == (X0 + 130) // 300
    bare = _legend_texts(plot.map(terrain, X0 + 10, Y0, 120, 90, pixels_per_metre=2
                                  ).get_legend())
    assert not any("magnetic north" in t for t in bare)
    assert ax.get_xlabel() == "x (m east)" and ax.get_ylabel() == "y (m north)"
    offsetboxes = [c for c in ax.get_children()
                   if type(c).__name__ == "AnchoredOffsetbox"]
    assert len(offsetboxes) == 1  # the scale bar
    # the image is the orienteering map, placed with north up in metres
    im = ax.images[0]
    np.testing.assert_array_equal(im.get_array(),
                                  maps.orienteering_map(terrain, X0, Y0, 400, 300, 2))
    assert im.origin == "upper"
    assert im.get_extent() == [X0 - 0.25, X0 + 399.75, Y0 - 0.25, Y0 + 299.75]
    one = plot.map(terrain, X0, Y0, 800, 600, pixels_per_metre=1, legend=True)
    assert "contour, every 10 m" in _legend_texts(one.get_legend())


def test_planet_and_stars_axes():
    p = rt.Planet(2000).map(0, 0, 64, 48)
    ax = plot.planet(p)
    assert ax.get_xlabel() == "east of the centre (km)"
    present = sorted(set(p.terrain[p.visible].ravel()))
    assert _legend_texts(ax.get_legend()) == [rt.TerrainType(int(k)).name.capitalize()
                                              for k in present]
    half = 32 * p.step / 1000
    lo, hi = ax.get_xlim()
    assert lo < -half and hi > half  # the disc is not clipped by the frame
    ax = plot.stars(rt.Galaxy(), (0, 0, 0, 40, 30, 20))
    assert ax.get_xlabel() == "x (light years)" and ax.get_ylabel() == "y (light years)"
    assert _colourbar_labels(ax.figure, ax) == ["colour index (0 blue-white, 15 red)"]
    r = plot.star_radius((0, 0, 0, 40, 30, 20))
    assert ax.get_xlim() == (-0.5 - r, 39.5 + r) and ax.get_ylim() == (-0.5 - r, 29.5 + r)


def test_stars_are_not_clipped():
    # the smallest block holding the initial view's stars: one on each edge.
    # The discs are sized in light years, so "inside the axes" holds in data
    # units whatever the figure's size.
    g = rt.Galaxy()
    s = g.stars(*rt.INITIAL_VIEW)
    x0, y0 = int(s["x"].min()), int(s["y"].min())
    block = (x0, y0, 1, int(s["x"].max()) - x0 + 1, int(s["y"].max()) - y0 + 1, 300)
    ax = plot.stars(g, block)
    (discs,) = ax.collections
    assert discs.get_transform() is not None and len(discs.get_offsets()) == len(s)
    r = np.asarray(discs.get_widths()) / 2
    assert np.allclose(discs.get_widths(), discs.get_heights()) and r.max() > 0
    (x_lo, x_hi), (y_lo, y_hi) = ax.get_xlim(), ax.get_ylim()
    xy = np.asarray(discs.get_offsets())
    assert (xy[:, 0] - r >= x_lo).all() and (xy[:, 0] + r <= x_hi).all()
    assert (xy[:, 1] - r >= y_lo).all() and (xy[:, 1] + r <= y_hi).all()
    # the brightest disc is the largest, sized by star_radius
    assert r.max() <= plot.star_radius(block)
    assert ax.get_aspect() == 1.0
    import matplotlib.pyplot as plt
    plt.close(ax.figure)


def test_planet_grid_in_degrees():
    g = rt.Planet(2000).grid(-10, 20, 20, 30, 1.0)
    ax = plot.height(g)
    assert ax.get_xlabel() == "longitude (° east)" and ax.get_ylabel() == "latitude (° north)"
    assert ax.images[0].get_extent() == [19.5, 49.5, -10.5, 9.5]


# -- bad input and the extra ---------------------------------------------------------

def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="data: must be a 2-D grid"):
        plot.height(np.zeros(5))
    with pytest.raises(ValueError, match="x, y: must be 1-D coordinates"):
        plot.height(np.zeros((3, 4)), x=np.arange(3))
    with pytest.raises(ValueError, match="background"):
        plot.features(np.zeros((3, 4), np.uint8), background="map")


def test_missing_matplotlib_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r"relfterrain\[plot\]"):
        plot._plt()


def test_no_example_changes_the_backend():
    import relfterrain.plot as p

    for mod in (maps, p):
        src = inspect.getsource(mod)
        assert "matplotlib.use(" not in src, mod.__name__


# -- one orientation rule, stated in each docstring ------------------------------------

GRIDS = [rt.Terrain.height_grid, rt.Terrain.terrain_grid, rt.Terrain.feature_grid,
         rt.Terrain.grid, rt.Terrain.building_grid, rt.Terrain.tree_grid,
         rt.Terrain.tree_offset_grid, rt.Planet.height_grid, rt.Planet.grid, rt.Planet.map,
         maps.contour_mask]
IMAGES = [rt.Terrain.map, rt.Terrain.save_map, maps.render, maps.orienteering_map,
          maps.terrain_colours, maps.star_field, maps.mines_map]


@pytest.mark.parametrize("fn", GRIDS, ids=lambda f: f.__qualname__)
def test_grid_docstrings_say_south_first(fn):
    doc = " ".join(inspect.getdoc(fn).split())
    assert "south first" in doc or "row 0 is the southern edge" in doc


@pytest.mark.parametrize("fn", IMAGES, ids=lambda f: f.__qualname__)
def test_image_docstrings_say_north_up(fn):
    doc = " ".join(inspect.getdoc(fn).split())
    assert "north up" in doc


def test_map_png_decodes_to_the_map(terrain):
    Image = pytest.importorskip("PIL.Image")
    img = maps.orienteering_map(terrain, X0, Y0, 200, 150, 2)
    data = maps.png_bytes(img, text={"Source": "relfterrain", "Comment": "Wald – é"})
    back = Image.open(io.BytesIO(data))
    assert back.text == {"Source": "relfterrain", "Comment": "Wald – é"}
    np.testing.assert_array_equal(np.asarray(back.convert("RGB")), img)


def test_every_dataset_has_the_rt_accessor_without_importing_plot():
    # a fresh process: Terrain.dataset registers ``rt``; matplotlib is not imported
    # until a plot is drawn, and then ds.terrain.rt.plot() is categorical
    import subprocess

    pytest.importorskip("xarray")
    root = os.path.dirname(os.path.dirname(os.path.abspath(rt.__file__)))
    code = (
        "import sys, relfterrain as rt\n"
        "ds = rt.Terrain().dataset(23396, 5318, 80, 60)\n"
        "assert 'relfterrain.plot' in sys.modules and 'matplotlib' not in sys.modules\n"
        "ax = ds.terrain.rt.plot()\n"
        "print([t.get_text() for t in ax.get_legend().get_texts()])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=root, env={**os.environ, "PYTHONPATH": root})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['Lake', 'Grass', 'Moor', 'Wood', 'Thicket']"
