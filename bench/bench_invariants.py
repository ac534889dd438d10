"""Benchmark of the judge's state check, ``conformance.suite.invariants.state_problems``.

Plays random legal moves on the reference engine (fixed seeds) for a few rulesets and player
counts, keeps every state, then prints how many states per second ``state_problems`` checks:

- valid states (the usual case: the compiled schema predicate says yes, the invariants hold);
- the same states with one card copied into a second place (the schema still holds, the
  conservation check reports where the card is);
- states that break the schema (a seat written as a string), which go through jsonschema for
  the messages;
- for comparison, jsonschema alone on the valid states (what the check would cost without the
  compiled predicate).

A benchmark, not a test: it prints figures and asserts nothing. Usage::

    python bench/bench_invariants.py            # about ten seconds
    python bench/bench_invariants.py --quick
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.suite import invariants
from conformance.suite.invariants import state_problems
from reference_impl import api
from reference_impl.codec import state_from_json, state_to_json
from reference_impl.core import apply_move, legal_moves

CONFIGS = [("podkidnoy", 2), ("podkidnoy", 4), ("perevodnoy", 3), ("teams-2v2v2", 6)]
CAP = 2000  # R-END-5: a move cap


def states_of(ruleset, players: int, games: int) -> list[dict]:
    out = []
    for game in range(games):
        rng = random.Random(game)
        state = api.new_game(ruleset, players, seed=game)
        name = state["ruleset"]["name"]
        engine_state = state_from_json(state)
        out.append(state)
        for _ in range(CAP):
            if state["result"] is not None:
                break
            apply_move(engine_state, rng.choice(legal_moves(engine_state)))
            state = state_to_json(engine_state, name)
            out.append(state)
    return out


def rate(label: str, states: list, check) -> None:
    check(states[0])  # load the schemas outside the timing
    start = time.perf_counter()
    for state in states:
        check(state)
    elapsed = time.perf_counter() - start
    print(f"  {label:44s} {len(states) / elapsed:9.0f} states/s  ({len(states)} states)")


def duplicated(state: dict) -> dict:
    state = copy.deepcopy(state)
    state["players"][0]["hand"].append(state["discard"][0] if state["discard"] else state["trump"])
    return state


def misshapen(state: dict) -> dict:
    state = copy.deepcopy(state)
    state["dealer"] = str(state["dealer"])
    return state


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games")
    args = parser.parse_args(argv)
    games = 3 if args.quick else 15
    states: list[dict] = []
    for ruleset, players in CONFIGS:
        states += states_of(ruleset, players, games)
    print(
        f"state_problems on {len(states)} states of {games * len(CONFIGS)} random games "
        f"({', '.join(f'{r} x{n}' for r, n in CONFIGS)}):"
    )
    rate("valid states", states, state_problems)
    sample = states[:: max(1, len(states) // 2000)]
    rate(
        "a card in two places (conservation report)",
        [duplicated(s) for s in sample],
        state_problems,
    )
    rate("a seat as a string (jsonschema messages)", [misshapen(s) for s in sample], state_problems)
    validator = invariants.schema.state_schema().validator
    rate(
        "jsonschema alone (inlined schema), valid states",
        sample,
        lambda s: list(validator.iter_errors(s)),
    )


if __name__ == "__main__":
    main()
