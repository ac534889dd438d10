"""Running one case against an engine: the gate, the start, then each step judged by its handler.

Every form of case (a YAML fixture, a Gherkin scenario, a game record, a perft position, a fuzz
finding) is a :class:`~conformance.suite.loader.Case` and runs here. :meth:`CaseRunner.begin`
resolves the case's ruleset, checks the case against the rules of the game it plays, gates it on
the engine's claims (:mod:`conformance.suite.applicability`) and starts it (a state as written,
or the engine's ``new_game``; a ``start_refused`` case must see ``new_game`` refused). The
:class:`CaseRun` it answers takes the steps one at a time (:meth:`CaseRun.feed`), each judged by
the handler of its kind (:mod:`conformance.suite.handlers`), so a caller that reads its steps as
it goes (a Gherkin scenario) is judged exactly as a fixture is. :meth:`CaseRunner.run` is begin,
feed every step, finish.

The first step that does not hold ends the case; its :class:`CaseResult` carries everything a
reader needs to reproduce it: the case ID, its file and line, its rules, the starting state, the
step, the state before the step, the expected and the actual answer, and a stable signature.
"""

from __future__ import annotations

import copy
import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from conformance.contract import canonical
from conformance.contract.seats import legal_player_counts
from conformance.engines.base import Engine, ErrorResult, InProcessEngine
from conformance.engines.gating import Support
from conformance.suite.applicability import Applicability, decide, substitute
from conformance.suite.handlers import HANDLERS, bind_seats
from conformance.suite.loader import Case, Step
from conformance.suite.verdicts import (
    ErrorAnswer,
    StepFailed,
    check_invariants,
    refusal,
    require,
)

#: A case under a substitution of option values (the gate's replay on the reference engine).
Variant = Callable[[dict[str, Any]], Case]

#: Outcomes. ``failed``: a wrong answer; ``error``: the engine misbehaved (timeout, crash, garbled
#: answer); ``unsupported``: outside the engine's hello claim; ``not_run``: the engine had failed too
#: often to keep asking; ``broken``: the fixture itself cannot be run.
OUTCOMES = ("passed", "failed", "error", "unsupported", "not_run", "broken")


@dataclass
class CaseResult:
    """What happened to one case, whatever its form: the one record a report is written from.
    ``location`` (``file:line``) and ``rules`` are the case's; ``step`` holds its index and line."""

    case_id: str
    outcome: str
    message: str = ""
    signature: str | None = None  # a stable reason, matched by expected-failure lists
    step: Step | None = None
    expected: Any = None
    actual: Any = None
    start_state: Any = None
    state_before: Any = None
    diagnostics: dict[str, Any] = field(default_factory=dict)
    ruleset: dict[str, Any] | None = None
    duration: float = 0.0
    #: the gate's answer: option values substituted for the engine, or the claims that block it
    applicability: Applicability | None = None
    location: str = ""
    rules: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.outcome == "passed"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"outcome": self.outcome, "duration": round(self.duration, 6)}
        if self.outcome != "passed":
            out["message"] = self.message
            if self.signature:
                out["signature"] = self.signature
        if self.step is not None:
            out["step"] = {"index": self.step.index, "line": self.step.line, **self.step.data}
        if self.outcome in ("failed", "error"):
            out.update(
                expected=self.expected,
                actual=self.actual,
                start_state=self.start_state,
                state_before=self.state_before,
            )
        if self.diagnostics:
            out["diagnostics"] = self.diagnostics
        if self.applicability is not None:
            out.update(self.applicability.to_json())
        return out


class CaseRun:
    """One case being judged, step by step (:meth:`CaseRunner.begin` starts it).

    ``state`` is the state the case goes on from (the start, then each accepted move's answer);
    ``previous`` and ``last_move`` are the state before the last accepted move and that move.
    ``result`` is the verdict once it is known before the end (a failing step, an engine fault,
    an unsupported or broken case); :meth:`finish` gives the final one.
    """

    def __init__(self, runner: CaseRunner, case: Case, ruleset: dict[str, Any] | None):
        self.runner = runner
        self.engine = runner.engine
        self.check_states = runner.check_states
        self.case = case
        self.ruleset = ruleset
        self.applicability: Applicability | None = None
        self.state: Any = None
        self.start_state: Any = None  # the start, in canonical form
        self.before: Any = None  # the state before the step being judged, in canonical form
        self.previous: Any = None
        self.last_move: dict[str, Any] | None = None
        self.result: CaseResult | None = None
        self.steps_judged = 0
        self._began = time.perf_counter()

    @property
    def done(self) -> bool:
        """True once the verdict is known: no further step is judged."""
        return self.result is not None

    def feed(self, step: Step) -> CaseResult | None:
        """Judge ``step`` from the state now with the handler of its kind; None when it holds,
        else the failing result (kept: later steps are not judged). Seats the step names by
        role (``/bout/defender``) are read from the state now first."""
        if self.result is not None:
            return self.result
        if self.case.start_refused is not None:
            raise ValueError(f"case {self.case.id}: a refused start has no steps to judge")
        self.before = canonical.normalise_state(self.state)
        self.steps_judged += 1
        try:
            step = bind_seats(step, self.before)
            HANDLERS[step.kind](self, step)
        except (StepFailed, ErrorAnswer) as failure:
            self.close(self._failed(failure, step))
        return self.result

    def accept(self, after: Any, move: dict[str, Any]) -> None:
        """The case goes on from ``after``, the answer to the accepted ``move``."""
        self.previous, self.last_move, self.state = self.state, move, after

    def close(self, result: CaseResult) -> None:
        """The verdict is ``result``: no further step is judged."""
        result.location, result.rules = self.case.location, tuple(self.case.rules)
        self.result = result

    def finish(self) -> CaseResult:
        """The verdict: the failure or the gate's answer if there was one, else passed."""
        if self.result is None:
            self.close(CaseResult(self.case.id, "passed"))
        result = self.result
        if result.ruleset is None and self.ruleset is not None and result.outcome != "broken":
            result.ruleset = self.ruleset
        if self.applicability is not None and (
            result.outcome == "unsupported" or self.applicability.substituted
        ):
            result.applicability = self.applicability
        result.duration = time.perf_counter() - self._began
        return result

    # ---- the start ----------------------------------------------------------------------------

    def start(self) -> None:
        """Set the game up: the state as written (with the case's ruleset), or ``new_game``'s
        answer, which must hold every invariant; a ``start_refused`` case must be refused."""
        try:
            if self.case.start_refused is not None:
                self._refused_start()
                return
            start = self.case.start
            if "state" in start and self._by_route():
                state = self._reach()
            elif "state" in start:
                state = copy.deepcopy(start["state"])
                if isinstance(state, dict):
                    state["ruleset"] = copy.deepcopy(self.ruleset)
            else:
                state = require(self._new_game(), dict, what="new_game", expected="a state")
                if self.check_states:
                    check_invariants(state)
        except (StepFailed, ErrorAnswer) as failure:
            self.close(self._failed(failure, None))
            return
        self.state = state
        self.start_state = canonical.normalise_state(state)

    def _by_route(self) -> bool:
        """A position is reached through its route when the engine cannot be set up from it."""
        return bool(self.case.reached_by) and not self.runner.support.positions

    def _reach(self) -> Any:
        """The case's start, reached as a game would reach it: ``new_game`` with the route's deck
        and dealer, then its moves (``reached_by``, checked on the reference by the suite's own
        tests). The engine must arrive at exactly the written start."""
        route = self.case.reached_by or {}
        state = require(
            self.engine.new_game(
                self.case.ruleset, self.case.players,
                deck=route.get("deck"), dealer=route.get("dealer"),
            ),
            dict, what="new_game (the route to the start)", expected="a state",
        )
        for index, move in enumerate(route.get("moves", ())):
            state = require(
                self.engine.apply(state, move), dict,
                what=f"apply (move {index + 1} of the route to the start)", expected=move,
            )
        want = copy.deepcopy(self.case.start["state"])
        want["ruleset"] = copy.deepcopy(self.ruleset)
        want, got = canonical.normalise_state(want), canonical.normalise_state(state)
        differ = sorted(key for key in set(want) | set(got) if want.get(key) != got.get(key))
        if differ:
            raise StepFailed(
                "the deal and moves that reach the start led elsewhere, at "
                + ", ".join(f"/{key}" for key in differ),
                {f"/{key}": want.get(key) for key in differ},
                {f"/{key}": got.get(key) for key in differ},
                signature="route leads elsewhere at " + ", ".join(differ),
            )
        return state

    def _new_game(self) -> Any:
        start = self.case.start
        return self.engine.new_game(
            self.case.ruleset,
            self.case.players,
            seed=start.get("seed"),
            deck=start.get("deck"),
            dealer=start.get("dealer"),
            previous=start.get("previous"),
        )

    def _refused_start(self) -> None:
        """``new_game`` must answer the error code of ``start_refused``. Its rule is what the case
        shows; an engine need not cite one with ``bad_request`` (P-9), so it is not compared."""
        code = self.case.start_refused["code"]
        rule = self.case.start_refused.get("rule")
        expected = {"code": code, "rule": rule} if rule else {"code": code}
        why = f" ({rule})" if rule else ""
        if "state" in self.case.start:
            self._refused_state(expected, why)
            return
        answer = self._new_game()
        if not isinstance(answer, ErrorResult):
            state = canonical.normalise_state(answer) if isinstance(answer, dict) else answer
            raise StepFailed(
                f"new_game set the game up; it must be refused with {code}{why}",
                expected,
                {"accepted": True, "state": state},
                signature="accepted",
            )
        if answer.is_fault:
            raise ErrorAnswer(answer, "new_game", expected)
        if answer.code != code:
            hint = (
                "; unsupported is for a game the rules allow but the engine does not offer"
                if answer.code == "unsupported"
                else ""
            )
            raise StepFailed(
                f"new_game was refused with {answer.code}, expected {code}{why}{hint}",
                expected,
                answer.to_json(),
                signature=f"refused with {answer.code}",
            )

    def _refused_state(self, expected: dict[str, Any], why: str) -> None:
        """A start state no game reaches, sent with ``legal_moves``: the answer must be
        invalid_state carrying a JSON pointer (P-26). The case's pointer is where the
        impossibility lies; the protocol only asks that the pointer name the first problem
        (SHOULD), so it is shown, not compared."""
        state = copy.deepcopy(self.case.start["state"])
        if isinstance(state, dict):
            state["ruleset"] = copy.deepcopy(self.ruleset)
            _overwrite(state, self.case.start.get("overwrite", {}))
        if self.case.start_refused.get("pointer") is not None:
            expected = {**expected, "pointer": self.case.start_refused["pointer"]}
        answer = self.engine.legal_moves(state)
        refusal(
            answer, "invalid_state", what="legal_moves", expected=expected,
            accepted=f"legal_moves answered moves for a state no game reaches; it must be "
                     f"refused with invalid_state{why}",
            instead={"legal": answer}, signature="accepted an invalid state", subject="the state",
            why=why,
        )
        if not isinstance(answer.pointer, str) or (answer.pointer and answer.pointer[0] != "/"):
            raise StepFailed(
                "legal_moves answered invalid_state without a JSON pointer to the problem "
                "(P-26: pointer, \"\" for the whole state)",
                expected,
                answer.to_json(),
                signature="invalid_state without a pointer",
            )

    # ---- results ------------------------------------------------------------------------------

    def _failed(self, failure: StepFailed | ErrorAnswer, step: Step | None) -> CaseResult:
        """The record of a start or a step that did not hold."""
        where = f"step {step.index} {step.kind}" if step else "start"
        context = {
            "step": step,
            "start_state": self.start_state if step else None,
            "state_before": self.before if step else None,
        }
        if isinstance(failure, StepFailed):
            return CaseResult(
                self.case.id,
                "failed",
                f"{where}: {failure.message}",
                signature=f"{where}: {failure.signature}",
                expected=failure.expected,
                actual=failure.actual,
                **context,
            )
        answer, what = failure.answer, failure.what
        context.update(
            expected=failure.expected,
            actual=answer.to_json(),
            diagnostics=dict(answer.diagnostics),
        )
        if answer.code == "not_run":
            return CaseResult(
                self.case.id, "not_run", answer.message, signature="not_run", **context
            )
        if answer.is_fault:
            return CaseResult(
                self.case.id,
                "error",
                f"{where}: the engine failed on {what}: {answer}",
                signature=f"{where}: {answer.code}",
                **context,
            )
        if answer.code == "unsupported":
            return CaseResult(
                self.case.id,
                "failed",
                f"{where}: hello claims support for this case but {what} answered {answer}",
                signature=f"{where}: unsupported despite hello",
                **context,
            )
        rule = f" {answer.rule}" if answer.rule else ""
        return CaseResult(
            self.case.id,
            "failed",
            f"{where}: {what} was refused: {answer}",
            signature=f"{where}: refused {answer.code}{rule}",
            **context,
        )


class CaseRunner:
    """Runs cases against one engine within its ``hello`` claim.

    ``resolve`` turns a fixture ruleset into ``{"name", "options"}`` and ``defaults`` gives each
    option's catalog default; both come from the spec data (``reference_impl.rulesets``) unless
    given, so tests can run without it. ``reference`` is the engine that decides whether a case
    applies to the engine's claims (:mod:`conformance.suite.applicability`); by default the reference
    engine in process, started only when a case needs a substitution. ``check_states=False``
    skips the invariants every answered state must hold (:mod:`conformance.suite.invariants`), for
    tests of the step semantics on scripted engines whose states are fragments.
    """

    def __init__(
        self,
        engine: Engine,
        support: Support,
        *,
        resolve: Any = None,
        defaults: dict[str, Any] | None = None,
        reference: Engine | None = None,
        check_states: bool = True,
    ):
        from reference_impl import rulesets

        self.check_states = check_states

        self.engine = engine
        self.support = support
        self._resolve = resolve or rulesets.resolve_ruleset
        self._defaults = defaults if defaults is not None else rulesets.default_options()
        self._catalog = rulesets.catalog_options()
        self._reference = reference
        self._reference_runner: CaseRunner | None = None

    # ------------------------------------------------------------------ public

    def resolve(self, case: Case) -> dict[str, Any] | str:
        """The case's full ruleset, or the reason it cannot be resolved."""
        try:
            return self._resolve(case.ruleset)
        except ValueError as exc:
            return str(exc)

    def gate(
        self, case: Case, ruleset: dict[str, Any], variant: Variant | None = None
    ) -> Applicability:
        """Whether the case runs on the engine, and with which option values substituted
        (:mod:`conformance.suite.applicability`). ``variant`` gives the case under a
        substitution (by default :meth:`substitute`), which the reference engine replays.

        A refused start with a player count R-DECK-4 forbids is not gated on the count: no
        honest ``hello`` lists such a count, so gating on it would skip the case on every
        engine; the deck and the option values must still be claimed (an engine without the
        teams option cannot be asked about a team game). A refused start with a count the rules
        allow (a malformed deck, say) is gated like any case. A case with an ``observe`` step
        needs ``supports.observe``, a deal by a seat other than N-1 ``supports.dealer``, a next
        game of a match ``supports.match`` (P-16).
        """
        variant = variant or (lambda substitution: self.substitute(case, substitution))
        options = ruleset["options"]
        forbidden = case.players not in legal_player_counts(options)
        needs = self.support.declined(case.players, case.start)
        if not self.support.observe and any(step.kind == "observe" for step in case.steps):
            needs += ("observe",)
        needs += self.support.unkept(case.steps, case.rules)  # P-16 keeps: fields derived
        if not self.support.positions and "state" in case.start and not case.reached_by:
            needs += ("positions",)  # P-16: no set-up from a state, and no route to this one
        return decide(
            options,
            case.players,
            self.support,
            lambda substitution: self._holds_on_reference(variant, substitution),
            catalog=self._catalog,
            defaults=self._defaults,
            count=not (case.start_refused is not None and forbidden),
            needs=needs,
        )

    @staticmethod
    def substitute(case: Case, substitution: dict[str, Any]) -> Case:
        """The case with ``substitution`` in its ruleset's overrides."""
        if not substitution:
            return case
        return dataclasses.replace(case, ruleset=substitute(case.ruleset, substitution))

    def _holds_on_reference(self, variant: Variant, substitution: dict[str, Any]) -> bool:
        """Every expectation of the case under ``substitution`` holds on the reference engine;
        a case that cannot be written under it (a scenario's position) does not hold."""
        try:
            case = variant(substitution)
        except ValueError:
            return False
        if self._reference_runner is None:
            self._reference_runner = CaseRunner(
                self.reference_engine(),
                Support.everything(),
                resolve=self._resolve,
                defaults=self._defaults,
            )
        return self._reference_runner.run(case).ok

    def reference_engine(self) -> Engine:
        """The reference engine (by default in process, started on first use): it decides
        whether a case applies (the gate) and shows where an engine parts from it; it never
        gives a case's expected answers."""
        if self._reference is None:
            self._reference = InProcessEngine()
        return self._reference

    def check(self, case: Case, ruleset: dict[str, Any]) -> str | None:
        """What makes the case itself unrunnable under the rules (None when nothing does): a
        case playing a player count R-DECK-4 forbids without ``start_refused`` (no engine may
        set it up, so it would be skipped or fail everywhere), or a refused start citing
        R-DECK-4 whose count the rule allows."""
        options = ruleset["options"]
        legal = legal_player_counts(options)
        cards = f"{options.get('deck_size', 36)}x{options.get('decks', 1)} cards"
        teams = options.get("teams", "none")
        game = f"{case.players} players with {cards}" + (
            f" and teams {teams}" if str(teams) != "none" else ""
        )
        allowed = ", ".join(map(str, sorted(legal))) or "none"
        if case.start_refused is None and case.players not in legal:
            return (
                f"the case plays {game}, which R-DECK-4 forbids (allowed: {allowed}); add "
                "start_refused: {code: bad_request, rule: R-DECK-4} or change players"
            )
        if (
            case.start_refused is not None
            and case.start_refused.get("rule") == "R-DECK-4"
            and case.players in legal
        ):
            return (
                f"start_refused cites R-DECK-4 but R-DECK-4 allows {game} (allowed: {allowed}); "
                "cite the rule the start breaks, or change players"
            )
        return None

    def begin(self, case: Case, variant: Variant | None = None) -> CaseRun:
        """Start ``case``: resolve its ruleset, check it, gate it on the engine's claims and set
        the game up. The run answered is then fed the steps (:meth:`CaseRun.feed`); when the
        verdict is already known (a broken or unsupported case, a start that fails) it is
        ``done``. ``variant``: the case under a substitution of option values, for the gate
        (a scenario is compiled again, its position built under the substituted options)."""
        ruleset = self.resolve(case)
        if isinstance(ruleset, str):
            run = CaseRun(self, case, None)
            refused = case.start_refused or {}
            if refused.get("code") == "bad_request" and refused.get("rule") != "R-DECK-4":
                run.start()  # a ruleset no engine may accept: nothing to gate on, new_game refuses
                return run
            run.close(CaseResult(case.id, "broken", f"the case's ruleset is invalid: {ruleset}"))
            return run
        run = CaseRun(self, case, ruleset)
        problem = self.check(case, ruleset)
        if problem is not None:
            message = f"{case.location}: {problem}"
            run.close(CaseResult(case.id, "broken", message, signature="broken fixture"))
            return run
        run.applicability = self.gate(case, ruleset, variant)
        if not run.applicability.runs:
            reason = run.applicability.reason or "not claimed in hello"
            run.close(CaseResult(case.id, "unsupported", reason, signature="unsupported"))
            return run
        if run.applicability.substituted:
            substituted = run.applicability.substituted
            run.case = variant(substituted) if variant else self.substitute(case, substituted)
            run.ruleset = self._resolve(run.case.ruleset)
        run.start()
        return run

    def run(self, case: Case) -> CaseResult:
        """The verdict on ``case``: begin, judge every step until one does not hold, finish."""
        run = self.begin(case)
        for step in run.case.steps:
            if run.feed(step) is not None:
                break
        return run.finish()


def _overwrite(state: dict[str, Any], changes: dict[str, Any]) -> None:
    """Set each ``start.overwrite`` value at its pointer: the one way a robustness case spoils
    what the case's ruleset would otherwise replace (the ruleset inside the state). The fixture
    schema lets only a refused start have it, and the loader checks that every pointer names a
    member of an object the state has (:mod:`conformance.suite.load_checks`)."""
    for pointer, value in changes.items():
        parent = canonical.resolve(state, pointer.rsplit("/", 1)[0])[0]
        parent[canonical.pointer_parts(pointer)[-1]] = copy.deepcopy(value)
