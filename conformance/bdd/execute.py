"""Running a rendered scenario's steps outside pytest, on any engine.

The rulebook scenarios are bound as pytest tests (:mod:`conformance.bdd.suite`); the gate
(:mod:`conformance.suite.applicability`) needs to run the same scenario once more on the reference
engine, with some option values substituted, to learn whether its verdict depends on them. This
module does that: it calls each step's definition as pytest-bdd would (the parsed arguments and
the data table), on a :class:`ScenarioGame` of its own, and turns the step's outcome (an
assertion, ``pytest.fail``, ``pytest.skip``) into a value.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from conformance.engines.base import Engine, InProcessEngine

_REFERENCE: Engine | None = None


def reference_engine() -> Engine:
    """The reference engine in this process, made once: the gate's judge of applicability."""
    global _REFERENCE
    if _REFERENCE is None:
        _REFERENCE = InProcessEngine()
    return _REFERENCE


def _definition(step: Any) -> Any:
    from conformance.bdd.dryrun import definitions_for

    found = definitions_for(step)
    if len(found) != 1:
        raise LookupError(
            f"line {step.line_number} '{step.name}' matches {len(found)} step definitions"
        )
    return found[0]


def run_steps(steps: list[Any], game: Any) -> str | None:
    """Run ``steps`` (pytest-bdd steps of one rendered scenario) on ``game``; None when every
    step held, else what went wrong (a failed check, a skip, a broken step)."""
    for step in steps:
        try:
            context = _definition(step)
            parameters = inspect.signature(context.step_func).parameters
            args = {
                key: context.converters.get(key, lambda v: v)(value)
                for key, value in context.parser.parse_arguments(step.name).items()
                if key in parameters
            }
            if "datatable" in parameters and step.datatable is not None:
                args["datatable"] = step.datatable.raw()
            if "docstring" in parameters and step.docstring is not None:
                args["docstring"] = step.docstring
            context.step_func(durak_game=game, **args)
        except (Exception, pytest.fail.Exception, pytest.skip.Exception) as exc:  # noqa: BLE001 - any failure of a step is a verdict
            return f"line {step.line_number} '{step.keyword} {step.name}': {exc}"
    return None
