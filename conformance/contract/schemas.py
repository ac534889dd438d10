"""The spec's JSON Schemas (``spec/schema/*.schema.json``), loaded once, with one shared registry.

The schemas refer to one another by ``$id`` (a record holds moves, a ruleset and a result; a state
holds a ruleset), so a validator needs every document in a registry. The judge's readers (records,
states, observations) and the project's tests take their validators from here rather than each
loading the files again with a registry of their own.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

SUFFIX = ".schema.json"


@cache
def documents() -> dict[str, dict[str, Any]]:
    """Every schema by name (``"state"`` for ``state.schema.json``), as read from the spec."""
    from reference_impl.specdata import schema_dir

    out = {}
    for path in sorted(schema_dir().glob("*" + SUFFIX)):
        out[path.name[: -len(SUFFIX)]] = json.loads(path.read_text(encoding="utf-8"))
    return out


def document(name: str) -> dict[str, Any]:
    """The schema ``name`` (``"record"``, ``"state"``...); a KeyError names the known ones."""
    try:
        return documents()[name]
    except KeyError:
        raise KeyError(f"no schema {name!r}; the spec has {', '.join(documents())}") from None


def schema_id(name: str) -> str:
    """The ``$id`` of the schema ``name``: the URI other schemas and the registry know it by."""
    return document(name)["$id"]


@cache
def registry() -> Any:
    """A :mod:`referencing` registry holding every schema under its ``$id``."""
    from referencing import Registry, Resource

    return Registry().with_resources(
        (doc["$id"], Resource.from_contents(doc))
        for doc in documents().values()
        if isinstance(doc.get("$id"), str)
    )


@cache
def validator(name: str, fragment: str = "") -> Any:
    """A draft 2020-12 validator of the schema ``name``, or of the part at ``fragment`` (a JSON
    pointer into it, ``"/$defs/result"``), resolving references through :func:`registry`."""
    import jsonschema

    schema = {"$ref": f"{schema_id(name)}#{fragment}"} if fragment else document(name)
    return jsonschema.Draft202012Validator(schema, registry=registry())
