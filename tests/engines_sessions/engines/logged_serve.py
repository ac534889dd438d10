#!/usr/bin/env python3
"""The reference engine behind ``serve``, writing every request it reads to a log, one JSON line
each, prefixed by its process id: so a test can see which process was sent which handle.

``SESSION_LOG``: the log file (appended to). ``SESSION_CRASH``: ``<op>:<n>:<marker file>``: the
process exits, without answering, on the ``n``-th request ``op`` it reads, unless the marker file
exists (it is created first, so the engine crashes once and its restart plays on)."""

import json
import os
import sys
from pathlib import Path

from conformance.engines.base import InProcessEngine
from conformance.engines.serve import handle_line


def main() -> int:
    log = Path(os.environ["SESSION_LOG"])
    crash = os.environ.get("SESSION_CRASH", "")
    op, n, marker = crash.split(":", 2) if crash else ("", "0", "")
    engine, seen = InProcessEngine(roundtrip=False), 0
    for line in sys.stdin.buffer:
        request = json.loads(line)
        with log.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"pid": os.getpid(), **request}) + "\n")
        seen += request.get("op") == op
        if op and seen == int(n) and not Path(marker).exists():
            Path(marker).touch()
            os._exit(3)
        answer = handle_line(engine, line)
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
