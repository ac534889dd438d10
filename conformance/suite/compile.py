"""Game records and perft positions compiled to the one case model, for the one runner.

A fixture, a record and a perft position are three ways of writing down what an engine must do
from a start. Compiled to a :class:`~conformance.suite.loader.Case`, each runs through
:class:`~conformance.suite.cases.CaseRunner`: the same gate, the same meaning of a move (listed,
accepted, the input left alone, every invariant held), the same failure records, so ``run``,
``replay`` and ``perft`` cannot judge one game in two ways.

- A record (``spec/schema/record.schema.json``, already checked by
  :func:`conformance.tools.record.load_record`) starts from its deal (seed or deck, dealer,
  previous game) and has one ``move`` step per recorded move, then one ``result`` step: the
  record's result, or ``null`` for a game that stops unfinished.
- A perft position (``spec/perft.md``, loaded by :mod:`conformance.tools.perft`) starts from its
  deal or its full state and has one ``perft`` step: the count at the position's
  ``suite_depth`` (with its divide, when the file gives one at that depth).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance.suite.loader import Case, Step

if TYPE_CHECKING:
    from conformance.tools.perft import PerftPosition

#: What a record shows: every move is in the exact legal set (R-PLAY-1), and the game ends, or
#: goes on, as recorded (R-END-1).
RECORD_RULES = ("R-PLAY-1", "R-END-1")
#: What a perft count shows: the legal sets of the whole move tree are exact (R-PLAY-1).
PERFT_RULES = ("R-PLAY-1",)


def record_case(
    record: dict[str, Any],
    *,
    name: str,
    path: Path = Path(),
    lines: tuple[list[int], int] | None = None,
) -> Case:
    """The case of a loaded record. ``name`` is its case ID; ``lines`` (from
    :func:`conformance.tools.record.layout`) the line of each move and of the result in the file,
    so a failing step points into it."""
    moves = record["moves"]
    move_lines, result_line = lines or ([], 1)
    steps = [
        Step(
            index + 1,
            "move",
            {"move": move},
            move_lines[index] if index < len(move_lines) else 1,
        )
        for index, move in enumerate(moves)
    ]
    steps.append(Step(len(moves) + 1, "result", {"result": record["result"]}, result_line))
    return Case(
        id=name,
        description=str(record.get("description", "")),
        rules=RECORD_RULES,
        ruleset=record["ruleset"],
        players=record["players"],
        start=dict(record["deal"]),
        steps=tuple(steps),
        path=path,
        line=1,
    )


def position_case(position: PerftPosition) -> Case:
    """The case of a perft position: its start, and one ``perft`` step at its ``suite_depth``."""
    depth = position.suite_depth
    body: dict[str, Any] = {"depth": depth, "nodes": position.counts[depth]}
    if position.divide.get(depth):
        body["divide"] = dict(position.divide[depth])
    start = position.start
    start = (
        {"state": start["state"]}
        if "state" in start
        else {key: start[key] for key in ("deck", "dealer") if key in start}
    )
    return Case(
        id=position.id,
        description=position.description,
        rules=PERFT_RULES,
        ruleset=position.ruleset,
        players=position.players,
        start=start,
        steps=(Step(1, "perft", {"perft": body}, position.line),),
        path=position.path,
        line=position.line,
    )
