"""The smoke list: the cases ``durak-conformance run --smoke`` runs, read from ``smoke.yaml``.

A new engine's author wants a first verdict in a minute, from cases whose failures point at what to
get right first (the deal, the opening, a beat, a take, the end, a refusal, a game of each main
preset), not the whole suite. The list is data, one case ID and the reason it is there per entry,
so changing it is editing a YAML file; ``tests/runner/test_smoke_selection.py`` checks that every
ID names a case of the suite.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

SMOKE_FILE = Path(__file__).with_name("smoke.yaml")


class SmokeListError(ValueError):
    """The smoke list cannot be read: which file, which entry, what to write."""


@dataclass(frozen=True)
class SmokeCase:
    id: str
    why: str


def load_smoke(path: Path = SMOKE_FILE) -> list[SmokeCase]:
    """The entries of the smoke list, in file order; :class:`SmokeListError` for a broken one."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise SmokeListError(f"{path}: cannot read the smoke list: {exc}") from None
    entries = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not entries:
        raise SmokeListError(f"{path}: write 'cases:' as a list of {{id, why}} entries")
    cases: list[SmokeCase] = []
    seen: set[str] = set()
    for number, entry in enumerate(entries, 1):
        where = f"{path}: entry {number}"
        if not isinstance(entry, dict) or set(entry) != {"id", "why"}:
            raise SmokeListError(f"{where}: write exactly 'id: <case ID>' and 'why: <reason>'")
        case_id, why = entry["id"], entry["why"]
        if not isinstance(case_id, str) or not case_id or not isinstance(why, str) or not why:
            raise SmokeListError(f"{where}: id and why must be non-empty text")
        if case_id in seen:
            raise SmokeListError(f"{where}: {case_id} is listed twice")
        seen.add(case_id)
        cases.append(SmokeCase(case_id, why))
    return cases


def smoke_ids(path: Path = SMOKE_FILE) -> list[str]:
    """The case IDs of the smoke list, in file order."""
    return [case.id for case in load_smoke(path)]
