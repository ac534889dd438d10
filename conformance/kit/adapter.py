"""The :class:`Adapter` base class: the protocol around an engine's translation.

An adapter is two things: the translation between the engine's positions and moves and the
contract's, which only the engine's author can write, and everything else, which is the same for
every engine. The subclass writes the first (five methods, below); this class does the rest:
the JSON Lines loop of spec/protocol.md, the checks of :mod:`conformance.kit.requests`, the
bookkeeping of :mod:`conformance.kit.bookkeeping`, and refusals that name a rule.

It answers both ways of asking (spec/protocol.md): stateless requests, where each request brings
the state and the position is rebuilt by :meth:`Adapter.setup`, and game sessions (section 7),
where the kit keeps the engine's own position per game and plays every move on it, with no
rebuild and no copy. Both go through the same checks, bookkeeping and rule naming
(:meth:`Adapter._checked` and :meth:`Adapter._played`), so a move gets the same answer either way.
"""

from __future__ import annotations

import copy
import json
import sys
import traceback
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, TextIO

from conformance.contract.canonical import dumps
from reference_impl import api

from . import bookkeeping
from .requests import Deal, Refused, check_state, deck_cards, move_id, parse_move, read_new_game

#: The operations on a game the kit keeps (spec/protocol.md section 7), besides ``open_game``.
GAME_OPS = ("game_legal_moves", "game_apply", "game_state", "game_observe", "close_game")


@dataclass(eq=False)
class _Game:
    """A game the kit keeps: the engine's own position, the state it stands for, and the deal and
    moves that reached it (to build it again should the engine fail half-way through a move)."""

    deal: Deal
    position: Any
    state: dict
    moves: list = field(default_factory=list)
    #: the engine's moves in ``position`` (:meth:`Adapter._listed`), asked once per position:
    #: a session asks for the legal set and then tries moves on the same position
    listing: dict | None = None

    def listed(self, adapter: Adapter) -> dict:
        if self.listing is None:
            self.listing = adapter._listed(self.position)
        return self.listing

    def moved(self, state: dict, position: Any) -> None:
        self.state, self.position, self.listing = state, position, None


class Adapter:
    """Subclass it, set :attr:`engine` and :attr:`supports`, write the translation, call
    :meth:`serve`.

    A *position* is whatever your engine plays on (a game object, a tuple of them); the kit never
    looks inside. The translation:

    - :meth:`deal` makes the position of a new game from a checked :class:`Deal`;
    - :meth:`setup` makes the position a JSON state describes (optional, see there);
    - :meth:`moves` lists the engine's legal moves in a position, each as the contract's move;
    - :meth:`play` plays one of them, in the engine's own terms;
    - :meth:`view` says what a position is, in the contract's terms, as far as the engine knows.

    Legality is the engine's alone: a move is legal exactly when :meth:`moves` lists it.
    """

    #: ``hello``'s ``engine``: at least ``name`` and ``version`` (P-15).
    engine: ClassVar[dict] = {"name": "an engine", "version": "0"}
    #: ``hello``'s ``supports`` (P-16). The kit answers ``unsupported`` outside it and adds
    #: ``observe`` (true when :meth:`observe` is written), ``sessions`` (true) and ``positions``
    #: (false when :meth:`setup` is not written).
    supports: ClassVar[dict] = {"players": {}, "options": {}}
    #: Positions remembered for stateless requests when :meth:`setup` is not written (the most
    #: recent kept; 0: none, so only game sessions can play).
    remember: ClassVar[int] = 4096

    def __init__(self) -> None:
        self._positions: OrderedDict[str, Any] = OrderedDict()
        self._games: dict[str, _Game] = {}
        self._last_game = 0

    @property
    def name(self) -> str:
        return str(self.engine.get("name", "the engine"))

    # ------------------------------------------------------------------ the translation: yours

    def deal(self, game: Deal) -> Any:
        """The position after dealing ``game.deck`` (deal order) to ``game.players`` seats with
        ``game.dealer`` dealing. Let your engine deal if it can, and seat its players with
        ``game.seat_of(k)`` (who gets deck index ``k``); ``game.spec_deal()`` gives the spec's
        hands for an engine that is set up from hands."""
        raise NotImplementedError

    def setup(self, state: dict) -> Any:
        """The position ``state`` (a valid state, inside the claim) describes. Raise
        ``Refused("unsupported", ...)`` for a position your engine cannot hold.

        Optional: without it hello says ``positions: false``, and the kit remembers the positions
        it made (by the state answered) and answers ``unsupported`` for any other state: dealt
        games run (in sessions, which need no setup, or statelessly), cases that start from a
        position are reported unsupported. Remembered positions must survive ``copy.deepcopy``.
        """
        position = self._positions.get(dumps(state))
        if position is None:
            raise Refused("unsupported", f"{self.name} is not set up from positions: the kit "
                          "only knows the positions it answered")
        return copy.deepcopy(position)

    def moves(self, position: Any) -> Any:
        """Every legal move of every player (R-PLAY-1): contract moves, or ``(move, native)``
        pairs where ``native`` is what :meth:`play` gets back (the engine's own move). Several
        native moves standing for one contract move are listed once, the last one kept."""
        raise NotImplementedError

    def play(self, position: Any, native: Any) -> Any:
        """The position after ``native`` (from :meth:`moves`), with everything it sets off (the
        end of the bout, drawing, the result). May change ``position`` and return it. Raise
        ``Refused("illegal_move", message)`` if the engine refuses after all; give ``rule`` only
        if your engine names one."""
        raise NotImplementedError

    def view(self, position: Any) -> dict:
        """The position as a state, leaving out what the kit derives (conformance.kit.bookkeeping):
        ``{"talon": [...], "discard": [...], "players": [{"hand": [...]}, ...],
        "table": [{"attack": c, "defence": c or None}, ...],
        "bout": {"attacker": s, "defender": s, "taking": bool} or None (game over),
        "result": {"fool": seat or None} or None, "trump": c}``. Any field of the contract you
        add is kept as it is, in place of the kit's."""
        raise NotImplementedError

    def observe(self, position: Any, state: dict, player: int) -> dict:
        """Optional: what ``player`` sees (spec/schema/observation.schema.json)."""
        raise Refused("unsupported", f"{self.name}: observe is not implemented")

    # ------------------------------------------------------------------ the protocol: the kit's

    def hello(self) -> dict:
        observe = type(self).observe is not Adapter.observe
        positions = type(self).setup is not Adapter.setup
        supports = {**self.supports, "observe": self.supports.get("observe", observe),
                    "sessions": self.supports.get("sessions", True)}
        if not self.supports.get("positions", positions):
            supports["positions"] = False
        return {"protocol": "1", "engine": self.engine, "supports": supports}

    def new_game(self, request: dict) -> dict:
        game = read_new_game(request, self.supports, self.name)
        position = self.deal(game)
        state = bookkeeping.fresh(self.view(position), game.ruleset, game.dealer)
        self._remember(state, position)
        return state

    def legal_moves(self, state: dict) -> list:
        check_state(state, self.supports, self.name)
        position = self.setup(state)
        if state["result"] is not None:  # P-22: none once the game is over
            return []
        return [move for move, _ in self._listed(position).values()]

    def apply(self, state: dict, move: Any) -> dict:
        """The state after ``move``, checked as :meth:`_checked` says; the position is built by
        :meth:`setup` (or remembered) and thrown away."""
        check_state(state, self.supports, self.name)
        position = self.setup(state)
        move, native = self._checked(state, lambda: self._listed(position), move)
        new, position = self._played(state, position, move, native)
        self._remember(new, position)
        return new

    def _checked(self, state: dict, listing: Callable[[], dict], move: Any) -> tuple[dict, Any]:
        """The move (contract fields only) and the engine's native move for it, checked in the
        order of the contract (R-PLAY-5): the game over, a malformed move, then the engine's legal
        set (``listing()``, asked only once the move is well formed); the rule is named by the kit
        when the engine does not name it. Nothing is played."""
        if state["result"] is not None:
            raise Refused("illegal_move", "the game is over", "R-PLAY-2", named_by="kit")
        options = state["ruleset"]["options"]
        move = parse_move(move, len(state["players"]), deck_cards(options))
        listed = listing().get(move_id(move))
        if listed is None:
            raise self.refusal(state, move, f"{self.name} does not offer this move")
        return move, listed[1]

    def _played(self, state: dict, position: Any, move: dict, native: Any) -> tuple[dict, Any]:
        """The state and position after the engine plays ``native``; a refusal of the engine's
        own ``play`` gets its rule named like any other."""
        try:
            position = self.play(position, native)
        except Refused as refused:
            if refused.code != "illegal_move":
                raise
            if refused.rule:
                raise Refused("illegal_move", refused.message, refused.rule,
                              named_by="engine") from None
            raise self.refusal(state, move, refused.message) from None
        return bookkeeping.after(state, move, self.view(position)), position

    def refusal(self, state: dict, move: dict, message: str) -> Refused:
        """The rule a refused move breaks, as the reference engine diagnoses it on the same state
        (``reference_impl.api.apply``): engines rarely say why, the contract wants the first rule
        broken (P-23). Marked ``named_by: kit``; ``rule`` is null when the reference engine would
        accept the move (the engine and the rules disagree, and the kit will not guess)."""
        try:
            api.apply(state, move)
        except api.IllegalMove as exc:
            return Refused("illegal_move", f"{message}; the reference engine: {exc.message}",
                           exc.rule, named_by="kit")
        except api.EngineError as exc:
            why = f"the reference engine cannot judge it ({exc})"
        else:
            why = "the reference engine accepts it, so the kit names no rule"
        return Refused("illegal_move", f"{message}; {why}", None, named_by="kit")

    # ------------------------------------------------------------------ games (sessions)

    def open_game(self, request: dict) -> dict:
        """A game the kit keeps (P-34): the engine's position from :meth:`deal`, never rebuilt."""
        deal = read_new_game(request, self.supports, self.name)
        position = self.deal(deal)
        state = bookkeeping.fresh(self.view(position), deal.ruleset, deal.dealer)
        self._last_game += 1
        handle = f"g{self._last_game}"
        self._games[handle] = _Game(deal, position, state)
        return {"game": handle, "state": state}

    def game_legal_moves(self, game: _Game) -> list:
        if game.state["result"] is not None:  # P-22: none once the game is over
            return []
        return [move for move, _ in game.listed(self).values()]

    def game_apply(self, game: _Game, move: Any) -> dict:
        """As :meth:`apply`, on the game's own position; a refused move leaves the game as it was
        (P-35). If the engine fails half-way through playing a move (a refusal of its own, an
        exception), the position is built again from the deal and the moves before."""
        move, native = self._checked(game.state, lambda: game.listed(self), move)
        try:
            game.moved(*self._played(game.state, game.position, move, native))
        except BaseException:
            self._rebuild(game)
            raise
        game.moves.append(move)
        return game.state

    def _rebuild(self, game: _Game) -> None:
        """The game's position again, from its deal and moves (P-37: they decide it)."""
        try:
            position = self.deal(game.deal)
            for move in game.moves:
                position = self.play(position, self._listed(position)[move_id(move)][1])
        except Exception:  # noqa: BLE001 - the game is lost: its handle is refused from now on
            self._games = {h: g for h, g in self._games.items() if g is not game}
            return
        game.position, game.listing = position, None

    def game_request(self, op: str, request: dict) -> dict:
        """The answer's fields for an operation on a game (P-35, P-36)."""
        handle = request.get("game")
        game = self._games.get(handle) if isinstance(handle, str) else None
        if game is None:
            raise Refused("bad_request", f"no open game {handle!r}: it was never opened, or it "
                          "was closed", pointer="/game")
        if op == "game_legal_moves":
            return {"moves": self.game_legal_moves(game)}
        if op == "game_apply":
            if "move" not in request:
                raise Refused("bad_request", "game_apply needs a move", pointer="/move")
            return {"state": self.game_apply(game, request["move"])}
        if op == "game_state":
            return {"state": game.state}
        if op == "close_game":
            del self._games[handle]
            return {}
        if type(self).observe is Adapter.observe:
            return {"observation": self.observe(None, game.state, request.get("player"))}
        player = _seated(_seat(request.get("player")), game.state)
        return {"observation": self.observe(game.position, game.state, player)}

    # ------------------------------------------------------------------ the protocol loop

    def dispatch(self, request: dict) -> dict:
        """The answer's fields for one request; raises :class:`Refused` for a refusal."""
        op = request.get("op")
        if op == "hello":
            return self.hello()
        if op == "new_game":
            return {"state": self.new_game(request)}
        if op == "open_game":
            return self.open_game(request)
        if op in GAME_OPS:
            return self.game_request(op, request)
        if op not in ("legal_moves", "apply", "observe"):
            raise Refused("bad_request", f"unknown op {op!r}")
        state = request.get("state")
        if not isinstance(state, dict):
            raise Refused("bad_request", f"{op} needs a state (an object)", pointer="/state")
        if op == "legal_moves":
            return {"moves": self.legal_moves(state)}
        if op == "apply":
            if "move" not in request:
                raise Refused("bad_request", "apply needs a move", pointer="/move")
            return {"state": self.apply(state, request["move"])}
        if type(self).observe is Adapter.observe:
            return {"observation": self.observe(None, state, request.get("player"))}
        player = _seat(request.get("player"))
        check_state(state, self.supports, self.name)
        _seated(player, state)
        return {"observation": self.observe(self.setup(state), state, player)}

    def answer(self, line: str | bytes) -> dict:
        """The answer to one request line. Never raises (P-27): a refusal is an error answer, and
        so is an exception of the translation (``bad_request``, with the exception named and its
        traceback on stderr, since the protocol has no code for an engine's own failure)."""
        try:
            request = json.loads(line)
        except ValueError as exc:
            return {"id": None, "ok": False,
                    "error": Refused("bad_request", f"the line is not JSON: {exc}").to_json()}
        if not isinstance(request, dict):
            return {"id": None, "ok": False,
                    "error": Refused("bad_request", "a request is a JSON object").to_json()}
        ident = request.get("id")
        try:
            return {"id": ident, "ok": True, **self.dispatch(request)}
        except Refused as refused:
            return {"id": ident, "ok": False, "error": refused.to_json()}
        except Exception as exc:  # noqa: BLE001 - never die on a request (P-27)
            traceback.print_exc(file=sys.stderr)
            error = Refused("bad_request", f"{self.name} raised {type(exc).__name__}: {exc}",
                            exception=type(exc).__name__)
            return {"id": ident, "ok": False, "error": error.to_json()}

    def serve(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
        """Answer requests line by line until end of input (P-4, P-5); returns 0."""
        stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
        for line in stdin:
            stdout.write(json.dumps(self.answer(line)) + "\n")
            stdout.flush()
        return 0

    # ------------------------------------------------------------------ helpers

    def _listed(self, position: Any) -> dict:
        out = {}
        for item in self.moves(position):
            move, native = item if isinstance(item, tuple) else (item, item)
            out[move_id(move)] = (move, native)
        return out

    def _remember(self, state: dict, position: Any) -> None:
        if type(self).setup is Adapter.setup and self.remember > 0:  # only without setup
            self._positions[dumps(state)] = copy.deepcopy(position)
            while len(self._positions) > self.remember:
                self._positions.popitem(last=False)


def _seat(player: Any) -> int:
    if not isinstance(player, int) or isinstance(player, bool):
        raise Refused("bad_request", "observe needs a player (a seat)", pointer="/player")
    return player


def _seated(player: int, state: dict) -> int:
    if not 0 <= player < len(state["players"]):
        raise Refused("bad_request", f"unknown player {player}", pointer="/player")
    return player
