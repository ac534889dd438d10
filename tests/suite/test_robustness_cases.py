"""The robustness class (conformance/fixtures/robustness/, issue 12 item 2): states no game
reaches must be refused with invalid_state and a pointer. Every case passes on the reference;
purpose-built wrong engines fail them: one that answers moves for any state, one that crashes on a
state it cannot read, one that refuses without saying where."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.engines.base import InProcessEngine
from conformance.engines.gating import Support
from conformance.suite.cases import CaseRunner
from conformance.suite.loader import load_paths
from reference_impl import api as reference_api

ROBUSTNESS = Path(__file__).resolve().parents[2] / "conformance" / "fixtures" / "robustness"


class _Api:
    """The reference API with ``legal_moves`` replaced; everything else as it is."""

    def __init__(self, legal_moves):
        self.legal_moves = legal_moves

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


def _cases():
    cases, problems = load_paths([ROBUSTNESS])
    assert not problems, problems
    return cases


def _outcomes(engine):
    runner = CaseRunner(engine, Support.everything())
    return {case.id: runner.run(case) for case in _cases()}


def test_every_robustness_case_passes_on_the_reference():
    results = _outcomes(InProcessEngine())
    assert len(results) >= 14
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
def test_a_wrong_engine_fails_every_robustness_case(legal_moves, outcome, says):
    results = _outcomes(InProcessEngine(_Api(legal_moves)))
    wrong = {i: r for i, r in results.items() if r.outcome != outcome or says not in r.message}
    assert not wrong, {i: (r.outcome, r.message) for i, r in wrong.items()}
