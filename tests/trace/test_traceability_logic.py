"""The traceability module on small synthetic suites (fixtures and features written to tmp_path),
so its counting is proven apart from the real suite: what makes a case positive, negative,
dependent or discriminating, which gaps and problems it reports, and that the gate can fail."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conformance.tools.traceability import (
    FEATURE,
    FIXTURE,
    INCONSISTENT,
    UNKNOWN,
    UNREADABLE,
    SpecIndex,
    build,
    collect,
    feature_traces,
    fixture_traces,
    render_markdown,
    render_text,
    rules_from_markdown,
)

# A spec of four rules (one descriptive) and two options, with real option names so that fixture
# rulesets resolve against the real catalog.
SPEC = SpecIndex(
    rules={
        "R-ATTACK-1": "The opening attack",
        "R-ATTACK-2": "One card or several of one rank",
        "R-BEAT-1": "What beats what",
        "R-DECK-2": "Rank order",
    },
    options={"opening": ("single", "same_rank"), "beat_order": ("any", "earliest_first")},
    defaults={"opening": "same_rank", "beat_order": "any"},
    descriptive={"R-DECK-2": "the rank order"},
)

# A two-player position: seat 0 attacks seat 1, trumps are hearts, the talon is empty.
STATE = """\
    start:
      state:
        version: 1
        ruleset: {name: podkidnoy, options: {}}
        dealer: 1
        trump: 6H
        talon: []
        discard: [6C, 7C, 8C, 9C, TC, JC, QC, KC, AC, 6D, 7D, 8D, 9D, TD, JD, QD, KD, AD, 7H, 8H, 9H,
                  TH, JH, QH, KH, AH, 6S, 7S, 8S, 9S, TS, JS, QS, KS]
        players:
          - {hand: [7D], known: [], team: null}
          - {hand: [6H, AS], known: [6H], team: null}
        table: []
        bout: {number: 9, attacker: 0, defender: 1, opener: 0, passed: [], taking: false,
               first_defence: null, shown: [], emptied: []}
        finished: []
        result: null
"""


def fixture(case_id: str, rules: str, steps: str, *, options: str = "", ruleset: str = "") -> str:
    """One fixture case (a YAML list item) with the given rules line, steps and options line."""
    lines = [
        f"  - id: {case_id}",
        "    description: synthetic",
        f"    rules: {rules}",
    ]
    if options:
        lines.append(f"    options: {options}")
    lines += [
        f"    ruleset: {ruleset or '{preset: podkidnoy}'}",
        "    players: 2",
        textwrap.indent(textwrap.dedent(STATE), "    ").rstrip(),
        "    steps:",
        textwrap.indent(textwrap.dedent(steps).strip(), "      "),
    ]
    return "\n".join(lines)


def write_fixtures(tmp_path: Path, *cases: str, name: str = "cases.yaml") -> Path:
    folder = tmp_path / "fixtures"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("cases:\n" + "\n".join(cases) + "\n", encoding="utf-8")
    return folder


def write_feature(tmp_path: Path, text: str, name: str = "area.feature") -> Path:
    folder = tmp_path / "features"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


def fixture_trace(tmp_path: Path, *cases: str):
    traces, problems = fixture_traces([write_fixtures(tmp_path, *cases)], SPEC)
    return {t.id: t for t in traces}, problems


# ------------------------------------------------------------------------------ fixtures


def test_an_accepted_move_is_positive_only(tmp_path):
    traces, problems = fixture_trace(
        tmp_path, fixture("a", "[R-ATTACK-1]", "- move: {player: 0, action: attack, cards: [7D]}")
    )
    assert problems == []
    assert traces["a"].source == FIXTURE
    assert traces["a"].positive == {"R-ATTACK-1"}
    assert traces["a"].negative == set()
    assert traces["a"].cites == {"R-ATTACK-1"}


def test_legal_includes_is_positive_and_legal_excludes_negative(tmp_path):
    traces, _ = fixture_trace(
        tmp_path,
        fixture(
            "inc", "[R-ATTACK-1]", "- legal_includes: [{player: 0, action: attack, cards: [7D]}]"
        ),
        fixture("exc", "[R-ATTACK-1]", "- legal_excludes: [{player: 1, action: take}]"),
    )
    assert (traces["inc"].positive, traces["inc"].negative) == ({"R-ATTACK-1"}, set())
    assert (traces["exc"].positive, traces["exc"].negative) == (set(), {"R-ATTACK-1"})


def test_an_exact_legal_set_is_both_unless_it_is_empty(tmp_path):
    traces, _ = fixture_trace(
        tmp_path,
        fixture("set", "[R-ATTACK-1]", "- legal: [{player: 0, action: attack, cards: [7D]}]"),
        fixture("none", "[R-ATTACK-1]", "- legal: []"),
    )
    assert traces["set"].positive == traces["set"].negative == {"R-ATTACK-1"}
    assert (traces["none"].positive, traces["none"].negative) == (set(), {"R-ATTACK-1"})


def test_a_refusal_is_negative_only_for_the_rule_it_names(tmp_path):
    steps = """\
        - refuse: {player: 1, action: take}
          rule: R-ATTACK-1
    """
    traces, problems = fixture_trace(tmp_path, fixture("r", "[R-BEAT-1]", steps))
    assert problems == []
    trace = traces["r"]
    assert trace.negative == {"R-ATTACK-1"}  # not R-BEAT-1, which the case lists
    assert trace.positive == set()
    assert trace.cites == {"R-ATTACK-1", "R-BEAT-1"}


def test_a_refusal_by_code_alone_counts_for_no_rule(tmp_path):
    steps = """\
        - refuse: {player: 7, action: take}
          code: bad_request
    """
    traces, _ = fixture_trace(tmp_path, fixture("c", "[R-BEAT-1]", steps))
    assert traces["c"].negative == set() and traces["c"].positive == set()


def test_state_checks_alone_are_neither_but_a_deal_start_is_positive(tmp_path):
    traces, _ = fixture_trace(tmp_path, fixture("e", "[R-BEAT-1]", "- expect: {/dealer: 1}"))
    assert (traces["e"].positive, traces["e"].negative) == (set(), set())
    dealt = tmp_path / "dealt"
    dealt.mkdir()
    (dealt / "deal.yaml").write_text(
        textwrap.dedent(
            """\
            id: dealt
            description: synthetic
            rules: [R-BEAT-1]
            ruleset: podkidnoy
            players: 2
            start: {seed: 7}
            steps:
              - expect: {/dealer: 1}
            """
        ),
        encoding="utf-8",
    )
    traces, problems = fixture_traces([dealt], SPEC)
    assert problems == []
    assert traces[0].positive == {"R-BEAT-1"} and traces[0].negative == set()


def test_options_discriminated_are_those_of_the_options_mapping(tmp_path):
    traces, problems = fixture_trace(
        tmp_path,
        fixture(
            "o",
            "[R-ATTACK-2]",
            "- legal: [{player: 0, action: attack, cards: [7D]}]",
            options="{opening: single}",
            ruleset="{preset: podkidnoy, overrides: {opening: single, beat_order: earliest_first}}",
        ),
    )
    assert problems == []
    assert traces["o"].options == {"opening": "single"}  # overrides alone do not count


def test_unknown_rule_ids_are_problems_where_they_are_cited(tmp_path):
    steps = """\
        - refuse: {player: 1, action: take}
          rule: R-BEAT-9
    """
    traces, problems = fixture_trace(tmp_path, fixture("u", "[R-ATTACK-7, R-BEAT-1]", steps))
    messages = [p.message for p in problems]
    assert all(p.kind == UNKNOWN for p in problems)
    assert len(problems) == 2
    assert "rules: cites 'R-ATTACK-7'" in messages[0]
    assert "refuse ... rule: cites 'R-BEAT-9'" in messages[1]
    assert "cases.yaml" in problems[0].where and "(u)" in problems[0].where
    assert traces["u"].cites == {"R-BEAT-1"} and traces["u"].negative == set()


def test_unknown_options_and_values_are_problems(tmp_path):
    _, problems = fixture_trace(
        tmp_path,
        fixture("v", "[R-ATTACK-2]", "- legal: []", options="{opening: triple, colour: red}"),
    )
    text = "\n".join(p.message for p in problems)
    assert "opening=triple, not a value of opening (single, same_rank)" in text
    assert "option 'colour'" in text


def test_options_must_be_the_values_the_ruleset_plays(tmp_path):
    _, problems = fixture_trace(
        tmp_path,
        fixture("w", "[R-ATTACK-2]", "- legal: []", options="{opening: single}"),
    )
    assert [p.kind for p in problems] == [INCONSISTENT]
    assert "options: says opening=single but its ruleset plays opening=same_rank" in str(
        problems[0]
    )


def test_a_broken_fixture_file_is_an_unreadable_problem(tmp_path):
    folder = tmp_path / "fixtures"
    folder.mkdir()
    (folder / "bad.yaml").write_text("cases: [\n", encoding="utf-8")
    traces, problems = fixture_traces([folder], SPEC)
    assert traces == []
    assert [p.kind for p in problems] == [UNREADABLE]
    assert "bad.yaml" in problems[0].where


# ------------------------------------------------------------------------------ features

#: A position the sketch scenarios below start from: player 0 attacks, player 1 defends, the
#: talon is empty. A scenario must compile to a case (its Given steps a valid position) for the
#: gate to count what it shows.
ATTACKING = """\
          Given a 2-player podkidnoy game
          And the trump suit is diamonds
          And the talon is empty"""

BEATING = ATTACKING + """
          And player 0 holds JH, JS, QS
          And player 1 holds 7C, JC
          And player 0 has attacked with 9C"""

FEATURE_TEXT = f"""\
    @ATTACK @R-ATTACK-1
    Feature: Attacking

      Rule: Openings
        @R-ATTACK-2
        Scenario Outline: Leading sevens with opening <opening>
{ATTACKING}
          And player 0 holds 7C, 7H, 9H
          And player 1 holds 7S, JC, 8S
          And the option opening is <opening>
          Then player 0 <two> attack with 7C and 7H

          Examples:
            | opening   | two     |
            | same_rank | may     |
            | single    | may not |

      @opt:beat_order=earliest_first
      Rule: Beating
        @R-BEAT-1
        Scenario: A low card is refused
{BEATING}
          When the defender beats 9C with 7C
          Then the move is refused citing R-BEAT-1
          When player 0 passes
          Then the move is refused

        @R-BEAT-1
        Scenario: A higher card beats
{BEATING}
          When the defender beats 9C with JC
          Then the table holds 9C beaten by JC
"""


def feature_trace(tmp_path: Path, text: str = FEATURE_TEXT):
    traces, problems = feature_traces([write_feature(tmp_path, text)], SPEC)
    return {t.id: t for t in traces}, problems


def test_outline_rows_are_cases_with_their_option_values(tmp_path):
    traces, problems = feature_trace(tmp_path)
    assert problems == []
    same = traces["area-leading-sevens-with-opening-same-rank"]
    single = traces["area-leading-sevens-with-opening-single"]
    assert same.source == FEATURE
    assert same.options == {"opening": "same_rank"} and single.options == {"opening": "single"}
    # feature tag and scenario tag both cited
    assert same.cites == single.cites == {"R-ATTACK-1", "R-ATTACK-2"}
    assert (same.positive, same.negative) == ({"R-ATTACK-1", "R-ATTACK-2"}, set())
    assert (single.positive, single.negative) == (set(), {"R-ATTACK-1", "R-ATTACK-2"})


def test_rule_tags_give_options_and_refusals_count_for_their_rule(tmp_path):
    traces, _ = feature_trace(tmp_path)
    refused = traces["area-a-low-card-is-refused"]
    assert refused.options == {"beat_order": "earliest_first"}  # from the Rule's tag
    assert refused.negative == {"R-BEAT-1"}
    # both moves were refused: nothing was shown allowed
    assert refused.positive == set()
    accepted = traces["area-a-higher-card-beats"]
    assert accepted.positive == {"R-ATTACK-1", "R-BEAT-1"}
    assert accepted.negative == set()


def test_exact_sets_and_no_move_steps(tmp_path):
    text = f"""\
        Feature: Sets
          @R-ATTACK-1
          Scenario: Only attacks
{ATTACKING}
          And player 0 holds 7C, 9H
          And player 1 holds 7S, JC
          Then player 0 may only attack with 7C or attack with 9H
          @R-BEAT-1
          Scenario: Nobody
{ATTACKING}
          And player 0 holds 7C, 9H
          And player 1 holds 7S, JC
          Then player 1 has no move
          @R-ATTACK-2
          Scenario: Dealing
            Given a 2-player podkidnoy game
            And the deck is shuffled with seed 7
            When the game is dealt
            Then player 0 holds 6 cards
          @R-DECK-2
          Scenario: Too many players
            Given a 9-player podkidnoy game
            When the game is dealt
            Then the game cannot be set up
    """
    traces, problems = feature_trace(tmp_path, text)
    assert problems == []
    assert (
        traces["area-only-attacks"].positive
        == traces["area-only-attacks"].negative
        == {"R-ATTACK-1"}
    )
    assert (traces["area-nobody"].positive, traces["area-nobody"].negative) == (
        set(),
        {"R-BEAT-1"},
    )
    assert traces["area-dealing"].positive == {"R-ATTACK-2"}
    assert traces["area-dealing"].negative == set()
    # a refused set-up shows no rule allowing a deal; like a fixture's start_refused, it shows
    # forbidding only for a rule it cites, and "the game cannot be set up" cites none
    assert traces["area-too-many-players"].positive == set()
    assert traces["area-too-many-players"].negative == set()


def test_feature_problems_unknown_tags_examples_tags_and_hidden_scenarios(tmp_path):
    text = """\
        @R-ATTACK-9 @opt:opening=triple @opt:broken
        Feature: Problems
          Scenario Outline: Rows <x>
            Given a 2-player podkidnoy game
            And the option colour is <x>
            Then player 0 holds 1 card

            @opt:opening=single
            Examples:
              | x   |
              | red |

          Scenario: Twice
            Given a 2-player podkidnoy game
          Scenario: Twice
            Given a 2-player podkidnoy game
    """
    traces, problems = feature_trace(tmp_path, text)
    text_of = "\n".join(str(p) for p in problems)
    assert "tag @R-ATTACK-9 cites 'R-ATTACK-9'" in text_of
    assert "tag @opt:opening=triple names opening=triple" in text_of
    assert "tag @opt:broken is not @opt:<option>=<value>" in text_of
    assert "step names option 'colour'" in text_of
    assert "on Examples is never applied" in text_of
    hidden = [p for p in problems if p.kind == UNREADABLE and "Twice" in p.message]
    assert len(hidden) == 1 and hidden[0].where.endswith("area.feature:13")
    uncounted = [p for p in problems if "compiles to no case" in p.message]
    assert uncounted and all(p.kind == UNREADABLE for p in uncounted)
    assert all(not t.cites and not t.options for t in traces.values())


def test_a_refusal_citing_no_rule_of_the_spec_is_a_problem(tmp_path):
    text = f"""\
        Feature: Refusals
          @R-BEAT-1
          Scenario: A low card
{BEATING}
          When the defender beats 9C with 7C
          Then the move is refused citing R-BEAT-7
    """
    traces, problems = feature_trace(tmp_path, text)
    assert ["refusal cites 'R-BEAT-7'" in p.message for p in problems] == [True]
    assert traces["area-a-low-card"].negative == set()


def test_a_feature_that_does_not_parse_is_unreadable(tmp_path):
    text = "Feature: x\n  Scenario: a\n    Given b\n  Scenarioo: c\n    Foo\n"
    folder = write_feature(tmp_path, text)
    traces, problems = feature_traces([folder], SPEC)
    assert traces == []
    assert [p.kind for p in problems] == [UNREADABLE]


# ------------------------------------------------------------------------------ the gate


def _suite(tmp_path: Path, *cases: str, feature: str | None = None):
    fixtures = write_fixtures(tmp_path, *cases)
    features = write_feature(tmp_path, feature or "Feature: empty\n")
    return collect([fixtures], [features], SPEC, tmp_path)


COMPLETE = (
    fixture(
        "attack-both",
        "[R-ATTACK-1, R-ATTACK-2, R-BEAT-1]",
        "- legal: [{player: 0, action: attack, cards: [7D]}]",
        options="{opening: single, beat_order: earliest_first}",
        ruleset="{preset: podkidnoy, overrides: {opening: single, beat_order: earliest_first}}",
    ),
    fixture(
        "defaults",
        "[R-DECK-2]",
        "- expect: {/dealer: 1}",
        options="{opening: same_rank, beat_order: any}",
    ),
)


def test_a_complete_suite_passes_the_gate(tmp_path):
    coverage = _suite(tmp_path, *COMPLETE)
    assert coverage.rule_gaps == [] and coverage.option_gaps == [] and coverage.problems == []
    assert coverage.ok
    assert coverage.counts() == {
        "fixtures": 2,
        "features": 0,
        "rules": 4,
        "rules_covered": 4,
        "values": 4,
        "values_covered": 4,
    }


def test_the_gate_names_each_missing_side_and_value(tmp_path):
    coverage = _suite(
        tmp_path,
        fixture("only-move", "[R-ATTACK-1]", "- move: {player: 0, action: attack, cards: [7D]}"),
        fixture("only-exclude", "[R-ATTACK-2]", "- legal_excludes: [{player: 1, action: take}]"),
    )
    neg = "a negative case (one where the rule forbids something)"
    pos = "a positive case (one where the rule allows something)"
    assert coverage.rule_gaps == [
        f"R-ATTACK-1 (The opening attack): missing {neg}",
        f"R-ATTACK-2 (One card or several of one rank): missing {pos}",
        f"R-BEAT-1 (What beats what): missing {pos} and {neg}",
        "R-DECK-2 (Rank order): missing a case that depends on it",
    ]
    assert [gap.split(":")[0] for gap in coverage.option_gaps] == [
        "opening=single",
        "opening=same_rank",
        "beat_order=any",
        "beat_order=earliest_first",
    ]
    assert not coverage.ok


def test_a_descriptive_rule_needs_only_a_dependent_case(tmp_path):
    coverage = _suite(tmp_path, fixture("dep", "[R-DECK-2]", "- expect: {/dealer: 1}"))
    row = next(r for r in coverage.rules if r.rule == "R-DECK-2")
    assert row.descriptive and row.missing == [] and row.cases == ["dep"]
    assert row.positive == row.negative == []


def test_features_and_fixtures_add_up(tmp_path):
    feature = f"""\
        Feature: Beating
          @R-BEAT-1 @opt:beat_order=any
          Scenario: A low card is refused
{BEATING}
          When the defender beats 9C with 7C
          Then the move is refused citing R-BEAT-1
    """
    coverage = _suite(
        tmp_path,
        fixture("beat-ok", "[R-BEAT-1]", "- move: {player: 1, action: take}"),
        feature=feature,
    )
    row = next(r for r in coverage.rules if r.rule == "R-BEAT-1")
    assert row.positive == ["beat-ok"]
    assert row.negative == ["area-a-low-card-is-refused"]
    assert row.missing == []
    value = next(o for o in coverage.options if (o.option, o.value) == ("beat_order", "any"))
    assert value.cases == ["area-a-low-card-is-refused"] and value.default


def test_a_descriptive_entry_that_is_not_a_rule_is_a_problem(tmp_path):
    spec = SpecIndex(rules=SPEC.rules, options={}, descriptive={"R-DECK-9": "gone"})
    coverage = build([], [], spec)
    assert [str(p) for p in coverage.problems] == [
        "conformance/tools/traceability/spec.py DESCRIPTIVE: R-DECK-9 is not a rule of the spec"
    ]


def test_renderings_show_the_table_and_the_gaps(tmp_path):
    coverage = _suite(
        tmp_path,
        fixture("only-move", "[R-ATTACK-1]", "- move: {player: 0, action: attack, cards: [7D]}"),
    )
    text = render_text(coverage)
    assert "R-ATTACK-1" in text and "MISSING a negative case" in text
    # four rules lack something (R-ATTACK-1 its negative side) and no option value is played
    assert len(coverage.rule_gaps) == 4 and len(coverage.option_gaps) == 4
    assert "Gaps: 8" in text
    markdown = render_markdown(coverage)
    for rule in SPEC.rules:
        assert f"### {rule}" in markdown
    assert "- positive: `only-move`" in markdown
    assert "| `opening` | `same_rank` (default) | none |" in markdown
    complete = render_text(_suite(tmp_path / "complete", *COMPLETE))
    assert "Gaps: none" in complete


def test_rule_headings_are_read_in_order():
    text = "# Rules\n### R-DECK-1 Deck composition\ntext\n### R-BEAT-1  What beats what \n## x\n"
    assert rules_from_markdown(text) == {
        "R-DECK-1": "Deck composition",
        "R-BEAT-1": "What beats what",
    }


@pytest.mark.parametrize("rule", sorted(SpecIndex.load().descriptive))
def test_the_descriptive_list_names_rules_of_the_spec(rule):
    assert rule in SpecIndex.load().rules


def test_outline_rows_with_one_name_are_told_apart_by_their_values(tmp_path):
    text = f"""\
        Feature: Rows
          @R-ATTACK-2
          Scenario Outline: Leading sevens
{ATTACKING}
          And player 0 holds 7C, 7H
          And player 1 holds 7S, JC
          And the option opening is <opening>
          Then player 0 may attack with 7C

            Examples:
              | opening   |
              | same_rank |
              | single    |
    """
    traces, problems = feature_trace(tmp_path, text)
    assert problems == []
    assert sorted(traces) == [
        "area-leading-sevens-opening-same-rank",
        "area-leading-sevens-opening-single",
    ]


def test_the_coverage_command_prints_the_table_and_fails_on_gaps(tmp_path, capsys):
    from conformance.cli import main

    fixtures = write_fixtures(
        tmp_path, fixture("only-move", "[R-ATTACK-1]", "- move: {player: 1, action: take}")
    )
    features = write_feature(tmp_path, "Feature: empty\n")
    argv = ["coverage", "--fixtures", str(fixtures), "--features", str(features)]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert out.startswith("Traceability: 1 fixture cases, 0 feature scenarios")
    assert "R-ATTACK-1" in out and "MISSING a negative case" in out
    assert main([*argv, "--markdown"]) == 1
    assert "- positive: `only-move`" in capsys.readouterr().out
