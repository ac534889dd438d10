"""Game sessions in the kit (spec/protocol.md section 7): the kit keeps the engine's own position
per game and plays each move on it, with no set-up and no copy, through the same checks,
bookkeeping and rule naming as a stateless request; a refused move leaves the game as it was."""

from __future__ import annotations

import random
from typing import ClassVar

import pytest

from conformance import kit
from conformance.contract.canonical import canonical_move

from .helpers import Toy, ask


class Counting(Toy):
    """The toy, counting how often the kit deals and sets up a position."""

    def __init__(self):
        super().__init__()
        self.calls = {"deal": 0, "setup": 0}

    def deal(self, game):
        self.calls["deal"] += 1
        return super().deal(game)

    def setup(self, state):
        self.calls["setup"] += 1
        return super().setup(state)


class Remembering(Toy):
    setup = kit.Adapter.setup  # no setup: hello says positions false


class Stumbling(Toy):
    """Plays half of every tenth move, then refuses it: a position left half-changed."""

    played = 0

    def play(self, position, native):
        Stumbling.played += 1
        if Stumbling.played % 10 == 0:
            position[0].hands[0] = 0  # seat 0's hand emptied (a bit mask)
            raise kit.Refused("illegal_move", "the engine changed its mind")
        return super().play(position, native)


def call(adapter, op: str, **fields) -> dict:
    answer = ask(adapter, {"id": 1, "op": op, **fields})
    return answer


def ok(answer: dict) -> dict:
    assert answer["ok"] is True, answer
    return answer


def error(answer: dict) -> dict:
    assert answer["ok"] is False, answer
    return answer["error"]


DEAL = {"ruleset": "podkidnoy", "players": 3, "seed": 8}


def test_a_game_is_dealt_once_and_never_set_up_again():
    adapter = Counting()
    opened = ok(call(adapter, "open_game", **DEAL))
    game, state = opened["game"], opened["state"]
    assert isinstance(game, str) and state == ok(call(Toy(), "new_game", **DEAL))["state"]
    rng = random.Random(1)
    for _ in range(2000):
        moves = ok(call(adapter, "game_legal_moves", game=game))["moves"]
        if not moves:
            break
        state = ok(call(adapter, "game_apply", game=game, move=rng.choice(moves)))["state"]
    assert state["result"] is not None
    assert adapter.calls == {"deal": 1, "setup": 0}


def test_a_session_answers_what_the_stateless_requests_answer():
    session, stateless = Toy(), Toy()
    game = ok(call(session, "open_game", ruleset="perevodnoy", players=4, seed=3))["game"]
    state = ok(call(stateless, "new_game", ruleset="perevodnoy", players=4, seed=3))["state"]
    rng = random.Random(7)
    for _ in range(300):
        assert ok(call(session, "game_state", game=game))["state"] == state
        moves = ok(call(session, "game_legal_moves", game=game))["moves"]
        want = ok(call(stateless, "legal_moves", state=state))["moves"]
        assert sorted(map(canonical_move, moves)) == sorted(map(canonical_move, want))
        for player in range(4):
            assert call(session, "game_observe", game=game, player=player) == call(
                stateless, "observe", state=state, player=player)
        probe = {"player": rng.randrange(4), "action": "throw_in", "card": "AS"}
        assert call(session, "game_apply", game=game, move=probe) == call(
            stateless, "apply", state=state, move=probe)  # the same rule, named by the kit
        if not moves:
            break
        move = rng.choice(moves)
        state = ok(call(stateless, "apply", state=state, move=move))["state"]
        assert ok(call(session, "game_apply", game=game, move=move))["state"] == state
    game_over = error(call(session, "game_apply", game=game, move={"player": 0, "action": "take"}))
    assert (game_over["rule"], game_over["named_by"]) == ("R-PLAY-2", "kit")
    assert ok(call(session, "game_legal_moves", game=game))["moves"] == []


def test_an_engine_without_setup_plays_sessions_without_remembering_positions():
    adapter = Remembering()
    assert ok(call(adapter, "hello"))["supports"]["positions"] is False
    game = ok(call(adapter, "open_game", **DEAL))["game"]
    for _ in range(20):
        moves = ok(call(adapter, "game_legal_moves", game=game))["moves"]
        ok(call(adapter, "game_apply", game=game, move=moves[0]))
    assert not adapter._positions  # nothing copied: the game's own position was played on


def test_a_refused_move_leaves_the_game_as_it_was_even_if_the_engine_changed_it():
    adapter = Stumbling()
    Stumbling.played = 0
    game = ok(call(adapter, "open_game", **DEAL))["game"]
    refusals = 0
    for _ in range(40):
        before = ok(call(adapter, "game_state", game=game))["state"]
        moves = ok(call(adapter, "game_legal_moves", game=game))["moves"]
        answer = call(adapter, "game_apply", game=game, move=moves[-1])
        if not answer["ok"]:
            refusals += 1
            assert answer["error"]["code"] == "illegal_move"
            assert ok(call(adapter, "game_state", game=game))["state"] == before
            again = ok(call(adapter, "game_legal_moves", game=game))["moves"]
            assert sorted(map(canonical_move, again)) == sorted(map(canonical_move, moves))
    assert refusals >= 3


def test_handles_unknown_or_closed_are_bad_request_at_game():
    adapter = Toy()
    game = ok(call(adapter, "open_game", **DEAL))["game"]
    assert call(adapter, "close_game", game=game) == {"id": 1, "ok": True}
    for handle in (game, "g999", 1, None, ["g1"]):
        err = error(call(adapter, "game_state", game=handle))
        assert err["code"] == "bad_request" and err["pointer"] == "/game"
    game = ok(call(adapter, "open_game", **DEAL))["game"]
    assert error(call(adapter, "game_apply", game=game))["pointer"] == "/move"
    assert error(call(adapter, "game_observe", game=game, player=3))["pointer"] == "/player"


@pytest.mark.parametrize("fields,code", [
    ({"ruleset": "podkidnoy", "players": 7, "seed": 1}, "bad_request"),
    ({"ruleset": {"preset": "podkidnoy", "overrides": {"deck_size": 24}}, "players": 2, "seed": 1},
     "unsupported"),
])
def test_open_game_is_checked_as_new_game_is(fields, code):
    class Narrow(Toy):
        supports: ClassVar = {"players": {"36": [2]}, "options": {}}

    assert error(call(Narrow(), "open_game", **fields)) == error(call(Narrow(), "new_game",
                                                                       **fields))
    assert error(call(Narrow(), "open_game", **fields))["code"] == code


def test_the_kits_quick_move_keys_agree_with_move_equality():
    import itertools

    from conformance.kit.requests import move_id, move_key

    moves = [{"player": 0, "action": "attack", "cards": ["7S", "6C"]},
             {"player": 0, "action": "attack", "cards": ["6C", "7S"]},
             {"player": 0, "action": "attack", "cards": ["6C"]},
             {"player": 0, "action": "attack", "cards": "6C"},
             {"player": 1, "action": "beat", "target": "6C", "card": "7C"},
             {"player": 1, "action": "beat", "card": "7C", "target": "6C", "note": "extra"},
             {"player": 1, "action": "take"}, {"player": True, "action": "take"},
             {"player": 1.0, "action": "take"}, {"action": "take"}]
    for a, b in itertools.product(moves, moves):
        assert (move_id(a) == move_id(b)) == (move_key(a) == move_key(b)), (a, b)
