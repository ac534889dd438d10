"""Game sessions on the runner's side: the stateless :class:`Engine` interface over the games an
engine keeps (spec/protocol.md section 7).

Every consumer of an engine (the case runner, scenarios, records, fuzz, perft) asks stateless
questions: the legal moves of *this state*, the state after *this move on this state*. An engine
that cannot be set up from a state answers them by rebuilding its position on every request,
which is slow, and for some engines impossible. An engine that keeps games of its own says
``supports.sessions: true``; :class:`SessionEngine` then answers the same stateless questions
with the game operations, so no consumer needs to know:

- ``new_game`` opens a game, and remembers the state it answered as that game's current state;
- a question about a state that is some game's current state goes to that game (``apply`` moves
  the game on, and the answer becomes its current state; a refused move leaves it where it was);
- a state answered earlier whose game has moved on (a branch: perft, a second move tried after
  another) is reached again by replaying the path that reached it, the ``new_game`` fields and the
  moves, on a new game (or on a game standing on the way); replays are counted;
- a state never answered (a case that starts from a position) goes to the stateless operation
  when the engine can be set up from a state (``supports.positions``, default true), and is
  answered ``unsupported`` otherwise, with a message saying why.

The path of every answered state is kept as a tree (each node: its parent and the move from it),
not as copies of states; states are looked up by a digest of their canonical text. Both the tree's
index and the open games are bounded, least recently used first out. After a fault (a timeout or
a crash restarted the process) the engine's games are gone: every handle is forgotten, none is
sent again, and the next question replays (P-38).

A replay relies on P-37 (a game's answers depend only on its deal and its moves): a replay that
reaches another state, or is refused a move it was given before, is a ``protocol_error``.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import os
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from conformance.contract import canonical
from conformance.engines.base import Engine, ErrorResult, implements_games

#: ``off`` (or ``0``, ``no``, ``false``, ``stateless``) makes :func:`~conformance.engines.factory.
#: make_engine` leave engines stateless even when they claim sessions: to compare both modes.
SESSIONS_ENV = "DURAK_CONFORMANCE_SESSIONS"
_OFF = ("off", "0", "no", "false", "stateless")

#: The games kept open at once (P-39: the runner keeps at most 16).
DEFAULT_MAX_OPEN = 8
#: Answered states remembered (a 16-byte digest and a tree node each).
DEFAULT_MAX_STATES = 100_000

#: The blocker naming the claim a case that starts from a position waits for (P-16 ``positions``).
POSITIONS_BLOCKER = "positions"

UNREACHED = (
    "the engine cannot be set up from a position (hello: supports.positions false), and this state "
    "was not reached from a deal in this run: the case starts from a position, so it can only run "
    "on an engine that is set up from states"
)


def sessions_wanted(environ: Mapping[str, str] | None = None) -> bool:
    """False when :data:`SESSIONS_ENV` asks for stateless requests only."""
    value = (os.environ if environ is None else environ).get(SESSIONS_ENV, "on")
    return value.strip().lower() not in _OFF


def starts_from_position(start: Any) -> bool:
    """True when a case's start (a fixture's ``start``, a perft position's, a finding's) is a
    state rather than a deal: such a case runs only on an engine set up from states. The gate
    blocks it with :data:`POSITIONS_BLOCKER` when hello says ``positions: false``."""
    return isinstance(start, Mapping) and "state" in start


def sets_up_positions(supports: Any) -> bool:
    """``supports.positions`` read: false only when the engine says so (P-16, default true)."""
    return not (isinstance(supports, Mapping) and supports.get("positions") is False)


def fingerprint(state: Any) -> bytes | None:
    """A digest of the state's canonical text (two states are equal when their canonical texts
    are, docs/architecture.md); None for something that is not a state at all. Only the state's
    unordered lists are copied to be sorted (``canonical.normalise_state`` copies the state whole,
    several times slower, and this runs on every answer and every question)."""
    if not isinstance(state, dict):
        return None
    view = dict(state)
    if isinstance(view.get("players"), list):
        view["players"] = [_sorted(player, ("hand", "known")) for player in view["players"]]
    view["bout"] = _sorted(view.get("bout"), ("passed", "shown"))
    try:
        text = canonical.dumps(view)
    except (TypeError, ValueError):
        return None
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def _sorted(part: Any, names: tuple[str, ...]) -> Any:
    if not isinstance(part, dict):
        return part
    part = dict(part)
    for name in names:
        if isinstance(part.get(name), list):
            try:
                part[name] = sorted(part[name], key=_card_key)
            except TypeError:  # not cards: left as it is, compared as it is
                pass
    return part


#: The canonical card order, remembered per card (there are at most 104 of them).
_card_key = functools.lru_cache(maxsize=4096)(canonical.card_key)


@dataclass(eq=False)
class _Node:
    """A state answered: reached by ``move`` from ``parent``, or dealt by ``deal`` (a root)."""

    parent: _Node | None
    move: dict[str, Any] | None
    deal: dict[str, Any] | None = None
    key: bytes | None = None
    game: _Game | None = None  # the open game whose current state this is


@dataclass(eq=False)
class _Game:
    """An open game of the engine: its handle and the node of its current state."""

    handle: Any
    node: _Node | None = None


@dataclass
class _Claims:
    sessions: bool = False
    positions: bool = True
    observe: bool = False


@dataclass
class SessionStats:
    """What a session did, for benchmarks and tests: counts by kind, and what is held now."""

    counts: Counter = field(default_factory=Counter)
    open_games: int = 0
    states: int = 0


class SessionEngine(Engine):
    """``inner`` played through its own games when its hello claims ``sessions`` (and its class
    writes the game methods); a plain pass-through otherwise, so wrapping costs nothing.

    ``fingerprint`` turns a state into its lookup key (by default the digest of its canonical
    text); a wrapper that changes the states its caller sees should key them as the caller sends
    them back.
    """

    def __init__(
        self,
        inner: Engine,
        *,
        max_open: int = DEFAULT_MAX_OPEN,
        max_states: int = DEFAULT_MAX_STATES,
        fingerprint: Callable[[Any], bytes | None] = fingerprint,
    ):
        self.inner = inner
        self.max_open = max(1, max_open)
        self.max_states = max(1, max_states)
        self._key = fingerprint
        self._claims: _Claims | None = None
        self._index: OrderedDict[bytes, _Node] = OrderedDict()
        self._open: OrderedDict[_Game, None] = OrderedDict()
        self.counts: Counter = Counter()

    # ------------------------------------------------------------------ the claim

    def hello(self) -> dict[str, Any] | ErrorResult:
        answer = self._ask(self.inner.hello())
        if isinstance(answer, dict):
            supports = answer.get("supports")
            supports = supports if isinstance(supports, Mapping) else {}
            self._claims = _Claims(
                sessions=supports.get("sessions") is True and implements_games(self.inner),
                positions=sets_up_positions(supports),
                observe=supports.get("observe") is True,
            )
        return answer

    @property
    def claims(self) -> _Claims:
        """The engine's claims, from its hello (asked once if no one asked yet; every consumer
        asks hello first anyway). A failed hello reads as stateless."""
        if self._claims is None:
            self._claims = _Claims()
            self.hello()
        return self._claims

    @property
    def in_sessions(self) -> bool:
        return self.claims.sessions

    def stats(self) -> SessionStats:
        return SessionStats(Counter(self.counts), len(self._open), len(self._index))

    # ------------------------------------------------------------------ the stateless interface

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
        deal = {"seed": seed, "deck": deck, "dealer": dealer, "previous": previous}
        if not self.in_sessions:
            return self.inner.new_game(ruleset, players, **deal)
        root = _Node(None, None, copy.deepcopy({"ruleset": ruleset, "players": players, **deal}))
        opened = self._open_game(root.deal)
        if isinstance(opened, ErrorResult):
            return opened
        game, state = opened
        self._remember(state, root)
        self._place(game, root)
        return state

    def legal_moves(self, state: dict[str, Any]) -> list[dict[str, Any]] | ErrorResult:
        if not self.in_sessions:
            return self.inner.legal_moves(state)
        game = self._game_at(state)
        if game is None:
            return self._stateless(self.inner.legal_moves, state)
        if isinstance(game, ErrorResult):
            return game
        self.counts["game_legal_moves"] += 1
        return self._ask(self.inner.game_legal_moves(game.handle))

    def apply(self, state: dict[str, Any], move: dict[str, Any]) -> dict[str, Any] | ErrorResult:
        if not self.in_sessions:
            return self.inner.apply(state, move)
        game = self._game_at(state)
        if game is None:
            return self._stateless(self.inner.apply, state, move)
        if isinstance(game, ErrorResult):
            return game
        self.counts["game_apply"] += 1
        answer = self._ask(self.inner.game_apply(game.handle, move))
        if isinstance(answer, ErrorResult):
            return answer  # refused: the game stays where it was (P-35)
        node = _Node(game.node, copy.deepcopy(move))
        self._remember(answer, node)
        self._place(game, node)
        return answer

    def observe(self, state: dict[str, Any], player: int) -> dict[str, Any] | ErrorResult:
        if not (self.in_sessions and self.claims.observe):
            return self.inner.observe(state, player)
        game = self._game_at(state)
        if game is None:
            return self._stateless(self.inner.observe, state, player)
        if isinstance(game, ErrorResult):
            return game
        self.counts["game_observe"] += 1
        return self._ask(self.inner.game_observe(game.handle, player))

    def close(self) -> None:
        for game in list(self._open):
            if game in self._open:  # a fault on the way forgets the rest
                self._close(game)
        self.inner.close()

    def describe(self) -> str:
        return self.inner.describe()

    def __getattr__(self, name: str) -> Any:  # the inner engine's extras (faults, starts, ...)
        if name == "inner":  # not set yet (copying, unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.inner, name)

    # the game operations, passed on (``serve`` of a wrapped engine answers them)

    def open_game(self, ruleset, players, **deal):
        return self._ask(self.inner.open_game(ruleset, players, **deal))

    def game_legal_moves(self, game):
        return self._ask(self.inner.game_legal_moves(game))

    def game_apply(self, game, move):
        return self._ask(self.inner.game_apply(game, move))

    def game_state(self, game):
        return self._ask(self.inner.game_state(game))

    def game_observe(self, game, player):
        return self._ask(self.inner.game_observe(game, player))

    def close_game(self, game):
        return self._ask(self.inner.close_game(game))

    # ------------------------------------------------------------------ games and the tree

    def _ask(self, answer: Any) -> Any:
        """Every answer passes here: after a fault the process may have been restarted, and its
        games with it, so no handle from before is used again (P-38)."""
        if isinstance(answer, ErrorResult) and answer.is_fault and self._open:
            self.counts["forgotten"] += len(self._open)
            for game in self._open:
                if game.node is not None:
                    game.node.game = None
            self._open.clear()
        return answer

    def _stateless(self, call: Callable[..., Any], state: Any, *args: Any) -> Any:
        if not self.claims.positions:
            self.counts["unreached"] += 1
            return ErrorResult("unsupported", UNREACHED)
        self.counts["stateless"] += 1
        return self._ask(call(state, *args))

    def _remember(self, state: Any, node: _Node) -> None:
        node.key = self._key(state)
        if node.key is None:
            return
        self._index[node.key] = node
        self._index.move_to_end(node.key)
        while len(self._index) > self.max_states:
            self._index.popitem(last=False)

    def _place(self, game: _Game, node: _Node) -> None:
        """``game`` stands on ``node`` now (its current state), and is the most recently used."""
        if game.node is not None and game.node.game is game:
            game.node.game = None
        if node.game is not None and node.game is not game:
            self._close(node.game)  # two games on one state: one is enough
        game.node, node.game = node, game
        self._open[game] = None
        self._open.move_to_end(game)

    def _game_at(self, state: Any) -> _Game | ErrorResult | None:
        """The open game standing on ``state`` (replayed to it if need be); None for a state
        never answered (or forgotten)."""
        key = self._key(state)
        node = self._index.get(key) if key is not None else None
        if node is None:
            return None
        self._index.move_to_end(key)
        if node.game is not None:
            self._open.move_to_end(node.game)
            return node.game
        return self._replay(node)

    def _replay(self, target: _Node) -> _Game | ErrorResult:
        """A game standing on ``target``: the nearest node on its path that has a game, or a new
        game of the path's deal, played forward by the moves that reached ``target``."""
        moves, node = [], target
        while node.game is None and node.parent is not None:
            moves.append(node.move)
            node = node.parent
        moves.reverse()
        self.counts["replays"] += 1
        game, state = node.game, None
        if game is None:
            opened = self._open_game(node.deal)
            if isinstance(opened, ErrorResult):
                return _diverged(opened, "new_game", 0, len(moves))
            game, state = opened
            self._place(game, node)
        for number, move in enumerate(moves, 1):
            self.counts["replayed_moves"] += 1
            state = self._ask(self.inner.game_apply(game.handle, move))
            if isinstance(state, ErrorResult):
                self._close(game)
                return _diverged(state, "move", number, len(moves))
        if state is not None and self._key(state) != target.key:
            self._close(game)
            return ErrorResult(
                "protocol_error",
                f"replaying the {len(moves)} move(s) that reached this state on a new game "
                "reached another state: a game's answers must depend only on its deal and its "
                "moves (spec/protocol.md P-37)",
                diagnostics={"replayed": state},
            )
        self._place(game, target)
        return game

    def _open_game(self, deal: dict[str, Any]) -> tuple[_Game, Any] | ErrorResult:
        while len(self._open) >= self.max_open:
            self._close(next(iter(self._open)))
        fields = {k: v for k, v in deal.items() if k not in ("ruleset", "players")}
        answer = self._ask(self.inner.open_game(deal["ruleset"], deal["players"], **fields))
        if isinstance(answer, ErrorResult):
            return answer
        if not isinstance(answer, Mapping) or "game" not in answer or "state" not in answer:
            return ErrorResult("protocol_error", "open_game answered no game and state")
        self.counts["opened"] += 1
        return _Game(answer["game"]), answer["state"]

    def _close(self, game: _Game) -> None:
        """Close ``game``; one forgotten after a fault is only let go (P-38: its handle is never
        sent to the process that replaced the one that knew it)."""
        if game.node is not None and game.node.game is game:
            game.node.game = None
        game.node = None
        if game in self._open:
            del self._open[game]
            self.counts["closed"] += 1
            self._ask(self.inner.close_game(game.handle))  # a refusal changes nothing here


def _diverged(answer: ErrorResult, what: str, number: int, total: int) -> ErrorResult:
    """A replay's refusal: a fault stays itself; a refusal of what the engine accepted before
    breaks P-37."""
    if answer.is_fault:
        return answer
    where = "the new game" if what == "new_game" else f"move {number} of {total}"
    return ErrorResult(
        "protocol_error",
        f"replaying a game to reach a state it answered before, {where} was refused ({answer}); "
        "a game's answers must depend only on its deal and its moves (spec/protocol.md P-37)",
        diagnostics={"refusal": answer.to_json()},
    )
