"""A deliberately wrong engine for the metamorph tests: the reference, except that with two packs
a card of the second copy (``7S2``) is never thrown in: the engine treats twins as unequal
(R-DECK-3 broken). Suits, seats and the talon keep every copy what it was; only exchanging twins
shows it.

Load with ``python:second_copy:make`` (this directory on ``sys.path``).
"""

from __future__ import annotations

from types import SimpleNamespace

from reference_impl import api


def legal_moves(state: dict) -> list:
    return [
        m
        for m in api.legal_moves(state)
        if not (m["action"] == "throw_in" and m["card"].endswith("2"))
    ]


def make() -> SimpleNamespace:
    return SimpleNamespace(
        EngineError=api.EngineError,
        capabilities=api.capabilities,
        new_game=api.new_game,
        legal_moves=legal_moves,
        apply=api.apply,
    )
