"""What the rules ask of a position, shared by the move generator, the move applier, the end of
a bout and the diagnosis of a refused move: the attack cap and the room left on the table
(R-ATTACK-3/4), who may throw in and who still owes a pass (R-THROW-3..5), where a transfer goes
and whether it fits (R-TRANSFER-1..3, R-TRANSFER-7).

Rule IDs (spec/rules.md) are cited next to the code that implements them.
"""

from __future__ import annotations

from reference_impl.state import State
from reference_impl.tables import (
    CAP_HAND,
    CAP_SIX,
    CAP_SIX_FIVE_FIRST,
    CAPACITY_HAND_AND_LIMIT,
    CAPACITY_HAND_PLUS_ONE,
    NO_CAP,
    PRIO_CIRCLE,
    PRIO_FREE,
    SHOW_ANY_TIME,
    SHOW_OFF,
)


def cap(s: State) -> int:
    """R-ATTACK-3: the most attack cards this bout may hold (``attack_limit``)."""
    mode = s.r.cap_mode
    if mode == CAP_SIX_FIVE_FIRST:
        return 6 if s.discard else 5
    if mode == CAP_SIX:
        return 6
    if mode == CAP_HAND:
        return NO_CAP
    return 5 if s.bout == 1 else 6


def room(s: State) -> int:
    """How many more attack cards fit now: the cap (R-ATTACK-3) and unbeaten <= the defender's hand
    (R-ATTACK-4)."""
    a = cap(s) - len(s.t_att)
    b = s.hands[s.defender].bit_count() - s.unbeaten
    return min(b, a)


def partners(s: State, p: int, q: int) -> bool:
    t = s.teams
    return t is not None and t[p] == t[q]


def eligible(s: State) -> list:
    """R-THROW-3 / R-ROLE-5: the attackers who may add cards, in circle order (the main attacker,
    then clockwise from the defender's left): not the defender, not his partner, holding cards;
    with ``throwers: main_only`` only the main attacker."""
    d = s.defender
    main = s.attacker
    hands = s.hands
    teams = s.teams
    out = []
    if main != d and hands[main] and (teams is None or teams[main] != teams[d]):
        out.append(main)
    if s.r.main_only:
        return out
    n = s.n
    for i in range(1, n):
        p = (d + i) % n
        if p != main and hands[p] and (teams is None or teams[p] != teams[d]):
            out.append(p)
    return out


def priority(s: State) -> list:
    """R-THROW-4: the eligible attackers who may throw in (or pass) right now."""
    el = eligible(s)
    passed = s.passed
    pr = s.r.priority
    if pr == PRIO_CIRCLE:
        for p in el:
            if not (passed >> p) & 1:
                return [p]
        return []
    if pr == PRIO_FREE:
        return [p for p in el if not (passed >> p) & 1]
    # main_first
    main = s.attacker
    if el and el[0] == main and not (passed >> main) & 1:
        return [main]
    return [p for p in el if not (passed >> p) & 1]


def any_unpassed(s: State) -> bool:
    """R-THROW-5 / R-BOUT-1/2: does an eligible attacker still owe a pass? Every one who has not
    passed (``pass_required: every_eligible``), or only those who hold a card of a rank that may
    be thrown in (``only_able``)."""
    passed = s.passed
    able = s.r.pass_only_able
    hands = s.hands
    tm = s.throw_mask
    for p in eligible(s):
        if not (passed >> p) & 1 and (not able or hands[p] & tm):
            return True
    return False


def transfer_target(s: State) -> int:
    """OQ7: the next seat clockwise from the defender that holds cards and is his opponent."""
    d = s.defender
    n = s.n
    hands = s.hands
    teams = s.teams
    for i in range(1, n):
        p = (d + i) % n
        if hands[p] and (teams is None or teams[p] != teams[d]):
            return p
    return -1


def capacity_ok(s: State, target: int, added: int) -> bool:
    """R-TRANSFER-3: may ``target`` face the attack once ``added`` cards join it?"""
    r = s.r
    unbeaten = s.unbeaten + added
    hand = s.hands[target].bit_count()
    if r.capacity == CAPACITY_HAND_PLUS_ONE:
        return hand > unbeaten
    if hand < unbeaten:
        return False
    if r.capacity == CAPACITY_HAND_AND_LIMIT:
        return len(s.t_att) + added <= cap(s)
    return True


def attack_rank_cards(s: State) -> int:
    """Mask of the deck's cards of the attack rank (the rank every attack card shares), or 0 when
    the attack cards have several ranks (section 11 of spec/rules.md)."""
    rm = s.r.rank_mask
    t_att = s.t_att
    m = rm[t_att[0]]
    for c in t_att:
        if not (m >> c) & 1:
            return 0
    return m


def transfer_window(s: State) -> bool:
    """R-TRANSFER-2: no attack card beaten yet (so one rank only), not bout 1 with
    ``not_first_bout``; the defender has not declared take."""
    if s.taking or not s.t_att or s.unbeaten != len(s.t_att):
        return False
    return not (s.r.transfer_not_first_bout and s.bout == 1)


def show_window(s: State) -> bool:
    """R-TRANSFER-7: when a trump may be shown (``trump_show``)."""
    mode = s.r.trump_show
    if mode == SHOW_OFF or not s.r.transfer:
        return False
    if mode == SHOW_ANY_TIME:
        return not s.taking and s.unbeaten > 0 and attack_rank_cards(s) != 0
    return transfer_window(s)
