"""Run reports as Markdown: engines and totals, the two matrices, what would unlock the
unsupported cases and the failing cases (ID, rules, signature), for a CI summary or a pull
request comment. The same page data as the HTML page (:mod:`conformance.reports.page`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from conformance.reports.causes import groups
from conformance.reports.page import (
    HEADLINE,
    area_of,
    cell,
    changes,
    column_labels,
    failing_cases,
    natural_key,
    option_values_of,
    rules_of,
    tally,
    unlocks,
)
from conformance.reports.printable import printable
from conformance.reports.reader import LoadedReport
from conformance.reports.report import FINAL_OUTCOMES


def _md(value: Any) -> str:
    """Text safe in a Markdown table cell (GitHub renders inline HTML, so escape it too; control
    characters and surrogates are shown escaped)."""
    return escape(printable(value), quote=False).replace("|", "\\|").replace("\n", " ")


def _code(value: Any) -> str:
    """A Markdown code span (no HTML inside is rendered; a backtick would end it)."""
    return "`" + printable(value).replace("`", "'").replace("|", "\\|").replace("\n", " ") + "`"


def _md_table(head: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _md_cell(counts: Counter[str] | None) -> str:
    text, status, _ = cell(counts)
    mark = {"ok": "✅ ", "fail": "❌ ", "xfail": "⚠️ "}.get(status, "")
    return _md(mark + text)


def _changes(reports: Sequence[LoadedReport], md_labels: list[str]) -> list[str]:
    """Regressions (passed in the first run, failing in a later one) apart from fixes and the
    other changes, as on the HTML page: what a pull request comment is read for."""
    rows = changes(reports)
    lines = []
    for kind, heading in (("regression", "Regressions"), ("fix", "Fixes"), ("other", "Other")):
        chosen = [row for row in rows if row["kind"] == kind]
        lines += ["", f"## {heading} against {md_labels[0]}: {len(chosen)}", ""]
        if chosen:
            lines += _md_table(
                ["case", *md_labels],
                ([_code(row["id"]), *(c["outcome"] if c else "absent" for c in row["found"])]
                 for row in chosen),
            )
    return lines


def render_markdown(reports: Sequence[LoadedReport]) -> str:
    """The same comparison, shorter: engines and totals, the two matrices, the failing cases
    (ID, rules, signature). For a CI summary or a pull request comment."""
    if not reports:
        raise ValueError("render_markdown needs at least one report")
    labels = column_labels(reports)
    md_labels = [_md(label) for label in labels]
    lines = ["# Durak conformance: " + " vs ".join(md_labels), ""]
    totals = [Counter(case["outcome"] for case in r.cases) for r in reports]
    rows = [["command", *(_code(r.header.get("engine", "?")) for r in reports)]]
    rows.append(
        ["run", *("complete" if r.complete else "incomplete (no summary line)" for r in reports)]
    )
    rows.append(["cases", *(str(len(r.cases)) for r in reports)])
    for outcome in FINAL_OUTCOMES:
        if outcome in HEADLINE or any(t[outcome] for t in totals):
            rows.append([outcome.replace("_", " "), *(str(t[outcome]) for t in totals)])
    lines += _md_table(["", *md_labels], rows)
    for heading, keys, first in (
        ("By rule area", area_of, "rule area"),
        ("By option value", option_values_of, "option=value"),
    ):
        tallies = [tally(r.cases, keys) for r in reports]
        names = sorted({n for t in tallies for n in t}, key=natural_key)
        lines += ["", f"## {heading}", ""]
        lines += _md_table(
            [first, *md_labels],
            ([_md(name), *(_md_cell(t.get(name)) for t in tallies)] for name in names),
        )
    if len(reports) > 1:
        lines += _changes(reports, md_labels)
    lines += ["", "## Root causes", ""]
    for report, label in zip(reports, md_labels, strict=True):
        found = groups(failing_cases(report))
        lines += [f"### {label}: {len(found)} cause{'s' * (len(found) != 1)}", ""]
        if found:
            lines += _md_table(
                ["cases", "cause", "rules"],
                ([str(len(g.cases)), _md(g.text + (f": {g.breakdown()}" if g.breakdown() else "")),
                  _md(", ".join(g.cause.rules))] for g in found),
            )
            lines.append("")
    lines += ["", "## What did not run, and what would unlock it", ""]
    for report, label in zip(reports, labels, strict=True):
        executed, selected, ranked = unlocks(report)
        lines += [f"### {_md(label)}: ran {executed} of {selected} cases", ""]
        if ranked:
            lines += _md_table(
                ["claim", "cases it would unlock"],
                ([_md(" and ".join(i["claims"])), str(i["cases"])] for i in ranked),
            )
            lines.append("")
    lines += ["", "## Failing cases", ""]
    for report, label in zip(reports, labels, strict=True):
        failing = failing_cases(report)
        lines += [f"### {_md(label)}: {len(failing)} failing", ""]
        if failing:
            lines += _md_table(
                ["case", "outcome", "rules", "signature"],
                (
                    [
                        _code(c["id"]),
                        c["outcome"],
                        _md(", ".join(rules_of(c))),
                        _md(c.get("signature") or ""),
                    ]
                    for c in failing
                ),
            )
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"
