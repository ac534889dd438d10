"""`serve` answers every request as spec/protocol.md says, and every message the runner sends or
receives validates against spec/schema/protocol.schema.json."""

from __future__ import annotations

import io
import json

import jsonschema
import pytest

from conformance.engines.base import InProcessEngine, new_game_request
from conformance.engines.serve import handle_line, serve
from reference_impl.specdata import schema_path

SCHEMA = json.loads(schema_path("protocol").read_text())


def check(definition: str, message: dict) -> None:
    schema = {**SCHEMA, "$ref": f"#/$defs/{definition}"}
    schema.pop("anyOf")
    jsonschema.Draft202012Validator(schema).validate(message)


@pytest.fixture(scope="module")
def engine():
    return InProcessEngine(roundtrip=False)


def ask(engine, request: dict) -> dict:
    check(f"{request['op']}_request", request)
    return handle_line(engine, json.dumps(request))


def test_schema_is_valid():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_every_operation_round_trip(engine):
    hello = ask(engine, {"id": 1, "op": "hello"})
    check("hello_response", hello)
    assert hello["id"] == 1 and hello["protocol"] == "1"
    request = {"id": 2, **new_game_request("podkidnoy", 3, seed=11)}
    started = ask(engine, request)
    check("new_game_response", started)
    state = started["state"]
    moves = ask(engine, {"id": "three", "op": "legal_moves", "state": state})
    check("legal_moves_response", moves)
    assert moves["id"] == "three" and moves["moves"]
    applied = ask(engine, {"id": 4, "op": "apply", "state": state, "move": moves["moves"][0]})
    check("apply_response", applied)
    observed = ask(engine, {"id": 5, "op": "observe", "state": state, "player": 0})
    check("observe_response", observed)


def test_refusals_carry_code_rule_and_message(engine):
    state = handle_line(engine, json.dumps({"id": 1, **new_game_request("podkidnoy", 2, seed=3)}))
    state = state["state"]
    attacker = state["bout"]["attacker"]
    foreign = state["players"][1 - attacker]["hand"][0]
    move = {"player": attacker, "action": "attack", "cards": [foreign]}
    refused = ask(engine, {"id": 9, "op": "apply", "state": state, "move": move})
    check("error_response", refused)
    assert refused["error"]["code"] == "illegal_move" and refused["error"]["rule"] == "R-PLAY-3"


@pytest.mark.parametrize(
    ("line", "ident", "words"),
    [
        (b"this is not json", None, "not JSON"),
        (b"[1, 2]", None, "JSON object"),
        (b'{"id": 7, "op": "dance"}', 7, "unknown op"),
        (b'{"id": 8, "op": "legal_moves"}', 8, "needs state"),
        (b'{"id": 9, "op": "apply", "state": {"result": null}}', 9, "needs move"),
        (b'{"id": 10, "op": "new_game", "ruleset": "podkidnoy"}', 10, "needs players"),
        (b'{"id": 11, "op": "observe", "state": {"result": null}, "player": "x"}', 11, "seat"),
    ],
)
def test_bad_requests_are_answered_not_fatal(engine, line, ident, words):
    answer = handle_line(engine, line)
    check("error_response", answer)
    assert answer["id"] == ident and answer["error"]["code"] == "bad_request"
    assert words in answer["error"]["message"]


def test_serve_loop_answers_every_line_a_blank_one_with_bad_request(engine):
    """P-12: a blank line is not a JSON object, so it is answered bad_request with id null."""
    stdin = io.BytesIO(b'{"id": 1, "op": "hello"}\n\n{"id": 2, "op": "nope"}\n')
    stdout = io.BytesIO()
    assert serve(engine, stdin, stdout) == 0
    answers = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [1, None, 2]
    assert [a["ok"] for a in answers] == [True, False, False]
    assert answers[1]["error"]["code"] == "bad_request" and "blank" in answers[1]["error"]["message"]
