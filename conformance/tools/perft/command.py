"""``durak-conformance perft``: count the suite's positions (or given files) on an engine.

The runner's CLI adds how to reach the engine and calls :func:`run_cli`;
``python -m conformance.tools.perft`` runs the same against the in-process reference engine.
``--divide DEPTH`` prints one position's divide on the engine beside the reference's, marks the
moves whose counts differ, and follows the first of them down to where the two part
(:mod:`conformance.tools.perft.beside`). While positions are counted, a progress bar shows on
standard error when it is a terminal (:mod:`conformance.tools.progress`); the printed text is the
same without it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from conformance.contract import canonical as canonical_text
from conformance.engines.base import Engine, ErrorResult, InProcessEngine
from conformance.engines.gating import HelloError, Support
from conformance.tools.perft.beside import divide_beside
from conformance.tools.perft.check import format_results, run_positions
from conformance.tools.perft.count import PerftError, divide
from conformance.tools.perft.positions import PositionsError, load_positions, start_state
from conformance.tools.progress import Bar


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
        "--divide",
        type=int,
        metavar="DEPTH",
        help="the --id position's divide on the engine beside the reference's (* counts differ, "
        "+ engine only, - reference only), followed down to where the two part",
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
    traffic = getattr(args, "traffic_log", None)  # set by the CLI for --traffic
    if args.divide is not None:
        if len(positions) != 1:
            print("error: --divide needs exactly one position (--id)", file=out)
            return 2
        if traffic is not None:
            traffic.case = positions[0].id
        return _divide(engine, positions[0], args.divide, trans, out)
    hello = engine.hello()
    try:
        support = Support.from_hello(hello)
    except HelloError as exc:
        print(f"error: the engine's hello is unusable: {exc}", file=out)
        return 2
    results = []
    with Bar(len(positions), "perft", unit="position") as bar:
        for position in positions:
            if traffic is not None:
                traffic.case = position.id
            results += run_positions(
                engine,
                [position],
                max_depth=args.max_depth,
                max_nodes=args.max_nodes,
                transpositions=trans,
                support=support,
            )
            bar.update(note=position.id)
    print(format_results(results), file=out)
    if not all(r.ok or r.unsupported for r in results):
        return 1
    return 0 if any(r.checked for r in results) else 3


def _divide(engine: Engine, position: Any, depth: int, transpositions: bool, out: Any) -> int:
    """``--divide``: both divides of the reference's start state, level by level as they are
    counted, then where the engines part; 0 when every count agrees, 1 when they part, a count
    breaks off, or the engine builds another start state."""
    if depth < 1:
        print("error: --divide needs a depth of at least 1", file=out)
        return 2
    state = start_state(engine, position)
    if isinstance(state, ErrorResult):
        print(f"error: {state}", file=out)
        return 1
    reference = InProcessEngine()
    start = start_state(reference, position)
    if isinstance(start, ErrorResult):  # a ruleset of the caller's own: nothing to set beside
        print(f"note: the reference cannot build {position.id} ({start}): the engine's divide "
              "alone", file=out)
        return _divide_alone(engine, state, depth, transpositions, out)
    print(f"{position.id}: the engine's divide beside the reference's", file=out)
    other_start = _normal(state) != _normal(start)
    if other_start:
        print(
            "note: the engine builds another start state than the reference; both divides "
            "below are of the reference's",
            file=out,
        )
    try:
        _, parted = divide_beside(
            engine,
            reference,
            start,
            depth,
            transpositions=transpositions,
            on_level=lambda level: print(level.text(), file=out, flush=True),
        )
    except PerftError as exc:
        print(f"error: {exc}", file=out)
        return 1
    if parted is not None:
        print(f"they part {parted.text()}", file=out)
        return 1
    print("every count of the engine is the reference's", file=out)
    return 1 if other_start else 0


def _divide_alone(
    engine: Engine, state: dict[str, Any], depth: int, transpositions: bool, out: Any
) -> int:
    try:
        entries = divide(engine, state, depth, transpositions=transpositions)
    except PerftError as exc:
        print(f"error: {exc}", file=out)
        return 1
    for entry in entries:
        print(f"{entry.key}: {entry.count}", file=out)
    print(f"total: {sum(e.count for e in entries)}", file=out)
    return 0


def _normal(state: dict[str, Any]) -> str:
    return canonical_text.dumps(canonical_text.normalise_state(state))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m conformance.tools.perft``: the suite's positions against the reference engine."""
    parser = argparse.ArgumentParser(prog="python -m conformance.tools.perft", description=__doc__)
    add_cli_arguments(parser)
    args = parser.parse_args(argv)
    with InProcessEngine() as engine:
        return run_cli(engine, args)
