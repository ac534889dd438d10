"""The features' tags mean something: every tag and option step follows the grammar of
conformance.bdd.model, rule IDs exist in the spec, option tags (and options set by steps) name
real option values, areas match files, and every rule of the spec is shown by at least one
scenario.

What a tag or step means is read by the model alone, and whether the spec has it is judged by the
traceability gate's own checks (its feature traces on one file at a time), so this file repeats
neither; it adds the conventions of the rulebook's files."""

from pathlib import Path

import pytest

from conformance.bdd import feature_files
from conformance.bdd.model import RULE_TAG, read_features
from conformance.tools.traceability import SpecIndex, feature_traces

SPEC = SpecIndex.load()
FEATURES = read_features()
SCENARIOS = [s for feature in FEATURES for s in feature.scenarios]


def _rule_key(rule: str) -> tuple[str, int]:
    m = RULE_TAG.match(rule)
    return m["area"], int(m["number"])


def test_the_spec_lists_rules_and_options():
    assert len(SPEC.rules) > 60 and "R-BEAT-1" in SPEC.rules
    assert "attack_limit" in SPEC.options and "six_five_first" in SPEC.options["attack_limit"]


@pytest.mark.parametrize("feature", FEATURES, ids=lambda f: f.path.name)
def test_tags_and_option_steps_follow_the_grammar(feature):
    """No tag outside the grammar, none on Examples, no scenario hidden by a namesake."""
    assert [str(p) for p in feature.problems] == []


@pytest.mark.parametrize("path", feature_files(), ids=lambda p: p.name)
def test_tags_and_option_steps_name_real_rules_and_options(path):
    _, problems = feature_traces([path], SPEC, Path(path).parent)
    assert [str(p) for p in problems] == []


@pytest.mark.parametrize("rendered", SCENARIOS, ids=lambda r: r.where)
def test_every_scenario_names_a_rule(rendered):
    assert rendered.rules, f"{rendered.where}: tag it @R-..."


@pytest.mark.parametrize("feature", FEATURES, ids=lambda f: f.path.name)
def test_feature_file_is_tagged_with_its_area(feature):
    area = feature.path.stem.upper()
    assert area in feature.tags, f"{feature.path.name}: tag the Feature @{area}"
    assert area in SPEC.areas, f"{feature.path.name}: {area} is not a rule area"


@pytest.mark.parametrize("rendered", SCENARIOS, ids=lambda r: r.where)
def test_area_tags_name_rule_areas(rendered):
    unknown = sorted(set(rendered.outline.areas) - SPEC.areas)
    assert not unknown, f"{rendered.where}: not rule areas: {unknown}"


def test_every_rule_of_the_spec_has_a_scenario():
    shown = {rule for s in SCENARIOS for rule in s.rules}
    missing = sorted(set(SPEC.rules) - shown, key=_rule_key)
    assert not missing, f"rules with no scenario: {missing}"


def test_every_rule_area_has_a_feature():
    files = {p.stem.upper() for p in feature_files()}
    assert SPEC.areas <= files, f"areas without a feature file: {sorted(SPEC.areas - files)}"


def test_the_coverage_table_of_the_docs_is_current():
    from conformance.bdd.dryrun import coverage_markdown

    docs = Path(__file__).resolve().parents[2] / "docs" / "features.md"
    text = docs.read_text(encoding="utf-8")
    table = text.split("<!-- coverage:begin -->\n", 1)[1].split("<!-- coverage:end -->", 1)[0]
    assert table == coverage_markdown(), (
        "docs/features.md is out of date: paste the output of `python -m conformance.bdd.dryrun` "
        "between the coverage markers"
    )
