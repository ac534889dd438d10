"""Differential play: one planned game on the reference and the engine under test, in step.

Both engines deal; then, position by position, they are asked for the legal set, for a few probe
moves outside it (:mod:`conformance.tools.fuzz.probes`) and for the state after one legal move
chosen at random; :mod:`conformance.tools.fuzz.compare` judges each pair of answers. The game
always goes on from the reference's state, and with a move both engines list, so an early,
frequent bug does not hide later ones; it stops at its end, at the move cap, after
:data:`MAX_FINDINGS_PER_GAME` disagreements, or when the dealt states already differ.

The engine under test may misbehave: a crash, a timeout or garbage is a finding like any other,
never a crash of the fuzzer. Only an engine given up by its circuit breaker stops the campaign
(:class:`GiveUp`). A reference engine that fails, or accepts a move its own legal set lacks, is
not the other engine's fault: it is noted as a reference problem and the game is skipped.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from conformance.contract import canonical
from conformance.engines.base import Engine, ErrorResult
from conformance.tools.findings import Finding
from conformance.tools.fuzz.compare import (
    Position,
    compare_deal,
    compare_legal,
    compare_next,
    compare_refusal,
    shared_moves,
)
from conformance.tools.fuzz.planning import FuzzConfig, GamePlan
from conformance.tools.fuzz.probes import probe_moves
from conformance.tools.fuzz.report import FuzzReport

#: A game stops after this many disagreements: beyond them it is mostly one bug repeating.
MAX_FINDINGS_PER_GAME = 10


class GiveUp(Exception):
    """The engine under test is given up (circuit breaker open): stop fuzzing."""


@dataclass
class GamePlayed:
    """What one game gave: its disagreements, the moves played and, when it reached its end
    with both engines agreeing throughout, the final state (such a game may become a record)."""

    findings: list[Finding] = field(default_factory=list)
    moves: list[dict[str, Any]] = field(default_factory=list)
    end: dict[str, Any] | None = None


class InStep:
    """Plays planned games on two engines in step; counts moves, probes, finished and capped
    games and reference problems into ``report`` as it goes (so they stand when it gives up)."""

    def __init__(
        self,
        reference: Engine,
        candidate: Engine,
        config: FuzzConfig,
        report: FuzzReport,
        log: Callable[[str], None],
    ):
        self.reference = reference
        self.candidate = candidate
        self.config = config
        self.report = report
        self.log = log
        self.limit = 1 if config.stop_first else MAX_FINDINGS_PER_GAME

    def play(self, plan: GamePlan) -> GamePlayed:
        """One game to its end (or to a reason to stop)."""
        played = GamePlayed()
        state = self._deal(plan, played)
        rng = random.Random(plan.move_seed)
        while state is not None and len(played.findings) < self.limit:
            state = self._position(Position(plan, len(played.moves), state), rng, played)
        return played

    def _reference_deal(self, plan: GamePlan) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """The reference's dealt state (None, noted as a reference problem, when it fails) and
        the deal's arguments, to ask the engine under test the same."""
        deal = plan.deal
        args = {key: deal.get(key) for key in ("seed", "deck", "dealer", "previous")}
        state = self.reference.new_game(plan.ruleset, plan.players, **args)
        if isinstance(state, ErrorResult):
            self._reference_problem(Position(plan, 0, {}), f"new_game: {state}")
            return None, args
        return state, args

    def _deal(self, plan: GamePlan, played: GamePlayed) -> dict[str, Any] | None:
        """The dealt state both engines agree on, or None (the game stops at its deal)."""
        ref_state, args = self._reference_deal(plan)
        if ref_state is None:
            return None
        cand_state = self._ask("new_game", plan.ruleset, plan.players, **args)
        finding = compare_deal(plan, ref_state, cand_state)
        if finding is not None:
            played.findings.append(finding)
            return None
        return ref_state

    def _position(
        self, at: Position, rng: random.Random, played: GamePlayed
    ) -> dict[str, Any] | None:
        """Legal sets, probes and one move at ``at``: the next state, or None to stop."""
        if at.depth >= self.config.max_moves:
            self.report.capped += 1
            return None
        ref_legal = self.reference.legal_moves(at.state)
        if isinstance(ref_legal, ErrorResult):
            self._reference_problem(at, f"legal_moves: {ref_legal}")
            return None
        cand_legal = self._ask("legal_moves", at.state)
        found = played.findings
        self._met(found, compare_legal(at, ref_legal, cand_legal, self.reference))
        if len(found) >= self.limit:
            return None
        if not ref_legal:
            self.report.finished += 1
            played.end = at.state if not found else None
            return None
        keys = {canonical.canonical_move(m) for m in ref_legal}
        for probe in probe_moves(at.state, keys, rng, self.config.probes):
            if self._met(found, self._refusal(at, probe)):
                break  # one refusal finding per position is enough
        if len(found) >= self.limit:
            return None
        return self._move(at, ref_legal, cand_legal, rng, played)

    def _refusal(self, at: Position, probe: dict[str, Any]) -> Finding | None:
        """A probe on both engines; the reference must refuse it without a fault."""
        self.report.probes += 1
        ref = self.reference.apply(at.state, probe)
        if not isinstance(ref, ErrorResult):
            move_text = canonical.canonical_move(probe)
            self._reference_problem(at, f"accepted {move_text}, which its legal set lacks")
            return None
        if ref.is_fault:
            self._reference_problem(at, f"apply of a probe: {ref}")
            return None
        return compare_refusal(at, probe, ref, self._ask("apply", at.state, probe))

    def _move(
        self,
        at: Position,
        ref_legal: list[dict[str, Any]],
        cand_legal: Any,
        rng: random.Random,
        played: GamePlayed,
    ) -> dict[str, Any] | None:
        """A random move both list (or, if they share none, one of the reference's), applied."""
        shared = shared_moves(ref_legal, cand_legal)
        move = rng.choice(shared or sorted(ref_legal, key=canonical.canonical_move))
        ref_next = self.reference.apply(at.state, move)
        if isinstance(ref_next, ErrorResult):
            self._reference_problem(at, f"apply of its own legal move: {ref_next}")
            return None
        if shared:
            cand_next = self._ask("apply", at.state, move)
            self._met(played.findings, compare_next(at, move, ref_next, cand_next))
        played.moves.append(move)
        self.report.moves += 1
        return ref_next

    def _ask(self, request: str, *args: Any, **kwargs: Any) -> Any:
        """The engine under test's answer; :class:`GiveUp` once its circuit breaker is open."""
        answer = getattr(self.candidate, request)(*args, **kwargs)
        if isinstance(answer, ErrorResult) and answer.code == "not_run":
            raise GiveUp(answer.message)
        return answer

    @staticmethod
    def _met(found: list[Finding], finding: Finding | None) -> bool:
        if finding is None:
            return False
        found.append(finding)
        return True

    def _reference_problem(self, at: Position, text: str) -> None:
        index = at.plan.index
        self.report.reference_problems.append(f"game {index} after {at.depth} moves: {text}")
        self.log(f"game {index}: the reference engine failed: {text} (game skipped)")
