"""The fixture hands are well formed, without any engine: they load with safe YAML, every case has
the contract's fields, ids are unique, every cited rule ID exists, every option value is one of the
contract's, and every starting state or deck holds each card of its deck exactly once.

The checks themselves live in conformance.tools.fixture_check (authors run them from the shell
with tools/check_fixtures.py); the second half of this file shows that they do catch broken cases.
"""

from __future__ import annotations

import pytest

from conformance.contract.cards import card_key
from conformance.contract.cards import deck as full_deck
from conformance.tools.fixture_check.authoring import build, deal
from conformance.tools.fixture_check.checks import check_all
from conformance.tools.fixture_check.loading import fixture_files

#: every fixture file checked by the fixture-check tool, once per module: a whole-suite pass (slow)
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def checked():
    return check_all()


def test_fixture_files_exist():
    assert fixture_files(), "conformance/fixtures holds no YAML files"


def test_every_fixture_case_is_well_formed(checked):
    problems, _ = checked
    assert not problems, "\n" + "\n".join(str(p) for p in problems)


def test_case_ids_unique(checked):
    _, cases = checked
    ids = [c.get("id") for c in cases]
    assert len(ids) == len(set(ids))


# ------------------------------------------------------------ the checker catches mistakes

GOOD_STATE = {
    "version": 1,
    "ruleset": {"name": "podkidnoy", "options": {}},
    "dealer": 1,
    "trump": "9H",
    "talon": [],
    "discard": [c for c in full_deck(24, 1) if c not in ("9C", "TC", "JC", "9H")],
    "players": [{"hand": ["9C", "TC"], "known": [], "team": None},
                {"hand": ["JC", "9H"], "known": [], "team": None}],
    "table": [],
    "bout": {"number": 5, "attacker": 0, "defender": 1, "opener": 0, "passed": [],
             "taking": False, "first_defence": None, "shown": [], "emptied": []},
    "finished": [],
    "result": None,
}


def _case(**changes):
    case = {
        "id": "checker-sample",
        "description": "sample",
        "rules": ["R-BEAT-1"],
        "ruleset": {"preset": "podkidnoy", "overrides": {"deck_size": 24}},
        "players": 2,
        "start": {"state": GOOD_STATE},
        "steps": [{"legal_includes": [{"player": 0, "action": "attack", "cards": ["9C"]}]}],
    }
    case.update(changes)
    return case


def _problems(case, tmp_path):
    import yaml

    path = tmp_path / "case.yaml"
    path.write_text(yaml.safe_dump(case), encoding="utf-8")
    problems, _ = check_all([path])
    return [p.message for p in problems]


def test_checker_accepts_a_good_case(tmp_path):
    assert _problems(_case(), tmp_path) == []


def test_checker_catches_a_lost_card(tmp_path):
    state = dict(GOOD_STATE, discard=GOOD_STATE["discard"][1:])
    msgs = _problems(_case(start={"state": state}), tmp_path)
    assert any("not conserved" in m for m in msgs)


def test_checker_catches_a_card_twice(tmp_path):
    state = dict(GOOD_STATE, talon=["9C", "9H"])
    msgs = _problems(_case(start={"state": state}), tmp_path)
    assert any("not conserved" in m for m in msgs)


def test_checker_catches_an_unsorted_hand(tmp_path):
    players = [{"hand": ["TC", "9C"], "known": [], "team": None}, GOOD_STATE["players"][1]]
    msgs = _problems(_case(start={"state": dict(GOOD_STATE, players=players)}), tmp_path)
    assert any("not sorted" in m for m in msgs)


def test_checker_catches_trump_not_last(tmp_path):
    state = dict(GOOD_STATE, talon=["9H", "AS"], discard=[c for c in GOOD_STATE["discard"] if c != "AS"])
    players = [GOOD_STATE["players"][0], {"hand": ["JC"], "known": [], "team": None}]
    msgs = _problems(_case(start={"state": dict(state, players=players)}), tmp_path)
    assert any("talon's last card" in m for m in msgs)


def test_checker_catches_unknown_rule_and_option(tmp_path):
    case = _case(rules=["R-NOPE-1"], options={"attack_limit": "seven"})
    msgs = _problems(case, tmp_path)
    assert any("unknown rule ID" in m for m in msgs)
    assert any("not one of" in m for m in msgs)


def test_checker_catches_option_not_set_by_ruleset(tmp_path):
    msgs = _problems(_case(options={"pile_on": "forbidden"}), tmp_path)
    assert any("override it" in m for m in msgs)


def test_checker_catches_bad_deck_and_duplicate_ids(tmp_path):
    deck = full_deck(24, 1)
    bad = _case(start={"deck": deck[:-1] + [deck[0]], "dealer": 1})
    msgs = _problems({"cases": [bad, _case()]}, tmp_path)
    assert any("once each" in m for m in msgs)
    assert any("duplicate id" in m for m in msgs)


def test_checker_catches_malformed_moves(tmp_path):
    steps = [{"move": {"player": 0, "action": "beat", "card": "9C"}},
             {"refuse": {"player": 5, "action": "take"}}]
    msgs = _problems(_case(steps=steps), tmp_path)
    assert any("takes fields" in m for m in msgs)
    assert any("not a seat" in m for m in msgs)
    assert any("refuse needs 'rule'" in m for m in msgs)


def test_checker_accepts_result_null_as_the_game_still_going(tmp_path):
    # docs/architecture.md (Fixtures): "result: null (the game must still be going)"; GOOD_STATE
    # has result null, so the step is also true of the position.
    steps = [{"legal_includes": [{"player": 0, "action": "attack", "cards": ["9C"]}]},
             {"result": None}]
    assert _problems(_case(steps=steps), tmp_path) == []


def test_checker_rejects_a_result_that_is_neither_a_mapping_nor_null(tmp_path):
    msgs = _problems(_case(steps=[{"result": "over"}]), tmp_path)
    assert any("result must be a mapping" in m for m in msgs)


def test_canonical_deal_matches_contract_examples():
    deck = full_deck(24, 1)
    d = deal(deck, 2, 1)
    # dealer 1: index 0 goes to seat 0, index 1 to seat 1, ...; index 12 is the trump card
    assert d["hands"][0] == sorted(deck[0:12:2], key=card_key)
    assert d["trump"] == deck[12] and d["talon"][-1] == deck[12] and d["talon"][0] == deck[13]
    assert deal(deck, 2, 1, "six_at_once")["hands"][0] == deck[0:6]
    assert deal(deck, 2, 1, trump_card="bottom")["trump"] == deck[-1]
    assert build(d["hands"], d["trump"], d["talon"][:-1], 1) == deck
