"""Game records (like PGN for chess): write them from played games, read them, replay them.

A record (``spec/schema/record.schema.json``) is one JSON document: the ruleset, the number of
players, the deal (deck order or seed, dealer, the previous game of a match), every move in order,
and the result. :func:`replay` plays a record on any :class:`~conformance.engines.base.Engine`: each
move must be in the engine's legal set and accepted by ``apply``, and the state after the last move
must carry the recorded result. The first divergence is reported with its move index (the JSON
pointer ``/moves/<i>`` into the record), the state before it, and what was expected against what
the engine answered, so a regression can be pinned to one position.

Reading is strict: a record that is not JSON, breaks the schema or names an unknown ruleset is a
:class:`RecordError` naming the file and the JSON pointer (or line) of the first problem.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from conformance.contract import canonical
from conformance.contract.cards import deck as canonical_deck
from conformance.engines.base import Engine, ErrorResult, InProcessEngine
from conformance.suite import RECORDS_DIR
from conformance.suite.applicability import Applicability, decide, substitute

RECORD_VERSION = 1
SCHEMA_URL = "https://durak-conformance.example/schema/record.schema.json"

#: Seats a team layout is played by (R-TEAM-1).
TEAM_PLAYERS = {"2v2": 4, "3v3": 6, "2v2v2": 6}
MOVE_ACTIONS = ("attack", "throw_in", "beat", "take", "pass", "transfer", "show_trump")
RESULT_FIELDS = ("fool", "draw", "losing_team", "winners", "finishing_order", "epaulettes")
MOVE_ORDER = ("player", "action", "target", "card", "cards")

#: Outcomes of a replay. ``failed``: the record diverges (a move not legal, a wrong result);
#: ``error``: the engine misbehaved; ``unsupported``: outside the engine's hello claim;
#: ``broken``: the record file itself is bad.
OUTCOMES = ("passed", "failed", "error", "unsupported", "broken")


def max_players(deck_size: int, decks: int) -> int:
    """R-DECK-4: 2 <= N <= min(8, cards / 6)."""
    return min(8, deck_size * decks // 6)


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


def _pointer(parts: Iterable[Any]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


@cache
def _registry() -> Any:
    from referencing import Registry, Resource

    from reference_impl import specdata

    resources = []
    for name in ("record", "state", "ruleset", "move"):
        doc = json.loads(specdata.schema_path(name).read_text(encoding="utf-8"))
        resources.append((doc["$id"], Resource.from_contents(doc)))
    return Registry().with_resources(resources)


@cache
def _validator(ref: str = "") -> Any:
    """A validator of the record schema, or of one of its parts (``ref`` relative to it)."""
    from urllib.parse import urljoin

    import jsonschema

    registry = _registry()
    schema = {"$ref": urljoin(SCHEMA_URL, ref)} if ref else registry.contents(SCHEMA_URL)
    return jsonschema.Draft202012Validator(schema, registry=registry)


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
            sub = _first_error(_validator(f"move.schema.json#/$defs/{action}"), node)
            if sub is not None:
                sub_path, text = _located(sub)
                return path + sub_path, f"a {action} move: {text}"
        if path == ["ruleset"]:
            if isinstance(node, dict):
                form = 1 if "preset" in node else 2 if "options" in node else None
                if form is None:
                    return path, "a ruleset object needs preset (with overrides) or options"
                sub = _first_error(_validator(f"#/$defs/ruleset/oneOf/{form}"), node)
                if sub is not None:
                    sub_path, text = _located(sub)
                    return path + sub_path, text
            elif isinstance(node, str):
                return path, f"{node!r} is not a preset name (lower-case letters, digits, - and _)"
            return path, "a ruleset is a preset name, {preset, overrides} or {name, options}"
        if path == ["deal"] and isinstance(node, dict):
            return path, "give exactly one of deck and seed"
        if path == ["result"] and isinstance(node, dict):
            sub = _first_error(_validator("state.schema.json#/$defs/result"), node)
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
        _validator().iter_errors(record), key=lambda e: list(map(str, e.absolute_path))
    ):
        where, message = _refined(error, record)
        pointer = _pointer(where) or "/"
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
        record = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise RecordError(
            path, f"line {exc.lineno} column {exc.colno}", f"not JSON: {exc.msg}"
        ) from None
    except ValueError as exc:
        raise RecordError(path, "", f"not a valid record: {exc}") from None
    if not isinstance(record, dict):
        raise RecordError(path, "/", f"a record is a JSON object, not a {type(record).__name__}")
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


def record_files(paths: Iterable[Path | str]) -> list[Path]:
    """The record files named: files as given, directories searched for ``*.json``."""
    out: list[Path] = []
    for item in paths:
        item = Path(item)
        if item.is_dir():
            out += sorted(p for p in item.rglob("*.json") if p.is_file())
        else:
            out.append(item)
    return out


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


# ---------------------------------------------------------------------------------- replaying


@dataclass
class ReplayResult:
    """What happened when a record was replayed on an engine.

    ``index`` is the move index (0-based, as in the pointer ``/moves/<index>``) of the first
    divergence; ``len(moves)`` when the moves all held and the result differs; None when the deal
    failed or nothing diverged. ``where`` says it as a pointer: ``/deal``, ``/moves/12``,
    ``/result``.
    """

    name: str
    outcome: str
    message: str = ""
    where: str | None = None
    index: int | None = None
    move: dict[str, Any] | None = None
    expected: Any = None
    actual: Any = None
    state_before: dict[str, Any] | None = None
    moves_played: int = 0
    moves_total: int = 0
    diagnostics: dict[str, Any] = field(default_factory=dict)
    #: the gate's answer (conformance.suite.applicability): values substituted, or what blocks it
    substituted: dict[str, Any] = field(default_factory=dict)
    blockers: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.outcome in ("passed", "unsupported")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "record": self.name,
            "outcome": self.outcome,
            "moves_played": self.moves_played,
            "moves_total": self.moves_total,
        }
        for key in ("message", "where", "index", "move", "expected", "actual", "state_before"):
            value = getattr(self, key)
            if value is not None and value != "":
                out[key] = value
        if self.diagnostics:
            out["diagnostics"] = self.diagnostics
        if self.substituted:
            out["substituted"] = dict(self.substituted)
        if self.blockers:
            out["blockers"] = list(self.blockers)
        return out


def replay(
    engine: Engine,
    record: dict[str, Any],
    *,
    name: str = "record",
    support: Any = None,
) -> ReplayResult:
    """Replay ``record`` (already checked, e.g. by :func:`load_record`) on ``engine``.

    ``support`` (a :class:`~conformance.engines.gating.Support`) gates the record: outside the engine's
    claim it is ``unsupported``, not failed.
    """
    moves = record["moves"]
    total = len(moves)
    substituted: dict[str, Any] = {}
    if support is not None:
        applicability = record_applicability(record, support)
        if not applicability.runs:
            return ReplayResult(
                name,
                "unsupported",
                applicability.reason or "not claimed in hello",
                moves_total=total,
                blockers=applicability.blockers,
            )
        substituted = applicability.substituted
        record = {**record, "ruleset": substitute(record["ruleset"], substituted)}
    result = _replay(engine, record, name, moves, total)
    result.substituted = dict(substituted)
    return result


def record_applicability(record: dict[str, Any], support: Any) -> Applicability:
    """Whether ``record`` runs on an engine claiming ``support`` (the one gate of
    :mod:`conformance.suite.applicability`): the reference engine must replay the record, moves and
    result, under the option values substituted for the unclaimed ones."""
    from reference_impl import rulesets

    options = rulesets.resolve_ruleset(record["ruleset"])["options"]

    def holds(substitution: dict[str, Any]) -> bool:
        trial = {**record, "ruleset": substitute(record["ruleset"], substitution)}
        return replay(InProcessEngine(), trial).outcome == "passed"

    return decide(
        options,
        record["players"],
        support,
        holds,
        catalog=rulesets.catalog_options(),
        defaults=rulesets.default_options(),
        needs=support.declined(record["players"], record["deal"]),
    )


def _replay(
    engine: Engine, record: dict[str, Any], name: str, moves: list[Any], total: int
) -> ReplayResult:
    """Deal the record's game on ``engine`` and check every move and the result."""
    deal = record["deal"]
    state = engine.new_game(
        record["ruleset"],
        record["players"],
        seed=deal.get("seed"),
        deck=deal.get("deck"),
        dealer=deal.get("dealer"),
        previous=deal.get("previous"),
    )
    if isinstance(state, ErrorResult) or not isinstance(state, dict):
        return _answer_failure(name, "/deal", None, None, None, state, "new_game", total, 0)
    for index, move in enumerate(moves):
        before = canonical.normalise_state(state)
        legal = engine.legal_moves(state)
        if isinstance(legal, ErrorResult) or not isinstance(legal, list):
            return _answer_failure(
                name, f"/moves/{index}", index, move, before, legal, "legal_moves", total, index
            )
        keys = {canonical.canonical_move(m) for m in legal}
        if canonical.canonical_move(move) not in keys:
            over = not legal
            return ReplayResult(
                name,
                "failed",
                f"move {index} ({canonical.canonical_move(move)}) is not legal: "
                + (
                    "the game is already over"
                    if over
                    else f"it is not in the engine's legal set of {len(legal)} move(s)"
                ),
                where=f"/moves/{index}",
                index=index,
                move=move,
                expected=move,
                actual={
                    "legal": sorted(legal, key=canonical.canonical_move),
                    "result": before.get("result"),
                },
                state_before=before,
                moves_played=index,
                moves_total=total,
            )
        after = engine.apply(state, move)
        if isinstance(after, ErrorResult) or not isinstance(after, dict):
            return _answer_failure(
                name, f"/moves/{index}", index, move, before, after, "apply", total, index
            )
        state = after
    final = canonical.normalise_state(state)
    got = final.get("result")
    want = record["result"]

    def wrong_result(message: str, actual: Any) -> ReplayResult:
        """Every move held but the end differs: the divergence is at ``/result``."""
        return ReplayResult(
            name,
            "failed",
            message,
            where="/result",
            index=total,
            expected=want,
            actual=actual,
            state_before=final,
            moves_played=total,
            moves_total=total,
        )

    if want is None:
        if got is not None:
            return wrong_result(
                "the record stops with the game still going (result null), but the engine ended "
                "the game",
                got,
            )
        return ReplayResult(name, "passed", moves_played=total, moves_total=total)
    if not isinstance(got, dict):
        legal = engine.legal_moves(state)
        return wrong_result(
            f"after all {total} moves the game is not over; the record says it ended",
            {"result": got, "legal": legal if isinstance(legal, list) else str(legal)},
        )
    differ = [key for key in RESULT_FIELDS if got.get(key, canonical.MISSING) != want.get(key)]
    if differ:
        return wrong_result(
            f"after all {total} moves the result differs in {', '.join(differ)}", got
        )
    return ReplayResult(name, "passed", moves_played=total, moves_total=total)


def _answer_failure(
    name: str,
    where: str,
    index: int | None,
    move: dict[str, Any] | None,
    before: dict[str, Any] | None,
    answer: Any,
    op: str,
    total: int,
    played: int,
) -> ReplayResult:
    """A result for an error (or malformed) answer where a good one was due."""
    at = "the deal" if index is None else f"move {index} ({canonical.canonical_move(move)})"
    if not isinstance(answer, ErrorResult):
        return ReplayResult(
            name,
            "failed",
            f"{at}: {op} answered a {type(answer).__name__}, not "
            + ("a list" if op == "legal_moves" else "a state"),
            where=where,
            index=index,
            move=move,
            actual=answer,
            state_before=before,
            moves_played=played,
            moves_total=total,
        )
    outcome = "error" if answer.is_fault else "failed"
    verb = "failed on" if answer.is_fault else "refused"
    return ReplayResult(
        name,
        outcome,
        f"{at}: the engine {verb} {op}: {answer}",
        where=where,
        index=index,
        move=move,
        expected="accepted" if op == "apply" else ("a state" if op == "new_game" else "moves"),
        actual=answer.to_json(),
        state_before=before,
        moves_played=played,
        moves_total=total,
        diagnostics=dict(answer.diagnostics),
    )


# ---------------------------------------------------------------------------------- showing


def describe_state(state: dict[str, Any] | None) -> list[str]:
    """A few lines a person reads faster than the state's JSON: roles, hands, table, talon."""
    if not isinstance(state, dict):
        return [repr(state)]
    lines = []
    bout = state.get("bout")
    talon = state.get("talon") or []
    if isinstance(bout, dict):
        roles = (
            f"bout {bout.get('number')}: attacker {bout.get('attacker')}, defender "
            f"{bout.get('defender')}, passed {bout.get('passed')}, taking {bout.get('taking')}"
        )
    else:
        roles = f"game over: {canonical.dumps(state.get('result'))}"
    lines.append(
        f"{roles}; trump {state.get('trump')}; talon {len(talon)}; "
        f"discard {len(state.get('discard') or [])}"
    )
    for seat, player in enumerate(state.get("players") or []):
        hand = " ".join(player.get("hand") or []) or "-"
        lines.append(f"seat {seat}: {hand}")
    table = state.get("table") or []
    if table:
        pairs = [
            f"{pair.get('attack')}/{pair.get('defence') or '-'}(by {pair.get('by')})"
            for pair in table
        ]
        lines.append("table: " + " ".join(pairs))
    if state.get("finished"):
        lines.append(f"finished: {state.get('finished')}")
    return lines


def format_result(result: ReplayResult, *, verbose: bool = False) -> str:
    """The report of one replay: one line when it passed, a block when it did not."""
    head = f"{result.outcome.upper():11} {result.name}"
    if result.outcome == "passed":
        return f"{head} ({result.moves_total} moves)"
    if result.outcome in ("unsupported", "broken"):
        return f"{head}: {result.message}"
    lines = [f"{head}", f"  at {result.where}: {result.message}"]
    if result.move is not None:
        lines.append(f"  move:     {canonical.canonical_move(result.move)}")
    if result.expected is not None and result.expected != result.move:
        lines.append(f"  expected: {canonical.dumps(result.expected)}")
    actual = result.actual
    if isinstance(actual, dict) and "legal" in actual and isinstance(actual["legal"], list):
        legal = actual["legal"]
        lines.append(f"  actual:   legal set of {len(legal)} move(s):")
        lines += [f"            {canonical.canonical_move(m)}" for m in legal[:40]]
        if len(legal) > 40:
            lines.append(f"            ... and {len(legal) - 40} more")
    elif actual is not None:
        lines.append(f"  actual:   {canonical.dumps(actual)}")
    if result.state_before is not None:
        label = "final state" if result.where == "/result" else "state before"
        lines.append(f"  {label} (after {result.moves_played} move(s)):")
        lines += ["    " + line for line in describe_state(result.state_before)]
        if verbose:
            lines.append("    " + canonical.dumps(result.state_before))
    if verbose and result.diagnostics:
        lines.append(f"  diagnostics: {canonical.dumps(result.diagnostics)}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------- CLI


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``replay`` subcommand's own arguments (the CLI adds how to reach the engine)."""
    parser.add_argument(
        "records",
        nargs="*",
        metavar="RECORD",
        help="record files (JSON) or directories of them (default: the packaged records)",
    )
    parser.add_argument("--json", metavar="PATH", help="write the results as a JSON list")
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="print the state before a divergence as JSON"
    )


def run_cli(engine: Engine, args: argparse.Namespace, out: Any = None) -> int:
    """Replay every record named in ``args``; 0 when all pass (or are unsupported), 1 when one
    diverges, is broken or meets an engine fault, 2 for a usage error."""
    from conformance.engines.gating import HelloError, Support

    out = out or sys.stdout
    paths = args.records or [str(RECORDS_DIR)]
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        print(f"durak-conformance replay: no such file or directory: {missing[0]}", file=sys.stderr)
        return 2
    files = record_files(paths)
    if not files:
        print("durak-conformance replay: no record (*.json) found", file=sys.stderr)
        return 2
    hello = engine.hello()
    if isinstance(hello, ErrorResult):
        print(f"durak-conformance replay: hello failed: {hello}", file=sys.stderr)
        return 2
    try:
        support = Support.from_hello(hello)
    except HelloError as exc:
        print(f"durak-conformance replay: {exc}", file=sys.stderr)
        return 2
    results: list[ReplayResult] = []
    for path in files:
        try:
            record = load_record(path)
        except RecordError as exc:
            where = f"at {exc.where}: " if exc.where else ""
            result = ReplayResult(str(path), "broken", where + exc.message)
        else:
            result = replay(engine, record, name=str(path), support=support)
        results.append(result)
        print(format_result(result, verbose=args.verbose), file=out)
    tally: dict[str, int] = {}
    for result in results:
        tally[result.outcome] = tally.get(result.outcome, 0) + 1
    engine_name = hello.get("engine", {}).get("name", "?")
    summary = ", ".join(f"{tally[o]} {o}" for o in OUTCOMES if o in tally)
    print(f"{len(results)} record(s) on {engine_name} ({engine.describe()}): {summary}", file=out)
    if args.json:
        Path(args.json).write_text(
            json.dumps([r.to_json() for r in results], indent=1) + "\n", encoding="utf-8"
        )
    return 0 if all(r.ok for r in results) else 1
