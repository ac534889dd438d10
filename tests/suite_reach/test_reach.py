"""Every fixture that starts from a position is reached by its route, or is listed as unreachable.

An engine that plays in game sessions runs a position case through its ``reached_by``: a deck,
a dealer and moves from ``new_game``. These tests replay every route on the reference engine
(each move must be in the legal set and accepted, the end must equal the case's start state
canonically) and keep the cases without a route to the list in ``unreachable.yaml``, each with
the reason the finder gives, so the number cannot grow unnoticed. The robustness class is the one
exception by design: its refused starts are impossible on purpose and must stay in that class.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from conformance.contract import canonical
from conformance.suite import FIXTURES_DIR
from conformance.suite.loader import load_paths
from conformance.tools.reach import Unreachable, find_route, refusal, replay
from conformance.tools.reach.finder import resolved
from conformance.tools.reach.fixtures import route_lines, write_routes
from conformance.tools.reach.repair import mend
from reference_impl import api
from reference_impl.specdata import load_yaml

HERE = Path(__file__).resolve().parent
CASES, PROBLEMS = load_paths([FIXTURES_DIR])
#: The robustness class (conformance/fixtures/robustness/): its state starts are impossible on
#: purpose (the engine must answer invalid_state, ``start_refused``), so no game reaches them and
#: they carry no route; its other cases send malformed moves from an ordinary position, which must
#: be routed like any other. Only this class may start from a refused state.
ROBUSTNESS = FIXTURES_DIR / "robustness"
REFUSED = [case for case in CASES if "state" in case.start and case.start_refused is not None]
POSITIONS = [case for case in CASES if "state" in case.start and case.start_refused is None]
ROUTED = [case for case in POSITIONS if case.reached_by is not None]
UNREACHABLE = {entry["id"]: entry for entry in load_yaml(HERE / "unreachable.yaml")["unreachable"]}


def _start(case):
    state = copy.deepcopy(case.start["state"])
    state["ruleset"] = api.resolve(case.ruleset)
    return canonical.normalise_state(state)


def test_only_the_robustness_class_starts_from_a_refused_state():
    """A refused start is exempt from routing, so it must not hide an ordinary case: every case
    whose state start the engine must refuse lives in the robustness class, has no route, and
    has no steps to play from it."""
    assert REFUSED, "the robustness class has state cases that must be refused"
    outside = [c.id for c in REFUSED if not c.path.is_relative_to(ROBUSTNESS)]
    assert outside == [], f"only conformance/fixtures/robustness/ may start refused: {outside}"
    assert [c.id for c in REFUSED if c.reached_by is not None or c.steps] == []


@pytest.mark.parametrize("case", ROUTED, ids=lambda c: c.id)
def test_route_reaches_the_start_exactly(case):
    route = case.reached_by
    state = api.new_game(case.ruleset, case.players, deck=route["deck"], dealer=route["dealer"])
    for index, move in enumerate(route["moves"]):
        legal = {canonical.canonical_move(m) for m in api.legal_moves(state)}
        assert canonical.canonical_move(move) in legal, f"moves[{index}] is not legal: {move}"
        state = api.apply(state, move)
    assert canonical.dumps(canonical.normalise_state(state)) == canonical.dumps(_start(case))


def test_only_the_listed_positions_have_no_route():
    without = {case.id for case in POSITIONS if case.reached_by is None}
    assert not PROBLEMS
    assert without - set(UNREACHABLE) == set(), (
        "these position cases have no route: run `python -m conformance.tools.reach --write` "
        "or, if no game reaches them, list them in tests/suite_reach/unreachable.yaml"
    )
    assert set(UNREACHABLE) - without == set(), (
        "these listed cases now have a route (or are gone): take them off unreachable.yaml"
    )


#: The reasons only a search gives (:func:`conformance.tools.reach.find_route`): the test does
#: not run the search again for them, which would take minutes.
SEARCH_REASONS = ("no route found", "every history the finder builds", "no history of bouts")


def test_listed_reason_is_still_the_finders():
    """Each listed case's reason is the one the finder gives today (one test over the list,
    which is empty while every fixture has a route: an empty parametrisation would be a skip)."""
    for entry in UNREACHABLE.values():
        case = next(c for c in POSITIONS if c.id == entry["id"])
        assert case.path.relative_to(FIXTURES_DIR).as_posix() == entry["file"], entry["id"]
        cheap = refusal(case.start["state"], case.ruleset, case.players)
        if cheap is None:
            assert entry["reason"].startswith(SEARCH_REASONS), (
                f"{case.id}: the checks without a search find nothing wrong: run `python -m "
                f"conformance.tools.reach --write --case {case.id}` and list its reason"
            )
        else:
            assert cheap == entry["reason"], case.id


@pytest.mark.parametrize("case_id", ["info-discard-count", "take-pile-on-stops-at-five-cap"])
def test_the_finder_finds_a_route_that_replays(case_id):
    """The finder on two small positions (a bout played and its pairs discarded; a take): its
    route replays to the start, and its moves need not be the ones written in the fixture."""
    case = next(c for c in POSITIONS if c.id == case_id)
    route = find_route(case.start["state"], case.ruleset, case.players, budget=500)
    state = replay(case.ruleset, case.players, route)
    assert canonical.dumps(canonical.normalise_state(state)) == canonical.dumps(_start(case))


def test_the_finder_names_the_rule_an_impossible_pile_breaks():
    case = next(c for c in POSITIONS if c.id == "info-discard-count")
    state = copy.deepcopy(case.start["state"])
    state["discard"] = state["discard"][::-1]  # each defence now before the card it beat
    reason = refusal(state, case.ruleset, case.players)
    assert reason is not None and "R-BOUT-1" in reason and "does not beat" in reason
    with pytest.raises(Unreachable, match="R-BEAT-1"):
        find_route(state, case.ruleset, case.players, budget=10)


def test_deals_need_no_route():
    dealt = [case.id for case in CASES if "state" not in case.start and case.reached_by]
    assert dealt == []


def test_writing_a_route_inserts_text_and_changes_nothing_else(tmp_path):
    text = (
        "# a comment that must survive\n"
        "cases:\n"
        "  - id: one\n"
        "    start:\n"
        "      state: {talon: []}   # kept as written\n"
        "    steps:\n"
        "      - legal: []\n"
        "  - id: two\n"
        "    steps: []\n"
    )
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    route = {
        "deck": ["9C", "TC"],
        "dealer": 1,
        "moves": [{"player": 0, "action": "attack", "cards": ["9C"]}],
    }
    assert write_routes(path, {"one": route})
    lines = path.read_text(encoding="utf-8").split("\n")
    block = route_lines(route, "    ")
    assert lines[5 : 5 + len(block)] == block
    assert lines[:5] + lines[5 + len(block) :] == text.split("\n")
    assert load_yaml(path)["cases"][0]["reached_by"] == route
    assert not write_routes(path, {"one": route})  # written again: nothing changes
    assert write_routes(path, {"one": None})
    assert path.read_text(encoding="utf-8") == text


def test_mend_suggests_a_start_a_game_reaches():
    """A pile written in the wrong order is mended by reordering it into pairs: the same cards,
    and the finder reaches the mended start."""
    case = next(c for c in POSITIONS if c.id == "info-discard-count")
    state = copy.deepcopy(case.start["state"])
    state["discard"] = state["discard"][::-1]
    note, mended, route = mend(state, case.ruleset, case.players, budget=500, seconds=20)
    assert "discard pile reordered" in note
    assert sorted(mended["discard"]) == sorted(state["discard"])
    reached = replay(case.ruleset, case.players, route)
    assert canonical.dumps(canonical.normalise_state(reached)) == canonical.dumps(
        canonical.normalise_state(resolved(mended, case.ruleset))
    )
