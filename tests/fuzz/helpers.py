"""Paths and environment shared by the fuzz and record tests.

The misbehaving engine, the unique tag on its command line and the search for stray processes
are the runner tests' (``tests/runner/helpers.py``); this adds the fuzz engines to the path.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import jsonschema
import pytest
from runner.helpers import ENGINES as RUNNER_ENGINES
from runner.helpers import misbehave_command

from reference_impl import specdata

ROOT = Path(__file__).resolve().parents[2]
FUZZ_ENGINES = Path(__file__).resolve().parent / "engines"
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
    """The command line of the misbehaving test engine in ``mode``, tagged with ``tag``."""
    return misbehave_command(mode, tag=tag)


def fixture_validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(specdata.schema_path("fixture").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)
