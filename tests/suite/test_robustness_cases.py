"""The robustness class (conformance/fixtures/robustness/, issue 12 item 2): states no game
reaches must be refused with invalid_state and a pointer, malformed moves with bad_request. Every
case passes on the reference; purpose-built wrong engines fail them: one that answers moves for any
state, one that crashes on a state it cannot read, one that refuses without saying where, one that
crashes on a malformed move, one that calls it an illegal move."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.engines.base import InProcessEngine
from conformance.engines.gating import Support
from conformance.suite.cases import CaseRunner
from conformance.suite.loader import load_paths
from reference_impl import api as reference_api
from reference_impl.observe import observe as reference_observe

ROBUSTNESS = Path(__file__).resolve().parents[2] / "conformance" / "fixtures" / "robustness"


class _Api:
    """The reference API with ``legal_moves`` or ``apply`` replaced; everything else as it is."""

    def __init__(self, legal_moves=None, apply=None):
        self.legal_moves = legal_moves or reference_api.legal_moves
        self.apply = apply or reference_api.apply

    def __getattr__(self, name):
        return getattr(reference_api, name)


def _trusting(state):
    """Moves for whatever it is given: the validator's refusal swallowed."""
    try:
        return reference_api.legal_moves(state)
    except reference_api.InvalidState:
        return []


def _crashing_on_invalid(state):
    """Reads an impossible state as if it were possible and trips over it."""
    try:
        return reference_api.legal_moves(state)
    except reference_api.InvalidState:
        raise KeyError("bout") from None


def _nowhere(state):
    """Refuses the right states with the right code but names no place."""
    try:
        return reference_api.legal_moves(state)
    except reference_api.InvalidState as exc:
        raise reference_api.InvalidState(None, exc.message) from None


def _apply_crashing(state, move):
    """Reads a move without checking its shape."""
    try:
        return reference_api.apply(state, move)
    except reference_api.EngineError as exc:
        if exc.code == "bad_request":
            raise TypeError("move") from None
        raise


def _apply_illegal(state, move):
    """Tells a malformed move from a legal one but not from an illegal one."""
    try:
        return reference_api.apply(state, move)
    except reference_api.EngineError as exc:
        if exc.code == "bad_request":
            raise reference_api.IllegalMove("R-PLAY-3", exc.message) from None
        raise


def _cases():
    cases, problems = load_paths([ROBUSTNESS])
    assert not problems, problems
    return cases


def _start_of(case_id):
    return next(case.start for case in _cases() if case.id == case_id)


def _outcomes(engine, prefix="robust-"):
    runner = CaseRunner(engine, Support.everything())
    return {case.id: runner.run(case) for case in _cases() if case.id.startswith(prefix)}


def test_every_robustness_case_passes_on_the_reference():
    results = _outcomes(InProcessEngine())
    assert len(results) >= 22
    assert {r.outcome for r in results.values()} == {"passed"}, {
        i: r.message for i, r in results.items() if not r.ok
    }


@pytest.mark.parametrize(
    ("legal_moves", "outcome", "says"),
    [
        (_trusting, "failed", "legal_moves answered moves for a state no game reaches"),
        (_crashing_on_invalid, "error", "internal_error"),
        (_nowhere, "failed", "without a JSON pointer"),
    ],
)
def test_a_wrong_engine_fails_every_invalid_state_case(legal_moves, outcome, says):
    results = _outcomes(InProcessEngine(_Api(legal_moves=legal_moves)))
    results = {i: r for i, r in results.items() if "state" in _start_of(i)}
    assert len(results) >= 14
    wrong = {i: r for i, r in results.items() if r.outcome != outcome or says not in r.message}
    assert not wrong, {i: (r.outcome, r.message) for i, r in wrong.items()}


@pytest.mark.parametrize(
    ("apply", "outcome", "says"),
    [
        (_apply_crashing, "error", "internal_error"),
        (_apply_illegal, "failed", "bad_request"),
    ],
)
def test_a_wrong_engine_fails_every_malformed_move_case(apply, outcome, says):
    results = _outcomes(InProcessEngine(_Api(apply=apply)), prefix="robust-move-")
    assert len(results) >= 8
    wrong = {i: r for i, r in results.items() if r.outcome != outcome or says not in r.message}
    assert not wrong, {i: (r.outcome, r.message) for i, r in wrong.items()}


def _new_game_lenient(ruleset, players, **kwargs):
    """Plays the preset's defaults when the overrides or the preset are not understood."""
    try:
        return reference_api.new_game(ruleset, players, **kwargs)
    except reference_api.EngineError as exc:
        if exc.code != "bad_request":
            raise
        return reference_api.new_game("podkidnoy", players, **kwargs)


def test_an_engine_that_plays_a_bad_ruleset_fails_every_ruleset_case():
    api = _Api()
    api.new_game = _new_game_lenient
    results = _outcomes(InProcessEngine(api), prefix="robust-ruleset-")
    assert len(results) >= 3
    wrong = {i: r for i, r in results.items() if r.outcome != "failed" or "refused" not in r.message}
    assert not wrong, {i: (r.outcome, r.message) for i, r in wrong.items()}


def _observe_anyone(state, player):
    """Answers for any seat number, reading past the end of the players as an empty seat."""
    try:
        return reference_observe(state, player)
    except reference_api.EngineError:
        return reference_observe(state, 0)


def _observe_crashing(state, player):
    """Indexes the players with the seat it is given."""
    state["players"][player]
    return reference_observe(state, player)


@pytest.mark.parametrize(
    ("observe", "outcome", "says"),
    [
        (_observe_anyone, "failed", "must be refused with bad_request"),
        (_observe_crashing, "error", "internal_error"),
    ],
)
def test_a_wrong_engine_fails_the_observe_of_a_seat_the_game_lacks(observe, outcome, says):
    results = _outcomes(InProcessEngine(observe_fn=observe), prefix="robust-observe-")
    assert len(results) >= 1
    wrong = {i: r for i, r in results.items() if r.outcome != outcome or says not in r.message}
    assert not wrong, {i: (r.outcome, r.message) for i, r in wrong.items()}


def test_the_ruleset_inside_a_state_is_spoiled_only_as_overwrite_says():
    """The case's ruleset replaces the state's, then ``start.overwrite`` spoils one value: the
    state sent is the written one with exactly that change, so an engine that checks the ruleset
    inside a state fails nothing, and one that does not is caught."""
    sent = []

    def recording(state):
        sent.append(state)
        return reference_api.legal_moves(state)

    results = _outcomes(InProcessEngine(_Api(legal_moves=recording)), "robust-state-ruleset-")
    assert len(results) == 4 and {r.outcome for r in results.values()} == {"passed"}
    names = sorted(str(state["ruleset"]["name"]) for state in sent)
    assert names == ["5", "Bad Name", "podkidnoy", "podkidnoy"]
    assert sorted(str(state["ruleset"]["options"][o]) for state in sent for o in ("tie",)) == [
        "bogus", "draw", "draw", "draw"
    ]

    def ruleset_blind(state):
        state = {**state, "ruleset": reference_api.resolve("podkidnoy")}
        return reference_api.legal_moves(state)

    blind = _outcomes(InProcessEngine(_Api(legal_moves=ruleset_blind)), "robust-state-ruleset-")
    assert {r.outcome for r in blind.values()} == {"failed"}
