"""Team play: seating, partners never attacking each other, roles when members are out, the team
result (R-TEAM-1..3, R-ROLE-2/4, R-END-2/3/4, OQ11), and transfers between teams."""

import pytest

from reference_impl import api

from .helpers import attack, beat, make_state, pass_, play, refused, take, throw, transfer


def test_seating():
    assert [p["team"] for p in api.new_game("teams-2v2", 4, seed=1)["players"]] == [0, 1, 0, 1]
    assert [p["team"] for p in api.new_game("teams-3v3", 6, seed=1)["players"]] == [0, 1] * 3
    assert [p["team"] for p in api.new_game("teams-2v2v2", 6, seed=1)["players"]] == [0, 1, 2] * 2


def four(**overrides):
    # 2v2: seats 0 and 2 against 1 and 3; hearts trumps; seat 0 attacks seat 1 with 7C
    s = make_state([["7C", "KS"], ["9C", "QD", "AD"], ["7S", "8D"], ["7D", "JH"]],
                   trump="AH", talon=["AH"], rest="talon", attacker=0, defender=1,
                   preset="teams-2v2", **overrides)
    return api.apply(s, attack(0, "7C"))


def test_the_defenders_partner_never_throws_in():
    s = four(throw_in_priority="free")
    moves = api.legal_moves(s)
    assert throw(2, "7S") in moves
    assert throw(3, "7D") not in moves
    assert refused(s, throw(3, "7D")) == "R-THROW-3"
    assert refused(s, pass_(3)) == "R-THROW-3"


def test_circle_skips_the_partner_and_the_bout_closes_without_him():
    s = play(four(), beat(1, "7C", "9C"), pass_(0))
    assert [m["player"] for m in api.legal_moves(s)] == [2, 2]  # pass or throw 7S
    s = api.apply(s, pass_(2))
    assert s["bout"]["number"] == 2  # seat 3 never had to pass
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (1, 2)


def test_defender_is_the_next_opponent_holding_cards():
    # talon empty, seat 3 is out: after seat 1 takes, seat 2 attacks; seat 3 is out and seat 0 is
    # seat 2's partner, so seat 1 defends again
    s = make_state([["7C", "KS"], ["9D", "QD", "AD"], ["7S", "8D"], []],
                   table=[("7H", 0, None)], trump="AH", talon=[], finished=[3],
                   attacker=0, defender=1, preset="teams-2v2", pile_on="forbidden")
    s = api.apply(s, take(1))
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (2, 1)


def test_after_a_take_the_takers_partner_may_attack():
    # OQ11: seat 2 is out, so the first player left of the taker holding cards is his partner
    s = make_state([["7C", "KS"], ["9D", "QD", "AD"], [], ["7S", "8D", "JH", "QH"]],
                   table=[("7H", 0, None)], trump="AH", talon=[], finished=[2],
                   attacker=0, defender=1, preset="teams-2v2", pile_on="forbidden")
    s = api.apply(s, take(1))
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (3, 0)


@pytest.mark.parametrize(
    ("win_mode", "winners"),
    [("loser_only", []), ("first_out_wins", [0, 2]), ("ranking", [0, 2])],
)
def test_team_result(win_mode, winners):
    # seat 0 is out; seat 1 attacks seat 2, who beats with his last card: team 0 is all out,
    # team 1 loses; the fool is its first member holding cards clockwise from seat 2: seat 3
    s = make_state([[], ["7C", "9H"], ["8C"], ["JD", "QD", "KD"]], trump="AH", talon=[],
                   finished=[0], attacker=1, defender=2, preset="teams-2v2", win_mode=win_mode)
    s = play(s, attack(1, "7C"), beat(2, "7C", "8C"))
    assert s["result"] == {"fool": 3, "draw": False, "losing_team": 1, "winners": winners,
                           "finishing_order": [0, 2], "epaulettes": None}


def test_team_tie_is_a_draw():
    s = make_state([["7C"], ["8C"], [], []], trump="AH", talon=[], finished=[2, 3],
                   attacker=0, defender=1, preset="teams-2v2")
    s = play(s, attack(0, "7C"), beat(1, "7C", "8C"))
    assert s["result"]["draw"] is True and s["result"]["losing_team"] is None
    assert s["result"]["finishing_order"] == [2, 3, 0, 1]


def test_three_teams_play_on_until_one_team_holds_cards():
    # 2v2v2: team = seat mod 3; team 0 (seats 0, 3) is out; seat 1 attacks seat 2
    s = make_state([[], ["7C", "9H"], ["8C", "TS"], [], ["JD"], ["QD", "KD", "AS"]],
                   trump="AH", talon=[], finished=[0, 3], attacker=1, defender=2,
                   preset="teams-2v2v2")
    s = play(s, attack(1, "7C"), beat(2, "7C", "8C"))
    # circle: seat 1 (main) passes, then seat 4 (team 1), who holds no seven or eight but must
    # pass; seat 5 is seat 2's partner and never attacks him
    s = api.apply(s, pass_(1))
    s = api.apply(s, pass_(4))
    assert s["result"] is None
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (2, 4)


def test_transfer_never_goes_to_a_partner():
    # perevodnoy in 2v2: seat 2 is out, seat 3 is seat 1's partner: the target is seat 0
    s = make_state([["7C", "KS", "QS", "JS"], ["7D", "QD", "AD"], [], ["7S", "8D", "JH"]],
                   trump="AH", talon=[], finished=[2], attacker=0, defender=1,
                   preset="perevodnoy", teams="2v2")
    s = play(s, attack(0, "7C"), transfer(1, "7D"))
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (1, 0)


def test_original_main_attacker_gives_way_when_his_partner_defends():
    s = make_state([["7C", "KS"], ["7D", "QD", "AD"], ["7S", "8D", "JH"], ["9S", "TS"]],
                   trump="AH", talon=["AH"], rest="talon", attacker=0, defender=1,
                   preset="perevodnoy", teams="2v2", transfer_main_attacker="original")
    s = play(s, attack(0, "7C"), transfer(1, "7D"))
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (1, 2)
