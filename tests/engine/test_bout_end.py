"""The end of a bout and of the game: R-BOUT-1/3, R-DRAW-1..3, R-ROLE-3/4, R-OUT-1..3, R-END-1..6,
R-INFO-3, worked out by hand."""

import pytest

from reference_impl import api

from .helpers import assert_legal, attack, beat, hand, make_state, pass_, play, take, throw


def test_defender_beating_with_his_last_card_closes_the_bout():
    s = make_state([["7S", "9H", "8D"], ["8C"]], table=[("7C", 0, None)], trump="AH",
                   talon=["KH", "AH"], rest="talon", attacker=0, defender=1)
    s = api.apply(s, beat(1, "7C", "8C"))
    # closed at once although seat 0 could still add a seven and has not passed (R-BOUT-3)
    assert s["bout"]["number"] == 2 and s["discard"][-2:] == ["7C", "8C"]
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (1, 0)
    assert len(hand(s, 0)) == 6 and len(hand(s, 1)) == 6


def test_reaching_the_cap_closes_the_bout_without_passes():
    # empty discard pile: cap 5; four pairs beaten and a fifth card unbeaten
    s = make_state([["7S", "9H"], ["QS", "KS", "AD"]],
                   table=[("7C", 0, "8C"), ("7D", 0, "8D"), ("8H", 0, "TH"),
                          ("9C", 0, "TC"), ("9D", 0, None)],
                   trump="AH", talon=["KH", "AH"], rest="talon", attacker=0, defender=1)
    assert s["discard"] == []
    s = api.apply(s, beat(1, "9D", "AD"))
    assert s["bout"]["number"] == 2 and len(s["discard"]) == 10


def drawing(draw_order):
    # seat 0 (main attacker) holds 3, seat 2 holds 5, seat 1 (defender) 4; talon KH QH JH + trump 6S
    s = make_state([["7D", "8D", "9D"], ["6C", "8C", "TC", "JC"], ["QC", "KC", "AC", "6D", "TD"]],
                   table=[("7C", 0, "9C")], trump="6S", talon=["KH", "QH", "JH", "6S"],
                   attacker=0, defender=1, draw_order=draw_order)
    return play(s, pass_(0), pass_(2))


def test_fill_in_turn():
    s = drawing("fill_in_turn")
    assert hand(s, 0) == ["7D", "8D", "9D", "JH", "QH", "KH"]
    assert hand(s, 2) == ["QC", "KC", "AC", "6D", "TD", "6S"]
    assert hand(s, 1) == ["6C", "8C", "TC", "JC"]  # the defender draws last: nothing left
    assert s["players"][2]["known"] == ["6S"]
    assert s["talon"] == []


def test_one_at_a_time():
    s = drawing("one_at_a_time")
    # round 1 in draw order 0, 2, 1: KH, QH, JH; round 2: seat 0 takes the trump card
    assert hand(s, 0) == ["7D", "8D", "9D", "KH", "6S"]
    assert hand(s, 2) == ["QC", "KC", "AC", "6D", "TD", "QH"]
    assert hand(s, 1) == ["6C", "8C", "TC", "JC", "JH"]
    assert s["players"][0]["known"] == ["6S"]


def test_next_attacker_after_success_skips_a_defender_who_went_out():
    # three players, talon empty: seat 1 beats with his last card and is out; seat 2 attacks seat 0
    s = make_state([["7S", "9H"], ["8C"], ["JC", "QC", "KD", "AD"]], table=[("7C", 0, None)],
                   trump="AH", talon=[], attacker=0, defender=1)
    s = api.apply(s, beat(1, "7C", "8C"))
    assert s["finished"] == [1]
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (2, 0)


def last_bout(**overrides):
    # two players, talon empty, one card each; 8C beats 7C
    return make_state([["7C"], ["8C"]], trump="AH", talon=[], attacker=0, defender=1,
                      **overrides)


def test_everybody_out_in_the_same_bout_is_a_draw():
    s = play(last_bout(), attack(0, "7C"))
    assert s["result"] is None and s["bout"]["emptied"] == [0] and s["finished"] == []
    s = api.apply(s, beat(1, "7C", "8C"))
    assert s["bout"] is None and s["table"] == []
    assert s["finished"] == [0, 1]
    assert s["result"] == {"fool": None, "draw": True, "losing_team": None, "winners": [],
                           "finishing_order": [0, 1], "epaulettes": None}
    assert api.legal_moves(s) == []


def test_tie_defender_fool():
    s = play(last_bout(tie="defender_fool"), attack(0, "7C"), beat(1, "7C", "8C"))
    assert s["result"]["fool"] == 1 and s["result"]["draw"] is False


def test_out_timing_immediate_ends_the_game_in_the_move():
    s = api.apply(last_bout(out_timing="immediate"), attack(0, "7C"))
    assert s["finished"] == [0]
    assert s["result"]["fool"] == 1
    assert s["bout"] is None
    assert s["table"] == [{"attack": "7C", "by": 0, "defence": None}]  # the table stays


@pytest.mark.parametrize(
    ("win_mode", "tie", "winners"),
    [
        ("loser_only", "draw", []),
        ("first_out_wins", "draw", [0]),
        ("ranking", "draw", [0, 1]),
        ("first_out_wins", "defender_fool", [0]),
        ("ranking", "defender_fool", [0]),
    ],
)
def test_win_modes_on_a_tie(win_mode, tie, winners):
    s = play(last_bout(win_mode=win_mode, tie=tie), attack(0, "7C"), beat(1, "7C", "8C"))
    assert s["result"]["winners"] == winners


def three_player_end(**overrides):
    # talon empty; seat 0 attacks seat 1; seat 2 watches
    return make_state([["7C"], ["8C", "9S"], ["JD", "QD", "KD"]], trump="AH", talon=[],
                      attacker=0, defender=1, **overrides)


def test_finishing_order_and_winners_with_three_players():
    s = play(three_player_end(win_mode="ranking"), attack(0, "7C"), beat(1, "7C", "8C"))
    # seat 0 emptied his hand and has no move; seat 2 holds no 7 or 8 but must pass explicitly
    assert s["bout"]["emptied"] == [0]
    assert_legal(s, [pass_(2)])
    s = api.apply(s, pass_(2))
    assert s["finished"] == [0]
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (1, 2)
    # seat 1 attacks with his last card; seat 2 takes; nobody is left to pile on: the bout and
    # the game end in the take
    s = play(s, attack(1, "9S"), take(2))
    assert s["result"] == {"fool": 2, "draw": False, "losing_team": None, "winners": [0, 1],
                           "finishing_order": [0, 1], "epaulettes": None}
    assert sorted(hand(s, 2)) == sorted(["JD", "QD", "KD", "9S"])


def test_out_immediate_mid_bout_the_game_goes_on():
    s = api.apply(three_player_end(out_timing="immediate"), attack(0, "7C"))
    assert s["finished"] == [0] and s["result"] is None
    s = api.apply(s, beat(1, "7C", "8C"))
    # seat 2 holds the right (seat 0 is out): he passes and the bout closes
    s = api.apply(s, pass_(2))
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (1, 2)


@pytest.mark.parametrize(("epaulettes", "expected"), [("on", 2), ("off", None)])
def test_epaulettes_count_the_unbeaten_lowest_rank_cards_taken(epaulettes, expected):
    # the fool takes two unbeaten sixes in the final bout
    s = make_state([["6C", "6D"], ["7H", "8H", "9H", "KS"]], trump="AS", talon=[],
                   attacker=0, defender=1, epaulettes=epaulettes)
    s = play(s, attack(0, "6C", "6D"), take(1))
    assert s["result"]["fool"] == 1
    assert s["result"]["epaulettes"] == expected


def test_epaulettes_only_count_unbeaten_cards():
    s = make_state([["6C", "6D"], ["7H", "8H", "9H", "KS"]], trump="AS", talon=[],
                   attacker=0, defender=1, epaulettes="on")
    s = play(s, attack(0, "6C", "6D"), beat(1, "6D", "KS"), take(1))
    assert s["result"]["epaulettes"] == 1


def test_epaulettes_zero_without_a_final_take():
    s = make_state([["7C"], ["8C", "9S", "TS"]], trump="AH", talon=[], attacker=0, defender=1,
                   epaulettes="on")
    s = play(s, attack(0, "7C"), beat(1, "7C", "8C"))
    assert s["result"] == {"fool": 1, "draw": False, "losing_team": None, "winners": [],
                           "finishing_order": [0], "epaulettes": 0}


def test_the_first_bout_taken_keeps_the_cap_at_five():
    # EDGE-FIRSTBOUT-1: after a take the discard pile is still empty
    s = make_state([["7S", "7D", "7H", "7C", "8C", "9C"], ["6C", "6D", "6H", "6S", "8S", "9S"]],
                   trump="AH", talon=["AH"], rest="talon", attacker=0, defender=1)
    s = play(s, attack(0, "7S"), take(1), pass_(0))
    assert s["discard"] == [] and s["bout"]["number"] == 2
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (0, 1)
    assert attack(0, "7C", "7D", "7H") in api.legal_moves(s)


def test_throw_in_by_other_players_continues_when_main_attacker_is_out():
    # EDGE-ATTACKER-OUT-1: the main attacker's last card; seat 2 still throws in
    s = make_state([["7C"], ["8C", "9S", "TS"], ["7D", "QD"]], trump="AH", talon=[],
                   attacker=0, defender=1)
    s = play(s, attack(0, "7C"))
    assert throw(2, "7D") in api.legal_moves(s)
