"""The ``perft`` step: a perft position is a case whose steps count move paths through the engine
with the perft tool's own counting, judged by the one runner. The expected counts are the packaged
positions' (checked against an independent counter in tests/perft)."""

from __future__ import annotations

from conformance.engines.base import ErrorResult, InProcessEngine
from conformance.engines.gating import Support
from conformance.suite.cases import CaseRunner
from conformance.suite.loader import Case, Step, step_problems
from conformance.tools.perft import load_positions


def _position(pid: str):
    return next(p for p in load_positions() if p.id == pid)


def _case(position, *steps: dict) -> Case:
    return Case(
        id=position.id,
        description=position.description,
        rules=("R-PLAY-1",),
        ruleset=position.ruleset,
        players=position.players,
        start=dict(position.start),
        steps=tuple(Step(i + 1, "perft", s, i + 1) for i, s in enumerate(steps)),
    )


def _steps(position, depths=(1, 2, 3)) -> list[dict]:
    steps = []
    for depth in depths:
        step = {"perft": {"depth": depth, "nodes": position.counts[depth]}}
        if depth in position.divide:
            step["perft"]["divide"] = position.divide[depth]
        steps.append(step)
    return steps


def run(engine, case):
    return CaseRunner(engine, Support.everything()).run(case)


def test_a_perft_position_is_a_case_of_perft_steps():
    for pid in ("podkidnoy-2p-endgame", "podkidnoy-2p-deal", "perevodnoy-2p-endgame"):
        position = _position(pid)
        steps = _steps(position)
        assert all(step_problems(step) == [] for step in steps)
        result = run(InProcessEngine(), _case(position, *steps))
        assert result.ok, result.message


class NoTakes(InProcessEngine):
    """Never lists a take: the engine is short of move paths from the first defence on."""

    def legal_moves(self, state):
        moves = super().legal_moves(state)
        return [m for m in moves if m.get("action") != "take"] if isinstance(moves, list) else moves


def test_a_wrong_count_names_where_the_engine_parts_from_the_reference():
    position = _position("podkidnoy-2p-endgame")
    result = run(NoTakes(), _case(position, *_steps(position)))
    assert result.outcome == "failed" and result.signature.startswith("step ")
    assert "perft(" in result.signature and result.signature.endswith(") differs")
    assert result.expected["nodes"] != result.actual["nodes"]
    assert "first divergence" in result.message and "misses" in result.actual["descent"]["text"]
    wrong = {"perft": {"depth": 1, "nodes": position.counts[1], "divide": {"{}": 1}}}
    assert (
        run(InProcessEngine(), _case(position, wrong)).signature == "step 1 perft: perft(1) differs"
    )


class Crashes(InProcessEngine):
    def apply(self, state, move):
        return ErrorResult("crash", "gone", diagnostics={"exit_status": 3})


def test_an_engine_fault_during_a_count_is_an_error():
    position = _position("podkidnoy-2p-endgame")
    result = run(Crashes(), _case(position, {"perft": {"depth": 2, "nodes": position.counts[2]}}))
    assert result.outcome == "error" and result.signature == "step 1 perft: crash"
    assert result.diagnostics == {"exit_status": 3}
