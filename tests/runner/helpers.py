"""Shared helpers of the runner tests: start broken engines, find stray processes."""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
ENGINES = HERE / "engines"
MISBEHAVE = ENGINES / "misbehave.py"
DATA = HERE / "data"


def engine_env() -> dict[str, str]:
    """The environment for engine processes: the project and the test engines importable."""
    env = dict(os.environ)
    paths = [str(ROOT), str(ENGINES), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    return env


def token() -> str:
    """A unique word to put on an engine's command line, to find its processes later."""
    return f"durak-test-{uuid.uuid4().hex[:12]}"


def misbehave_argv(mode: str, *args: str, tag: str) -> list[str]:
    return [sys.executable, str(MISBEHAVE), mode, *args, tag]


def misbehave_command(mode: str, *args: str, tag: str) -> str:
    import shlex

    return shlex.join(misbehave_argv(mode, *args, tag=tag))


def processes_with(tag: str) -> list[int]:
    """Pids of live processes (zombies included) whose command line contains ``tag``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            status = (entry / "stat").read_text()
        except OSError:
            continue
        if tag.encode() in cmdline or (f"({tag[:15]}" in status):
            found.append(int(entry.name))
    return found


def zombie_children() -> list[int]:
    """Children of this process that exited but were never reaped."""
    me = os.getpid()
    zombies = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if fields[0] == "Z" and int(fields[1]) == me:
            zombies.append(int(entry.name))
    return zombies


def run_without_features(tmp_path: Path, *args: str) -> tuple[int, dict]:
    """``durak-conformance run --no-features`` with ``args`` in this process; its exit status
    and its JSON report, read back."""
    import time

    from conformance.cli import main
    from conformance.reports.report import read_report

    report = tmp_path / f"report-{time.monotonic_ns()}.jsonl"
    status = main(["run", "--no-features", "--json", str(report), *args])
    return status, read_report(report)


def by_id(report: dict) -> dict[str, dict]:
    """The report's cases by ID."""
    return {case["id"]: case for case in report["cases"]}
