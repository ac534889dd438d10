"""How the traceability gate counts the fixture forms for what no move shows: an ``observe`` step
(``expect``: the player may see it, positive; ``absent``: he must not, negative) and a
``start_refused`` case (negative for the rule it names, and no longer a set-up the engine must
allow, so not positive for the rules it lists)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from conformance.tools.traceability import DESCRIPTIVE, SpecIndex, fixture_traces

SPEC = SpecIndex(
    rules={
        "R-DECK-4": "Player counts",
        "R-INFO-1": "Public information",
        "R-INFO-2": "The discard pile",
        "R-TEAM-1": "Teams",
    },
    options={"discard_visibility": ("count", "contents")},
    defaults={"discard_visibility": "count"},
    descriptive={},
)

CASES = """\
cases:
  - id: sees
    description: d
    rules: [R-INFO-1]
    ruleset: podkidnoy
    players: 2
    start: {state: {}}
    steps:
      - observe: {player: 0}
        expect: {/talon_size: 24}
  - id: hidden
    description: d
    rules: [R-INFO-2]
    options: {discard_visibility: count}
    ruleset: podkidnoy
    players: 2
    start: {seed: 1}
    steps:
      - move: {player: 0, action: attack, cards: [6C]}
      - observe: {player: 1}
        absent: [/discard/cards]
  - id: refused
    description: d
    rules: [R-TEAM-1]
    ruleset: teams-2v2
    players: 3
    start: {seed: 1}
    start_refused: {code: bad_request, rule: R-DECK-4}
  - id: refused-by-code
    description: d
    rules: [R-TEAM-1]
    ruleset: teams-2v2
    players: 3
    start: {seed: 1}
    start_refused: {code: bad_request}
  - id: unknown-rule
    description: d
    rules: [R-TEAM-1]
    ruleset: teams-2v2
    players: 3
    start: {seed: 1}
    start_refused: {code: bad_request, rule: R-DECK-9}
"""


def _traces(tmp_path: Path):
    folder = tmp_path / "fixtures"
    folder.mkdir()
    (folder / "forms.yaml").write_text(textwrap.dedent(CASES), encoding="utf-8")
    traces, problems = fixture_traces([folder], SPEC)
    return {t.id: t for t in traces}, problems


def test_observe_expect_is_positive_and_absent_negative(tmp_path):
    traces, _ = _traces(tmp_path)
    # a start from a state is neither: the observe step alone makes the case positive
    assert (traces["sees"].positive, traces["sees"].negative) == ({"R-INFO-1"}, set())
    assert traces["hidden"].negative == {"R-INFO-2"}
    assert traces["hidden"].options == {"discard_visibility": "count"}


def test_a_refused_start_is_negative_for_its_rule_only(tmp_path):
    traces, problems = _traces(tmp_path)
    refused = traces["refused"]
    assert refused.negative == {"R-DECK-4"}
    assert refused.positive == set()  # the deal must not happen: no set-up is shown allowed
    assert refused.cites == {"R-DECK-4", "R-TEAM-1"}
    assert (traces["refused-by-code"].positive, traces["refused-by-code"].negative) == (
        set(),
        set(),
    )
    assert [p.message for p in problems] == [
        "start_refused rule: cites 'R-DECK-9', which is not a rule ID of spec/rules.md"
    ]


def test_information_rules_are_no_longer_descriptive():
    """observe shows them both ways, so the gate asks for both."""
    assert "R-INFO-1" not in DESCRIPTIVE and "R-INFO-2" not in DESCRIPTIVE
