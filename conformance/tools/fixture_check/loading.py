"""Reading fixture files for the checks: YAML with the line of every mapping, so that each
problem names the line to fix, and the fixture schema's own verdict on each file.

The runner's loader (:mod:`conformance.suite.loader`) builds cases to run; this reads the raw
mappings, because a broken case must still be read far enough to say everything wrong with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from conformance.contract.cards import CARD_RE
from conformance.contract.schemas import validator
from conformance.suite import FIXTURES_DIR
from conformance.tools.fixture_check.register import ROOT

#: the key each loaded mapping gets for its line (1-based)
LINE = "__line__"


@dataclass
class Problem:
    """One thing wrong with a case: where (file, line, case id) and what."""

    path: Path
    line: int
    case: str
    message: str

    def __str__(self) -> str:
        try:
            rel = self.path.relative_to(ROOT)
        except ValueError:
            rel = self.path
        return f"{rel}:{self.line}: [{self.case}] {self.message}"


class Loader(yaml.SafeLoader):
    """Safe loader that records the line of every mapping (for error messages)."""


def _construct_mapping(loader: Loader, node: yaml.MappingNode) -> dict:
    mapping = yaml.SafeLoader.construct_mapping(loader, node, deep=True)
    mapping[LINE] = node.start_mark.line + 1
    return mapping


Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def line_of(node: Any) -> int:
    """The line a loaded mapping starts on, 0 when unknown."""
    return node.get(LINE, 0) if isinstance(node, dict) else 0


class Reporter:
    """Collects the problems of one case instead of stopping at the first; each names the line of
    the mapping it is about (or the case's own line)."""

    def __init__(self, path: Path, case: Any) -> None:
        self.path, self.case = path, case
        self.problems: list[Problem] = []
        self.cid = str(case.get("id", "?")) if isinstance(case, dict) else "?"

    def err(self, node: Any, message: str) -> None:
        line = line_of(node) or line_of(self.case)
        self.problems.append(Problem(self.path, line, self.cid, message))

    def cards(self, node: Any, cards: Any, where: str, deck: list[str]) -> list[str]:
        """The cards of ``cards`` that are cards of ``deck``; each other entry is a problem."""
        if not isinstance(cards, list):
            self.err(node, f"{where} must be a list of cards")
            return []
        out = []
        for c in cards:
            if not isinstance(c, str) or not CARD_RE.match(c):
                self.err(node, f"{where}: {c!r} is not a card (rank 2-9TJQKA, suit CDHS, copy '2')")
            elif c not in deck:
                self.err(node, f"{where}: {c} is not in this ruleset's deck")
            else:
                out.append(c)
        return out


def strip_lines(obj: Any) -> Any:
    """``obj`` without the line marks, as the runner would read it."""
    if isinstance(obj, dict):
        return {k: strip_lines(v) for k, v in obj.items() if k != LINE}
    if isinstance(obj, list):
        return [strip_lines(v) for v in obj]
    return obj


def load_cases(path: Path) -> list[dict]:
    """The cases of one fixture file (with line marks)."""
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)
    if isinstance(data, dict) and "cases" in data:
        cases = data["cases"]
        if not isinstance(cases, list):
            raise ValueError(f"{path}: 'cases' must be a list")
        return cases
    if isinstance(data, dict):
        return [data]
    raise ValueError(f"{path}: a fixture file holds one case (a mapping) or 'cases:' (a list)")


def fixture_files(paths: list[Path] | None = None) -> list[Path]:
    """The YAML files under ``paths`` (default: the packaged fixtures)."""
    if not paths:
        paths = [FIXTURES_DIR]
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out += sorted(p.rglob("*.yaml")) + sorted(p.rglob("*.yml"))
        else:
            out.append(p)
    return out


def schema_problems(path: Path) -> list[Problem]:
    """Problems found by spec/schema/fixture.schema.json."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    out = []
    errors = validator("fixture").iter_errors(data)
    for e in sorted(errors, key=lambda e: list(e.absolute_path)):
        pointer = "/" + "/".join(str(x) for x in e.absolute_path)
        out.append(Problem(path, 0, "-", f"schema: at {pointer}: {e.message[:300]}"))
    return out
