"""`run -j N` spreads the cases over pytest-xdist workers and writes the report a serial run
writes: the same cases, outcomes, failing steps, causes and summary counts (issue 15 item 4). The
one difference: the case lines come in the order the workers finished them."""

from __future__ import annotations

import shlex
import sys

import pytest

from conformance.cli import main
from conformance.reports.report import read_report

from .helpers import engine_env

#: the wrong test engine (R-BEAT-1 broken) as a process: pytest-xdist's workers take the
#: controller's sys.path as it was when xdist was imported, so a python:MODULE form that a test
#: puts on the path later would not import there
WRONG = shlex.join([sys.executable, "-m", "conformance", "serve", "--engine",
                    "python:wrong_engine:make"])


def _run(tmp_path, name: str, *extra: str) -> tuple[int, dict]:
    report = tmp_path / f"{name}.jsonl"
    argv = ["run", "--engine", WRONG, "--area", "BEAT,TAKE"]
    status = main([*argv, "--no-features", "--json", str(report), *extra])
    return status, read_report(report)


def _judged(report: dict) -> dict:
    keep = ("outcome", "signature", "rules", "cause", "message")
    return {case["id"]: {k: case.get(k) for k in keep} for case in report["cases"]}


@pytest.mark.slow
def test_two_workers_write_the_serial_report(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", engine_env()["PYTHONPATH"])  # the served engine imports it
    serial_status, serial = _run(tmp_path, "serial")
    spread_status, spread = _run(tmp_path, "spread", "-j", "2")
    assert serial_status == spread_status == 1
    assert _judged(serial) and any(c["outcome"] == "failed" for c in serial["cases"])
    assert _judged(spread) == _judged(serial)
    # the lines come in the order the workers finish the cases: each case once, none lost
    assert sorted(c["id"] for c in spread["cases"]) == sorted(c["id"] for c in serial["cases"])
    counts = ("passed", "failed", "unsupported", "error", "causes")
    assert {k: spread["summary"].get(k) for k in counts} == {
        k: serial["summary"].get(k) for k in counts
    }
