"""The reference engine with a 2-player, 36-card hello that keeps no bookkeeping, as most engines
written before this project do not: every state it answers has the history fields wrong or
missing (no known cards, no table ``by``, bout number 0, no opener, first defence or emptied, an
empty ``finished``, the discard pile reversed, a result naming only the fool).

``make`` declares ``keeps: []`` (honest: the runner derives those fields, so whatever the gate lets
through must pass); ``make_silent`` says nothing about keeps (protocol 1's meaning: every field is
kept), so the cases that look at those fields must fail. Load with
``--engine python:forgetful_engine:make`` (this directory on ``sys.path``).
"""

from __future__ import annotations

import copy
from typing import Any

from conformance.engines.base import ErrorResult, InProcessEngine

SUPPORTS = {"players": {"36": [2]}, "options": {}, "observe": False}


def forget(state: Any) -> Any:
    """``state`` with every bookkeeping field lost or wrong; the game itself untouched."""
    if isinstance(state, ErrorResult) or not isinstance(state, dict):
        return state
    state = copy.deepcopy(state)
    for player in state["players"]:
        player["known"] = []
    for row in state["table"]:
        row.pop("by", None)
    if state["bout"]:
        state["bout"].update(number=0, opener=None, first_defence=None)
        state["bout"].pop("emptied", None)
    state["finished"] = []
    state["discard"] = list(reversed(state["discard"]))
    if state["result"]:
        state["result"] = {k: state["result"][k] for k in ("fool", "draw", "losing_team")}
    return state


class Forgetful(InProcessEngine):
    keeps: tuple[str, ...] | None = ()

    def hello(self):
        hello = super().hello()
        hello["engine"] = {"name": "forgetful", "version": "1"}
        hello["supports"] = copy.deepcopy(SUPPORTS)
        if self.keeps is not None:
            hello["supports"]["keeps"] = list(self.keeps)
        return hello

    def new_game(self, *args, **kwargs):
        return forget(super().new_game(*args, **kwargs))

    def apply(self, state, move):
        return forget(super().apply(state, move))


class Silent(Forgetful):
    keeps = None


def make() -> Forgetful:
    return Forgetful()


def make_silent() -> Silent:
    return Silent()
