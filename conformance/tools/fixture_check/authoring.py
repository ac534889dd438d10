"""Authoring aids for working out a fixture's position by hand: who holds what after the
contract's deal of a deck order (:func:`deal`), and the reverse, a deck order that deals given
hands (:func:`build`).

Both use the judge's reading of the contract's deal (:mod:`conformance.contract.deal`), not any
engine's, so a deck an author builds here is the deck the contract says, and the one the runner
deals when it checks a fixture.
"""

from __future__ import annotations

from conformance.contract.cards import card_key
from conformance.contract.deal import deal as contract_deal
from conformance.contract.deal import dealt_to


def deal(
    deck: list[str],
    n: int,
    dealer: int,
    deal_order: str = "one_at_a_time",
    trump_card: str = "after_deal",
) -> dict:
    """``{"hands", "trump", "talon"}`` after the canonical deal of the contract."""
    return contract_deal(deck, n, dealer, deal_order, trump_card)._asdict()


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
        deck.append(queues[dealt_to(k, n, dealer, deal_order)].pop(0))
    if no_talon:
        return deck
    if trump_card == "after_deal":
        return deck + [trump] + talon
    return deck + talon + [trump]
