"""An engine that cannot be set up from a position (P-16 ``positions: false``) runs a case that
starts from one through the deal and moves that reach it (``reached_by``); without a route the
case is unsupported, blocked by ``positions``; a route the engine plays elsewhere fails the case."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from conformance.contract.canonical import dumps
from conformance.contract.cards import deck as canonical_deck
from conformance.contract.shuffle import shuffle
from conformance.engines.base import ErrorResult, InProcessEngine
from conformance.engines.gating import Support
from conformance.suite.cases import CaseRunner
from conformance.suite.loader import Case, Step
from reference_impl import api


class DealtOnly(InProcessEngine):
    """The reference engine, refusing every state it did not answer itself, as an engine without
    position set-up must."""

    def __init__(self):
        super().__init__()
        self.seen: set[str] = set()

    def hello(self):
        hello = super().hello()
        hello["supports"] = {"players": {"36": [2]}, "options": {}, "positions": False}
        return hello

    def _known(self, state):
        return dumps(state) in self.seen

    def _keep(self, answer):
        if isinstance(answer, dict):
            self.seen.add(dumps(answer))
        return answer

    def new_game(self, *args, **kwargs):
        return self._keep(super().new_game(*args, **kwargs))

    def legal_moves(self, state):
        if not self._known(state):
            return ErrorResult("unsupported", "not set up from positions")
        return super().legal_moves(state)

    def apply(self, state, move):
        if not self._known(state):
            return ErrorResult("unsupported", "not set up from positions")
        return self._keep(super().apply(state, move))


def _case(**route_changes):
    """A case starting two moves into the game of seed 11, with the deal and moves that get there.
    (The start is taken from the reference engine: this tests the mechanism, not a rule.)"""
    deck = shuffle(canonical_deck(36, 1), 11)
    state = api.new_game("podkidnoy", 2, deck=deck)
    moves = []
    for _ in range(2):
        move = min(api.legal_moves(state), key=dumps)
        moves.append(move)
        state = api.apply(state, move)
    listed = api.legal_moves(state)[:1]
    step = Step(index=1, kind="legal_includes", data={"legal_includes": listed}, line=1)
    route = {"deck": deck, "dealer": state["dealer"], "moves": moves, **route_changes}
    return Case(
        id="route-start",
        description="a mid-game start reached from its deal",
        rules=("R-PLAY-1",),
        ruleset="podkidnoy",
        players=2,
        start={"state": state},
        steps=(step,),
        path=Path("test"),
        reached_by=route,
    )


def _runner(engine):
    return CaseRunner(engine, Support.from_hello(engine.hello()))


def test_a_position_is_reached_through_its_route():
    result = _runner(DealtOnly()).run(_case())
    assert result.outcome == "passed", result.to_json()


def test_the_same_case_set_up_directly_is_refused_by_such_an_engine():
    engine = DealtOnly()
    support = dataclasses.replace(Support.from_hello(engine.hello()), positions=True)
    result = CaseRunner(engine, support).run(_case())
    assert result.outcome == "failed"  # unsupported inside the claim: a failure (P-17)


def test_without_a_route_the_case_is_blocked_by_positions():
    case = dataclasses.replace(_case(), reached_by=None)
    result = _runner(DealtOnly()).run(case)
    assert result.outcome == "unsupported"
    assert result.to_json()["blockers"] == ["positions"]


def test_a_route_the_engine_plays_elsewhere_fails_the_case_naming_the_fields():
    case = _case()
    case = dataclasses.replace(
        case, reached_by={**case.reached_by, "moves": case.reached_by["moves"][:1]}
    )
    result = _runner(DealtOnly()).run(case)
    assert result.outcome == "failed"
    assert "led elsewhere" in result.message
