"""A Gherkin scenario is a case: it compiles without an engine into fixture steps (data the
fixture schema accepts) and is judged by the one runner, step by step as pytest-bdd calls its
definitions, so a wrong answer, an engine fault or a broken scenario reads as a fixture's does."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.bdd.compiler import CompileError, compile_scenario
from conformance.bdd.context import ScenarioFailure, ScenarioGame
from conformance.bdd.execute import call_step
from conformance.bdd.model import read_feature, scenarios
from conformance.engines.base import ErrorResult, InProcessEngine
from conformance.suite.kinds import polarity
from conformance.suite.loader import step_problems

#: Written from the rules: hearts are trumps, so 6C cannot beat 7C and 8C can (R-BEAT-1); after
#: the beat the bout goes on (the attacker may throw in or pass) and the defender holds 6C, QS.
FEATURE = """\
@BEAT
Feature: Scenarios judged as cases
  Rule: A card beats a higher card of its suit
    @R-BEAT-1
    Scenario: A low club cannot beat the seven
      Given a 2-player podkidnoy game
      And the trump suit is hearts
      And the talon is empty
      And player 0 holds 7C, 9H, KD
      And player 1 holds 6C, 8C, QS
      When player 0 attacks with 7C
      Then the defender may beat 7C with 8C
      When the defender beats 7C with 6C
      Then the move is refused citing R-BEAT-1
      When the defender beats 7C with 8C
      Then the bout goes on
      And player 1 holds 2 cards

    @R-BEAT-1
    Scenario: A position that cannot be
      Given a 2-player podkidnoy game
      And player 0 holds 7C
      And player 1 holds 7C
      Then player 0 may attack with 7C
"""


@pytest.fixture
def feature(tmp_path: Path):
    path = tmp_path / "judged.feature"
    path.write_text(FEATURE, encoding="utf-8")
    return read_feature(path)


def _play(scenario, engine) -> ScenarioGame:
    """Call the scenario's definitions one by one, as pytest-bdd does."""
    game = ScenarioGame(engine, dict(scenario.tag_options), scenario=scenario)
    for step in scenario.steps:
        call_step(step, game)
    return game


def test_a_scenario_compiles_into_fixture_steps_without_an_engine(feature):
    case = compile_scenario(feature.scenarios[0])
    assert case.id == "judged-a-low-club-cannot-beat-the-seven"
    assert (case.location, case.rules) == (f"{feature.path}:5", ("R-BEAT-1",))
    assert case.ruleset == {"preset": "podkidnoy", "overrides": {}} and case.players == 2
    assert case.start["state"]["players"][1]["hand"] == ["6C", "8C", "QS"]
    defender = {"player": "/bout/defender", "action": "beat", "target": "7C"}
    assert [(s.line, {k: v for k, v in s.data.items() if k != "note"}) for s in case.steps] == [
        (11, {"move": {"player": 0, "action": "attack", "cards": ["7C"]}}),
        (12, {"legal_includes": [{**defender, "card": "8C"}]}),
        (13, {"refuse": {**defender, "card": "6C"}, "rule": "R-BEAT-1"}),
        (15, {"move": {**defender, "card": "8C"}}),
        (16, {"bout": "goes_on"}),
        (17, {"check": {"/players/1/hand": {"size": 2}}}),
    ]
    assert case.steps[2].data["note"] == (
        "When the defender beats 7C with 6C; Then the move is refused citing R-BEAT-1"
    )


def test_every_rulebook_scenario_compiles_into_valid_fixture_steps():
    compiled = [compile_scenario(scenario) for scenario in scenarios()]
    assert len(compiled) > 200
    for case in compiled:
        for step in case.steps:
            assert step_problems(step.data) == [], f"{case.id} step {step.index}: {step.data}"
            polarity(step.kind, step.data)  # every kind declares what it shows


def test_a_passing_scenario_keeps_its_case_result(feature):
    game = _play(feature.scenarios[0], InProcessEngine())
    assert game.case_result is not None and game.case_result.ok
    assert game.case_result.case_id == "judged-a-low-club-cannot-beat-the-seven"


class Timeout(InProcessEngine):
    def apply(self, state, move):
        return ErrorResult("timeout", "no answer in 10 s", diagnostics={"request": "apply"})


def test_an_engine_fault_is_an_error_not_a_failed_assertion(feature):
    with pytest.raises(ScenarioFailure) as raised:
        _play(feature.scenarios[0], Timeout())
    result = raised.value.result
    assert result.outcome == "error" and result.signature == "step 1 move: timeout"
    assert result.diagnostics == {"request": "apply"}


class BeatsWithAnyClub(InProcessEngine):
    """Accepts any club over a club: the R-BEAT-1 bug a scenario must catch."""

    def apply(self, state, move):
        if move.get("action") == "beat" and move.get("card") == "6C":
            state = {**state, "table": [{**state["table"][0], "defence": "6C"}]}
            return state
        return super().apply(state, move)


def test_a_wrong_answer_reads_like_a_fixture_failure(feature):
    with pytest.raises(ScenarioFailure) as raised:
        _play(feature.scenarios[0], BeatsWithAnyClub())
    result, text = raised.value.result, str(raised.value)
    assert result.outcome == "failed" and result.signature == "step 3 refuse: accepted"
    assert (result.step.index, result.step.line, result.rules) == (3, 13, ("R-BEAT-1",))
    assert result.expected == {"code": "illegal_move", "rule": "R-BEAT-1"}
    for words in (
        "case judged-a-low-club-cannot-beat-the-seven",
        "rules: R-BEAT-1",
        "step 3 (line 13)",
        "Then the move is refused citing R-BEAT-1",
        "expected: ",
        "signature (for expected-failure lists): step 3 refuse: accepted",
    ):
        assert words in text


def test_a_scenario_whose_position_cannot_be_is_broken_everywhere(feature):
    with pytest.raises(CompileError, match="7C is placed twice"):
        compile_scenario(feature.scenarios[1])
    with pytest.raises(ScenarioFailure) as raised:
        _play(feature.scenarios[1], InProcessEngine())
    assert raised.value.result.outcome == "broken"
    assert raised.value.result.signature == "broken scenario"
