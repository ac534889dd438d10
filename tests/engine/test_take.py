"""Taking, piling on and passing: R-TAKE-1..3, R-THROW-2 (OQ4), R-THROW-5, R-BOUT-2, R-ROLE-4."""

from reference_impl import api

from .helpers import assert_legal, beat, hand, make_state, pass_, refused, take, throw


def position(**overrides):
    # hearts are trumps; the defender holds 2 cards, 7C is unbeaten: one more card may come
    return make_state([["7S", "7D", "8C", "QH", "AS"], ["6C", "9C"]],
                      table=[("7C", 0, None)], trump="AH", talon=["AH"], rest="talon",
                      attacker=0, defender=1, **overrides)


def test_take_then_pile_on_up_to_the_defenders_hand():
    s = position()
    assert_legal(s, [beat(1, "7C", "9C"), take(1), throw(0, "7S"), throw(0, "7D")])
    s = api.apply(s, take(1))
    assert s["bout"]["taking"] is True
    # the defender makes no further move; the attacker may pile on or pass
    assert_legal(s, [throw(0, "7S"), throw(0, "7D"), pass_(0)])
    assert refused(s, take(1)) == "R-TAKE-1"
    s = api.apply(s, throw(0, "7S"))
    # U = 2 = H: nothing more is possible, the bout closed as a take in that move
    assert s["bout"]["number"] == 2
    assert s["table"] == []
    taken = hand(s, 1)
    assert {"6C", "9C", "7C", "7S"} <= set(taken)
    assert s["players"][1]["known"] == ["7C", "7S"]
    # two players: the same attacker attacks again; both refilled to six
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (0, 1)
    assert len(hand(s, 0)) == 6 and len(taken) == 6


def test_pass_after_take_closes_the_bout():
    s = api.apply(position(), take(1))
    s = api.apply(s, pass_(0))
    assert s["bout"]["number"] == 2
    assert "7C" in hand(s, 1) and s["players"][1]["known"] == ["7C"]
    assert s["discard"] == []


def test_pile_on_forbidden_closes_at_once():
    s = api.apply(position(pile_on="forbidden"), take(1))
    assert s["bout"]["number"] == 2 and "7C" in hand(s, 1)


def test_take_only_while_a_card_is_unbeaten():
    s = api.apply(position(), beat(1, "7C", "9C"))
    assert take(1) not in api.legal_moves(s)
    assert refused(s, take(1)) == "R-TAKE-1"
    s = api.apply(position(take_allowed="any_time"), beat(1, "7C", "9C"))
    assert_legal(s, [take(1), throw(0, "7S"), throw(0, "7D"), pass_(0)])


def test_after_first_beat_still_allows_piling_on():
    s = position(throw_in_timing="after_first_beat")
    assert_legal(s, [beat(1, "7C", "9C"), take(1)])  # nothing beaten yet: no throw-in
    s = api.apply(s, take(1))
    assert_legal(s, [throw(0, "7S"), throw(0, "7D"), pass_(0)])


def test_beat_after_take_is_refused():
    s = api.apply(position(), take(1))
    assert refused(s, beat(1, "7C", "9C")) == "R-TAKE-1"


def test_pass_rules():
    s = position()
    assert refused(s, pass_(0)) == "R-THROW-5"  # a card is unbeaten, no take declared
    assert refused(s, pass_(1)) == "R-PLAY-4"  # the defender never passes
    s = api.apply(s, beat(1, "7C", "9C"))
    s2 = api.apply(s, throw(0, "7D"))
    assert refused(s2, pass_(0)) == "R-THROW-5"


def test_after_a_take_the_defenders_left_attacks_skipping_players_out():
    # four players, talon empty; seat 2 is out. Seat 1 takes: seat 2 is skipped, seat 3 attacks
    # seat 0.
    s = make_state([["7S", "8S"], ["9D", "TD"], [], ["JC", "QC", "KC"]],
                   table=[("7C", 0, None)], trump="AH", talon=[], finished=[2],
                   attacker=0, defender=1, pile_on="forbidden")
    s = api.apply(s, take(1))
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (3, 0)
    assert s["bout"]["number"] == 2
