"""Options that record readings real engines play, worked out by hand: ``pass_required``
(R-THROW-5, R-BOUT-1/2), ``take_clears_passes`` (R-THROW-6, R-TAKE-2), ``finish_order``
(R-OUT-3); and a reading the catalog records as a defect (a transfer without a capacity check,
R-TRANSFER-3), refused under every value. Each test states a position and the answer under every
value."""

import pytest

from reference_impl import api

from .helpers import assert_legal, beat, hand, make_state, pass_, play, refused, take, throw

# --------------------------------------------------------------------------- pass_required


def two_player(pass_required):
    # bout 3, spades trumps; seat 0 led 8C and holds TC (a ten) but no eight and no king
    return make_state([["TC", "7D", "QH"], ["9C", "KC", "TS", "6D"]], table=[("8C", 0, None)],
                      trump="9S", talon=["6H", "9S"], rest="discard", attacker=0, defender=1,
                      number=3, pass_required=pass_required)


def test_every_eligible_keeps_the_bout_open_for_a_pass_nobody_can_avoid():
    s = api.apply(two_player("every_eligible"), beat(1, "8C", "KC"))
    assert s["bout"]["number"] == 3
    assert_legal(s, [pass_(0)])


def test_only_able_closes_when_no_attacker_holds_a_table_rank():
    s = api.apply(two_player("only_able"), beat(1, "8C", "KC"))
    assert s["bout"]["number"] == 4 and s["table"] == []
    assert s["discard"][-2:] == ["8C", "KC"]
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (1, 0)


def test_only_able_waits_while_the_attacker_holds_a_table_rank():
    s = api.apply(two_player("only_able"), beat(1, "8C", "TS"))  # ranks 8 and T: TC can follow
    assert s["bout"]["number"] == 3
    assert_legal(s, [throw(0, "TC"), pass_(0)])


@pytest.mark.parametrize("value", ["every_eligible", "only_able"])
def test_the_cap_closes_under_both_values(value):
    # empty discard pile: cap 5; the fifth card is beaten and seat 0 still holds a seven
    s = make_state([["7S", "9H"], ["QS", "KS", "AD"]],
                   table=[("7C", 0, "8C"), ("7D", 0, "8D"), ("8H", 0, "TH"),
                          ("9C", 0, "TC"), ("9D", 0, None)],
                   trump="AH", talon=["KH", "AH"], rest="talon", attacker=0, defender=1,
                   pass_required=value)
    s = api.apply(s, beat(1, "9D", "AD"))
    assert s["bout"]["number"] == 2


def test_only_able_take_closes_at_once_when_nothing_can_be_piled_on():
    s = api.apply(two_player("only_able"), take(1))
    assert s["bout"]["number"] == 4 and "8C" in hand(s, 1)
    s = api.apply(two_player("every_eligible"), take(1))
    assert s["bout"]["taking"] and s["bout"]["number"] == 3
    assert_legal(s, [pass_(0)])


def test_only_able_take_stays_open_for_an_attacker_who_can_pile_on():
    s = make_state([["8D", "QH", "AH"], ["9C", "KC", "TS", "6D"]], table=[("8C", 0, None)],
                   trump="9S", talon=["6H", "9S"], attacker=0, defender=1, number=3,
                   pass_required="only_able")
    s = api.apply(s, take(1))
    assert_legal(s, [throw(0, "8D"), pass_(0)])
    s = api.apply(s, throw(0, "8D"))  # nothing of rank 8 left to add: the take closes
    assert s["bout"]["number"] == 4 and {"8C", "8D"} <= set(hand(s, 1))


def three_player(pass_required):
    # seat 0 (main attacker) holds no 7 or 9, seat 2 holds 9D; the defender beat 7C with 9C
    return make_state([["QC", "6D", "JH"], ["6C", "JC", "TD", "6S"], ["8C", "9D", "KD"]],
                      table=[("7C", 0, "9C")], trump="9S", talon=["AD", "9S"], attacker=0,
                      defender=1, number=5, pass_required=pass_required)


def test_only_able_does_not_move_the_right():
    # seat 2 can add, so a pass is owed; the circle still gives the right to seat 0 first
    s = three_player("only_able")
    assert_legal(s, [pass_(0)])
    s = api.apply(s, pass_(0))
    assert_legal(s, [throw(2, "9D"), pass_(2)])
    s = play(s, throw(2, "9D"), beat(1, "9D", "TD"))  # ranks 7, 9, T: nobody can add
    assert s["bout"]["number"] == 6


def test_every_eligible_after_the_same_beat_waits_for_both_passes():
    s = play(three_player("every_eligible"), pass_(0), throw(2, "9D"), beat(1, "9D", "TD"))
    assert s["bout"]["number"] == 5
    assert_legal(s, [pass_(0)])
    s = play(s, pass_(0), pass_(2))
    assert s["bout"]["number"] == 6


# --------------------------------------------------------------------------- take_clears_passes


def passed_then_taken(value, **overrides):
    # seat 0 passed with every card beaten, seat 2 threw in 9D, the defender takes
    s = make_state([["QC", "9H", "AH"], ["6C", "TD", "KH"], ["8C", "9D", "KD", "6H"]],
                   table=[("7C", 0, "9C")], trump="9S", talon=["AD", "9S"], attacker=0,
                   defender=1, number=5, take_clears_passes=value, **overrides)
    return play(s, pass_(0), throw(2, "9D"), take(1))


def test_a_take_leaves_the_passes_by_default():
    s = passed_then_taken("off")
    assert s["bout"]["passed"] == [0]
    assert_legal(s, [pass_(2)])


def test_take_clears_passes_on_gives_the_right_back_to_the_main_attacker():
    s = passed_then_taken("on")
    assert s["bout"]["passed"] == []
    assert_legal(s, [throw(0, "9H"), pass_(0)])
    s = play(s, throw(0, "9H"), pass_(0), pass_(2))
    assert s["bout"]["number"] == 6 and {"7C", "9C", "9D", "9H"} <= set(hand(s, 1))


def test_take_clears_passes_and_a_take_with_everything_beaten():
    # take_allowed any_time: the defender takes right after seat 0's pass, nothing thrown in
    s = make_state([["QC", "9H", "AH"], ["6C", "TD", "KH"], ["8C", "9D", "KD", "6H"]],
                   table=[("7C", 0, "9C")], trump="9S", talon=["AD", "9S"], attacker=0,
                   defender=1, number=5, take_allowed="any_time", take_clears_passes="on")
    s = play(s, pass_(0), take(1))
    assert_legal(s, [throw(0, "9H"), pass_(0)])


# --------------------------------------------------------------------------- finish_order


def last_bout(value, **overrides):
    # four players, talon empty: seats 3 and 2 throw in their last cards, then seat 0 his;
    # the defender (seat 1) beats everything and keeps QC, AS
    s = make_state([["7H"], ["TD", "JH", "QC", "KS", "AS"], ["7D"], ["7S"]], table=[("7C", 0, "9C")],
                   trump="6S", talon=[], attacker=0, defender=1, number=9, finish_order=value,
                   **overrides)
    return play(s, pass_(0), throw(2, "7D"), throw(3, "7S"), beat(1, "7S", "KS"),
                beat(1, "7D", "TD"), throw(0, "7H"), beat(1, "7H", "JH"))


def test_emptied_order_lists_them_as_their_hands_emptied():
    s = last_bout("emptied_order")
    assert s["finished"] == [2, 3, 0] and s["result"]["fool"] == 1


def test_draw_order_lists_them_from_the_main_attacker_clockwise():
    s = last_bout("draw_order")
    assert s["finished"] == [0, 2, 3] and s["result"]["fool"] == 1
    assert last_bout("draw_order", win_mode="first_out_wins")["result"]["winners"] == [0]
    assert last_bout("emptied_order", win_mode="ranking")["result"]["winners"] == [2, 3, 0]


def test_out_immediate_appends_at_the_move_under_both_values():
    for value in ("emptied_order", "draw_order"):
        s = make_state([["7H"], ["TD", "JH", "QC", "KS", "AS"], ["7D"], ["7S"]],
                       table=[("7C", 0, "9C")], trump="6S", talon=[], attacker=0, defender=1,
                       number=9, finish_order=value, out_timing="immediate")
        s = play(s, pass_(0), throw(2, "7D"), throw(3, "7S"), beat(1, "7S", "KS"),
                 beat(1, "7D", "TD"), throw(0, "7H"))
        # each went out in the move that emptied his hand; the last one ended the game (R-OUT-2)
        assert s["finished"] == [2, 3, 0] and s["result"]["fool"] == 1


@pytest.mark.parametrize("value", ["emptied_order", "draw_order"])
def test_two_players_cannot_tell_the_values_apart(value):
    s = make_state([["7C"], ["8C"]], trump="AH", talon=[], attacker=0, defender=1,
                   finish_order=value)
    s = play(s, {"player": 0, "action": "attack", "cards": ["7C"]}, beat(1, "7C", "8C"))
    assert s["finished"] == [0, 1] and s["result"]["draw"]


# --------------------------------------------------------------------------- a defect, no option


@pytest.mark.parametrize("capacity", ["hand", "hand_and_limit", "hand_plus_one"])
def test_no_capacity_value_lets_a_transfer_outnumber_the_new_defender(capacity):
    # catalog V17b-transfer-without-capacity-check: every value checks the target's hand
    s = make_state([["9C"], ["KD", "AH", "7S", "8S"]],
                   table=[("7C", 0, None), ("7D", 0, None), ("7H", 0, None)], trump="QS",
                   talon=[], attacker=0, defender=1, number=12, preset="perevodnoy",
                   transfer_capacity=capacity, trump_show="before_first_beat")
    moves = api.legal_moves(s)
    assert not [m for m in moves if m["action"] in ("transfer", "show_trump")]
    assert refused(s, {"player": 1, "action": "transfer", "cards": ["7S"]}) == "R-TRANSFER-3"
    assert refused(s, {"player": 1, "action": "show_trump", "card": "7S"}) == "R-TRANSFER-3"
