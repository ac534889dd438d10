"""Feature traces: what each Gherkin scenario shows, read through :mod:`conformance.bdd.model`
(pytest-bdd's parser, the one that runs the features), one trace per outline row, since pytest-bdd
runs each row as a test of its own.

A scenario cites the rules of its ``@R-...`` tags (Feature, Rule, Scenario) and of its refusals;
it discriminates the option values of its ``@opt:`` tags and of its ``the option X is V`` steps.
Whether its steps show allowing or forbidding is read from the case the scenario compiles to
(:func:`conformance.bdd.compiler.compile_scenario`): its step kinds declare it, exactly as a
fixture's do (:func:`conformance.tools.traceability.fixtures.case_shows`), so the sentences have one
grammar, the step definitions'. A row that compiles to no case cannot be counted. The model's
problems (a file that does not parse, a hidden scenario, a tag outside the grammar)
become the gate's.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from conformance.bdd.compiler import CompileError, compile_scenario
from conformance.bdd.model import HIDDEN, UNPARSABLE, GherkinProblem, Outline, read_features
from conformance.tools.common_table import table_name
from conformance.tools.traceability.fixtures import case_shows
from conformance.tools.traceability.spec import (
    FEATURE,
    UNKNOWN,
    UNREADABLE,
    CaseTrace,
    Problem,
    SpecIndex,
    check_option,
    check_rule,
    display_path,
)


def feature_traces(
    paths: Iterable[Path | str], spec: SpecIndex, root: Path | None = None
) -> tuple[list[CaseTrace], list[Problem]]:
    """Trace every scenario (outline rows one by one) of the ``.feature`` files under ``paths``."""
    traces: list[CaseTrace] = []
    problems: list[Problem] = []
    for feature in read_features(list(paths)):
        shown = display_path(feature.path, root)
        problems += [_gate_problem(p, shown) for p in feature.problems]
        for outline in feature.outlines:
            traces += _outline_traces(outline, shown, spec, problems)
    return traces, problems


def _gate_problem(problem: GherkinProblem, shown: str) -> Problem:
    """A problem of the model, where the gate names files: a file or scenario that cannot be
    counted is unreadable; a tag or step outside the grammar says nothing the gate can count."""
    where = shown if problem.line is None else f"{shown}:{problem.line}"
    if problem.kind == UNPARSABLE:
        message = f"cannot be parsed, so the gate cannot count it: {problem.message}"
        return Problem(where, message, UNREADABLE)
    return Problem(where, problem.message, UNREADABLE if problem.kind == HIDDEN else UNKNOWN)


def _outline_traces(
    outline: Outline, shown: str, spec: SpecIndex, problems: list[Problem]
) -> list[CaseTrace]:
    """One trace per row; the tags are checked against the spec once for all rows."""
    where = f"{shown}:{outline.line}"
    cited = {r for r in outline.rules if check_rule(r, spec, where, f"tag @{r}", problems)}
    tag_options = {
        name: value
        for name, value in outline.tag_options.items()
        if check_option(name, value, spec, where, f"tag @opt:{name}={value}", problems)
    }
    out = []
    for row in outline.rows:
        trace = CaseTrace(row.case_id, FEATURE, where, cites=set(cited))
        trace.options.update(tag_options)
        for option in row.step_options:
            step_where = f"{where} (line {option.line})"
            if check_option(option.name, option.value, spec, step_where, "step", problems):
                trace.options[option.name] = option.value
        try:
            case = compile_scenario(row)
        except CompileError as exc:
            problems.append(
                Problem(where, f"compiles to no case, so it cannot be counted: {exc}", UNREADABLE)
            )
            out.append(trace)
            continue
        for step in case.steps:
            rule = step.data.get("rule") if step.kind == "refuse" else None
            if rule is not None and check_rule(
                rule, spec, f"{where} (line {step.line})", "refusal", problems
            ):
                trace.cites.add(rule)
                trace.negative.add(rule)
        allows, forbids = case_shows(case)
        if allows:
            trace.positive |= cited
        if forbids:
            trace.negative |= cited
        trace.table = table_name(case.players, case.ruleset)
        out.append(trace)
    return out
