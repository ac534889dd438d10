"""Reachable start positions: a deal and moves from ``new_game`` for every fixture position.

An engine that runs in game sessions cannot be set up from a position; it can still run a case
that starts from one when the suite carries a route there (issue 10, game sessions; issue 12,
reachable start positions). This package finds such routes on the reference engine, from the
rules (:mod:`.finder`), writes them into the fixtures as ``reached_by`` (:mod:`.fixtures`), and
says why a position no game reaches is unreachable (:mod:`.diagnose`).
"""

from .finder import Route, RouteError, find_route, refusal, replay
from .target import Unreachable

__all__ = ["Route", "RouteError", "Unreachable", "find_route", "refusal", "replay"]
