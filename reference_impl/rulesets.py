"""The ambiguity catalog and named rulesets: loading, validation and resolution.

A *ruleset* fixes one value for every option of the catalog (`spec/ambiguities.yaml`, entries with
`status: option`). It can be given in three forms, all resolved by `resolve_ruleset` to
`{"name": str, "options": {every option: value}}`:

- a preset name, e.g. `"podkidnoy"` (a file `spec/rulesets/<name>.yaml`);
- `{"preset": name, "overrides": {option: value, ...}}` (optionally with `"name"`);
- `{"name": ..., "options": {...}}`: options missing from it are filled from the catalog's
  defaults (the podkidnoy values), so a partial object is accepted; an unknown option or value is
  an error.

Preset *files* are stricter: a full-form file must set every option (see `load_ruleset_file`).
Every mistake raises `RulesetError` (a `ValueError`) naming the option, the value, what is
allowed and where (file:line for files, a JSON pointer for in-memory rulesets).
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

from reference_impl import specdata
from reference_impl.specdata import LineDict, SpecDataError, line_of, load_yaml


class CatalogError(SpecDataError):
    """The ambiguity catalog (or a schema) is malformed."""


class RulesetError(SpecDataError):
    """A ruleset names an unknown preset or option, or gives an option a value it does not have.

    Attributes: `option` and `value` (the offending option and value, or None), `allowed` (the
    allowed option names or values, or None) and `where` (file:line or JSON pointer).
    """

    def __init__(self, where: str, message: str, *, option=None, value=None, allowed=None):
        super().__init__(where, message)
        self.option = option
        self.value = value
        self.allowed = allowed


_RULESET_KEYS_FULL = {"name", "description", "options"}
_RULESET_KEYS_INLINE = {"name", "description", "preset", "overrides"}


# --------------------------------------------------------------------------- schema validation


def _schema_errors(document: Any, schema_name: str, branch: str | None = None) -> list:
    """Schema errors of `document`; `branch` picks one `$defs` entry instead of the `oneOf`, so
    messages speak of the form the document is in."""
    import jsonschema

    schema_file = specdata.schema_path(schema_name)
    try:
        schema = json.loads(schema_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CatalogError(str(schema_file), f"cannot load the schema: {exc}") from None
    if branch is not None:
        schema = {k: v for k, v in schema.items() if k != "oneOf"}
        schema["$ref"] = f"#/$defs/{branch}"
    validator = jsonschema.Draft202012Validator(schema)
    return sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))


def _raise_schema_error(errors: list, document: Any, path: Path, cls: type) -> None:
    if not errors:
        return
    error = errors[0]
    pointer = list(error.absolute_path)
    line = line_of(document, pointer)
    where_in = "/" + "/".join(str(p) for p in pointer)
    more = f" ({len(errors) - 1} more error(s) after fixing this one)" if len(errors) > 1 else ""
    raise cls(f"{path}:{line}", f"at {where_in}: {error.message}{more}")


# --------------------------------------------------------------------------- the catalog


def _check_catalog(doc: Any, path: Path) -> None:
    """Semantic checks the schema cannot express; each failure names file and line."""
    entries = doc["ambiguities"]
    sources = doc["sources"]
    seen_ids: dict[str, int] = {}
    seen_options: dict[str, int] = {}

    def where(pointer: list) -> str:
        return f"{path}:{line_of(doc, pointer)}"

    for i, entry in enumerate(entries):
        base = ["ambiguities", i]
        if entry["id"] in seen_ids:
            raise CatalogError(where([*base, "id"]),
                               f"duplicate ambiguity id {entry['id']!r} (also entry {seen_ids[entry['id']]})")
        seen_ids[entry["id"]] = i
        names = [reading["name"] for reading in entry["options"]]
        for j, name in enumerate(names):
            if isinstance(name, bool):
                raise CatalogError(where([*base, "options", j, "name"]),
                                   f"option value {name!r} is a boolean; quote it ('on'/'off')")
            if names.index(name) != j:
                raise CatalogError(where([*base, "options", j, "name"]),
                                   f"duplicate value {name!r} in {entry['id']}")
            for k, key in enumerate(entry["options"][j]["sources"]):
                if key not in sources:
                    raise CatalogError(
                        where([*base, "options", j, "sources", k]),
                        f"unknown source key {key!r}; define it under `sources` "
                        f"(known: {', '.join(sorted(sources))})",
                    )
        if entry["default"] not in names or isinstance(entry["default"], bool):
            raise CatalogError(where([*base, "default"]),
                               f"default {entry['default']!r} of {entry['id']} is not one of "
                               f"its options {names}")
        if entry["status"] == "option":
            option = entry["option"]
            if option in seen_options:
                raise CatalogError(where([*base, "option"]),
                                   f"option {option!r} is defined twice (also entry {seen_options[option]})")
            seen_options[option] = i


def load_catalog(path: Path | str | None = None) -> dict:
    """Load, validate and return the ambiguity catalog (a fresh copy; `path` defaults to the spec's).

    Raises `CatalogError` (or `SpecDataError` for YAML syntax) with file and line.
    """
    if path is None:
        return copy.deepcopy(_default_catalog())
    return _load_catalog_file(Path(path))


def _load_catalog_file(path: Path) -> dict:
    doc = load_yaml(path)
    if doc is None:
        raise CatalogError(f"{path}:1", "the catalog is empty")
    _raise_schema_error(_schema_errors(doc, "ambiguities"), doc, path, CatalogError)
    _check_catalog(doc, path)
    return doc


@cache
def _default_catalog() -> dict:
    return _load_catalog_file(specdata.ambiguities_path())


@cache
def _default_option_table() -> dict:
    return _option_table(_default_catalog())


def _option_table(catalog: dict) -> dict:
    table = {}
    for entry in catalog["ambiguities"]:
        if entry["status"] == "option":
            table[entry["option"]] = {
                "values": [reading["name"] for reading in entry["options"]],
                "default": entry["default"],
            }
    return table


def catalog_options(path: Path | str | None = None) -> dict[str, dict]:
    """Every option of the catalog as `{option: {"values": [...], "default": value}}`, in catalog
    order (values in catalog order; `deck_size` and `decks` values are integers)."""
    if path is None:
        return copy.deepcopy(_default_option_table())
    return _option_table(_load_catalog_file(Path(path)))


def default_options() -> dict[str, Any]:
    """The default value of every option (these are the `podkidnoy` values)."""
    return {name: spec["default"] for name, spec in _default_option_table().items()}


# --------------------------------------------------------------------------- option checking


def _describe(value: Any) -> str:
    return json.dumps(value) if isinstance(value, str | int | float | bool | type(None)) else repr(value)


def check_option(option: Any, value: Any, where: str, table: dict | None = None) -> None:
    """Raise `RulesetError` unless `option` is a catalog option and `value` one of its values."""
    table = _default_option_table() if table is None else table
    if option not in table:
        raise RulesetError(
            where,
            f"unknown option {_describe(option)}; the options are: {', '.join(table)}",
            option=option, value=value, allowed=list(table),
        )
    allowed = table[option]["values"]
    ok = value in allowed and type(value) is type(allowed[allowed.index(value)])
    if not ok:
        hint = ""
        if isinstance(value, bool):
            hint = (" (YAML 1.1 loaders read unquoted on/off/yes/no as booleans: quote the value,"
                    " e.g. 'on')")
        elif isinstance(value, str) and value.isdigit():
            hint = " (write it as a number, without quotes)"
        raise RulesetError(
            where,
            f"option {option!r} cannot be {_describe(value)}; allowed values: "
            f"{', '.join(_describe(v) for v in allowed)}{hint}",
            option=option, value=value, allowed=list(allowed),
        )


def _check_options(options: Any, where_of, table: dict) -> None:
    """Check a mapping of options; `where_of(key)` gives the location of one key."""
    for option, value in options.items():
        check_option(option, value, where_of(option), table)


def _ordered(options: dict, table: dict) -> dict:
    return {name: options[name] for name in table}


# --------------------------------------------------------------------------- preset files


def preset_names() -> list[str]:
    """Names of the named rulesets in `spec/rulesets/`, sorted."""
    return sorted(p.stem for p in specdata.rulesets_dir().glob("*.yaml"))


def load_ruleset_file(path: Path | str, _stack: tuple = ()) -> dict:
    """Load one ruleset file and resolve it to `{"name", "options"}`.

    A file is either the full form (`name`, optional `description`, `options` setting every
    option) or the inline form (`name`, optional `description`, `preset`, `overrides`). Errors
    name the file and line.
    """
    path = Path(path)
    doc = load_yaml(path)
    table = _default_option_table()
    if not isinstance(doc, LineDict):
        raise RulesetError(f"{path}:{getattr(doc, 'line', 1) or 1}",
                           "a ruleset file must be a mapping with `name` and `options` "
                           "(or `preset` and `overrides`)")

    def where(*pointer) -> str:
        return f"{path}:{line_of(doc, list(pointer))}"

    if "options" in doc:
        extra = set(doc) - _RULESET_KEYS_FULL
        if extra:
            key = min(extra, key=str)
            raise RulesetError(where(key),
                               f"unexpected key {key!r}; a full ruleset has name, description, options"
                               " (use preset + overrides, without options, for the inline form)")
        options = doc["options"]
        if not isinstance(options, dict):
            raise RulesetError(where("options"), "`options` must be a mapping of option: value")
        _check_options(options, lambda k: where("options", k), table)
        missing = [name for name in table if name not in options]
        if missing:
            raise RulesetError(where("options"),
                               f"a ruleset file must set every option; missing: {', '.join(missing)}",
                               option=missing[0], allowed=list(table))
    elif "preset" in doc:
        extra = set(doc) - _RULESET_KEYS_INLINE
        if extra:
            key = min(extra, key=str)
            raise RulesetError(where(key),
                               f"unexpected key {key!r}; an inline ruleset has name, description, "
                               "preset, overrides")
        overrides = doc.get("overrides")
        if isinstance(overrides, dict):
            _check_options(overrides, lambda k: where("overrides", k), table)
    else:
        raise RulesetError(where(), "a ruleset file needs `options` (full form) or `preset` "
                                    "(inline form)")
    if "name" not in doc:
        raise RulesetError(where(), "a ruleset file needs a `name` (the file's stem)")
    branch = "full" if "options" in doc else "inline"
    _raise_schema_error(_schema_errors(doc, "ruleset", branch), doc, path, RulesetError)

    if "options" in doc:
        return {"name": doc["name"], "options": _ordered(dict(doc["options"]), table)}
    return _resolve_inline(doc, lambda *p: where(*p), _stack + (path.stem,), table)


def load_preset(name: str) -> dict:
    """The named ruleset `name` resolved to `{"name", "options"}` (every option set)."""
    return copy.deepcopy(_load_preset_cached(name, ()))


@cache
def _load_preset_cached(name: str, stack: tuple) -> dict:
    return _load_preset(name, stack)


def _load_preset(name: str, stack: tuple) -> dict:
    names = preset_names()
    if not isinstance(name, str) or name not in names:
        raise RulesetError("preset", f"unknown preset {_describe(name)}; known presets: "
                                     f"{', '.join(names)}", value=name, allowed=names)
    if name in stack:
        raise RulesetError("preset", f"presets refer to each other in a cycle: "
                                     f"{' -> '.join((*stack, name))}")
    path = specdata.rulesets_dir() / f"{name}.yaml"
    resolved = load_ruleset_file(path, stack)
    if resolved["name"] != name:
        raise RulesetError(f"{path}:1", f"the ruleset's name {resolved['name']!r} must equal the "
                                        f"file name {name!r}")
    return resolved


# --------------------------------------------------------------------------- resolution


def _resolve_inline(spec: dict, where_of, stack: tuple, table: dict) -> dict:
    preset = spec["preset"]
    if preset in stack:
        raise RulesetError(where_of("preset"), "presets refer to each other in a cycle: "
                                               f"{' -> '.join((*stack, preset))}")
    try:
        base = _load_preset(preset, stack) if stack else _load_preset_cached(preset, ())
    except RulesetError as exc:
        if exc.where == "preset":
            raise RulesetError(where_of("preset"), exc.detail, value=exc.value,
                               allowed=exc.allowed) from None
        raise
    overrides = spec.get("overrides") or {}
    if not isinstance(overrides, dict):
        raise RulesetError(where_of("overrides"), "`overrides` must be a mapping of option: value")
    _check_options(overrides, lambda k: where_of("overrides", k), table)
    options = dict(base["options"])
    options.update(overrides)
    if "name" in spec:
        name = spec["name"]
    else:
        changed = [k for k in table if k in overrides and overrides[k] != base["options"][k]]
        name = preset + "".join(f"+{k}={overrides[k]}" for k in changed)
    return {"name": name, "options": _ordered(options, table)}


def resolve_ruleset(spec: Any) -> dict:
    """Resolve any ruleset form to `{"name": str, "options": {every option: value}}`.

    `spec` is a preset name, `{"preset": p, "overrides": {...}}` (optional `"name"`), or
    `{"name": n, "options": {...}}` (missing options take the catalog defaults). The name of a
    preset-plus-overrides ruleset without an explicit `name` is the preset name followed by
    `+option=value` for each override that changes the preset, in catalog order (e.g.
    `podkidnoy+throw_in_priority=free`), so equal rulesets get equal names in every engine.
    Raises `RulesetError`; `where` is a JSON pointer into `spec`.
    """
    table = _default_option_table()

    def pointer(*parts) -> str:
        return "/" + "/".join(str(p) for p in parts) if parts else "/"

    if isinstance(spec, str):
        return load_preset(spec)
    if not isinstance(spec, dict):
        raise RulesetError("/", f"a ruleset must be a preset name or an object, not {_describe(spec)}")
    if "options" in spec:
        extra = set(spec) - {"name", "options", "description"}
        if extra:
            key = min(extra, key=str)
            raise RulesetError(pointer(key), f"unexpected key {key!r} next to `options` "
                                             "(give either options, or preset and overrides)")
        options = spec["options"]
        if not isinstance(options, dict):
            raise RulesetError(pointer("options"), "`options` must be an object of option: value")
        _check_options(options, lambda k: pointer("options", k), table)
        name = spec.get("name", "custom")
        if not isinstance(name, str) or not name:
            raise RulesetError(pointer("name"), "`name` must be a non-empty string")
        merged = {**{k: v["default"] for k, v in table.items()}, **options}
        return {"name": name, "options": _ordered(merged, table)}
    if "preset" in spec:
        extra = set(spec) - _RULESET_KEYS_INLINE
        if extra:
            key = min(extra, key=str)
            raise RulesetError(pointer(key), f"unexpected key {key!r}; expected preset, overrides "
                                             "and optionally name")
        if "name" in spec and (not isinstance(spec["name"], str) or not spec["name"]):
            raise RulesetError(pointer("name"), "`name` must be a non-empty string")
        return copy.deepcopy(_resolve_inline(spec, pointer, (), table))
    raise RulesetError("/", "a ruleset object needs `preset` (with optional `overrides`) or "
                            "`options`")
