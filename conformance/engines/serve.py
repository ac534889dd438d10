"""``durak-conformance serve``: an in-process engine (the reference one by default) behind the
JSON Lines protocol of spec/protocol.md, reading requests on stdin and answering on stdout.

This is the process path a third-party engine takes, so running the suite through ``serve``
exercises the protocol end to end with a known-good engine. Nothing but answers goes to stdout.
The game operations (spec/protocol.md section 7) go to the engine's game methods: the reference
engine keeps its games in a dict (``InProcessEngine``), so the runner's sessions are tested on it
through a real process too.

Whatever arrives, every line gets exactly one answer line that is valid JSON (P-12, P-27): a blank
line, a line over :data:`MAX_REQUEST_BYTES`, text nested past the nesting limit, NaN or Infinity
are all ``bad_request`` with ``"id": null``; answers are written with ASCII escapes, so a lone
surrogate echoed from a request (``"\\ud800"`` is valid JSON) stays writable.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any, BinaryIO

from conformance.contract.bounded_json import loads
from conformance.engines.base import Engine, ErrorResult

#: The longest request line read, in bytes, newline excluded (spec/protocol.md P-6). Longer lines
#: are answered bad_request and skipped without being held in memory whole.
MAX_REQUEST_BYTES = 8 * 1024 * 1024


def _bad(message: str, pointer: str | None = None) -> ErrorResult:
    return ErrorResult("bad_request", message, pointer=pointer)


def _need(request: dict[str, Any], name: str, kind: Any, what: str) -> ErrorResult | None:
    value = request.get(name)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        return _bad(f"{request['op']} needs {name} ({what})", f"/{name}")
    return None


def _deal(engine: Engine, request: dict[str, Any], open_game: bool) -> Any:
    """``new_game`` or ``open_game``: the same fields, checked the same way."""
    problem = _need(request, "players", int, "an integer")
    if problem:
        return problem
    if "ruleset" not in request:
        return _bad(f"{request['op']} needs ruleset (a preset name or a ruleset object)")
    if "seed" in request and "deck" in request:
        return _bad(f"{request['op']} takes seed or deck, not both")
    deal = {key: request.get(key) for key in ("seed", "deck", "dealer", "previous")}
    if open_game:
        return engine.open_game(request["ruleset"], request["players"], **deal)
    answer = engine.new_game(request["ruleset"], request["players"], **deal)
    return answer if isinstance(answer, ErrorResult) else {"state": answer}


#: op -> (the request fields it needs: name, JSON type, what to write; the Engine call; the
#: answer's field, None when the answer has none). ``state`` ops are stateless, ``game`` ops act
#: on a game the engine keeps (spec/protocol.md section 7).
_STATE = ("state", dict, "an object")
_GAME = ("game", (str, int), "a game handle: the string or integer open_game answered")
_MOVE = ("move", dict, "an object")
_PLAYER = ("player", int, "a seat number")
_CALLS: dict[str, tuple[tuple[tuple[str, Any, str], ...], str, str | None]] = {
    "legal_moves": ((_STATE,), "legal_moves", "moves"),
    "apply": ((_STATE, _MOVE), "apply", "state"),
    "observe": ((_STATE, _PLAYER), "observe", "observation"),
    "game_legal_moves": ((_GAME,), "game_legal_moves", "moves"),
    "game_apply": ((_GAME, _MOVE), "game_apply", "state"),
    "game_state": ((_GAME,), "game_state", "state"),
    "game_observe": ((_GAME, _PLAYER), "game_observe", "observation"),
    "close_game": ((_GAME,), "close_game", None),
}
_OPS = ("hello", "new_game", "open_game", *_CALLS)


def dispatch(engine: Engine, request: dict[str, Any]) -> Any:
    """The answer payload for one parsed request: a dict of answer fields, or an ErrorResult."""
    op = request.get("op")
    if op not in _OPS:
        return _bad(f"unknown op {op!r}; the ops are {', '.join(_OPS)}")
    if op == "hello":
        return engine.hello()
    if op in ("new_game", "open_game"):
        return _deal(engine, request, op == "open_game")
    needs, method, field = _CALLS[op]
    for name, kind, what in needs:
        problem = _need(request, name, kind, what)
        if problem:
            return problem
    answer = getattr(engine, method)(*(request[name] for name, _, _ in needs))
    if isinstance(answer, ErrorResult):
        return answer
    return {} if field is None else {field: answer}


def _refused(message: str) -> dict[str, Any]:
    """The answer to a line whose request could not be read: bad_request, id null (P-12)."""
    return {"id": None, "ok": False, "error": _bad(message).to_json()}


def _too_long(size: int) -> dict[str, Any]:
    return _refused(
        f"the request line is longer than {MAX_REQUEST_BYTES} bytes ({size} bytes); "
        "send a smaller request"
    )


def handle_line(engine: Engine, line: bytes | str) -> dict[str, Any]:
    """The answer object for one request line; never raises."""
    if not line.strip():
        return _refused("a blank line is not a request; send one JSON object per line")
    size = len(line) - (line[-1:] in ("\n", b"\n"))
    if size > MAX_REQUEST_BYTES:
        return _too_long(size)
    try:
        request = loads(line)
    except ValueError as exc:  # UnicodeDecodeError and too deep nesting included
        return _refused(f"the line is not JSON: {exc}")
    if not isinstance(request, dict):
        return _refused("a request is a JSON object")
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


def encode_answer(answer: dict[str, Any]) -> bytes:
    """One answer line: compact JSON with ASCII escapes, so any string an engine or a request
    carries (a lone surrogate included) is written as valid JSON. An answer that cannot be JSON
    at all (a NaN the engine computed) becomes an internal_error answer, never an exception."""
    try:
        text = json.dumps(answer, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        error = ErrorResult("internal_error", f"the answer is not JSON: {exc}").to_json()
        error.pop("diagnostics", None)
        ident = answer.get("id")
        ident = ident if isinstance(ident, (str, int)) else None
        text = json.dumps({"id": ident, "ok": False, "error": error}, separators=(",", ":"))
    return text.encode("ascii") + b"\n"


def _lines(stdin: BinaryIO) -> Iterator[bytes | int]:
    """Each request line, or the size read of a line too long to hold (the rest of it is read
    and dropped in pieces, so an endless line costs no more memory than the limit)."""
    while line := stdin.readline(MAX_REQUEST_BYTES + 1):
        if len(line) <= MAX_REQUEST_BYTES or line.endswith(b"\n"):
            yield line
            continue
        size = len(line)
        while (rest := stdin.readline(1 << 20)) and not rest.endswith(b"\n"):
            size += len(rest)
        yield size + len(rest)


def serve(engine: Engine, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """Answer requests until end of input; returns the exit status (0)."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    write, flush = stdout.write, stdout.flush
    for line in _lines(stdin):
        answer = _too_long(line) if isinstance(line, int) else handle_line(engine, line)
        write(encode_answer(answer))
        flush()
    return 0
