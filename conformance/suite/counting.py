"""The ``perft`` step: the move paths from the state now, counted through the engine.

``perft: {depth: D, nodes: N}`` holds when the number of sequences of exactly ``D`` legal moves
(of all players, R-PLAY-1) from the state the case is in is ``N`` (``spec/perft.md``); with
``divide: {move: count}`` the count under each first move (keyed by its canonical JSON) must be
as given too. The counting is :mod:`conformance.tools.perft`'s, so a perft position compiled to a
case is counted exactly as ``durak-conformance perft`` counts it; a count is also a check of the
engine (a move listed twice, a listed move refused: the count stops there, with the move path).
On a wrong count the step names the first node where the engine parts from the reference engine
(perft's descent) when the count is small enough for that to be cheap; the reference engine
never decides the verdict, only where to look.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, NoReturn

from conformance.contract import canonical
from conformance.engines.base import ErrorResult
from conformance.suite.verdicts import ErrorAnswer, StepFailed

if TYPE_CHECKING:
    from conformance.suite.cases import CaseRun
    from conformance.suite.loader import Step

#: A wrong count of at most this many nodes is followed down to where the engine parts from the
#: reference (a divide of both engines per level); a larger one reports the counts only.
DESCENT_MAX_NODES = 50_000


def judge_perft(run: CaseRun, step: Step) -> None:
    """``perft``: the count (and the divide, if given) at ``depth`` from the state now."""
    from conformance.tools.perft import PerftError, divide, perft

    body = step.body
    depth, nodes = body["depth"], body["nodes"]
    wanted = _keyed(body.get("divide") or {})
    try:
        if wanted and depth >= 1:
            counts = {entry.key: entry.count for entry in divide(run.engine, run.state, depth)}
            total = sum(counts.values())
        else:
            counts, total = {}, perft(run.engine, run.state, depth)
    except PerftError as stopped:
        _stopped(stopped, body)
    differ = sorted(key for key in set(wanted) | set(counts) if wanted.get(key) != counts.get(key))
    if total == nodes and not (wanted and differ):
        return
    actual: dict[str, Any] = {"nodes": total}
    message = f"perft({depth}) counted {total} move paths, expected {nodes}"
    if wanted and differ:
        actual["divide"] = {key: counts.get(key) for key in differ}
        message += f"; the divide differs under {len(differ)} first move(s)"
    descent = _descent(run, depth) if nodes <= DESCENT_MAX_NODES else None
    if descent is not None:
        actual["descent"] = {
            "path": descent.path,
            "text": descent.text(),
            **{k: getattr(descent, k) for k in ("extra", "missing", "rules") if getattr(descent, k)},
        }
        message += f"; first divergence {descent.text()}"
    raise StepFailed(message, body, actual, signature=f"perft({depth}) differs")


def _keyed(divide: dict[str, int]) -> dict[str, int]:
    """The divide's first moves in canonical form (a key may be written as any move JSON)."""
    out = {}
    for key, count in divide.items():
        try:
            move = json.loads(key) if isinstance(key, str) else key
        except ValueError:
            move = key
        out[canonical.canonical_move(move)] = count
    return out


def _stopped(stopped: Any, body: dict[str, Any]) -> NoReturn:
    """A count the engine broke off: an error answer where a successful one was due (a fault
    is an engine error), or an answer the count cannot go on from."""
    where = " -> ".join(canonical.canonical_move(m) for m in stopped.path) or "the start"
    if isinstance(stopped.error, ErrorResult) and (
        stopped.error.is_fault or stopped.error.code == "not_run"
    ):
        raise ErrorAnswer(stopped.error, f"the count after {where}", {"nodes": body["nodes"]})
    actual = {"path": stopped.path, "answer": _plain(stopped.error)}
    if stopped.move is not None:
        actual["move"] = stopped.move
    raise StepFailed(f"the count stopped: {stopped}", body, actual, signature="perft stopped")


def _plain(answer: Any) -> Any:
    return answer.to_json() if isinstance(answer, ErrorResult) else answer


def _descent(run: CaseRun, depth: int) -> Any:
    from conformance.tools.perft import PerftError, descend

    try:
        return descend(run.engine, run.runner.reference_engine(), run.state, depth)
    except PerftError:
        return None
