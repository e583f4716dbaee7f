"""Ctrl-C during long calls, size limits and memory refusals.

A SIGINT is sent to the main thread from a timer thread 0.3 s into a long
call: KeyboardInterrupt must come within 1 s of it (the grids run in row
blocks, the galaxy scans in pieces of about 0.1 s, with signals checked
between them), and an ``out=`` array must be untouched.  (These are
behaviour checks with a generous bound, not timings of speed.)
"""

from __future__ import annotations

import signal
import threading
import time

import numpy as np
import pytest

import relfterrain as rt
from relfterrain import _core
from relfterrain import galaxy as galaxy_module

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="POSIX only")


def interrupted_after(fn, delay=0.3):
    """Run fn, SIGINT after `delay`; how many signals it took to stop it.

    The work would take far longer than the test. Should the first signal be
    missed, another follows after 30 s, so a failure shows as more than one
    signal, never as a test that hangs; no speed is asserted, only that the
    first Ctrl-C stops the call."""
    main = threading.main_thread().ident
    sent: list[float] = []
    done = threading.Event()

    def fire():
        if done.wait(delay):
            return
        while not done.is_set() and len(sent) < 3:
            sent.append(time.monotonic())
            signal.pthread_kill(main, signal.SIGINT)
            done.wait(30.0)

    # Python's own Ctrl-C handler, even when started with SIGINT ignored
    # (as a background job of a non-interactive shell is)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    sender = threading.Thread(target=fire)
    sender.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            fn()
        return len(sent)
    finally:
        done.set()
        sender.join()
        signal.signal(signal.SIGINT, previous)


# 64 directions (the classic terrain has 5): about 13 times the work a point,
# so these grids run for seconds, well past the signal at 0.3 s
_rng = np.random.default_rng(5)
SLOW = rt.Terrain(**{name: _rng.integers(-200, 200, 64).tolist()
                     for name in ("ah", "bh", "a1", "b1", "a2", "b2", "a3", "b3")})
BIG = 9000


def test_grid_interrupted():
    assert interrupted_after(lambda: SLOW.grid(0, 0, BIG, BIG, threads=2)) == 1


def test_height_grid_out_untouched_when_interrupted():
    out = np.full((BIG, BIG), 7.0)
    assert interrupted_after(lambda: SLOW.height_grid(0, 0, BIG, BIG, out=out)) == 1
    assert (out == 7.0).all()


def test_grid_out_untouched_when_interrupted():
    out = [np.full((BIG, BIG), 5.0), np.full((BIG, BIG), 6.0), np.full((BIG, BIG), 7, np.uint8),
           np.full((BIG, BIG), 8, np.uint8)]
    assert interrupted_after(lambda: SLOW.grid(0, 0, BIG, BIG, out=out)) == 1
    for a, v in zip(out, (5, 6, 7, 8)):
        assert (a == v).all()


def test_galaxy_count_interrupted():
    # far coordinates: about 1e7 points per second and core, so hours
    g = rt.Galaxy()
    assert interrupted_after(
        lambda: g.count(10**9, 10**9, 10**9, 2**14, 2**14, 2**14, allow_huge=False)) == 1


def test_galaxy_stars_interrupted_mid_plane():
    # one x plane of 2**40 points: the pieces cut it into rows and runs
    g = rt.Galaxy()
    assert interrupted_after(
        lambda: g.stars(10**9, 10**9, 10**9, 1, 2**20, 2**20)) == 1


def test_galaxy_huge_refused_at_once():
    g = rt.Galaxy()
    with pytest.raises(ValueError, match=r"^nx, ny, nz: .*allow_huge=True"):
        g.count(0, 0, 0, 2**21, 2**21, 2**20)  # refused before any work (else: hours)
    with pytest.raises(ValueError, match=r"^nx, ny, nz"):
        g.census(1, 1, 1, 2**15, 2**15, 2**15)  # 2**45 > MAX_BLOCK_POINTS
    assert rt.MAX_BLOCK_POINTS == 2**44


@pytest.mark.parametrize("block", [(-7, -5, 1, 9, 11, 13), (1, 1, 1, 1, 1, 50),
                                   (-3, 4, -20, 4, 7, 40)])
@pytest.mark.parametrize("limit", [1, 5, 13, 100, 10**6])
def test_galaxy_pieces_give_the_same_result(monkeypatch, block, limit):
    g = rt.Galaxy(f_mask=0x3, f_value=1)
    whole_stars = g._core.stars(*block, threads=1)
    whole_census = g._core.census(*block, threads=1)
    # pieces of at most `limit` points: whole planes, rows or z runs
    monkeypatch.setattr(galaxy_module, "_FIRST_CALL_POINTS", limit)
    monkeypatch.setattr(galaxy_module, "_MAX_CALL_POINTS", limit)
    seen = []
    real = galaxy_module._pieces

    def spy(*a):
        for piece, done in real(*a):
            seen.append(piece)
            yield piece, done

    monkeypatch.setattr(galaxy_module, "_pieces", spy)
    assert g.stars(*block).tobytes() == whole_stars.tobytes()
    assert np.array_equal(g.census(*block), whole_census)
    # the pieces tile the block exactly, each within the limit (or one z run)
    pts = sum(p[3] * p[4] * p[5] for p in seen) // 2
    assert pts == block[3] * block[4] * block[5]
    assert all(p[3] * p[4] * p[5] <= max(limit, 1) for p in seen)
    assert len(whole_stars) > 0 or block[3] * block[4] * block[5] < 100


def test_grid_rows_give_the_same_bits():
    # more than RTPY_ROWS_POINTS (2**22) points: computed in row blocks
    t = rt.Terrain()
    t.place(23500, 5400, rt.Feature.BOULDER)
    nx, ny = 3000, 1500
    g = t.grid(23000, 5000, nx, ny, 0.7)
    for r0 in (0, 1397, ny - 1):
        row = t.grid(23000, 5000, nx, 1, 0.7, offset=(r0, 0))
        for a, b in zip(row[2:], g[2:]):
            assert np.array_equal(a[0], b[r0])
    out = t.height_grid(23000, 5000, nx, ny, 0.7, out=np.empty((ny, nx)))
    assert np.array_equal(out, t.height_grid(23000, 5000, nx, ny, 0.7, threads=1))


def test_memory_refusal_names_sizes():
    phys = _core.physical_memory()
    side = int((phys / 18) ** 0.5) + 2
    with pytest.raises(MemoryError, match=r"^nx, ny: the call needs \d+ bytes .*out\.height"):
        rt.Terrain().grid(0, 0, side, side)
    with pytest.raises(MemoryError, match=r"^iterations"):
        rt.classic.midpoint_displacement(31)


def test_independence_table_overflow():
    table = np.zeros((16, 16), np.uint64)
    table[3, 4] = 2**63
    with pytest.raises(ValueError, match=r"^table: the counts must sum"):
        rt.colour_planet_independence(table=table)
    table = np.full((16, 16), 2**60, np.int64)   # each fits, the total does not
    with pytest.raises(ValueError, match=r"^table"):
        rt.colour_planet_independence(table=table)
