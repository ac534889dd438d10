"""Shared helpers of the kit's tests: the toy engine in process, and one-line requests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .toy_engine import Toy

HERE = Path(__file__).resolve().parent
TOY = HERE / "toy_engine.py"
ROOT = HERE.parent.parent

__all__ = ["HERE", "ROOT", "TOY", "Toy", "ask", "two_player_game"]


def ask(adapter: Any, request: Any) -> dict:
    """The adapter's answer to one request, sent as a line of JSON (or as the text given)."""
    line = request if isinstance(request, str) else json.dumps(request)
    answer = adapter.answer(line)
    json.dumps(answer)  # every answer is JSON
    return answer


def two_player_game(adapter: Any, seed: int = 42, ruleset: Any = "podkidnoy") -> dict:
    answer = ask(adapter, {"id": 1, "op": "new_game", "ruleset": ruleset, "players": 2,
                           "seed": seed})
    assert answer["ok"], answer
    return answer["state"]
