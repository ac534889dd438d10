"""Paths and environment shared by the fuzz and record tests."""

from __future__ import annotations

import json
import os
import shlex
import sys
import uuid
from pathlib import Path

import jsonschema
import pytest

from reference_impl import specdata

ROOT = Path(__file__).resolve().parents[2]
FUZZ_ENGINES = Path(__file__).resolve().parent / "engines"
RUNNER_ENGINES = ROOT / "tests" / "runner" / "engines"
MISBEHAVE = RUNNER_ENGINES / "misbehave.py"
SERVE = shlex.join([sys.executable, "-m", "conformance", "serve"])


def engine_env() -> str:
    """PYTHONPATH for engine processes: the project and both test-engine directories."""
    paths = [str(ROOT), str(FUZZ_ENGINES), str(RUNNER_ENGINES), os.environ.get("PYTHONPATH", "")]
    return os.pathsep.join(p for p in paths if p)


@pytest.fixture
def engines_importable(monkeypatch):
    """The test engines importable in this process (python:...) and in engine processes."""
    monkeypatch.setenv("PYTHONPATH", engine_env())
    monkeypatch.syspath_prepend(str(FUZZ_ENGINES))
    monkeypatch.syspath_prepend(str(RUNNER_ENGINES))


def serve(spec: str | None = None) -> str:
    """The command line of ``durak-conformance serve`` (optionally serving ``spec``)."""
    return SERVE + (f" --engine {shlex.quote(spec)}" if spec else "")


def misbehave(mode: str, tag: str) -> str:
    return shlex.join([sys.executable, str(MISBEHAVE), mode, tag])


def token() -> str:
    return f"durak-fuzz-test-{uuid.uuid4().hex[:12]}"


def processes_with(tag: str) -> list[int]:
    """Pids of live processes whose command line contains ``tag``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if tag.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def fixture_validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(specdata.schema_path("fixture").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)
