"""Routes in the fixture files: ``reached_by`` written as text, next to the case it serves.

The fixtures are hand-written YAML with comments and a layout people read, so a route is never
written by dumping the file again: its text is inserted just before the case's ``steps:`` (or
replaces the ``reached_by:`` block already there), in the flow style the fixtures use, and
nothing else in the file changes. Line numbers come from the loader that reads the fixtures
(``reference_impl.specdata.load_yaml``), so the place is the one the runner reports.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reference_impl.specdata import line_of, load_yaml

#: Keys of a move in the order the fixtures write them.
MOVE_KEYS = ("player", "action", "target", "card", "cards")
WIDTH = 100


def flow(value: Any) -> str:
    """A value in the fixtures' YAML flow style: ``{player: 0, action: attack, cards: [9C]}``."""
    if isinstance(value, dict):
        keys = [k for k in MOVE_KEYS if k in value] + [k for k in value if k not in MOVE_KEYS]
        return "{" + ", ".join(f"{k}: {flow(value[k])}" for k in keys) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def wrapped(prefix: str, items: list[str], width: int = WIDTH) -> list[str]:
    """``prefix[a, b, ...]`` wrapped at ``width``, continued lines aligned after the bracket."""
    lines: list[str] = []
    current = prefix + "["
    indent = " " * len(current)
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "]")
        fresh = current.endswith("[") or current == indent
        candidate = current + ("" if fresh else " ") + piece
        if len(candidate) > width and not fresh:
            lines.append(current)
            current = indent + piece
        else:
            current = candidate
    if not items:
        current += "]"
    lines.append(current)
    return lines


def route_lines(route: dict[str, Any], indent: str) -> list[str]:
    """The ``reached_by:`` block of a case whose keys sit at ``indent``."""
    inner = indent + "  "
    lines = [f"{indent}reached_by:", f"{inner}dealer: {route['dealer']}"]
    lines += wrapped(f"{inner}deck: ", list(route["deck"]))
    if route["moves"]:
        lines.append(f"{inner}moves:")
        lines += [f"{inner}  - {flow(m)}" for m in route["moves"]]
    else:
        lines.append(f"{inner}moves: []")
    return lines


def case_paths(document: Any) -> list[list[Any]]:
    """The pointer of each case of a loaded fixture file ([] for a file that is one case)."""
    if isinstance(document, dict) and "cases" in document:
        return [["cases", i] for i in range(len(document["cases"]))]
    return [[]]


def write_routes(path: Path, routes: dict[str, dict[str, Any] | None]) -> bool:
    """Put ``routes`` (case id -> route, or None to remove one) into the file; whether the text
    changed. Cases not named keep their text."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    document = load_yaml(path)
    edits: list[tuple[int, int, list[str]]] = []  # (first line, end line, new lines), 0-based
    for where in case_paths(document):
        case = document
        for part in where:
            case = case[part]
        if not isinstance(case, dict) or case.get("id") not in routes or "steps" not in case:
            continue
        steps = line_of(document, where + ["steps"]) - 1
        indent = lines[steps][: len(lines[steps]) - len(lines[steps].lstrip())]
        first = steps
        if "reached_by" in case:
            first = line_of(document, where + ["reached_by"]) - 1
            end = _block_end(lines, first, indent)
        else:
            end = first
        route = routes[case["id"]]
        new = route_lines(route, indent) if route is not None else []
        edits.append((first, end, new))
    for first, end, new in sorted(edits, reverse=True):
        lines[first:end] = new
    changed = "\n".join(lines)
    if changed != text:
        path.write_text(changed, encoding="utf-8")
        return True
    return False


def _block_end(lines: list[str], first: int, indent: str) -> int:
    """The line after a mapping entry that starts at ``first`` with keys at ``indent``."""
    end = first + 1
    while end < len(lines):
        line = lines[end]
        if line.strip() and len(line) - len(line.lstrip()) <= len(indent):
            break
        end += 1
    return end
