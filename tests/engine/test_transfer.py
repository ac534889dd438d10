"""Perevodnoy: transfers and trump-show transfers, every V17 option (R-TRANSFER-1..8, R-THROW-6,
R-TEAM-2), worked out by hand."""

import pytest

from reference_impl import api

from .helpers import (
    assert_legal,
    attack,
    beat,
    hand,
    make_state,
    pass_,
    play,
    refused,
    show,
    take,
    throw,
    transfer,
)


def two_players(preset="perevodnoy", **overrides):
    # diamonds are trumps; seat 0 leads 7S
    s = make_state([["7S", "9C", "TC", "JC", "QC", "KC"], ["7H", "7D", "8S", "AH", "KH", "6C"]],
                   trump="AD", talon=["AD"], rest="talon", attacker=0, defender=1,
                   preset=preset, **overrides)
    return api.apply(s, attack(0, "7S"))


def test_edge_transfer_1_two_players_bounce():
    s = two_players()
    assert_legal(s, [beat(1, "7S", "8S"), beat(1, "7S", "7D"), take(1),
                     transfer(1, "7H"), transfer(1, "7D"), transfer(1, "7D", "7H")])
    s = api.apply(s, transfer(1, "7H"))
    assert s["table"] == [{"attack": "7S", "by": 0, "defence": None},
                          {"attack": "7H", "by": 1, "defence": None}]
    assert s["bout"]["defender"] == 0 and s["bout"]["attacker"] == 1 and s["bout"]["opener"] == 0
    # seat 0 holds no seven and nothing beats the sevens (no spade, heart or diamond): take only;
    # seat 1, now the main attacker, may throw in his other seven
    assert_legal(s, [take(0), throw(1, "7D")])


def test_transfer_cards_one():
    s = two_players(transfer_cards="one")
    assert_legal(s, [beat(1, "7S", "8S"), beat(1, "7S", "7D"), take(1),
                     transfer(1, "7H"), transfer(1, "7D")])
    assert refused(s, transfer(1, "7D", "7H")) == "R-TRANSFER-4"


def test_transfer_only_with_cards_of_the_attack_rank():
    s = two_players()
    assert refused(s, transfer(1, "8S")) == "R-TRANSFER-1"
    assert refused(s, transfer(1, "7H", "8S")) == "R-TRANSFER-1"
    assert refused(s, transfer(1, "7C")) == "R-PLAY-3"
    assert refused(s, transfer(0, "9C")) == "R-PLAY-4"


def test_transfer_off():
    s = two_players(preset="podkidnoy")
    assert refused(s, transfer(1, "7H")) == "R-TRANSFER-1"


def test_no_transfer_once_a_card_is_beaten_or_taken():
    s = api.apply(two_players(), beat(1, "7S", "8S"))
    assert refused(s, transfer(1, "7H")) == "R-TRANSFER-2"
    s = api.apply(two_players(), take(1))
    assert refused(s, transfer(1, "7H")) == "R-TAKE-1"


def test_edge_transfer_2_not_after_a_beat_even_with_one_rank_on_the_table():
    # 7C beaten by the trump 7D: the table shows only sevens, yet no transfer (R-TRANSFER-2)
    s = make_state([["7S", "8S", "9S"], ["7H", "QH", "KH"]], table=[("7C", 0, "7D")],
                   trump="AD", talon=["AD"], rest="talon", attacker=0, defender=1,
                   preset="perevodnoy")
    s = api.apply(s, throw(0, "7S"))
    assert transfer(1, "7H") not in api.legal_moves(s)
    assert refused(s, transfer(1, "7H")) == "R-TRANSFER-2"


def test_not_first_bout():
    s = two_players(transfer_condition="not_first_bout")
    assert refused(s, transfer(1, "7H")) == "R-TRANSFER-2"
    s = make_state([["7S", "9C", "TC"], ["7H", "8S"]], trump="AD", talon=["AD"], rest="talon",
                   attacker=0, defender=1, number=2, preset="perevodnoy",
                   transfer_condition="not_first_bout")
    s = api.apply(s, attack(0, "7S"))
    assert transfer(1, "7H") in api.legal_moves(s)


@pytest.mark.parametrize(("capacity", "target_cards", "legal"),
                         [("hand", 2, True), ("hand", 1, False),
                          ("hand_plus_one", 2, False), ("hand_plus_one", 3, True),
                          ("hand_and_limit", 2, True)])
def test_capacity_of_the_new_defender(capacity, target_cards, legal):
    # EDGE-TRANSFER-3: after the transfer seat 0 faces two sevens
    held = ["9C", "TC", "JC"][:target_cards]
    s = make_state([["7S"] + held, ["7H", "8S", "AH"]], trump="AD", talon=["AD"],
                   rest="talon", attacker=0, defender=1, preset="perevodnoy",
                   transfer_capacity=capacity)
    s = api.apply(s, attack(0, "7S"))
    if legal:
        assert transfer(1, "7H") in api.legal_moves(s)
    else:
        assert refused(s, transfer(1, "7H")) == "R-TRANSFER-3"


def test_capacity_and_the_cap_with_two_decks():
    # OQ6: four sevens on the table plus two more would make 6 > cap 5 (empty discard pile)
    s = make_state([["7S", "7S2", "7C", "7C2", "9C", "TC", "JC", "QC", "KC", "AC"],
                    ["7H", "7H2", "8S", "AH", "KH", "6C"]],
                   trump="AD", talon=["AD"], rest="talon", attacker=0, defender=1,
                   preset="perevodnoy", decks=2)
    s = api.apply(s, attack(0, "7S", "7S2", "7C", "7C2"))
    moves = api.legal_moves(s)
    assert transfer(1, "7H") in moves and transfer(1, "7H2") in moves
    assert refused(s, transfer(1, "7H", "7H2")) == "R-TRANSFER-3"
    s2 = api.apply(s, transfer(1, "7H"))
    assert len(s2["table"]) == 5 and s2["bout"]["defender"] == 0


def three_players(**overrides):
    # clubs are trumps; seat 0 leads 7S at seat 1; seat 2 sits next
    s = make_state([["7S", "9H", "TH", "JH"], ["7H", "8D", "AD"], ["7D", "QS", "KS"]],
                   trump="AC", talon=["AC"], rest="talon", attacker=0, defender=1,
                   preset="perevodnoy", **overrides)
    return api.apply(s, attack(0, "7S"))


def test_chain_round_the_table_and_transfer_around():
    s = api.apply(three_players(), transfer(1, "7H"))
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (1, 2)
    # seat 2 may pass it on to seat 0, the opener (transfer_around: allowed)
    assert transfer(2, "7D") in api.legal_moves(s)
    s = api.apply(three_players(transfer_around="forbidden"), transfer(1, "7H"))
    assert transfer(2, "7D") not in api.legal_moves(s)
    assert refused(s, transfer(2, "7D")) == "R-TRANSFER-5"


def test_transfer_around_forbidden_blocks_every_two_player_transfer():
    s = two_players(transfer_around="forbidden")
    assert [m for m in api.legal_moves(s) if m["action"] == "transfer"] == []


def test_main_attacker_original():
    s = api.apply(three_players(transfer_main_attacker="original"), transfer(1, "7H"))
    assert (s["bout"]["attacker"], s["bout"]["defender"], s["bout"]["opener"]) == (0, 2, 0)
    # circle: seat 0 (main) first; he holds no seven, but keeps the right while cards are unbeaten
    assert [m for m in api.legal_moves(s) if m["player"] != 2] == []
    # two players: the original main attacker is the new defender, so the transferrer is main
    s = api.apply(two_players(transfer_main_attacker="original"), transfer(1, "7H"))
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (1, 0)


def test_main_attacker_draws_first_after_a_transfer():
    s = api.apply(three_players(), transfer(1, "7H"))
    s = play(s, take(2), pass_(1), pass_(0))
    # seat 1 (the last transferrer, main attacker) drew first: he had 2 cards, gets to 6
    assert s["bout"]["number"] == 2
    assert len(hand(s, 1)) == 6 and len(hand(s, 0)) == 6
    # after the take, the player left of the taker (seat 0) attacks seat 1
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (0, 1)


def trump_show_position(preset="perevodnoy-trump-show", **overrides):
    # diamonds are trumps; seat 1 holds the trump seven 7D
    s = make_state([["7S", "7C", "9C", "TC", "JC"], ["7D", "8S", "AH", "KH"]],
                   trump="AD", talon=["AD"], rest="talon", attacker=0, defender=1,
                   preset=preset, **overrides)
    return api.apply(s, attack(0, "7S"))


def test_trump_show():
    s = trump_show_position()
    assert show(1, "7D") in api.legal_moves(s)
    s = api.apply(s, show(1, "7D"))
    assert "7D" in hand(s, 1) and s["players"][1]["known"] == ["7D"]
    assert s["bout"]["shown"] == ["7D"]
    assert s["table"] == [{"attack": "7S", "by": 0, "defence": None}]
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (1, 0)
    # seat 0 transfers back with 7C; seat 1 may not show 7D again (R-TRANSFER-8) but may play it
    s = api.apply(s, transfer(0, "7C"))
    assert show(1, "7D") not in api.legal_moves(s)
    assert refused(s, show(1, "7D")) == "R-TRANSFER-8"
    assert transfer(1, "7D") in api.legal_moves(s)


def test_trump_show_refusals():
    s = trump_show_position()
    assert refused(s, show(1, "8S")) == "R-TRANSFER-7"  # not a seven
    s2 = api.apply(trump_show_position(), beat(1, "7S", "8S"))
    assert refused(s2, show(1, "7D")) in ("R-TRANSFER-7",)  # nothing unbeaten, timing
    s3 = trump_show_position(preset="perevodnoy", trump_show="off")
    assert refused(s3, show(1, "7D")) == "R-TRANSFER-7"
    s4 = trump_show_position(preset="podkidnoy", trump_show="before_first_beat")
    assert refused(s4, show(1, "7D")) == "R-TRANSFER-7"  # needs transfer: on


def test_trump_show_any_time_after_a_beat():
    s = make_state([["7S", "7C", "9C"], ["7D", "8S", "AH", "KH"]],
                   trump="AD", talon=["AD"], rest="talon", attacker=0, defender=1,
                   preset="perevodnoy-trump-show", trump_show="any_time")
    s = play(s, attack(0, "7S", "7C"), beat(1, "7S", "8S"))
    assert show(1, "7D") in api.legal_moves(s)
    s = api.apply(s, show(1, "7D"))
    # the opening went down in canonical order (7C, 7S); the beaten pair stays, seat 0 must beat
    # the unbeaten 7C
    assert s["table"] == [{"attack": "7C", "by": 0, "defence": None},
                          {"attack": "7S", "by": 0, "defence": "8S"}]
    assert s["bout"]["defender"] == 0
    s_before = make_state([["7S", "7C", "9C"], ["7D", "8S", "AH", "KH"]],
                          trump="AD", talon=["AD"], rest="talon", attacker=0, defender=1,
                          preset="perevodnoy-trump-show")
    s_before = play(s_before, attack(0, "7S", "7C"), beat(1, "7S", "8S"))
    assert refused(s_before, show(1, "7D")) == "R-TRANSFER-7"


def test_a_trump_show_clears_passes():
    # R-THROW-6: with pass_reset beat a pass survives a throw-in, but not a trump show
    s = make_state([["7S", "7C", "9C", "TC", "JC"], ["7D", "8S", "AH", "KH"],
                    ["7H", "QS", "QC", "KC"]],
                   trump="AD", talon=["AD"], rest="talon", attacker=0, defender=1,
                   preset="perevodnoy-trump-show", trump_show="any_time")
    s = play(s, attack(0, "7S"), beat(1, "7S", "8S"), pass_(0), throw(2, "7H"))
    assert s["bout"]["passed"] == [0]
    s = api.apply(s, show(1, "7D"))
    assert s["bout"]["passed"] == [] and s["bout"]["defender"] == 2


def test_capacity_hand_lets_a_transfer_pass_the_cap_with_two_packs():
    """transfer_capacity: hand checks only the new defender's hand (R-TRANSFER-3), so with two
    packs a transfer may put a seventh ace on a table capped at six; the state that follows is a
    valid one (the reference's own validator used to refuse it). hand_and_limit refuses it."""
    hands = [
        ["AC", "AH", "AS", "AC2", "AH2", "AS2"],
        ["AD2", "9C", "9H", "TC", "TH", "JC"],
        ["9S", "TS", "JS", "QS", "KS", "9S2", "TS2", "JS2"],
    ]
    common = {"trump": "9D", "talon": [], "attacker": 0, "defender": 1, "number": 4, "decks": 2,
              "deck_size": 24}
    for capacity, allowed in (("hand", True), ("hand_and_limit", False)):
        s = make_state(hands, preset="perevodnoy", transfer_capacity=capacity, **common)
        s = api.apply(s, attack(0, *hands[0]))
        move = transfer(1, "AD2")
        if not allowed:
            assert refused(s, move) == "R-TRANSFER-3"
            continue
        after = api.apply(s, move)
        assert len(after["table"]) == 7 and after["bout"]["defender"] == 2
        api.validate_state(after)
        assert take(2) in api.legal_moves(after)
