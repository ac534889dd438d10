"""The history counted, not named: can the hand sizes, the talon and the roles come out right?

A relaxation of :mod:`.planner`: the same bouts (a run of the discard pile's pairs beaten as
they come, or a take of some attack cards), the same draws, going out and roles, but no card
has a name. If no counted history reaches the target's bout start, no named one does, so the
planner asks this model before every bout it tries; the answers are remembered, which makes
the question cheap. It is what keeps the planner from trying every order of the early bouts
when the end needs, say, a take after the talon ran out.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .planner import Planner

Counted = tuple[int, ...]


class Counts:
    """Reachability of the target's bout start from a counted position.

    A hand is counted as two numbers: its *fresh* cards (dealt or drawn, never seen) and its
    *pinned* ones (picked up in a take, or the trump card drawn face up: known, R-INFO-3). The
    split matters: fresh cards only come with the deal and the refills to six, so a big hand
    at the end needs takes that handed its owner the cards he still holds or plays last.
    """

    def __init__(self, planner: Planner, budget: int = 200000):
        self.p = planner
        self.t = planner.t
        self.n = planner.n
        t = self.t
        self.size = tuple(len(h) for h in t.start_hands)
        self.unseen = tuple(sum(1 for c in h if t.fates[c].known is False) for h in t.start_hands)
        self.either = tuple(sum(1 for c in h if t.fates[c].known is None) for h in t.start_hands)
        self.seen = tuple(sum(1 for c in h if t.fates[c].known is True) for h in t.start_hands)
        self.memo: dict[tuple, bool] = {}
        #: for each position answered True, the bout that leads on
        self.choice: dict[tuple, tuple] = {}
        self.budget = budget
        #: False once the budget ran out: answers not worked out are then "maybe" (True), so
        #: the model still never prunes a history that exists, but proves nothing more.
        self.complete = True

    def reachable(
        self,
        k: int,
        attacker: int,
        free: Counted,
        pinned: Counted,
        pairs: int,
        drawn: int,
        finished: tuple,
    ) -> bool:
        key = (k, attacker, free, pinned, pairs, drawn, finished)
        if key not in self.memo:
            if len(self.memo) >= self.budget:
                self.complete = False
                return True
            self.memo[key] = self._reachable(*key)
        return self.memo[key]

    def _done(
        self, attacker: int, free: Counted, pinned: Counted, pairs: int, drawn: int, finished: tuple
    ) -> bool:
        t = self.t
        if (attacker, pairs, drawn, finished) != (
            t.opener,
            len(t.pairs),
            self.p.final_drawn,
            tuple(t.start_finished),
        ):
            return False
        return all(
            free[i] + pinned[i] == self.size[i]
            and self.unseen[i] <= free[i] <= self.unseen[i] + self.either[i]
            and pinned[i] >= self.seen[i]
            for i in range(self.n)
        )

    def _reachable(
        self,
        k: int,
        attacker: int,
        free: Counted,
        pinned: Counted,
        pairs: int,
        drawn: int,
        finished: tuple,
    ) -> bool:
        if k == self.t.bout_number:
            return self._done(attacker, free, pinned, pairs, drawn, finished)
        if self.p.min_bouts[pairs] > self.t.bout_number - k or drawn > self.p.final_drawn:
            return False
        if drawn == len(self.p.draw_pos) and any(free[i] < self.unseen[i] for i in range(self.n)):
            return False  # no fresh card comes any more
        hands = [free[i] + pinned[i] for i in range(self.n)]
        defender = self.p.defender(hands, attacker)
        if defender < 0:
            return False
        key = (k, attacker, free, pinned, pairs, drawn, finished)
        for bout in self._bouts(k, attacker, defender, hands, free, pinned, pairs):
            plays, take, size, used = bout
            after = self.close(attacker, defender, free, pinned, plays, take, used, drawn, finished)
            if after is None:
                continue
            a2, f2, p2, d2, fin2 = after
            if self.reachable(k + 1, a2, f2, p2, pairs + (0 if take else size), d2, fin2):
                self.choice[key] = bout
                return True
        return False

    def _bouts(self, k, attacker, defender, hands, free, pinned, pairs) -> Iterator[tuple]:
        """(seat of each attack card, take, pairs discarded, pinned cards each seat plays) of
        every counted bout."""
        eligible = self.p.eligible(hands, attacker, defender)
        cap = self.p.cap_for(k, pairs)
        left = len(self.t.pairs) - pairs
        for size in self.p.runs(pairs) if left else ():
            if size > min(cap, hands[defender]):
                break
            for plays in self._throwers(attacker, eligible, size, hands):
                counts = _tally(plays)
                counts[defender] = counts.get(defender, 0) + size
                for used in self._pinned_uses(counts, free, pinned):
                    yield plays, False, size, used
        any_time = self.t.opt("take_allowed") == "any_time"
        for size in range(1, min(cap, hands[defender]) + 1):
            for plays in self._throwers(attacker, eligible, size, hands):
                for used in self._pinned_uses(_tally(plays), free, pinned):
                    beats = min(size if any_time else size - 1, free[defender], hands[defender] - 1)
                    for turned in range(beats + 1):
                        yield plays, True, 0, {**used, "turned": turned}

    def _throwers(
        self, attacker: int, eligible: list[int], size: int, hands: list[int]
    ) -> Iterator[list[int]]:
        """Who plays each attack card: the opener first, then any eligible attacker; as counts
        only the number each plays matters, so each distribution is given once."""
        others = [p for p in eligible if p != attacker]
        seen = set()
        for rest in product([attacker] + others, repeat=size - 1):
            plays = [attacker] + sorted(rest)
            key = tuple(plays)
            if key in seen:
                continue
            seen.add(key)
            if all(plays.count(p) <= hands[p] for p in set(plays)):
                yield plays

    def _pinned_uses(
        self, counts: dict[int, int], free: Counted, pinned: Counted
    ) -> Iterator[dict[int, int]]:
        """How many of each seat's played cards are pinned ones, every split the hands allow."""
        seats = sorted(counts)
        ranges = [range(max(0, counts[p] - free[p]), min(counts[p], pinned[p]) + 1) for p in seats]
        for split in product(*ranges):
            yield dict(zip(seats, split))

    def close(self, attacker, defender, free, pinned, plays, take, used, drawn, finished):
        """The counted position after a bout (the planner's close, without names)."""
        p, t = self.p, self.t
        free, pinned = list(free), list(pinned)
        turned = used.get("turned", 0)
        for seat, count in used.items():
            if seat != "turned":
                pinned[seat] -= count
        for seat, count in _tally(plays if take else plays + [defender] * len(plays)).items():
            free[seat] -= count - used.get(seat, 0)
        if take:
            # the attack cards, and the defender's own fresh cards he beat with before taking
            # (``turned``), come into his hand known (R-TAKE-3)
            pinned[defender] += len(plays) + turned
            free[defender] -= turned
        hands = [free[i] + pinned[i] for i in range(self.n)]
        out = list(finished)
        emptied = self._emptied(hands, plays, take, defender, drawn, out)
        order = p.draw_order(attacker, defender)
        for seat, number in p.draws(hands, order, drawn, out):
            hands[seat] += 1
            drawn = number + 1
            if drawn == len(p.draw_pos):
                pinned[seat] += 1
            else:
                free[seat] += 1
        if drawn == len(p.draw_pos):
            gone = [q for q in emptied if hands[q] == 0 and q not in out]
            if t.opt("finish_order") == "draw_order":
                gone.sort(key=order.index)
            out += gone
            if p.decided(hands):
                return None
        next_attacker = p.next_attacker(hands, defender, take)
        if next_attacker < 0:
            return None
        return next_attacker, tuple(free), tuple(pinned), drawn, tuple(out)

    def _emptied(self, after, plays, take, defender, drawn, out) -> list[int]:
        """Seats whose hands run out in the bout, in the order of the plays (R-OUT-2); under
        ``immediate`` with the talon empty they are out at once."""
        now = [after[i] for i in range(self.n)]
        for seat in plays if take else plays + [defender] * len(plays):
            now[seat] += 1  # back to the bout's start
        if take:
            now[defender] -= len(plays)
        emptied: list[int] = []
        sequence = plays if take else [x for a in plays for x in (a, defender)]
        for seat in sequence:
            now[seat] -= 1
            if now[seat] == 0:
                emptied.append(seat)
                if drawn == len(self.p.draw_pos) and self.t.opt("out_timing") == "immediate":
                    out.append(seat)
        return emptied

    def sizes(self, first: int) -> list[int] | None:
        """The pairs each defended bout of a counted history from ``first`` discards, in order
        (takes left out), or None when there is no such history."""
        node = self.p.start(first)
        key = (1, first, node.free, tuple(len(x) for x in node.pinned), 0, 0, ())
        if not self.reachable(*key):
            return None
        out = []
        while key[0] < self.t.bout_number:
            plays, take, size, used = self.choice[key]
            k, attacker, free, pinned, pairs, drawn, finished = key
            hands = [free[i] + pinned[i] for i in range(self.n)]
            defender = self.p.defender(hands, attacker)
            after = self.close(attacker, defender, free, pinned, plays, take, used, drawn, finished)
            assert after is not None
            if not take:
                out.append(size)
            key = (
                k + 1,
                after[0],
                after[1],
                after[2],
                pairs + (0 if take else size),
                after[3],
                after[4],
            )
        return out


def _tally(seats: list[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for seat in seats:
        out[seat] = out.get(seat, 0) + 1
    return out
