"""Opening attacks and beating: R-ATTACK-1..4, R-BEAT-1..4, R-DECK-3 (twins), with legal sets and
refusals worked out by hand."""

import pytest

from reference_impl import api

from .helpers import (
    assert_legal,
    attack,
    beat,
    hand,
    make_state,
    pass_,
    refused,
    take,
    throw,
)


def opening(**overrides):
    # hearts are trumps; the discard pile is empty (cap 5 under six_five_first)
    return make_state([["6C", "6D", "9S", "KH"], ["7C", "8C", "AD", "6H", "7H", "KS"]],
                      trump="AH", talon=["AH"], rest="talon", attacker=0, defender=1, **overrides)


def test_opening_one_card_or_several_of_one_rank():
    s = opening()
    assert_legal(s, [attack(0, "6C"), attack(0, "6D"), attack(0, "9S"), attack(0, "KH"),
                     attack(0, "6C", "6D")])


def test_opening_single():
    s = opening(opening="single")
    assert_legal(s, [attack(0, c) for c in ("6C", "6D", "9S", "KH")])
    assert refused(s, attack(0, "6C", "6D")) == "R-ATTACK-2"


def test_opening_refusals():
    s = opening()
    assert refused(s, attack(0, "6C", "9S")) == "R-ATTACK-2"
    assert refused(s, attack(1, "7C")) == "R-PLAY-4"  # the defender never attacks
    assert refused(s, attack(0, "7C")) == "R-PLAY-3"  # not his card
    for move in (throw(0, "6C"), pass_(0), take(1), beat(1, "6C", "7C")):
        assert refused(s, move) == "R-ATTACK-1"  # nothing before the opening attack
    s = api.apply(s, attack(0, "9S"))
    assert refused(s, attack(0, "KH")) == "R-ATTACK-1"  # attack only opens a bout


def test_opening_limited_by_the_defenders_hand():
    s = make_state([["6C", "6D", "9S"], ["7C"]], trump="AH", talon=["AH"], rest="talon",
                   attacker=0, defender=1)
    assert_legal(s, [attack(0, "6C"), attack(0, "6D"), attack(0, "9S")])
    assert refused(s, attack(0, "6C", "6D")) == "R-ATTACK-4"


SIXES = ["6C", "6C2", "6D", "6D2", "6H", "6S"]


@pytest.mark.parametrize(
    ("overrides", "discard", "number", "defender_cards", "count"),
    [
        # every non-empty subset of six sixes is 63; a cap of 5 drops the one six-card subset
        ({}, None, 1, 6, 62),
        ({"attack_limit": "six"}, None, 1, 6, 63),
        ({"attack_limit": "hand"}, None, 1, 6, 63),
        ({}, ["7C", "8C"], 1, 6, 63),  # a discarded bout lifts the cap to 6
        ({"attack_limit": "six_five_first_bout"}, None, 1, 6, 62),
        ({"attack_limit": "six_five_first_bout"}, None, 2, 6, 63),
        # a defender with 4 cards: subsets of 1..4 cards = 6 + 15 + 20 + 15
        ({}, None, 1, 4, 56),
    ],
)
def test_attack_cap_with_two_decks(overrides, discard, number, defender_cards, count):
    defender = ["9C", "TC", "JC", "QC", "KC", "AC"][:defender_cards]
    s = make_state([SIXES, defender], trump="AH2", talon=["AH2"], rest="talon",
                   discard=discard, number=number, attacker=0, defender=1, preset="two-decks",
                   **overrides)
    moves = api.legal_moves(s)
    assert len(moves) == count
    assert all(m["action"] == "attack" for m in moves)
    if count == 62:
        assert refused(s, attack(0, *SIXES)) == "R-ATTACK-3"


def beating(**overrides):
    # diamonds are trumps; 7C is on the table, unbeaten
    return make_state([["7S", "QC", "9H"], ["8C", "6C", "AS", "6D", "KH", "TD"]],
                      table=[("7C", 0, None)], trump="AD", talon=["AD"], rest="talon",
                      attacker=0, defender=1, **overrides)


def test_what_beats_what():
    s = beating()
    # 8C (higher club), 6D and TD (trumps); not 6C (lower), AS and KH (other suits)
    assert_legal(s, [beat(1, "7C", "8C"), beat(1, "7C", "6D"), beat(1, "7C", "TD"), take(1),
                     throw(0, "7S")])
    assert refused(s, beat(1, "7C", "6C")) == "R-BEAT-1"
    assert refused(s, beat(1, "7C", "AS")) == "R-BEAT-1"
    assert refused(s, beat(1, "7C", "KH")) == "R-BEAT-1"


def test_a_trump_is_beaten_only_by_a_higher_trump():
    s = make_state([["7S"], ["6D", "AS", "TD", "8D"]], table=[("9D", 0, None)], trump="AD",
                   talon=["AD"], rest="talon", attacker=0, defender=1)
    assert_legal(s, [beat(1, "9D", "TD"), take(1)])
    assert refused(s, beat(1, "9D", "8D")) == "R-BEAT-1"
    assert refused(s, beat(1, "9D", "AS")) == "R-BEAT-1"


def test_edge_beat_1():
    # trump 6D beats the non-trump AS; 7D beats 6D; AS does not beat 6D; 9H does not beat 8S
    s = make_state([["AS", "8S"], ["6D", "7D", "9H"]], table=[], trump="AD", talon=["AD"],
                   rest="talon", attacker=0, defender=1)
    s1 = api.apply(s, attack(0, "AS"))
    assert beat(1, "AS", "6D") in api.legal_moves(s1)
    s2 = api.apply(s, attack(0, "8S"))
    assert refused(s2, beat(1, "8S", "9H")) == "R-BEAT-1"
    s3 = make_state([["AS"], ["6D", "7D"]], table=[("6D2", 1, None)], trump="AD2",
                    talon=["AD2"], rest="talon", attacker=1, defender=0, preset="two-decks")
    assert refused(s3, beat(0, "6D2", "AS")) == "R-BEAT-1"


def test_target_must_be_an_unbeaten_attack_card():
    s = beating()
    # 6D would beat QC, but QC is not on the table: judged on the cards first, then the target
    assert refused(s, beat(1, "QC", "6D")) == "R-BEAT-3"
    s = api.apply(s, beat(1, "7C", "8C"))
    assert refused(s, beat(1, "7C", "TD")) == "R-BEAT-3"
    assert refused(s, beat(1, "8C", "TD")) == "R-BEAT-3"  # a defence card is never attacked


def test_card_not_held_comes_before_the_beat_rules():
    s = beating()
    assert refused(s, beat(1, "7C", "9C")) == "R-PLAY-3"
    assert refused(s, beat(0, "7C", "QC")) == "R-PLAY-4"


def test_beat_order_earliest_first():
    s = make_state([["8S"], ["8C", "9S", "6D"]], table=[("7C", 0, None), ("7S", 0, None)],
                   trump="AD", talon=["AD"], rest="talon", attacker=0, defender=1,
                   beat_order="earliest_first")
    assert_legal(s, [beat(1, "7C", "8C"), beat(1, "7C", "6D"), take(1)])
    assert refused(s, beat(1, "7S", "9S")) == "R-BEAT-4"
    s = api.apply(s, beat(1, "7C", "8C"))
    assert beat(1, "7S", "9S") in api.legal_moves(s)


def test_any_order_by_default():
    s = make_state([["8S"], ["8C", "9S", "6D"]], table=[("7C", 0, None), ("7S", 0, None)],
                   trump="AD", talon=["AD"], rest="talon", attacker=0, defender=1)
    assert_legal(s, [beat(1, "7C", "8C"), beat(1, "7C", "6D"), beat(1, "7S", "9S"),
                     beat(1, "7S", "6D"), take(1)])


def test_twins_never_beat_each_other():
    s = make_state([["9C"], ["7S2", "8S"]], table=[("7S", 0, None)], trump="AH",
                   talon=["AH"], rest="talon", attacker=0, defender=1, preset="two-decks")
    assert_legal(s, [beat(1, "7S", "8S"), take(1)])
    assert refused(s, beat(1, "7S", "7S2")) == "R-BEAT-1"


def test_beating_puts_the_card_on_its_target_and_records_the_first_defence():
    s = api.apply(beating(), beat(1, "7C", "6D"))
    assert s["table"] == [{"attack": "7C", "by": 0, "defence": "6D"}]
    assert s["bout"]["first_defence"] == "6D"
    assert hand(s, 1) == ["6C", "8C", "TD", "KH", "AS"]
