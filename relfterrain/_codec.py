"""The zarr codec relfterrain writes with (the CLI, relfterrain.dask)."""

from __future__ import annotations

from typing import Any


def _zarr3() -> bool:
    import zarr

    return int(zarr.__version__.split(".")[0]) >= 3


def _blosc() -> Any:
    """Blosc LZ4 with bit shuffle, level 5, zarr 3's codec or zarr 2's.

    Chosen by measurement (docs/performance/speed.md): on a 4096 x 4096 grid
    it wrote in 2.0 s where zarr's default zstd took 5.8 s, and it compressed
    better (9.7 to 1 against 7.5); Blosc with zstd compressed more (10 to
    11.7) at 1.5 to 4.5 times the time. Levels 1 and 3 and a 1 MiB block
    wrote the 20000 x 20000 heights no faster (2.0-2.3 s each, 2026-11-28)."""
    if _zarr3():
        from zarr.codecs import BloscCodec

        return BloscCodec(cname="lz4", clevel=5, shuffle="bitshuffle")
    from numcodecs import Blosc  # zarr 2

    return Blosc(cname="lz4", clevel=5, shuffle=Blosc.BITSHUFFLE)


def zarr_codec() -> dict[str, Any]:
    """The codec as zarr's keyword: ``compressors=`` (zarr 3) or
    ``compressor=`` (zarr 2)."""
    return {"compressors": (_blosc(),)} if _zarr3() else {"compressor": _blosc()}


def zarr_array_kwargs() -> dict[str, Any]:
    """Keyword arguments of zarr's array creation (``dask.array.to_zarr``,
    ``zarr.create_array``): the codec, and every chunk written.

    ``write_empty_chunks``: zarr's default skips a chunk that equals the fill
    value, which it finds by comparing the whole chunk, for floats as raw
    bytes (``np.array_equal`` of ``V8`` views: a byte-string loop, and a
    materialised fill array). That check took more time than compressing:
    the 20000 x 20000 heights wrote in 4.6 s with it and 2.3 s without
    (docs/performance/speed.md). A skipped chunk reads back as the fill
    value, a written one as the same values: the data is the same."""
    every = {"config": {"write_empty_chunks": True}} if _zarr3() else {"write_empty_chunks": True}
    return {**zarr_codec(), **every}


def zarr_dataset_encoding(ds: Any) -> dict[str, dict[str, Any]]:
    """xarray's ``to_zarr`` ``encoding`` of every data variable of ``ds``: the
    same codec and chunk writing as :func:`zarr_array_kwargs`."""
    return {str(v): {**zarr_codec(), "write_empty_chunks": True} for v in ds.data_vars}
