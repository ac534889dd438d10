"""Perft for Durak: count move sequences from a position, through any :class:`Engine`.

The counting definition is normative in ``spec/perft.md``; in short, for a state ``s``:

- ``perft(s, 0) = 1``;
- ``perft(s, d) = sum(perft(apply(s, m), d - 1) for m in legal_moves(s))`` for ``d >= 1``, where
  ``legal_moves`` is the set of legal moves of *all* players (R-PLAY-1);
- a finished game has no legal move (R-PLAY-2), so it counts 1 at depth 0 and 0 at any depth beyond:
  perft counts the move sequences of length exactly ``d``, like chess perft counts leaf nodes.

``divide`` gives the count under each first move, to find where two engines part: compare the two
divides, descend into the first move whose counts differ, repeat.

A perft run is also a check of the engine: a move listed twice, a listed move that ``apply``
refuses, or an error answer stops the count with a :class:`PerftError` that gives the move path from
the root, so the failing position can be rebuilt.

Perft positions are YAML data in ``conformance/perft/*.yaml`` (format in ``spec/perft.md``). The
runner's CLI wires ``durak-conformance perft`` to :func:`add_cli_arguments` and :func:`run_cli`;
``python -m conformance.tools.perft`` runs them against the in-process reference engine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from conformance.contract import canonical as canonical_text
from conformance.contract.canonical import canonical_move
from conformance.engines.base import Engine, ErrorResult, InProcessEngine
from conformance.engines.gating import HelloError, Support
from conformance.suite import POSITIONS_DIR
from conformance.suite.applicability import Applicability, decide, substitute

__all__ = [
    "DivideEntry",
    "PerftError",
    "PerftPosition",
    "PositionResult",
    "PositionsError",
    "add_cli_arguments",
    "divide",
    "format_results",
    "load_positions",
    "perft",
    "run_cli",
    "run_positions",
    "start_state",
]


class PerftError(Exception):
    """The engine misbehaved during a count. ``path`` is the list of moves from the root."""

    def __init__(self, message: str, path: Sequence[dict[str, Any]], error: Any = None):
        where = " -> ".join(canonical_move(m) for m in path) or "(the root position)"
        super().__init__(f"{message}; after moves: {where}")
        self.path = list(path)
        self.error = error


@dataclass
class _Counter:
    """One count's engine access, transposition table and node statistics."""

    engine: Engine
    transpositions: bool
    table: dict[tuple[str, int], int] = field(default_factory=dict)
    calls: int = 0

    def moves(self, state: dict[str, Any], path: list[dict[str, Any]]) -> list[dict[str, Any]]:
        self.calls += 1
        answer = self.engine.legal_moves(state)
        if isinstance(answer, ErrorResult):
            raise PerftError(f"legal_moves answered {answer}", path, answer)
        if not isinstance(answer, list) or not all(isinstance(m, dict) for m in answer):
            raise PerftError("legal_moves did not answer a list of move objects", path, answer)
        seen: set[str] = set()
        for move in answer:
            key = canonical_move(move)
            if key in seen:
                raise PerftError(f"legal_moves lists the move {key} twice", path)
            seen.add(key)
        return answer

    def child(
        self, state: dict[str, Any], move: dict[str, Any], path: list[dict[str, Any]]
    ) -> dict[str, Any]:
        self.calls += 1
        answer = self.engine.apply(state, move)
        if isinstance(answer, ErrorResult):
            raise PerftError(
                f"apply refused the move {canonical_move(move)} that legal_moves listed: {answer}",
                path,
                answer,
            )
        if not isinstance(answer, dict):
            raise PerftError("apply did not answer a state object", path, answer)
        return answer

    def count(self, state: dict[str, Any], depth: int, path: list[dict[str, Any]]) -> int:
        if depth == 0:
            return 1
        key = (canonical_text.dumps(state), depth) if self.transpositions else None
        if key is not None and key in self.table:
            return self.table[key]
        moves = self.moves(state, path)
        if depth == 1:
            total = len(moves)  # each move leads to exactly one leaf at depth 0
        else:
            total = 0
            for move in moves:
                path.append(move)
                total += self.count(self.child(state, move, path[:-1]), depth - 1, path)
                path.pop()
        if key is not None:
            self.table[key] = total
        return total


def _check_depth(depth: int) -> None:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"perft depth must be an integer >= 0, got {depth!r}")


def perft(engine: Engine, state: dict[str, Any], depth: int, *, transpositions: bool = True) -> int:
    """The number of move sequences of length exactly ``depth`` from ``state``.

    ``transpositions`` caches counts by (canonical state, depth): exact, since the state holds
    everything that decides what follows (deck order included), and much faster because orders of
    play that reach the same state (beating two cards in either order) are counted once per depth.
    Turn it off to make every node ask the engine, e.g. to test an engine's determinism.
    """
    _check_depth(depth)
    return _Counter(engine, transpositions).count(state, depth, [])


@dataclass(frozen=True)
class DivideEntry:
    """One first move and the number of sequences of the remaining depth after it."""

    move: dict[str, Any]
    count: int

    @property
    def key(self) -> str:
        return canonical_move(self.move)


def divide(
    engine: Engine, state: dict[str, Any], depth: int, *, transpositions: bool = True
) -> list[DivideEntry]:
    """Perft split by first move: ``perft(apply(state, m), depth - 1)`` for every legal ``m``.

    Entries are sorted by the move's canonical JSON so two engines' divides line up. The counts sum
    to ``perft(state, depth)``. ``depth`` must be at least 1.
    """
    _check_depth(depth)
    if depth < 1:
        raise ValueError("divide needs depth >= 1 (there is no first move at depth 0)")
    counter = _Counter(engine, transpositions)
    entries = []
    for move in counter.moves(state, []):
        child = counter.child(state, move, [])
        entries.append(DivideEntry(move, counter.count(child, depth - 1, [move])))
    return sorted(entries, key=lambda e: e.key)


# --------------------------------------------------------------------------- positions (YAML)


class PositionsError(ValueError):
    """A perft positions file is malformed (the message names the file and the entry)."""


@dataclass(frozen=True)
class PerftPosition:
    """A named position with its expected counts (``counts[depth] = perft``)."""

    id: str
    description: str
    ruleset: Any
    players: int
    start: dict[str, Any]
    counts: dict[int, int]
    source: str = ""
    divide: dict[int, dict[str, int]] = field(default_factory=dict)

    def depths(self, max_depth: int | None = None, max_nodes: int | None = None) -> list[int]:
        """The depths to check within the budgets (a count above ``max_nodes`` is skipped)."""
        return [
            d
            for d in sorted(self.counts)
            if (max_depth is None or d <= max_depth)
            and (max_nodes is None or self.counts[d] <= max_nodes)
        ]


_POSITION_KEYS = {"id", "description", "ruleset", "players", "start", "perft", "divide"}


def _position(raw: Any, where: str) -> PerftPosition:
    if not isinstance(raw, dict):
        raise PositionsError(f"{where}: a position must be a mapping, got {type(raw).__name__}")
    unknown = set(raw) - _POSITION_KEYS
    if unknown:
        raise PositionsError(
            f"{where}: unknown key(s) {sorted(unknown)}; allowed: {sorted(_POSITION_KEYS)}"
        )
    for key in ("id", "description", "ruleset", "players", "start", "perft"):
        if key not in raw:
            raise PositionsError(f"{where}: missing key {key!r}")
    pid = raw["id"]
    if not isinstance(pid, str) or not pid or not all(c.isalnum() or c == "-" for c in pid):
        raise PositionsError(f"{where}: id must be a non-empty string of [a-z0-9-], got {pid!r}")
    where = f"{where} ({pid})"
    start = raw["start"]
    if not isinstance(start, dict) or not (("state" in start) ^ ("deck" in start)):
        raise PositionsError(
            f"{where}: start must hold exactly one of 'state' (a full state) or 'deck' "
            "(a deck order, with an optional 'dealer')"
        )
    counts = raw["perft"]
    if not isinstance(counts, dict) or not counts:
        raise PositionsError(f"{where}: perft must map depths to counts, e.g. {{1: 5, 2: 17}}")
    parsed: dict[int, int] = {}
    for depth, count in counts.items():
        if not (isinstance(depth, int) and depth >= 0 and isinstance(count, int) and count >= 0):
            raise PositionsError(
                f"{where}: perft entry {depth!r}: {count!r} is not depth (int >= 0): count (int)"
            )
        parsed[depth] = count
    div = raw.get("divide", {}) or {}
    if not isinstance(div, dict):
        raise PositionsError(f"{where}: divide must map depths to {{move JSON: count}}")
    divides: dict[int, dict[str, int]] = {}
    for depth, table in div.items():
        if not isinstance(depth, int) or not isinstance(table, dict):
            raise PositionsError(f"{where}: divide[{depth!r}] must map moves to counts")
        divides[depth] = {
            canonical_move(json.loads(m) if isinstance(m, str) else m): c for m, c in table.items()
        }
        if depth in parsed and sum(divides[depth].values()) != parsed[depth]:
            raise PositionsError(
                f"{where}: divide[{depth}] sums to {sum(divides[depth].values())}, "
                f"perft[{depth}] is {parsed[depth]}"
            )
    players = raw["players"]
    if not isinstance(players, int) or not 2 <= players <= 8:
        raise PositionsError(f"{where}: players must be 2..8, got {players!r}")
    return PerftPosition(
        id=pid,
        description=str(raw["description"]),
        ruleset=raw["ruleset"],
        players=players,
        start=start,
        counts=parsed,
        source=where,
        divide=divides,
    )


def load_positions(paths: Iterable[Path | str] | None = None) -> list[PerftPosition]:
    """Read perft positions from YAML files (default: every ``conformance/perft/*.yaml``).

    A file holds ``positions:``, a list of positions. Ids must be unique across all files.
    """
    files = sorted(POSITIONS_DIR.glob("*.yaml")) if paths is None else [Path(p) for p in paths]
    positions: list[PerftPosition] = []
    seen: dict[str, str] = {}
    for path in files:
        try:
            doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise PositionsError(f"{path}: not valid YAML: {exc}") from exc
        if not isinstance(doc, dict) or not isinstance(doc.get("positions"), list):
            raise PositionsError(f"{path}: expected a mapping with a 'positions' list")
        for index, raw in enumerate(doc["positions"]):
            pos = _position(raw, f"{path}: positions[{index}]")
            if pos.id in seen:
                raise PositionsError(f"{pos.source}: id {pos.id!r} already used in {seen[pos.id]}")
            seen[pos.id] = pos.source
            positions.append(pos)
    return positions


def start_state(engine: Engine, position: PerftPosition) -> dict[str, Any] | ErrorResult:
    """The position's state, as the engine builds it.

    A deal (``start: {deck, dealer}``) goes through ``new_game``. A full state takes its ruleset
    from the engine's ``new_game`` for the position's ruleset and player count (so presets expand
    to every option exactly as the engine under test expands them); the rest of the state is used as
    written. An engine that does not support the ruleset answers an ``ErrorResult``.
    """
    start = position.start
    if "deck" in start:
        return engine.new_game(
            position.ruleset, position.players, deck=list(start["deck"]), dealer=start.get("dealer")
        )
    probe = engine.new_game(position.ruleset, position.players, seed=0)
    if isinstance(probe, ErrorResult):
        return probe
    state = json.loads(json.dumps(start["state"]))
    state["ruleset"] = probe["ruleset"]
    return state


@dataclass
class PositionResult:
    """What happened to one position: per depth, the expected and the counted figure."""

    position: PerftPosition
    checked: dict[int, tuple[int, int]] = field(default_factory=dict)  # depth -> (expected, got)
    error: str | None = None
    unsupported: str | None = None
    seconds: float = 0.0
    #: at the shallowest mismatch, where the engine first parts from the reference
    descent: Descent | None = None
    #: the gate's answer (conformance.suite.applicability): what was substituted, or what blocks it
    applicability: Applicability | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and all(e == g for e, g in self.checked.values())

    def mismatches(self) -> list[int]:
        return [d for d, (e, g) in sorted(self.checked.items()) if e != g]


@dataclass
class Descent:
    """Where an engine's perft first parts from the reference's: the moves from the start
    (``path``), then what differs there: the legal set (``extra``, ``missing``) or the state a
    move leads to (``state_pointers``), and the rules that decide it."""

    path: list[dict[str, Any]]
    extra: list[dict[str, Any]] = field(default_factory=list)
    missing: list[dict[str, Any]] = field(default_factory=list)
    state_pointers: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)

    def text(self) -> str:
        where = " ".join(canonical_move(m) for m in self.path) or "the start"
        parts = []
        if self.extra:
            parts.append("lists " + ", ".join(canonical_move(m) for m in self.extra))
        if self.missing:
            parts.append("misses " + ", ".join(canonical_move(m) for m in self.missing))
        if self.state_pointers:
            parts.append("reaches another state (" + ", ".join(self.state_pointers[:6]) + ")")
        return f"after {where}: the engine {'; '.join(parts)} ({', '.join(self.rules)})"


def descend(
    engine: Engine, reference: Engine, state: dict[str, Any], depth: int
) -> Descent | None:
    """Follow the divides of both engines down to the first node where they part: the first
    child whose count differs, again and again, until the legal sets or the next states differ.
    None when the counts agree. The rules come from the reference (what it refuses an extra move
    by; the rules of a missing move's action; the rules of a differing state's fields)."""
    from conformance.tools.findings import (
        ACTION_RULES,
        diff_paths,
        pointer_of,
        refusal_rules,
        state_rules,
    )

    path: list[dict[str, Any]] = []
    while depth >= 1:
        ours = {e.key: e for e in divide(engine, state, depth)}
        theirs = {e.key: e for e in divide(reference, state, depth)}
        if set(ours) != set(theirs):
            extra = [ours[k].move for k in sorted(set(ours) - set(theirs))]
            missing = [theirs[k].move for k in sorted(set(theirs) - set(ours))]
            rules = refusal_rules(reference, state, extra)
            for move in missing:
                rules += [r for r in ACTION_RULES.get(move["action"], ()) if r not in rules]
            return Descent(path, extra=extra, missing=missing, rules=rules)
        parted = [k for k in sorted(theirs) if theirs[k].count != ours[k].count]
        if not parted:
            return None
        move = theirs[parted[0]].move
        want, got = reference.apply(state, move), engine.apply(state, move)
        if isinstance(want, ErrorResult):
            return None
        if not isinstance(got, dict) or json.dumps(want, sort_keys=True) != json.dumps(
            got, sort_keys=True
        ):
            want_n = canonical_text.normalise_state(want)
            got_n = canonical_text.normalise_state(got) if isinstance(got, dict) else got
            paths = diff_paths(want_n, got_n)
            if paths:
                pointers = [pointer_of(p) for p in paths]
                rules = state_rules(state, want_n, got_n, paths)
                return Descent([*path, move], state_pointers=pointers, rules=rules)
        path.append(move)
        state, depth = want, depth - 1
    return None


#: With a substituted ruleset, only depths whose expected count is at most this are checked:
#: the reference engine must confirm each of them under the substitution first.
GATE_MAX_NODES = 20_000


def position_applicability(
    position: PerftPosition, support: Support, depths: list[int]
) -> tuple[Applicability, list[int]]:
    """The one gate (:mod:`conformance.suite.applicability`) for a perft position, and the depths to
    check: all of ``depths`` when nothing is substituted, else the small ones at which the
    reference engine counts the expected figures under the substitution."""
    from reference_impl import rulesets

    if support.gates_nothing:
        return Applicability(True), depths
    options = rulesets.resolve_ruleset(position.ruleset)["options"]
    small = [d for d in depths if position.counts[d] <= GATE_MAX_NODES]
    reference = InProcessEngine()

    def holds(substitution: dict[str, Any]) -> bool:
        trial = _substituted(position, substitution)
        state = start_state(reference, trial)
        if isinstance(state, ErrorResult) or not small:
            return False
        return all(perft(reference, state, d) == position.counts[d] for d in small)

    deal = position.start if "deck" in position.start else {}
    applicability = decide(
        options,
        position.players,
        support,
        holds,
        catalog=rulesets.catalog_options(),
        defaults=rulesets.default_options(),
        needs=support.declined(position.players, deal),
    )
    return applicability, (small if applicability.substituted else depths)


def _substituted(position: PerftPosition, substitution: dict[str, Any]) -> PerftPosition:
    from dataclasses import replace

    return replace(position, ruleset=substitute(position.ruleset, substitution))


def run_positions(
    engine: Engine,
    positions: Iterable[PerftPosition] | None = None,
    *,
    max_depth: int | None = None,
    max_nodes: int | None = None,
    transpositions: bool = True,
    support: Support | None = None,
) -> list[PositionResult]:
    """Count every position at every expected depth within the budgets and compare. With
    ``support`` (the engine's claims) each position is gated like a case."""
    results = []
    for position in load_positions() if positions is None else positions:
        result = PositionResult(position)
        began = time.perf_counter()
        depths = position.depths(max_depth, max_nodes)
        if support is not None:
            applicability, depths = position_applicability(position, support, depths)
            result.applicability = applicability
            if not applicability.runs:
                result.unsupported = applicability.reason
                result.seconds = time.perf_counter() - began
                results.append(result)
                continue
            position = _substituted(position, applicability.substituted)
        state = start_state(engine, position)
        if isinstance(state, ErrorResult):
            if state.code == "unsupported":
                result.unsupported = str(state)
            else:
                result.error = f"could not build the start state: {state}"
        else:
            try:
                for depth in depths:
                    got = perft(engine, state, depth, transpositions=transpositions)
                    result.checked[depth] = (position.counts[depth], got)
                    if got != position.counts[depth] and result.descent is None:
                        result.descent = descend(engine, InProcessEngine(), state, depth)
            except PerftError as exc:
                result.error = str(exc)
        result.seconds = time.perf_counter() - began
        results.append(result)
    return results


def format_results(results: Sequence[PositionResult]) -> str:
    """A terminal summary: one line per position, then the mismatches in detail."""
    lines = []
    for r in results:
        if r.unsupported:
            status = "UNSUPPORTED"
        elif r.error:
            status = "ERROR"
        elif not r.checked:
            status = "SKIPPED"
        else:
            status = "ok" if r.ok else "FAIL"
        depths = ",".join(str(d) for d in sorted(r.checked)) or "-"
        lines.append(f"{status:11} {r.position.id}  depths {depths}  {r.seconds:.2f}s")
        if r.unsupported:
            lines.append(f"    {r.unsupported}")
        elif r.applicability is not None and r.applicability.substituted:
            shown = ", ".join(f"{k}={v}" for k, v in r.applicability.substituted.items())
            lines.append(f"    run with {shown} (not claimed values cannot change these counts)")
        if r.error:
            lines.append(f"    {r.error}")
        for d in r.mismatches():
            expected, got = r.checked[d]
            lines.append(f"    perft({d}) expected {expected}, engine counted {got}")
        if r.descent is not None:
            lines.append(f"    first divergence {r.descent.text()}")
    bad = sum(1 for r in results if r.error or not r.ok)
    gated = sum(1 for r in results if r.unsupported)
    checked = sum(1 for r in results if r.checked)
    lines.append(
        f"{len(results)} positions: {checked} checked, {bad} failing, {gated} unsupported"
    )
    if results and not checked:
        lines.append("WARNING: no position was checked; nothing was verified")
    return "\n".join(lines)


# --------------------------------------------------------------------------- command line


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``perft`` subcommand's own arguments (the runner adds how to reach the engine)."""
    parser.add_argument(
        "files", nargs="*", type=Path, help="positions files (default: the suite's own)"
    )
    parser.add_argument("--id", action="append", default=[], help="only this position (repeat)")
    parser.add_argument("--max-depth", type=int, default=None, help="deepest depth to check")
    parser.add_argument(
        "--max-nodes", type=int, default=None, help="skip depths whose count exceeds this"
    )
    parser.add_argument(
        "--divide", type=int, metavar="DEPTH", help="print the divide of the --id position"
    )
    parser.add_argument(
        "--no-transpositions", action="store_true", help="ask the engine at every node"
    )


def run_cli(engine: Engine, args: argparse.Namespace, out: Any = None) -> int:
    """Run the ``perft`` subcommand against ``engine``; 0 when every checked count matches."""
    out = out or sys.stdout
    try:
        positions = load_positions(args.files or None)
    except PositionsError as exc:
        print(f"error: {exc}", file=out)
        return 2
    if args.id:
        wanted = set(args.id)
        unknown = wanted - {p.id for p in positions}
        if unknown:
            print(f"error: no position with id {sorted(unknown)}", file=out)
            return 2
        positions = [p for p in positions if p.id in wanted]
    trans = not args.no_transpositions
    if args.divide is not None:
        if len(positions) != 1:
            print("error: --divide needs exactly one position (--id)", file=out)
            return 2
        state = start_state(engine, positions[0])
        if isinstance(state, ErrorResult):
            print(f"error: {state}", file=out)
            return 1
        try:
            entries = divide(engine, state, args.divide, transpositions=trans)
        except PerftError as exc:
            print(f"error: {exc}", file=out)
            return 1
        for entry in entries:
            print(f"{entry.key}: {entry.count}", file=out)
        print(f"total: {sum(e.count for e in entries)}", file=out)
        return 0
    hello = engine.hello()
    try:
        support = Support.from_hello(hello)
    except HelloError as exc:
        print(f"error: the engine's hello is unusable: {exc}", file=out)
        return 2
    results = run_positions(
        engine,
        positions,
        max_depth=args.max_depth,
        max_nodes=args.max_nodes,
        transpositions=trans,
        support=support,
    )
    print(format_results(results), file=out)
    if not all(r.ok or r.unsupported for r in results):
        return 1
    return 0 if any(r.checked for r in results) else 3


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m conformance.tools.perft``: the suite's positions against the reference engine."""
    from conformance.engines.base import InProcessEngine

    parser = argparse.ArgumentParser(prog="python -m conformance.tools.perft", description=__doc__)
    add_cli_arguments(parser)
    args = parser.parse_args(argv)
    with InProcessEngine() as engine:
        return run_cli(engine, args)


if __name__ == "__main__":
    raise SystemExit(main())
