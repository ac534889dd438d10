"""Fixture traces: what each YAML fixture case shows, read through the runner's own loader
(:mod:`conformance.suite.loader`), so the gate counts the cases the runner runs.

A case cites the rules of its ``rules:`` list and of its refusals; it shows them allowing with
a step that shows something allowed (``move``, ``legal_includes``, a non-empty ``legal``, an
``observe`` with ``expect``, a deal the engine must set up) and forbidding with one that shows
something not allowed (``legal_excludes``, ``legal``, an ``observe`` with ``absent``), as the
step kinds declare it (:mod:`conformance.suite.kinds`). A refusal counts for the rule it names
only. The full definitions are in the package's docstring.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from conformance.suite.kinds import polarity
from conformance.tools.common_table import table_name
from conformance.tools.traceability.spec import (
    FIXTURE,
    INCONSISTENT,
    UNREADABLE,
    CaseTrace,
    Problem,
    SpecIndex,
    check_option,
    check_rule,
    display_path,
)


def fixture_traces(
    paths: Iterable[Path | str], spec: SpecIndex, root: Path | None = None
) -> tuple[list[CaseTrace], list[Problem]]:
    """Trace every fixture case under ``paths``; files or cases that do not load are problems."""
    from conformance.suite.loader import load_paths

    cases, load_problems = load_paths(paths, rules_checked=False)  # it judges citations itself
    problems = [
        Problem(
            f"{display_path(p.path, root)}:{p.line}",
            f"cannot be read, so the gate cannot count it: {p.message}",
            UNREADABLE,
        )
        for p in load_problems
    ]
    traces = [_case_trace(case, spec, root, problems) for case in cases]
    return traces, problems


def _case_trace(
    case: Any, spec: SpecIndex, root: Path | None, problems: list[Problem]
) -> CaseTrace:
    """What one case cites, shows and discriminates; what it cites wrongly goes to ``problems``."""
    where = f"{display_path(case.path, root)}:{case.line} ({case.id})"
    trace = CaseTrace(case.id, FIXTURE, where, table=table_name(case.players, case.ruleset))
    listed = {rule for rule in case.rules if check_rule(rule, spec, where, "rules:", problems)}
    trace.cites |= listed
    allows, forbids = case_shows(case)
    if allows:
        trace.positive |= listed
    if forbids:
        trace.negative |= listed
    refused_rule = (getattr(case, "start_refused", None) or {}).get("rule")
    if refused_rule is not None and check_rule(
        refused_rule, spec, where, "start_refused rule:", problems
    ):
        trace.cites.add(refused_rule)
        trace.negative.add(refused_rule)
    for step in case.steps:
        if step.kind == "refuse" and "rule" in step.data:
            rule = step.data["rule"]
            step_where = f"{display_path(case.path, root)}:{step.line} ({case.id})"
            if check_rule(rule, spec, step_where, "refuse ... rule:", problems):
                trace.cites.add(rule)
                trace.negative.add(rule)
    for name, value in case.options.items():
        if check_option(str(name), str(value), spec, where, "options:", problems):
            trace.options[str(name)] = str(value)
    problems += options_against_ruleset(case, trace.options, where)
    return trace


def case_shows(case: Any) -> tuple[bool, bool]:
    """(allows, forbids) for the rules a case of any form lists (a fixture, a compiled Gherkin
    scenario): by each step kind's own declaration (:func:`conformance.suite.kinds.polarity`, the
    runner's), plus a start the engine must deal rather than refuse, which shows a set-up
    allowed. A refusal (of a move or of the start) is left out: it shows only the rule it cites."""
    refused = getattr(case, "start_refused", None)
    allows = ("deck" in case.start or "seed" in case.start) and refused is None
    forbids = False
    for step in case.steps:
        if step.kind != "refuse":
            shows_allowed, shows_forbidden = polarity(step.kind, step.data)
            allows |= shows_allowed
            forbids |= shows_forbidden
    return allows, forbids


def options_against_ruleset(case: Any, options: dict[str, str], where: str) -> list[Problem]:
    """A case cannot discriminate a value it does not play: ``options:`` must match its ruleset."""
    if not options:
        return []
    from reference_impl.rulesets import resolve_ruleset

    try:
        played = resolve_ruleset(case.ruleset)["options"]
    except (ValueError, TypeError, KeyError) as exc:  # the runner reports the ruleset itself
        return [
            Problem(
                where,
                f"its ruleset cannot be resolved ({exc}), so options: is unproven",
                INCONSISTENT,
            )
        ]
    out = []
    for name, value in options.items():
        if name in played and str(played[name]) != value:
            out.append(
                Problem(
                    where,
                    f"options: says {name}={value} but its ruleset plays {name}="
                    f"{played[name]}; put the value in ruleset.overrides or fix options:",
                    INCONSISTENT,
                )
            )
    return out
