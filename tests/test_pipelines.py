"""float32 heights, xarray Datasets and Dask pipelines (SPEC 1 grids at any scale)."""

import doctest
import json

import numpy as np
import pytest
import reference as R
from helpers import assert_codes_exact, assert_f64_exact, bits

import relfterrain as rt

# a small area with lakes, mud, towns and features, at a step that rounds
AREA = (24090.5, 5360.25, 53, 41, 0.7)
RAGGED = [((7, 30, 4), (11, 1, 41)), (5, 9), (41, 53), ((41,), (1,) * 53), ((1,) * 41, (53,))]


def _reference_grid(params, x0, y0, nx, ny, step):
    return R.grid(params, x0, y0, nx, ny, step)


# -- dtype ---------------------------------------------------------------------


def test_height_grid_float32_is_the_reference_rounded():
    t = rt.Terrain()
    h = t.height_grid(*AREA, dtype="float32")
    assert h.dtype == np.float32 and h.shape == (41, 53)
    rh = R.height_grid(R.CLASSIC, *AREA)
    assert np.array_equal(h.view(np.uint32), rh.astype(np.float32).view(np.uint32))
    # round to nearest, not truncation: some values differ from a truncation
    assert not np.array_equal(h, np.nextafter(h, np.float32(0)))


def test_grid_float32_matches_reference():
    t = rt.Terrain(lake_height=230.0)
    g = t.grid(*AREA, dtype=np.float32)
    rx, ry, rh, rd, rtt, rf = _reference_grid(R.Params(lake_height=230.0), *AREA)
    assert g.height.dtype == g.depth.dtype == np.float32
    assert np.array_equal(g.height.view(np.uint32), np.float32(rh).view(np.uint32))
    assert np.array_equal(g.depth.view(np.uint32), np.float32(rd).view(np.uint32))
    assert_codes_exact(g.terrain, rtt)
    assert_codes_exact(g.feature, rf)
    assert_f64_exact(g.x, rx)
    assert_f64_exact(g.y, ry)
    assert (rd > 0).any() and (rtt == R.LAKE).any()


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_float32_blocks_assemble(threads):
    t = rt.Terrain()
    whole = t.grid(*AREA, dtype="float32", threads=threads)
    x0, y0, nx, ny, step = AREA
    top = t.grid(x0, y0, nx, 17, step, dtype="float32", threads=threads)
    rest = t.grid(x0, y0, nx - 5, ny - 17, step, offset=(17, 5), dtype="float32")
    assert np.array_equal(whole.height[:17], top.height)
    assert np.array_equal(whole.height[17:, 5:], rest.height)
    assert np.array_equal(whole.terrain[17:, 5:], rest.terrain)
    h = t.height_grid(x0, y0, nx - 5, ny - 17, step, offset=(17, 5), dtype="float32",
                      threads=threads)
    assert np.array_equal(h, t.height_grid(*AREA, dtype="float32")[17:, 5:])


def test_float32_rounds_like_numpy_at_the_float32_limits():
    # heights at and beyond float32's range: +-FLT_MAX, the half-ulp tie
    # above it (rounds to inf), just below the tie (rounds to FLT_MAX), huge
    fmax = float(np.finfo(np.float32).max)
    tie = float.fromhex("0x1.ffffffp127")
    prof = np.array([fmax, np.nextafter(fmax, np.inf), tie, np.nextafter(tie, 0), -tie,
                     -np.nextafter(tie, 0), 1e300, -1e300, 1.0, -fmax, 0.1, -0.0, 3.0e-39,
                     1e-50, 7.0, 2.0 ** 127])
    t = rt.Terrain(profile=prof, ah=(128,), bh=(0,), a1=(1,), b1=(1,), a2=(1,), b2=(1,),
                   a3=(1,), b3=(1,))
    h64 = t.height_grid(0, 0, 16, 3)
    assert np.array_equal(h64[0], prof)  # the heights are the profile's values
    with np.errstate(over="ignore"):
        want = h64.astype(np.float32)
    got = t.height_grid(0, 0, 16, 3, dtype="float32")
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
    assert np.isinf(got[0, 2]) and got[0, 3] == np.float32(fmax) and np.isinf(got[0, 6])
    # every variant's rounding of the rows (AVX-512 16 a step, AVX 8, the
    # portable loop), the rows long enough for its vectors and a tail
    wide = rt.Terrain(profile=prof, ah=(128,), bh=(0,), a1=(1,), b1=(1,), a2=(1,), b2=(1,),
                      a3=(1,), b3=(1,))
    h64w = wide.height_grid(0, 0, 37, 2)
    with np.errstate(over="ignore"):
        want_w = h64w.astype(np.float32)
    for v in rt.simd_variants():
        wide.simd = v
        got = wide.height_grid(0, 0, 37, 2, dtype="float32")
        assert np.array_equal(got.view(np.uint32), want_w.view(np.uint32)), v
    g64 = t.grid(0, 0, 16, 3)
    with np.errstate(over="ignore"):
        want_h, want_d = g64.height.astype(np.float32), g64.depth.astype(np.float32)
    g = t.grid(0, 0, 16, 3, dtype="float32")
    assert np.array_equal(g.height.view(np.uint32), want_h.view(np.uint32))
    assert np.array_equal(g.depth.view(np.uint32), want_d.view(np.uint32))
    assert np.isinf(g.height).any() and np.isinf(g.depth).any()


def _f32_out_at(shape, offset):
    """A float32 array of `shape` starting `offset` bytes past a 64-byte line."""
    n = shape[0] * shape[1] * 4
    raw = np.full(n + 128, 0xFF, np.uint8)
    start = (-raw.ctypes.data) % 64 + offset
    return raw[start:start + n].view(np.float32).reshape(shape)


@pytest.mark.parametrize("variant", rt.simd_variants())
def test_float32_heights_every_variant_and_store(variant):
    """Float32 heights are rounded row by row from a row buffer of each
    thread's, with the variant's vectors, by streaming stores past 8 MiB
    (1537 x 1500 here; 67 x 5 stays below): the bits of the float64 grid
    rounded by NumPy, for every variant, thread count, step, with mountains,
    and out= starting anywhere in a line."""
    scalar, t = rt.Terrain(simd="scalar"), rt.Terrain(simd=variant)
    # and mountains, applied to the row buffer before it is rounded
    hills = rt.Terrain(simd="scalar", mountain_base=240.0)
    hills_v = rt.Terrain(simd=variant, mountain_base=240.0)
    got = hills_v.height_grid(23396.1, 5318.3, 300, 7, 0.37, dtype="float32", threads=2)
    want = hills.height_grid(23396.1, 5318.3, 300, 7, 0.37).astype(np.float32)
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), variant
    assert (want > 240.0).any() and (want < 240.0).any()
    for x0, y0, nx, ny, step in ((23396, 5318, 67, 5, 1.0), (23396.1, 5318.3, 1537, 1500, 0.37),
                                 (23396, 5318, 1501, 1500, 8.0)):
        want = scalar.height_grid(x0, y0, nx, ny, step).astype(np.float32).view(np.uint32)
        for threads in (1, 3):
            got = t.height_grid(x0, y0, nx, ny, step, dtype="float32", threads=threads)
            assert np.array_equal(got.view(np.uint32), want), (variant, step, threads)
        for offset in (0, 4, 8, 36):
            out = _f32_out_at((ny, nx), offset)
            assert t.height_grid(x0, y0, nx, ny, step, dtype="float32", out=out,
                                 threads=2) is out
            assert np.array_equal(out.view(np.uint32), want), (variant, step, offset)


@pytest.mark.parametrize("variant", rt.simd_variants())
def test_float32_grids_every_variant_and_store(variant):
    """Float32 terra grids: the rows' heights, depths and ground rounded from
    row buffers of each thread's (rt_terra_grid_f32), streamed past 8 MiB
    (1537 x 1500), the bytes written as for float64: every output equals the
    float64 grid's (the floats rounded by NumPy), for every variant, thread
    count, step (the tile path, the point path, a coarse step), a model with
    mountains, snow and a placed road (the pass after classify), and outputs
    starting anywhere in a line."""
    from relfterrain import _shared

    models = (rt.Terrain(simd=variant),
              rt.Terrain(simd=variant, mountain_base=300.0, snow_height=480.0))
    models[1].place(23400, 5320, rt.TerrainType.ROAD)
    for t in models:
        core = _shared.core(t)
        for x0, y0, nx, ny, step in ((23396, 5318, 67, 5, 1.0),
                                     (23396.1, 5318.3, 1537, 1500, 0.37),
                                     (23396, 5318, 1501, 1500, 8.0)):
            w64 = core.terra_grid(x0, y0, nx, ny, step, outputs=(True,) * 5, threads=2)
            want = [a.astype(np.float32).view(np.uint32) if a.dtype == np.float64 else a
                    for a in w64]
            for threads in (1, 3):
                got = core.terra_grid(x0, y0, nx, ny, step, outputs=(True,) * 5, threads=threads,
                                      float32=True)
                for k, (g, w) in enumerate(zip(got, want)):
                    gv = g.view(np.uint32) if g.dtype == np.float32 else g
                    assert np.array_equal(gv, w), (variant, step, threads, k)
            for offset in (4, 36):
                outs = (_f32_out_at((ny, nx), offset), _f32_out_at((ny, nx), offset + 8),
                        np.empty((ny, nx), np.uint8), np.empty((ny, nx), np.uint8),
                        _f32_out_at((ny, nx), 60))
                got = core.terra_grid(x0, y0, nx, ny, step, outputs=outs, threads=2,
                                      float32=True)
                assert all(g is o for g, o in zip(got, outs))
                for k, (g, w) in enumerate(zip(got, want)):
                    gv = g.view(np.uint32) if g.dtype == np.float32 else g
                    assert np.array_equal(gv, w), (variant, step, offset, k)


def test_float32_out_is_returned():
    t = rt.Terrain()
    out = np.full((41, 53), -1.0, dtype=np.float32)
    with pytest.raises(TypeError, match="out: dtype"):
        t.height_grid(*AREA, out=out)  # float32 is asked for, never implied
    assert (out == -1.0).all()
    res = t.height_grid(*AREA, out=out, dtype="float32")
    assert res is out
    assert np.array_equal(out, t.height_grid(*AREA).astype(np.float32))
    outs = (np.empty((41, 53), np.float32), np.empty((41, 53), np.float32),
            np.empty((41, 53), np.uint8), np.empty((41, 53), np.uint8))
    with pytest.raises(TypeError, match=r"out\.height: dtype must be float64 \(the dtype asked for\)"):
        t.grid(*AREA, out=outs)
    g = t.grid(*AREA, out=outs, dtype="float32")
    assert all(a is b for a, b in zip(g[2:], outs))
    ref = t.grid(*AREA)
    assert np.array_equal(g.depth, ref.depth.astype(np.float32))
    assert np.array_equal(g.feature, ref.feature)


def test_float64_default_unchanged():
    t = rt.Terrain()
    assert t.height_grid(*AREA).dtype == np.float64
    assert t.height_grid(*AREA, dtype="float64").dtype == np.float64
    g = t.grid(*AREA, dtype=np.float64)
    assert g.height.dtype == np.float64


@pytest.mark.parametrize("dtype, exc", [("float16", ValueError), (np.int32, ValueError),
                                        ("nonsense", TypeError), (object, ValueError)])
def test_bad_dtype(dtype, exc):
    t = rt.Terrain()
    with pytest.raises(exc, match="dtype"):
        t.height_grid(0, 0, 3, 2, dtype=dtype)
    with pytest.raises(exc, match="dtype"):
        t.grid(0, 0, 3, 2, dtype=dtype)


def test_bad_float32_outputs_untouched():
    t = rt.Terrain()
    out = np.zeros((2, 3), np.float32)
    with pytest.raises(TypeError, match="out: dtype"):
        t.height_grid(0, 0, 3, 2, out=out, dtype="float64")
    with pytest.raises(ValueError, match="out: shape"):
        t.height_grid(0, 0, 4, 2, out=out, dtype="float32")
    with pytest.raises(ValueError, match="out: must be C-contiguous"):
        t.height_grid(0, 0, 3, 2, out=np.zeros((3, 2), np.float32).T, dtype="float32")
    with pytest.raises(TypeError, match="out"):
        t.height_grid(0, 0, 3, 2, out=[[0.0] * 3] * 2, dtype="float32")
    assert not out.any()
    h = np.zeros((2, 3), np.float32)
    with pytest.raises(ValueError, match="share memory"):
        t.grid(0, 0, 3, 2, out=(h, h, np.zeros((2, 3), np.uint8), np.zeros((2, 3), np.uint8)),
               dtype="float32")
    with pytest.raises(TypeError, match=r"out\.depth: dtype must be float32, got float64"):
        t.grid(0, 0, 3, 2, out=(h, np.zeros((2, 3)), np.zeros((2, 3), np.uint8),
                                np.zeros((2, 3), np.uint8)), dtype="float32")
    assert not h.any()


# -- xarray Dataset --------------------------------------------------------------


@pytest.fixture
def xr():
    return pytest.importorskip("xarray")


def _check_dataset(ds, t, x0, y0, nx, ny, step, dtype=np.float64):
    assert dict(ds.sizes) == {"y": ny, "x": nx}
    for name in ("surface_height", "ground_height", "depth", "terrain", "feature"):
        assert ds[name].dims == ("y", "x")
    # coordinates: exactly x0 + c*step as doubles (Python floats are IEEE doubles);
    # rows north to south (y descending), as GIS tools assume
    assert_f64_exact(ds.x.values, [x0 + float(c) * step for c in range(nx)], "x")
    assert_f64_exact(ds.y.values, [y0 + float(r) * step for r in range(ny)][::-1], "y")
    rx, ry, rh, rd, rtt, rf = _reference_grid(_ref_params(t), x0, y0, nx, ny, step)
    rg = np.asarray(R.height_grid(_ref_params(t), x0, y0, nx, ny, step))
    rh, rd, rtt, rf = (np.asarray(a)[::-1] for a in (rh, rd, rtt, rf))
    rg = rg[::-1]
    assert_f64_exact(ds.x.values, rx)
    assert ds.surface_height.dtype == ds.ground_height.dtype == ds.depth.dtype == np.dtype(dtype)
    assert np.array_equal(bits(ds.surface_height.values.astype(np.float64)),
                          bits(np.asarray(rh).astype(dtype).astype(np.float64)))
    assert np.array_equal(bits(ds.ground_height.values.astype(np.float64)),
                          bits(np.asarray(rg).astype(dtype).astype(np.float64)))
    assert np.array_equal(bits(ds.depth.values.astype(np.float64)),
                          bits(np.asarray(rd).astype(dtype).astype(np.float64)))
    assert_codes_exact(ds.terrain.values, rtt)
    assert_codes_exact(ds.feature.values, rf)
    # CF metadata
    assert ds.attrs["Conventions"].startswith("CF-")
    for name, enum in (("terrain", rt.TerrainType), ("feature", rt.Feature)):
        attrs = ds[name].attrs
        assert list(np.asarray(attrs["flag_values"]).tolist()) == [int(m) for m in enum]
        assert np.asarray(attrs["flag_values"]).dtype == np.uint8
        assert attrs["flag_meanings"].split() == [m.name for m in enum]
        assert attrs["long_name"]
        assert "units" not in attrs
    for name in ("x", "y", "surface_height", "ground_height", "depth"):
        assert ds[name].attrs["units"] == "m"
        assert ds[name].attrs["long_name"]
    assert ds.x.attrs["axis"] == "X" and ds.y.attrs["axis"] == "Y"
    params = rt.TerrainParams.from_dict(json.loads(ds.attrs["relfterrain_params"]))
    assert params == t.params
    assert ds.attrs["relfterrain_fingerprint"] == t.params.fingerprint()
    assert float(ds.attrs["relfterrain_step"]) == step


def _ref_params(t):
    return R.Params(lake_height=t.lake_height)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_dataset_contents(dtype, xr):
    t = rt.Terrain(lake_height=230.0)
    ds = t.dataset(*AREA, dtype=dtype)
    _check_dataset(ds, t, *AREA, dtype=dtype)
    g = t.grid(*AREA, dtype=dtype)
    assert np.array_equal(ds.surface_height.values, g.height[::-1])


def test_dataset_bad_arguments_name_them(xr):
    t = rt.Terrain()
    with pytest.raises(ValueError, match="step"):
        t.dataset(0, 0, 3, 2, 0.0)
    with pytest.raises(ValueError, match="nx"):
        t.dataset(0, 0, 0, 2)
    with pytest.raises(TypeError, match="x0"):
        t.dataset("a", 0, 3, 2)
    with pytest.raises(ValueError, match="dtype"):
        t.dataset(0, 0, 3, 2, dtype="int8")


def test_dataset_doctests(xr):
    import relfterrain.dataset

    result = doctest.testmod(relfterrain.dataset)
    assert result.attempted > 0 and result.failed == 0


# -- Dask --------------------------------------------------------------------------


@pytest.fixture
def dask():
    pytest.importorskip("dask.array")
    return pytest.importorskip("dask")


@pytest.fixture
def rtd(dask):
    import relfterrain.dask

    return relfterrain.dask


def _placed_terrain():
    t = rt.Terrain(lake_height=230.0)
    x0, y0 = int(AREA[0]), int(AREA[1])
    t.place(x0 + 3, y0 + 4, rt.TerrainType.ROAD)
    t.place(x0 + 20, y0 + 11, rt.Feature.CONE)
    return t


@pytest.mark.parametrize("chunks", RAGGED)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_dask_height_equals_memory(chunks, dtype, rtd):
    t = rt.Terrain()
    h = rtd.height_grid(t, *AREA, chunks=chunks, dtype=dtype)
    assert h.shape == (41, 53) and h.dtype == np.dtype(dtype)
    ref = t.height_grid(*AREA, dtype=dtype)
    got = h.compute(scheduler="threads")
    assert got.dtype == ref.dtype
    assert np.array_equal(got.view(f"u{got.itemsize}"), ref.view(f"u{ref.itemsize}"))


@pytest.mark.parametrize("chunks", RAGGED)
def test_dask_grid_equals_memory(chunks, rtd, dask):
    t = _placed_terrain()
    arrays = rtd.grid(t, *AREA, chunks=chunks)[2:]  # a TerrainGrid: x, y, then the arrays
    got = dask.compute(*arrays, scheduler="sync")
    ref = t.grid(*AREA)
    for a, b in zip(got, ref[2:]):
        assert a.dtype == b.dtype
        if a.dtype == np.float64:
            assert np.array_equal(bits(a), bits(b))
        else:
            assert np.array_equal(a, b)
    assert (got[2] == rt.TerrainType.ROAD).any() and (got[3] == rt.Feature.CONE).any()


def test_dask_arrays_hold_a_copy_of_the_terrain(rtd, dask):
    t = rt.Terrain()
    before = t.grid(*AREA)
    arrays = rtd.grid(t, *AREA, chunks=(10, 10))[2:]
    t.lake_height = 260.0
    t.place(int(AREA[0]), int(AREA[1]), rt.TerrainType.SNOW)
    got = dask.compute(*arrays)
    assert np.array_equal(got[2], before.terrain)
    assert np.array_equal(bits(got[0]), bits(before.height))
    # and a changed terrain makes a different graph
    assert rtd.grid(t, *AREA, chunks=(10, 10)).height.name != arrays[0].name


def test_dask_dataset_equals_memory_dataset(rtd, xr):
    t = rt.Terrain(lake_height=230.0)
    lazy = rtd.dataset(t, *AREA, chunks=((7, 30, 4), (11, 1, 41)), dtype="float32")
    assert lazy.surface_height.chunks == ((7, 30, 4), (11, 1, 41))
    eager = t.dataset(*AREA, dtype="float32")
    computed = lazy.compute()
    xr.testing.assert_identical(computed, eager)
    _check_dataset(computed, t, *AREA, dtype=np.float32)


@pytest.mark.parametrize("chunks", [None, (13, 17, 5), ((10, 50), (1, 59), (25, 7, 28))])
def test_dask_star_census(chunks, rtd):
    g = rt.Galaxy(f_mask=0xF, f_value=0xF)  # a dense galaxy
    block = (-30, -29, 3, 60, 60, 60)
    census = rtd.star_census(g, *block, chunks=chunks)
    assert census.shape == (16, 16)
    ref = g.census(*block)
    assert ref.sum() > 100
    assert np.array_equal(census.compute(), ref)
    assert int(rtd.star_count(g, *block, chunks=chunks).compute()) == int(ref.sum())


def test_dask_bad_arguments_name_them(rtd, xr):
    t = rt.Terrain()
    with pytest.raises(TypeError, match="terrain"):
        rtd.height_grid("terrain", 0, 0, 3, 2)
    with pytest.raises(ValueError, match="chunks"):
        rtd.height_grid(t, 0, 0, 3, 2, chunks=((1,), (3,)))
    with pytest.raises(ValueError, match="nx"):
        rtd.grid(t, 0, 0, 0, 2)
    with pytest.raises(ValueError, match="dtype"):
        rtd.dataset(t, 0, 0, 3, 2, dtype="float16")
    with pytest.raises(TypeError, match="galaxy"):
        rtd.star_census(t, 0, 0, 0, 2, 2, 2)
    with pytest.raises(ValueError, match="nz"):
        rtd.star_count(rt.Galaxy(), 0, 0, 0, 2, 2, 0)


def test_zarr_encoding_writes_blosc_lz4_and_the_same_bits(rtd, tmp_path):
    zarr = pytest.importorskip("zarr")
    t = _placed_terrain()
    h = rtd.height_grid(t, *AREA, chunks=(16, 20))
    h.to_zarr(str(tmp_path / "h.zarr"), **rtd.zarr_encoding())
    back = zarr.open_array(str(tmp_path / "h.zarr"), mode="r")
    assert np.array_equal(back[:].view("u8"), t.height_grid(*AREA).view("u8"))
    meta = (json.dumps(back.metadata.to_dict()) if hasattr(back, "metadata")
            else repr(back.compressor))  # zarr 2
    assert "blosc" in meta.lower() and "lz4" in meta.lower(), meta
    ds = rtd.dataset(t, *AREA, chunks=(16, 20))
    enc = rtd.zarr_encoding(ds)
    assert set(enc) == set(ds.data_vars)
    ds.to_zarr(str(tmp_path / "d.zarr"), encoding=enc, consolidated=False)
    xr = pytest.importorskip("xarray")
    got = xr.open_zarr(str(tmp_path / "d.zarr"), consolidated=False).load()
    mem = t.dataset(*AREA)
    for v in mem.data_vars:
        assert np.array_equal(got[v].values, mem[v].values), v


def test_zarr_encoding_writes_every_chunk(rtd, tmp_path):
    """zarr_encoding turns off zarr's empty-chunk check (it cost more than
    compressing): a chunk equal to the fill value is written, not skipped,
    and reads back the same."""
    zarr = pytest.importorskip("zarr")
    t = _placed_terrain()
    z = abs(rtd.height_grid(t, *AREA, chunks=(16, 20))) * 0.0  # every chunk equals the fill value
    for name, kwargs in (("on.zarr", rtd.zarr_encoding()), ("off.zarr", {})):
        z.to_zarr(str(tmp_path / name), **kwargs)
    on, off = (zarr.open_array(str(tmp_path / n), mode="r") for n in ("on.zarr", "off.zarr"))
    assert on.nchunks_initialized == on.nchunks == z.npartitions
    if int(zarr.__version__.split(".")[0]) >= 3:
        assert off.nchunks_initialized == 0  # zarr 3's default skips them (zarr 2's writes them)
    assert np.array_equal(on[:].view("u8"), np.zeros(z.shape).view("u8"))
    ds = rtd.dataset(t, *AREA, chunks=(16, 20))
    ds["feature"] = ds.feature * 0  # (xarray's float fill value is NaN; the bytes' is 0)
    ds.to_zarr(str(tmp_path / "d.zarr"), encoding=rtd.zarr_encoding(ds), consolidated=False)
    feature = zarr.open_group(str(tmp_path / "d.zarr"), mode="r")["feature"]
    assert feature.nchunks_initialized == feature.nchunks == ds.feature.data.npartitions


def test_dask_doctests(rtd):
    result = doctest.testmod(rtd)
    assert result.attempted > 0 and result.failed == 0


def test_local_cluster_with_processes(rtd):
    distributed = pytest.importorskip("distributed")
    t = _placed_terrain()
    g = rt.Galaxy(f_mask=0xF, f_value=0xF)  # a dense galaxy
    block = (-30, -29, 3, 60, 60, 60)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        h, d, tt, f = rtd.grid(t, *AREA, chunks=((7, 30, 4), (11, 1, 41)))[2:]
        hh = rtd.height_grid(t, *AREA, chunks=(9, 8), dtype="float32")
        census = rtd.star_census(g, *block, chunks=(13, 17, 5))
        got = client.compute([h, d, tt, f, hh, census], sync=True)
        # the blocks really ran in the worker processes
        pids = set(client.run(lambda: __import__("os").getpid()).values())
        assert len(pids) == 2 and __import__("os").getpid() not in pids
    ref = t.grid(*AREA)
    assert np.array_equal(bits(got[0]), bits(ref.height))
    assert np.array_equal(bits(got[1]), bits(ref.depth))
    assert np.array_equal(got[2], ref.terrain)
    assert np.array_equal(got[3], ref.feature)
    assert np.array_equal(got[4], t.height_grid(*AREA, dtype="float32"))
    assert np.array_equal(got[5], g.census(*block))
