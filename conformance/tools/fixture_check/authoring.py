"""Authoring aids for working out a fixture's position by hand: who holds what after the
contract's deal of a deck order (:func:`deal`), and the reverse, a deck order that deals given
hands (:func:`build`).

Both read the contract's deal (docs/architecture.md, Options: deal), written apart from any
engine, so a deck an author builds here is the deck the contract says, not what one engine does.
"""

from __future__ import annotations

from conformance.contract.cards import card_key


def _seat_of(k: int, n: int, dealer: int, deal_order: str) -> int:
    return (dealer + 1 + (k if deal_order == "one_at_a_time" else k // 6)) % n


def deal(
    deck: list[str],
    n: int,
    dealer: int,
    deal_order: str = "one_at_a_time",
    trump_card: str = "after_deal",
) -> dict:
    """Hands, trump and talon after the canonical deal of the contract."""
    hands: list[list[str]] = [[] for _ in range(n)]
    for k in range(6 * n):
        hands[_seat_of(k, n, dealer, deal_order)].append(deck[k])
    if 6 * n == len(deck):
        trump, talon = deck[-1], []
    elif trump_card == "after_deal":
        trump, talon = deck[6 * n], deck[6 * n + 1 :] + [deck[6 * n]]
    else:
        trump, talon = deck[-1], deck[6 * n :]
    return {"hands": [sorted(h, key=card_key) for h in hands], "trump": trump, "talon": talon}


def build(
    hands: list[list[str]],
    trump: str,
    talon: list[str],
    dealer: int,
    deal_order: str = "one_at_a_time",
    trump_card: str = "after_deal",
) -> list[str]:
    """A deck order that deals ``hands``; ``talon`` excludes the trump card (drawn last)."""
    n = len(hands)
    deck: list[str] = []
    queues = [sorted(h, key=card_key) for h in hands]
    no_talon = not talon and any(trump in h for h in hands)
    if no_talon:  # the trump is the last card dealt, which goes to the dealer
        queues[dealer].remove(trump)
        queues[dealer].append(trump)
    for k in range(6 * n):
        deck.append(queues[_seat_of(k, n, dealer, deal_order)].pop(0))
    if no_talon:
        return deck
    if trump_card == "after_deal":
        return deck + [trump] + talon
    return deck + talon + [trump]
