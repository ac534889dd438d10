"""Game records (like PGN for chess): the format, read strictly, and written from played games.

A record (``spec/schema/record.schema.json``) is one JSON document: the ruleset, the number of
players, the deal (deck order or seed, dealer, the previous game of a match), every move in order,
and the result. Replaying one on an engine is :mod:`conformance.tools.replay`; ``run`` runs the
packaged records as cases (:mod:`conformance.suite.compile`), so this module only knows the
format: what a good record is, where its moves sit in the file, how to write one.

Reading is strict: a record that is not JSON, breaks the schema or names an unknown ruleset is a
:class:`RecordError` naming the file and the JSON pointer (or line) of the first problem, so a
bad file fails alone, saying what to fix.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from conformance.contract import canonical
from conformance.contract.bounded_json import loads
from conformance.contract.cards import deck as canonical_deck
from conformance.contract.schemas import validator
from conformance.contract.seats import TEAM_PLAYERS, max_players
from conformance.engines.base import Engine, ErrorResult
from conformance.suite import RECORDS_DIR

RECORD_VERSION = 1

MOVE_ACTIONS = ("attack", "throw_in", "beat", "take", "pass", "transfer", "show_trump")
RESULT_FIELDS = ("fool", "draw", "losing_team", "winners", "finishing_order", "epaulettes")
MOVE_ORDER = ("player", "action", "target", "card", "cards")

# ---------------------------------------------------------------------------------- reading


class RecordError(ValueError):
    """A record that cannot be replayed: which file, where in it, what is wrong."""

    def __init__(self, path: Path | str | None, where: str, message: str):
        self.path = None if path is None else Path(path)
        self.where = where  # a JSON pointer ("/moves/3/card"), "line L column C", or ""
        self.message = message
        prefix = f"{self.path}: " if self.path is not None else ""
        at = f"at {where}: " if where else ""
        super().__init__(f"{prefix}{at}{message}")


def _refined(error: Any, document: Any) -> tuple[list[Any], str]:
    """(path, message) of a schema error, made specific where a ``oneOf`` hides the real cause:
    a move is checked against the shape of its own action, a ruleset against its form, a deal's
    deck/seed choice is spelt out."""
    path = list(error.absolute_path)
    if error.validator == "oneOf":
        node = error.instance
        if len(path) == 2 and path[0] == "moves" and isinstance(node, dict):
            action = node.get("action")
            if action not in MOVE_ACTIONS:
                return path + ["action"], (
                    f"unknown action {action!r}; the actions are {', '.join(MOVE_ACTIONS)}"
                )
            sub = _first_error(validator("move", f"/$defs/{action}"), node)
            if sub is not None:
                sub_path, text = _located(sub)
                return path + sub_path, f"a {action} move: {text}"
        if path == ["ruleset"]:
            if isinstance(node, dict):
                form = 1 if "preset" in node else 2 if "options" in node else None
                if form is None:
                    return path, "a ruleset object needs preset (with overrides) or options"
                sub = _first_error(validator("record", f"/$defs/ruleset/oneOf/{form}"), node)
                if sub is not None:
                    sub_path, text = _located(sub)
                    return path + sub_path, text
            elif isinstance(node, str):
                return path, f"{node!r} is not a preset name (lower-case letters, digits, - and _)"
            return path, "a ruleset is a preset name, {preset, overrides} or {name, options}"
        if path == ["deal"] and isinstance(node, dict):
            return path, "give exactly one of deck and seed"
        if path == ["result"] and isinstance(node, dict):
            sub = _first_error(validator("state", "/$defs/result"), node)
            if sub is not None:
                sub_path, text = _located(sub)
                return path + sub_path, text
    return _located(error)


def _located(error: Any) -> tuple[list[Any], str]:
    """(path, message) of one schema error; an unexpected key is named in the path."""
    path = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = error.schema.get("properties", {})
        extra = sorted(str(key) for key in error.instance if key not in known)
        if extra:
            path = path + [extra[0]]
    return path, _message(error)


def _message(error: Any) -> str:
    if error.validator == "additionalProperties":
        return f"{error.message} (check the spelling; see spec/schema/record.schema.json)"
    return error.message


def _first_error(validator: Any, node: Any) -> Any:
    errors = sorted(validator.iter_errors(node), key=lambda e: list(map(str, e.absolute_path)))
    return errors[0] if errors else None


def check_record(record: Any, path: Path | str | None = None) -> list[RecordError]:
    """Every problem of an in-memory record: schema shape first, then what the schema cannot say
    (the ruleset resolves, the player count fits the deck, the deck is this ruleset's deck)."""
    problems = []
    seen: set[str] = set()
    for error in sorted(
        validator("record").iter_errors(record), key=lambda e: list(map(str, e.absolute_path))
    ):
        where, message = _refined(error, record)
        pointer = canonical.pointer(where)  # "" is the whole record (RFC 6901)
        if pointer in seen:
            continue
        seen.add(pointer)
        problems.append(RecordError(path, pointer, message))
    if problems:
        return problems
    from reference_impl.rulesets import RulesetError, resolve_ruleset

    try:
        resolved = resolve_ruleset(record["ruleset"])
    except RulesetError as exc:
        where = exc.where if str(exc.where).startswith("/") and exc.where != "/" else ""
        return [RecordError(path, "/ruleset" + where, exc.detail)]
    options = resolved["options"]
    size, decks, teams = int(options["deck_size"]), int(options["decks"]), options["teams"]
    players = record["players"]
    if players > max_players(size, decks):
        problems.append(
            RecordError(
                path,
                "/players",
                f"{players} players cannot play with {size * decks} cards: at most "
                f"{max_players(size, decks)} (R-DECK-4)",
            )
        )
    if teams != "none" and players != TEAM_PLAYERS[teams]:
        problems.append(
            RecordError(
                path, "/players", f"teams {teams} is played by {TEAM_PLAYERS[teams]} players"
            )
        )
    deck = record["deal"].get("deck")
    if deck is not None:
        wanted = canonical_deck(size, decks)
        known, seen_cards = set(wanted), set()
        for index, card in enumerate(deck):
            if card not in known or card in seen_cards:
                why = "appears twice" if card in seen_cards else "is not a card of this deck"
                problems.append(RecordError(path, f"/deal/deck/{index}", f"{card} {why}"))
                break
            seen_cards.add(card)
        else:
            if len(deck) != len(wanted):
                problems.append(
                    RecordError(
                        path,
                        "/deal/deck",
                        f"the deck has {len(deck)} cards; this ruleset's deck has {len(wanted)}",
                    )
                )
    for key in ("dealer",):
        seat = record["deal"].get(key)
        if seat is not None and seat >= players:
            problems.append(
                RecordError(path, f"/deal/{key}", f"seat {seat} is not a seat of {players}")
            )
    return problems


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r} in one object")
        out[key] = value
    return out


def load_record(path: Path | str) -> dict[str, Any]:
    """Read and check one record file; :class:`RecordError` names the first problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(path, "", f"cannot read the file ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise RecordError(path, "", f"the file is not UTF-8 ({exc.reason})") from None
    try:
        record = loads(text, constants=True, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise RecordError(
            path, f"line {exc.lineno} column {exc.colno}", f"not JSON: {exc.msg}"
        ) from None
    except ValueError as exc:
        raise RecordError(path, "", f"not a valid record: {exc}") from None
    if not isinstance(record, dict):
        raise RecordError(path, "", f"a record is a JSON object, not a {type(record).__name__}")
    if record.get("version", RECORD_VERSION) != RECORD_VERSION:
        raise RecordError(
            path,
            "/version",
            f"record version {record.get('version')!r} is not known; this reader reads "
            f"version {RECORD_VERSION}",
        )
    problems = check_record(record, path)
    if problems:
        first = problems[0]
        more = f" ({len(problems) - 1} more problem(s) after this one)" if len(problems) > 1 else ""
        raise RecordError(path, first.where, first.message + more)
    return record


def record_files(paths: Iterable[Path | str] | None = None) -> list[Path]:
    """The record files named: files as given, directories searched for ``*.json``; by default
    the packaged records."""
    out: list[Path] = []
    for item in [RECORDS_DIR] if paths is None else paths:
        item = Path(item)
        if item.is_dir():
            out += sorted(p for p in item.rglob("*.json") if p.is_file())
        else:
            out.append(item)
    return out


def _blank(text: str, at: int) -> int:
    """The offset of the first character at or after ``at`` that is not JSON white space."""
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def layout(text: str) -> tuple[list[int], int]:
    """The line of each move and of the result in a record's JSON text (read by
    :func:`load_record` already), so a failing step of the record's case names the line in the
    file as a fixture's does. Lines not found are 1."""
    decoder = json.JSONDecoder()
    moves: list[int] = []
    result = 1

    def line(at: int) -> int:
        return text.count("\n", 0, at) + 1

    try:
        at = _blank(text, 0) + 1  # past the record's "{"
        while _blank(text, at) < len(text) and text[_blank(text, at)] == '"':
            key, at = decoder.raw_decode(text, _blank(text, at))
            at = _blank(text, _blank(text, at) + 1)  # past the ":"
            if key == "moves" and text[at] == "[":
                at = _blank(text, at + 1)
                while text[at] != "]":
                    moves.append(line(at))
                    _, at = decoder.raw_decode(text, at)
                    at = _blank(text, at)
                    at = _blank(text, at + 1) if text[at] == "," else at
                at += 1
            else:
                result = line(at) if key == "result" else result
                _, at = decoder.raw_decode(text, at)
            at = _blank(text, at)
            at = at + 1 if text[at : at + 1] == "," else at
    except (ValueError, IndexError):  # not the text of a loaded record: no lines to give
        pass
    return moves, result


# ---------------------------------------------------------------------------------- writing


def ordered_move(move: Any) -> Any:
    """A move in canonical form (``cards`` sorted) with its keys in reading order: player,
    action, then the cards."""
    if not isinstance(move, dict):
        return move
    move = json.loads(canonical.canonical_move(move))
    first = {key: move[key] for key in MOVE_ORDER if key in move}
    return {**first, **{key: value for key, value in move.items() if key not in first}}


def make_record(
    ruleset: str | dict[str, Any],
    players: int,
    deal: dict[str, Any],
    moves: Sequence[dict[str, Any]],
    result: dict[str, Any] | None,
    *,
    description: str | None = None,
    record_id: str | None = None,
    tags: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A record in the schema's key order; raises :class:`RecordError` if it would not load."""
    record: dict[str, Any] = {"version": RECORD_VERSION}
    if record_id is not None:
        record["id"] = record_id
    if description is not None:
        record["description"] = description
    if tags:
        record["tags"] = dict(tags)
    record["ruleset"] = ruleset
    record["players"] = players
    record["deal"] = {
        key: deal[key]
        for key in ("deck", "seed", "dealer", "previous")
        if deal.get(key) is not None
    }
    record["moves"] = [ordered_move(move) for move in moves]
    record["result"] = None if result is None else {key: result[key] for key in RESULT_FIELDS}
    problems = check_record(record)
    if problems:
        raise problems[0]
    return record


def record_text(record: dict[str, Any]) -> str:
    """A record as JSON people can read and diff: one key per line, one move per line."""
    lines = ["{"]
    items = list(record.items())
    for position, (key, value) in enumerate(items):
        comma = "," if position < len(items) - 1 else ""
        if key == "moves" and value:
            lines.append('  "moves": [')
            for index, move in enumerate(value):
                sep = "," if index < len(value) - 1 else ""
                lines.append("    " + json.dumps(move, ensure_ascii=False) + sep)
            lines.append("  ]" + comma)
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_record(path: Path | str, record: dict[str, Any]) -> Path:
    """Write ``record`` (checked by :func:`make_record`) to ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(record_text(record), encoding="utf-8")
    return path


Chooser = Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]]


def random_chooser(seed: int) -> Chooser:
    """A move policy: a uniformly random move of the legal set (sorted canonically first, so the
    same seed picks the same moves whatever order an engine lists them in)."""
    rng = random.Random(seed)

    def choose(state: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        return rng.choice(sorted(legal, key=canonical.canonical_move))

    return choose


class PlayError(RuntimeError):
    """The engine failed while a game was being played for a record."""


def play_game(
    engine: Engine,
    ruleset: str | dict[str, Any],
    players: int,
    deal: dict[str, Any],
    choose: Chooser,
    *,
    max_moves: int = 5000,
    **record_fields: Any,
) -> dict[str, Any]:
    """Play one game on ``engine`` with the policy ``choose`` and return its record.

    A game still going after ``max_moves`` (R-END-5: random play need not end) is recorded with
    ``result: null``. An engine error raises :class:`PlayError`.
    """
    state = engine.new_game(
        ruleset,
        players,
        seed=deal.get("seed"),
        deck=deal.get("deck"),
        dealer=deal.get("dealer"),
        previous=deal.get("previous"),
    )
    if isinstance(state, ErrorResult):
        raise PlayError(f"new_game: {state}")
    moves: list[dict[str, Any]] = []
    while len(moves) < max_moves:
        legal = engine.legal_moves(state)
        if isinstance(legal, ErrorResult):
            raise PlayError(f"legal_moves after {len(moves)} moves: {legal}")
        if not legal:
            break
        move = choose(state, legal)
        after = engine.apply(state, move)
        if isinstance(after, ErrorResult):
            raise PlayError(f"apply of move {len(moves)} {canonical.canonical_move(move)}: {after}")
        moves.append(move)
        state = after
    return make_record(ruleset, players, deal, moves, state.get("result"), **record_fields)
