"""``durak-conformance serve``: an in-process engine (the reference one by default) behind the
JSON Lines protocol of spec/protocol.md, reading requests on stdin and answering on stdout.

This is the process path a third-party engine takes, so running the suite through ``serve``
exercises the protocol end to end with a known-good engine. Nothing but answers goes to stdout.
"""

from __future__ import annotations

import json
import sys
from typing import Any, BinaryIO

from conformance.engines.base import Engine, ErrorResult

_OPS = ("hello", "new_game", "legal_moves", "apply", "observe")


def _bad(message: str) -> ErrorResult:
    return ErrorResult("bad_request", message)


def _need(request: dict[str, Any], name: str, kind: type, what: str) -> ErrorResult | None:
    value = request.get(name)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        return _bad(f"{request['op']} needs {name} ({what})")
    return None


def dispatch(engine: Engine, request: dict[str, Any]) -> Any:
    """The answer payload for one parsed request: a dict of answer fields, or an ErrorResult."""
    op = request.get("op")
    if op not in _OPS:
        return _bad(f"unknown op {op!r}; the ops are {', '.join(_OPS)}")
    if op == "hello":
        return engine.hello()
    if op == "new_game":
        problem = _need(request, "players", int, "an integer")
        if problem:
            return problem
        if "ruleset" not in request:
            return _bad("new_game needs ruleset (a preset name or a ruleset object)")
        if "seed" in request and "deck" in request:
            return _bad("new_game takes seed or deck, not both")
        answer = engine.new_game(
            request["ruleset"],
            request["players"],
            seed=request.get("seed"),
            deck=request.get("deck"),
            dealer=request.get("dealer"),
            previous=request.get("previous"),
        )
        return answer if isinstance(answer, ErrorResult) else {"state": answer}
    problem = _need(request, "state", dict, "an object")
    if problem:
        return problem
    if op == "legal_moves":
        answer = engine.legal_moves(request["state"])
        return answer if isinstance(answer, ErrorResult) else {"moves": answer}
    if op == "apply":
        problem = _need(request, "move", dict, "an object")
        if problem:
            return problem
        answer = engine.apply(request["state"], request["move"])
        return answer if isinstance(answer, ErrorResult) else {"state": answer}
    problem = _need(request, "player", int, "a seat number")
    if problem:
        return problem
    answer = engine.observe(request["state"], request["player"])
    return answer if isinstance(answer, ErrorResult) else {"observation": answer}


def handle_line(engine: Engine, line: bytes | str) -> dict[str, Any]:
    """The answer object for one request line; never raises."""
    try:
        request = json.loads(line)
    except (ValueError, UnicodeDecodeError) as exc:
        return {"id": None, "ok": False, "error": _bad(f"the line is not JSON: {exc}").to_json()}
    if not isinstance(request, dict):
        return {"id": None, "ok": False, "error": _bad("a request is a JSON object").to_json()}
    ident = request.get("id")
    try:
        answer = dispatch(engine, request)
    except Exception as exc:  # noqa: BLE001 - the server must answer whatever happens
        answer = ErrorResult("internal_error", f"{type(exc).__name__}: {exc}")
    if isinstance(answer, ErrorResult):
        error = answer.to_json()
        error.pop("diagnostics", None)
        return {"id": ident, "ok": False, "error": error}
    return {"id": ident, "ok": True, **answer}


def serve(engine: Engine, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """Answer requests until end of input; returns the exit status (0)."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    write, flush = stdout.write, stdout.flush
    for line in stdin:
        if not line.strip():
            continue
        answer = handle_line(engine, line)
        write(json.dumps(answer, separators=(",", ":"), ensure_ascii=False).encode() + b"\n")
        flush()
    return 0
