"""Every process an engine starts ends with it, descendants included.

Killing the engine's process group is not enough: a grandchild that calls ``setsid()`` leaves the
group (and the session), and one whose parent exits is handed to init, out of reach. So on Linux,
while an engine child runs, the runner is the *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``):
orphans of the engine's tree are handed to the runner instead of init, and the runner kills and
reaps them, so none is left running or a zombie. The engine's descendants are found by walking the ``PPid`` links of ``/proc`` from the
engine's pid, both while it runs and when it is stopped; each is remembered with its start time,
so a pid the system has since given to an unrelated process is never signalled. A descendant whose
parent exited before it was seen (a double-forked daemon) is recognised among the runner's adopted
children by the mark the engine was started with in its environment (:data:`MARK`), which every
descendant inherits.

Elsewhere (no ``/proc``, no ``prctl``) every function here is a no-op and the process-group kill
is what there is.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import time
from pathlib import Path

#: the environment variable that marks the processes of one engine child: ``MARK=token``
MARK = "DURAK_CONFORMANCE_ENGINE"
_PR_SET_CHILD_SUBREAPER = 36
_PROC = Path("/proc")
_live = 0  # engine children running now, of every SubprocessEngine of this process


def engine_started() -> None:
    """An engine child was started: while any runs, this process is the subreaper (Linux), so
    orphans of an engine's tree come to it rather than to init. Pair with :func:`engine_stopped`.
    """
    global _live
    _live += 1
    if _live == 1:
        _set_subreaper(1)


def engine_stopped() -> None:
    """An engine child was stopped; with the last one the subreaper role is given up again, so
    a process running engines now and then does not collect other programs' orphans."""
    global _live
    _live = max(0, _live - 1)
    if _live == 0:
        _set_subreaper(0)


def _set_subreaper(on: int) -> None:
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, on, 0, 0, 0)


def _stat(pid: int) -> tuple[int, int, bool] | None:
    """(parent pid, start time, ended) of a process, from /proc/PID/stat; None when it is gone.
    ``ended``: a zombie, which only waits to be reaped. The command name (field 2) may hold
    spaces and parentheses, so fields are read after the last ')'."""
    try:
        text = (_PROC / str(pid) / "stat").read_bytes()
    except OSError:
        return None
    fields = text[text.rfind(b")") + 2 :].split()
    if len(fields) < 20:
        return None
    return int(fields[1]), int(fields[19]), fields[0] in (b"Z", b"X")


def _processes() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, start time) of every live process; empty without /proc."""
    table: dict[int, tuple[int, int]] = {}
    with contextlib.suppress(OSError):
        for entry in os.scandir(_PROC):
            if entry.name.isdigit():
                stat = _stat(int(entry.name))
                if stat is not None and not stat[2]:
                    table[int(entry.name)] = stat[:2]
    return table


def descendants(root: int) -> dict[int, int]:
    """pid -> start time of every live descendant of ``root`` (``root`` itself excluded)."""
    children: dict[int, list[int]] = {}
    table = _processes()
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found: dict[int, int] = {}
    todo = list(children.get(root, ()))
    while todo:
        pid = todo.pop()
        if pid not in found:
            found[pid] = table[pid][1]
            todo += children.get(pid, ())
    return found


def adopted(token: str) -> dict[int, int]:
    """pid -> start time of this process's children that carry ``MARK=token`` in their
    environment (orphans of an engine's tree handed to the subreaper), with their descendants."""
    me, mark = os.getpid(), f"{MARK}={token}".encode()
    found: dict[int, int] = {}
    for pid, (parent, start) in _processes().items():
        if parent != me:
            continue
        try:
            environment = (_PROC / str(pid) / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if mark in environment:
            found[pid] = start
            found.update(descendants(pid))
    return found


def kill_all(processes: dict[int, int], wait: float = 2.0) -> list[int]:
    """SIGKILL each process of ``processes`` (pid -> start time) that is still the same process,
    reap those that end up this process's children (orphans handed to the subreaper), and wait
    up to ``wait`` seconds for all of them to be gone. Returns the pids left (normally none)."""
    left = {pid for pid, start in processes.items() if _state(pid, start, processes) != "gone"}
    for pid in left:
        if _state(pid, processes[pid], processes) == "alive":
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
    end = time.monotonic() + wait
    while left:
        for pid in list(left):
            _reap(pid)
            if _state(pid, processes[pid], processes) == "gone":
                left.discard(pid)
        if not left or time.monotonic() > end:
            break
        time.sleep(0.01)
    return sorted(left)


def _state(pid: int, start: int, family: dict[int, int]) -> str:
    """ "alive"; "zombie" (ended, to be reaped by this process or by a parent of ``family``
    that is itself still ending); or "gone" (no longer there, another process, or a zombie
    its own parent will reap)."""
    stat = _stat(pid)
    if stat is None or stat[1] != start:
        return "gone"
    if not stat[2]:
        return "alive"
    return "zombie" if stat[0] == os.getpid() or stat[0] in family else "gone"


def _reap(pid: int) -> None:
    """Collect an ended child's exit status, so it does not stay a zombie; ignores others."""
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, os.WNOHANG)
