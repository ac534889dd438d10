"""Every Gherkin scenario that starts from a position is reached by its route, or listed with the
reason none was found.

An engine without position set-up runs such a scenario through the route of features/routes.yaml
(:mod:`conformance.bdd.routes`): a deck, a dealer and moves from ``new_game``. These tests
replay every route on the reference engine (each move in the legal set and accepted, the end
equal to the compiled start canonically), keep the scenarios without one to the file's
``unreachable`` list, and check that a route's ``past`` changes only what the Given steps leave
open, so the number of scenarios an engine in sessions cannot run cannot grow unnoticed.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from conformance.bdd import features_dir
from conformance.bdd.compiler import compile_scenario
from conformance.bdd.model import scenarios
from conformance.bdd.position import PositionSpec
from conformance.bdd.routes import digest, load, open_fields, routes_path, with_past
from conformance.contract import canonical
from conformance.tools.reach import refusal
from conformance.tools.reach.scenarios import position_scenarios, write
from reference_impl import api

FEATURES = features_dir()
FOUND = position_scenarios()
SIDECAR = load(routes_path(FEATURES / "any.feature"))
ROUTED = [(built, case) for _, built, case in FOUND if case.reached_by is not None]

#: Reasons only a search gives: the test does not search again for them (minutes).
SEARCH_REASONS = ("no route found", "every history the finder builds", "no history of bouts")


def _start(case):
    state = copy.deepcopy(case.start["state"])
    state["ruleset"] = api.resolve(case.ruleset)
    return canonical.normalise_state(state)


def test_most_position_scenarios_have_a_route():
    assert len(FOUND) > 150  # the rulebook's scenarios that start from a built position
    assert len(ROUTED) >= 90  # routes found when the file was written (94): a floor, not a goal


@pytest.mark.parametrize(("built", "case"), ROUTED, ids=lambda c: getattr(c, "id", ""))
def test_route_reaches_the_scenario_start_exactly(built, case):
    route = case.reached_by
    state = api.new_game(case.ruleset, case.players, deck=route["deck"], dealer=route["dealer"])
    for index, move in enumerate(route["moves"]):
        legal = {canonical.canonical_move(m) for m in api.legal_moves(state)}
        assert canonical.canonical_move(move) in legal, f"moves[{index}] is not legal: {move}"
        state = api.apply(state, move)
    assert canonical.dumps(canonical.normalise_state(state)) == canonical.dumps(_start(case))


@pytest.mark.parametrize(("built", "case"), ROUTED, ids=lambda c: getattr(c, "id", ""))
def test_the_past_changes_only_what_the_given_steps_leave_open(built, case):
    """The start with its route differs from the one the Given steps build only in the pile's
    order, the bout number, the dealer and known cards, and the pile holds the same cards."""
    a, b = built.start["state"], case.start["state"]
    assert sorted(a["discard"]) == sorted(b["discard"])
    same = {k: v for k, v in a.items() if k not in ("discard", "bout", "dealer", "players")}
    assert same == {k: b[k] for k in same}
    assert {k: v for k, v in a["bout"].items() if k != "number"} == {
        k: v for k, v in b["bout"].items() if k != "number"
    }
    for p, q in zip(a["players"], b["players"], strict=True):
        assert (p["hand"], p["team"]) == (q["hand"], q["team"])
        assert set(p["known"]) <= set(q["known"])


def test_every_position_scenario_has_a_route_or_a_listed_reason():
    without = {case.id for _, _, case in FOUND if case.reached_by is None}
    listed = set(SIDECAR["unreachable"])
    assert without - listed == set(), (
        "these scenarios start from a position and have no route that reaches their start (new, "
        "or edited since): run `python -m conformance.tools.reach.scenarios --write`"
    )
    assert listed - without == set(), (
        "these listed scenarios now have a route (or are gone): run the tool with --write again"
    )


def test_every_entry_names_a_position_scenario():
    ids = {case.id for _, _, case in FOUND}
    assert set(SIDECAR["routes"]) - ids == set()
    assert set(SIDECAR["routes"]) & set(SIDECAR["unreachable"]) == set()


def test_listed_reason_is_still_the_finders():
    """Each listed scenario's reason is the one the finder gives today (one test over the list,
    which is empty while every scenario has a route: an empty parametrisation would be a skip)."""
    for case_id, reason in sorted(SIDECAR["unreachable"].items()):
        built = next(b for _, b, c in FOUND if c.id == case_id)
        cheap = refusal(built.start["state"], built.ruleset, built.players)
        if cheap is None:
            assert reason.startswith(SEARCH_REASONS), (
                f"{case_id}: the checks without a search find nothing wrong: run `python -m "
                f"conformance.tools.reach.scenarios --write --case {case_id}` and list its reason"
            )
        else:  # the built start is refused; the nearest mended starts were searched after it
            assert reason.startswith(cheap) or reason.startswith(SEARCH_REASONS), case_id


def test_a_route_whose_start_changed_is_not_attached(tmp_path):
    """A scenario edited after its route was found (its start's digest differs) runs from its
    position alone: the compiler attaches no route and keeps the start the steps build."""
    source = next(s for s, _, case in FOUND if case.reached_by is not None)
    case = compile_scenario(source)
    feature = tmp_path / source.path.name
    feature.write_text(source.path.read_text(encoding="utf-8"), encoding="utf-8")
    (copied,) = [s for s in scenarios([feature]) if s.label == source.label]
    entry = dict(SIDECAR["routes"][case.id])
    write(tmp_path / "routes.yaml", {case.id: entry}, {})
    assert compile_scenario(copied).reached_by == case.reached_by
    write(tmp_path / "routes.yaml", {case.id: {**entry, "start": "sha256:0"}}, {})
    stale = compile_scenario(copied)
    assert stale.reached_by is None
    assert stale.start == compile_scenario(copied, routes=False).start


def test_a_past_never_overrides_what_the_scenario_sets():
    state = {
        "discard": ["6C", "7C"],
        "bout": {"number": 2},
        "dealer": 1,
        "players": [{"hand": ["9S"], "known": []}],
    }
    spec = PositionSpec(players=1, bout_number=2)
    fields = open_fields(spec)
    assert fields == {"discard", "dealer", "known"}
    assert with_past(state, {"bout": 5}, fields) is state
    assert with_past(state, {"discard": ["6C", "8C"]}, fields) is state  # not the pile's cards
    assert with_past(state, {"known": {0: ["TS"]}}, fields) is state  # not in the hand
    moved = with_past(state, {"discard": ["7C", "6C"], "known": {0: ["9S"]}}, fields)
    assert moved["discard"] == ["7C", "6C"] and moved["players"][0]["known"] == ["9S"]
    assert digest(moved) != digest(state)


def test_the_sidecar_is_the_one_next_to_the_features():
    assert routes_path(FEATURES / "beat.feature") == Path(FEATURES) / "routes.yaml"
    assert routes_path(FEATURES / "beat.feature").is_file()
