"""A metamorphic campaign: the fuzzer's campaign with the metamorphic walk instead of play in step.

Everything around the games is the fuzzer's (:class:`conformance.tools.fuzz.Fuzzer`): both
engines greeted and the games planned inside their common claims; of the findings with one cause
only the shallowest kept, each written as a fixture and run on both engines (it must pass on the
reference and fail on the engine under test). What differs is the walk
(:class:`~conformance.tools.metamorph.walk.Walk`), the report's check counts, the fixture's
description and header, and the command that reproduces a finding.
"""

from __future__ import annotations

import json
import shlex
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conformance.engines.base import Engine
from conformance.tools.findings import Finding
from conformance.tools.fuzz.campaign import Fuzzer
from conformance.tools.fuzz.planning import FuzzConfig, plan_game
from conformance.tools.fuzz.play import GiveUp
from conformance.tools.metamorph.walk import CheckConfig, MetamorphReport, Walk

#: Why each kind is a symmetry of the rules, for a finding's description.
WHY = {
    "suits": "the rules never name a suit, so relabelling the suits (the trump suit along) "
    "relabels every answer (R-DECK-2)",
    "seats": "the rules of play speak of seats relative to each other only, so turning the "
    "table round (teams renumbered along) turns every answer round (R-ROLE-2, R-TEAM-1)",
    "twins": "twins are equal in rank and suit and neither beats the other, so exchanging "
    "them exchanges them in every answer (R-DECK-3)",
    "talon": "nobody has seen the talon's face-down cards, so no legal set, refusal or "
    "observation may depend on their order (R-INFO-1)",
}


class Metamorph(Fuzzer):
    """Walks the games of a :class:`FuzzConfig` on the reference and checks the engine under
    test's answers at each position against its own answers at transformed positions."""

    def __init__(
        self,
        reference: Engine,
        candidate: Engine,
        config: FuzzConfig,
        checks: CheckConfig | None = None,
        *,
        out_dir: Path | str | None = None,
        log: Callable[[str], None] | None = None,
        specs: dict[str, str] | None = None,
    ):
        super().__init__(reference, candidate, config, out_dir=out_dir, log=log, specs=specs)
        self.checks = checks or CheckConfig()
        self.report: MetamorphReport = MetamorphReport(seed=config.seed)

    def greet(self) -> str | None:
        """The fuzzer's greeting, plus what metamorphic checks need of the engine under test:
        positions it can be set up from (they ask it about transformed positions no game of its
        own reaches); observations are checked only when both engines observe."""
        problem = super().greet()
        if problem:
            return problem
        candidate = self.supports[1]
        if candidate is not None and not candidate.positions:
            return (
                "the engine under test cannot be set up from a state (its hello says "
                "supports.positions: false), and every metamorphic check starts from a "
                "transformed position no game reaches; run 'fuzz' or 'run' on it instead"
            )
        self.checks.observe = self.checks.observe and all(
            s is None or s.observe for s in self.supports
        )
        return None

    def run(self) -> MetamorphReport:
        began = time.perf_counter()
        config = self.config
        indices = [config.only_game] if config.only_game is not None else range(config.games)
        walk = Walk(self.reference, self.candidate, config, self.report, self.log, self.checks)
        try:
            for index in indices:
                plan = plan_game(config, index, self.choices, self.supports)
                played = walk.play(plan)
                self._tally(plan, played)
                self._progress_line(plan.name, plan.players, len(played.moves))
                if played.findings and config.stop_first:
                    break
        except GiveUp as exc:
            self.report.gave_up = str(exc)
        self.report.elapsed = time.perf_counter() - began
        self._check_reproduction()
        return self.report

    def _progress_line(self, name: str, players: int, moves: int) -> None:
        """One line per game (every 5% of the games for long runs): so a run shows it is alive
        and how far it has come."""
        total = 1 if self.config.only_game is not None else self.config.games
        done = self.report.games
        if done % max(1, total // 20) and done != total:
            return
        checks, breaks = sum(self.report.checks.values()), sum(self.report.breaks.values())
        self.log(
            f"[{done}/{total}] {name}, {players} players, {moves} moves: "
            f"{checks} checks so far, {breaks} broken, {len(self.report.findings)} finding(s)"
        )

    def _keep(self, finding: Finding) -> None:
        super()._keep(finding)
        path = self.report.paths.get(finding.signature)
        if path is not None and path.exists():
            text = path.read_text(encoding="utf-8")
            path.write_text(
                text.replace("# Written by durak-conformance fuzz.", HEADER, 1), encoding="utf-8"
            )

    def reproduce_command(self, plan_index: int) -> str:
        parts = ["durak-conformance", "metamorph"]
        parts += ["--engine", self.specs.get("candidate") or self.candidate.describe()]
        if self.specs.get("reference"):
            parts += ["--reference", self.specs["reference"]]
        parts += ["--seed", str(self.config.seed), "--game", str(plan_index)]
        for request in self.config.rulesets:
            shown = request if isinstance(request, str) else json.dumps(request, sort_keys=True)
            parts += ["--preset", shown]
        for count in self.config.players:
            parts += ["--players", str(count)]
        if self.checks.kinds != CheckConfig().kinds:
            parts += ["--kinds", ",".join(self.checks.kinds)]
        if self.checks.every != 1:
            parts += ["--every", str(self.checks.every)]
        return shlex.join(parts)

    def describe(self, finding: Finding) -> str:
        context: dict[str, Any] = finding.context
        kind = context.get("transform_kind", "?")
        side = context.get("side")
        where = (
            "the position P of the game"
            if side == "original"
            else f"the image T(P) of a position P of the game under {context.get('transform')}"
        )
        other = "T(P)" if side == "original" else "P"
        rules = ", ".join(finding.rules)
        return (
            f"Found by metamorphic checking (durak-conformance metamorph), not yet reviewed. "
            f"Engine under test: {self.engine_name('candidate')}; judge: "
            f"{self.engine_name('reference')}. Seed {self.config.seed}, game {finding.game} "
            f"({context.get('ruleset_name')}, {finding.players} players), after "
            f"{finding.depth} random move(s). The engine's answers at a position P and at its "
            f"image T(P) under {context.get('transform')} do not transform alike "
            f"({context.get('break')}), although {WHY.get(kind, 'the rules treat them alike')}. "
            f"The reference engine judged which answer breaks the rules: this case starts "
            f"from {where}, where the engine's answer differs from the reference's "
            f"({context.get('difference', finding.summary)}); its answer at {other} was not "
            f"used. Reproduce with: "
            f"{self.reproduce_command(finding.game)}. The expected answers are the reference "
            f"engine's at this position, not yet the rules': before committing this case to "
            f"the suite, review them by reading spec/rules.md ({rules}), then give the case a "
            f"meaningful id and rewrite this description to say why the answer follows from "
            f"the rules."
        )


HEADER = "# Written by durak-conformance metamorph."
