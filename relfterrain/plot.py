"""Pictures that explain themselves: matplotlib plots of terrains, maps and stars.

Needs matplotlib (``pip install 'relfterrain[plot]'``), imported when a
function is first called. Every function draws on the axes ``ax`` (a new
figure when None), labels the axes with their units (metres east and
north; longitude and latitude in degrees for planets; light years for
stars), adds a colourbar or a legend wherever a colour means something,
and returns the axes. No function changes the matplotlib backend.

**Orientation.** Grids follow SPEC 1: element ``[r, c]`` is the point
``(x[c], y[r])``, row 0 the southern edge for relfterrain's own grids. The
functions read the coordinates (a :class:`~relfterrain.TerrainGrid`'s
``x`` and ``y``, an xarray object's ``x`` and ``y`` coordinates, or the
``x=`` and ``y=`` you pass) and put north up whichever way the rows run,
so a Dataset with ``y`` descending (north-up rows) is drawn the same as
one with ``y`` ascending. A bare NumPy array without coordinates is taken
as south first (SPEC 1), in sample numbers. Images (:func:`relfterrain.maps.render`)
are north up, row 0 the northern edge.

Functions: :func:`height` (colourbar in metres), :func:`hillshade`,
:func:`terrain` (categorical colours, a legend of the kinds present),
:func:`features` (the map's symbols, a legend of those present),
:func:`map` (the orienteering map with a legend panel, a scale bar and
magnetic-north lines), :func:`planet` (an orthographic planet map in km)
and :func:`stars` (a star field in light years with a colour-index
colourbar). Importing this module also registers the xarray accessor
``rt`` (when xarray is installed): ``ds.rt.plot_terrain()``,
``ds.rt.plot_height()``, ``ds.rt.plot_features()``, ``ds.rt.plot_hillshade()``
and ``ds.terrain.rt.plot()`` (categories from the CF ``flag_meanings``).

>>> import matplotlib.pyplot as plt
>>> import relfterrain as rt
>>> from relfterrain import plot
>>> g = rt.Terrain().grid(23396, 5318, 200, 150)
>>> ax = plot.terrain(g)
>>> ax.get_xlabel(), ax.get_ylabel()
('x (m east)', 'y (m north)')
>>> [t.get_text() for t in ax.get_legend().get_texts()]
['Lake', 'Grass', 'Moor', 'Wood', 'Thicket']
>>> plt.close(ax.figure)
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from ._types import Feature, TerrainType

__all__ = [
    "FEATURE_STYLES",
    "features",
    "height",
    "hillshade",
    "map",
    "planet",
    "star_radius",
    "stars",
    "terrain",
]

#: Matplotlib marker, size (points) and palette colour of each feature drawn on
#: a map: the symbols of relfterrain.maps (SPEC 15).
FEATURE_STYLES: dict[Feature, tuple[str, float, str]] = {
    Feature.BOULDER: ("o", 4.0, "black"),
    Feature.KNOLL: ("o", 5.0, "brown"),
    Feature.MINE: ("v", 6.0, "black"),
    Feature.WATERHOLE: ("v", 6.0, "blue"),
    Feature.X: ("x", 6.0, "black"),
    Feature.ROOT: ("x", 6.0, "green"),
}

_FEATURE_NAMES = {Feature.BOULDER: "boulder", Feature.KNOLL: "knoll",
                  Feature.MINE: "mineshaft", Feature.WATERHOLE: "water hole",
                  Feature.X: "man-made object", Feature.ROOT: "rootstock"}


def _rgb01(colour: Any) -> tuple[float, float, float]:
    """An RGB colour of 0..255 components as matplotlib's 0..1 floats."""
    r, g, b = (float(v) / 255.0 for v in np.asarray(colour).tolist()[:3])
    return (r, g, b)


def _plt() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("relfterrain.plot needs matplotlib; install it with "
                          "pip install 'relfterrain[plot]'") from None
    return plt


def _axes(ax: Any, figsize: tuple[float, float] = (7.0, 5.0)) -> Any:
    if ax is not None:
        return ax
    _, ax = _plt().subplots(figsize=figsize)
    return ax


class _Field(NamedTuple):
    """A 2-D field with ascending coordinates: ``values[r, c]`` at ``(x[c], y[r])``."""

    values: np.ndarray
    x: np.ndarray
    y: np.ndarray
    xlabel: str
    ylabel: str


_METRES = ("x (m east)", "y (m north)")
_DEGREES = ("longitude (° east)", "latitude (° north)")


def _coord_label(coord: Any, default: str) -> str:
    attrs = getattr(coord, "attrs", {}) or {}
    units = attrs.get("units")
    if units in ("m", "metre", "metres", "meter", "meters"):
        return default
    if units:
        return f"{coord.name} ({units})"
    return default


def _field(data: Any, var: str, x: Any = None, y: Any = None) -> _Field:
    """The field ``var`` of ``data`` with its coordinates, rows and columns ascending.

    ``data``: a TerrainGrid (or any object with ``x``, ``y`` and ``var``
    attributes), a PlanetGrid (``lon``, ``lat``), an xarray Dataset (its
    variable ``var``) or DataArray (dims ``(y, x)``), or a 2-D NumPy array
    (south first; ``x``, ``y`` its coordinates, default sample numbers).
    """
    labels = _METRES
    if hasattr(data, "data_vars"):  # xarray Dataset
        if var == "height" and var not in data.data_vars and "surface_height" in data.data_vars:
            var = "surface_height"  # Terrain.dataset's name (ground_height: the lake beds)
        if var not in data.data_vars:
            raise ValueError(f"data: the Dataset has no variable {var!r}")
        data = data[var]
    if hasattr(data, "dims") and hasattr(data, "coords"):  # xarray DataArray
        if data.ndim != 2:
            raise ValueError(f"data: must be 2-D, got dims {data.dims}")
        ydim, xdim = data.dims
        values = np.asarray(data.values)
        xs = np.asarray(data[xdim].values, dtype=np.float64) if xdim in data.coords else \
            np.arange(values.shape[1], dtype=np.float64)
        ys = np.asarray(data[ydim].values, dtype=np.float64) if ydim in data.coords else \
            np.arange(values.shape[0], dtype=np.float64)
        labels = (_coord_label(data.coords.get(xdim), _METRES[0]),
                  _coord_label(data.coords.get(ydim), _METRES[1]))
    elif hasattr(data, "lat") and hasattr(data, "lon") and hasattr(data, var):  # PlanetGrid
        values, xs, ys = np.asarray(getattr(data, var)), np.asarray(data.lon), \
            np.asarray(data.lat)
        labels = _DEGREES
    elif hasattr(data, "x") and hasattr(data, "y") and hasattr(data, var):  # TerrainGrid
        values, xs, ys = np.asarray(getattr(data, var)), np.asarray(data.x), np.asarray(data.y)
    else:
        values = np.asarray(data)
        if values.ndim != 2:
            raise ValueError(f"data: must be a 2-D grid, got shape {values.shape}")
        xs = np.arange(values.shape[1], dtype=np.float64) if x is None else np.asarray(x, float)
        ys = np.arange(values.shape[0], dtype=np.float64) if y is None else np.asarray(y, float)
        if x is None and y is None:
            labels = ("x (samples east)", "y (samples north)")
    if values.ndim != 2 or xs.shape != (values.shape[1],) or ys.shape != (values.shape[0],):
        raise ValueError(f"x, y: must be 1-D coordinates of the grid's columns and rows, "
                         f"got {xs.shape} and {ys.shape} for a grid of shape {values.shape}")
    if xs.size > 1 and xs[0] > xs[-1]:
        xs, values = xs[::-1], values[:, ::-1]
    if ys.size > 1 and ys[0] > ys[-1]:
        ys, values = ys[::-1], values[::-1]
    return _Field(values, xs, ys, *labels)


def _extent(f: _Field) -> tuple[float, float, float, float]:
    """The edges of the pixels: each sample point at its pixel's centre."""
    dx = (f.x[-1] - f.x[0]) / (f.x.size - 1) if f.x.size > 1 else 1.0
    dy = (f.y[-1] - f.y[0]) / (f.y.size - 1) if f.y.size > 1 else 1.0
    return (float(f.x[0] - dx / 2), float(f.x[-1] + dx / 2),
            float(f.y[0] - dy / 2), float(f.y[-1] + dy / 2))


def _show(ax: Any, f: _Field, values: np.ndarray, **kw: Any) -> Any:
    im = ax.imshow(values, origin="lower", extent=_extent(f), interpolation="nearest", **kw)
    ax.set_xlabel(f.xlabel)
    ax.set_ylabel(f.ylabel)
    ax.set_aspect("equal")
    return im


def height(data: Any, ax: Any = None, *, x: Any = None, y: Any = None, cmap: str = "terrain",
           units: str = "m", title: str | None = None) -> Any:
    """The height field with a colourbar in metres; returns the axes.

    ``data``: a TerrainGrid, an xarray Dataset (its ``surface_height``) or
    DataArray, a PlanetGrid, or a 2-D array (south first, SPEC 1; ``x`` and
    ``y`` its coordinates). North is up whichever way the rows run.

    >>> import matplotlib.pyplot as plt, relfterrain as rt
    >>> ax = height(rt.Terrain().grid(23396, 5318, 80, 60))
    >>> ax.figure.axes[1].get_ylabel()
    'height (m)'
    >>> plt.close(ax.figure)
    """
    ax = _axes(ax)
    f = _field(data, "height", x, y)
    im = _show(ax, f, f.values, cmap=cmap)
    ax.figure.colorbar(im, ax=ax, label=f"height ({units})")
    if title is not None:
        ax.set_title(title)
    return ax


def _north_up_shade(z: np.ndarray, dx: float, dy: float, azimuth: float, altitude: float,
                    vert_exag: float) -> np.ndarray:
    from matplotlib.colors import LightSource

    ls = LightSource(azdeg=azimuth, altdeg=altitude)
    # LightSource works on images (row 0 north): give it the rows north first
    return ls.hillshade(z[::-1], vert_exag=vert_exag, dx=dx, dy=dy)[::-1]


def hillshade(data: Any, ax: Any = None, *, x: Any = None, y: Any = None,
              azimuth: float = 315.0, altitude: float = 45.0, vert_exag: float = 1.0,
              title: str | None = None) -> Any:
    """The relief lit from ``azimuth`` degrees (315: north-west), in grey; returns the axes.

    The colourbar reads the illumination, 0 (in shadow) to 1 (facing the
    light). Data as :func:`height`; the slopes use the grid's spacing, so
    ``vert_exag=1`` is the true relief.

    >>> import matplotlib.pyplot as plt, relfterrain as rt
    >>> ax = hillshade(rt.Terrain().grid(23396, 5318, 80, 60))
    >>> ax.figure.axes[1].get_ylabel()
    'illumination (0 shadow, 1 lit)'
    >>> plt.close(ax.figure)
    """
    ax = _axes(ax)
    f = _field(data, "height", x, y)
    z = np.asarray(f.values, dtype=np.float64)
    dx = float(f.x[1] - f.x[0]) if f.x.size > 1 else 1.0
    dy = float(f.y[1] - f.y[0]) if f.y.size > 1 else 1.0
    shade = _north_up_shade(np.nan_to_num(z), dx, dy, azimuth, altitude, vert_exag)
    im = _show(ax, f, shade, cmap="gray", vmin=0.0, vmax=1.0)
    ax.figure.colorbar(im, ax=ax, label="illumination (0 shadow, 1 lit)")
    ax.set_title(title if title is not None else
                 f"hillshade, light from {azimuth:g}° at {altitude:g}°")
    return ax


def _palette(palette: Any) -> Any:
    from .maps import PALETTES, Palette

    if isinstance(palette, Palette):
        return palette
    if not isinstance(palette, str) or palette not in PALETTES:
        raise ValueError(f"palette: must be one of {sorted(PALETTES)}, got {palette!r}")
    return PALETTES[palette]


def _kind_name(k: TerrainType) -> str:
    return k.name.capitalize()


def terrain_colormap(palette: Any = "relf") -> tuple[Any, Any]:
    """A categorical ``(ListedColormap, BoundaryNorm)`` of the terrain codes (0 .. len(TerrainType) - 1)."""
    from matplotlib.colors import BoundaryNorm, ListedColormap

    pal = _palette(palette)
    cmap = ListedColormap(pal.terrain / 255.0, name=f"relfterrain_{pal.name}")
    norm = BoundaryNorm(np.arange(len(TerrainType) + 1) - 0.5, len(TerrainType))
    return cmap, norm


def _kinds_legend(ax: Any, present: list[TerrainType], pal: Any, extra: tuple[Any, ...] = (),
                  **kw: Any) -> Any:
    from matplotlib.patches import Patch

    handles = [Patch(facecolor=_rgb01(pal.terrain[k]), edgecolor="0.4",
                     linewidth=0.5, label=_kind_name(k)) for k in present]
    handles += list(extra)
    return ax.legend(handles=handles, **kw)


def terrain(data: Any, ax: Any = None, *, x: Any = None, y: Any = None,
            palette: Any = "relf", legend: bool = True, title: str | None = None) -> Any:
    """The terrain kinds in the map's colours, with a legend of the kinds present.

    Categorical: each :class:`~relfterrain.TerrainType` code has its
    palette colour (``"relf"`` or ``"isom"``, :data:`relfterrain.maps.PALETTES`),
    and the legend lists exactly the kinds that occur in the data, in code
    order. Data as :func:`height` (the ``terrain`` variable); codes outside
    0..12 (a planet's outside, 255) are left blank. Returns the axes.

    >>> import matplotlib.pyplot as plt, relfterrain as rt
    >>> ax = terrain(rt.Terrain().grid(23396, 5318, 80, 60), palette="isom")
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['Lake', 'Grass', 'Moor', 'Wood', 'Thicket']
    >>> plt.close(ax.figure)
    """
    ax = _axes(ax)
    f = _field(data, "terrain", x, y)
    codes = np.asarray(f.values)
    valid = (codes >= 0) & (codes < len(TerrainType))
    shown = np.ma.masked_array(np.where(valid, codes, 0), mask=~valid)
    cmap, norm = terrain_colormap(palette)
    _show(ax, f, shown, cmap=cmap, norm=norm)
    if legend:
        present = [TerrainType(int(k)) for k in np.unique(codes[valid])]
        _kinds_legend(ax, present, _palette(palette), loc="upper left",
                      bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, title="terrain")
    if title is not None:
        ax.set_title(title)
    return ax


def _feature_handles(present: list[Feature], pal: Any) -> list[Any]:
    from matplotlib.lines import Line2D

    out = []
    for k in present:
        marker, size, colour = FEATURE_STYLES[k]
        c = _rgb01(getattr(pal, colour))
        out.append(Line2D([], [], linestyle="none", marker=marker, markersize=size,
                          color=c, markeredgewidth=1.5, label=_FEATURE_NAMES[k]))
    return out


def features(data: Any, ax: Any = None, *, x: Any = None, y: Any = None,
             palette: Any = "relf", background: Any = "terrain", legend: bool = True,
             title: str | None = None) -> Any:
    """The point features as the map's symbols, with a legend of those present.

    Boulder black dot, knoll brown dot, mineshaft black V, water hole blue
    V, man-made object black x, rootstock green x (SPEC 15; cones and
    rockets are movable and not drawn). ``background="terrain"`` draws the
    terrain kinds beneath (when ``data`` has them) with their own legend;
    None draws the symbols alone. Data as :func:`height` (the ``feature``
    variable). Returns the axes.

    >>> import matplotlib.pyplot as plt, relfterrain as rt
    >>> ax = features(rt.Terrain().grid(23396, 5318, 300, 200), background=None)
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['mineshaft', 'boulder', 'rootstock']
    >>> plt.close(ax.figure)
    """
    ax = _axes(ax)
    pal = _palette(palette)
    f = _field(data, "feature", x, y)
    if background == "terrain" and _has(data, "terrain"):
        terrain(data, ax, x=x, y=y, palette=palette, legend=legend)
        kinds_legend = ax.get_legend()
    else:
        if background not in (None, "terrain"):
            raise ValueError(f"background: must be 'terrain' or None, got {background!r}")
        ax.set_xlim(*_extent(f)[:2])
        ax.set_ylim(*_extent(f)[2:])
        ax.set_xlabel(f.xlabel)
        ax.set_ylabel(f.ylabel)
        ax.set_aspect("equal")
        kinds_legend = None
    codes = np.asarray(f.values)
    present = []
    for k in FEATURE_STYLES:
        r, c = np.nonzero(codes == int(k))
        if r.size == 0:
            continue
        present.append(k)
        marker, size, colour = FEATURE_STYLES[k]
        ax.plot(f.x[c], f.y[r], linestyle="none", marker=marker, markersize=size,
                color=_rgb01(getattr(pal, colour)), markeredgewidth=1.5)
    present.sort()
    if legend and present:
        if kinds_legend is not None:
            ax.add_artist(kinds_legend)
        ax.legend(handles=_feature_handles(present, pal), loc="lower left",
                  bbox_to_anchor=(1.02, 0.0), borderaxespad=0.0, title="features")
    if title is not None:
        ax.set_title(title)
    return ax


def _has(data: Any, var: str) -> bool:
    if hasattr(data, "data_vars"):
        return var in data.data_vars
    return hasattr(data, var) and not isinstance(data, np.ndarray)


# -- the orienteering map ---------------------------------------------------------

def _nice_length(target: float) -> float:
    """1, 2 or 5 times a power of ten, at most ``target``."""
    p = 10.0 ** math.floor(math.log10(target))
    for m in (5.0, 2.0, 1.0):
        if m * p <= target:
            return m * p
    return p


def map(terrain_: Any, x0: float, y0: float, width: float, height: float,  # noqa: A001
        pixels_per_metre: float = 2.0, ax: Any = None, *, legend: bool = True,
        scale_bar: bool = True, north_lines: float | None = 300.0, title: str | None = None,
        **options: Any) -> Any:
    """The orienteering map as The Forest shows it, with a legend panel and a scale bar.

    :func:`relfterrain.maps.orienteering_map` of the area ``width`` x
    ``height`` metres from the south-west corner ``(x0, y0)`` at
    ``pixels_per_metre`` (The Forest: 2): contours at an interval chosen for
    the pixel size (an index contour every fifth, thicker), magnetic-north
    lines every ``north_lines`` metres, the map's symbols. The axes are in
    metres (x east, y north, north up); the legend panel beside the map
    lists the terrain kinds present, the contour lines and interval, the
    north lines and the symbols present. ``options`` go to
    :func:`relfterrain.maps.render` (``palette``, ``features``, ...).
    Returns the axes.

    >>> import matplotlib.pyplot as plt, relfterrain as rt
    >>> ax = map(rt.Terrain(), 23396, 5318, 200, 150)
    >>> ax.get_xlabel(), [float(v) for v in ax.get_xlim()]
    ('x (m east)', [23395.75, 23595.75])
    >>> plt.close(ax.figure)
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from . import maps

    ppm = float(pixels_per_metre)
    opts: dict[str, Any] = {"interval": "auto", "north_lines": north_lines}
    opts.update(options)
    img = maps.orienteering_map(terrain_, x0, y0, width, height, ppm, **opts)
    ny, nx = img.shape[:2]
    step = 1.0 / ppm
    x0, y0 = float(x0), float(y0)
    extent = (x0 - step / 2, x0 + (nx - 1) * step + step / 2,
              y0 - step / 2, y0 + (ny - 1) * step + step / 2)
    ax = _axes(ax, figsize=(9.0, 5.5))
    ax.imshow(img, origin="upper", extent=extent, interpolation="nearest")
    ax.set_xlabel(_METRES[0])
    ax.set_ylabel(_METRES[1])
    ax.set_aspect("equal")
    pal = _palette(opts.get("palette", "relf"))
    interval = opts["interval"]
    if interval == "auto":
        interval = maps.auto_interval(step)
    index_every = int(opts.get("index_every", 5))
    if legend:
        g = terrain_.grid(x0, y0, nx, ny, step, threads=opts.get("threads"))
        shown = set(np.unique(g.terrain).tolist())
        handles: list[Any] = []
        hidden = {TerrainType.MARSH}
        for k in TerrainType:
            if int(k) in shown and k not in hidden:
                edge = "0.4"
                handles.append(Patch(facecolor=_rgb01(pal.terrain[k]),
                                     edgecolor=edge, linewidth=0.5, label=_kind_name(k)))
        if int(TerrainType.MARSH) in shown and opts.get("water", True):
            handles.append(Patch(facecolor="white", edgecolor=_rgb01(pal.blue),
                                 hatch="--", label="Marsh"))
        brown = _rgb01(pal.contour)
        if opts.get("contours", True):
            handles.append(Line2D([], [], color=brown, linewidth=0.8,
                                  label=f"contour, every {interval:g} m"))
            if index_every:
                handles.append(Line2D([], [], color=brown, linewidth=1.8,
                                      label=f"index contour, every {interval * index_every:g} m"))
        x_last = x0 + (nx - 1) * step
        if north_lines is not None and (math.floor((x_last + 0.5 * step) / north_lines)
                                        >= math.ceil((x0 - 0.5 * step) / north_lines)):
            # listed only when one is drawn (as maps._draw_north_lines places them)
            handles.append(Line2D([], [], color=_rgb01(pal.black), linewidth=0.8,
                                  label=f"magnetic north, {north_lines:g} m apart"))
        if opts.get("buildings", True) and int(TerrainType.TOWN) in shown:
            handles.append(Line2D([], [], linestyle="none", marker="s", markersize=6,
                                  color=_rgb01(pal.building), label="building"))
        if opts.get("features", True):
            fx = terrain_.feature_grid(math.ceil(x0 - step / 2), math.ceil(y0 - step / 2),
                                       max(1, math.floor(nx * step)),
                                       max(1, math.floor(ny * step)), 1.0)
            present = sorted(Feature(int(k)) for k in np.unique(fx) if
                             Feature(int(k)) in FEATURE_STYLES)
            handles += _feature_handles(present, pal)
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                  borderaxespad=0.0, title="legend", fontsize="small")
    if scale_bar:
        from matplotlib.offsetbox import AnchoredOffsetbox, AuxTransformBox, TextArea, VPacker
        from matplotlib.patches import Rectangle

        length = _nice_length(0.25 * nx * step)
        box = AuxTransformBox(ax.transData)
        thick = 0.012 * ny * step
        box.add_artist(Rectangle((0, 0), length / 2, thick, facecolor="black",
                                 edgecolor="black", linewidth=0.5))
        box.add_artist(Rectangle((length / 2, 0), length / 2, thick, facecolor="white",
                                 edgecolor="black", linewidth=0.5))
        label = TextArea(f"{length:g} m" if length < 1000 else f"{length / 1000:g} km")
        packed = VPacker(children=[box, label], align="center", pad=0, sep=3)
        anchored = AnchoredOffsetbox(loc="lower right", child=packed, pad=0.4, borderpad=0.6,
                                     frameon=True)
        anchored.patch.set_alpha(0.85)
        ax.add_artist(anchored)
    ax.set_title(title if title is not None else
                 f"orienteering map, {ppm:g} px per metre")
    return ax


# -- planets and stars ----------------------------------------------------------------

def planet(planet_map: Any, ax: Any = None, *, palette: Any = "relf", legend: bool = True,
           title: str | None = None) -> Any:
    """A :meth:`Planet.map <relfterrain.Planet.map>` (orthographic) as terrain kinds.

    The axes are the tangent plane in km east and north of the centre
    (``PlanetMap`` rows are south first, SPEC 1; drawn north up), the disc
    with a margin so its edge is not clipped, and the legend lists the
    kinds present. For a latitude/longitude grid (:meth:`Planet.grid`) use
    :func:`terrain` or :func:`height`: their axes are then in degrees.

    >>> import matplotlib.pyplot as plt, relfterrain as rt
    >>> ax = planet(rt.Planet(2000).map(0, 0, 64, 48))
    >>> ax.get_xlabel()
    'east of the centre (km)'
    >>> plt.close(ax.figure)
    """
    t = np.asarray(planet_map.terrain)
    ny, nx = t.shape
    step = float(planet_map.step) / 1000.0
    xs = (np.arange(nx) - (nx - 1) / 2) * step
    ys = (np.arange(ny) - (ny - 1) / 2) * step
    ax = terrain(t, ax, x=xs, y=ys, palette=palette, legend=legend, title=title)
    ax.set_xlabel("east of the centre (km)")
    ax.set_ylabel("north of the centre (km)")
    pad = 0.04 * max(nx, ny) * step
    ax.set_xlim(xs[0] - step / 2 - pad, xs[-1] + step / 2 + pad)
    ax.set_ylim(ys[0] - step / 2 - pad, ys[-1] + step / 2 + pad)
    return ax


def stars(galaxy: Any = None, block: Any = None, ax: Any = None, *,
          title: str | None = None, threads: int | None = None) -> Any:
    """The stars of a block seen along z: positions in light years, colour index bar.

    Each star is a disc at its ``(x, y)``, larger for a brighter star
    (smaller magnitude), coloured by its colour index (0 blue-white .. 15
    red, :data:`relfterrain.maps.STAR_COLOURS`, read on the colourbar), on
    black. The discs are sized in light years (the brightest
    :func:`star_radius` of the block), so they scale with the axes, and the
    axes reach that radius and half a light year beyond the block: no star
    is clipped, whatever the figure's size. ``block`` defaults to the
    initial view.

    >>> import matplotlib.pyplot as plt, relfterrain as rt
    >>> ax = stars(rt.Galaxy())
    >>> ax.get_xlabel()
    'x (light years)'
    >>> plt.close(ax.figure)
    """
    from matplotlib.collections import EllipseCollection
    from matplotlib.colors import BoundaryNorm, ListedColormap

    from . import _validate
    from .galaxy import INITIAL_VIEW, Block, Galaxy
    from .maps import STAR_COLOURS

    g = Galaxy() if galaxy is None else galaxy
    b = Block(*_validate.space_block_of(INITIAL_VIEW if block is None else block))
    s = g.stars(*b, threads=threads)
    ax = _axes(ax)
    ax.set_facecolor("black")
    cmap = ListedColormap(STAR_COLOURS / 255.0, name="star_colour_index")
    norm = BoundaryNorm(np.arange(17) - 0.5, 16)
    lo, rng = g.min_magnitude, g.magnitude_range
    bright = np.clip((lo + rng - s["magnitude"]) / rng, 0.0, 1.0) if rng > 0 else \
        np.ones(len(s))
    order = np.argsort(-s["magnitude"], kind="stable")
    big = star_radius(b)
    diameters = 2.0 * big * (0.3 + 0.7 * bright[order])
    offsets = np.column_stack([s["x"][order], s["y"][order]]).astype(np.float64)
    discs = EllipseCollection(diameters, diameters, np.zeros(len(s)), units="xy",
                              offsets=offsets, offset_transform=ax.transData,
                              cmap=cmap, norm=norm, linewidths=0)
    discs.set_array(s["colour"][order].astype(np.float64))
    ax.add_collection(discs, autolim=False)
    pad = big + 0.5
    ax.set_xlim(b.x0 - pad, b.x0 + b.nx - 1 + pad)
    ax.set_ylim(b.y0 - pad, b.y0 + b.ny - 1 + pad)
    ax.set_aspect("equal")
    ax.set_xlabel("x (light years)")
    ax.set_ylabel("y (light years)")
    cb = ax.figure.colorbar(discs, ax=ax, ticks=[0, 5, 10, 15])
    cb.set_label("colour index (0 blue-white, 15 red)")
    ax.set_title(title if title is not None else
                 f"{len(s)} stars, z {b.z0} to {b.z0 + b.nz - 1} ly")
    return ax


def star_radius(block: Any) -> float:
    """The radius in light years of the brightest star's disc in :func:`stars`.

    A hundredth of the block's larger side (at least half a light year), so
    the picture looks alike at any block size; fainter stars are down to 0.3
    of it.

    >>> star_radius((-400, -300, 1, 800, 600, 300))
    8.0
    """
    from . import _validate

    b = _validate.space_block_of(block)
    return max(0.5, max(b[3], b[4]) / 100.0)


# -- xarray --------------------------------------------------------------------------

def _register_accessors() -> None:
    try:
        import xarray as xr
    except ImportError:
        return
    if hasattr(xr.Dataset, "rt"):
        return

    @xr.register_dataset_accessor("rt")
    class DatasetPlots:
        """``ds.rt``: relfterrain's plots of a terrain Dataset (see :mod:`relfterrain.plot`)."""

        def __init__(self, ds: Any) -> None:
            self._ds = ds

        def plot_height(self, ax: Any = None, **kw: Any) -> Any:
            return height(self._ds, ax, **kw)

        def plot_hillshade(self, ax: Any = None, **kw: Any) -> Any:
            return hillshade(self._ds, ax, **kw)

        def plot_terrain(self, ax: Any = None, **kw: Any) -> Any:
            return terrain(self._ds, ax, **kw)

        def plot_features(self, ax: Any = None, **kw: Any) -> Any:
            return features(self._ds, ax, **kw)

    @xr.register_dataarray_accessor("rt")
    class DataArrayPlots:
        """``da.rt.plot()``: a categorical plot for a CF flag variable, else a height plot."""

        def __init__(self, da: Any) -> None:
            self._da = da

        def plot(self, ax: Any = None, **kw: Any) -> Any:
            meanings = str(self._da.attrs.get("flag_meanings", "")).split()
            if meanings and meanings[:3] == [m.name for m in TerrainType][:3]:
                return terrain(self._da, ax, **kw)
            if meanings and meanings[:2] == [m.name for m in Feature][:2]:
                return features(self._da, ax, background=None, **kw)
            units = str(self._da.attrs.get("units", "m"))
            return height(self._da, ax, units=units, **kw)


_register_accessors()
