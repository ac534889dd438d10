"""Judging two engines' answers at one position: each comparison gives a Finding or None.

Four things are compared, in the order a game meets them: the dealt states, the legal sets (as
sets of canonical moves; a move listed twice is a disagreement too), the refusal of a probe move
(same code, and for ``illegal_move`` the same rule), and the state after a move both list (in the
runner's canonical form, :func:`conformance.contract.canonical.normalise_state`).

A finding starts at the last state both engines agreed on and holds that one step with the
reference's answer as the expected value, so its fixture is minimal in depth. Its signature names
the cause, not the occurrence -- a broken invariant, the kind of state difference, the fault of an
operation -- so a campaign meeting one bug in many games keeps one fixture for it.

These functions only judge answers already obtained; asking the engines, and noticing a
reference engine that contradicts itself, is :mod:`conformance.tools.fuzz.play`'s job.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from conformance.contract import canonical
from conformance.engines.base import Engine, ErrorResult
from conformance.suite.invariants import state_problems
from conformance.tools.findings import (
    ACTION_RULES,
    DEAL_POINTER_RULES,
    MATCH_POINTER_RULES,
    Finding,
    diff_paths,
    pointer_rules,
    refusal_rules,
    state_rules,
    value_at,
)
from conformance.tools.fuzz.planning import GamePlan

#: The longest note a fixture step carries: the engine under test's answer can be a whole state.
NOTE_LIMIT = 600


@dataclass(frozen=True)
class Position:
    """Where a comparison is made: the game, the moves played so far, the state both agree on."""

    plan: GamePlan
    depth: int
    state: dict[str, Any]


def compare_deal(plan: GamePlan, ref_state: dict[str, Any], cand_state: Any) -> Finding | None:
    """The engine under test's ``new_game`` answer against the reference's dealt state."""
    ref_norm = canonical.normalise_state(ref_state)
    if isinstance(cand_state, dict):
        cand_norm = canonical.normalise_state(cand_state)
        if canonical.dumps(ref_norm) == canonical.dumps(cand_norm):
            return None
        paths = diff_paths(ref_norm, cand_norm)
        shapes = sorted({_shape(p) for p in paths})
        summary = "the dealt states differ at " + ", ".join(canonical.pointer(p) for p in paths[:8])
        signature = "deal: " + ",".join(shapes)
    else:
        paths = [("trump",), ("bout", "attacker"), ("bout", "defender")]
        summary = f"new_game answered {_answer_text(cand_state)}"
        signature = _fault_signature("new_game", cand_state) or f"deal: {_code(cand_state)}"
    start = {
        key: plan.deal[key] for key in ("deck", "seed", "dealer", "previous") if key in plan.deal
    }
    table = MATCH_POINTER_RULES if "previous" in start else DEAL_POINTER_RULES
    return _finding(
        Position(plan, 0, ref_state),
        kind="deal",
        signature=signature,
        summary=summary,
        start=start,
        steps=[{"expect": {canonical.pointer(p): value_at(ref_norm, p) for p in paths}}],
        rules=["R-DEAL-1"] + [r for r in pointer_rules(paths, table) if r != "R-DEAL-1"],
        reference_answer=ref_norm,
        candidate_answer=_shown(cand_state),
    )


def compare_legal(
    at: Position, ref_legal: list[dict[str, Any]], cand_legal: Any, reference: Engine
) -> Finding | None:
    """The legal sets; ``reference`` is asked why it refuses the moves only the other lists."""
    if not isinstance(cand_legal, list):
        summary = f"legal_moves answered {_answer_text(cand_legal)}"
        signature = _fault_signature("legal_moves", cand_legal) or f"legal: {_code(cand_legal)}"
        rules = _move_rules(ref_legal) if ref_legal else ["R-PLAY-2"]
        note = f"found when the engine under test answered {_answer_text(cand_legal)}"
        return _legal_finding(at, ref_legal, signature, summary, rules, note, _shown(cand_legal))
    want = {canonical.canonical_move(m): m for m in ref_legal}
    got = [canonical.canonical_move(m) for m in cand_legal]
    missing = [want[k] for k in sorted(set(want) - set(got))]
    extra = [json.loads(k) for k in sorted(set(got) - set(want))]
    twice = sorted({k for k in got if got.count(k) > 1})
    if not (missing or extra or twice):
        return None
    parts = []
    if missing:
        parts.append(f"misses {len(missing)} legal move(s) {_moves_text(missing)}")
    if extra:
        parts.append(f"lists {len(extra)} illegal move(s) {_moves_text(extra)}")
    if twice:
        parts.append(f"lists {len(twice)} move(s) twice")
    summary = "the engine under test " + "; ".join(parts)
    kinds = sorted(
        {f"{m['action']} missing" for m in missing if isinstance(m, dict)}
        | {f"{m.get('action')} extra" for m in extra if isinstance(m, dict)}
        | ({"listed twice"} if twice else set())
    )
    rules = refusal_rules(reference, at.state, [m for m in extra if isinstance(m, dict)])
    rules += [r for r in _move_rules([m for m in missing if isinstance(m, dict)]) if r not in rules]
    actual = {"missing": missing, "extra": extra, "twice": twice}
    return _legal_finding(
        at, ref_legal, "legal: " + ", ".join(kinds), summary, rules, summary, actual
    )


def _legal_finding(
    at: Position,
    ref_legal: list[dict[str, Any]],
    signature: str,
    summary: str,
    rules: list[str],
    note: str,
    actual: Any,
) -> Finding:
    return _finding(
        at,
        kind="legal",
        signature=signature,
        summary=summary,
        steps=[{"legal": list(ref_legal), "note": _note(note)}],
        rules=rules,
        reference_answer=list(ref_legal),
        candidate_answer=actual,
    )


def compare_refusal(
    at: Position, probe: dict[str, Any], ref: ErrorResult, cand: Any
) -> Finding | None:
    """A probe the reference refused (``ref``, not a fault): the other must refuse it with the
    same code, and for ``illegal_move`` name the same rule."""
    same = isinstance(cand, ErrorResult) and cand.code == ref.code
    if same and not cand.is_fault and (ref.code != "illegal_move" or cand.rule == ref.rule):
        return None
    want = ref.code + (f" {ref.rule}" if ref.rule else "")
    if isinstance(cand, ErrorResult) and not cand.is_fault:
        got = "refused with " + cand.code + (f" {cand.rule}" if cand.rule else "")
    elif isinstance(cand, ErrorResult):
        got = f"failed: {cand}"
    else:
        got = "accepted it"
    step: dict[str, Any] = {"refuse": probe}
    if ref.rule:
        step["rule"] = ref.rule
    if ref.code != "illegal_move" or not ref.rule:
        step["code"] = ref.code
    step["note"] = _note(f"the engine under test {got}")
    short = got if not isinstance(cand, ErrorResult) or not cand.is_fault else cand.code
    return _finding(
        at,
        kind="refuse",
        signature=_fault_signature("apply", cand) or f"refuse: {probe['action']} {want} -> {short}",
        summary=f"{canonical.canonical_move(probe)}: the reference refuses it ({want}), "
        f"the engine under test {got}",
        steps=[step],
        rules=[ref.rule] if ref.rule else ["R-PLAY-5"],
        reference_answer=ref.to_json(),
        candidate_answer=_shown(cand),
    )


def compare_next(
    at: Position, move: dict[str, Any], ref_next: dict[str, Any], cand_next: Any
) -> Finding | None:
    """The states after a move both engines list (or the other's refusal of it)."""
    action_rules = _move_rules([move])
    move_text = canonical.canonical_move(move)
    if isinstance(cand_next, ErrorResult) or not isinstance(cand_next, dict):
        answered = _answer_text(cand_next)
        return _finding(
            at,
            kind="move",
            signature=_fault_signature("apply", cand_next)
            or f"move: {move['action']} {_code(cand_next)}",
            summary=f"{move_text}: listed by both, but apply answered {answered}",
            steps=[{"move": move, "note": _note(f"the engine under test answered {answered}")}],
            rules=action_rules,
            reference_answer="accepted",
            candidate_answer=_shown(cand_next),
        )
    ref_norm = canonical.normalise_state(ref_next)
    cand_norm = canonical.normalise_state(cand_next)
    if canonical.dumps(ref_norm) == canonical.dumps(cand_norm):
        return None
    paths = diff_paths(ref_norm, cand_norm)
    expect = {canonical.pointer(p): value_at(ref_norm, p) for p in paths}
    got = {canonical.pointer(p): _value_or_missing(cand_norm, p) for p in paths}
    shapes = sorted({_shape(p) for p in paths})
    invariants = sorted({problem.rule for problem in state_problems(cand_next)})
    broken = state_rules(at.state, ref_norm, cand_next, paths)
    # a broken invariant is the root cause whatever move showed it; else where and how
    signature = (
        "state: breaks " + ", ".join(invariants)
        if invariants
        else f"state: {move['action']} {','.join(shapes)}"
    )
    note = _note(f"the engine under test has {canonical.dumps(got)}")
    return _finding(
        at,
        kind="state",
        signature=signature,
        summary=f"after {move_text} the states differ at " + ", ".join(list(expect)[:8]),
        steps=[{"move": move}, {"expect": expect, "note": note}],
        rules=broken + [r for r in action_rules if r not in broken],
        reference_answer=expect,
        candidate_answer=got,
    )


def shared_moves(ref_legal: list[dict[str, Any]], cand_legal: Any) -> list[dict[str, Any]]:
    """The reference's legal moves the engine under test lists too, in canonical order: the game
    goes on with one of them, so one bug is not met again as another."""
    if not isinstance(cand_legal, list):
        return []
    theirs = {canonical.canonical_move(m) for m in cand_legal if isinstance(m, dict)}
    ordered = sorted(ref_legal, key=canonical.canonical_move)
    return [m for m in ordered if canonical.canonical_move(m) in theirs]


# ---------------------------------------------------------------------------------- pieces


def _finding(at: Position, *, start: dict[str, Any] | None = None, **fields: Any) -> Finding:
    """A finding at ``at``; its fixture starts from the agreed state unless ``start`` says."""
    plan = at.plan
    return Finding(
        ruleset=plan.ruleset,
        players=plan.players,
        game=plan.index,
        depth=at.depth,
        start={"state": at.state} if start is None else start,
        context={"ruleset_name": plan.name},
        **fields,
    )


def _move_rules(moves: list[dict[str, Any]]) -> list[str]:
    rules: list[str] = []
    for move in moves:
        for rule in ACTION_RULES.get(move.get("action"), ()):  # type: ignore[arg-type]
            if rule not in rules:
                rules.append(rule)
    return rules or ["R-PLAY-1"]


def _answer_text(answer: Any) -> str:
    if isinstance(answer, ErrorResult):
        return str(answer)
    return f"a {type(answer).__name__}"


def _fault_signature(op: str, answer: Any) -> str | None:
    """One signature per misbehaviour and operation, whatever the move: a crashing engine gives
    one finding, not one per action it crashed on."""
    if isinstance(answer, ErrorResult) and answer.is_fault:
        return f"fault: {op} {answer.code}"
    return None


def _code(answer: Any) -> str:
    return answer.code if isinstance(answer, ErrorResult) else f"non-{type(answer).__name__}"


def _shown(answer: Any) -> Any:
    if isinstance(answer, ErrorResult):
        return answer.to_json()
    if isinstance(answer, dict) and "version" in answer:
        return canonical.normalise_state(answer)
    return answer


def _note(text: str) -> str:
    return text if len(text) <= NOTE_LIMIT else text[: NOTE_LIMIT - 3] + "..."


def _shape(path: tuple) -> str:
    return canonical.pointer(tuple("*" if isinstance(p, int) else p for p in path))


def _value_or_missing(document: Any, path: tuple) -> Any:
    value, _ = canonical.resolve(document, canonical.pointer(path))
    return repr(value) if value is canonical.MISSING else value


def _moves_text(moves: list[Any], limit: int = 4) -> str:
    shown = [canonical.canonical_move(m) for m in moves[:limit]]
    more = f" and {len(moves) - limit} more" if len(moves) > limit else ""
    return ", ".join(shown) + more
