"""One scenario's game: the position being described, then the state the engine plays on.

Given steps write into :attr:`ScenarioGame.spec`. The first step that needs a state (a When or a
Then) starts the game: it checks the engine claims what the scenario needs (else the scenario is
skipped as unsupported), asks the engine for a new game, and, for a built position, replaces
everything but the ruleset with the position. From then on every move goes through the engine's
``apply``, and every check reads the engine's answers; nothing here knows the rules.

Every move is also checked against ``legal_moves``: a move ``apply`` accepts must be in the legal
set and a move it refuses must not be (rule R-PLAY-1: the legal set is exact), and a refused move
must leave the state as it was (R-PLAY-5).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from conformance.bdd.phrases import describe, normalise
from conformance.bdd.position import PositionError, PositionSpec, option_value
from conformance.bdd.support import observe_claimed, resolve
from conformance.contract.seats import legal_player_counts
from conformance.engines.base import Engine, ErrorResult
from conformance.engines.gating import HelloError, Support
from conformance.suite.applicability import Applicability, decide

_HELLO_CACHE: dict[int, dict[str, Any] | ErrorResult] = {}


def engine_hello(engine: Engine) -> dict[str, Any] | ErrorResult:
    """The engine's hello, asked once per engine object."""
    key = id(engine)
    if key not in _HELLO_CACHE:
        _HELLO_CACHE[key] = engine.hello()
    return _HELLO_CACHE[key]


def check_state(state: Any, when: str) -> None:
    """Fail the scenario when a state the engine answered breaks an invariant every state holds
    (:mod:`conformance.suite.invariants`), whatever the scenario goes on to check."""
    from conformance.suite.invariants import state_problems, summarise

    problems = state_problems(state)
    if problems:
        rules, shown = summarise(problems)
        pytest.fail(f"the state {when} breaks {', '.join(rules)}: {shown}")


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class ScenarioGame:
    """The game a scenario builds and plays, driven only through :class:`Engine`.

    ``steps``: the scenario's own rendered steps, which the gate replays on the reference engine
    to learn whether the verdict depends on an option value the engine does not claim
    (:mod:`conformance.suite.applicability`); without them such a scenario is unsupported. ``forced``:
    option values that replace the scenario's own when the game starts (the gate's
    substitution).
    """

    def __init__(
        self,
        engine: Engine,
        tag_options: dict[str, str] | None = None,
        *,
        steps: list[Any] | None = None,
        forced: dict[str, Any] | None = None,
    ):
        self.engine = engine
        self.steps = steps
        self.forced = dict(forced or {})
        self.applicability: Applicability | None = None
        self.spec = PositionSpec()
        self.tag_options = dict(tag_options or {})
        for name, value in self.tag_options.items():
            self.spec.overrides[name] = option_value(value)
        self.step_options: dict[str, str] = {}
        self._state: dict[str, Any] | None = None
        self.before: dict[str, Any] | None = None  # the state before the last accepted move
        self.last_move: dict[str, Any] | None = None
        self.refusal: tuple[dict[str, Any], ErrorResult] | None = None
        self.setup_error: ErrorResult | None = None
        self._legal: list[dict[str, Any]] | None = None

    # ---- Given ------------------------------------------------------------------------------

    def set_option(self, name: str, value: str) -> None:
        """An option set by a step (an outline's Examples column); tags and steps must agree."""
        if self._state is not None:
            raise PositionError(f"option {name} is set after the game started; move it up")
        tagged = self.tag_options.get(name)
        if tagged is not None and tagged != value:
            raise PositionError(f"option {name} is tagged {tagged} but a step sets {value}")
        self.step_options[name] = value
        self.spec.overrides[name] = option_value(value)

    # ---- starting ---------------------------------------------------------------------------

    def needed_options(self) -> dict[str, str]:
        return {**self.tag_options, **self.step_options}

    def hello(self) -> dict[str, Any]:
        hello = engine_hello(self.engine)
        if isinstance(hello, ErrorResult):
            pytest.fail(f"the engine's hello failed: {hello}")
        return hello

    def resolved_ruleset(self) -> dict[str, Any]:
        """The scenario's full ruleset: its preset with the tagged and stepped options."""
        try:
            return resolve(self.spec.ruleset_request())
        except ValueError as exc:
            pytest.fail(f"the scenario's ruleset is not valid: {exc}")

    def _new_game(self, **kwargs: Any) -> dict[str, Any] | ErrorResult:
        return self.engine.new_game(self.spec.ruleset_request(), self.spec.player_count(), **kwargs)

    def start(self, expect_error: bool = False) -> None:
        """Turn the Given steps into a state (once), or skip when the engine's claims do not
        decide the scenario's verdict. ``expect_error``: the rules say this game cannot be set
        up; keep the refusal."""
        if self._state is not None or self.setup_error is not None:
            return
        spec = self.spec
        spec.overrides.update(self.forced)
        ruleset = self.resolved_ruleset()
        applicability = self._gate(ruleset, expect_error)
        self.applicability = applicability
        if not applicability.runs:
            pytest.skip(f"unsupported: {applicability.reason}")
        if applicability.substituted:
            spec.overrides.update(applicability.substituted)
            ruleset = self.resolved_ruleset()
        try:
            if spec.starts_with_deal() or expect_error:
                deck = spec.build_deck(ruleset["options"])
                kwargs: dict[str, Any] = {}
                if deck is not None:
                    kwargs["deck"] = deck
                else:
                    kwargs["seed"] = spec.seed if spec.seed is not None else 1
                if spec.previous is not None:
                    kwargs["previous"] = spec.previous
                elif spec.dealer is not None:
                    kwargs["dealer"] = spec.dealer
                answer = self._new_game(**kwargs)
            else:
                answer = spec.build_state(ruleset)
        except PositionError as exc:
            pytest.fail(f"the scenario's Given steps describe no valid position: {exc}")
        if isinstance(answer, ErrorResult):
            if expect_error and not answer.is_fault:
                self.setup_error = answer
                return
            pytest.fail(f"the engine refused the new game: {answer}")
        if expect_error:
            pytest.fail("the engine set the game up, but the rules say it cannot be played")
        if spec.starts_with_deal():
            check_state(answer, "dealt by new_game")
        self._state = answer

    def _gate(self, ruleset: dict[str, Any], expect_error: bool) -> Applicability:
        """The gate of :mod:`conformance.suite.applicability` for this scenario on this engine. A
        scenario about a player count R-DECK-4 forbids is not gated on the count (no honest
        hello lists one), as for fixtures."""
        from reference_impl import rulesets

        try:
            support = Support.from_hello(self.hello())
        except HelloError as exc:
            pytest.fail(f"the engine's hello is unusable: {exc}")
        options = ruleset["options"]
        players = self.spec.player_count()
        forbidden = players not in legal_player_counts(options)
        deal = {"dealer": self.spec.dealer, "previous": self.spec.previous}
        return decide(
            options,
            players,
            support,
            self._holds_on_reference,
            catalog=rulesets.catalog_options(),
            defaults=rulesets.default_options(),
            count=not (expect_error and forbidden),
            needs=support.declined(players, deal) if self.spec.starts_with_deal() else (),
        )

    def _holds_on_reference(self, substitution: dict[str, Any]) -> bool:
        """Every step of this scenario holds on the reference engine under ``substitution``."""
        if self.steps is None:
            return False
        from conformance.bdd.execute import reference_engine, run_steps

        game = ScenarioGame(reference_engine(), self.tag_options, forced=substitution)
        return run_steps(self.steps, game) is None

    @property
    def state(self) -> dict[str, Any]:
        """The current state; fails if a move was refused that no step expected to be refused."""
        self.start()
        if self.refusal is not None:
            move, error = self.refusal
            pytest.fail(f"the engine refused the move '{describe(move)}': {error}")
        assert self._state is not None
        return self._state

    @property
    def result(self) -> dict[str, Any] | None:
        return self.state.get("result")

    # ---- playing ----------------------------------------------------------------------------

    def legal(self) -> list[dict[str, Any]]:
        """Every legal move now (cached until the state changes)."""
        state = self.state
        if self._legal is None:
            answer = self.engine.legal_moves(state)
            if isinstance(answer, ErrorResult):
                pytest.fail(f"legal_moves failed: {answer}")
            self._legal = answer
        return self._legal

    def legal_keys(self) -> set[str]:
        return {normalise(m) for m in self.legal()}

    def play(self, move: dict[str, Any]) -> None:
        """Apply ``move``. A refusal is kept for the next step to check (or to fail on)."""
        state = self.state
        listed = normalise(move) in self.legal_keys()
        snapshot = copy.deepcopy(state)
        answer = self.engine.apply(state, move)
        if _canon(state) != _canon(snapshot):
            pytest.fail(
                f"the engine changed the state it was given while applying '{describe(move)}'"
            )
        if isinstance(answer, ErrorResult):
            if answer.is_fault or answer.code != "illegal_move":
                pytest.fail(f"the engine could not apply '{describe(move)}': {answer}")
            if listed:
                pytest.fail(
                    f"the engine refused '{describe(move)}' ({answer}) although legal_moves lists it"
                )
            self.refusal = (move, answer)
            return
        if not listed:
            pytest.fail(
                f"the engine accepted '{describe(move)}' although legal_moves does not list it"
            )
        check_state(answer, f"after '{describe(move)}'")
        self.before = state
        self.last_move = move
        self._state = answer
        self._legal = None

    def take_refusal(self) -> tuple[dict[str, Any], ErrorResult]:
        """The refused move and the engine's error; fails if the last move was accepted."""
        self.start()
        if self.refusal is None:
            last = describe(self.last_move) if self.last_move else "the last move"
            pytest.fail(f"the engine accepted '{last}', but the rules forbid it")
        refusal, self.refusal = self.refusal, None
        return refusal

    def observe(self, player: int) -> dict[str, Any]:
        if not observe_claimed(self.hello()):
            reason = "not claimed in hello: observe"
            self.applicability = Applicability(False, blockers=("observe",), reason=reason)
            pytest.skip(f"unsupported: {reason}")
        answer = self.engine.observe(self.state, player)
        if isinstance(answer, ErrorResult):
            if answer.code == "unsupported":
                pytest.skip(f"unsupported: the engine has no observe ({answer.message})")
            pytest.fail(f"observe failed: {answer}")
        return answer

    # ---- reading the state ------------------------------------------------------------------

    def seat(self, who: str) -> int:
        """``"player 2"``, ``"the defender"``, ``"the attacker"`` -> a seat number."""
        who = who.strip()
        if who.startswith("player "):
            return int(who.split()[1])
        bout = self.state.get("bout")
        if who in ("the defender", "the new defender"):
            if bout is None:
                pytest.fail("there is no bout, so no defender")
            return bout["defender"]
        if who in ("the attacker", "the main attacker"):
            if bout is None:
                pytest.fail("there is no bout, so no attacker")
            return bout["attacker"]
        raise ValueError(
            f"{who!r} is not a player: say 'player 2', 'the defender' or 'the attacker'"
        )
