"""Run reports as a page people read: one self-contained HTML file.

Input is one or more run reports (:class:`conformance.reports.reader.LoadedReport`); several are
shown side by side, one column per engine, so "where do these engines differ" is one look. The
page holds, in order: each engine's identity, claims and totals; the pass/fail matrix per rule
area and per option value; each rule ID with its cases and their outcomes; the cases whose
outcome differs between engines; each engine's failing cases with step, expected and actual
(collapsed with ``<details>``).

Everything here is a pure function from report data to a string: no I/O, no clock, no network,
no script. Every value from a report passes through :func:`html.escape` (a case ID or a failure
text may hold ``<`` or ``&``). Counts are always made from the case lines, never copied from the
summary, so an interrupted run (no summary line) is still drawn correctly.

What the cells count, the labels and the JSON shown come from :mod:`conformance.reports.page`
(shared with the Markdown summary, :mod:`conformance.reports.markdown`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from html import escape
from typing import Any

from conformance.reports.causes import groups
from conformance.reports.page import (
    HEADLINE,
    area_of,
    cell,
    column_labels,
    failing_cases,
    identity,
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


def esc(value: Any) -> str:
    """Report text as HTML: markup escaped, control characters and surrogates shown as escapes
    (an engine's text may carry ESC or BEL, and a lone surrogate cannot be written as UTF-8)."""
    return escape(printable(value), quote=True)


CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:1300px;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ccc;padding:2px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}
.ok{background:#d6f0d6}.fail{background:#f5c9c9}.xfail{background:#fbe5b6}
.none{background:#e8e8e8;color:#555}.absent{color:#999}
.o{padding:0 5px;border-radius:3px;font-size:.9em;white-space:nowrap}
.o-passed{background:#d6f0d6}.o-xfailed{background:#fbe5b6}
.o-failed,.o-error,.o-broken,.o-xpassed,.o-mismatch{background:#f5c9c9;font-weight:bold}
.o-unsupported,.o-not_run,.o-skipped{background:#e8e8e8}
pre{background:#f7f7f7;border:1px solid #ddd;padding:6px;overflow:auto;max-height:30em;
white-space:pre-wrap;word-break:break-word;margin:.2em 0}
details{margin:.2em 0}details>summary{cursor:pointer}
details.case{border:1px solid #ddd;border-radius:4px;padding:2px 8px;margin:4px 0}
dl.f dt{font-weight:bold;margin-top:.4em}dl.f dd{margin-left:1em}
.warn{background:#fbe5b6;padding:4px 8px;border-radius:4px}
code{font-size:.95em}.small{font-size:.85em;color:#555}
"""


def outcome_badge(outcome: str | None) -> str:
    if outcome is None:
        return '<span class="absent">–</span>'
    return f'<span class="o o-{esc(outcome)}">{esc(outcome.replace("_", " "))}</span>'


def _table(head: Sequence[str], rows: Iterable[Sequence[str]], cls: str = "") -> str:
    """A table from already escaped cell HTML (a ``<td`` or ``<th`` may be given whole)."""
    out = [f'<table class="{cls}">' if cls else "<table>", "<thead><tr>"]
    out += [f"<th>{h}</th>" for h in head]
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>" + "".join(c if c.startswith("<t") else f"<td>{c}</td>" for c in row))
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _matrix_cell(counts: Counter[str] | None) -> str:
    text, status, title = cell(counts)
    return f'<td class="n {status}" title="{esc(title)}">{esc(text)}</td>'


def _engines_section(reports: Sequence[LoadedReport], labels: Sequence[str]) -> str:
    out = ["<h2 id='engines'>Engines</h2>"]
    head = ["", *(esc(label) for label in labels)]
    rows: list[list[str]] = []

    def row(name: str, values: Iterable[str]) -> None:
        rows.append([f"<th>{esc(name)}</th>", *values])

    row("name", (esc(identity(r).get("name", "?")) for r in reports))
    row("version", (esc(identity(r).get("version", "")) for r in reports))
    row("language", (esc(identity(r).get("language", "")) for r in reports))
    row("notes", (esc(identity(r).get("notes", "")) for r in reports))
    row("command", (f"<code>{esc(r.header.get('engine', '?'))}</code>" for r in reports))
    row("report file", (f"<code>{esc(r.path)}</code>" for r in reports))
    suite = [
        r.header.get("suite") if isinstance(r.header.get("suite"), dict) else {} for r in reports
    ]
    row("suite", (esc(f"{s.get('name', '?')} {s.get('version', '')}") for s in suite))
    runner = [
        r.header.get("runner") if isinstance(r.header.get("runner"), dict) else {} for r in reports
    ]
    row("runner", (esc(", ".join(f"{k} {v}" for k, v in sorted(x.items()))) for x in runner))
    row("selection", (esc(_selection_text(r.header.get("selection"))) for r in reports))
    row("run", (_completeness(r) for r in reports))
    row("claims", (esc(_claims_count(r)) for r in reports))
    totals = [Counter(case["outcome"] for case in r.cases) for r in reports]
    row("cases", (f'<span class="n">{len(r.cases)}</span>' for r in reports))
    for outcome in FINAL_OUTCOMES:
        if outcome in HEADLINE or any(t[outcome] for t in totals):
            row(outcome.replace("_", " "), (_total_cell(outcome, t[outcome]) for t in totals))
    out.append(_table(head, rows))
    out.append(_claims_table(reports, labels))
    return "".join(out)


def _selection_text(selection: Any) -> str:
    if not isinstance(selection, dict):
        return "all"
    parts = [f"{k}: {', '.join(map(str, v))}" for k, v in sorted(selection.items()) if v]
    return "; ".join(parts) or "all"


def _completeness(report: LoadedReport) -> str:
    if report.engine is None:
        return '<span class="warn">the engine never answered hello</span>'
    if not report.complete:
        return (
            f'<span class="warn">incomplete: no summary line (interrupted run); '
            f"{len(report.cases)} cases finished</span>"
        )
    status = report.summary.get("exitstatus") if report.summary else None
    return esc(f"complete (exit status {status})" if status is not None else "complete")


def _claims_count(report: LoadedReport) -> str:
    supports = (report.engine or {}).get("supports")
    options = supports.get("options") if isinstance(supports, dict) else None
    if not isinstance(options, dict):
        return "none"
    values = sum(len(v) for v in options.values() if isinstance(v, list))
    return f"{len(options)} options, {values} values (table below)"


def _total_cell(outcome: str, count: int) -> str:
    status = ""
    if count and outcome in FAILING:
        status = " fail"
    elif count and outcome == "passed":
        status = " ok"
    return f'<td class="n{status}">{count}</td>'


def _claims_table(reports: Sequence[LoadedReport], labels: Sequence[str]) -> str:
    supports = [
        (r.engine or {}).get("supports")
        if isinstance((r.engine or {}).get("supports"), dict)
        else {}
        for r in reports
    ]
    rows: list[list[str]] = []
    protocol = [esc((r.engine or {}).get("protocol", "–")) for r in reports]
    rows.append(["<th>protocol</th>", *protocol])
    rows.append(["<th>observe</th>", *(esc("yes" if s.get("observe") else "no") for s in supports)])
    decks = sorted(
        {d for s in supports if isinstance(s.get("players"), dict) for d in s["players"]},
        key=natural_key,
    )
    for deck in decks:
        values = [
            esc(", ".join(map(str, (s.get("players") or {}).get(deck, []))) or "–")
            for s in supports
        ]
        rows.append([f"<th>players, deck {esc(deck)}</th>", *values])
    options = sorted(
        {o for s in supports if isinstance(s.get("options"), dict) for o in s["options"]}
    )
    for option in options:
        claimed = [(s.get("options") or {}).get(option) for s in supports]
        values = [
            esc(", ".join(map(str, c)))
            if isinstance(c, list) and c
            else '<span class="absent">–</span>'
            for c in claimed
        ]
        rows.append([f"<th>{esc(option)}</th>", *values])
    return (
        "<details><summary>Claims (hello): player counts per deck and option values "
        "implemented</summary>"
        + _table(["claim", *(esc(label) for label in labels)], rows)
        + "</details>"
    )


def _matrix_section(
    title: str,
    anchor: str,
    reports: Sequence[LoadedReport],
    labels: Sequence[str],
    keys: Callable[[dict[str, Any]], Iterable[str]],
    order: Callable[[str], Any],
    first_head: str,
) -> str:
    tallies = [tally(r.cases, keys) for r in reports]
    names = sorted({name for t in tallies for name in t}, key=order)
    if not names:
        return f"<h2 id='{anchor}'>{esc(title)}</h2><p>No case names one.</p>"
    rows = [
        [f"<th>{esc(name)}</th>", *(_matrix_cell(t.get(name)) for t in tallies)] for name in names
    ]
    head = [esc(first_head), *(esc(label) for label in labels)]
    return f"<h2 id='{anchor}'>{esc(title)}</h2>" + _table(head, rows, "matrix")


class _Anchors:
    """Stable in-page anchors of failing cases, per engine column."""

    def __init__(self, reports: Sequence[LoadedReport]):
        self.ids: dict[tuple[int, str], str] = {}
        for column, report in enumerate(reports):
            for number, case in enumerate(failing_cases(report)):
                self.ids.setdefault((column, case["id"]), f"fail-{column + 1}-{number + 1}")

    def badge(self, column: int, case: dict[str, Any] | None) -> str:
        if case is None:
            return outcome_badge(None)
        anchor = self.ids.get((column, case["id"]))
        badge = outcome_badge(case["outcome"])
        return f'<a href="#{anchor}">{badge}</a>' if anchor else badge


def _by_id(report: LoadedReport) -> dict[str, dict[str, Any]]:
    return {case["id"]: case for case in report.cases}


def _case_label(case: dict[str, Any]) -> str:
    location = case.get("location")
    where = f' <span class="small">{esc(location)}</span>' if location else ""
    return f"<code>{esc(case['id'])}</code>{where}"


def _rules_section(
    reports: Sequence[LoadedReport],
    labels: Sequence[str],
    rule_titles: Mapping[str, str],
    anchors: _Anchors,
) -> str:
    out = [
        (
            "<h2 id='rules'>Rules</h2><p>Each rule ID with the cases that cite it; a rule opens "
            "by itself when a case of it fails on some engine.</p>"
        )
    ]
    spec_order = {rule: index for index, rule in enumerate(rule_titles)}
    tallies = [tally(r.cases, rules_of) for r in reports]
    rules = sorted(
        {rule for t in tallies for rule in t},
        key=lambda rule: (spec_order.get(rule, len(spec_order)), natural_key(rule)),
    )
    indexes = [_by_id(r) for r in reports]
    for rule in rules:
        cells = [cell(t.get(rule)) for t in tallies]
        failing = any(status == "fail" for _, status, _ in cells)
        counts = " · ".join(
            f'<span class="o {status}">{esc(label)}: {esc(text)}</span>'
            for label, (text, status, _) in zip(labels, cells, strict=True)
        )
        title = rule_titles.get(rule, "")
        ids = list(
            dict.fromkeys(case["id"] for r in reports for case in r.cases if rule in rules_of(case))
        )
        rows = []
        for case_id in ids:
            first = next(index[case_id] for index in indexes if case_id in index)
            rows.append(
                [
                    _case_label(first),
                    esc(first.get("kind", "")),
                    *(anchors.badge(c, index.get(case_id)) for c, index in enumerate(indexes)),
                ]
            )
        out.append(
            f"<details class='rule' id='rule-{esc(rule)}'{' open' if failing else ''}><summary>"
            f"<b>{esc(rule)}</b> {esc(title)} — {counts}</summary>"
            + _table(["case", "kind", *(esc(label) for label in labels)], rows)
            + "</details>"
        )
    return "".join(out)


def _differences_section(
    reports: Sequence[LoadedReport], labels: Sequence[str], anchors: _Anchors
) -> str:
    if len(reports) < 2:
        return ""
    indexes = [_by_id(r) for r in reports]
    ids = list(dict.fromkeys(case["id"] for r in reports for case in r.cases))
    rows = []
    for case_id in ids:
        found = [index.get(case_id) for index in indexes]
        if len({case["outcome"] if case else None for case in found}) > 1:
            first = next(case for case in found if case)
            rows.append(
                [
                    _case_label(first),
                    esc(", ".join(rules_of(first))),
                    *(anchors.badge(c, case) for c, case in enumerate(found)),
                ]
            )
    body = (
        _table(["case", "rules", *(esc(label) for label in labels)], rows)
        if rows
        else "<p>Every case has the same outcome on every engine.</p>"
    )
    return f"<h2 id='differences'>Cases whose outcome differs ({len(rows)})</h2>" + body


def _field(name: str, html_value: str) -> str:
    return f"<dt>{esc(name)}</dt><dd>{html_value}</dd>"


def failure_html(case: dict[str, Any], anchor: str | None = None) -> str:
    """One failing case as a collapsed block: summary line with outcome, ID, rules and signature;
    inside, where it is, the message, ruleset, step, expected and actual, the engine's
    diagnostics, and the states (collapsed again)."""
    rules = ", ".join(rules_of(case)) or "–"
    signature = case.get("signature") or (case.get("message") or "").splitlines()[:1]
    if isinstance(signature, list):
        signature = signature[0] if signature else ""
    id_attr = f' id="{esc(anchor)}"' if anchor else ""
    out = [
        (
            f'<details class="case"{id_attr}><summary>{outcome_badge(case["outcome"])} '
            f"<code>{esc(case['id'])}</code> — {esc(rules)} — {esc(signature)}</summary>"
            "<dl class='f'>"
        )
    ]
    if case.get("location"):
        out.append(_field("where", f"<code>{esc(case['location'])}</code>"))
    out.append(_field("rules", esc(rules)))
    if case.get("options"):
        out.append(_field("options", esc(", ".join(option_values_of(case)))))
    ruleset = case.get("ruleset_request", case.get("ruleset"))
    if ruleset is not None:
        shown = ruleset if isinstance(ruleset, str) else json.dumps(ruleset, sort_keys=True)
        players = f"; players: {case['players']}" if "players" in case else ""
        out.append(_field("ruleset", f"<code>{esc(shown)}</code>{esc(players)}"))
    if case.get("message"):
        out.append(_field("message", f"<pre>{esc(case['message'])}</pre>"))
    if case.get("step") is not None:
        out.append(_field("step", f"<pre>{esc(step_text(case['step']))}</pre>"))
    if "expected" in case:
        out.append(_field("expected", f"<pre>{esc(pretty(case['expected']))}</pre>"))
        out.append(_field("actual", f"<pre>{esc(pretty(case.get('actual')))}</pre>"))
    if case.get("details"):
        out.append(_field("details", f"<pre>{esc(case['details'])}</pre>"))
    diagnostics = case.get("diagnostics") if isinstance(case.get("diagnostics"), dict) else {}
    for key in ("engine", "request", "received", "partial", "exit_status", "elapsed", "traceback"):
        if diagnostics.get(key) not in (None, ""):
            value = diagnostics[key]
            text = value if isinstance(value, str) else pretty(value, 4000)
            out.append(_field(f"engine diagnostics: {key}", f"<pre>{esc(text)}</pre>"))
    if diagnostics.get("stderr_tail"):
        out.append(_field("engine stderr (tail)", f"<pre>{esc(diagnostics['stderr_tail'])}</pre>"))
    for key, name in (("state_before", "state before the step"), ("start_state", "starting state")):
        if case.get(key) is not None:
            state = pretty(short_state(case[key]))
            out.append(
                _field(name, f"<details><summary>show</summary><pre>{esc(state)}</pre></details>")
            )
    if case.get("signature"):
        out.append(
            _field(
                "signature (for expected-failure lists)", f"<code>{esc(case['signature'])}</code>"
            )
        )
    out.append("</dl></details>")
    return "".join(out)


def _unsupported_section(reports: Sequence[LoadedReport], labels: Sequence[str]) -> str:
    out = [
        "<h2 id='unsupported'>What did not run, and what would unlock it</h2>",
        (
            "<p class='small'>A case runs when the engine's claims decide its verdict; an "
            "unsupported case names the claims it waits for. Each row counts the cases blocked "
            "by exactly those claims.</p>"
        ),
    ]
    for report, label in zip(reports, labels, strict=True):
        executed, selected, ranked = unlocks(report)
        share = f" ({100 * executed // selected}%)" if selected else ""
        out.append(f"<h3>{esc(label)}: ran {executed} of {selected} cases{share}</h3>")
        if not ranked:
            out.append("<p>Every case ran, or none names a blocker.</p>")
            continue
        rows = [[esc(" and ".join(item["claims"])), str(item["cases"])] for item in ranked]
        out.append(_table(["claim", "cases it would unlock"], rows))
    return "".join(out)


def _causes_section(
    reports: Sequence[LoadedReport], labels: Sequence[str], anchors: _Anchors
) -> str:
    """The failing cases of each engine grouped by root cause (:mod:`conformance.reports.causes`),
    biggest first, each case linked to its failure block: one bug reads as one line."""
    out = ["<h2 id='causes'>Root causes</h2>"]
    for column, (report, label) in enumerate(zip(reports, labels, strict=True)):
        found = groups(failing_cases(report))
        out.append(f"<h3>{esc(label)}: {len(found)} cause(s)</h3>")
        if not found:
            out.append("<p>None.</p>")
            continue
        rows = []
        for group in found:
            links = ", ".join(
                f'<a href="#{anchors.ids[(column, case)]}">{esc(case)}</a>'
                if (column, case) in anchors.ids
                else esc(case)
                for case in group.cases[:12]
            )
            more = f" and {len(group.cases) - 12} more" if len(group.cases) > 12 else ""
            rows.append(
                [
                    str(len(group.cases)),
                    esc(group.cause.text),
                    esc(", ".join(group.cause.rules)),
                    links + more,
                ]
            )
        out.append(_table(["cases", "cause", "rules", "which"], rows, "causes"))
    return "".join(out)


def _failures_section(
    reports: Sequence[LoadedReport], labels: Sequence[str], anchors: _Anchors
) -> str:
    out = ["<h2 id='failures'>Failing cases</h2>"]
    for column, (report, label) in enumerate(zip(reports, labels, strict=True)):
        failing = failing_cases(report)
        out.append(f"<h3>{esc(label)}: {len(failing)} failing</h3>")
        if not failing:
            out.append("<p>None.</p>")
        out += [failure_html(case, anchors.ids.get((column, case["id"]))) for case in failing]
    return "".join(out)


def render_html(
    reports: Sequence[LoadedReport], rule_titles: Mapping[str, str] | None = None
) -> str:
    """The whole page for one or more reports (one column each, in the order given).
    ``rule_titles`` (``{rule ID: title}`` in spec order) names and orders the rules."""
    if not reports:
        raise ValueError("render_html needs at least one report")
    rule_titles = rule_titles or {}
    labels = column_labels(reports)
    anchors = _Anchors(reports)
    title = "Durak conformance: " + " vs ".join(labels)
    nav = (
        "<p><a href='#engines'>Engines</a> · <a href='#areas'>By rule area</a> · "
        "<a href='#options'>By option value</a> · <a href='#rules'>Rules</a> · "
        + ("<a href='#differences'>Differences</a> · " if len(reports) > 1 else "")
        + "<a href='#unsupported'>Unsupported</a> · <a href='#causes'>Root causes</a> · "
        "<a href='#failures'>Failing cases</a></p>"
    )
    legend = (
        "<p class='small'>Cells: passed/run, where run counts passed, expected failures "
        "(xfailed) and failing outcomes (failed, error, broken, xpassed, mismatch). Unsupported "
        "(outside the engine's hello claim) and not run cases are named beside the count. "
        "<span class='o ok'>all passed</span> <span class='o xfail'>expected failures only</span> "
        "<span class='o fail'>a failing case</span> <span class='o none'>nothing ran</span></p>"
    )
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        nav,
        legend,
        _engines_section(reports, labels),
        _matrix_section(
            "By rule area", "areas", reports, labels, area_of, natural_key, "rule area"
        ),
        _matrix_section(
            "By option value (options the cases discriminate)",
            "options",
            reports,
            labels,
            option_values_of,
            natural_key,
            "option=value",
        ),
        _rules_section(reports, labels, rule_titles, anchors),
        _differences_section(reports, labels, anchors),
        _unsupported_section(reports, labels),
        _causes_section(reports, labels, anchors),
        _failures_section(reports, labels, anchors),
        "</body></html>\n",
    ]
    return "\n".join(parts)
