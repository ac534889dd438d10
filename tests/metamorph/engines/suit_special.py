"""A deliberately wrong engine for the metamorph tests: the reference, except that a club never
beats a club unless clubs are trumps (R-BEAT-1 broken for one suit, the way an engine that
numbers the suits from clubs might slip). Its legal sets lack those beats; nothing else changes,
so only relabelling the suits shows it without expected values.

Load with ``python:suit_special:make`` (this directory on ``sys.path``).
"""

from __future__ import annotations

from types import SimpleNamespace

from reference_impl import api


def legal_moves(state: dict) -> list:
    trump_suit = state["trump"][1]
    return [
        m
        for m in api.legal_moves(state)
        if not (
            m["action"] == "beat"
            and m["card"][1] == "C"
            and m["target"][1] == "C"
            and trump_suit != "C"
        )
    ]


def make() -> SimpleNamespace:
    return SimpleNamespace(
        EngineError=api.EngineError,
        capabilities=api.capabilities,
        new_game=api.new_game,
        legal_moves=legal_moves,
        apply=api.apply,
    )
