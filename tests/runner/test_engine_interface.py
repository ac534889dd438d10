"""The Engine interface turns every engine answer, good or bad, into a plain value."""

from types import SimpleNamespace

from conformance.engines.base import ErrorResult, InProcessEngine, is_error, new_game_request


class _EngineError(Exception):
    def __init__(self, code, message, rule=None, pointer=None):
        super().__init__(message)
        self.code, self.message, self.rule, self.pointer = code, message, rule, pointer


def _fake_api(**overrides):
    def apply(state, move):
        if move.get("card") == "KS":
            raise _EngineError("illegal_move", "KS is not on the table", rule="R-THROW-1")
        return {**state, "moved": (1, 2)}

    def legal_moves(state):
        raise KeyError("boom")

    api = SimpleNamespace(
        EngineError=_EngineError,
        capabilities=lambda: {"engine": {"name": "fake", "version": "0"}, "supports": {}},
        new_game=lambda ruleset, players, **kw: {"ruleset": ruleset, "players": players, **kw},
        legal_moves=legal_moves,
        apply=apply,
    )
    for key, value in overrides.items():
        setattr(api, key, value)
    return api


def test_engine_error_becomes_structured_value():
    engine = InProcessEngine(_fake_api())
    answer = engine.apply({}, {"player": 0, "action": "throw_in", "card": "KS"})
    assert is_error(answer)
    assert (answer.code, answer.rule, answer.is_fault) == ("illegal_move", "R-THROW-1", False)


def test_unexpected_exception_is_an_internal_error_with_traceback():
    answer = InProcessEngine(_fake_api()).legal_moves({})
    assert isinstance(answer, ErrorResult) and answer.code == "internal_error"
    assert answer.is_fault and "KeyError" in answer.diagnostics["traceback"]


def test_answers_look_like_wire_json():
    answer = InProcessEngine(_fake_api()).apply({"a": 1}, {"player": 0, "action": "take"})
    assert answer == {"a": 1, "moved": [1, 2]}  # the tuple became a list


def test_hello_adds_protocol_version():
    hello = InProcessEngine(_fake_api()).hello()
    assert hello["protocol"] == "1" and hello["engine"]["name"] == "fake"


def test_new_game_passes_only_given_fields():
    assert new_game_request("podkidnoy", 2, seed=7) == {
        "op": "new_game",
        "ruleset": "podkidnoy",
        "players": 2,
        "seed": 7,
    }
    state = InProcessEngine(_fake_api()).new_game("podkidnoy", 3, deck=["6C"], dealer=1)
    assert state["deck"] == ["6C"] and state["dealer"] == 1 and state["seed"] is None


def test_error_result_from_malformed_error_object():
    assert ErrorResult.from_json("nope").code == "protocol_error"
    err = ErrorResult.from_json({"code": "invalid_state", "message": "x", "pointer": "/talon"})
    assert (err.code, err.pointer, str(err)) == (
        "invalid_state",
        "/talon",
        "invalid_state at /talon: x",
    )
