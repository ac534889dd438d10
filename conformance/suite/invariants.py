"""What must hold of every state an engine returns, whatever the case being run expects.

A fixture's ``expect`` step pins the fields its author chose; a state can be wrong elsewhere (a
card copied into a second hand, a defender who is also the attacker) and still pass every step.
:func:`state_problems` is the judge's own reading of what the rules say about *any* state, so the
runner can check each state an engine answers with:

- the shape: the state validates against ``spec/schema/state.schema.json`` (R-PLAY-6; the schema
  is found as :mod:`conformance.suite.observation` finds the observation schema);
- every seat a state names is a seat of the game (R-PLAY-6) and the player count suits the deck
  and the teams (R-DECK-4);
- card conservation: every card of the ruleset's deck is in exactly one place, a hand, the talon,
  the table or the discard pile, and no other card appears (R-DECK-5);
- the trump card is the talon's last card while the talon holds cards (R-TRUMP-2); known cards
  are cards of their hand (R-INFO-3); team indices follow the ``teams`` seating (R-TEAM-1);
- the bout's roles: the defender is not the main attacker and holds cards (R-ROLE-2), nor his
  partner (R-TEAM-2); he never passes (R-THROW-3); the opening cards are the opener's
  (R-ATTACK-2); without transfers the main attacker is the opener (R-ROLE-5) and no table card is
  the defender's (R-PLAY-4); seats that emptied their hand hold no cards (R-OUT-2);
- the discard pile holds whole pairs, an attack card and its defence each (R-BOUT-1);
- going out: players who went out hold no cards, nobody is out while the talon holds cards
  (R-OUT-1), nobody is listed twice (R-OUT-3);
- the result: the game over means no bout (R-END-1); at most one player (team) holds cards and
  that one is the fool (R-END-1, R-END-2, R-TEAM-3); a fool with no cards only under ``tie:
  defender_fool``, and ``draw`` exactly when there is no fool (R-END-3); ``finishing_order`` is
  ``finished`` and the winners are players who went out, never the fool (R-END-4);
  ``epaulettes`` null exactly with ``epaulettes: off`` (R-END-6).

Only what is certain in every legal position is checked: after a transfer the defender may have
put cards on the table himself, and the bout's opener may be the defender, so neither is a
problem with ``transfer: on``; the attack cap is not checked either (with two packs a transfer
under ``transfer_capacity: hand`` may take the table past it, R-TRANSFER-3).

The module never raises on a JSON value: a malformed state gives problems. When the schema fails
for a top-level field, the checks that read that field are skipped (their findings would only
repeat the schema's).

This is the judge's reading, independent of the reference engine's ``validate_state``: it uses
only :mod:`conformance.contract.cards` (the card notation), :mod:`conformance.contract.canonical` (the canonical
text) and the spec's schemas.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any
from urllib.parse import urljoin

from conformance.contract import canonical, schemas
from conformance.contract.canonical import pointer
from conformance.contract.cards import canonical as canonical_cards
from conformance.contract.cards import deck as deck_cards
from conformance.contract.seats import TEAM_PLAYERS, max_players, team_of

__all__ = ["Problem", "state_problems", "summarise"]

#: The rule a malformed state breaks (spec/rules.md: every state is a complete state of the
#: contract).
SHAPE = "R-PLAY-6"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a state.

    ``pointer``: RFC 6901 JSON pointer of the offending value (``""`` for the whole state);
    ``rule``: the rule ID it breaks; ``message``: what is wrong and what was found.
    """

    pointer: str
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.pointer or '(the state)'} [{self.rule}]: {self.message}"

    def to_json(self) -> dict[str, str]:
        return {"pointer": self.pointer, "rule": self.rule, "message": self.message}


def state_problems(state: Any) -> list[Problem]:
    """Every way ``state`` breaks the state schema or an invariant of the rules (empty when it
    is a state some legal game could be in, as far as a single state shows).

    Schema problems come first, sorted by pointer; then the invariants, field by field.
    """
    problems, broken = _schema_problems(state)
    if broken is _ALL:
        return problems
    facts = _Facts(state, broken)
    for check in _CHECKS:
        if facts.has(*check.needs):
            check(facts, problems)
    return problems


def summarise(problems: list[Problem], limit: int = 5) -> tuple[list[str], str]:
    """The rules ``problems`` break (first appearance first) and a one-line text of the first
    ``limit`` of them, for a failure message: the runner's and the scenarios' alike."""
    rules = list(dict.fromkeys(problem.rule for problem in problems))
    shown = "; ".join(str(problem) for problem in problems[:limit])
    if len(problems) > limit:
        shown += f"; and {len(problems) - limit} more"
    return rules, shown


# ------------------------------------------------------------------------------------ the schema

_ALL = frozenset({"*"})
_MESSAGE_LIMIT = 240


def _short(value: Any, limit: int = 60) -> str:
    try:
        text = canonical.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {_short(value)}"
    if isinstance(value, str):
        return f"the string {_short(value)}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


@dataclass(frozen=True)
class _Schemas:
    """The state schema, ready to check states fast.

    ``validator``: the state schema with its local references inlined, for the messages;
    ``fast``: the same schema compiled to a plain predicate (:func:`_compile`), or None if the
    schema uses a keyword the compiler does not know; ``separate``: per top-level field whose
    schema lives in another document (the ruleset), a validator for that field alone, whose
    answers are cached (every state of a game carries the same ruleset).
    """

    validator: Any
    fast: Callable[[Any], bool] | None
    separate: dict[str, Any]


@cache
def _schemas() -> _Schemas:
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
        fast = _compile(inlined)
    except _CannotCompile:
        fast = None
    return _Schemas(jsonschema.Draft202012Validator(inlined, registry=registry), fast, separate)


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


def _schema_problems(state: Any) -> tuple[list[Problem], frozenset[str]]:
    """The schema's problems and the top-level fields they break (:data:`_ALL` when the state is
    not even an object)."""
    schemas = _schemas()
    validator = schemas.validator
    found: list[tuple[list[Any], str]] = []
    broken: set[str] = set()
    if schemas.fast is None or not schemas.fast(state):
        for error in validator.iter_errors(state):
            _collect(error, found)
    if isinstance(state, dict):
        for name, field_validator in schemas.separate.items():
            if name in state:
                for path, message in _separate_errors(name, field_validator, state[name]):
                    found.append(([name, *path], message))
    else:
        found = [([], f"a state is a JSON object; found {_kind(state)}")]
    for path, _ in found:
        if path:
            broken.add(str(path[0]))
    if isinstance(state, dict):
        required = validator.schema.get("required", [])
        broken.update(name for name in required if name not in state)
    found.sort(key=lambda item: _sort_key(item[0]))
    problems = [Problem(pointer(path), SHAPE, _clip(message)) for path, message in found]
    if not isinstance(state, dict):
        return problems, _ALL
    return problems, frozenset(broken)


def _separate_errors(name: str, validator: Any, value: Any) -> tuple[tuple[list[Any], str], ...]:
    try:
        key = canonical.dumps(value)
    except (TypeError, ValueError):
        return _field_errors(validator, value)
    return _cached_field_errors(name, key)


@lru_cache(maxsize=64)
def _cached_field_errors(name: str, key: str) -> tuple[tuple[list[Any], str], ...]:
    return _field_errors(_schemas().separate[name], json.loads(key))


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
        message = f"expected {'null or ' if nullable else ''}{words}; found {_kind(instance)}"
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


def _sort_key(path: list[Any]) -> tuple:
    return tuple((0, part, "") if isinstance(part, int) else (1, 0, str(part)) for part in path)


# ------------------------------------------------------------------ the schema as a predicate
#
# jsonschema takes about 2 ms for a state, most of it in its general machinery; the runner
# checks every state, so the state schema (inlined, without the ruleset) is compiled once into
# nested closures that answer "valid or not" for the keywords it uses. Only a state the
# predicate rejects goes to jsonschema, for the messages; if jsonschema then finds nothing, the
# state is valid (jsonschema has the last word). A keyword the compiler does not know makes it
# refuse, and jsonschema checks every state.


class _CannotCompile(Exception):
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


def _compile(schema: Any) -> Callable[[Any], bool]:
    """A predicate equal to "``schema`` accepts the value" (draft 2020-12), for the keywords
    type, const, enum, pattern, minimum, maximum, minItems, maxItems, items, properties,
    required, additionalProperties, allOf and oneOf; anything else raises
    :class:`_CannotCompile`."""
    if schema is True or schema == {}:
        return lambda value: True
    if schema is False:
        return lambda value: False
    if not isinstance(schema, dict):
        raise _CannotCompile(repr(schema))
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
    if key == "type":
        names = arg if isinstance(arg, list) else [arg]
        if not all(isinstance(n, str) and n in _TYPES for n in names):
            raise _CannotCompile(f"type {arg!r}")
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
    if key == "items" and not isinstance(arg, list):
        item = _compile(arg)

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
        props = tuple((name, _compile(sub)) for name, sub in arg.items())

        def properties(v: Any) -> bool:
            if isinstance(v, dict):
                for name, test in props:
                    if name in v and not test(v[name]):
                        return False
            return True

        return properties
    if key == "additionalProperties":
        if "patternProperties" in schema:
            raise _CannotCompile("patternProperties")
        known = frozenset(schema.get("properties", {}))
        if arg is False:
            return lambda v: not isinstance(v, dict) or known.issuperset(v)
        extra = _compile(arg)
        return lambda v: (
            not isinstance(v, dict) or all(extra(v[name]) for name in v if name not in known)
        )
    if key == "allOf" and isinstance(arg, list):
        parts = [_compile(sub) for sub in arg]
        return lambda v: all(part(v) for part in parts)
    if key == "oneOf" and isinstance(arg, list):
        parts = [_compile(sub) for sub in arg]
        return lambda v: sum(1 for part in parts if part(v)) == 1
    raise _CannotCompile(key)


# ------------------------------------------------------------------------- what the state says


class _Facts:
    """The schema-valid parts of a state, read once for the checks (seats as ints)."""

    def __init__(self, state: dict[str, Any], broken: frozenset[str]):
        self.state = state
        self.broken = broken
        self.usable = {key for key in state if key not in broken}

    def has(self, *fields: str) -> bool:
        return all(name in self.usable for name in fields)

    @property
    def options(self) -> dict[str, Any]:
        return self.state["ruleset"]["options"]

    @property
    def n(self) -> int:
        return len(self.state["players"])

    def hand(self, seat: int) -> list[str]:
        return self.state["players"][seat]["hand"]

    def holders(self) -> list[int]:
        return [i for i in range(self.n) if self.hand(i)]

    def team(self, seat: int) -> int | None:
        return team_of(self.options["teams"], seat)

    def deck(self) -> tuple[str, ...]:
        return _deck(int(self.options["deck_size"]), int(self.options["decks"]))

    def deck_set(self) -> frozenset[str]:
        return _deck_set(int(self.options["deck_size"]), int(self.options["decks"]))


@cache
def _deck(deck_size: int, decks: int) -> tuple[str, ...]:
    return tuple(deck_cards(deck_size, decks))


@cache
def _deck_set(deck_size: int, decks: int) -> frozenset[str]:
    return frozenset(_deck(deck_size, decks))


def _int(value: Any) -> int:
    """A schema-valid integer (JSON Schema also calls ``1.0`` an integer) as an int."""
    return int(value)


def _seats(values: Any) -> list[int]:
    return [_int(v) for v in values]


def _names(seats: Iterable[int]) -> str:
    seats = list(seats)
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(map(str, seats))


def _check(*needs: str) -> Callable:
    def register(function: Callable) -> Callable:
        function.needs = needs
        _CHECKS.append(function)
        return function

    return register


_CHECKS: list[Any] = []


@_check("ruleset", "players")
def _player_count(facts: _Facts, out: list[Problem]) -> None:
    options, n = facts.options, facts.n
    cards = int(options["deck_size"]) * int(options["decks"])
    most = max_players(int(options["deck_size"]), int(options["decks"]))
    if not 2 <= n <= most:
        out.append(
            Problem(
                "/players", "R-DECK-4", f"{n} players; a deck of {cards} cards seats 2 to {most}"
            )
        )
    need = TEAM_PLAYERS.get(options["teams"])
    if need is not None and n != need:
        out.append(
            Problem(
                "/players", "R-DECK-4", f"teams {options['teams']} needs {need} players; found {n}"
            )
        )


@_check("ruleset", "players")
def _teams(facts: _Facts, out: list[Problem]) -> None:
    teams = facts.options["teams"]
    for seat, player in enumerate(facts.state["players"]):
        want, found = facts.team(seat), player["team"]
        if want != found:
            what = "no team (null)" if want is None else f"team {want}"
            out.append(
                Problem(
                    pointer(["players", seat, "team"]),
                    "R-TEAM-1",
                    f"seat {seat} has {what} under teams {teams}; found {_short(found)}",
                )
            )


@_check("ruleset", "players", "talon", "table", "discard")
def _conservation(facts: _Facts, out: list[Problem]) -> None:
    state = facts.state
    deck = facts.deck()
    in_deck = facts.deck_set()
    cards = [card for player in state["players"] for card in player["hand"]]
    cards += state["talon"]
    cards += state["discard"]
    for pair in state["table"]:
        cards.append(pair["attack"])
        if pair["defence"] is not None:
            cards.append(pair["defence"])
    if len(cards) == len(deck) and in_deck.issuperset(cards) and len(set(cards)) == len(deck):
        return  # the usual case: each card of the deck once, nothing else
    where: dict[str, list[tuple]] = {}
    for seat, player in enumerate(state["players"]):
        for j, card in enumerate(player["hand"]):
            where.setdefault(card, []).append(("players", seat, "hand", j))
    for j, card in enumerate(state["talon"]):
        where.setdefault(card, []).append(("talon", j))
    for j, pair in enumerate(state["table"]):
        where.setdefault(pair["attack"], []).append(("table", j, "attack"))
        if pair["defence"] is not None:
            where.setdefault(pair["defence"], []).append(("table", j, "defence"))
    for j, card in enumerate(state["discard"]):
        where.setdefault(card, []).append(("discard", j))
    size = f"{facts.options['deck_size']} cards x {facts.options['decks']}"
    found = []
    for card, paths in where.items():
        if len(paths) == 1 and card in in_deck:
            continue
        pointers = [pointer(path) for path in paths]
        if card not in in_deck:
            for at in pointers:
                found.append(
                    Problem(at, "R-DECK-5", f"{card} is not a card of this deck ({size})")
                )
        elif len(pointers) > 1:
            found.append(
                Problem(
                    pointers[1],
                    "R-DECK-5",
                    f"{card} is in {len(pointers)} places ({', '.join(pointers)}); "
                    "every card is in exactly one place",
                )
            )
    missing = [card for card in deck if card not in where]
    if missing:
        found.append(
            Problem(
                "",
                "R-DECK-5",
                f"{len(missing)} card(s) of the deck ({size}) are in no place (a "
                f"hand, the talon, the table, the discard pile): "
                f"{' '.join(canonical_cards(missing))}",
            )
        )
    found.sort(key=lambda p: _sort_key(canonical.pointer_parts(p.pointer)))
    out.extend(found)


@_check("ruleset", "trump")
def _trump_card(facts: _Facts, out: list[Problem]) -> None:
    trump = facts.state["trump"]
    if trump not in facts.deck_set():
        out.append(
            Problem(
                "/trump",
                "R-DECK-5",
                f"{trump} is not a card of this deck ({facts.options['deck_size']} "
                f"cards x {facts.options['decks']})",
            )
        )


@_check("trump", "talon")
def _trump_last(facts: _Facts, out: list[Problem]) -> None:
    talon, trump = facts.state["talon"], facts.state["trump"]
    if talon and talon[-1] != trump:
        out.append(
            Problem(
                pointer(["talon", len(talon) - 1]),
                "R-TRUMP-2",
                f"the trump card {trump} is the talon's last card while the talon "
                f"holds cards; the talon ends with {talon[-1]}",
            )
        )


@_check("discard")
def _discard_pairs(facts: _Facts, out: list[Problem]) -> None:
    discard = facts.state["discard"]
    if len(discard) % 2:
        out.append(
            Problem(
                "/discard",
                "R-BOUT-1",
                "the discard pile holds the pairs of defended bouts, an attack card and its "
                f"defence each: an even number of cards; found {len(discard)}",
            )
        )


@_check("players")
def _known(facts: _Facts, out: list[Problem]) -> None:
    for seat, player in enumerate(facts.state["players"]):
        known = player["known"]
        if not known or (len(set(known)) == len(known) and set(known).issubset(player["hand"])):
            continue
        left = Counter(player["hand"])
        for j, card in enumerate(player["known"]):
            if left[card] > 0:
                left[card] -= 1
                continue
            held = card in player["hand"]
            what = "listed twice" if held else f"not in seat {seat}'s hand"
            out.append(
                Problem(
                    pointer(["players", seat, "known", j]),
                    "R-INFO-3",
                    f"{card} is listed as a known card of seat {seat} but is {what}",
                )
            )


@_check("dealer", "players")
def _dealer(facts: _Facts, out: list[Problem]) -> None:
    dealer = _int(facts.state["dealer"])
    if dealer >= facts.n:
        out.append(
            Problem("/dealer", SHAPE, f"seat {dealer} is not a seat of this {facts.n}-player game")
        )


@_check("finished", "players", "talon")
def _finished(facts: _Facts, out: list[Problem]) -> None:
    finished, n = _seats(facts.state["finished"]), facts.n
    seen: set[int] = set()
    for j, seat in enumerate(finished):
        at = pointer(["finished", j])
        if seat >= n:
            out.append(
                Problem(at, SHAPE, f"seat {seat} is not a seat of this {n}-player game")
            )
        elif seat in seen:
            out.append(Problem(at, "R-OUT-3", f"seat {seat} is listed twice"))
        elif facts.hand(seat):
            out.append(
                Problem(
                    at,
                    "R-OUT-1",
                    f"seat {seat} went out but holds {len(facts.hand(seat))} card(s)",
                )
            )
        seen.add(seat)
    if finished and facts.state["talon"]:
        out.append(
            Problem(
                "/finished",
                "R-OUT-1",
                f"nobody goes out while the talon holds cards; the talon holds "
                f"{len(facts.state['talon'])} and finished lists "
                f"{_names(finished)}",
            )
        )


@_check("bout", "players", "table", "ruleset")
def _bout(facts: _Facts, out: list[Problem]) -> None:
    bout = facts.state["bout"]
    if bout is None:
        return
    n = facts.n
    roles = {}
    for key in ("attacker", "defender", "opener"):
        seat = _int(bout[key])
        if seat >= n:
            out.append(
                Problem(
                    pointer(["bout", key]),
                    SHAPE,
                    f"seat {seat} is not a seat of this {n}-player game",
                )
            )
        else:
            roles[key] = seat
    attacker, defender, opener = (roles.get(k) for k in ("attacker", "defender", "opener"))
    if defender is not None:
        if defender == attacker:
            out.append(
                Problem(
                    "/bout/defender",
                    "R-ROLE-2",
                    f"seat {defender} is both the main attacker and the defender",
                )
            )
        elif (
            attacker is not None
            and facts.team(attacker) is not None
            and (facts.team(attacker) == facts.team(defender))
        ):
            out.append(
                Problem(
                    "/bout/defender",
                    "R-TEAM-2",
                    f"the defender, seat {defender}, is the main attacker's "
                    f"(seat {attacker}) partner",
                )
            )
        if not facts.hand(defender):
            out.append(
                Problem(
                    "/bout/defender", "R-ROLE-2", f"the defender, seat {defender}, holds no cards"
                )
            )
    for key, rule in (("passed", "R-THROW-5"), ("emptied", "R-OUT-2")):
        seen: set[int] = set()
        for j, seat in enumerate(_seats(bout[key])):
            problem = None
            if seat >= n:
                problem = (SHAPE, f"seat {seat} is not a seat of this {n}-player game")
            elif seat in seen:
                problem = (rule, f"seat {seat} is listed twice")
            elif key == "passed" and seat == defender:
                problem = (
                    "R-THROW-3",
                    f"seat {seat}, the defender, is listed as having passed; only attackers pass",
                )
            elif key == "emptied" and facts.hand(seat):
                problem = (
                    "R-OUT-2",
                    (
                        f"seat {seat} is listed as having emptied his hand in "
                        f"this bout but holds {len(facts.hand(seat))} card(s)"
                    ),
                )
            if problem is not None:
                out.append(Problem(pointer(["bout", key, j]), *problem))
            seen.add(seat)
    transfers = facts.options["transfer"] != "off"
    for j, pair in enumerate(facts.state["table"]):
        seat = _int(pair["by"])
        problem = None
        if seat >= n:
            problem = (SHAPE, f"seat {seat} is not a seat of this {n}-player game")
        elif j == 0 and opener is not None and seat != opener:
            problem = (
                "R-ATTACK-2",
                (
                    f"the bout's first attack card {pair['attack']} is the "
                    f"opener's (seat {opener}); found by seat {seat}"
                ),
            )
        elif not transfers and seat == defender:
            problem = (
                "R-PLAY-4",
                (
                    f"{pair['attack']} is put down by seat {seat}, the "
                    "defender; without transfers only attackers add attack cards"
                ),
            )
        if problem is not None:
            out.append(Problem(pointer(["table", j, "by"]), *problem))
    if not transfers and attacker is not None and opener is not None and attacker != opener:
        out.append(
            Problem(
                "/bout/attacker",
                "R-ROLE-5",
                f"without transfers the main attacker is the bout's opener (seat "
                f"{opener}); found seat {attacker}",
            )
        )


@_check("result", "bout")
def _over_means_no_bout(facts: _Facts, out: list[Problem]) -> None:
    if facts.state["result"] is not None and facts.state["bout"] is not None:
        out.append(
            Problem("/bout", "R-END-1", "the game is over (result is set) but the bout is not null")
        )


@_check("result", "players", "ruleset")
def _result(facts: _Facts, out: list[Problem]) -> None:
    result = facts.state["result"]
    if result is None:
        return
    n, options = facts.n, facts.options
    fool = None if result["fool"] is None else _int(result["fool"])
    if fool is not None and fool >= n:
        out.append(
            Problem("/result/fool", SHAPE, f"seat {fool} is not a seat of this {n}-player game")
        )
        fool = None
        known_fool = False
    else:
        known_fool = True
    holders = facts.holders()
    teams = options["teams"] != "none"
    if known_fool:
        _fool(facts, out, result, fool, holders, teams)
    draw = result["draw"]
    if known_fool and draw != (fool is None):
        out.append(
            Problem(
                "/result/draw",
                "R-END-3",
                f"draw is true exactly when there is no fool; found draw {_short(draw)}"
                f" with fool {_short(result['fool'])}",
            )
        )
    if draw is True and options["tie"] != "draw":
        out.append(
            Problem(
                "/result/draw",
                "R-END-3",
                f"a drawn game needs tie: draw; the ruleset has tie: {options['tie']}",
            )
        )
    losing = result["losing_team"]
    if not teams:
        if losing is not None:
            out.append(
                Problem(
                    "/result/losing_team",
                    "R-TEAM-3",
                    f"without teams there is no losing team; found {_short(losing)}",
                )
            )
    elif known_fool:
        want = None if fool is None else facts.team(fool)
        if losing != want:
            out.append(
                Problem(
                    "/result/losing_team",
                    "R-TEAM-3",
                    f"the losing team is the fool's ({_short(want)}); found {_short(losing)}",
                )
            )
    epaulettes = result["epaulettes"]
    if options["epaulettes"] == "off" and epaulettes is not None:
        out.append(
            Problem(
                "/result/epaulettes",
                "R-END-6",
                f"null with epaulettes: off; found {_short(epaulettes)}",
            )
        )
    elif options["epaulettes"] != "off" and epaulettes is None:
        out.append(
            Problem(
                "/result/epaulettes",
                "R-END-6",
                "a count (0 or more) with epaulettes: on; found null",
            )
        )
    elif options["epaulettes"] != "off" and known_fool and fool is None and epaulettes != 0:
        out.append(
            Problem(
                "/result/epaulettes",
                "R-END-6",
                f"0 when there is no fool; found {_short(epaulettes)}",
            )
        )
    _seat_lists(facts, out, result, fool)


def _fool(
    facts: _Facts,
    out: list[Problem],
    result: dict,
    fool: int | None,
    holders: list[int],
    teams: bool,
) -> None:
    """R-END-1, R-END-2, R-END-3: who may still hold cards at the end, and who the fool is."""
    if not teams:
        if len(holders) > 1:
            out.append(
                Problem(
                    "/result", "R-END-1", f"the game is over but {_names(holders)} still hold cards"
                )
            )
            return
    else:
        groups = sorted({facts.team(p) for p in holders})
        if len(groups) > 1:
            out.append(
                Problem(
                    "/result",
                    "R-END-1",
                    f"the game is over but teams {', '.join(map(str, groups))} still "
                    f"have members holding cards ({_names(holders)})",
                )
            )
            return
    if holders:
        if fool is None:
            out.append(
                Problem(
                    "/result/fool",
                    "R-END-2",
                    f"{_names(holders)} still hold(s) cards, so the fool is "
                    f"{'one of them' if len(holders) > 1 else f'seat {holders[0]}'}; "
                    "found null",
                )
            )
        elif fool not in holders:
            out.append(
                Problem(
                    "/result/fool",
                    "R-END-2",
                    f"the fool is the player left holding cards ({_names(holders)}); "
                    f"found seat {fool}, who holds none",
                )
            )
    elif fool is not None and facts.options["tie"] != "defender_fool":
        out.append(
            Problem(
                "/result/fool",
                "R-END-3",
                f"nobody holds cards, so with tie: {facts.options['tie']} there is no "
                f"fool; found seat {fool}",
            )
        )


def _seat_lists(facts: _Facts, out: list[Problem], result: dict, fool: int | None) -> None:
    """R-END-4: finishing_order is finished; winners went out and are not the fool."""
    n = facts.n
    order = _seats(result["finishing_order"])
    for key, values in (("finishing_order", order), ("winners", _seats(result["winners"]))):
        for j, seat in enumerate(values):
            if seat >= n:
                out.append(
                    Problem(
                        pointer(["result", key, j]),
                        SHAPE,
                        f"seat {seat} is not a seat of this {n}-player game",
                    )
                )
    if facts.has("finished") and order != _seats(facts.state["finished"]):
        out.append(
            Problem(
                "/result/finishing_order",
                "R-END-4",
                f"finishing_order is the state's finished list "
                f"{_short(facts.state['finished'])}; found {_short(order)}",
            )
        )
    winners = _seats(result["winners"])
    if facts.options["win_mode"] == "loser_only" and winners:
        out.append(
            Problem(
                "/result/winners",
                "R-END-4",
                f"with win_mode: loser_only nobody wins; found {_short(winners)}",
            )
        )
        return
    seen: set[int] = set()
    for j, seat in enumerate(winners):
        at = pointer(["result", "winners", j])
        if seat >= n:
            continue
        if seat == fool:
            out.append(Problem(at, "R-END-4", f"seat {seat} is the fool and cannot win"))
        elif seat in seen:
            out.append(Problem(at, "R-END-4", f"seat {seat} is listed twice"))
        elif seat not in order:
            out.append(
                Problem(
                    at,
                    "R-END-4",
                    f"seat {seat} wins but is not in finishing_order; winners are "
                    "players who went out",
                )
            )
        seen.add(seat)
