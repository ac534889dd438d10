"""The kit's protocol loop (spec/protocol.md): ids echoed, malformed requests answered
``bad_request``, every answer one JSON line, and no request, however bad, ends the process."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import ClassVar

import pytest

from conformance import kit

from .helpers import TOY, Toy, ask, two_player_game


@pytest.fixture
def toy():
    return Toy()


def error(answer: dict) -> dict:
    assert answer["ok"] is False, answer
    return answer["error"]


def test_hello_echoes_the_id_and_says_protocol_1(toy):
    answer = ask(toy, {"id": "abc", "op": "hello"})
    assert answer["id"] == "abc" and answer["ok"] is True and answer["protocol"] == "1"
    assert answer["engine"]["name"] == "toy" and answer["supports"]["observe"] is True


@pytest.mark.parametrize("line", ["{not json", "", "[1, 2]", "42", "null", "\"hello\""])
def test_a_line_that_is_not_a_json_object_is_bad_request_with_a_null_id(toy, line):
    answer = ask(toy, line)
    assert answer["id"] is None and error(answer)["code"] == "bad_request"


@pytest.mark.parametrize("request_", [
    {"id": 7, "op": "shuffle"},
    {"id": 7},
    {"id": 7, "op": None},
])
def test_an_unknown_or_missing_op_is_bad_request(toy, request_):
    answer = ask(toy, request_)
    assert answer["id"] == 7 and error(answer)["code"] == "bad_request"


@pytest.mark.parametrize("fields,pointer", [
    ({"players": 2, "seed": 1}, "/ruleset"),
    ({"ruleset": "podkidnoy", "seed": 1}, "/players"),
    ({"ruleset": "podkidnoy", "players": "two", "seed": 1}, "/players"),
    ({"ruleset": "podkidnoy", "players": 2}, "/seed"),
    ({"ruleset": "podkidnoy", "players": 2, "seed": 1, "deck": []}, "/seed"),
    ({"ruleset": "podkidnoy", "players": 2, "deck": ["6C"] * 36}, "/deck"),
    ({"ruleset": "no-such-preset", "players": 2, "seed": 1}, "/ruleset"),
    ({"ruleset": "podkidnoy", "players": 2, "seed": 1, "dealer": 2}, "/dealer"),
    ({"ruleset": "podkidnoy", "players": 2, "seed": 1, "previous": {"dealer": 0}}, "/previous"),
])
def test_new_game_with_a_missing_or_malformed_field_is_bad_request(toy, fields, pointer):
    err = error(ask(toy, {"id": 2, "op": "new_game", **fields}))
    assert err["code"] == "bad_request" and err["pointer"] == pointer


@pytest.mark.parametrize("op", ["legal_moves", "apply", "observe"])
def test_an_operation_on_a_state_needs_a_state_object(toy, op):
    for request_ in ({"id": 3, "op": op}, {"id": 3, "op": op, "state": [1]}):
        err = error(ask(toy, request_))
        assert err["code"] == "bad_request" and err["pointer"] == "/state"


def test_apply_needs_a_move_and_observe_a_player(toy):
    state = two_player_game(toy)
    assert error(ask(toy, {"id": 4, "op": "apply", "state": state}))["pointer"] == "/move"
    for player in (None, "0", True, 2):
        err = error(ask(toy, {"id": 5, "op": "observe", "state": state, "player": player}))
        assert err["code"] == "bad_request" and err["pointer"] == "/player"


@pytest.mark.parametrize("move,pointer", [
    ("beat", "/move"),
    ({"action": "take"}, "/move/player"),
    ({"player": 2, "action": "take"}, "/move/player"),
    ({"player": True, "action": "take"}, "/move/player"),
    ({"player": 0, "action": "surrender"}, "/move/action"),
    ({"player": 0, "action": "attack"}, "/move/cards"),
    ({"player": 0, "action": "attack", "cards": []}, "/move/cards"),
    ({"player": 0, "action": "attack", "cards": ["6C", "6C"]}, "/move/cards"),
    ({"player": 0, "action": "attack", "cards": ["2C"]}, "/move/cards"),  # not a 36-card deck's
    ({"player": 1, "action": "beat", "target": "6C"}, "/move/card"),
    ({"player": 1, "action": "throw_in", "card": "XX"}, "/move/card"),
])
def test_a_malformed_move_is_bad_request_pointing_into_the_move(toy, move, pointer):
    state = two_player_game(toy)
    err = error(ask(toy, {"id": 6, "op": "apply", "state": state, "move": move}))
    assert err["code"] == "bad_request" and err["pointer"] == pointer


def test_an_invalid_state_is_refused_with_the_judges_pointer(toy):
    state = two_player_game(toy)
    state["players"][1]["hand"].append(state["players"][0]["hand"][0])  # a card in two hands
    err = error(ask(toy, {"id": 8, "op": "legal_moves", "state": state}))
    assert err["code"] == "invalid_state" and err["rule"] == "R-DECK-5"
    assert err["pointer"].startswith("/players/") and err["named_by"] == "kit"
    del state["talon"]
    assert error(ask(toy, {"id": 9, "op": "apply", "state": state, "move": {}}))["code"] == (
        "invalid_state")


class Raising(Toy):
    def moves(self, position):
        raise RuntimeError("the engine fell over")


def test_an_engine_callback_that_raises_is_an_error_answer_not_a_crash(capsys):
    adapter = Raising()
    state = two_player_game(adapter)
    err = error(ask(adapter, {"id": 10, "op": "legal_moves", "state": state}))
    assert err["code"] == "bad_request" and err["exception"] == "RuntimeError"
    assert "the engine fell over" in err["message"]
    assert "RuntimeError" in capsys.readouterr().err  # the traceback goes to stderr
    assert ask(adapter, {"id": 11, "op": "hello"})["ok"]  # and the adapter answers on


class NoObserve(Toy):
    observe = kit.Adapter.observe
    supports: ClassVar = {k: v for k, v in Toy.supports.items() if k != "observe"}


def test_observe_is_unsupported_unless_written_and_hello_says_so():
    adapter = NoObserve()
    assert ask(adapter, {"id": 1, "op": "hello"})["supports"]["observe"] is False
    state = two_player_game(adapter)
    err = error(ask(adapter, {"id": 2, "op": "observe", "state": state, "player": 0}))
    assert err["code"] == "unsupported"
    answer = ask(Toy(), {"id": 3, "op": "observe", "state": state, "player": 0})
    assert answer["ok"] and answer["observation"]["hand"] == state["players"][0]["hand"]


def test_serve_answers_one_line_per_request_in_order():
    lines = ['{"id": 1, "op": "hello"}', "garbage", '{"id": "x", "op": "nope"}']
    out = io.StringIO()
    assert Toy().serve(io.StringIO("\n".join(lines) + "\n"), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [1, None, "x"]
    assert [a["ok"] for a in answers] == [True, False, False]


def test_the_process_survives_bad_requests_and_exits_0_at_end_of_input():
    requests = ["{", '{"id": 1, "op": "legal_moves", "state": {}}', '{"id": 2, "op": "hello"}']
    done = subprocess.run([sys.executable, str(TOY)], input="\n".join(requests) + "\n", check=False,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["ok"] for a in answers] == [False, False, True]
    assert answers[1]["error"]["code"] == "invalid_state" and answers[2]["id"] == 2
