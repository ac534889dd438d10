"""Run reports as a page people read: one self-contained HTML file, drawn from Jinja2 templates.

Input is one or more run reports (:class:`conformance.reports.reader.LoadedReport`); several are
shown side by side, one column per engine, so "where do these engines differ" is one look. The
page holds, in order: each engine's identity, claims and totals; the pass/fail matrix per rule
area and per option value; each rule ID with its cases and their outcomes; between runs, the
regressions and fixes against the first run (other changes, such as a case unsupported in one
run, apart and never counted as regressions); what did not run and the claims that would unlock
it; the root causes; each engine's failing cases with their difference (collapsed).

This module gathers what the page shows (:func:`page_context`, data only, no markup); the
markup is in ``templates/`` beside this file (loaded relative to the module, so an installed
wheel finds them), rendered with autoescape on: every value from a report is text, never markup
(a case ID or a failure text may hold ``<`` or ``&``). Before escaping, every value passes
through :func:`conformance.reports.printable.printable`, so an engine's control characters show
as escapes. Counts are always made from the case lines, never copied from the summary, so an
interrupted run (no summary line) is still drawn correctly. The page is a pure function of the
reports: no clock, no network, no script.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from conformance.reports.causes import groups
from conformance.reports.page import (
    HEADLINE,
    area_of,
    blockers_of,
    cell,
    changes,
    column_keys,
    column_labels,
    difference,
    difference_line,
    failing_cases,
    identity,
    move_text,
    natural_key,
    option_values_of,
    pretty,
    rules_of,
    short_state,
    step_text,
    tally,
    unlocks,
)
from conformance.reports.printable import printable
from conformance.reports.reader import LoadedReport
from conformance.reports.report import FAILING, FINAL_OUTCOMES

TEMPLATES = Path(__file__).resolve().parent / "templates"
#: The engine diagnostics a failure block shows, in order (stderr's tail is shown apart).
#: Failing cases an open rule shows before the rest is collapsed (a bug in one rule fails
#: cases that cite many others: each open rule stays a few lines).
MOST_FAILING = 5
DIAGNOSTICS = ("engine", "request", "received", "partial", "exit_status", "elapsed", "traceback")


def _shown(value: Any) -> Any:
    """Every ``{{ value }}`` of a template before it is escaped: report text made printable
    (an engine's text may carry ESC or BEL, and a lone surrogate cannot be written as UTF-8);
    markup the templates made themselves (macros) is left alone."""
    if isinstance(value, Markup) or value is None:
        return "" if value is None else value
    return printable(value) if isinstance(value, str) else value


@cache
def environment() -> Environment:
    """The templates' environment: autoescape on for every template (and for template
    strings); a field a record lacks is empty, as report records carry only what applies."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(default=True, default_for_string=True),
        finalize=_shown,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(
        blockers=blockers_of,
        cell=cell,
        difference=difference,
        difference_line=difference_line,
        move_text=move_text,
        option_values_of=option_values_of,
        pretty=pretty,
        rules_of=rules_of,
        short_state=short_state,
        step_text=step_text,
        diagnostics=_diagnostics,
        to_json=lambda value: json.dumps(value, sort_keys=True),
    )
    return env


class _Anchors:
    """Stable in-page anchors of failing cases, per engine column."""

    def __init__(self, reports: Sequence[LoadedReport]):
        self.ids: dict[tuple[int, str], str] = {}
        for column, report in enumerate(reports):
            for number, case in enumerate(failing_cases(report)):
                self.ids.setdefault((column, case["id"]), f"fail-{column + 1}-{number + 1}")

    def __call__(self, column: int, case_id: str) -> str | None:
        return self.ids.get((column, case_id))


def _diagnostics(case: dict[str, Any]) -> list[tuple[str, str]]:
    found = case.get("diagnostics") if isinstance(case.get("diagnostics"), dict) else {}
    out = []
    for key in DIAGNOSTICS:
        value = found.get(key)
        if value not in (None, ""):
            out.append((key, value if isinstance(value, str) else pretty(value, 4000)))
    return out


def _selection_text(selection: Any) -> str:
    if not isinstance(selection, dict):
        return "all"
    parts = [f"{k}: {', '.join(map(str, v))}" for k, v in sorted(selection.items()) if v]
    return "; ".join(parts) or "all"


def _run_text(report: LoadedReport) -> tuple[str, bool]:
    """Whether the run is complete, and whether that is a warning."""
    if report.engine is None:
        return "the engine never answered hello", True
    if not report.complete:
        return (
            f"incomplete: no summary line (interrupted run); {len(report.cases)} cases finished",
            True,
        )
    status = report.summary.get("exitstatus") if report.summary else None
    return (f"complete (exit status {status})" if status is not None else "complete"), False


def _claims_count(report: LoadedReport) -> str:
    supports = (report.engine or {}).get("supports")
    options = supports.get("options") if isinstance(supports, dict) else None
    if not isinstance(options, dict):
        return "none"
    values = sum(len(v) for v in options.values() if isinstance(v, list))
    return f"{len(options)} options, {values} values (table below)"


def _part(report: LoadedReport, key: str) -> dict[str, Any]:
    value = report.header.get(key)
    return value if isinstance(value, dict) else {}


def _engine(report: LoadedReport) -> dict[str, Any]:
    ident = identity(report)
    suite, runner = _part(report, "suite"), _part(report, "runner")
    run, warn = _run_text(report)
    return {
        "name": ident.get("name", "?"),
        "version": ident.get("version", ""),
        "language": ident.get("language", ""),
        "notes": ident.get("notes", ""),
        "command": report.header.get("engine", "?"),
        "path": str(report.path),
        "suite": f"{suite.get('name', '?')} {suite.get('version', '')}",
        "runner": ", ".join(f"{k} {v}" for k, v in sorted(runner.items())),
        "selection": _selection_text(report.header.get("selection")),
        "run": run,
        "warn": warn,
        "claims": _claims_count(report),
        "cases": len(report.cases),
        "totals": Counter(case["outcome"] for case in report.cases),
    }


def _claims(reports: Sequence[LoadedReport]) -> list[tuple[str, list[str]]]:
    """The hello claims side by side: ``(row name, [value per report, "" when none])``."""
    supports = []
    for report in reports:
        claimed = (report.engine or {}).get("supports")
        supports.append(claimed if isinstance(claimed, dict) else {})
    rows = [
        ("protocol", [str((r.engine or {}).get("protocol", "–")) for r in reports]),
        ("observe", ["yes" if s.get("observe") else "no" for s in supports]),
    ]
    decks = sorted(
        {d for s in supports if isinstance(s.get("players"), dict) for d in s["players"]},
        key=natural_key,
    )
    for deck in decks:
        values = [", ".join(map(str, (s.get("players") or {}).get(deck, []))) for s in supports]
        rows.append((f"players, deck {deck}", [value or "–" for value in values]))
    options = sorted(
        {o for s in supports if isinstance(s.get("options"), dict) for o in s["options"]}
    )
    for option in options:
        claimed = [(s.get("options") or {}).get(option) for s in supports]
        rows.append(
            (option, [", ".join(map(str, c)) if isinstance(c, list) and c else "" for c in claimed])
        )
    return rows


def _matrix(reports, title, anchor, keys, head, noun, open_always=False) -> dict[str, Any]:
    tallies = [tally(r.cases, keys) for r in reports]
    names = sorted({name for t in tallies for name in t}, key=natural_key)
    failing = sum(any(cell(t.get(name))[1] == "fail" for t in tallies) for name in names)
    return {
        "title": title,
        "anchor": anchor,
        "head": head,
        "noun": noun,
        "names": names,
        "tallies": tallies,
        "failing": failing,
        "open": open_always or bool(failing),
    }


def _rules(reports: Sequence[LoadedReport], labels, rule_titles: Mapping[str, str]):
    spec_order = {rule: index for index, rule in enumerate(rule_titles)}
    tallies = [tally(r.cases, rules_of) for r in reports]
    rules = sorted(
        {rule for t in tallies for rule in t},
        key=lambda rule: (spec_order.get(rule, len(spec_order)), natural_key(rule)),
    )
    indexes = [{case["id"]: case for case in r.cases} for r in reports]
    out = []
    for rule in rules:
        cells = [cell(t.get(rule)) for t in tallies]
        ids = dict.fromkeys(
            case["id"] for r in reports for case in r.cases if rule in rules_of(case)
        )
        failing_rows, other_rows = [], []
        for case_id in ids:
            found = [index.get(case_id) for index in indexes]
            row = {"case": next(case for case in found if case), "found": found}
            fails = any(case and case["outcome"] in FAILING for case in found)
            (failing_rows if fails else other_rows).append(row)
        out.append(
            {
                "id": rule,
                "title": rule_titles.get(rule, ""),
                "failing": any(status == "fail" for _, status, _ in cells),
                "counts": [
                    (key, text, status)
                    for key, (text, status, _) in zip(column_keys(reports), cells, strict=True)
                ],
                "failing_rows": failing_rows,
                "other_rows": other_rows,
            }
        )
    return out


def _changed(reports: Sequence[LoadedReport]) -> dict[str, list[dict[str, Any]]]:
    """The differences between the runs by kind, each row with the difference of the record
    that fails (for a regression the first later run failing, for a fix the first run)."""
    out: dict[str, list[dict[str, Any]]] = {"regression": [], "fix": [], "other": []}
    for row in changes(reports):
        found, kinds = row["found"], row["changes"]
        if row["kind"] == "regression":
            failing = [
                case for case, kind in zip(found, kinds, strict=True) if kind == "regression"
            ]
        else:
            failing = [case for case in found if case and case["outcome"] in FAILING]
        unsupported = [case for case in row["found"] if case and case["outcome"] == "unsupported"]
        if failing:
            text = difference_line(failing[0])
        elif unsupported:
            text = "needs " + " and ".join(blockers_of(unsupported[0]))
        else:
            text = ""
        out[row["kind"]].append({**row, "difference": text})
    return out


def _unsupported(reports: Sequence[LoadedReport], labels) -> list[dict[str, Any]]:
    out = []
    for report, label in zip(reports, labels, strict=True):
        executed, selected, ranked = unlocks(report)
        blocked: dict[tuple[str, ...], list[str]] = {}
        for case in report.cases:
            if case["outcome"] == "unsupported" and case.get("blockers"):
                blocked.setdefault(tuple(sorted(case["blockers"])), []).append(case["id"])
        out.append(
            {
                "label": label,
                "executed": executed,
                "selected": selected,
                "share": 100 * executed // selected if selected else 0,
                "ranked": [
                    {**item, "ids": blocked.get(tuple(item["claims"]), [])} for item in ranked
                ],
            }
        )
    return out


def page_context(
    reports: Sequence[LoadedReport], rule_titles: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Everything the page shows, as data the templates lay out."""
    rule_titles = rule_titles or {}
    labels = column_labels(reports)
    totals = [Counter(case["outcome"] for case in r.cases) for r in reports]
    return {
        "title": "Durak conformance: "
        + (" vs ".join(labels) if len(labels) < 3 else f"{len(labels)} runs side by side"),
        "labels": labels,
        "keys": column_keys(reports),
        "multi": len(reports) > 1,
        "most_failing": MOST_FAILING,
        "anchor": _Anchors(reports),
        "engines": [_engine(r) for r in reports],
        "totals_shown": [o for o in FINAL_OUTCOMES if o in HEADLINE or any(t[o] for t in totals)],
        "failing_outcomes": FAILING,
        "claims": _claims(reports),
        "matrices": [
            _matrix(reports, "By rule area", "areas", area_of, "rule area", "rule areas", True),
            _matrix(
                reports,
                "By option value (options the cases discriminate)",
                "options",
                option_values_of,
                "option=value",
                "option values",
            ),
        ],
        "rules": _rules(reports, labels, rule_titles),
        "changed": _changed(reports) if len(reports) > 1 else {},
        "unsupported": _unsupported(reports, labels),
        "causes": [
            {"label": label, "column": column, "groups": groups(failing_cases(report))}
            for column, (report, label) in enumerate(zip(reports, labels, strict=True))
        ],
        "failures": [
            {"label": label, "column": column, "cases": failing_cases(report)}
            for column, (report, label) in enumerate(zip(reports, labels, strict=True))
        ],
    }


def render_html(
    reports: Sequence[LoadedReport], rule_titles: Mapping[str, str] | None = None
) -> str:
    """The whole page for one or more reports (one column each, in the order given).
    ``rule_titles`` (``{rule ID: title}`` in spec order) names and orders the rules."""
    if not reports:
        raise ValueError("render_html needs at least one report")
    return environment().get_template("page.html").render(page_context(reports, rule_titles))
