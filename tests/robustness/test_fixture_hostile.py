"""One bad fixture file never stops the suite: whatever is wrong with it is one problem at its file
and true line, and every other file and case loads. The expected lines are read off the files
written here; the rules that make a case wrong are those of spec/rules.md and docs/architecture.md
(the rule register, the deck of 36 cards, a state's invariants)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conformance.contract.cards import deck
from conformance.suite.loader import load_file, load_paths
from reference_impl.specdata import MAX_ALIAS_NODES, MAX_YAML_DEPTH

DECK36 = "[" + ", ".join(deck(36)) + "]"

GOOD = """\
id: good-neighbour
description: a case that must still load beside a broken file
rules: [R-DEAL-1]
ruleset: podkidnoy
players: 2
start: {seed: 1}
steps:
  - result: null
"""

# a position of docs/architecture.md's State: 36 cards, each once; seat 0 attacks seat 1
STATE = """\
    state:
      version: 1
      ruleset: {name: podkidnoy, options: {}}
      dealer: 1
      trump: 9H
      talon: [6C, 7C, 8C, 9C, TC, JC, QC, KC, AC, 6D, 7D, 8D, 9D, TD, JD, QD, KD, AD,
              6S, 7S, 8S, 9S, TS, 9H]
      discard: []
      players:
        - {hand: [6H, 7H, 8H, TH, JH, QH], known: [], team: null}
        - {hand: [KH, AH, JS, QS, KS, AS], known: [], team: null}
      table: []
      bout: {number: 1, attacker: 0, defender: 1, opener: 0, passed: [], taking: false,
             first_defence: null, shown: [], emptied: []}
      finished: []
      result: null
"""


def case(case_id: str, *, rules="[R-DEAL-1]", ruleset="podkidnoy", start="  start: {seed: 1}\n"):
    return (
        f"  - id: {case_id}\n"
        f"    description: x\n"
        f"    rules: {rules}\n"
        f"    ruleset: {ruleset}\n"
        f"    players: 2\n"
        f"  {start}"
        f"    steps:\n"
        f"      - result: null\n"
    )


def one_problem(path: Path, line: int, words: str, ok: tuple[str, ...] = ()) -> None:
    cases, problems = load_file(path)
    assert [c.id for c in cases] == list(ok)
    (problem,) = problems
    assert problem.path == path and problem.line == line, problem
    assert words in problem.message, problem


def test_an_alias_bomb_is_one_problem_and_the_rest_of_the_suite_loads(tmp_path):
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for this, previous in zip("bcdefghi", "abcdefgh"):
        lines.append(f"{this}: &{this} [" + ", ".join([f"*{previous}"] * 9) + "]")
    (tmp_path / "bomb.yaml").write_text("\n".join(lines) + "\n")
    (tmp_path / "good.yaml").write_text(GOOD)
    cases, problems = load_paths([tmp_path])
    assert [c.id for c in cases] == ["good-neighbour"]
    (problem,) = problems
    # the first alias that takes the total over the budget: 9, 81, 729 and 6561 nodes
    # (a's 10 nodes, then b's 91 ...) are reached on line 5
    assert problem.path.name == "bomb.yaml" and problem.line == 5, problem
    assert f"more than {MAX_ALIAS_NODES} nodes" in problem.message


def test_a_few_small_aliases_are_still_read(tmp_path):
    path = tmp_path / "aliases.yaml"
    path.write_text(
        "cases:\n"
        + case("first", start="  start: &s {seed: 1}\n")
        + case("second", start="  start: *s\n")
    )
    cases, problems = load_file(path)
    assert problems == [] and cases[1].start == {"seed": 1}


def test_yaml_nested_10000_deep_is_one_problem_at_its_line(tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text("id: x\ndescription: y\nrules: " + "[" * 10_000 + "]" * 10_000 + "\n")
    one_problem(path, 3, f"nested deeper than {MAX_YAML_DEPTH} levels")


def test_a_block_nesting_past_the_limit_is_refused_too(tmp_path):
    path = tmp_path / "blocks.yaml"
    path.write_text(
        "".join(f"{'  ' * depth}k{depth}:\n" for depth in range(80)) + "  " * 80 + "x\n"
    )
    one_problem(path, MAX_YAML_DEPTH + 1, "nested deeper")


@pytest.mark.parametrize(
    ("data", "line", "words"),
    [
        (b"id: x\ndescription: y\n\nrules: [caf\xe9]\n", 4, "not UTF-8 (byte 0xe9"),
        (b"id: x\ndescription: y\nrules:\n  - R-\x00BEAT-1\n", 4, "#x0000 is not allowed"),
        (b"id: x\n\n\n\n\ndescription: \x1b[31mred\n", 6, "#x001b is not allowed"),
    ],
)
def test_bad_bytes_are_reported_at_the_line_of_the_byte(tmp_path, data, line, words):
    path = tmp_path / "bytes.yaml"
    path.write_bytes(data)
    one_problem(path, line, words)


@pytest.mark.parametrize(
    ("bad", "line", "words"),
    [
        ({"rules": "[R-DEAL-1, R-NOPE-9]"}, 12, "R-NOPE-9 is not a rule of spec/rules.md"),
        ({"ruleset": "podkidnoj"}, 13, "podkidnoj"),
        ({"ruleset": "{preset: podkidnoy, overrides: {transfer: sideways}}"}, 13, "sideways"),
        ({"ruleset": "{preset: podkidnoy, overrides: {attack_limt: six}}"}, 13, "attack_limt"),
        ({"start": f"  start: {{deck: {DECK36.replace('AS', 'ZS')}, dealer: 1}}\n"}, 15, "'ZS'"),
        ({"start": f"  start: {{deck: {DECK36.replace('AS', 'KS')}, dealer: 1}}\n"}, 15, "twice"),
        ({"start": "  start: {deck: [6C, 7C]}\n"}, 15, "2 cards; this ruleset's deck has 36"),
    ],
)
def test_a_case_the_rules_forbid_is_a_broken_case_at_its_line(tmp_path, bad, line, words):
    path = tmp_path / "cases.yaml"
    path.write_text("cases:\n" + case("fine") + case("broken", **bad))
    one_problem(path, line, words, ok=("fine",))


def test_an_invalid_start_state_is_the_fixtures_fault_at_the_line_of_the_fault(tmp_path):
    valid = "  start:\n" + textwrap.indent(STATE, "  ")
    foreign = valid.replace("6H, 7H", "6H, 5H")  # no 5s in a 36-card deck (docs/architecture.md)
    twice = valid.replace("KH, AH", "KH, 6H")  # the 6H in both hands (R-DECK-5)
    path = tmp_path / "states.yaml"
    path.write_text("cases:\n" + case("valid", start=valid) + case("foreign", start=foreign))
    cases, problems = load_file(path)
    assert [c.id for c in cases] == ["valid"]
    (problem,) = problems
    lines = path.read_text().splitlines()
    hand_line = next(n for n, text in enumerate(lines, 1) if "[6H, 5H," in text)
    assert problem.case_id == "foreign" and problem.line == hand_line, problem
    assert (
        "start/state/players/0/hand" in problem.message and "not a valid state" in problem.message
    )
    path.write_text("cases:\n" + case("twice", start=twice))
    (problem,) = load_file(path)[1]
    assert "not a valid state" in problem.message


def test_a_refused_start_is_left_to_the_engine(tmp_path):
    """A start_refused case is wrong on purpose: its deck is not checked at load."""
    path = tmp_path / "refused.yaml"
    path.write_text(
        "id: refused\ndescription: x\nrules: [R-DEAL-1]\nruleset: podkidnoy\nplayers: 2\n"
        "start: {deck: [6C, 7C]}\nstart_refused: {code: bad_request}\n"
    )
    cases, problems = load_file(path)
    assert problems == [] and [c.id for c in cases] == ["refused"]


def test_an_integer_too_long_to_read_is_refused_at_its_line(tmp_path):
    path = tmp_path / "number.yaml"
    path.write_text("id: x\ndescription: y\nrules: [R-DEAL-1]\nplayers: " + "9" * 5000 + "\n")
    one_problem(path, 4, "a number of 5000 digits")


def test_overwrite_is_for_a_refused_start_and_points_into_the_state(tmp_path):
    """``start.overwrite`` spoils a refused start's state; an ordinary case may not have it, and a
    pointer into nothing is the fixture's fault at the pointer's line, the rest still loading."""
    start = "  start:\n" + textwrap.indent(STATE, "  ")
    refused = "    start_refused: {code: invalid_state, rule: R-PLAY-6, pointer: /ruleset/name}\n"

    def spoiled(case_id, pointer, refuse=True):
        spoiled_start = start + f"      overwrite: {{{pointer}: X}}\n"
        text = case(case_id, rules="[R-PLAY-6]", start=spoiled_start)
        return text.split("    steps:")[0] + refused if refuse else text

    path = tmp_path / "overwrite.yaml"
    path.write_text(
        "cases:\n"
        + spoiled("spoiled", "/ruleset/name")
        + spoiled("nowhere", "/ruleset/nothing/name")
        + spoiled("ordinary", "/ruleset/name", refuse=False)
    )
    cases, problems = load_file(path)
    assert [c.id for c in cases] == ["spoiled"], problems
    by_case = {p.case_id: p for p in problems}
    assert set(by_case) == {"nowhere", "ordinary"}, problems
    lines = path.read_text().splitlines()
    pointer_line = next(n for n, t in enumerate(lines, 1) if "/ruleset/nothing/name" in t)
    assert by_case["nowhere"].line == pointer_line
    assert "no object at /ruleset/nothing" in by_case["nowhere"].message
    assert "overwrite" in by_case["ordinary"].message
