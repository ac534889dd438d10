"""Why a move is illegal: the rule ID it breaks, and a sentence saying why.

The JSON API first checks a move against the legal set of ``reference_impl.core``; only a move
outside it comes here. The checks follow the contract's precedence (docs/architecture.md, last
paragraph of the rule ID register): R-PLAY-2 (game over, checked by the API before parsing the
move), malformed move (``BadRequest``, by the parser), R-PLAY-3 (a card not held), R-PLAY-4 (an
action of a role the player does not have), then the action's own rules in register order.

This module is a second, independent statement of the rules (conditions rather than a generator);
the test suite checks that a move passes every check here exactly when the generator lists it.
Roles: ``attack`` belongs to the main attacker; ``throw_in`` and ``pass`` to any player but the
defender (whether he may use them now is R-THROW-*); ``beat``, ``take``, ``transfer`` and
``show_trump`` to the defender.
"""

from __future__ import annotations

from reference_impl.cards import CARD_NAMES, RANK_OF, SUIT_OF, bits
from reference_impl.queries import (
    attack_rank_cards,
    cap,
    capacity_ok,
    eligible,
    priority,
    show_window,
    transfer_target,
)
from reference_impl.state import (
    ACTION_NAMES,
    ATTACK,
    BEAT,
    PASS,
    SHOW_TRUMP,
    TAKE,
    THROW_IN,
    TRANSFER,
    State,
)
from reference_impl.tables import (
    CAPACITY_HAND_AND_LIMIT,
    CAPACITY_HAND_PLUS_ONE,
    NO_CAP,
    SHOW_OFF,
    TIMING_AFTER_FIRST_BEAT,
    TIMING_ALL_BEATEN,
)


def _cards(mask: int) -> str:
    return " ".join(CARD_NAMES[c] for c in bits(mask))


def _cap_text(s: State) -> str:
    c = cap(s)
    return "no fixed cap" if c >= NO_CAP else f"a cap of {c} (attack_limit: {s.r.options['attack_limit']})"


def diagnose(s: State, m: tuple) -> tuple[str, str]:
    """(rule ID, message) for a move that is not legal in ``s`` (whose game is not over)."""
    p, act, x, y = m
    name = ACTION_NAMES[act]
    d = s.defender
    hands = s.hands

    # R-PLAY-3: a player plays only his own cards
    if act in (ATTACK, TRANSFER):
        used = x
    elif act in (THROW_IN, SHOW_TRUMP):
        used = 1 << x
    elif act == BEAT:
        used = 1 << y
    else:
        used = 0
    missing = used & ~hands[p]
    if missing:
        return "R-PLAY-3", f"player {p} does not hold {_cards(missing)}"

    # R-PLAY-4: each action belongs to a role
    if act in (ATTACK, THROW_IN, PASS) and p == d:
        return "R-PLAY-4", f"player {p} is the defender; {name} is an attacker's action"
    if act in (BEAT, TAKE, TRANSFER, SHOW_TRUMP) and p != d:
        return "R-PLAY-4", (f"{name} is the defender's action and player {d} defends, not "
                            f"player {p}")

    # an action the ruleset does not have
    if act == TRANSFER and not s.r.transfer:
        return "R-TRANSFER-1", "this ruleset has no transfers (transfer: off)"
    if act == SHOW_TRUMP and (s.r.trump_show == SHOW_OFF or not s.r.transfer):
        return "R-TRANSFER-7", ("this ruleset has no trump-show transfers (trump_show: "
                                f"{s.r.options['trump_show']}, transfer: {s.r.options['transfer']})")

    empty = not s.t_att
    if act == ATTACK:
        return _attack(s, p, x)
    if empty:
        return "R-ATTACK-1", (f"the bout has not been opened: player {s.attacker} must attack "
                              f"first; nothing else may be played on an empty table")
    if act == THROW_IN:
        return _throw_in(s, p, x)
    if act == BEAT:
        return _beat(s, x, y)
    if act == TAKE:
        return _take(s)
    if act == PASS:
        return _pass(s, p)
    if act == TRANSFER:
        return _transfer(s, x)
    return _show(s, x)


def _unexplained(s: State, what: str) -> tuple[str, str]:
    raise AssertionError(f"engine inconsistency: {what} is not legal but no rule forbids it")


def _attack(s: State, p: int, x: int) -> tuple[str, str]:
    if p != s.attacker:
        return "R-ATTACK-1", (f"only the main attacker (player {s.attacker}) opens the bout; "
                              f"player {p} is not the main attacker")
    if s.t_att:
        return "R-ATTACK-1", ("the bout is already open; attack only opens a bout (add cards "
                              "with throw_in)")
    k = x.bit_count()
    ranks = {RANK_OF[c] for c in bits(x)}
    if k > 1 and not s.r.opening_multi:
        return "R-ATTACK-2", "the opening attack is one card (opening: single)"
    if len(ranks) > 1:
        return "R-ATTACK-2", f"an opening of several cards must be of one rank: {_cards(x)}"
    if k > cap(s):
        return "R-ATTACK-3", f"{k} attack cards exceed {_cap_text(s)}"
    dh = s.hands[s.defender].bit_count()
    if k > dh:
        return "R-ATTACK-4", (f"{k} attack cards exceed the {dh} card(s) in the defender's "
                              f"(player {s.defender}) hand")
    return _unexplained(s, "attack")


def _throw_in(s: State, p: int, c: int) -> tuple[str, str]:
    r = s.r
    total = len(s.t_att)
    if total >= cap(s):
        return "R-ATTACK-3", f"the bout already holds {total} attack cards, {_cap_text(s)}"
    dh = s.hands[s.defender].bit_count()
    if s.unbeaten >= dh:
        return "R-ATTACK-4", (f"{s.unbeaten} unbeaten attack card(s) already match the "
                              f"{dh} card(s) in the defender's hand")
    if not (s.throw_mask >> c) & 1:
        where = ("the bout's first attack and first defence card" if r.first_pair
                 else "the table")
        return "R-THROW-1", f"{CARD_NAMES[c]}: its rank is not among the ranks of {where}"
    if not s.taking:
        if r.timing == TIMING_AFTER_FIRST_BEAT and s.first_def < 0:
            return "R-THROW-2", ("cards may be thrown in only once the defender has beaten a card "
                                 "(throw_in_timing: after_first_beat)")
        if r.timing == TIMING_ALL_BEATEN and s.unbeaten:
            return "R-THROW-2", ("cards may be thrown in only while every attack card is beaten "
                                 "(throw_in_timing: all_beaten)")
    if p not in eligible(s):
        return "R-THROW-3", _not_eligible(s, p)
    if (s.passed >> p) & 1:
        return "R-THROW-4", (f"player {p} has passed and his pass has not expired "
                             f"(pass_reset: {r.options['pass_reset']})")
    if p not in priority(s):
        return "R-THROW-4", _priority_text(s)
    if s.taking and not r.pile_on:
        return "R-TAKE-2", "no cards may be added after the defender declared take (pile_on: forbidden)"
    return _unexplained(s, "throw_in")


def _not_eligible(s: State, p: int) -> str:
    d = s.defender
    if s.teams is not None and s.teams[p] == s.teams[d]:
        return f"player {p} is the defender's partner and never attacks him"
    if not s.hands[p]:
        return f"player {p} holds no cards"
    return f"only the main attacker (player {s.attacker}) adds cards (throwers: main_only)"


def _priority_text(s: State) -> str:
    holders = priority(s)
    mode = s.r.options["throw_in_priority"]
    if holders:
        who = ", ".join(str(q) for q in holders)
        return f"it is not this player's turn to add cards: player(s) {who} first ({mode})"
    return f"no attacker has the right to add cards now ({mode})"


def _beat(s: State, target: int, card: int) -> tuple[str, str]:
    if not (s.beats[target] >> card) & 1:
        return "R-BEAT-1", (f"{CARD_NAMES[card]} does not beat {CARD_NAMES[target]}: a card beats "
                            f"a higher card of its suit, or any non-trump if it is a trump "
                            f"(trumps: {'CDHS'[SUIT_OF[s.trump]]})")
    if target not in s.t_att or s.t_def[s.t_att.index(target)] >= 0:
        return "R-BEAT-3", f"{CARD_NAMES[target]} is not an unbeaten attack card on the table"
    if s.r.beat_earliest:
        first = next(s.t_att[i] for i in range(len(s.t_att)) if s.t_def[i] < 0)
        if first != target:
            return "R-BEAT-4", (f"the earliest unbeaten card, {CARD_NAMES[first]}, must be beaten "
                                "first (beat_order: earliest_first)")
    if s.taking:
        return "R-TAKE-1", "the defender has declared take; he makes no further move in this bout"
    return _unexplained(s, "beat")


def _take(s: State) -> tuple[str, str]:
    if s.taking:
        return "R-TAKE-1", "the defender has already declared take"
    if not s.unbeaten and not s.r.take_any_time:
        return "R-TAKE-1", ("every attack card is beaten; take is allowed only while a card is "
                            "unbeaten (take_allowed: while_unbeaten)")
    return _unexplained(s, "take")


def _pass(s: State, p: int) -> tuple[str, str]:
    if p not in eligible(s):
        return "R-THROW-3", _not_eligible(s, p)
    if (s.passed >> p) & 1:
        return "R-THROW-4", f"player {p} has already passed and his pass has not expired"
    if p not in priority(s):
        return "R-THROW-4", _priority_text(s)
    if s.unbeaten and not s.taking:
        return "R-THROW-5", ("an attacker may pass only when every attack card is beaten or the "
                             "defender is taking")
    return _unexplained(s, "pass")


def _transfer(s: State, x: int) -> tuple[str, str]:
    r = s.r
    if s.taking:
        return "R-TAKE-1", "the defender has declared take; he makes no further move in this bout"
    rank_cards = attack_rank_cards(s)
    if x & ~rank_cards:
        if not rank_cards:
            return "R-TRANSFER-1", ("the attack cards have several ranks, so there is no attack "
                                    "rank to transfer with")
        return "R-TRANSFER-1", (f"a transfer adds cards of the attack rank "
                                f"({'23456789TJQKA'[RANK_OF[s.t_att[0]]]}) only: {_cards(x)}")
    if s.unbeaten != len(s.t_att):
        return "R-TRANSFER-2", "a transfer is allowed only while no attack card has been beaten"
    if r.transfer_not_first_bout and s.bout == 1:
        return "R-TRANSFER-2", "no transfer in the first bout (transfer_condition: not_first_bout)"
    k = x.bit_count()
    rule = _capacity(s, k)
    if rule:
        return rule
    if k > 1 and not r.transfer_several:
        return "R-TRANSFER-4", "a transfer adds exactly one card (transfer_cards: one)"
    rule = _around(s)
    if rule:
        return rule
    return _unexplained(s, "transfer")


def _capacity(s: State, added: int):
    target = transfer_target(s)
    if target < 0:
        return "R-TRANSFER-3", "no other opponent holds cards to take over the defence"
    if capacity_ok(s, target, added):
        return None
    count = s.unbeaten + added
    hand = s.hands[target].bit_count()
    mode = s.r.options["transfer_capacity"]
    if s.r.capacity == CAPACITY_HAND_PLUS_ONE:
        return "R-TRANSFER-3", (f"player {target} would face {count} card(s) and must hold more "
                                f"than that; he holds {hand} ({mode})")
    if hand < count:
        return "R-TRANSFER-3", (f"player {target} would face {count} card(s) but holds only "
                                f"{hand} ({mode})")
    if s.r.capacity == CAPACITY_HAND_AND_LIMIT:
        return "R-TRANSFER-3", (f"{len(s.t_att) + added} attack cards would exceed "
                                f"{_cap_text(s)} ({mode})")
    return None


def _around(s: State):
    if not s.r.transfer_around and transfer_target(s) == s.opener:
        return "R-TRANSFER-5", (f"the attack may not come back to the bout's original attacker, "
                                f"player {s.opener} (transfer_around: forbidden)")
    return None


def _show(s: State, c: int) -> tuple[str, str]:
    r = s.r
    if s.taking:
        return "R-TAKE-1", "the defender has declared take; he makes no further move in this bout"
    rule = _capacity(s, 0) or _around(s)
    if rule:
        return rule
    if SUIT_OF[c] != SUIT_OF[s.trump] or not (attack_rank_cards(s) >> c) & 1:
        return "R-TRANSFER-7", (f"only the trump of the attack rank may be shown; {CARD_NAMES[c]} "
                                "is not")
    if not show_window(s):
        return "R-TRANSFER-7", (f"a trump may not be shown now "
                                f"(trump_show: {r.options['trump_show']})")
    if (s.shown >> c) & 1:
        return "R-TRANSFER-8", f"{CARD_NAMES[c]} has already been shown in this bout"
    return _unexplained(s, "show_trump")
