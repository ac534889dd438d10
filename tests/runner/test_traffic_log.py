"""The traffic log (``--traffic FILE``): every line sent to a process engine and every answer or
fault seen instead, in order, as JSON Lines labelled with the case, flushed as it goes."""

from __future__ import annotations

import json
import re
import threading
import time

import pytest

from conformance.cli import main
from conformance.engines.process import SubprocessEngine
from conformance.engines.traffic import TrafficLog, in_process, worker_path

from .helpers import engine_env, misbehave_argv, misbehave_command, token

STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def _events(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _engine(mode: str, log, timeout: float = 5.0) -> SubprocessEngine:
    return SubprocessEngine(
        misbehave_argv(mode, tag=token()), timeout=timeout, env=engine_env(), traffic=log
    )


def test_a_good_engine_every_request_then_its_answer_in_order(tmp_path):
    path = tmp_path / "traffic.jsonl"
    log = TrafficLog(path)
    engine = _engine("good", log)
    try:
        engine.hello()
        log.case = "some-case"
        state = engine.new_game("podkidnoy", 2, seed=7)
        engine.legal_moves(state)
    finally:
        engine.close()
    events = _events(path)
    assert [e["dir"] for e in events] == ["start"] + ["sent", "received"] * 3
    assert events[0]["pid"] > 0 and events[0]["command"] == engine.command
    assert all(STAMP.match(e["time"]) for e in events)
    assert [e["case"] for e in events] == [None] * 3 + ["some-case"] * 4
    sent = [json.loads(e["line"]) for e in events if e["dir"] == "sent"]
    received = [json.loads(e["line"]) for e in events if e["dir"] == "received"]
    assert [r["op"] for r in sent] == ["hello", "new_game", "legal_moves"]
    assert [a["id"] for a in received] == [r["id"] for r in sent]
    assert received[1]["state"] == state


@pytest.mark.slow  # waits out the request timeout (CI runs it, not the inner loop)
def test_a_hang_leaves_the_request_in_the_file_before_the_timeout(tmp_path):
    path = tmp_path / "traffic.jsonl"
    engine = _engine("hang", TrafficLog(path), timeout=3.0)
    try:
        assert isinstance(engine.hello(), dict)
        asking = threading.Thread(target=engine.new_game, args=("podkidnoy", 2), daemon=True)
        asking.start()
        deadline = time.monotonic() + 2.5
        seen: list[dict] = []
        while time.monotonic() < deadline:  # read while the engine hangs: already flushed
            seen = _events(path)
            if seen and seen[-1]["dir"] == "sent":
                break
            time.sleep(0.05)
        assert json.loads(seen[-1]["line"])["op"] == "new_game", seen
        asking.join(10)
    finally:
        engine.close()
    last = _events(path)[-1]
    assert last["dir"] == "fault" and last["code"] == "timeout"
    assert "no answer to new_game" in last["message"] and "partial" in last


def test_garbage_is_logged_as_received_then_the_fault(tmp_path):
    path = tmp_path / "traffic.jsonl"
    engine = _engine("garbage", TrafficLog(path))
    try:
        state = engine.new_game("podkidnoy", 2, seed=7)
        move = engine.legal_moves(state)[0]
        engine.apply(state, move)
    finally:
        engine.close()
    events = _events(path)
    tail = [(e["dir"], e.get("line") or e.get("code")) for e in events[-3:]]
    assert tail[0][0] == "sent" and json.loads(tail[0][1])["op"] == "apply"
    assert tail[1] == ("received", "DEBUG: thinking about the move...")
    assert tail[2] == ("fault", "protocol_error")
    assert events[-1]["received"] == "DEBUG: thinking about the move..."


def test_a_crash_is_logged_with_its_exit_status_and_the_restart(tmp_path):
    path = tmp_path / "traffic.jsonl"
    engine = SubprocessEngine(
        misbehave_argv("crash", "2", tag=token()), env=engine_env(), traffic=str(path)
    )
    try:
        engine.hello()
        engine.new_game("podkidnoy", 2, seed=7)  # request 2: the process exits
        engine.new_game("podkidnoy", 2, seed=7)  # a fresh process
    finally:
        engine.close()
    dirs = [e["dir"] for e in _events(path)]
    assert dirs == ["start", "sent", "received", "sent", "fault", "start", "sent", "received"]
    fault = _events(path)[4]
    assert fault["code"] == "crash" and fault["exit_status"] == 3


def test_worker_files_and_in_process_engines():
    assert str(worker_path("t.jsonl", "gw1")) == "t.jsonl.gw1"
    assert str(worker_path("t.jsonl", None)) == "t.jsonl"
    assert in_process(None) and in_process("reference") and in_process("python:m:make")
    assert not in_process("durak-conformance serve")


def test_run_traffic_labels_each_line_with_its_case(tmp_path):
    path = tmp_path / "traffic.jsonl"
    engine = misbehave_command("good", tag=token())
    cases = "deal-from-seed-42,play-attack-twice-refused"
    status = main(
        ["run", "--engine", engine, "--no-features", "--case", cases, "--traffic", str(path)]
    )
    assert status == 0
    events = _events(path)
    assert {e["case"] for e in events} == set(cases.split(","))
    assert events[1]["dir"] == "sent" and json.loads(events[1]["line"])["op"] == "hello"
    refused = [json.loads(e["line"]) for e in events if e["dir"] == "received"]
    assert any(a.get("error", {}).get("rule") == "R-ATTACK-1" for a in refused)


@pytest.mark.slow
def test_run_traffic_under_two_workers_one_file_each(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", engine_env()["PYTHONPATH"])
    path = tmp_path / "traffic.jsonl"
    engine = misbehave_command("good", tag=token())
    status = main(
        ["run", "--engine", engine, "--no-features", "--area", "BEAT", "-j", "2",
         "--traffic", str(path)]
    )
    assert status == 0
    assert not path.exists()  # the controller talks to no engine
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["traffic.jsonl.gw0", "traffic.jsonl.gw1"]
    for name in files:
        events = _events(tmp_path / name)
        assert events[0]["dir"] == "start" and all(e["case"] for e in events[1:])


def test_perft_and_fuzz_log_the_engine_under_test(tmp_path, capsys):
    engine = misbehave_command("good", tag=token())
    perft_log = tmp_path / "perft.jsonl"
    status = main(
        ["perft", "--engine", engine, "--id", "podkidnoy-2p-deal", "--max-depth", "1",
         "--traffic", str(perft_log)]
    )
    assert status == 0
    labelled = {e["case"] for e in _events(perft_log) if e["dir"] == "sent"}
    assert labelled == {None, "podkidnoy-2p-deal"}  # the hello, then the position's requests
    fuzz_log = tmp_path / "fuzz.jsonl"
    status = main(
        ["fuzz", "--engine", engine, "--games", "1", "--seed", "3", "--out",
         str(tmp_path / "findings"), "--traffic", str(fuzz_log)]
    )
    assert status == 0
    ops = [json.loads(e["line"])["op"] for e in _events(fuzz_log) if e["dir"] == "sent"]
    assert ops[0] == "hello" and "legal_moves" in ops and "apply" in ops
    capsys.readouterr()
    assert main(["perft", "--id", "podkidnoy-2p-deal", "--max-depth", "1", "--traffic",
                 str(tmp_path / "none.jsonl")]) == 0
    assert "runs in this process, so the log stays empty" in capsys.readouterr().err
    assert not (tmp_path / "none.jsonl").exists()


@pytest.mark.parametrize("command", ["run", "perft", "fuzz"])
def test_a_log_that_cannot_be_written_is_a_usage_error(tmp_path, capsys, command):
    missing = tmp_path / "no-such-dir" / "traffic.jsonl"
    argv = [command, "--engine", "durak-conformance serve", "--traffic", str(missing)]
    assert main(argv) == 2
    said = capsys.readouterr().err
    assert f"--traffic {missing}: the directory {missing.parent} does not exist" in said
    assert main([command, "--engine", "durak-conformance serve", "--traffic", str(tmp_path)]) == 2
    assert "is a directory; name a file" in capsys.readouterr().err
