"""A new game: the deal, the trump card, the first attacker, and the next game of a match.

R-DEAL-1..3, R-TRUMP-1..3, R-ROLE-1/2, R-MATCH-1..3 (docs/architecture.md, "deal"): the deck order
is an input (explicit or from a seed); dealing starts at the dealer's left; the trump card is deck
index 6N (``after_deal``) or the deck's last card (``bottom``), the last card drawn; with no talon
it is the last card dealt and stays in the dealer's hand.
"""

from __future__ import annotations

from reference_impl.cards import RANK_OF, SUIT_OF
from reference_impl.state import State
from reference_impl.tables import HAND_SIZE, Rules


def deal(
    rules: Rules,
    n: int,
    deck: list[int],
    dealer: int,
    first_attacker: int | None = None,
) -> State:
    """The state after dealing ``deck`` (card numbers, in deck order) with ``dealer`` dealing.

    ``first_attacker`` is given for a later game of a match (R-MATCH-2); otherwise R-ROLE-1
    decides.
    """
    hands = [0] * n
    dealt_at = {}
    for k in range(HAND_SIZE * n):
        if rules.deal_six_at_once:
            seat = (dealer + 1 + k // HAND_SIZE) % n
        else:
            seat = (dealer + 1 + k) % n
        hands[seat] |= 1 << deck[k]
        dealt_at[deck[k]] = k
    dealt = HAND_SIZE * n
    known = [0] * n
    if dealt == len(deck):
        trump = deck[dealt - 1]  # R-TRUMP-3: the last card dealt, the dealer's
        talon = []
        known[dealer] |= 1 << trump
    elif rules.trump_bottom:
        trump = deck[-1]
        talon = list(deck[dealt:])
    else:
        trump = deck[dealt]
        talon = list(deck[dealt + 1:]) + [trump]

    s = State.__new__(State)
    s.r = rules
    s.n = n
    s.teams = rules.team_list(n) if rules.teams != "none" else None
    s.beats = rules.beats(SUIT_OF[trump])
    s.dealer = dealer
    s.trump = trump
    s.stock = talon[::-1]
    s.discard = []
    s.hands = hands
    s.known = known
    s.t_att = []
    s.t_by = []
    s.t_def = []
    s.unbeaten = 0
    s.throw_mask = 0
    s.bout = 1
    s.passed = 0
    s.taking = False
    s.first_def = -1
    s.shown = 0
    s.emptied = []
    s.finished = []
    s.result = None
    if first_attacker is None:
        first_attacker = choose_first_attacker(rules, hands, trump, dealer, dealt_at)
    s.attacker = first_attacker
    s.opener = first_attacker
    s.defender = first_defender(s, first_attacker)
    return s


def first_defender(s: State, attacker: int) -> int:
    """R-ROLE-2: the next seat clockwise holding cards that is not the attacker's partner."""
    for i in range(1, s.n):
        q = (attacker + i) % s.n
        if s.hands[q] and (s.teams is None or s.teams[q] != s.teams[attacker]):
            return q
    return -1


def choose_first_attacker(rules: Rules, hands: list, trump: int, dealer: int, dealt_at) -> int:
    """R-ROLE-1: ``first_attacker`` and ``no_trump_fallback`` (OQ10: of two equal lowest trumps
    the copy dealt first)."""
    n = len(hands)
    if not rules.first_attacker_lowest_trump:
        return (dealer + 1) % n
    tsuit = SUIT_OF[trump]
    best = None
    for seat, h in enumerate(hands):
        m = h
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            if SUIT_OF[c] == tsuit:
                key = (RANK_OF[c], dealt_at[c])
                if best is None or key < best[0]:
                    best = (key, seat)
    if best is not None:
        return best[1]
    fallback = rules.no_trump_fallback
    if fallback == "seat_zero":
        return 0
    if fallback == "lowest_card":
        best = None
        for seat, h in enumerate(hands):
            m = h
            while m:
                low = m & -m
                c = low.bit_length() - 1
                m ^= low
                key = (RANK_OF[c], SUIT_OF[c], dealt_at[c])  # twins: the copy dealt first
                if best is None or key < best[0]:
                    best = (key, seat)
        return best[1]
    return (dealer + 1) % n


def next_game_roles(rules: Rules, n: int, previous: dict) -> tuple[int, int | None]:
    """R-MATCH-1..3: (dealer, first attacker or None) of the game after ``previous``.

    The fool deals; the fool's left (``fool_left``) or right (``fool_right``) attacks first. After a
    draw the same dealer deals a first game (None: R-ROLE-1). The API has refused a result that
    names neither a fool nor a draw, which no game ends with (spec/protocol.md P-21).
    """
    result = previous["result"]
    fool = result.get("fool")
    if result.get("draw") or fool is None:
        return previous["dealer"], None
    first = (fool + 1) % n if rules.next_game_left else (fool - 1) % n
    return fool, first
