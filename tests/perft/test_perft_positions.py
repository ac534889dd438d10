"""The suite's perft positions (conformance/perft/*.yaml) against two counters.

1. The independent counter (tests/perft/independent.py, no code shared with reference_impl) must
   reproduce every expected count and every written divide: the YAML holds no number that only the
   reference engine vouches for (depth 1 and 2 are also worked out by hand in each description).
2. The reference engine, through the Engine interface as any engine would be, must find the same
   counts (within a node budget, so the test stays quick; bench/bench_perft.py goes deeper), and
   its divide must sum to its perft and agree move by move with the independent divide.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
import yaml

from conformance.engines.base import InProcessEngine
from conformance.tools.perft import divide, load_positions, perft, start_state

from . import independent as ind

SPEC = Path(__file__).resolve().parents[2] / "spec"
POSITIONS = load_positions()
IDS = [p.id for p in POSITIONS]
ENGINE_NODE_BUDGET = 5_000


@cache
def preset_options(name: str) -> dict:
    """A preset's options, read straight from spec/rulesets (no reference_impl code)."""
    doc = yaml.safe_load((SPEC / "rulesets" / f"{name}.yaml").read_text(encoding="utf-8"))
    if "preset" in doc:
        return {**preset_options(doc["preset"]), **doc.get("overrides", {})}
    return dict(doc["options"])


def options_of(ruleset) -> dict:
    if isinstance(ruleset, str):
        return preset_options(ruleset)
    return {**preset_options(ruleset["preset"]), **ruleset.get("overrides", {})}


def independent_start(position):
    options = options_of(position.ruleset)
    start = position.start
    if "deck" in start:
        return ind.deal(options, position.players, list(start["deck"]), start.get("dealer", 0))
    state = dict(start["state"], ruleset={"name": "perft", "options": options})
    return ind.from_state(state)


def test_there_are_positions_for_each_ruleset_family_and_player_count():
    rulesets = {p.ruleset if isinstance(p.ruleset, str) else p.ruleset["preset"] for p in POSITIONS}
    assert {"podkidnoy", "pagat", "perevodnoy", "perevodnoy-trump-show", "teams-2v2", "teams-3v3",
            "teams-2v2v2", "two-decks"} <= rulesets
    assert {2, 3, 4, 6} <= {p.players for p in POSITIONS}


@pytest.mark.slow
@pytest.mark.parametrize("position", POSITIONS, ids=IDS)
def test_independent_counter_reproduces_every_expected_count(position):
    rules, pos = independent_start(position)
    cache_: dict = {}
    got = {d: ind.perft(rules, pos, d, cache_) for d in position.counts}
    assert got == position.counts
    for depth, expected in position.divide.items():
        assert ind.divide(rules, pos, depth) == expected


@pytest.fixture(scope="module")
def engine():
    with InProcessEngine() as reference:
        yield reference


@pytest.mark.slow
@pytest.mark.parametrize("position", POSITIONS, ids=IDS)
def test_reference_engine_counts_match(engine, position):
    state = start_state(engine, position)
    assert isinstance(state, dict), state
    depths = position.depths(max_nodes=ENGINE_NODE_BUDGET)
    assert depths, "every position has depths within the test budget"
    got = {d: perft(engine, state, d) for d in depths}
    assert got == {d: position.counts[d] for d in depths}


@pytest.mark.slow
@pytest.mark.parametrize("position", POSITIONS, ids=IDS)
def test_reference_divide_sums_to_perft_and_matches_the_independent_divide(engine, position):
    state = start_state(engine, position)
    depth = max(d for d in position.depths(max_nodes=ENGINE_NODE_BUDGET // 4) if d >= 1)
    entries = divide(engine, state, depth)
    assert sum(e.count for e in entries) == position.counts[depth] == perft(engine, state, depth)
    assert len({e.key for e in entries}) == len(entries)
    rules, pos = independent_start(position)
    assert {e.key: e.count for e in entries} == ind.divide(rules, pos, depth)


@pytest.mark.parametrize("position", POSITIONS[:3], ids=IDS[:3])
def test_transposition_cache_changes_no_count(engine, position):
    state = start_state(engine, position)
    for depth in range(1, 5):
        assert perft(engine, state, depth) == perft(engine, state, depth, transpositions=False)


def test_positions_are_written_with_canonical_hands():
    """Hands in the YAML start states are sorted canonically (copy, suit C D H S, rank)."""
    for position in POSITIONS:
        state = position.start.get("state")
        if state is None:
            continue
        for player in state["players"]:
            key = [ind._card_order(c) for c in player["hand"]]
            assert key == sorted(key), (position.id, player["hand"])
        cards = [c for p in state["players"] for c in p["hand"]] + state["talon"] + state["discard"]
        cards += [c for t in state["table"] for c in (t["attack"], t["defence"]) if c]
        decks = int(options_of(position.ruleset)["decks"])
        assert len(cards) == len(set(cards)) == 36 * decks, position.id
        assert len(state["discard"]) % 2 == 0, position.id  # attack/defence pairs
    assert json.dumps(IDS) == json.dumps(sorted(set(IDS), key=IDS.index))
