"""Replaying game records on an engine: ``durak-conformance replay``.

A record (:mod:`conformance.tools.record`) is compiled to the one case model
(:func:`conformance.suite.compile.record_case`) and judged by the one runner,
:class:`~conformance.suite.cases.CaseRunner`, exactly as ``run`` judges it: each move must be in
the engine's legal set, accepted by ``apply`` and answered with a state that holds every
invariant, and the state after the last move must carry the recorded result; the gate decides
whether the record applies to the engine's claims. This module only says the verdict in the
record's own terms: the first divergence is at the JSON pointer ``/moves/<i>`` into the record
(or ``/deal``, ``/result``), with the state before it and what was expected against what the
engine answered, so a regression can be pinned to one position.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.contract import canonical
from conformance.engines.base import Engine, ErrorResult
from conformance.engines.gating import HelloError, Support
from conformance.reports.printable import printable, printable_line
from conformance.suite.cases import CaseResult, CaseRunner
from conformance.suite.compile import record_case
from conformance.suite.loader import Case
from conformance.tools.record import RecordError, load_record, record_files

#: Outcomes of a replay. ``failed``: the record diverges (a move not legal, a wrong result);
#: ``error``: the engine misbehaved; ``unsupported``: outside the engine's hello claim;
#: ``not_run``: the engine had failed too often to keep asking; ``broken``: the record file
#: itself is bad.
OUTCOMES = ("passed", "failed", "error", "unsupported", "not_run", "broken")


@dataclass
class ReplayResult:
    """What happened when a record was replayed on an engine.

    ``index`` is the move index (0-based, as in the pointer ``/moves/<index>``) of the first
    divergence; ``len(moves)`` when the moves all held and the result differs; None when the deal
    failed or nothing diverged. ``where`` says it as a pointer: ``/deal``, ``/moves/12``,
    ``/result``.
    """

    name: str
    outcome: str
    message: str = ""
    where: str | None = None
    index: int | None = None
    move: dict[str, Any] | None = None
    expected: Any = None
    actual: Any = None
    state_before: dict[str, Any] | None = None
    moves_played: int = 0
    moves_total: int = 0
    diagnostics: dict[str, Any] = field(default_factory=dict)
    #: the gate's answer (conformance.suite.applicability): values substituted, or what blocks it
    substituted: dict[str, Any] = field(default_factory=dict)
    blockers: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.outcome in ("passed", "unsupported")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "record": self.name,
            "outcome": self.outcome,
            "moves_played": self.moves_played,
            "moves_total": self.moves_total,
        }
        for key in ("message", "where", "index", "move", "expected", "actual", "state_before"):
            value = getattr(self, key)
            if value is not None and value != "":
                out[key] = value
        if self.diagnostics:
            out["diagnostics"] = self.diagnostics
        if self.substituted:
            out["substituted"] = dict(self.substituted)
        if self.blockers:
            out["blockers"] = list(self.blockers)
        return out


def replay(
    engine: Engine,
    record: dict[str, Any],
    *,
    name: str = "record",
    support: Support | None = None,
) -> ReplayResult:
    """Replay ``record`` (already checked, e.g. by :func:`load_record`) on ``engine``.

    ``support`` (the engine's claims) gates the record: outside them it is ``unsupported``, not
    failed. Without it nothing is gated."""
    runner = CaseRunner(engine, Support.everything() if support is None else support)
    return replay_with(runner, record, name=name)


def replay_with(runner: CaseRunner, record: dict[str, Any], *, name: str) -> ReplayResult:
    """Replay ``record`` through ``runner`` (one runner for many records shares the gate's
    reference engine)."""
    case = record_case(record, name=name)
    return replay_result(case, runner.run(case))


def replay_result(case: Case, result: CaseResult) -> ReplayResult:
    """The runner's verdict on a record's case in the record's terms: the move index and the
    pointer into the record of the step that did not hold."""
    total = len(case.steps) - 1
    out = ReplayResult(case.id, result.outcome, moves_total=total)
    if result.applicability is not None:
        out.substituted = dict(result.applicability.substituted)
        out.blockers = tuple(result.applicability.blockers)
    if result.outcome == "passed":
        out.moves_played = total
        return out
    step = result.step
    if result.outcome in ("unsupported", "not_run", "broken") and step is None:
        out.message = result.message
        return out
    if step is None:
        out.where, at, prefix = "/deal", "start", "the deal"
    elif step.kind == "move":
        out.index = out.moves_played = step.index - 1
        out.where, out.move = f"/moves/{out.index}", step.body
        at, prefix = (
            f"step {step.index} move",
            f"move {out.index} ({canonical.canonical_move(out.move)})",
        )
    else:
        out.index = out.moves_played = total
        out.where, at, prefix = "/result", f"step {step.index} result", f"after all {total} moves"
    out.message = f"{prefix}: {result.message.removeprefix(at + ': ')}"
    actual = result.actual
    if isinstance(actual, dict) and actual.get("legal") == [] and step is not None:
        out.message += " (the game is already over)"
    out.expected, out.actual, out.state_before = result.expected, actual, result.state_before
    out.diagnostics = dict(result.diagnostics)
    return out


# ---------------------------------------------------------------------------------- showing


def describe_state(state: dict[str, Any] | None) -> list[str]:
    """A few lines a person reads faster than the state's JSON: roles, hands, table, talon."""
    if not isinstance(state, dict):
        return [repr(state)]
    lines = []
    bout = state.get("bout")
    talon = state.get("talon") or []
    if isinstance(bout, dict):
        roles = (
            f"bout {bout.get('number')}: attacker {bout.get('attacker')}, defender "
            f"{bout.get('defender')}, passed {bout.get('passed')}, taking {bout.get('taking')}"
        )
    else:
        roles = f"game over: {canonical.dumps(state.get('result'))}"
    lines.append(
        f"{roles}; trump {state.get('trump')}; talon {len(talon)}; "
        f"discard {len(state.get('discard') or [])}"
    )
    for seat, player in enumerate(state.get("players") or []):
        hand = " ".join(player.get("hand") or []) or "-"
        lines.append(f"seat {seat}: {hand}")
    table = state.get("table") or []
    if table:
        pairs = [
            f"{pair.get('attack')}/{pair.get('defence') or '-'}(by {pair.get('by')})"
            for pair in table
        ]
        lines.append("table: " + " ".join(pairs))
    if state.get("finished"):
        lines.append(f"finished: {state.get('finished')}")
    return lines


def format_result(result: ReplayResult, *, verbose: bool = False) -> str:
    """The report of one replay: one line when it passed, a block when it did not."""
    head = f"{result.outcome.upper():11} {result.name}"
    if result.outcome == "passed":
        return printable(f"{head} ({result.moves_total} moves)")
    if result.outcome in ("unsupported", "broken"):
        return printable(f"{head}: {result.message}")
    lines = [f"{head}", f"  at {result.where}: {result.message}"]
    if result.move is not None:
        lines.append(f"  move:     {canonical.canonical_move(result.move)}")
    if result.expected is not None and result.expected not in (
        result.move,
        {"listed": result.move},
    ):
        lines.append(f"  expected: {canonical.dumps(result.expected)}")
    actual = result.actual
    if isinstance(actual, dict) and "legal" in actual and isinstance(actual["legal"], list):
        legal = actual["legal"]
        lines.append(f"  actual:   legal set of {len(legal)} move(s):")
        lines += [f"            {canonical.canonical_move(m)}" for m in legal[:40]]
        if len(legal) > 40:
            lines.append(f"            ... and {len(legal) - 40} more")
    elif actual is not None:
        lines.append(f"  actual:   {canonical.dumps(actual)}")
    if result.state_before is not None:
        label = "final state" if result.where == "/result" else "state before"
        lines.append(f"  {label} (after {result.moves_played} move(s)):")
        lines += ["    " + line for line in describe_state(result.state_before)]
        if verbose:
            lines.append("    " + canonical.dumps(result.state_before))
    if verbose and result.diagnostics:
        lines.append(f"  diagnostics: {canonical.dumps(result.diagnostics)}")
    return printable("\n".join(lines))  # the engine's messages, shown, never acted on


# ---------------------------------------------------------------------------------- CLI


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``replay`` subcommand's own arguments (the CLI adds how to reach the engine)."""
    parser.add_argument(
        "records",
        nargs="*",
        metavar="RECORD",
        help="record files (JSON) or directories of them (default: the packaged records)",
    )
    parser.add_argument("--json", metavar="PATH", help="write the results as a JSON list")
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="print the state before a divergence as JSON"
    )


def run_cli(engine: Engine, args: argparse.Namespace, out: Any = None) -> int:
    """Replay every record named in ``args``; 0 when all pass (or are unsupported), 1 when one
    diverges, is broken or meets an engine fault, 2 for a usage error."""
    out = out or sys.stdout
    missing = [p for p in args.records if not Path(p).exists()]
    if missing:
        print(f"durak-conformance replay: no such file or directory: {missing[0]}", file=sys.stderr)
        return 2
    files = record_files(args.records or None)
    if not files:
        print("durak-conformance replay: no record (*.json) found", file=sys.stderr)
        return 2
    hello = engine.hello()
    if isinstance(hello, ErrorResult):
        print(f"durak-conformance replay: hello failed: {printable(hello)}", file=sys.stderr)
        return 2
    try:
        support = Support.from_hello(hello)
    except HelloError as exc:
        print(f"durak-conformance replay: {printable(exc)}", file=sys.stderr)
        return 2
    runner = CaseRunner(engine, support)
    results: list[ReplayResult] = []
    for path in files:
        try:
            record = load_record(path)
        except RecordError as exc:
            where = f"at {exc.where}: " if exc.where else ""
            result = ReplayResult(str(path), "broken", where + exc.message)
        else:
            result = replay_with(runner, record, name=str(path))
        results.append(result)
        print(format_result(result, verbose=args.verbose), file=out)
    tally: dict[str, int] = {}
    for result in results:
        tally[result.outcome] = tally.get(result.outcome, 0) + 1
    engine_name = printable_line(hello.get("engine", {}).get("name", "?"))
    summary = ", ".join(f"{tally[o]} {o}" for o in OUTCOMES if o in tally)
    print(f"{len(results)} record(s) on {engine_name} ({engine.describe()}): {summary}", file=out)
    if args.json:
        Path(args.json).write_text(
            json.dumps([r.to_json() for r in results], indent=1) + "\n", encoding="utf-8"
        )
    return 0 if all(r.ok for r in results) else 1
