"""`serve` never dies on a request (spec/protocol.md P-27): every line it is given, however hostile,
gets exactly one answer line that is valid JSON, and a request it cannot read is ``bad_request``
with ``"id": null`` (P-12).

The hostile inputs are small (a few hundred kilobytes at most): each would raise, or answer
invalid JSON, without the limits it tests.
"""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.contract.bounded_json import MAX_NESTING
from conformance.engines.base import InProcessEngine
from conformance.engines.serve import MAX_REQUEST_BYTES, encode_answer, handle_line, serve


def _strict(text: bytes) -> object:
    """Parse an answer line as strict JSON: NaN and Infinity are not JSON."""

    def refuse(name: str) -> None:
        raise AssertionError(f"the answer holds {name}, which is not JSON")

    return json.loads(text, parse_constant=refuse)


@pytest.fixture(scope="module")
def engine():
    return InProcessEngine(roundtrip=False)


def run_serve(engine, data: bytes) -> list[dict]:
    """Every answer line of a ``serve`` session fed ``data``, each parsed as strict JSON."""
    stdout = io.BytesIO()
    assert serve(engine, io.BytesIO(data), stdout) == 0
    out = stdout.getvalue()
    assert out.endswith(b"\n") or not out
    return [_strict(line) for line in out.split(b"\n")[:-1]]


def refused(answer: dict, words: str) -> None:
    assert answer["id"] is None and answer["ok"] is False, answer
    assert answer["error"]["code"] == "bad_request", answer
    assert words in answer["error"]["message"], answer


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (b"[" * 100_000, "nested 100000 levels"),
        (b'{"id": 1, "op": "hello", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}", "nested"),
        (b'{"id": NaN, "op": "hello"}', "NaN is not JSON"),
        (b'{"id": Infinity, "op": "hello"}', "Infinity is not JSON"),
        (b'{"id": -Infinity, "op": "hello"}', "Infinity is not JSON"),
        (b"   \t", "blank line"),
        (b'{"id": 1, "op": "hello"}\xff', "not JSON"),
    ],
)
def test_unreadable_requests_are_bad_requests_with_a_null_id(engine, line, words):
    [answer] = run_serve(engine, line + b"\n")
    refused(answer, words)


def test_nesting_at_the_limit_is_still_read(engine):
    """The limit refuses only what is deeper than it: a field nested exactly MAX_NESTING deep (the
    request object being the first level) is read and ignored (P-11)."""
    deep = "[" * (MAX_NESTING - 1) + "]" * (MAX_NESTING - 1)
    [answer] = run_serve(engine, f'{{"id": 3, "op": "hello", "x": {deep}}}\n'.encode())
    assert answer["id"] == 3 and answer["ok"] is True


def test_brackets_inside_strings_do_not_count_as_nesting(engine):
    line = json.dumps({"id": "[" * 1000, "op": "hello", "note": "{" * 1000 + '\\"['})
    [answer] = run_serve(engine, line.encode() + b"\n")
    assert answer["id"] == "[" * 1000 and answer["ok"] is True


@pytest.mark.parametrize(
    "line",
    [
        r'{"id":"\ud800","op":"hello"}',
        r'{"id":"\udfff","op":"dance"}',
        r'{"id":1,"op":"new_game","players":2,"ruleset":{"preset":"podkidnoy","overrides":{"\ud800":"x"}}}',
        r'{"id":"\ud800","op":"legal_moves","state":{"\ud800":1}}',
    ],
)
def test_a_lone_surrogate_echoed_back_stays_valid_json(engine, line):
    """The issue's reproduction: ``"\\ud800"`` is valid JSON, and echoing it in an id or a pointer
    must not make the answer unencodable."""
    [answer] = run_serve(engine, line.encode() + b"\n")
    request = json.loads(line)
    assert answer["id"] == request["id"]
    assert "ok" in answer


def test_a_line_over_the_size_limit_is_refused_and_the_next_one_answered(engine):
    huge = b'{"id": 1, "op": "hello", "pad": "' + b"x" * MAX_REQUEST_BYTES + b'"}\n'
    answers = run_serve(engine, huge + b'{"id": 2, "op": "hello"}\n')
    assert len(answers) == 2
    refused(answers[0], f"longer than {MAX_REQUEST_BYTES} bytes")
    assert answers[1]["id"] == 2 and answers[1]["ok"] is True


def test_a_line_of_exactly_the_limit_is_read(engine):
    head, tail = b'{"id": 4, "op": "hello", "pad": "', b'"}'
    line = head + b"x" * (MAX_REQUEST_BYTES - len(head) - len(tail)) + tail
    assert len(line) == MAX_REQUEST_BYTES
    [answer] = run_serve(engine, line + b"\n")
    assert answer["id"] == 4 and answer["ok"] is True


def test_an_answer_that_cannot_be_json_becomes_an_internal_error():
    line = encode_answer({"id": 5, "ok": True, "moves": [float("nan")]})
    answer = _strict(line)
    assert answer["id"] == 5 and answer["error"]["code"] == "internal_error"


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=()), max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=25,
)
OPS = st.sampled_from(
    [
        "hello",
        "new_game",
        "open_game",
        "legal_moves",
        "apply",
        "observe",
        "game_apply",
        "game_state",
        "close_game",
        "dance",
    ]
)
REQUESTS = st.fixed_dictionaries(
    {"op": OPS},
    optional={
        "id": JSON_VALUES,
        "state": JSON_VALUES,
        "move": JSON_VALUES,
        "player": JSON_VALUES,
        "players": JSON_VALUES,
        "ruleset": JSON_VALUES | st.just("podkidnoy"),
        "game": JSON_VALUES,
        "seed": JSON_VALUES,
        "deck": JSON_VALUES,
    },
)


def _one_answer(engine, line: bytes) -> dict:
    answer = handle_line(engine, line)
    encoded = encode_answer(answer)
    assert encoded.endswith(b"\n") and encoded.count(b"\n") == 1
    parsed = _strict(encoded)
    assert isinstance(parsed, dict) and isinstance(parsed["ok"], bool) and "id" in parsed
    if not parsed["ok"]:
        assert isinstance(parsed["error"]["code"], str)
    return parsed


PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(value=JSON_VALUES)
def test_any_json_value_gets_one_valid_answer(engine, value):
    line = json.dumps(value).encode()
    answer = _one_answer(engine, line)
    if not isinstance(value, dict):
        assert answer["id"] is None and answer["error"]["code"] == "bad_request"


@pytest.mark.slow  # a 300-example property run through serve (CI runs it)
@PROPERTY
@given(request=REQUESTS)
def test_any_request_shaped_object_gets_one_valid_answer(engine, request):
    _one_answer(engine, json.dumps(request).encode())


@PROPERTY
@given(data=st.binary(max_size=200))
def test_any_bytes_get_one_valid_answer(engine, data):
    _one_answer(engine, data)
