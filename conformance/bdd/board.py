"""The Then steps about the state: roles, hands, the table, the bout, the talon, who is out.

Each sentence becomes fixture steps over JSON pointers of the state (docs/architecture.md,
"State"): ``expect`` for exact fields ("the defender is player 2" is ``/bout/defender: 2``),
``check`` for what an exact value cannot say (a hand's size, cards among others), ``bout`` for
what became of the bout of the last move, ``movers`` for who may open the next bout.
"""

from __future__ import annotations

from pytest_bdd import parsers, then

from conformance.bdd.cards import SUIT_NAMES, parse_card, parse_cards
from conformance.bdd.compiler import ScenarioBuilder
from conformance.bdd.words import SEATS, WHO, fixed_seat, seat_numbers

# ---- roles --------------------------------------------------------------------------------------


@then(parsers.re(r"the defender is player (?P<seat>\d+)"))
def _then_defender(durak_game: ScenarioBuilder, seat: str) -> None:
    durak_game.emit({"expect": {"/bout/defender": int(seat)}})


@then(parsers.re(r"the (?:main )?attacker is player (?P<seat>\d+)"))
def _then_attacker(durak_game: ScenarioBuilder, seat: str) -> None:
    durak_game.emit({"expect": {"/bout/attacker": int(seat)}})


@then(parsers.re(r"player (?P<seat>\d+) (?:attacks next|attacks first|opens the next bout)"))
def _then_attacks_next(durak_game: ScenarioBuilder, seat: str) -> None:
    """A new bout whose main attacker is ``seat``: the table is empty and only he may move,
    by opening it (R-ATTACK-1)."""
    durak_game.emit(
        {"expect": {"/table": [], "/bout/attacker": int(seat)}},
        {"movers": [int(seat)], "actions": ["attack"]},
    )


@then(parsers.re(r"player (?P<seat>\d+) (?:defends next|defends first)"))
def _then_defends_next(durak_game: ScenarioBuilder, seat: str) -> None:
    durak_game.emit({"expect": {"/bout/defender": int(seat)}})


# ---- hands --------------------------------------------------------------------------------------


@then(parsers.re(rf"{WHO} holds (?P<count>\d+) cards?"))
def _then_hand_size(durak_game: ScenarioBuilder, who: str, count: str) -> None:
    durak_game.emit({"check": {f"/players/{fixed_seat(who)}/hand": {"size": int(count)}}})


@then(parsers.re(rf"{WHO} holds (?P<cards>(?!\d+ cards?$)(?!.* among others$).+)"))
def _then_hand(durak_game: ScenarioBuilder, who: str, cards: str) -> None:
    durak_game.emit({"expect": {f"/players/{fixed_seat(who)}/hand": parse_cards(cards)}})


@then(parsers.re(r"every player holds (?P<count>\d+) cards"))
def _then_every_hand_size(durak_game: ScenarioBuilder, count: str) -> None:
    players = range(durak_game.spec.player_count())
    durak_game.emit({"check": {f"/players/{s}/hand": {"size": int(count)} for s in players}})


@then(parsers.re(rf"{WHO} holds (?P<cards>.+) among others"))
def _then_hand_includes(durak_game: ScenarioBuilder, who: str, cards: str) -> None:
    pointer = f"/players/{fixed_seat(who)}/hand"
    durak_game.emit({"check": {pointer: {"includes": parse_cards(cards)}}})


@then(parsers.re(rf"{WHO} is known to hold (?P<cards>.+)"))
def _then_known(durak_game: ScenarioBuilder, who: str, cards: str) -> None:
    pointer = f"/players/{fixed_seat(who)}/known"
    durak_game.emit({"check": {pointer: {"includes": parse_cards(cards)}}})


# ---- the table and the bout ---------------------------------------------------------------------


@then("the table is empty")
def _then_table_empty(durak_game: ScenarioBuilder) -> None:
    durak_game.emit({"expect": {"/table": []}})


@then(parsers.re(r"the table holds (?P<items>.+)"))
def _then_table(durak_game: ScenarioBuilder, items: str) -> None:
    """ "the table holds 7C beaten by 9C, 8C unbeaten": the attack cards in the order played,
    each with its defence or none (who played them is not said)."""
    fields: dict[str, str | None] = {}
    entries = [part.strip() for part in items.split(",")]
    for index, item in enumerate(entries):
        words = item.replace(" and ", " ").split()
        if len(words) == 4 and words[1:3] == ["beaten", "by"]:
            attack, defence = parse_card(words[0]), parse_card(words[3])
        elif len(words) in (1, 2) and words[-1] in ("unbeaten", words[0]):
            attack, defence = parse_card(words[0]), None
        else:
            raise ValueError(f"{item!r}: write 'XX beaten by YY' or 'XX unbeaten'")
        fields[f"/table/{index}/attack"] = attack
        fields[f"/table/{index}/defence"] = defence
    durak_game.emit({"check": {"/table": {"size": len(entries)}}}, {"expect": fields})


@then(parsers.re(r"the bout ends and its cards are discarded"))
def _then_discarded(durak_game: ScenarioBuilder) -> None:
    durak_game.emit({"bout": "discarded"})


@then(parsers.re(rf"{WHO} picks up the cards of the bout"))
def _then_picked_up(durak_game: ScenarioBuilder, who: str) -> None:
    """A role means the defender of the bout just closed (he took it), not the defender now."""
    taker = {"player": fixed_seat(who)} if who.startswith("player") else {}
    durak_game.emit({"bout": "taken", **taker})


@then("the bout goes on")
def _then_bout_goes_on(durak_game: ScenarioBuilder) -> None:
    durak_game.emit({"bout": "goes_on"})


@then(parsers.re(r"the bout is over"))
def _then_bout_over(durak_game: ScenarioBuilder) -> None:
    durak_game.emit({"bout": "over"})


@then(parsers.re(rf"{SEATS} (?:has|have) passed"))
def _then_passed(durak_game: ScenarioBuilder, seats: str) -> None:
    durak_game.emit({"expect": {"/bout/passed": seat_numbers(seats)}})


@then("nobody has passed")
def _then_nobody_passed(durak_game: ScenarioBuilder) -> None:
    durak_game.emit({"expect": {"/bout/passed": []}})


@then("the defender is taking")
def _then_taking(durak_game: ScenarioBuilder) -> None:
    durak_game.emit({"expect": {"/bout/taking": True}})


# ---- the talon, the trump card, the dealer ------------------------------------------------------


@then(parsers.re(r"the talon holds (?P<count>\d+) cards?"))
def _then_talon_size(durak_game: ScenarioBuilder, count: str) -> None:
    durak_game.emit({"check": {"/talon": {"size": int(count)}}})


@then("the talon is empty")
def _then_talon_empty(durak_game: ScenarioBuilder) -> None:
    durak_game.emit({"expect": {"/talon": []}})


@then(parsers.re(r"the talon, top first, is (?P<cards>.+)"))
def _then_talon(durak_game: ScenarioBuilder, cards: str) -> None:
    durak_game.emit({"expect": {"/talon": parse_cards(cards)}})


@then(parsers.re(r"the trump card is (?P<card>\S+)"))
def _then_trump_card(durak_game: ScenarioBuilder, card: str) -> None:
    durak_game.emit({"expect": {"/trump": parse_card(card)}})


@then(parsers.re(r"the trump suit is (?P<suit>clubs|diamonds|hearts|spades)"))
def _then_trump_suit(durak_game: ScenarioBuilder, suit: str) -> None:
    pattern = f"[2-9TJQKA]{SUIT_NAMES[suit]}2?"
    durak_game.emit({"check": {"/trump": {"matches": pattern}}})


@then("the trump card lies face up at the bottom of the talon")
def _then_trump_at_bottom(durak_game: ScenarioBuilder) -> None:
    """The talon holds cards; that its last one is the trump card is R-TRUMP-2, which the
    runner checks of every state an engine answers (:mod:`conformance.suite.invariants`)."""
    durak_game.emit({"check": {"/talon/0": {"present": True}}})


@then(parsers.re(r"the dealer is player (?P<seat>\d+)"))
def _then_dealer(durak_game: ScenarioBuilder, seat: str) -> None:
    durak_game.emit({"expect": {"/dealer": int(seat)}})


# ---- going out ----------------------------------------------------------------------------------


@then(parsers.re(rf"{SEATS} (?:is|are) out"))
def _then_out(durak_game: ScenarioBuilder, seats: str) -> None:
    durak_game.emit({"check": {"/finished": {"includes": seat_numbers(seats)}}})


@then(parsers.re(rf"{WHO} is not out"))
def _then_not_out(durak_game: ScenarioBuilder, who: str) -> None:
    durak_game.emit({"check": {"/finished": {"excludes": [fixed_seat(who)]}}})


@then(parsers.re(r"nobody is out"))
def _then_nobody_out(durak_game: ScenarioBuilder) -> None:
    durak_game.emit({"expect": {"/finished": []}})


@then(parsers.re(r"the finishing order is (?P<seats>[\d, and]+)"))
def _then_finishing_order(durak_game: ScenarioBuilder, seats: str) -> None:
    durak_game.emit({"expect": {"/finished": seat_numbers(seats)}})
