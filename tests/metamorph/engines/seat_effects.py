"""Deliberately wrong engines for the metamorph tests whose legal sets are right, each wrong in
one other answer for one absolute seat, so that turning the seats round catches each through
another check:

- ``next_state``: after a move, seat 1's known cards are forgotten (R-INFO-3 broken for seat 1):
  only the states after a move show it;
- ``refusal``: a move of seat 0 it refuses cites R-PLAY-1 whatever the rule (R-PLAY-5's order
  broken for seat 0): only refusals show it;
- ``observation``: seat 0 sees the talon as one card smaller than it is (R-INFO-1 broken for seat
  0): only observations show it.

Load with ``python:seat_effects:next_state`` (and so on; this directory on ``sys.path``).
"""

from __future__ import annotations

from types import SimpleNamespace

from conformance.engines.base import InProcessEngine
from reference_impl import api
from reference_impl.errors import IllegalMove
from reference_impl.observe import observe as reference_observe


def _api(**changed) -> SimpleNamespace:
    functions = {
        "EngineError": api.EngineError,
        "capabilities": api.capabilities,
        "new_game": api.new_game,
        "legal_moves": api.legal_moves,
        "apply": api.apply,
    }
    return SimpleNamespace(**{**functions, **changed})


def _forget_seat_one(state: dict, move: dict) -> dict:
    after = api.apply(state, move)
    if len(after["players"]) > 1:
        after["players"][1]["known"] = []
    return after


def _seat_zero_cites_play_1(state: dict, move: dict) -> dict:
    try:
        return api.apply(state, move)
    except IllegalMove as exc:
        if move.get("player") == 0:
            raise IllegalMove("R-PLAY-1", f"refused ({exc.message})") from None
        raise


def _seat_zero_miscounts(state: dict, player: int) -> dict:
    seen = reference_observe(state, player)
    if player == 0 and seen["talon_size"] > 0:
        seen["talon_size"] -= 1
    return seen


def next_state() -> SimpleNamespace:
    return _api(apply=_forget_seat_one)


def refusal() -> SimpleNamespace:
    return _api(apply=_seat_zero_cites_play_1)


def observation() -> InProcessEngine:
    return InProcessEngine(_api(), observe_fn=_seat_zero_miscounts)
