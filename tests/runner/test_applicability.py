"""Gating by dependence (conformance/suite/applicability.py): a case runs on an engine whenever its
verdict does not depend on an option value the engine does not claim.

The cases here are worked from the rules: a 2-player, 36-card deal in which seat 1 holds the
lowest trump (6H) and so attacks first (R-ROLE-1), and holds a second seven (7S) to throw in.
Under ``throw_in_timing: any_time`` seat 1 may throw in 7S before the defender beats 7C; under
``after_first_beat`` not before a card is beaten (R-THROW-2). ``next_game`` only matters to a
game that follows another (R-MATCH-2), so no step of this deal depends on it.
"""

from __future__ import annotations

import dataclasses
import sys
import textwrap

import pytest

from conformance.cli import main
from conformance.engines.gating import Support
from conformance.reports.report import read_report
from conformance.suite.applicability import decide
from conformance.suite.cases import CaseRunner
from conformance.suite.loader import load_file
from reference_impl import rulesets

from .helpers import ENGINES

sys.path.insert(0, str(ENGINES))
import narrow_engine

#: seat 0 gets the even indices, seat 1 the odd ones (dealer 1 deals from seat 0); index 12 is
#: the trump card AH; the rest is the talon.
DECK = [
    "6C",
    "7C",
    "8C",
    "7S",
    "TC",
    "9C",
    "QC",
    "6H",
    "AC",
    "KC",
    "9S",
    "JD",
    "AH",
    "6D",
    "7D",
    "8D",
    "9D",
    "TD",
    "QD",
    "KD",
    "AD",
    "7H",
    "8H",
    "9H",
    "TH",
    "JH",
    "QH",
    "KH",
    "6S",
    "8S",
    "TS",
    "JS",
    "QS",
    "KS",
    "AS",
    "JC",
]

CASES = """
cases:
  - id: gate-throw-in-before-a-beat-forbidden
    description: Under after_first_beat nothing is thrown in before the first beat (R-THROW-2).
    rules: [R-THROW-2]
    options: {throw_in_timing: after_first_beat}
    ruleset: {preset: podkidnoy, overrides: {throw_in_timing: after_first_beat}}
    players: 2
    start: {deck: DECK, dealer: 1}
    steps:
      - move: {player: 1, action: attack, cards: [7C]}
      - legal_excludes: [{player: 1, action: throw_in, card: 7S}]
  - id: gate-throw-in-before-a-beat-allowed
    description: >
      Under any_time the main attacker may throw in a card of a rank on the table before any beat
      (R-THROW-1, R-THROW-2); next_game cannot matter to a first game (R-MATCH-2).
    rules: [R-THROW-2]
    ruleset: {preset: podkidnoy, overrides: {next_game: fool_right}}
    players: 2
    start: {deck: DECK, dealer: 1}
    steps:
      - move: {player: 1, action: attack, cards: [7C]}
      - legal_includes: [{player: 1, action: throw_in, card: 7S}]
      - move: {player: 1, action: throw_in, card: 7S}
      - expect: {/bout/attacker: 1, /bout/defender: 0}
"""


@pytest.fixture
def cases(tmp_path):
    path = tmp_path / "gate.yaml"
    path.write_text(textwrap.dedent(CASES).replace("DECK", "[" + ", ".join(DECK) + "]"))
    loaded, problems = load_file(path)
    assert problems == []
    return {case.id: case for case in loaded}


def narrow_support() -> Support:
    return Support.from_hello(narrow_engine.make().hello())


def test_a_case_that_depends_on_an_unclaimed_value_is_unsupported(cases):
    engine = narrow_engine.make()
    result = CaseRunner(engine, narrow_support()).run(
        cases["gate-throw-in-before-a-beat-forbidden"]
    )
    assert result.outcome == "unsupported"
    assert result.applicability.blockers == ("throw_in_timing=after_first_beat",)
    assert "throw_in_timing=after_first_beat" in result.message
    assert result.to_json()["blockers"] == ["throw_in_timing=after_first_beat"]


def test_a_case_that_does_not_depend_on_it_runs_with_the_claimed_value(cases):
    result = CaseRunner(narrow_engine.make(), narrow_support()).run(
        cases["gate-throw-in-before-a-beat-allowed"]
    )
    assert result.outcome == "passed", result.message
    assert result.applicability.substituted == {"next_game": "fool_left"}
    assert result.ruleset["options"]["next_game"] == "fool_left"
    assert result.to_json()["substituted"] == {"next_game": "fool_left"}


def test_an_engine_playing_an_unclaimed_value_where_it_cannot_matter_passes(cases):
    engine = narrow_engine.make_one_at_a_time()  # no bout closes in these cases
    runner = CaseRunner(engine, narrow_support())
    assert runner.run(cases["gate-throw-in-before-a-beat-allowed"]).outcome == "passed"


def test_the_expected_answers_stay_the_cases_own(cases):
    """The reference only decides applicability: an engine that gets the case wrong under the
    substituted ruleset fails it, whatever the reference would answer."""

    class NoThrowIns(narrow_engine.Narrow):
        def legal_moves(self, state):
            moves = super().legal_moves(state)
            return [m for m in moves if m.get("action") != "throw_in"]

    result = CaseRunner(NoThrowIns(), narrow_support()).run(
        cases["gate-throw-in-before-a-beat-allowed"]
    )
    assert result.outcome == "failed" and "must be legal" in result.message


def test_decide_on_claims_alone():
    catalog, defaults = rulesets.catalog_options(), rulesets.default_options()
    support = Support({"36": frozenset({2})}, {"attack_limit": frozenset({"six", "hand"})})
    options = {**defaults, "attack_limit": "six_five_first", "opening": "single"}
    tried = []

    def holds(substitution):
        tried.append(dict(substitution))
        return substitution.get("attack_limit") == "hand"

    verdict = decide(options, 2, support, holds, catalog=catalog, defaults=defaults)
    assert verdict.runs and verdict.substituted == {"attack_limit": "hand", "opening": "same_rank"}
    assert tried[0] == {"attack_limit": "hand", "opening": "same_rank"}  # catalog order
    blocked = decide(options, 2, support, lambda s: False, catalog=catalog, defaults=defaults)
    assert not blocked.runs
    assert blocked.blockers == ("attack_limit=six_five_first", "opening=single")
    one = decide(
        options, 2, support, lambda s: "opening" not in s, catalog=catalog, defaults=defaults
    )
    assert one.blockers == ("opening=single",)  # attack_limit alone could be substituted
    asked = len(tried)
    counted = decide(options, 3, support, holds, catalog=catalog, defaults=defaults)
    assert counted.blockers == ("3 players with deck 36",)
    assert len(tried) == asked  # no substitution stands in for a player count
    deck = decide(
        {**options, "deck_size": 24},
        2,
        support,
        holds,
        catalog=catalog,
        defaults=defaults,
        count=False,
    )
    assert deck.blockers == ("deck 24",)


@pytest.mark.slow
def test_a_whole_run_of_a_narrow_engine_runs_its_share_and_fails_nothing(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(ENGINES))
    report = tmp_path / "narrow.jsonl"
    status = main(["run", "--engine", "python:narrow_engine:make", "--json", str(report)])
    loaded = read_report(report)
    outcomes = [case["outcome"] for case in loaded["cases"]]
    assert "failed" not in outcomes and "error" not in outcomes
    assert status == 3  # incomplete: most of the suite is outside 2 players and 36 cards
    substituted = [c for c in loaded["cases"] if c.get("substituted")]
    assert any(c["kind"] == "scenario" for c in substituted)
    assert all(c.get("blockers") for c in loaded["cases"] if c["outcome"] == "unsupported")
    summary = loaded["summary"]
    assert summary["executed"] == outcomes.count("passed") > 0
    assert summary["unlocks"][0]["cases"] >= summary["unlocks"][-1]["cases"]


def test_protocol_features_an_engine_declines_are_never_sent():
    """supports.dealer / supports.match false (P-16): a deal by another seat than N-1, or a next
    game of a match, is unsupported naming the feature; the fuzzer does not plan one."""
    from conformance.engines.gating import HelloError
    from conformance.tools.fuzz import FuzzConfig, game_choices, plan_game

    hello = narrow_engine.make().hello()
    hello["supports"].update(dealer=False, match=False)
    support = Support.from_hello(hello)
    assert support.declined(2, {"dealer": 1}) == ()
    assert support.declined(2, {"dealer": 0}) == ("dealer",)
    assert support.declined(2, {"previous": {"dealer": 1}}) == ("match", "dealer")
    with pytest.raises(HelloError, match="supports.match"):
        Support.from_hello({**hello, "supports": {**hello["supports"], "match": "no"}})
    config = FuzzConfig(games=40)
    choices, _ = game_choices(config, [None, support])
    plans = [plan_game(config, index, choices, [None, support]) for index in range(40)]
    assert all("previous" not in plan.deal and plan.deal["dealer"] == 1 for plan in plans)


def test_a_case_dealt_by_another_seat_needs_the_dealer_feature(cases):
    hello = narrow_engine.make().hello()
    hello["supports"]["dealer"] = False
    support = Support.from_hello(hello)
    case = cases["gate-throw-in-before-a-beat-allowed"]  # dealt by seat 1 = N-1: runs
    assert CaseRunner(narrow_engine.make(), support).run(case).ok
    moved = dataclasses.replace(case, start={**case.start, "dealer": 0})
    result = CaseRunner(narrow_engine.make(), support).run(moved)
    assert result.outcome == "unsupported" and result.applicability.blockers == ("dealer",)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ({"53": [2, 3]}, r"supports.players\['53'\]: no such deck"),
        ({"36": [2, 3]}, None),
        ({"24": [2, 5]}, r"supports.players\['24'\] claims \[5\]: .* 2 to 4 players \(R-DECK-4\)"),
        ({"36x2": [1, 2]}, r"claims \[1\]"),
        ({"52": list(range(2, 9))}, None),
    ],
)
def test_a_hello_claiming_a_deck_or_count_the_rules_do_not_have_is_refused(players, message):
    """A claim outside the rules would gate its cases away as unsupported and pass in silence
    (two automatic faults of seed 1299709 did: hello's decks 53 and a swapped table of counts):
    the runner refuses such a hello, naming the key and the rule."""
    from conformance.engines.gating import HelloError

    hello = narrow_engine.make().hello()
    hello = {**hello, "supports": {**hello["supports"], "players": players}}
    if message is None:
        assert Support.from_hello(hello).players == {k: frozenset(v) for k, v in players.items()}
    else:
        with pytest.raises(HelloError, match=message):
            Support.from_hello(hello)
