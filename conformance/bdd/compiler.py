"""A Gherkin scenario compiled into the one case model, without an engine.

A scenario is a case written in players' words. Its Given steps describe the start (a built
position or a deal: :class:`~conformance.bdd.position.PositionSpec`); each When and Then step is a
sentence that the step definitions (:mod:`conformance.bdd.steps`) turn into fixture steps, plain
data of the kinds of :mod:`conformance.suite.kinds`: "the defender may beat 7C with 9C" is
``{legal_includes: [{player: /bout/defender, action: beat, target: 7C, card: 9C}]}``, "player 1
holds 6 cards" is ``{check: {/players/1/hand: {size: 6}}}``. :func:`compile_scenario` runs the
definitions of every step on a :class:`Compiler`, which records what they emit, and answers the
:class:`~conformance.suite.loader.Case`; the runner (:class:`conformance.suite.cases.CaseRunner`)
judges it as it judges a fixture. Nothing here knows a rule of Durak or asks an engine.

One When step and the Then step after it compile together: "When player 0 attacks with 9S" is a
``move`` unless the next step is "Then the move is refused [citing R-...]", which makes it a
``refuse``. Each compiled step carries the Gherkin sentence as its ``note`` and the step's line,
so a failing scenario reads like a failing fixture and points at the sentence.

A built position gets its route (``reached_by``) and the history details a game fixes (the
pile's order, the bout number) from the feature folder's ``routes.yaml``
(:mod:`conformance.bdd.routes`), so an engine without position set-up runs the scenario through
the same session path as a routed fixture.

The step definitions talk to a :class:`ScenarioBuilder`: this module's :class:`Compiler`, or the
:class:`conformance.bdd.context.ScenarioGame` of a pytest-bdd run, which judges the compiled
steps as the definitions are called.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.bdd.model import scenario_case_id
from conformance.bdd.position import PositionError, PositionSpec, option_value
from conformance.bdd.routes import RoutesError, attach
from conformance.bdd.support import resolve
from conformance.suite.kinds import step_kinds
from conformance.suite.loader import Case, Step


class CompileError(ValueError):
    """The scenario's text does not describe a case; the message names the step and its line."""


@dataclass(frozen=True)
class Source:
    """What :func:`compile_scenario` reads of a scenario: its rendered steps, the option values
    its tags ask for, the rules they cite, where it is written and its label. A
    :class:`conformance.bdd.model.Scenario` has the same attributes."""

    steps: list[Any]
    tag_options: dict[str, str] = field(default_factory=dict)
    rules: tuple[str, ...] = ()
    path: Path = Path()
    line: int = 0
    label: str = ""


class ScenarioBuilder:
    """What every step definition writes to: the position of the Given steps, the options set by
    tags and steps, and the steps the When and Then sentences emit."""

    def __init__(self, tag_options: dict[str, str] | None = None):
        self.spec = PositionSpec()
        self.tag_options = dict(tag_options or {})
        for name, value in self.tag_options.items():
            self.spec.overrides[name] = option_value(value)
        self.step_options: dict[str, str] = {}

    def set_option(self, name: str, value: str) -> None:
        """An option set by a step (an outline's Examples column); tags and steps must agree."""
        tagged = self.tag_options.get(name)
        if tagged is not None and tagged != value:
            raise PositionError(f"option {name} is tagged {tagged} but a step sets {value}")
        self.step_options[name] = value
        self.spec.overrides[name] = option_value(value)

    def ruleset(self) -> dict[str, Any]:
        """The scenario's full ruleset ``{"name", "options"}``, from the spec data."""
        return resolve(self.spec.ruleset_request())

    # ---- what the When and Then steps emit (one call per step) ---------------------------------

    def emit(self, *steps: dict[str, Any], refusable: bool = False) -> None:
        """The fixture steps one When or Then sentence means (none for "the game is dealt");
        ``refusable``: a single move that a following "the move is refused" makes a refusal."""
        raise NotImplementedError

    def refused(self, rule: str | None) -> None:
        """ "Then the move is refused [citing rule]": the move of the step before is refused."""
        raise NotImplementedError

    def cannot_set_up(self) -> None:
        """ "Then the game cannot be set up": ``new_game`` must refuse the deal (bad_request)."""
        raise NotImplementedError


@dataclass
class _Group:
    """The fixture steps one When or Then sentence compiled to."""

    steps: list[dict[str, Any]]
    line: int
    refusable: bool = False


class Compiler(ScenarioBuilder):
    """Records what the step definitions emit and answers the case (:meth:`case`)."""

    def __init__(
        self,
        tag_options: dict[str, str] | None = None,
        forced: dict | None = None,
        routes: bool = True,
    ):
        super().__init__(tag_options)
        self.forced = dict(forced or {})
        self.routes = routes
        self.groups: list[_Group] = []
        self.setup_refused = False
        self.current: Any = None  # the rendered step being compiled

    def ruleset(self) -> dict[str, Any]:
        return resolve(self._request())

    def _request(self) -> dict[str, Any]:
        request = self.spec.ruleset_request()
        request["overrides"].update({k: option_value(str(v)) for k, v in self.forced.items()})
        return request

    def _note(self) -> str:
        step = self.current
        return f"{step.type.capitalize()} {step.name}" if step is not None else ""

    def emit(self, *steps: dict[str, Any], refusable: bool = False) -> None:
        note = self._note()
        line = getattr(self.current, "line_number", 0)
        noted = [{**step, "note": note} for step in steps]
        self.groups.append(_Group(noted, line, refusable and len(steps) == 1))

    def refused(self, rule: str | None) -> None:
        last = self.groups[-1] if self.groups else None
        if last is None or not last.refusable:
            raise CompileError(
                "'the move is refused' must come right after the When step of a single move"
            )
        move = last.steps[0]
        why = {"rule": rule} if rule else {"code": "illegal_move"}
        last.steps[0] = {"refuse": move["move"], **why, "note": f"{move['note']}; {self._note()}"}
        last.refusable = False
        self.emit()

    def cannot_set_up(self) -> None:
        self.setup_refused = True
        self.emit()

    def case(self, scenario: Any) -> Case:
        """The case: the start the Given steps describe and the steps the others emitted."""
        try:
            ruleset = self.ruleset()
        except ValueError as exc:
            raise CompileError(f"the scenario's ruleset is not valid: {exc}") from None
        try:
            players = self.spec.player_count()
            start = self._start(ruleset)
        except PositionError as exc:
            raise CompileError(f"the Given steps describe no valid position: {exc}") from None
        steps = [(step, group.line) for group in self.groups for step in group.steps]
        if self.setup_refused and steps:
            raise CompileError("a game that cannot be set up has no further When or Then steps")
        path = Path(scenario.path)
        case_id = scenario_case_id(path, scenario.label)
        route = None
        if self.routes and "state" in start and path.suffix == ".feature":
            try:
                start, route = attach(case_id, path, start, self.spec)
            except RoutesError as exc:
                raise CompileError(str(exc)) from None
        return Case(
            id=case_id,
            description=f"Gherkin scenario {path.name}:{scenario.line}: {scenario.label}",
            rules=tuple(scenario.rules),
            ruleset=self._request(),
            players=players,
            start=start,
            steps=tuple(
                Step(index, step_kinds(data)[0], data, line)
                for index, (data, line) in enumerate(steps, start=1)
            ),
            options={**self.tag_options, **self.step_options},
            path=path,
            line=scenario.line,
            start_refused={"code": "bad_request"} if self.setup_refused else None,
            reached_by=route,
        )

    def _start(self, ruleset: dict[str, Any]) -> dict[str, Any]:
        spec = self.spec
        if not (self.setup_refused or spec.starts_with_deal()):
            return {"state": spec.build_state(ruleset)}
        deck = spec.build_deck(ruleset["options"])
        start: dict[str, Any] = (
            {"deck": deck} if deck is not None else {"seed": 1 if spec.seed is None else spec.seed}
        )
        if spec.previous is not None:
            start["previous"] = spec.previous
        elif spec.dealer is not None:
            start["dealer"] = spec.dealer
        return start


def compile_scenario(
    scenario: Any, forced: dict[str, Any] | None = None, routes: bool = True
) -> Case:
    """The case of ``scenario`` (a :class:`conformance.bdd.model.Scenario` or a
    :class:`Source`), its options overridden by ``forced`` (the gate's substitution), built
    without an engine. A position start takes its route and past from the feature folder's
    routes file (:mod:`conformance.bdd.routes`) while they still reach it; ``routes=False``
    gives the start the Given steps build alone (what the route finder starts from).
    :class:`CompileError` names the step that cannot be read."""
    from conformance.bdd.execute import call_step

    compiler = Compiler(dict(scenario.tag_options), forced, routes)
    for step in scenario.steps:
        compiler.current = step
        emitted = len(compiler.groups)
        try:
            call_step(step, compiler)
        except CompileError as exc:
            raise CompileError(_where(step, exc)) from None
        except (ValueError, LookupError) as exc:  # a phrase, a card, a position, no definition
            raise CompileError(_where(step, exc)) from None
        want = emitted + (step.type in ("when", "then"))
        if len(compiler.groups) != want:
            raise CompileError(_where(step, "its definition emitted no step, or several times"))
    return compiler.case(scenario)


def _where(step: Any, problem: Any) -> str:
    return f"line {step.line_number} '{step.type.capitalize()} {step.name}': {problem}"
