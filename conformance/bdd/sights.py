"""The Then steps about what a player sees: each is an ``observe`` step of that player.

"player 0 sees 6 cards in player 1's hand" expects ``/players/1/hand_size: 6`` in player 0's
observation (spec/schema/observation.schema.json); "... but not which" adds an ``absent``
pointer; "sees no card hidden from them" asks that no card the player has not seen appears in
it (``hides_unseen``). A scenario with such a step needs an engine that claims ``observe``.
"""

from __future__ import annotations

from typing import Any

from pytest_bdd import parsers, then

from conformance.bdd.cards import SUIT_NAMES, parse_card, parse_cards
from conformance.bdd.compiler import ScenarioBuilder
from conformance.bdd.words import WHO, seat_of


def _sees(durak_game: ScenarioBuilder, who: str, **what: Any) -> None:
    durak_game.emit({"observe": {"player": seat_of(who)}, **what})


@then(parsers.re(rf"{WHO} sees (?P<count>\d+) cards? in player (?P<other>\d+)'s hand"))
def _then_sees_hand_size(durak_game: ScenarioBuilder, who: str, count: str, other: str) -> None:
    _sees(durak_game, who, expect={f"/players/{int(other)}/hand_size": int(count)})


@then(parsers.re(rf"{WHO} sees that player (?P<other>\d+) holds (?P<cards>.+)"))
def _then_sees_known(durak_game: ScenarioBuilder, who: str, other: str, cards: str) -> None:
    _sees(durak_game, who, expect={f"/players/{int(other)}/known": parse_cards(cards)})


@then(parsers.re(rf"{WHO} sees (?:their|his|her) own hand (?P<cards>.+)"))
def _then_sees_own(durak_game: ScenarioBuilder, who: str, cards: str) -> None:
    _sees(durak_game, who, expect={"/hand": parse_cards(cards)})


@then(parsers.re(rf"{WHO} sees the trump card (?P<card>\S+) and a talon of (?P<count>\d+) cards?"))
def _then_sees_trump(durak_game: ScenarioBuilder, who: str, card: str, count: str) -> None:
    _sees(durak_game, who, expect={"/trump_card": parse_card(card), "/talon_size": int(count)})


@then(
    parsers.re(
        rf"{WHO} sees no trump card, only that (?P<suit>clubs|diamonds|hearts|spades) are trumps"
    )
)
def _then_sees_no_trump(durak_game: ScenarioBuilder, who: str, suit: str) -> None:
    _sees(durak_game, who, expect={"/trump_card": None, "/trump_suit": SUIT_NAMES[suit]})


@then(parsers.re(rf"{WHO} sees a discard pile of (?P<count>\d+) cards? but not which"))
def _then_sees_discard_count(durak_game: ScenarioBuilder, who: str, count: str) -> None:
    _sees(durak_game, who, expect={"/discard/count": int(count)}, absent=["/discard/cards"])


@then(parsers.re(rf"{WHO} sees the discarded cards (?P<cards>.+)"))
def _then_sees_discard(durak_game: ScenarioBuilder, who: str, cards: str) -> None:
    _sees(durak_game, who, expect={"/discard/cards": parse_cards(cards)})


@then(parsers.re(rf"{WHO} sees no card hidden from (?:them|him|her)"))
def _then_sees_no_talon(durak_game: ScenarioBuilder, who: str) -> None:
    _sees(durak_game, who, hides_unseen=True)
