"""durak-conformance export writes the suite as data: every fixture case is a valid case of
spec/schema/fixture.schema.json with its resolved ruleset and source, every record a valid
record, every perft position with its counts, so a runner in another language needs nothing of
this package."""

from __future__ import annotations

import json

from conformance.cli import main
from conformance.contract.schemas import validator
from conformance.suite.loader import load_paths
from conformance.tools.export import FIXTURES

from .helpers import ROOT


def test_export_holds_the_whole_data_suite_valid_under_the_schemas(tmp_path, capsys):
    out = tmp_path / "suite.json"
    assert main(["export", "--out", str(out)]) == 0
    assert "fixture cases" in capsys.readouterr().out
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["version"] == 1
    cases, _ = load_paths([FIXTURES])
    exported = document["fixtures"]
    assert [entry["case"]["id"] for entry in exported] == [case.id for case in cases]
    fixture, record = validator("fixture"), validator("record")
    for entry in exported:
        fixture.validate(entry["case"])
        path, _, line = entry["source"].rpartition(":")
        assert (ROOT / path).is_file() and int(line) > 0
        assert set(entry["resolved_ruleset"]["options"]) >= {"deck_size", "attack_limit"}
    for entry in document["records"]:
        record.validate(entry["record"])
    assert document["records"] and document["perft"]
    assert all(p["perft"] and p["start"] for p in document["perft"])
