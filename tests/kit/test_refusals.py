"""Refusals name a rule even when the engine names none: the kit asks the reference engine on the
same state, and marks the error ``named_by: kit`` (an extra field, P-11)."""

from __future__ import annotations

from conformance.kit import Refused
from reference_impl import api

from .helpers import Toy, ask, two_player_game


def refuse(adapter, state, move) -> dict:
    answer = ask(adapter, {"id": 1, "op": "apply", "state": state, "move": move})
    assert answer["ok"] is False, answer
    return answer["error"]


def opened(adapter) -> dict:
    """A podkidnoy game of two after the first attacker's lowest single attack."""
    state = two_player_game(adapter, seed=42)
    attack = next(m for m in api.legal_moves(state) if m["action"] == "attack")
    answer = ask(adapter, {"id": 2, "op": "apply", "state": state, "move": attack})
    assert answer["ok"], answer
    return answer["state"]


def test_a_move_the_engine_does_not_list_is_refused_with_the_reference_rule_named_by_the_kit():
    toy = Toy()
    state = opened(toy)
    defender = state["bout"]["defender"]
    attacker = state["bout"]["attacker"]
    target = state["table"][0]["attack"]
    cases = [  # (move, the rule the contract's order names first)
        ({"player": attacker, "action": "throw_in", "card": state["players"][defender]["hand"][0]},
         "R-PLAY-3"),
        ({"player": defender, "action": "throw_in", "card": state["players"][defender]["hand"][0]},
         "R-PLAY-4"),
        ({"player": attacker, "action": "take"}, "R-PLAY-4"),
        ({"player": defender, "action": "transfer",
          "cards": [state["players"][defender]["hand"][0]]}, "R-TRANSFER-1"),
        ({"player": attacker, "action": "attack", "cards": [state["players"][attacker]["hand"][0]]},
         "R-ATTACK-1"),
    ]
    for move, rule in cases:
        err = refuse(toy, state, move)
        assert (err["code"], err["rule"], err["named_by"]) == ("illegal_move", rule, "kit"), err
        assert "toy does not offer this move" in err["message"]
    beaten_by = {m["card"] for m in api.legal_moves(state) if m["action"] == "beat"}
    weak = [c for c in state["players"][defender]["hand"] if c not in beaten_by]
    if weak:
        err = refuse(toy, state, {"player": defender, "action": "beat", "target": target,
                                  "card": weak[0]})
        assert (err["rule"], err["named_by"]) == ("R-BEAT-1", "kit")


def test_after_the_game_the_kit_names_r_play_2_itself():
    toy = Toy()
    state = two_player_game(toy)
    while state["result"] is None:  # the reference's first legal move, to the end of the game
        state = api.apply(state, api.legal_moves(state)[0])
    assert ask(toy, {"id": 1, "op": "legal_moves", "state": state})["moves"] == []
    err = refuse(toy, state, {"player": 0, "action": "take"})
    assert (err["rule"], err["named_by"]) == ("R-PLAY-2", "kit")


class Refusing(Toy):
    """Lists a take for the defender whatever the position, and refuses it in ``play``, as an
    engine whose ``apply`` checks more than its move list; names ``rule`` if one is set."""

    rule = None

    def moves(self, position):
        return [*super().moves(position), {"player": position[0].defender, "action": "take"}]

    def play(self, position, native):
        if isinstance(native, dict):  # the extra take: its native move is the move itself
            raise Refused("illegal_move", "refusing says no", rule=self.rule)
        return super().play(position, native)


class Naming(Refusing):
    rule = "R-TAKE-1"


def test_a_refusal_in_play_without_a_rule_gets_the_reference_rule_named_by_the_kit():
    toy = Toy()
    state = opened(toy)
    take = {"player": state["bout"]["defender"], "action": "take"}
    taking = ask(toy, {"id": 3, "op": "apply", "state": state, "move": take})["state"]
    err = refuse(Refusing(), taking, take)  # the defender has already declared take
    assert (err["rule"], err["named_by"]) == ("R-TAKE-1", "kit")
    assert "refusing says no" in err["message"]


def test_a_rule_the_engine_names_is_kept_and_marked_as_the_engines():
    state = opened(Toy())
    err = refuse(Naming(), state, {"player": state["bout"]["defender"], "action": "take"})
    assert (err["rule"], err["named_by"]) == ("R-TAKE-1", "engine")


def test_a_move_the_engine_refuses_but_the_rules_allow_names_no_rule():
    state = opened(Toy())
    err = refuse(Refusing(), state, {"player": state["bout"]["defender"], "action": "take"})
    assert (err["code"], err["rule"], err["named_by"]) == ("illegal_move", None, "kit")
    assert "accepts" in err["message"]  # the kit says why it names none rather than guess
