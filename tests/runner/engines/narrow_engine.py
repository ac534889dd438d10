"""The reference engine with an honest but narrow hello, as a real engine's would be: 2 players,
36 cards, every option at its podkidnoy default, no observe.

``make`` plays every rule as the reference does (so whatever the gate lets through must pass);
``make_one_at_a_time`` also plays ``draw_order: one_at_a_time`` whatever the ruleset says while
claiming only ``fill_in_turn``: a deviation that can only show when a bout closes with a short
talon. Load with ``--engine python:narrow_engine:make`` (this directory on ``sys.path``).
"""

from __future__ import annotations

import copy
from types import SimpleNamespace

from conformance.engines.base import InProcessEngine
from reference_impl import api

HELLO_SUPPORTS = {"players": {"36": [2]}, "options": {}, "observe": False}


class Narrow(InProcessEngine):
    def hello(self):
        hello = super().hello()
        hello["engine"] = {"name": "narrow", "version": "1"}
        hello["supports"] = copy.deepcopy(HELLO_SUPPORTS)
        return hello


def make() -> Narrow:
    return Narrow()


def _one_at_a_time(state: dict) -> dict:
    state = copy.deepcopy(state)
    if isinstance(state, dict) and isinstance(state.get("ruleset"), dict):
        state["ruleset"]["options"]["draw_order"] = "one_at_a_time"
    return state


def make_one_at_a_time() -> Narrow:
    """Draws one card at a time round the table, claiming to fill each hand in turn."""

    def new_game(ruleset, players, **deal):
        if isinstance(ruleset, str):
            ruleset = {"preset": ruleset, "overrides": {}}
        overrides = {**ruleset.get("overrides", {}), "draw_order": "one_at_a_time"}
        return api.new_game({**ruleset, "overrides": overrides}, players, **deal)

    engine = SimpleNamespace(
        EngineError=api.EngineError,
        capabilities=api.capabilities,
        new_game=new_game,
        legal_moves=lambda state: api.legal_moves(_one_at_a_time(state)),
        apply=lambda state, move: api.apply(_one_at_a_time(state), move),
    )
    return Narrow(engine)
