"""Cards as a scenario writes them, for the Gherkin steps.

The notation itself (ranks, suits, the canonical order and deck) is the judge's one reading in
:mod:`conformance.contract.cards`, never the reference engine's card code: the steps check engines, the
reference one included. This module adds what only scenario text needs: ``10S`` for the ten,
lists such as ``"9S, JS and QS"`` or ``"nothing"``, and suit names.
"""

from __future__ import annotations

import re

from conformance.contract.cards import CARD_RE, CardError

SUIT_NAMES = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}


def parse_card(text: str) -> str:
    """Check one card (``"9S"``, ``"7S2"``); ``10S`` is accepted as the ten, ``TS``."""
    card = text.strip()
    if card.startswith("10"):
        card = "T" + card[2:]
    if not CARD_RE.match(card):
        raise CardError(
            f"{text!r} is not a card: write <rank><suit>[2] with rank 2-9 T J Q K A and suit C D H S"
            " (for example 9S, TD, 7S2)"
        )
    return card


def parse_cards(text: str) -> list[str]:
    """A list of cards as a scenario writes it: ``"9S, JS and QS"``, ``"9S JS"``, or ``"nothing"``."""
    text = text.strip()
    if text in ("", "nothing", "no cards"):
        return []
    parts = re.split(r"\s*,\s*|\s+and\s+|\s+", text)
    return [parse_card(p) for p in parts if p]


def suit_name(suit: str) -> str:
    return {v: k for k, v in SUIT_NAMES.items()}[suit]
