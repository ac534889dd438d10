"""A deliberately wrong engine for the metamorph tests: the reference, except that it peeks at
the talon: the defender may not take while the next card to be drawn is a trump (the legal set
depends on a face-down card, R-INFO-1 and R-TAKE-1 broken). Suits relabelled move the trump suit
along and seats turned round keep the talon, so only reordering the face-down cards shows it.

Load with ``python:talon_peek:make`` (this directory on ``sys.path``).
"""

from __future__ import annotations

from types import SimpleNamespace

from reference_impl import api


def legal_moves(state: dict) -> list:
    talon = state.get("talon") or []
    peeked = len(talon) > 1 and talon[0][1] == state["trump"][1]
    return [m for m in api.legal_moves(state) if not (peeked and m["action"] == "take")]


def make() -> SimpleNamespace:
    return SimpleNamespace(
        EngineError=api.EngineError,
        capabilities=api.capabilities,
        new_game=api.new_game,
        legal_moves=legal_moves,
        apply=api.apply,
    )
