"""The runner checks every state an engine answers with, whatever the case expects
(conformance/suite/invariants/): a card copied into a second hand fails the case under R-DECK-5
even when no step looks at that hand, and a malformed state fails it naming the field instead of
raising inside a step."""

from __future__ import annotations

import copy

from conformance.engines.base import InProcessEngine
from conformance.engines.gating import Support
from conformance.suite.cases import CaseRunner
from conformance.suite.loader import Case, Step

#: dealer 1 deals seat 0 the even indices: seat 1 holds 7C and the lowest trump 6H, so it opens
DECK = ["6C", "7C", "8C", "7S", "TC", "9C", "QC", "6H", "AC", "KC", "9S", "JD", "AH", "6D", "7D", "8D", "9D", "TD", "QD", "KD", "AD", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "6S", "8S", "TS", "JS", "QS", "KS", "AS", "JC"]


def _case(*steps) -> Case:
    return Case(
        id="state-check",
        description="d",
        rules=("R-ATTACK-1",),
        ruleset="podkidnoy",
        players=2,
        start={"deck": DECK, "dealer": 1},
        steps=tuple(Step(i + 1, next(iter(s)), s, i + 10) for i, s in enumerate(steps)),
    )


ATTACK = {"move": {"player": 1, "action": "attack", "cards": ["7C"]}}
ROLES = {"expect": {"/bout/attacker": 1}}


class Copying(InProcessEngine):
    """Plays like the reference, but a card played stays in the player's hand as well."""

    def apply(self, state, move):
        after = super().apply(state, move)
        if isinstance(after, dict) and move.get("action") == "attack":
            after = copy.deepcopy(after)
            after["players"][move["player"]]["hand"].append(move["cards"][0])
        return after


class Garbling(InProcessEngine):
    def apply(self, state, move):
        after = super().apply(state, move)
        if isinstance(after, dict):
            del after["players"]
        return after


def run(engine, case):
    return CaseRunner(engine, Support.everything()).run(case)


def test_a_card_in_two_places_fails_the_case_under_r_deck_5():
    result = run(Copying(), _case(ATTACK, ROLES))
    assert result.outcome == "failed" and result.step.index == 1
    assert result.signature == "step 1 move: state breaks R-DECK-5"
    assert "7C" in result.message and "/players/1/hand" in result.message
    assert result.actual["problems"][0]["rule"] == "R-DECK-5"
    assert run(InProcessEngine(), _case(ATTACK, ROLES)).ok


def test_a_malformed_state_fails_naming_the_field_and_nothing_raises():
    result = run(Garbling(), _case(ATTACK, ROLES))
    assert result.outcome == "failed"
    assert "players" in result.message and "R-PLAY-6" in result.signature
