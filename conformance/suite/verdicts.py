"""How the judgement of a start or a step ends when it does not hold.

A step handler (:mod:`conformance.suite.handlers`) knows the step and the engine's answers, not
the case: it raises :class:`StepFailed` (a wrong answer: what was expected, what came) or
:class:`ErrorAnswer` (an error answer where a successful one was due), and the run of the case
(:class:`conformance.suite.cases.CaseRun`) turns either into the one result record every form of
case gets, adding the case ID, the rules, the step and the states around it. Errors stay values
up to here: nothing an engine answers makes the judge raise anything else.
"""

from __future__ import annotations

from typing import Any

from conformance.contract import canonical
from conformance.engines.base import ErrorResult
from conformance.suite.invariants import state_problems, summarise


class StepFailed(Exception):
    """A wrong answer. ``signature`` is the stable reason expected-failure lists match (by
    default the message)."""

    def __init__(self, message: str, expected: Any, actual: Any, signature: str | None = None):
        super().__init__(message)
        self.message = message
        self.expected = expected
        self.actual = actual
        self.signature = signature or message


class ErrorAnswer(Exception):
    """The engine answered ``answer`` (an error) to ``what`` (``apply``, ``new_game``...) where
    ``expected`` was due: a refusal, a fault, or ``not_run`` once the engine is given up on."""

    def __init__(self, answer: ErrorResult, what: str, expected: Any):
        super().__init__(str(answer))
        self.answer = answer
        self.what = what
        self.expected = expected


def shown(value: Any) -> Any:
    """A value found in an answer, as a record shows it (a pointer to nothing: ``<missing>``)."""
    return repr(value) if value is canonical.MISSING else value


def require(
    answer: Any, shape: type, *, what: str, expected: Any, expected_shape: Any = None
) -> Any:
    """``answer`` when it is a ``shape`` (``dict`` for a state or an observation, ``list`` for
    moves); else the judgement ends: an error answer against ``expected``, anything else as
    malformed against ``expected_shape`` (by default ``expected``)."""
    if isinstance(answer, ErrorResult):
        raise ErrorAnswer(answer, what, expected)
    if not isinstance(answer, shape):
        raise StepFailed(
            f"{what} answered a non-{'list' if shape is list else 'object'}",
            expected if expected_shape is None else expected_shape,
            answer,
        )
    return answer


def refusal(
    answer: Any,
    code: str,
    *,
    what: str,
    expected: Any,
    accepted: str,
    instead: dict[str, Any],
    signature: str = "accepted",
    subject: str = "the request",
    why: str = "",
) -> ErrorResult:
    """``answer`` when it is the error ``code``; else the judgement ends: an answer that is no
    error fails with the message ``accepted`` (``instead``: what the engine answered), a fault is
    an error of the engine, another code fails naming both. The one shape of the checks that a
    request must be refused: a state no game reaches, an observer who is not a seat."""
    if not isinstance(answer, ErrorResult):
        raise StepFailed(accepted, expected, {"accepted": True, **instead}, signature=signature)
    if answer.is_fault:
        raise ErrorAnswer(answer, what, expected)
    if answer.code != code:
        raise StepFailed(
            f"{what} refused {subject} with {answer.code}, expected {code}{why}",
            expected,
            answer.to_json(),
            signature=f"refused with {answer.code}",
        )
    return answer


def check_invariants(state: Any) -> None:
    """Every state the engine answers with must hold what the rules say of any state (each
    card once, roles on seats that may hold them, a result that fits the hands...;
    :mod:`conformance.suite.invariants`), whatever the case expects."""
    problems = state_problems(state)
    if not problems:
        return
    rules, shown = summarise(problems)
    raise StepFailed(
        f"the state the engine answered breaks {', '.join(rules)}: {shown}",
        "a state that holds every invariant of spec/rules.md (R-PLAY-6)",
        {
            "problems": [problem.to_json() for problem in problems],
            "state": canonical.normalise_state(state),
        },
        signature="state breaks " + ", ".join(rules),
    )
