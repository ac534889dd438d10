"""spec/rulesets: every preset valid, complete, resolvable; the schema generated from the catalog."""

from __future__ import annotations

import json
import runpy

import jsonschema
import pytest
import yaml

from reference_impl import specdata
from reference_impl.rulesets import (
    RulesetError,
    catalog_options,
    load_preset,
    preset_names,
    resolve_ruleset,
)
from tests.spec.conftest import REPO

REQUIRED = ["podkidnoy", "perevodnoy", "perevodnoy-trump-show", "teams-2v2", "teams-3v3",
            "teams-2v2v2", "two-decks", "seeds", "pagat"]


def test_required_presets_exist():
    assert set(REQUIRED) <= set(preset_names())


@pytest.mark.parametrize("name", REQUIRED)
def test_preset_file_validates_against_the_schema(name):
    schema = json.loads(specdata.schema_path("ruleset").read_text(encoding="utf-8"))
    doc = yaml.safe_load((specdata.rulesets_dir() / f"{name}.yaml").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    assert doc["name"] == name


@pytest.mark.parametrize("name", REQUIRED)
def test_preset_sets_every_option_to_an_allowed_value(name):
    table = catalog_options()
    resolved = load_preset(name)
    assert resolved["name"] == name
    assert list(resolved["options"]) == list(table)
    for option, value in resolved["options"].items():
        assert value in table[option]["values"], f"{name}: {option}={value!r}"


def test_ruleset_schema_is_generated_from_the_catalog():
    module = runpy.run_path(str(REPO / "tools" / "gen_ruleset_schema.py"), run_name="spec_test")
    current = specdata.schema_path("ruleset").read_text(encoding="utf-8")
    assert current == module["render"](), "run python tools/gen_ruleset_schema.py"
    schema = json.loads(current)
    props = schema["$defs"]["optionValues"]["properties"]
    assert {k: v["enum"] for k, v in props.items()} == {
        k: v["values"] for k, v in catalog_options().items()}


def test_variant_presets_differ_from_podkidnoy_where_they_should():
    """Expected values come from the rules text of each variant, not from the files."""
    base = load_preset("podkidnoy")["options"]
    expected_changes = {
        "perevodnoy": {"transfer": "on"},
        "perevodnoy-trump-show": {"transfer": "on", "trump_show": "before_first_beat"},
        "teams-2v2": {"teams": "2v2"},
        "teams-3v3": {"teams": "3v3"},
        "teams-2v2v2": {"teams": "2v2v2"},
        "two-decks": {"decks": 2},
    }
    for name, changes in expected_changes.items():
        options = load_preset(name)["options"]
        diff = {k: v for k, v in options.items() if base[k] != v}
        assert diff == changes, name


def test_seeds_preset_reads_the_seed_texts_literally():
    o = load_preset("seeds")["options"]
    assert o["opening"] == "single"                 # 001/002/003: one card
    assert o["attack_limit"] == "six_five_first"    # 002/003: six, five before a successful defence
    assert o["throw_in_timing"] == "any_time"       # "at any point"
    assert o["pile_on"] == "forbidden"              # abandoning the defence ends the turn at once
    assert o["take_allowed"] == "any_time"          # abandon "at any point during the turn"
    assert o["next_game"] == "fool_left"            # 002/003
    assert o["transfer_cards"] == "one"             # 001/003: "this card"
    assert o["transfer_capacity"] == "hand"         # 001/003: only the new defender's hand


def test_pagat_preset_reads_pagat():
    o = load_preset("pagat")["options"]
    assert o["opening"] == "single"
    assert o["throw_in_priority"] == "main_first"
    assert o["pile_on"] == "allowed"
    assert o["attack_limit"] == "six"


def test_resolve_forms_agree():
    by_name = resolve_ruleset("perevodnoy")
    by_override = resolve_ruleset({"preset": "podkidnoy", "overrides": {"transfer": "on"}})
    full = resolve_ruleset({"name": "perevodnoy", "options": by_name["options"]})
    assert by_override["options"] == by_name["options"] == full["options"]
    assert by_override["name"] == "podkidnoy+transfer=on"
    assert full["name"] == "perevodnoy"


def test_override_equal_to_the_preset_keeps_its_name():
    assert resolve_ruleset({"preset": "podkidnoy", "overrides": {"tie": "draw"}})["name"] == "podkidnoy"
    named = resolve_ruleset({"preset": "podkidnoy", "name": "mine", "overrides": {"tie": "draw"}})
    assert named["name"] == "mine"


def test_partial_options_object_is_filled_from_defaults():
    resolved = resolve_ruleset({"options": {"transfer": "on"}})
    assert resolved["name"] == "custom"
    assert resolved["options"]["transfer"] == "on"
    assert resolved["options"]["attack_limit"] == "six_five_first"
    assert len(resolved["options"]) == len(catalog_options())


def test_resolve_returns_independent_copies():
    first = resolve_ruleset("podkidnoy")
    first["options"]["transfer"] = "on"
    assert resolve_ruleset("podkidnoy")["options"]["transfer"] == "off"
    table = catalog_options()
    table["transfer"]["values"].append("sideways")
    assert "sideways" not in catalog_options()["transfer"]["values"]


@pytest.mark.parametrize(
    ("spec", "where", "words"),
    [
        ("podkidnoj", "/preset", ["podkidnoj", "known presets", "podkidnoy"]),
        ({"preset": "podkidnoy", "overrides": {"transfer": "sideways"}}, "/overrides/transfer",
         ["transfer", "sideways", '"off", "on"']),
        ({"preset": "podkidnoy", "overrides": {"transfer": True}}, "/overrides/transfer",
         ["quote"]),
        ({"preset": "podkidnoy", "overrides": {"attack_limt": "six"}}, "/overrides/attack_limt",
         ["unknown option", "attack_limit"]),
        ({"options": {"deck_size": "36"}}, "/options/deck_size", ["24, 36, 52", "number"]),
        ({"options": {"decks": 3}}, "/options/decks", ["decks", "1, 2"]),
        ({"preset": "podkidnoy", "extra": 1}, "/extra", ["unexpected key"]),
        ({"name": "x"}, "/", ["preset", "options"]),
        (["podkidnoy"], "/", ["preset name or an object"]),
    ],
)
def test_bad_in_memory_rulesets_are_refused_with_a_pointer(spec, where, words):
    with pytest.raises(RulesetError) as info:
        resolve_ruleset(spec)
    err = info.value
    assert isinstance(err, ValueError)
    if where == "/preset" and isinstance(spec, str):
        assert err.where == "preset"
    else:
        assert err.where == where
    for word in words:
        assert word in str(err), f"{word!r} not in {err}"


def test_ruleset_error_carries_option_value_and_allowed():
    with pytest.raises(RulesetError) as info:
        resolve_ruleset({"options": {"tie": "attacker_wins"}})
    assert info.value.option == "tie"
    assert info.value.value == "attacker_wins"
    assert info.value.allowed == ["draw", "defender_fool"]
