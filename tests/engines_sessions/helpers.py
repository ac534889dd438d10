"""Shared by the session tests: the engines' command lines, and a check of messages against
spec/schema/protocol.schema.json."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jsonschema

from reference_impl.specdata import schema_path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
#: The reference engine behind ``durak-conformance serve``.
SERVE = [sys.executable, "-m", "conformance", "serve"]
#: ``serve`` that logs every request it reads (and can crash once), engines/logged_serve.py.
LOGGED_SERVE = [sys.executable, str(HERE / "engines" / "logged_serve.py")]
#: The kit's toy engine without setup and without remembered positions: sessions only.
SESSION_ONLY = [sys.executable, str(HERE / "engines" / "session_only.py")]
#: The kit's toy engine, with setup.
TOY = [sys.executable, str(ROOT / "tests" / "kit" / "toy_engine.py")]

_SCHEMA = json.loads(schema_path("protocol").read_text())


def check(definition: str, message: dict) -> None:
    """``message`` validates against ``$defs/<definition>`` of the protocol schema."""
    schema = {**_SCHEMA, "$ref": f"#/$defs/{definition}"}
    schema.pop("anyOf")
    jsonschema.Draft202012Validator(schema).validate(message)


def read_log(path: Path) -> list[dict]:
    """The requests engines/logged_serve.py read, in order, each with the ``pid`` that read it."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
