"""``durak-conformance perft``: count the suite's positions (or given files) on an engine.

The runner's CLI adds how to reach the engine and calls :func:`run_cli`;
``python -m conformance.tools.perft`` runs the same against the in-process reference engine.
``--divide DEPTH`` prints one position's divide, to compare two engines by hand.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from conformance.engines.base import Engine, ErrorResult, InProcessEngine
from conformance.engines.gating import HelloError, Support
from conformance.tools.perft.check import format_results, run_positions
from conformance.tools.perft.count import PerftError, divide
from conformance.tools.perft.positions import PositionsError, load_positions, start_state


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``perft`` subcommand's own arguments (the runner adds how to reach the engine)."""
    parser.add_argument(
        "files", nargs="*", type=Path, help="positions files (default: the suite's own)"
    )
    parser.add_argument("--id", action="append", default=[], help="only this position (repeat)")
    parser.add_argument("--max-depth", type=int, default=None, help="deepest depth to check")
    parser.add_argument(
        "--max-nodes", type=int, default=None, help="skip depths whose count exceeds this"
    )
    parser.add_argument(
        "--divide", type=int, metavar="DEPTH", help="print the divide of the --id position"
    )
    parser.add_argument(
        "--no-transpositions", action="store_true", help="ask the engine at every node"
    )


def run_cli(engine: Engine, args: argparse.Namespace, out: Any = None) -> int:
    """Run the ``perft`` subcommand against ``engine``; 0 when every checked count matches."""
    out = out or sys.stdout
    try:
        positions = load_positions(args.files or None)
    except PositionsError as exc:
        print(f"error: {exc}", file=out)
        return 2
    if args.id:
        wanted = set(args.id)
        unknown = wanted - {p.id for p in positions}
        if unknown:
            print(f"error: no position with id {sorted(unknown)}", file=out)
            return 2
        positions = [p for p in positions if p.id in wanted]
    trans = not args.no_transpositions
    if args.divide is not None:
        if len(positions) != 1:
            print("error: --divide needs exactly one position (--id)", file=out)
            return 2
        state = start_state(engine, positions[0])
        if isinstance(state, ErrorResult):
            print(f"error: {state}", file=out)
            return 1
        try:
            entries = divide(engine, state, args.divide, transpositions=trans)
        except PerftError as exc:
            print(f"error: {exc}", file=out)
            return 1
        for entry in entries:
            print(f"{entry.key}: {entry.count}", file=out)
        print(f"total: {sum(e.count for e in entries)}", file=out)
        return 0
    hello = engine.hello()
    try:
        support = Support.from_hello(hello)
    except HelloError as exc:
        print(f"error: the engine's hello is unusable: {exc}", file=out)
        return 2
    results = run_positions(
        engine,
        positions,
        max_depth=args.max_depth,
        max_nodes=args.max_nodes,
        transpositions=trans,
        support=support,
    )
    print(format_results(results), file=out)
    if not all(r.ok or r.unsupported for r in results):
        return 1
    return 0 if any(r.checked for r in results) else 3


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m conformance.tools.perft``: the suite's positions against the reference engine."""
    parser = argparse.ArgumentParser(prog="python -m conformance.tools.perft", description=__doc__)
    add_cli_arguments(parser)
    args = parser.parse_args(argv)
    with InProcessEngine() as engine:
        return run_cli(engine, args)
