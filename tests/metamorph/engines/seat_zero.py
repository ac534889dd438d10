"""A deliberately wrong engine for the metamorph tests: the reference, except that seat 0 never
throws in (its legal sets lack seat 0's throw-ins, R-THROW-3 broken for one absolute seat).
Relabelling suits, twins or the talon keeps seat 0 where it is; only turning the seats round
shows it.

Load with ``python:seat_zero:make`` (this directory on ``sys.path``).
"""

from __future__ import annotations

from types import SimpleNamespace

from reference_impl import api


def legal_moves(state: dict) -> list:
    return [
        m for m in api.legal_moves(state) if not (m["action"] == "throw_in" and m["player"] == 0)
    ]


def make() -> SimpleNamespace:
    return SimpleNamespace(
        EngineError=api.EngineError,
        capabilities=api.capabilities,
        new_game=api.new_game,
        legal_moves=legal_moves,
        apply=api.apply,
    )
