"""Differential fuzzing: random games on the reference engine and an engine under test, in step.

Each game is planned from ``(seed, game index)`` alone (a preset the engine claims, a player
count, a shuffled deck or a seed, a dealer, sometimes a previous game of a match), so any game can
be played again on its own (``--game K``). Both engines deal; then, position by position, the
fuzzer compares:

1. the legal sets, as sets of canonical moves (a move listed twice is a disagreement too);
2. a few moves outside the legal set, which both must refuse with the same code and rule;
3. the state after one legal move chosen at random, applied to both, compared in the runner's
   canonical form (:func:`conformance.contract.canonical.normalise_state`).

The first disagreement of a game ends it and becomes a :class:`~conformance.tools.findings.Finding`:
a YAML fixture starting at the state before the step (the last state both agreed on, so the case
is minimal in depth) with that one step and the reference's answer as the expected value. Findings
are grouped by signature (the kind of disagreement); of each group only the one reached after the
fewest moves is kept, so the fixture on disk is the shortest history seen. Every fixture is then
run with :class:`~conformance.suite.cases.CaseRunner` on both engines: it must pass on the reference
and fail on the engine under test, or the report says it does not reproduce.

The engine under test may misbehave: it is driven through the same :class:`Engine` interface as
the runner (a :class:`~conformance.engines.process.SubprocessEngine` for a command), so a crash, a timeout
or garbage is a finding of its own, never a crash of the fuzzer.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.contract import canonical
from conformance.contract.cards import deck as canonical_deck
from conformance.engines.base import Engine, ErrorResult
from conformance.suite.applicability import substitute
from conformance.suite.invariants import state_problems
from conformance.tools.findings import (
    ACTION_RULES,
    DEAL_POINTER_RULES,
    MATCH_POINTER_RULES,
    Finding,
    diff_paths,
    fixture_case,
    pointer_of,
    pointer_rules,
    refusal_rules,
    state_rules,
    value_at,
    write_fixture,
)
from conformance.tools.record import MOVE_ACTIONS, TEAM_PLAYERS, make_record, max_players

DEFAULT_GAMES = 100
DEFAULT_PROBES = 2
DEFAULT_MAX_MOVES = 1000
DEFAULT_OUT = "fuzz-findings"
#: Options never varied by ``--vary-options``: teams fix the player count.
_FIXED_OPTIONS = ("teams",)

#: A game stops after this many disagreements: beyond them it is mostly one bug repeating.
MAX_FINDINGS_PER_GAME = 10


@dataclass
class FuzzConfig:
    """What to fuzz. ``rulesets``: presets to draw from (default all); ``players``: counts to
    draw from (default every count the preset and both engines allow)."""

    games: int = DEFAULT_GAMES
    seed: int = 0
    rulesets: list[str] = field(default_factory=list)
    players: list[int] = field(default_factory=list)
    probes: int = DEFAULT_PROBES
    max_moves: int = DEFAULT_MAX_MOVES
    deal: str = "deck"  # deck | seed | mixed
    vary_options: bool = False
    only_game: int | None = None
    stop_first: bool = False
    records_dir: Path | None = None


@dataclass(frozen=True)
class GamePlan:
    """One game, fully determined by the fuzz seed and its index."""

    index: int
    ruleset: str | dict[str, Any]
    name: str
    players: int
    deal: dict[str, Any]
    move_seed: int


@dataclass
class FuzzReport:
    """Totals of a fuzz run and the findings kept (one per signature, the shallowest)."""

    seed: int
    games: int = 0
    finished: int = 0
    #: games with at least one disagreement (each game goes on from the reference's state)
    stopped: int = 0
    #: how many times each root cause (finding signature) was met, over every game
    causes: dict[str, int] = field(default_factory=dict)
    capped: int = 0
    moves: int = 0
    probes: int = 0
    elapsed: float = 0.0
    findings: dict[str, Finding] = field(default_factory=dict)
    paths: dict[str, Path] = field(default_factory=dict)
    reproduces: dict[str, str] = field(default_factory=dict)
    reference_problems: list[str] = field(default_factory=list)
    gave_up: str | None = None
    combos: list[tuple[str, int]] = field(default_factory=list)

    @property
    def games_per_second(self) -> float:
        return self.games / self.elapsed if self.elapsed else 0.0


# ---------------------------------------------------------------------------------- planning


def preset_names() -> list[str]:
    from reference_impl.rulesets import preset_names as names

    return list(names())


def _claims(support: Any, options: dict[str, Any], players: int) -> bool:
    from reference_impl.rulesets import default_options

    return support is None or support.unsupported(options, players, default_options()) is None


def game_choices(
    config: FuzzConfig, supports: list[Any]
) -> tuple[list[tuple[str | dict[str, Any], int]], list[str]]:
    """Every (ruleset, players) pair to draw games from, and why some asked for were left out.

    Each ruleset asked for (a preset name by default, or any ``new_game`` form) is fitted into
    the intersection of the engines' claims: an option whose value not every engine claims takes
    a value they all claim (the catalog default first). Only the deck, the player count and the
    team seating are never changed."""
    from reference_impl.rulesets import resolve_ruleset

    requests = config.rulesets or preset_names()
    choices: list[tuple[str | dict[str, Any], int]] = []
    skipped: list[str] = []
    for request in requests:
        label = request if isinstance(request, str) else json.dumps(request, sort_keys=True)
        options = resolve_ruleset(request)["options"]
        size, decks, teams = int(options["deck_size"]), int(options["decks"]), options["teams"]
        counts = (
            [TEAM_PLAYERS[teams]]
            if teams != "none"
            else list(range(2, max_players(size, decks) + 1))
        )
        if config.players:
            counts = [n for n in counts if n in config.players]
        fitted = [(fit_to_claims(request, n, supports), n) for n in counts]
        claimed = [(ruleset, n) for ruleset, n in fitted if ruleset is not None]
        if not claimed:
            skipped.append(
                f"{label}: no player count and option values every engine claims"
                if counts
                else f"{label}: none of the player counts asked for"
            )
        choices += claimed
    return choices, skipped


def fit_to_claims(
    request: str | dict[str, Any], players: int, supports: list[Any]
) -> str | dict[str, Any] | None:
    """``request`` with every option no engine-wide claim covers set to a value all engines
    claim, or None when that is impossible (the deck, the count or the teams are not claimed, or
    an option has no common value)."""
    from reference_impl.rulesets import (
        RulesetError,
        catalog_options,
        default_options,
        resolve_ruleset,
    )

    options = resolve_ruleset(request)["options"]
    defaults = default_options()
    fitted: dict[str, Any] = {}
    for option, value in options.items():
        if all(_value_claimed(s, option, value) for s in supports):
            continue
        if option in ("deck_size", "decks", *_FIXED_OPTIONS):
            return None
        common = [
            v
            for v in catalog_options()[option]["values"]
            if all(_value_claimed(s, option, v) for s in supports)
        ]
        if not common:
            return None
        fitted[option] = defaults[option] if defaults[option] in common else common[0]
    candidate = substitute(request, fitted)
    try:
        resolved = resolve_ruleset(candidate)["options"]
    except RulesetError:
        return None
    return candidate if all(_claims(s, resolved, players) for s in supports) else None


def _vary(
    rng: random.Random, preset: str | dict[str, Any], players: int, supports: list[Any]
) -> tuple[str | dict[str, Any], str]:
    """A ruleset with random overrides among the values every engine claims."""
    from reference_impl.rulesets import catalog_options, resolve_ruleset

    base = resolve_ruleset(preset)["options"]
    overrides: dict[str, Any] = {}
    for option, spec in catalog_options().items():
        if option in _FIXED_OPTIONS or rng.random() >= 0.3:
            continue
        values = [v for v in spec["values"] if all(_value_claimed(s, option, v) for s in supports)]
        if values:
            value = rng.choice(values)
            if value != base[option]:
                overrides[option] = value
    options = {**base, **overrides}
    if players > max_players(int(options["deck_size"]), int(options["decks"])):
        overrides.pop("deck_size", None)
        overrides.pop("decks", None)
    plain = (preset, resolve_ruleset(preset)["name"])
    if not overrides:
        return plain
    ruleset = substitute(preset, overrides)
    resolved = resolve_ruleset(ruleset)
    if not all(_claims(s, resolved["options"], players) for s in supports):
        return plain
    return ruleset, resolved["name"]


def _value_claimed(support: Any, option: str, value: Any) -> bool:
    if support is None:
        return True
    from reference_impl.rulesets import default_options

    if option in ("deck_size", "decks") and option not in support.options:
        return True  # decks are claimed through supports.players
    return str(value) in support.option_values(option, default_options()[option])


def plan_game(
    config: FuzzConfig, index: int, choices: list[tuple[str, int]], supports: list[Any]
) -> GamePlan:
    """The game with this index: depends only on the seed, the index and the choices."""
    from reference_impl.rulesets import resolve_ruleset

    rng = random.Random(f"durak-fuzz/{config.seed}/{index}")
    preset, players = rng.choice(choices)
    if config.vary_options:
        ruleset, name = _vary(rng, preset, players, supports)
    else:
        ruleset, name = preset, resolve_ruleset(preset)["name"]
    options = resolve_ruleset(ruleset)["options"]
    mode = config.deal if config.deal != "mixed" else rng.choice(("deck", "seed"))
    deal: dict[str, Any] = {}
    if mode == "seed":
        deal["seed"] = rng.getrandbits(64)
    else:
        deck = canonical_deck(int(options["deck_size"]), int(options["decks"]))
        rng.shuffle(deck)
        deal["deck"] = deck
    # a next game of a match, or a dealer other than N-1, only for engines that play them (P-16)
    matches = all(s is None or (s.match and s.dealer) for s in supports)
    dealers = all(s is None or s.dealer for s in supports)
    if rng.random() < 0.25 and matches:
        deal["previous"] = _previous(rng, players, options["teams"])
    else:
        deal["dealer"] = rng.randrange(players) if dealers else players - 1
    return GamePlan(index, ruleset, name, players, deal, rng.getrandbits(64))


def _previous(rng: random.Random, players: int, teams: str) -> dict[str, Any]:
    """A plausible previous game of a match: a fool, or (rarely) a draw."""
    seats = list(range(players))
    rng.shuffle(seats)
    if rng.random() < 0.2:
        result = {"fool": None, "draw": True, "losing_team": None}
        order = seats
    else:
        fool = seats.pop()
        team = None if teams == "none" else (fool % 3 if teams == "2v2v2" else fool % 2)
        result = {"fool": fool, "draw": False, "losing_team": team}
        order = seats
    result.update(winners=[], finishing_order=order, epaulettes=None)
    return {"dealer": rng.randrange(players), "result": result}


# ---------------------------------------------------------------------------------- probing


def probe_moves(
    state: dict[str, Any], legal_keys: set[str], rng: random.Random, count: int
) -> list[dict[str, Any]]:
    """Up to ``count`` well-formed moves outside the legal set: mostly cards of the mover's own
    hand, movers mostly the attacker and the defender, every action."""
    players = state.get("players") or []
    if count <= 0 or not players:
        return []
    table = state.get("table") or []
    bout = state.get("bout") or {}
    every = [c for p in players for c in p.get("hand", [])]
    every += [c for pair in table for c in (pair.get("attack"), pair.get("defence")) if c]
    every += list(state.get("talon") or []) + list(state.get("discard") or [])
    attacks = [pair["attack"] for pair in table if pair.get("attack")]
    movers = [s for s in (bout.get("attacker"), bout.get("defender")) if isinstance(s, int)]
    seen = set(legal_keys)
    out: list[dict[str, Any]] = []
    for _ in range(count * 10):
        if len(out) >= count:
            break
        seat = rng.choice(movers) if movers and rng.random() < 0.6 else rng.randrange(len(players))
        hand = players[seat].get("hand") or []
        pool = hand if hand and rng.random() < 0.85 else every
        if not pool:
            continue
        action = rng.choice(MOVE_ACTIONS)
        move: dict[str, Any] = {"player": seat, "action": action}
        if action in ("attack", "transfer"):
            first = rng.choice(pool)
            twins = [c for c in pool if c[0] == first[0] and c != first]
            move["cards"] = [first] + ([rng.choice(twins)] if twins and rng.random() < 0.4 else [])
        elif action in ("throw_in", "show_trump"):
            move["card"] = rng.choice(pool)
        elif action == "beat":
            move["target"] = rng.choice(attacks or every)
            move["card"] = rng.choice(pool)
        key = canonical.canonical_move(move)
        if key not in seen:
            seen.add(key)
            out.append(move)
    return out


# ---------------------------------------------------------------------------------- playing


class _GiveUp(Exception):
    """The engine under test is given up (circuit breaker open): stop fuzzing."""


def _answer_text(answer: Any) -> str:
    if isinstance(answer, ErrorResult):
        return str(answer)
    return f"a {type(answer).__name__}"


def _move_rules(moves: list[dict[str, Any]]) -> list[str]:
    rules: list[str] = []
    for move in moves:
        for rule in ACTION_RULES.get(move.get("action"), ()):  # type: ignore[arg-type]
            if rule not in rules:
                rules.append(rule)
    return rules or ["R-PLAY-1"]


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
        self.choices: list[tuple[str, int]] = []
        self.skipped: list[str] = []

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

    def run(self) -> FuzzReport:
        began = time.perf_counter()
        indices = (
            [self.config.only_game]
            if self.config.only_game is not None
            else list(range(self.config.games))
        )
        try:
            for index in indices:
                plan = plan_game(self.config, index, self.choices, self.supports)
                found = self.play(plan)
                self.report.games += 1
                if found:
                    self.report.stopped += 1
                for finding in found:
                    causes = self.report.causes
                    causes[finding.signature] = causes.get(finding.signature, 0) + 1
                    self._keep(finding)
                if found and self.config.stop_first:
                    break
                self._progress()
        except _GiveUp as exc:
            self.report.gave_up = str(exc)
        self.report.elapsed = time.perf_counter() - began
        self._check_reproduction()
        return self.report

    def _keep(self, finding: Finding) -> None:
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

    def play(self, plan: GamePlan) -> list[Finding]:
        """One game in step, to its end: every disagreement met (at most
        :data:`MAX_FINDINGS_PER_GAME`). After one, the game goes on from the reference's state,
        so an early, frequent bug does not hide later ones; a deal that differs ends the game."""
        found: list[Finding] = []
        self._play(plan, found)
        return found

    def _play(self, plan: GamePlan, found: list[Finding]) -> None:
        reference, candidate = self.reference, self.candidate
        deal = plan.deal
        args = {
            "seed": deal.get("seed"),
            "deck": deal.get("deck"),
            "dealer": deal.get("dealer"),
            "previous": deal.get("previous"),
        }
        context = {"ruleset_name": plan.name}
        ref_state = reference.new_game(plan.ruleset, plan.players, **args)
        if isinstance(ref_state, ErrorResult):
            self._reference_problem(plan, 0, f"new_game: {ref_state}")
            return
        cand_state = candidate.new_game(plan.ruleset, plan.players, **args)
        self._check_alive(cand_state)
        ref_norm = canonical.normalise_state(ref_state)
        if (
            isinstance(cand_state, ErrorResult)
            or not isinstance(cand_state, dict)
            or canonical.dumps(ref_norm) != canonical.dumps(canonical.normalise_state(cand_state))
        ):
            found.append(self._deal_finding(plan, ref_state, cand_state, context))
            return
        rng = random.Random(plan.move_seed)
        state = ref_state
        moves: list[dict[str, Any]] = []
        clean = True  # no disagreement yet: only such a game is saved as a record

        limit = 1 if self.config.stop_first else MAX_FINDINGS_PER_GAME

        def met(finding: Finding | None) -> bool:
            nonlocal clean
            if finding is None:
                return False
            found.append(finding)
            clean = False
            return True

        while len(found) < limit:
            depth = len(moves)
            if depth >= self.config.max_moves:
                self.report.capped += 1
                break
            ref_legal = reference.legal_moves(state)
            if isinstance(ref_legal, ErrorResult):
                self._reference_problem(plan, depth, f"legal_moves: {ref_legal}")
                return
            cand_legal = candidate.legal_moves(state)
            self._check_alive(cand_legal)
            met(self._compare_legal(plan, depth, state, ref_legal, cand_legal, context))
            if len(found) >= limit:
                break
            if not ref_legal:
                self.report.finished += 1
                if clean:
                    self._save_record(plan, moves, state)
                break
            keys = {canonical.canonical_move(m) for m in ref_legal}
            for probe in probe_moves(state, keys, rng, self.config.probes):
                if met(self._compare_refusal(plan, depth, state, probe, context)):
                    break  # one refusal finding per position is enough
            if len(found) >= limit:
                break
            # go on with a move both engines list, so one bug is not met again as another
            shared = _shared_moves(ref_legal, cand_legal)
            move = rng.choice(shared or sorted(ref_legal, key=canonical.canonical_move))
            ref_next = reference.apply(state, move)
            if isinstance(ref_next, ErrorResult):
                self._reference_problem(plan, depth, f"apply of its own legal move: {ref_next}")
                return
            if shared:
                cand_next = candidate.apply(state, move)
                self._check_alive(cand_next)
                met(self._compare_next(plan, depth, state, move, ref_next, cand_next, context))
            moves.append(move)
            self.report.moves += 1
            state = ref_next

    # ------------------------------------------------------------------ comparisons

    def _check_alive(self, answer: Any) -> None:
        if isinstance(answer, ErrorResult) and answer.code == "not_run":
            raise _GiveUp(answer.message)

    def _reference_problem(self, plan: GamePlan, depth: int, text: str) -> None:
        self.report.reference_problems.append(f"game {plan.index} after {depth} moves: {text}")
        self.log(f"game {plan.index}: the reference engine failed: {text} (game skipped)")

    def _finding(self, plan: GamePlan, **fields: Any) -> Finding:
        return Finding(ruleset=plan.ruleset, players=plan.players, game=plan.index, **fields)

    def _deal_finding(
        self, plan: GamePlan, ref_state: Any, cand_state: Any, context: dict[str, Any]
    ) -> Finding:
        start = {
            key: plan.deal[key]
            for key in ("deck", "seed", "dealer", "previous")
            if key in plan.deal
        }
        ref_norm = canonical.normalise_state(ref_state)
        table = MATCH_POINTER_RULES if "previous" in start else DEAL_POINTER_RULES
        if isinstance(cand_state, dict):
            paths = diff_paths(ref_norm, canonical.normalise_state(cand_state))
            shapes = sorted({_shape(p) for p in paths})
            summary = "the dealt states differ at " + ", ".join(pointer_of(p) for p in paths[:8])
            signature = "deal: " + ",".join(shapes)
        else:
            paths = [("trump",), ("bout", "attacker"), ("bout", "defender")]
            summary = f"new_game answered {_answer_text(cand_state)}"
            signature = _fault_signature("new_game", cand_state) or f"deal: {_code(cand_state)}"
        expect = {pointer_of(p): value_at(ref_norm, p) for p in paths}
        return self._finding(
            plan,
            kind="deal",
            signature=signature,
            summary=summary,
            start=start,
            steps=[{"expect": expect}],
            rules=["R-DEAL-1"] + [r for r in pointer_rules(paths, table) if r != "R-DEAL-1"],
            depth=0,
            context=context,
            reference_answer=ref_norm,
            candidate_answer=_shown(cand_state),
        )

    def _compare_legal(
        self,
        plan: GamePlan,
        depth: int,
        state: dict[str, Any],
        ref_legal: list[dict[str, Any]],
        cand_legal: Any,
        context: dict[str, Any],
    ) -> Finding | None:
        want = {canonical.canonical_move(m): m for m in ref_legal}
        if isinstance(cand_legal, list):
            got = [canonical.canonical_move(m) for m in cand_legal]
            missing = [want[k] for k in sorted(set(want) - set(got))]
            extra = [_loads(k) for k in sorted(set(got) - set(want))]
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
            signature = "legal: " + ", ".join(kinds)
            rules = refusal_rules(self.reference, state, [m for m in extra if isinstance(m, dict)])
            rules += [
                r for r in _move_rules([m for m in missing if isinstance(m, dict)]) if r not in rules
            ]
            note = summary
            actual: Any = {"missing": missing, "extra": extra, "twice": twice}
        else:
            summary = f"legal_moves answered {_answer_text(cand_legal)}"
            signature = _fault_signature("legal_moves", cand_legal) or f"legal: {_code(cand_legal)}"
            rules = _move_rules(ref_legal) if ref_legal else ["R-PLAY-2"]
            note = f"found when the engine under test answered {_answer_text(cand_legal)}"
            actual = _shown(cand_legal)
        return self._finding(
            plan,
            kind="legal",
            signature=signature,
            summary=summary,
            start={"state": state},
            steps=[{"legal": list(ref_legal), "note": _note(note)}],
            rules=rules,
            depth=depth,
            context=context,
            reference_answer=list(ref_legal),
            candidate_answer=actual,
        )

    def _compare_refusal(
        self,
        plan: GamePlan,
        depth: int,
        state: dict[str, Any],
        probe: dict[str, Any],
        context: dict[str, Any],
    ) -> Finding | None:
        self.report.probes += 1
        ref = self.reference.apply(state, probe)
        if not isinstance(ref, ErrorResult):
            self._reference_problem(
                plan,
                depth,
                f"accepted {canonical.canonical_move(probe)}, which its legal set lacks",
            )
            return None
        if ref.is_fault:
            self._reference_problem(plan, depth, f"apply of a probe: {ref}")
            return None
        cand = self.candidate.apply(state, probe)
        self._check_alive(cand)
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
        move_text = canonical.canonical_move(probe)
        summary = f"{move_text}: the reference refuses it ({want}), the engine under test {got}"
        step["note"] = _note(f"the engine under test {got}")
        short = got if not isinstance(cand, ErrorResult) or not cand.is_fault else cand.code
        return self._finding(
            plan,
            kind="refuse",
            signature=_fault_signature("apply", cand)
            or f"refuse: {probe['action']} {want} -> {short}",
            summary=summary,
            start={"state": state},
            steps=[step],
            rules=[ref.rule] if ref.rule else ["R-PLAY-5"],
            depth=depth,
            context=context,
            reference_answer=ref.to_json(),
            candidate_answer=_shown(cand),
        )

    def _compare_next(
        self,
        plan: GamePlan,
        depth: int,
        state: dict[str, Any],
        move: dict[str, Any],
        ref_next: dict[str, Any],
        cand_next: Any,
        context: dict[str, Any],
    ) -> Finding | None:
        action_rules = _move_rules([move])
        move_text = canonical.canonical_move(move)
        if isinstance(cand_next, ErrorResult) or not isinstance(cand_next, dict):
            return self._finding(
                plan,
                kind="move",
                signature=_fault_signature("apply", cand_next)
                or f"move: {move['action']} {_code(cand_next)}",
                summary=f"{move_text}: listed by both, but apply answered "
                f"{_answer_text(cand_next)}",
                start={"state": state},
                steps=[
                    {
                        "move": move,
                        "note": _note(f"the engine under test answered {_answer_text(cand_next)}"),
                    }
                ],
                rules=action_rules,
                depth=depth,
                context=context,
                reference_answer="accepted",
                candidate_answer=_shown(cand_next),
            )
        ref_norm = canonical.normalise_state(ref_next)
        cand_norm = canonical.normalise_state(cand_next)
        if canonical.dumps(ref_norm) == canonical.dumps(cand_norm):
            return None
        paths = diff_paths(ref_norm, cand_norm)
        expect = {pointer_of(p): value_at(ref_norm, p) for p in paths}
        got = {pointer_of(p): _value_or_missing(cand_norm, p) for p in paths}
        shapes = sorted({_shape(p) for p in paths})
        invariants = sorted({problem.rule for problem in state_problems(cand_next)})
        broken = state_rules(state, ref_norm, cand_next, paths)
        rules = broken + [r for r in action_rules if r not in broken]
        # a broken invariant is the root cause whatever move showed it; else where and how
        signature = (
            "state: breaks " + ", ".join(invariants)
            if invariants
            else f"state: {move['action']} {','.join(shapes)}"
        )
        return self._finding(
            plan,
            kind="state",
            signature=signature,
            summary=f"after {move_text} the states differ at " + ", ".join(list(expect)[:8]),
            start={"state": state},
            steps=[
                {"move": move},
                {
                    "expect": expect,
                    "note": _note(f"the engine under test has {canonical.dumps(got)}"),
                },
            ],
            rules=rules,
            depth=depth,
            context=context,
            reference_answer=expect,
            candidate_answer=got,
        )

    # ------------------------------------------------------------------ records and text

    def _save_record(self, plan: GamePlan, moves: list[dict[str, Any]], state: dict) -> None:
        if self.config.records_dir is None:
            return
        from conformance.tools.record import write_record

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
        import shlex

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


def _shared_moves(ref_legal: list[dict[str, Any]], cand_legal: Any) -> list[dict[str, Any]]:
    """The reference's legal moves the engine under test lists too, in canonical order."""
    if not isinstance(cand_legal, list):
        return []
    theirs = {canonical.canonical_move(m) for m in cand_legal if isinstance(m, dict)}
    ordered = sorted(ref_legal, key=canonical.canonical_move)
    return [m for m in ordered if canonical.canonical_move(m) in theirs]


def _loads(text: str) -> Any:
    return json.loads(text)


def _note(text: str) -> str:
    return text if len(text) <= 600 else text[:597] + "..."


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


def _shape(path: tuple) -> str:
    return pointer_of(tuple("*" if isinstance(p, int) else p for p in path))


def _value_or_missing(document: Any, path: tuple) -> Any:
    value, _ = canonical.resolve(document, pointer_of(path))
    return repr(value) if value is canonical.MISSING else value


def _moves_text(moves: list[Any], limit: int = 4) -> str:
    shown = [canonical.canonical_move(m) for m in moves[:limit]]
    more = f" and {len(moves) - limit} more" if len(moves) > limit else ""
    return ", ".join(shown) + more


# ---------------------------------------------------------------------------------- CLI


def _comma_list(values: list[str]) -> list[str]:
    return [part for value in values for part in value.split(",") if part]


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``fuzz`` subcommand's own arguments (the CLI adds --engine and the process limits)."""
    parser.add_argument(
        "--reference",
        metavar="CMD",
        help="the reference side (default: the reference engine in process); same forms as "
        "--engine",
    )
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games to play")
    parser.add_argument(
        "--seed", type=int, help="fuzz seed (default: a random one, printed so it can be reused)"
    )
    parser.add_argument(
        "--game", type=int, metavar="K", help="play only game K of the seed (to reproduce it)"
    )
    parser.add_argument(
        "--ruleset",
        nargs="+",
        action="extend",
        default=[],
        metavar="RULESET",
        help="rulesets to draw games from: a preset name or a new_game ruleset as JSON, e.g. "
        '\'{"preset": "podkidnoy", "overrides": {"attack_limit": "six"}}\' (default: every '
        "preset); option values an engine does not claim are set to ones both engines claim",
    )
    parser.add_argument(
        "--players",
        nargs="+",
        action="extend",
        type=int,
        default=[],
        metavar="N",
        help="player counts to draw from (default: every count the preset allows)",
    )
    parser.add_argument(
        "--vary-options",
        action="store_true",
        help="override random options of the preset (values both engines claim)",
    )
    parser.add_argument(
        "--deal",
        choices=("deck", "seed", "mixed"),
        default="deck",
        help="deal from a shuffled deck order (default), a portable-shuffle seed, or either",
    )
    parser.add_argument(
        "--probes",
        type=int,
        default=DEFAULT_PROBES,
        help=f"moves outside the legal set tried per position (default {DEFAULT_PROBES})",
    )
    parser.add_argument(
        "--max-moves",
        type=int,
        default=DEFAULT_MAX_MOVES,
        help=f"moves per game before it is cut (R-END-5; default {DEFAULT_MAX_MOVES})",
    )
    parser.add_argument(
        "--out",
        default=DEFAULT_OUT,
        metavar="DIR",
        help=f"where findings are written as YAML fixtures (default ./{DEFAULT_OUT})",
    )
    parser.add_argument(
        "--records", metavar="DIR", help="also write every agreed, finished game as a record"
    )
    parser.add_argument("--stop-first", action="store_true", help="stop at the first finding")


def run_cli(args: argparse.Namespace, out: Any = None) -> int:
    """``durak-conformance fuzz``: 0 without findings, 1 with findings, 2 for a usage error."""
    from conformance.engines.factory import EngineSpecError, make_engine

    out = out or sys.stdout

    def fail(message: str) -> int:
        print(f"durak-conformance fuzz: {message}", file=sys.stderr)
        return 2

    if not args.engine:
        return fail(
            "--engine CMD is required (the engine under test; 'reference' fuzzes the "
            "reference engine against itself)"
        )
    if args.games < 1 or args.probes < 0 or args.max_moves < 1:
        return fail("--games and --max-moves must be at least 1, --probes at least 0")
    try:
        rulesets = parse_rulesets(args.ruleset)
    except ValueError as exc:
        return fail(str(exc))
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    config = FuzzConfig(
        games=args.games,
        seed=seed,
        rulesets=rulesets,
        players=list(args.players),
        probes=args.probes,
        max_moves=args.max_moves,
        deal=args.deal,
        vary_options=args.vary_options,
        only_game=args.game,
        stop_first=args.stop_first,
        records_dir=Path(args.records) if args.records else None,
    )
    limits = {"timeout": args.timeout, "max_faults": args.max_faults, "max_line": args.max_line}
    try:
        reference = make_engine(args.reference, **limits)
    except EngineSpecError as exc:
        return fail(f"--reference: {exc}")
    try:
        candidate = make_engine(args.engine, **limits)
    except EngineSpecError as exc:
        reference.close()
        return fail(f"--engine: {exc}")
    with reference, candidate:
        fuzzer = Fuzzer(
            reference,
            candidate,
            config,
            out_dir=args.out,
            log=lambda t: print(t, file=out),
            specs={"reference": args.reference or "", "candidate": args.engine},
        )
        problem = fuzzer.greet()
        if problem:
            return fail(problem)
        for why in fuzzer.skipped:
            print(f"skipped {why}", file=out)
        print(
            f"fuzz seed {seed}: {1 if config.only_game is not None else config.games} game(s) "
            f"over {len(fuzzer.choices)} ruleset/player combination(s)\n"
            f"  reference:         {fuzzer.engine_name('reference')}\n"
            f"  engine under test: {fuzzer.engine_name('candidate')}",
            file=out,
        )
        report = fuzzer.run()
        print(format_report(report), file=out)
    return 1 if report.findings or report.gave_up else 0


def parse_rulesets(values: list[str]) -> list[str | dict[str, Any]]:
    """``--ruleset`` values: preset names (comma-separated too) or JSON rulesets, each checked
    by resolving it; ``ValueError`` says which one is wrong and why."""
    from reference_impl.rulesets import RulesetError, resolve_ruleset

    out: list[str | dict[str, Any]] = []
    for value in values:
        text = value.strip()
        if text.startswith("{"):
            try:
                request = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ValueError(f"--ruleset {text}: not valid JSON: {exc}") from None
            items: list[Any] = [request]
        else:
            items = _comma_list([text])
        for item in items:
            if isinstance(item, str) and item not in preset_names():
                known = ", ".join(preset_names())
                raise ValueError(
                    f"--ruleset {item}: no such preset; the presets are {known} (or give a "
                    'JSON ruleset such as {"preset": "podkidnoy", "overrides": {...}})'
                )
            try:
                resolve_ruleset(item)
            except RulesetError as exc:
                raise ValueError(f"--ruleset {json.dumps(item)}: {exc}") from None
            out.append(item)
    return out


def format_report(report: FuzzReport) -> str:
    lines = []
    if report.gave_up:
        lines.append(f"stopped: {report.gave_up}")
    ranked = sorted(report.findings.items(), key=lambda item: -report.causes.get(item[0], 1))
    if ranked:
        met = sum(report.causes.values())
        lines.append(f"{len(ranked)} cause(s) of {met} disagreement(s), most frequent first:")
    for signature, finding in ranked:
        path = report.paths.get(signature)
        repro = report.reproduces.get(signature)
        lines.append(
            f"  {report.causes.get(signature, 1)} x [{signature}] {', '.join(finding.rules)}: "
            f"shallowest in game {finding.game}, {finding.depth} moves deep"
            + (f": {path}" if path else "")
            + (f" (reproduces: {repro})" if repro else "")
        )
    for problem in report.reference_problems[:10]:
        lines.append(f"reference problem: {problem}")
    lines.append(
        f"{report.games} game(s) ({report.finished} finished, {report.stopped} with a "
        f"disagreement, {report.capped} cut at the move cap), {report.moves} moves, {report.probes} probes, {len(report.findings)} finding(s) "
        f"in {report.elapsed:.1f} s ({report.games_per_second:.2f} games/s)"
    )
    return "\n".join(lines)
