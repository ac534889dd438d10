"""observe(state, player) on hand-built states: the exact observation, worked out from R-INFO-1..3.

Each expected observation below is written out in full from the rules: the observer's own hand,
every hand's size and its public (``known``) cards, the table, the talon's size, the trump suit, the
face-up trump card while it lies under the talon, the discard pile as ``discard_visibility`` says,
roles and bout sub-state, finishing order, result and ruleset. Nothing else.
"""

from __future__ import annotations

import copy

import pytest

from reference_impl.errors import BadRequest, InvalidState
from reference_impl.observe import InvalidPlayer, observe

from .helpers import bout, card_key, make_state, ruleset, schema_errors

# A two-player game in bout 3: trump hearts, the trump card 9H still under the talon (4 cards
# left, 20 discarded). Player 0
# attacked 7C (beaten by 9C) and threw in 7H (unbeaten). Player 1 picked up TD in an earlier bout,
# so everyone knows he holds it.
TABLE = [
    {"attack": "7C", "by": 0, "defence": "9C"},
    {"attack": "7H", "by": 0, "defence": None},
]


def two_player_state(**rules_overrides):
    return make_state(
        hands=[["6C", "7D", "QD", "KS"], ["8C", "TD", "JH", "6S", "8S"]],
        known=[[], ["TD"]],
        talon=["AS", "QC", "6D", "9H"],
        table=copy.deepcopy(TABLE),
        trump="9H",
        bout=bout(0, 1, first_defence="9C"),
        dealer=1,
        rules=ruleset(**rules_overrides),
    )


def expected_two_player(player, hand, discard):
    return {
        "version": 1,
        "player": player,
        "ruleset": ruleset(),
        "dealer": 1,
        "trump_suit": "H",
        "trump_card": "9H",
        "talon_size": 4,
        "discard": discard,
        "hand": hand,
        "players": [
            {"seat": 0, "hand_size": 4, "known": [], "team": None},
            {"seat": 1, "hand_size": 5, "known": ["TD"], "team": None},
        ],
        "table": TABLE,
        "bout": bout(0, 1, first_defence="9C"),
        "finished": [],
        "result": None,
    }


def test_attacker_sees_own_hand_sizes_table_talon_size_and_trump_card():
    state = two_player_state()
    # 36 cards - 4 - 5 in hands - 4 in the talon - 3 on the table = 20 discarded
    assert observe(state, 0) == expected_two_player(0, ["6C", "7D", "QD", "KS"], {"count": 20})


def test_defender_sees_his_own_hand_and_only_the_size_of_the_other():
    state = two_player_state()
    assert observe(state, 1) == expected_two_player(
        1, ["8C", "TD", "JH", "6S", "8S"], {"count": 20}
    )


def test_discard_contents_are_public_history_when_the_ruleset_says_so():
    state = two_player_state(discard_visibility="contents")
    state["discard"] = state["discard"][-2:] + state["discard"][:-2]  # the last pair first
    assert state["discard"] != sorted(state["discard"], key=card_key)
    obs = observe(state, 0)
    assert obs["discard"] == {"count": 20, "cards": state["discard"]}  # in discard order
    assert obs["ruleset"]["options"]["discard_visibility"] == "contents"


def test_trump_card_once_drawn_is_no_longer_shown_but_is_a_known_card():
    # Three players, the talon is empty: player 2 drew the trump card 6S (known to all). Player 1
    # declared take; player 0 has passed. Discard pile: every other card.
    state = make_state(
        hands=[["8C", "9D"], ["TC"], ["6S", "AD"]],
        known=[[], [], ["6S"]],
        talon=[],
        table=[{"attack": "JH", "by": 0, "defence": None}],
        trump="6S",
        bout=bout(0, 1, number=9, passed=[0], taking=True),
        dealer=2,
    )
    obs = observe(state, 1)
    assert (obs["trump_suit"], obs["trump_card"], obs["talon_size"]) == ("S", None, 0)
    assert obs["hand"] == ["TC"]
    assert obs["players"] == [
        {"seat": 0, "hand_size": 2, "known": [], "team": None},
        {"seat": 1, "hand_size": 1, "known": [], "team": None},
        {"seat": 2, "hand_size": 2, "known": ["6S"], "team": None},
    ]
    assert obs["bout"]["passed"] == [0] and obs["bout"]["taking"] is True
    assert obs["discard"] == {"count": 36 - 2 - 1 - 2 - 1}


def test_six_players_no_talon_trump_in_dealers_hand():
    # 6 x 6 = 36: no talon; the last card dealt (dealer 5's) is the trump, known to everyone.
    deck = [r + s for s in "CDHS" for r in "6789TJQKA"]
    hands = [deck[6 * i: 6 * i + 6] for i in range(6)]
    trump = hands[5][-1]  # AS
    state = make_state(
        hands=hands,
        known=[[], [], [], [], [], [trump]],
        talon=[],
        trump=trump,
        bout=bout(0, 1, number=1),
        dealer=5,
        discard=[],
        rules=ruleset(),
    )
    obs = observe(state, 3)
    assert (obs["trump_suit"], obs["trump_card"], obs["talon_size"]) == ("S", None, 0)
    assert obs["hand"] == hands[3]
    assert [p["hand_size"] for p in obs["players"]] == [6] * 6
    assert obs["players"][5]["known"] == ["AS"]
    assert obs["discard"] == {"count": 0}


def test_team_membership_is_public():
    deck = [r + s for s in "CDHS" for r in "6789TJQKA"]
    hands = [deck[6 * i: 6 * i + 6] for i in range(4)]
    state = make_state(
        hands=hands,
        talon=deck[24:],
        trump=deck[-1],
        bout=bout(0, 1, number=1),
        dealer=3,
        discard=[],
        rules=ruleset("teams-2v2"),
        teams=[0, 1, 0, 1],
    )
    obs = observe(state, 2)
    assert [p["team"] for p in obs["players"]] == [0, 1, 0, 1]
    assert obs["trump_card"] == "AS" and obs["talon_size"] == 12
    assert obs["hand"] == hands[2]


def test_finished_game_shows_the_result():
    result = {
        "fool": 1, "draw": False, "losing_team": None, "winners": [0],
        "finishing_order": [0], "epaulettes": None,
    }
    state = make_state(
        hands=[[], ["AC", "KC"]], talon=[], trump="6H", bout=None, finished=[0], result=result
    )
    obs = observe(state, 0)
    assert obs["bout"] is None and obs["result"] == result and obs["finished"] == [0]
    assert obs["hand"] == [] and obs["players"][1]["hand_size"] == 2
    assert obs["players"][1]["known"] == []


@pytest.mark.parametrize("player", [-1, 2, 7])
def test_a_seat_that_does_not_exist_is_a_bad_request(player):
    with pytest.raises(InvalidPlayer, match=r"seat number 0\.\.1") as info:
        observe(two_player_state(), player)
    assert isinstance(info.value, BadRequest) and info.value.pointer == "/player"


@pytest.mark.parametrize("player", ["0", 1.0, True, None])
def test_a_player_that_is_not_an_integer_is_a_bad_request(player):
    with pytest.raises(InvalidPlayer, match="integer"):
        observe(two_player_state(), player)


def test_an_invalid_state_is_refused_with_the_engines_pointer():
    state = two_player_state()
    state["talon"].append("7D")  # 7D is now both in player 0's hand and in the talon
    with pytest.raises(InvalidState) as info:
        observe(state, 0)
    assert info.value.pointer


def test_observe_neither_changes_nor_shares_the_state():
    state = two_player_state()
    before = copy.deepcopy(state)
    obs = observe(state, 0)
    assert state == before
    obs["hand"].append("XX")
    obs["table"][0]["attack"] = "XX"
    obs["ruleset"]["options"]["deck_size"] = 0
    obs["bout"]["passed"].append(9)
    assert state == before


def test_every_hand_built_observation_validates_against_the_schema():
    states = [two_player_state(), two_player_state(discard_visibility="contents")]
    for state in states:
        for player in range(len(state["players"])):
            assert schema_errors(observe(state, player)) == []


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda o: o.__setitem__("talon", ["AS", "QC", "6D", "9H"]), "the talon's order"),
        (lambda o: o["players"][1].__setitem__("hand", ["8C"]), "another hand"),
        (lambda o: o["discard"].__setitem__("cards", ["6D"]), "discard contents under count"),
        (lambda o: o.__setitem__("trump_card", "9X"), "a malformed card"),
        (lambda o: o.__delitem__("talon_size"), "a missing field"),
    ],
)
def test_the_schema_refuses_observations_that_leak_or_are_malformed(change, why):
    obs = observe(two_player_state(), 0)
    change(obs)
    assert schema_errors(obs), why
