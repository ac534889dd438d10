"""A problem found in a state, and the short texts the problems are written with."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from conformance.contract import canonical

#: The rule a malformed state breaks (spec/rules.md: every state is a complete state of the
#: contract).
SHAPE = "R-PLAY-6"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a state.

    ``pointer``: RFC 6901 JSON pointer of the offending value (``""`` for the whole state);
    ``rule``: the rule ID it breaks; ``message``: what is wrong and what was found.
    """

    pointer: str
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.pointer or '(the state)'} [{self.rule}]: {self.message}"

    def to_json(self) -> dict[str, str]:
        return {"pointer": self.pointer, "rule": self.rule, "message": self.message}


def short(value: Any, limit: int = 60) -> str:
    """A value as canonical JSON, cut to ``limit`` characters: what a message quotes."""
    try:
        text = canonical.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def kind(value: Any) -> str:
    """What a JSON value is, in words ("a list of 3", "the string ..."), for a message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {short(value)}"
    if isinstance(value, str):
        return f"the string {short(value)}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def names(seats: Iterable[int]) -> str:
    """``seat 2`` or ``seats 0, 3``."""
    seats = list(seats)
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(map(str, seats))


def not_a_seat(seat: int, n: int) -> str:
    """The message of a seat number outside the game (R-PLAY-6)."""
    return f"seat {seat} is not a seat of this {n}-player game"


def path_order(path: list[Any]) -> tuple:
    """Sort key of a path in document order: list indices as numbers, before any key."""
    return tuple((0, part, "") if isinstance(part, int) else (1, 0, str(part)) for part in path)
