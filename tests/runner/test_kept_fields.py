"""Bookkeeping optional (spec/protocol.md P-16 ``keeps``): an engine that declares it does not keep
a field is never judged by it, and the cases about that field are unsupported, naming it.

The derivation the runner puts in place of the engine's values is checked against the reference
engine's own bookkeeping on random games of every preset: it must give back exactly the fields a
forgetful engine lost.
"""

from __future__ import annotations

import json
import random
import sys

import pytest

from conformance.engines.bookkeeping import (
    FIELDS,
    KeptFields,
    fill_after,
    fill_fresh,
    parse_keeps,
    unkept_touched,
)
from conformance.engines.gating import HelloError, Support
from conformance.suite import FIXTURES_DIR
from conformance.suite.cases import CaseRunner
from conformance.suite.loader import load_paths
from reference_impl import api
from reference_impl.specdata import spec_dir

from .helpers import ROOT

sys.path.insert(0, str(ROOT / "tests" / "runner" / "engines"))
import forgetful_engine

EVERY_FIELD = frozenset(FIELDS)
PRESETS = sorted(p.stem for p in (spec_dir() / "rulesets").glob("*.yaml") if p.stem != "seeds")


def _text(value):
    return json.dumps(value, sort_keys=True)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_the_derivation_gives_back_every_field_a_forgetful_engine_lost(preset):
    checked = 0
    for players in (2, 3, 4, 6):
        for seed in range(4):
            try:
                state = api.new_game(preset, players, seed=seed)
            except api.EngineError:
                break  # a player count the preset's rules forbid
            forgotten = forgetful_engine.forget(state)
            assert _text(fill_fresh(forgotten, EVERY_FIELD)) == _text(state)
            rng = random.Random(seed)
            while state["result"] is None:
                move = rng.choice(api.legal_moves(state))
                after = api.apply(state, move)
                derived = fill_after(state, move, forgetful_engine.forget(after), EVERY_FIELD)
                assert _text(derived) == _text(after), (preset, players, seed, move)
                state, checked = after, checked + 1
    assert checked > 100


def test_a_kept_field_stays_the_engines_own():
    state = api.new_game("podkidnoy", 2, seed=7)
    move = api.legal_moves(state)[0]
    after = api.apply(state, move)
    wrong = json.loads(json.dumps(after))
    wrong["players"][0]["known"] = ["AS"]  # not derivable, and kept: must reach the judge
    filled = fill_after(state, move, wrong, EVERY_FIELD - {"known"})
    assert filled["players"][0]["known"] == ["AS"]


def test_a_broken_answer_is_passed_on_for_the_invariants_to_name():
    assert fill_after({"no": "state"}, {"action": "pass"}, {"x": 1}, EVERY_FIELD) == {"x": 1}
    assert fill_fresh({"players": 3}, EVERY_FIELD) == {"players": 3}


def test_keeps_names_only_bookkeeping_fields():
    assert parse_keeps(None) is None
    assert parse_keeps(["known", "winners"]) == {"known", "winners"}
    with pytest.raises(ValueError, match="hand.*not bookkeeping fields; the fields are: known"):
        parse_keeps(["hand"])
    hello = {
        "protocol": "1",
        "engine": {"name": "x", "version": "1"},
        "supports": {"players": {"36": [2]}, "keeps": ["talon"]},
    }
    with pytest.raises(HelloError, match="talon"):
        Support.from_hello(hello)


def test_a_case_is_about_a_field_when_it_expects_it():
    fields = frozenset({"known", "winners", "table_by"})
    steps = [
        ("expect", {"/players/1/known": ["AS"], "/table": []}),
        ("result", {"fool": 1, "winners": []}),
    ]
    assert unkept_touched(steps, fields) == ("keeps known", "keeps winners")
    assert unkept_touched([("expect", {"/table/0/by": 1})], fields) == ("keeps table_by",)
    assert unkept_touched([("observe", {"player": 0})], fields) == ("keeps known",)
    assert unkept_touched([("expect", {"/players/1/hand": []})], fields) == ()
    assert unkept_touched(steps, frozenset()) == ()
    # about a field only when the case cites a rule of that field
    assert unkept_touched(steps, fields, ["R-BEAT-1"]) == ()
    assert unkept_touched(steps, fields, ["R-INFO-3", "R-BEAT-1"]) == ("keeps known",)


def _run(engine):
    runner = CaseRunner(engine, Support.from_hello(engine.hello()))
    cases = load_paths([FIXTURES_DIR])[0]
    return {case.id: runner.run(case) for case in cases}


@pytest.mark.slow
def test_an_engine_that_keeps_nothing_and_says_so_passes_what_runs():
    results = _run(KeptFields(forgetful_engine.make()))
    ran = {k: r for k, r in results.items() if r.outcome != "unsupported"}
    failed = {k: r.message for k, r in ran.items() if r.outcome != "passed"}
    assert len(ran) >= 15, len(ran)
    assert not failed, failed
    blocked = [r for r in results.values() if r.outcome == "unsupported"]
    reasons = " ".join(str(r.to_json()) for r in blocked)
    assert "keeps known" in reasons


@pytest.mark.slow
def test_the_same_engine_silent_about_keeps_fails_where_the_fields_show():
    results = _run(KeptFields(forgetful_engine.make_silent()))
    failed = [r for r in results.values() if r.outcome == "failed"]
    assert len(failed) >= 10, len(failed)
