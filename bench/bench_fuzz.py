"""Benchmark of differential fuzzing and record replay: figures only, never assertions.

Prints, for the reference engine fuzzed against itself (so every game runs to its end):

1. games/s, moves/s and requests/s in process and with the engine under test behind
   ``durak-conformance serve`` (the process path a third-party engine takes), for 2-player
   podkidnoy and for every preset at every player count;
2. the cost of the probes (moves outside the legal set) by running with ``--probes 0`` too;
3. records replayed per second, in process and through serve.

    python bench/bench_fuzz.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import time

from _common import SERVE, Counting

from conformance.engines.base import Engine, InProcessEngine
from conformance.engines.process import SubprocessEngine
from conformance.suite import RECORDS_DIR
from conformance.tools.fuzz import FuzzConfig, Fuzzer
from conformance.tools.record import load_record
from conformance.tools.replay import replay


def fuzz_once(candidate: Engine, config: FuzzConfig) -> tuple[float, int, int, int]:
    counting = Counting(candidate)
    fuzzer = Fuzzer(InProcessEngine(), counting, config)
    problem = fuzzer.greet()
    if problem:
        raise SystemExit(problem)
    report = fuzzer.run()
    if report.findings:
        raise SystemExit(f"the reference disagrees with itself: {list(report.findings)}")
    return report.elapsed, report.games, report.moves, counting.requests


def show(label: str, elapsed: float, games: int, moves: int, requests: int) -> None:
    print(
        f"  {label:34} {games / elapsed:7.2f} games/s {moves / elapsed:8.0f} moves/s "
        f"{requests / elapsed:8.0f} requests/s to the engine under test ({games} games, "
        f"{moves} moves, {elapsed:.1f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    setups = [
        ("podkidnoy, 2 players", {"rulesets": ["podkidnoy"], "players": [2]}),
        ("every preset and player count", {}),
    ]
    for title, extra in setups:
        print(f"fuzz, reference against itself: {title}")
        for probes in (2, 0):
            config = FuzzConfig(games=args.games, seed=args.seed, probes=probes, **extra)
            show(f"in process, {probes} probes", *fuzz_once(InProcessEngine(), config))
            with SubprocessEngine(SERVE) as served:
                show(f"through serve, {probes} probes", *fuzz_once(served, config))
    records = [load_record(p) for p in sorted(RECORDS_DIR.glob("*.json"))]
    moves = sum(len(r["moves"]) for r in records)
    print(f"replay of the {len(records)} committed records ({moves} moves), 20 rounds")
    for label, engine in (
        ("in process", InProcessEngine()),
        ("through serve", SubprocessEngine(SERVE)),
    ):
        with engine:
            engine.hello()
            began = time.perf_counter()
            for _ in range(20):
                for record in records:
                    assert replay(engine, record).outcome == "passed"
            elapsed = time.perf_counter() - began
        print(
            f"  {label:34} {20 * len(records) / elapsed:7.1f} records/s "
            f"{20 * moves / elapsed:8.0f} moves/s"
        )


if __name__ == "__main__":
    main()
