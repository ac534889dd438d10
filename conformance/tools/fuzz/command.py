"""``durak-conformance fuzz``: its arguments, the checks of them, and what it prints.

The CLI adds ``--engine`` and the process limits (:mod:`conformance.cli`); this module adds the
rest, turns the arguments into a :class:`FuzzConfig` (a usage error is a message and status 2,
before any engine starts), starts both engines with the same limits and prints the campaign's
progress and report. Exit status: 0 without findings, 1 with findings or when the engine under
test was given up, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from conformance.tools.fuzz.campaign import Fuzzer
from conformance.tools.fuzz.planning import (
    DEFAULT_GAMES,
    DEFAULT_MAX_MOVES,
    DEFAULT_PROBES,
    FuzzConfig,
    parse_rulesets,
)
from conformance.tools.fuzz.report import format_report
from conformance.tools.progress import Bar

DEFAULT_OUT = "fuzz-findings"


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``fuzz`` subcommand's own arguments (the CLI adds --engine and the process limits)."""
    _game_arguments(parser)
    _depth_and_output_arguments(parser)


def _game_arguments(parser: argparse.ArgumentParser) -> None:
    """The engines and the games to draw."""
    parser.add_argument(
        "--reference",
        metavar="CMD",
        help="the reference side (default: the reference engine in process); same forms as "
        "--engine",
    )
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games to play")
    parser.add_argument(
        "--seed", type=int, help="fuzz seed (default: a random one, printed so it can be reused)"
    )
    parser.add_argument(
        "--game", type=int, metavar="K", help="play only game K of the seed (to reproduce it)"
    )
    parser.add_argument(
        "--ruleset",
        nargs="+",
        action="extend",
        default=[],
        metavar="RULESET",
        help="rulesets to draw games from: a preset name or a new_game ruleset as JSON, e.g. "
        '\'{"preset": "podkidnoy", "overrides": {"attack_limit": "six"}}\' (default: every '
        "preset); option values an engine does not claim are set to ones both engines claim",
    )
    parser.add_argument(
        "--players",
        nargs="+",
        action="extend",
        type=int,
        default=[],
        metavar="N",
        help="player counts to draw from (default: every count the preset allows)",
    )
    parser.add_argument(
        "--vary-options",
        action="store_true",
        help="override random options of the preset (values both engines claim)",
    )
    parser.add_argument(
        "--deal",
        choices=("deck", "seed", "mixed"),
        default="deck",
        help="deal from a shuffled deck order (default), a portable-shuffle seed, or either",
    )


def _depth_and_output_arguments(parser: argparse.ArgumentParser) -> None:
    """How hard each position is probed, how long a game may be, and what is written."""
    parser.add_argument(
        "--probes",
        type=int,
        default=DEFAULT_PROBES,
        help=f"moves outside the legal set tried per position (default {DEFAULT_PROBES})",
    )
    parser.add_argument(
        "--max-moves",
        type=int,
        default=DEFAULT_MAX_MOVES,
        help=f"moves per game before it is cut (R-END-5; default {DEFAULT_MAX_MOVES})",
    )
    parser.add_argument(
        "--out",
        default=DEFAULT_OUT,
        metavar="DIR",
        help=f"where findings are written as YAML fixtures (default ./{DEFAULT_OUT})",
    )
    parser.add_argument(
        "--records", metavar="DIR", help="also write every agreed, finished game as a record"
    )
    parser.add_argument("--stop-first", action="store_true", help="stop at the first finding")
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="play the games on N worker processes, each with its own two engines; the report "
        "is the one a single process gives (default 1)",
    )


def _fail(message: str) -> int:
    print(f"durak-conformance fuzz: {message}", file=sys.stderr)
    return 2


def run_cli(args: argparse.Namespace, out: Any = None) -> int:
    """``durak-conformance fuzz``: 0 without findings, 1 with findings, 2 for a usage error."""
    from conformance.engines.factory import EngineSpecError, make_engine

    out = out or sys.stdout
    config = config_of(args)
    if isinstance(config, str):
        return _fail(config)
    traffic = getattr(args, "traffic", None)
    if traffic:
        from conformance.engines.traffic import path_problem, warn_in_process

        if path_problem(traffic):
            return _fail(path_problem(traffic))
        warn_in_process(args.engine, "fuzz")
    limits = {"timeout": args.timeout, "max_faults": args.max_faults, "max_line": args.max_line}
    try:
        reference = make_engine(args.reference, **limits)
    except EngineSpecError as exc:
        return _fail(f"--reference: {exc}")
    try:
        candidate = make_engine(args.engine, **limits, traffic=traffic)
    except EngineSpecError as exc:
        reference.close()
        return _fail(f"--engine: {exc}")
    with reference, candidate:
        fuzzer = Fuzzer(
            reference,
            candidate,
            config,
            out_dir=args.out,
            log=lambda t: print(t, file=out),
            specs={"reference": args.reference or "", "candidate": args.engine},
        )
        problem = fuzzer.greet()
        if problem:
            return _fail(problem)
        _announce(fuzzer, out)
        bar = Bar(len(fuzzer.indices()), "fuzz", unit="game")
        fuzzer.on_game = lambda report: bar.update(note=_findings_so_far(report))
        games = None
        if args.jobs > 1 and len(fuzzer.indices()) > 1:
            from conformance.tools.fuzz.parallel import played_in_workers

            specs = {"reference": args.reference, "candidate": args.engine}
            games = played_in_workers(fuzzer, specs, limits, args.jobs, traffic=traffic)
        with bar:
            report = fuzzer.run(games)
        print(format_report(report), file=out)
    return 1 if report.findings or report.gave_up else 0


def _findings_so_far(report: Any) -> str:
    causes = len(report.causes)
    return f"{causes} cause{'s' if causes != 1 else ''} of disagreement"


def config_of(args: argparse.Namespace) -> FuzzConfig | str:
    """The campaign the arguments ask for, or the usage error that says what to write."""
    if not args.engine:
        return (
            "--engine CMD is required (the engine under test; 'reference' fuzzes the "
            "reference engine against itself)"
        )
    if args.games < 1 or args.probes < 0 or args.max_moves < 1 or args.jobs < 1:
        return "--games, --jobs and --max-moves must be at least 1, --probes at least 0"
    try:
        rulesets = parse_rulesets(args.ruleset)
    except ValueError as exc:
        return str(exc)
    return FuzzConfig(
        games=args.games,
        seed=args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big"),
        rulesets=rulesets,
        players=list(args.players),
        probes=args.probes,
        max_moves=args.max_moves,
        deal=args.deal,
        vary_options=args.vary_options,
        only_game=args.game,
        stop_first=args.stop_first,
        records_dir=Path(args.records) if args.records else None,
    )


def _announce(fuzzer: Fuzzer, out: Any) -> None:
    """What is about to be played, with the seed first so a run can always be repeated."""
    config = fuzzer.config
    for why in fuzzer.skipped:
        print(f"skipped {why}", file=out)
    print(
        f"fuzz seed {config.seed}: {1 if config.only_game is not None else config.games} game(s) "
        f"over {len(fuzzer.choices)} ruleset/player combination(s)\n"
        f"  reference:         {fuzzer.engine_name('reference')}\n"
        f"  engine under test: {fuzzer.engine_name('candidate')}",
        file=out,
    )
