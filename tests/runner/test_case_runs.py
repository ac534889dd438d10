"""The runner's incremental API: a case started with ``CaseRunner.begin`` and fed its steps one at
a time is judged exactly as ``CaseRunner.run`` judges it (same handlers, same records), so a form
of case that reads its steps as it goes (a Gherkin scenario) cannot mean anything else by them."""

from __future__ import annotations

from pathlib import Path

from conformance.engines.base import ErrorResult, InProcessEngine
from conformance.engines.gating import Support
from conformance.suite.cases import CaseRunner
from conformance.suite.loader import Case, Step

#: dealer 1 deals the canonical unshuffled 36-card deck to two players: seat 0 gets 6C 8C TC QC
#: AC 7D, seat 1 gets 7C 9C JC KC 6D 8D; 9D is the trump card, seat 1 holds the lowest trump (6D)
#: and opens against seat 0 (R-DEAL-1, R-TRUMP-1, R-ROLE-1, R-ROLE-2).
OPEN = {"player": 1, "action": "attack", "cards": ["7C"]}
BEAT = {"player": 0, "action": "beat", "target": "7C", "card": "8C"}


def _case(*steps: dict, case_id: str = "incremental") -> Case:
    from conformance.contract.cards import deck

    return Case(
        id=case_id,
        description="d",
        rules=("R-ROLE-1", "R-BEAT-1"),
        ruleset="podkidnoy",
        players=2,
        start={"deck": deck(36), "dealer": 1},
        steps=tuple(
            Step(i + 1, next(k for k in s if k not in ("rule", "code", "note")), s, 20 + i)
            for i, s in enumerate(steps)
        ),
        path=Path("cases/incremental.yaml"),
        line=7,
    )


STEPS = (
    {"expect": {"/bout/attacker": 1, "/bout/defender": 0}},
    {"move": OPEN},
    {"refuse": {"player": 0, "action": "beat", "target": "7C", "card": "6C"}, "rule": "R-BEAT-1"},
    {"legal_includes": [BEAT]},
    {"move": BEAT},
    {"expect": {"/table/0/defence": "8C"}},
)


def _fed(runner: CaseRunner, case: Case):
    run = runner.begin(case)
    verdicts = [run.feed(step) for step in case.steps]
    return run, verdicts, run.finish()


def test_a_case_fed_step_by_step_passes_as_run_passes_it():
    runner = CaseRunner(InProcessEngine(), Support.everything())
    case = _case(*STEPS)
    run, verdicts, result = _fed(runner, case)
    assert verdicts == [None] * len(STEPS) and result.ok
    assert run.state["table"] == [{"attack": "7C", "by": 1, "defence": "8C"}]
    assert run.previous["table"][0]["defence"] is None and run.last_move == BEAT
    assert runner.run(case).ok
    assert (result.location, result.rules) == ("cases/incremental.yaml:7", case.rules)


def test_the_first_failing_step_is_the_verdict_and_later_steps_are_not_judged():
    wrong = {"expect": {"/bout/attacker": 0}}
    case = _case(STEPS[0], wrong, *STEPS[1:])
    runner = CaseRunner(InProcessEngine(), Support.everything())
    run, verdicts, result = _fed(runner, case)
    assert verdicts[0] is None and verdicts[1] is result and all(v is result for v in verdicts[1:])
    assert run.steps_judged == 2
    assert result.signature == "step 2 expect: state differs at /bout/attacker"
    assert (result.step.index, result.step.line, result.expected) == (2, 21, {"/bout/attacker": 0})
    assert result.location == "cases/incremental.yaml:7" and result.rules == case.rules
    assert result.start_state["bout"]["attacker"] == 1 == result.state_before["bout"]["attacker"]
    again = runner.run(case)
    assert (again.outcome, again.message, again.signature, again.actual) == (
        result.outcome,
        result.message,
        result.signature,
        result.actual,
    )


class Timeout(InProcessEngine):
    """Deals and lists like the reference, but times out on every apply."""

    def apply(self, state, move):
        return ErrorResult("timeout", "no answer in 10 s", diagnostics={"request": "apply"})


def test_an_engine_fault_on_a_fed_step_is_an_error_with_its_diagnostics():
    runner = CaseRunner(Timeout(), Support.everything())
    _, verdicts, result = _fed(runner, _case(*STEPS))
    assert verdicts[0] is None and verdicts[1] is result
    assert result.outcome == "error" and result.signature == "step 2 move: timeout"
    assert result.diagnostics == {"request": "apply"}


def test_a_case_outside_the_claim_is_done_before_any_step():
    narrow = Support({"24": frozenset({2})})
    run = CaseRunner(InProcessEngine(), narrow).begin(_case(*STEPS))
    assert run.done and run.state is None
    assert run.feed(Step(1, "move", {"move": OPEN}, 1)).outcome == "unsupported"
    result = run.finish()
    assert result.outcome == "unsupported" and "deck 36" in result.message
    assert result.applicability is not None and not result.applicability.runs
