"""An independent Durak move generator and perft counter, written from the contract alone.

Why it exists: perft counts deeper than a person can work out by hand must not be copied from the
reference engine (they would then test nothing). This module re-derives them from the rules text of
``docs/architecture.md`` (and ``spec/rules.md``) with its own code: it imports nothing from
``reference_impl`` or ``conformance`` and shares no data structure with them. The tests compare its
counts with the engine's; a disagreement is examined by hand against the rules.

Scope: what the perft positions need and no more. The default podkidnoy options, plus:
``opening`` (single / same_rank), ``attack_limit`` (all four values), ``throw_in_priority``
(free / main_first / circle), ``throw_in_timing`` (all three), ``pile_on``, ``teams`` (2v2, 3v3,
2v2v2), and the transfer game (``transfer: on``) with ``transfer_cards``, ``transfer_capacity``,
``transfer_around``, ``transfer_condition`` and ``trump_show`` (the transferrer becomes main
attacker). Options that change only the result record, the deal or what a player sees are
accepted and ignored (they do not change any count). Any other non-default option value raises
``NotSupported``: the caller then has no independent figure, rather than a wrong one.

Internal representation (deliberately unlike the engine's JSON): hands are tuples of card strings,
the table a tuple of (attack, by, defence-or-None), and only what decides the legal moves is kept
(the discard pile is kept as a count, the known cards and the finishing order not at all), so the
transposition cache here merges states the engine keeps apart, which changes nothing in the counts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

RANKS = "23456789TJQKA"
SUITS = "CDHS"
RANK = {r: i for i, r in enumerate(RANKS)}

DEFAULTS = {
    "deck_size": 36, "decks": 1, "attack_limit": "six_five_first", "opening": "same_rank",
    "throw_in_timing": "any_time", "throw_in_ranks": "table", "throw_in_priority": "circle",
    "throwers": "all", "pass_reset": "beat", "pile_on": "allowed", "draw_order": "fill_in_turn",
    "out_timing": "bout_end", "tie": "draw", "win_mode": "loser_only",
    "first_attacker": "lowest_trump", "no_trump_fallback": "dealer_left",
    "next_game": "fool_left", "trump_card": "after_deal", "deal_order": "one_at_a_time",
    "transfer": "off", "transfer_condition": "before_first_beat",
    "transfer_capacity": "hand_and_limit", "transfer_cards": "several",
    "transfer_around": "allowed", "trump_show": "off", "transfer_main_attacker": "last_transferrer",
    "teams": "none", "epaulettes": "off", "discard_visibility": "count", "beat_order": "any",
    "take_allowed": "while_unbeaten",
}
# Options this counter implements beyond their default value.
VARIABLE = {
    "opening": {"single", "same_rank"},
    "attack_limit": {"hand", "six", "six_five_first", "six_five_first_bout"},
    "throw_in_priority": {"free", "main_first", "circle"},
    "pile_on": {"allowed", "forbidden"},
    "throw_in_timing": {"any_time", "after_first_beat", "all_beaten"},
    "teams": {"none", "2v2", "3v3", "2v2v2"},
    "transfer": {"off", "on"},
    "transfer_cards": {"one", "several"},
    "transfer_capacity": {"hand", "hand_and_limit", "hand_plus_one"},
    "transfer_around": {"allowed", "forbidden"},
    "transfer_condition": {"before_first_beat", "not_first_bout"},
    "trump_show": {"off", "before_first_beat", "any_time"},
    # options that only change the result record, the deal or what a player sees: play is the same
    "win_mode": {"loser_only", "first_out_wins", "ranking"},
    "tie": {"draw", "defender_fool"},
    "epaulettes": {"off", "on"},
    "discard_visibility": {"count", "contents"},
    "next_game": {"fool_left", "fool_right"},
    "deck_size": {24, 36, 52, "24", "36", "52"},
    "decks": {1, 2, "1", "2"},  # cards are strings, twins ("7S2") simply never beat each other
}


class NotSupported(Exception):
    """The position uses an option value this counter does not implement."""


def rank(card: str) -> int:
    return RANK[card[0]]


def suit(card: str) -> str:
    return card[1]


def beats(card: str, target: str, trump: str) -> bool:
    """R-BEAT-1: higher card of the same suit, or a trump on a non-trump. Twins never beat."""
    if suit(card) == suit(target):
        return rank(card) > rank(target)
    return suit(card) == trump


@dataclass(frozen=True)
class Pos:
    """What decides the rest of the game."""

    hands: tuple[tuple[str, ...], ...]
    talon: tuple[str, ...]
    discard: int
    table: tuple[tuple[str, int, str | None], ...]
    attacker: int
    defender: int
    passed: frozenset[int]
    taking: bool
    number: int
    over: bool
    origin: int  # the bout's opener (transfer_around needs it)
    shown: frozenset[str] = frozenset()  # trumps shown for a transfer this bout (R-TRANSFER-8)


class Rules:
    """Legal moves and successors under one option set."""

    def __init__(self, options: dict[str, Any], players: int, trump_suit: str):
        for key, value in options.items():
            if key not in DEFAULTS or (
                key.startswith("transfer_") and options.get("transfer") != "on"
            ):
                continue  # transfer sub-options mean nothing while transfers are off
            if value != DEFAULTS[key] and value not in VARIABLE.get(key, ()):
                raise NotSupported(f"option {key}={value!r}")
        self.o = {**DEFAULTS, **options}
        self.n = players
        self.trump = trump_suit
        teams = self.o["teams"]
        if teams == "none":
            self.team = [i for i in range(players)]
        elif teams == "2v2v2":
            self.team = [i % 3 for i in range(players)]
        else:
            self.team = [i % 2 for i in range(players)]

    # ---------------------------------------------------------------- helpers

    def cap(self, p: Pos) -> int:
        limit = self.o["attack_limit"]
        if limit == "hand":
            return 10**6
        if limit == "six_five_first":
            return 5 if p.discard == 0 else 6
        if limit == "six_five_first_bout":
            return 5 if p.number == 1 else 6
        return 6

    def opponents(self, a: int, b: int) -> bool:
        return self.team[a] != self.team[b]

    def eligible(self, p: Pos) -> list[int]:
        """Attackers who may add cards at all: not the defender, not his partner, holding cards."""
        return [
            s for s in range(self.n)
            if s != p.defender and p.hands[s] and self.opponents(s, p.defender)
        ]

    def circle(self, p: Pos) -> list[int]:
        """Main attacker first, then clockwise from the defender's left."""
        order = [p.attacker]
        s = (p.defender + 1) % self.n
        while s != p.defender:
            if s != p.attacker:
                order.append(s)
            s = (s + 1) % self.n
        return order

    def may_add(self, p: Pos) -> list[int]:
        """Who may throw in (or pass) now under the priority option."""
        elig = set(self.eligible(p))
        waiting = [s for s in self.circle(p) if s in elig and s not in p.passed]
        prio = self.o["throw_in_priority"]
        if prio == "circle":
            return waiting[:1]
        if prio == "main_first" and p.attacker in waiting:
            return [p.attacker]
        return waiting

    def unbeaten(self, p: Pos) -> int:
        return sum(1 for _, _, d in p.table if d is None)

    def room(self, p: Pos) -> int:
        """How many more attack cards the limits allow."""
        return min(self.cap(p) - len(p.table), len(p.hands[p.defender]) - self.unbeaten(p))

    def next_with_cards(self, start: int, hands, exclude=()) -> int | None:
        for k in range(1, self.n + 1):
            s = (start + k) % self.n
            if hands[s] and s not in exclude:
                return s
        return None

    def defender_for(self, attacker: int, hands) -> int | None:
        for k in range(1, self.n):
            s = (attacker + k) % self.n
            if hands[s] and self.opponents(s, attacker):
                return s
        return None

    # ---------------------------------------------------------------- moves

    def moves(self, p: Pos) -> list[tuple[dict[str, Any], Pos]]:
        """Every legal move with its successor."""
        if p.over:
            return []
        out: list[tuple[dict[str, Any], Pos]] = []
        hands = p.hands
        a, d = p.attacker, p.defender
        if not p.table:
            groups: dict[str, list[str]] = {}
            for c in hands[a]:
                groups.setdefault(c[0], []).append(c)
            most = 1 if self.o["opening"] == "single" else min(self.cap(p), len(hands[d]))
            for cards in groups.values():
                for k in range(1, min(most, len(cards)) + 1):
                    for combo in combinations(cards, k):
                        move = {"player": a, "action": "attack", "cards": list(combo)}
                        out.append((move, self.after_attack(p, a, combo)))
            return out
        unbeaten = self.unbeaten(p)
        # defender
        if not p.taking:
            for i, (att, _, dfn) in enumerate(p.table):
                if dfn is not None:
                    continue
                for c in hands[d]:
                    if beats(c, att, self.trump):
                        move = {"player": d, "action": "beat", "target": att, "card": c}
                        out.append((move, self.after_beat(p, i, c)))
            if unbeaten:
                out.append(({"player": d, "action": "take"}, self.close_if_done(
                    replace(p, taking=True))))
            if self.o["transfer"] == "on":
                out.extend(self.transfers(p))
                out.extend(self.shows(p))
        # attackers
        if not (p.taking and self.o["pile_on"] == "forbidden"):
            ranks = {att[0] for att, _, _ in p.table} | {
                dfn[0] for _, _, dfn in p.table if dfn is not None
            }
            adders = self.may_add(p)
            timing = self.o["throw_in_timing"]
            timely = (
                p.taking
                or timing == "any_time"
                or (timing == "after_first_beat" and unbeaten < len(p.table))
                or (timing == "all_beaten" and unbeaten == 0)
            )
            if timely and self.room(p) > 0:
                for s in adders:
                    for c in hands[s]:
                        if c[0] in ranks:
                            move = {"player": s, "action": "throw_in", "card": c}
                            out.append((move, self.after_throw(p, s, c)))
            if unbeaten == 0 or p.taking:
                for s in adders:
                    out.append(({"player": s, "action": "pass"}, self.close_if_done(
                        replace(p, passed=p.passed | {s}))))
        return out

    def transfer_target(self, p: Pos) -> int | None:
        """Section 11: the first player clockwise from the defender holding cards, not a partner
        (and, with transfer_around: forbidden, not the bout's opener)."""
        target = self.defender_for(p.defender, p.hands)
        if target is not None and self.o["transfer_around"] == "forbidden" and target == p.origin:
            return None
        return target

    def transfer_timely(self, p: Pos) -> bool:
        """R-TRANSFER-2: nothing beaten yet (and not in bout 1 with not_first_bout)."""
        if any(dfn is not None for _, _, dfn in p.table):
            return False
        return not (self.o["transfer_condition"] == "not_first_bout" and p.number == 1)

    def shows(self, p: Pos) -> list[tuple[dict[str, Any], Pos]]:
        """R-TRANSFER-7/8: show the trump of the attack rank; it stays in hand."""
        when = self.o["trump_show"]
        if when == "off":
            return []
        ranks = {att[0] for att, _, _ in p.table}
        unbeaten = self.unbeaten(p)
        if len(ranks) != 1 or not unbeaten:
            return []
        if when == "before_first_beat" and not self.transfer_timely(p):
            return []
        target = self.transfer_target(p)
        if target is None:
            return []
        held = len(p.hands[target])
        capacity = self.o["transfer_capacity"]
        if held < unbeaten + (1 if capacity == "hand_plus_one" else 0):
            return []
        if capacity == "hand_and_limit" and len(p.table) > self.cap(p):
            return []
        out = []
        (r,) = ranks
        for c in p.hands[p.defender]:
            if c[0] == r and suit(c) == self.trump and c not in p.shown:
                nxt = replace(p, attacker=p.defender, defender=target, passed=frozenset(),
                              shown=p.shown | {c})
                out.append(({"player": p.defender, "action": "show_trump", "card": c}, nxt))
        return out

    def transfers(self, p: Pos) -> list[tuple[dict[str, Any], Pos]]:
        if not self.transfer_timely(p):
            return []
        d = p.defender
        target = self.transfer_target(p)
        if target is None:
            return []
        r = p.table[0][0][0]
        mine = [c for c in p.hands[d] if c[0] == r]
        out = []
        most = 1 if self.o["transfer_cards"] == "one" else len(mine)
        capacity = self.o["transfer_capacity"]
        for k in range(1, most + 1):
            for combo in combinations(mine, k):
                total = len(p.table) + k
                held = len(p.hands[target])
                if capacity == "hand_plus_one" and total >= held:
                    continue
                if total > held or (capacity == "hand_and_limit" and total > self.cap(p)):
                    continue
                hands = list(p.hands)
                hands[d] = tuple(c for c in hands[d] if c not in combo)
                table = p.table + tuple((c, d, None) for c in combo)
                nxt = replace(p, hands=tuple(hands), table=table, attacker=d, defender=target,
                              passed=frozenset())
                move = {"player": d, "action": "transfer", "cards": list(combo)}
                out.append((move, nxt))
        return out

    def after_attack(self, p: Pos, a: int, cards: tuple[str, ...]) -> Pos:
        hands = list(p.hands)
        hands[a] = tuple(c for c in hands[a] if c not in cards)
        return replace(p, hands=tuple(hands), table=tuple((c, a, None) for c in cards))

    def after_throw(self, p: Pos, s: int, card: str) -> Pos:
        hands = list(p.hands)
        hands[s] = tuple(c for c in hands[s] if c != card)
        nxt = replace(p, hands=tuple(hands), table=p.table + ((card, s, None),))
        return self.close_if_done(nxt)

    def after_beat(self, p: Pos, i: int, card: str) -> Pos:
        hands = list(p.hands)
        hands[p.defender] = tuple(c for c in hands[p.defender] if c != card)
        table = list(p.table)
        att, by, _ = table[i]
        table[i] = (att, by, card)
        nxt = replace(p, hands=tuple(hands), table=tuple(table), passed=frozenset())
        return self.close_if_done(nxt)

    # ---------------------------------------------------------------- closing a bout

    def close_if_done(self, p: Pos) -> Pos:
        """R-BOUT-1 / R-BOUT-2: everyone has passed, or no more card can be added."""
        waiting = [s for s in self.eligible(p) if s not in p.passed]
        full = len(p.table) >= self.cap(p) or self.unbeaten(p) >= len(p.hands[p.defender])
        if p.taking:
            if self.o["pile_on"] == "forbidden" or not waiting or full:
                return self.end_bout(p, took=True)
            return p
        if self.unbeaten(p):
            return p
        if not waiting or full:
            return self.end_bout(p, took=False)
        return p

    def end_bout(self, p: Pos, took: bool) -> Pos:
        hands = [list(h) for h in p.hands]
        cards = [c for att, _, dfn in p.table for c in (att, dfn) if c is not None]
        a, d = p.attacker, p.defender
        discard = p.discard
        if took:
            hands[d].extend(cards)
        else:
            discard += len(cards)
        talon = list(p.talon)
        # R-DRAW-2: main attacker, the others clockwise from his left, the defender last
        order = [a] + [(a + k) % self.n for k in range(1, self.n) if (a + k) % self.n != d] + [d]
        for s in order:
            while len(hands[s]) < 6 and talon:
                hands[s].append(talon.pop(0))
        hands_t = tuple(tuple(sorted(h)) for h in hands)
        holding = [s for s in range(self.n) if hands_t[s]]
        if len({self.team[s] for s in holding}) <= 1 and not talon:
            return replace(p, hands=hands_t, talon=(), discard=discard, table=(), over=True,
                           passed=frozenset(), taking=False)
        if took:
            nxt_a = self.next_with_cards(d, hands_t, exclude=(d,))
        else:
            nxt_a = d if hands_t[d] else self.next_with_cards(d, hands_t)
        nxt_d = self.defender_for(nxt_a, hands_t)
        if nxt_d is None:  # only partners of the attacker left: cannot happen with 1 team left
            raise AssertionError("no defender")
        return Pos(hands_t, tuple(talon), discard, (), nxt_a, nxt_d, frozenset(), False,
                   p.number + 1, False, nxt_a)


# -------------------------------------------------------------------- from JSON, deals, perft


def from_state(state: dict[str, Any]) -> tuple[Rules, Pos]:
    """Read a contract-format state (docs/architecture.md) into this module's own form."""
    opts = state["ruleset"]["options"]
    n = len(state["players"])
    rules = Rules(opts, n, state["trump"][1])
    if state.get("result") is not None or state.get("bout") is None:
        over = True
        bout = {"attacker": 0, "defender": 1, "passed": [], "taking": False, "number": 1,
                "opener": 0}
    else:
        over = False
        bout = state["bout"]
    pos = Pos(
        hands=tuple(tuple(sorted(p["hand"])) for p in state["players"]),
        talon=tuple(state["talon"]),
        discard=len(state["discard"]),
        table=tuple((t["attack"], t["by"], t["defence"]) for t in state["table"]),
        attacker=bout["attacker"],
        defender=bout["defender"],
        passed=frozenset(bout["passed"]),
        taking=bool(bout["taking"]),
        number=bout["number"],
        over=over,
        origin=bout.get("opener", bout["attacker"]),
        shown=frozenset(bout.get("shown", ())),
    )
    return rules, pos


def deck_cards(size: int) -> list[str]:
    low = {24: "9", 36: "6", 52: "2"}[size]
    ranks = RANKS[RANKS.index(low):]
    return [r + s for s in SUITS for r in ranks]


def deal(options: dict[str, Any], players: int, deck: list[str], dealer: int) -> tuple[Rules, Pos]:
    """The position after the deal (one card at a time from the dealer's left; trump after the
    deal; first attacker = lowest trump, else the dealer's left)."""
    for key in ("deal_order", "trump_card", "first_attacker", "decks"):
        if options.get(key, DEFAULTS[key]) != DEFAULTS[key]:
            raise NotSupported(f"option {key}={options[key]!r}")
    n = players
    hands: list[list[str]] = [[] for _ in range(n)]
    for k in range(6 * n):
        hands[(dealer + 1 + k) % n].append(deck[k])
    if len(deck) > 6 * n:
        trump = deck[6 * n]
        talon = deck[6 * n + 1:] + [trump]
    else:
        trump = deck[6 * n - 1]
        talon = []
    rules = Rules(options, n, trump[1])
    trumps = [(rank(c), s) for s in range(n) for c in hands[s] if suit(c) == trump[1]]
    attacker = min(trumps)[1] if trumps else (dealer + 1) % n
    hands_t = tuple(tuple(sorted(h)) for h in hands)
    defender = rules.defender_for(attacker, hands_t)
    pos = Pos(hands_t, tuple(talon), 0, (), attacker, defender, frozenset(), False, 1, False,
              attacker)
    return rules, pos


def perft(rules: Rules, pos: Pos, depth: int, cache: dict | None = None) -> int:
    """Move sequences of length exactly ``depth`` (spec/perft.md)."""
    if depth == 0:
        return 1
    if cache is None:
        cache = {}
    key = (pos, depth)
    if key in cache:
        return cache[key]
    moves = rules.moves(pos)
    if depth == 1:
        total = len(moves)
    else:
        total = sum(perft(rules, nxt, depth - 1, cache) for _, nxt in moves)
    cache[key] = total
    return total


def divide(rules: Rules, pos: Pos, depth: int) -> dict[str, int]:
    """Count per first move, keyed like conformance.contract.canonical.canonical_move (own code)."""
    import json

    cache: dict = {}
    out = {}
    for move, nxt in rules.moves(pos):
        move = dict(move)
        if "cards" in move:
            move["cards"] = sorted(move["cards"], key=_card_order)
        out[json.dumps(move, sort_keys=True, separators=(",", ":"))] = perft(
            rules, nxt, depth - 1, cache
        )
    return out


def _card_order(card: str) -> tuple[int, int, int]:
    return (1 if len(card) > 2 else 0, SUITS.index(card[1]), RANK[card[0]])
