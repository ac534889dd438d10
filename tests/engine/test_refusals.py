"""Refusals: the rule each illegal move cites, in spec/rules.md R-PLAY-5's precedence, and the
bad requests that come before every rule (R-PLAY-2..5)."""

import pytest

from reference_impl import api

from .helpers import attack, beat, make_state, pass_, play, refused, show, take, throw, transfer


def bout(**overrides):
    # three players; hearts trumps; 7C beaten by 9C, 7D unbeaten; cap 5 (empty discard) reached
    # at 5 cards
    return make_state(
        [["7S", "QC", "KD", "AS"], ["TD", "JD", "6H"], ["9D", "8S", "JS", "AD"]],
        table=[("7C", 0, "9C"), ("7D", 0, None)], trump="AH", talon=["AH"], rest="talon",
        attacker=0, defender=1, **overrides,
    )


def finished_state():
    s = make_state([["7C"], ["8C", "9S", "TS"]], trump="AH", talon=[], attacker=0, defender=1)
    s = play(s, attack(0, "7C"), beat(1, "7C", "8C"))
    assert s["result"] is not None
    return s


def test_game_over_comes_first_even_for_a_malformed_move():
    s = finished_state()
    assert refused(s, take(1)) == "R-PLAY-2"
    assert refused(s, {"player": 9, "action": "dance"}) == "R-PLAY-2"


@pytest.mark.parametrize(
    "move",
    [
        "take",
        {"action": "take"},
        {"player": 3, "action": "take"},
        {"player": -1, "action": "take"},
        {"player": "1", "action": "take"},
        {"player": True, "action": "take"},
        {"player": 1, "action": "dance"},
        {"player": 1},
        {"player": 0, "action": "throw_in"},
        {"player": 0, "action": "throw_in", "card": 7},
        {"player": 0, "action": "throw_in", "card": "10S"},
        {"player": 0, "action": "throw_in", "card": "5S"},  # not a card of the 36-card deck
        {"player": 0, "action": "throw_in", "card": "7S2"},  # one pack: no second copies
        {"player": 0, "action": "throw_in", "card": "7S", "target": "7D"},
        {"player": 1, "action": "take", "card": "TD"},
        {"player": 1, "action": "beat", "card": "TD"},
        {"player": 1, "action": "transfer", "cards": []},
        {"player": 1, "action": "transfer", "cards": "TD"},
        {"player": 1, "action": "transfer", "cards": ["TD", "TD"]},
    ],
)
def test_malformed_moves_are_bad_requests(move):
    s = bout()
    before = api.canonical_json(s)
    with pytest.raises(api.BadRequest) as info:
        api.apply(s, move)
    assert info.value.code == "bad_request" and info.value.pointer.startswith("/move")
    assert api.canonical_json(s) == before


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        # R-PLAY-3 before R-PLAY-4: the defender throwing in a card he does not hold
        (throw(1, "7S"), "R-PLAY-3"),
        (beat(1, "7D", "8D"), "R-PLAY-3"),  # for beat the card, not the target, must be held
        (throw(1, "TD"), "R-PLAY-4"),
        (pass_(1), "R-PLAY-4"),
        (take(0), "R-PLAY-4"),
        (beat(2, "7D", "9D"), "R-PLAY-4"),
        (attack(1, "TD"), "R-PLAY-4"),
        (attack(2, "9D"), "R-ATTACK-1"),  # not the main attacker
        (attack(0, "7S"), "R-ATTACK-1"),  # the table is not empty
        (throw(0, "QC"), "R-THROW-1"),
        (throw(2, "9D"), "R-THROW-4"),  # seat 0 holds the right (circle)
        (pass_(2), "R-THROW-4"),
        (pass_(0), "R-THROW-5"),  # 7D is unbeaten
        (beat(1, "7D", "JD"), None),  # legal
        (transfer(1, "TD"), "R-TRANSFER-1"),  # podkidnoy has no transfers
        (show(1, "6H"), "R-TRANSFER-7"),
    ],
)
def test_precedence(move, rule):
    s = bout()
    if rule is None:
        api.apply(s, move)
    else:
        assert refused(s, move) == rule


def test_cap_before_rank_and_hand_before_rank():
    # cap 5 reached: a card of a rank not on the table is refused for the cap first
    s = make_state([["7S", "QC"], ["TD", "JD", "6H", "8H"]],
                   table=[("7C", 0, "9C"), ("7D", 0, "8D"), ("9S", 0, "TS"), ("8C", 0, "TC"),
                          ("9H", 0, None)],
                   trump="AH", talon=["AH"], rest="talon", attacker=0, defender=1)
    assert refused(s, throw(0, "QC")) == "R-ATTACK-3"
    s = make_state([["7S", "QC"], ["TD"]], table=[("7C", 0, None)],
                   trump="AH", talon=["AH"], rest="talon", attacker=0, defender=1)
    assert refused(s, throw(0, "QC")) == "R-ATTACK-4"
    assert refused(s, throw(0, "7S")) == "R-ATTACK-4"


def test_rank_before_timing_before_throwers_before_priority():
    s = bout(throw_in_timing="all_beaten")
    assert refused(s, throw(0, "QC")) == "R-THROW-1"
    assert refused(s, throw(0, "7S")) == "R-THROW-2"
    s = bout(throwers="main_only")
    assert refused(s, throw(2, "9D")) == "R-THROW-3"
    assert refused(s, pass_(2)) == "R-THROW-3"


def test_a_player_who_passed_cites_priority():
    s = bout()
    s = play(s, beat(1, "7D", "JD"), pass_(0))
    assert refused(s, throw(0, "7S")) == "R-THROW-4"
    assert refused(s, pass_(0)) == "R-THROW-4"


def test_refusal_leaves_the_input_untouched_and_apply_never_mutates():
    s = bout()
    before = api.canonical_json(s)
    api.apply(s, beat(1, "7D", "JD"))
    api.legal_moves(s)
    assert api.canonical_json(s) == before
