"""Positions from random games, and the wrong test engines on the path, for the metamorph tests.

Positions come from the reference engine played with random legal moves from a seeded deal, every
``every``-th one kept up to ``limit`` moves, so a test sees positions of every phase of a game
(deal, bouts, a short talon, the end) quickly and the same ones on every run.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from conformance.contract import canonical
from conformance.contract.seats import TEAM_PLAYERS, max_players
from reference_impl import api
from reference_impl.rulesets import preset_names, resolve_ruleset

ENGINES = Path(__file__).resolve().parent / "engines"
PRESETS = tuple(preset_names())


@pytest.fixture
def engines_importable(monkeypatch):
    """The wrong test engines importable as ``python:<module>:<name>``."""
    monkeypatch.syspath_prepend(str(ENGINES))


def player_counts(preset: str) -> list[int]:
    options = resolve_ruleset(preset)["options"]
    if options["teams"] in TEAM_PLAYERS:
        return [TEAM_PLAYERS[options["teams"]]]
    return list(range(2, max_players(int(options["deck_size"]), int(options["decks"])) + 1))


def positions(
    preset: str, games: int = 2, *, seed: int = 0, every: int = 5, limit: int = 150
) -> Iterator[dict]:
    """Positions (reference states) from ``games`` random games of ``preset``."""
    rng = random.Random(f"metamorph-tests/{preset}/{seed}")
    counts = player_counts(preset)
    for _ in range(games):
        state = api.new_game(preset, rng.choice(counts), seed=rng.getrandbits(64))
        for depth in range(limit):
            if depth % every == 0:
                yield state
            legal = api.legal_moves(state)
            if not legal:
                yield state  # the end of the game is a position too
                break
            state = api.apply(state, rng.choice(sorted(legal, key=canonical.canonical_move)))
