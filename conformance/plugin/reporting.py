"""Each durak item's report record, the expected-failure verdict, and the end of the session.

The record of a case the runner judged is built from its
:class:`~conformance.suite.cases.CaseResult` (:func:`conformance.plugin.items.judged_record`),
whatever its form: a fixture, a record, a perft position, or a Gherkin scenario (its game keeps
the result, ``item.durak_game.case_result``). A scenario that never reached the judge (a step
that raised on its own, a setup error) is written from its pytest report. The expected-failure list then judges the base
outcome (``passed``/``failed``/``error``/``broken``) and may turn the pytest report into a skip
(an expected failure) or a failure (a listed case that passes, or fails for another reason). The
controller collects the records (:class:`~conformance.plugin.session.DurakSession`); at the end it
writes the JSON summary, rewrites the list when asked and prints the terminal section.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from conformance.plugin.info import case_info
from conformance.plugin.items import CaseFailure, CaseItem, case_record, judged_record
from conformance.plugin.session import DurakSession, durak_session
from conformance.reports.causes import cause_json, cause_lines, cause_of, groups
from conformance.reports.junit import write_junit
from conformance.reports.report import (
    FAILING,
    FINAL_OUTCOMES,
    Tally,
    failure_text,
    summary_lines,
)

#: The outcomes the expected-failure list judges: the case was sent and told something.
JUDGED = ("passed", "failed", "error", "broken")

#: How the terminal summary names each kind of case.
KIND_NAMES = {
    "fixture": "fixtures",
    "robustness": "robustness cases",
    "scenario": "scenarios",
    "record": "records",
    "perft": "perft positions",
}


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr or "")


def _skipped_outcome(report: pytest.TestReport, reason: str) -> str:
    if hasattr(report, "wasxfail"):
        return "xfailed"
    if reason.startswith("unsupported"):
        return "unsupported"
    if reason.startswith("not run"):
        return "not_run"
    return "skipped"


def base_record(
    item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport, info: dict
) -> dict[str, Any]:
    """The item's report record with its ``base_outcome``: what happened before the
    expected-failure list is applied."""
    result = getattr(item, "durak_result", None)
    if isinstance(item, CaseItem) and result is not None:
        return {**case_record(item, result), "base_outcome": result.outcome}
    record = {k: v for k, v in info.items() if k != "areas"}
    record["nodeid"] = item.nodeid
    game = getattr(item, "durak_game", None)
    result = getattr(game, "case_result", None)
    if result is not None and (report.passed or not result.ok):
        # a scenario the runner judged: its record is written exactly as a fixture's
        record = judged_record(record, game.case, result)
        if report.failed:
            record["details"] = str(report.longrepr)[-8000:]  # the scenario's steps, as run
        return {**record, "base_outcome": result.outcome}
    if report.failed and call.excinfo is not None and isinstance(call.excinfo.value, CaseFailure):
        record.update(call.excinfo.value.record)
        base = record["outcome"]
    elif report.passed:
        base = "passed"
    elif report.skipped:
        record["message"] = _skip_reason(report)
        base = _skipped_outcome(report, record["message"])
    else:
        base = "error" if report.when == "setup" else "failed"
        crash = getattr(report.longrepr, "reprcrash", None)
        message = crash.message if crash is not None else str(report.longrepr)[:500]
        record["message"] = message
        record["signature"] = f"{report.when}: {message.splitlines()[0] if message else ''}"
        record["details"] = str(report.longrepr)[-8000:]  # the scenario's steps and assertion
    if game is not None:
        record.update(scenario_game_record(game))
    record["base_outcome"] = base
    return record


def scenario_game_record(game: Any) -> dict[str, Any]:
    """What a scenario's game adds to its report record: players, the ruleset asked for, and
    the gate's substitution or blockers."""
    out: dict[str, Any] = {}
    try:
        out["players"] = game.spec.player_count()
        out["ruleset_request"] = game.spec.ruleset_request()
    except Exception:  # noqa: BLE001, S110 - a scenario whose Given steps never named the game
        pass
    if game.applicability is not None:
        out.update(game.applicability.to_json())
    return out


def apply_xfail(session: DurakSession, record: dict[str, Any], report: pytest.TestReport) -> None:
    """The record's final ``outcome`` under the expected-failure list, and the pytest report
    made to say the same (a skip for an expected failure, a failure for a stale entry)."""
    base = record["base_outcome"]
    record["outcome"] = base
    if session.xfail is None or base not in JUDGED:
        return
    verdict = session.xfail.judge(record["id"], base != "passed", record.get("signature"))
    if verdict is None:
        return
    record["outcome"] = verdict.outcome
    record["xfail"] = verdict.reason
    if verdict.outcome == "xfailed":
        report.outcome = "skipped"
        report.wasxfail = verdict.reason
        return
    original = report.longrepr
    report.outcome = "failed"
    report.longrepr = f"expected-failure list: {verdict.reason}" + (
        f"\n\n{original}" if original and verdict.outcome == "mismatch" else ""
    )


def annotate(item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport) -> None:
    """Attach the durak record (and once, the engine's hello) to a durak item's report, for the
    controller to collect."""
    if report.when == "teardown" or (report.when == "setup" and report.passed):
        return
    info = case_info(item)
    if info is None:
        return
    session = durak_session(item.config)
    record = base_record(item, call, report, info)
    if record["base_outcome"] == "error":
        session.fault_seen()
    cause = cause_of(record)
    if cause is not None:
        record["cause"] = cause_json(cause)
    if report.failed and _judged_scenario(item) and item.config.option.tbstyle == "auto":
        # the scenario's failure block, as a fixture's reads; pytest's traceback of the step
        # definitions says nothing about the engine (``--tb=long`` shows it again)
        report.longrepr = failure_text(record)
    apply_xfail(session, record, report)
    report.durak_record = record
    if not session.hello_sent and session.hello is not None:
        report.durak_hello = session.hello
        session.hello_sent = True


def _judged_scenario(item: pytest.Item) -> bool:
    """Whether a Gherkin scenario item reached the judge (its game holds the case result)."""
    return getattr(getattr(item, "durak_game", None), "case_result", None) is not None


def incomplete(tally: Tally, min_share: float) -> bool:
    """Whether a run executed nothing, or less than ``min_share`` of the selected cases."""
    return tally.selected > 0 and (
        tally.executed == 0 or tally.executed < min_share * tally.selected
    )


def finish(
    session: pytest.Session, exitstatus: int, incomplete_exit: int, unusable_exit: int
) -> None:
    """The end of the run on the controller: a run whose engine was unusable ends with
    ``unusable_exit``, one that executed too little is incomplete (``incomplete_exit``); the JSON
    summary (with the reason the engine was unusable); the rewritten expected-failure list."""
    state = durak_session(session.config)
    if not state.controller:
        return
    if state.unusable:
        session.exitstatus = unusable_exit
        exitstatus = unusable_exit
    elif (
        state.any_items
        and int(exitstatus) == 0
        and incomplete(state.tally, session.config.getoption("durak_min_share"))
    ):
        state.incomplete = True
        session.exitstatus = incomplete_exit
        exitstatus = incomplete_exit
    if state.json is not None:
        state.json.write(
            {
                "type": "summary",
                **state.tally.as_json(),
                "kinds": {kind: dict(counts) for kind, counts in sorted(state.kinds.items())},
                "starts": dict(state.starts),
                "causes": [group.to_json() for group in groups(state.failing)],
                "failing": state.tally.failing,
                "exitstatus": int(exitstatus),
                **({"engine_unusable": state.unusable} if state.unusable else {}),
            }
        )
    if state.junit_path:
        write_junit(state.junit_path, state.records, state.engine_record, state.describe())
    if state.xfail is not None and session.config.getoption("durak_update_xfail"):
        updated = state.xfail.updated(state.results)
        updated.save()
        state.xfail_written = updated.path


def kind_lines(state: DurakSession) -> list[str]:
    """How many cases of each kind ran and how they ended: ``records: 4 (4 passed)``."""
    lines = []
    order = list(KIND_NAMES)
    for kind in sorted(state.kinds, key=lambda k: (order.index(k) if k in order else 99, k)):
        counts = state.kinds[kind]
        shown = ", ".join(f"{counts[o]} {o.replace('_', ' ')}" for o in FINAL_OUTCOMES if counts[o])
        lines.append(f"  {KIND_NAMES.get(kind, kind)}: {sum(counts.values())} ({shown})")
    return lines


def setup_line(starts: Counter) -> str:
    """How many of the cases need no position set-up: what an engine that plays only in game
    sessions (no ``positions`` in hello, P-33) can run. The cases whose start is an impossible
    position (``start`` ``impossible``: the robustness cases that test set-up itself) are left
    out of the share, and the line says how many: no game and no route reaches them."""
    impossible = starts.get("impossible", 0)
    total = sum(starts.values()) - impossible
    free = starts["deal"] + starts["route"]
    share = f"{100 * free / total:.0f}%" if total else "no cases"
    line = (
        f"without position set-up (game sessions): {free} of {total} cases "
        f"({share}): {starts['deal']} start from a deal, {starts['route']} from "
        f"a position with a route to it; {starts['position']} need the position set up"
    )
    if impossible:
        line += (
            f"; {impossible} more start from an impossible position the engine must refuse "
            "(they test position set-up itself) and are not counted"
        )
    return line


def terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """The ``durak-conformance`` section of the terminal report."""
    state = durak_session(config)
    if not state.controller or not state.any_items:
        return
    write = terminalreporter.write_line
    terminalreporter.section("durak-conformance")
    lines = summary_lines(state.tally, state.engine_record, state.describe())
    after = [i for i, line in enumerate(lines) if line.startswith(("cases:", "ran "))]
    at = after[-1] + 1 if after else len(lines)
    for line in [*lines[:at], "by kind of case:", *kind_lines(state), *lines[at:]]:
        write(line)
    if state.starts:
        write(setup_line(state.starts))
    if any(state.tally.totals[o] for o in FAILING):
        write("a failing case shows its case id, rules, step, expected and actual above")
        for line in cause_lines(groups(state.failing)):
            write(line)
    if state.unusable:
        write(
            f"ENGINE UNUSABLE: {state.unusable}. No case ran: every selected case is reported "
            "not run. Check the engine command, and that the engine answers hello (spec/protocol.md)."
        )
    if state.incomplete:
        write(
            f"WARNING: incomplete run: {state.tally.executed} of {state.tally.selected} selected "
            "cases ran; the rest are outside the engine's claims (see above what would unlock "
            "them). Not a pass of the suite."
        )
    if state.json is not None:
        write(f"JSON report: {state.json.path}")
    if state.xfail_written is not None:
        write(f"expected-failure list rewritten: {state.xfail_written}")
