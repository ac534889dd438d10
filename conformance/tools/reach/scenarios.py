"""``python -m conformance.tools.reach.scenarios``: routes to the Gherkin scenarios' starts.

A scenario whose Given steps build a position is run, on an engine without position set-up,
through the route of the feature folder's ``routes.yaml`` (:mod:`conformance.bdd.routes`).
Without options this checks that every position scenario has a route that still reaches its
start, or a listed reason why none does. ``--write`` finds a route for each scenario that has
none (or whose route no longer reaches its start) and writes the file again; ``--case`` limits
the search to the named case IDs (the others keep their entries).

The finder starts from the position the Given steps build. When no game reaches it, it tries the
nearest starts a game does reach (:func:`.repair.variants`: the pile reordered into beaten
pairs, the bout number raised, cards beyond six made known, another dealer), keeping only the
changes of what the scenario leaves open (:func:`conformance.bdd.routes.open_fields`); the
change is written as the entry's ``past``, so every engine, set up or in sessions, starts from
that same position.
"""

from __future__ import annotations

import argparse
import copy
import signal
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from conformance.bdd.compiler import CompileError, compile_scenario
from conformance.bdd.model import Scenario, scenarios
from conformance.bdd.routes import FILE_NAME, digest, load, open_fields, routes_path
from conformance.suite.loader import Case

from . import finder
from .finder import find_route, resolved
from .fixtures import flow, wrapped
from .repair import variants
from .target import Unreachable

HEADER = """\
# Routes to the start positions of the scenarios of this folder (generated: do not edit by hand).
# An engine without position set-up (game sessions, P-33) runs a scenario that starts from a
# position through its route: new_game with the deck and dealer, then the moves, which reach the
# start exactly. `start` is the digest of that start: a scenario edited since its route was found
# runs from its position alone until the route is found again. `past` is what the Given steps
# leave open and the game's history fixes (the pile's order, the bout number, the dealer, cards
# known from a take). Written by `python -m conformance.tools.reach.scenarios --write`
# (docs/runner.md, start forms); `unreachable` lists the scenarios no route was found for.
"""


def position_scenarios(paths: list[Path] | None = None) -> list[tuple[Scenario, Case, Case]]:
    """Each scenario that starts from a position (not a deal, not a start to refuse), with its
    case as the Given steps build it and as compiled (with its route and past, if any)."""
    out = []
    for scenario in scenarios(paths):
        try:
            built = compile_scenario(scenario, routes=False)
        except CompileError:
            continue  # a broken scenario: the features' own tests name it
        if "state" in built.start and built.start_refused is None:
            out.append((scenario, built, compile_scenario(scenario)))
    return out


def route_problem(case: Case) -> str | None:
    """Why the compiled case's route does not reach its start exactly; None when it does."""
    return finder.route_problem(case, "no route (or the start changed since it was found)")

def past_of(built: dict[str, Any], mended: dict[str, Any]) -> dict[str, Any]:
    """The past fields in which a mended start differs from the built one."""
    past: dict[str, Any] = {}
    if mended["discard"] != built["discard"]:
        past["discard"] = list(mended["discard"])
    if mended["bout"] and mended["bout"]["number"] != built["bout"]["number"]:
        past["bout"] = mended["bout"]["number"]
    if mended["dealer"] != built["dealer"]:
        past["dealer"] = mended["dealer"]
    known = {
        seat: list(p["known"])
        for seat, (p, q) in enumerate(zip(mended["players"], built["players"], strict=True))
        if p["known"] != q["known"]
    }
    if known:
        past["known"] = known
    return past


def candidates(
    state: dict[str, Any], ruleset: Any, players: int, fields: set[str], until: float = 0
):
    """Mended starts that change only ``fields`` and pass the checks that need no search, the
    smallest changes first: each of :func:`.repair.variants`, and with the bout number open, the
    same with later bout numbers (a bout number the pile's pairs allow may still give the seat
    that attacks now no history of roles, R-ROLE-3; a later one can). ``until``: a
    ``time.monotonic()`` after which no more are tried (0: no limit)."""
    from .diagnose import check
    from .finder import counted
    from .planner import Planner
    from .target import read_target

    bases = [mended for _, mended in variants(state, ruleset, players)]
    seen: set[str] = set()
    for base in bases:
        numbers = [base["bout"]["number"]] if base["bout"] else [None]
        if "bout" in fields and base["bout"]:
            numbers += list(range(numbers[0] + 1, numbers[0] + 1 + LATER_BOUTS))
        for number in numbers:
            if until and time.monotonic() > until:
                return
            mended = copy.deepcopy(base)
            if number is not None:
                mended["bout"]["number"] = number
            past = past_of(state, mended)
            key = digest(mended)
            if not past or set(past) - fields or key in seen:
                continue
            seen.add(key)
            try:
                target = read_target(resolved(mended, ruleset), ruleset, players)
                check(target)
                if not counted(Planner(target)):
                    continue
            except Unreachable:
                continue
            yield mended, past


#: A case's whole search (the mended starts' checks too) stops after this many times the time of
#: its searches (``seconds`` each, ``tries`` of them and the built start's).
CASE_SECONDS_PER_SEARCH = 2

#: How many bout numbers beyond a mended start's own are tried (when the bout number is open).
LATER_BOUTS = 10


def find(built: Case, fields: set[str], budget: int, seconds: float, tries: int):
    """``(route, past)`` to the built start or to the nearest start a game reaches that changes
    only ``fields``; Unreachable with the built start's reason when there is none."""
    state, ruleset, players = built.start["state"], built.ruleset, built.players
    until = time.monotonic() + CASE_SECONDS_PER_SEARCH * seconds * (tries + 1)
    try:
        return find_route(state, ruleset, players, budget, seconds), {}
    except Unreachable as exc:
        first = exc
    for mended, past in candidates(state, ruleset, players, fields, until):
        if tries <= 0 or time.monotonic() > until:
            break
        tries -= 1
        try:
            return find_route(mended, ruleset, players, budget, seconds), past
        except Unreachable:
            continue
    raise first


class _OutOfTime(Exception):
    pass


@contextmanager
def time_limit(seconds: int):
    """Stop a case's whole search after ``seconds`` (one search of the finder can run long on a
    position it cannot reach); the case is then listed as a search that stopped at its limit."""
    def stop(signum, frame):
        raise _OutOfTime

    if seconds <= 0 or not hasattr(signal, "SIGALRM"):
        yield
        return
    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    except _OutOfTime:
        raise Unreachable(
            f"no route found: the search stopped at its limit of {seconds}s (the position as "
            "built, and the nearest starts that change only what the Given steps leave open)"
        ) from None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def entry_lines(case_id: str, entry: dict[str, Any]) -> list[str]:
    """One entry of the routes file in the fixtures' flow style."""
    lines = [f"  {case_id}:", f"    start: '{entry['start']}'"]
    past = entry.get("past") or {}
    if past:
        lines.append("    past:")
        for key in ("discard", "bout", "dealer", "known"):
            if key not in past:
                continue
            value = past[key]
            if key == "discard":
                lines += wrapped("      discard: ", list(value))
            elif key == "known":
                lines.append("      known:")
                lines += [f"        {seat}: {flow(cards)}" for seat, cards in value.items()]
            else:
                lines.append(f"      {key}: {value}")
    lines.append(f"    dealer: {entry['dealer']}")
    lines += wrapped("    deck: ", list(entry["deck"]))
    if entry["moves"]:
        lines.append("    moves:")
        lines += [f"      - {flow(m)}" for m in entry["moves"]]
    else:
        lines.append("    moves: []")
    return lines


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def write(path: Path, routes: dict[str, dict], unreachable: dict[str, str]) -> bool:
    """Write the routes file (entries by case ID in order); whether its text changed."""
    lines = [HEADER.rstrip("\n"), "routes:"]
    for case_id in sorted(routes):
        lines += entry_lines(case_id, routes[case_id])
    if not routes:
        lines[-1] = "routes: {}"
    lines.append("unreachable:" if unreachable else "unreachable: {}")
    lines += [f"  {case_id}: {_quoted(unreachable[case_id])}" for case_id in sorted(unreachable)]
    text = "\n".join(lines) + "\n"
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.tools.reach.scenarios", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("paths", nargs="*", type=Path, help="feature files or folders")
    parser.add_argument("--write", action="store_true", help="find and write missing routes")
    parser.add_argument("--case", action="append", default=[], help="only this case id")
    parser.add_argument("--budget", type=int, default=4000, help="planned bouts per search")
    parser.add_argument("--seconds", type=float, default=10, help="seconds per search")
    parser.add_argument("--tries", type=int, default=6, help="mended starts searched per case")
    parser.add_argument("--case-seconds", type=int, default=60, help="seconds per case in all")
    args = parser.parse_args(argv)
    started = time.monotonic()
    found = position_scenarios(args.paths or None)
    files: dict[Path, tuple[dict, dict]] = {}
    before: dict[Path, dict[str, Any]] = {}  # each file as it was: written again as we go
    missing = 0
    for scenario, built, case in found:
        path = routes_path(scenario.path)
        if path not in files:
            old = before[path] = load(path)
            files[path] = ({}, {}) if args.write and not args.case else (
                dict(old["routes"]), dict(old["unreachable"])
            )
        routes, unreachable = files[path]
        problem = route_problem(case)
        if problem is None:
            routes[case.id] = before[path]["routes"][case.id]
            unreachable.pop(case.id, None)
            continue
        if not args.write or (args.case and case.id not in args.case):
            missing += case.id not in before[path]["unreachable"]
            print(f"{case.id} ({case.location}): {problem}")
            continue
        try:
            with time_limit(args.case_seconds):
                route, past = find(built, open_fields_of(scenario), args.budget, args.seconds,
                                   args.tries)
        except Unreachable as exc:
            routes.pop(case.id, None)
            unreachable[case.id] = exc.reason
            write(path, routes, unreachable)
            print(f"{case.id}: unreachable: {exc.reason}", flush=True)
            continue
        state = built.start["state"]
        if past:
            from conformance.bdd.routes import with_past

            state = with_past(state, past, set(past))
        entry = {"start": digest(state), **({"past": past} if past else {}), **route.to_json()}
        routes[case.id] = entry
        unreachable.pop(case.id, None)
        write(path, routes, unreachable)  # as it goes: a long search stopped keeps what it found
        print(f"{case.id}: route of {len(route.moves)} moves" + (f", past {sorted(past)}" if past
              else ""), flush=True)
    for path, (routes, unreachable) in files.items():
        if args.write and write(path, routes, unreachable):
            print(f"wrote {len(routes)} route(s), {len(unreachable)} unreachable into {path}")
    routed = sum(len(r) for r, _ in files.values())
    print(
        f"{len(found)} scenarios start from a position: {routed} with a route "
        f"({time.monotonic() - started:.1f}s); {FILE_NAME} per feature folder"
    )
    return 0 if args.write or not missing else 1


def open_fields_of(scenario: Scenario) -> set[str]:
    """The past fields the scenario's Given steps leave open (its compiler's position spec)."""
    from conformance.bdd.compiler import Compiler
    from conformance.bdd.execute import call_step

    compiler = Compiler(dict(scenario.tag_options), routes=False)
    for step in scenario.steps:
        compiler.current = step
        call_step(step, compiler)
    return open_fields(compiler.spec)


if __name__ == "__main__":
    sys.exit(main())
