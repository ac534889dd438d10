"""An engine behind the JSON Lines process protocol (spec/protocol.md), survived whatever it does.

One child process serves the whole session. Everything the child can do wrong (hang, exit, print
garbage, print a line too long to hold, answer with someone else's id, leave out fields) becomes an
:class:`~conformance.engines.base.ErrorResult` with diagnostics (what was sent, what came back, the tail
of its stderr, its exit status) instead of an exception or a hung run. After a fault that leaves
the stream out of step the child's whole process group is killed and a fresh child is started
lazily for the next request. A circuit breaker stops asking an engine that keeps failing, so the
remaining cases are reported *not run* and a dead engine costs seconds, not hours.

No threads: reads and writes go through one ``selectors`` loop with a deadline, on non-blocking
pipes, which also keeps draining stderr so a chatty engine cannot block on a full pipe. Every child
is waited for, so none is left a zombie, and so are its descendants, even those that left its
process group (:mod:`conformance.engines.reaping`). An answer is read with its nesting bounded
(:mod:`conformance.contract.bounded_json`): however deep an engine nests it, it is a fault.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import time
import uuid
from typing import Any

from conformance.contract.bounded_json import TooDeep, loads
from conformance.engines import reaping
from conformance.engines.base import Engine, ErrorResult, new_game_request
from conformance.engines.traffic import FAULT_FIELDS, TrafficLog

DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_LINE = 1 << 20
DEFAULT_MAX_CONSECUTIVE_FAULTS = 5
DEFAULT_MAX_FAULTS = 50
STDERR_TAIL = 4096
#: seconds between two looks at the engine's descendants while it runs (a /proc walk each)
DESCENDANTS_EVERY = 0.5

_HANDLE = (str, int)  # a game's handle (P-34): a string or an integer, never a boolean

# The fields an ok answer to each operation must carry, and their JSON types; the first is what
# the Engine method returns (``close_game`` returns None, ``open_game`` both fields).
_ANSWER_FIELDS: dict[str, tuple[tuple[str, Any], ...]] = {
    "new_game": (("state", dict),),
    "legal_moves": (("moves", list),),
    "apply": (("state", dict),),
    "observe": (("observation", dict),),
    "open_game": (("game", _HANDLE), ("state", dict)),
    "game_legal_moves": (("moves", list),),
    "game_apply": (("state", dict),),
    "game_state": (("state", dict),),
    "game_observe": (("observation", dict),),
    "close_game": (),
}
_KINDS = {dict: "an object", list: "a list", _HANDLE: "a string or an integer"}


class _Fault(Exception):
    """A misbehaviour detected while talking to the child; ``restart`` when the stream is lost."""

    def __init__(self, code: str, message: str, *, restart: bool, **diagnostics: Any):
        super().__init__(message)
        self.code = code
        self.message = message
        self.restart = restart
        self.diagnostics = diagnostics


class SubprocessEngine(Engine):
    """The engine started by ``command`` (a shell-style string or an argument list).

    ``timeout``: seconds to wait for each answer. ``max_line``: longest answer line accepted, in
    bytes. The breaker opens after ``max_consecutive_faults`` faults in a row or ``max_faults`` in
    the session; from then on every request answers ``not_run`` at once. ``traffic``: a
    :class:`~conformance.engines.traffic.TrafficLog` (or its path) that gets every line sent and
    received, and every fault, as it happens.
    """

    def __init__(
        self,
        command: str | list[str],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        max_line: int = DEFAULT_MAX_LINE,
        max_consecutive_faults: int = DEFAULT_MAX_CONSECUTIVE_FAULTS,
        max_faults: int = DEFAULT_MAX_FAULTS,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        traffic: TrafficLog | str | os.PathLike[str] | None = None,
    ):
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("the engine command is empty")
        self.command = command if isinstance(command, str) else shlex.join(command)
        self.timeout = timeout
        self.max_line = max_line
        self.max_consecutive_faults = max_consecutive_faults
        self.max_faults = max_faults
        self.cwd = cwd
        self.env = env
        self.traffic = TrafficLog(traffic) if isinstance(traffic, (str, os.PathLike)) else traffic
        self._proc: subprocess.Popen[bytes] | None = None
        self._selector: selectors.BaseSelector | None = None
        self._stdout = bytearray()
        self._stderr = bytearray()
        self._stdout_eof = False
        #: pid -> start time of every descendant of the child seen so far (killed with it)
        self._descendants: dict[int, int] = {}
        self._descendants_seen = 0.0
        #: the mark (reaping.MARK) in the environment of this engine's processes
        self._token = uuid.uuid4().hex
        self._next_id = 0
        self.starts = 0
        self.requests = 0
        self.faults: list[dict[str, Any]] = []
        self.consecutive_faults = 0
        self.breaker_reason: str | None = None

    def describe(self) -> str:
        return self.command

    # ------------------------------------------------------------------ Engine

    def hello(self) -> dict[str, Any] | ErrorResult:
        answer = self.request({"op": "hello"})
        if isinstance(answer, ErrorResult):
            return answer
        return {key: value for key, value in answer.items() if key not in ("id", "ok")}

    def new_game(self, ruleset, players, *, seed=None, deck=None, dealer=None, previous=None):
        request = new_game_request(
            ruleset, players, seed=seed, deck=deck, dealer=dealer, previous=previous
        )
        return self._field(request)

    def legal_moves(self, state):
        return self._field({"op": "legal_moves", "state": state})

    def apply(self, state, move):
        return self._field({"op": "apply", "state": state, "move": move})

    def observe(self, state, player):
        return self._field({"op": "observe", "state": state, "player": player})

    # the game operations of spec/protocol.md section 7, sent as they are

    def open_game(self, ruleset, players, *, seed=None, deck=None, dealer=None, previous=None):
        request = new_game_request(
            ruleset, players, seed=seed, deck=deck, dealer=dealer, previous=previous
        )
        answer = self.request({**request, "op": "open_game"})
        if isinstance(answer, ErrorResult):
            return answer
        return {"game": answer["game"], "state": answer["state"]}

    def game_legal_moves(self, game):
        return self._field({"op": "game_legal_moves", "game": game})

    def game_apply(self, game, move):
        return self._field({"op": "game_apply", "game": game, "move": move})

    def game_state(self, game):
        return self._field({"op": "game_state", "game": game})

    def game_observe(self, game, player):
        return self._field({"op": "game_observe", "game": game, "player": player})

    def close_game(self, game):
        answer = self.request({"op": "close_game", "game": game})
        return answer if isinstance(answer, ErrorResult) else None

    def _field(self, request: dict[str, Any]) -> Any:
        answer = self.request(request)
        if isinstance(answer, ErrorResult):
            return answer
        return answer[_ANSWER_FIELDS[request["op"]][0][0]]

    # ------------------------------------------------------------------ the session

    @property
    def breaker_open(self) -> bool:
        return self.breaker_reason is not None

    def request(self, request: dict[str, Any]) -> dict[str, Any] | ErrorResult:
        """Send one request (an ``id`` is added) and return the whole ``ok: true`` answer, or an
        ErrorResult for a refusal or a fault."""
        if self.breaker_reason is not None:
            return ErrorResult("not_run", self.breaker_reason)
        self._next_id += 1
        request = {"id": self._next_id, **request}
        self.requests += 1
        began = time.monotonic()
        try:
            answer = self._exchange(request)
        except _Refusal as refusal:
            self.consecutive_faults = 0
            return refusal.error
        except _Fault as fault:
            seen = {k: v for k, v in fault.diagnostics.items() if k in FAULT_FIELDS}
            self._log("fault", code=fault.code, message=fault.message, **seen)
            return self._record_fault(fault, request, time.monotonic() - began)
        finally:
            if time.monotonic() - self._descendants_seen > DESCENDANTS_EVERY:
                self._note_descendants()
        self.consecutive_faults = 0
        return answer

    def _note_descendants(self) -> None:
        """Remember the child's descendants now: one may outlive its parent and be handed to
        this process (the subreaper) before the child is stopped."""
        self._descendants_seen = time.monotonic()
        if self._proc is not None and self._proc.returncode is None:  # its pid is still its own
            self._descendants.update(reaping.descendants(self._proc.pid))

    def _record_fault(self, fault: _Fault, request: dict[str, Any], elapsed: float) -> ErrorResult:
        diagnostics: dict[str, Any] = {
            "engine": self.command,
            "request": {"id": request["id"], "op": request["op"]},
            "elapsed": round(elapsed, 3),
            **fault.diagnostics,
        }
        if fault.restart:
            diagnostics.update(self._stop_child())
        diagnostics["stderr_tail"] = self._stderr_tail()
        self.faults.append({"code": fault.code, "message": fault.message, **diagnostics})
        self.consecutive_faults += 1
        if self.consecutive_faults >= self.max_consecutive_faults:
            self._open_breaker(f"{self.consecutive_faults} faults in a row")
        elif len(self.faults) >= self.max_faults:
            self._open_breaker(f"{len(self.faults)} faults in this session")
        return ErrorResult(fault.code, fault.message, diagnostics=diagnostics)

    def _open_breaker(self, why: str) -> None:
        last = self.faults[-1]
        self.breaker_reason = (
            f"not run: the engine was given up after {why} "
            f"(last: {last['code']}: {last['message']})"
        )
        self._stop_child()

    def _exchange(self, request: dict[str, Any]) -> dict[str, Any]:
        self._ensure_child()
        deadline = time.monotonic() + self.timeout
        text = json.dumps(request, separators=(",", ":"))
        self._log("sent", line=text)
        self._send((text + "\n").encode(), deadline)
        raw = self._read_line(deadline, request["op"])
        self._log("received", line=raw.decode("utf-8", "replace"))
        return self._check_answer(raw, request)

    def _log(self, direction: str, **fields: Any) -> None:
        """One event of the traffic log, when there is one (:mod:`conformance.engines.traffic`)."""
        if self.traffic is not None:
            self.traffic.write(direction, **fields)

    def _check_answer(self, raw: bytes, request: dict[str, Any]) -> dict[str, Any]:
        shown = raw[:300].decode("utf-8", "replace")
        try:
            answer = loads(raw)
        except ValueError as exc:  # not UTF-8, not JSON, NaN, or nested past the limit
            hint = (
                "nest the answer less deeply"
                if isinstance(exc, TooDeep)
                else "stdout must carry only protocol lines, log to stderr"
            )
            raise _Fault(
                "protocol_error",
                f"the answer is not JSON ({exc}); {hint}",
                restart=True,
                received=shown,
            ) from None
        if not isinstance(answer, dict):
            raise _Fault(
                "protocol_error",
                f"the answer is a JSON {type(answer).__name__}, not an object",
                restart=True,
                received=shown,
            )
        if "id" not in answer:
            raise _Fault("protocol_error", "the answer has no id", restart=False, received=shown)
        if answer["id"] != request["id"]:
            raise _Fault(
                "protocol_error",
                f"the answer's id {answer['id']!r} is not the request's id {request['id']!r}",
                restart=True,
                received=shown,
            )
        ok = answer.get("ok")
        if not isinstance(ok, bool):
            raise _Fault(
                "protocol_error",
                "the answer needs ok: true or ok: false",
                restart=False,
                received=shown,
            )
        if not ok:
            error = ErrorResult.from_json(answer.get("error"), received=shown)
            if error.code == "protocol_error":
                raise _Fault("protocol_error", error.message, restart=False, received=shown)
            raise _Refusal(error)
        op = request["op"]
        if op == "hello":
            missing = [key for key in ("protocol", "engine", "supports") if key not in answer]
            if missing:
                raise _Fault(
                    "protocol_error",
                    f"the hello answer lacks {', '.join(missing)}",
                    restart=False,
                    received=shown,
                )
        for name, kind in _ANSWER_FIELDS.get(op, ()):
            value = answer.get(name)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise _Fault(
                    "protocol_error",
                    f"an ok answer to {op} needs {name} ({_KINDS[kind]})",
                    restart=False,
                    received=shown,
                )
        return answer

    # ------------------------------------------------------------------ the child process

    def _ensure_child(self) -> None:
        if self._proc is not None and self._proc.poll() is None and not self._stdout_eof:
            assert self._selector is not None
            for key, _ in self._selector.select(0):  # collect whatever arrived since
                self._drain(key.fileobj)
            if self._stdout:  # output nobody asked for: resynchronise on a new child
                self._stop_child()
            elif not self._stdout_eof:
                return
        if self._proc is not None:
            self._stop_child()
        reaping.engine_started()  # from now on orphans of its tree come to the runner, not init
        try:
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                env={**(os.environ if self.env is None else self.env), reaping.MARK: self._token},
                start_new_session=True,  # its own process group, killed as a whole
            )
        except OSError as exc:
            reaping.engine_stopped()
            raise _Fault(
                "crash", f"cannot start the engine {self.command!r}: {exc}", restart=False
            ) from None
        self.starts += 1
        self._log("start", command=self.command, pid=self._proc.pid)
        self._stdout.clear()
        self._stdout_eof = False
        self._stderr.clear()
        selector = selectors.DefaultSelector()
        for stream in (self._proc.stdout, self._proc.stderr):
            os.set_blocking(stream.fileno(), False)
            selector.register(stream, selectors.EVENT_READ)
        os.set_blocking(self._proc.stdin.fileno(), False)
        self._selector = selector

    def _send(self, data: bytes, deadline: float) -> None:
        assert self._proc is not None and self._selector is not None
        stdin = self._proc.stdin
        view = memoryview(data)
        self._selector.register(stdin, selectors.EVENT_WRITE)
        try:
            while view:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise _Fault(
                        "timeout",
                        f"the engine did not read its request within {self.timeout:g} s",
                        restart=True,
                    )
                for key, _ in self._selector.select(remaining):
                    if key.fileobj is stdin:
                        try:
                            written = os.write(stdin.fileno(), view)
                        except BrokenPipeError:
                            raise self._crashed("while the request was being sent") from None
                        except BlockingIOError:
                            continue
                        view = view[written:]
                    else:
                        self._drain(key.fileobj)
                        if self._stdout_eof:
                            raise self._crashed("before reading its request")
        finally:
            if self._selector is not None and self._proc is not None:
                try:
                    self._selector.unregister(stdin)
                except (KeyError, ValueError):
                    pass

    def _read_line(self, deadline: float, op: str) -> bytes:
        assert self._proc is not None and self._selector is not None
        while True:
            newline = self._stdout.find(b"\n")
            if newline >= 0:
                if newline > self.max_line:
                    raise self._oversized()
                line = bytes(self._stdout[:newline])
                del self._stdout[: newline + 1]
                return line
            if len(self._stdout) > self.max_line:
                raise self._oversized()
            if self._stdout_eof:
                raise self._crashed(f"without answering {op}")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _Fault(
                    "timeout",
                    f"no answer to {op} within {self.timeout:g} s (the engine was restarted)",
                    restart=True,
                    partial=bytes(self._stdout[:300]).decode("utf-8", "replace"),
                )
            for key, _ in self._selector.select(remaining):
                self._drain(key.fileobj)

    def _drain(self, stream: Any) -> None:
        """Read what is available on stdout or stderr without blocking."""
        assert self._proc is not None
        try:
            chunk = os.read(stream.fileno(), 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if stream is self._proc.stdout:
            if chunk:
                self._stdout += chunk
            else:
                self._stdout_eof = True
                self._unregister(stream)
        else:
            if chunk:
                self._stderr += chunk
                if len(self._stderr) > 2 * STDERR_TAIL:
                    del self._stderr[:-STDERR_TAIL]
            else:
                self._unregister(stream)

    def _unregister(self, stream: Any) -> None:
        if self._selector is not None:
            try:
                self._selector.unregister(stream)
            except (KeyError, ValueError):
                pass

    def _oversized(self) -> _Fault:
        return _Fault(
            "protocol_error",
            f"an answer line is longer than {self.max_line} bytes (see --durak-max-line)",
            restart=True,
            received=bytes(self._stdout[:300]).decode("utf-8", "replace"),
        )

    def _crashed(self, when: str) -> _Fault:
        """The child closed its stdout: collect its exit status and last words."""
        assert self._proc is not None
        try:
            status = self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            status = None
        self._collect_stderr(0.2)
        if status is None:
            what = "closed its standard output"
        elif status < 0:
            what = f"was killed by signal {-status}"
        else:
            what = f"exited with status {status}"
        return _Fault(
            "crash",
            f"the engine {what} {when} (it will be restarted)",
            restart=True,
            exit_status=status,
        )

    def _collect_stderr(self, seconds: float) -> None:
        """Read what the child left on stderr, for at most ``seconds``."""
        if self._proc is None or self._selector is None:
            return
        stderr = self._proc.stderr
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                self._selector.get_key(stderr)
            except (KeyError, ValueError, RuntimeError):
                return
            ready = self._selector.select(max(0.0, end - time.monotonic()))
            if not ready:
                return
            for key, _ in ready:
                self._drain(key.fileobj)

    def _stderr_tail(self) -> str:
        return bytes(self._stderr[-STDERR_TAIL:]).decode("utf-8", "replace")

    def _stop_child(self, grace: float | None = None) -> dict[str, Any]:
        """End the child and its process group, reap it, and close everything. Idempotent.

        ``grace``: seconds the child gets to exit on its own after end of input, then SIGTERM,
        then SIGKILL. Without it (a child that already failed) it is killed at once.
        """
        proc = self._proc
        if proc is None:
            return {}
        info: dict[str, Any] = {}
        self._note_descendants()  # before it can exit and leave them to the subreaper
        try:
            if proc.stdin:
                try:
                    proc.stdin.close()  # end of input: a polite engine exits now
                except OSError:
                    pass
            if grace:
                try:
                    proc.wait(timeout=grace)
                except subprocess.TimeoutExpired:
                    pass
            signals = (signal.SIGTERM, signal.SIGKILL) if grace else (signal.SIGKILL,)
            for sig in signals:
                if proc.poll() is not None:
                    break
                self._signal_group(proc, sig)
                try:
                    proc.wait(timeout=1.0 if sig == signal.SIGTERM else 5.0)
                except subprocess.TimeoutExpired:
                    continue
            self._signal_group(proc, signal.SIGKILL)  # whatever of the group is left
            self._collect_stderr(0.05)
            info["exit_status"] = proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            info["exit_status"] = None
        finally:
            left = reaping.kill_all({**self._descendants, **reaping.adopted(self._token)})
            reaping.engine_stopped()
            self._descendants.clear()
            if left:
                info["descendants_left"] = left
            if self._selector is not None:
                self._selector.close()
                self._selector = None
            for stream in (proc.stdout, proc.stderr):
                if stream:
                    try:
                        stream.close()
                    except OSError:
                        pass
            self._proc = None
            self._stdout.clear()
            self._stdout_eof = False
        return info

    @staticmethod
    def _signal_group(proc: subprocess.Popen[bytes], sig: int) -> None:
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def close(self) -> None:
        self._stop_child(grace=1.0)

    def __del__(self) -> None:  # a forgotten engine still gets reaped
        with contextlib.suppress(Exception):  # at interpreter shutdown anything may be gone
            self._stop_child()


class _Refusal(Exception):
    """An ``ok: false`` answer: a well-behaved refusal, not a fault."""

    def __init__(self, error: ErrorResult):
        self.error = error
