"""The coverage table: rule -> the cases showing it allowing, forbidding, citing it; option value
-> the cases discriminating it; and every gap the gate fails on.

:func:`collect` traces the suite (by default the packaged fixtures and the rulebook features)
and :func:`build` counts it in spec and catalog order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from conformance.suite import FIXTURES_DIR, PACKAGE_DIR
from conformance.tools.common_table import common_table_gaps
from conformance.tools.traceability.features import feature_traces
from conformance.tools.traceability.fixtures import fixture_traces
from conformance.tools.traceability.spec import FEATURE, FIXTURE, CaseTrace, Problem, SpecIndex


@dataclass
class RuleRow:
    rule: str
    title: str
    descriptive: bool
    positive: list[str]
    negative: list[str]
    cases: list[str]

    @property
    def missing(self) -> list[str]:
        """What the rule still needs, each said in full (for the list of gaps)."""
        if self.descriptive:
            return [] if self.cases else ["a case that depends on it"]
        out = []
        if not self.positive:
            out.append("a positive case (one where the rule allows something)")
        if not self.negative:
            out.append("a negative case (one where the rule forbids something)")
        return out

    @property
    def missing_short(self) -> list[str]:
        """:attr:`missing` without the explanations, for a table cell."""
        return [m.split(" (")[0] for m in self.missing]


@dataclass
class OptionRow:
    option: str
    value: str
    default: bool
    cases: list[str]


@dataclass(repr=False)
class Coverage:
    """The coverage table and every gap the gate fails on."""

    spec: SpecIndex
    traces: list[CaseTrace]
    problems: list[Problem]
    rules: list[RuleRow]
    options: list[OptionRow]

    def __repr__(self) -> str:  # short, for pytest's report of the fixture value
        c = self.counts()
        return (
            f"Coverage({c['fixtures']} fixture cases, {c['features']} scenarios, "
            f"{len(self.rule_gaps)} rule gaps, {len(self.option_gaps)} option gaps, "
            f"{len(self.problems)} problems)"
        )

    @property
    def rule_gaps(self) -> list[str]:
        return [
            f"{row.rule} ({row.title}): missing {' and '.join(row.missing)}"
            for row in self.rules
            if row.missing
        ]

    @property
    def option_gaps(self) -> list[str]:
        return [
            f"{row.option}={row.value}: no case discriminates it (a fixture with options: "
            f"{{{row.option}: {row.value}}}, or a scenario tagged @opt:{row.option}={row.value})"
            for row in self.options
            if not row.cases
        ]

    @property
    def common_table_gaps(self) -> list[str]:
        """Rules the common table (2 players, one 36-card pack) lacks a side of."""
        return common_table_gaps(self)

    @property
    def ok(self) -> bool:
        return not (self.rule_gaps or self.option_gaps or self.problems or self.common_table_gaps)

    def counts(self) -> dict[str, int]:
        return {
            "fixtures": sum(t.source == FIXTURE for t in self.traces),
            "features": sum(t.source == FEATURE for t in self.traces),
            "rules": len(self.rules),
            "rules_covered": sum(not r.missing for r in self.rules),
            "values": len(self.options),
            "values_covered": sum(bool(o.cases) for o in self.options),
        }


_DESCRIPTIVE_AT = "conformance/tools/traceability/spec.py DESCRIPTIVE"


def build(traces: list[CaseTrace], problems: list[Problem], spec: SpecIndex) -> Coverage:
    """Rule -> cases and option value -> cases, in spec and catalog order."""
    rules = []
    for rule, title in spec.rules.items():
        rules.append(
            RuleRow(
                rule,
                title,
                not spec.needs_both(rule),
                [t.id for t in traces if rule in t.positive],
                [t.id for t in traces if rule in t.negative],
                [t.id for t in traces if rule in t.cites],
            )
        )
    options = []
    for name, values in spec.options.items():
        for value in values:
            options.append(
                OptionRow(
                    name,
                    value,
                    spec.defaults.get(name) == value,
                    [t.id for t in traces if t.options.get(name) == value],
                )
            )
    problems = problems + [
        Problem(_DESCRIPTIVE_AT, f"{rule} is not a rule of the spec")
        for rule in spec.descriptive
        if rule not in spec.rules
    ]
    return Coverage(spec, traces, problems, rules, options)


def repo_root() -> Path:
    return PACKAGE_DIR.parent


def default_sources() -> tuple[list[Path], list[Path]]:
    """The packaged fixtures and the rulebook features."""
    from conformance.bdd import features_dir

    return [FIXTURES_DIR], [features_dir()]


def collect(
    fixtures: Iterable[Path | str] | None = None,
    features: Iterable[Path | str] | None = None,
    spec: SpecIndex | None = None,
    root: Path | None = None,
) -> Coverage:
    """Trace the suite (by default the packaged fixtures and features) against the spec."""
    spec = spec or SpecIndex.load()
    if fixtures is None or features is None:
        default_fixtures, default_features = default_sources()
        fixtures = default_fixtures if fixtures is None else fixtures
        features = default_features if features is None else features
    root = repo_root() if root is None else root
    traces, problems = fixture_traces(fixtures, spec, root)
    more, more_problems = feature_traces(features, spec, root)
    return build(traces + more, problems + more_problems, spec)
