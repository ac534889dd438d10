"""Naming the fresh cards of a plan: the deck order.

A complete plan knows, for each seat, the deck positions it received (dealt, or drawn after some
bout) and the cards it must have received fresh (each needed from some bout on, or held at the
end). Any matching of cards to positions that delivers every card in time is a deck that plays
the plan, with one rule still to honour: the first attacker of R-ROLE-1. With ``lowest_trump``
the seat the plan opens with must be dealt a trump lower than every trump dealt elsewhere (with
two packs, twins of that rank are kept from the others' deals), or, when no trump is dealt at
all, be the seat ``no_trump_fallback`` names. So the builder tries each trump the first attacker
could be dealt, lowest first, and forbids the lower ones to everybody else's deal.
"""

from __future__ import annotations

from conformance.contract.cards import RANKS, SUITS, card_key, rank_of, suit_of

from .planner import Node, Planner


def _match(cards: list[tuple[str, int]], slots: list[tuple[int, int]], allowed) -> dict | None:
    """A perfect matching card -> deck position (Kuhn's augmenting paths), or None."""
    if len(cards) != len(slots):
        return None
    edges = [
        [s for s, (arrival, position) in enumerate(slots) if arrival < due and allowed(c, arrival)]
        for c, due in cards
    ]
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for s in edges[i]:
            if s in seen:
                continue
            seen.add(s)
            if s not in owner or augment(owner[s], seen):
                owner[s] = i
                return True
        return False

    for i in sorted(range(len(cards)), key=lambda i: len(edges[i])):
        if not augment(i, set()):
            return None
    return {cards[i][0]: slots[s][1] for s, i in owner.items()}


def _wants(planner: Planner, node: Node) -> list[list[tuple[str, int]]]:
    """Per seat, every fresh card it must receive and the bout that first needs it."""
    t = planner.t
    out = []
    for seat in range(planner.n):
        cards = list(node.uses[seat])
        cards += [(c, t.bout_number) for c in t.start_hands[seat] if c not in node.pinned[seat]]
        out.append(cards)
    return out


def _low(card: str, bound: str) -> bool:
    """``card`` would be chosen before ``bound`` as the lowest trump (ties: twins count)."""
    return RANKS.index(rank_of(card)) <= RANKS.index(rank_of(bound))


def build(planner: Planner, node: Node) -> list[str] | None:
    """The deck order that plays the plan, or None when R-ROLE-1 cannot give its first
    attacker the opening."""
    t = planner.t
    first = node.bouts[0].attacker if node.bouts else node.attacker
    wants = _wants(planner, node)
    trump_suit = t.trump_suit
    dealt_trump = t.trump if len(t.deck) == 6 * planner.n else None
    choices: list = []
    if t.opt("first_attacker") == "dealer_left":
        choices.append(lambda seat, card, arrival: True)
    else:
        own = sorted(
            {c for c, _ in wants[first] if suit_of(c) == trump_suit}
            | ({dealt_trump} if dealt_trump and t.dealer == first else set()),
            key=lambda c: RANKS.index(rank_of(c)),
        )
        for lowest in own:
            if dealt_trump and t.dealer != first and _low(dealt_trump, lowest):
                continue
            choices.append(_lowest_trump_rule(first, lowest, trump_suit))
        if dealt_trump is None and first == _fallback(planner, wants, first):
            choices.append(_no_trump_rule(planner, wants, first, trump_suit))
    for rule in choices:
        if rule is None:
            continue
        deck = _assign(planner, node, wants, rule)
        if deck is not None:
            return deck
    return None


def _lowest_trump_rule(first: int, lowest: str, trump_suit: str):
    def allowed(seat: int, card: str, arrival: int) -> bool:
        if arrival != 0 or suit_of(card) != trump_suit:
            return True
        if seat == first:
            return card == lowest or not _low(card, lowest)
        return not _low(card, lowest)

    def forced(seat: int, card: str, arrival: int) -> bool:
        return not (seat == first and card == lowest and arrival != 0)

    return lambda seat, card, arrival: allowed(seat, card, arrival) and forced(seat, card, arrival)


def _fallback(planner: Planner, wants, first: int) -> int:
    """The seat ``no_trump_fallback`` names when nobody is dealt a trump (``lowest_card``
    is settled by the rule itself: the first attacker must be dealt the lowest card)."""
    t = planner.t
    fallback = t.opt("no_trump_fallback")
    if fallback == "seat_zero":
        return 0
    if fallback == "dealer_left":
        return (t.dealer + 1) % planner.n
    return first


def _no_trump_rule(planner: Planner, wants, first: int, trump_suit: str):
    t = planner.t
    if t.opt("no_trump_fallback") != "lowest_card":
        return lambda seat, card, arrival: arrival != 0 or suit_of(card) != trump_suit
    own = sorted((c for c, _ in wants[first] if suit_of(c) != trump_suit), key=_card_low)
    if not own:
        return None
    lowest = own[0]

    def allowed(seat: int, card: str, arrival: int) -> bool:
        if arrival != 0:
            return True
        if suit_of(card) == trump_suit:
            return False
        if seat == first and card == lowest:
            return True
        return _card_low(card) > _card_low(lowest)

    def forced(seat: int, card: str, arrival: int) -> bool:
        return not (seat == first and card == lowest and arrival != 0)

    return lambda seat, card, arrival: allowed(seat, card, arrival) and forced(seat, card, arrival)


def _card_low(card: str) -> tuple[int, int, int]:
    """R-ROLE-1 ``lowest_card``: lowest rank, then suit order C D H S, then the first copy."""
    return (RANKS.index(rank_of(card)), SUITS.index(suit_of(card)), card_key(card)[0])


def _assign(planner: Planner, node: Node, wants, rule) -> list[str] | None:
    t = planner.t
    deck: list[str | None] = [None] * len(t.deck)
    for seat in range(planner.n):
        got = _match(
            wants[seat],
            list(node.slots[seat]),
            lambda card, arrival, seat=seat: rule(seat, card, arrival),
        )
        if got is None:
            return None
        for card, position in got.items():
            deck[position] = card
    if len(t.deck) == 6 * planner.n:
        deck[6 * planner.n - 1] = t.trump
    else:
        deck[planner.draw_pos[-1]] = t.trump
        rest = planner.draw_pos[planner.final_drawn :]
        for position, card in zip(rest, t.talon):
            deck[position] = card
    if None in deck or len(set(deck)) != len(deck):
        return None
    return deck  # type: ignore[return-value]
