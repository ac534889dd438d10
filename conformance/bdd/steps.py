"""Step definitions for the rulebook features: players' words in, Engine calls out.

Every step talks to the engine under test only through :class:`conformance.engines.base.Engine` (via
:class:`conformance.bdd.context.ScenarioGame`); none of them knows a rule of Durak. What a scenario
expects comes from its own text, written from the rules.

To bind the features in a test module::

    from conformance.bdd.steps import *  # noqa: F403  (the step fixtures)
    scenarios(str(features_dir()))

The engine comes from the ``durak_engine`` fixture (the runner's plugin, or the fallback in
:mod:`conformance.bdd.plugin`).
"""

from __future__ import annotations

from typing import Any

import pytest
from pytest_bdd import given, parsers, then, when

from conformance.bdd.cards import SUIT_NAMES, parse_card, parse_cards
from conformance.bdd.context import ScenarioGame
from conformance.bdd.model import options_from_tags
from conformance.bdd.phrases import VERBS, describe, normalise, parse_move, split_alternatives
from conformance.contract.cards import canonical, deck
from conformance.contract.shuffle import shuffle
from conformance.engines.base import ErrorResult

WHO = r"(?P<who>player \d+|the defender|the new defender|the attacker|the main attacker)"
SEATS = r"(?P<seats>(?:players? )?\d+(?:(?:, | and )\d+)*)"


def _seats(text: str) -> list[int]:
    text = text.replace("players", "").replace("player", "")
    return [int(part) for part in text.replace(" and ", ",").split(",") if part.strip()]


def scenario_tags(request: pytest.FixtureRequest) -> set[str]:
    """The tags of the running scenario, its Rule's and its Feature's (never an Examples')."""
    try:
        from pytest_bdd.scenario import scenario_wrapper_template_registry

        template = scenario_wrapper_template_registry.get(request.function)
    except (ImportError, AttributeError, TypeError):
        template = None
    if template is not None:
        tags = set(template.tags) | set(template.feature.tags)
        if template.rule is not None:
            tags |= set(template.rule.tags)
        return tags
    tags = set()
    for mark in request.node.iter_markers("durak_option"):
        tags.add(f"opt:{mark.args[0]}={mark.args[1]}")
    for mark in request.node.iter_markers("durak_rule"):
        tags.add(mark.args[0])
    return tags


@pytest.fixture
def durak_game(request: pytest.FixtureRequest, durak_engine: Any) -> ScenarioGame:
    """The scenario's game on the engine under test, with the options its tags ask for. The
    game keeps the scenario's rendered steps for the gate, and the test item keeps the game, so
    the report can say what the gate decided."""
    game = ScenarioGame(
        durak_engine, options_from_tags(scenario_tags(request)), steps=scenario_steps(request)
    )
    request.node.durak_game = game
    return game


def scenario_steps(request: pytest.FixtureRequest) -> list[Any] | None:
    """The steps of the running scenario, its outline rendered with this row's values."""
    try:
        from pytest_bdd.scenario import scenario_wrapper_template_registry

        template = scenario_wrapper_template_registry.get(request.function)
    except (ImportError, AttributeError, TypeError):
        return None
    if template is None:
        return None
    callspec = getattr(request.node, "callspec", None)
    example = callspec.params.get("_pytest_bdd_example") if callspec is not None else None
    return list(template.render(example or {}).steps)


# ================================================================================================
# Given: the game and the position
# ================================================================================================


@given(parsers.re(r"a (?P<n>\d+)-player (?P<preset>[a-z_]+) game"))
def _given_game(durak_game: ScenarioGame, n: str, preset: str) -> None:
    durak_game.spec.players = int(n)
    durak_game.spec.preset = preset


@given(parsers.re(r"the option (?P<name>[a-z_0-9]+) is (?P<value>[A-Za-z0-9_]+)"))
def _given_option(durak_game: ScenarioGame, name: str, value: str) -> None:
    durak_game.set_option(name, value)


@given(parsers.re(r"the trump suit is (?P<suit>clubs|diamonds|hearts|spades)"))
def _given_trump_suit(durak_game: ScenarioGame, suit: str) -> None:
    durak_game.spec.set_trump_suit(suit)


@given(parsers.re(r"the trump card is (?P<card>\S+)"))
def _given_trump_card(durak_game: ScenarioGame, card: str) -> None:
    durak_game.spec.trump_card = parse_card(card)


@given(parsers.re(r"player (?P<seat>\d+) holds (?P<count>\d+) cards?"))
def _given_hand_size(durak_game: ScenarioGame, seat: str, count: str) -> None:
    durak_game.spec.hand_counts[int(seat)] = int(count)


@given(parsers.re(r"player (?P<seat>\d+) holds (?P<cards>(?!\d+ cards?$).+)"))
def _given_hand(durak_game: ScenarioGame, seat: str, cards: str) -> None:
    durak_game.spec.hands[int(seat)] = parse_cards(cards)


@given(parsers.re(r"player (?P<seat>\d+) is known to hold (?P<cards>.+)"))
def _given_known(durak_game: ScenarioGame, seat: str, cards: str) -> None:
    durak_game.spec.known[int(seat)] = parse_cards(cards)


@given("the talon is empty")
def _given_talon_empty(durak_game: ScenarioGame) -> None:
    durak_game.spec.talon_size = 0


@given(parsers.re(r"the talon holds (?P<count>\d+) cards?"))
def _given_talon_size(durak_game: ScenarioGame, count: str) -> None:
    durak_game.spec.talon_size = int(count)


@given(parsers.re(r"the talon, top first, is (?P<cards>.+)"))
def _given_talon(durak_game: ScenarioGame, cards: str) -> None:
    durak_game.spec.talon = parse_cards(cards)


@given(parsers.re(r"the discard pile is empty"))
def _given_discard_empty(durak_game: ScenarioGame) -> None:
    durak_game.spec.discard_empty = True


@given(parsers.re(r"(?P<count>\d+) cards have been discarded"))
def _given_discard_count(durak_game: ScenarioGame, count: str) -> None:
    durak_game.spec.discard_count = int(count)


@given(parsers.re(r"player (?P<seat>\d+) (?:deals|dealt|is the dealer)"))
def _given_dealer(durak_game: ScenarioGame, seat: str) -> None:
    durak_game.spec.dealer = int(seat)


@given(parsers.re(r"player (?P<seat>\d+) is the (?:main )?attacker"))
def _given_attacker(durak_game: ScenarioGame, seat: str) -> None:
    durak_game.spec.attacker = int(seat)


@given(parsers.re(r"player (?P<a>\d+) attacks player (?P<d>\d+)"))
def _given_attacks(durak_game: ScenarioGame, a: str, d: str) -> None:
    durak_game.spec.attacker = int(a)
    durak_game.spec.defender = int(d)


@given(parsers.re(r"player (?P<seat>\d+) is the defender"))
def _given_defender(durak_game: ScenarioGame, seat: str) -> None:
    durak_game.spec.defender = int(seat)


@given(parsers.re(r"player (?P<seat>\d+) opened the bout"))
def _given_opener(durak_game: ScenarioGame, seat: str) -> None:
    durak_game.spec.opener = int(seat)


@given(parsers.re(r"player (?P<seat>\d+) has (?:attacked with|thrown in) (?P<cards>.+)"))
def _given_table_attack(durak_game: ScenarioGame, seat: str, cards: str) -> None:
    for card in parse_cards(cards):
        durak_game.spec.table.append({"attack": card, "by": int(seat), "defence": None})


@given(parsers.re(r"(?:the defender|player \d+) has beaten (?P<target>\S+) with (?P<card>\S+)"))
def _given_table_beaten(durak_game: ScenarioGame, target: str, card: str) -> None:
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
def _given_passed(durak_game: ScenarioGame, seats: str) -> None:
    durak_game.spec.passed.extend(_seats(seats))


@given(parsers.re(r"the defender has (?:declared|said) take"))
def _given_taking(durak_game: ScenarioGame) -> None:
    durak_game.spec.taking = True


@given(parsers.re(rf"{SEATS} (?:is|are) out"))
def _given_out(durak_game: ScenarioGame, seats: str) -> None:
    durak_game.spec.out.extend(_seats(seats))


@given(parsers.re(r"this is bout (?P<number>\d+)"))
def _given_bout_number(durak_game: ScenarioGame, number: str) -> None:
    durak_game.spec.bout_number = int(number)


@given(parsers.re(r"the trump (?P<card>\S+) has been shown this bout"))
def _given_shown(durak_game: ScenarioGame, card: str) -> None:
    durak_game.spec.shown.append(parse_card(card))


# ---- games that start with a deal -------------------------------------------------------------


@given("the deck is unshuffled")
def _given_unshuffled(durak_game: ScenarioGame) -> None:
    durak_game.spec.deck = []
    durak_game.spec.deck_is_prefix = True


@given(parsers.re(r"the deck, top first, (?P<kind>begins with|is) (?P<cards>.+)"))
def _given_deck(durak_game: ScenarioGame, kind: str, cards: str) -> None:
    durak_game.spec.deck = parse_cards(cards)
    durak_game.spec.deck_is_prefix = kind == "begins with"


@given(parsers.re(r"the deck is shuffled with seed (?P<seed>\d+)"))
def _given_seed(durak_game: ScenarioGame, seed: str) -> None:
    durak_game.spec.seed = int(seed)


@given(parsers.re(r"the deal gives player (?P<seat>\d+) (?P<cards>.+)"))
def _given_deal_hand(durak_game: ScenarioGame, seat: str, cards: str) -> None:
    durak_game.spec.deal_hands[int(seat)] = parse_cards(cards)


@given(parsers.re(r"the deal turns up (?P<card>\S+) as the trump card"))
def _given_deal_trump(durak_game: ScenarioGame, card: str) -> None:
    durak_game.spec.deal_trump = parse_card(card)


@given(parsers.re(r"the talon after the deal, top first, begins with (?P<cards>.+)"))
def _given_deal_talon(durak_game: ScenarioGame, cards: str) -> None:
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
def _given_previous_fool(durak_game: ScenarioGame, dealer: str, fool: str) -> None:
    n = durak_game.spec.player_count()
    durak_game.spec.previous = {"dealer": int(dealer), "result": _previous_result(n, int(fool))}


@given(parsers.re(r"the previous game was dealt by player (?P<dealer>\d+) and ended in a draw"))
def _given_previous_draw(durak_game: ScenarioGame, dealer: str) -> None:
    n = durak_game.spec.player_count()
    durak_game.spec.previous = {"dealer": int(dealer), "result": _previous_result(n, None)}


# ================================================================================================
# When: moves
# ================================================================================================


@when(parsers.re(rf"{WHO} (?P<phrase>{VERBS})"))
def _when_move(durak_game: ScenarioGame, who: str, phrase: str) -> None:
    durak_game.play(parse_move(phrase, durak_game.seat(who)))


@when("the players play:")
def _when_sequence(durak_game: ScenarioGame, datatable: list[list[str]]) -> None:
    rows = [row for row in datatable if row and row[0].strip().lower() not in ("who", "player")]
    for row in rows:
        who, phrase = row[0].strip(), row[1].strip()
        if who.isdigit():
            who = f"player {who}"
        durak_game.play(parse_move(phrase, durak_game.seat(who)))
        if durak_game.refusal is not None:
            move, error = durak_game.refusal
            pytest.fail(f"the engine refused '{describe(move)}' in the sequence: {error}")


@when("the game is dealt")
def _when_dealt(durak_game: ScenarioGame) -> None:
    durak_game.start()


# ================================================================================================
# Then: what may be played
# ================================================================================================


def _moves_of(durak_game: ScenarioGame, seat: int) -> list[dict[str, Any]]:
    return [m for m in durak_game.legal() if m.get("player") == seat]


def _show(moves: list[dict[str, Any]]) -> str:
    return "; ".join(sorted(describe(m) for m in moves)) or "no move at all"


@then(parsers.re(rf"{WHO} may (?P<phrase>(?!not |only ){VERBS})"))
def _then_may(durak_game: ScenarioGame, who: str, phrase: str) -> None:
    seat = durak_game.seat(who)
    move = parse_move(phrase, seat)
    assert normalise(move) in durak_game.legal_keys(), (
        f"'{describe(move)}' should be legal; player {seat}'s legal moves are: "
        f"{_show(_moves_of(durak_game, seat))}"
    )


@then(parsers.re(rf"{WHO} may not (?P<phrase>{VERBS})"))
def _then_may_not(durak_game: ScenarioGame, who: str, phrase: str) -> None:
    seat = durak_game.seat(who)
    move = parse_move(phrase, seat)
    assert normalise(move) not in durak_game.legal_keys(), (
        f"'{describe(move)}' should not be legal, but legal_moves lists it"
    )


@then(parsers.re(rf"{WHO} may only (?P<phrases>.+)"))
def _then_may_only(durak_game: ScenarioGame, who: str, phrases: str) -> None:
    seat = durak_game.seat(who)
    expected = [parse_move(p, seat) for p in split_alternatives(phrases)]
    actual = _moves_of(durak_game, seat)
    assert {normalise(m) for m in actual} == {normalise(m) for m in expected}, (
        f"player {seat}'s legal moves should be exactly: {_show(expected)}; "
        f"the engine lists: {_show(actual)}"
    )


@then(parsers.re(rf"{WHO} (?:has no move|may not move)"))
def _then_no_move(durak_game: ScenarioGame, who: str) -> None:
    seat = durak_game.seat(who)
    actual = _moves_of(durak_game, seat)
    assert not actual, f"player {seat} should have no move; the engine lists: {_show(actual)}"


@then("nobody may move")
def _then_nobody_moves(durak_game: ScenarioGame) -> None:
    actual = durak_game.legal()
    assert not actual, f"no move should be legal; the engine lists: {_show(actual)}"


@then(parsers.re(rf"only {WHO} may move"))
def _then_only_mover(durak_game: ScenarioGame, who: str) -> None:
    seat = durak_game.seat(who)
    others = [m for m in durak_game.legal() if m.get("player") != seat]
    assert not others, f"only player {seat} should be able to move; also legal: {_show(others)}"
    assert _moves_of(durak_game, seat), f"player {seat} should have a legal move"


@then("the legal moves are exactly:")
def _then_legal_exactly(durak_game: ScenarioGame, datatable: list[list[str]]) -> None:
    expected = []
    for row in datatable:
        who, phrase = row[0].strip(), row[1].strip()
        if who.lower() in ("who", "player"):
            continue
        if who.isdigit():
            who = f"player {who}"
        expected.append(parse_move(phrase, durak_game.seat(who)))
    actual = durak_game.legal()
    assert {normalise(m) for m in actual} == {normalise(m) for m in expected}, (
        f"the legal moves should be exactly: {_show(expected)}; the engine lists: {_show(actual)}"
    )


@then(parsers.re(r"the move is refused(?: citing (?P<rule>R-[A-Z]+-\d+))?"))
def _then_refused(durak_game: ScenarioGame, rule: str | None) -> None:
    move, error = durak_game.take_refusal()
    if rule is not None:
        assert error.rule == rule, (
            f"'{describe(move)}' was refused citing {error.rule or 'no rule'} ({error.message}); "
            f"the rules say it breaks {rule} first"
        )


# ================================================================================================
# Then: the state
# ================================================================================================


def _bout(durak_game: ScenarioGame) -> dict[str, Any]:
    bout = durak_game.state.get("bout")
    assert bout is not None, "there is no bout: the game is over"
    return bout


@then(parsers.re(r"the defender is player (?P<seat>\d+)"))
def _then_defender(durak_game: ScenarioGame, seat: str) -> None:
    assert _bout(durak_game)["defender"] == int(seat), (
        f"the defender should be player {seat}, is player {_bout(durak_game)['defender']}"
    )


@then(parsers.re(r"the (?:main )?attacker is player (?P<seat>\d+)"))
def _then_attacker(durak_game: ScenarioGame, seat: str) -> None:
    assert _bout(durak_game)["attacker"] == int(seat), (
        f"the main attacker should be player {seat}, is player {_bout(durak_game)['attacker']}"
    )


@then(parsers.re(r"player (?P<seat>\d+) (?:attacks next|attacks first|opens the next bout)"))
def _then_attacks_next(durak_game: ScenarioGame, seat: str) -> None:
    state = durak_game.state
    assert not state["table"], f"the table should be empty before a new bout: {state['table']}"
    bout = _bout(durak_game)
    assert bout["attacker"] == int(seat), (
        f"player {seat} should attack, but player {bout['attacker']} does"
    )
    moves = _moves_of(durak_game, int(seat))
    assert moves and all(m.get("action") == "attack" for m in moves), (
        f"player {seat} should be the one to open the bout; legal: {_show(durak_game.legal())}"
    )


@then(parsers.re(r"player (?P<seat>\d+) (?:defends next|defends first)"))
def _then_defends_next(durak_game: ScenarioGame, seat: str) -> None:
    bout = _bout(durak_game)
    assert bout["defender"] == int(seat), (
        f"player {seat} should defend, player {bout['defender']} does"
    )


@then(parsers.re(rf"{WHO} holds (?P<count>\d+) cards?"))
def _then_hand_size(durak_game: ScenarioGame, who: str, count: str) -> None:
    seat = durak_game.seat(who)
    hand = durak_game.state["players"][seat]["hand"]
    assert len(hand) == int(count), f"player {seat} should hold {count} cards, holds {hand}"


@then(parsers.re(rf"{WHO} holds (?P<cards>(?!\d+ cards?$)(?!.* among others$).+)"))
def _then_hand(durak_game: ScenarioGame, who: str, cards: str) -> None:
    seat = durak_game.seat(who)
    hand = durak_game.state["players"][seat]["hand"]
    assert canonical(hand) == canonical(parse_cards(cards)), (
        f"player {seat} should hold {cards}, holds {', '.join(hand) or 'nothing'}"
    )


@then(parsers.re(r"every player holds (?P<count>\d+) cards"))
def _then_every_hand_size(durak_game: ScenarioGame, count: str) -> None:
    sizes = [len(p["hand"]) for p in durak_game.state["players"]]
    assert all(size == int(count) for size in sizes), f"every hand should hold {count}: {sizes}"


@then(parsers.re(rf"{WHO} holds (?P<cards>.+) among others"))
def _then_hand_includes(durak_game: ScenarioGame, who: str, cards: str) -> None:
    seat = durak_game.seat(who)
    hand = durak_game.state["players"][seat]["hand"]
    missing = [c for c in parse_cards(cards) if c not in hand]
    assert not missing, f"player {seat} should hold {missing}; holds {', '.join(hand) or 'nothing'}"


@then(parsers.re(rf"{WHO} is known to hold (?P<cards>.+)"))
def _then_known(durak_game: ScenarioGame, who: str, cards: str) -> None:
    seat = durak_game.seat(who)
    known = durak_game.state["players"][seat]["known"]
    missing = [c for c in parse_cards(cards) if c not in known]
    assert not missing, f"everyone should know player {seat} holds {missing}; known: {known}"


@then("the table is empty")
def _then_table_empty(durak_game: ScenarioGame) -> None:
    assert not durak_game.state["table"], f"the table should be empty: {durak_game.state['table']}"


@then(parsers.re(r"the table holds (?P<items>.+)"))
def _then_table(durak_game: ScenarioGame, items: str) -> None:
    expected = []
    for item in [p.strip() for p in items.split(",")]:
        words = item.replace(" and ", " ").split()
        if len(words) == 4 and words[1:3] == ["beaten", "by"]:
            expected.append((parse_card(words[0]), parse_card(words[3])))
        elif len(words) in (1, 2) and words[-1] in ("unbeaten", words[0]):
            expected.append((parse_card(words[0]), None))
        else:
            raise ValueError(f"{item!r}: write 'XX beaten by YY' or 'XX unbeaten'")
    actual = [(e["attack"], e["defence"]) for e in durak_game.state["table"]]
    assert actual == expected, f"the table should hold {expected} in that order, holds {actual}"


def _bout_cards(durak_game: ScenarioGame) -> tuple[list[str], list[str]]:
    """The table of the bout just closed, as pairs flattened, and all its cards."""
    before = durak_game.before
    assert before is not None, "no move was played, so no bout has closed"
    table = [dict(e) for e in before["table"]]
    move = durak_game.last_move or {}
    if move.get("action") == "beat":
        for entry in table:
            if entry["attack"] == move["target"]:
                entry["defence"] = move["card"]
    elif move.get("action") in ("throw_in", "attack"):
        for card in move.get("cards") or [move.get("card")]:
            table.append({"attack": card, "defence": None})
    elif move.get("action") == "transfer":
        for card in move["cards"]:
            table.append({"attack": card, "defence": None})
    flat = []
    for entry in table:
        flat.append(entry["attack"])
        if entry["defence"]:
            flat.append(entry["defence"])
    return flat, flat


@then(parsers.re(r"the bout ends and its cards are discarded"))
def _then_discarded(durak_game: ScenarioGame) -> None:
    state = durak_game.state
    flat, _ = _bout_cards(durak_game)
    before_discard = durak_game.before["discard"]
    assert not state["table"], f"the table should be cleared, holds {state['table']}"
    assert state["discard"] == before_discard + flat, (
        f"the discard pile should grow by {flat} (table order, attack then defence); "
        f"it went from {len(before_discard)} cards to {state['discard']}"
    )


@then(parsers.re(rf"{WHO} picks up the cards of the bout"))
def _then_picked_up(durak_game: ScenarioGame, who: str) -> None:
    state = durak_game.state
    seat = (
        durak_game.seat(who) if who.startswith("player") else durak_game.before["bout"]["defender"]
    )
    _, cards = _bout_cards(durak_game)
    hand, known = state["players"][seat]["hand"], state["players"][seat]["known"]
    assert not state["table"], f"the table should be cleared, holds {state['table']}"
    missing = [c for c in cards if c not in hand]
    assert not missing, f"player {seat} should have picked up {cards}; holds {hand}"
    unknown = [c for c in cards if c not in known]
    assert not unknown, f"the picked-up cards {unknown} should be known to all (R-INFO-3): {known}"
    assert state["discard"] == durak_game.before["discard"], "a taken bout discards nothing"


@then("the bout goes on")
def _then_bout_goes_on(durak_game: ScenarioGame) -> None:
    state = durak_game.state
    assert state["result"] is None, f"the game should go on; it ended: {state['result']}"
    before = durak_game.before
    assert before is not None and state["bout"]["number"] == before["bout"]["number"], (
        "the bout should still be open, but a new bout has begun"
    )
    assert state["table"], "the bout should still be open, but the table is empty"


@then(parsers.re(r"the bout is over"))
def _then_bout_over(durak_game: ScenarioGame) -> None:
    state = durak_game.state
    before = durak_game.before
    assert before is not None
    assert not state["table"], f"the bout should have closed; the table holds {state['table']}"
    if state["bout"] is not None:
        assert state["bout"]["number"] == before["bout"]["number"] + 1, (
            "a new bout should have begun"
        )


@then(parsers.re(r"the talon holds (?P<count>\d+) cards?"))
def _then_talon_size(durak_game: ScenarioGame, count: str) -> None:
    talon = durak_game.state["talon"]
    assert len(talon) == int(count), f"the talon should hold {count} cards, holds {len(talon)}"


@then("the talon is empty")
def _then_talon_empty(durak_game: ScenarioGame) -> None:
    talon = durak_game.state["talon"]
    assert not talon, f"the talon should be empty, holds {talon}"


@then(parsers.re(r"the talon, top first, is (?P<cards>.+)"))
def _then_talon(durak_game: ScenarioGame, cards: str) -> None:
    talon = durak_game.state["talon"]
    assert talon == parse_cards(cards), f"the talon should be {cards} (top first), is {talon}"


@then(parsers.re(r"the trump card is (?P<card>\S+)"))
def _then_trump_card(durak_game: ScenarioGame, card: str) -> None:
    trump = durak_game.state["trump"]
    assert trump == parse_card(card), f"the trump card should be {card}, is {trump}"


@then(parsers.re(r"the trump suit is (?P<suit>clubs|diamonds|hearts|spades)"))
def _then_trump_suit(durak_game: ScenarioGame, suit: str) -> None:
    trump = durak_game.state["trump"]
    assert trump[1] == SUIT_NAMES[suit], f"trumps should be {suit}; the trump card is {trump}"


@then("the trump card lies face up at the bottom of the talon")
def _then_trump_at_bottom(durak_game: ScenarioGame) -> None:
    state = durak_game.state
    assert state["talon"] and state["talon"][-1] == state["trump"], (
        f"the trump card {state['trump']} should be the talon's last card; talon: {state['talon']}"
    )


@then(parsers.re(r"the dealer is player (?P<seat>\d+)"))
def _then_dealer(durak_game: ScenarioGame, seat: str) -> None:
    dealer = durak_game.state["dealer"]
    assert dealer == int(seat), f"the dealer should be player {seat}, is player {dealer}"


@then(parsers.re(r"(?P<seats>(?:players? )?\d+(?:(?:, | and )\d+)*) (?:is|are) out"))
def _then_out(durak_game: ScenarioGame, seats: str) -> None:
    finished = durak_game.state["finished"]
    missing = [s for s in _seats(seats) if s not in finished]
    assert not missing, f"players {missing} should be out; out are {finished}"


@then(parsers.re(rf"{WHO} is not out"))
def _then_not_out(durak_game: ScenarioGame, who: str) -> None:
    seat = durak_game.seat(who)
    assert seat not in durak_game.state["finished"], f"player {seat} should still be in the game"


@then(parsers.re(r"nobody is out"))
def _then_nobody_out(durak_game: ScenarioGame) -> None:
    assert not durak_game.state["finished"], f"nobody should be out: {durak_game.state['finished']}"


@then(parsers.re(r"the finishing order is (?P<seats>[\d, and]+)"))
def _then_finishing_order(durak_game: ScenarioGame, seats: str) -> None:
    finished = durak_game.state["finished"]
    assert finished == _seats(seats), f"the finishing order should be {seats}, is {finished}"


@then(parsers.re(rf"{SEATS} (?:has|have) passed"))
def _then_passed(durak_game: ScenarioGame, seats: str) -> None:
    passed = _bout(durak_game)["passed"]
    assert sorted(passed) == sorted(_seats(seats)), f"passed should be {seats}, is {passed}"


@then("nobody has passed")
def _then_nobody_passed(durak_game: ScenarioGame) -> None:
    passed = _bout(durak_game)["passed"]
    assert not passed, f"no pass should stand, but {passed} have passed"


@then("the defender is taking")
def _then_taking(durak_game: ScenarioGame) -> None:
    assert _bout(durak_game)["taking"], "the defender should have declared take"


# ---- the end of the game ----------------------------------------------------------------------


def _result(durak_game: ScenarioGame) -> dict[str, Any]:
    result = durak_game.state["result"]
    assert result is not None, "the game should be over, but it goes on"
    return result


@then("the game is over")
def _then_game_over(durak_game: ScenarioGame) -> None:
    _result(durak_game)
    assert durak_game.state["bout"] is None, "a finished game has no bout"
    assert not durak_game.legal(), (
        f"no move is legal once the game is over: {_show(durak_game.legal())}"
    )


@then("the game goes on")
def _then_game_goes_on(durak_game: ScenarioGame) -> None:
    result = durak_game.state["result"]
    assert result is None, f"the game should go on, but it ended: {result}"


@then(parsers.re(r"player (?P<seat>\d+) is the fool"))
def _then_fool(durak_game: ScenarioGame, seat: str) -> None:
    result = _result(durak_game)
    assert result["fool"] == int(seat) and result["draw"] is False, (
        f"player {seat} should be the fool; the result is {result}"
    )


@then("the game is a draw")
def _then_draw(durak_game: ScenarioGame) -> None:
    result = _result(durak_game)
    assert result["draw"] is True and result["fool"] is None, f"the game should be drawn: {result}"


@then(parsers.re(r"the winners are (?P<seats>(?:players? )?\d+(?:(?:, | and )\d+)*)"))
def _then_winners(durak_game: ScenarioGame, seats: str) -> None:
    winners = _result(durak_game)["winners"]
    assert winners == _seats(seats), f"the winners should be {seats}, are {winners}"


@then("nobody wins")
def _then_no_winners(durak_game: ScenarioGame) -> None:
    winners = _result(durak_game)["winners"]
    assert winners == [], f"there should be no winner, only a fool; winners: {winners}"


@then(parsers.re(r"team (?P<team>\d+) loses"))
def _then_team_loses(durak_game: ScenarioGame, team: str) -> None:
    result = _result(durak_game)
    assert result["losing_team"] == int(team), f"team {team} should lose: {result}"


@then("no team loses")
def _then_no_team_loses(durak_game: ScenarioGame) -> None:
    result = _result(durak_game)
    assert result["losing_team"] is None, f"no team should lose: {result}"


@then(parsers.re(r"the fool wears (?P<count>\d+) epaulettes?"))
def _then_epaulettes(durak_game: ScenarioGame, count: str) -> None:
    result = _result(durak_game)
    assert result["epaulettes"] == int(count), f"the fool should wear {count}: {result}"


@then("no epaulettes are counted")
def _then_no_epaulettes(durak_game: ScenarioGame) -> None:
    result = _result(durak_game)
    assert result["epaulettes"] is None, f"epaulettes are off, so none are counted: {result}"


@then(parsers.re(r"player (?P<seat>\d+) (?:is in|belongs to) team (?P<team>\d+)"))
def _then_team(durak_game: ScenarioGame, seat: str, team: str) -> None:
    actual = durak_game.state["players"][int(seat)]["team"]
    assert actual == int(team), f"player {seat} should be in team {team}, is in {actual}"


# ---- setting up -------------------------------------------------------------------------------


@then("the game cannot be set up")
def _then_no_setup(durak_game: ScenarioGame) -> None:
    durak_game.start(expect_error=True)
    assert durak_game.setup_error is not None


@then(parsers.re(r"the game uses (?P<count>\d+) cards from (?P<low>\S+) up to aces"))
def _then_deck_composition(durak_game: ScenarioGame, count: str, low: str) -> None:
    state = durak_game.state
    cards = list(state["talon"]) + list(state["discard"])
    for player in state["players"]:
        cards.extend(player["hand"])
    for entry in state["table"]:
        cards.extend(c for c in (entry["attack"], entry["defence"]) if c)
    assert len(cards) == int(count), f"the game should use {count} cards, it uses {len(cards)}"
    options = state["ruleset"]["options"]
    expected = deck(int(options.get("deck_size", 36)), int(options.get("decks", 1)))
    assert sorted(cards) == sorted(expected), (
        "every card of the deck should be in play exactly once"
    )
    ranks = {c[0] for c in cards}
    assert min(ranks, key="23456789TJQKA".index) == low[0], f"the lowest rank should be {low}"


@then(parsers.re(r"the deal is the one the portable shuffle gives for seed (?P<seed>\d+)"))
def _then_portable_deal(durak_game: ScenarioGame, seed: str) -> None:
    state = durak_game.state
    options = state["ruleset"]["options"]
    order = shuffle(
        deck(int(options.get("deck_size", 36)), int(options.get("decks", 1))), int(seed)
    )
    again = durak_game.engine.new_game(
        durak_game.spec.ruleset_request(),
        durak_game.spec.player_count(),
        deck=order,
        dealer=state["dealer"],
    )
    assert not isinstance(again, ErrorResult), f"dealing the explicit deck failed: {again}"
    assert again == state, (
        f"seed {seed} should deal exactly as the deck {order[:8]}... does; the seeded game differs"
    )


@then(parsers.re(r"dealing again with seed (?P<seed>\d+) gives the same game"))
def _then_same_seed(durak_game: ScenarioGame, seed: str) -> None:
    state = durak_game.state
    again = durak_game.engine.new_game(
        durak_game.spec.ruleset_request(),
        durak_game.spec.player_count(),
        seed=int(seed),
        dealer=state["dealer"],
    )
    assert again == state, "two deals from the same seed should be identical"


# ---- what a player sees -----------------------------------------------------------------------


@then(parsers.re(rf"{WHO} sees (?P<count>\d+) cards? in player (?P<other>\d+)'s hand"))
def _then_sees_hand_size(durak_game: ScenarioGame, who: str, count: str, other: str) -> None:
    seen = durak_game.observe(durak_game.seat(who))
    entry = next(p for p in seen["players"] if p["seat"] == int(other))
    assert entry["hand_size"] == int(count), f"the hand size shown should be {count}: {entry}"


@then(parsers.re(rf"{WHO} sees that player (?P<other>\d+) holds (?P<cards>.+)"))
def _then_sees_known(durak_game: ScenarioGame, who: str, other: str, cards: str) -> None:
    seen = durak_game.observe(durak_game.seat(who))
    entry = next(p for p in seen["players"] if p["seat"] == int(other))
    assert canonical(entry["known"]) == canonical(parse_cards(cards)), (
        f"the observer should see exactly {cards} of player {other}'s hand: {entry}"
    )


@then(parsers.re(rf"{WHO} sees (?:their|his|her) own hand (?P<cards>.+)"))
def _then_sees_own(durak_game: ScenarioGame, who: str, cards: str) -> None:
    seen = durak_game.observe(durak_game.seat(who))
    assert canonical(seen["hand"]) == canonical(parse_cards(cards)), f"own hand: {seen['hand']}"


@then(parsers.re(rf"{WHO} sees the trump card (?P<card>\S+) and a talon of (?P<count>\d+) cards?"))
def _then_sees_trump(durak_game: ScenarioGame, who: str, card: str, count: str) -> None:
    seen = durak_game.observe(durak_game.seat(who))
    assert seen["trump_card"] == parse_card(card), f"the face-up trump card: {seen['trump_card']}"
    assert seen["talon_size"] == int(count), f"the talon size shown: {seen['talon_size']}"


@then(
    parsers.re(
        rf"{WHO} sees no trump card, only that (?P<suit>clubs|diamonds|hearts|spades) are trumps"
    )
)
def _then_sees_no_trump(durak_game: ScenarioGame, who: str, suit: str) -> None:
    seen = durak_game.observe(durak_game.seat(who))
    assert seen["trump_card"] is None, f"no trump card should lie face up: {seen['trump_card']}"
    assert seen["trump_suit"] == SUIT_NAMES[suit], f"the trump suit shown: {seen['trump_suit']}"


@then(parsers.re(rf"{WHO} sees a discard pile of (?P<count>\d+) cards? but not which"))
def _then_sees_discard_count(durak_game: ScenarioGame, who: str, count: str) -> None:
    seen = durak_game.observe(durak_game.seat(who))
    assert seen["discard"].get("count") == int(count), f"discard shown: {seen['discard']}"
    assert "cards" not in seen["discard"], (
        f"the discarded cards should stay hidden: {seen['discard']}"
    )


@then(parsers.re(rf"{WHO} sees the discarded cards (?P<cards>.+)"))
def _then_sees_discard(durak_game: ScenarioGame, who: str, cards: str) -> None:
    seen = durak_game.observe(durak_game.seat(who))
    assert seen["discard"].get("cards") == parse_cards(cards), f"discard shown: {seen['discard']}"


@then(parsers.re(rf"{WHO} sees no card hidden from (?:them|him|her)"))
def _then_sees_no_talon(durak_game: ScenarioGame, who: str) -> None:
    seat = durak_game.seat(who)
    seen = durak_game.observe(seat)
    state = durak_game.state
    hidden = [c for c in state["talon"] if c != seen.get("trump_card")]
    if state["ruleset"]["options"].get("discard_visibility", "count") == "count":
        hidden.extend(state["discard"])
    for seat_index, player in enumerate(state["players"]):
        if seat_index != seat:
            hidden.extend(c for c in player["hand"] if c not in player["known"])
    text = str(seen)
    leaked = [c for c in hidden if f"'{c}'" in text]
    assert not leaked, f"player {seat}'s observation shows hidden cards {leaked}"
