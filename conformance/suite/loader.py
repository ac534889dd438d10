"""Loading YAML fixture files into cases, without letting one bad file spoil the run.

Files are read with a safe YAML loader that keeps line numbers and reads booleans the YAML 1.2 way
(``reference_impl.specdata.load_yaml``: ``transfer: on`` stays the string ``"on"``), then checked
against ``spec/schema/fixture.schema.json`` and against the rules
(:mod:`conformance.suite.load_checks`: cited rule IDs, the ruleset, the start). Whatever is wrong with a file or a case becomes a
:class:`LoadProblem` naming the file, the line and the reason; the runner turns each problem into
one failing item and runs everything else.
"""

from __future__ import annotations

import copy
import hashlib
import json
import marshal
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from conformance.contract.canonical import pointer
from conformance.suite.kinds import STEP_KINDS, step_kinds
from conformance.suite.load_checks import case_faults
from reference_impl.specdata import SpecDataError, line_of, load_yaml, schema_path

_START_KINDS = {"state": "start_state", "deck": "start_deck", "seed": "start_seed"}


@dataclass(frozen=True)
class Step:
    """One step of a case. ``index`` counts from 1 as people do; ``data`` is the step's mapping."""

    index: int
    kind: str
    data: dict[str, Any]
    line: int

    @property
    def body(self) -> Any:
        """The value under the step's kind key (the move, the move list, the pointer map...)."""
        return self.data[self.kind]

    def describe(self) -> str:
        """The step in one line of compact JSON, as written in the fixture."""
        return json.dumps(self.data, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Case:
    """One fixture case, plain JSON values only, with where it came from."""

    id: str
    description: str
    rules: tuple[str, ...]
    ruleset: str | dict[str, Any]
    players: int
    start: dict[str, Any]
    steps: tuple[Step, ...]
    options: dict[str, Any] = field(default_factory=dict)
    path: Path = Path()
    line: int = 0
    #: ``{"code", "rule"?}`` when new_game must refuse the start (the case then has no steps).
    start_refused: dict[str, Any] | None = None
    #: ``{"deck", "dealer", "moves"}`` that reach ``start.state`` from new_game, for engines that
    #: play in game sessions and cannot be set up from a position (conformance.tools.reach).
    reached_by: dict[str, Any] | None = None

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def areas(self) -> tuple[str, ...]:
        """Rule areas the case touches (``R-THROW-1`` -> ``THROW``), first rule's area first."""
        return rule_areas(self.rules)

    @property
    def area(self) -> str:
        """The primary rule area (of the first rule listed); tallies count the case there."""
        return self.areas[0] if self.areas else "?"

    @property
    def preset(self) -> str:
        return self.ruleset if isinstance(self.ruleset, str) else self.ruleset["preset"]

    @property
    def overrides(self) -> dict[str, Any]:
        return {} if isinstance(self.ruleset, str) else dict(self.ruleset.get("overrides", {}))


@dataclass(frozen=True)
class LoadProblem:
    """A file or a case that cannot be run: where it is and what is wrong."""

    path: Path
    line: int
    message: str
    case_id: str | None = None

    @property
    def name(self) -> str:
        """A stable name for the failing item that stands for this problem."""
        return self.case_id or f"{self.path.name}:{self.line}"

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def rule_area(rule_id: str) -> str:
    """``R-THROW-1`` -> ``THROW``; anything else -> itself upper-cased."""
    parts = rule_id.split("-")
    return parts[1] if len(parts) == 3 and parts[0] == "R" else rule_id.upper()


def rule_areas(rules: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for rule in rules:
        seen.setdefault(rule_area(rule), None)
    return tuple(seen)


def plain(value: Any) -> Any:
    """Strip the line-number wrappers of the YAML loader: plain dicts and lists all the way down."""
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


@cache
def fixture_schema() -> dict[str, Any]:
    """The fixture schema, read once."""
    return json.loads(schema_path("fixture").read_text(encoding="utf-8"))


@cache
def _validator(definition: str) -> Any:
    """A validator for one ``$defs`` entry of the fixture schema (``case``, ``step_move``...)."""
    import jsonschema

    root = dict(fixture_schema())
    root.pop("oneOf", None)
    root["$ref"] = f"#/$defs/{definition}"
    if definition == "case":
        # a case's start and steps are validated one by one, against the kind they are (the
        # clearer messages: _check_start, _check_step); validating them here against every kind
        # too was most of the cost of loading the suite, and its errors were dropped
        root["$defs"] = {**root["$defs"], "step": True, "start": {"type": "object"}}
        # a route's moves too (_check_route): thousands of moves, most of them the same few
        case = root["$defs"]["case"]
        route = case["properties"]["reached_by"]
        route = {**route, "properties": {**route["properties"], "moves": {"type": "array"}}}
        root["$defs"]["case"] = {**case, "properties": {**case["properties"], "reached_by": route}}
    return jsonschema.Draft202012Validator(root)


def _schema_problems(
    definition: str, value: Any, document: Any, base: list[Any], path: Path
) -> list[tuple[int, str]]:
    """(line, message) for each schema violation of ``value`` (found at ``base`` in ``document``),
    most useful first. oneOf branches are resolved by key so messages stay specific."""
    out: list[tuple[int, str]] = []
    validator = _validator(definition)
    for error in sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path)):
        where = base + list(error.absolute_path)
        if error.validator == "oneOf" and error.schema == fixture_schema()["$defs"]["step"]:
            continue  # steps are checked one by one below, with clearer messages
        if error.validator == "oneOf" and error.schema == fixture_schema()["$defs"]["start"]:
            continue  # likewise the start
        message = _conditional_message(error) or error.message
        if error.validator is None:  # a `false` schema: a key the branch forbids is there
            key = _forbidden_key(value, list(error.absolute_path))
            where = where + [key] if key else where
            message = _FORBIDDEN.get(key) or message
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            known = error.schema.get("properties", {})
            extra = [key for key in error.instance if key not in known]
            if extra:
                where = where + [extra[0]]
            message = f"{message} (check the spelling; see spec/schema/fixture.schema.json)"
        out.append((line_of(document, where), _at(where, message)))
    return out


def _at(where: list[Any], message: str) -> str:
    """``message`` behind the pointer of the place it is about; the whole value's pointer is ""
    (RFC 6901), so a message about the whole case or step has no prefix."""
    return f"{pointer(where)}: {message}" if where else message


_OBSERVE_REFUSED = (
    "an observe step with code (a request the engine must refuse) has no {key}: there is no "
    "observation to judge; remove {key} (or code)"
)

#: The keys a branch of the fixture schema forbids (a `false` schema), and what to write instead.
_FORBIDDEN = {
    "steps": (
        "a case with start_refused has no steps: the game never starts; remove steps "
        "(or start_refused)"
    ),
    "overwrite": (
        "start.overwrite is only for a case with start_refused: it spoils a start state the "
        "engine must refuse; remove it (or make the case a refused start)"
    ),
    **{key: _OBSERVE_REFUSED.format(key=key) for key in ("expect", "absent", "hides_unseen")},
    "pointer": (
        "start_refused with a deck or a seed has code bad_request (new_game must refuse the "
        "game) and no pointer; a pointer is for a start: {state} the engine must refuse"
    ),
}


def _forbidden_key(value: Any, path: list[Any]) -> str | None:
    """Which forbidden key a `false`-schema error is about: jsonschema reports the place of the
    object holding it, not the key, so the key is the one of :data:`_FORBIDDEN` found there."""
    node = value
    for part in path:
        node = node[part] if isinstance(node, (dict, list)) else None
    return next((key for key in _FORBIDDEN if isinstance(node, dict) and key in node), None)


def _conditional_message(error: Any) -> str | None:
    """Plain words for the case schema's start_refused conditions (its if/then/else)."""
    where = list(error.absolute_schema_path)
    if (
        error.validator == "anyOf"
        and isinstance(error.instance, dict)
        and "observe" in error.instance
    ):
        return (
            "an observe step needs expect: {pointer: value} and/or absent: [pointer, ...] (or "
            "hides_unseen: true), or code: bad_request alone for a request the engine must refuse"
        )
    if "then" in where and "start_refused" in where:
        return (
            "start_refused with a start: {state} has code invalid_state (legal_moves must "
            "refuse the state); with a deck or a seed it has code bad_request (new_game must "
            "refuse the game) and no pointer"
        )
    if "else" in where and error.validator == "required":
        return "'steps' is a required property (only a case with start_refused has none)"
    if "else" in where and error.validator in ("minimum", "maximum"):
        return (
            f"{error.instance} players: a game has 2 to 8 players; only a case with "
            "start_refused may ask for a count the rules forbid"
        )
    return None


def _check_start(start: Any, document: Any, base: list[Any], path: Path) -> list[tuple[int, str]]:
    where = base + ["start"]
    if not isinstance(start, dict):
        return []  # the case schema reports the type
    kinds = [key for key in _START_KINDS if key in start]
    if len(kinds) != 1:
        found = " and ".join(kinds) if kinds else "none of them"
        return [
            (
                line_of(document, where),
                f"{pointer(where)}: start needs exactly one of state, deck or seed; found {found}",
            )
        ]
    return _schema_problems(_START_KINDS[kinds[0]], start, document, where, path)


def _check_route(route: Any, document: Any, base: list[Any], path: Path) -> list[tuple[int, str]]:
    """The moves of a case's ``reached_by``, each against the fixture schema's move: a route holds
    tens of moves and the suite thousands, mostly the same few, so each distinct move is
    validated once per process (:func:`_move_errors`)."""
    moves = route.get("moves") if isinstance(route, dict) else None
    if not isinstance(moves, list):
        return []  # the case schema reports it
    out = []
    for index, move in enumerate(moves):
        try:
            errors = _move_errors(json.dumps(move, sort_keys=True))
        except (TypeError, ValueError):  # not JSON (a YAML date, ...): the schema says what
            errors = [(list(e.absolute_path), e.message)
                      for e in _validator("move").iter_errors(move)]
        for inner, message in errors:
            where = base + ["reached_by", "moves", index, *inner]
            out.append((line_of(document, where), _at(where, message)))
    return out


@cache
def _move_errors(text: str) -> tuple[tuple[list[Any], str], ...]:
    """(path in the move, message) for each schema violation of the move ``text`` (JSON)."""
    errors = _validator("move").iter_errors(json.loads(text))
    return tuple((list(e.absolute_path), e.message) for e in errors)


def _check_step(step: Any, document: Any, where: list[Any], path: Path) -> list[tuple[int, str]]:
    line = line_of(document, where)
    if not isinstance(step, dict):
        return [
            (line, f"{pointer(where)}: a step is a mapping with one of {', '.join(STEP_KINDS)}")
        ]
    kinds = step_kinds(step)
    if not kinds:
        keys = ", ".join(map(str, step)) or "nothing"
        return [
            (line, f"{pointer(where)}: unknown step ({keys}); use one of {', '.join(STEP_KINDS)}")
        ]
    if len(kinds) > 1:
        found = " and ".join(kinds)
        message = f"{pointer(where)}: one check per step, found {found}; split it into steps"
        return [(line, message)]
    return _schema_problems(f"step_{kinds[0]}", step, document, where, path)


def step_problems(data: Any) -> list[str]:
    """What the fixture schema finds wrong with one step mapping (empty when it is a valid
    step): how a case compiled from another form (a Gherkin scenario) is held to the format."""
    kinds = step_kinds(data) if isinstance(data, dict) else []
    if len(kinds) != 1:
        return [f"a step holds exactly one of {', '.join(STEP_KINDS)}; found {kinds or 'none'}"]
    errors = _validator(f"step_{kinds[0]}").iter_errors(data)
    return [_at(list(e.absolute_path), e.message) for e in errors]


def _case_from(
    raw: Any, document: Any, base: list[Any], path: Path, rules_checked: bool = True
) -> Case | LoadProblem:
    line = line_of(document, base) if base else getattr(raw, "line", 1) or 1
    case_id = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else None
    problems = _schema_problems("case", raw, document, base, path)
    if isinstance(raw, dict):
        problems += _check_start(raw.get("start"), document, base, path)
        problems += _check_route(raw.get("reached_by"), document, base, path)
        steps = raw.get("steps")
        if isinstance(steps, list):
            for index, step in enumerate(steps):
                problems += _check_step(step, document, base + ["steps", index], path)
    if not problems and rules_checked:  # the shape holds: now what the rules say about it
        problems = case_faults(raw, document, base)
    if problems:
        problems.sort(key=lambda item: item[0])
        first_line = problems[0][0] or line
        text = "; ".join(message for _, message in problems[:5])
        if len(problems) > 5:
            text += f"; and {len(problems) - 5} more"
        return LoadProblem(path, first_line, f"invalid fixture: {text}", case_id)
    raw_steps = raw.get("steps", [])
    steps_lines = raw_steps.item_lines if hasattr(raw_steps, "item_lines") else []
    steps = tuple(
        Step(
            index=index + 1,
            kind=step_kinds(step)[0],
            data=plain(step),
            line=steps_lines[index] if index < len(steps_lines) else line,
        )
        for index, step in enumerate(raw_steps)
    )
    return Case(
        id=raw["id"],
        description=raw["description"],
        rules=tuple(raw["rules"]),
        ruleset=plain(raw["ruleset"]),
        players=raw["players"],
        start=plain(raw["start"]),
        steps=steps,
        options=plain(raw.get("options", {})),
        path=path,
        line=line,
        start_refused=plain(raw["start_refused"]) if "start_refused" in raw else None,
        reached_by=plain(raw["reached_by"]) if "reached_by" in raw else None,
    )


#: (file, a digest of its bytes, rules_checked) -> what loading it gave
_LOADED: dict[tuple[str, bytes, bool], tuple[list[Case], list[LoadProblem]]] = {}


def load_file(
    path: Path | str, *, rules_checked: bool = True
) -> tuple[list[Case], list[LoadProblem]]:
    """The cases of one fixture file and the problems found in it, read once per process while
    the file's bytes are unchanged.

    Why a cache: the packaged fixtures are read by every consumer in a process (the pytest
    plugin's collection, the tools, the project's own test modules, several in-process runs), and
    reading YAML with line numbers kept is the slow part; reading the bytes to compare them is
    not. Callers get deep copies (:func:`_copied`), so a caller that edits what it loaded cannot
    change what the next one reads.
    """
    path = Path(path)
    try:
        digest = hashlib.blake2b(path.read_bytes(), digest_size=16).digest()
    except OSError:
        return _load_file(path, rules_checked=rules_checked)
    key = (str(path), digest, rules_checked)
    if key not in _LOADED:
        _LOADED[key] = _load_file(path, rules_checked=rules_checked)
    cases, problems = _LOADED[key]
    return [_copied(case) for case in cases], list(problems)


#: the fields of a case that hold JSON values a caller could edit
_JSON_FIELDS = ("ruleset", "start", "options", "start_refused", "reached_by")


def _copied(case: Case) -> Case:
    """A deep copy of a cached case. Its values are plain JSON (the fixture schema admits no
    other), which ``marshal`` copies exactly and about four times faster than
    ``copy.deepcopy``; that matters because every in-process run and many tools copy the whole
    suite. Anything ``marshal`` cannot write falls back to ``copy.deepcopy``."""
    values = [getattr(case, name) for name in _JSON_FIELDS]
    datas = [step.data for step in case.steps]
    try:
        values, datas = marshal.loads(marshal.dumps((values, datas)))
    except ValueError:
        return copy.deepcopy(case)
    steps = tuple(replace(step, data=data) for step, data in zip(case.steps, datas))
    return replace(case, steps=steps, **dict(zip(_JSON_FIELDS, values)))


def _load_file(path: Path, *, rules_checked: bool) -> tuple[list[Case], list[LoadProblem]]:
    """The cases of one fixture file and the problems found in it.

    A file that cannot be parsed is one problem. In a file with a ``cases`` list each case stands
    alone: a broken case is a problem, the others load. ``rules_checked=False`` leaves out the
    checks of :mod:`conformance.suite.load_checks` (rule IDs, ruleset, start), for a reader that
    only counts what cases cite and reports unknown citations its own way (the traceability
    gate); whatever runs cases keeps them.
    """
    path = Path(path)
    try:
        document = load_yaml(path)
    except SpecDataError as exc:
        where = exc.where.rsplit(":", 1)
        line = int(where[1]) if len(where) == 2 and where[1].isdigit() else 1
        return [], [LoadProblem(path, line, exc.detail)]
    if not isinstance(document, dict):
        kind = (
            "an empty file"
            if document is None
            else "a list"
            if isinstance(document, list)
            else f"a plain {type(document).__name__}"
        )
        return [], [LoadProblem(path, 1, f"a fixture file holds a case or `cases:`, not {kind}")]
    if "cases" not in document:
        result = _case_from(document, document, [], path, rules_checked)
        return ([], [result]) if isinstance(result, LoadProblem) else ([result], [])
    cases: list[Case] = []
    problems: list[LoadProblem] = []
    extra = sorted(set(document) - {"cases", "description"})
    if extra:
        problems.append(
            LoadProblem(
                path,
                line_of(document, [extra[0]]),
                f"unexpected top-level key(s) {', '.join(map(str, extra))} beside `cases`; "
                "a file holds one case or a `cases:` list (with an optional description)",
            )
        )
    raw_cases = document["cases"]
    if not isinstance(raw_cases, list) or not raw_cases:
        problems.append(
            LoadProblem(path, line_of(document, ["cases"]), "`cases` must be a non-empty list")
        )
        return cases, problems
    for index, raw in enumerate(raw_cases):
        result = _case_from(raw, document, ["cases", index], path, rules_checked)
        (problems if isinstance(result, LoadProblem) else cases).append(result)
    return cases, problems


def fixture_files(root: Path | str) -> list[Path]:
    """Every ``*.yaml``/``*.yml`` file under ``root`` (or ``root`` itself), in a stable order."""
    root = Path(root)
    if root.is_file():
        return [root]
    return sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def load_paths(
    paths: Iterable[Path | str], *, rules_checked: bool = True
) -> tuple[list[Case], list[LoadProblem]]:
    """Load many files or directories; a case ID used twice is a problem at its second use.
    ``rules_checked``: as for :func:`load_file`."""
    cases: list[Case] = []
    problems: list[LoadProblem] = []
    seen: dict[str, Case] = {}
    for root in paths:
        for path in fixture_files(root):
            file_cases, file_problems = load_file(path, rules_checked=rules_checked)
            problems += file_problems
            for case in file_cases:
                first = seen.get(case.id)
                if first is not None:
                    problems.append(
                        LoadProblem(
                            case.path,
                            case.line,
                            f"case id {case.id!r} is already used at {first.location}; "
                            "ids must be unique across the suite",
                            None,
                        )
                    )
                    continue
                seen[case.id] = case
                cases.append(case)
    return cases, problems
