"""Running one YAML fixture case against an engine and judging every step.

The semantics follow the contract (docs/architecture.md, Fixtures): ``legal`` compares the exact
set of canonical moves, ``legal_includes``/``legal_excludes`` check membership, ``move`` must be
accepted, ``refuse`` must be refused citing the rule, ``expect`` compares JSON-pointer fields of the
state, ``result`` compares a subset of the result, ``observe`` judges one player's observation (the
observation schema, the ``absent`` pointers, the ``expect`` fields). A case with ``start_refused``
has no steps: its ``new_game`` must be refused. The first step that does not hold ends the case;
its :class:`CaseResult` carries everything a reader needs to reproduce it: the case ID and rules,
the starting state, the step, the state before the step, the expected and the actual answer.
"""

from __future__ import annotations

import copy
import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any

from conformance.contract import canonical
from conformance.contract.seats import legal_player_counts
from conformance.engines.base import Engine, ErrorResult, InProcessEngine
from conformance.engines.gating import Support
from conformance.suite.applicability import Applicability, decide, substitute
from conformance.suite.invariants import state_problems, summarise
from conformance.suite.loader import Case, Step
from conformance.suite.observation import schema_problems

#: Outcomes. ``failed``: a wrong answer; ``error``: the engine misbehaved (timeout, crash, garbled
#: answer); ``unsupported``: outside the engine's hello claim; ``not_run``: the engine had failed too
#: often to keep asking; ``broken``: the fixture itself cannot be run.
OUTCOMES = ("passed", "failed", "error", "unsupported", "not_run", "broken")


@dataclass
class CaseResult:
    """What happened to one case."""

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


class _Stop(Exception):
    """Ends a case early with a result (a failing step, an engine fault)."""

    def __init__(self, result: CaseResult):
        self.result = result


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

    def gate(self, case: Case, ruleset: dict[str, Any]) -> Applicability:
        """Whether the case runs on the engine, and with which option values substituted
        (:mod:`conformance.suite.applicability`).

        A refused start with a player count R-DECK-4 forbids is not gated on the count: no
        honest ``hello`` lists such a count, so gating on it would skip the case on every
        engine; the deck and the option values must still be claimed (an engine without the
        teams option cannot be asked about a team game). A refused start with a count the rules
        allow (a malformed deck, say) is gated like any case. A case with an ``observe`` step
        needs ``supports.observe``, a deal by a seat other than N-1 ``supports.dealer``, a next
        game of a match ``supports.match`` (P-16).
        """
        options = ruleset["options"]
        forbidden = case.players not in legal_player_counts(options)
        needs = self.support.declined(case.players, case.start)
        if not self.support.observe and any(step.kind == "observe" for step in case.steps):
            needs += ("observe",)
        return decide(
            options,
            case.players,
            self.support,
            lambda substitution: self._holds_on_reference(case, substitution),
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

    def _holds_on_reference(self, case: Case, substitution: dict[str, Any]) -> bool:
        """Every expectation of ``case`` holds on the reference engine under ``substitution``."""
        if self._reference_runner is None:
            self._reference_runner = CaseRunner(
                self._reference or InProcessEngine(),
                Support.everything(),
                resolve=self._resolve,
                defaults=self._defaults,
            )
        return self._reference_runner.run(self.substitute(case, substitution)).ok

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

    def run(self, case: Case) -> CaseResult:
        began = time.perf_counter()
        result = self._run(case)
        result.duration = time.perf_counter() - began
        return result

    # ------------------------------------------------------------------ internals

    def _run(self, case: Case) -> CaseResult:
        ruleset = self.resolve(case)
        if isinstance(ruleset, str):
            return CaseResult(case.id, "broken", f"the case's ruleset is invalid: {ruleset}")
        problem = self.check(case, ruleset)
        if problem is not None:
            return CaseResult(
                case.id, "broken", f"{case.location}: {problem}", signature="broken fixture"
            )
        applicability = self.gate(case, ruleset)
        if not applicability.runs:
            return CaseResult(
                case.id,
                "unsupported",
                applicability.reason or "not claimed in hello",
                signature="unsupported",
                ruleset=ruleset,
                applicability=applicability,
            )
        if applicability.substituted:
            case = self.substitute(case, applicability.substituted)
            ruleset = self._resolve(case.ruleset)
        result = self._judge(case, ruleset)
        result.applicability = applicability if applicability.substituted else None
        return result

    def _judge(self, case: Case, ruleset: dict[str, Any]) -> CaseResult:
        """Run the case's start and steps on the engine and judge every answer."""
        try:
            if case.start_refused is not None:
                self._refused_start(case)
                return CaseResult(case.id, "passed", ruleset=ruleset)
            state = self._start(case, ruleset)
            start_state = canonical.normalise_state(state)
            for step in case.steps:
                state = self._step(case, step, state, start_state)
        except _Stop as stop:
            stop.result.ruleset = ruleset
            return stop.result
        return CaseResult(case.id, "passed", ruleset=ruleset)

    def _start(self, case: Case, ruleset: dict[str, Any]) -> dict[str, Any]:
        start = case.start
        if "state" in start:
            state = copy.deepcopy(start["state"])
            if isinstance(state, dict):
                state["ruleset"] = copy.deepcopy(ruleset)
            return state
        state = self._require(
            self._new_game(case), dict, case, None, what="new_game", expected="a state"
        )
        self._check_invariants(case, None, state, None, None)
        return state

    def _check_invariants(
        self, case: Case, step: Step | None, state: Any, start_state: Any, before: Any
    ) -> None:
        """Every state the engine answers with must hold what the rules say of any state (each
        card once, roles on seats that may hold them, a result that fits the hands...;
        :mod:`conformance.suite.invariants`), whatever the case expects."""
        problems = state_problems(state) if self.check_states else []
        if not problems:
            return
        rules, shown = summarise(problems)
        raise _Stop(
            self._wrong(
                case,
                step,
                f"the state the engine answered breaks {', '.join(rules)}: {shown}",
                "a state that holds every invariant of spec/rules.md (R-PLAY-6)",
                {
                    "problems": [problem.to_json() for problem in problems],
                    "state": canonical.normalise_state(state),
                },
                signature="state breaks " + ", ".join(rules),
                start_state=start_state,
                state=before,
            )
        )

    def _new_game(self, case: Case) -> Any:
        start = case.start
        return self.engine.new_game(
            case.ruleset,
            case.players,
            seed=start.get("seed"),
            deck=start.get("deck"),
            dealer=start.get("dealer"),
            previous=start.get("previous"),
        )

    def _refused_start(self, case: Case) -> None:
        """``new_game`` must answer the error code of ``start_refused``. Its rule is what the case
        shows; an engine need not cite one with ``bad_request`` (P-9), so it is not compared."""
        code = case.start_refused["code"]
        rule = case.start_refused.get("rule")
        expected = {"code": code, "rule": rule} if rule else {"code": code}
        why = f" ({rule})" if rule else ""
        answer = self._new_game(case)
        if not isinstance(answer, ErrorResult):
            state = canonical.normalise_state(answer) if isinstance(answer, dict) else answer
            raise _Stop(
                self._wrong(
                    case,
                    None,
                    f"new_game set the game up; it must be refused with {code}{why}",
                    expected,
                    {"accepted": True, "state": state},
                    signature="accepted",
                )
            )
        if answer.is_fault:
            raise _Stop(
                self._error_answer(
                    case, None, answer, None, None, what="new_game", expected=expected
                )
            )
        if answer.code != code:
            hint = (
                "; unsupported is for a game the rules allow but the engine does not offer"
                if answer.code == "unsupported"
                else ""
            )
            raise _Stop(
                self._wrong(
                    case,
                    None,
                    f"new_game was refused with {answer.code}, expected {code}{why}{hint}",
                    expected,
                    answer.to_json(),
                    signature=f"refused with {answer.code}",
                )
            )

    def _error_answer(
        self,
        case: Case,
        step: Step | None,
        answer: ErrorResult,
        start_state: Any,
        state: Any,
        *,
        what: str,
        expected: Any,
    ) -> CaseResult:
        """A result for an error answer where a successful one was due."""
        where = f"step {step.index} {step.kind}" if step else "start"
        base = {
            "step": step,
            "expected": expected,
            "actual": answer.to_json(),
            "start_state": start_state,
            "state_before": state,
            "diagnostics": dict(answer.diagnostics),
        }
        if answer.code == "not_run":
            return CaseResult(case.id, "not_run", answer.message, signature="not_run", **base)
        if answer.is_fault:
            return CaseResult(
                case.id,
                "error",
                f"{where}: the engine failed on {what}: {answer}",
                signature=f"{where}: {answer.code}",
                **base,
            )
        if answer.code == "unsupported":
            return CaseResult(
                case.id,
                "failed",
                f"{where}: hello claims support for this case but {what} answered {answer}",
                signature=f"{where}: unsupported despite hello",
                **base,
            )
        rule = f" {answer.rule}" if answer.rule else ""
        return CaseResult(
            case.id,
            "failed",
            f"{where}: {what} was refused: {answer}",
            signature=f"{where}: refused {answer.code}{rule}",
            **base,
        )

    def _wrong(
        self,
        case: Case,
        step: Step | None,
        message: str,
        expected: Any,
        actual: Any,
        *,
        signature: str | None = None,
        start_state: Any = None,
        state: Any = None,
    ) -> CaseResult:
        where = f"step {step.index} {step.kind}" if step else "start"
        return CaseResult(
            case.id,
            "failed",
            f"{where}: {message}",
            signature=f"{where}: {signature or message}",
            step=step,
            expected=expected,
            actual=actual,
            start_state=start_state,
            state_before=state,
        )

    def _require(
        self,
        answer: Any,
        shape: type,
        case: Case,
        step: Step | None,
        *,
        what: str,
        expected: Any,
        expected_shape: Any = None,
        start_state: Any = None,
        state: Any = None,
    ) -> Any:
        """``answer`` when it is a ``shape`` (``dict`` for a state or an observation, ``list`` for
        moves); otherwise the case stops: an error answer as refused or faulty
        (:meth:`_error_answer`, against ``expected``), anything else as malformed (against
        ``expected_shape``, by default ``expected``)."""
        if isinstance(answer, ErrorResult):
            raise _Stop(
                self._error_answer(
                    case, step, answer, start_state, state, what=what, expected=expected
                )
            )
        if not isinstance(answer, shape):
            raise _Stop(
                self._wrong(
                    case,
                    step,
                    f"{what} answered a non-{'list' if shape is list else 'object'}",
                    expected if expected_shape is None else expected_shape,
                    answer,
                    start_state=start_state,
                    state=state,
                )
            )
        return answer

    def _step(self, case: Case, step: Step, state: Any, start_state: Any) -> Any:
        kind, body = step.kind, step.body
        before = canonical.normalise_state(state)
        context = {"start_state": start_state, "state": before}

        if kind in ("legal", "legal_includes", "legal_excludes"):
            moves = self._require(
                self.engine.legal_moves(state),
                list,
                case,
                step,
                what="legal_moves",
                expected=body,
                **context,
            )
            got = [canonical.canonical_move(move) for move in moves]
            got_set = set(got)
            want = {canonical.canonical_move(move): move for move in body}
            if kind == "legal":
                missing = [want[key] for key in sorted(set(want) - got_set)]
                extra = [_loads(key) for key in sorted(got_set - set(want))]
                twice = sorted({key for key in got if got.count(key) > 1})
                if missing or extra or twice:
                    actual: dict[str, Any] = {"missing": missing, "extra": extra}
                    if twice:
                        actual["listed_twice"] = [_loads(key) for key in twice]
                    parts = [f"{len(missing)} missing", f"{len(extra)} extra"]
                    if twice:
                        parts.append(f"{len(twice)} listed twice")
                    raise _Stop(
                        self._wrong(
                            case,
                            step,
                            "the legal set differs: " + ", ".join(parts),
                            body,
                            actual,
                            signature="wrong set",
                            **context,
                        )
                    )
            elif kind == "legal_includes":
                missing = [want[key] for key in sorted(set(want) - got_set)]
                if missing:
                    raise _Stop(
                        self._wrong(
                            case,
                            step,
                            f"{len(missing)} move(s) that must be legal are not listed",
                            body,
                            {"missing": missing, "legal": moves},
                            signature="missing moves",
                            **context,
                        )
                    )
            else:
                present = [want[key] for key in sorted(set(want) & got_set)]
                if present:
                    raise _Stop(
                        self._wrong(
                            case,
                            step,
                            f"{len(present)} move(s) that must not be legal are listed",
                            body,
                            {"present": present, "legal": moves},
                            signature="forbidden moves listed",
                            **context,
                        )
                    )
            return state

        if kind == "move":
            return self._move(case, step, state, context)

        if kind == "refuse":
            code = step.data.get("code", "illegal_move")
            rule = step.data.get("rule")
            expected = {"code": code, "rule": rule} if rule else {"code": code}
            answer = self.engine.apply(state, body)
            if not isinstance(answer, ErrorResult):
                raise _Stop(
                    self._wrong(
                        case,
                        step,
                        "the move was accepted; it must be refused"
                        + (f" citing {rule}" if rule else f" with {code}"),
                        expected,
                        {"accepted": True, "state": canonical.normalise_state(answer)},
                        signature="accepted",
                        **context,
                    )
                )
            if answer.is_fault:
                raise _Stop(
                    self._error_answer(
                        case, step, answer, start_state, before, what="apply", expected=expected
                    )
                )
            if answer.code != code or (rule and answer.rule != rule):
                got = answer.code + (f" {answer.rule}" if answer.rule else "")
                want_text = code + (f" {rule}" if rule else "")
                raise _Stop(
                    self._wrong(
                        case,
                        step,
                        f"refused with {got}, expected {want_text}",
                        expected,
                        answer.to_json(),
                        signature=f"refused with {got}",
                        **context,
                    )
                )
            return state

        if kind == "expect":
            wrong = _differences(before, body, canonical.STATE)
            if wrong:
                pointers = sorted(wrong)
                raise _Stop(
                    self._wrong(
                        case,
                        step,
                        "state differs at " + ", ".join(pointers),
                        {p: wrong[p][0] for p in pointers},
                        {p: _show(wrong[p][1]) for p in pointers},
                        signature="state differs at " + ", ".join(pointers),
                        **context,
                    )
                )
            return state

        if kind == "result":
            result = before.get("result", canonical.MISSING) if isinstance(before, dict) else None
            if body is None:
                if result is not None:
                    raise _Stop(
                        self._wrong(
                            case,
                            step,
                            "the game is over; it must go on",
                            None,
                            _show(result),
                            signature="game over",
                            **context,
                        )
                    )
                return state
            if not isinstance(result, dict):
                raise _Stop(
                    self._wrong(
                        case,
                        step,
                        "the game is not over",
                        body,
                        _show(result),
                        signature="game not over",
                        **context,
                    )
                )
            differ = sorted(key for key in body if result.get(key, canonical.MISSING) != body[key])
            if differ:
                raise _Stop(
                    self._wrong(
                        case,
                        step,
                        "the result differs in " + ", ".join(differ),
                        body,
                        result,
                        signature="result differs in " + ", ".join(differ),
                        **context,
                    )
                )
            return state

        if kind == "observe":
            self._observe(case, step, state, context)
            return state

        raise AssertionError(f"unknown step kind {kind!r}")  # the loader admits none

    def _move(self, case: Case, step: Step, state: Any, context: dict[str, Any]) -> Any:
        """``move``: one meaning of a move for every form of case: it is listed by
        ``legal_moves`` (R-PLAY-1: the legal set is exact), ``apply`` accepts it, the state it
        was given is left as it was, and the state it answers holds every invariant."""
        move = step.body
        moves = self._require(
            self.engine.legal_moves(state),
            list,
            case,
            step,
            what="legal_moves",
            expected=[move],
            **context,
        )
        wanted = canonical.canonical_move(move)
        if wanted not in {canonical.canonical_move(m) for m in moves if isinstance(m, dict)}:
            raise _Stop(
                self._wrong(
                    case,
                    step,
                    "the move is not in the engine's legal set; it must be legal",
                    {"listed": move},
                    {"missing": [move], "legal": moves},
                    signature="move not listed",
                    **context,
                )
            )
        given = canonical.dumps(state)
        after = self._require(
            self.engine.apply(state, move),
            dict,
            case,
            step,
            what="apply",
            expected="accepted",
            expected_shape="a state",
            **context,
        )
        if canonical.dumps(state) != given:
            raise _Stop(
                self._wrong(
                    case,
                    step,
                    "apply changed the state it was given (R-PLAY-5: requests are stateless)",
                    "the input state unchanged",
                    {"input_after_apply": canonical.normalise_state(state)},
                    signature="apply changed its input",
                    **context,
                )
            )
        self._check_invariants(case, step, after, context["start_state"], context["state"])
        return after

    def _observe(self, case: Case, step: Step, state: Any, context: dict[str, Any]) -> None:
        """``observe``: the engine's observation must validate against the observation schema,
        show nothing at the ``absent`` pointers and hold the ``expect`` values. The ``absent``
        pointers are judged first: they are the case's own point (a leak), and a leak also breaks
        the closed schema, where it would read less plainly."""
        player = step.body["player"]
        answer = self._require(
            self.engine.observe(state, player),
            dict,
            case,
            step,
            what="observe",
            expected="an observation",
            **context,
        )
        seen = canonical.normalise_observation(answer)
        shown = [
            pointer
            for pointer in step.data.get("absent", [])
            if canonical.resolve(seen, pointer)[0] is not canonical.MISSING
        ]
        if shown:
            raise _Stop(
                self._wrong(
                    case,
                    step,
                    f"player {player}'s observation shows what must be hidden at "
                    + ", ".join(shown),
                    {"absent": shown},
                    {
                        "shown": {p: canonical.resolve(seen, p)[0] for p in shown},
                        "observation": seen,
                    },
                    signature="observation shows " + ", ".join(shown),
                    **context,
                )
            )
        problems = schema_problems(answer)
        if problems:
            pointers = sorted({pointer or "/" for pointer, _ in problems})
            raise _Stop(
                self._wrong(
                    case,
                    step,
                    "the observation breaks spec/schema/observation.schema.json: "
                    + "; ".join(f"{pointer or '/'}: {message}" for pointer, message in problems[:5])
                    + (f"; and {len(problems) - 5} more" if len(problems) > 5 else ""),
                    "an observation valid under spec/schema/observation.schema.json",
                    {"schema_errors": [list(item) for item in problems], "observation": seen},
                    signature="observation fails the schema at " + ", ".join(pointers),
                    **context,
                )
            )
        wrong = _differences(seen, step.data.get("expect", {}), canonical.OBSERVATION)
        if wrong:
            pointers = sorted(wrong)
            raise _Stop(
                self._wrong(
                    case,
                    step,
                    f"player {player}'s observation differs at " + ", ".join(pointers),
                    {p: wrong[p][0] for p in pointers},
                    {p: _show(wrong[p][1]) for p in pointers},
                    signature="observation differs at " + ", ".join(pointers),
                    **context,
                )
            )


def _path_of(pointer: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in canonical.pointer_parts(pointer))


def _differences(
    document: Any, expect: dict[str, Any], unordered: frozenset
) -> dict[str, tuple[Any, Any]]:
    """Pointer -> (expected value in canonical form, value found) for every ``expect`` pointer
    whose value ``document`` (a normalised state or observation) does not hold; a pointer that
    leads nowhere is found as ``canonical.MISSING``. ``unordered``: ``canonical.STATE`` or
    ``canonical.OBSERVATION``, whose unordered card lists an expected value is sorted by."""
    wrong = {}
    for pointer, want_value in expect.items():
        got_value, _path = canonical.resolve(document, pointer)
        want_norm = canonical.normalise(want_value, _path_of(pointer), unordered)
        if got_value is canonical.MISSING or got_value != want_norm:
            wrong[pointer] = (want_norm, got_value)
    return wrong


def _loads(text: str) -> Any:
    import json

    return json.loads(text)


def _show(value: Any) -> Any:
    return repr(value) if value is canonical.MISSING else value
