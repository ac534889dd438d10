"""The state schema compiled to a plain predicate: "valid or not", fast.

jsonschema takes about 2 ms for a state, most of it in its general machinery; the runner
checks every state, so the state schema (inlined, without the ruleset) is compiled once into
nested closures that answer "valid or not" for the keywords it uses. Only a state the
predicate rejects goes to jsonschema, for the messages; if jsonschema then finds nothing, the
state is valid (jsonschema has the last word). A keyword the compiler does not know makes it
refuse, and jsonschema checks every state.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any


class CannotCompile(Exception):
    """The schema uses a keyword the predicate compiler does not implement."""


_IGNORED = frozenset({"description", "title", "default", "examples", "$comment", "$schema", "$id"})


def _is_integer(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": _is_integer,
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _json_equal(a: Any, b: Any) -> bool:
    """JSON equality as JSON Schema's ``const`` and ``enum`` mean it: ``true`` is not ``1``,
    ``1.0`` is ``1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def compile_schema(schema: Any) -> Callable[[Any], bool]:
    """A predicate equal to "``schema`` accepts the value" (draft 2020-12), for the keywords
    type, const, enum, pattern, minimum, maximum, minItems, maxItems, items, properties,
    required, additionalProperties, allOf and oneOf; anything else raises
    :class:`CannotCompile`."""
    if schema is True or schema == {}:
        return lambda value: True
    if schema is False:
        return lambda value: False
    if not isinstance(schema, dict):
        raise CannotCompile(repr(schema))
    keys = {key for key in schema if key not in _IGNORED}
    fused = _fused(schema, keys)
    if fused is not None:
        return fused
    tests = [
        _keyword(key, schema[key], schema)
        for key in sorted(keys, key=lambda k: (_ORDER.get(k, len(_ORDER)), k))
    ]
    if not tests:
        return lambda value: True
    if len(tests) == 1:
        return tests[0]

    def every(value: Any) -> bool:
        for test in tests:
            if not test(value):
                return False
        return True

    return every


#: The order the keywords of one schema are tried in: the cheap type test first.
_ORDER: dict[str, int] = {
    key: i
    for i, key in enumerate(
        [
            "type",
            "const",
            "enum",
            "pattern",
            "minimum",
            "maximum",
            "minItems",
            "maxItems",
            "required",
            "additionalProperties",
            "properties",
            "items",
            "allOf",
            "oneOf",
        ]
    )
}


def _fused(schema: dict[str, Any], keys: set[str]) -> Callable[[Any], bool] | None:
    """One closure for the two shapes a state is made of: a card (a string matching a pattern)
    and a seat (an integer within bounds)."""
    if (
        keys == {"type", "pattern"}
        and schema["type"] == "string"
        and isinstance(schema["pattern"], str)
    ):
        search = re.compile(schema["pattern"]).search
        return lambda v: isinstance(v, str) and search(v) is not None
    if keys == {"type", "minimum", "maximum"} and schema["type"] == "integer":
        low, high = schema["minimum"], schema["maximum"]
        if _TYPES["number"](low) and _TYPES["number"](high):
            return lambda v: _is_integer(v) and low <= v <= high
    return None


def _keyword(key: str, arg: Any, schema: dict[str, Any]) -> Callable[[Any], bool]:
    test = _value_keyword(key, arg)
    if test is None:
        test = _container_keyword(key, arg, schema)
    if test is None:
        raise CannotCompile(key)
    return test


def _value_keyword(key: str, arg: Any) -> Callable[[Any], bool] | None:
    """The test of a keyword about the value itself (its type, value, length), or None."""
    if key == "type":
        names = arg if isinstance(arg, list) else [arg]
        if not all(isinstance(n, str) and n in _TYPES for n in names):
            raise CannotCompile(f"type {arg!r}")
        checks = [_TYPES[n] for n in names]
        if len(checks) == 1:
            return checks[0]
        return lambda v: any(check(v) for check in checks)
    if key == "const":
        return lambda v: _json_equal(v, arg)
    if key == "enum" and isinstance(arg, list):
        return lambda v: any(_json_equal(v, option) for option in arg)
    if key == "pattern" and isinstance(arg, str):
        rx = re.compile(arg)
        return lambda v: not isinstance(v, str) or rx.search(v) is not None
    if key in ("minimum", "maximum") and _TYPES["number"](arg):
        if key == "minimum":
            return lambda v: not _TYPES["number"](v) or v >= arg
        return lambda v: not _TYPES["number"](v) or v <= arg
    if key in ("minItems", "maxItems") and _is_integer(arg):
        if key == "minItems":
            return lambda v: not isinstance(v, list) or len(v) >= arg
        return lambda v: not isinstance(v, list) or len(v) <= arg
    return None


def _container_keyword(key: str, arg: Any, schema: dict[str, Any]) -> Callable[[Any], bool] | None:
    """The test of a keyword about a list's items, an object's fields or subschemas, or None."""
    if key == "items" and not isinstance(arg, list):
        item = compile_schema(arg)

        def items(v: Any) -> bool:
            if isinstance(v, list):
                for x in v:
                    if not item(x):
                        return False
            return True

        return items
    if key == "required" and isinstance(arg, list):
        names = tuple(arg)

        def required(v: Any) -> bool:
            if isinstance(v, dict):
                for name in names:
                    if name not in v:
                        return False
            return True

        return required
    if key == "properties" and isinstance(arg, dict):
        props = tuple((name, compile_schema(sub)) for name, sub in arg.items())

        def properties(v: Any) -> bool:
            if isinstance(v, dict):
                for name, test in props:
                    if name in v and not test(v[name]):
                        return False
            return True

        return properties
    if key == "additionalProperties":
        if "patternProperties" in schema:
            raise CannotCompile("patternProperties")
        known = frozenset(schema.get("properties", {}))
        if arg is False:
            return lambda v: not isinstance(v, dict) or known.issuperset(v)
        extra = compile_schema(arg)
        return lambda v: (
            not isinstance(v, dict) or all(extra(v[name]) for name in v if name not in known)
        )
    if key == "allOf" and isinstance(arg, list):
        parts = [compile_schema(sub) for sub in arg]
        return lambda v: all(part(v) for part in parts)
    if key == "oneOf" and isinstance(arg, list):
        parts = [compile_schema(sub) for sub in arg]
        return lambda v: sum(1 for part in parts if part(v)) == 1
    return None
