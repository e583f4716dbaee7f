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


def _run_in_threads(tasks, n_threads=4):
    """Run every task in each of n_threads threads at once; the results per thread."""
    results = [None] * n_threads
    errors = []
    barrier = threading.Barrier(n_threads)

    def work(i):
        try:
            barrier.wait()
            results[i] = [task() for task in tasks]
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n_threads)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    return results


def _same(a, b):
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.tobytes() == b.tobytes()
    return a == b


def test_one_galaxy_from_many_threads_gives_the_sequential_results():
    g = rt.Galaxy(f_mask=0x3FFF)
    tasks = [
        lambda: g.stars(-60, -40, 1, 120, 80, 60, threads=2),
        lambda: g.census(-60, -40, 1, 120, 80, 60, threads=3),
        lambda: g.count(-400, -300, 1, 200, 150, 40, threads=1),
        lambda: g.planet_counts(10, 20, 30, 50, 50, 50, threads=2),
        lambda: g.star(-42, 11, 41),
    ]
    want = [task() for task in tasks]
    for got in _run_in_threads(tasks):
        assert all(_same(a, b) for a, b in zip(got, want))


def test_classic_generators_from_many_threads_give_the_sequential_results():
    tasks = [
        lambda: rt.classic.midpoint_displacement(12, rng=5),
        lambda: rt.classic.diamond_square(7, rng=6),
        lambda: rt.classic.limited_random(200, 100, 3.0, 0.0, 50.0, rng=7),
        lambda: rt.classic.circle_hill(200, 100, 40, 9.0, 3.0, 60.0, rng=8),
        lambda: rt.classic.clouds(np.linspace(-1, 2, 10_000), 0.0, 1.0),
    ]
    want = [task() for task in tasks]
    for got in _run_in_threads(tasks):
        assert all(_same(a, b) for a, b in zip(got, want))
