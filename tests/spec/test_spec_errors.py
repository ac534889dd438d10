"""Malformed catalog and ruleset files are rejected with the file, the line and what is wrong."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from reference_impl import rulesets, specdata
from reference_impl.rulesets import CatalogError, RulesetError, load_catalog, load_ruleset_file
from reference_impl.specdata import SpecDataError

CATALOG = specdata.ambiguities_path().read_text(encoding="utf-8")


def _line_of(text: str, needle: str, occurrence: int = 1) -> int:
    """1-based line of the `occurrence`-th line containing `needle`."""
    hits = [i + 1 for i, line in enumerate(text.splitlines()) if needle in line]
    return hits[occurrence - 1]


def _broken_catalog(tmp_path: Path, old: str, new: str) -> tuple[Path, str]:
    assert old in CATALOG, old
    text = CATALOG.replace(old, new, 1)
    path = tmp_path / "ambiguities.yaml"
    path.write_text(text, encoding="utf-8")
    return path, text


def _assert_located(err: Exception, path: Path, line: int, *words: str) -> None:
    message = str(err)
    assert message.startswith(f"{path}:{line}:"), f"expected {path}:{line}: in {message!r}"
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"


# --------------------------------------------------------------------------- catalog


def test_catalog_yaml_syntax_error(tmp_path):
    path, text = _broken_catalog(tmp_path, "    option: attack_limit\n",
                                 "    option: attack_limit\n   bad: [unclosed\n")
    with pytest.raises(SpecDataError) as info:
        load_catalog(path)
    assert re.match(rf"{re.escape(str(path))}:\d+: invalid YAML", str(info.value))
    reported = int(str(info.value).split(":")[1])
    assert abs(reported - _line_of(text, "bad: [unclosed")) <= 1


def test_catalog_duplicate_key(tmp_path):
    path, text = _broken_catalog(tmp_path, "    option: attack_limit\n",
                                 "    option: attack_limit\n    option: attack_limit\n")
    with pytest.raises(SpecDataError) as info:
        load_catalog(path)
    _assert_located(info.value, path, _line_of(text, "option: attack_limit", 2), "duplicate key")


def test_catalog_missing_field(tmp_path):
    old = "    question: How many attack cards may one bout hold in total?\n"
    path, text = _broken_catalog(tmp_path, old, "")
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    _assert_located(info.value, path, _line_of(text, "- id: V1-attack-limit"), "question",
                    "required")


def test_catalog_default_not_an_option(tmp_path):
    path, text = _broken_catalog(tmp_path, "    default: six_five_first\n",
                                 "    default: seven\n")
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    _assert_located(info.value, path, _line_of(text, "default: seven"), "seven", "V1-attack-limit")


def test_catalog_unknown_source_key(tmp_path):
    path, text = _broken_catalog(tmp_path, "        sources: [DAPP, HG]\n",
                                 "        sources: [DAPP, NOPE]\n")
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    _assert_located(info.value, path, _line_of(text, "[DAPP, NOPE]"), "NOPE", "sources")


def test_catalog_duplicate_option(tmp_path):
    path, text = _broken_catalog(tmp_path, "    option: decks\n", "    option: deck_size\n")
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    _assert_located(info.value, path, _line_of(text, "option: deck_size", 2), "defined twice")


def test_catalog_option_entry_without_option_key(tmp_path):
    path, text = _broken_catalog(tmp_path, "    option: pile_on\n", "")
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    _assert_located(info.value, path, _line_of(text, "- id: V6-pile-on"), "option")


def test_catalog_boolean_value_name(tmp_path):
    path, _ = _broken_catalog(tmp_path, '      - name: "off"\n        description: No transfers',
                                 '      - name: true\n        description: No transfers')
    with pytest.raises(CatalogError) as info:
        load_catalog(path)
    assert str(info.value).startswith(f"{path}:")


# --------------------------------------------------------------------------- ruleset files

PODKIDNOY = (specdata.rulesets_dir() / "podkidnoy.yaml").read_text(encoding="utf-8")


def _ruleset(tmp_path: Path, text: str, name: str = "mine") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_ruleset_full_form_loads(tmp_path):
    path = _ruleset(tmp_path, PODKIDNOY.replace("name: podkidnoy", "name: mine"))
    assert load_ruleset_file(path)["options"]["attack_limit"] == "six_five_first"


def test_ruleset_unknown_option(tmp_path):
    text = PODKIDNOY.replace("  tie: draw\n", "  tie: draw\n  tye: draw\n")
    path = _ruleset(tmp_path, text)
    with pytest.raises(RulesetError) as info:
        load_ruleset_file(path)
    _assert_located(info.value, path, _line_of(text, "tye: draw"), "unknown option", "tye")
    assert info.value.option == "tye"


def test_ruleset_bad_value(tmp_path):
    text = PODKIDNOY.replace("  attack_limit: six_five_first\n", "  attack_limit: seven\n")
    path = _ruleset(tmp_path, text)
    with pytest.raises(RulesetError) as info:
        load_ruleset_file(path)
    _assert_located(info.value, path, _line_of(text, "attack_limit: seven"), "attack_limit",
                    "seven", '"six_five_first"')
    assert info.value.allowed == ["hand", "six", "six_five_first", "six_five_first_bout"]


def test_ruleset_unquoted_on_stays_a_string(tmp_path):
    """Our loader reads `on` as the string 'on' (YAML 1.2 booleans only)."""
    text = PODKIDNOY.replace('  transfer: "off"\n', "  transfer: on\n")
    path = _ruleset(tmp_path, text)
    assert load_ruleset_file(path)["options"]["transfer"] == "on"


def test_ruleset_missing_option(tmp_path):
    text = PODKIDNOY.replace("  beat_order: any\n", "")
    path = _ruleset(tmp_path, text)
    with pytest.raises(RulesetError) as info:
        load_ruleset_file(path)
    _assert_located(info.value, path, _line_of(text, "options:"), "missing", "beat_order")


def test_ruleset_missing_name(tmp_path):
    text = PODKIDNOY.replace("name: podkidnoy\n", "")
    path = _ruleset(tmp_path, text)
    with pytest.raises(RulesetError) as info:
        load_ruleset_file(path)
    assert str(info.value).startswith(f"{path}:") and "name" in str(info.value)


def test_ruleset_yaml_syntax_error(tmp_path):
    path = _ruleset(tmp_path, "name: mine\npreset: podkidnoy\noverrides: {tie: draw\n")
    with pytest.raises(SpecDataError) as info:
        load_ruleset_file(path)
    assert re.match(rf"{re.escape(str(path))}:\d+: invalid YAML", str(info.value))


def test_ruleset_not_a_mapping(tmp_path):
    path = _ruleset(tmp_path, "- podkidnoy\n")
    with pytest.raises(RulesetError) as info:
        load_ruleset_file(path)
    _assert_located(info.value, path, 1, "mapping")


def test_inline_ruleset_bad_override(tmp_path):
    text = "name: mine\npreset: podkidnoy\noverrides:\n  pile_on: sometimes\n"
    path = _ruleset(tmp_path, text)
    with pytest.raises(RulesetError) as info:
        load_ruleset_file(path)
    _assert_located(info.value, path, 4, "pile_on", "sometimes", '"allowed", "forbidden"')


def test_inline_ruleset_unknown_preset(tmp_path):
    text = "name: mine\ndescription: x\npreset: podkidnoj\n"
    path = _ruleset(tmp_path, text)
    with pytest.raises(RulesetError) as info:
        load_ruleset_file(path)
    _assert_located(info.value, path, 3, "podkidnoj", "known presets")


def test_inline_ruleset_unexpected_key(tmp_path):
    text = "name: mine\npreset: podkidnoy\noveride:\n  tie: draw\n"
    path = _ruleset(tmp_path, text)
    with pytest.raises(RulesetError) as info:
        load_ruleset_file(path)
    _assert_located(info.value, path, 3, "unexpected key", "overide")


def test_inline_ruleset_resolves_against_its_preset(tmp_path):
    path = _ruleset(tmp_path, "name: mine\npreset: perevodnoy\noverrides:\n  transfer_cards: one\n")
    resolved = load_ruleset_file(path)
    assert resolved["name"] == "mine"
    assert resolved["options"]["transfer"] == "on"
    assert resolved["options"]["transfer_cards"] == "one"


@pytest.fixture
def preset_dir(tmp_path, monkeypatch):
    """A temporary rulesets directory standing in for spec/rulesets."""
    directory = tmp_path / "rulesets"
    shutil.copytree(specdata.rulesets_dir(), directory)
    monkeypatch.setattr(specdata, "rulesets_dir", lambda: directory)
    rulesets._load_preset_cached.cache_clear()
    yield directory
    rulesets._load_preset_cached.cache_clear()


def test_preset_name_must_match_file(preset_dir):
    (preset_dir / "odd.yaml").write_text("name: other\npreset: podkidnoy\n", encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        rulesets.load_preset("odd")
    assert "odd.yaml:1" in str(info.value) and "other" in str(info.value)


def test_preset_cycle_is_reported(preset_dir):
    (preset_dir / "a.yaml").write_text("name: a\npreset: b\n", encoding="utf-8")
    (preset_dir / "b.yaml").write_text("name: b\npreset: a\n", encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        rulesets.load_preset("a")
    assert "cycle" in str(info.value) and "a -> b -> a" in str(info.value)


def test_broken_preset_file_is_reported_when_resolving_by_name(preset_dir):
    (preset_dir / "broken.yaml").write_text(
        "name: broken\npreset: podkidnoy\noverrides:\n  teams: 4v4\n", encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        rulesets.resolve_ruleset({"preset": "broken"})
    assert f"{preset_dir / 'broken.yaml'}:4" in str(info.value)
    assert "4v4" in str(info.value)
