"""What a state says, read for the invariant checks: only its schema-valid fields, seats as ints.

Each check names the top-level fields it reads (:func:`needs`); a check whose fields the schema
found broken is skipped, since its findings would only repeat the schema's.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from conformance.contract.cards import deck as deck_cards
from conformance.contract.seats import team_of
from conformance.suite.invariants.problems import Problem

#: A check: reads the facts, appends what is wrong.
Check = Callable[["Facts", list[Problem]], None]


class Facts:
    """The schema-valid parts of a state, read once for the checks (seats as ints)."""

    def __init__(self, state: dict[str, Any], broken: frozenset[str]):
        self.state = state
        self.broken = broken
        self.usable = {key for key in state if key not in broken}

    def has(self, *fields: str) -> bool:
        return all(name in self.usable for name in fields)

    @property
    def options(self) -> dict[str, Any]:
        return self.state["ruleset"]["options"]

    @property
    def n(self) -> int:
        return len(self.state["players"])

    def hand(self, seat: int) -> list[str]:
        return self.state["players"][seat]["hand"]

    def holders(self) -> list[int]:
        return [i for i in range(self.n) if self.hand(i)]

    def team(self, seat: int) -> int | None:
        return team_of(self.options["teams"], seat)

    def deck(self) -> tuple[str, ...]:
        return _deck(int(self.options["deck_size"]), int(self.options["decks"]))

    def deck_set(self) -> frozenset[str]:
        return _deck_set(int(self.options["deck_size"]), int(self.options["decks"]))


@cache
def _deck(deck_size: int, decks: int) -> tuple[str, ...]:
    return tuple(deck_cards(deck_size, decks))


@cache
def _deck_set(deck_size: int, decks: int) -> frozenset[str]:
    return frozenset(_deck(deck_size, decks))


def as_int(value: Any) -> int:
    """A schema-valid integer (JSON Schema also calls ``1.0`` an integer) as an int."""
    return int(value)


def seats(values: Any) -> list[int]:
    return [as_int(v) for v in values]


def needs(*fields: str) -> Callable[[Check], Check]:
    """Mark a check with the top-level fields it reads."""

    def mark(check: Check) -> Check:
        check.needs = fields  # type: ignore[attr-defined]
        return check

    return mark
