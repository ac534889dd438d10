"""The traceability gate on the real suite: every rule is shown allowing and forbidding (or, for
a descriptive rule, is depended on), every option value is played where it matters, and nothing
the suite cites is missing from the spec. Definitions: conformance/tools/traceability/__init__.py.

Each test fails with the exact list of what is missing; the whole table is printed in the
terminal summary (conftest.py).
"""

from __future__ import annotations

from conformance.tools.traceability import INCONSISTENT, UNKNOWN, UNREADABLE, Coverage


def _listing(title: str, items: list[str]) -> str:
    return f"{title} ({len(items)}):\n" + "\n".join(f"  - {item}" for item in items)


def test_every_rule_is_shown_allowing_and_forbidding(coverage: Coverage) -> None:
    gaps = coverage.rule_gaps
    assert not gaps, _listing(
        "rules without the cases the gate asks for (add a fixture case or a scenario citing "
        "the rule)",
        gaps,
    )


def test_every_option_value_has_a_discriminating_case(coverage: Coverage) -> None:
    gaps = coverage.option_gaps
    assert not gaps, _listing("option values no case discriminates", gaps)


def test_the_suite_cites_only_rules_and_option_values_of_the_spec(coverage: Coverage) -> None:
    unknown = [str(p) for p in coverage.problems if p.kind == UNKNOWN]
    assert not unknown, _listing("citations the spec does not have", unknown)


def test_fixture_options_are_the_values_the_case_plays(coverage: Coverage) -> None:
    wrong = [str(p) for p in coverage.problems if p.kind == INCONSISTENT]
    assert not wrong, _listing("fixtures claiming option values their ruleset does not play", wrong)


def test_every_fixture_and_scenario_can_be_counted(coverage: Coverage) -> None:
    unreadable = [str(p) for p in coverage.problems if p.kind == UNREADABLE]
    assert not unreadable, _listing("files or scenarios the gate cannot count", unreadable)


def test_the_gate_sees_the_whole_suite(coverage: Coverage) -> None:
    """A gate that counted nothing would pass for the wrong reason: both kinds of case are seen."""
    counts = coverage.counts()
    assert counts["fixtures"] > 0, "no fixture case found under conformance/fixtures"
    assert counts["features"] > 0, "no scenario found in the features"
    assert counts["rules"] == len(coverage.spec.rules) > 0
