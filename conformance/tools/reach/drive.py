"""Playing one bout on the reference engine toward a table that is already decided.

A plan says which cards a bout puts on the table, who plays each and what beats it; it does not
say in which order the passes, throw-ins and beats come, because the priority rules (R-THROW-4,
R-THROW-5) decide that. So the driver searches: from a state it tries only the engine's legal
moves that keep the table on the plan, depth first, never visiting a state twice, until the
goal holds. Every move of a route is therefore one the engine listed and accepted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance.contract import canonical
from reference_impl import api

Move = dict[str, Any]
State = dict[str, Any]


def search(
    state: State,
    allow: Callable[[State], bool],
    goal: Callable[[State], bool],
    budget: int = 4000,
) -> tuple[list[Move], State] | None:
    """Moves from ``state`` to a state where ``goal`` holds, through states ``allow`` keeps, and
    that state; None when there is none within ``budget`` visited states."""
    seen: set[str] = set()
    path: list[Move] = []
    end: list[State] = []

    def visit(current: State) -> bool:
        if goal(current):
            end.append(current)
            return True
        key = canonical.dumps(canonical.normalise_state(current))
        if key in seen or len(seen) >= budget:
            return False
        seen.add(key)
        for move in _ordered(api.legal_moves(current)):
            after = api.apply(current, move)
            if not allow(after):
                continue
            path.append(move)
            if visit(after):
                return True
            path.pop()
        return False

    return (list(path), end[0]) if visit(state) else None


def _ordered(moves: list[Move]) -> list[Move]:
    """Cards first, passes last: a route wants the table built before anyone steps aside."""
    rank = {"attack": 0, "throw_in": 0, "transfer": 0, "show_trump": 1, "beat": 1, "take": 2}
    return sorted(moves, key=lambda m: rank.get(m["action"], 3))


def table_fits(table: list[dict[str, Any]], plan: list[dict[str, Any]]) -> bool:
    """The table so far is a beginning of the planned one: same attack cards in the same order by
    the same seats, each defence either still missing or the planned one."""
    if len(table) > len(plan):
        return False
    for now, want in zip(table, plan):
        if now["attack"] != want["attack"] or now["by"] != want["by"]:
            return False
        if now["defence"] is not None and now["defence"] != want["defence"]:
            return False
    return True


def toward(target: State) -> tuple[Callable[[State], bool], Callable[[State], bool]]:
    """``allow`` and ``goal`` for playing the current bout of ``target`` from its start."""
    want = canonical.dumps(canonical.normalise_state(target))
    bout = target["bout"]
    hands = [set(p["hand"]) for p in target["players"]]

    def allow(state: State) -> bool:
        now = state["bout"]
        if now is None or now["number"] != bout["number"]:
            return False
        if not table_fits(state["table"], target["table"]):
            return False
        if now["taking"] and not bout["taking"]:
            return False
        if not set(now["shown"]) <= set(bout["shown"]):
            return False
        if now["emptied"] != bout["emptied"][: len(now["emptied"])]:
            return False
        return all(hands[i] <= set(p["hand"]) for i, p in enumerate(state["players"]))

    def goal(state: State) -> bool:
        return canonical.dumps(canonical.normalise_state(state)) == want

    return allow, goal


def closing(
    number: int, plan: list[dict[str, Any]], taker: int | None, discard: list[str]
) -> tuple[Callable[[State], bool], Callable[[State], bool]]:
    """``allow`` and ``goal`` for an earlier bout: the planned table, then the bout closes with
    the planned pairs discarded (a defence) or picked up by ``taker`` (a take)."""
    take = taker is not None
    cards = {c for p in plan for c in (p["attack"], p["defence"]) if c is not None}
    after = discard if take else discard + [c for p in plan for c in (p["attack"], p["defence"])]

    def closed(state: State) -> bool:
        return state["bout"] is None or state["bout"]["number"] != number

    def allow(state: State) -> bool:
        if closed(state):
            return state["discard"] == after
        now = state["bout"]
        if now["taking"] and not take:
            return False
        return table_fits(state["table"], plan)

    def goal(state: State) -> bool:
        if not closed(state) or state["discard"] != after:
            return False
        return not take or cards <= set(state["players"][taker]["known"])

    return allow, goal
