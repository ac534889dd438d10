"""Canonical forms the runner compares in, independent of any engine's code.

The contract (docs/architecture.md) defines a canonical card order and says two states are equal
when their canonical serialisations are; moves are equal when their canonical JSON is. The suite
applies these rules itself rather than borrowing the reference engine's, so the judge does not
share code with one of the engines it judges; the card order is the judge's one reading of the
notation, :mod:`conformance.contract.cards`. JSON pointers, the places in a state the runner
names, are built and read here too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from conformance.contract.cards import CARD_RE
from conformance.contract.cards import card_key as _card_order

#: Paths (keys, with "*" for any list index) of card lists whose order carries no meaning.
_UNORDERED = frozenset(
    {
        ("players", "*", "hand"),
        ("players", "*", "known"),
        ("bout", "passed"),
        ("bout", "shown"),
    }
)
#: The same for an observation (spec/schema/observation.schema.json): the observer's own hand sits
#: at the top; the discard pile's ``cards`` keep the order they were discarded in.
_UNORDERED_OBSERVATION = frozenset(
    {
        ("hand",),
        ("players", "*", "known"),
        ("bout", "passed"),
        ("bout", "shown"),
    }
)


def _prefixes(paths: frozenset[tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
    return frozenset(path[:i] for path in paths for i in range(len(path)))


_PREFIXES = {
    _UNORDERED: _prefixes(_UNORDERED),
    _UNORDERED_OBSERVATION: _prefixes(_UNORDERED_OBSERVATION),
}


def card_key(card: Any) -> tuple:
    """Sort key of the canonical card order: copy, then suit (C D H S), then rank ascending.

    Anything that is not a well-formed card sorts last, by its text, so a garbled answer still
    sorts deterministically and shows up in a diff rather than raising.
    """
    if isinstance(card, str) and CARD_RE.fullmatch(card):
        return (0, *_card_order(card), "")
    if isinstance(card, int) and not isinstance(card, bool):
        return (0, 0, 0, card, "")  # seat numbers in bout.passed
    return (1, 0, 0, 0, json.dumps(card, sort_keys=True))


def sort_cards(cards: Any) -> Any:
    """A card list in canonical order (anything else unchanged)."""
    if isinstance(cards, list):
        return sorted(cards, key=card_key)
    return cards


def dumps(value: Any) -> str:
    """Compact JSON with sorted keys: the canonical text of a value."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _plain_word(value: Any) -> bool:
    """True for a str that JSON writes as itself in quotes (letters, digits, ``_``)."""
    return type(value) is str and value.isascii() and value.replace("_", "a").isalnum()


def _move_text(move: dict) -> str | None:
    """The canonical JSON of a well-formed move written directly (the hot path of perft and
    fuzzing, which key every listed move), or None for anything else: a key or value that is not
    a plain word, an exact int or a list of plain words, which :func:`dumps` then writes."""
    parts = []
    for key in sorted(move) if all(type(k) is str for k in move) else ():
        value = move[key]
        if not _plain_word(key):
            return None
        if type(value) is int:
            parts.append(f'"{key}":{value}')
        elif _plain_word(value):
            parts.append(f'"{key}":"{value}"')
        elif type(value) is list and all(_plain_word(c) for c in value):
            cards = '","'.join(sort_cards(value))
            parts.append(f'"{key}":["{cards}"]' if value else f'"{key}":[]')
        else:
            return None
    return "{" + ",".join(parts) + "}" if len(parts) == len(move) else None


def canonical_move(move: Any) -> str:
    """The canonical JSON of a move: its ``cards`` list sorted, keys sorted."""
    if type(move) is dict:
        text = _move_text(move)
        if text is not None:
            return text
    if isinstance(move, dict) and isinstance(move.get("cards"), list):
        move = {**move, "cards": sort_cards(move["cards"])}
    return dumps(move)


def normalise(value: Any, path: tuple = (), unordered: frozenset = _UNORDERED) -> Any:
    """A copy of ``value`` (found at ``path`` in a state) with every unordered card list sorted.

    ``path`` lets a fragment be normalised like the state it came from: ``normalise(hand,
    ("players", 0, "hand"))`` sorts the hand, so an ``expect`` step that names a hand compares
    equal whatever order its author wrote. ``unordered`` names the document's unordered lists:
    a state's by default, :data:`OBSERVATION` for an observation.
    """
    shape = tuple("*" if isinstance(part, int) else part for part in path)
    if shape in unordered:
        return sort_cards(value)
    prefixes = _PREFIXES.get(unordered) or _prefixes(unordered)
    if shape not in prefixes:
        return value
    if isinstance(value, dict):
        return {key: normalise(item, path + (key,), unordered) for key, item in value.items()}
    if isinstance(value, list):
        return [normalise(item, path + (index,), unordered) for index, item in enumerate(value)]
    return value


#: The unordered lists of a state and of an observation, for :func:`normalise`'s ``unordered``.
STATE = _UNORDERED
OBSERVATION = _UNORDERED_OBSERVATION


def normalise_state(state: Any) -> Any:
    """The state with hands, known cards, passed seats and shown trumps in canonical order."""
    return normalise(state, ())


def normalise_observation(observation: Any) -> Any:
    """An observation with the observer's hand, known cards, passed seats and shown trumps in
    canonical order (the discard pile's cards keep their order: it is the order of play)."""
    return normalise(observation, (), OBSERVATION)


def pointer(parts: Iterable[Any]) -> str:
    """RFC 6901: ``["players", 0, "hand"]`` -> ``"/players/0/hand"``; ``[]`` -> ``""``.

    The one builder of JSON pointers for everything the judge reports a place with (invariants,
    schema errors, records, findings)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def pointer_parts(pointer: str) -> list[str]:
    """RFC 6901: ``"/players/0/hand"`` -> ``["players", "0", "hand"]``; ``""`` -> ``[]``."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"a JSON pointer starts with '/': {pointer!r}")
    return [part.replace("~1", "/").replace("~0", "~") for part in pointer[1:].split("/")]


class Missing:
    """What a pointer resolves to when the state has nothing there."""

    def __repr__(self) -> str:
        return "<missing>"


MISSING = Missing()


def resolve(document: Any, pointer: str) -> tuple[Any, tuple]:
    """The value at ``pointer`` and its path (list indices as ints), or ``MISSING``."""
    node = document
    path: list[Any] = []
    for part in pointer_parts(pointer):
        if isinstance(node, dict) and part in node:
            node = node[part]
            path.append(part)
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
            path.append(int(part))
        else:
            return MISSING, tuple(path)
    return node, tuple(path)
