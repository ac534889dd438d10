"""The end of a bout, set off by the move that completes it: discard or pick-up (R-BOUT-1,
R-TAKE-3), drawing (R-DRAW-1..3), going out (R-OUT-1..3), the next bout's roles (R-ROLE-2..4)
and, when at most one player (team) still holds cards, the result (R-END-1..6, R-TEAM-3).

Rule IDs (spec/rules.md) are cited next to the code that implements them.
"""

from __future__ import annotations

from reference_impl.cards import RANK_OF
from reference_impl.state import State
from reference_impl.tables import HAND_SIZE, draw_order


def close_bout(s: State, took: bool) -> None:
    """R-BOUT-1/2, R-TAKE-3: the bout closes; the table goes to the discard pile or to the
    defender, then drawing, going out, and the next bout or the result."""
    d = s.defender
    t_att, t_def = s.t_att, s.t_def
    ep = 0
    if took:
        # R-TAKE-3: the defender picks up every table card; everyone saw them (R-INFO-3).
        mask = 0
        low = s.r.low_rank
        for i in range(len(t_att)):
            mask |= 1 << t_att[i]
            if t_def[i] >= 0:
                mask |= 1 << t_def[i]
            elif RANK_OF[t_att[i]] == low:
                ep += 1
        s.hands[d] |= mask
        s.known[d] |= mask
    else:
        discard = s.discard
        for i in range(len(t_att)):
            discard.append(t_att[i])
            discard.append(t_def[i])
    s.t_att = []
    s.t_by = []
    s.t_def = []
    s.unbeaten = 0
    s.throw_mask = 0
    _draw(s)
    if not s.stock:
        finished = s.finished
        hands = s.hands
        if s.r.finish_draw_order:  # R-OUT-3, finish_order: draw_order
            for p in draw_order(s.n, s.attacker, s.defender):
                if p in s.emptied and not hands[p] and p not in finished:
                    finished.append(p)
        for p in s.emptied:
            if not hands[p] and p not in finished:
                finished.append(p)
        for p in range(s.n):  # not reachable from a deal; keeps hand-built states consistent
            if not hands[p] and p not in finished:
                finished.append(p)
    if game_decided(s):
        finish(s, took=took, epaulettes=ep)
        return
    _next_bout(s, took)


def _draw(s: State) -> None:
    """R-DRAW-1/2/3: refill to six in draw order; the trump card is drawn last."""
    stock = s.stock
    if not stock:
        return
    hands = s.hands
    trump = s.trump
    order = draw_order(s.n, s.attacker, s.defender)
    if s.r.draw_one_at_a_time:
        drew = True
        while drew and stock:
            drew = False
            for p in order:
                if stock and hands[p].bit_count() < HAND_SIZE:
                    c = stock.pop()
                    hands[p] |= 1 << c
                    if c == trump:
                        s.known[p] |= 1 << c
                    drew = True
    else:
        for p in order:
            need = HAND_SIZE - hands[p].bit_count()
            while need > 0 and stock:
                c = stock.pop()
                hands[p] |= 1 << c
                if c == trump:
                    s.known[p] |= 1 << c
                need -= 1


def game_decided(s: State) -> bool:
    """R-END-1 / R-TEAM-3: at most one player (team) still holds cards."""
    teams = s.teams
    seen = -1
    for p in range(s.n):
        if s.hands[p]:
            key = p if teams is None else teams[p]
            if seen == -1:
                seen = key
            elif key != seen:
                return False
    return True


def _next_bout(s: State, took: bool) -> None:
    """R-ROLE-2/3/4: roles of the next bout, skipping players who are out."""
    n = s.n
    hands = s.hands
    d = s.defender
    start = d + 1 if took else d
    attacker = -1
    for i in range(n):
        p = (start + i) % n
        if hands[p]:
            attacker = p
            break
    teams = s.teams
    defender = -1
    for i in range(1, n):
        q = (attacker + i) % n
        if hands[q] and (teams is None or teams[q] != teams[attacker]):
            defender = q
            break
    s.bout += 1
    s.attacker = attacker
    s.defender = defender
    s.opener = attacker
    s.passed = 0
    s.taking = False
    s.first_def = -1
    s.shown = 0
    s.emptied = []


def finish(s: State, took: bool, epaulettes: int) -> None:
    """R-END-2..6, R-TEAM-3: the result."""
    r = s.r
    teams = s.teams
    holders = [p for p in range(s.n) if s.hands[p]]
    fool = None
    draw = False
    losing_team = None
    if not holders:
        # R-END-3: the last players all ran out in the same bout
        if r.tie_defender_fool:
            fool = s.defender
            losing_team = None if teams is None else teams[fool]
        else:
            draw = True
    elif teams is None:
        fool = holders[0]
    else:
        # R-END-2: the losing team's first member holding cards clockwise from the defender
        losing_team = teams[holders[0]]
        for i in range(s.n):
            q = (s.defender + i) % s.n
            if s.hands[q]:
                fool = q
                break
    finished = list(s.finished)
    winners = _winners(s, finished, fool, losing_team, draw)
    ep = None
    if r.epaulettes:
        # R-END-6: the fool took in the final bout; count the lowest-rank cards he failed to beat
        ep = epaulettes if (took and fool is not None and fool == s.defender) else 0
    s.result = {
        "fool": fool,
        "draw": draw,
        "losing_team": losing_team,
        "winners": winners,
        "finishing_order": finished,
        "epaulettes": ep,
    }
    s.bout = 0


def _winners(s: State, finished: list, fool, losing_team, draw: bool) -> list:
    """R-END-4 (``win_mode``) and R-TEAM-3; seats in finishing order."""
    mode = s.r.win_mode
    teams = s.teams
    if mode == "loser_only":
        return []
    if mode == "ranking":
        return [p for p in finished
                if p != fool and (teams is None or teams[p] != losing_team)]
    if teams is None:
        return [p for p in finished if p != fool][:1]
    # first_out_wins with teams: the first team whose last member went out, not the losing team
    for i, p in enumerate(finished):
        t = teams[p]
        done = finished[: i + 1]
        if t != losing_team and all(teams[q] != t or q in done for q in range(s.n)):
            return [q for q in finished if teams[q] == t]
    return []
