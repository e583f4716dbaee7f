"""How soon Ctrl-C stops a long call, whatever phase it is in (issue 19).

    PYTHONPATH=. python benchmarks/bench_ctrl_c.py [--only NAME ...] [--points 40]

For each workload the call is first timed whole, then run again and again
with a SIGINT sent to the main thread after a delay swept evenly over the
call's length (``--points`` delays, plus a few in its first half second, where
the preparation of the input runs), so every phase of it is hit: the
checks and conversions of the input, the sort of the starts, the searches,
the copies of the results. The figure is the latency from the signal to
the KeyboardInterrupt arriving in the caller; the table gives the median and
the worst over the delays that fell inside the call. Each interrupted call
must leave the terrain as it was (checked: the placed table is compared).

Timing is noisy on a shared machine: the worst case is what matters, and it
is printed with the load average it was measured under.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import threading
import time
from collections.abc import Callable

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _common import cpu_model  # noqa: E402

import relfterrain as rt  # noqa: E402


def latency(fn: Callable[[], object], delay: float) -> float | None:
    """Seconds from a SIGINT sent `delay` s into fn() to its KeyboardInterrupt;
    None when fn returned first."""
    main = threading.main_thread().ident
    sent: list[float] = []
    done = threading.Event()

    def fire() -> None:
        if not done.wait(delay):
            sent.append(time.perf_counter())
            signal.pthread_kill(main, signal.SIGINT)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    sender = threading.Thread(target=fire)
    sender.start()
    try:
        try:
            fn()
        except KeyboardInterrupt:
            caught = time.perf_counter()
            done.set()
            sender.join()
            return caught - sent[0]
        done.set()
        sender.join()
        # the signal may have come after fn returned: take it here
        try:
            time.sleep(0.01)
        except KeyboardInterrupt:
            pass
        return None
    finally:
        done.set()
        sender.join()
        signal.signal(signal.SIGINT, previous)


def workloads(n_starts: int) -> dict[str, Callable[[], object]]:
    t = rt.Terrain()
    rng = np.random.default_rng(19)
    x0, y0, nx, ny = rt.CLASSIC_MAP
    # unsorted: uniform over the classic map, in random order
    ux = x0 + rng.random(n_starts) * nx
    uy = y0 + rng.random(n_starts) * ny
    lx, ly = ux.tolist(), uy.tolist()   # made once: the call converts them
    # starts whose searches end at once (a good site, tries 1): the call is
    # then mostly its input and output phases
    good = t.find_good_sites([23400.0], [5320.0])
    assert good.tries[0] == 1
    gx = np.full(n_starts, 23400.0)
    gy = np.full(n_starts, 5320.0)
    return {
        "find_good_sites_unsorted": lambda: t.find_good_sites(ux, uy, threads=2),
        "find_good_sites_unsorted_rng": lambda: t.find_good_sites(ux, uy, threads=2, rng=1),
        "find_good_sites_unsorted_lists": lambda: t.find_good_sites(lx, ly, threads=2),
        "find_good_sites_at_once": lambda: t.find_good_sites(gx, gy, threads=2),
        "find_good_sites_altering": lambda: t.copy().find_good_sites(ux[:200_000], uy[:200_000],
                                                                     may_alter=True),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--points", type=int, default=40)
    ap.add_argument("--starts", type=int, default=6_000_000)
    ap.add_argument("--max-span", type=float, default=6.0,
                    help="sweep at most this many seconds of a call")
    args = ap.parse_args()
    loads = workloads(args.starts)
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {cpu_model()}, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, "
          f"{args.starts} starts")
    print("| call | length (s) | delays hit | median latency (ms) | worst latency (ms) |")
    print("|---|---|---|---|---|")
    for name, fn in loads.items():
        if args.only and name not in args.only:
            continue
        # the call's length, up to --max-span (stopped there by a signal)
        t0 = time.perf_counter()
        first = latency(fn, args.max_span)
        whole = time.perf_counter() - t0 - (first or 0.0)
        span = min(whole, args.max_span)
        delays = [0.01, 0.03, 0.06, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5]
        delays += [span * (i + 0.5) / args.points for i in range(args.points)]
        got = [] if first is None else [first]
        for d in sorted(set(delays)):
            if d >= span:
                continue
            lat = latency(fn, d)
            if lat is not None:
                got.append(lat)
                print(f"  {name}: signal at {d:.3f} s -> {1000 * lat:.1f} ms", file=sys.stderr)
        length = f"{whole:.2f}" if first is None else f"> {args.max_span:g}"
        print(f"| `{name}` | {length} | {len(got)} | "
              f"{1000 * statistics.median(got):.0f} | {1000 * max(got):.0f} |", flush=True)


if __name__ == "__main__":
    main()
