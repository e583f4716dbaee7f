"""Map tiles: render time per layer and zoom (one thread), PNG encoding, and a
load test of the real server on localhost.

    python benchmarks/bench_tiles.py [--repeat 15] [--clients 8] [--tiles 500]

Prints, for every layer at every zoom from 64 m to 1/4 m a pixel, the median
time to render a 256 x 256 tile (``relfterrain.tiles.render_tile``, one
thread) and to encode it as PNG, against the targets (map tile 5 ms, height
tile 1 ms). Then starts ``relfterrain serve`` in a child process and fetches
``--tiles`` distinct tiles from ``--clients`` concurrent clients (httpx,
keep-alive), printing requests per second, p50, p99 and errors.
"""

from __future__ import annotations

import argparse
import datetime
import os
import socket
import subprocess
import sys
import threading
import time

import numpy as np
from _common import cpu_model, timeit

import relfterrain as rt
from relfterrain import tiles

TARGET_MS = {"map": 5.0, "height": 1.0}


def _median_ms(fn, repeat: int) -> float:
    return 1e3 * timeit(fn, repeat)[0]


def render_table(repeat: int) -> None:
    t = rt.Terrain()
    span = tiles.height_range(t)
    print(f"{'layer':<10} {'zoom':>4} {'m/px':>6} {'render ms':>10} {'png ms':>7} "
          f"{'target':>7}")
    for layer in tiles.LAYERS:
        for z in range(tiles.MIN_ZOOM, tiles.MAX_ZOOM + 1):
            # a different tile each call (the classic map area at this zoom): no cache
            span_m = 256 * 2.0**-z
            tx, ty = int(23400 // span_m), int(-5320 // span_m)
            k = iter(range(10**6))

            def one(layer=layer, z=z, tx=tx, ty=ty, k=k):
                i = next(k)
                return tiles.render_tile(t, layer, z, tx + i % 7, ty + i // 7 % 7,
                                         height_span=span)

            ms = _median_ms(one, repeat)
            img = one()
            png = _median_ms(lambda img=img: tiles.tile_png(img), repeat)
            target = TARGET_MS.get(layer)
            verdict = "" if target is None else f"{'met' if ms <= target else 'MISSED'} " \
                                                f"{target:g}"
            print(f"{layer:<10} {z:>4} {2.0**-z:>6g} {ms:>10.2f} {png:>7.2f} {verdict:>7}")


def load_test(clients: int, count: int) -> None:
    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, RELFTERRAIN_THREADS="1")
    proc = subprocess.Popen([sys.executable, "-m", "relfterrain", "serve", "--port", str(port)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(base + "/api/world", timeout=5)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        layers = ["map", "hillshade", "height", "terrarium", "kinds"]
        rng = np.random.default_rng(1)
        urls = []
        for i in range(count):
            z = int(rng.integers(-4, 3))
            span_m = 256 * 2.0**-z
            tx = int(23400 // span_m) + int(rng.integers(-20, 20))
            ty = int(-5320 // span_m) + int(rng.integers(-20, 20))
            urls.append(f"/tiles/{layers[i % len(layers)]}/{z}/{tx}/{ty}.png")
        urls = list(dict.fromkeys(urls))  # distinct
        lat: list[float] = []
        errors: list[str] = []
        lock = threading.Lock()

        def client(part: list[str]) -> None:
            with httpx.Client(base_url=base, timeout=120) as c:
                for u in part:
                    t0 = time.perf_counter()
                    r = c.get(u)
                    dt = time.perf_counter() - t0
                    with lock:
                        lat.append(dt)
                        if r.status_code != 200:
                            errors.append(f"{r.status_code} {u}")

        parts = [urls[i::clients] for i in range(clients)]
        threads = [threading.Thread(target=client, args=(p,)) for p in parts]
        t0 = time.perf_counter()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        wall = time.perf_counter() - t0
        ms = 1e3 * np.array(lat)
        print(f"load test: {clients} clients x {len(urls)} distinct tiles (zoom -4..2, "
              f"5 layers) in {wall:.2f} s: {len(urls) / wall:.0f} tiles/s, "
              f"p50 {np.percentile(ms, 50):.1f} ms, p99 {np.percentile(ms, 99):.1f} ms, "
              f"errors {len(errors)}")
    finally:
        proc.terminate()
        proc.wait(10)
        proc.stdout.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--tiles", type=int, default=500)
    ap.add_argument("--no-load-test", action="store_true")
    a = ap.parse_args()
    print(f"relfterrain {rt.__version__}, {cpu_model()}, {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.2f}, {datetime.datetime.now():%Y-%m-%d %H:%M}")
    render_table(a.repeat)
    if not a.no_load_test:
        load_test(a.clients, a.tiles)


if __name__ == "__main__":
    main()
