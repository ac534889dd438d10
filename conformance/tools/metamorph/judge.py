"""The reference engine as judge of a metamorphic break: which of the two answers breaks the rules.

A :class:`~conformance.tools.metamorph.checks.Break` says that the engine under test answered a
position ``P`` and its image ``T(P)`` in ways that do not transform alike, so at least one of the
two answers is wrong; it does not say which. The fixture schema has no case made of two positions,
so a finding is written as an ordinary one-position fixture: each side (``P``, then ``T(P)``) is
asked of the reference engine, and a side where the engine's answer differs from the reference's
becomes a finding with the reference's answer as the expected value, built by the same functions
as a fuzz finding (:mod:`conformance.tools.fuzz.compare`). The engine's answer at the other
position is never used as an expected value; it only appears in the description.

When neither side differs from the reference, the reference engine's own answers do not
transform alike: a bug of the reference or of the transformation, reported as a reference
problem rather than blamed on the engine under test.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields
from typing import Any

from conformance.contract import canonical
from conformance.engines.base import Engine, ErrorResult
from conformance.tools.findings import Finding, diff_paths, value_at
from conformance.tools.fuzz.compare import (
    Position,
    compare_legal,
    compare_next,
    compare_refusal,
)
from conformance.tools.fuzz.planning import GamePlan
from conformance.tools.metamorph.checks import Break, Query

#: Which side of a break a finding is at, in the words of its description.
SIDES = ("original", "image")

#: The rules an observation field shows (R-INFO-*), by its first pointer part.
OBSERVE_RULES = {"discard": "R-INFO-2", "players": "R-INFO-3"}


@dataclass
class MetamorphFinding(Finding):
    """A finding of a metamorphic break: named ``metamorph-<kind>-<aspect>-<digest>``."""

    def case_id(self) -> str:
        digest = hashlib.sha1(
            canonical.dumps(
                {"ruleset": self.ruleset, "start": self.start, "steps": self.steps}
            ).encode()
        ).hexdigest()[:10]
        transform = self.context.get("transform_kind", "t")
        return f"metamorph-{transform}-{self.kind}-{digest}"


@dataclass(frozen=True)
class Verdict:
    """The findings a break gives (one per side whose answer the reference contradicts), or the
    reference problem when it contradicts neither."""

    findings: list[MetamorphFinding]
    reference_problem: str | None = None


def judge(reference: Engine, plan: GamePlan, depth: int, found: Break) -> Verdict:
    """Ask ``reference`` both questions of ``found`` and keep the sides it contradicts."""
    out: list[MetamorphFinding] = []
    sides = ((found.original, found.answer), (found.image, found.image_answer))
    for side, (query, answer) in zip(SIDES, sides, strict=True):
        at = Position(plan, depth, canonical.normalise_state(query.state))
        finding = _side(reference, at, query, answer)
        if isinstance(finding, str):
            return Verdict([], f"{side} position: {finding}")
        if finding is not None:
            out.append(_metamorph(finding, found, side))
    if out:
        return Verdict(out)
    return Verdict(
        [],
        f"the reference engine's answers do not transform alike either ({found.aspect} under "
        f"{found.transform.label}): {found.summary}",
    )


def _side(reference: Engine, at: Position, query: Query, answer: Any) -> Finding | str | None:
    """The finding at one side, None when the engine agrees with the reference there, or the
    text of a reference problem."""
    ref = query.ask(reference)
    if isinstance(ref, ErrorResult) and (ref.is_fault or query.op != "apply"):
        return f"the reference answered {query.op} with {ref}"
    if query.op == "legal_moves":
        return compare_legal(at, ref, answer, reference)
    if query.op == "observe":
        return compare_observation(at, query.seat or 0, ref, answer)
    move = query.move or {}
    if isinstance(ref, ErrorResult):
        return compare_refusal(at, move, ref, answer)
    return compare_next(at, move, ref, answer)


def compare_observation(at: Position, seat: int, ref: Any, cand: Any) -> Finding | None:
    """The engine's observation against the reference's: an ``observe`` step naming every field
    of the reference's observation the engine does not reproduce (``absent`` for fields only the
    engine shows)."""
    want = canonical.normalise_observation(ref)
    got = canonical.normalise_observation(cand) if isinstance(cand, dict) else cand
    if canonical.dumps(want) == canonical.dumps(got):
        return None
    paths = diff_paths(want, got)
    absent: list[str] = []
    if () in paths:  # extra top-level fields: name each of the reference's, and the extras
        paths = [(key,) for key in want]
        absent = [canonical.pointer((key,)) for key in sorted(set(got) - set(want))]
    expect = {canonical.pointer(p): value_at(want, p) for p in paths}
    step: dict[str, Any] = {"observe": {"player": seat}, "expect": expect}
    if absent:
        step["absent"] = absent
    shown = cand.to_json() if isinstance(cand, ErrorResult) else got
    step["note"] = _note(f"the engine under test answered {canonical.dumps(shown)}")
    rules = sorted({OBSERVE_RULES.get(str(p[0]), "R-INFO-1") if p else "R-INFO-1" for p in paths})
    shapes = sorted(
        {canonical.pointer(tuple("*" if isinstance(x, int) else x for x in p)) for p in paths}
    )
    plan = at.plan
    return Finding(
        kind="observe",
        signature="observe: " + ",".join(shapes),
        summary=f"what seat {seat} sees differs at " + ", ".join(list(expect)[:6]),
        ruleset=plan.ruleset,
        players=plan.players,
        start={"state": at.state},
        steps=[step],
        rules=rules,
        depth=at.depth,
        game=plan.index,
        context={"ruleset_name": plan.name},
        reference_answer=want,
        candidate_answer=shown,
    )


def _metamorph(finding: Finding, found: Break, side: str) -> MetamorphFinding:
    """The fuzz-style finding as a metamorphic one: its cause prefixed by the transformation's
    kind, its summary saying what did not transform alike."""
    values = {f.name: getattr(finding, f.name) for f in fields(Finding)}
    values["signature"] = f"{found.transform.kind}: {finding.signature}"
    values["summary"] = f"{finding.summary} (at the {side} position; {found.summary})"
    values["context"] = {
        **finding.context,
        "transform_kind": found.transform.kind,
        "transform": found.transform.label,
        "side": side,
        "aspect": found.aspect,
        "break": found.summary,
        "difference": finding.summary,
    }
    return MetamorphFinding(**values)


def _note(text: str, limit: int = 600) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
