"""Issue 20: outputs GIS tools read right, limitless lazy worlds, provenance.

Every grid checked here is compared with SPEC's independent transcription
(``tests/reference.py``) or with the NumPy grids (themselves tested against
it), never with the code under test alone.
"""

import json
import math
import os
import sys

import numpy as np
import pytest
import reference as R
from helpers import bits

import relfterrain as rt

xr = pytest.importorskip("xarray")

AREA = (23396.0, 5318.0, 61, 47, 1.0)   # includes lake, lake bed and land
ODD = (24090.5, 5360.25, 23, 19, 0.7)   # an odd origin and step


@pytest.fixture
def dask():
    return pytest.importorskip("dask")


@pytest.fixture
def rtd(dask):
    import relfterrain.dask

    return relfterrain.dask


@pytest.fixture
def rasterio():
    pytest.importorskip("rioxarray")
    return pytest.importorskip("rasterio")


# -- conventions -------------------------------------------------------------------


@pytest.mark.parametrize("area", [AREA, ODD])
def test_dataset_is_north_up_with_both_heights(area):
    t = rt.Terrain()
    x0, y0, nx, ny, step = area
    ds = t.dataset(*area)
    p = R.Params()
    _, _, rh, rd, rtt, rf = R.grid(p, *area)
    rg = R.height_grid(p, *area)
    # row 0 is the northern edge: the reference's last row
    assert ds.y.values[0] == y0 + float(ny - 1) * step and ds.y.values[-1] == y0
    assert np.all(np.diff(ds.y.values) < 0) and np.all(np.diff(ds.x.values) > 0)
    assert np.array_equal(bits(ds.surface_height.values), bits(rh[::-1]))
    assert np.array_equal(bits(ds.ground_height.values), bits(rg[::-1]))
    assert np.array_equal(ds.terrain.values, rtt[::-1])
    assert np.array_equal(ds.feature.values, rf[::-1])
    assert np.array_equal(bits(ds.depth.values), bits(rd[::-1]))
    # both heights really differ on lakes (the water surface against the bed)
    lake = ds.terrain.values == rt.TerrainType.LAKE
    if area is AREA:
        assert lake.any() and (~lake).any()
        assert np.all(ds.surface_height.values[lake] > ds.ground_height.values[lake])
    assert np.array_equal(ds.surface_height.values[~lake], ds.ground_height.values[~lake])
    # the raw NumPy grids keep SPEC 1's south-first rows
    assert t.grid(*area).y[0] == y0


@pytest.mark.parametrize("name", ["skylands", "forest", "my_terrain"])
def test_ground_height_exact_on_presets_with_placed_cells(name):
    t = rt.Terrain.preset(name)
    x0, y0, nx, ny, step = 23396.0, 5318.0, 96, 80, 3.0
    t.place(23400, 5321, rt.TerrainType.ROAD)
    t.place(23460, 5400, rt.TerrainType.STREAM)
    ds = t.dataset(x0, y0, nx, ny, step)
    assert np.array_equal(bits(ds.ground_height.values),
                          bits(t.height_grid(x0, y0, nx, ny, step)[::-1]))
    assert np.array_equal(bits(ds.surface_height.values),
                          bits(t.grid(x0, y0, nx, ny, step).height[::-1]))


def test_spatial_ref_and_cf_attributes(rasterio):
    ds = rt.Terrain().dataset(*AREA)
    sr = ds.spatial_ref.attrs
    assert sr["crs_wkt"] == rt.crs.LOCAL_CRS_WKT
    assert [float(v) for v in sr["GeoTransform"].split()] == \
        [AREA[0] - 0.5, 1.0, 0.0, AREA[1] + AREA[3] - 1 + 0.5, 0.0, -1.0]
    for v in ("surface_height", "ground_height", "depth", "terrain", "feature"):
        assert ds[v].attrs["grid_mapping"] == "spatial_ref"
    # rioxarray reads the CRS and the transform
    crs = ds.rio.crs
    assert crs is not None and rt.crs.LOCAL_CRS_NAME in crs.to_wkt()
    tr = ds.rio.transform()
    assert (tr.a, tr.e, tr.c, tr.f) == (1.0, -1.0, AREA[0] - 0.5, AREA[1] + AREA[3] - 0.5)
    assert ds.terrain.attrs["flag_meanings"].split()[0] == "LAKE"


def test_user_crs_and_origin(rasterio):
    ds = rt.Terrain().dataset(*AREA, crs="EPSG:32630", origin=(400000, 5600000))
    assert ds.x.values[0] == 400000 + AREA[0]
    assert ds.y.values[-1] == 5600000 + AREA[1]
    assert ds.rio.crs.to_epsg() == 32630
    assert json.loads(ds.attrs["relfterrain_origin"]) == [400000.0, 5600000.0]


def test_xrspatial_aspect_agrees_with_finite_differences():
    """Done when: xarray-spatial's aspect on dataset() against an independent
    finite-difference aspect from height_grid, within 1 degree (median, land)."""
    xrs = pytest.importorskip("xrspatial")
    t = rt.Terrain()
    x0, y0, nx, ny, step = 22000.0, 4200.0, 600, 500, 1.0
    ds = t.dataset(x0, y0, nx, ny, step)
    got = xrs.aspect(ds.surface_height).values
    # independent: SPEC 1 south-first heights, central differences in world axes
    h = t.height_grid(x0, y0, nx, ny, step)
    dzdx = (h[1:-1, 2:] - h[1:-1, :-2]) / (2 * step)
    dzdy = (h[2:, 1:-1] - h[:-2, 1:-1]) / (2 * step)      # row + 1 is north
    # aspect: compass direction the slope faces (downhill), clockwise from north
    ref = np.degrees(np.arctan2(-dzdx, -dzdy)) % 360.0
    land = (t.grid(x0, y0, nx, ny, step).terrain != rt.TerrainType.LAKE)[1:-1, 1:-1]
    flat = np.hypot(dzdx, dzdy) < 1e-3
    inner = got[1:-1, 1:-1][::-1]                           # back to south-first rows
    ok = land & ~flat & np.isfinite(inner) & (inner >= 0)
    assert ok.sum() > 10000
    diff = np.abs((inner[ok] - ref[ok] + 180.0) % 360.0 - 180.0)
    assert np.median(diff) < 1.0
    # the check can fail: the old south-up Dataset was off by about 90 degrees
    south_up = xrs.aspect(ds.surface_height.sortby("y")).values[1:-1, 1:-1]
    ok2 = ok & np.isfinite(south_up) & (south_up >= 0)
    assert np.median(np.abs((south_up[ok2] - ref[ok2] + 180.0) % 360.0 - 180.0)) > 45.0


# -- GeoTIFF, NetCDF, zarr -----------------------------------------------------------


@pytest.mark.parametrize("variable", ["ground_height", "surface_height", "terrain"])
def test_geotiff_reads_back_bit_for_bit(tmp_path, rasterio, variable):
    t = rt.Terrain()
    path = tmp_path / "area.tif"
    t.to_geotiff(path, *ODD, variable=variable)
    ds = t.dataset(*ODD)
    with rasterio.open(path) as f:
        band = f.read(1)
        assert f.count == 1 and f.dtypes[0] == str(ds[variable].dtype)
        assert np.array_equal(band.view(np.uint8), ds[variable].values.view(np.uint8))
        assert f.transform.e < 0  # north up
        assert rt.crs.LOCAL_CRS_NAME in f.crs.to_wkt()
        # xy() of a pixel is that sample's world coordinates
        for r, c in [(0, 0), (5, 7), (ODD[3] - 1, ODD[2] - 1)]:
            x, y = f.xy(r, c)
            assert math.isclose(x, ODD[0] + c * ODD[4], abs_tol=1e-9)
            assert math.isclose(y, ODD[1] + (ODD[3] - 1 - r) * ODD[4], abs_tol=1e-9)
        tags = f.tags()
        assert tags["relfterrain_variable"] == variable
        if band.dtype == np.float64:
            assert math.isnan(f.nodata)
        else:
            assert f.nodata == 255 and not (band == 255).any()
        # a Cloud-Optimized GeoTIFF: tiled
        assert f.profile.get("tiled") or f.profile.get("blockxsize")
    t2, window = rt.Terrain.from_provenance(tags)
    again = t2.dataset(*window)[variable].values
    assert np.array_equal(again.view(np.uint8), band.view(np.uint8))


def test_geotiff_in_a_given_crs(tmp_path, rasterio):
    path = tmp_path / "utm.tif"
    rt.Terrain().to_geotiff(path, *AREA, crs="EPSG:32630", origin=(400000, 5600000))
    with rasterio.open(path) as f:
        assert f.crs.to_epsg() == 32630
        assert f.xy(0, 0) == (400000 + AREA[0], 5600000 + AREA[1] + AREA[3] - 1)


def test_netcdf_and_zarr_carry_the_crs(tmp_path, rasterio):
    pytest.importorskip("h5netcdf")
    pytest.importorskip("zarr")
    ds = rt.Terrain().dataset(*AREA)
    ds.to_netcdf(tmp_path / "a.nc", engine="h5netcdf")
    with xr.open_dataset(tmp_path / "a.nc", engine="h5netcdf") as nc:
        assert rt.crs.LOCAL_CRS_NAME in nc.rio.crs.to_wkt()
        assert nc.attrs["relfterrain_placed_fingerprint"] == \
            ds.attrs["relfterrain_placed_fingerprint"]
        assert np.array_equal(bits(nc.ground_height.values), bits(ds.ground_height.values))
    ds.to_zarr(tmp_path / "a.zarr", mode="w", consolidated=False)
    with xr.open_zarr(tmp_path / "a.zarr", consolidated=False) as z:
        assert rt.crs.LOCAL_CRS_NAME in z.rio.crs.to_wkt()
        t2, window = rt.Terrain.from_provenance(z.attrs)
        assert window == rt.provenance.Window(*AREA)


def test_cli_writes_a_geotiff(tmp_path, rasterio):
    from relfterrain.cli import main

    out = tmp_path / "area.tif"
    assert main(["grid", "23396", "5318", "61", "47", "--variable", "surface_height",
                 "-o", str(out)]) == 0
    with rasterio.open(out) as f:
        band = f.read(1)
        assert f.transform.e < 0 and rt.crs.LOCAL_CRS_NAME in f.crs.to_wkt()
    assert np.array_equal(bits(band), bits(rt.Terrain().grid(*AREA).height[::-1]))
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".part.tif")]


# -- provenance ----------------------------------------------------------------------


def _world():
    t = rt.Terrain(lake_height=215.0)
    t.place(23400, 5320, rt.TerrainType.ROAD)
    t.place(23410, 5330, rt.Feature.CONE)
    t.add_road([(23420, 5325), (23450, 5340)], half_width=2)
    return t


def test_provenance_round_trips_to_the_same_bits(tmp_path):
    t = _world()
    ds = t.dataset(*ODD)
    t2, window = rt.Terrain.from_provenance(ds.attrs)
    assert t2 == t and tuple(window) == ODD
    again = t2.dataset(*window)
    for v in ds.data_vars:
        assert np.array_equal(ds[v].values.view(np.uint8), again[v].values.view(np.uint8))
    # another placed table is refused, naming what differs
    with pytest.raises(ValueError, match="placed table"):
        rt.Terrain.from_provenance(ds.attrs, world=rt.Terrain(lake_height=215.0))
    # a large world is not embedded: the saved world is given instead
    attrs = {k: v for k, v in ds.attrs.items() if k != "relfterrain_world"}
    with pytest.raises(ValueError, match="world"):
        rt.Terrain.from_provenance(attrs)
    t.save(tmp_path / "w.json")
    t3, _ = rt.Terrain.from_provenance(attrs, world=tmp_path / "w.json")
    assert t3 == t
    with pytest.raises(ValueError, match="relfterrain_window"):
        rt.Terrain.from_provenance({"title": "x"})


def test_png_maps_carry_provenance(tmp_path):
    pytest.importorskip("PIL")
    from PIL import Image

    t = _world()
    path = tmp_path / "m.png"
    t.save_map(path, 23396, 5318, 60, 40)
    with Image.open(path) as im:
        text = dict(im.text)
    t2, window = rt.Terrain.from_provenance(text)
    assert t2 == t and tuple(window) == (23396.0, 5318.0, 60, 40, 1.0)


# -- lazy worlds ------------------------------------------------------------------------


def _counting(monkeypatch):
    """Count the points the lazy windows have the core compute (each block's
    one C call and each selection's points), and the terrain's own grids."""
    from relfterrain import _window

    seen = []
    orig_block, orig_points = _window.GridWindow._block, _window.GridWindow._points

    def block(self, r0, r1, c0, c1, *a, **k):
        seen.append((r1 - r0) * (c1 - c0))
        return orig_block(self, r0, r1, c0, c1, *a, **k)

    def points(self, rows, cols, *a, **k):
        seen.append(rows.size * cols.size)
        return orig_points(self, rows, cols, *a, **k)
    monkeypatch.setattr(_window.GridWindow, "_block", block)
    monkeypatch.setattr(_window.GridWindow, "_points", points)
    for name in ("grid", "height_grid"):
        orig = getattr(rt.Terrain, name)

        def wrapped(self, x0, y0, nx, ny, *a, _orig=orig, **k):
            seen.append(nx * ny)
            return _orig(self, x0, y0, nx, ny, *a, **k)
        monkeypatch.setattr(rt.Terrain, name, wrapped)
    return seen


def test_huge_lazy_arrays_cost_what_is_selected(rtd, monkeypatch):
    t = rt.Terrain()
    h = rtd.height_grid(t, 0, 0, 2**40, 2**40)       # issue 19: the graph was 8.4 GB
    assert len(h.chunks[0]) * len(h.chunks[1]) <= rtd.MAX_BLOCKS
    seen = _counting(monkeypatch)
    got = h[:10, :10].compute(scheduler="sync")
    assert np.array_equal(bits(got), bits(t.height_grid(0, 0, 10, 10)))
    assert 100 <= sum(seen) - 100 <= 200  # the selection (and the reference's 100)
    h2 = rtd.height_grid(t, 0, 0, 2**40, 2**40, chunks=(2**34, 2**34))
    seen.clear()
    got = h2[2**34 - 3:2**34 + 2, 7:9].compute(scheduler="sync")  # across a block edge
    assert np.array_equal(bits(got), bits(t.height_grid(0, 0, 2, 5, offset=(2**34 - 3, 7))))
    assert 10 <= sum(seen) - 10 <= 2 * 10 + 100


def test_lazy_dataset_of_the_whole_2_26_world(rtd, monkeypatch):
    t = rt.Terrain()
    ds = rtd.dataset(t, -2**26, -2**26, 2**27 + 1, 2**27 + 1)
    seen = _counting(monkeypatch)
    w = ds.sel(x=slice(23396, 23396 + 60), y=slice(5318 + 46, 5318)).compute(scheduler="sync")
    computed = sum(seen)
    assert 61 * 47 <= computed <= 10 * 61 * 47
    ref = t.dataset(23396, 5318, 61, 47)
    for v in ref.data_vars:
        assert np.array_equal(w[v].values.view(np.uint8), ref[v].values.view(np.uint8)), v
    assert np.array_equal(w.x.values, ref.x.values) and np.array_equal(w.y.values, ref.y.values)


@pytest.mark.parametrize("chunks", [(16, 20), ((7, 30, 10), (11, 1, 49))])
def test_lazy_dataset_equals_memory_and_strided_selections(rtd, chunks):
    t = _world()
    lazy = rtd.dataset(t, *AREA, chunks=chunks)
    eager = t.dataset(*AREA)
    xr.testing.assert_identical(lazy.compute(), eager)
    for sel in [{"y": slice(3, 40, 4), "x": slice(None, None, 7)}, {"x": [1, 50, 3], "y": 5},
                {"y": slice(None, None, -3)}]:
        xr.testing.assert_identical(lazy.isel(**sel).compute(), eager.isel(**sel))


def test_dask_grid_has_the_named_fields(rtd, dask):
    t = _world()
    g = rtd.grid(t, *ODD, chunks=(5, 6))
    ref = t.grid(*ODD)
    assert g._fields == ref._fields
    assert np.array_equal(g.x, ref.x) and np.array_equal(g.y, ref.y)
    got = dask.compute(g.height, g.depth, g.terrain, g.feature)
    for a, name in zip(got, ("height", "depth", "terrain", "feature")):
        assert np.array_equal(a.view(np.uint8), getattr(ref, name).view(np.uint8))
    assert g.terrain.compute().shape == (ODD[3], ODD[2])


@pytest.mark.parametrize("chunks, match", [
    ((0, 0), "chunks"), ((2**10, 2**10), "chunks.*blocks"), ((-5, 3), "chunks"),
    (((1,), (3,)), "chunks"), ((True, 3), "chunks")])
def test_chunks_that_do_not_fit(rtd, chunks, match):
    with pytest.raises((ValueError, TypeError), match=match):
        rtd.height_grid(rt.Terrain(), 0, 0, 2**20, 2**20, chunks=chunks)


def _register_entry_point(tmp_path, monkeypatch):
    """What ``pip install relfterrain`` does: the xarray.backends entry point."""
    dist = tmp_path / "site" / "relfterrain_backend_test-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: relfterrain-backend-test\n"
                                   "Version: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[xarray.backends]\n"
        "relfterrain = relfterrain.xarray_backend:RelfterrainBackendEntrypoint\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    from xarray.backends import plugins

    plugins.list_engines.cache_clear()
    return plugins


def test_open_dataset_engine_on_a_preset_and_a_saved_world(tmp_path, monkeypatch, dask):
    plugins = _register_entry_point(tmp_path, monkeypatch)
    try:
        assert "relfterrain" in plugins.list_engines()
        ds = xr.open_dataset("skylands", engine="relfterrain", x0=AREA[0], y0=AREA[1],
                             nx=AREA[2], ny=AREA[3], chunks={})
        assert ds.surface_height.chunks is not None
        xr.testing.assert_identical(ds.compute(), rt.Terrain.preset("skylands").dataset(*AREA))
        t = _world()
        t.save(tmp_path / "world.json")
        big = xr.open_dataset(tmp_path / "world.json", engine="relfterrain",
                              x0=-2**26, y0=-2**26, nx=2**27, ny=2**27, step=1.0)
        w = big.sel(x=slice(24090, 24199), y=slice(5400, 5390)).load()
        assert w.sizes["y"] == 11 and w.sizes["x"] == 110
        ref = t.dataset(24090.0, 5390.0, 110, 11)
        for v in ref.data_vars:
            assert np.array_equal(w[v].values.view(np.uint8), ref[v].values.view(np.uint8))
        with pytest.raises(FileNotFoundError, match="filename_or_obj"):
            xr.open_dataset(str(tmp_path / "missing.json"), engine="relfterrain")
    finally:
        plugins.list_engines.cache_clear()


def test_open_dataset_is_dask_backed_without_chunks(tmp_path, monkeypatch, dask):
    plugins = _register_entry_point(tmp_path, monkeypatch)
    try:
        t = _world()
        t.save(tmp_path / "world.json")
        for world, terrain in [("forest", rt.Terrain.preset("forest")),
                               (tmp_path / "world.json", t)]:
            ds = xr.open_dataset(world, engine="relfterrain", x0=-2**26, y0=-2**26,
                                 nx=2**27, ny=2**27)     # no chunks=
            for v in ds.data_vars.values():
                assert isinstance(v.data, dask.array.Array), v.name
                assert type(v.variable) is xr.Variable
            assert ds.chunks and len(ds.chunks["y"]) <= 64
            seen = _counting(monkeypatch)
            w = ds.isel(x=slice(2**26 + 24090, 2**26 + 24100),
                        y=slice(2**26 - 5400 - 1, 2**26 - 5390)).compute(scheduler="sync")
            assert 5 * 110 <= sum(seen) <= 5 * 110 + 5   # each variable: its 110 points
            ref = terrain.dataset(24090.0, 5390.0, 10, 11)
            for v in ref.data_vars:
                assert np.array_equal(w[v].values.view(np.uint8), ref[v].values.view(np.uint8))
            seen.clear()
            one = float(ds.ground_height.sel(x=24090.4, y=5390.2).compute(scheduler="sync"))
            assert sum(seen) == 1 and one == terrain.height(24090.0, 5390.0)
        # chunks={} keeps the backend's blocks; other chunks rechunk
        ds = xr.open_dataset("classic", engine="relfterrain", chunks={}, blocks=(512, 1024))
        assert ds.surface_height.chunks == ((512,) * 8, (1024,) * 4)
        ds = xr.open_dataset("classic", engine="relfterrain", chunks={"x": 2048, "y": 2048})
        assert ds.surface_height.chunks == ((2048, 2048), (2048, 2048))
    finally:
        plugins.list_engines.cache_clear()


@pytest.mark.parametrize("chunks", [None, (16, 20), ((7, 30, 10), (11, 1, 49))])
@pytest.mark.parametrize("scheduler", ["threads", "sync"])
def test_compute_without_assembly_equals_memory(rtd, chunks, scheduler):
    t = _world()
    lazy = rtd.dataset(t, *AREA, chunks=chunks or rtd.DEFAULT_CHUNKS)
    eager = t.dataset(*AREA)
    got = rtd.compute(lazy, scheduler=scheduler)
    xr.testing.assert_identical(got, eager)
    assert all(isinstance(v.data, np.ndarray) for v in got.data_vars.values())
    # a selection of it (Dask's own blocks, stored), a DataArray, a TerrainGrid, an array
    xr.testing.assert_identical(rtd.compute(lazy.isel(x=slice(3, 50, 2)), scheduler=scheduler),
                                eager.isel(x=slice(3, 50, 2)))
    xr.testing.assert_identical(rtd.compute(lazy.depth), eager.depth)
    g = rtd.compute(rtd.grid(t, *ODD, chunks=(5, 6)), scheduler=scheduler)
    ref = t.grid(*ODD)
    for name in ref._fields:
        assert np.array_equal(np.asarray(getattr(g, name)).view(np.uint8),
                              np.asarray(getattr(ref, name)).view(np.uint8)), name
    h = rtd.compute(rtd.height_grid(t, *ODD, chunks=(5, 6), dtype="float32"))
    assert np.array_equal(h, t.height_grid(*ODD, dtype="float32"))


def test_compute_with_processes(rtd):
    """A scheduler that does not share memory: Dask's own compute."""
    t = _world()
    got = rtd.compute(rtd.dataset(t, *ODD, chunks=(10, 12)), scheduler="processes",
                      num_workers=2)
    xr.testing.assert_identical(got, t.dataset(*ODD))


def test_compute_fills_bands_in_place(rtd, monkeypatch):
    """The whole window's fields are computed by the core into the result:
    every point once, in full-row bands, no block of Dask's made."""
    t = _world()
    seen = _counting(monkeypatch)
    got = rtd.compute(rtd.dataset(t, *AREA, chunks=(16, 20)), scheduler="threads")
    assert sum(seen) == AREA[2] * AREA[3]
    assert got.surface_height.values.base is not None  # a view: north up of south first
    xr.testing.assert_identical(got, t.dataset(*AREA))


# -- vectors -----------------------------------------------------------------------------


def test_vectors_geojson_and_geodataframe(tmp_path):
    t = _world()
    fc = rt.gis.vectors(t, 23396, 5318, 800, 600, sites=([23400, 23600], [5320, 5500]))
    kinds = {f["properties"]["kind"] for f in fc["features"]}
    assert kinds == {"stream", "marsh", "road", "feature", "site"}
    streams = t.streams(23396, 5318, 800, 600)
    got = [f for f in fc["features"] if f["properties"]["kind"] == "stream"]
    assert len(got) == len(streams)
    for f, s in zip(got, streams):
        assert f["geometry"]["coordinates"] == s.route.astype(float).tolist()
        assert f["properties"]["length"] == s.length and f["properties"]["end"] == s.end
    ft = t.features(23396, 5318, 800, 600)
    feats = [f for f in fc["features"] if f["properties"]["kind"] == "feature"]
    assert [f["properties"]["code"] for f in feats] == ft.code.tolist()
    path = tmp_path / "v.geojson"
    rt.gis.write_geojson(fc, path)
    assert json.loads(path.read_text())["relfterrain"]["relfterrain_fingerprint"] == \
        t.params.fingerprint()
    gpd = pytest.importorskip("geopandas")
    gdf = rt.gis.to_geodataframe(fc)
    assert isinstance(gdf, gpd.GeoDataFrame) and len(gdf) == len(fc["features"])
    assert rt.crs.LOCAL_CRS_NAME in gdf.crs.to_wkt()
    utm = rt.gis.to_geodataframe(rt.gis.vectors(t, 23396, 5318, 800, 600, crs="EPSG:32630",
                                                origin=(4e5, 5.6e6), features=False))
    assert utm.crs.to_epsg() == 32630
    assert utm.geometry.iloc[0].coords[0][0] == 4e5 + streams[0].route[0, 0]


def test_geojson_states_its_crs_and_geopandas_reads_it(tmp_path):
    """RFC 7946: WGS 84 lon/lat for a world placed on Earth; the local CRS said
    so in the file (a crs member GDAL reads), never passed off as WGS 84."""
    gpd = pytest.importorskip("geopandas")
    pyproj = pytest.importorskip("pyproj")
    t = _world()
    area = (23396, 5318, 800, 600)
    local = rt.gis.vectors(t, *area)
    rt.gis.write_geojson(local, tmp_path / "local.geojson")
    text = json.loads((tmp_path / "local.geojson").read_text())
    assert text["crs"]["properties"]["name"] == rt.crs.LOCAL_CRS_WKT
    assert "NOT WGS 84" in text["relfterrain"]["geojson_coordinates"]
    back = gpd.read_file(tmp_path / "local.geojson")
    assert back.crs is not None and back.crs.is_engineering and back.crs.to_epsg() != 4326
    assert rt.crs.LOCAL_CRS_NAME in back.crs.to_wkt()
    mem = rt.gis.to_geodataframe(local)
    assert len(back) == len(mem)
    for a, b in zip(back.geometry, mem.geometry):  # the rasters' metres, unchanged
        assert a.equals_exact(b, 0.0)
    # placed on Earth: the rasters' CRS in memory, WGS 84 in the file
    placed = rt.gis.vectors(t, *area, crs="EPSG:32630", origin=(4e5, 5.6e6))
    ds = t.dataset(23396, 5318, 8, 6, crs="EPSG:32630", origin=(4e5, 5.6e6))
    mem = rt.gis.to_geodataframe(placed)
    assert mem.crs == pyproj.CRS.from_wkt(ds.spatial_ref.attrs["crs_wkt"])
    assert mem.geometry.iloc[0].coords[0][0] == 4e5 + t.streams(*area)[0].route[0, 0]
    rt.gis.write_geojson(placed, tmp_path / "utm.geojson")
    text = json.loads((tmp_path / "utm.geojson").read_text())
    assert "crs" not in text and "RFC 7946" in text["relfterrain"]["geojson_coordinates"]
    lon, lat = text["features"][0]["geometry"]["coordinates"][0]
    assert -6.5 < lon < 0.5 and 50 < lat < 51.5      # UTM 30N, 5600 km north: England
    back = gpd.read_file(tmp_path / "utm.geojson")
    assert back.crs.to_epsg() == 4326
    again = back.to_crs(mem.crs)
    assert len(again) == len(mem)
    for a, b in zip(again.geometry, mem.geometry):
        assert a.geom_type == b.geom_type
        assert np.allclose(np.asarray(a.exterior.coords if a.geom_type == "Polygon"
                                      else a.coords),
                           np.asarray(b.exterior.coords if b.geom_type == "Polygon"
                                      else b.coords), rtol=0, atol=1e-6)


# -- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize("kw, exc, match", [
    ({"crs": "EPSG:99999999"}, ValueError, "crs"),
    ({"crs": "not a crs"}, ValueError, "crs"),
    ({"crs": "EPSG:4326"}, ValueError, "crs.*metres"),
    ({"origin": "0,0"}, TypeError, "origin"),
    ({"origin": (0, float("nan"))}, ValueError, "origin"),
    ({"origin": (1, 2, 3)}, TypeError, "origin"),
    ({"origin": (True, 0)}, TypeError, "origin"),
])
def test_bad_crs_and_origin(kw, exc, match):
    pytest.importorskip("pyproj")
    with pytest.raises(exc, match=match):
        rt.Terrain().dataset(*AREA, **kw)


@pytest.mark.parametrize("window", [(-2**26 - 1, 0, 10, 10), (0, 2**26 - 5, 10, 10),
                                    (0, 0, 2**27, 2), (2**26, 0, 2, 2)])
def test_window_outside_2_26(window, rtd):
    with pytest.raises(ValueError, match=r"2\*\*26"):
        rt.Terrain().dataset(*window)
    with pytest.raises(ValueError, match=r"2\*\*26"):
        rtd.dataset(rt.Terrain(), *window)


def test_bad_geotiff_requests_write_nothing(tmp_path, rasterio, monkeypatch):
    t = rt.Terrain()
    old = tmp_path / "old.tif"
    old.write_bytes(b"old contents")
    ds64 = t.dataset(*AREA)
    with pytest.raises(ValueError, match="dtype"):
        rt.gis.write_geotiff(ds64, old, dtype="float32")
    with pytest.raises(ValueError, match="path"):
        t.to_geotiff(tmp_path / "a.png", *AREA)
    with pytest.raises(FileNotFoundError, match="path"):
        t.to_geotiff(tmp_path / "nowhere" / "a.tif", *AREA)
    (tmp_path / "d.tif").mkdir()
    with pytest.raises(IsADirectoryError, match="path"):
        t.to_geotiff(tmp_path / "d.tif", *AREA)
    with pytest.raises(TypeError, match="path"):
        t.to_geotiff(b"a.tif", *AREA)
    with pytest.raises(ValueError, match="variable"):
        t.to_geotiff(old, *AREA, variable="height")
    with pytest.raises(ValueError, match="crs"):
        t.to_geotiff(old, *AREA, crs="nonsense")
    with pytest.raises(ValueError, match="2\\*\\*26"):
        t.to_geotiff(old, 2**26, 0, 4, 4)
    if os.geteuid() != 0:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        with pytest.raises(PermissionError, match="path"):
            t.to_geotiff(ro / "a.tif", *AREA)
        ro.chmod(0o700)
    (tmp_path / "d.tif").rmdir()
    # a write that fails half way leaves the old file and no part file
    import rioxarray.raster_array as ra

    def boom(self, raster_path, *a, **k):
        with open(raster_path, "wb") as f:
            f.write(b"half")
        raise OSError("disk full")
    monkeypatch.setattr(ra.RasterArray, "to_raster", boom)
    with pytest.raises(OSError, match="disk full"):
        t.to_geotiff(old, *AREA)
    assert old.read_bytes() == b"old contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.tif"]


def test_modules_import_without_optional_extras():
    # the backend class and gis import without rasterio (the errors name the extra)
    import relfterrain.gis
    import relfterrain.xarray_backend  # noqa: F401

    assert "relfterrain.gis" in sys.modules
