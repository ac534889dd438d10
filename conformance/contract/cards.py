"""Cards as the contract writes them (docs/architecture.md, "Cards"): the judge's one reading.

Everything that judges engines (the fixture runner's canonical forms, the Gherkin steps, records
and fuzzing, and the fixture author's checker ``tools/check_fixtures.py``) reads the card notation
through this module, so the judge holds a single reading of it. That reading is deliberately not
the reference engine's (``reference_impl/cards.py``): the suite checks the reference engine too,
and two independent readings of the contract make a slip in either show up as a disagreement.

A card is ``<rank><suit>[2]``; the canonical order is copy, then suit ``C D H S``, then rank
ascending, and the canonical unshuffled deck is every card in that order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

RANKS = "23456789TJQKA"
SUITS = "CDHS"
#: The lowest rank of each deck size: a deck holds that rank and every rank above it.
LOWEST_RANK = {24: "9", 36: "6", 52: "2"}

CARD_RE = re.compile(r"^([2-9TJQKA])([CDHS])(2?)$")


class CardError(ValueError):
    """A card, card list or deck is not in the contract's notation."""


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


@cache  # a pack has at most 104 names; the route finder and the scenario compiler ask millions
def suit_of(card: str) -> str:
    return CARD_RE.match(card).group(2)


@cache
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
