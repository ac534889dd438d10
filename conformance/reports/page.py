"""What a report page shows, as data: the counts of each matrix cell, the column labels, the
JSON of a failure as it is shown, the failing cases and the claims that would unlock the most
unsupported ones. Shared by the HTML page (:mod:`conformance.reports.html`) and the Markdown
summary (:mod:`conformance.reports.markdown`); pure functions, no markup.

Counting (as the terminal summary of :mod:`conformance.reports.report`): a cell is
``passed/run`` where ``run`` is passed + expected failures + failing outcomes; unsupported, not
run and skipped cases are outside ``run`` and named beside the count.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from conformance.reports.reader import LoadedReport
from conformance.reports.report import FAILING, FINAL_OUTCOMES, Tally

#: The totals every engine block shows, even at zero.
HEADLINE = ("passed", "failed", "unsupported", "not_run", "xfailed")
#: Longest JSON shown for one value of a failure before it is cut.
JSON_LIMIT = 20000


def natural_key(text: str) -> list[Any]:
    """``R-BEAT-10`` after ``R-BEAT-9``: digit runs compare as numbers."""
    return [
        (0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", text)
    ]


def column_labels(reports: Sequence[LoadedReport]) -> list[str]:
    """One short label per report: the engine's name and version, with the file name added
    where two reports would otherwise look the same."""
    base = []
    for report in reports:
        ident = identity(report)
        name = f"{ident.get('name') or report.header.get('engine') or '?'} {ident.get('version') or ''}"
        base.append(name.strip())
    labels = [
        f"{label} ({report.path.name})" if base.count(label) > 1 else label
        for label, report in zip(base, reports, strict=True)
    ]
    return [
        f"{label} #{index + 1}" if labels.count(label) > 1 else label
        for index, label in enumerate(labels)
    ]


def column_keys(reports: Sequence[LoadedReport]) -> list[str]:
    """A short heading per column for the long tables (the engines table shows the full label
    beside it): its number and report file's name, ``#2 mine``, so five columns fit a screen."""
    return [f"#{index + 1} {report.path.stem}" for index, report in enumerate(reports)]


def identity(report: LoadedReport) -> dict[str, Any]:
    engine = report.engine or {}
    ident = engine.get("engine")
    return ident if isinstance(ident, dict) else {}


def tally(cases: Iterable[dict[str, Any]], keys: Callable[[dict[str, Any]], Iterable[str]]):
    """``{key: Counter(outcome)}``: each case counted once under each of its keys."""
    out: dict[str, Counter[str]] = {}
    for case in cases:
        for key in keys(case):
            out.setdefault(key, Counter())[case["outcome"]] += 1
    return out


def area_of(case: dict[str, Any]) -> list[str]:
    return [case.get("area") or "?"]


def option_values_of(case: dict[str, Any]) -> list[str]:
    return [f"{name}={value}" for name, value in sorted((case.get("options") or {}).items())]


def rules_of(case: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys(case.get("rules") or []))


def cell(counts: Counter[str] | None) -> tuple[str, str, str]:
    """``(text, status, title)`` of one matrix cell. Status: ``fail`` (a failing outcome),
    ``xfail`` (only expected failures beside passes), ``ok``, ``none`` (nothing ran), ``absent``
    (no case at all)."""
    if not counts:
        return "–", "absent", "no case"
    bad = sum(counts[o] for o in FAILING)
    run = counts["passed"] + counts["xfailed"] + bad
    notes = [
        f"{counts[o]} {o.replace('_', ' ')}"
        for o in ("xfailed", "unsupported", "not_run", "skipped")
        if counts[o]
    ]
    title = ", ".join(f"{counts[o]} {o.replace('_', ' ')}" for o in FINAL_OUTCOMES if counts[o])
    if not run:
        return " / ".join(notes), "none", title
    status = "fail" if bad else ("xfail" if counts["xfailed"] else "ok")
    text = f"{counts['passed']}/{run}"
    return (f"{text} ({', '.join(notes)})" if notes else text), status, title


# ------------------------------------------------------------------------------ JSON shown


def pretty(value: Any, limit: int = JSON_LIMIT, width: int = 100) -> str:
    """JSON for reading: a list or object that fits in ``width`` stays on one line (so each move
    or table pair is one line), a longer one is broken one item per line; cut at ``limit``."""

    def compact(item: Any) -> str:
        return json.dumps(item, sort_keys=True, ensure_ascii=False, default=repr)

    def fmt(item: Any, depth: int) -> str:
        flat = compact(item)
        if len(flat) + depth <= width or not isinstance(item, list | dict) or not item:
            return flat
        pad, inner = " " * depth, " " * (depth + 1)
        if isinstance(item, list):
            body = ",\n".join(inner + fmt(x, depth + 1) for x in item)
            return f"[\n{body}\n{pad}]"
        body = ",\n".join(
            f"{inner}{compact(str(k))}: {fmt(item[k], depth + 1)}" for k in sorted(item, key=str)
        )
        return f"{{\n{body}\n{pad}}}"

    text = fmt(value, 0)
    return text if len(text) <= limit else text[:limit] + f"\n... ({len(text)} characters)"


def short_state(state: Any) -> Any:
    """A state with its ruleset's options elided (the case's ruleset is shown once, above)."""
    if isinstance(state, dict) and isinstance(state.get("ruleset"), dict):
        return {**state, "ruleset": {"name": state["ruleset"].get("name"), "options": "..."}}
    return state


def step_text(step: Any) -> str:
    if not isinstance(step, dict):
        return pretty(step)
    shown = {k: v for k, v in step.items() if k not in ("index", "line")}
    return f"step {step.get('index', '?')} (line {step.get('line', '?')}): {pretty(shown)}"


def failing_cases(report: LoadedReport) -> list[dict[str, Any]]:
    """The cases of ``report`` with a failing outcome, in report order."""
    return [case for case in report.cases if case["outcome"] in FAILING]


def unlocks(report: LoadedReport, limit: int = 10) -> tuple[int, int, list[dict[str, Any]]]:
    """Cases executed, cases in the report, and the claims that would unlock the most
    unsupported cases (each case names its blockers: conformance.suite.applicability)."""
    counts = Tally()
    for case in report.cases:
        counts.add(case)
    return counts.executed, counts.selected, counts.unlocks(limit)


# ------------------------------------------------------------------------------ differences


def difference(case: dict[str, Any]) -> list[dict[str, Any]]:
    """What a failing record's answer got wrong, as rows a page can show beside the case:
    ``{"what": "missing" | "extra" | "listed twice" | "listed" | "accepted", "moves": [...]}``
    for moves, ``{"what": "field", "pointer", "expected", "actual"}`` for each differing state
    field, ``{"what": "after", "moves": [...]}`` for the path a perft count parts along.
    Empty when the record carries no structured difference (an engine fault, a broken case):
    its message says it then. Read from what the runner wrote (conformance.suite.handlers and
    counting), never worked out again."""
    actual, expected = case.get("actual"), case.get("expected")
    rows: list[dict[str, Any]] = []
    if isinstance(actual, dict) and isinstance(actual.get("descent"), dict):
        descent = actual["descent"]
        rows.append({"what": "after", "moves": list(descent.get("path") or [])})
        actual = {k: descent[k] for k in ("missing", "extra") if k in descent}
    if isinstance(actual, dict):
        for key, what in (
            ("missing", "missing"),
            ("extra", "extra"),
            ("listed_twice", "listed twice"),
            ("present", "listed"),
        ):
            moves = actual.get(key)
            if isinstance(moves, list) and moves:
                rows.append({"what": what, "moves": moves})
        if actual.get("accepted") is True:
            rows.append({"what": "accepted", "moves": [case.get("step", {}).get("refuse")]})
        pointers = [key for key in actual if isinstance(key, str) and key.startswith("/")]
        if pointers and isinstance(expected, dict):
            rows += [
                {
                    "what": "field",
                    "pointer": pointer,
                    "expected": expected.get(pointer),
                    "actual": actual[pointer],
                }
                for pointer in sorted(pointers)
            ]
    return rows


def move_text(move: Any) -> str:
    """A move on one line, its fields in a fixed order: ``beat TH on QD (player 1)``."""
    if not isinstance(move, dict):
        return json.dumps(move, sort_keys=True, default=repr)
    parts = [str(move.get("action", "?"))]
    if "cards" in move:
        parts.append(" ".join(map(str, move["cards"] or [])))
    if "card" in move:
        parts.append(str(move["card"]))
    if "target" in move:
        parts.append(f"on {move['target']}")
    rest = {k: v for k, v in move.items() if k not in ("action", "cards", "card", "target")}
    player = rest.pop("player", None)
    if rest:
        parts.append(json.dumps(rest, sort_keys=True, default=repr))
    if player is not None:
        parts.append(f"(player {player})")
    return " ".join(parts)


def difference_line(case: dict[str, Any], most: int = 3) -> str:
    """The difference in one short line, for a table row: ``missing: beat TH on QD (player 1)``;
    the message's first line when the record carries no structured difference."""
    parts = []
    for row in difference(case):
        if row["what"] == "field":
            parts.append(
                f"{row['pointer']}: {pretty(row['expected'], 60)} → {pretty(row['actual'], 60)}"
            )
            continue
        moves = [move_text(m) for m in row["moves"]]
        shown = ", ".join(moves[:most]) + (
            f" and {len(moves) - most} more" if len(moves) > most else ""
        )
        parts.append(f"{row['what']}: {shown or 'nothing (the start)'}")
    if parts:
        return "; ".join(parts)
    return (str(case.get("message") or case.get("signature") or "").splitlines() or [""])[0]


def blockers_of(case: dict[str, Any]) -> list[str]:
    """The claims an unsupported case waits for (the runner names them), else its message."""
    blockers = case.get("blockers")
    if isinstance(blockers, list) and blockers:
        return [str(b) for b in blockers]
    message = str(case.get("message") or "")
    return [message] if message else []


# ------------------------------------------------------------------------------ between runs


def change_of(before: dict[str, Any] | None, after: dict[str, Any] | None) -> str | None:
    """How one case changed from one run to another: ``regression`` (passed, now failing),
    ``fix`` (failing, now passed), ``other`` (any other difference: a case unsupported, not
    run, skipped or absent in one run, or one failing outcome for another), None when the
    same. An unsupported case is never counted against a passed one."""
    old = before["outcome"] if before else None
    new = after["outcome"] if after else None
    if old == new:
        return None
    if old == "passed" and new in FAILING:
        return "regression"
    if old in FAILING and new == "passed":
        return "fix"
    return "other"


def changes(reports: Sequence[LoadedReport]) -> list[dict[str, Any]]:
    """The cases whose outcome differs between the runs, each against the first run (the
    baseline): ``{"id", "case", "found": [record or None per run], "changes": [kind or None per
    run], "kind"}``, where ``kind`` is the worst of the row (regression, then fix, then other).
    Regressions first, then fixes, then the rest; in report order within each."""
    indexes = [{case["id"]: case for case in report.cases} for report in reports]
    ids = list(dict.fromkeys(case["id"] for report in reports for case in report.cases))
    rank = {"regression": 0, "fix": 1, "other": 2}
    rows = []
    for case_id in ids:
        found = [index.get(case_id) for index in indexes]
        kinds = [None] + [change_of(found[0], case) for case in found[1:]]
        if len({case["outcome"] if case else None for case in found}) == 1:
            continue
        worst = min((k for k in kinds if k), key=rank.__getitem__, default="other")
        first = next(case for case in found if case)
        rows.append({"id": case_id, "case": first, "found": found, "changes": kinds, "kind": worst})
    return sorted(rows, key=lambda row: rank[row["kind"]])
