"""Checking an engine's observation against spec/schema/observation.schema.json.

``observe(state, player)`` is how an engine shows what one player may know (R-INFO-1..3). The
schema closes every object, so an observation that carries hidden information (another hand's
cards, the talon, the discard pile's contents under ``discard_visibility: count``) does not
validate. The runner checks every observation an engine returns with it, whatever the case asks
besides, and reports each problem with the JSON pointer where it is.
"""

from __future__ import annotations

from typing import Any

from conformance.contract.canonical import pointer
from conformance.contract.schemas import validator


def schema_problems(observation: Any) -> list[tuple[str, str]]:
    """``(JSON pointer, message)`` for every way ``observation`` breaks the observation schema,
    in document order; empty when it is valid.

    A property the schema does not allow is reported at its own pointer (``/players/1/hand``,
    not ``/players/1``), because that is where the leak is.
    """
    out: list[tuple[str, str]] = []
    for error in validator("observation").iter_errors(observation):
        path = list(error.absolute_path)
        message = error.message
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = error.schema.get("properties", {})
            extra = sorted(str(key) for key in error.instance if key not in allowed)
            for key in extra:
                out.append((pointer(path + [key]), "not a field of an observation (hidden?)"))
            if extra:
                continue
        if error.validator == "not" and path == ["discard"]:
            message = "discard.cards is shown although discard_visibility is count (R-INFO-2)"
        elif error.validator == "required" and path == ["discard"]:
            message = "discard.cards is missing although discard_visibility is contents (R-INFO-2)"
        out.append((pointer(path), message))
    out.sort(key=lambda item: item[0])
    return out
