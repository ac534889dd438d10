"""Root-cause groups (issue 14 item 2): failing cases with the same difference are one cause,
named in words that hold for every case and by the rule that decides it, in the terminal summary
and the JSON summary. Expected causes are worked from the rules: a pass while an attack card lies
unbeaten breaks R-THROW-5 (spec/rules.md); the test engine wrong_engine.py lets no trump beat a
plain card, which R-BEAT-1 allows."""

from __future__ import annotations

import pytest

from conformance.reports.causes import Cause, cause_json, cause_of, describe, groups
from conformance.reports.report import read_report
from reference_impl import api

from .shared_runs import shared_run

PASS = {"player": 0, "action": "pass"}


def _unbeaten_state() -> dict:
    """A 2-player game after the opening attack: one attack card lies unbeaten."""
    state = api.new_game("podkidnoy", 2, seed=3)
    attack = next(m for m in api.legal_moves(state) if m["action"] == "attack")
    return api.apply(state, attack)


def _failed(case_id: str, actual: dict, state: dict, step: dict) -> dict:
    return {
        "id": case_id,
        "outcome": "failed",
        "actual": actual,
        "state_before": state,
        "step": step,
        "signature": "step 3 legal: wrong set",
        "rules": ["R-BOUT-1"],
    }


def test_an_extra_move_is_named_by_its_action_its_table_and_the_rule_it_breaks():
    state = _unbeaten_state()
    attacker = state["bout"]["attacker"]
    extra = {**PASS, "player": attacker}
    records = [
        _failed(f"case-{n}", {"extra": [extra], "missing": []}, state, {"legal": []})
        for n in range(3)
    ]
    (group,) = groups(records)
    assert group.text == "the engine lists pass while a card lies unbeaten, which the rules forbid"
    assert group.cause.rules == ("R-THROW-5",)
    assert group.cases == ["case-0", "case-1", "case-2"]
    assert group.line().startswith("1 cause, 3 cases: the engine lists pass while a card lies")


def test_one_mistake_on_tables_of_every_kind_is_one_cause_with_its_variants():
    """A throw-in of a rank not on the table breaks R-THROW-1 whether a card lies unbeaten or
    not: causes with the same general text and rule are one group, their variants counted."""
    unbeaten = _unbeaten_state()
    attacker = unbeaten["bout"]["attacker"]
    throw = {"player": attacker, "action": "throw_in", "card": "AS"}
    beaten = {**unbeaten, "table": [{**unbeaten["table"][0], "defence": "AS"}]}
    one = cause_of(_failed("a", {"extra": [throw]}, unbeaten, {"legal": []}))
    assert one.text.startswith("the engine lists throw_in while a card lies unbeaten")
    assert one.general == "the engine lists throw_in, which the rules forbid"
    assert one.variant == "while a card lies unbeaten"
    other = cause_of(_failed("b", {"extra": [throw]}, beaten, {"legal": []}))
    assert other.variant == "with every card beaten" and other.general == one.general

    def written(case_id, variant):
        cause = Cause(f"the engine lists throw_in {variant}, which the rules forbid",
                      ("R-THROW-1",), one.general, variant)
        return {"id": case_id, "outcome": "failed", "cause": cause_json(cause)}

    records = [written("a", one.variant), written("c", other.variant), written("b", one.variant)]
    (group,) = groups(records)
    assert group.text == one.general and group.cases == ["a", "b", "c"]
    assert group.variants == {"while a card lies unbeaten": 2, "with every card beaten": 1}
    assert group.line() == ("1 cause, 3 cases: the engine lists throw_in, which the rules forbid "
                            "(R-THROW-1): 2 while a card lies unbeaten, 1 with every card beaten")
    (alone,) = groups(records[:1])
    assert alone.text == "the engine lists throw_in while a card lies unbeaten, which the rules forbid"


def test_a_refusal_by_the_engines_rule_before_the_first_broken_is_r_play_5():
    """R-PLAY-5: a move that breaks several rules is refused by the first; an engine that
    checks its own rule first is one cause, whichever rule it jumps ahead of."""
    state = _unbeaten_state()
    take = {"player": state["bout"]["attacker"], "action": "take"}
    records = [
        {"id": f"case-{rule}", "outcome": "failed", "state_before": state,
         "step": {"refuse": take, "rule": rule},
         "expected": {"code": "illegal_move", "rule": rule},
         "actual": {"code": "illegal_move", "rule": "R-TAKE-1"}}
        for rule in ("R-PLAY-4", "R-ATTACK-1", "R-PLAY-4")
    ]
    (group,) = groups(records)
    assert group.cause.rules == ("R-PLAY-5",)
    assert group.text == ("the engine refuses take by R-TAKE-1 where another rule is broken "
                          "first")
    assert group.variants == {"(R-PLAY-4)": 2, "(R-ATTACK-1)": 1}


def test_beats_are_told_apart_by_what_lies_on_what():
    state = {"trump": "7D", "table": [{"attack": "AS", "by": 0, "defence": None}]}
    beat = {"player": 1, "action": "beat", "target": "AS"}
    assert describe({**beat, "card": "6D"}, state) == "beat (a trump on a plain card)"
    assert describe({**beat, "card": "KS"}, state) == "beat (a card of the suit on its suit)"
    assert describe({**beat, "card": "KH"}, state) == "beat (a card of another plain suit)"
    assert describe({**beat, "target": "9D", "card": "TD"}, state) == "beat (a trump on a trump)"
    assert describe({**beat, "card": "AH2"}, {"trump": "7H2"}) == "beat (a trump on a plain card)"
    assert describe({"action": "take"}, {"table": []}) == "take on an empty table"


def test_passing_faults_and_broken_cases_have_their_own_causes():
    assert cause_of({"id": "x", "outcome": "passed"}) is None
    crash = {
        "id": "x",
        "outcome": "error",
        "message": "step 2 move: the engine failed on apply: crash: the engine exited",
    }
    assert cause_of(crash).text == "the engine fails: crash"
    assert "cannot be read" in cause_of({"id": "x", "outcome": "broken"}).text
    wrong_field = {
        "id": "x",
        "outcome": "failed",
        "signature": "step 4 expect: state differs at /players/1/hand, /bout/number",
        "actual": {"/players/1/hand": ["6C"], "/bout/number": 3},
        "step": {"expect": {}},
    }
    cause = cause_of(wrong_field)
    assert cause.text == "the state differs at /players/*/hand and /bout/number"
    assert cause.general == "the state differs at /players/*/hand"


@pytest.mark.slow
def test_a_run_groups_its_failures_by_cause(tmp_path_factory):
    run = shared_run("wrong", tmp_path_factory)
    assert run.status == 1
    out = run.output
    found = read_report(run.report)
    failing = [c for c in found["cases"] if c["outcome"] == "failed"]
    causes = found["summary"]["causes"]
    assert sum(len(group["cases"]) for group in causes) == len(failing) > 5
    biggest = causes[0]
    assert (
        biggest["cause"]
        == "the engine misses beat (a trump on a plain card), which the rules allow"
    )
    assert biggest["rules"] == ["R-BEAT-1"] and len(biggest["cases"]) > len(failing) / 2
    assert all(c["cause"]["text"] for c in failing)
    assert f"root causes: {len(causes)} for {len(failing)} failing cases" in out
    assert f"1 cause, {len(biggest['cases'])} cases: the engine misses beat (a trump" in out


def test_a_state_no_game_can_be_in_is_one_cause_per_rule_whatever_made_it():
    """A card in two places breaks R-DECK-5 (every card is in exactly one place), whichever move
    the engine answered it after, and when the engine refuses its own state handed back."""
    problem = {"pointer": "/players/1/hand/2", "rule": "R-DECK-5", "message": "7D is in 2 places"}
    after = [
        {"id": f"move-{action}", "outcome": "failed", "actual": {"problems": [problem]},
         "step": {"index": 3, "move": {"action": action, "player": 0}}}
        for action in ("throw_in", "pass", "throw_in")
    ]
    refused = {"id": "count", "outcome": "failed", "step": {"index": 1, "perft": {}},
               "actual": {"answer": {"code": "invalid_state", "rule": "R-DECK-5"}, "path": []}}
    (group,) = groups([*after, refused])
    assert group.text == "the engine answers a state that breaks the rules"
    assert group.cause.rules == ("R-DECK-5",)
    assert group.variants == {"after throw_in": 2, "after pass": 1,
                              "(the engine refuses it when handed back)": 1}
