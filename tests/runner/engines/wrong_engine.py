"""A deliberately wrong engine: the reference engine with one rule changed.

Here trumps lose their power (R-BEAT-1 broken): a trump no longer beats a card of another suit,
so such beats vanish from the legal set and ``apply`` refuses them citing R-BEAT-1. Everything
else is the reference engine. The suite must catch it.

Load with ``--durak-engine python:wrong_engine:make`` (this directory on ``sys.path``).
"""

from __future__ import annotations

from types import SimpleNamespace

from reference_impl import api
from reference_impl.errors import IllegalMove


def _trump_over_plain(state: dict, move: dict) -> bool:
    card, target = move.get("card"), move.get("target")
    if move.get("action") != "beat" or not isinstance(card, str) or not isinstance(target, str):
        return False  # a malformed beat is the reference's to refuse, as bad_request
    trump_suit = state["trump"][1]
    return card[1:2] == trump_suit and target[1:2] != trump_suit


def legal_moves(state: dict) -> list:
    return [m for m in api.legal_moves(state) if not _trump_over_plain(state, m)]


def apply(state: dict, move: dict) -> dict:
    if isinstance(move, dict) and _trump_over_plain(state, move):
        raise IllegalMove("R-BEAT-1", "a trump does not beat another suit (deliberately wrong)")
    return api.apply(state, move)


def make() -> SimpleNamespace:
    return SimpleNamespace(
        EngineError=api.EngineError,
        capabilities=api.capabilities,
        new_game=api.new_game,
        legal_moves=legal_moves,
        apply=apply,
    )
