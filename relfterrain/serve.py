"""The limitless map over HTTP: tiles, a Leaflet page and point queries.

``relfterrain serve [WORLD]`` (or :func:`serve`) runs a Starlette application
under uvicorn (extra ``serve``: ``pip install "relfterrain[serve]"``):

========================================  ==============================================
``/``                                     the map page (Leaflet, served from the
                                          XStatic-Leaflet package: nothing is fetched
                                          from the network)
``/tiles/{layer}/{z}/{x}/{y}.png``        a 256 x 256 PNG tile (:mod:`relfterrain.tiles`)
``/tiles/{layer}.json``                   TileJSON 3.0 of a layer
``/tms.json``                             the tile matrix set (world metres)
``/api/world``                            the world: kind, fingerprint, layers, zooms
``/api/terra?x=&y=``                      ``terra(x, y)``: height, kind, feature, code
``/api/site?x=&y=``                       findGoodSite near the point (GeoJSON Feature)
``/api/stream?x=&y=``                     the stream from the pond nearest the point
                                          (GeoJSON Feature, or 404 when none is near)
========================================  ==============================================

Tiles are immutable for a given world: their ETag is strong (a hash of the
world's fingerprint, the layer and the tile), they are sent with
``Cache-Control: public, max-age=31536000, immutable`` and answered with 304
to ``If-None-Match``; rendered tiles are kept in a bounded in-memory LRU
cache (:class:`relfterrain.tiles.TileCache`). Bad requests get a 4xx with a
one-line plain-text message, never a traceback.

The server binds to 127.0.0.1 unless ``host`` says otherwise.
"""

from __future__ import annotations

import hashlib
import math
import os
import tempfile
from importlib import resources
from typing import Any

from . import tiles as _tiles
from ._extras import need

__all__ = ["DEFAULT_PORT", "create_app", "load_world", "serve", "world_fingerprint"]

DEFAULT_PORT = 8765
"""The port :func:`serve` and ``relfterrain serve`` listen on by default."""

_CACHE_CONTROL = "public, max-age=31536000, immutable"
_QUERY_LIMIT = 2.0**26


_need = need  # an optional module, or ImportError naming the extra (serve)


def load_world(world: Any = None) -> Any:
    """The terrain to serve: a :class:`~relfterrain.Terrain` as is, ``None``
    or ``"classic"`` (the classic terrain), ``"galaxy"`` or a
    :class:`~relfterrain.Galaxy` (the star layer), a preset name (:data:`relfterrain.presets.PRESETS`)
    or the path of a world saved by :meth:`Terrain.save` (or the author's
    roads list).

    >>> load_world("classic").params == load_world(None).params
    True
    """
    from .galaxy import Galaxy
    from .presets import PRESETS
    from .terrain import Terrain

    if isinstance(world, Galaxy):
        return world
    if world == "galaxy":
        return Galaxy()
    if world is None or world == "classic" or isinstance(world, Terrain):
        return world if isinstance(world, Terrain) else Terrain()
    if not isinstance(world, (str, os.PathLike)):
        raise TypeError(f"world: must be a Terrain, a preset name or a path, got "
                        f"{type(world).__name__}")
    text = os.fspath(world)
    if isinstance(text, str) and text in PRESETS:
        return Terrain.preset(text, rng=0)
    if not os.path.isfile(text):
        raise ValueError(f"world: {text!r} is neither a preset ({', '.join(sorted(PRESETS))}) "
                         f"nor a saved world file")
    from .roads import load

    return load(text)


def world_fingerprint(terrain: Any) -> str:
    """A hex digest that changes whenever anything the tiles show changes: the
    parameters, the placed table and the roads (the saved world's bytes); for
    a Galaxy, its parameters."""
    from ._version import __version__
    from .galaxy import Galaxy

    if isinstance(terrain, Galaxy):
        text = "galaxy " + terrain.params.fingerprint() + " " + __version__
        return hashlib.sha256(text.encode()).hexdigest()[:32]
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        terrain.save(path)
        with open(path, "rb") as f:
            data = f.read()
    finally:
        os.unlink(path)
    return hashlib.sha256(data + __version__.encode()).hexdigest()[:32]


def _static_dir() -> str:
    return str(resources.files("relfterrain") / "_static")


def _number(request: Any, name: str) -> float:
    raw = request.query_params.get(name)
    if raw is None:
        raise ValueError(f"{name}: required (a number of metres)")
    try:
        v = float(raw)
    except ValueError:
        raise ValueError(f"{name}: must be a number, got {raw[:40]!r}") from None
    if not math.isfinite(v) or abs(v) > _QUERY_LIMIT:
        raise ValueError(f"{name}: must be a finite number within +-2**26 m, got {raw[:40]!r}")
    return v


def create_app(world: Any = None, *, cache_bytes: int = 64 * 2**20) -> Any:
    """The Starlette application serving ``world`` (see :func:`load_world`).

    >>> app = create_app("classic")
    >>> sorted(r.path for r in app.routes)[:3]
    ['/', '/api/site', '/api/stream']
    """
    _need("starlette")
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.requests import Request
    from starlette.responses import (
        FileResponse,
        JSONResponse,
        PlainTextResponse,
        Response,
    )
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    leaflet = _need("xstatic.pkg.leaflet")
    from .galaxy import Galaxy

    terrain = load_world(world)
    is_galaxy = isinstance(terrain, Galaxy)
    layers = _tiles.STAR_LAYERS if is_galaxy else _tiles.LAYERS
    minzoom = _tiles.STAR_MIN_ZOOM if is_galaxy else _tiles.MIN_ZOOM
    fingerprint = world_fingerprint(terrain)
    span = (0.0, 1.0) if is_galaxy else _tiles.height_range(terrain)
    cache = _tiles.TileCache(cache_bytes)

    def unknown_layer(layer: str) -> HTTPException:
        return HTTPException(404, f"layer: unknown, one of {', '.join(sorted(layers))}")

    def no_terrain() -> None:
        if is_galaxy:
            raise HTTPException(404, "a galaxy has no terrain to query")

    def etag(*parts: Any) -> str:
        h = hashlib.sha256("/".join(map(str, (fingerprint,) + parts)).encode())
        return '"' + h.hexdigest()[:40] + '"'

    def render(layer: str, z: int, x: int, y: int) -> bytes:
        key = (layer, z, x, y)
        data = cache.get(key)
        if data is None:
            if is_galaxy:
                img = _tiles.render_stars_tile(terrain, z, x, y)
            else:
                img = _tiles.render_tile(terrain, layer, z, x, y, height_span=span)
            data = _tiles.tile_png(img)
            cache.put(key, data)
        return data

    async def tile(request: Request) -> Response:
        p = request.path_params
        layer, ys = p["layer"], p["y"]
        if layer not in layers:
            raise unknown_layer(layer)
        # a TileError (ValueError) answers 400
        z, x, y = _tiles.tile_from_text(p["z"], p["x"], ys)
        if z < minzoom:
            raise _tiles.TileError(f"z: the {layer} layer has zoom {minzoom}.."
                                   f"{_tiles.MAX_ZOOM}, got {z}")
        tag = etag(layer, z, x, y)
        headers = {"ETag": tag, "Cache-Control": _CACHE_CONTROL}
        if tag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
            return Response(status_code=304, headers=headers)
        data = await run_in_threadpool(render, layer, z, x, y)
        return Response(data, media_type="image/png", headers=headers)

    def tilejson(request: Request) -> Response:
        layer = request.path_params["layer"]
        if layer not in layers:
            raise unknown_layer(layer)
        base = str(request.base_url).rstrip("/")
        return JSONResponse({
            "tilejson": "3.0.0", "name": f"relfterrain {layer}",
            "description": layers[layer],
            "tiles": [f"{base}/tiles/{layer}/{{z}}/{{x}}/{{y}}.png"],
            "minzoom": minzoom, "maxzoom": _tiles.MAX_ZOOM,
            "scheme": "xyz", "tileSize": _tiles.TILE_SIZE,
            "crs": "world metres, no projection (see /tms.json)",
            "encoding": "terrarium" if layer == "terrarium" else None,
            "fingerprint": fingerprint,
        })

    def tms(request: Request) -> Response:
        return JSONResponse(_tiles.tile_matrix_set())

    def world_info(request: Request) -> Response:
        from ._version import __version__

        return JSONResponse({
            "kind": "galaxy" if is_galaxy else "terrain", "version": __version__,
            "fingerprint": fingerprint, "params_fingerprint": terrain.params.fingerprint(),
            "layers": layers, "minzoom": minzoom,
            "maxzoom": _tiles.MAX_ZOOM, "tileSize": _tiles.TILE_SIZE,
            "unit": "light year" if is_galaxy else "metre",
            "start": [0, 0] if is_galaxy else [23400, 5320], "height_span": list(span),
        })

    def terra(request: Request) -> Response:
        no_terrain()
        x, y = _number(request, "x"), _number(request, "y")
        r = terrain.terra(x, y)
        return JSONResponse({"x": x, "y": y, "height": r.height, "terrain": r.terrain.name,
                             "feature": r.feature.name, "code": r.code, "depth": r.depth})

    def site(request: Request) -> Response:
        no_terrain()
        x, y = _number(request, "x"), _number(request, "y")
        s = terrain.find_good_site(round(x), round(y))
        return JSONResponse({
            "type": "Feature", "geometry": {"type": "Point", "coordinates": [s.x, s.y]},
            "properties": {"ok": bool(s.ok), "reason": s.reason, "tries": int(s.tries),
                           "from": [round(x), round(y)]}})

    def stream(request: Request) -> Response:
        no_terrain()
        x, y = round(_number(request, "x")), round(_number(request, "y"))
        for r in (150, 400):
            found = terrain.streams(x - r, y - r, 2 * r + 1, 2 * r + 1, margin=0)
            if found:
                best = min(found, key=lambda s: (s.source[0] - x) ** 2 + (s.source[1] - y) ** 2)
                return JSONResponse({
                    "type": "Feature",
                    "geometry": {"type": "LineString", "coordinates": best.route.tolist()},
                    "properties": {"source": list(best.source), "length": best.length,
                                   "end": best.end, "marsh": bool(best.marsh),
                                   "points": len(best.route)}})
        raise HTTPException(404, "no stream: no pond within 400 m of the point")

    def index(request: Request) -> Response:
        return FileResponse(os.path.join(_static_dir(), "index.html"),
                            headers={"Cache-Control": "no-cache"})

    async def bad_request(request: Request, exc: Exception) -> Response:
        return PlainTextResponse(str(exc).splitlines()[0][:200], status_code=400)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return PlainTextResponse(str(exc.detail)[:200], status_code=exc.status_code,
                                 headers=getattr(exc, "headers", None))

    async def server_error(request: Request, exc: Exception) -> Response:
        return PlainTextResponse("internal error", status_code=500)

    routes = [
        Route("/", index),
        Route("/tms.json", tms),
        Route("/tiles/{layer}.json", tilejson),
        Route("/tiles/{layer}/{z}/{x}/{y}.png", tile),
        Route("/api/world", world_info),
        Route("/api/terra", terra),
        Route("/api/site", site),
        Route("/api/stream", stream),
        Mount("/static", StaticFiles(directory=_static_dir()), name="static"),
        Mount("/vendor/leaflet", StaticFiles(directory=leaflet.BASE_DIR), name="leaflet"),
    ]
    app = Starlette(routes=routes, exception_handlers={
        ValueError: bad_request, HTTPException: http_error, Exception: server_error})
    app.state.terrain = terrain
    app.state.fingerprint = fingerprint
    app.state.cache = cache
    return app


def serve(world: Any = None, *, host: str = "127.0.0.1", port: int = DEFAULT_PORT,
          log_level: str = "warning") -> None:
    """Serve ``world``'s map at ``http://host:port/`` until interrupted (uvicorn).

    ``world`` is anything :func:`load_world` takes, or an application made by
    :func:`create_app`.

    ``host`` is 127.0.0.1 (this machine only) unless given: pass ``"0.0.0.0"``
    to let other machines in.
    """
    uvicorn = _need("uvicorn")
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        raise ValueError(f"port: must be an integer in 0..65535, got {port!r}")
    app = world if hasattr(world, "router") else create_app(world)
    uvicorn.run(app, host=host, port=port, log_level=log_level)

