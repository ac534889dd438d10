"""Per-ruleset tables: the options of a resolved ruleset turned into flags and precomputed masks.

The rules are looked up once per ruleset rather than once per move: ``compile_rules(options)``
(cached) gives a :class:`Rules` object whose attributes are small integers and booleans, plus the
card masks the move generator needs (cards of each rank, which cards beat which for each trump
suit, the draw order for each pair of main attacker and defender, the team of each seat).
"""

from __future__ import annotations

from functools import cache, lru_cache

from reference_impl.cards import LOW_RANK, RANK_OF, SUIT_OF, canonical_deck

# attack_limit
CAP_HAND, CAP_SIX, CAP_SIX_FIVE_FIRST, CAP_SIX_FIVE_FIRST_BOUT = range(4)
# throw_in_timing
TIMING_ANY, TIMING_AFTER_FIRST_BEAT, TIMING_ALL_BEATEN = range(3)
# throw_in_priority
PRIO_FREE, PRIO_MAIN_FIRST, PRIO_CIRCLE = range(3)
# trump_show
SHOW_OFF, SHOW_BEFORE_FIRST_BEAT, SHOW_ANY_TIME = range(3)
# transfer_capacity
CAPACITY_HAND, CAPACITY_HAND_AND_LIMIT, CAPACITY_HAND_PLUS_ONE = range(3)

#: a cap that never binds (attack_limit: hand)
NO_CAP = 1 << 20

HAND_SIZE = 6

TEAM_PLAYERS = {"2v2": 4, "3v3": 6, "2v2v2": 6}


def team_of_seat(teams: str, seat: int) -> int | None:
    """Team index of a seat (R-TEAM-1): 2v2 and 3v3 seat mod 2, 2v2v2 seat mod 3."""
    if teams == "none":
        return None
    return seat % 3 if teams == "2v2v2" else seat % 2


def max_players(deck_size: int, decks: int) -> int:
    """R-DECK-4: 2 <= N <= min(8, cards / 6)."""
    return min(8, deck_size * decks // 6)


class Rules:
    """The options of one ruleset in the form the move generator reads fast."""

    __slots__ = (
        "_beats",
        "beat_earliest",
        "cap_mode",
        "capacity",
        "deal_six_at_once",
        "deck",
        "deck_mask",
        "deck_size",
        "decks",
        "draw_one_at_a_time",
        "epaulettes",
        "finish_draw_order",
        "first_attacker_lowest_trump",
        "first_pair",
        "low_rank",
        "main_last_transferrer",
        "main_only",
        "name",
        "next_game_left",
        "no_trump_fallback",
        "opening_multi",
        "options",
        "out_immediate",
        "pass_only_able",
        "pile_on",
        "priority",
        "rank_mask",
        "reset_any",
        "take_any_time",
        "take_clears",
        "teams",
        "tie_defender_fool",
        "timing",
        "transfer",
        "transfer_around",
        "transfer_not_first_bout",
        "transfer_several",
        "trump_bottom",
        "trump_show",
        "win_mode",
    )

    def __init__(self, options: dict):
        o = options
        self.options = dict(o)
        self.deck_size = int(o["deck_size"])
        self.decks = int(o["decks"])
        self.low_rank = LOW_RANK[self.deck_size]
        self.deck = tuple(canonical_deck(self.deck_size, self.decks))
        mask = 0
        rank_mask = [0] * 13
        for c in self.deck:
            mask |= 1 << c
            rank_mask[RANK_OF[c]] |= 1 << c
        self.deck_mask = mask
        #: card number -> mask of every card of the deck with the same rank
        self.rank_mask = tuple(rank_mask[c % 13] for c in range(104))
        self.cap_mode = ("hand", "six", "six_five_first", "six_five_first_bout").index(
            o["attack_limit"])
        self.opening_multi = o["opening"] == "same_rank"
        self.timing = ("any_time", "after_first_beat", "all_beaten").index(o["throw_in_timing"])
        self.first_pair = o["throw_in_ranks"] == "first_pair"
        self.priority = ("free", "main_first", "circle").index(o["throw_in_priority"])
        self.main_only = o["throwers"] == "main_only"
        self.reset_any = o["pass_reset"] == "any_card"
        self.pass_only_able = o["pass_required"] == "only_able"
        self.pile_on = o["pile_on"] == "allowed"
        self.take_clears = o["take_clears_passes"] == "on"
        self.draw_one_at_a_time = o["draw_order"] == "one_at_a_time"
        self.out_immediate = o["out_timing"] == "immediate"
        self.finish_draw_order = o["finish_order"] == "draw_order"
        self.tie_defender_fool = o["tie"] == "defender_fool"
        self.win_mode = o["win_mode"]
        self.first_attacker_lowest_trump = o["first_attacker"] == "lowest_trump"
        self.no_trump_fallback = o["no_trump_fallback"]
        self.next_game_left = o["next_game"] == "fool_left"
        self.trump_bottom = o["trump_card"] == "bottom"
        self.deal_six_at_once = o["deal_order"] == "six_at_once"
        self.transfer = o["transfer"] == "on"
        self.transfer_not_first_bout = o["transfer_condition"] == "not_first_bout"
        self.capacity = ("hand", "hand_and_limit", "hand_plus_one").index(o["transfer_capacity"])
        self.transfer_several = o["transfer_cards"] == "several"
        self.transfer_around = o["transfer_around"] == "allowed"
        self.trump_show = ("off", "before_first_beat", "any_time").index(o["trump_show"])
        self.main_last_transferrer = o["transfer_main_attacker"] == "last_transferrer"
        self.teams = o["teams"]
        self.epaulettes = o["epaulettes"] == "on"
        self.beat_earliest = o["beat_order"] == "earliest_first"
        self.take_any_time = o["take_allowed"] == "any_time"
        self._beats = {}

    def beats(self, trump_suit: int) -> tuple:
        """card number -> mask of the deck's cards that beat it, with this trump suit (R-BEAT-1)."""
        table = self._beats.get(trump_suit)
        if table is None:
            table = _beat_table(self.deck_size, self.decks, trump_suit)
            self._beats[trump_suit] = table
        return table

    def team_list(self, n: int) -> tuple:
        return tuple(team_of_seat(self.teams, p) for p in range(n))


@lru_cache(maxsize=64)
def _beat_table(deck_size: int, decks: int, trump_suit: int) -> tuple:
    deck = canonical_deck(deck_size, decks)
    out = [0] * 104
    for a in deck:
        sa, ra = SUIT_OF[a], RANK_OF[a]
        m = 0
        for c in deck:
            sc = SUIT_OF[c]
            if (sc == sa and RANK_OF[c] > ra) or (sc == trump_suit and sa != trump_suit):
                m |= 1 << c
        out[a] = m
    return tuple(out)


@lru_cache(maxsize=256)
def _compile(items: tuple) -> Rules:
    return Rules(dict(items))


def compile_rules(options: dict) -> Rules:
    """The (cached) :class:`Rules` of a full options mapping."""
    return _compile(tuple(sorted(options.items())))


@cache
def draw_order(n: int, main: int, defender: int) -> tuple:
    """R-DRAW-2: the main attacker, the others clockwise from his left skipping the defender, the
    defender last."""
    order = [main]
    for i in range(1, n):
        p = (main + i) % n
        if p != defender:
            order.append(p)
    if defender != main:
        order.append(defender)
    return tuple(order)
