"""Thread safety: computations release the GIL, and the placed table may be
changed meanwhile (copy-on-write: a running computation keeps the table it
started with)."""

import threading

import numpy as np

import relfterrain as rt
from relfterrain import Feature, TerrainType


def test_place_while_computing_sees_a_consistent_table():
    t = rt.Terrain()
    x0, y0 = 23396, 5318
    before = t.grid(x0, y0, 400, 300, threads=1)
    for k in range(50):
        t.place(x0 + 3 * k, y0 + 2 * k, TerrainType.ROAD)
    with_roads = t.grid(x0, y0, 400, 300, threads=1)
    assert not np.array_equal(before.terrain, with_roads.terrain)

    results, errors = [], []

    def compute():
        try:
            for _ in range(20):
                results.append(t.grid(x0, y0, 400, 300, threads=2).terrain)
        except Exception as e:  # noqa: BLE001 - any failure in the thread is reported below
            errors.append(e)

    worker = threading.Thread(target=compute)
    worker.start()
    while worker.is_alive():  # flip the table between the two states
        t.remove_all(TerrainType.ROAD)
        for k in range(50):
            t.place(x0 + 3 * k, y0 + 2 * k, TerrainType.ROAD)
    worker.join()
    assert not errors
    assert len(results) == 20
    # Each place() is one call, so the table passes through the states "the
    # first k roads placed" (k = 0..50).  A computation works on one whole
    # snapshot: its roads are such a prefix and every other cell is untouched.
    roads = [(3 * k, 2 * k) for k in range(50)]  # (column, row) offsets
    for terrain in results:
        k = 0
        while k < len(roads) and terrain[roads[k][1], roads[k][0]] == TerrainType.ROAD:
            k += 1
        expected = before.terrain.copy()
        for c, r in roads[:k]:
            expected[r, c] = TerrainType.ROAD
        assert np.array_equal(terrain, expected)


def test_concurrent_computations_agree():
    t = rt.Terrain()
    t.place(23400, 5320, Feature.CONE)
    expected = t.grid(23396, 5318, 300, 200, threads=1)
    out = [None] * 4

    def run(i):
        out[i] = t.grid(23396, 5318, 300, 200, threads=1 + i % 2)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for g in out:
        for a, b in zip(g, expected):
            assert np.array_equal(a.view(np.uint8), b.view(np.uint8))


def test_lake_height_change_does_not_affect_a_finished_result():
    t = rt.Terrain()
    g = t.grid(23396, 5318, 100, 80)
    snapshot = g.terrain.copy()
    t.lake_height = 260
    assert np.array_equal(g.terrain, snapshot)
    assert (t.terrain_grid(23396, 5318, 100, 80) == TerrainType.LAKE).sum() > (
        snapshot == TerrainType.LAKE
    ).sum()
