"""Thread safety under a mixed load: 8 threads x 1000 operations on ONE Terrain
(grids, points, place/remove/remove_all, lake_height changes, mark_streams,
find_good_site with may_alter, add_road/remove_road), and on one Galaxy.

How "every result equals some sequential order" is checked: each thread
works on its own region (disjoint, far enough apart that no operation in one
reaches another's), and mirrors each of its operations on two private
terrains, A with lake height L1 and B with L2.  One thread toggles the shared
terrain's lake height between L1 and L2; every other change to the shared
state is made by the thread that owns the region.  So in any sequential
order, an operation of thread k sees thread k's earlier operations and the
lake at L1 or L2: its result must equal A's or B's (states that change the
table must agree on A and B, which the test checks too).  Galaxy results
must equal the sequential ones exactly.
"""

from __future__ import annotations

import random
import threading

import numpy as np

import relfterrain as rt
from relfterrain import Feature, TerrainType

L1, L2 = 204.0, 206.0
THREADS, OPS = 8, 1000
X0, Y0 = 23396, 5318          # the classic map: lakes whose edges move with L
SIDE = 64                     # each thread's region: SIDE x SIDE from (X0 + 100 k, Y0)
STREAMS = (20000, 14000, 200, 200)  # thread 6's stream area: 2 streams, L does not matter
SITES = (30499, 9000)               # thread 4's find_good_site area: alters, L does not matter
SITE_RULES = {"max_loops": 2, "clearance": 40, "building_distance": 40, "mine_distance": 40}
KINDS = [Feature.BOULDER, Feature.MINE, Feature.WATERHOLE, TerrainType.WOOD,
         TerrainType.GRASS, TerrainType.THICKET]
ONLY_THREAD_0 = Feature.KNOLL         # placed and remove_all'ed by thread 0 only


def same_grid(a, b):
    return all(np.array_equal(u, v) for u, v in zip(a, b))


def worker(k, shared, errors, counts, barrier):
    rnd = random.Random(1000 + k)
    a, b = rt.Terrain(lake_height=L1), rt.Terrain(lake_height=L2)
    ox, oy = X0 + 100 * k, Y0
    road_added = False
    barrier.wait()
    try:
        for i in range(OPS):
            op = rnd.random()
            x, y = ox + rnd.randrange(SIDE), oy + rnd.randrange(SIDE)
            if k == 7 and op < 0.3:
                shared.lake_height = L2 if shared.lake_height == L1 else L1
                counts["lake"] += 1
            elif op < 0.3:
                what = ONLY_THREAD_0 if k == 0 and op < 0.1 else rnd.choice(KINDS)
                for t in (shared, a, b):
                    t.place(x, y, what)
                counts["place"] += 1
            elif op < 0.4:
                r = [t.remove(x, y) for t in (shared, a, b)]
                assert r[0] == r[1] == r[2], ("remove", k, i, r)
                counts["remove"] += 1
            elif op < 0.45:
                r = [t.at(x, y) for t in (shared, a, b)]
                assert r[0] == r[1] == r[2], ("at", k, i, r)
            elif op < 0.75:
                gx, gy = ox + rnd.randrange(SIDE - 8), oy + rnd.randrange(SIDE - 8)
                got = shared.grid(gx, gy, 8, 8, threads=rnd.choice([1, 2]))
                ga, gb = a.grid(gx, gy, 8, 8, threads=1), b.grid(gx, gy, 8, 8, threads=1)
                assert same_grid(got, ga) or same_grid(got, gb), ("grid", k, i)
                counts["grid"] += 1
            elif op < 0.85:
                xs = np.array([x, x + 0.5]), np.array([y, y + 0.25])
                got = shared.sample(*xs, threads=1)
                assert same_grid(got, a.sample(*xs, threads=1)) or \
                    same_grid(got, b.sample(*xs, threads=1)), ("sample", k, i)
                assert np.array_equal(shared.height(*xs), a.height(*xs)), ("height", k, i)
                counts["points"] += 1
            elif k == 0 and op < 0.9:
                r = [t.remove_all(ONLY_THREAD_0) for t in (shared, a, b)]
                assert r[0] == r[1] == r[2], ("remove_all", k, i, r)
                counts["remove_all"] += 1
            elif k == 6 and op < 0.9:
                r = [t.mark_streams(*STREAMS, margin=50, max_length=100.0, threads=1)
                     for t in (shared, a, b)]
                assert r[1].added == r[2].added, "choose an area where L does not matter"
                assert r[0].added == r[1].added and len(r[0].streams) == len(r[1].streams)
                c = [t.clear_streams() for t in (shared, a, b)]
                assert c[0] == c[1] == c[2] == r[0].added, ("clear_streams", k, i, c)
                counts["streams"] += 1
                counts["streams_added"] += r[0].added
            elif k == 4 and op < 0.9:
                # high dry ground far from every region: no lake within reach
                sx, sy = SITES[0] + rnd.randrange(SIDE), SITES[1] + rnd.randrange(SIDE)
                r = [t.find_good_site(sx, sy, may_alter=True, rng=i, **SITE_RULES)
                     for t in (shared, a, b)]
                assert r[1] == r[2], "choose an area where L does not matter"
                assert r[0] == r[1], ("find_good_site", k, i, r)
                counts["sites"] += 1
                counts["sites_altered"] += r[0].altered
            elif k == 5 and op < 0.9:
                if road_added:
                    for t in (shared, a, b):
                        t.remove_road(0)
                else:
                    pts = [[ox + 10, oy + 10 + i % 40], [ox + 50, oy + 20]]
                    for t in (shared, a, b):
                        t.add_road(pts)
                road_added = not road_added
                assert len(shared.roads) == int(road_added), ("roads", k, i)
                counts["roads"] += 1
    except BaseException as e:  # noqa: BLE001 - reported by the main thread
        errors.append((k, e))


def test_terrain_mixed_operations():
    shared = rt.Terrain(lake_height=L1)
    errors: list = []
    counts = dict.fromkeys(("lake", "place", "remove", "grid", "points", "remove_all", "streams",
                            "streams_added", "sites", "sites_altered", "roads"), 0)
    barrier = threading.Barrier(THREADS)
    threads = [threading.Thread(target=worker, args=(k, shared, errors, counts, barrier))
               for k in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]
    # every kind of operation ran, and the lake toggling did change grids
    assert all(v > 0 for v in counts.values()), counts
    # the final table: only the regions' cells (streams and roads all removed)
    final = dict(shared.placed)
    assert final, "nothing left placed: the check below would be empty"
    assert all(X0 <= x < X0 + 100 * THREADS and Y0 <= y < Y0 + SIDE
               or abs(x - SITES[0]) < 1000 and abs(y - SITES[1]) < 1000 for x, y in final)


def test_lake_toggle_changes_the_checked_grids():
    """The two lake heights give different grids in the regions (else the
    toggling above would check nothing)."""
    a, b = rt.Terrain(lake_height=L1), rt.Terrain(lake_height=L2)
    differing = 0
    for k in range(THREADS):
        ga, gb = a.grid(X0 + 100 * k, Y0, SIDE, SIDE), b.grid(X0 + 100 * k, Y0, SIDE, SIDE)
        differing += not same_grid(ga, gb)
    assert differing >= 3


def test_galaxy_concurrent_reads_equal_sequential():
    g = rt.Galaxy(f_mask=0x3FF, f_value=127)
    rnd = random.Random(7)
    blocks = [(rnd.randrange(-500, 500), rnd.randrange(-500, 500), rnd.randrange(1, 500),
               rnd.randrange(1, 30), rnd.randrange(1, 30), rnd.randrange(1, 30))
              for _ in range(40)]
    expected = {bl: (g.stars(*bl, threads=1).tobytes(), g.census(*bl, threads=1).tobytes(),
                     g.count(*bl, threads=1)) for bl in blocks}
    stars_at = {bl[:3]: g.star(*bl[:3]) for bl in blocks}
    errors: list = []
    barrier = threading.Barrier(THREADS)

    def run(k):
        r = random.Random(k)
        barrier.wait()
        try:
            for _ in range(OPS):
                bl = r.choice(blocks)
                what = r.randrange(4)
                th = r.choice([1, 2])
                if what == 0:
                    assert g.stars(*bl, threads=th).tobytes() == expected[bl][0]
                elif what == 1:
                    assert g.census(*bl, threads=th).tobytes() == expected[bl][1]
                elif what == 2:
                    assert g.count(*bl, threads=th) == expected[bl][2]
                else:
                    assert g.star(*bl[:3]) == stars_at[bl[:3]]
        except BaseException as e:  # noqa: BLE001 - reported by the main thread
            errors.append((k, e))

    threads = [threading.Thread(target=run, args=(k,)) for k in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]
    assert sum(expected[bl][2] for bl in blocks) > 0
