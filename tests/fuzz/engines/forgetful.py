"""A deliberately wrong engine for the fuzz tests: the reference engine, except that after every
move it forgets which cards of each hand everyone has seen (R-INFO-3 broken: picked-up cards and
the drawn trump card no longer stay known). Legal sets and refusals are the reference's, so only
a comparison of the states after a move can catch it.

Load with ``python:forgetful:make`` (this directory on ``sys.path``).
"""

from __future__ import annotations

from types import SimpleNamespace

from reference_impl import api


def apply(state: dict, move: dict) -> dict:
    after = api.apply(state, move)
    for player in after["players"]:
        player["known"] = []
    return after


def make() -> SimpleNamespace:
    return SimpleNamespace(
        EngineError=api.EngineError,
        capabilities=api.capabilities,
        new_game=api.new_game,
        legal_moves=api.legal_moves,
        apply=apply,
    )
