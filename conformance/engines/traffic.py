"""The traffic log: every line sent to a process engine and every answer (or fault) seen instead.

An adapter's author debugging a hang or a garbled answer wants the conversation itself, in order:
``--traffic FILE`` (``durak-conformance run``, ``perft``, ``replay``, ``identify``, ``fuzz``, or
``--durak-traffic`` in pytest) writes it as JSON Lines, one event a line, each flushed as it
happens, so a run killed in the middle of a hang still leaves the request it hung on. An event:

- ``time``: UTC wall clock with milliseconds, ``dir``: what happened, ``case``: the case ID being
  run when one is known (``null`` otherwise, e.g. the hello);
- ``dir: "start"``: a child process was started (``command``, ``pid``), the first time and after
  every restart;
- ``dir: "sent"``: a request line as written (``line``, the text without its newline);
- ``dir: "received"``: an answer line as read (``line``, decoded as UTF-8 with replacement, so a
  garbled answer is still shown), whether or not it then passes the protocol's checks;
- ``dir: "fault"``: what came instead of a usable answer, or what was wrong with it: the fault's
  ``code`` (``timeout``, ``crash``, ``protocol_error``) and ``message``, with what the engine had
  written by then (``partial``) or its exit status when it has one.

Only process engines have lines: an in-process engine (the reference, ``python:MODULE:NAME``)
leaves the log empty. The file is created at the first event, so a process that never talks to the
engine (the pytest-xdist controller) writes none.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import IO, Any

#: the diagnostics of a fault worth repeating in the log (the rest is in the report)
FAULT_FIELDS = ("partial", "received", "exit_status")


class TrafficLog:
    """A JSON Lines file of one process's engine traffic; ``case`` labels the events written."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.case: str | None = None
        self._file: IO[str] | None = None
        self._started = False

    def write(self, direction: str, **fields: Any) -> None:
        """Append one event and flush it to the file at once."""
        if self._file is None:  # a new file for a new log; after close() (a run's last
            # close_game requests may come after it) the same file goes on
            mode = "a" if self._started else "w"
            self._file = open(self.path, mode, encoding="utf-8")  # noqa: SIM115 - kept open
            self._started = True
        now = time.time()
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now))
        event = {"time": f"{stamp}.{int(now * 1000) % 1000:03d}Z", "dir": direction}
        event["case"] = self.case
        event.update(fields)
        self._file.write(json.dumps(event, ensure_ascii=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def path_problem(path: str | Path) -> str:
    """Why a traffic log cannot be written at ``path`` ('' when it can): checked before the run,
    since the file itself is only created at the first event."""
    target = Path(path)
    if target.is_dir():
        return f"--traffic {path}: is a directory; name a file"
    if not target.parent.is_dir():
        return f"--traffic {path}: the directory {target.parent} does not exist"
    return ""


def worker_path(path: str | Path, worker: str | None) -> Path:
    """Where one worker process writes its log: ``FILE.<worker>`` (``FILE.gw0``, ...) beside the
    ``FILE`` a single process writes, so parallel workers never interleave lines in one file."""
    return Path(f"{path}.{worker}") if worker else Path(path)


def in_process(spec: str | None) -> bool:
    """Whether an ``--engine`` argument names an engine run in this process (no lines to log),
    read as :func:`conformance.engines.factory.make_engine` reads it."""
    text = (spec or "").strip()
    return text in ("", "reference", "reference:inprocess") or text.startswith("python:")


def warn_in_process(spec: str | None, command: str) -> None:
    """Say on stderr that ``--traffic`` will stay empty for an in-process engine."""
    if in_process(spec):
        import sys

        print(
            f"durak-conformance {command}: --traffic logs a process engine's lines; the engine "
            f"{spec or 'reference'!r} runs in this process, so the log stays empty",
            file=sys.stderr,
        )
