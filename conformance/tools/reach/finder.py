"""Finding a route to a position, and replaying one.

A route is set-up data: a deck in deal order, a dealer and the moves from ``new_game`` that
reach a fixture's start position exactly (canonical comparison, docs/architecture.md). The
finder works in three steps, cheapest refusal first:

1. read the target (:mod:`.target`) and check what every game must satisfy
   (:mod:`.diagnose`): an impossible position is refused with the rule it breaks;
2. play the current bout from its start on the reference engine (:mod:`.drive`): if the
   bout's own table, passes and roles cannot come about, no history helps;
3. plan the earlier bouts (:mod:`.planner`), name the deck (:mod:`.deck`) and play every
   planned bout on the engine; the first plan the engine plays to the exact target wins.

Every move of a route is one the engine listed in ``legal_moves`` and accepted; the replay
(:func:`replay`) checks that again from nothing but the route.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from conformance.contract import canonical
from reference_impl import api

from . import drive
from .deck import build
from .diagnose import check
from .planner import Node, Planner
from .target import Target, Unreachable, read_target


@dataclass
class Route:
    """A deal and the moves that reach a position."""

    deck: list[str]
    dealer: int
    moves: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"deck": list(self.deck), "dealer": self.dealer, "moves": list(self.moves)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Route:
        return cls(list(data["deck"]), data["dealer"], list(data["moves"]))


class RouteError(Exception):
    """A route that does not replay: which move, and why."""


def replay(ruleset: Any, players: int, route: Route) -> dict[str, Any]:
    """The state a route reaches: ``new_game`` with its deck and dealer, then each move, which
    must be in the engine's legal set and accepted (RouteError otherwise)."""
    try:
        state = api.new_game(ruleset, players, deck=route.deck, dealer=route.dealer)
    except api.EngineError as exc:
        raise RouteError(f"new_game refuses the deal: {exc}") from None
    for index, move in enumerate(route.moves):
        legal = {canonical.canonical_move(m) for m in api.legal_moves(state)}
        if canonical.canonical_move(move) not in legal:
            raise RouteError(f"moves[{index}] {canonical.dumps(move)} is not a legal move")
        state = api.apply(state, move)
    return state


def differences(state: dict[str, Any], target: dict[str, Any]) -> list[str]:
    """Top-level fields where two states differ (canonically); [] when they are equal."""
    a, b = canonical.normalise_state(state), canonical.normalise_state(target)
    return [
        k for k in sorted(set(a) | set(b)) if canonical.dumps(a.get(k)) != canonical.dumps(b.get(k))
    ]


def resolved(state: dict[str, Any], ruleset: Any) -> dict[str, Any]:
    """The start state as the runner builds it: the case's ruleset, resolved, inside."""
    out = copy.deepcopy(state)
    out["ruleset"] = api.resolve(ruleset)
    return out



def route_problem(case: Any, missing: str = "no route") -> str | None:
    """Why a case's route (``reached_by``) does not reach its start exactly; None when it does,
    ``missing`` when it has none."""
    if case.reached_by is None:
        return missing
    try:
        state = replay(case.ruleset, case.players, Route.from_json(case.reached_by))
    except RouteError as exc:
        return str(exc)
    diff = differences(state, resolved(case.start["state"], case.ruleset))
    return f"the route reaches a state that differs in {', '.join(diff)}" if diff else None

def start_of_bout(target: Target) -> dict[str, Any]:
    """The current bout's start: hands before anything was put on the table, no bookkeeping."""
    state = copy.deepcopy(target.state)
    state["table"] = []
    state["finished"] = list(target.start_finished)
    for seat, player in enumerate(state["players"]):
        hand = target.start_hands[seat]
        player["hand"] = list(hand)
        player["known"] = [c for c in hand if target.fates[c].known is True]
    hands = [len(h) for h in target.start_hands]
    opener = target.opener
    defender = Planner(target).defender(hands, opener)
    state["bout"] = {
        "number": target.bout_number,
        "attacker": opener,
        "defender": defender,
        "opener": opener,
        "passed": [],
        "taking": False,
        "first_defence": None,
        "shown": [],
        "emptied": [],
    }
    return state


def current_bout(target: Target) -> list[dict[str, Any]]:
    """The moves of the current bout from its start, or Unreachable."""
    start = start_of_bout(target)
    try:
        api.validate_state(start)
    except api.InvalidState as exc:
        raise Unreachable(
            f"the current bout's start (hands before this bout's cards were played) is not a "
            f"position: {exc.message} at {exc.pointer}"
        ) from None
    allow, goal = drive.toward(target.state)
    found = drive.search(start, allow, goal, budget=20000)
    if found is None:
        raise Unreachable(
            "the current bout's table, passes and roles cannot be played from its start on the "
            "reference engine's legal moves"
        )
    return found[0]


def play_history(target: Target, deck: list[str], node: Node) -> list[dict[str, Any]] | None:
    """The moves of the planned earlier bouts on the engine, or None where the engine parts
    from the plan."""
    state = api.new_game(target.ruleset, target.n, deck=deck, dealer=target.dealer)
    moves: list[dict[str, Any]] = []
    for bout in node.bouts:
        now = state["bout"]
        if now is None or (now["attacker"], now["defender"]) != (bout.attacker, bout.defender):
            return None
        plan = [{"attack": a, "by": b, "defence": d} for a, b, d in bout.table]
        taker = bout.defender if bout.take else None
        allow, goal = drive.closing(bout.number, plan, taker, list(state["discard"]))
        found = drive.search(state, allow, goal)
        if found is None:
            return None
        moves += found[0]
        state = found[1]
    now = state["bout"]
    if now is None or now["number"] != target.bout_number or now["attacker"] != target.opener:
        return None
    return moves


def counted(planner: Planner) -> list[int]:
    """The first attackers from whom a counted history (:mod:`.counts`) reaches the target's bout
    start; Unreachable when there is none and the count was complete."""
    t = planner.t
    firsts = []
    for first in planner.first_attackers():
        node = planner.start(first)
        pinned = tuple(len(p) for p in node.pinned)
        if planner.counts.reachable(1, first, node.free, pinned, 0, 0, ()):
            firsts.append(first)
    if firsts or not planner.counts.complete:
        return firsts
    sizes = ", ".join(str(len(h)) for h in t.start_hands)
    kinds = (
        "defences and takes" if t.opt("transfer") == "off" else "defences and takes (no transfer)"
    )
    raise Unreachable(
        f"no history of bouts ({kinds}, refills, going out and the roles they give) leaves hands "
        f"of {sizes} cards at the start of bout {t.bout_number} with seat {t.opener} attacking, "
        f"{len(t.talon)} cards in the talon and these {len(t.pairs)} pairs discarded "
        "(R-BOUT-1, R-BOUT-2, R-DRAW-1, R-ROLE-3, R-ROLE-4)"
    )


def find_route(
    state: dict[str, Any], ruleset: Any, players: int, budget: int = 60000, seconds: float = 0
) -> Route:
    """A route to ``state`` (a fixture's start state; its ruleset is replaced by ``ruleset``),
    or Unreachable with the reason. ``budget`` bounds the planned bouts, ``seconds`` the time."""
    full = resolved(state, ruleset)
    target = read_target(full, ruleset, players)
    check(target)
    if target.over:
        raise Unreachable(
            "no route found: the position is a finished game (bout null), and the finder plans "
            "the bouts before a bout's start, not before a game's end"
        )
    planner = Planner(target, budget=budget, seconds=seconds)
    counted(planner)
    last = current_bout(target)
    decks = engines = 0
    for node in planner.plans():
        deck = build(planner, node)
        if deck is None:
            decks += 1
            continue
        history = play_history(target, deck, node)
        if history is None:
            engines += 1
            continue
        route = Route(deck, target.dealer, history + last)
        try:
            if not differences(replay(ruleset, players, route), full):
                return route
        except RouteError:
            pass
        engines += 1
    if decks and not engines and planner.exhausted:
        raise Unreachable(
            "every history the finder builds to this bout's start needs a first attacker that "
            "R-ROLE-1 does not give: the lowest trump dealt (or the fallback seat) decides who "
            "opens bout 1, and the cards each hand must have been dealt settle who held it"
        )
    how = "exhausted" if planner.exhausted else "stopped at its budget"
    raise Unreachable(
        f"no route found: the finder's search of earlier bouts ({how}) builds defences of runs "
        "of the discard pile and takes of one card or of cards of one rank, not every history "
        "a game can have"
    )


def refusal(state: dict[str, Any], ruleset: Any, players: int) -> str | None:
    """Why no game reaches ``state``, from the checks that need no search (the target's reading
    and :mod:`.diagnose`); None when those find nothing and only a search can tell."""
    try:
        check(read_target(resolved(state, ruleset), ruleset, players))
    except Unreachable as exc:
        return exc.reason
    return None
