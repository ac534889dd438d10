"""Mending a start position no game reaches, by the smallest change that keeps its point.

Most impossible fixture positions are impossible only in their past: a discard pile written as
cards rather than as the beaten pairs of earlier bouts in order (R-BOUT-1), or more pairs than
the closed bouts could have discarded, since a bout's later attack cards are thrown in on ranks
already on the table (R-THROW-1). The current bout, which is what a case tests, does not look at
the order of the pile; only its size (the ``six_five_first`` cap asks whether it is empty) and,
with ``discard_visibility: contents``, an observation of it. So the first mend keeps the pile's
cards and reorders them: beaten pairs, consecutive pairs sharing a rank where possible so that
the closed bouts can hold them, and the drawn trump card last (it cannot be played before the
talon runs out). Expectations that name the pile's old order must then be worked out again
(:mod:`.fixtures` does it from the rules: the pile is the new order followed by the pairs the
case's own bouts add).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from conformance.contract.cards import RANKS, rank_of, suit_of

from .target import beats


def pairable(cards: list[str], trump_suit: str) -> bool:
    """Whether the cards can be split into (attack, defence) pairs, each beaten (R-BEAT-1).

    A non-trump is beaten only by a higher card of its suit or by a trump, and beats only lower
    cards of its suit; so each suit pairs up within itself, and a non-trump suit with an odd count
    needs one trump for its last card. That is possible exactly when the trumps outnumber the odd
    suits (the counts are then even together)."""
    if len(cards) % 2:
        return False
    counts = Counter(suit_of(c) for c in cards)
    trumps = counts.pop(trump_suit, 0)
    odd = sum(1 for n in counts.values() if n % 2)
    return trumps >= odd


def _pairable_without(suits: Counter, attack: str, defence: str, trump_suit: str) -> bool:
    """:func:`pairable` of a pool of even size with ``suits`` (its suit counts) once the pair
    is taken out, from the counts alone: :func:`arrange` asks it of every candidate pair, and
    rebuilding the rest of the pool each time made compiling the rulebook's scenarios slow."""
    left = suits.copy()
    left[suit_of(attack)] -= 1
    left[suit_of(defence)] -= 1
    trumps = left.pop(trump_suit, 0)
    return trumps >= sum(1 for n in left.values() if n % 2)


def _defences(attack: str, pool: list[str], trump_suit: str) -> list[str]:
    """The cards of ``pool`` that beat ``attack``, the closest first (the same suit, lowest)."""
    out = [c for c in pool if beats(c, attack, trump_suit)]
    return sorted(out, key=lambda c: (suit_of(c) != suit_of(attack), RANKS.index(rank_of(c))))


def arrange(
    cards: list[str], trump_suit: str, late: set[str], seed: int = 0, keep: list | None = None
) -> list[tuple[str, str]] | None:
    """A sequence of beaten pairs holding exactly ``cards``, each pair's attack card on a rank of
    the pair before wherever the cards allow, the ``late`` cards in the last pairs.

    ``keep`` (the original pairs) are preferred as they were; ``seed`` varies the ties so that
    callers can ask for other arrangements. None if the cards cannot be paired at all."""
    if not pairable(cards, trump_suit):
        return None
    rng = random.Random(seed)
    kept = {a: d for a, d in (keep or []) if beats(d, a, trump_suit)}
    pool = list(cards)
    out: list[tuple[str, str]] = []
    ranks: set[str] = set()
    while pool:
        choices = []
        suits = Counter(suit_of(c) for c in pool)
        for attack in pool:
            for defence in _defences(attack, pool, trump_suit)[:3]:
                if not _pairable_without(suits, attack, defence, trump_suit):
                    continue
                score = (
                    attack in late or defence in late,
                    rank_of(attack) not in ranks,
                    kept.get(attack) != defence,
                    RANKS.index(rank_of(attack)),
                    rng.random(),
                )
                choices.append((score, attack, defence))
        if not choices:
            return None
        _, attack, defence = min(choices)
        out.append((attack, defence))
        pool.remove(attack)
        pool.remove(defence)
        ranks = {rank_of(attack), rank_of(defence)}
    return out


def as_pile(cards: list[str], trump: str) -> list[str] | None:
    """``cards`` as a discard pile a game can leave: beaten pairs, each attack card followed by the
    card that beat it (R-BOUT-1). Kept as they are when they already are; otherwise arranged
    (:func:`arrange`), the trump card last, since it is drawn last and cannot be played before the
    talon runs out. None if the cards cannot be paired at all."""
    trump_suit = suit_of(trump)
    if all(beats(d, a, trump_suit) for a, d in zip(cards[::2], cards[1::2])) and not len(cards) % 2:
        return list(cards)
    pairs = arrange(cards, trump_suit, late={trump} & set(cards))
    return None if pairs is None else [card for pair in pairs for card in pair]


def arrange_groups(
    cards: list[str], trump_suit: str, sizes: list[int], late: set[str], keep: list | None = None
) -> list[tuple[str, str]] | None:
    """Beaten pairs holding exactly ``cards`` that fall into bouts of the given ``sizes``: within
    each bout every attack card after the first is of a rank already on the table (R-THROW-1).
    The ``late`` cards go to the last bouts; ``keep`` (the original pairs) are preferred."""
    kept = {a: d for a, d in (keep or []) if beats(d, a, trump_suit)}
    budget = [4000]

    def groups(pool: list[str], todo: list[int]) -> list[tuple[str, str]] | None:
        if not todo:
            return [] if not pool else None
        return group(pool, todo, todo[0], [], set())

    def group(pool, todo, size, made, ranks) -> list[tuple[str, str]] | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if len(made) == size:
            rest = groups(pool, todo[1:])
            return None if rest is None else made + rest
        last = len(todo) == 1
        options = []
        for attack in pool:
            if made and rank_of(attack) not in ranks:
                continue
            for defence in _defences(attack, pool, trump_suit)[:3]:
                left = [c for c in pool if c not in (attack, defence)]
                if not pairable(left, trump_suit):
                    continue
                lateness = (attack in late or defence in late) and not last
                options.append(
                    (
                        (lateness, kept.get(attack) != defence, RANKS.index(rank_of(attack))),
                        attack,
                        defence,
                    )
                )
        for _, attack, defence in sorted(options)[:4]:
            left = [c for c in pool if c not in (attack, defence)]
            found = group(
                left,
                todo,
                size,
                made + [(attack, defence)],
                ranks | {rank_of(attack), rank_of(defence)},
            )
            if found is not None:
                return found
        return None

    if sum(sizes) * 2 != len(cards) or not pairable(cards, trump_suit):
        return None
    return groups(list(cards), list(sizes))


def with_discard(state: dict[str, Any], pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """The state with its discard pile replaced by ``pairs`` in order."""
    out = copy.deepcopy(state)
    out["discard"] = [c for pair in pairs for c in pair]
    return out


def _unseen_excess(state: dict[str, Any]) -> list[tuple[int, list[str]]]:
    """Per seat, hand cards to call known (picked up earlier) so that the hand began the bout
    with at most six unseen cards even if every card it plays this bout was unseen (R-DRAW-1,
    R-INFO-3); cards of one rank together, so that one take can have handed them over."""
    played: dict[int, int] = {}
    if state["bout"]:
        defender = state["bout"]["defender"]
        for pair in state["table"]:
            played[pair["by"]] = played.get(pair["by"], 0) + 1
            if pair["defence"] is not None:
                played[defender] = played.get(defender, 0) + 1
    out = []
    for seat, player in enumerate(state["players"]):
        unseen = [c for c in player["hand"] if c not in player["known"]]
        excess = len(unseen) + played.get(seat, 0) - 6
        if excess <= 0:
            continue
        by_rank: dict[str, list[str]] = {}
        for card in unseen:
            by_rank.setdefault(rank_of(card), []).append(card)
        groups = sorted(by_rank.values(), key=lambda g: (-len(g), -RANKS.index(rank_of(g[0]))))
        chosen: list[str] = []
        for group in groups:
            chosen += group[: excess - len(chosen)]
            if len(chosen) == excess:
                break
        out.append((seat, chosen))
    return out


def variants(state: dict[str, Any], ruleset: Any, players: int) -> list[tuple[str, dict[str, Any]]]:
    """Mended starts to try, the smallest changes first: cards beyond six that nobody has seen
    made known (they were picked up), the discard pile reordered (same cards), another dealer
    (the dealer only deals; with no talon he holds the trump card, which can decide the first
    attacker by R-ROLE-1), or several of these. Each comes with a note of the change."""
    bases = [([], copy.deepcopy(state))]
    marks = _unseen_excess(state)
    if marks:
        marked = copy.deepcopy(state)
        notes = []
        for seat, cards in marks:
            known = set(marked["players"][seat]["known"]) | set(cards)
            hand = marked["players"][seat]["hand"]
            marked["players"][seat]["known"] = [c for c in hand if c in known]
            notes.append(f"seat {seat} knows {', '.join(cards)} (picked up)")
        bases.append((notes, marked))
    trump_suit = suit_of(state["trump"])
    late = set() if state["talon"] else {state["trump"]}
    discard = list(state["discard"])
    old = [(discard[i], discard[i + 1]) for i in range(0, len(discard) - 1, 2)]
    piles: list[tuple[str, list[tuple[str, str]] | None]] = [("", None)]
    seen = {tuple(discard)}
    for seed in range(3):
        pairs = arrange(discard, trump_suit, late, seed=seed, keep=old)
        if pairs is None:
            break
        # the same pairs discarded the other way round: the first bouts settle who attacks
        # later (R-ROLE-3), so an order that fails may work reversed (the late cards kept last)
        turned = [p for p in pairs[::-1] if not set(p) & late] + [p for p in pairs if set(p) & late]
        for option in (pairs, turned):
            flat = tuple(c for pair in option for c in pair)
            if flat not in seen:
                seen.add(flat)
                piles.append(("discard pile reordered", option))
    for first in range(players):
        for _, base in bases:
            sizes = _counted_sizes(base, ruleset, first)
            if sizes is None:
                continue
            pairs = arrange_groups(discard, trump_suit, sizes, late, keep=old)
            if pairs is not None:
                flat = tuple(c for pair in pairs for c in pair)
                if flat not in seen:
                    seen.add(flat)
                    piles.append(("discard pile reordered", pairs))
    dealers = [("", state["dealer"])] + [
        (f"dealer {seat} (was {state['dealer']})", seat)
        for seat in range(players)
        if seat != state["dealer"]
    ]
    out = []
    for notes, base in bases:
        for pile_note, pairs in piles:
            for dealer_note, dealer in dealers:
                note = "; ".join(n for n in notes + [pile_note, dealer_note] if n)
                mended = with_discard(base, pairs) if pairs is not None else copy.deepcopy(base)
                mended["dealer"] = dealer
                raised = _enough_bouts(mended, ruleset, players)
                if raised:
                    note = "; ".join(n for n in (note, raised) if n)
                if note:
                    out.append((note, mended))
    out.sort(key=lambda item: item[0].count(";"))
    return out


def _enough_bouts(state: dict[str, Any], ruleset: Any, players: int) -> str:
    """Raise the bout number in place to the fewest bouts the pile's pairs need (R-THROW-1: a
    bout discards a run of pairs whose later attack cards are of ranks on the table); the note
    of the change, or "" when the number already suffices (or the pile is no pairs at all)."""
    from .finder import resolved
    from .planner import Planner
    from .target import Unreachable, read_target

    bout = state["bout"]
    if not bout or not state["discard"]:
        return ""
    try:
        target = read_target(resolved(state, ruleset), ruleset, players)
    except Unreachable:
        return ""
    need = Planner(target).min_bouts[0] + 1
    if need <= bout["number"]:
        return ""
    note = f"bout number {need} (was {bout['number']}: the pile needs {need - 1} closed bouts)"
    bout["number"] = need
    return note


def _counted_sizes(state: dict[str, Any], ruleset: Any, first: int) -> list[int] | None:
    """The bout sizes of a counted history from ``first`` in which any pairs may share a bout."""
    from .finder import resolved
    from .planner import Planner
    from .target import Unreachable, read_target

    try:
        target = read_target(resolved(_plain_pile(state), ruleset), ruleset, len(state["players"]))
    except Unreachable:
        return None
    planner = Planner(target, any_runs=True)
    if first not in planner.first_attackers():
        return None
    return planner.counts.sizes(first)


def _plain_pile(state: dict[str, Any]) -> dict[str, Any]:
    """The state with its pile made of trivially beaten pairs (the counts read only its size):
    the target reader refuses a pile of pairs that do not beat."""
    out = copy.deepcopy(state)
    trump_suit = suit_of(out["trump"])
    pairs = arrange(out["discard"], trump_suit, set())
    if pairs is not None:
        out["discard"] = [c for pair in pairs for c in pair]
    return out


def mend(
    state: dict[str, Any],
    ruleset: Any,
    players: int,
    budget: int = 10000,
    tries: int = 10,
    seconds: float = 60,
):
    """The first mended start (:func:`variants`) the finder reaches: (note, state, route), or
    None. Starts a cheap check refuses are skipped before any search; at most ``tries`` are
    searched, each for at most ``budget`` bouts and ``seconds``."""
    from .diagnose import check
    from .finder import counted, find_route, resolved
    from .planner import Planner
    from .target import Unreachable, read_target

    for note, mended in variants(state, ruleset, players):
        if tries <= 0:
            break
        try:
            target = read_target(resolved(mended, ruleset), ruleset, players)
            check(target)
            if not counted(Planner(target)):
                continue
            tries -= 1
            return note, mended, find_route(mended, ruleset, players, budget, seconds)
        except Unreachable:
            continue
    return None
