"""The metamorphic comparisons at one position: the engine against itself, no expected values.

For a position ``P``, a transformation ``T`` (:mod:`conformance.tools.metamorph.transforms`) and
the engine under test ``E``, the rules require:

- ``legal(T(P)) == T(legal(P))``, as sets of canonical moves;
- ``apply(T(P), T(m)) == T(apply(P, m))`` for a move ``m`` that ``E`` lists, compared as
  normalised states;
- a refusal of a move ``q`` outside the legal set in ``P`` is a refusal of ``T(q)`` in ``T(P)``
  with the same code and, for ``illegal_move``, the same rule;
- ``observe(T(P), T(s)) == T(observe(P, s))``, compared as normalised observations.

Each function asks ``E`` both questions and answers None when the two answers transform alike,
or a :class:`Break` holding both questions and both answers. Which of the two answers breaks the
rules is not decided here: the reference engine judges that
(:mod:`conformance.tools.metamorph.judge`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conformance.contract import canonical
from conformance.engines.base import Engine, ErrorResult
from conformance.tools.findings import diff_paths
from conformance.tools.metamorph.transforms import Transform


@dataclass(frozen=True)
class Query:
    """One question to an engine: ``legal_moves`` (state), ``apply`` (state, move) or
    ``observe`` (state, seat)."""

    op: str
    state: dict[str, Any]
    move: dict[str, Any] | None = None
    seat: int | None = None

    def ask(self, engine: Engine) -> Any:
        if self.op == "legal_moves":
            return engine.legal_moves(self.state)
        if self.op == "apply":
            return engine.apply(self.state, self.move or {})
        return engine.observe(self.state, self.seat if self.seat is not None else 0)


@dataclass(frozen=True)
class Break:
    """Two answers of the engine under test that do not transform alike.

    ``aspect``: ``legal``, ``move`` (a move it lists), ``refuse`` (a probe outside the legal set)
    or ``observe``. ``original`` / ``image``: the question at ``P`` and at ``T(P)``, with the
    engine's answers ``answer`` / ``image_answer``. ``summary``: the difference in words.
    """

    aspect: str
    transform: Transform
    original: Query
    image: Query
    answer: Any
    image_answer: Any
    summary: str


def _answer_text(answer: Any) -> str:
    if isinstance(answer, ErrorResult):
        return str(answer)
    return f"a {type(answer).__name__}"


def _same_refusal(a: Any, b: Any) -> bool:
    """Both are proper refusals with the same code (and rule, for illegal_move)."""
    return (
        isinstance(a, ErrorResult)
        and isinstance(b, ErrorResult)
        and not a.is_fault
        and not b.is_fault
        and a.code == b.code
        and (a.code != "illegal_move" or a.rule == b.rule)
    )


def check_legal(
    engine: Engine, transform: Transform, state: dict, image: dict, answer: Any = None
) -> Break | None:
    """The legal sets at ``state`` and at its image ``image``; ``answer``: the engine's legal
    set at ``state`` when already asked."""
    original = Query("legal_moves", state)
    there = original.ask(engine) if answer is None else answer
    query = Query("legal_moves", image)
    here = query.ask(engine)
    if isinstance(there, list) and isinstance(here, list):
        want = {canonical.canonical_move(transform.move(m)) for m in there}
        got = {canonical.canonical_move(m) for m in here}
        if want == got and len(here) == len(there):
            return None
        missing, extra = sorted(want - got), sorted(got - want)
        parts = []
        if missing:
            parts.append(
                f"lacks the images of {len(missing)} move(s) it lists at P: "
                + ", ".join(missing[:3])
            )
        if extra:
            parts.append(
                f"lists {len(extra)} move(s) whose preimage it does not list at P: "
                + ", ".join(extra[:3])
            )
        if not parts:
            parts.append("lists a move twice at one of the two positions")
        summary = "legal set at T(P) " + "; ".join(parts)
    elif _same_refusal(there, here):
        return None
    else:
        summary = (
            f"legal_moves answered {_answer_text(there)} at P but {_answer_text(here)} at T(P)"
        )
    return Break("legal", transform, original, query, there, here, summary)


def check_apply(
    engine: Engine, transform: Transform, state: dict, image: dict, move: dict, aspect: str
) -> Break | None:
    """``move`` at ``state`` and its image at ``image``: refused alike, or accepted with states
    that transform alike. ``aspect``: ``move`` for a move the engine lists, ``refuse`` for a
    probe outside the legal set."""
    original = Query("apply", state, move=move)
    query = Query("apply", image, move=transform.move(move))
    there, here = original.ask(engine), query.ask(engine)
    if isinstance(there, dict) and isinstance(here, dict):
        want = canonical.normalise_state(transform.after(there, move))
        got = canonical.normalise_state(here)
        if canonical.dumps(want) == canonical.dumps(got):
            return None
        where = [canonical.pointer(p) for p in diff_paths(want, got)]
        summary = (
            f"after {canonical.canonical_move(move)} the image of the state differs "
            f"from the state after its image at " + ", ".join(where[:6])
        )
    elif _same_refusal(there, here):
        return None
    else:
        summary = (
            f"{canonical.canonical_move(move)} answered {_answer_text(there)} at P, "
            f"its image answered {_answer_text(here)} at T(P)"
        )
    return Break(aspect, transform, original, query, there, here, summary)


def check_observe(
    engine: Engine, transform: Transform, state: dict, image: dict, seat: int
) -> Break | None:
    """What ``seat`` sees at ``state`` against what its image seat sees at ``image``."""
    original = Query("observe", state, seat=seat)
    query = Query("observe", image, seat=transform.seat(seat))
    there, here = original.ask(engine), query.ask(engine)
    if isinstance(there, dict) and isinstance(here, dict):
        want = canonical.normalise_observation(transform.observation(there))
        got = canonical.normalise_observation(here)
        if canonical.dumps(want) == canonical.dumps(got):
            return None
        where = [canonical.pointer(p) for p in diff_paths(want, got)]
        summary = (
            f"what seat {seat} sees, transformed, differs from what seat "
            f"{transform.seat(seat)} sees at T(P) at " + ", ".join(where[:6])
        )
    elif _same_refusal(there, here):
        return None
    else:
        summary = f"observe answered {_answer_text(there)} at P but {_answer_text(here)} at T(P)"
    return Break("observe", transform, original, query, there, here, summary)
