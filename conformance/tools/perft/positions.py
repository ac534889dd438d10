"""Perft positions: named starts with their expected counts, read from YAML (``spec/perft.md``).

A positions file (``conformance/perft/*.yaml``) holds ``positions:``, a list of positions, each an
``id``, a ``description`` (where the small counts come from, worked out by hand), a ruleset, a
player count, a start (a deal or a full state), the expected ``perft`` counts by depth, optionally
``divide`` tables and a ``suite_depth``: the count ``durak-conformance run`` checks (the deeper
counts take minutes; ``durak-conformance perft`` checks them all). A file is read on its
own: each malformed position is a :class:`PositionsError` naming the file, the entry and its line,
and the others still load, so ``run`` fails the bad position alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from conformance.contract.canonical import canonical_move
from conformance.engines.base import Engine, ErrorResult
from conformance.suite import POSITIONS_DIR


class PositionsError(ValueError):
    """A perft positions file is malformed (the message names the file and the entry)."""

    def __init__(self, message: str, line: int = 1):
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class PerftPosition:
    """A named position with its expected counts (``counts[depth] = perft``)."""

    id: str
    description: str
    ruleset: Any
    players: int
    start: dict[str, Any]
    counts: dict[int, int]
    source: str = ""
    divide: dict[int, dict[str, int]] = field(default_factory=dict)
    #: the depth ``run`` checks (default: the smallest listed depth); the deeper counts take
    #: minutes, ``durak-conformance perft`` checks them all
    suite_depth: int = 0
    path: Path = Path()
    line: int = 1

    def depths(self, max_depth: int | None = None, max_nodes: int | None = None) -> list[int]:
        """The depths to check within the budgets (a count above ``max_nodes`` is skipped)."""
        return [
            d
            for d in sorted(self.counts)
            if (max_depth is None or d <= max_depth)
            and (max_nodes is None or self.counts[d] <= max_nodes)
        ]


_POSITION_KEYS = {
    "id",
    "description",
    "ruleset",
    "players",
    "start",
    "perft",
    "divide",
    "suite_depth",
}


def _counts(raw: dict[str, Any], where: str) -> dict[int, int]:
    counts = raw["perft"]
    if not isinstance(counts, dict) or not counts:
        raise PositionsError(f"{where}: perft must map depths to counts, e.g. {{1: 5, 2: 17}}")
    parsed: dict[int, int] = {}
    for depth, count in counts.items():
        if not (isinstance(depth, int) and depth >= 0 and isinstance(count, int) and count >= 0):
            raise PositionsError(
                f"{where}: perft entry {depth!r}: {count!r} is not depth (int >= 0): count (int)"
            )
        parsed[depth] = count
    return parsed


def _divides(raw: dict[str, Any], where: str, counts: dict[int, int]) -> dict[int, dict[str, int]]:
    div = raw.get("divide", {}) or {}
    if not isinstance(div, dict):
        raise PositionsError(f"{where}: divide must map depths to {{move JSON: count}}")
    divides: dict[int, dict[str, int]] = {}
    for depth, table in div.items():
        if not isinstance(depth, int) or not isinstance(table, dict):
            raise PositionsError(f"{where}: divide[{depth!r}] must map moves to counts")
        divides[depth] = {
            canonical_move(json.loads(m) if isinstance(m, str) else m): c for m, c in table.items()
        }
        if depth in counts and sum(divides[depth].values()) != counts[depth]:
            raise PositionsError(
                f"{where}: divide[{depth}] sums to {sum(divides[depth].values())}, "
                f"perft[{depth}] is {counts[depth]}"
            )
    return divides


def _suite_depth(raw: dict[str, Any], where: str, counts: dict[int, int]) -> int:
    if "suite_depth" not in raw:
        return min(counts)
    depth = raw["suite_depth"]
    if isinstance(depth, bool) or depth not in counts:
        raise PositionsError(
            f"{where}: suite_depth {depth!r} is not one of the depths listed in perft "
            f"({', '.join(map(str, sorted(counts)))})"
        )
    return depth


def _checked(raw: Any, where: str) -> tuple[str, str]:
    """The position's id and its place for messages, once its keys and id are good."""
    if not isinstance(raw, dict):
        raise PositionsError(f"{where}: a position must be a mapping, got {type(raw).__name__}")
    unknown = set(raw) - _POSITION_KEYS
    if unknown:
        raise PositionsError(
            f"{where}: unknown key(s) {sorted(unknown)}; allowed: {sorted(_POSITION_KEYS)}"
        )
    for key in ("id", "description", "ruleset", "players", "start", "perft"):
        if key not in raw:
            raise PositionsError(f"{where}: missing key {key!r}")
    pid = raw["id"]
    if not isinstance(pid, str) or not pid or not all(c.isalnum() or c == "-" for c in pid):
        raise PositionsError(f"{where}: id must be a non-empty string of [a-z0-9-], got {pid!r}")
    return pid, f"{where} ({pid})"


def _position(raw: Any, where: str, path: Path = Path(), line: int = 1) -> PerftPosition:
    pid, where = _checked(raw, where)
    start = raw["start"]
    if not isinstance(start, dict) or not (("state" in start) ^ ("deck" in start)):
        raise PositionsError(
            f"{where}: start must hold exactly one of 'state' (a full state) or 'deck' "
            "(a deck order, with an optional 'dealer')"
        )
    counts = _counts(raw, where)
    players = raw["players"]
    if not isinstance(players, int) or not 2 <= players <= 8:
        raise PositionsError(f"{where}: players must be 2..8, got {players!r}")
    return PerftPosition(
        id=pid,
        description=str(raw["description"]),
        ruleset=raw["ruleset"],
        players=players,
        start=start,
        counts=counts,
        source=where,
        divide=_divides(raw, where, counts),
        suite_depth=_suite_depth(raw, where, counts),
        path=path,
        line=line,
    )


def _entry_lines(text: str) -> list[int]:
    """The line of each entry of the ``positions:`` list (its ``- `` item), for messages."""
    return [
        number
        for number, line in enumerate(text.splitlines(), start=1)
        if re.match(r"^\s*-\s+id:", line)
    ]


def load_file(path: Path | str) -> tuple[list[PerftPosition], list[PositionsError]]:
    """The positions of one file and the problems found in it: a file that cannot be read is
    one problem; in a good file each malformed position is a problem and the others load."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        doc = yaml.safe_load(text)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        return [], [PositionsError(f"{path}: not valid YAML: {exc}", line)]
    if not isinstance(doc, dict) or not isinstance(doc.get("positions"), list):
        return [], [PositionsError(f"{path}: expected a mapping with a 'positions' list")]
    lines = _entry_lines(text)
    positions, problems = [], []
    for index, raw in enumerate(doc["positions"]):
        line = lines[index] if index < len(lines) else 1
        try:
            positions.append(_position(raw, f"{path}: positions[{index}]", path, line))
        except PositionsError as exc:
            problems.append(PositionsError(str(exc), line))
    return positions, problems


def position_files(paths: Iterable[Path | str] | None = None) -> list[Path]:
    """The positions files named (default: every ``conformance/perft/*.yaml``)."""
    return sorted(POSITIONS_DIR.glob("*.yaml")) if paths is None else [Path(p) for p in paths]


def load_positions(paths: Iterable[Path | str] | None = None) -> list[PerftPosition]:
    """Read perft positions from YAML files (default: every ``conformance/perft/*.yaml``); the
    first problem raises :class:`PositionsError`. Ids must be unique across all files."""
    positions: list[PerftPosition] = []
    seen: dict[str, str] = {}
    for path in position_files(paths):
        found, problems = load_file(path)
        if problems:
            raise problems[0]
        for pos in found:
            if pos.id in seen:
                raise PositionsError(f"{pos.source}: id {pos.id!r} already used in {seen[pos.id]}")
            seen[pos.id] = pos.source
            positions.append(pos)
    return positions


def start_state(engine: Engine, position: PerftPosition) -> dict[str, Any] | ErrorResult:
    """The position's state, as the engine builds it.

    A deal (``start: {deck, dealer}``) goes through ``new_game``. A full state takes its ruleset
    from the engine's ``new_game`` for the position's ruleset and player count (so presets expand
    to every option exactly as the engine under test expands them); the rest of the state is used as
    written. An engine that does not support the ruleset answers an ``ErrorResult``.
    """
    start = position.start
    if "deck" in start:
        return engine.new_game(
            position.ruleset, position.players, deck=list(start["deck"]), dealer=start.get("dealer")
        )
    probe = engine.new_game(position.ruleset, position.players, seed=0)
    if isinstance(probe, ErrorResult):
        return probe
    state = json.loads(json.dumps(start["state"]))
    state["ruleset"] = probe["ruleset"]
    return state
