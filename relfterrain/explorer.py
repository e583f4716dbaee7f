"""The limitless map in Jupyter: an ipyleaflet widget over the tile server.

:func:`explore` starts the tile server of :mod:`relfterrain.serve` for the
kernel (once per world, on a free port of 127.0.0.1, in a background thread)
and returns an ``ipyleaflet.Map`` of its layers in world metres, with a
layer switcher, a scale bar, the cursor's coordinates and a readout of
``terra()`` at the clicked point. Needs the extras ``serve`` and
``widgets`` (``pip install "relfterrain[serve,widgets]"``).

When the notebook's browser cannot reach the kernel's 127.0.0.1 (a remote
Jupyter), install jupyter-server-proxy and pass ``proxy=True``: the tiles
are then fetched through ``/proxy/<port>/`` of the Jupyter server.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

from . import _validate
from . import tiles as _tiles

__all__ = ["TileServer", "explore", "tile_server"]

_SERVERS: dict[str, TileServer] = {}
_LOCK = threading.Lock()


class TileServer:
    """A uvicorn server of :func:`relfterrain.serve.create_app` in a daemon thread.

    ``url`` is where it listens (``http://127.0.0.1:<port>``); :meth:`stop`
    ends it.
    """

    def __init__(self, world: Any = None, *, host: str = "127.0.0.1",
                 port: int | None = None) -> None:
        from ._extras import need as _need
        from .serve import create_app

        uvicorn = _need("uvicorn")
        self.app = create_app(world)
        self.terrain = self.app.state.terrain
        self.fingerprint: str = self.app.state.fingerprint
        if port is None:
            with socket.socket() as s:
                s.bind((host, 0))
                port = int(s.getsockname()[1])
        self.host, self.port = host, port
        self.url = f"http://{host}:{port}"
        config = uvicorn.Config(self.app, host=host, port=port, log_level="error",
                                lifespan="off")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True,
                                        name=f"relfterrain-tiles-{port}")
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the tile server did not start on {self.url}")
            time.sleep(0.01)

    def stop(self) -> None:
        """Stop the server and wait for its thread."""
        self._server.should_exit = True
        self._thread.join(10)

    @property
    def running(self) -> bool:
        """Whether the server thread is alive."""
        return self._thread.is_alive()


def tile_server(world: Any = None) -> TileServer:
    """The kernel's tile server of ``world`` (started on first use, then reused)."""
    from .serve import load_world, world_fingerprint

    terrain = load_world(world)
    key = world_fingerprint(terrain)
    with _LOCK:
        srv = _SERVERS.get(key)
        if srv is None or not srv.running:
            srv = _SERVERS[key] = TileServer(terrain)
        return srv


def explore(world: Any = None, *, x: float = 23400, y: float = 5320, zoom: int = 0,
            layer: str = "map", proxy: bool = False, height: str = "500px") -> Any:
    """An ipyleaflet map of ``world`` (a Terrain, a preset name or a saved world file)
    centred on ``(x, y)`` metres at ``zoom`` (``2**-zoom`` metres a pixel).

    Click a point for its height, kind, feature and orienteering code (the
    readout under the map); the layer switcher offers every layer of
    :data:`relfterrain.tiles.LAYERS`.

    >>> import relfterrain as rt
    >>> m = rt.explore(rt.Terrain(), zoom=1)       # doctest: +SKIP
    >>> m                                           # doctest: +SKIP
    """
    from ._extras import need as _need

    ipyleaflet = _need("ipyleaflet")
    widgets = _need("ipywidgets")
    if layer not in _tiles.LAYERS:
        raise ValueError(f"layer: must be one of {sorted(_tiles.LAYERS)}, got {layer!r}")
    x = _validate.real(x, "x")
    y = _validate.real(y, "y")
    if isinstance(zoom, bool) or not isinstance(zoom, int) or not (
            _tiles.MIN_ZOOM <= zoom <= _tiles.MAX_ZOOM + 2):
        raise ValueError(f"zoom: must be an integer in {_tiles.MIN_ZOOM}.."
                         f"{_tiles.MAX_ZOOM + 2}, got {zoom!r}")
    srv = tile_server(world)
    terrain = srv.terrain
    base = f"proxy/{srv.port}" if proxy else srv.url

    def tile_layer(name: str, visible: bool, base_layer: bool) -> Any:
        return ipyleaflet.TileLayer(
            url=f"{base}/tiles/{name}/{{z}}/{{x}}/{{y}}.png", name=_tiles.LAYERS[name],
            min_zoom=_tiles.MIN_ZOOM, max_zoom=_tiles.MAX_ZOOM + 2,
            max_native_zoom=_tiles.MAX_ZOOM, min_native_zoom=_tiles.MIN_ZOOM, no_wrap=True,
            tile_size=_tiles.TILE_SIZE, base=base_layer, visible=visible,
            attribution="Relf Terrain Generator (The Forest) - relfterrain")

    m = ipyleaflet.Map(crs=ipyleaflet.projections.Simple, center=(y, x), zoom=zoom,
                       min_zoom=_tiles.MIN_ZOOM, max_zoom=_tiles.MAX_ZOOM + 2,
                       basemap=tile_layer(layer, True, True),
                       scroll_wheel_zoom=True, layout=widgets.Layout(height=height))
    for name in _tiles.LAYERS:
        if name != layer:
            m.add(tile_layer(name, False, name != "features"))
    m.add(ipyleaflet.LayersControl(position="topright"))
    m.add(ipyleaflet.ScaleControl(position="bottomleft", imperial=False, metric=True))
    cursor = widgets.HTML("x -, y - m")
    readout = widgets.HTML("Click the map for the point's height, kind and feature.")
    m.add(ipyleaflet.WidgetControl(widget=cursor, position="bottomright"))

    def on_interaction(**event: Any) -> None:
        ll = event.get("coordinates")
        if not ll:
            return
        py, px = float(ll[0]), float(ll[1])
        if event.get("type") == "mousemove":
            cursor.value = f"x {px:.0f}, y {py:.0f} m"
        elif event.get("type") == "click":
            if max(abs(px), abs(py)) > _tiles.WORLD_LIMIT:
                readout.value = "outside the world (+-2**26 m)"
                return
            t = terrain.terra(px, py)
            code = f" ({t.code})" if t.code else ""
            depth = f", water {t.depth:.1f} m deep" if t.depth > 0 else ""
            readout.value = (f"<b>x {px:.1f}, y {py:.1f} m</b>: height {t.height:.1f} m, "
                             f"{t.terrain.name}, feature {t.feature.name}{code}{depth}")

    m.on_interaction(on_interaction)
    box = widgets.VBox([m, readout])
    box.map = m  # type: ignore[attr-defined]
    box.readout = readout  # type: ignore[attr-defined]
    box.server = srv  # type: ignore[attr-defined]
    box.on_interaction = on_interaction  # type: ignore[attr-defined]
    return box
