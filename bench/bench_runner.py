"""Benchmark of the conformance runner: the suite in process vs through `durak-conformance serve`.

Prints (never asserts) figures for:

1. the YAML fixtures run by the case runner, in process and through the process protocol, with
   the number of requests and the protocol's cost per request;
2. a micro-benchmark: the same legal_moves / apply request repeated, in process and through serve;
3. the whole `durak-conformance run` (fixtures and Gherkin scenarios, pytest included), wall time
   both ways.

Target (issue 5): the process path costs no more than 3x the in-process path.

    python bench/bench_runner.py [--repeat N] [--no-cli]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from _common import ROOT, SERVE, Counting

from conformance.engines.base import Engine, InProcessEngine
from conformance.engines.gating import Support
from conformance.engines.process import SubprocessEngine
from conformance.suite.cases import CaseRunner
from conformance.suite.loader import load_paths


def run_fixtures(engine: Engine, cases) -> tuple[float, dict[str, int]]:
    hello = engine.hello()
    runner = CaseRunner(engine, Support.from_hello(hello))
    outcomes: dict[str, int] = {}
    began = time.perf_counter()
    for case in cases:
        outcome = runner.run(case).outcome
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return time.perf_counter() - began, outcomes


def best(fn, repeat: int):
    results = [fn() for _ in range(repeat)]
    return min(results, key=lambda r: r[0])


def fixtures_benchmark(repeat: int) -> None:
    cases, problems = load_paths([ROOT / "conformance" / "fixtures"])
    print(f"fixtures: {len(cases)} cases ({len(problems)} broken, not run)")
    inproc = Counting(InProcessEngine())
    t_in, out_in = best(lambda: run_fixtures(inproc, cases), repeat)
    requests = inproc.requests // repeat
    served = SubprocessEngine(SERVE, timeout=30)
    served.hello()  # start the process outside the timing
    t_out, out_out = best(lambda: run_fixtures(served, cases), repeat)
    served.close()
    print(f"  in process:    {t_in * 1000:8.1f} ms  {out_in}")
    print(f"  through serve: {t_out * 1000:8.1f} ms  {out_out}")
    print(f"  requests per run: {requests}")
    print(f"  ratio serve / in process: {t_out / t_in:.2f}x (target <= 3x)")
    print(f"  protocol cost per request: {(t_out - t_in) / max(requests, 1) * 1e6:.0f} us")


def micro_benchmark(n: int = 2000) -> None:
    inproc = InProcessEngine()
    state = inproc.new_game("podkidnoy", 4, seed=2024)
    moves = inproc.legal_moves(state)
    state = inproc.apply(state, moves[0])
    move = inproc.legal_moves(state)[0]
    served = SubprocessEngine(SERVE, timeout=30)
    served.hello()
    raw = InProcessEngine(roundtrip=False)
    print(f"micro-benchmark, {n} requests each, on a 4-player mid-bout state:")
    for name, call in (
        ("legal_moves", lambda e: e.legal_moves(state)),
        ("apply", lambda e: e.apply(state, move)),
    ):
        figures = []
        for engine in (raw, inproc, served):
            began = time.perf_counter()
            for _ in range(n):
                call(engine)
            figures.append((time.perf_counter() - began) / n * 1e6)
        print(
            f"  {name:<12} reference call {figures[0]:7.1f} us, in process (JSON round trip) "
            f"{figures[1]:7.1f} us, through serve {figures[2]:7.1f} us "
            f"(+{figures[2] - figures[1]:.1f} us per request)"
        )
    served.close()


def cli_benchmark() -> None:
    print("whole `durak-conformance run` (pytest, fixtures and scenarios), wall time:")
    for name, extra in (("in process", []), ("through serve", ["--engine", " ".join(SERVE)])):
        began = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "conformance", "run", *extra],
            check=False,
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        elapsed = time.perf_counter() - began
        tail = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
        print(f"  {name:<14} {elapsed:6.2f} s  exit {done.returncode}  ({tail})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="best of N fixture runs")
    parser.add_argument("--no-cli", action="store_true", help="skip the whole-run timing")
    args = parser.parse_args()
    fixtures_benchmark(args.repeat)
    micro_benchmark()
    if not args.no_cli:
        cli_benchmark()


if __name__ == "__main__":
    main()
