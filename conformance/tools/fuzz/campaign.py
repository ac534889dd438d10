"""A fuzz campaign: the games of a :class:`FuzzConfig` on two engines, findings grouped by cause.

The campaign greets both engines (their hellos fix the claims the games are planned inside),
plays each planned game in step (:mod:`conformance.tools.fuzz.play`) and keeps, of the findings
with one signature, only the one reached after the fewest moves, so the fixture on disk is the
shortest history seen. Every fixture is then run with :class:`~conformance.suite.cases.CaseRunner`
on both engines: it must pass on the reference and fail on the engine under test, or the report
says it does not reproduce. A game both engines agreed on to its end may be written as a record.
"""

from __future__ import annotations

import json
import shlex
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.engines.base import Engine, ErrorResult
from conformance.tools.findings import Finding, fixture_case, write_fixture
from conformance.tools.fuzz.planning import FuzzConfig, GamePlan, Ruleset, game_choices, plan_game
from conformance.tools.fuzz.play import GamePlayed, GiveUp, InStep
from conformance.tools.fuzz.report import FuzzReport
from conformance.tools.record import make_record, write_record


@dataclass
class PlayedGame:
    """One game of the campaign as played: where it was played elsewhere (another process),
    ``counted`` holds what it added to the report's counters and ``said`` its log lines."""

    plan: GamePlan
    played: GamePlayed
    counted: FuzzReport | None = None
    said: list[str] = field(default_factory=list)


class Fuzzer:
    """Plays the games of a :class:`FuzzConfig` on two engines and collects findings."""

    def __init__(
        self,
        reference: Engine,
        candidate: Engine,
        config: FuzzConfig,
        *,
        out_dir: Path | str | None = None,
        log: Callable[[str], None] | None = None,
        specs: dict[str, str] | None = None,
    ):
        self.reference = reference
        self.candidate = candidate
        self.config = config
        self.out_dir = Path(out_dir) if out_dir is not None else None
        self.log = log or (lambda text: None)
        # how each engine was named on the command line ("reference", "candidate"), for the
        # description and the command that reproduces a finding
        self.specs = dict(specs or {})
        self.report = FuzzReport(seed=config.seed)
        self.reference_hello: dict[str, Any] = {}
        self.candidate_hello: dict[str, Any] = {}
        self.supports: list[Any] = []
        self.choices: list[tuple[Ruleset, int]] = []
        self.skipped: list[str] = []
        #: called with the report after each game is tallied (the command's progress bar)
        self.on_game: Callable[[FuzzReport], None] | None = None

    # ------------------------------------------------------------------ setup

    def greet(self) -> str | None:
        """Ask both engines hello and work out the games to draw from; a reason on failure."""
        from conformance.engines.gating import HelloError, Support

        supports = []
        for role, engine in (("reference", self.reference), ("engine under test", self.candidate)):
            hello = engine.hello()
            if isinstance(hello, ErrorResult):
                return f"hello to the {role} failed: {hello}"
            try:
                supports.append(Support.from_hello(hello))
            except HelloError as exc:
                return f"the {role}'s hello: {exc}"
            if role == "reference":
                self.reference_hello = hello
            else:
                self.candidate_hello = hello
        self.supports = supports
        try:
            self.choices, self.skipped = game_choices(self.config, supports)
        except ValueError as exc:
            return f"--ruleset: {exc}"
        if not self.choices:
            why = "; ".join(self.skipped) or "nothing asked for"
            return f"no ruleset and player count to fuzz ({why})"
        self.report.combos = list(self.choices)
        return None

    def engine_name(self, role: str) -> str:
        hello = self.reference_hello if role == "reference" else self.candidate_hello
        engine = self.reference if role == "reference" else self.candidate
        info = hello.get("engine", {}) if isinstance(hello, dict) else {}
        name = f"{info.get('name', '?')} {info.get('version', '')}".strip()
        return f"{name} [{self.specs.get(role) or engine.describe()}]"

    # ------------------------------------------------------------------ the run

    def run(self, games: Iterable[PlayedGame] | None = None) -> FuzzReport:
        """Play the campaign (or tally ``games`` played elsewhere, in index order: see
        :mod:`conformance.tools.fuzz.parallel`) and check that its findings reproduce."""
        began = time.perf_counter()
        try:
            for game in games if games is not None else self._play_here():
                self._merge(game)
                self._tally(game.plan, game.played)
                if self.on_game is not None:
                    self.on_game(self.report)
                if game.played.findings and self.config.stop_first:
                    break
                self._progress()
        except GiveUp as exc:
            self.report.gave_up = str(exc)
        self.report.elapsed = time.perf_counter() - began
        self._check_reproduction()
        return self.report

    def indices(self) -> list[int]:
        config = self.config
        return [config.only_game] if config.only_game is not None else list(range(config.games))

    def _play_here(self) -> Iterator[PlayedGame]:
        """The games played in this process, one after another (the counters go straight into
        the campaign's report, so there is nothing to merge)."""
        games = InStep(self.reference, self.candidate, self.config, self.report, self.log)
        for index in self.indices():
            plan = plan_game(self.config, index, self.choices, self.supports)
            yield PlayedGame(plan, games.play(plan))

    def _merge(self, game: PlayedGame) -> None:
        """Add what a game played elsewhere counted (moves, probes, ...) and said."""
        if game.counted is None:
            return
        for name in ("finished", "capped", "moves", "probes"):
            setattr(self.report, name, getattr(self.report, name) + getattr(game.counted, name))
        self.report.reference_problems += game.counted.reference_problems
        for line in game.said:
            self.log(line)

    def _tally(self, plan: GamePlan, played: GamePlayed) -> None:
        """Count a played game, save it as a record if both agreed to its end, keep its
        findings."""
        if played.end is not None:
            self._save_record(plan, played.moves, played.end)
        self.report.games += 1
        if played.findings:
            self.report.stopped += 1
        for finding in played.findings:
            causes = self.report.causes
            causes[finding.signature] = causes.get(finding.signature, 0) + 1
            self._keep(finding)

    def _keep(self, finding: Finding) -> None:
        """Keep ``finding`` if it is the first or the shallowest of its signature (its fixture
        replaces a deeper one on disk)."""
        old = self.report.findings.get(finding.signature)
        if old is not None and old.depth <= finding.depth:
            return
        self.report.findings[finding.signature] = finding
        verb = "shorter" if old is not None else "FINDING"
        path = None
        if self.out_dir is not None:
            if old is not None and finding.signature in self.report.paths:
                self.report.paths.pop(finding.signature).unlink(missing_ok=True)
            path = write_fixture(fixture_case(finding, self.describe(finding)), self.out_dir)
            self.report.paths[finding.signature] = path
        where = f" -> {path}" if path else ""
        self.log(
            f"game {finding.game} ({finding.context.get('ruleset_name')}, {finding.players} "
            f"players): {verb} {finding.kind} after {finding.depth} moves: "
            f"{finding.summary}{where}"
        )

    def _check_reproduction(self) -> None:
        """Run each written fixture on both engines: pass on the reference, fail on the other."""
        if not self.report.paths:
            return
        if self.report.gave_up:
            for signature in self.report.paths:
                self.report.reproduces[signature] = "not checked: the engine was given up"
            return
        from conformance.engines.gating import Support
        from conformance.suite.cases import CaseRunner
        from conformance.suite.loader import load_file

        for signature, path in self.report.paths.items():
            cases, problems = load_file(path)
            if problems:
                self.report.reproduces[signature] = f"does not load: {problems[0]}"
                continue
            ref = CaseRunner(self.reference, Support.everything()).run(cases[0])
            cand = CaseRunner(self.candidate, Support.everything()).run(cases[0])
            if ref.outcome == "passed" and cand.outcome in ("failed", "error"):
                self.report.reproduces[signature] = "yes"
            else:
                self.report.reproduces[signature] = (
                    f"no (reference {ref.outcome}, engine under test {cand.outcome})"
                )

    def _progress(self) -> None:
        """A line every 10% of the games (at least every 25), so a long run shows it is alive."""
        total = 1 if self.config.only_game is not None else self.config.games
        step = max(1, min(25, total // 10))
        done = self.report.games
        if done % step == 0 and done < total:
            self.log(
                f"... {done}/{total} games, {sum(self.report.causes.values())} disagreement(s) "
                f"of {len(self.report.causes)} cause(s)"
            )

    # ------------------------------------------------------------------ records and text

    def _save_record(self, plan: GamePlan, moves: list[dict[str, Any]], state: dict) -> None:
        if self.config.records_dir is None:
            return
        record = make_record(
            plan.ruleset,
            plan.players,
            plan.deal,
            moves,
            state.get("result"),
            description=(
                f"Played by durak-conformance fuzz (seed {self.config.seed}, game {plan.index}): "
                "uniformly random legal moves, with the reference engine and the engine under "
                "test agreeing on every legal set, refusal and state. The result is what both "
                "engines computed, not worked out by hand; replay checks every move's legality."
            ),
            tags={
                "producer": "durak-conformance fuzz",
                "reference": self.engine_name("reference"),
                "engine": self.engine_name("candidate"),
                "seed": str(self.config.seed),
                "game": plan.index,
            },
        )
        name = f"fuzz-{self.config.seed}-game-{plan.index}.json"
        write_record(self.config.records_dir / name, record)

    def reproduce_command(self, plan_index: int) -> str:
        parts = ["durak-conformance", "fuzz"]
        engine = self.specs.get("candidate") or self.candidate.describe()
        parts += ["--engine", engine]
        if self.specs.get("reference"):
            parts += ["--reference", self.specs["reference"]]
        parts += ["--seed", str(self.config.seed), "--game", str(plan_index)]
        for request in self.config.rulesets:
            shown = request if isinstance(request, str) else json.dumps(request, sort_keys=True)
            parts += ["--ruleset", shown]
        for count in self.config.players:
            parts += ["--players", str(count)]
        if self.config.vary_options:
            parts.append("--vary-options")
        if self.config.deal != "deck":
            parts += ["--deal", self.config.deal]
        return shlex.join(parts)

    def describe(self, finding: Finding) -> str:
        """The fixture's description: how it was found, how to reproduce it, what to review."""
        rules = ", ".join(finding.rules)
        return (
            f"Found by differential fuzzing (durak-conformance fuzz), not yet reviewed. "
            f"Reference engine: {self.engine_name('reference')}; engine under test: "
            f"{self.engine_name('candidate')}. Fuzz seed {self.config.seed}, game "
            f"{finding.game} ({finding.context.get('ruleset_name')}, {finding.players} players), "
            f"after {finding.depth} random move(s); the start is the last state both engines "
            f"agreed on. Disagreement ({finding.kind}): {finding.summary}. Reproduce with: "
            f"{self.reproduce_command(finding.game)}. The expected answers are the reference "
            f"engine's, not yet the rules': before committing this case to the suite, review "
            f"them by reading spec/rules.md ({rules}), then give the case a meaningful id and "
            f"rewrite this description to say why the answer follows from the rules."
        )
