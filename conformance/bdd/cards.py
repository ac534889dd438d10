"""Cards as the contract writes them (docs/architecture.md, "Cards"), for the Gherkin steps.

The step definitions must not borrow the reference engine's card code: they check engines, the
reference one included, so they carry their own small reading of the notation. A card is
``<rank><suit>[2]``; the canonical order is copy, then suit ``C D H S``, then rank ascending.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_NAMES = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
LOWEST_RANK = {24: "9", 36: "6", 52: "2"}

CARD_RE = re.compile(r"^([2-9TJQKA])([CDHS])(2?)$")


class CardError(ValueError):
    """A card or card list in a scenario is not in the contract's notation."""


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


def card_key(card: str) -> tuple[int, int, int]:
    """Sort key of the canonical card order: copy, then suit, then rank."""
    m = CARD_RE.match(card)
    if not m:
        raise CardError(f"{card!r} is not a card")
    rank, suit, copy = m.groups()
    return (1 if copy else 0, SUITS.index(suit), RANKS.index(rank))


def canonical(cards: Iterable[str]) -> list[str]:
    """The cards sorted in the canonical order."""
    return sorted(cards, key=card_key)


def suit_of(card: str) -> str:
    return CARD_RE.match(card).group(2)


def rank_of(card: str) -> str:
    return CARD_RE.match(card).group(1)


def deck(deck_size: int, decks: int = 1) -> list[str]:
    """The canonical unshuffled deck for ``deck_size`` (24, 36, 52) and ``decks`` (1, 2)."""
    if deck_size not in LOWEST_RANK:
        raise CardError(f"deck_size {deck_size!r} is not one of 24, 36, 52")
    if decks not in (1, 2):
        raise CardError(f"decks {decks!r} is not 1 or 2")
    ranks = RANKS[RANKS.index(LOWEST_RANK[deck_size]) :]
    cards = []
    for copy in ["", "2"][:decks]:
        for suit in SUITS:
            cards.extend(f"{rank}{suit}{copy}" for rank in ranks)
    return cards


def suit_name(suit: str) -> str:
    return {v: k for k, v in SUIT_NAMES.items()}[suit]
