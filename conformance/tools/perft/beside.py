"""``perft --divide``: the engine's divide beside the reference's, down to where the two part.

Comparing two divides by hand means printing both, finding the first move whose counts differ,
applying it, dividing again one level down, and so on. :func:`divide_beside` does that walk: at
each level it gives both counts per first move (a :class:`Level`), goes into the first move whose
counts differ, and stops at the position where the engines part: a legal set that differs (moves
on one side only), or a move that leads to another state. That difference, with the moves from
the start and the rules that decide it, is the :class:`~conformance.tools.perft.check.Descent` of
:func:`~conformance.tools.perft.check.descend`, asked at that last level only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from conformance.contract import canonical as canonical_text
from conformance.contract.canonical import canonical_move
from conformance.engines.base import Engine, ErrorResult
from conformance.tools.perft.check import Descent, descend
from conformance.tools.perft.count import DivideEntry, divide

#: the mark of a row: the counts agree, differ, or the move is on one side only
SAME, DIFFERENT, ENGINE_ONLY, REFERENCE_ONLY = " ", "*", "+", "-"


@dataclass(frozen=True)
class Row:
    mark: str
    key: str  # the move's canonical JSON
    engine: int | None  # None: the engine does not list the move
    reference: int | None


@dataclass
class Level:
    """Both divides at one position: the moves from the start to it, the depth divided, and each
    side's count per first move (by the move's canonical JSON)."""

    path: list[dict[str, Any]]
    depth: int
    engine: dict[str, DivideEntry]
    reference: dict[str, DivideEntry]

    def rows(self) -> list[Row]:
        rows = []
        for key in sorted(set(self.engine) | set(self.reference)):
            ours, theirs = self.engine.get(key), self.reference.get(key)
            if ours is None:
                mark = REFERENCE_ONLY
            elif theirs is None:
                mark = ENGINE_ONLY
            else:
                mark = SAME if ours.count == theirs.count else DIFFERENT
            rows.append(
                Row(mark, key, ours and ours.count, theirs and theirs.count)  # type: ignore[arg-type]
            )
        return rows

    @property
    def same_moves(self) -> bool:
        return set(self.engine) == set(self.reference)

    def first_difference(self) -> str | None:
        """The first move (in canonical order) whose counts differ, None when all agree."""
        return next((r.key for r in self.rows() if r.mark == DIFFERENT), None)

    def text(self) -> str:
        where = " ".join(canonical_move(m) for m in self.path) or "the start"
        lines = [f"divide at depth {self.depth} after {where}:", "    engine  reference  move"]
        for row in self.rows():
            ours = "-" if row.engine is None else str(row.engine)
            theirs = "-" if row.reference is None else str(row.reference)
            lines.append(f"{row.mark} {ours:>8} {theirs:>10}  {row.key}")
        total_ours = sum(e.count for e in self.engine.values())
        total_theirs = sum(e.count for e in self.reference.values())
        lines.append(f"  {total_ours:>8} {total_theirs:>10}  total")
        return "\n".join(lines)


def divide_beside(
    engine: Engine,
    reference: Engine,
    state: dict[str, Any],
    depth: int,
    *,
    transpositions: bool = True,
    on_level: Callable[[Level], None] | None = None,
) -> tuple[list[Level], Descent | None]:
    """Both divides from ``state`` at ``depth``, then again after the first move whose counts
    differ, until the engines part; ``(levels, descent)``, the descent None when every count
    agrees. ``on_level`` sees each level as soon as it is counted (a deep walk prints as it goes).
    A :class:`~conformance.tools.perft.count.PerftError` of either side stops the walk."""
    levels: list[Level] = []
    path: list[dict[str, Any]] = []
    while depth >= 1:
        level = Level(
            list(path),
            depth,
            {e.key: e for e in divide(engine, state, depth, transpositions=transpositions)},
            {e.key: e for e in divide(reference, state, depth, transpositions=transpositions)},
        )
        levels.append(level)
        if on_level is not None:
            on_level(level)
        if not level.same_moves:
            break  # they part here: the legal sets differ
        key = level.first_difference()
        if key is None:
            return levels, None
        move = level.reference[key].move
        want, got = reference.apply(state, move), engine.apply(state, move)
        if isinstance(want, ErrorResult):
            return levels, None  # the reference refuses its own move: counted as a PerftError
        if not isinstance(got, dict) or _normal(want) != _normal(got):
            break  # they part here: the move leads to another state
        path.append(move)
        state, depth = want, depth - 1
    found = descend(engine, reference, state, depth)
    return levels, (replace(found, path=path + found.path) if found is not None else None)


def _normal(state: dict[str, Any]) -> str:
    return canonical_text.dumps(canonical_text.normalise_state(state))
