"""The counted rules a history follows once its bouts are chosen: seats, roles and draws.

The planner (:mod:`.planner`) and its counted relaxation (:mod:`.counts`) both need them, and
both must apply them alike, or the relaxation would prune histories the planner can build. They
read only the target's options, seats and deck size, never a card's name: R-ROLE-2..4 (who
defends and attacks next), R-THROW-3 (who may throw in), R-ATTACK-3 (the cap), R-DRAW-1..3 (who
draws which deck position, the trump card last) and R-END-1 (when the game is decided).
"""

from __future__ import annotations

from collections.abc import Iterator

from .target import HAND, Target

#: Pairs a bout may discard at most (the cap of R-ATTACK-3 with ``attack_limit: hand`` is the
#: defender's hand; plans never need more than a full hand).
MAX_PAIRS = 6


class Rules:
    """The rules of one target's game, on counted hands (a number of cards per seat)."""

    def __init__(self, target: Target):
        self.t = target
        self.n = target.n
        self.cards = len(target.deck)
        dealt = HAND * self.n
        #: the deck positions in the order they are drawn (R-TRUMP-1..3: the trump card last)
        if self.cards == dealt:
            self.draw_pos: list[int] = []
        elif target.opt("trump_card") == "bottom":
            self.draw_pos = list(range(dealt, self.cards))
        else:
            self.draw_pos = list(range(dealt + 1, self.cards)) + [dealt]
        self.final_drawn = len(self.draw_pos) - len(target.talon)

    def partners(self, p: int, q: int) -> bool:
        return self.t.team(p) is not None and self.t.team(p) == self.t.team(q)

    def defender(self, hands: list[int], attacker: int) -> int:
        """R-ROLE-2: the first opponent clockwise from the attacker who holds cards."""
        for i in range(1, self.n):
            q = (attacker + i) % self.n
            if hands[q] and not self.partners(attacker, q):
                return q
        return -1

    def eligible(self, hands: list[int], attacker: int, defender: int) -> list[int]:
        """R-THROW-3: who may add cards, the main attacker first."""
        if self.t.opt("throwers") == "main_only":
            return [attacker] if hands[attacker] else []
        order = [attacker] + [(defender + i) % self.n for i in range(1, self.n)]
        seen: list[int] = []
        for p in order:
            if p != defender and p not in seen and hands[p] and not self.partners(p, defender):
                seen.append(p)
        return seen

    def cap_for(self, k: int, pairs_done: int) -> int:
        """R-ATTACK-3 in bout ``k`` after ``pairs_done`` pairs were discarded."""
        limit = self.t.opt("attack_limit")
        if limit == "hand":
            return MAX_PAIRS
        if limit == "six_five_first" and pairs_done == 0:
            return 5
        if limit == "six_five_first_bout" and k == 1:
            return 5
        return 6

    def draw_order(self, attacker: int, defender: int) -> list[int]:
        """R-DRAW-2: the main attacker, the others clockwise from his left, the defender last."""
        rest = [(attacker + i) % self.n for i in range(1, self.n)]
        return [attacker] + [p for p in rest if p != defender] + [defender]

    def draws(
        self, hands: list[int], order: list[int], drawn: int, finished: list[int]
    ) -> Iterator[tuple[int, int]]:
        """R-DRAW-1..3: (seat, draw number) of each card drawn after a bout, in order; the
        caller adds each card to ``hands`` as it comes. The last draw number is the trump."""
        one_at_a_time = self.t.opt("draw_order") == "one_at_a_time"
        while drawn < len(self.draw_pos):
            takers = [p for p in order if hands[p] < HAND and p not in finished]
            if not takers:
                return
            for p in takers if one_at_a_time else takers[:1]:
                while drawn < len(self.draw_pos) and hands[p] < HAND:
                    yield p, drawn
                    drawn += 1
                    if one_at_a_time:
                        break

    def draw(self, hands: list[int], order: list[int], drawn: int, finished: list[int]) -> int:
        """Counted draws: ``hands`` refilled in place; the number drawn so far."""
        for seat, number in self.draws(hands, order, drawn, finished):
            hands[seat] += 1
            drawn = number + 1
        return drawn

    def decided(self, hands: list[int]) -> bool:
        """R-END-1 with the talon empty: at most one player (team) still holds cards."""
        holders = {
            self.t.team(p) if self.t.team(p) is not None else p for p in range(self.n) if hands[p]
        }
        return len(holders) <= 1

    def next_attacker(self, hands: list[int], defender: int, take: bool) -> int:
        """R-ROLE-3 after a defence (the defender, or the next holder clockwise), R-ROLE-4 after
        a take (the first holder clockwise from the defender's left)."""
        start = (defender + 1) % self.n if take else defender
        for i in range(self.n):
            q = (start + i) % self.n
            if hands[q] and not (take and q == defender):
                return q
        return -1
