"""The features' tags mean something: rule IDs exist in the spec, option tags (and options set by
steps) name real option values, areas match files, and every rule of the spec is shown by at least
one scenario."""

import re
from pathlib import Path

import pytest

from conformance.bdd import feature_files
from conformance.bdd.dryrun import rendered_scenarios
from conformance.bdd.support import AREA_TAG, OPT_TAG, RULE_TAG
from reference_impl import specdata
from reference_impl.rulesets import catalog_options

SCENARIOS = list(rendered_scenarios())


def spec_rule_ids() -> list[str]:
    """Rule IDs of spec/rules.md ("### R-AREA-n" headings), else the contract's register."""
    rules_md = specdata.spec_dir() / "rules.md"
    if rules_md.is_file():
        text = rules_md.read_text(encoding="utf-8")
        return re.findall(r"^###\s+(R-[A-Z]+-\d+)\b", text, re.MULTILINE)
    contract = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
    return re.findall(
        r"^\|\s*(R-[A-Z]+-\d+)\s*\|", contract.read_text(encoding="utf-8"), re.MULTILINE
    )


RULES = set(spec_rule_ids())
OPTIONS = {name: {str(v) for v in entry["values"]} for name, entry in catalog_options().items()}


def test_the_spec_lists_rules_and_options():
    assert len(RULES) > 60 and "R-BEAT-1" in RULES
    assert "attack_limit" in OPTIONS and "six_five_first" in OPTIONS["attack_limit"]


def _problems_of_tags(tags, where):
    problems = []
    for tag in sorted(tags):
        if RULE_TAG.match(tag):
            if tag not in RULES:
                problems.append(f"{where}: @{tag} is not a rule ID of spec/rules.md")
        elif (m := OPT_TAG.match(tag)) is not None:
            name, value = m.group("name"), m.group("value")
            if name not in OPTIONS:
                problems.append(f"{where}: @{tag}: no option {name!r} in spec/ambiguities.yaml")
            elif value not in OPTIONS[name]:
                problems.append(
                    f"{where}: @{tag}: {value!r} is not a value of {name} "
                    f"({', '.join(sorted(OPTIONS[name]))})"
                )
        elif AREA_TAG.match(tag):
            if tag not in {r.split("-")[1] for r in RULES}:
                problems.append(f"{where}: @{tag} is not a rule area")
        else:
            problems.append(f"{where}: @{tag} is neither a rule ID, an @opt: tag nor an area")
    return problems


@pytest.mark.parametrize("rendered", SCENARIOS, ids=lambda r: r.where)
def test_tags_name_real_rules_and_options(rendered):
    assert _problems_of_tags(rendered.tags, rendered.where) == []


@pytest.mark.parametrize("rendered", SCENARIOS, ids=lambda r: r.where)
def test_every_scenario_names_a_rule(rendered):
    assert any(RULE_TAG.match(t) for t in rendered.tags), f"{rendered.where}: tag it @R-..."


@pytest.mark.parametrize("rendered", SCENARIOS, ids=lambda r: r.where)
def test_options_set_by_steps_are_real(rendered):
    problems = []
    for step in rendered.scenario.steps:
        m = re.fullmatch(r"the option (\S+) is (\S+)", step.name)
        if m:
            problems += _problems_of_tags({f"opt:{m.group(1)}={m.group(2)}"}, rendered.where)
    assert problems == []


@pytest.mark.parametrize("path", feature_files(), ids=lambda p: p.name)
def test_feature_file_is_tagged_with_its_area(path):
    text = path.read_text(encoding="utf-8")
    area = path.stem.upper()
    assert re.search(rf"^@{area}\s*$", text, re.MULTILINE), f"{path.name}: tag the Feature @{area}"
    assert area in {r.split("-")[1] for r in RULES}, f"{path.name}: {area} is not a rule area"


@pytest.mark.parametrize("path", feature_files(), ids=lambda p: p.name)
def test_no_tags_on_examples_and_unique_scenario_names(path):
    """pytest-bdd's hooks never see tags on Examples, and it keeps only one scenario of a name."""
    lines = path.read_text(encoding="utf-8").splitlines()
    names = []
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("Examples:"):
            previous = lines[number - 2].strip() if number > 1 else ""
            assert not previous.startswith("@"), (
                f"{path.name}:{number - 1}: a tag on Examples is invisible to pytest-bdd's hooks; "
                "put the option in an Examples column and set it with 'the option X is <X>'"
            )
        m = re.match(r"Scenario(?: Outline)?:\s*(.+)$", stripped)
        if m:
            names.append(m.group(1))
    duplicates = sorted({n for n in names if names.count(n) > 1})
    assert not duplicates, f"{path.name}: scenario names used twice: {duplicates}"


def test_every_rule_of_the_spec_has_a_scenario():
    shown = {t for r in SCENARIOS for t in r.tags if RULE_TAG.match(t)}
    missing = sorted(RULES - shown, key=lambda r: (r.split("-")[1], int(r.split("-")[2])))
    assert not missing, f"rules with no scenario: {missing}"


def test_every_rule_area_has_a_feature():
    areas = {r.split("-")[1] for r in RULES}
    files = {p.stem.upper() for p in feature_files()}
    assert areas <= files, f"areas without a feature file: {sorted(areas - files)}"


def test_the_coverage_table_of_the_docs_is_current():
    from conformance.bdd.dryrun import coverage_markdown

    docs = Path(__file__).resolve().parents[2] / "docs" / "features.md"
    text = docs.read_text(encoding="utf-8")
    table = text.split("<!-- coverage:begin -->\n", 1)[1].split("<!-- coverage:end -->", 1)[0]
    assert table == coverage_markdown(), (
        "docs/features.md is out of date: paste the output of `python -m conformance.bdd.dryrun` "
        "between the coverage markers"
    )
