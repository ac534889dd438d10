"""spec/rules.md section 19 (a bout, step by step), move by move, with the exact legal sets.

Three players, seat 0 main attacker, seat 1 defends, spades are trumps, the discard pile is not empty
(cap 6): R-ATTACK-1/2, R-BEAT-1, R-THROW-1/4/5/6, R-BOUT-1, R-DRAW-1/2/3, R-ROLE-3, R-INFO-3.
"""

from reference_impl import api

from .helpers import assert_legal, attack, beat, hand, make_state, pass_, take, throw


def start(**overrides):
    return make_state(
        [
            ["7H", "7C", "9D", "KD", "QS", "AC"],
            ["9H", "JC", "8D", "TD", "6D", "8S"],
            ["9C", "KC", "QH", "6H", "AD", "7D"],
        ],
        trump="6S", talon=["KH", "6S"], attacker=0, defender=1, **overrides,
    )


def test_the_walkthrough():
    s = start()
    assert len(s["discard"]) == 16
    # 1. only the main attacker moves: any single card, or the two sevens together
    assert_legal(s, [attack(0, c) for c in hand(s, 0)] + [attack(0, "7C", "7H")])
    s = api.apply(s, attack(0, "7H"))
    # 2. the defender beats (9H same suit, 8S trump; JC/8D/TD/6D cannot) or takes; seat 0 holds
    #    the right and may throw in his other seven, but may not pass while 7H is unbeaten
    assert_legal(s, [beat(1, "7H", "9H"), beat(1, "7H", "8S"), take(1), throw(0, "7C")])
    s = api.apply(s, beat(1, "7H", "9H"))
    # 3. ranks 7 and 9 are on the table; only seat 0 (circle) may add or pass
    assert_legal(s, [throw(0, "7C"), throw(0, "9D"), pass_(0)])
    s = api.apply(s, pass_(0))
    assert s["bout"]["passed"] == [0]
    # 4. the right goes to seat 2, the defender's left
    assert_legal(s, [throw(2, "9C"), throw(2, "7D"), pass_(2)])
    s = api.apply(s, throw(2, "9C"))
    assert s["table"][-1] == {"attack": "9C", "by": 2, "defence": None}
    # seat 2 keeps the right: seat 0's pass stands (only a beat clears it)
    assert_legal(s, [beat(1, "9C", "JC"), beat(1, "9C", "8S"), take(1), throw(2, "7D")])
    s = api.apply(s, beat(1, "9C", "JC"))
    # 5. the beat clears the passes: the right is seat 0's again (ranks 7, 9, J on the table)
    assert s["bout"]["passed"] == []
    assert_legal(s, [throw(0, "7C"), throw(0, "9D"), pass_(0)])
    s = api.apply(s, pass_(0))
    assert_legal(s, [throw(2, "7D"), pass_(2)])
    s = api.apply(s, pass_(2))
    # the bout closed as a successful defence in seat 2's pass
    assert s["table"] == []
    assert s["discard"][-4:] == ["7H", "9H", "9C", "JC"]
    # draw: seat 0 (main attacker) takes KH, seat 2 the trump card 6S, seat 1 (defender) nothing
    assert hand(s, 0) == ["7C", "AC", "9D", "KD", "KH", "QS"]
    assert hand(s, 2) == ["KC", "7D", "AD", "6H", "QH", "6S"]
    assert hand(s, 1) == ["6D", "8D", "TD", "8S"]
    assert s["players"][2]["known"] == ["6S"]
    assert s["talon"] == []
    assert s["bout"] == {"number": 2, "attacker": 1, "defender": 2, "opener": 1, "passed": [],
                         "taking": False, "first_defence": None, "shown": [], "emptied": []}


def after_first_beat(**overrides):
    s = start(**overrides)
    s = api.apply(s, attack(0, "7H"))
    return api.apply(s, beat(1, "7H", "9H"))


def test_free_priority_lets_every_eligible_attacker_act():
    s = after_first_beat(throw_in_priority="free")
    assert_legal(s, [throw(0, "7C"), throw(0, "9D"), pass_(0),
                     throw(2, "9C"), throw(2, "7D"), pass_(2)])


def test_main_first_then_everybody():
    s = after_first_beat(throw_in_priority="main_first")
    assert_legal(s, [throw(0, "7C"), throw(0, "9D"), pass_(0)])
    s = api.apply(s, pass_(0))
    assert_legal(s, [throw(2, "9C"), throw(2, "7D"), pass_(2)])


def test_throwers_main_only_closes_after_the_main_attackers_pass():
    s = after_first_beat(throwers="main_only")
    assert_legal(s, [throw(0, "7C"), throw(0, "9D"), pass_(0)])
    s = api.apply(s, pass_(0))
    assert s["bout"]["number"] == 2  # nobody else is eligible: the bout closed


def test_pass_reset_any_card_gives_the_right_back_after_a_throw_in():
    s = after_first_beat(pass_reset="any_card")
    s = api.apply(s, pass_(0))
    s = api.apply(s, throw(2, "9C"))
    assert s["bout"]["passed"] == []
    # circle: the main attacker has the right again (7C, 9D; no pass while 9C is unbeaten)
    assert_legal(s, [beat(1, "9C", "JC"), beat(1, "9C", "8S"), take(1),
                     throw(0, "7C"), throw(0, "9D")])


def test_throw_in_timing_after_first_beat_and_all_beaten():
    for timing in ("after_first_beat", "all_beaten"):
        s = api.apply(start(throw_in_timing=timing), attack(0, "7H"))
        # nothing beaten yet: no throw-in
        assert_legal(s, [beat(1, "7H", "9H"), beat(1, "7H", "8S"), take(1)])
    # after a beat with a card unbeaten: allowed after the first beat, not under all_beaten
    for timing, seat2_may_throw in (("after_first_beat", True), ("all_beaten", False)):
        s = after_first_beat(throw_in_timing=timing, throw_in_priority="free")
        s = api.apply(s, throw(2, "9C"))
        moves = [beat(1, "9C", "JC"), beat(1, "9C", "8S"), take(1)]
        if seat2_may_throw:
            moves += [throw(0, "7C"), throw(0, "9D"), throw(2, "7D")]
        assert_legal(s, moves)


def test_first_pair_ranks():
    s = after_first_beat(throw_in_ranks="first_pair", throw_in_priority="free")
    s = api.apply(s, throw(2, "9C"))
    s = api.apply(s, beat(1, "9C", "JC"))
    # table ranks 7, 9, J; first pair 7H/9H allows only 7 and 9 (nobody holds a jack anyway)
    assert_legal(s, [throw(0, "7C"), throw(0, "9D"), pass_(0), throw(2, "7D"), pass_(2)])
