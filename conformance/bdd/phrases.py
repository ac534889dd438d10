"""Moves in players' words, and back.

Scenarios say "player 0 attacks with 9S", "the defender beats 9S with JS", "player 2 may throw in
JC". This module turns such a phrase (third person or bare verb) into a contract move
(docs/architecture.md, "Moves") and renders a move as a phrase for failure messages, so the
Gherkin text and the JSON an engine receives say the same thing. (Moves are compared by the judge's one canonical form,
:func:`conformance.contract.canonical.canonical_move`.)
"""

from __future__ import annotations

import json
import re
from typing import Any

from conformance.bdd.cards import parse_card, parse_cards
from conformance.contract.cards import CardError, canonical

_CARD = r"\S+"
_CARDS = r"[^\s].*?"

_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"^attacks? with (?P<cards>{_CARDS})$"), "attack"),
    (re.compile(rf"^throws? in (?P<card>{_CARD})$"), "throw_in"),
    (re.compile(rf"^beats? (?P<target>{_CARD}) with (?P<card>{_CARD})$"), "beat"),
    (re.compile(r"^(?:takes?|takes? the cards|picks? up the cards)$"), "take"),
    (re.compile(r"^pass(?:es)?$"), "pass"),
    (re.compile(rf"^transfers? with (?P<cards>{_CARDS})$"), "transfer"),
    (re.compile(rf"^shows? the trump (?P<card>{_CARD})$"), "show_trump"),
]

#: The verbs a phrase may start with, for the step patterns.
VERBS = (
    r"(?:attacks? with .+|throws? in \S+|beats? \S+ with \S+|takes?(?: the cards)?|"
    r"picks? up the cards|pass(?:es)?|transfers? with .+|shows? the trump \S+)"
)


class PhraseError(ValueError):
    """A move phrase the step definitions cannot read."""


def parse_move(phrase: str, player: int) -> dict[str, Any]:
    """The contract move ``player`` makes by ``phrase`` (``"beats 9S with JS"``)."""
    text = " ".join(phrase.strip().split())
    for pattern, action in _PATTERNS:
        m = pattern.match(text)
        if not m:
            continue
        move: dict[str, Any] = {"player": player, "action": action}
        try:
            if "cards" in m.groupdict():
                cards = parse_cards(m.group("cards"))
                if not cards:
                    raise PhraseError(f"{phrase!r} names no card")
                move["cards"] = canonical(cards)
            if "card" in m.groupdict():
                move["card"] = parse_card(m.group("card"))
            if "target" in m.groupdict():
                move["target"] = parse_card(m.group("target"))
        except CardError as exc:
            raise PhraseError(f"in the move {phrase!r}: {exc}") from None
        return move
    raise PhraseError(
        f"{phrase!r} is not a move phrase; write one of: attacks with 9S [and 9D], throws in JC, "
        "beats 9S with JS, takes, passes, transfers with 9H [and 9C], shows the trump 9H"
    )


def split_alternatives(text: str) -> list[str]:
    """``"beat 7C with 9C or take"`` -> ``["beat 7C with 9C", "take"]``."""
    return [part for part in re.split(r"\s*(?:;|\bor\b)\s*", text.strip()) if part]


def describe(move: dict[str, Any]) -> str:
    """A move as players would say it: ``"player 1 beats 9S with JS"``."""
    who = f"player {move.get('player')}"
    action = move.get("action")
    cards = " and ".join(move.get("cards") or [])
    text = {
        "attack": f"attacks with {cards}",
        "throw_in": f"throws in {move.get('card')}",
        "beat": f"beats {move.get('target')} with {move.get('card')}",
        "take": "takes",
        "pass": "passes",
        "transfer": f"transfers with {cards}",
        "show_trump": f"shows the trump {move.get('card')}",
    }.get(action)
    if text is None:
        return f"{who}: {json.dumps(move, sort_keys=True)}"
    return f"{who} {text}"
