"""Perft counting: the number of move sequences of a given length from a state, through any engine.

The counting definition is normative in ``spec/perft.md``; in short, for a state ``s``:

- ``perft(s, 0) = 1``;
- ``perft(s, d) = sum(perft(apply(s, m), d - 1) for m in legal_moves(s))`` for ``d >= 1``, where
  ``legal_moves`` is the set of legal moves of *all* players (R-PLAY-1);
- a finished game has no legal move (R-PLAY-2), so it counts 1 at depth 0 and 0 at any depth beyond:
  perft counts the move sequences of length exactly ``d``, like chess perft counts leaf nodes.

``divide`` gives the count under each first move, to find where two engines part: compare the two
divides, descend into the first move whose counts differ, repeat.

A count is also a check of the engine: a move listed twice, a listed move that ``apply`` refuses,
or an error answer stops it with a :class:`PerftError` that gives the move path from the root, so
the failing position can be rebuilt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from conformance.contract import canonical as canonical_text
from conformance.contract.canonical import canonical_move
from conformance.engines.base import Engine, ErrorResult


class PerftError(Exception):
    """The engine misbehaved during a count. ``path`` is the list of moves from the root;
    ``move`` the listed move the count broke off at (refused by ``apply``, or listed twice), so
    a report can say what kind of move it was."""

    def __init__(
        self, message: str, path: Sequence[dict[str, Any]], error: Any = None,
        move: dict[str, Any] | None = None,
    ):
        where = " -> ".join(canonical_move(m) for m in path) or "(the root position)"
        super().__init__(f"{message}; after moves: {where}")
        self.path = list(path)
        self.error = error
        self.move = move


@dataclass
class _Counter:
    """One count's engine access, transposition table and node statistics."""

    engine: Engine
    transpositions: bool
    table: dict[tuple[str, int], int] = field(default_factory=dict)
    calls: int = 0

    def moves(self, state: dict[str, Any], path: list[dict[str, Any]]) -> list[dict[str, Any]]:
        self.calls += 1
        answer = self.engine.legal_moves(state)
        if isinstance(answer, ErrorResult):
            raise PerftError(f"legal_moves answered {answer}", path, answer)
        if not isinstance(answer, list) or not all(isinstance(m, dict) for m in answer):
            raise PerftError("legal_moves did not answer a list of move objects", path, answer)
        seen: set[str] = set()
        for move in answer:
            key = canonical_move(move)
            if key in seen:
                raise PerftError(f"legal_moves lists the move {key} twice", path, move=move)
            seen.add(key)
        return answer

    def child(
        self, state: dict[str, Any], move: dict[str, Any], path: list[dict[str, Any]]
    ) -> dict[str, Any]:
        self.calls += 1
        answer = self.engine.apply(state, move)
        if isinstance(answer, ErrorResult):
            raise PerftError(
                f"apply refused the move {canonical_move(move)} that legal_moves listed: {answer}",
                path,
                answer,
                move=move,
            )
        if not isinstance(answer, dict):
            raise PerftError("apply did not answer a state object", path, answer)
        return answer

    def count(self, state: dict[str, Any], depth: int, path: list[dict[str, Any]]) -> int:
        if depth == 0:
            return 1
        key = (canonical_text.dumps(state), depth) if self.transpositions else None
        if key is not None and key in self.table:
            return self.table[key]
        moves = self.moves(state, path)
        if depth == 1:
            total = len(moves)  # each move leads to exactly one leaf at depth 0
        else:
            total = 0
            for move in moves:
                path.append(move)
                total += self.count(self.child(state, move, path[:-1]), depth - 1, path)
                path.pop()
        if key is not None:
            self.table[key] = total
        return total


def _check_depth(depth: int) -> None:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"perft depth must be an integer >= 0, got {depth!r}")


def perft(engine: Engine, state: dict[str, Any], depth: int, *, transpositions: bool = True) -> int:
    """The number of move sequences of length exactly ``depth`` from ``state``.

    ``transpositions`` caches counts by (canonical state, depth): exact, since the state holds
    everything that decides what follows (deck order included), and much faster because orders of
    play that reach the same state (beating two cards in either order) are counted once per depth.
    Turn it off to make every node ask the engine, e.g. to test an engine's determinism.
    """
    _check_depth(depth)
    return _Counter(engine, transpositions).count(state, depth, [])


@dataclass(frozen=True)
class DivideEntry:
    """One first move and the number of sequences of the remaining depth after it."""

    move: dict[str, Any]
    count: int

    @property
    def key(self) -> str:
        return canonical_move(self.move)


def divide(
    engine: Engine, state: dict[str, Any], depth: int, *, transpositions: bool = True
) -> list[DivideEntry]:
    """Perft split by first move: ``perft(apply(state, m), depth - 1)`` for every legal ``m``.

    Entries are sorted by the move's canonical JSON so two engines' divides line up. The counts sum
    to ``perft(state, depth)``. ``depth`` must be at least 1.
    """
    _check_depth(depth)
    if depth < 1:
        raise ValueError("divide needs depth >= 1 (there is no first move at depth 0)")
    counter = _Counter(engine, transpositions)
    entries = []
    for move in counter.moves(state, []):
        child = counter.child(state, move, [])
        entries.append(DivideEntry(move, counter.count(child, depth - 1, [move])))
    return sorted(entries, key=lambda e: e.key)
