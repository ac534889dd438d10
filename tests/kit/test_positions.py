"""An engine that cannot be set up from a position: without ``setup`` the kit remembers the
positions it answered, and refuses any other state as ``unsupported``."""

from __future__ import annotations

from conformance import kit
from conformance.contract.canonical import canonical_move
from reference_impl import api

from .helpers import Toy, ask


class Remembering(Toy):
    setup = kit.Adapter.setup


def test_an_engine_without_setup_plays_from_the_states_it_answered():
    adapter = Remembering()
    state = ask(adapter, {"id": 1, "op": "new_game", "ruleset": "podkidnoy", "players": 2,
                          "seed": 8})["state"]
    for step in range(30):
        moves = ask(adapter, {"id": 2, "op": "legal_moves", "state": state})["moves"]
        assert sorted(map(canonical_move, moves)) == sorted(
            map(canonical_move, api.legal_moves(state)))
        if not moves:
            break
        move = moves[step % len(moves)]
        answer = ask(adapter, {"id": 3, "op": "apply", "state": state, "move": move})
        assert answer["state"] == api.apply(state, move)
        state = answer["state"]


def test_a_state_it_did_not_answer_is_unsupported():
    state = api.new_game("podkidnoy", 2, seed=8)
    answer = ask(Remembering(), {"id": 1, "op": "legal_moves", "state": state})
    assert answer["error"]["code"] == "unsupported"
