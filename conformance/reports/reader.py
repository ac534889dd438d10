"""A JSON Lines run report read back strictly, for tools that render or compare reports.

:func:`conformance.reports.report.read_report` is the lenient reader the project's tests use. Rendering
several reports side by side (``durak-conformance report``) needs more: a file that is not a
report, is cut off mid-line, or holds two runs must be rejected with its file and line and a hint
what to do, before anything is drawn from half of it. A report without its ``summary`` line is
accepted (the runner writes and flushes case by case precisely so that an interrupted run keeps
what it finished) and marked incomplete; counts are always taken from the case lines.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.contract.bounded_json import TooDeep, loads
from conformance.reports.report import FINAL_OUTCOMES

_KINDS = ("header", "engine", "case", "summary")
_JSON_TYPES = {list: "array", str: "string", int: "number", float: "number", bool: "boolean"}
_JSON_TYPES[type(None)] = "null"
_RERUN = "Write it again with `durak-conformance run --json PATH`"


class ReportFileError(ValueError):
    """A report file that cannot be used, with where (file and line) and what to do."""

    def __init__(self, path: Path | str, line: int | None, problem: str):
        self.path = str(path)
        self.line = line
        self.problem = problem
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {problem}")


@dataclass
class LoadedReport:
    """One run: the file it came from, its header, the engine's ``hello`` (None when the engine
    never answered), the case records in file order, and the summary (None: interrupted run)."""

    path: Path
    header: dict[str, Any]
    engine: dict[str, Any] | None
    cases: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] | None = None

    @property
    def complete(self) -> bool:
        return self.summary is not None


def _check_case(path: Path, number: int, record: dict[str, Any]) -> None:
    def bad(problem: str) -> ReportFileError:
        return ReportFileError(path, number, f"case line: {problem}")

    if not isinstance(record.get("id"), str) or not record["id"]:
        raise bad("'id' must be a non-empty string")
    outcome = record.get("outcome")
    if outcome not in FINAL_OUTCOMES:
        raise bad(
            f"case {record['id']!r}: 'outcome' is {outcome!r}, not one of {', '.join(FINAL_OUTCOMES)}"
        )
    rules = record.get("rules", [])
    if not isinstance(rules, list) or not all(isinstance(rule, str) for rule in rules):
        raise bad(f"case {record['id']!r}: 'rules' must be a list of rule IDs")
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise bad(f"case {record['id']!r}: 'options' must be an object of option values")
    if record.get("area") is not None and not isinstance(record["area"], str):
        raise bad(f"case {record['id']!r}: 'area' must be a string")


def load_report(path: Path | str) -> LoadedReport:
    """Read and check one report; :class:`ReportFileError` names the file and line of a fault."""
    path = Path(path)
    text = _read_text(path)
    lines = text.split("\n")
    found: dict[str, Any] = {}
    seen_at: dict[str, int] = {}
    cases: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        record = _parse_line(path, number, lines, text)
        kind = record.pop("type", None)
        _check_place(path, number, kind, seen_at)
        seen_at.setdefault(kind, number)
        if kind == "case":
            _check_case(path, number, record)
            cases.append(record)
        else:
            found[kind] = record
    if "header" not in found:
        raise ReportFileError(path, 1, f"empty: no header line. {_RERUN}")
    engine = found.get("engine")
    if engine is not None and not isinstance(engine.get("engine", {}), dict):
        raise ReportFileError(path, seen_at["engine"], "engine line: 'engine' must be an object")
    return LoadedReport(path, found["header"], engine, cases, found.get("summary"))


def _read_text(path: Path) -> str:
    """The file's text; a missing file, a directory, bytes that are not UTF-8 or a read error
    are a :class:`ReportFileError`."""
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise ReportFileError(path, None, "no such file") from None
    except IsADirectoryError:
        raise ReportFileError(path, None, "a directory, not a report file") from None
    except UnicodeDecodeError as exc:
        line = text_line_of_byte(path, exc.start)
        raise ReportFileError(
            path, line, f"not UTF-8 text; is this a JSON Lines report? {_RERUN}"
        ) from None
    except OSError as exc:
        raise ReportFileError(path, None, f"cannot be read: {exc.strerror or exc}") from None


def _parse_line(path: Path, number: int, lines: list[str], text: str) -> dict[str, Any]:
    """Line ``number`` as a JSON object; a line cut off by an interrupted run is said so."""
    try:
        record = loads(lines[number - 1], constants=True)
    except TooDeep as exc:
        raise ReportFileError(path, number, f"{exc}; a report line is not nested so deep") from None
    except json.JSONDecodeError as exc:
        last = all(not rest.strip() for rest in lines[number:])
        cut = (
            " The line is cut off: the run was interrupted while writing it or the file "
            "was truncated."
            if last and not text.endswith("\n")
            else ""
        )
        raise ReportFileError(
            path, number, f"not JSON ({exc.msg}, column {exc.colno}).{cut} {_RERUN}"
        ) from None
    if not isinstance(record, dict):
        raise ReportFileError(
            path,
            number,
            f"a JSON {_JSON_TYPES.get(type(record), 'value')}, not a report line (an object)",
        )
    return record


def _check_place(path: Path, number: int, kind: Any, seen_at: dict[str, int]) -> None:
    """A line's type is known and in its place: the header first, one line of each kind but
    cases, nothing after the summary."""
    if kind not in _KINDS:
        raise ReportFileError(
            path,
            number,
            f"line type {kind!r}; a report line's 'type' is one of {', '.join(_KINDS)}",
        )
    if not seen_at and kind != "header":
        raise ReportFileError(
            path,
            number,
            f"the first line has type {kind!r}, not 'header': is this a "
            f"report written by `durak-conformance run --json`? {_RERUN}",
        )
    if kind in seen_at and kind != "case":
        raise ReportFileError(
            path,
            number,
            f"a second line of type {kind!r} (the first is line {seen_at[kind]}): two "
            "runs in one file? Give each report as its own file",
        )
    if "summary" in seen_at and kind != "summary":
        raise ReportFileError(
            path,
            number,
            f"a line of type {kind!r} after the summary (line {seen_at['summary']})",
        )


def text_line_of_byte(path: Path, offset: int) -> int:
    """The 1-based line holding byte ``offset`` of the file."""
    return path.read_bytes()[:offset].count(b"\n") + 1
