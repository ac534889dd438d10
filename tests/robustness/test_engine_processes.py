"""Nothing an engine process does outlives the run or breaks the runner: a grandchild that left
the engine's process group with setsid() is killed with it (it no longer shows in /proc), and an
answer nested 100,000 deep is a protocol_error fault of that engine, not a RecursionError."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from pathlib import Path

import pytest

from conformance.engines.base import ErrorResult
from conformance.engines.process import SubprocessEngine
from tests.runner.helpers import engine_env, zombie_children

ENGINE = Path(__file__).parent / "engines" / "setsid_grandchild.py"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _alive(pid: int) -> bool:
    """The process is in /proc at all (a zombie counts: it has not been reaped)."""
    return Path(f"/proc/{pid}").exists()


@pytest.fixture
def pid_file(tmp_path):
    path = tmp_path / "grandchildren"
    path.write_text("")
    yield path
    for line in path.read_text().split():  # clean up whatever the test leaves, either way
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(int(line), signal.SIGKILL)


def _engine(pid_file: Path, mode: str = "") -> SubprocessEngine:
    argv = [sys.executable, str(ENGINE), str(pid_file), *([mode] if mode else [])]
    return SubprocessEngine(argv, timeout=10.0, env=engine_env())


def _grandchildren(pid_file: Path) -> list[int]:
    return [int(line) for line in pid_file.read_text().split()]


@pytest.mark.parametrize("mode", ["", "orphan"])
def test_a_setsid_grandchild_ends_with_the_engine(pid_file, mode):
    engine = _engine(pid_file, mode)
    hello = engine.hello()
    assert not isinstance(hello, ErrorResult), hello
    [grandchild] = _grandchildren(pid_file)
    assert _alive(grandchild)
    assert os.getsid(grandchild) != os.getsid(0), "the test engine's grandchild did not setsid()"
    engine.close()
    assert not _alive(grandchild), f"pid {grandchild} outlived the engine"
    assert zombie_children() == []


def test_a_grandchild_ends_when_its_engine_is_killed_on_a_fault(pid_file):
    engine = _engine(pid_file)
    assert not isinstance(engine.hello(), ErrorResult)
    [grandchild] = _grandchildren(pid_file)
    engine._stop_child()  # what a timeout or a crash does to the child
    assert not _alive(grandchild)
    engine.close()


def test_an_answer_nested_100000_deep_is_a_protocol_error_fault(pid_file):
    engine = _engine(pid_file, "deep")
    try:
        assert not isinstance(engine.hello(), ErrorResult)
        answer = engine.legal_moves({"version": 1})
        assert isinstance(answer, ErrorResult) and answer.code == "protocol_error", answer
        assert "levels deep" in answer.message
        assert engine.faults and engine.faults[-1]["code"] == "protocol_error"
    finally:
        engine.close()
