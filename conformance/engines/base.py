"""The one interface the conformance suite uses to talk to an engine.

Every consumer (the YAML fixture runner, the Gherkin step definitions, perft, fuzzing) drives an
engine through :class:`Engine` only, so the path a third-party engine takes through the process
protocol is the same path the project exercises every day with the reference engine.

Values crossing this interface are plain JSON values (dicts, lists, str, int, bool, None), exactly
what travels over the wire in ``spec/protocol.md``. The stateless methods are what every consumer
calls; the game methods (``open_game`` ... ``close_game``, spec/protocol.md section 7) are the
optional session capability, which consumers never call themselves:
:class:`~conformance.engines.session.SessionEngine` turns the stateless calls into them. A method never raises because of what the engine
did: an error answer (an illegal move, an unsupported ruleset) or a misbehaviour (a timeout, a crash,
a garbled reply) comes back as an :class:`ErrorResult` value, so a caller checks
``isinstance(answer, ErrorResult)`` and never needs a ``try``.
"""

from __future__ import annotations

import json
import traceback
from abc import ABC, abstractmethod
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Self

PROTOCOL_VERSION = "1"

#: Error codes an engine may answer with (``spec/protocol.md``): the engine behaved, the request
#: was refused.
ENGINE_CODES = ("illegal_move", "invalid_state", "unsupported", "bad_request")

#: Codes the runner assigns when the engine misbehaved or could not be asked. They never come
#: from a well-behaved engine.
FAULT_CODES = (
    "timeout",  # no answer within the per-request timeout; the engine was restarted
    "crash",  # the engine process exited (or could not be started)
    "protocol_error",  # an answer that breaks the protocol: not JSON, too long, wrong id, ...
    "internal_error",  # an in-process engine raised something that is not an engine error
    "not_run",  # the circuit breaker is open: the engine failed too often to keep asking
)

JSON = Any


@dataclass(frozen=True)
class ErrorResult:
    """A refused request or a misbehaving engine, as a value.

    ``code`` is one of :data:`ENGINE_CODES` (the engine answered ``ok: false``) or
    :data:`FAULT_CODES` (the runner gave up on the answer). ``rule`` is the rule ID an
    ``illegal_move`` cites; ``pointer`` the JSON pointer an ``invalid_state`` names.
    ``diagnostics`` carries what helps a human find the cause: the raw line received, the tail of
    the engine's stderr, a traceback, the request that was sent.
    """

    code: str
    message: str = ""
    rule: str | None = None
    pointer: str | None = None
    diagnostics: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def is_fault(self) -> bool:
        """True when the engine misbehaved, as opposed to refusing a request properly."""
        return self.code not in ENGINE_CODES

    def to_json(self) -> dict[str, Any]:
        """The protocol's ``error`` object (plus ``diagnostics`` when there are any)."""
        out: dict[str, Any] = {"code": self.code, "message": self.message, "rule": self.rule}
        if self.pointer is not None:
            out["pointer"] = self.pointer
        if self.diagnostics:
            out["diagnostics"] = dict(self.diagnostics)
        return out

    @classmethod
    def from_json(cls, error: Any, **diagnostics: Any) -> ErrorResult:
        """Build from a protocol ``error`` object, tolerating a malformed one."""
        if not isinstance(error, dict) or not isinstance(error.get("code"), str):
            return cls(
                "protocol_error",
                "an ok:false answer needs an error object with a string code",
                diagnostics={"error": error, **diagnostics},
            )
        rule = error.get("rule")
        pointer = error.get("pointer")
        return cls(
            code=error["code"],
            message=str(error.get("message", "")),
            rule=rule if isinstance(rule, str) else None,
            pointer=pointer if isinstance(pointer, str) else None,
            diagnostics=dict(diagnostics),
        )

    def __str__(self) -> str:
        text = self.code
        if self.rule:
            text += f" [{self.rule}]"
        if self.pointer:
            text += f" at {self.pointer}"
        if self.message:
            text += f": {self.message}"
        return text


def is_error(answer: Any) -> bool:
    """True when an :class:`Engine` method answered with an :class:`ErrorResult`."""
    return isinstance(answer, ErrorResult)


class Engine(ABC):
    """A Durak engine as the conformance suite sees it.

    Stateless requests: every call carries the whole state, the engine keeps nothing between calls
    (a process engine keeps its process, never game state). Implementations must not modify the
    arguments they receive. Use as a context manager, or call :meth:`close`.

    Optionally an engine keeps games of its own (hello: ``supports.sessions``): the game methods
    below act on a handle ``open_game`` answered. Their defaults answer ``unsupported``, so an
    engine that has no games needs to write nothing.
    """

    @abstractmethod
    def hello(self) -> dict[str, Any] | ErrorResult:
        """``{"protocol": "1", "engine": {"name", "version", ...}, "supports": {...}}``."""

    @abstractmethod
    def new_game(
        self,
        ruleset: str | dict[str, Any],
        players: int,
        *,
        seed: int | None = None,
        deck: list[str] | None = None,
        dealer: int | None = None,
        previous: dict[str, Any] | None = None,
    ) -> dict[str, Any] | ErrorResult:
        """The state after the deal. ``ruleset``: a preset name, ``{"preset", "overrides"}`` or a
        full options object. At most one of ``seed`` and ``deck``."""

    @abstractmethod
    def legal_moves(self, state: dict[str, Any]) -> list[dict[str, Any]] | ErrorResult:
        """Every legal move of every player; empty exactly when the game is over."""

    @abstractmethod
    def apply(self, state: dict[str, Any], move: dict[str, Any]) -> dict[str, Any] | ErrorResult:
        """The successor state, or ``ErrorResult("illegal_move", rule=...)``."""

    def observe(self, state: dict[str, Any], player: int) -> dict[str, Any] | ErrorResult:
        """What ``player`` may see of ``state``. Optional: the default answers ``unsupported``."""
        return ErrorResult("unsupported", "this engine does not implement observe")

    # ------------------------------------------------------------------ games (optional)

    def open_game(
        self,
        ruleset: str | dict[str, Any],
        players: int,
        *,
        seed: int | None = None,
        deck: list[str] | None = None,
        dealer: int | None = None,
        previous: dict[str, Any] | None = None,
    ) -> dict[str, Any] | ErrorResult:
        """``{"game": handle, "state": state}``: a game the engine keeps, dealt as ``new_game``
        deals, and the state after the deal (P-34)."""
        return _no_games(self)

    def game_legal_moves(self, game: Any) -> list[dict[str, Any]] | ErrorResult:
        """The legal moves of the game's current state."""
        return _no_games(self)

    def game_apply(self, game: Any, move: dict[str, Any]) -> dict[str, Any] | ErrorResult:
        """The state after ``move``; the game moves on to it. A refusal leaves the game as it
        was."""
        return _no_games(self)

    def game_state(self, game: Any) -> dict[str, Any] | ErrorResult:
        """The game's current state."""
        return _no_games(self)

    def game_observe(self, game: Any, player: int) -> dict[str, Any] | ErrorResult:
        """What ``player`` sees of the game's current state."""
        return _no_games(self)

    def close_game(self, game: Any) -> ErrorResult | None:
        """Forget the game: its handle is unknown from now on. None when done."""
        return _no_games(self)

    def close(self) -> None:
        """Release what the engine holds (a process, a thread). Idempotent."""

    def describe(self) -> str:
        """A one-line description for reports (a command line, "reference (in process)")."""
        return type(self).__name__

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _no_games(engine: Engine) -> ErrorResult:
    return ErrorResult(
        "unsupported", f"{engine.describe()} keeps no games of its own (no sessions)"
    )


def implements_games(engine: Engine) -> bool:
    """True when ``engine``'s class writes the game methods (not only the defaults above), so a
    hello claiming ``sessions`` can be taken at its word. A wrapper (an engine with ``inner``,
    such as the bookkeeping filler) implements them when what it wraps does."""
    if type(engine).open_game is Engine.open_game:
        return False
    inner = vars(engine).get("inner")
    return implements_games(inner) if isinstance(inner, Engine) else True


def unknown_game(game: Any) -> ErrorResult:
    """The refusal of a handle the engine does not hold (P-36)."""
    return ErrorResult(
        "bad_request",
        f"no open game {game!r}: it was never opened, or it was closed",
        pointer="/game",
    )


def new_game_request(
    ruleset: str | dict[str, Any],
    players: int,
    *,
    seed: int | None = None,
    deck: list[str] | None = None,
    dealer: int | None = None,
    previous: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The protocol's ``new_game`` request fields, leaving out the ones not given."""
    request: dict[str, Any] = {"op": "new_game", "ruleset": ruleset, "players": players}
    for key, value in (("seed", seed), ("deck", deck), ("dealer", dealer), ("previous", previous)):
        if value is not None:
            request[key] = value
    return request


def _plain(value: Any) -> Any:
    """A JSON round trip: the in-process answer looks exactly like one read off the wire
    (lists not tuples, string keys), so both paths give the same results."""
    return json.loads(json.dumps(value))


class InProcessEngine(Engine):
    """The reference engine (``reference_impl.api``), called directly in this process.

    Answers pass through a JSON round trip so they are indistinguishable from the same engine
    behind ``durak-conformance serve``. ``api`` may be replaced (a module or any object with the
    same functions), which is how tests build deliberately wrong engines.

    It keeps games too (hello adds ``supports.sessions: true``): a game is its current state in
    a dict, played by the stateless methods of this object (so a subclass that changes them
    changes its games alike). ``serve`` answers the game operations with them, which is how the
    project's own tests drive sessions on the reference engine through a real process. At most
    :attr:`GAMES_KEPT` games are kept; opening one more forgets the oldest (P-39).
    """

    GAMES_KEPT = 1024

    def __init__(self, api: Any = None, *, observe_fn: Any = None, roundtrip: bool = True):
        if api is None:
            from reference_impl import api as reference_api

            api = reference_api
        self._api = api
        self._observe = observe_fn
        self._roundtrip = roundtrip
        self._games: OrderedDict[int, Any] = OrderedDict()
        self._last_game = 0

    def describe(self) -> str:
        return "reference engine (in process)"

    def _call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        base = getattr(self._api, "EngineError", None)
        try:
            answer = fn(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a value
            if base is not None and isinstance(exc, base):
                return ErrorResult(
                    code=str(getattr(exc, "code", "bad_request")),
                    message=str(getattr(exc, "message", "") or exc),
                    rule=getattr(exc, "rule", None),
                    pointer=getattr(exc, "pointer", None),
                )
            return ErrorResult(
                "internal_error",
                f"{type(exc).__name__}: {exc}",
                diagnostics={"traceback": traceback.format_exc(limit=20)},
            )
        return _plain(answer) if self._roundtrip else answer

    def hello(self) -> dict[str, Any] | ErrorResult:
        caps = self._call(self._api.capabilities)
        if isinstance(caps, ErrorResult):
            return caps
        hello = {"protocol": PROTOCOL_VERSION}
        hello.update(caps)
        supports = hello.get("supports")
        if isinstance(supports, dict):  # a copy: an api may answer the same dict every time
            hello["supports"] = {**supports, "sessions": supports.get("sessions", True)}
        return hello

    def new_game(
        self,
        ruleset: str | dict[str, Any],
        players: int,
        *,
        seed: int | None = None,
        deck: list[str] | None = None,
        dealer: int | None = None,
        previous: dict[str, Any] | None = None,
    ) -> dict[str, Any] | ErrorResult:
        return self._call(
            self._api.new_game,
            ruleset,
            players,
            deck=deck,
            seed=seed,
            dealer=dealer,
            previous=previous,
        )

    def legal_moves(self, state: dict[str, Any]) -> list[dict[str, Any]] | ErrorResult:
        return self._call(self._api.legal_moves, state)

    def apply(self, state: dict[str, Any], move: dict[str, Any]) -> dict[str, Any] | ErrorResult:
        return self._call(self._api.apply, state, move)

    def observe(self, state: dict[str, Any], player: int) -> dict[str, Any] | ErrorResult:
        fn = self._observe
        if fn is None:
            try:
                from reference_impl.observe import observe as fn
            except ImportError:
                return ErrorResult("unsupported", "reference_impl.observe is not available")
        return self._call(fn, state, player)

    # ------------------------------------------------------------------ games

    def open_game(
        self,
        ruleset: str | dict[str, Any],
        players: int,
        *,
        seed: int | None = None,
        deck: list[str] | None = None,
        dealer: int | None = None,
        previous: dict[str, Any] | None = None,
    ) -> dict[str, Any] | ErrorResult:
        state = self.new_game(
            ruleset, players, seed=seed, deck=deck, dealer=dealer, previous=previous
        )
        if isinstance(state, ErrorResult):
            return state
        self._last_game += 1
        self._games[self._last_game] = state
        while len(self._games) > self.GAMES_KEPT:
            self._games.popitem(last=False)
        return {"game": self._last_game, "state": state}

    def _game(self, game: Any) -> Any:
        """The game's current state, or the refusal of an unknown handle."""
        known = isinstance(game, int) and not isinstance(game, bool) and game in self._games
        return self._games[game] if known else unknown_game(game)

    def game_legal_moves(self, game: Any) -> list[dict[str, Any]] | ErrorResult:
        state = self._game(game)
        return state if isinstance(state, ErrorResult) else self.legal_moves(state)

    def game_apply(self, game: Any, move: dict[str, Any]) -> dict[str, Any] | ErrorResult:
        state = self._game(game)
        if isinstance(state, ErrorResult):
            return state
        answer = self.apply(state, move)
        if not isinstance(answer, ErrorResult):
            self._games[game] = answer
        return answer

    def game_state(self, game: Any) -> dict[str, Any] | ErrorResult:
        return self._game(game)

    def game_observe(self, game: Any, player: int) -> dict[str, Any] | ErrorResult:
        state = self._game(game)
        return state if isinstance(state, ErrorResult) else self.observe(state, player)

    def close_game(self, game: Any) -> ErrorResult | None:
        state = self._game(game)
        if isinstance(state, ErrorResult):
            return state
        del self._games[game]
        return None
