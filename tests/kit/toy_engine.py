#!/usr/bin/env python3
"""A toy engine adapted through the kit: the reference engine's core, as any engine would be.

Its view drops every field the kit derives (known, team, table ``by``, the bout's number, opener,
first defence and emptied seats, the finishing order, the result but the fool) and gives the
discard pile in no order: the suite, run on it, checks the kit's work, not the reference's."""

import random
from typing import ClassVar

from conformance import kit
from reference_impl import api, codec, core
from reference_impl.cards import CARD_NUMBERS
from reference_impl.deal import deal
from reference_impl.observe import observe
from reference_impl.tables import compile_rules


class Toy(kit.Adapter):
    engine: ClassVar = {"name": "toy", "version": "1", "language": "Python"}
    supports: ClassVar = api.capabilities()["supports"]

    def deal(self, game):
        rules, order = compile_rules(game.options), [CARD_NUMBERS[c] for c in game.deck]
        s = deal(rules, game.players, order, game.dealer, game.first_attacker)
        return s, game.ruleset["name"]

    def setup(self, state):
        return codec.state_from_json(state), state["ruleset"]["name"]

    def moves(self, position):
        return [(codec.move_to_json(m), m) for m in core.legal_moves(position[0])]

    def play(self, position, native):
        core.apply_move(position[0], native)
        return position

    def view(self, position):
        state = codec.state_to_json(*position)
        for field in ("version", "ruleset", "dealer", "finished"):
            del state[field]
        for row in state["table"]:
            del row["by"]
        for player in state["players"]:
            del player["known"], player["team"]
        for field in ("number", "opener", "first_defence", "emptied") if state["bout"] else ():
            del state["bout"][field]
        if state["result"]:
            state["result"] = {"fool": state["result"]["fool"]}
        random.shuffle(state["discard"])  # an engine may keep the pile as a set
        return state

    def observe(self, position, state, player):
        return observe(state, player)


if __name__ == "__main__":
    Toy().serve()
