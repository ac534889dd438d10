"""The ``durak-conformance`` command.

- ``run``: the whole suite (YAML fixtures and Gherkin scenarios) against an engine, through pytest
  and the plugin of :mod:`conformance.pytest_plugin`;
- ``serve``: the reference engine (or any in-process engine) as a process speaking
  spec/protocol.md on stdin/stdout;
- ``perft``: move-path counts from named positions (:mod:`conformance.tools.perft`);
- ``coverage``: rule -> cases and option value -> cases (:mod:`conformance.tools.traceability`);
- ``replay``: game records replayed on an engine (:mod:`conformance.tools.replay`);
- ``fuzz``: differential fuzzing against the reference engine (:mod:`conformance.tools.fuzz`);
- ``report``: JSON Lines run reports as an HTML page or Markdown, engines side by side
  (:mod:`conformance.reports.html`, :mod:`conformance.reports.markdown`);
- ``identify``: which value of each option an engine plays (:mod:`conformance.tools.identify`);
- ``export``: the suite's cases as one JSON document (:mod:`conformance.tools.export`).

Exit status of ``run``: 0 when every selected case passes (unsupported cases do not count
against it), 1 when a case fails, 2 for a usage or configuration error (a bad option, an engine
that cannot be started or greeted, a selection that matches nothing), 3 when nothing failed but
the run is incomplete: no case ran, or fewer than ``--min-share`` of the selected cases (default
half) were inside the engine's claims.

Each subcommand is one row of :data:`SUBCOMMANDS` (help texts, what adds its arguments, what runs
it), so adding one is adding a row; a tool of :mod:`conformance.tools` brings its own
``add_cli_arguments`` and ``run_cli``, and this module starts and closes the engine for those that
run on one.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from conformance.engines.process import (
    DEFAULT_MAX_CONSECUTIVE_FAULTS,
    DEFAULT_MAX_FAULTS,
    DEFAULT_MAX_LINE,
    DEFAULT_TIMEOUT,
)

PACKAGE_DIR = Path(__file__).resolve().parent
SUITE_INI = PACKAGE_DIR / "suite.ini"


def _engine_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--engine",
        metavar="CMD",
        help="the engine: a command speaking the protocol (e.g. 'durak-conformance serve'), "
        "python:MODULE:NAME, or 'reference' (default: the reference engine in process)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"per-request timeout (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--max-faults",
        type=int,
        default=DEFAULT_MAX_FAULTS,
        metavar="N",
        help=f"give up on the engine after N faults (or {DEFAULT_MAX_CONSECUTIVE_FAULTS} in a "
        f"row); the rest is reported not run (default {DEFAULT_MAX_FAULTS})",
    )
    parser.add_argument(
        "--max-line",
        type=int,
        default=DEFAULT_MAX_LINE,
        metavar="BYTES",
        help=f"longest answer line accepted (default {DEFAULT_MAX_LINE})",
    )


def _run_arguments(parser: argparse.ArgumentParser) -> None:
    _engine_arguments(parser)
    select = parser.add_argument_group("selection (repeat or comma-separate)")
    select.add_argument("--area", action="append", default=[], help="rule area, e.g. THROW")
    select.add_argument("--rule", action="append", default=[], help="rule ID, e.g. R-THROW-1")
    select.add_argument("--ruleset", action="append", default=[], help="preset, e.g. podkidnoy")
    select.add_argument("--case", action="append", default=[], help="case ID (globs allowed)")
    select.add_argument(
        "--fixtures",
        action="append",
        default=[],
        metavar="DIR",
        help="run the YAML fixtures under DIR too (your own cases)",
    )
    select.add_argument(
        "--tags",
        action="append",
        default=[],
        metavar="EXPR",
        help="Cucumber tag expression over each case's tags (@R-BEAT-1, @BEAT, "
        "@opt:opening=single), e.g. '@R-BEAT-1 and not @opt:opening=single'; repeat: all hold",
    )
    select.add_argument(
        "--smoke",
        action="store_true",
        help="only the smoke list (conformance/suite/smoke.yaml): about 20 cases for a new "
        "engine's first minute",
    )
    select.add_argument("--no-fixtures", action="store_true", help="skip the packaged fixtures")
    select.add_argument("--no-features", action="store_true", help="skip the Gherkin scenarios")
    out = parser.add_argument_group("expected failures and reports")
    out.add_argument("--xfail", metavar="FILE", help="expected-failure list (YAML)")
    out.add_argument(
        "--update-xfail", action="store_true", help="rewrite --xfail from this run's failures"
    )
    out.add_argument("--json", metavar="PATH", help="JSON Lines report, written as cases finish")
    out.add_argument(
        "--junitxml", metavar="PATH", help="JUnit XML report (the strict schema Jenkins checks)"
    )
    _traffic_argument(out)
    out.add_argument("-x", "--exitfirst", action="store_true", help="stop at the first failure")
    out.add_argument(
        "--min-share",
        type=float,
        metavar="FRACTION",
        help="exit 3 (incomplete) when fewer than this share of the selected cases ran "
        "(default 0.5; 0 accepts any share but none)",
    )
    out.add_argument("-v", "--verbose", action="count", default=0, help="one line per case")
    out.add_argument(
        "-j", "--jobs", type=int, metavar="N", help="run on N processes (pytest-xdist)"
    )
    parser.add_argument("pytest_args", nargs="*", help=argparse.SUPPRESS)


def _traffic_argument(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    parser.add_argument(
        "--traffic",
        metavar="FILE",
        help="log every line sent to a process engine and every answer (or timeout, exit, "
        "garbage) as JSON Lines, flushed as it goes; under -j N one FILE.<worker> per worker",
    )


def _serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--engine",
        metavar="SPEC",
        help="python:MODULE:NAME to serve another in-process engine (default: the reference)",
    )


def _report_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("reports", nargs="+", metavar="REPORT.jsonl")
    parser.add_argument("--html", metavar="OUT", help="write a self-contained HTML page")
    parser.add_argument(
        "--markdown", action="store_true", help="print Markdown to standard output too"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="durak-conformance",
        description="Rules specification, reference engine and conformance suite for Durak.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in SUBCOMMANDS:
        texts = {"help": command.help}
        if command.description is not None:
            texts["description"] = command.description
        command.add_arguments(commands.add_parser(command.name, **texts))
    return parser


def _own_plugin_loaded_by_entry_point() -> bool:
    from importlib.metadata import entry_points

    return any(ep.value == "conformance.pytest_plugin" for ep in entry_points(group="pytest11"))


def pytest_arguments(args: argparse.Namespace) -> list[str] | str:
    """The pytest command line for ``run`` (or a message saying what is wrong)."""
    argv = ["-c", str(SUITE_INI), "--rootdir", str(PACKAGE_DIR)]
    if not _own_plugin_loaded_by_entry_point():
        argv += ["-p", "conformance.pytest_plugin"]
    targets: list[str] = []
    if not args.no_fixtures:  # the packaged cases: fixtures, game records, perft positions
        targets += [str(PACKAGE_DIR / name) for name in ("fixtures", "records", "perft")]
    for directory in args.fixtures:
        if not Path(directory).exists():
            return f"--fixtures {directory}: no such file or directory"
        targets.append(str(Path(directory).resolve()))
        argv += ["--durak-fixtures", str(Path(directory).resolve())]
    if not args.no_features:
        try:
            from .bdd import features_dir, suite_path

            features_dir()
            targets.append(str(suite_path()))
            argv += ["-p", "conformance.bdd.plugin"]
        except (ImportError, FileNotFoundError) as exc:
            print(f"durak-conformance: Gherkin scenarios skipped: {exc}", file=sys.stderr)
    if not targets:
        return "nothing to run: both the fixtures and the features are switched off"
    if args.engine:
        argv += ["--durak-engine", args.engine]
    argv += [
        "--durak-timeout",
        str(args.timeout),
        "--durak-max-faults",
        str(args.max_faults),
        "--durak-max-line",
        str(args.max_line),
    ]
    for name in ("area", "rule", "ruleset", "case"):
        for value in getattr(args, name):
            argv += [f"--durak-{name}", value]
    # one argument each: pytest reads an argument starting with @ as a file of arguments
    argv += [f"--durak-tags={value}" for value in args.tags]
    if args.smoke:
        argv.append("--durak-smoke")
    if args.traffic:
        from conformance.engines.traffic import path_problem, warn_in_process

        if path_problem(args.traffic):
            return path_problem(args.traffic)
        warn_in_process(args.engine, "run")
        argv.append(f"--durak-traffic={Path(args.traffic).resolve()}")
    if args.xfail:
        argv += ["--durak-xfail", args.xfail]
    if args.update_xfail:
        if not args.xfail:
            return "--update-xfail needs --xfail FILE"
        argv.append("--durak-update-xfail")
    if args.json:
        argv += ["--durak-json", args.json]
    if args.junitxml:
        argv += ["--durak-junit", args.junitxml]
    if args.exitfirst:
        argv.append("-x")
    if args.min_share is not None:
        argv += ["--durak-min-share", str(args.min_share)]
    if args.jobs:
        # work stealing: a case that waits out an engine's timeout takes seconds where most take
        # milliseconds, and an idle worker takes from a busy one's queue instead of waiting
        argv += ["-n", str(args.jobs), "--dist", "worksteal"]
    if _progress_wanted():
        argv.append("--durak-progress")
    argv += ["-v"] * args.verbose if args.verbose else ["-q"]
    argv += ["-p", "no:randomly", "-p", "no:cacheprovider"]
    return argv + list(args.pytest_args) + targets


def _progress_wanted() -> bool:
    """A bar over the cases on stderr when it is a terminal and stdout is not: on a terminal
    pytest shows its own progress, and a bar on the same screen would break its lines."""
    from conformance.tools.progress import on_terminal

    try:
        report_on_terminal = sys.stdout.isatty()
    except (AttributeError, ValueError):
        report_on_terminal = False
    return on_terminal() and not report_on_terminal


def run(args: argparse.Namespace) -> int:
    import pytest

    argv = pytest_arguments(args)
    if isinstance(argv, str):
        print(f"durak-conformance run: {argv}", file=sys.stderr)
        return 2
    from conformance.pytest_plugin import INCOMPLETE_EXIT

    status = int(pytest.main(argv))
    if status == 0:
        return 0
    if status == 1:
        return 1
    if status == INCOMPLETE_EXIT:
        return 3
    if status == 5:
        print("durak-conformance run: no case matches the selection", file=sys.stderr)
    return 2


def serve(args: argparse.Namespace) -> int:
    from conformance.engines.factory import EngineSpecError, make_engine
    from conformance.engines.serve import serve as serve_engine

    spec = args.engine
    if spec and not spec.startswith(("python:", "reference")):
        print("durak-conformance serve: --engine takes python:MODULE:NAME", file=sys.stderr)
        return 2
    try:
        if spec is None or spec.startswith("reference"):
            from conformance.engines.base import InProcessEngine

            engine = InProcessEngine(roundtrip=False)  # serve serialises every answer anyway
        else:
            engine = make_engine(spec)
    except EngineSpecError as exc:
        print(f"durak-conformance serve: {exc}", file=sys.stderr)
        return 2
    try:
        return serve_engine(engine)
    except KeyboardInterrupt:
        return 0
    finally:
        engine.close()


def _on_engine(args: argparse.Namespace, command: str, run_cli: Callable[..., int]) -> int:
    """Start the engine of ``--engine`` with the process limits of :func:`_engine_arguments`, run
    ``run_cli(engine, args)`` on it and close it; 2 when the engine cannot be made."""
    from conformance.engines.factory import EngineSpecError, make_engine
    from conformance.engines.traffic import TrafficLog, path_problem, warn_in_process

    args.traffic_log = None
    if getattr(args, "traffic", None):
        if path_problem(args.traffic):
            print(f"durak-conformance {command}: {path_problem(args.traffic)}", file=sys.stderr)
            return 2
        warn_in_process(args.engine, command)
        args.traffic_log = TrafficLog(args.traffic)
    try:
        engine = make_engine(
            args.engine,
            timeout=args.timeout,
            max_faults=args.max_faults,
            max_line=args.max_line,
            traffic=args.traffic_log,
        )
    except EngineSpecError as exc:
        print(f"durak-conformance {command}: {exc}", file=sys.stderr)
        return 2
    with engine:
        return run_cli(engine, args)


def report(args: argparse.Namespace) -> int:
    from conformance.reports.html import render_html
    from conformance.reports.markdown import render_markdown
    from conformance.reports.printable import printable
    from conformance.reports.reader import ReportFileError, load_report

    try:
        reports = [load_report(path) for path in args.reports]
    except ReportFileError as exc:
        print(f"durak-conformance report: {printable(exc)}", file=sys.stderr)
        return 2
    if args.html:
        page = render_html(reports, _rule_titles())
        try:
            Path(args.html).write_text(page, encoding="utf-8")
        except OSError as exc:
            print(f"durak-conformance report: --html {args.html}: {exc.strerror}", file=sys.stderr)
            return 2
        print(f"HTML report: {args.html}", file=sys.stderr)
    if args.markdown or not args.html:
        sys.stdout.write(render_markdown(reports))
    return 0


def _rule_titles() -> dict[str, str]:
    """``{rule ID: title}`` of spec/rules.md in spec order; empty (IDs alone) if unreadable."""
    from conformance.tools.traceability import SpecIndex

    try:
        return dict(SpecIndex.load().rules)
    except (OSError, ValueError):
        return {}


# --------------------------------------------------------------------------- the subcommands


def _tool(name: str) -> ModuleType:
    return importlib.import_module(f"conformance.tools.{name}")


def _tool_arguments(
    name: str, *, engine: bool, traffic: bool = False
) -> Callable[[argparse.ArgumentParser], None]:
    """Adds the arguments of tool ``name`` (``add_cli_arguments``), after ``--engine`` and the
    process limits when the tool talks to an engine (and ``--traffic`` when it honours it)."""

    def add(parser: argparse.ArgumentParser) -> None:
        if engine:
            _engine_arguments(parser)
        if traffic:
            _traffic_argument(parser)
        _tool(name).add_cli_arguments(parser)

    return add


def _tool_on_engine(name: str, command: str) -> Callable[[argparse.Namespace], int]:
    """Runs tool ``name``'s ``run_cli(engine, args)`` on the engine of ``--engine``."""
    return lambda args: _on_engine(args, command, _tool(name).run_cli)


def _tool_alone(name: str) -> Callable[[argparse.Namespace], int]:
    """Runs tool ``name``'s ``run_cli(args)``: it needs no engine, or starts its own."""
    return lambda args: _tool(name).run_cli(args)


@dataclass(frozen=True)
class Subcommand:
    """One subcommand: its help texts, what adds its arguments, what runs it (to an exit
    status)."""

    name: str
    help: str
    description: str | None
    add_arguments: Callable[[argparse.ArgumentParser], None]
    handler: Callable[[argparse.Namespace], int]


#: Every subcommand, in the order ``--help`` lists them: the one table from name to handler.
SUBCOMMANDS = (
    Subcommand(
        "run",
        "run the conformance suite against an engine",
        "Run every YAML fixture and Gherkin scenario against an engine. Arguments after -- go "
        "to pytest unchanged. A run of 100 cases or more draws a progress bar on stderr when "
        "stderr is a terminal and stdout is not.",
        _run_arguments,
        run,
    ),
    Subcommand(
        "serve",
        "run the reference engine as a protocol process (stdin/stdout)",
        "Serve an in-process engine over the JSON Lines protocol of spec/protocol.md until end "
        "of input.",
        _serve_arguments,
        serve,
    ),
    Subcommand(
        "perft",
        "count move paths from named positions",
        "Count the suite's perft positions (or those of the files given) on an engine at their "
        "expected depths, with a progress bar on stderr when it is a terminal; --divide sets "
        "one position's divide beside the reference's and follows the first difference down "
        "to where the two part. Exit 0 when every count matches, 1 when one does not, 2 for a "
        "usage error, 3 when nothing was checked.",
        _tool_arguments("perft", engine=True, traffic=True),
        _tool_on_engine("perft", "perft"),
    ),
    Subcommand(
        "coverage",
        "rule -> cases and option value -> cases of the suite (the traceability gate)",
        "Print which cases show each rule allowing and forbidding and which cases play each "
        "option value; exit 1 when the traceability gate would fail.",
        _tool_arguments("traceability", engine=False),
        _tool_alone("traceability"),
    ),
    Subcommand(
        "replay",
        "replay game records on an engine (each move legal, the result reproduced)",
        "Replay game records (spec/schema/record.schema.json) on an engine: every move must be "
        "in its legal set and accepted, and the final result must be the recorded one. Exit 0 "
        "when all pass, 1 when one diverges or is broken, 2 for a usage error.",
        _tool_arguments("replay", engine=True, traffic=True),
        _tool_on_engine("replay", "replay"),
    ),
    Subcommand(
        "fuzz",
        "differential fuzzing: random games on a reference and an engine, step by step",
        "Play random games on the reference engine and the engine under test side by side; at "
        "the first disagreement of a game write a minimal YAML fixture; a progress bar shows "
        "on stderr when it is a terminal. Exit 0 without findings, 1 with findings, 2 for a "
        "usage error.",
        _tool_arguments("fuzz", engine=True, traffic=True),
        _tool_alone("fuzz"),
    ),
    Subcommand(
        "metamorph",
        "metamorphic checks: an engine's answers at positions and at transformed positions",
        "Walk random games of every preset and check that the engine's legal sets, next "
        "states, refusals and observations transform alike under relabelled suits, rotated "
        "seats, swapped twins and a reordered talon; the reference engine judges a break into "
        "a YAML fixture. Exit 0 when every check held, 1 with findings, 2 for a usage error.",
        _tool_arguments("metamorph", engine=True),
        _tool_alone("metamorph"),
    ),
    Subcommand(
        "identify",
        "tell an engine its dialect: which value of each option it really plays",
        "Run the cases that tell each option's values apart on the engine, under the value it "
        "claims, and report which value it plays (or that it plays none consistently, with the "
        "cases that show it); print the honest hello that follows. Exit 0 when no option is "
        "played inconsistently, 1 when one is, 2 for a usage error.",
        _tool_arguments("identify", engine=True, traffic=True),
        _tool_on_engine("identify", "identify"),
    ),
    Subcommand(
        "export",
        "write the suite's cases (fixtures, perft positions, records) as one JSON document",
        "Write every fixture case, perft position and packaged game record as one JSON "
        "document, for runners in other languages. Exit 0 when written, 2 when a fixture is "
        "broken.",
        _tool_arguments("export", engine=False),
        _tool_alone("export"),
    ),
    Subcommand(
        "report",
        "render run reports (run --json) as one HTML page or Markdown, engines side by side",
        "Read one or more JSON Lines reports written by 'run --json' and render them, one "
        "column per report: engines and claims, pass/fail per rule area and option value, each "
        "rule's cases, and the failing cases with step, expected and actual. Without --html the "
        "Markdown goes to standard output. Exit 0 when written, 2 for a report file that cannot "
        "be read (the message names file and line).",
        _report_arguments,
        report,
    ),
)
HANDLERS = {command.name: command.handler for command in SUBCOMMANDS}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1 :]
    args = parser.parse_args(argv)
    if args.command == "run":
        args.pytest_args = list(args.pytest_args) + extra
    elif extra:
        parser.error("arguments after -- are only for run")
    handler = HANDLERS.get(args.command)
    if handler is None:
        parser.print_help()
        return 2
    return handler(args)
