"""spec/rules.md: rule IDs well formed, unique, covering the register; sources and options named."""

from __future__ import annotations

import re

import pytest

from reference_impl import specdata
from reference_impl.rulesets import catalog_options, load_catalog

HEADING = re.compile(r"^### (R-[A-Z]+-\d+)\b(.*)$", re.MULTILINE)
ID_FORM = re.compile(r"^R-[A-Z]+-[1-9]\d*$")


@pytest.fixture(scope="module")
def rules_text() -> str:
    return specdata.rules_path().read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sections(rules_text) -> dict[str, str]:
    """Rule ID -> its text (heading to the next heading)."""
    matches = list(HEADING.finditer(rules_text))
    out = {}
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(rules_text)
        nxt = rules_text.find("\n## ", m.start())
        if 0 <= nxt < end:
            end = nxt
        assert m.group(1) not in out, f"rule {m.group(1)} is defined twice"
        out[m.group(1)] = rules_text[m.start():end]
    return out


def test_every_heading_is_a_well_formed_unique_rule_id(rules_text):
    ids = HEADING.findall(rules_text)
    assert ids
    names = [i for i, _ in ids]
    assert len(names) == len(set(names)), "duplicate rule IDs in rules.md"
    for name, title in ids:
        assert ID_FORM.match(name), f"{name} is not of the form R-<AREA>-<n>"
        assert title.strip(), f"{name} has no title"


def test_numbers_within_an_area_are_consecutive(rules_text):
    by_area: dict[str, list[int]] = {}
    for name, _ in HEADING.findall(rules_text):
        _, area, n = name.split("-")
        by_area.setdefault(area, []).append(int(n))
    for area, numbers in by_area.items():
        assert sorted(numbers) == list(range(1, len(numbers) + 1)), f"gaps in R-{area}-n: {numbers}"


def test_every_register_id_is_a_rule(sections, register_ids):
    missing = [i for i in register_ids if i not in sections]
    assert not missing, f"register IDs without a rule in spec/rules.md: {missing}"


def test_every_rule_cites_sources(sections):
    for rule_id, text in sections.items():
        assert "Sources:" in text, f"{rule_id} cites no sources"


def test_rules_use_normative_language(sections):
    normative = re.compile(r"\b(MUST|MAY)\b")
    for rule_id, text in sections.items():
        assert normative.search(text), f"{rule_id} has no MUST or MAY"


def test_every_option_is_named_by_a_rule(sections):
    """Each option is introduced by a rule that lists it on an `Options:` line."""
    named = set()
    for text in sections.values():
        for line in text.splitlines():
            if line.startswith("Options:"):
                named.update(re.findall(r"`([a-z_]+)`", line))
    missing = [o for o in catalog_options() if o not in named]
    assert not missing, f"options no rule names: {missing}"


def test_options_named_by_rules_exist(sections):
    options = catalog_options()
    for rule_id, text in sections.items():
        for line in text.splitlines():
            if line.startswith("Options:"):
                for name in re.findall(r"`([a-z_]+)`", line):
                    assert name in options, f"{rule_id} names unknown option {name}"


def test_values_mentioned_with_an_option_exist(rules_text):
    """`option: value` written in the text must be a real option value."""
    options = catalog_options()
    for option, value in re.findall(r"`([a-z_]+): ([a-z0-9_]+)`", rules_text):
        if option in options:
            allowed = [str(v) for v in options[option]["values"]]
            assert value in allowed, f"rules.md mentions {option}: {value}; allowed {allowed}"


def test_catalog_rule_references_exist(sections):
    for entry in load_catalog()["ambiguities"]:
        for rule_id in entry["rules"]:
            assert rule_id in sections, f"{entry['id']} refers to unknown rule {rule_id}"


def test_open_questions_answered_in_rules_and_catalog(rules_text):
    catalog = load_catalog()["ambiguities"]
    cited = set()
    for entry in catalog:
        cited.update(q for q in entry["catalog"] if q.startswith("OQ"))
        cited.update(entry.get("open_questions", []))
    for n in range(1, 13):
        oq = f"OQ{n}"
        assert re.search(rf"^\| {oq} \|", rules_text, re.MULTILINE), f"{oq} missing from the answers table"
        assert re.search(rf"\b{oq}\b", rules_text.split("## 18.")[0]), f"no rule mentions {oq}"
        assert oq in cited, f"no catalog entry answers {oq}"


def test_out_of_scope_section_names_the_excluded_topics(rules_text):
    section = rules_text.split("## 17. Out of scope")[1].split("\n## ")[0]
    for topic in ("V22", "trump six", "lowest card", "I doubt it", "003"):
        assert topic in section, f"out-of-scope section does not mention {topic!r}"


def test_shuffle_constants_and_vector(rules_text):
    """The SplitMix64 constants written in R-DEAL-2 produce SplitMix64's published outputs.

    The expected numbers are SplitMix64's well-known first outputs for seed 0 (Vigna's reference
    generator), so a typo in a constant of the spec fails this test.
    """
    section = rules_text.split("### R-DEAL-2")[1].split("### ")[0]
    add, mul1, mul2 = (int(h, 16) for h in re.findall(r"0x([0-9A-F]{16})", section)[:3])
    shifts = [int(s) for s in re.findall(r">> (\d+)\)", section)]
    shifts += [int(s) for s in re.findall(r"z XOR \(z >> (\d+)\)`", section)]
    assert shifts[:3] == [30, 27, 31]
    mask = (1 << 64) - 1
    x = 0
    outputs = []
    for _ in range(3):
        x = (x + add) & mask
        z = x
        z = ((z ^ (z >> 30)) * mul1) & mask
        z = ((z ^ (z >> 27)) * mul2) & mask
        outputs.append(z ^ (z >> 31))
    assert outputs == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    for value in outputs:
        assert f"0x{value:016X}" in section, "the test vector in R-DEAL-2 is wrong"
