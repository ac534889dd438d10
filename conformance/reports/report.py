"""Reports of a run: the machine-readable JSON Lines file, the tallies, the failure text.

The JSON report is JSON Lines, written and flushed line by line, so an interrupted run keeps every
case it finished (Bowtie's report stream does the same). Lines, each an object with a ``type``:

- ``header``: ``suite`` (name, version), ``runner`` (python, pytest), ``engine`` (the command);
- ``engine``: the engine's identity and claims from ``hello`` (once it is known);
- ``case``: one per case or scenario: ``id``, ``kind`` (``fixture``/``scenario``), ``nodeid``,
  ``location``, ``rules``, ``area``, ``options``, ``outcome`` and, when it did not pass,
  ``message``, ``signature``, ``step``, ``expected``, ``actual``, ``start_state``,
  ``state_before``, ``diagnostics`` (a failing Gherkin scenario: ``details``, its failure text);
- ``summary``: the tallies (``totals``, ``areas``, ``options``), written at the end.

:func:`read_report` reads such a file back into one dict.
"""

from __future__ import annotations

import json
import platform
from collections import Counter, defaultdict
from pathlib import Path
from typing import IO, Any

from conformance.contract.bounded_json import loads
from conformance.reports.printable import printable, printable_line

#: Final outcomes after the expected-failure list is applied, in report order.
FINAL_OUTCOMES = (
    "passed",
    "failed",
    "error",
    "broken",
    "xfailed",
    "xpassed",
    "mismatch",
    "unsupported",
    "not_run",
    "skipped",
)
#: The kinds of report line, in the order a report holds them.
LINE_TYPES = ("header", "engine", "case", "summary")
#: The outcomes that make a run fail (exit status 1).
FAILING = ("failed", "error", "broken", "xpassed", "mismatch")


def suite_version() -> str:
    try:
        from importlib.metadata import version

        return version("durak-conformance")
    except Exception:  # noqa: BLE001 - not installed: a checkout run without metadata
        return "unknown"


class JsonReport:
    """An incrementally written JSON Lines report."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] | None = self.path.open("w", encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        if self._file is None:
            return
        self._file.write(json.dumps(record, sort_keys=True, default=repr) + "\n")
        self._file.flush()

    def header(self, engine: str, selection: dict[str, Any]) -> None:
        import pytest

        self.write(
            {
                "type": "header",
                "suite": {"name": "durak-conformance", "version": suite_version()},
                "runner": {"python": platform.python_version(), "pytest": pytest.__version__},
                "engine": engine,
                "selection": selection,
            }
        )

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def read_report(path: Path | str) -> dict[str, Any]:
    """A JSON Lines report as ``{"header", "engine", "cases": [...], "summary"}``.

    Each line is checked against the report schema (``spec/schema/report.schema.json``); a line
    that breaks it, is not JSON or is nested too deep is a
    :class:`~conformance.reports.reader.ReportFileError` (a ValueError) naming the file and line.
    Unlike :func:`conformance.reports.reader.load_report` the order of the lines is not checked.
    """
    from conformance.reports.reader import ReportFileError, line_problem

    out: dict[str, Any] = {"header": None, "engine": None, "cases": [], "summary": None}
    with Path(path).open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = loads(line, constants=True)
            except ValueError as exc:  # not JSON, or too deep (with what to do)
                raise ReportFileError(path, number, f"not a report line: {exc}") from None
            kind = record.get("type") if isinstance(record, dict) else None
            if kind not in LINE_TYPES:
                raise ReportFileError(
                    path,
                    number,
                    f"line type {kind!r}; a report line's 'type' is one of {', '.join(LINE_TYPES)}",
                )
            problem = line_problem(kind, record)
            if problem is not None:
                raise ReportFileError(path, number, problem)
            del record["type"]
            if kind == "case":
                out["cases"].append(record)
            else:
                out[kind] = record
    return out


class Tally:
    """Counts of final outcomes overall, per rule area and per option value."""

    def __init__(self) -> None:
        self.totals: Counter[str] = Counter()
        self.areas: dict[str, Counter[str]] = defaultdict(Counter)
        self.options: dict[str, Counter[str]] = defaultdict(Counter)
        #: the claims that block each unsupported case -> how many cases they block
        self.blocked: Counter[tuple[str, ...]] = Counter()

    def add(self, record: dict[str, Any]) -> None:
        outcome = record["outcome"]
        self.totals[outcome] += 1
        self.areas[record.get("area") or "?"][outcome] += 1
        for option, value in sorted((record.get("options") or {}).items()):
            self.options[f"{option}={value}"][outcome] += 1
        if outcome == "unsupported" and record.get("blockers"):
            self.blocked[tuple(sorted(record["blockers"]))] += 1

    def unlocks(self, limit: int = 10) -> list[dict[str, Any]]:
        """The claims that would unlock the most unsupported cases: ``{"claims", "cases"}``,
        most cases first. A set of claims counts the cases blocked by exactly those claims."""
        ranked = sorted(self.blocked.items(), key=lambda item: (-item[1], len(item[0]), item[0]))
        return [{"claims": list(claims), "cases": n} for claims, n in ranked[:limit]]

    @property
    def executed(self) -> int:
        """Cases sent to the engine and judged (passed, failed or faulted, expected or not)."""
        ran = ("passed", "xfailed", *FAILING)
        return sum(self.totals[outcome] for outcome in ran)

    @property
    def selected(self) -> int:
        return sum(self.totals.values())

    def as_json(self) -> dict[str, Any]:
        return {
            "totals": dict(self.totals),
            "areas": {key: dict(value) for key, value in sorted(self.areas.items())},
            "options": {key: dict(value) for key, value in sorted(self.options.items())},
            "executed": self.executed,
            "selected": self.selected,
            "unlocks": self.unlocks(),
        }

    @property
    def failing(self) -> int:
        return sum(self.totals[outcome] for outcome in FAILING)


def _row(name: str, counts: Counter[str]) -> str:
    passed = counts["passed"] + counts["xfailed"]
    bad = sum(counts[o] for o in FAILING)
    other = counts["unsupported"] + counts["not_run"] + counts["skipped"]
    extra = []
    if counts["xfailed"]:
        extra.append(f"{counts['xfailed']} xfailed")
    if counts["unsupported"]:
        extra.append(f"{counts['unsupported']} unsupported")
    if counts["not_run"]:
        extra.append(f"{counts['not_run']} not run")
    run = passed + bad
    mark = "ok  " if bad == 0 and run else ("FAIL" if bad else "--  ")
    tail = f"  ({', '.join(extra)})" if extra else ""
    return f"  {mark} {name:<34} {passed:>4}/{run:<4} pass{tail}" if run or other else ""


def summary_lines(tally: Tally, engine: dict[str, Any] | None, command: str) -> list[str]:
    """The terminal summary: engine, totals, then per rule area and per option value."""
    lines = []
    if engine:
        ident = engine.get("engine", {}) if isinstance(engine.get("engine"), dict) else {}
        name = f"{ident.get('name', '?')} {ident.get('version', '')}".strip()
        lines.append(f"engine: {printable_line(name)}  [{printable_line(command)}]")
    totals = tally.totals
    parts = [f"{totals[o]} {o.replace('_', ' ')}" for o in FINAL_OUTCOMES if totals[o]]
    lines.append("cases: " + (", ".join(parts) or "none"))
    if tally.selected:
        share = 100 * tally.executed / tally.selected
        lines.append(f"ran {tally.executed} of {tally.selected} selected cases ({share:.0f}%)")
    unlocks = tally.unlocks(limit=8)
    if unlocks:
        lines.append("claims that would unlock the most unsupported cases:")
        lines += [
            f"  claim {' and '.join(item['claims'])}: +{item['cases']} cases" for item in unlocks
        ]
    if tally.areas:
        lines.append("by rule area:")
        lines += [row for key in sorted(tally.areas) if (row := _row(key, tally.areas[key]))]
    if tally.options:
        lines.append("by option value (options the cases discriminate):")
        lines += [row for key in sorted(tally.options) if (row := _row(key, tally.options[key]))]
    return lines


def _compact(value: Any, limit: int = 4000) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def _short(state: Any) -> Any:
    """A state with its ruleset's options elided (they are printed once, above)."""
    if isinstance(state, dict) and isinstance(state.get("ruleset"), dict):
        ruleset = state["ruleset"]
        return {**state, "ruleset": {"name": ruleset.get("name"), "options": "(as resolved above)"}}
    return state


def failure_text(record: dict[str, Any]) -> str:
    """What a failing case shows: case, rules, ruleset, step, expected, actual, states, engine
    diagnostics (stderr tail and what was received)."""
    lines = [f"case {record['id']}  ({record.get('location', '?')})"]
    lines.append(f"rules: {', '.join(record.get('rules') or []) or '-'}")
    ruleset = record.get("ruleset")
    if ruleset:
        asked = record.get("ruleset_request")
        shown = _compact(asked) if asked is not None else _compact(ruleset)
        lines.append(f"ruleset: {shown}; players: {record.get('players')}")
        if isinstance(ruleset, dict) and asked is not None:
            lines.append(f"resolved options: {_compact(ruleset.get('options'))}")
    lines.append(f"{record['outcome']}: {record.get('message', '')}")
    step = record.get("step")
    if step:
        shown = {k: v for k, v in step.items() if k not in ("index", "line")}
        lines.append(f"step {step['index']} (line {step['line']}): {_compact(shown)}")
    if "expected" in record:
        lines.append(f"expected: {_compact(record['expected'])}")
        lines.append(f"actual:   {_compact(record.get('actual'))}")
    if record.get("state_before") is not None:
        lines.append(f"state before the step: {_compact(_short(record['state_before']))}")
    if record.get("start_state") is not None:
        lines.append(f"starting state: {_compact(_short(record['start_state']))}")
    diagnostics = record.get("diagnostics") or {}
    for key in ("engine", "request", "received", "partial", "exit_status", "traceback"):
        if key in diagnostics and diagnostics[key] not in (None, ""):
            lines.append(f"{key}: {_compact(diagnostics[key], 1000)}")
    if diagnostics.get("stderr_tail"):
        lines.append("engine stderr (tail):")
        lines += ["  | " + line for line in diagnostics["stderr_tail"].rstrip().splitlines()[-20:]]
    if record.get("signature"):
        lines.append(f"signature (for expected-failure lists): {record['signature']}")
    return printable("\n".join(lines))  # messages and stderr are the engine's own text
