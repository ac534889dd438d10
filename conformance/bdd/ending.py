"""The Then steps about the game as a whole: its end and result, the teams, and its set-up.

The result steps become ``result`` steps (the fields the sentence names), the team and deck steps
``expect`` steps; "the game cannot be set up" makes the case a refused start; the deal steps
become ``redeal`` steps, with the deck order of the portable shuffle worked out here by the
judge's own shuffle (:mod:`conformance.contract.shuffle`), never the engine's.
"""

from __future__ import annotations

from pytest_bdd import parsers, then

from conformance.bdd.compiler import ScenarioBuilder
from conformance.bdd.words import SEATS, seat_numbers
from conformance.contract.cards import LOWEST_RANK, deck
from conformance.contract.shuffle import shuffle

# ---- the end of the game ------------------------------------------------------------------------


@then("the game is over")
def _then_game_over(durak_game: ScenarioBuilder) -> None:
    durak_game.emit({"result": {}}, {"expect": {"/bout": None}}, {"legal": []})


@then("the game goes on")
def _then_game_goes_on(durak_game: ScenarioBuilder) -> None:
    durak_game.emit({"result": None})


@then(parsers.re(r"player (?P<seat>\d+) is the fool"))
def _then_fool(durak_game: ScenarioBuilder, seat: str) -> None:
    durak_game.emit({"result": {"fool": int(seat), "draw": False}})


@then("the game is a draw")
def _then_draw(durak_game: ScenarioBuilder) -> None:
    durak_game.emit({"result": {"draw": True, "fool": None}})


@then(parsers.re(rf"the winners are {SEATS}"))
def _then_winners(durak_game: ScenarioBuilder, seats: str) -> None:
    durak_game.emit({"result": {"winners": seat_numbers(seats)}})


@then("nobody wins")
def _then_no_winners(durak_game: ScenarioBuilder) -> None:
    durak_game.emit({"result": {"winners": []}})


@then(parsers.re(r"team (?P<team>\d+) loses"))
def _then_team_loses(durak_game: ScenarioBuilder, team: str) -> None:
    durak_game.emit({"result": {"losing_team": int(team)}})


@then("no team loses")
def _then_no_team_loses(durak_game: ScenarioBuilder) -> None:
    durak_game.emit({"result": {"losing_team": None}})


@then(parsers.re(r"the fool wears (?P<count>\d+) epaulettes?"))
def _then_epaulettes(durak_game: ScenarioBuilder, count: str) -> None:
    durak_game.emit({"result": {"epaulettes": int(count)}})


@then("no epaulettes are counted")
def _then_no_epaulettes(durak_game: ScenarioBuilder) -> None:
    durak_game.emit({"result": {"epaulettes": None}})


@then(parsers.re(r"player (?P<seat>\d+) (?:is in|belongs to) team (?P<team>\d+)"))
def _then_team(durak_game: ScenarioBuilder, seat: str, team: str) -> None:
    durak_game.emit({"expect": {f"/players/{int(seat)}/team": int(team)}})


# ---- setting up ---------------------------------------------------------------------------------


@then("the game cannot be set up")
def _then_no_setup(durak_game: ScenarioBuilder) -> None:
    durak_game.cannot_set_up()


@then(parsers.re(r"the game uses (?P<count>\d+) cards from (?P<low>\S+) up to aces"))
def _then_deck_composition(durak_game: ScenarioBuilder, count: str, low: str) -> None:
    """The deck of ``deck_size`` and ``decks`` (R-DECK-1) whose lowest rank is ``low``: the
    state says which it plays, and that every card of it is in play exactly once is R-DECK-5,
    which the runner checks of every state an engine answers."""
    rank = "T" if low == "10" else low[0]
    size = next((size for size, lowest in LOWEST_RANK.items() if lowest == rank), None)
    decks, rest = divmod(int(count), size) if size else (0, 1)
    if rest or decks not in (1, 2):
        raise ValueError(f"no deck of {count} cards runs from {low} up to aces")
    durak_game.emit(
        {"expect": {"/ruleset/options/deck_size": size, "/ruleset/options/decks": decks}}
    )


@then(parsers.re(r"the deal is the one the portable shuffle gives for seed (?P<seed>\d+)"))
def _then_portable_deal(durak_game: ScenarioBuilder, seed: str) -> None:
    options = durak_game.ruleset()["options"]
    cards = deck(int(options.get("deck_size", 36)), int(options.get("decks", 1)))
    durak_game.emit({"redeal": {"deck": shuffle(cards, int(seed))}})


@then(parsers.re(r"dealing again with seed (?P<seed>\d+) gives the same game"))
def _then_same_seed(durak_game: ScenarioBuilder, seed: str) -> None:
    durak_game.emit({"redeal": {"seed": int(seed)}})
