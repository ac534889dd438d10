"""``python -m conformance.tools.reach``: routes to the fixtures' start positions.

Without options it checks: every route written in the fixtures replays exactly, and each case
that starts from a position and has no route is listed with the reason no game reaches it.
``--write`` finds a route for every position-start case that has none (or whose route no longer
replays) and writes it into the fixture file as ``reached_by`` (text inserted, nothing else in
the file changes). ``--case`` limits either to the named cases.
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

from .finder import Route, RouteError, differences, find_route, replay, resolved
from .fixtures import write_routes
from .target import Unreachable


def position_cases(paths: list[Path]) -> list[Case]:
    """The cases that start from a position (a deal needs no route)."""
    cases, problems = load_paths(paths)
    for problem in problems:
        print(f"{problem}", file=sys.stderr)
    return [case for case in cases if "state" in case.start]


def route_problem(case: Case) -> str | None:
    """Why the case's written route does not reach its start exactly; None when it does."""
    if case.reached_by is None:
        return "no route"
    try:
        state = replay(case.ruleset, case.players, Route.from_json(case.reached_by))
    except RouteError as exc:
        return str(exc)
    diff = differences(state, resolved(case.start["state"], case.ruleset))
    return f"the route reaches a state that differs in {', '.join(diff)}" if diff else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.tools.reach", description=__doc__)
    parser.add_argument("paths", nargs="*", type=Path, default=[FIXTURES_DIR])
    parser.add_argument("--write", action="store_true", help="find and write missing routes")
    parser.add_argument("--case", action="append", default=[], help="only this case id")
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
    print(
        f"{len(cases)} cases start from a position: {routed} with a route, {len(missing)} "
        f"without ({time.monotonic() - started:.1f}s)"
    )
    return 0 if not missing or args.write else 1


if __name__ == "__main__":
    sys.exit(main())
