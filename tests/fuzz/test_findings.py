"""The pieces of a finding: state diffs as expect pointers, the rules a finding cites, probe
moves outside the legal set, and the YAML a finding is written as."""

from __future__ import annotations

import json
import random

import jsonschema
import pytest

from conformance.contract import canonical
from conformance.engines.base import InProcessEngine
from conformance.suite.loader import load_file
from conformance.tools.findings import (
    ACTION_RULES,
    DEAL_POINTER_RULES,
    MATCH_POINTER_RULES,
    POINTER_RULES,
    Finding,
    diff_paths,
    fixture_case,
    pointer_rules,
    write_fixture,
)
from conformance.tools.fuzz import probe_moves
from conformance.tools.traceability import SpecIndex
from reference_impl import specdata


def test_diff_paths_name_the_smallest_differing_parts():
    want = {
        "players": [{"hand": ["6C"], "known": []}, {"hand": ["7D"], "known": ["7D"]}],
        "table": [{"attack": "7C", "defence": None}],
        "talon": ["KS", "9H"],
        "result": None,
    }
    got = json.loads(json.dumps(want))
    assert diff_paths(want, got) == []
    got["players"][1]["known"] = []
    got["talon"] = ["9H"]
    got["table"].append({"attack": "7H", "defence": None})
    assert diff_paths(want, got) == [("players", 1, "known"), ("table",), ("talon",)]
    assert canonical.pointer(("players", 1, "known")) == "/players/1/known"
    del got["result"]
    assert ("result",) in diff_paths(want, got)  # missing in got: named, expect fails on it
    extra = {**want, "secret": 1}
    assert diff_paths(want, extra) == [()]  # an extra key: only the parent can be expected
    assert diff_paths(want, ["not", "a", "state"]) == [(key,) for key in want]


def test_every_rule_a_finding_can_cite_exists():
    rules = SpecIndex.load().rules
    cited = {r for group in ACTION_RULES.values() for r in group}
    for table in (POINTER_RULES, DEAL_POINTER_RULES, MATCH_POINTER_RULES):
        cited |= {r for group in table.values() for r in group}
    cited |= {"R-DEAL-1", "R-PLAY-1", "R-PLAY-2", "R-PLAY-5"}
    assert cited - set(rules) == set()
    assert set(ACTION_RULES) == {
        "attack", "throw_in", "beat", "take", "pass", "transfer", "show_trump"
    }  # fmt: skip
    assert pointer_rules([("players", 2, "known"), ("bout", "passed"), ("players", 0, "hand")]) == [
        "R-INFO-3",
        "R-THROW-6",
    ]


def _move_validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(specdata.schema_path("move").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("ruleset, players", [("podkidnoy", 2), ("perevodnoy-trump-show", 4)])
def test_probe_moves_are_well_formed_outside_the_legal_set_and_refused(ruleset, players):
    engine = InProcessEngine()
    validator = _move_validator()
    state = engine.new_game(ruleset, players, seed=5)
    rng = random.Random(1)
    for _ in range(40):
        legal = engine.legal_moves(state)
        if not legal:
            break
        keys = {canonical.canonical_move(m) for m in legal}
        probes = probe_moves(state, keys, rng, 4)
        assert len(probes) == 4
        assert len({canonical.canonical_move(p) for p in probes}) == 4
        for probe in probes:
            validator.validate(probe)
            assert canonical.canonical_move(probe) not in keys
            answer = engine.apply(state, probe)
            assert getattr(answer, "code", None) == "illegal_move", probe
        state = engine.apply(state, rng.choice(legal))
    again = probe_moves(state, set(), random.Random(3), 5)
    assert again == probe_moves(state, set(), random.Random(3), 5)


def test_a_finding_with_string_option_values_round_trips_through_yaml(tmp_path):
    """Option values such as "off" and "on" must stay strings (YAML 1.2 reading of the loader)."""
    engine = InProcessEngine()
    ruleset = {"preset": "perevodnoy", "overrides": {"trump_show": "any_time", "transfer": "on"}}
    state = engine.new_game(ruleset, 3, seed=4)
    legal = engine.legal_moves(state)
    finding = Finding(
        kind="legal",
        signature="legal: test",
        summary="a test",
        ruleset=ruleset,
        players=3,
        start={"state": state},
        steps=[{"legal": legal, "note": "a note: with a colon, and 'quotes'"}],
        rules=["R-ATTACK-1"],
        depth=0,
        game=0,
    )
    case = fixture_case(finding, "Found by a test; review it by reading the rules. " * 4)
    path = write_fixture(case, tmp_path)
    loaded = load_file(path)[0][0]
    assert loaded.ruleset == ruleset
    assert loaded.start["state"]["players"] == state["players"]
    assert {canonical.canonical_move(m) for m in loaded.steps[0].body} == {
        canonical.canonical_move(m) for m in legal
    }
    assert loaded.id == finding.case_id() and path.name == f"{loaded.id}.yaml"
