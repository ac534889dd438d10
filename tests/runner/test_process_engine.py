"""SubprocessEngine survives every kind of broken engine, and leaves nothing behind."""

from __future__ import annotations

import os
import threading
import time

import pytest

from conformance.engines.base import ErrorResult
from conformance.engines.process import SubprocessEngine

from .helpers import engine_env, misbehave_argv, processes_with, token, zombie_children


def _engine(mode: str, *args: str, timeout: float = 5.0, **kwargs) -> tuple[SubprocessEngine, str]:
    tag = token()
    engine = SubprocessEngine(
        misbehave_argv(mode, *args, tag=tag), timeout=timeout, env=engine_env(), **kwargs
    )
    return engine, tag


def _state(engine: SubprocessEngine) -> dict:
    state = engine.new_game("podkidnoy", 2, seed=7)
    assert isinstance(state, dict), state
    return state


@pytest.fixture(autouse=True)
def _no_leaks():
    threads = threading.active_count()
    yield
    assert threading.active_count() == threads, "the engine left a thread behind"
    assert zombie_children() == [], "an engine process was never reaped"


def _closed(engine: SubprocessEngine, tag: str) -> None:
    engine.close()
    deadline = time.monotonic() + 3
    while processes_with(tag) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_with(tag) == [], "an engine process survived close()"


def test_good_engine_answers_and_refusals_are_not_faults():
    engine, tag = _engine("good")
    hello = engine.hello()
    assert hello["protocol"] == "1" and "id" not in hello and "ok" not in hello
    state = _state(engine)
    moves = engine.legal_moves(state)
    assert isinstance(moves, list) and moves
    refused = engine.apply(state, {"player": 0, "action": "throw_in", "card": "ZZ"})
    assert isinstance(refused, ErrorResult) and not refused.is_fault
    assert engine.faults == [] and engine.starts == 1
    _closed(engine, tag)


def test_silent_engine_times_out_and_is_killed():
    engine, tag = _engine("silent", timeout=0.5)
    began = time.monotonic()
    answer = engine.hello()
    assert isinstance(answer, ErrorResult) and answer.code == "timeout"
    assert time.monotonic() - began < 3
    assert answer.diagnostics["request"]["op"] == "hello"
    assert processes_with(tag) == []  # killed at the timeout, not at close
    _closed(engine, tag)


@pytest.mark.slow  # waits out the request timeout (CI runs it, not the inner loop)
def test_hanging_engine_is_restarted_then_given_up():
    engine, tag = _engine("hang", timeout=10, max_consecutive_faults=2)
    assert isinstance(engine.hello(), dict)  # generous while the engine starts
    engine.timeout = 0.5
    first = engine.legal_moves({"result": None})
    assert first.code == "timeout"
    second = engine.legal_moves({"result": None})
    assert second.code == "timeout" and engine.starts == 2
    began = time.monotonic()
    third = engine.legal_moves({"result": None})
    assert third.code == "not_run" and "2 faults in a row" in third.message
    assert time.monotonic() - began < 0.1  # an open breaker answers at once
    _closed(engine, tag)


def test_crash_is_reported_with_exit_status_and_stderr_then_restarted():
    engine, tag = _engine("crash", "2")
    assert isinstance(engine.hello(), dict)
    crashed = engine.new_game("podkidnoy", 2, seed=7)
    assert isinstance(crashed, ErrorResult) and crashed.code == "crash"
    assert crashed.diagnostics["exit_status"] == 3
    assert "simulated crash" in crashed.diagnostics["stderr_tail"]
    assert isinstance(_state(engine), dict) and engine.starts == 2  # the run goes on
    _closed(engine, tag)


def test_garbage_line_is_a_protocol_error_with_what_was_received():
    engine, tag = _engine("garbage")
    state = _state(engine)
    answer = engine.apply(state, {"player": 0, "action": "take"})
    assert answer.code == "protocol_error" and "not JSON" in answer.message
    assert "DEBUG" in answer.diagnostics["received"]
    assert isinstance(engine.legal_moves(state), list) and engine.starts == 2
    _closed(engine, tag)


def test_oversized_line_is_cut_off():
    engine, tag = _engine("oversized", str(300_000), max_line=64 * 1024)
    state = _state(engine)
    answer = engine.legal_moves(state)
    assert answer.code == "protocol_error" and "longer than 65536 bytes" in answer.message
    assert isinstance(_state(engine), dict)
    _closed(engine, tag)


def test_wrong_id_restarts_to_resynchronise():
    engine, tag = _engine("wrong-id")
    state = _state(engine)
    answer = engine.apply(state, {"player": 0, "action": "take"})
    assert answer.code == "protocol_error" and "not the request's id" in answer.message
    assert isinstance(engine.legal_moves(state), list) and engine.starts == 2
    _closed(engine, tag)


def test_missing_and_ill_typed_fields_keep_the_process():
    engine, tag = _engine("missing")
    state = _state(engine)
    moves = engine.legal_moves(state)
    assert moves.code == "protocol_error" and "needs moves" in moves.message
    from reference_impl import api

    applied = engine.apply(state, api.legal_moves(state)[0])
    assert applied.code == "protocol_error" and "needs state" in applied.message
    assert engine.starts == 1  # the stream is still in step: no restart
    _closed(engine, tag)
    engine, tag = _engine("bad-ok")
    answer = engine.legal_moves(_state(engine))
    assert answer.code == "protocol_error" and "ok: true or ok: false" in answer.message
    _closed(engine, tag)


def test_early_exit_is_a_crash_and_the_next_request_gets_a_new_process():
    engine, tag = _engine("exit-after", "1")
    assert isinstance(engine.hello(), dict)
    answer = engine.new_game("podkidnoy", 2, seed=7)
    assert answer.code == "crash" and "status 0" in answer.message
    assert isinstance(engine.hello(), dict) and engine.starts == 2
    _closed(engine, tag)


def test_unrequested_output_is_dropped_with_the_process_not_blamed_on_the_next_request():
    engine, tag = _engine("extra")
    state = _state(engine)
    assert isinstance(engine.legal_moves(state), list)
    time.sleep(0.2)  # let the extra line arrive
    assert isinstance(engine.legal_moves(state), list)  # a fresh process answered
    assert engine.faults == [] and engine.starts == 2
    _closed(engine, tag)


def test_chatty_stderr_never_blocks_and_only_its_tail_is_kept():
    engine, tag = _engine("chatty")
    state = _state(engine)
    for _ in range(3):
        assert isinstance(engine.legal_moves(state), list)
    assert len(engine._stderr) <= 2 * 4096
    _closed(engine, tag)


def test_repeated_crashes_open_the_breaker_quickly():
    engine, tag = _engine("crash-apply")
    state = _state(engine)
    began = time.monotonic()
    codes = [engine.apply(state, {"player": 0, "action": "take"}).code for _ in range(7)]
    assert codes == ["crash"] * 5 + ["not_run"] * 2
    assert time.monotonic() - began < 20
    _closed(engine, tag)


def test_a_command_that_cannot_start():
    engine = SubprocessEngine(["/nonexistent/engine-binary"], timeout=1)
    answer = engine.hello()
    assert answer.code == "crash" and "cannot start" in answer.message
    engine.close()


def test_engine_killed_at_a_fault_is_reaped_at_once():
    engine, tag = _engine("hang", timeout=10)
    assert isinstance(engine.hello(), dict)  # generous while the engine starts
    pid = engine._proc.pid
    engine.timeout = 0.3
    assert engine.legal_moves({"result": None}).code == "timeout"
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # killed and waited for: not even a zombie
    _closed(engine, tag)
