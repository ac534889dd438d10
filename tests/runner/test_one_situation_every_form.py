"""One situation written as a YAML fixture, as a Gherkin scenario and as a game record runs through
the one runner (CaseRunner) with the same outcome, the same failing step and the same signature,
on the reference engine and on a wrong engine: there is one judge, whatever the form of the case.
(A fuzz finding is written as a YAML fixture; a perft position compiles to a case with a perft
step, judged by the same runner: tests/runner/test_perft_step.py.)"""

from __future__ import annotations

import json

from conformance.bdd.compiler import compile_scenario
from conformance.bdd.model import read_feature
from conformance.bdd.phrases import describe
from conformance.contract.cards import deck
from conformance.engines.base import ErrorResult, InProcessEngine
from conformance.engines.gating import Support
from conformance.suite.cases import CaseRunner
from conformance.suite.compile import record_case
from conformance.suite.loader import load_file
from conformance.tools.record import play_game, random_chooser

FEATURE = """\
Feature: One situation
  Scenario: A bout beaten from the unshuffled deck
    Given a 2-player podkidnoy game
    And the deck is unshuffled
    And player 1 deals
    When the players play:
      | player 1 | attacks with 7C  |
      | player 0 | beats 7C with 8C |
      | player 1 | passes           |
    Then the table is empty
"""

FIXTURE = f"""\
cases:
  - id: one-situation
    description: A bout beaten from the unshuffled deck
    rules: [R-BOUT-1]
    ruleset: podkidnoy
    players: 2
    start: {{deck: [{", ".join(deck(36))}], dealer: 1}}
    steps:
      - move: {{player: 1, action: attack, cards: [7C]}}
      - move: {{player: 0, action: beat, target: 7C, card: 8C}}
      - move: {{player: 1, action: pass}}
      - expect: {{/table: []}}
"""


class NoPass(InProcessEngine):
    """Refuses every pass: the bout can never close."""

    def apply(self, state, move):
        if move.get("action") == "pass":
            return ErrorResult("illegal_move", "no passing here", rule="R-PLAY-1")
        return super().apply(state, move)


def _cases(tmp_path):
    (tmp_path / "one.feature").write_text(FEATURE)
    (tmp_path / "one.yaml").write_text(FIXTURE)
    scenario = read_feature(tmp_path / "one.feature").scenarios[0]
    fixture = load_file(tmp_path / "one.yaml")[0][0]
    return compile_scenario(scenario), fixture


def _verdict(result):
    """What the judge said, leaving out where each form was written (its line, its note)."""
    data = result.to_json()
    step = data.get("step") or {}
    judged = tuple(sorted((k, repr(v)) for k, v in step.items() if k not in ("line", "note")))
    return data["outcome"], judged, data.get("signature"), data.get("message")


def test_both_forms_pass_on_the_reference(tmp_path):
    engine = InProcessEngine()
    runner = CaseRunner(engine, Support.from_hello(engine.hello()))
    verdicts = {_verdict(runner.run(case)) for case in _cases(tmp_path)}
    assert len(verdicts) == 1 and next(iter(verdicts))[0] == "passed", verdicts


def test_both_forms_fail_alike_on_a_wrong_engine(tmp_path):
    engine = NoPass()
    runner = CaseRunner(engine, Support.from_hello(engine.hello()))
    verdicts = {_verdict(runner.run(case)) for case in _cases(tmp_path)}
    assert len(verdicts) == 1, verdicts
    outcome, step, signature, _message = next(iter(verdicts))
    assert outcome == "failed" and ("index", "3") in step, verdicts
    assert signature == "step 3 move: refused illegal_move R-PLAY-1"


def _whole_game_forms(tmp_path):
    """A whole game of the reference engine (as the suite's records are made), written three ways."""
    record = None
    for seed in range(1, 20):
        record = play_game(InProcessEngine(), "podkidnoy", 2, {"seed": seed}, random_chooser(seed))
        if record["result"] and record["result"]["fool"] is not None:
            break
    moves, result = record["moves"], record["result"]
    rows = "\n".join(
        f"      | player {m['player']} | {describe(m).split(' ', 2)[2]} |" for m in moves
    )
    feature = (
        "Feature: One game\n  Scenario: A whole game from its seed\n"
        "    Given a 2-player podkidnoy game\n"
        f"    And the deck is shuffled with seed {record['deal']['seed']}\n"
        f"    When the players play:\n{rows}\n"
        f"    Then player {result['fool']} is the fool\n"
    )
    steps = "\n".join(f"      - move: {json.dumps(m)}" for m in moves)
    fixture = (
        "cases:\n  - id: one-game\n    description: A whole game from its seed\n"
        "    rules: [R-END-2]\n    ruleset: podkidnoy\n    players: 2\n"
        f"    start: {json.dumps(record['deal'])}\n    steps:\n{steps}\n"
        f"      - result: {json.dumps({'fool': result['fool']})}\n"
    )
    (tmp_path / "game.feature").write_text(feature)
    (tmp_path / "game.yaml").write_text(fixture)
    scenario = read_feature(tmp_path / "game.feature").scenarios[0]
    return (
        compile_scenario(scenario),
        load_file(tmp_path / "game.yaml")[0][0],
        record_case(record, name="one-game"),
    )


def test_a_whole_game_as_fixture_scenario_and_record_gets_one_verdict(tmp_path):
    cases = _whole_game_forms(tmp_path)
    for engine, outcome in ((InProcessEngine(), "passed"), (NoPass(), "failed")):
        runner = CaseRunner(engine, Support.from_hello(engine.hello()))
        verdicts = {_verdict(runner.run(case)) for case in cases}
        assert len(verdicts) == 1, verdicts
        assert next(iter(verdicts))[0] == outcome
