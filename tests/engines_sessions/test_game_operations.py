"""The game operations of spec/protocol.md section 7, answered by real processes: the reference
engine behind ``durak-conformance serve`` (handles are integers) and the kit's toy engine
(tests/kit/toy_engine.py, handles are strings). Every message validates against the protocol's
schema; a game answers what the stateless operations answer on its states (P-37)."""

from __future__ import annotations

import json
import random
import subprocess

import pytest

from conformance.contract.canonical import canonical_move

from .helpers import SERVE, TOY, check


class Line:
    """One engine process, spoken to a request at a time (P-4)."""

    def __init__(self, command: list[str]):
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.next_id = 0

    def __call__(self, op: str, **fields) -> dict:
        self.next_id += 1
        request = {"id": self.next_id, "op": op, **fields}
        check(f"{op}_request", request)
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        assert answer["id"] == self.next_id
        check(f"{op}_response" if answer["ok"] else "error_response", answer)
        return answer

    def close(self) -> int:
        self.proc.stdin.close()
        return self.proc.wait(timeout=10)


@pytest.fixture(params=["serve", "kit"], scope="module")
def engine(request):
    line = Line(SERVE if request.param == "serve" else TOY)
    yield line
    assert line.close() == 0


DEAL = {"ruleset": "podkidnoy", "players": 3, "seed": 11}


def refused(answer: dict, code: str) -> dict:
    assert answer["ok"] is False and answer["error"]["code"] == code, answer
    return answer["error"]


def keys(moves: list) -> list[str]:
    return sorted(map(canonical_move, moves))


def test_hello_claims_sessions(engine):
    supports = engine("hello")["supports"]
    assert supports["sessions"] is True and supports.get("positions", True) is True


def test_every_game_operation_answers_as_its_stateless_twin(engine):
    opened = engine("open_game", **DEAL)
    game, state = opened["game"], opened["state"]
    assert state == engine("new_game", **DEAL)["state"]
    moves = engine("game_legal_moves", game=game)["moves"]
    assert keys(moves) == keys(engine("legal_moves", state=state)["moves"])
    seen = engine("game_observe", game=game, player=1)["observation"]
    assert seen == engine("observe", state=state, player=1)["observation"]
    after = engine("game_apply", game=game, move=moves[0])["state"]
    assert after == engine("apply", state=state, move=moves[0])["state"]
    assert engine("game_state", game=game)["state"] == after
    assert engine("close_game", game=game) == {"id": engine.next_id, "ok": True}


def test_a_whole_game_in_a_session_is_the_stateless_game(engine):
    rng = random.Random(5)
    opened = engine("open_game", ruleset="perevodnoy", players=2, seed=77)
    game, state = opened["game"], opened["state"]
    for _ in range(400):
        moves = engine("game_legal_moves", game=game)["moves"]
        assert keys(moves) == keys(engine("legal_moves", state=state)["moves"])
        if not moves:
            break
        move = rng.choice(moves)
        state = engine("game_apply", game=game, move=move)["state"]
        assert state == engine("game_state", game=game)["state"]
    assert state["result"] is not None
    error = refused(
        engine("game_apply", game=game, move={"player": 0, "action": "take"}), "illegal_move"
    )
    assert error["rule"] == "R-PLAY-2"
    engine("close_game", game=game)


def test_an_illegal_move_is_refused_and_leaves_the_game_as_it_was(engine):
    opened = engine("open_game", **DEAL)
    game, state = opened["game"], opened["state"]
    attacker = state["bout"]["attacker"]
    foreign = state["players"][(attacker + 1) % 3]["hand"][0]
    error = refused(
        engine(
            "game_apply",
            game=game,
            move={"player": attacker, "action": "attack", "cards": [foreign]},
        ),
        "illegal_move",
    )
    assert error["rule"] == "R-PLAY-3"
    refused(engine("game_apply", game=game, move={"player": 7, "action": "take"}), "bad_request")
    assert engine("game_state", game=game)["state"] == state
    move = engine("game_legal_moves", game=game)["moves"][-1]
    assert (
        engine("game_apply", game=game, move=move)["state"]
        == engine("apply", state=state, move=move)["state"]
    )
    engine("close_game", game=game)


def test_games_are_apart(engine):
    one = engine("open_game", **DEAL)
    two = engine("open_game", **{**DEAL, "seed": 12})
    assert one["game"] != two["game"]
    move = engine("game_legal_moves", game=one["game"])["moves"][0]
    engine("game_apply", game=one["game"], move=move)
    assert engine("game_state", game=two["game"])["state"] == two["state"]
    for opened in (one, two):
        engine("close_game", game=opened["game"])


@pytest.mark.parametrize("handle", [987654, "no-such-game", -1])
def test_a_handle_never_opened_is_bad_request_at_game(engine, handle):
    for op, fields in (
        ("game_legal_moves", {}),
        ("game_state", {}),
        ("close_game", {}),
        ("game_apply", {"move": {"player": 0, "action": "take"}}),
        ("game_observe", {"player": 0}),
    ):
        error = refused(engine(op, game=handle, **fields), "bad_request")
        assert error["pointer"] == "/game" and "no open game" in error["message"]


def test_a_closed_handle_is_refused_like_one_never_opened(engine):
    game = engine("open_game", **DEAL)["game"]
    engine("close_game", game=game)
    assert refused(engine("game_state", game=game), "bad_request")["pointer"] == "/game"
    assert refused(engine("close_game", game=game), "bad_request")["pointer"] == "/game"


def test_open_game_is_refused_as_new_game_is(engine):
    for fields in (
        {"ruleset": "podkidnoy", "players": 7, "seed": 1},
        {"ruleset": "no-such-preset", "players": 2, "seed": 1},
    ):
        want = refused(engine("new_game", **fields), "bad_request")
        got = refused(engine("open_game", **fields), "bad_request")
        assert got["rule"] == want["rule"]


def test_a_request_without_its_game_is_bad_request(engine):
    proc = engine.proc  # requests the schema forbids, so written by hand
    for line in (
        '{"id": "a", "op": "game_state"}',
        '{"id": "b", "op": "game_apply", "game": true}',
    ):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        reply = json.loads(proc.stdout.readline())
        check("error_response", reply)
        assert reply["error"]["code"] == "bad_request" and reply["error"]["pointer"] == "/game"
