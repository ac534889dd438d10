"""Calling a scenario's step definitions outside pytest, as pytest-bdd would.

The rulebook scenarios are bound as pytest tests (:mod:`conformance.bdd.suite`), but a scenario
must also compile into its case without pytest and without an engine
(:func:`conformance.bdd.compiler.compile_scenario`): for the gate's replay on the reference
engine, for the export and for the traceability gate. This module finds the one definition of a
rendered step and calls it with the arguments pytest-bdd would parse from its text (and its
data table or doc string) on a game of the caller's choosing.
"""

from __future__ import annotations

import inspect
from typing import Any


def definition_of(step: Any) -> Any:
    """The pytest-bdd step context whose pattern matches ``step``; LookupError unless exactly
    one does."""
    from conformance.bdd.dryrun import definitions_for

    found = definitions_for(step)
    if len(found) != 1:
        raise LookupError(
            f"line {step.line_number} '{step.name}' matches {len(found)} step definitions"
        )
    return found[0]


def call_step(step: Any, game: Any) -> None:
    """Run the definition of ``step`` (a rendered pytest-bdd step) on ``game``."""
    context = definition_of(step)
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
