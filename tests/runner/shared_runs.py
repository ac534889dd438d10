"""Whole-suite runs that several test modules only read, made once per test session.

A run of the packaged suite costs tens of seconds; the HTML page, the JUnit writer, the root-cause
groups and the in-process/serve agreement all read the same two runs (the reference engine, and
``engines/wrong_engine.py`` with R-BEAT-1 broken). Each run is made by the first test that asks
for it and kept in the session's base temporary directory; under pytest-xdist the workers share
that directory's parent, and a file lock makes the other workers wait for the first one's run
instead of repeating it (the pattern pytest-xdist's documentation gives for session fixtures).

What is kept per run: the exit status, the JSON Lines report, the JUnit XML and the terminal
output, so a test can check any of them.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from conformance.cli import main

from .helpers import ENGINES, engine_env

#: name -> the run's arguments after ``run`` (the report options are added here)
RUNS: dict[str, list[str]] = {
    "reference": [],
    "wrong": ["--engine", "python:wrong_engine:make"],
}


@dataclass(frozen=True)
class SharedRun:
    """One finished run: what a test may read, never change."""

    status: int
    report: Path
    junit: Path
    output: str


def _shared_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _make(name: str, folder: Path) -> SharedRun:
    report, junit = folder / f"{name}.jsonl", folder / f"{name}.junit.xml"
    argv = ["run", *RUNS[name], "--json", str(report), "--junitxml", str(junit)]
    output = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(output):
        patch.setenv("PYTHONPATH", engine_env()["PYTHONPATH"])
        patch.syspath_prepend(str(ENGINES))
        status = main(argv)
    return SharedRun(status, report, junit, output.getvalue())


def shared_run(name: str, tmp_path_factory: pytest.TempPathFactory) -> SharedRun:
    """The run called ``name`` in :data:`RUNS`, made now unless this session already has it."""
    root = _shared_root(tmp_path_factory)
    folder = root / f"shared-run-{name}"
    done = folder / "done.json"
    with open(root / f"shared-run-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if done.exists():
                kept = json.loads(done.read_text(encoding="utf-8"))
                return SharedRun(kept["status"], Path(kept["report"]), Path(kept["junit"]),
                                 kept["output"])
            folder.mkdir(exist_ok=True)
            run = _make(name, folder)
            kept = {"status": run.status, "report": str(run.report), "junit": str(run.junit),
                    "output": run.output}
            done.write_text(json.dumps(kept), encoding="utf-8")
            return run
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
