"""The engine's errors: one base class, one subclass per protocol error code.

Every error carries what the protocol answer needs (``code``, ``message``, ``rule``, ``pointer``),
so the process server and the in-process adapter turn any of them into the same ``error`` object.
A refused move is an :class:`IllegalMove` naming the rule ID it breaks; a state that is not a valid
state is an :class:`InvalidState` naming the JSON pointer of the first problem.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""

    code = "bad_request"

    def __init__(self, message: str, *, rule: str | None = None, pointer: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.pointer = pointer

    def to_json(self) -> dict:
        out = {"code": self.code, "message": self.message, "rule": self.rule}
        if self.pointer is not None:
            out["pointer"] = self.pointer
        return out

    def __str__(self) -> str:
        where = f" at {self.pointer}" if self.pointer else ""
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{self.code}{rule}{where}: {self.message}"


class IllegalMove(EngineError):
    """A well-formed move the rules do not allow now; ``rule`` names the rule it breaks."""

    code = "illegal_move"

    def __init__(self, rule: str, message: str):
        super().__init__(message, rule=rule)


class InvalidState(EngineError):
    """Not a valid state; ``pointer`` is the JSON pointer of the first problem found."""

    code = "invalid_state"

    def __init__(self, pointer: str, message: str):
        super().__init__(message, pointer=pointer)


class BadRequest(EngineError):
    """A malformed request: a move without a known player or a required field, a bad argument."""

    code = "bad_request"


class Unsupported(EngineError):
    """Something the reference engine does not implement."""

    code = "unsupported"
