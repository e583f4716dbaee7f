"""The zarr codec relfterrain writes with (the CLI, relfterrain.dask)."""

from __future__ import annotations

from typing import Any


def zarr_compressor() -> dict[str, Any]:
    """Blosc LZ4 with bit shuffle, level 5, as keyword arguments of zarr's
    array creation (``compressors=`` in zarr 3, ``compressor=`` in zarr 2).

    Chosen by measurement (docs/performance/speed.md): on a 4096 x 4096 grid
    it wrote in 2.0 s where zarr's default zstd took 5.8 s, and it compressed
    better (9.7 to 1 against 7.5); Blosc with zstd compressed more (10 to
    11.7) at 1.5 to 4.5 times the time."""
    import zarr

    if int(zarr.__version__.split(".")[0]) >= 3:
        from zarr.codecs import BloscCodec

        return {"compressors": (BloscCodec(cname="lz4", clevel=5, shuffle="bitshuffle"),)}
    from numcodecs import Blosc  # zarr 2

    return {"compressor": Blosc(cname="lz4", clevel=5, shuffle=Blosc.BITSHUFFLE)}
