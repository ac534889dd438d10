"""Coverage of the fixture hands, checked without an engine: every rule of the register is exercised
by some case, and every value of every option has a case that discriminates it (a case whose
``options`` names that value).

There are no exclusions any more: R-INFO-1, R-INFO-2 and discard_visibility, which only change what
``observe`` shows, have cases since fixtures gained the ``observe`` step, and R-DECK-4's refusals
since they gained ``start_refused``.
"""

from __future__ import annotations

import pytest

from conformance.tools.fixture_check.checks import check_all
from conformance.tools.fixture_check.register import (
    effective_options,
    load_options,
    load_register,
    option_str,
)

#: every fixture file checked by the fixture-check tool, once per module: a whole-suite pass (slow)
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cases():
    return check_all()[1]


def test_every_rule_is_exercised(cases):
    cited = {r for c in cases for r in c.get("rules", [])}
    missing = sorted(load_register() - cited)
    assert not missing, f"rules without a fixture case: {missing}"


def test_every_option_value_is_discriminated(cases):
    shown = {(k, option_str(v)) for c in cases for k, v in (c.get("options") or {}).items()}
    missing = [
        f"{name}={value}"
        for name, (values, _default) in load_options().items()
        for value in values
        if (name, value) not in shown
    ]
    assert not missing, f"option values without a discriminating case: {missing}"


def test_every_rule_that_refuses_has_a_refusal_case(cases):
    """Rules that forbid a move (they appear in the precedence lists of R-PLAY-5) have a refuse step;
    R-DECK-4, which forbids a start, has a start_refused case."""
    forbidding = {
        "R-DECK-4",
        "R-PLAY-2", "R-PLAY-3", "R-PLAY-4", "R-ATTACK-1", "R-ATTACK-2", "R-ATTACK-3", "R-ATTACK-4",
        "R-BEAT-1", "R-BEAT-3", "R-BEAT-4", "R-THROW-1", "R-THROW-2", "R-THROW-3", "R-THROW-4",
        "R-THROW-5", "R-TAKE-1", "R-TRANSFER-1", "R-TRANSFER-2", "R-TRANSFER-3", "R-TRANSFER-4",
        "R-TRANSFER-5", "R-TRANSFER-7", "R-TRANSFER-8",
    }
    refused = {s.get("rule") for c in cases for s in c.get("steps", []) if "refuse" in s}
    refused |= {c["start_refused"].get("rule") for c in cases if c.get("start_refused")}
    assert not sorted(forbidding - refused), f"no refusal case for {sorted(forbidding - refused)}"


def test_player_counts_and_decks_covered(cases):
    counts = {c["players"] for c in cases}
    assert {2, 3, 4, 5, 6, 8} <= counts
    decks = {(effective_options(c["ruleset"])["deck_size"], effective_options(c["ruleset"])["decks"])
             for c in cases}
    assert {("24", "1"), ("36", "1"), ("52", "1"), ("24", "2"), ("36", "2")} <= decks
