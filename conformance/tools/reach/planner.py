"""The history of a position, planned bout by bout from the rules.

Construction rather than blind search: the deck is ours to choose, so a card only gets an
identity when a bout needs it. Each hand is a number of *fresh* cards (dealt or drawn, not yet
named) plus the *pinned* cards everyone has seen go into it (picked up in a take, the trump card
drawn face up); pinned cards are exactly the known ones (R-INFO-3). A bout of the plan either
discards the next beaten pairs of the target's discard pile, in order (R-BOUT-1), or is a take
that hands the defender cards he must hold known, or play later (R-TAKE-3). The rest follows
from the rules and needs no choice: the draws of R-DRAW-1..3 (which deck positions each player
receives, the trump card last), going out (R-OUT-*), the roles of the next bout (R-ROLE-2..4).

The search is depth first over those two kinds of bout, in an order that tries the plainest
history first (one pair a bout), and forgets a state it has seen fail. A complete plan ends at
the start of the target's current bout with every hand, known set, talon size and role as the
target needs; :mod:`.deck` then names the fresh cards and checks the first attacker.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from conformance.contract.cards import rank_of

from .counts import Counts
from .rules import MAX_PAIRS, Rules
from .target import HAND, Fate, Target, beats


@dataclass(frozen=True)
class Bout:
    """One earlier bout: the table in order as (attack, by, defence or None), and whether the
    defender took it."""

    number: int
    attacker: int
    defender: int
    table: tuple[tuple[str, int, str | None], ...]
    take: bool


@dataclass(frozen=True)
class Node:
    """The game at the start of bout ``k`` as the plan has it."""

    k: int
    attacker: int
    pinned: tuple[frozenset[str], ...]
    free: tuple[int, ...]
    born: frozenset[str]
    pairs_done: int
    drawn: int
    finished: tuple[int, ...]
    #: per seat, the deck positions of its fresh cards with the bout after which each arrived
    slots: tuple[tuple[tuple[int, int], ...], ...]
    #: per seat, the fresh cards it has named so far with the bout that first needed each
    uses: tuple[tuple[tuple[str, int], ...], ...]
    bouts: tuple[Bout, ...]

    def hand(self, seat: int) -> int:
        return self.free[seat] + len(self.pinned[seat])

    def key(self) -> tuple:
        return (
            self.k,
            self.attacker,
            self.pinned,
            self.free,
            self.pairs_done,
            self.drawn,
            self.finished,
        )

    def alike(self, fates: dict) -> tuple:
        """The key with pinned hand cards of one rank and known-ness counted, not named: the
        plan treats such cards alike."""
        pinned = []
        for cards in self.pinned:
            named = frozenset(c for c in cards if fates[c].where != "hand")
            counted = sorted(
                (fates[c].known is True, c[0]) for c in cards if fates[c].where == "hand"
            )
            pinned.append((named, tuple(counted)))
        return (
            self.k,
            self.attacker,
            tuple(pinned),
            self.free,
            self.pairs_done,
            self.drawn,
            self.finished,
        )


class Planner(Rules):
    """Plans for one target; :meth:`plans` yields complete ones, plainest first."""

    def __init__(
        self, target: Target, budget: int = 60000, any_runs: bool = False, seconds: float = 0
    ):
        super().__init__(target)
        #: a wall-clock limit for :meth:`plans` (0: none), so a hopeless search ends in time
        self.deadline = time.monotonic() + seconds if seconds else 0.0
        #: every run of pairs may share a bout (a relaxation :mod:`.repair` uses to choose an
        #: order for a pile whose own order cannot be played)
        self.any_runs = any_runs
        self.budget = budget
        self.nodes = 0
        self.exhausted = True
        self.min_bouts = self._min_bouts()
        self.counts = Counts(self)
        self.final_free = [
            sum(1 for c in hand if target.fates[c].known is False) for hand in target.start_hands
        ]

    def runs(self, start: int) -> Iterator[int]:
        """Sizes of the runs of pairs from ``start`` that one bout can discard: each card after
        the first thrown in on a rank already on the table (R-THROW-1)."""
        if self.any_runs:
            yield from range(1, min(MAX_PAIRS, len(self.t.pairs) - start) + 1)
            return
        ranks: set[str] = set()
        first: set[str] = set()
        for size, (attack, defence) in enumerate(self.t.pairs[start : start + MAX_PAIRS]):
            if size:
                allowed = first if self.t.opt("throw_in_ranks") == "first_pair" else ranks
                if rank_of(attack) not in allowed:
                    return
            else:
                first = {rank_of(attack), rank_of(defence)}
            ranks |= {rank_of(attack), rank_of(defence)}
            yield size + 1

    def _min_bouts(self) -> list[int]:
        """For each pair index, the fewest bouts that can discard the pairs from there on."""
        count = len(self.t.pairs)
        best = [0] * (count + 1)
        for start in range(count - 1, -1, -1):
            best[start] = 1 + min(best[start + size] for size in self.runs(start))
        return best

    # ------------------------------------------------------------------ the frame

    def first_attackers(self) -> list[int]:
        if self.t.opt("first_attacker") == "dealer_left":
            return [(self.t.dealer + 1) % self.n]
        return list(range(self.n))

    def start(self, first: int) -> Node:
        """The state after the deal (R-DEAL-1, R-TRUMP-1..3) with ``first`` attacking."""
        n, dealer = self.n, self.t.dealer
        slots: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        pinned = [frozenset[str]() for _ in range(n)]
        born: frozenset[str] = frozenset()
        for index in range(HAND * n):
            if self.t.opt("deal_order") == "six_at_once":
                seat = (dealer + 1 + index // HAND) % n
            else:
                seat = (dealer + 1 + index) % n
            if index == self.cards - 1:  # no talon: the dealer's last card is the trump card
                pinned[seat] = frozenset({self.t.trump})
                born = frozenset({self.t.trump})
            else:
                slots[seat].append((0, index))
        return Node(
            k=1,
            attacker=first,
            pinned=tuple(pinned),
            free=tuple(len(s) for s in slots),
            born=born,
            pairs_done=0,
            drawn=0,
            finished=(),
            slots=tuple(tuple(s) for s in slots),
            uses=tuple(() for _ in range(n)),
            bouts=(),
        )

    def plans(self) -> Iterator[Node]:
        """Complete plans, each a node at the start of the target's bout."""
        for first in self.first_attackers():
            self.failed: set[tuple] = set()
            yield from self._search(self.start(first))

    def _search(self, node: Node) -> Iterator[Node]:
        self.nodes += 1
        if self.nodes > self.budget or (self.deadline and time.monotonic() > self.deadline):
            self.exhausted = False
            return
        key = node.alike(self.t.fates)
        if key in self.failed:
            return
        found = False
        if node.k == self.t.bout_number:
            if self._complete(node):
                found = True
                yield node
        elif self._hopeful(node):
            for bout in self._bouts(node):
                after = self._close(node, bout)
                if after is None:
                    continue
                for plan in self._search(after):
                    found = True
                    yield plan
        if not found:
            self.failed.add(key)

    def cap(self, node: Node, hands: list[int], defender: int) -> int:
        return self.cap_for(node.k, node.pairs_done)

    # ------------------------------------------------------------------ pruning

    def _hopeful(self, node: Node) -> bool:
        """Cheap necessary conditions: enough bouts left for the pairs, the talon not overdrawn,
        the fresh cards the end needs still held, and a counted history to the end."""
        if self.min_bouts[node.pairs_done] > self.t.bout_number - node.k:
            return False
        if node.drawn > self.final_drawn:
            return False
        talon_gone = node.drawn == len(self.draw_pos)
        if talon_gone and any(node.free[i] < self.final_free[i] for i in range(self.n)):
            return False
        pinned = tuple(len(p) for p in node.pinned)
        return self.counts.reachable(
            node.k, node.attacker, node.free, pinned, node.pairs_done, node.drawn, node.finished
        )

    def _complete(self, node: Node) -> bool:
        """The node is the target's bout start: roles, talon, pairs, hands and known sets."""
        t = self.t
        if node.attacker != t.opener or node.pairs_done != len(t.pairs):
            return False
        if node.drawn != self.final_drawn or node.finished != tuple(t.start_finished):
            return False
        for seat, hand in enumerate(t.start_hands):
            if node.hand(seat) != len(hand) or not node.pinned[seat] <= set(hand):
                return False
            for card in hand:
                pinned = card in node.pinned[seat]
                want = t.fates[card].known
                if (want is True and not pinned) or (not pinned and card in node.born):
                    return False
                if want is False and pinned:
                    return False
        return True

    # ------------------------------------------------------------------ bouts to try

    def _bouts(self, node: Node) -> Iterator[Bout]:
        left = self.t.bout_number - node.k
        pairs = len(self.t.pairs) - node.pairs_done
        hands = [node.hand(i) for i in range(self.n)]
        attacker = node.attacker
        defender = self.defender(hands, attacker)
        if defender < 0:
            return
        defences: list[Bout] = []
        if pairs:
            most = min(MAX_PAIRS, pairs, self.cap(node, hands, defender))
            for size in range(1, most + 1):
                defences.extend(self._defences(node, hands, attacker, defender, size))
        takes = list(self._takes(node, hands, attacker, defender)) if left > 0 else []
        if pairs > left:
            defences.sort(key=lambda b: -len(b.table))
            yield from defences
            yield from takes
        elif pairs == left:
            yield from defences
            yield from takes
        else:
            yield from takes
            yield from defences

    def _holds(self, node: Node, seat: int, card: str, spent: dict[int, int]) -> bool:
        """Whether ``seat`` can play ``card`` now: pinned to him, or a fresh card not yet named
        while he still holds a fresh card this bout has not used."""
        if card in node.pinned[seat]:
            return True
        if card in node.born or any(card in p for p in node.pinned):
            return False
        return node.free[seat] - spent.get(seat, 0) > 0

    def _defences(
        self, node: Node, hands: list[int], attacker: int, defender: int, size: int
    ) -> Iterator[Bout]:
        """Bouts that discard the next ``size`` pairs: the opener leads, eligible attackers
        throw in a rank on the table (R-THROW-1), the defender beats each card at once."""
        group = self.t.pairs[node.pairs_done : node.pairs_done + size]
        ranks_mode = self.t.opt("throw_in_ranks")

        def extend(i: int, table: list, spent: dict[int, int], left: list[int]) -> Iterator:
            if i == size:
                yield Bout(node.k, attacker, defender, tuple(table), False)
                return
            attack, defence = group[i]
            if left[defender] == 0:
                return
            if i == 0:
                throwers = [attacker]
            else:
                if ranks_mode == "first_pair":
                    ranks = {rank_of(table[0][0]), rank_of(table[0][2])}
                else:
                    ranks = {rank_of(c) for a, _, d in table for c in (a, d)}
                if rank_of(attack) not in ranks:
                    return
                throwers = self.eligible(left, attacker, defender)
            for seat in throwers:
                if not self._holds(node, seat, attack, spent):
                    continue
                s2 = _spend(node, spent, seat, attack)
                if not self._holds(node, defender, defence, s2) or defence == attack:
                    continue
                s3 = _spend(node, s2, defender, defence)
                l2 = list(left)
                l2[seat] -= 1
                l2[defender] -= 1
                yield from extend(i + 1, table + [(attack, seat, defence)], s3, l2)

        yield from extend(0, [], {}, list(hands))

    def _takes(self, node: Node, hands: list[int], attacker: int, defender: int) -> Iterator[Bout]:
        """Takes the defender needs: of cards he must hold known at the end or play later
        (R-TAKE-3), each held by the attacker; one card, or several of one rank (an opening of
        one rank, or piled on after the take, R-TAKE-2). Cards alike for the plan (the same
        pair, or a hand card of the same rank and known-ness) are offered once."""
        offered: dict[tuple, str] = {}
        for card, fate in self.t.fates.items():
            if not self._gives(node, fate, defender):
                continue
            if not self._holds(node, attacker, card, {}):
                continue
            if fate.where == "hand":
                kind = ("hand", fate.known, rank_of(card))
            else:
                kind = ("pair", fate.index, fate.role)
            offered.setdefault(kind, card)
        ranked = sorted(offered.values(), key=lambda c: self._urgency(node, self.t.fates[c]))
        for card in ranked[:8]:
            yield Bout(node.k, attacker, defender, ((card, attacker, None),), True)
        limit = min(hands[defender], self.cap(node, hands, defender))
        by_rank: dict[str, list[str]] = {}
        for card, fate in self.t.fates.items():
            if self._gives(node, fate, defender):
                by_rank.setdefault(rank_of(card), []).append(card)
        for group in by_rank.values():
            spent: dict[int, int] = {}
            table: list[tuple[str, int, None]] = []
            for card in sorted(group, key=lambda c: self._urgency(node, self.t.fates[c])):
                if len(table) == limit or not self._holds(node, attacker, card, spent):
                    continue
                spent = _spend(node, spent, attacker, card)
                table.append((card, attacker, None))
                if len(table) > 1:
                    yield Bout(node.k, attacker, defender, tuple(table), True)
        yield from self._beaten_takes(node, hands, attacker, defender, ranked)

    def _beaten_takes(
        self, node: Node, hands: list[int], attacker: int, defender: int, wanted: list[str]
    ) -> Iterator[Bout]:
        """Takes of cards of several ranks: the defender beats some first, which puts their
        ranks on the table for the next throw-in (R-THROW-1), and then takes everything, his
        own beating cards too (R-TAKE-3). Each of his beating cards must be one he may hold
        known afterwards, like the attack cards."""
        beaters = [
            c
            for c, f in self.t.fates.items()
            if self._gives(node, f, defender) and self._holds(node, defender, c, {})
        ]
        limit = self.cap(node, hands, defender)
        any_time = self.t.opt("take_allowed") == "any_time"
        found: list[Bout] = []

        def grow(table: list, spent: dict[int, int], beaten: int) -> None:
            if len(found) >= 6:
                return
            unbeaten = sum(1 for _, _, d in table if d is None)
            if beaten and len(table) > 1 and (unbeaten or any_time):
                found.append(Bout(node.k, attacker, defender, tuple(table), True))
            used = {c for a, _, d in table for c in (a, d) if c is not None}
            last = table[-1]
            if last[2] is None and hands[defender] - beaten > 1:
                for card in beaters:
                    if card in used or not beats(card, last[0], self.t.trump_suit):
                        continue
                    if not self._holds(node, defender, card, spent):
                        continue
                    grow(
                        table[:-1] + [(last[0], last[1], card)],
                        _spend(node, spent, defender, card),
                        beaten + 1,
                    )
                    break
            if len(table) >= limit:
                return
            ranks = {rank_of(c) for c in used}
            for card in wanted:
                if card in used or rank_of(card) not in ranks:
                    continue
                if unbeaten + 1 > hands[defender] - beaten:
                    break
                if not self._holds(node, attacker, card, spent):
                    continue
                grow(table + [(card, attacker, None)], _spend(node, spent, attacker, card), beaten)

        for card in wanted[:4]:
            if self._holds(node, attacker, card, {}):
                grow([(card, attacker, None)], _spend(node, {}, attacker, card), 0)
        yield from found

    def _gives(self, node: Node, fate: Fate, defender: int) -> bool:
        """Whether a card of this fate may end up in the defender's hand now."""
        if fate.where == "pair":
            return fate.index >= node.pairs_done
        return fate.where == "hand" and fate.seat == defender and fate.known is not False

    def _urgency(self, node: Node, fate: Fate) -> float:
        """Which cards a take should hand over first: cards the defender must hold known, then
        the cards he plays in the target's bout (a hand holds at most six unseen cards, so a
        big hand there was picked up), then the nearest pairs."""
        if fate.where == "hand":
            return -1 if fate.known else 0.5
        return 1 + fate.index - node.pairs_done

    # ------------------------------------------------------------------ closing a bout

    def _close(self, node: Node, bout: Bout) -> Node | None:
        """The node after ``bout``: cards played, the close, draws, going out, next roles."""
        t, n = self.t, self.n
        pinned = [set(p) for p in node.pinned]
        free = list(node.free)
        uses = [list(u) for u in node.uses]
        born = set(node.born)
        emptied: list[int] = []
        finished = list(node.finished)
        talon_empty = node.drawn == len(self.draw_pos)

        def play(seat: int, card: str) -> None:
            if card in pinned[seat]:
                pinned[seat].discard(card)
            else:
                free[seat] -= 1
                uses[seat].append((card, node.k))
                born.add(card)
            if free[seat] + len(pinned[seat]) == 0:
                emptied.append(seat)
                if talon_empty and t.opt("out_timing") == "immediate":
                    finished.append(seat)

        for attack, by, defence in bout.table:
            play(by, attack)
            if defence is not None:
                play(bout.defender, defence)
        if bout.take:
            taken = {c for a, _, d in bout.table for c in (a, d) if c is not None}
            pinned[bout.defender] |= taken
            if bout.defender in emptied:
                emptied.remove(bout.defender)
        if any(
            self._pinned_lost(card, seat, node, bout) for seat in range(n) for card in pinned[seat]
        ):
            return None
        slots = [list(s) for s in node.slots]
        drawn = node.drawn
        order = self.draw_order(bout.attacker, bout.defender)
        hands = [free[i] + len(pinned[i]) for i in range(n)]
        for seat, number in self.draws(hands, order, drawn, finished):
            hands[seat] += 1
            drawn = number + 1
            if drawn == len(self.draw_pos):
                pinned[seat].add(t.trump)
                born.add(t.trump)
            else:
                slots[seat].append((node.k, self.draw_pos[number]))
                free[seat] += 1
        if drawn == len(self.draw_pos):
            out = [p for p in emptied if hands[p] == 0 and p not in finished]
            if t.opt("finish_order") == "draw_order":
                out.sort(key=order.index)
            finished += out
            if self.decided(hands):
                return None  # the game would be over (R-END-1)
        pairs_done = node.pairs_done + (0 if bout.take else len(bout.table))
        attacker = self.next_attacker(hands, bout.defender, bout.take)
        if attacker < 0:
            return None
        return Node(
            k=node.k + 1,
            attacker=attacker,
            pinned=tuple(frozenset(p) for p in pinned),
            free=tuple(free),
            born=frozenset(born),
            pairs_done=pairs_done,
            drawn=drawn,
            finished=tuple(finished),
            slots=tuple(tuple(s) for s in slots),
            uses=tuple(tuple(u) for u in uses),
            bouts=node.bouts + (bout,),
        )

    def _pinned_lost(self, card: str, seat: int, node: Node, bout: Bout) -> bool:
        """A pinned card whose fate its holder can no longer meet."""
        fate = self.t.fates.get(card)
        if fate is None or fate.where == "talon":
            return True
        if fate.where == "pair":
            done = node.pairs_done + (0 if bout.take else len(bout.table))
            return fate.index < done
        return fate.known is False


def _spend(node: Node, spent: dict[int, int], seat: int, card: str) -> dict[int, int]:
    """``spent`` with one more fresh card of ``seat`` used, unless the card is pinned to him."""
    if card in node.pinned[seat]:
        return spent
    out = dict(spent)
    out[seat] = out.get(seat, 0) + 1
    return out
