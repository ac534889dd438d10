"""durak-conformance export writes the suite as data: every fixture case is a valid case of
spec/schema/fixture.schema.json with its resolved ruleset and source, every record a valid
record, every perft position with its counts and every Gherkin scenario compiled to a valid case
under a portable ID, so a runner in another language needs nothing of this package."""

from __future__ import annotations

import json

import pytest

from conformance.bdd.model import scenario_case_id, scenarios
from conformance.cli import main
from conformance.contract.schemas import validator
from conformance.suite.loader import load_paths
from conformance.tools.export import FIXTURES

from .helpers import ROOT


@pytest.mark.slow
def test_export_holds_the_whole_data_suite_valid_under_the_schemas(tmp_path, capsys):
    out = tmp_path / "suite.json"
    assert main(["export", "--out", str(out)]) == 0
    assert "fixture cases" in capsys.readouterr().out
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["version"] == 2
    cases, _ = load_paths([FIXTURES])
    exported = document["fixtures"]
    assert [entry["case"]["id"] for entry in exported] == [case.id for case in cases]
    fixture, record = validator("fixture"), validator("record")
    for entry in exported:
        fixture.validate(entry["case"])
        path, _, line = entry["source"].rpartition(":")
        assert (ROOT / path).is_file() and int(line) > 0
        if entry["resolved_ruleset"] is None:  # a ruleset the engine must refuse
            assert "robustness/rulesets.yaml" in entry["source"], entry["source"]
            continue
        assert set(entry["resolved_ruleset"]["options"]) >= {"deck_size", "attack_limit"}
    for entry in document["records"]:
        record.validate(entry["record"])
    assert document["records"] and document["perft"]
    assert all(p["perft"] and p["start"] for p in document["perft"])

    compiled = document["scenarios"]
    assert [(entry["case"]["id"], entry["name"]) for entry in compiled] == [
        (s.case_id, s.where) for s in scenarios()
    ]
    assert len({entry["case"]["id"] for entry in compiled}) == len(compiled)
    for entry in compiled:
        fixture.validate(entry["case"])
        assert entry["source"].startswith("features/")
        steps = entry["case"].get("steps", [])
        assert all(step.get("note") for step in steps), entry["name"]


def test_a_scenario_id_is_a_fixture_id_stable_and_distinct():
    assert scenario_case_id("features/beat.feature", "A low card is refused [beat_order=any]") == (
        "beat-a-low-card-is-refused-beat-order-any"
    )
    long_a, long_b = "word " * 30 + "one", "word " * 30 + "two"
    ids = {scenario_case_id("attack.feature", long_a), scenario_case_id("attack.feature", long_b)}
    assert len(ids) == 2 and all(len(i) <= 80 and i == i.strip("-") for i in ids)
    assert scenario_case_id("a.feature", long_a) == scenario_case_id("a.feature", long_a)
