"""Card notation and the compact card numbers the engine computes with (R-DECK-1..3, R-DEAL-2).

A card is written ``<rank><suit>[<copy>]`` (docs/architecture.md, "Cards"): ranks ``2..9 T J Q K
A``, suits ``C D H S``, and the suffix ``2`` for the second copy when two packs are used. Inside the
engine every card is one small integer::

    number = copy * 52 + suit * 13 + rank        (rank 0 = "2" ... 12 = "A", suit 0 = C ... 3 = S)

so the canonical card order of the contract (copy, then suit, then rank) is plain integer order, a
hand is a bit mask (bit ``number`` set when the card is held) and sorting a hand canonically is
reading its bits from low to high. Conversions happen only at the JSON boundary.

The portable shuffle (SplitMix64 + Fisher-Yates from the last index down) is here too, because it
only needs the canonical deck.
"""

from __future__ import annotations

RANKS = "23456789TJQKA"
SUITS = "CDHS"

#: Lowest rank index of each pack size: 24 cards = 9..A, 36 = 6..A, 52 = 2..A (R-DECK-1).
LOW_RANK = {24: RANKS.index("9"), 36: RANKS.index("6"), 52: 0}

MAX_CARDS = 104  # two packs of 52

#: card number -> rank index, suit index, copy index
RANK_OF = tuple(c % 13 for c in range(MAX_CARDS))
SUIT_OF = tuple((c // 13) % 4 for c in range(MAX_CARDS))
COPY_OF = tuple(c // 52 for c in range(MAX_CARDS))


def _name(c: int) -> str:
    return RANKS[RANK_OF[c]] + SUITS[SUIT_OF[c]] + ("2" if COPY_OF[c] else "")


#: card number -> notation
CARD_NAMES = tuple(_name(c) for c in range(MAX_CARDS))
#: notation -> card number (every well-formed card of two 52-card packs)
CARD_NUMBERS = {name: c for c, name in enumerate(CARD_NAMES)}


def card_number(text: str) -> int:
    """The number of a card written in notation; ``KeyError`` if it is not a card."""
    return CARD_NUMBERS[text]


def card_name(number: int) -> str:
    return CARD_NAMES[number]


def canonical_deck(deck_size: int, decks: int) -> list[int]:
    """The unshuffled deck in canonical order: copy, then suit C D H S, then rank ascending."""
    low = LOW_RANK[deck_size]
    return [
        copy * 52 + suit * 13 + rank
        for copy in range(decks)
        for suit in range(4)
        for rank in range(low, 13)
    ]


def deck_mask(deck_size: int, decks: int) -> int:
    mask = 0
    for c in canonical_deck(deck_size, decks):
        mask |= 1 << c
    return mask


def bits(mask: int) -> list[int]:
    """The card numbers of a mask, ascending (canonical order)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def names(mask: int) -> list[str]:
    """The notation of the cards of a mask, in canonical order."""
    return [CARD_NAMES[c] for c in bits(mask)]


# --------------------------------------------------------------------------- portable shuffle

_MASK64 = (1 << 64) - 1


def splitmix64(seed: int):
    """SplitMix64 as a generator of unsigned 64-bit values (the contract's portable PRNG)."""
    state = seed & _MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        yield z ^ (z >> 31)


def portable_shuffle(cards: list, seed: int) -> list:
    """Fisher-Yates from the last index down to 1 with ``j = next() mod (i + 1)`` (R-DEAL-2)."""
    out = list(cards)
    rng = splitmix64(seed)
    for i in range(len(out) - 1, 0, -1):
        j = next(rng) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def seeded_deck(deck_size: int, decks: int, seed: int) -> list[int]:
    """The deck order a seed stands for: the canonical deck shuffled portably."""
    return portable_shuffle(canonical_deck(deck_size, decks), seed)
