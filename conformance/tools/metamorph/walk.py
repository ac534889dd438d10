"""Walking random games on the reference engine and checking the engine under test at each position.

The games are the fuzzer's (:func:`conformance.tools.fuzz.planning.plan_game`: every preset, every
player count both engines claim, each game fixed by the seed and its index) and are walked by the
fuzzer's loop (:class:`conformance.tools.fuzz.play.InStep`), with two changes: the reference alone
deals and chooses the moves, since the positions only need to be positions the rules reach (an
engine's own deal and next states are the fuzzer's business); and at each checked position every
transformation that applies is drawn at random and checked on the engine under test
(:mod:`conformance.tools.metamorph.checks`): its legal set, a few of its legal moves, a few probe
moves outside the legal set (:func:`conformance.tools.fuzz.probes.probe_moves`) and, when both
engines observe, what one seat sees. A break is judged by the reference
(:mod:`conformance.tools.metamorph.judge`) into findings.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from conformance.contract import canonical
from conformance.engines.base import Engine, ErrorResult
from conformance.tools.fuzz.compare import Position
from conformance.tools.fuzz.planning import FuzzConfig, GamePlan
from conformance.tools.fuzz.play import GamePlayed, InStep
from conformance.tools.fuzz.probes import probe_moves
from conformance.tools.fuzz.report import FuzzReport
from conformance.tools.metamorph.checks import Break, check_apply, check_legal, check_observe
from conformance.tools.metamorph.judge import judge
from conformance.tools.metamorph.transforms import BUILDERS, KINDS, Transform


@dataclass
class CheckConfig:
    """How hard each position is checked: every ``every``-th position of a game, with the
    transformation kinds in ``kinds``, ``moves`` legal moves and ``probes`` probe moves per
    transformation, and one observing seat when ``observe``."""

    kinds: tuple[str, ...] = KINDS
    every: int = 1
    moves: int = 1
    probes: int = 1
    observe: bool = True


@dataclass
class MetamorphReport(FuzzReport):
    """The fuzz totals, plus how many checks each transformation kind made and how many broke."""

    checks: dict[str, int] = field(default_factory=dict)
    breaks: dict[str, int] = field(default_factory=dict)
    positions: int = 0


class Walk(InStep):
    """Plays planned games on the reference and checks the engine under test along them."""

    def __init__(
        self,
        reference: Engine,
        candidate: Engine,
        config: FuzzConfig,
        report: MetamorphReport,
        log: Callable[[str], None],
        checks: CheckConfig,
    ):
        super().__init__(reference, candidate, config, report, log)
        self.checks = checks
        self.report: MetamorphReport = report

    def _deal(self, plan: GamePlan, played: GamePlayed) -> dict[str, Any] | None:
        """The reference's deal (the engine under test is never asked to deal here)."""
        return self._reference_deal(plan)[0]

    def _position(
        self, at: Position, rng: random.Random, played: GamePlayed
    ) -> dict[str, Any] | None:
        """The checks at ``at`` (if it is one to check), then the reference's next state after
        a random legal move, or None at the game's end."""
        if at.depth >= self.config.max_moves:
            self.report.capped += 1
            return None
        ref_legal = self.reference.legal_moves(at.state)
        if isinstance(ref_legal, ErrorResult):
            self._reference_problem(at, f"legal_moves: {ref_legal}")
            return None
        if at.depth % self.checks.every == 0:
            self.report.positions += 1
            for kind in self.checks.kinds:
                transform = BUILDERS[kind](at.state, rng)
                if transform is not None:
                    self._check(at, transform, ref_legal, rng, played)
                if len(played.findings) >= self.limit:
                    return None
        if not ref_legal:
            self.report.finished += 1
            return None
        move = rng.choice(sorted(ref_legal, key=canonical.canonical_move))
        after = self.reference.apply(at.state, move)
        if isinstance(after, ErrorResult):
            self._reference_problem(at, f"apply of its own legal move: {after}")
            return None
        played.moves.append(move)
        self.report.moves += 1
        return after

    def _check(
        self,
        at: Position,
        transform: Transform,
        ref_legal: list[dict[str, Any]],
        rng: random.Random,
        played: GamePlayed,
    ) -> None:
        """Every check of one transformation at one position; each break judged at once."""
        state, image = at.state, transform.state(at.state)
        legal = self._ask("legal_moves", state)
        found = check_legal(self.candidate, transform, state, image, legal)
        self._count(transform.kind, found, at, played)
        listed = set()
        if isinstance(legal, list):
            listed = {canonical.canonical_move(m) for m in legal if isinstance(m, dict)}
        shared = [
            m
            for m in sorted(ref_legal, key=canonical.canonical_move)
            if canonical.canonical_move(m) in listed
        ]
        for move in rng.sample(shared, min(self.checks.moves, len(shared))):
            found = check_apply(self.candidate, transform, state, image, move, "move")
            self._count(transform.kind, found, at, played)
        keys = {canonical.canonical_move(m) for m in ref_legal}
        for probe in probe_moves(state, keys, rng, self.checks.probes):
            self.report.probes += 1
            found = check_apply(self.candidate, transform, state, image, probe, "refuse")
            self._count(transform.kind, found, at, played)
        if self.checks.observe and state.get("players"):
            seat = rng.randrange(len(state["players"]))
            found = check_observe(self.candidate, transform, state, image, seat)
            self._count(transform.kind, found, at, played)

    def _count(self, kind: str, found: Break | None, at: Position, played: GamePlayed) -> None:
        """Count one check; judge a break into findings (or a reference problem)."""
        self.report.checks[kind] = self.report.checks.get(kind, 0) + 1
        if found is None:
            return
        self.report.breaks[kind] = self.report.breaks.get(kind, 0) + 1
        verdict = judge(self.reference, at.plan, at.depth, found)
        if verdict.reference_problem:
            self._reference_problem(at, verdict.reference_problem)
        played.findings.extend(verdict.findings)
