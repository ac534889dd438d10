"""A deliberately broken protocol engine: the reference engine behind ``serve``, misbehaving in
one chosen way, so the runner's survival can be tested.

    python misbehave.py MODE [N] [TOKEN]

MODE (N counts the requests this process has read, hello included):
  good            behave (a control)
  silent          never answer anything
  hang            answer hello, then hang on every other request
  crash           exit with status 3 on request N of each process (after a word on stderr)
  crash-apply     exit with status 3 on every apply
  garbage         print a line that is not JSON before every apply answer
  oversized       answer legal_moves with a line of N bytes (default 2 MiB)
  wrong-id        answer apply with the wrong id
  missing         answer apply with ok: true but no state; legal_moves without moves
  bad-ok          answer legal_moves with "ok": "yes"
  exit-after      read N requests, answer them, then exit with status 0
  lie             claim every option in hello, answer unsupported when transfer is on
  chatty          write 200 KiB to stderr before each answer, then behave
  classic         behave, but claim only one 36-card pack and the default options (honest)
  extra           after each legal_moves answer, print a second, unrequested answer line
  no-observe      claim observe in hello, then answer every observe "unsupported"

TOKEN is ignored: tests pass a unique one to find stray processes by their command line.
"""

from __future__ import annotations

import json
import sys
import time

from conformance.engines.base import InProcessEngine
from conformance.engines.serve import handle_line


def _write(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> int:
    mode = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 0
    engine = InProcessEngine(roundtrip=False)
    for count, raw in enumerate(sys.stdin, start=1):
        try:
            request = json.loads(raw)
        except ValueError:
            request = {}
        op = request.get("op")
        if mode == "silent" or (mode == "hang" and op != "hello"):
            time.sleep(3600)
        if mode == "crash" and count == n or mode == "crash-apply" and op == "apply":
            sys.stderr.write("misbehave: Traceback (most recent call last): simulated crash\n")
            sys.stderr.flush()
            return 3
        answer = handle_line(engine, raw)
        if op == "hello" and isinstance(answer.get("supports"), dict):
            # stateless on purpose: its faults are planted on legal_moves and apply, which the
            # runner would never send to an engine that keeps games (sessions, P-33..)
            answer["supports"].pop("sessions", None)
        if mode == "classic" and op == "hello":
            answer["supports"] = {"players": {"36": [2, 3, 4, 5, 6]}, "options": {}}
        if mode == "lie" and op == "hello":
            answer["supports"]["options"]["transfer"] = ["off", "on"]
        if mode == "lie" and op in ("legal_moves", "apply", "new_game"):
            ruleset = (request.get("state") or {}).get("ruleset") or request.get("ruleset")
            if "transfer" in json.dumps(ruleset) and '"on"' in json.dumps(ruleset):
                error = {"code": "unsupported", "message": "no transfers here", "rule": None}
                answer = {"id": request.get("id"), "ok": False, "error": error}
        if mode == "no-observe" and op == "observe":
            error = {"code": "unsupported", "message": "no observations here", "rule": None}
            answer = {"id": request.get("id"), "ok": False, "error": error}
        if mode == "garbage" and op == "apply":
            _write("DEBUG: thinking about the move...")
        if mode == "oversized" and op == "legal_moves":
            answer["padding"] = "x" * (n or 2 * 1024 * 1024)
        if mode == "wrong-id" and op == "apply":
            answer["id"] = request.get("id", 0) + 1000
        if mode == "missing" and op == "apply":
            answer.pop("state", None)
        if mode == "missing" and op == "legal_moves":
            answer.pop("moves", None)
        if mode == "bad-ok" and op == "legal_moves":
            answer["ok"] = "yes"
        if mode == "chatty":
            sys.stderr.write("chatter " * 25_600 + "\n")
            sys.stderr.flush()
        _write(json.dumps(answer, separators=(",", ":")))
        if mode == "extra" and op == "legal_moves":
            _write(json.dumps({"id": -1, "ok": True, "unrequested": True}))
        if mode == "exit-after" and count >= n:
            return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
