"""Move phrases, the portable shuffle and the gate that skips unclaimed scenarios."""

import pytest

from conformance.bdd import features_dir
from conformance.bdd.context import ScenarioGame
from conformance.bdd.phrases import PhraseError, describe, parse_move, split_alternatives
from conformance.contract.cards import deck
from conformance.contract.shuffle import shuffle, splitmix64
from conformance.engines.base import Engine


@pytest.mark.parametrize(
    ("phrase", "move"),
    [
        ("attacks with 9S", {"action": "attack", "cards": ["9S"]}),
        ("attack with 7D and 7C", {"action": "attack", "cards": ["7C", "7D"]}),
        ("throws in JC", {"action": "throw_in", "card": "JC"}),
        ("beats 9S with JS", {"action": "beat", "target": "9S", "card": "JS"}),
        ("takes", {"action": "take"}),
        ("pass", {"action": "pass"}),
        ("transfers with 7H, 7D", {"action": "transfer", "cards": ["7D", "7H"]}),
        ("shows the trump 7S2", {"action": "show_trump", "card": "7S2"}),
    ],
)
def test_phrases_become_contract_moves(phrase, move):
    assert parse_move(phrase, 2) == {"player": 2, **move}
    assert describe(parse_move(phrase, 2)).startswith("player 2 ")


def test_a_bad_phrase_says_what_to_write():
    with pytest.raises(PhraseError, match="beats 9S with JS"):
        parse_move("covers 9S", 0)
    with pytest.raises(PhraseError, match="not a card"):
        parse_move("throws in 1X", 0)


def test_alternatives_split_on_or():
    assert split_alternatives("beat 7C with 9C or take") == ["beat 7C with 9C", "take"]


def test_splitmix64_matches_the_spec_test_vector():
    stream = splitmix64(0)
    assert [next(stream) for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_shuffle_is_a_permutation_and_depends_on_the_seed():
    cards = deck(36)
    assert sorted(shuffle(cards, 42)) == sorted(cards)
    assert shuffle(cards, 42) == shuffle(cards, 42) != shuffle(cards, 43)


class ClaimsLittle(Engine):
    """An engine of two-player podkidnoy defaults only; it must never be asked for a game."""

    def hello(self):
        return {
            "protocol": "1",
            "engine": {"name": "little", "version": "0"},
            "supports": {"players": {"36": [2]}, "options": {}},
        }

    def new_game(self, *args, **kwargs):
        raise AssertionError("an unclaimed scenario must be skipped before new_game")

    def legal_moves(self, state):
        raise AssertionError

    def apply(self, state, move):
        raise AssertionError


#: Written from the rules. Under pile_on forbidden the take closes the bout at once, so player 0
#: may not pile on 7D (R-TAKE-2); under allowed he may: the verdict depends on the value.
UNCLAIMED = """\
Feature: Outside the claim
  Scenario: Three players
    Given a 3-player podkidnoy game
    And the trump suit is hearts
    And player 0 holds 7C
    And player 1 holds 8C
    And player 2 holds 9C
    And 32 cards have been discarded
    Then player 0 may attack with 7C

  @opt:pile_on=forbidden
  Scenario: No piling on, by a tag
    Given a 2-player podkidnoy game
    And the trump suit is hearts
    And the talon is empty
    And player 0 holds 7C, 7D, KD
    And player 1 holds 8S, JS, QS
    When player 0 attacks with 7C
    And the defender takes
    Then player 0 may not throw in 7D

  Scenario: No piling on, by a step
    Given a 2-player podkidnoy game
    And the option pile_on is forbidden
    And the trump suit is hearts
    And the talon is empty
    And player 0 holds 7C, 7D, KD
    And player 1 holds 8S, JS, QS
    When player 0 attacks with 7C
    And the defender takes
    Then player 0 may not throw in 7D
"""


@pytest.mark.parametrize("index", [0, 1, 2])
def test_scenarios_outside_the_claim_are_skipped_not_failed(tmp_path, index):
    from conformance.bdd.execute import call_step
    from conformance.bdd.model import read_feature

    path = tmp_path / "unclaimed.feature"
    path.write_text(UNCLAIMED, encoding="utf-8")
    scenario = read_feature(path).scenarios[index]
    game = ScenarioGame(ClaimsLittle(), dict(scenario.tag_options), scenario=scenario)
    with pytest.raises(pytest.skip.Exception, match="unsupported"):
        for step in scenario.steps:
            call_step(step, game)
    assert game.case_result.outcome == "unsupported" and not game.applicability.runs


def test_a_step_may_not_contradict_a_tag():
    game = ScenarioGame(ClaimsLittle(), {"pile_on": "forbidden"})
    with pytest.raises(ValueError, match="tagged forbidden"):
        game.set_option("pile_on", "allowed")


def test_features_are_found_in_a_checkout():
    assert (features_dir() / "beat.feature").is_file()


def test_features_are_found_in_a_wheel_layout(tmp_path, monkeypatch):
    from conformance import bdd

    packed = tmp_path / "conformance" / "_features"
    packed.mkdir(parents=True)
    (packed / "beat.feature").write_text("Feature: x\n", encoding="utf-8")
    monkeypatch.setattr(bdd, "_PACKAGE", tmp_path / "conformance")
    assert bdd.features_dir() == packed
