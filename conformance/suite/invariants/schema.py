"""The state schema (``spec/schema/state.schema.json``) as the invariants read it: the problems
of a state's shape, each at its own JSON pointer, with a message that says what was expected.

The schema is inlined (local references replaced by what they point at) and compiled to a fast
predicate (:mod:`~conformance.suite.invariants.predicate`); only a state the predicate rejects
goes through jsonschema, for the messages. The ruleset, whose schema is another document, is
checked apart and its answers cached: every state of a game carries the same ruleset.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any
from urllib.parse import urljoin

from conformance.contract import canonical, schemas
from conformance.contract.canonical import pointer
from conformance.suite.invariants.predicate import CannotCompile, compile_schema
from conformance.suite.invariants.problems import SHAPE, Problem, kind, path_order

ALL = frozenset({"*"})
_MESSAGE_LIMIT = 240


@dataclass(frozen=True)
class StateSchema:
    """The state schema, ready to check states fast.

    ``validator``: the state schema with its local references inlined, for the messages;
    ``fast``: the same schema compiled to a plain predicate (:func:`.predicate.compile_schema`),
    or None if the schema uses a keyword the compiler does not know; ``separate``: per top-level
    field whose schema lives in another document (the ruleset), a validator for that field
    alone, whose answers are cached (every state of a game carries the same ruleset).
    """

    validator: Any
    fast: Callable[[Any], bool] | None
    separate: dict[str, Any]


@cache
def state_schema() -> StateSchema:
    """The state schema from :mod:`conformance.contract.schemas`, inlined and compiled once."""
    import jsonschema

    registry = schemas.registry()
    state = schemas.document("state")
    inlined = _inline(state, state, 0)
    separate = {}
    properties = inlined.get("properties", {})
    for name, subschema in list(properties.items()):
        ref = subschema.get("$ref") if isinstance(subschema, dict) else None
        if isinstance(ref, str) and not ref.startswith("#"):
            separate[name] = jsonschema.Draft202012Validator(
                {"$ref": urljoin(state["$id"], ref)}, registry=registry
            )
            properties[name] = True
    try:
        fast = compile_schema(inlined)
    except CannotCompile:
        fast = None
    return StateSchema(jsonschema.Draft202012Validator(inlined, registry=registry), fast, separate)


#: Keywords that only describe: a ``$ref`` beside nothing else is replaced by its target alone.
_ANNOTATIONS = frozenset({"description", "title", "default", "examples", "$comment"})


def _inline(node: Any, root: dict[str, Any], depth: int) -> Any:
    """``node`` with every local ``$ref`` (``#/...``) replaced by what it points at (siblings of
    the ``$ref`` other than annotations kept beside it under ``allOf``), ``$defs`` dropped; other
    references stay."""
    if depth > 50:
        raise ValueError("the state schema's local references nest too deep to inline")
    if isinstance(node, list):
        return [_inline(item, root, depth + 1) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for part in canonical.pointer_parts(ref[1:]):
            target = target[part]
        resolved = _inline(target, root, depth + 1)
        rest = {k: v for k, v in node.items() if k != "$ref" and k not in _ANNOTATIONS}
        if not rest:
            return resolved
        return {"allOf": [resolved, _inline(rest, root, depth + 1)]}
    return {k: _inline(v, root, depth + 1) for k, v in node.items() if k != "$defs"}


def schema_problems(state: Any) -> tuple[list[Problem], frozenset[str]]:
    """The schema's problems and the top-level fields they break (:data:`ALL` when the state is
    not even an object)."""
    compiled = state_schema()
    validator = compiled.validator
    found: list[tuple[list[Any], str]] = []
    broken: set[str] = set()
    if compiled.fast is None or not compiled.fast(state):
        for error in validator.iter_errors(state):
            _collect(error, found)
    if isinstance(state, dict):
        for name, field_validator in compiled.separate.items():
            if name in state:
                for path, message in _separate_errors(name, field_validator, state[name]):
                    found.append(([name, *path], message))
    else:
        found = [([], f"a state is a JSON object; found {kind(state)}")]
    for path, _ in found:
        if path:
            broken.add(str(path[0]))
    if isinstance(state, dict):
        required = validator.schema.get("required", [])
        broken.update(name for name in required if name not in state)
    found.sort(key=lambda item: path_order(item[0]))
    problems = [Problem(pointer(path), SHAPE, _clip(message)) for path, message in found]
    if not isinstance(state, dict):
        return problems, ALL
    return problems, frozenset(broken)


def _separate_errors(name: str, validator: Any, value: Any) -> tuple[tuple[list[Any], str], ...]:
    try:
        key = canonical.dumps(value)
    except (TypeError, ValueError):
        return _field_errors(validator, value)
    return _cached_field_errors(name, key)


@lru_cache(maxsize=64)
def _cached_field_errors(name: str, key: str) -> tuple[tuple[list[Any], str], ...]:
    return _field_errors(state_schema().separate[name], json.loads(key))


def _field_errors(validator: Any, value: Any) -> tuple[tuple[list[Any], str], ...]:
    found: list[tuple[list[Any], str]] = []
    for error in validator.iter_errors(value):
        _collect(error, found)
    return tuple((list(path), message) for path, message in found)


def _collect(error: Any, out: list[tuple[list[Any], str]], nullable: bool = False) -> None:
    """(path, message) of one schema error, made specific: an unexpected field is reported at
    its own pointer; a ``oneOf`` of null or something is reported by the something's errors
    (``nullable``: the value could also have been null)."""
    path = list(error.absolute_path)
    instance = error.instance
    if error.validator == "additionalProperties" and isinstance(instance, dict):
        allowed = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        extra = sorted((key for key in instance if key not in allowed), key=str)
        for key in extra:
            out.append((path + [key], "not a field of a state"))
        if extra:
            return
    if error.validator in ("oneOf", "anyOf") and instance is not None and error.context:
        branches: dict[Any, list[Any]] = {}
        for sub in error.context:
            branch = sub.relative_schema_path[0] if sub.relative_schema_path else None
            branches.setdefault(branch, []).append(sub)
        useful = [
            subs
            for subs in branches.values()
            if not (
                len(subs) == 1
                and subs[0].validator == "type"
                and subs[0].validator_value == "null"
                and not list(subs[0].relative_path)
            )
        ]
        if len(useful) < len(branches) and len(useful) == 1:
            for sub in useful[0]:
                _collect(sub, out, nullable=not list(sub.relative_path))
            return
    if error.validator == "required" and isinstance(instance, dict):
        match = re.fullmatch(r"'(.*)' is a required property", error.message)
        if match:
            out.append((path, f"the field {match.group(1)!r} is missing"))
            return
    if error.validator == "type":
        words = _type_words(error.validator_value)
        message = f"expected {'null or ' if nullable else ''}{words}; found {kind(instance)}"
    else:
        message = error.message
    out.append((path, message))


def _type_words(value: Any) -> str:
    names = value if isinstance(value, list) else [value]
    words = {
        "object": "an object",
        "array": "a list",
        "string": "a string",
        "integer": "an integer",
        "boolean": "true or false",
        "null": "null",
        "number": "a number",
    }
    return " or ".join(words.get(str(n), str(n)) for n in names)


def _clip(message: str) -> str:
    return message if len(message) <= _MESSAGE_LIMIT else message[: _MESSAGE_LIMIT - 3] + "..."
