"""The game itself on a compact, mutable state: legal moves and their effects.

This is the engine's fast path. The JSON API (``reference_impl.api``) converts a state dict into a
:class:`State` (cards as integers, hands as bit masks, the talon as a stack), calls
:func:`legal_moves` / :func:`apply_move` here, and converts back. Random playouts and the benchmark
use this module directly, mutating one :class:`State` in place, which is what makes them fast.

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

from reference_impl.cards import RANK_OF, SUIT_OF
from reference_impl.tables import (
    CAP_HAND,
    CAP_SIX,
    CAP_SIX_FIVE_FIRST,
    CAPACITY_HAND_AND_LIMIT,
    CAPACITY_HAND_PLUS_ONE,
    HAND_SIZE,
    NO_CAP,
    PRIO_CIRCLE,
    PRIO_FREE,
    SHOW_ANY_TIME,
    SHOW_OFF,
    TIMING_AFTER_FIRST_BEAT,
    TIMING_ALL_BEATEN,
    draw_order,
)

ATTACK, THROW_IN, BEAT, TAKE, PASS, TRANSFER, SHOW_TRUMP = range(7)
ACTION_NAMES = ("attack", "throw_in", "beat", "take", "pass", "transfer", "show_trump")
ACTION_CODES = {name: code for code, name in enumerate(ACTION_NAMES)}


class State:
    """One position, mutable. Attribute names follow the JSON state (docs/architecture.md).

    ``stock`` is the talon reversed (next card to draw is ``stock[-1]``); ``hands``/``known`` are
    bit masks per seat; the table is three parallel lists (attack card, seat that played it,
    defence card or -1); ``passed`` and ``shown`` are masks; ``bout`` is 0 when there is no bout.
    Derived fields kept up to date for speed: ``unbeaten`` (count of unbeaten attack cards) and
    ``throw_mask`` (every card whose rank may be thrown in now, R-THROW-1).
    """

    __slots__ = (
        "attacker",
        "beats",
        "bout",
        "dealer",
        "defender",
        "discard",
        "emptied",
        "finished",
        "first_def",
        "hands",
        "known",
        "n",
        "opener",
        "passed",
        "r",
        "result",
        "shown",
        "stock",
        "t_att",
        "t_by",
        "t_def",
        "taking",
        "teams",
        "throw_mask",
        "trump",
        "unbeaten",
    )

    def copy(self) -> State:
        s = State.__new__(State)
        s.r = self.r
        s.n = self.n
        s.teams = self.teams
        s.beats = self.beats
        s.dealer = self.dealer
        s.trump = self.trump
        s.stock = list(self.stock)
        s.discard = list(self.discard)
        s.hands = list(self.hands)
        s.known = list(self.known)
        s.t_att = list(self.t_att)
        s.t_by = list(self.t_by)
        s.t_def = list(self.t_def)
        s.unbeaten = self.unbeaten
        s.throw_mask = self.throw_mask
        s.bout = self.bout
        s.attacker = self.attacker
        s.defender = self.defender
        s.opener = self.opener
        s.passed = self.passed
        s.taking = self.taking
        s.first_def = self.first_def
        s.shown = self.shown
        s.emptied = list(self.emptied)
        s.finished = list(self.finished)
        s.result = None if self.result is None else dict(self.result)
        return s

    @property
    def trump_suit(self) -> int:
        return SUIT_OF[self.trump]

    def recompute_derived(self) -> None:
        """Set ``unbeaten`` and ``throw_mask`` from the table (after loading a state)."""
        self.unbeaten = sum(1 for d in self.t_def if d < 0)
        rm = self.r.rank_mask
        if not self.t_att:
            self.throw_mask = 0
        elif self.r.first_pair:
            m = rm[self.t_att[0]]
            if self.first_def >= 0:
                m |= rm[self.first_def]
            self.throw_mask = m
        else:
            m = 0
            for c in self.t_att:
                m |= rm[c]
            for c in self.t_def:
                if c >= 0:
                    m |= rm[c]
            self.throw_mask = m


# --------------------------------------------------------------------------- helpers


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


def _submasks(group: int, limit: int, out: list, player: int, action: int) -> None:
    sub = group
    while sub:
        if sub.bit_count() <= limit:
            out.append((player, action, sub, 0))
        sub = (sub - 1) & group


# --------------------------------------------------------------------------- legal moves


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
        if _game_decided(s):
            _finish(s, took=False, epaulettes=0)


def _maybe_close(s: State) -> None:
    """R-BOUT-1/2/3: close the bout if the move just made completes it."""
    if s.taking:
        if not s.r.pile_on or room(s) <= 0 or not any_unpassed(s):
            _close(s, took=True)
    elif s.unbeaten == 0 and (room(s) <= 0 or not any_unpassed(s)):
        _close(s, took=False)


def _close(s: State, took: bool) -> None:
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
    if _game_decided(s):
        _finish(s, took=took, epaulettes=ep)
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


def _game_decided(s: State) -> bool:
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


def _finish(s: State, took: bool, epaulettes: int) -> None:
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
