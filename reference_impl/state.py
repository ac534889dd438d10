"""One position of the game as the engine holds it: compact and mutable.

The JSON API (``reference_impl.api``) converts a state dict into a :class:`State` (cards as
integers, hands as bit masks, the talon as a stack) through ``reference_impl.codec``; the move
generator and the move applier (``reference_impl.core``) work on it in place, which is what makes
random playouts and the benchmark fast. Internal moves are 4-tuples ``(player, action, x, y)``
with the action codes below (the table of ``x`` and ``y`` is in ``reference_impl.core``).
"""

from __future__ import annotations

from reference_impl.cards import SUIT_OF

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
