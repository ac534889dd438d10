"""The position builder and the deal arranger, checked against hand-worked states."""

import pytest

from conformance.bdd.position import PositionError, PositionSpec
from conformance.contract.cards import canonical, deck
from reference_impl.rulesets import resolve_ruleset


def ruleset(**overrides):
    return resolve_ruleset({"preset": "podkidnoy", "overrides": overrides})


def conserved(state, size=36):
    cards = list(state["talon"]) + list(state["discard"])
    for player in state["players"]:
        cards += player["hand"]
    for entry in state["table"]:
        cards += [c for c in (entry["attack"], entry["defence"]) if c]
    return sorted(cards) == sorted(deck(size))


def test_a_small_position_is_filled_deterministically():
    spec = PositionSpec(players=2, trump_suit="S", hands={0: ["7D", "KD"], 1: ["9C", "JC", "QC"]})
    spec.table.append({"attack": "7C", "by": 0, "defence": None})
    state = spec.build_state(ruleset())
    assert conserved(state)
    # talon empty by default; the lowest free spade is the trump card and goes to the discard
    assert state["talon"] == [] and state["trump"] == "6S" and "6S" in state["discard"]
    assert len(state["discard"]) == 30
    assert state["bout"]["attacker"] == 0 and state["bout"]["defender"] == 1
    assert state["dealer"] == 1 and state["result"] is None
    assert state["table"] == [{"attack": "7C", "by": 0, "defence": None}]
    assert spec.build_state(ruleset()) == state


def test_an_empty_discard_pile_puts_every_free_card_in_the_talon_trump_last():
    spec = PositionSpec(players=2, trump_suit="H", discard_empty=True, hand_counts={0: 6, 1: 6})
    state = spec.build_state(ruleset())
    assert len(state["talon"]) == 24 and state["talon"][-1] == state["trump"] == "6H"
    assert state["discard"] == [] and state["bout"]["number"] == 1
    # size-only hands get non-trumps first, in canonical order
    assert state["players"][0]["hand"] == ["6C", "7C", "8C", "9C", "TC", "JC"]


def test_a_listed_talon_ends_with_the_trump_card():
    spec = PositionSpec(players=2, talon=["7S", "9H"], hands={0: ["6C"], 1: ["9C"]})
    state = spec.build_state(ruleset())
    assert state["trump"] == "9H" and state["talon"] == ["7S", "9H"]


def test_the_default_defender_skips_players_out_and_partners():
    spec = PositionSpec(
        players=4,
        out=[1],
        hands={0: ["7C", "KD"], 2: ["9C", "QH", "AH"], 3: ["8D", "JD", "9D"]},
    )
    assert spec.build_state(ruleset())["bout"]["defender"] == 2
    spec = PositionSpec(
        players=4, out=[1], hands={0: ["7C", "KD"], 2: ["9C", "QH", "AH"], 3: ["8D", "JD", "9D"]}
    )
    state = spec.build_state(ruleset(teams="2v2"))
    assert state["bout"]["defender"] == 3  # seat 2 is player 0's partner
    assert [p["team"] for p in state["players"]] == [0, 1, 0, 1]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (PositionSpec(players=2, hands={0: ["7C"], 1: ["7C"]}), "placed twice"),
        (PositionSpec(players=2, hands={0: ["7C"], 1: ["8C", "9C"]}), "even number"),
        (PositionSpec(players=2, hands={0: ["2C"], 1: ["8C"]}), "not in this game's deck"),
        (PositionSpec(players=3, talon_size=4, out=[2], hands={0: ["7C"], 1: ["8C"]}), "talon"),
        (PositionSpec(players=2, trump_card="9H", talon=["7S", "8S"]), "talon's last card"),
    ],
)
def test_impossible_positions_are_refused_with_the_reason(spec, message):
    with pytest.raises(PositionError, match=message):
        spec.build_state(ruleset())


def test_arranged_deal_one_card_at_a_time():
    # dealer 1, two players: seat 0 gets deck indices 0, 2, 4, ...; the trump is index 12
    spec = PositionSpec(players=2, dealer=1, deal_trump="KH", deal_hands={0: ["6H", "7C"]})
    order = spec.build_deck(ruleset()["options"])
    assert sorted(order) == sorted(deck(36))
    assert (order[0], order[2], order[12]) == ("6H", "7C", "KH")


def test_arranged_deal_six_at_once_and_no_talon():
    spec = PositionSpec(players=2, dealer=0, deal_hands={1: ["AS"]}, deal_trump="KH")
    order = spec.build_deck(ruleset(deal_order="six_at_once")["options"])
    assert order[0] == "AS" and order[12] == "KH"  # seat 1 is the dealer's left: indices 0..5
    spec = PositionSpec(players=6, deal_trump="AH", deal_hands={5: ["AH", "6C"]})
    order = spec.build_deck(ruleset()["options"])
    assert order[35] == "AH"  # no talon: the dealer's last card is the trump card
    assert 5 in (k % 6 for k in range(36) if order[k] == "6C")


def test_an_explicit_deck_prefix_is_completed_in_canonical_order():
    spec = PositionSpec(players=2, deck=["AS", "KS"], deck_is_prefix=True)
    order = spec.build_deck(ruleset()["options"])
    assert order[:3] == ["AS", "KS", "6C"] and canonical(order) == deck(36)
