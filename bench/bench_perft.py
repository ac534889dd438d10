"""Benchmark of perft: how fast the suite's perft positions count, through the Engine interface.

Prints, for every perft position at the deepest depth whose expected count fits the budget:

- the count, the seconds, leaves per second and engine requests per second, through the in-process
  reference engine (``InProcessEngine``, with its JSON round trip: the path a conformance run takes);
- for two positions, the same without the transposition cache (every node asks the engine), to show
  what the cache saves;
- for one position, the same through the process protocol (``durak-conformance serve`` as a
  subprocess), which is what a third-party engine pays per request;
- the independent brute-force counter of ``tests/perft/independent.py`` on the same positions, for
  comparison.

A benchmark, not a test: it prints figures and asserts nothing (a mismatch is printed as such).
Usage::

    python bench/bench_perft.py                 # budget 20,000 leaves per position
    python bench/bench_perft.py --max-nodes 100000
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time

from _common import ROOT, SERVE, Counting

sys.path.insert(0, str(ROOT / "tests"))

from conformance.engines.base import Engine, InProcessEngine
from conformance.engines.factory import make_engine
from conformance.tools.perft import load_positions, perft, start_state


def measure(engine: Engine, position, depth: int, transpositions: bool = True):
    counting = Counting(engine)
    state = start_state(engine, position)
    began = time.perf_counter()
    count = perft(counting, state, depth, transpositions=transpositions)
    seconds = time.perf_counter() - began
    return count, seconds, counting.requests


def line(label: str, expected: int, count: int, seconds: float, requests: int | None) -> str:
    flag = "" if count == expected else f"  MISMATCH (expected {expected})"
    rate = f"{count / seconds:>11,.0f} leaves/s" if seconds else ""
    reqs = f"{requests / seconds:>9,.0f} requests/s" if requests is not None and seconds else ""
    return f"  {label:34} {count:>9,} in {seconds:6.2f}s {rate} {reqs}{flag}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-nodes", type=int, default=20_000)
    args = parser.parse_args(argv)

    positions = load_positions()
    chosen = []
    for p in positions:
        depths = [d for d in p.depths(max_nodes=args.max_nodes) if d >= 1 and p.counts[d]]
        if depths:
            chosen.append((p, max(depths)))

    print(f"perft through the in-process reference engine (budget {args.max_nodes:,} leaves)")
    total_leaves = total_seconds = 0.0
    with InProcessEngine() as engine:
        for p, depth in chosen:
            count, seconds, requests = measure(engine, p, depth)
            total_leaves += count
            total_seconds += seconds
            print(line(f"{p.id} d{depth}", p.counts[depth], count, seconds, requests))
        print(f"  {'all positions':34} {int(total_leaves):>9,} in {total_seconds:6.2f}s "
              f"{total_leaves / total_seconds:>11,.0f} leaves/s")

        print("\nwithout the transposition cache")
        by_id = {p.id: (p, depth) for p, depth in chosen}
        for pid in ("podkidnoy-2p-deal", "podkidnoy-6p-deal"):
            if pid not in by_id:
                continue
            p, depth = by_id[pid]
            d = max(1, depth - 1)
            count, seconds, requests = measure(engine, p, d, transpositions=False)
            print(line(f"{p.id} d{d} (no cache)", p.counts[d], count, seconds, requests))
            count, seconds, requests = measure(engine, p, d)
            print(line(f"{p.id} d{d} (cache)", p.counts[d], count, seconds, requests))

    command = shlex.join(SERVE)
    print(f"\nthrough the process protocol ({command})")
    p, depth = chosen[0]
    d = max(1, depth - 3)
    with make_engine(command) as process:
        count, seconds, requests = measure(process, p, d)
        print(line(f"{p.id} d{d}", p.counts[d], count, seconds, requests))

    print("\nthe independent counter (tests/perft/independent.py)")
    from perft import independent as ind
    from perft.test_perft_positions import independent_start

    began_all = time.perf_counter()
    leaves = 0
    for p, depth in chosen:
        rules, pos = independent_start(p)
        began = time.perf_counter()
        count = ind.perft(rules, pos, depth)
        leaves += count
        print(line(f"{p.id} d{depth}", p.counts[depth], count, time.perf_counter() - began, None))
    seconds = time.perf_counter() - began_all
    print(f"  {'all positions':34} {leaves:>9,} in {seconds:6.2f}s {leaves / seconds:>11,.0f} leaves/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
