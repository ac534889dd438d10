"""The common table (2 players, one 36-card pack) shows every rule that applies there, both
ways: the table most real engines play, and often the only one their claims reach."""

from __future__ import annotations

import dataclasses

import pytest

from conformance.tools.common_table import COMMON, EXCEPTIONS, common_table_gaps, tables_summary
from conformance.tools.traceability import Coverage


@pytest.mark.slow
def test_every_rule_that_applies_at_two_players_with_36_cards_is_shown_there(coverage: Coverage):
    assert common_table_gaps(coverage) == []
    assert tables_summary(coverage)[COMMON].startswith(
        f"{len(coverage.spec.rules) - len(EXCEPTIONS)}/"
    )


def test_every_exception_is_a_rule_of_the_spec(coverage: Coverage):
    assert set(EXCEPTIONS) <= set(coverage.spec.rules)


def test_a_rule_whose_only_common_table_case_goes_is_a_gap(coverage: Coverage):
    rule = "R-DRAW-2"
    kept = [
        dataclasses.replace(t, positive=t.positive - {rule}) if t.table == COMMON else t
        for t in coverage.traces
    ]
    gaps = common_table_gaps(dataclasses.replace(coverage, traces=kept))
    assert gaps == [f"{rule}: no case at {COMMON} shows it allowing"]


def test_an_exception_the_suite_shows_after_all_is_flagged(coverage: Coverage):
    rule = "R-TEAM-1"
    forged = dataclasses.replace(coverage.traces[0], table=COMMON, positive={rule}, negative={rule})
    gaps = common_table_gaps(dataclasses.replace(coverage, traces=[*coverage.traces, forged]))
    hint = "drop it from conformance/tools/common_table.py EXCEPTIONS"
    assert gaps == [f"{rule} is shown at {COMMON} after all: {hint}"]
