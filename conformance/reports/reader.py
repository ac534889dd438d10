"""A JSON Lines run report read back strictly, for tools that render or compare reports.

:func:`conformance.reports.report.read_report` is the lenient reader the project's tests use. Rendering
several reports side by side (``durak-conformance report``) needs more: a file that is not a
report, is cut off mid-line, or holds two runs must be rejected with its file and line and a hint
what to do, before anything is drawn from half of it. A report without its ``summary`` line is
accepted (the runner writes and flushes case by case precisely so that an interrupted run keeps
what it finished) and marked incomplete; counts are always taken from the case lines.

What each line may hold is the published report schema, ``spec/schema/report.schema.json``; this
reader checks every line against it and adds what one line cannot say: the header comes first,
one line of each kind but cases, nothing after the summary.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from conformance.contract.bounded_json import TooDeep, loads
from conformance.reports.report import LINE_TYPES as _KINDS

_JSON_TYPES = {list: "array", str: "string", int: "number", float: "number", bool: "boolean"}
_JSON_TYPES[type(None)] = "null"
_JSON_TYPES[dict] = "object"
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


#: where the report's lines are defined, said in every message about a line that breaks it
SCHEMA_FILE = "spec/schema/report.schema.json"
_JSON_TYPE_NAMES = {"object": "an object", "array": "an array", "integer": "an integer"}


@cache
def _line_validator(kind: str) -> Any:
    """The validator of one kind of line: the report schema's validator moved to ``$defs/kind``,
    keeping its resolver, so ``#/$defs/...`` references resolve in the whole schema. Half the
    cost per line of a ``{"$ref": ...}`` wrapper, which resolves the reference on every line."""
    from conformance.contract.schemas import document, validator

    return validator("report").evolve(schema=document("report")["$defs"][kind])


def line_problem(kind: str, record: dict[str, Any]) -> str | None:
    """What is wrong with a report line of type ``kind`` (its ``type`` included) under the
    report schema, said for a person: the field, its value and what it should be; None when
    the line is valid. One problem, the most telling one, even when there are several."""
    from jsonschema.exceptions import best_match

    error = best_match(_line_validator(kind).iter_errors(record))
    if error is None:
        return None
    path = list(error.absolute_path)
    field = (
        f"{path[0]!r}" if len(path) == 1 else "/" + "/".join(map(str, path)) if path else "the line"
    )
    expected, value = error.validator_value, error.instance
    if "propertyNames" in error.absolute_schema_path:  # the key is wrong, not its value
        field = f"a key of {field}" if path else "a key"
    if error.validator == "enum":
        what = f"{field} is {value!r}, not one of {', '.join(map(str, expected))}"
    elif error.validator == "type":
        wanted = expected if isinstance(expected, list) else [expected]
        names = " or ".join(_JSON_TYPE_NAMES.get(t, f"a {t}") for t in wanted)
        what = f"{field} must be {names}, not a JSON {_JSON_TYPES.get(type(value), 'value')}"
    elif error.validator == "required":
        missing = next((name for name in expected if name not in value), "?")
        where = f" of {field}" if path else ""
        what = f"no {missing!r}{where}: the line must have it"
    elif error.validator == "minLength" and value == "":
        what = f"{field} must not be empty"
    else:
        what = f"{field}: {error.message}"
    ident = record.get("id") if kind == "case" else None
    named = f"case {ident!r}: " if isinstance(ident, str) and ident else ""
    return f"{kind} line: {named}{what} ({SCHEMA_FILE}, $defs/{kind})"


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
        kind = record.get("type")
        _check_place(path, number, kind, seen_at)
        problem = line_problem(kind, record)
        if problem is not None:
            raise ReportFileError(path, number, problem)
        del record["type"]
        seen_at.setdefault(kind, number)
        if kind == "case":
            cases.append(record)
        else:
            found[kind] = record
    if "header" not in found:
        raise ReportFileError(path, 1, f"empty: no header line. {_RERUN}")
    return LoadedReport(path, found["header"], found.get("engine"), cases, found.get("summary"))


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
