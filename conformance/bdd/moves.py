"""The When steps (moves, a played sequence, the deal) and the Then steps about what may be played.

Each sentence becomes fixture steps (:mod:`conformance.suite.kinds`): a move is a ``move`` (or a
``refuse`` when "the move is refused" follows), "X may ..." a ``legal_includes``, "X may not ..." a
``legal_excludes``, "X may only ..." the exact legal set of X, "only X may move" ``movers``. A
player named by role ("the defender") is whoever holds the role when the step is judged.
"""

from __future__ import annotations

from typing import Any

from pytest_bdd import parsers, then, when

from conformance.bdd.compiler import ScenarioBuilder
from conformance.bdd.phrases import VERBS, parse_move, split_alternatives
from conformance.bdd.words import WHO, seat_of, who_of

# ---- When ---------------------------------------------------------------------------------------


@when(parsers.re(rf"{WHO} (?P<phrase>{VERBS})"))
def _when_move(durak_game: ScenarioBuilder, who: str, phrase: str) -> None:
    durak_game.emit({"move": parse_move(phrase, seat_of(who))}, refusable=True)


def _table_moves(datatable: list[list[str]]) -> list[dict[str, Any]]:
    """The moves of a ``| who | move |`` data table (a header row is skipped)."""
    rows = [row for row in datatable if row and row[0].strip().lower() not in ("who", "player")]
    return [parse_move(row[1].strip(), seat_of(who_of(row[0]))) for row in rows]


@when("the players play:")
def _when_sequence(durak_game: ScenarioBuilder, datatable: list[list[str]]) -> None:
    durak_game.emit(*({"move": move} for move in _table_moves(datatable)))


@when("the game is dealt")
def _when_dealt(durak_game: ScenarioBuilder) -> None:
    durak_game.emit()


# ---- Then: what may be played -------------------------------------------------------------------


@then(parsers.re(rf"{WHO} may (?P<phrase>(?!not |only ){VERBS})"))
def _then_may(durak_game: ScenarioBuilder, who: str, phrase: str) -> None:
    durak_game.emit({"legal_includes": [parse_move(phrase, seat_of(who))]})


@then(parsers.re(rf"{WHO} may not (?P<phrase>{VERBS})"))
def _then_may_not(durak_game: ScenarioBuilder, who: str, phrase: str) -> None:
    durak_game.emit({"legal_excludes": [parse_move(phrase, seat_of(who))]})


@then(parsers.re(rf"{WHO} may only (?P<phrases>.+)"))
def _then_may_only(durak_game: ScenarioBuilder, who: str, phrases: str) -> None:
    seat = seat_of(who)
    moves = [parse_move(phrase, seat) for phrase in split_alternatives(phrases)]
    durak_game.emit({"legal": moves, "player": seat})


@then(parsers.re(rf"{WHO} (?:has no move|may not move)"))
def _then_no_move(durak_game: ScenarioBuilder, who: str) -> None:
    durak_game.emit({"legal": [], "player": seat_of(who)})


@then("nobody may move")
def _then_nobody_moves(durak_game: ScenarioBuilder) -> None:
    durak_game.emit({"legal": []})


@then(parsers.re(rf"only {WHO} may move"))
def _then_only_mover(durak_game: ScenarioBuilder, who: str) -> None:
    durak_game.emit({"movers": [seat_of(who)]})


@then("the legal moves are exactly:")
def _then_legal_exactly(durak_game: ScenarioBuilder, datatable: list[list[str]]) -> None:
    durak_game.emit({"legal": _table_moves(datatable)})


@then(parsers.re(r"the move is refused(?: citing (?P<rule>R-[A-Z]+-\d+))?"))
def _then_refused(durak_game: ScenarioBuilder, rule: str | None) -> None:
    durak_game.refused(rule)
