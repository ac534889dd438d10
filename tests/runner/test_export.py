"""durak-conformance export writes the suite as data: every fixture case is a valid case of
spec/schema/fixture.schema.json with its resolved ruleset and source, every record a valid
record, every perft position with its counts, so a runner in another language needs nothing of
this package."""

from __future__ import annotations

import json

import jsonschema

from conformance.cli import main
from conformance.suite.loader import load_paths
from conformance.tools.export import FIXTURES
from reference_impl.specdata import schema_path

from .helpers import ROOT


def _validator(name: str) -> jsonschema.Draft202012Validator:
    """A validator of spec/schema/<name>.schema.json that resolves the other schemas it names."""
    from referencing import Registry, Resource

    documents = [
        json.loads(p.read_text(encoding="utf-8")) for p in schema_path(name).parent.glob("*.json")
    ]
    registry = Registry().with_resources(
        (doc["$id"], Resource.from_contents(doc)) for doc in documents if "$id" in doc
    )
    schema = json.loads(schema_path(name).read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema, registry=registry)


def test_export_holds_the_whole_data_suite_valid_under_the_schemas(tmp_path, capsys):
    out = tmp_path / "suite.json"
    assert main(["export", "--out", str(out)]) == 0
    assert "fixture cases" in capsys.readouterr().out
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["version"] == 1
    cases, _ = load_paths([FIXTURES])
    exported = document["fixtures"]
    assert [entry["case"]["id"] for entry in exported] == [case.id for case in cases]
    fixture, record = _validator("fixture"), _validator("record")
    for entry in exported:
        fixture.validate(entry["case"])
        path, _, line = entry["source"].rpartition(":")
        assert (ROOT / path).is_file() and int(line) > 0
        assert set(entry["resolved_ruleset"]["options"]) >= {"deck_size", "attack_limit"}
    for entry in document["records"]:
        record.validate(entry["record"])
    assert document["records"] and document["perft"]
    assert all(p["perft"] and p["start"] for p in document["perft"])
