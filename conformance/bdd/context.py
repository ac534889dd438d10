"""One scenario's run under pytest-bdd: its case, judged step by step by the one runner.

The first When or Then step compiles the whole scenario into its case
(:func:`conformance.bdd.compiler.compile_scenario`, no engine needed), gates it on the engine's
claims and starts it (:meth:`conformance.suite.cases.CaseRunner.begin`). Then each When and Then
step, as pytest-bdd calls its definition, hands the case steps its sentence compiled to to the
judge (:meth:`conformance.suite.cases.CaseRun.feed`). A scenario is therefore judged exactly as a
fixture: the same gate (outside the claim: skipped as unsupported), the same meaning of a move,
the same faults (a timeout or a crash is an ``error``), and one
:class:`~conformance.suite.cases.CaseResult`, kept as :attr:`ScenarioGame.case_result`, from which
the report record is written. A failing step raises :class:`ScenarioFailure`, whose text is the
failure block a fixture shows.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from conformance.bdd.compiler import CompileError, Compiler, ScenarioBuilder, Source
from conformance.bdd.model import scenario_case_id
from conformance.bdd.position import PositionError
from conformance.engines.base import Engine, ErrorResult
from conformance.engines.gating import HelloError, Support
from conformance.suite.applicability import Applicability
from conformance.suite.cases import CaseResult, CaseRun, CaseRunner
from conformance.suite.loader import Case, Step

_RUNNERS: dict[int, tuple[Engine, CaseRunner | ErrorResult | str]] = {}


def engine_runner(engine: Engine) -> CaseRunner | ErrorResult | str:
    """The case runner of ``engine`` (its hello asked once): the hello's error or the reason
    the hello is unusable when there is none."""
    entry = _RUNNERS.get(id(engine))
    if entry is None or entry[0] is not engine:
        hello = engine.hello()
        runner: CaseRunner | ErrorResult | str = hello
        if not isinstance(hello, ErrorResult):
            try:
                runner = CaseRunner(engine, Support.from_hello(hello))
            except HelloError as exc:
                runner = str(exc)
        entry = _RUNNERS[id(engine)] = (engine, runner)
    return entry[1]


class ScenarioFailure(Exception):
    """A scenario's case did not pass; ``result`` is its record, the text its failure block."""

    def __init__(self, case: Case | None, result: CaseResult):
        from conformance.reports.report import failure_text

        self.result = result
        record: dict[str, Any] = {"id": result.case_id, "location": result.location}
        record["rules"] = list(result.rules)
        if case is not None:
            record.update(players=case.players, ruleset_request=case.ruleset)
            record["ruleset"] = result.ruleset or case.ruleset
        record.update(result.to_json())
        super().__init__(f"{result.message}\n\n{failure_text(record)}")


class ScenarioGame(ScenarioBuilder):
    """The game a scenario plays on ``engine`` while pytest-bdd calls its steps.

    ``scenario``: the running scenario (a :class:`conformance.bdd.model.Scenario` or a
    :class:`~conformance.bdd.compiler.Source`), compiled when the first When or Then step is
    called; ``steps`` (its rendered steps) stands for it when only those are known. Without
    either, the case is the Given steps' start alone. ``case_result``: the verdict once known.
    """

    def __init__(
        self,
        engine: Engine,
        tag_options: dict[str, str] | None = None,
        *,
        steps: list[Any] | None = None,
        scenario: Any = None,
    ):
        super().__init__(tag_options)
        self.engine = engine
        if scenario is None and steps is not None:
            scenario = Source(list(steps), dict(self.tag_options))
        self.scenario = scenario
        self.applicability: Applicability | None = None
        self.case: Case | None = None
        self.case_result: CaseResult | None = None
        self._run: CaseRun | None = None
        self._groups: list[list[Step]] = []

    def set_option(self, name: str, value: str) -> None:
        if self._run is not None:
            raise PositionError(f"option {name} is set after the game started; move it up")
        super().set_option(name, value)

    # ---- the judge, step by step --------------------------------------------------------------

    def emit(self, *steps: dict[str, Any], refusable: bool = False) -> None:
        self._advance()

    def refused(self, rule: str | None) -> None:
        self._advance()

    def cannot_set_up(self) -> None:
        self._advance()

    def start(self) -> None:
        """Compile the scenario, gate it and set the game up (once); skip it when the engine's
        claims do not decide its verdict, fail it when the start does not hold."""
        if self._run is not None:
            return
        try:
            self.case = self._compile(None)
        except CompileError as exc:
            self._stop(None, self._broken(str(exc)))
        runner = engine_runner(self.engine)
        if isinstance(runner, ErrorResult):
            pytest.fail(f"the engine's hello failed: {runner}")
        if isinstance(runner, str):
            pytest.fail(f"the engine's hello is unusable: {runner}")
        self._run = runner.begin(self.case, self._compile)
        self.applicability = self._run.applicability
        self.case = self._run.case  # under the gate's substitution, if any
        self._groups = self._sentences(self.case)
        self._check()

    def _advance(self) -> None:
        """Judge the case steps of the next When or Then sentence."""
        self.start()
        assert self._run is not None
        for step in self._groups.pop(0) if self._groups else []:
            self._run.feed(step)
            self._check()
        if not self._groups:
            self._check(final=True)

    def _check(self, final: bool = False) -> None:
        run = self._run
        assert run is not None
        if run.done or final:
            result = run.finish()
            if result.ok:
                self.case_result = result
                return
            self._stop(self.case, result)

    def _stop(self, case: Case | None, result: CaseResult) -> None:
        self.case_result = result
        if result.outcome == "unsupported":
            pytest.skip(f"unsupported: {result.message}")
        if result.outcome == "not_run":
            pytest.skip(f"not run: {result.message}")
        raise ScenarioFailure(case, result)

    # ---- compiling ----------------------------------------------------------------------------

    def _compile(self, forced: dict[str, Any] | None) -> Case:
        """The scenario's case, with ``forced`` option values (the gate's substitution)."""
        from conformance.bdd.compiler import compile_scenario

        if self.scenario is not None:
            return compile_scenario(self.scenario, forced)
        compiler = Compiler(self.tag_options, forced)
        compiler.spec = copy.deepcopy(self.spec)
        compiler.step_options = dict(self.step_options)
        return compiler.case(Source([], self.tag_options))

    def _broken(self, message: str) -> CaseResult:
        """The verdict on a scenario whose text makes no case."""
        scenario = self.scenario
        path = Path(getattr(scenario, "path", "") or "scenario")
        label = getattr(scenario, "label", "")
        result = CaseResult(scenario_case_id(path, label), "broken", message, "broken scenario")
        result.location = f"{path}:{getattr(scenario, 'line', 0)}"
        result.rules = tuple(getattr(scenario, "rules", ()))
        return result

    def _sentences(self, case: Case) -> list[list[Step]]:
        """The case's steps, one list per When or Then sentence in order (the steps carry the
        sentence's line); empty for a sentence that compiled to nothing (the deal, a refusal,
        whose step is the move's)."""
        steps = getattr(self.scenario, "steps", None) or []
        lines = [step.line_number for step in steps if step.type in ("when", "then")]
        return [[step for step in case.steps if step.line == line] for line in lines]
