"""Checking perft positions against an engine: the expected counts, and where a count goes wrong.

:func:`run_positions` counts each position at each expected depth within the budgets
(``durak-conformance perft``), gated like every case on the engine's claims
(:mod:`conformance.suite.applicability`); at the shallowest wrong count :func:`descend` follows
both engines' divides down to the first position where the engine parts from the reference, and
names the rules that decide it. :func:`format_results` is the terminal summary.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from conformance.contract import canonical as canonical_text
from conformance.contract.canonical import canonical_move
from conformance.engines.base import Engine, ErrorResult, InProcessEngine
from conformance.engines.gating import Support
from conformance.suite.applicability import Applicability, decide, substitute
from conformance.tools.perft.count import PerftError, divide, perft
from conformance.tools.perft.positions import PerftPosition, load_positions, start_state


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


def descend(engine: Engine, reference: Engine, state: dict[str, Any], depth: int) -> Descent | None:
    """Follow the divides of both engines down to the first node where they part: the first
    child whose count differs, again and again, until the legal sets or the next states differ.
    None when the counts agree. The rules come from the reference (what it refuses an extra move
    by; the rules of a missing move's action; the rules of a differing state's fields)."""
    from conformance.tools.findings import (
        ACTION_RULES,
        diff_paths,
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
                pointers = [canonical_text.pointer(p) for p in paths]
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
    lines.append(f"{len(results)} positions: {checked} checked, {bad} failing, {gated} unsupported")
    if results and not checked:
        lines.append("WARNING: no position was checked; nothing was verified")
    return "\n".join(lines)
