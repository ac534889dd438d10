"""Build a full contract state (docs/architecture.md, "State") from a scenario's few Given steps.

A rulebook scenario names only what matters ("player 1 holds 9S, JS", "the trump suit is hearts",
"player 0 has attacked with 9S"). The engine needs a complete state: every card of the deck exactly
once across hands, talon, table and discard, roles, the bout's sub-state. :class:`PositionSpec`
collects what the Given steps say and :meth:`PositionSpec.build_state` fills in the rest
deterministically, so the same scenario always gives the same state in every engine:

- cards nobody named ("free" cards) are taken in canonical order, non-trumps before trumps, so a
  hand filled up with "holds 6 cards" or the talon rarely receives a trump by accident;
- the trump card, unless named, is the lowest free card of the trump suit (hearts unless said);
- the talon is empty unless the scenario sizes or lists it, or says the discard pile is empty
  (then every free card is in the talon, the trump card last);
- what is left goes to the discard pile;
- the main attacker is player 0 unless said, the defender the next player clockwise who holds
  cards and is not the attacker's partner (rule R-ROLE-2), the dealer the last seat (R-DEAL-3).

For games that start with a deal (rules DEAL, TRUMP, ROLE-1, MATCH), :meth:`PositionSpec.build_deck`
instead turns "the deal gives player 0: ..." into a deck order by the contract's deal mapping.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from conformance.bdd.cards import SUIT_NAMES
from conformance.contract import deal as deal_mapping
from conformance.contract.cards import canonical, deck, suit_of
from conformance.contract.seats import HAND as HAND_SIZE
from conformance.contract.seats import team_of
from conformance.tools.reach.repair import as_pile

DEFAULT_TRUMP_SUIT = "H"


class PositionError(ValueError):
    """The Given steps describe an impossible or contradictory position."""


def option_value(text: str) -> str | int:
    """Option values as the contract spells them: deck sizes and deck counts are integers."""
    return int(text) if text.isdigit() else text


@dataclass
class PositionSpec:
    """What the Given steps of one scenario said, before it becomes a state."""

    players: int | None = None
    preset: str | None = None
    overrides: dict[str, str | int] = field(default_factory=dict)
    trump_suit: str | None = None
    trump_card: str | None = None
    hands: dict[int, list[str]] = field(default_factory=dict)
    hand_counts: dict[int, int] = field(default_factory=dict)
    talon: list[str] | None = None
    talon_size: int | None = None
    discard_empty: bool = False
    discard_count: int | None = None
    dealer: int | None = None
    attacker: int | None = None
    defender: int | None = None
    opener: int | None = None
    table: list[dict[str, Any]] = field(default_factory=list)
    first_defence: str | None = None
    passed: list[int] = field(default_factory=list)
    taking: bool = False
    shown: list[str] = field(default_factory=list)
    out: list[int] = field(default_factory=list)
    known: dict[int, list[str]] = field(default_factory=dict)
    bout_number: int | None = None
    # games that start with a deal
    deck: list[str] | None = None
    deck_is_prefix: bool = False
    seed: int | None = None
    deal_hands: dict[int, list[str]] = field(default_factory=dict)
    deal_trump: str | None = None
    deal_talon: list[str] | None = None
    previous: dict[str, Any] | None = None

    # ---- what kind of start -------------------------------------------------------------------

    def starts_with_deal(self) -> bool:
        """True when the scenario begins at a deal (new_game) rather than at a built position."""
        return bool(
            self.deck is not None
            or self.seed is not None
            or self.deal_hands
            or self.deal_trump
            or self.deal_talon is not None
            or self.previous is not None
        )

    def ruleset_request(self) -> dict[str, Any]:
        """The ``ruleset`` field of new_game: the preset and the scenario's overrides."""
        return {"preset": self.preset or "podkidnoy", "overrides": dict(self.overrides)}

    def player_count(self) -> int:
        if self.players is None:
            raise PositionError(
                "the scenario never says how many play: start with 'Given a 2-player podkidnoy game'"
            )
        return self.players

    # ---- helpers ------------------------------------------------------------------------------

    def set_trump_suit(self, name: str) -> None:
        suit = SUIT_NAMES.get(name.lower())
        if suit is None:
            raise PositionError(f"{name!r} is not a suit: say clubs, diamonds, hearts or spades")
        self.trump_suit = suit

    def _seat(self, seat: int, what: str) -> int:
        n = self.player_count()
        if not 0 <= seat < n:
            raise PositionError(
                f"{what}: there is no player {seat} in a {n}-player game (0..{n - 1})"
            )
        return seat

    @staticmethod
    def _deck_of(options: dict[str, Any]) -> list[str]:
        return deck(int(options.get("deck_size", 36)), int(options.get("decks", 1)))

    @staticmethod
    def _teams(options: dict[str, Any], n: int) -> list[int | None]:
        return [team_of(options.get("teams", "none"), seat) for seat in range(n)]

    @staticmethod
    def _free_order(cards: list[str], trump_suit: str) -> list[str]:
        """Free cards in the order the builder hands them out: non-trumps first, canonical."""
        ordered = canonical(cards)
        return [c for c in ordered if suit_of(c) != trump_suit] + [
            c for c in ordered if suit_of(c) == trump_suit
        ]

    # ---- positions ----------------------------------------------------------------------------

    def build_state(self, ruleset: dict[str, Any]) -> dict[str, Any]:
        """A complete state for this position under ``ruleset`` (name and every option, as the
        engine under test filled it in from the preset and overrides). The phases: the cards
        the scenario names, the trump card, the hands given by size, the talon, the discard
        pile (what is left), the roles, then the bout."""
        options = ruleset["options"]
        layout = _Layout(self._deck_of(options), int(options.get("decks", 1)), self.player_count())
        self._place_named(layout)
        self._choose_trump(layout)
        self._deal_sized_hands(layout)
        self._lay_talon(layout)
        self._check_discard(layout)
        layout.free = _pile(layout.free, layout.trump)
        teams = self._teams(options, layout.n)
        attacker, defender = self._roles(layout.hands, teams)
        bout, known = self._bout(layout, attacker, defender), self._known(layout.hands)
        return {
            "version": 1,
            "ruleset": copy.deepcopy(ruleset),
            "dealer": self._seat(
                self.dealer if self.dealer is not None else layout.n - 1, "the dealer"
            ),
            "trump": layout.trump,
            "talon": layout.talon,
            "discard": layout.free,
            "players": [
                {"hand": canonical(hand), "known": known, "team": team}
                for hand, known, team in zip(layout.hands, known, teams)
            ],
            **bout,
            "finished": list(self.out),
            "result": None,
        }

    def _place_named(self, layout: _Layout) -> None:
        """The cards the scenario names: in hands, on the table, in the talon."""
        for seat, cards in self.hands.items():
            self._seat(seat, "a hand")
            for card in cards:
                layout.place(card, f"player {seat}'s hand")
            layout.hands[seat] = list(cards)
        for entry in self.table:
            layout.place(entry["attack"], "the table")
            if entry.get("defence"):
                layout.place(entry["defence"], "the table")
        for card in self.talon or []:
            layout.place(card, "the talon")

    def _choose_trump(self, layout: _Layout) -> None:
        """The trump card: the talon's last card if the talon is listed, else the one named,
        else the lowest free card of the trump suit (hearts unless said). The free cards are
        then ordered for handing out, non-trumps first."""
        trump_suit, trump = self.trump_suit, self.trump_card
        if self.talon:
            last = self.talon[-1]
            if trump is not None and trump != last:
                raise PositionError(
                    f"the trump card {trump} must be the talon's last card, but the talon ends "
                    f"with {last}"
                )
            trump = last
        if trump is not None:
            if trump_suit is not None and suit_of(trump) != trump_suit:
                raise PositionError(f"the trump card {trump} is not of the trump suit {trump_suit}")
            trump_suit = suit_of(trump)
            if trump not in layout.placed and trump not in layout.cards:
                raise PositionError(f"the trump card {trump} is not in this game's deck")
        trump_suit = trump_suit or DEFAULT_TRUMP_SUIT
        free = self._free_order([c for c in layout.cards if c not in layout.placed], trump_suit)
        if trump is None:
            candidates = [c for c in canonical(free) if suit_of(c) == trump_suit]
            if not candidates:
                raise PositionError(
                    f"no card of the trump suit {trump_suit} is left for the trump card"
                )
            trump = candidates[0]
        if trump in free:
            free.remove(trump)
        layout.trump, layout.free = trump, free

    def _deal_sized_hands(self, layout: _Layout) -> None:
        """Hands given only by size take the next free cards."""
        for seat, count in sorted(self.hand_counts.items()):
            self._seat(seat, "a hand")
            if len(layout.free) < count:
                raise PositionError(f"not enough cards left to give player {seat} {count} cards")
            layout.hands[seat] = layout.free[:count]
            layout.free = layout.free[count:]

    def _lay_talon(self, layout: _Layout) -> None:
        """The talon as listed, or of the size said (every free card when the discard pile is
        empty), the trump card last; empty unless said."""
        trump, free = layout.trump, layout.free
        trump_free = trump not in layout.placed
        if self.talon is not None:
            talon = list(self.talon)
            if self.talon_size is not None and self.talon_size != len(talon):
                raise PositionError("the talon is both listed and sized, and the two disagree")
        else:
            size = self._talon_size(len(free), trump_free)
            if size > 0 and not trump_free:
                raise PositionError(
                    f"the talon is not empty, so the trump card {trump} must lie at its bottom, "
                    f"but it is {layout.placed[trump]}"
                )
            if size - 1 > len(free):
                raise PositionError(f"not enough free cards for a talon of {size}")
            talon = free[: max(size - 1, 0)] + ([trump] if size > 0 else [])
            free = free[max(size - 1, 0) :]
        if talon and trump_free and trump not in talon:
            raise PositionError(f"the talon must end with the trump card {trump}")
        if not talon and trump_free:
            free.append(trump)
        layout.talon, layout.free = talon, free

    def _talon_size(self, free: int, trump_free: bool) -> int:
        if self.talon_size is not None:
            return self.talon_size
        if self.discard_empty:
            return free + trump_free
        if self.discard_count is not None:
            return free - self.discard_count + trump_free
        return 0

    def _check_discard(self, layout: _Layout) -> None:
        """What is left is the discard pile: whole attack-and-defence pairs, as many as said."""
        discard = layout.free
        if self.discard_empty and discard:
            raise PositionError(
                f"the discard pile should be empty but {len(discard)} card(s) are left over: "
                "let the talon take them (do not size it) or put them in hands"
            )
        if len(discard) % 2:
            raise PositionError(
                f"{len(discard)} cards are left for the discard pile, but a discard pile holds "
                "attack and defence pairs (an even number): give a hand one card more or less, "
                "or size the talon"
            )
        if self.discard_count is not None and len(discard) != self.discard_count:
            raise PositionError(
                f"{self.discard_count} cards should be discarded, but {len(discard)} are left over"
            )
        if layout.talon and self.out:
            raise PositionError("a player can only be out once the talon is empty")

    def _roles(self, hands: list[list[str]], teams: list[int | None]) -> tuple[int, int]:
        """The main attacker (player 0 unless said, or the first seat still holding cards) and
        the defender: the next player clockwise who holds cards and is not his partner
        (R-ROLE-2). Players who are out hold nothing."""
        n = len(hands)
        out = [self._seat(s, "out") for s in self.out]
        for seat in out:
            if hands[seat]:
                raise PositionError(f"player {seat} is out but holds {', '.join(hands[seat])}")
        attacker = self.attacker
        if attacker is None:
            attacker = next((s for s in range(n) if s not in out and hands[s]), 0)
        self._seat(attacker, "the attacker")
        defender = self.defender
        if defender is None:
            for step in range(1, n):
                seat = (attacker + step) % n
                partner = teams[seat] is not None and teams[seat] == teams[attacker]
                if seat not in out and hands[seat] and not partner:
                    defender = seat
                    break
            if defender is None:
                raise PositionError(f"nobody can defend against player {attacker}")
        self._seat(defender, "the defender")
        return attacker, defender

    def _known(self, hands: list[list[str]]) -> list[list[str]]:
        known: list[list[str]] = [[] for _ in hands]
        for seat, cards in self.known.items():
            missing = [c for c in cards if c not in hands[seat]]
            if missing:
                raise PositionError(
                    f"player {seat} is known to hold {missing} but does not hold them"
                )
            known[seat] = canonical(cards)
        return known

    def _bout(self, layout: _Layout, attacker: int, defender: int) -> dict[str, Any]:
        """The table (cards put down by the attacker unless said) and the bout: its number
        (from the discard pile's size unless said), roles, passes, take, shown trumps."""
        table = []
        first_defence = self.first_defence
        for entry in self.table:
            by = attacker if entry.get("by") is None else entry["by"]
            table.append({"attack": entry["attack"], "by": by, "defence": entry.get("defence")})
            if entry.get("defence") and first_defence is None:
                first_defence = entry["defence"]
        number = self.bout_number
        if number is None:
            number = 1 if not layout.free else 1 + (len(layout.free) + 11) // 12
        return {
            "table": table,
            "bout": {
                "number": number,
                "attacker": attacker,
                "defender": defender,
                "opener": attacker if self.opener is None else self.opener,
                "passed": sorted(set(self.passed)),
                "taking": self.taking,
                "first_defence": first_defence,
                "shown": canonical(self.shown),
                "emptied": [
                    s for s in range(layout.n) if not layout.hands[s] and s not in self.out
                ],
            },
        }

    # ---- deals --------------------------------------------------------------------------------

    def next_dealer(self) -> int:
        """The dealer of the game new_game will deal (rules R-DEAL-3, R-MATCH-1, R-MATCH-3)."""
        n = self.player_count()
        if self.previous is not None:
            fool = (self.previous.get("result") or {}).get("fool")
            return fool if fool is not None else self.previous["dealer"]
        return self.dealer if self.dealer is not None else n - 1

    def build_deck(self, options: dict[str, Any]) -> list[str] | None:
        """The deck order to deal, or None to let the engine shuffle from the seed.

        An explicit deck (or its first cards, the rest in canonical order) is used as given.
        Arranged hands are placed where the contract's deal mapping sends them: with
        ``one_at_a_time`` deck index ``k`` goes to seat ``(dealer + 1 + k) mod N``, with
        ``six_at_once`` to seat ``(dealer + 1 + k // 6) mod N``; the trump card is index ``6N``
        (``after_deal``) or the last index (``bottom``, or no talon at all).
        """
        if self.seed is not None and not (self.deck or self.deal_hands or self.deal_trump):
            return None
        all_cards = self._deck_of(options)
        if self.deck is not None and not self.deal_hands and not self.deal_trump:
            return self._given_deck(all_cards)
        if not (self.deal_hands or self.deal_trump or self.deal_talon is not None):
            return None
        deal = _Deal(all_cards, self.player_count(), self.next_dealer(), options)
        trump = self._deal_trump(all_cards)
        if trump:
            deal.slots[deal.trump_index] = trump
        for seat, cards in self.deal_hands.items():
            self._seat(seat, "a dealt hand")
            deal.place_hand(seat, cards, trump)
        if self.deal_talon is not None:
            deal.place_talon(self.deal_talon)
        return deal.filled(suit_of(trump) if trump else (self.trump_suit or ""), self._free_order)

    def _given_deck(self, all_cards: list[str]) -> list[str]:
        """The deck as the scenario lists it (its first cards, the rest in canonical order)."""
        given = list(self.deck or [])
        unknown = [c for c in given if c not in all_cards]
        if unknown or len(set(given)) != len(given):
            raise PositionError(f"the deck lists unknown or repeated cards: {unknown or given}")
        if self.deck_is_prefix:
            return given + [c for c in all_cards if c not in given]
        if sorted(given) != sorted(all_cards):
            raise PositionError(f"the deck must list all {len(all_cards)} cards once each")
        return given

    def _deal_trump(self, all_cards: list[str]) -> str | None:
        """The trump card to turn up: the one named, else the lowest card of the trump suit
        named that no dealt hand or talon card names."""
        if self.deal_trump is not None or self.trump_suit is None:
            return self.deal_trump
        named = {c for cards in self.deal_hands.values() for c in cards}
        named |= set(self.deal_talon or [])
        return next(
            (c for c in canonical(all_cards) if suit_of(c) == self.trump_suit and c not in named),
            None,
        )


@dataclass
class _Layout:
    """A position being built: where each named card is, and the cards the phases hand out."""

    cards: list[str]  # the game's deck
    decks: int
    n: int
    placed: dict[str, str] = field(default_factory=dict)  # card -> where the scenario put it
    hands: list[list[str]] = field(default_factory=list)
    trump: str | None = None
    free: list[str] = field(default_factory=list)  # at the end: the discard pile
    talon: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.hands = [[] for _ in range(self.n)]

    def place(self, card: str, where: str) -> None:
        if card not in self.cards:
            decks = ", two decks" if self.decks == 2 else ""
            raise PositionError(
                f"{card} is not in this game's deck ({len(self.cards)} cards{decks}); {where} "
                "cannot hold it"
            )
        if card in self.placed:
            raise PositionError(f"{card} is placed twice: {self.placed[card]} and {where}")
        self.placed[card] = where


class _Deal:
    """The slots of a deck order being arranged by the contract's deal mapping."""

    def __init__(self, cards: list[str], n: int, dealer: int, options: dict[str, Any]):
        self.cards, self.n, self.dealer = cards, n, dealer
        size, self.dealt = len(cards), HAND_SIZE * n
        if self.dealt > size:
            raise PositionError(f"{n} players need {self.dealt} cards, the deck has {size}")
        self.slots: list[str | None] = [None] * size
        self.deal_order = options.get("deal_order")
        self.no_talon = self.dealt == size
        self.trump_index = deal_mapping.trump_index(size, n, options.get("trump_card"))

    def seat_indices(self, seat: int) -> list[int]:
        """The deck indices dealt to ``seat`` (R-DEAL-1)."""
        return deal_mapping.seat_indices(seat, self.n, self.dealer, self.deal_order)

    def place_hand(self, seat: int, cards: list[str], trump: str | None) -> None:
        if len(cards) > HAND_SIZE:
            raise PositionError(f"player {seat} is dealt {len(cards)} cards; a hand is six")
        indices, cards_left = self.seat_indices(seat), list(cards)
        if self.no_talon and self.trump_index in indices and trump in cards_left:
            cards_left.remove(trump)
            indices.remove(self.trump_index)
        elif self.no_talon and self.trump_index in indices and trump is not None:
            raise PositionError(
                f"with no talon the trump card {trump} is the dealer's last card; "
                f"list it in player {seat}'s hand"
            )
        for index, card in zip(indices, cards_left):
            self.slots[index] = card

    def place_talon(self, talon: list[str]) -> None:
        indices = [i for i in range(self.dealt, len(self.slots)) if i != self.trump_index]
        if len(talon) > len(indices):
            raise PositionError("the talon after the deal lists more cards than it has")
        for index, card in zip(indices, talon):
            self.slots[index] = card

    def filled(self, trump_suit: str, free_order: Any) -> list[str]:
        """The deck order: the arranged slots, the others in the builder's free-card order."""
        named = [c for c in self.slots if c is not None]
        unknown = [c for c in named if c not in self.cards]
        if unknown or len(set(named)) != len(named):
            raise PositionError(
                f"the arranged deal names unknown or repeated cards: {unknown or named}"
            )
        free = free_order([c for c in self.cards if c not in named], trump_suit)
        return [slot if slot is not None else free.pop(0) for slot in self.slots]


def _pile(cards: list[str], trump: str) -> list[str]:
    """The discard pile as a game leaves it (:func:`~conformance.tools.reach.repair.as_pile`), so
    that a game can reach the position; the left-over cards in canonical order are kept when they
    already are beaten pairs, since the routes in features/routes.yaml depend on the built state."""
    pile = as_pile(cards, trump)
    if pile is None:
        raise PositionError(
            f"the {len(cards)} cards left for the discard pile ({', '.join(cards)}) cannot be "
            "split into attack cards each beaten by a card of the pile (R-BOUT-1, R-BEAT-1): "
            "put other cards in hands or size the talon"
        )
    return pile
