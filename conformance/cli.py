"""The ``durak-conformance`` command.

- ``run``: the whole suite (YAML fixtures and Gherkin scenarios) against an engine, through pytest
  and the plugin of :mod:`conformance.pytest_plugin`;
- ``serve``: the reference engine (or any in-process engine) as a process speaking
  spec/protocol.md on stdin/stdout;
- ``perft``: move-path counts from named positions (:mod:`conformance.tools.perft`);
- ``coverage``: rule -> cases and option value -> cases (:mod:`conformance.tools.traceability`);
- ``replay``: game records replayed on an engine (:mod:`conformance.tools.record`);
- ``fuzz``: differential fuzzing against the reference engine (:mod:`conformance.tools.fuzz`);
- ``report``: JSON Lines run reports as an HTML page or Markdown, engines side by side
  (:mod:`conformance.reports.html`);
- ``identify``: which value of each option an engine plays (:mod:`conformance.tools.identify`);
- ``export``: the suite's cases as one JSON document (:mod:`conformance.tools.export`).

Exit status of ``run``: 0 when every selected case passes (unsupported cases do not count
against it), 1 when a case fails, 2 for a usage or configuration error (a bad option, an engine
that cannot be started or greeted, a selection that matches nothing), 3 when nothing failed but
the run is incomplete: no case ran, or fewer than ``--min-share`` of the selected cases (default
half) were inside the engine's claims.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="durak-conformance",
        description="Rules specification, reference engine and conformance suite for Durak.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = commands.add_parser(
        "run",
        help="run the conformance suite against an engine",
        description="Run every YAML fixture and Gherkin scenario against an engine. Arguments "
        "after -- go to pytest unchanged.",
    )
    _engine_arguments(run)
    select = run.add_argument_group("selection (repeat or comma-separate)")
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
    select.add_argument("--no-fixtures", action="store_true", help="skip the packaged fixtures")
    select.add_argument("--no-features", action="store_true", help="skip the Gherkin scenarios")
    out = run.add_argument_group("expected failures and reports")
    out.add_argument("--xfail", metavar="FILE", help="expected-failure list (YAML)")
    out.add_argument(
        "--update-xfail", action="store_true", help="rewrite --xfail from this run's failures"
    )
    out.add_argument("--json", metavar="PATH", help="JSON Lines report, written as cases finish")
    out.add_argument("--junitxml", metavar="PATH", help="JUnit XML report")
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
    run.add_argument("pytest_args", nargs="*", help=argparse.SUPPRESS)

    serve = commands.add_parser(
        "serve",
        help="run the reference engine as a protocol process (stdin/stdout)",
        description="Serve an in-process engine over the JSON Lines protocol of "
        "spec/protocol.md until end of input.",
    )
    serve.add_argument(
        "--engine",
        metavar="SPEC",
        help="python:MODULE:NAME to serve another in-process engine (default: the reference)",
    )

    perft = commands.add_parser("perft", help="count move paths from named positions")
    _engine_arguments(perft)
    try:
        from conformance.tools import perft as perft_module

        perft_module.add_cli_arguments(perft)
    except ImportError:  # pragma: no cover - perft not shipped
        pass

    coverage = commands.add_parser(
        "coverage",
        help="rule -> cases and option value -> cases of the suite (the traceability gate)",
        description="Print which cases show each rule allowing and forbidding and which cases "
        "play each option value; exit 1 when the traceability gate would fail.",
    )
    from conformance.tools import traceability

    traceability.add_cli_arguments(coverage)

    replay_parser = commands.add_parser(
        "replay",
        help="replay game records on an engine (each move legal, the result reproduced)",
        description="Replay game records (spec/schema/record.schema.json) on an engine: every "
        "move must be in its legal set and accepted, and the final result must be the recorded "
        "one. Exit 0 when all pass, 1 when one diverges or is broken, 2 for a usage error.",
    )
    _engine_arguments(replay_parser)
    from conformance.tools import record

    record.add_cli_arguments(replay_parser)

    fuzz_parser = commands.add_parser(
        "fuzz",
        help="differential fuzzing: random games on a reference and an engine, step by step",
        description="Play random games on the reference engine and the engine under test side "
        "by side; at the first disagreement of a game write a minimal YAML fixture. Exit 0 "
        "without findings, 1 with findings, 2 for a usage error.",
    )
    _engine_arguments(fuzz_parser)
    from conformance.tools import fuzz as fuzz_module

    fuzz_module.add_cli_arguments(fuzz_parser)

    identify_parser = commands.add_parser(
        "identify",
        help="tell an engine its dialect: which value of each option it really plays",
        description="Run the cases that tell each option's values apart on the engine, under "
        "the value it claims, and report which value it plays (or that it plays none "
        "consistently, with the cases that show it); print the honest hello that follows. "
        "Exit 0 when no option is played inconsistently, 1 when one is, 2 for a usage error.",
    )
    _engine_arguments(identify_parser)
    from conformance.tools import identify as identify_module

    identify_module.add_cli_arguments(identify_parser)

    export_parser = commands.add_parser(
        "export",
        help="write the suite's cases (fixtures, perft positions, records) as one JSON document",
        description="Write every fixture case, perft position and packaged game record as one "
        "JSON document, for runners in other languages. Exit 0 when written, 2 when a fixture "
        "is broken.",
    )
    from conformance.tools import export as export_module

    export_module.add_cli_arguments(export_parser)

    report_parser = commands.add_parser(
        "report",
        help="render run reports (run --json) as one HTML page or Markdown, engines side by side",
        description="Read one or more JSON Lines reports written by 'run --json' and render "
        "them, one column per report: engines and claims, pass/fail per rule area and option "
        "value, each rule's cases, and the failing cases with step, expected and actual. "
        "Without --html the Markdown goes to standard output. Exit 0 when written, 2 for a "
        "report file that cannot be read (the message names file and line).",
    )
    report_parser.add_argument("reports", nargs="+", metavar="REPORT.jsonl")
    report_parser.add_argument("--html", metavar="OUT", help="write a self-contained HTML page")
    report_parser.add_argument(
        "--markdown", action="store_true", help="print Markdown to standard output too"
    )
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
    if not args.no_fixtures:
        targets.append(str(PACKAGE_DIR / "fixtures"))
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
    if args.xfail:
        argv += ["--durak-xfail", args.xfail]
    if args.update_xfail:
        if not args.xfail:
            return "--update-xfail needs --xfail FILE"
        argv.append("--durak-update-xfail")
    if args.json:
        argv += ["--durak-json", args.json]
    if args.junitxml:
        argv += ["--junitxml", args.junitxml]
    if args.exitfirst:
        argv.append("-x")
    if args.min_share is not None:
        argv += ["--durak-min-share", str(args.min_share)]
    if args.jobs:
        argv += ["-n", str(args.jobs)]
    argv += ["-v"] * args.verbose if args.verbose else ["-q"]
    argv += ["-p", "no:randomly", "-p", "no:cacheprovider"]
    return argv + list(args.pytest_args) + targets


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

    try:
        engine = make_engine(
            args.engine, timeout=args.timeout, max_faults=args.max_faults, max_line=args.max_line
        )
    except EngineSpecError as exc:
        print(f"durak-conformance {command}: {exc}", file=sys.stderr)
        return 2
    with engine:
        return run_cli(engine, args)


def perft(args: argparse.Namespace) -> int:
    from conformance.tools import perft as perft_module

    return _on_engine(args, "perft", perft_module.run_cli)


def replay(args: argparse.Namespace) -> int:
    from conformance.tools import record

    return _on_engine(args, "replay", record.run_cli)


def report(args: argparse.Namespace) -> int:
    from conformance.reports.html import render_html, render_markdown
    from conformance.reports.reader import ReportFileError, load_report

    try:
        reports = [load_report(path) for path in args.reports]
    except ReportFileError as exc:
        print(f"durak-conformance report: {exc}", file=sys.stderr)
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
        return run(args)
    if extra:
        parser.error("arguments after -- are only for run")
    if args.command == "serve":
        return serve(args)
    if args.command == "perft":
        return perft(args)
    if args.command == "coverage":
        from conformance.tools import traceability

        return traceability.run_cli(args)
    if args.command == "replay":
        return replay(args)
    if args.command == "fuzz":
        from conformance.tools import fuzz as fuzz_module

        return fuzz_module.run_cli(args)
    if args.command == "report":
        return report(args)
    if args.command == "export":
        from conformance.tools import export as export_module

        return export_module.run_cli(args)
    if args.command == "identify":
        from conformance.tools import identify as identify_module

        return _on_engine(args, "identify", identify_module.run_cli)
    parser.print_help()
    return 2
