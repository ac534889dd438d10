"""The game itself on a compact, mutable state: legal moves and their effects.

This is the engine's fast path. The JSON API (``reference_impl.api``) converts a state dict into a
:class:`~reference_impl.state.State` (cards as integers, hands as bit masks, the talon as a stack),
calls :func:`legal_moves` / :func:`apply_move` here, and converts back. Random playouts and the
benchmark use this module directly, mutating one state in place, which is what makes them fast.
What the rules ask of a position lives in ``reference_impl.queries``; what happens when a bout
closes (discard or pick-up, drawing, going out, the next roles, the result) in
``reference_impl.bout_end``.

Internal moves are 4-tuples ``(player, action, x, y)``:

=========== ============================== =====================
action       x                              y
=========== ============================== =====================
ATTACK       mask of the cards              0
THROW_IN     card                           0
BEAT         target (attack card)           card
TAKE, PASS   0                              0
TRANSFER     mask of the cards              0
SHOW_TRUMP   card                           0
=========== ============================== =====================

:func:`apply_move` trusts its move to be legal (it is the move generator's job, and the JSON API
checks a move against :func:`legal_moves` before applying it); the rules a move can break are
named by ``reference_impl.diagnose``.

Rule IDs (spec/rules.md) are cited next to the code that implements them.
"""

from __future__ import annotations

from reference_impl.bout_end import close_bout, finish, game_decided
from reference_impl.cards import SUIT_OF
from reference_impl.queries import (
    any_unpassed,
    attack_rank_cards,
    cap,
    capacity_ok,
    partners,
    priority,
    room,
    show_window,
    transfer_target,
    transfer_window,
)
from reference_impl.state import (
    ATTACK,
    BEAT,
    PASS,
    SHOW_TRUMP,
    TAKE,
    THROW_IN,
    TRANSFER,
    State,
)
from reference_impl.tables import TIMING_AFTER_FIRST_BEAT, TIMING_ALL_BEATEN

# --------------------------------------------------------------------------- legal moves


def _submasks(group: int, limit: int, out: list, player: int, action: int) -> None:
    sub = group
    while sub:
        if sub.bit_count() <= limit:
            out.append((player, action, sub, 0))
        sub = (sub - 1) & group


def legal_moves(s: State) -> list:
    """Every legal move of every player (R-PLAY-1), as internal tuples; [] once the game is over."""
    if s.result is not None:
        return []
    r = s.r
    hands = s.hands
    d = s.defender
    out = []
    if not s.t_att:
        # R-ATTACK-1/2: the main attacker opens; one card or several of one rank.
        a = s.attacker
        h = hands[a]
        limit = cap(s)
        dh = hands[d].bit_count()
        limit = min(limit, dh)
        if r.opening_multi and limit > 1:
            rm = r.rank_mask
            rest = h
            while rest:
                low = rest & -rest
                group = h & rm[low.bit_length() - 1]
                rest &= ~group
                _submasks(group, limit, out, a, ATTACK)
        else:
            while h:
                low = h & -h
                out.append((a, ATTACK, low, 0))
                h ^= low
        return out

    u = s.unbeaten
    taking = s.taking
    if not taking:
        if u:
            hd = hands[d]
            beats = s.beats
            t_def = s.t_def
            t_att = s.t_att
            for i in range(len(t_att)):
                if t_def[i] < 0:
                    t = t_att[i]
                    m = hd & beats[t]
                    while m:
                        low = m & -m
                        out.append((d, BEAT, t, low.bit_length() - 1))
                        m ^= low
                    if r.beat_earliest:
                        break
            out.append((d, TAKE, 0, 0))
            if r.transfer:
                _transfer_moves(s, out)
        elif r.take_any_time:
            out.append((d, TAKE, 0, 0))

    # attackers: throw-ins and passes
    if taking:
        can_throw = r.pile_on
    else:
        timing = r.timing
        if timing == TIMING_AFTER_FIRST_BEAT:
            can_throw = s.first_def >= 0
        elif timing == TIMING_ALL_BEATEN:
            can_throw = u == 0
        else:
            can_throw = True
    if can_throw and room(s) <= 0:
        can_throw = False
    can_pass = taking or u == 0
    if can_throw or can_pass:
        tm = s.throw_mask
        for p in priority(s):
            if can_throw:
                m = hands[p] & tm
                while m:
                    low = m & -m
                    out.append((p, THROW_IN, low.bit_length() - 1, 0))
                    m ^= low
            if can_pass:
                out.append((p, PASS, 0, 0))
    return out


def _transfer_moves(s: State, out: list) -> None:
    r = s.r
    d = s.defender
    target = transfer_target(s)
    if target < 0 or (not r.transfer_around and target == s.opener):
        return
    rank_cards = s.hands[d] & attack_rank_cards(s)
    if not rank_cards:
        return
    if transfer_window(s):
        if r.transfer_several:
            sub = rank_cards
            while sub:
                if capacity_ok(s, target, sub.bit_count()):
                    out.append((d, TRANSFER, sub, 0))
                sub = (sub - 1) & rank_cards
        elif capacity_ok(s, target, 1):
            m = rank_cards
            while m:
                low = m & -m
                out.append((d, TRANSFER, low, 0))
                m ^= low
    if show_window(s) and capacity_ok(s, target, 0):
        tsuit = SUIT_OF[s.trump]
        m = rank_cards & ~s.shown
        while m:
            low = m & -m
            c = low.bit_length() - 1
            if SUIT_OF[c] == tsuit:
                out.append((d, SHOW_TRUMP, c, 0))
            m ^= low


# --------------------------------------------------------------------------- applying moves


def apply_move(s: State, m: tuple) -> None:
    """Apply a legal move in place, including everything it sets off: the end of the bout (discard
    or pick-up, drawing, going out, the next roles) and the end of the game."""
    p, act, x, y = m
    if act == BEAT:
        _beat(s, x, y)
    elif act == THROW_IN:
        _put(s, p, 1 << x)
        if s.r.reset_any:
            s.passed = 0
    elif act == PASS:
        s.passed |= 1 << p
    elif act == TAKE:
        s.taking = True
        if s.r.take_clears:
            s.passed = 0  # R-THROW-6: take_clears_passes: on
    elif act == ATTACK:
        _put(s, p, x)
    elif act == TRANSFER:
        _pass_on(s, p)  # before the cards leave the hand: going out may end the game (R-OUT-2)
        _put(s, p, x)
    elif act == SHOW_TRUMP:
        s.shown |= 1 << x
        s.known[p] |= 1 << x
        _pass_on(s, p)
    if s.result is None:
        _maybe_close(s)


def _put(s: State, p: int, mask: int) -> None:
    """Cards from ``p``'s hand onto the table as attack cards (attack, throw-in, transfer)."""
    s.hands[p] &= ~mask
    s.known[p] &= ~mask
    rm = s.r.rank_mask
    first_pair = s.r.first_pair
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        mask ^= low
        if not s.t_att or not first_pair:
            s.throw_mask |= rm[c]
        s.t_att.append(c)
        s.t_by.append(p)
        s.t_def.append(-1)
        s.unbeaten += 1
    if not s.hands[p]:
        _emptied(s, p)


def _beat(s: State, target: int, card: int) -> None:
    d = s.defender
    i = s.t_att.index(target)
    s.t_def[i] = card
    s.unbeaten -= 1
    bit = 1 << card
    s.hands[d] &= ~bit
    s.known[d] &= ~bit
    if s.first_def < 0:
        s.first_def = card
        s.throw_mask |= s.r.rank_mask[card]
    elif not s.r.first_pair:
        s.throw_mask |= s.r.rank_mask[card]
    s.passed = 0  # R-THROW-6: a beat clears every pass (both pass_reset values)
    if not s.hands[d]:
        _emptied(s, d)


def _pass_on(s: State, p: int) -> None:
    """After a transfer or trump show by defender ``p``: the next opponent defends (R-TRANSFER-1),
    the main attacker per ``transfer_main_attacker`` (R-TRANSFER-6), passes cleared (R-THROW-6)."""
    target = transfer_target(s)
    main = s.attacker
    if s.r.main_last_transferrer or main == target or partners(s, main, target):
        s.attacker = p
    s.defender = target
    s.passed = 0


def _emptied(s: State, p: int) -> None:
    """R-OUT-1/2/3: ``p``'s hand just became empty during the bout."""
    s.emptied.append(p)
    if s.r.out_immediate and not s.stock:
        s.finished.append(p)
        if game_decided(s):
            finish(s, took=False, epaulettes=0)


def _maybe_close(s: State) -> None:
    """R-BOUT-1/2/3: close the bout if the move just made completes it."""
    if s.taking:
        if not s.r.pile_on or room(s) <= 0 or not any_unpassed(s):
            close_bout(s, took=True)
    elif s.unbeaten == 0 and (room(s) <= 0 or not any_unpassed(s)):
        close_bout(s, took=False)
