"""The Given steps of the rulebook: the game, its options and the position or deal it starts from.

Each writes into the scenario's :class:`~conformance.bdd.position.PositionSpec`; the builder turns
what they say into a full state or a deck order when the scenario is compiled
(:mod:`conformance.bdd.compiler`). None of them asks an engine.
"""

from __future__ import annotations

from typing import Any

from pytest_bdd import given, parsers

from conformance.bdd.cards import parse_card, parse_cards
from conformance.bdd.compiler import ScenarioBuilder
from conformance.bdd.words import SEATS, seat_numbers


@given(parsers.re(r"a (?P<n>\d+)-player (?P<preset>[a-z_]+) game"))
def _given_game(durak_game: ScenarioBuilder, n: str, preset: str) -> None:
    durak_game.spec.players = int(n)
    durak_game.spec.preset = preset


@given(parsers.re(r"the option (?P<name>[a-z_0-9]+) is (?P<value>[A-Za-z0-9_]+)"))
def _given_option(durak_game: ScenarioBuilder, name: str, value: str) -> None:
    durak_game.set_option(name, value)


@given(parsers.re(r"the trump suit is (?P<suit>clubs|diamonds|hearts|spades)"))
def _given_trump_suit(durak_game: ScenarioBuilder, suit: str) -> None:
    durak_game.spec.set_trump_suit(suit)


@given(parsers.re(r"the trump card is (?P<card>\S+)"))
def _given_trump_card(durak_game: ScenarioBuilder, card: str) -> None:
    durak_game.spec.trump_card = parse_card(card)


@given(parsers.re(r"player (?P<seat>\d+) holds (?P<count>\d+) cards?"))
def _given_hand_size(durak_game: ScenarioBuilder, seat: str, count: str) -> None:
    durak_game.spec.hand_counts[int(seat)] = int(count)


@given(parsers.re(r"player (?P<seat>\d+) holds (?P<cards>(?!\d+ cards?$).+)"))
def _given_hand(durak_game: ScenarioBuilder, seat: str, cards: str) -> None:
    durak_game.spec.hands[int(seat)] = parse_cards(cards)


@given(parsers.re(r"player (?P<seat>\d+) is known to hold (?P<cards>.+)"))
def _given_known(durak_game: ScenarioBuilder, seat: str, cards: str) -> None:
    durak_game.spec.known[int(seat)] = parse_cards(cards)


@given("the talon is empty")
def _given_talon_empty(durak_game: ScenarioBuilder) -> None:
    durak_game.spec.talon_size = 0


@given(parsers.re(r"the talon holds (?P<count>\d+) cards?"))
def _given_talon_size(durak_game: ScenarioBuilder, count: str) -> None:
    durak_game.spec.talon_size = int(count)


@given(parsers.re(r"the talon, top first, is (?P<cards>.+)"))
def _given_talon(durak_game: ScenarioBuilder, cards: str) -> None:
    durak_game.spec.talon = parse_cards(cards)


@given(parsers.re(r"the discard pile is empty"))
def _given_discard_empty(durak_game: ScenarioBuilder) -> None:
    durak_game.spec.discard_empty = True


@given(parsers.re(r"(?P<count>\d+) cards have been discarded"))
def _given_discard_count(durak_game: ScenarioBuilder, count: str) -> None:
    durak_game.spec.discard_count = int(count)


@given(parsers.re(r"player (?P<seat>\d+) (?:deals|dealt|is the dealer)"))
def _given_dealer(durak_game: ScenarioBuilder, seat: str) -> None:
    durak_game.spec.dealer = int(seat)


@given(parsers.re(r"player (?P<seat>\d+) is the (?:main )?attacker"))
def _given_attacker(durak_game: ScenarioBuilder, seat: str) -> None:
    durak_game.spec.attacker = int(seat)


@given(parsers.re(r"player (?P<a>\d+) attacks player (?P<d>\d+)"))
def _given_attacks(durak_game: ScenarioBuilder, a: str, d: str) -> None:
    durak_game.spec.attacker = int(a)
    durak_game.spec.defender = int(d)


@given(parsers.re(r"player (?P<seat>\d+) is the defender"))
def _given_defender(durak_game: ScenarioBuilder, seat: str) -> None:
    durak_game.spec.defender = int(seat)


@given(parsers.re(r"player (?P<seat>\d+) opened the bout"))
def _given_opener(durak_game: ScenarioBuilder, seat: str) -> None:
    durak_game.spec.opener = int(seat)


@given(parsers.re(r"player (?P<seat>\d+) has (?:attacked with|thrown in) (?P<cards>.+)"))
def _given_table_attack(durak_game: ScenarioBuilder, seat: str, cards: str) -> None:
    for card in parse_cards(cards):
        durak_game.spec.table.append({"attack": card, "by": int(seat), "defence": None})


@given(parsers.re(r"(?:the defender|player \d+) has beaten (?P<target>\S+) with (?P<card>\S+)"))
def _given_table_beaten(durak_game: ScenarioBuilder, target: str, card: str) -> None:
    target, card = parse_card(target), parse_card(card)
    for entry in durak_game.spec.table:
        if entry["attack"] == target:
            if entry["defence"] is not None:
                raise ValueError(f"{target} is already beaten by {entry['defence']}")
            entry["defence"] = card
            return
    raise ValueError(
        f"{target} is not on the table; add it with 'player N has attacked with {target}'"
    )


@given(parsers.re(rf"{SEATS} (?:has|have) passed"))
def _given_passed(durak_game: ScenarioBuilder, seats: str) -> None:
    durak_game.spec.passed.extend(seat_numbers(seats))


@given(parsers.re(r"the defender has (?:declared|said) take"))
def _given_taking(durak_game: ScenarioBuilder) -> None:
    durak_game.spec.taking = True


@given(parsers.re(rf"{SEATS} (?:is|are) out"))
def _given_out(durak_game: ScenarioBuilder, seats: str) -> None:
    durak_game.spec.out.extend(seat_numbers(seats))


@given(parsers.re(r"this is bout (?P<number>\d+)"))
def _given_bout_number(durak_game: ScenarioBuilder, number: str) -> None:
    durak_game.spec.bout_number = int(number)


@given(parsers.re(r"the trump (?P<card>\S+) has been shown this bout"))
def _given_shown(durak_game: ScenarioBuilder, card: str) -> None:
    durak_game.spec.shown.append(parse_card(card))


# ---- games that start with a deal -------------------------------------------------------------


@given("the deck is unshuffled")
def _given_unshuffled(durak_game: ScenarioBuilder) -> None:
    durak_game.spec.deck = []
    durak_game.spec.deck_is_prefix = True


@given(parsers.re(r"the deck, top first, (?P<kind>begins with|is) (?P<cards>.+)"))
def _given_deck(durak_game: ScenarioBuilder, kind: str, cards: str) -> None:
    durak_game.spec.deck = parse_cards(cards)
    durak_game.spec.deck_is_prefix = kind == "begins with"


@given(parsers.re(r"the deck is shuffled with seed (?P<seed>\d+)"))
def _given_seed(durak_game: ScenarioBuilder, seed: str) -> None:
    durak_game.spec.seed = int(seed)


@given(parsers.re(r"the deal gives player (?P<seat>\d+) (?P<cards>.+)"))
def _given_deal_hand(durak_game: ScenarioBuilder, seat: str, cards: str) -> None:
    durak_game.spec.deal_hands[int(seat)] = parse_cards(cards)


@given(parsers.re(r"the deal turns up (?P<card>\S+) as the trump card"))
def _given_deal_trump(durak_game: ScenarioBuilder, card: str) -> None:
    durak_game.spec.deal_trump = parse_card(card)


@given(parsers.re(r"the talon after the deal, top first, begins with (?P<cards>.+)"))
def _given_deal_talon(durak_game: ScenarioBuilder, cards: str) -> None:
    durak_game.spec.deal_talon = parse_cards(cards)


def _previous_result(n: int, fool: int | None) -> dict[str, Any]:
    others = [s for s in range(n) if s != fool]
    return {
        "fool": fool,
        "draw": fool is None,
        "losing_team": None,
        "winners": [],
        "finishing_order": others,
        "epaulettes": None,
    }


@given(
    parsers.re(
        r"the previous game was dealt by player (?P<dealer>\d+) and player (?P<fool>\d+) was the fool"
    )
)
def _given_previous_fool(durak_game: ScenarioBuilder, dealer: str, fool: str) -> None:
    n = durak_game.spec.player_count()
    durak_game.spec.previous = {"dealer": int(dealer), "result": _previous_result(n, int(fool))}


@given(parsers.re(r"the previous game was dealt by player (?P<dealer>\d+) and ended in a draw"))
def _given_previous_draw(durak_game: ScenarioBuilder, dealer: str) -> None:
    n = durak_game.spec.player_count()
    durak_game.spec.previous = {"dealer": int(dealer), "result": _previous_result(n, None)}
