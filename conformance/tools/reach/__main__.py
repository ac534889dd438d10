"""``python -m conformance.tools.reach``: routes to the fixtures' start positions.

Without options it checks: every route written in the fixtures replays exactly, and each case
that starts from a position and has no route is listed with the reason no game reaches it.
``--write`` finds a route for every position-start case that has none (or whose route no longer
replays) and writes it into the fixture file as ``reached_by`` (text inserted, nothing else in
the file changes). ``--mend`` also says, for each case still without a route, the smallest change
of its start that a game reaches (the pile reordered into pairs, the bout number raised, cards
beyond six made known, another dealer): the fixture's author makes it and works out again, by
the rules, any expectation that depends on it. ``--case`` limits any of these to the named cases.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from conformance.suite import FIXTURES_DIR
from conformance.suite.loader import Case, load_paths

from .finder import find_route, route_problem
from .fixtures import flow, write_routes
from .repair import mend
from .target import Unreachable


def position_cases(paths: list[Path]) -> list[Case]:
    """The cases that start from a position (a deal needs no route; a robustness case's start
    must be refused as impossible, so no game reaches it by design)."""
    cases, problems = load_paths(paths)
    for problem in problems:
        print(f"{problem}", file=sys.stderr)
    return [case for case in cases if "state" in case.start and case.start_refused is None]


def suggestion(case: Case, budget: int) -> str:
    """The first mended start of :func:`.repair.mend` the finder reaches, as the fields to write."""
    found = mend(case.start["state"], case.ruleset, case.players, budget=budget, seconds=30)
    if found is None:
        return "  no small change of the start found that a game reaches"
    note, state, _ = found
    fields = {"discard": state["discard"], "dealer": state["dealer"]}
    if state["bout"]:
        fields["bout/number"] = state["bout"]["number"]
    fields.update({f"players/{i}/known": p["known"] for i, p in enumerate(state["players"])})
    written = {k: v for k, v in fields.items() if v != pointer(case.start["state"], k)}
    lines = [f"  reachable with: {note}"] + [f"    /{k}: {flow(v)}" for k, v in written.items()]
    return "\n".join(lines)


def pointer(state: dict[str, Any], path: str) -> Any:
    """The value at a slash path of a state (``players/0/known``)."""
    value: Any = state
    for part in path.split("/"):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.tools.reach", description=__doc__)
    parser.add_argument("paths", nargs="*", type=Path, default=[FIXTURES_DIR])
    parser.add_argument("--write", action="store_true", help="find and write missing routes")
    parser.add_argument("--case", action="append", default=[], help="only this case id")
    parser.add_argument("--mend", action="store_true", help="suggest a reachable start")
    parser.add_argument("--budget", type=int, default=60000, help="plans tried per case")
    args = parser.parse_args(argv)
    cases = [c for c in position_cases(args.paths) if not args.case or c.id in args.case]
    started = time.monotonic()
    routes: dict[Path, dict[str, Any]] = defaultdict(dict)
    missing: list[tuple[Case, str]] = []
    routed = 0
    for case in cases:
        problem = route_problem(case)
        if problem is None:
            routed += 1
            continue
        if not args.write:
            missing.append((case, problem))
            continue
        try:
            route = find_route(case.start["state"], case.ruleset, case.players, args.budget)
        except Unreachable as exc:
            missing.append((case, exc.reason))
            if case.reached_by is not None:
                routes[case.path][case.id] = None
            continue
        routes[case.path][case.id] = route.to_json()
        routed += 1
    for path, found in routes.items():
        if write_routes(path, found):
            print(f"wrote {len(found)} route(s) into {path}")
    for case, reason in missing:
        print(f"{case.id} ({case.location}): {reason}")
        if args.mend:
            print(suggestion(case, args.budget))
    print(
        f"{len(cases)} cases start from a position: {routed} with a route, {len(missing)} "
        f"without ({time.monotonic() - started:.1f}s)"
    )
    return 0 if not missing or args.write else 1


if __name__ == "__main__":
    sys.exit(main())
