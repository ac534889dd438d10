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
