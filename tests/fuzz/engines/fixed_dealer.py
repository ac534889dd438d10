"""A deliberately wrong engine for the fuzz tests: the reference engine, except that ``new_game``
ignores the dealer it is given and always deals from the last seat (R-DEAL-3's default), so the
hands, the trump card and the first attacker can differ from the reference's deal. Only the states
after the deal tell it apart.

Load with ``python:fixed_dealer:make`` (this directory on ``sys.path``).
"""

from __future__ import annotations

from types import SimpleNamespace

from reference_impl import api


def new_game(ruleset, players, *, deck=None, seed=None, dealer=None, previous=None):
    return api.new_game(ruleset, players, deck=deck, seed=seed, previous=previous)


def make() -> SimpleNamespace:
    return SimpleNamespace(
        EngineError=api.EngineError,
        capabilities=api.capabilities,
        new_game=new_game,
        legal_moves=api.legal_moves,
        apply=api.apply,
    )
