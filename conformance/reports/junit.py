"""The run as JUnit XML that the strict JUnit schema accepts, for CI servers.

pytest's own ``--junitxml`` puts a case's rule IDs in ``<properties>`` inside ``<testcase>``,
which the strict schema (the one Jenkins' xUnit plugin validates against) refuses, and knows
neither a scenario's rules nor the engine. This writer builds the file from the same report
records as the JSON report, for every form of case: one ``<testsuite>`` named after the engine,
its properties (engine name and version, the command) at suite level where the schema allows
them, one ``<testcase>`` per case (``classname`` ``durak.<kind>.<area>``, ``name`` the case ID),
a ``<failure>`` or ``<error>`` holding the failure block, a ``<skipped>`` saying why a case did
not run, and the rules, location and root cause in the case's ``<system-out>``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from conformance.reports.report import failure_text

#: The report outcomes, as the schema's children of ``<testcase>``.
FAILURE = ("failed", "mismatch", "xpassed")
ERROR = ("error", "broken")
SKIPPED = ("unsupported", "not_run", "xfailed", "skipped")


def junit_tree(records: list[dict[str, Any]], engine: dict[str, Any] | None, command: str) -> Any:
    """The ``<testsuites>`` element of ``records`` (final report records, in run order)."""
    suite = ET.Element("testsuite", name=f"durak-conformance: {_engine_name(engine, command)}")
    counts = {"tests": len(records), "failures": 0, "errors": 0, "skipped": 0}
    properties = ET.SubElement(suite, "properties")
    for name, value in _engine_properties(engine, command):
        ET.SubElement(properties, "property", name=name, value=value)
    total = 0.0
    for record in records:
        case = _testcase(record)
        outcome = record.get("outcome")
        counts["failures"] += outcome in FAILURE
        counts["errors"] += outcome in ERROR
        counts["skipped"] += outcome in SKIPPED
        total += float(record.get("duration") or 0.0)
        suite.append(case)
    for name, value in counts.items():
        suite.set(name, str(value))
    suite.set("time", f"{total:.3f}")
    root = ET.Element("testsuites")
    root.append(suite)
    return root


def write_junit(path: Path | str, records: list[dict[str, Any]], engine: Any, command: str) -> None:
    tree = ET.ElementTree(junit_tree(records, engine, command))
    ET.indent(tree)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tree.write(target, encoding="utf-8", xml_declaration=True)


def _testcase(record: dict[str, Any]) -> Any:
    kind, area = record.get("kind") or "case", record.get("area") or "?"
    case = ET.Element(
        "testcase",
        name=_text(record.get("id")),
        classname=f"durak.{kind}.{area}",
        time=f"{float(record.get('duration') or 0.0):.3f}",
    )
    outcome = record.get("outcome")
    message = _text(record.get("message") or outcome)
    if outcome in FAILURE or outcome in ERROR:
        tag = "failure" if outcome in FAILURE else "error"
        child = ET.SubElement(case, tag, message=message[:500], type=_text(outcome))
        child.text = _text(failure_text(record)) if record.get("id") else message
    elif outcome in SKIPPED:
        ET.SubElement(case, "skipped", message=f"{outcome}: {message}"[:500])
    about = [f"rules: {', '.join(record.get('rules') or []) or '-'}"]
    about.append(f"location: {record.get('location', '?')}")
    cause = record.get("cause")
    if isinstance(cause, dict) and cause.get("text"):
        about.append(f"cause: {cause['text']}")
    ET.SubElement(case, "system-out").text = _text("\n".join(about))
    return case


def _engine_name(engine: dict[str, Any] | None, command: str) -> str:
    named = (engine or {}).get("engine") if isinstance(engine, dict) else None
    if isinstance(named, dict) and named.get("name"):
        return _text(f"{named.get('name')} {named.get('version', '')}".strip())
    return _text(command)


def _engine_properties(engine: dict[str, Any] | None, command: str) -> list[tuple[str, str]]:
    named = (engine or {}).get("engine") if isinstance(engine, dict) else None
    out = [("engine.command", _text(command))]
    if isinstance(named, dict):
        out += [(f"engine.{k}", _text(named[k])) for k in ("name", "version") if named.get(k)]
    return out


def _text(value: Any) -> str:
    """Text XML 1.0 can carry: the control characters it forbids (an engine's name or message may
    hold any) shown escaped, and a lone surrogate replaced."""
    text = str(value)
    text = text.encode("utf-8", "replace").decode("utf-8")
    return "".join(
        ch
        if ch in "\t\n\r"
        or 0x20 <= ord(ch) < 0xD800
        or 0xE000 <= ord(ch) <= 0xFFFD
        or ord(ch) >= 0x10000
        else f"\\x{ord(ch):02x}"
        for ch in text
    )
