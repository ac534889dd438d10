"""spec/ambiguities.yaml: schema-valid, matches the contract's option table, covers the catalog."""

from __future__ import annotations

import json
import re

import jsonschema
import yaml

from reference_impl import specdata
from reference_impl.rulesets import catalog_options, default_options, load_catalog


def _schema(name: str) -> dict:
    return json.loads(specdata.schema_path(name).read_text(encoding="utf-8"))


def test_schemas_are_valid_2020_12():
    for name in ("ambiguities", "ruleset"):
        schema = _schema(name)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        jsonschema.Draft202012Validator.check_schema(schema)


def test_catalog_validates_against_its_schema_with_a_plain_loader():
    """Validated independently of the project's loader: plain PyYAML, quoted on/off."""
    doc = yaml.safe_load(specdata.ambiguities_path().read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(_schema("ambiguities")).validate(doc)


def test_options_match_the_contract(contract_options):
    ours = {name: {"values": [str(v) for v in spec["values"]], "default": str(spec["default"])}
            for name, spec in catalog_options().items()}
    assert set(ours) == set(contract_options), "option names differ from docs/architecture.md"
    for name, spec in contract_options.items():
        assert ours[name]["values"] == spec["values"], f"{name}: values differ from the contract"
        assert ours[name]["default"] == spec["default"], f"{name}: default differs from the contract"


def test_numeric_options_are_integers():
    table = catalog_options()
    for name in ("deck_size", "decks"):
        assert all(type(v) is int for v in table[name]["values"])
        assert type(table[name]["default"]) is int
    for name, spec in table.items():
        if name not in ("deck_size", "decks"):
            assert all(type(v) is str for v in spec["values"]), name


def test_defaults_are_the_podkidnoy_preset():
    from reference_impl.rulesets import load_preset

    assert load_preset("podkidnoy")["options"] == default_options()


def test_catalog_covers_v1_to_v21_and_v23_flags():
    entries = load_catalog()["ambiguities"]
    keys = set()
    for entry in entries:
        keys.update(re.sub(r"[a-f]$", "", k) for k in entry["catalog"])
    for n in range(1, 22):
        assert f"V{n}" in keys, f"catalog key V{n} has no entry"
    options = {e.get("option") for e in entries}
    assert {"beat_order", "take_allowed", "pass_reset"} <= options


def test_every_open_question_has_an_entry():
    entries = load_catalog()["ambiguities"]
    answered = set()
    for entry in entries:
        answered.update(k for k in entry["catalog"] if k.startswith("OQ"))
        answered.update(entry.get("open_questions", []))
    assert answered >= {f"OQ{n}" for n in range(1, 13)}


def test_out_of_scope_entries_say_why_and_are_not_options():
    entries = [e for e in load_catalog()["ambiguities"] if e["status"] == "out_of_scope"]
    ids = {e["id"] for e in entries}
    assert {"V22-cut", "V22-redeal", "V23-trump-six-exchange", "V23-lowest-beats-ace",
            "V23-other-games"} <= ids
    for entry in entries:
        assert entry["reason"].strip()
        assert "option" not in entry
    assert "doubt" in next(e for e in entries if e["id"] == "V23-other-games")["seeds"]


def test_every_option_cites_a_source_and_the_seeds():
    catalog = load_catalog()
    for entry in catalog["ambiguities"]:
        assert entry["seeds"].strip(), entry["id"]
        for reading in entry["options"]:
            assert reading["sources"], f"{entry['id']}.{reading['name']} has no source"
    seeds = {"S0", "S1", "S2", "S3"}
    assert seeds <= set(catalog["sources"])
    for key in seeds:
        assert re.search(r"00[0-3]_[0-9a-f]{16}\.txt", catalog["sources"][key]), key


def test_seed_contradictions_are_recorded():
    """The catalog's known seed contradictions (V1, V3, V6, V13) name both sides."""
    by_id = {e["id"]: e for e in load_catalog()["ambiguities"]}
    assert "contradict" in by_id["V1-attack-limit"]["seeds"]
    assert "contradicts itself" in by_id["V3-throw-in-timing"]["seeds"]
    assert "S0" in by_id["V13-next-game"]["seeds"] and "left" in by_id["V13-next-game"]["seeds"]


def test_ids_follow_the_documented_form():
    for entry in load_catalog()["ambiguities"]:
        assert re.match(r"^(V\d+[a-f]?|OQ\d+)(-[a-z0-9]+)+$", entry["id"]), entry["id"]
        prefix = entry["id"].split("-")[0]
        assert prefix in entry["catalog"], f"{entry['id']}: its prefix is not among its catalog keys"
