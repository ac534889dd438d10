"""A test engine that leaves a process behind: on hello it forks a grandchild that calls
setsid() (leaving the engine's process group and session) and sleeps 60 s; with ``orphan`` the
engine's own child forks it and exits at once, so the grandchild is an orphan. It writes the
grandchild's pid to the file named by its first argument, then answers as the reference engine.
With ``deep`` every answer after hello is an array nested 100,000 deep."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from conformance.engines.base import InProcessEngine
from conformance.engines.serve import encode_answer, handle_line


def _sleeper(pid_file: str) -> None:
    os.setsid()
    with open(pid_file, "a", encoding="ascii") as out:
        out.write(f"{os.getpid()}\n")
    time.sleep(60)
    os._exit(0)


def _plant(pid_file: str, orphan: bool) -> None:
    if os.fork() == 0:  # the engine's child
        if orphan:
            if os.fork() == 0:
                _sleeper(pid_file)
            os._exit(0)
        _sleeper(pid_file)
    if orphan:
        os.wait()


def main() -> int:
    pid_file, mode = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
    engine = InProcessEngine(roundtrip=False)
    for line in sys.stdin.buffer:
        answer = handle_line(engine, line)
        if answer.get("protocol") and mode in ("", "orphan"):
            _plant(pid_file, mode == "orphan")
            while not Path(pid_file).read_text(encoding="ascii").strip():
                time.sleep(0.01)
        if mode == "deep" and not answer.get("protocol"):
            sys.stdout.write(
                f'{{"id":{answer["id"]},"ok":true,"moves":{"[" * 100_000 + "]" * 100_000}}}\n'
            )
        else:
            sys.stdout.buffer.write(encode_answer(answer))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
