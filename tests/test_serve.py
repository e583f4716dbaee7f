"""The map server: a real uvicorn server on localhost, real HTTP, a real browser.

The tile contents are checked against the library's own grids computed
independently here from the tile matrix set's definition (pixel centres,
north-first rows), and the browser test drives headless Chromium through
the page: tiles load, pan and zoom, a click shows the readout.
"""

from __future__ import annotations

import io
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator

import httpx
import numpy as np
import pytest
import uvicorn
from PIL import Image

import relfterrain as rt
from relfterrain import tiles
from relfterrain.serve import create_app, load_world


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Server:
    def __init__(self, app: object) -> None:
        self.port = _free_port()
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="error",
                                lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert self.thread.is_alive(), "uvicorn did not start"
            assert time.monotonic() < deadline, "uvicorn did not start in 30 s"
            time.sleep(0.02)
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with _Server(create_app("classic")) as url:
        yield url


@pytest.fixture(scope="module")
def client(base: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base, timeout=60) as c:
        yield c


def _png(r: httpx.Response) -> np.ndarray:
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "image/png"
    return np.asarray(Image.open(io.BytesIO(r.content)))


def _centres(z: int, x: int, y: int) -> tuple[np.ndarray, np.ndarray]:
    """World x of the columns and y of the rows (north first), from the
    tile matrix set's definition (module docstring of relfterrain.tiles)."""
    m = 2.0**-z
    span = 256 * m
    xs = x * span + (np.arange(256) + 0.5) * m
    ys = -y * span - (np.arange(256) + 0.5) * m
    return xs, ys


@pytest.mark.parametrize("z,x,y", [(0, 91, -21), (-6, 1, -1), (2, 365, -84), (-3, -5, 7)])
def test_terrarium_tile_decodes_to_the_heights_at_pixel_centres(client: httpx.Client, z: int,
                                                                  x: int, y: int) -> None:
    img = _png(client.get(f"/tiles/terrarium/{z}/{x}/{y}.png")).astype(np.float64)
    decoded = img[..., 0] * 256 + img[..., 1] + img[..., 2] / 256 - 32768
    xs, ys = _centres(z, x, y)
    t = rt.Terrain()
    want = t.height(xs[None, :], ys[:, None])
    # Terrarium keeps 1/256 m
    assert np.all(np.abs(decoded - want) <= 1 / 256 + 1e-9)
    assert np.all(decoded <= want + 1e-9)


def test_map_tile_is_the_map_of_its_window(client: httpx.Client) -> None:
    img = _png(client.get("/tiles/map/0/91/-21.png"))
    # west 23296, north 5376 at 1 m a pixel: pixel centres from (23296.5, 5120.5)
    want = rt.Terrain().map(23296.5, 5120.5, 256, 256, 1.0, interval=10.0, north_lines=300.0)
    assert np.array_equal(img, want)
    # a north line at x = 23400: the column of the pixel whose centre is 23400.5
    assert (img[:, 23400 - 23296] == 0).all()


def test_kinds_tile_north_up(client: httpx.Client) -> None:
    z, x, y = 0, 91, -21
    img = _png(client.get(f"/tiles/kinds/{z}/{x}/{y}.png"))
    xs, ys = _centres(z, x, y)
    t = rt.Terrain()
    codes = np.array([[int(t.terra(px, py).terrain) for px in xs[::37]] for py in ys[::37]])
    # each kind's colour on its own (a 1 x 1 image has no orientation)
    colour = {k: rt.maps.terrain_colours(np.array([[k]], np.uint8))[0, 0]
              for k in np.unique(codes)}
    want = np.array([[colour[k] for k in row] for row in codes])
    assert len(colour) >= 3
    assert np.array_equal(img[::37, ::37], want)


def test_hillshade_lights_north_west_slopes(client: httpx.Client) -> None:
    z, x, y = -2, 22, -6
    img = _png(client.get(f"/tiles/hillshade/{z}/{x}/{y}.png"))[..., 0].astype(float)
    xs, ys = _centres(z, x, y)
    h = rt.Terrain().height(xs[None, :], ys[:, None])
    # slope facing north-west: height falls towards the north-west
    gy, gx = np.gradient(h)  # per row (southwards) and per column (eastwards)
    facing_nw = (gx > 0.5) & (gy > 0.5)   # rises east and south
    facing_se = (gx < -0.5) & (gy < -0.5)
    assert facing_nw.sum() > 100 and facing_se.sum() > 100
    assert img[facing_nw].mean() > img[facing_se].mean() + 40


def test_features_tile_marks_the_features(client: httpx.Client) -> None:
    img = _png(client.get("/tiles/features/0/91/-21.png"))
    assert img.shape == (256, 256, 4)
    f = rt.Terrain().feature_grid(23296, 5120, 256, 256)
    rows, cols = np.nonzero(f)
    assert rows.size > 0
    # feature at integer (23296 + c, 5120 + r) lies in pixel column c, row 255 - r
    assert np.all(img[255 - rows, cols, 3] == 255)
    coarse = _png(client.get("/tiles/features/-3/11/-3.png"))
    assert not coarse[..., 3].any()


def test_tiles_are_immutable_and_cached(client: httpx.Client) -> None:
    r = client.get("/tiles/height/0/90/-21.png")
    assert r.status_code == 200
    tag = r.headers["etag"]
    assert tag.startswith('"') and not tag.startswith('W/')
    assert "immutable" in r.headers["cache-control"] and "max-age=31536000" in r.headers[
        "cache-control"]
    again = client.get("/tiles/height/0/90/-21.png", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b""
    other = client.get("/tiles/height/0/90/-20.png")
    assert other.headers["etag"] != tag


def test_etag_depends_on_the_world() -> None:
    t = rt.Terrain()
    t.add_road([(23300, 5200), (23500, 5200)])
    from starlette.routing import Route

    a, b = create_app("classic"), create_app(t)
    assert a.state.fingerprint != b.state.fingerprint
    assert any(isinstance(r, Route) and r.path == "/" for r in a.routes)


@pytest.mark.parametrize("url,status,words", [
    ("/tiles/map/3/0/0.png", 400, "z: must be in -6..2"),
    ("/tiles/map/-7/0/0.png", 400, "z: must be in -6..2"),
    ("/tiles/map/0/262144/0.png", 400, "x: tile column"),
    ("/tiles/map/0/0/-262145.png", 400, "y: tile row"),
    ("/tiles/map/zz/0/0.png", 400, "z: must be an integer"),
    ("/tiles/map/0/1e3/0.png", 400, "x: must be an integer"),
    ("/tiles/map/0/0/nan.png", 400, "y: must be an integer"),
    ("/tiles/map/0/99999999999999999999/0.png", 400, "x: must be an integer"),
    ("/tiles/unknown/0/0/0.png", 404, "layer: unknown"),
    ("/tiles/map/0/0/0.jpg", 404, "Not Found"),
    ("/tiles/map/0/0/0/0.png", 404, "Not Found"),
    ("/tiles/..%2F..%2Fetc/0/0/0.png", 404, ""),
    ("/static/..%2F__init__.py", 404, ""),
    ("/static/../../relfterrain/__init__.py", 404, ""),
    ("/vendor/leaflet/..%2F..%2F__init__.py", 404, ""),
    ("/api/terra?x=1", 400, "y: required"),
    ("/api/terra?x=abc&y=0", 400, "x: must be a number"),
    ("/api/terra?x=inf&y=0", 400, "x: must be a finite number"),
    ("/api/terra?x=0&y=1e300", 400, "y: must be a finite number"),
    ("/api/site?x=nan&y=0", 400, "x: must be a finite number"),
    ("/api/stream?x=0", 400, "y: required"),
    ("/nothing", 404, "Not Found"),
])
def test_bad_requests_get_a_short_4xx(client: httpx.Client, url: str, status: int,
                                      words: str) -> None:
    r = client.get(url)
    assert r.status_code == status, (url, r.status_code, r.text)
    assert words in r.text
    assert "Traceback" not in r.text and len(r.text) <= 200


def test_server_keeps_serving_through_a_burst_of_bad_requests(base: str) -> None:
    bad = ["/tiles/map/99/0/0.png", "/tiles/x/0/0/0.png", "/api/terra?x=q&y=0",
           "/tiles/map/0/0/" + "9" * 5000 + ".png", "/api/site?x=1e400&y=0"]
    errors: list[str] = []

    def hammer() -> None:
        with httpx.Client(base_url=base, timeout=60) as c:
            for i in range(40):
                r = c.get(bad[i % len(bad)])
                if not 400 <= r.status_code < 500:
                    errors.append(f"{r.status_code} {r.text[:80]}")

    threads = [threading.Thread(target=hammer) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    with httpx.Client(base_url=base, timeout=60) as c:
        assert c.get("/tiles/kinds/0/91/-21.png").status_code == 200


def test_point_queries(client: httpx.Client) -> None:
    t = rt.Terrain()
    r = client.get("/api/terra", params={"x": 23400, "y": 5320}).json()
    p = t.terra(23400, 5320)
    assert (r["height"], r["terrain"], r["feature"], r["code"]) == (
        p.height, p.terrain.name, p.feature.name, p.code)
    s = client.get("/api/site", params={"x": 23400.2, "y": 5319.8}).json()
    want = t.find_good_site(23400, 5320)
    assert s["geometry"]["coordinates"] == [want.x, want.y]
    assert s["properties"]["ok"] is bool(want.ok)
    st = client.get("/api/stream", params={"x": 23907, "y": 5835})
    assert st.status_code == 200
    f = st.json()
    route = np.array(f["geometry"]["coordinates"])
    src = tuple(f["properties"]["source"])
    assert np.array_equal(route, t.trace_stream(*src).route)


def test_tilejson_and_tile_matrix_set(client: httpx.Client, base: str) -> None:
    tj = client.get("/tiles/map.json").json()
    assert tj["tiles"] == [base + "/tiles/map/{z}/{x}/{y}.png"]
    assert (tj["minzoom"], tj["maxzoom"], tj["tileSize"]) == (-6, 2, 256)
    tms = client.get("/tms.json").json()
    sizes = [m["cellSize"] for m in tms["tileMatrices"]]
    assert sizes == [64.0 / 2**i for i in range(9)]


def test_load_world_rules(tmp_path: object) -> None:
    with pytest.raises(ValueError, match="world: 'nowhere' is neither a preset"):
        load_world("nowhere")
    with pytest.raises(TypeError, match="world: must be a Terrain"):
        load_world(3)
    assert load_world("skylands").params == rt.Terrain.preset("skylands", rng=0).params


def test_tile_bounds_rules() -> None:
    assert tiles.tile_bounds(0, 91, -21) == (23296.0, 5120.0, 23552.0, 5376.0, 1.0)
    # in Python, ints only (issue 19: no str, bool or float converted)
    for args, words in [((True, 0, 0), "z: must be an int"), ((0.5, 0, 0), "z: must be"),
                        ((0, "x", 0), "x: must be an int"), ((0, "1", 0), "x: must be an int")]:
        with pytest.raises(TypeError, match=words):
            tiles.tile_bounds(*args)
    # the text of a URL's path: TileError (the server's 400)
    assert tiles.tile_from_text("0", "91", "-21") == (0, 91, -21)
    for args, words in [(("x", "0", "0"), "z: must be an integer"),
                        (("0", "1.5", "0"), "x: must be an integer"),
                        (("99", "0", "0"), "z: must be in")]:
        with pytest.raises(tiles.TileError, match=words):
            tiles.tile_from_text(*args)
    with pytest.raises(tiles.TileError, match="layer: must be one of"):
        tiles.render_tile(rt.Terrain(), "bogus", 0, 0, 0)


def test_tile_cache_is_bounded() -> None:
    c = tiles.TileCache(max_bytes=100)
    for i in range(50):
        c.put(i, bytes(30))
    assert c.nbytes <= 100 and len(c) == 3
    assert c.get(49) is not None and c.get(0) is None


# -- the page in a real browser --------------------------------------------------

def _chrome() -> object:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    assert binary and driver, "the browser test needs Debian's chromium and chromium-driver"
    opts = webdriver.ChromeOptions()
    opts.binary_location = binary
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,800",
              "--disable-dev-shm-usage"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # the sanitizer run preloads ASan into Python: not into the browser
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "PYTHONMALLOC")}
    return webdriver.Chrome(options=opts, service=Service(driver, env=env))


_TILES_LOADED = """
const imgs = Array.from(document.querySelectorAll('img.leaflet-tile'));
const vis = imgs.filter(i => { const r = i.getBoundingClientRect();
  return r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight; });
return [vis.length, vis.filter(i => i.complete && i.naturalWidth === 256).length,
        document.querySelectorAll('img.leaflet-tile-loaded').length];
"""


def _wait_tiles(drv: object, timeout: float = 120) -> tuple[int, int]:
    deadline = time.monotonic() + timeout
    while True:
        n, ok, _ = drv.execute_script(_TILES_LOADED)  # type: ignore[attr-defined]
        if n > 0 and ok == n:
            time.sleep(0.5)  # Leaflet fades new tiles in over 0.2 s
            return n, ok
        assert time.monotonic() < deadline, f"{ok} of {n} visible tiles loaded"
        time.sleep(0.2)


def test_page_in_headless_chromium(base: str, tmp_path: object) -> None:
    from selenium.webdriver.common.by import By

    shots = os.environ.get("RELFTERRAIN_SCREENSHOTS")
    drv = _chrome()
    try:
        drv.get(base + "/")  # type: ignore[attr-defined]
        deadline = time.monotonic() + 60
        while drv.execute_script("return document.body.dataset.ready") != "1":  # type: ignore
            assert time.monotonic() < deadline, "the page did not start"
            time.sleep(0.1)
        n, _ = _wait_tiles(drv)
        assert n >= 4
        if shots:
            drv.save_screenshot(os.path.join(shots, "serve_start.png"))  # type: ignore
        # pan, zoom out, zoom in: every visible tile loads each time
        drv.execute_script("rtMap.panBy([400, -250], {animate: false})")  # type: ignore
        _wait_tiles(drv)
        drv.execute_script("rtMap.setZoom(-4, {animate: false})")  # type: ignore
        _wait_tiles(drv)
        if shots:
            drv.save_screenshot(os.path.join(shots, "serve_zoomed_out.png"))  # type: ignore
        drv.execute_script("rtMap.setView([5320, 23400], 1, {animate: false})")  # type: ignore
        _wait_tiles(drv)
        # a click in the middle of the map shows the readout of that point
        el = drv.find_element(By.ID, "map")  # type: ignore[attr-defined]
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(drv).move_to_element(el).click().perform()
        deadline = time.monotonic() + 30
        while drv.execute_script("return document.getElementById('readout').dataset.ready") != "1":  # type: ignore  # noqa: E501
            assert time.monotonic() < deadline, "no readout after a click"
            time.sleep(0.1)
        text = drv.find_element(By.ID, "readout").text  # type: ignore[attr-defined]
        assert "height" in text and "kind" in text and " m" in text
        # the readout is the point under the cursor: its kind is terra()'s
        centre = drv.execute_script(  # type: ignore[attr-defined]
            "const c = rtMap.getCenter(); return [c.lng, c.lat]")
        kind = rt.Terrain().terra(*centre).terrain.name
        assert kind in text
        # the stream's answer held back 1.5 s, so that it comes after the
        # site's: the status line keeps the latest request's (the site's),
        # as a slow stream under ASan once overwrote it
        drv.execute_script("""
            const f = window.fetch;
            window.streamDone = false;
            window.fetch = (u, ...a) => String(u).includes("api/stream")
                ? new Promise((r) => setTimeout(r, 1500)).then(() => f(u, ...a))
                    .finally(() => { window.streamDone = true; })
                : f(u, ...a);
        """)  # type: ignore[attr-defined]
        drv.find_element(By.ID, "stream").click()  # type: ignore[attr-defined]
        drv.find_element(By.ID, "site").click()  # type: ignore[attr-defined]
        deadline = time.monotonic() + 60
        while "site" not in drv.find_element(By.ID, "status").text:  # type: ignore
            assert time.monotonic() < deadline, "no site status"
            time.sleep(0.1)
        while not drv.execute_script("return window.streamDone"):  # type: ignore
            assert time.monotonic() < deadline, "the stream did not answer"
            time.sleep(0.1)
        time.sleep(0.5)  # the stream's handler runs right after its answer
        assert "site" in drv.find_element(By.ID, "status").text  # type: ignore
        if shots:  # the site and the stream drawn, the site's status
            drv.save_screenshot(os.path.join(shots, "serve_click.png"))  # type: ignore
        errors = [e for e in drv.get_log("browser")  # type: ignore[attr-defined]
                  if e["level"] == "SEVERE" and "api/stream" not in e["message"]]
        assert errors == []
    finally:
        drv.quit()  # type: ignore[attr-defined]


# -- the Jupyter widget ------------------------------------------------------------

def test_explore_widget_serves_its_tiles_and_reads_out_clicks() -> None:
    ipyleaflet = pytest.importorskip("ipyleaflet")
    box = rt.explore("classic", x=23400, y=5320, zoom=1)
    m = box.map
    assert isinstance(m, ipyleaflet.Map)
    assert m.crs == ipyleaflet.projections.Simple
    assert (m.center, m.zoom) == ([5320, 23400], 1)
    layers = [la for la in m.layers if isinstance(la, ipyleaflet.TileLayer)]
    assert sorted(la.url.split("/tiles/")[1].split("/")[0] for la in layers) == sorted(
        tiles.LAYERS)
    url = layers[0].url.format(z=1, x=182, y=-42)
    r = httpx.get(url, timeout=60)
    assert r.status_code == 200 and r.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert box.server.running
    # the same server for the same world
    assert rt.explore("classic").server is box.server
    box.on_interaction(type="click", coordinates=[5320, 23400])
    t = rt.Terrain().terra(23400, 5320)
    assert f"height {t.height:.1f} m" in box.readout.value
    assert t.terrain.name in box.readout.value
    with pytest.raises(ValueError, match="layer: must be one of"):
        rt.explore("classic", layer="nope")
    with pytest.raises(ValueError, match="zoom: must be an integer"):
        rt.explore("classic", zoom=9)


def test_cli_serve_binds_to_localhost_and_serves(tmp_path: object) -> None:
    import subprocess
    import sys

    port = _free_port()
    # cwd: not the checkout, whose relfterrain/ (no built _core) -m would import
    proc = subprocess.Popen([sys.executable, "-m", "relfterrain", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=str(tmp_path))
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith(f"relfterrain serve: http://127.0.0.1:{port}/"), line
        deadline = time.monotonic() + 60
        while True:
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/tiles/kinds/0/91/-21.png", timeout=30)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and proc.poll() is None, "no server"
                time.sleep(0.1)
        assert r.status_code == 200
    finally:
        proc.terminate()
        proc.wait(10)
        proc.stdout.close()  # type: ignore[union-attr]
    bad = subprocess.run([sys.executable, "-m", "relfterrain", "serve", "nowhere.json"],
                         capture_output=True, text=True, cwd=str(tmp_path))
    assert bad.returncode == 2
    assert "world: 'nowhere.json' is neither a preset" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_galaxy_world_serves_star_tiles() -> None:
    from relfterrain.maps import star_field

    with _Server(create_app("galaxy")) as url, httpx.Client(base_url=url, timeout=120) as c:
        info = c.get("/api/world").json()
        assert info["kind"] == "galaxy" and list(info["layers"]) == ["stars"]
        img = _png(c.get("/tiles/stars/0/-1/-1.png"))
        # tile (-1, -1) at zoom 0: x -256..-1, y 0..255 light years, one a pixel
        want = star_field(rt.Galaxy(), (-256, 0, 1, 256, 256, 300), scale=1.0, edges="cut")
        assert np.array_equal(img, want)
        assert img.any()
        for u, status, words in [("/tiles/stars/-3/0/0.png", 400, "zoom -2..2"),
                                 ("/tiles/map/0/0/0.png", 404, "layer: unknown"),
                                 ("/tiles/stars/-2/200/0.png", 400, "outside the galaxy"),
                                 ("/api/terra?x=0&y=0", 404, "no terrain")]:
            r = c.get(u)
            assert r.status_code == status and words in r.text, (u, r.status_code, r.text)


@pytest.mark.parametrize("shape", [(256, 256, 3), (1, 1, 4), (3, 700, 3), (17, 5, 4)])
def test_tile_png_reads_back_bit_for_bit(shape: tuple[int, int, int]) -> None:
    img = np.random.default_rng(shape[1]).integers(0, 256, shape, dtype=np.uint8)
    back = np.asarray(Image.open(io.BytesIO(tiles.tile_png(img))))
    assert back.shape == shape and np.array_equal(back, img)


@pytest.mark.parametrize("bad", [np.zeros((2, 2), np.uint8), np.zeros((2, 2, 3), np.float64),
                                 np.zeros((0, 2, 3), np.uint8), np.zeros((2, 2, 2), np.uint8)])
def test_tile_png_refuses_what_is_not_an_image(bad: np.ndarray) -> None:
    with pytest.raises(ValueError, match="image: must be a non-empty uint8"):
        tiles.tile_png(bad)


def test_height_tile_is_the_ramp_of_the_heights(client: httpx.Client) -> None:
    z, x, y = -2, 22, -6
    img = _png(client.get(f"/tiles/height/{z}/{x}/{y}.png"))
    info = client.get("/api/world").json()
    lo, hi = info["height_span"]
    assert (lo, hi) == tiles.height_range(rt.Terrain())
    xs, ys = _centres(z, x, y)
    h = rt.Terrain().height(xs[None, ::17], ys[::17, None])
    index = np.floor(np.clip((h - lo) * (255.0 / (hi - lo)), 0, 255)).astype(int)
    assert np.array_equal(img[::17, ::17], tiles._RAMP[index])
    assert len(np.unique(index)) > 20
