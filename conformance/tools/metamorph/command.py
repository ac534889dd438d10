"""``durak-conformance metamorph``: its arguments, the checks of them, and what it prints.

The CLI adds ``--engine`` and the process limits (:mod:`conformance.cli`); this module adds the
rest, turns them into a campaign (a usage error is a message and status 2, before any engine
starts), starts the engine under test and the judge with the same limits, and prints a progress
line per game and the report. Exit status: 0 when every check held, 1 with findings (or when the
engine under test was given up), 2 for a usage error.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from conformance.tools.fuzz.planning import FuzzConfig, parse_rulesets
from conformance.tools.fuzz.report import format_report
from conformance.tools.metamorph.campaign import Metamorph
from conformance.tools.metamorph.transforms import KINDS
from conformance.tools.metamorph.walk import CheckConfig, MetamorphReport

DEFAULT_GAMES = 20
#: Lower than the fuzzer's: past a few hundred random moves a game is mostly takes repeating
#: positions already checked.
DEFAULT_MAX_MOVES = 300
DEFAULT_OUT = "metamorph-findings"


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``metamorph`` subcommand's own arguments (the CLI adds --engine and the limits)."""
    parser.add_argument(
        "--reference",
        metavar="CMD",
        help="the judge that picks which answer breaks the rules (default: the reference "
        "engine in process); same forms as --engine",
    )
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games to walk")
    parser.add_argument(
        "--seed", type=int, help="seed (default: a random one, printed so it can be reused)"
    )
    parser.add_argument(
        "--game", type=int, metavar="K", help="walk only game K of the seed (to reproduce it)"
    )
    parser.add_argument(
        "--preset",
        nargs="+",
        action="extend",
        default=[],
        metavar="P",
        help="presets to draw games from (or new_game rulesets as JSON; default: every preset)",
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
        "--kinds",
        default=",".join(KINDS),
        metavar="K,...",
        help=f"transformations to check (default all: {','.join(KINDS)})",
    )
    parser.add_argument(
        "--every", type=int, default=1, metavar="N", help="check every N-th position (default 1)"
    )
    parser.add_argument(
        "--moves", type=int, default=1, help="legal moves applied per transformation (default 1)"
    )
    parser.add_argument(
        "--probes",
        type=int,
        default=1,
        help="moves outside the legal set tried per transformation (default 1)",
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
    parser.add_argument("--stop-first", action="store_true", help="stop at the first finding")


def _fail(message: str) -> int:
    print(f"durak-conformance metamorph: {message}", file=sys.stderr)
    return 2


def config_of(args: argparse.Namespace) -> tuple[FuzzConfig, CheckConfig] | str:
    """The campaign the arguments ask for, or the usage error that says what to write."""
    if not args.engine:
        return "--engine CMD is required (the engine to check; 'reference' checks the reference)"
    if args.games < 1 or args.max_moves < 1 or args.every < 1:
        return "--games, --max-moves and --every must be at least 1"
    if args.moves < 0 or args.probes < 0:
        return "--moves and --probes must be at least 0"
    kinds = tuple(k for k in args.kinds.split(",") if k)
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        return f"--kinds {args.kinds}: the transformations are {', '.join(KINDS)}"
    try:
        rulesets = parse_rulesets(args.preset)
    except ValueError as exc:
        return str(exc).replace("--ruleset", "--preset")
    config = FuzzConfig(
        games=args.games,
        seed=args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big"),
        rulesets=rulesets,
        players=list(args.players),
        probes=args.probes,
        max_moves=args.max_moves,
        only_game=args.game,
        stop_first=args.stop_first,
    )
    checks = CheckConfig(kinds=kinds, every=args.every, moves=args.moves, probes=args.probes)
    return config, checks


def run_cli(args: argparse.Namespace, out: Any = None) -> int:
    """``durak-conformance metamorph``: 0 clean, 1 with findings, 2 for a usage error."""
    from conformance.engines.factory import EngineSpecError, make_engine

    out = out or sys.stdout
    configs = config_of(args)
    if isinstance(configs, str):
        return _fail(configs)
    config, checks = configs
    limits = {"timeout": args.timeout, "max_faults": args.max_faults, "max_line": args.max_line}
    try:
        reference = make_engine(args.reference, **limits)
    except EngineSpecError as exc:
        return _fail(f"--reference: {exc}")
    try:
        candidate = make_engine(args.engine, **limits)
    except EngineSpecError as exc:
        reference.close()
        return _fail(f"--engine: {exc}")
    with reference, candidate:
        campaign = Metamorph(
            reference,
            candidate,
            config,
            checks,
            out_dir=args.out,
            log=lambda t: print(t, file=out, flush=True),
            specs={"reference": args.reference or "", "candidate": args.engine},
        )
        problem = campaign.greet()
        if problem:
            return _fail(problem)
        for why in campaign.skipped:
            print(f"skipped {why}", file=out)
        games = 1 if config.only_game is not None else config.games
        print(
            f"metamorph seed {config.seed}: {games} game(s) over {len(campaign.choices)} "
            f"ruleset/player combination(s), transformations {', '.join(checks.kinds)}"
            f"{'' if checks.observe else ' (observations not checked: an engine does not observe)'}"
            f"\n  engine under test: {campaign.engine_name('candidate')}"
            f"\n  judge:             {campaign.engine_name('reference')}",
            file=out,
        )
        report = campaign.run()
        print(format_metamorph_report(report), file=out)
    return 1 if report.findings or report.gave_up else 0


def format_metamorph_report(report: MetamorphReport) -> str:
    """The fuzz report's text, then the checks made and broken per transformation."""
    lines = [format_report(report)]
    counts = ", ".join(
        f"{kind} {report.checks.get(kind, 0)} ({report.breaks.get(kind, 0)} broken)"
        for kind in KINDS
        if kind in report.checks
    )
    lines.append(f"{report.positions} position(s) checked; checks by transformation: {counts}")
    return "\n".join(lines)
