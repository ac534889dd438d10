"""The step kinds a Gherkin scenario compiles to beside the first eight (spec/schema/fixture.schema
.json): who may move (``movers``), one player's exact moves (``legal`` with ``player``), checks of
state fields (``check``), what became of the bout of the last move (``bout``), a second deal of the
same game (``redeal``), an observation that hides what the player has not seen
(``hides_unseen``), and seats named by role. Judged on the reference engine (everything holds) and
on engines that break each one; the expected answers are worked from the rules."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from conformance.contract.cards import deck
from conformance.engines.base import ErrorResult, InProcessEngine
from conformance.engines.gating import Support
from conformance.suite.cases import CaseRunner
from conformance.suite.kinds import POLARITY, STEP_KINDS, polarity
from conformance.suite.loader import Case, Step, step_problems

#: The canonical unshuffled 36-card deck dealt by seat 1: seat 0 holds 6C 8C TC QC AC 7D, seat 1
#: 7C 9C JC KC 6D 8D; 9D is the trump card under a talon of 24 (TD first). Seat 1 holds the
#: lowest trump and opens against seat 0 (R-DEAL-1, R-TRUMP-1, R-ROLE-1, R-ROLE-2).
DEAL = {"deck": deck(36), "dealer": 1}
OPEN = {"player": "/bout/attacker", "action": "attack", "cards": ["7C"]}
BEAT = {"player": "/bout/defender", "action": "beat", "target": "7C", "card": "8C"}
PASS = {"player": 1, "action": "pass"}
TAKE = {"player": 0, "action": "take"}


def _case(*steps: dict, start=None) -> Case:
    return Case(
        id="kinds",
        description="d",
        rules=("R-ROLE-1",),
        ruleset="podkidnoy",
        players=2,
        start=start or DEAL,
        steps=tuple(
            Step(i + 1, next(k for k in s if k not in ("note", "player", "actions")), s, i + 1)
            for i, s in enumerate(steps)
        ),
        path=Path("kinds.yaml"),
        line=1,
    )


def run(*steps: dict, engine=None, start=None):
    return CaseRunner(engine or InProcessEngine(), Support.everything()).run(
        _case(*steps, start=start)
    )


#: A bout played to its end: the defender beats 7C with 8C, the attacker passes, the pair is
#: discarded (R-BOUT-1), both draw to six (R-DRAW-1) and the defender attacks next (R-ROLE-3).
DEFENDED = (
    {"movers": [1], "actions": ["attack"]},
    {"movers": ["/bout/attacker"]},
    {"legal": [], "player": 0},
    {"move": OPEN},
    {"legal_includes": [BEAT, {"player": "/bout/defender", "action": "take"}]},
    {
        "legal": [
            BEAT,
            {"player": 0, "action": "beat", "target": "7C", "card": "TC"},
            {"player": 0, "action": "beat", "target": "7C", "card": "QC"},
            {"player": 0, "action": "beat", "target": "7C", "card": "AC"},
            {"player": 0, "action": "beat", "target": "7C", "card": "7D"},
            TAKE,
        ],
        "player": "/bout/defender",
    },
    {"move": BEAT},
    {"bout": "goes_on"},
    {
        "check": {
            "/players/0/hand": {"size": 5, "includes": ["6C", "7D"], "excludes": ["8C"]},
            "/trump": {"matches": "[2-9TJQKA]D2?"},
            "/talon/0": {"present": True},
            "/talon/24": {"present": False},
            "/finished": {"excludes": [0, 1]},
        }
    },
    {"move": PASS},
    {"bout": "discarded"},
    {"bout": "over"},
    {"expect": {"/discard": ["7C", "8C"], "/bout/attacker": 0}},
    {"observe": {"player": "/bout/defender"}, "hides_unseen": True},
)


def test_the_new_kinds_hold_on_the_reference_engine():
    result = run(*DEFENDED)
    assert result.ok, result.message


def test_every_step_the_scenarios_use_is_valid_fixture_data():
    for step in DEFENDED:
        assert step_problems(step) == [], step
    assert set(POLARITY) == set(STEP_KINDS)


def test_seats_named_by_role_are_the_roles_of_the_state_the_step_is_judged_in():
    result = run({"move": {"player": "/bout/defender", "action": "take"}})
    assert result.signature == "step 1 move: move not listed"
    assert result.step.data["move"]["player"] == 0  # bound before judging; nothing to take yet
    # piling on is allowed: the bout closes once the attacker, who holds no 7, passes (R-TAKE-2)
    over = run(
        {"move": OPEN},
        {"move": {"player": "/bout/defender", "action": "take"}},
        {"bout": "goes_on"},
        {"move": PASS},
        {"bout": "taken"},
        {"bout": "taken", "player": 0},
        {"check": {"/players/0/known": {"includes": ["7C"]}}},
    )
    assert over.ok, over.message


def test_who_may_move_and_one_players_moves():
    assert run({"movers": [0, 1]}).signature == "step 1 movers: wrong movers"
    assert run({"movers": [1], "actions": ["pass"]}).signature == (
        "step 1 movers: other actions listed"
    )
    wrong = run({"legal": [], "player": 1})
    assert wrong.signature == "step 1 legal: wrong set" and "player 1's legal set" in wrong.message


def test_checks_and_bout_ends_name_what_differs():
    failed = run({"check": {"/players/0/hand": {"size": 5}, "/trump": {"matches": "..H"}}})
    assert failed.signature == "step 1 check: check fails at /players/0/hand, /trump"
    assert failed.actual == {
        "/players/0/hand": ["6C", "8C", "TC", "QC", "AC", "7D"],
        "/trump": "9D",
    }
    assert run({"bout": "goes_on"}).signature == "step 1 bout: no move before"
    taken = run({"move": OPEN}, {"move": BEAT}, {"move": PASS}, {"bout": "taken"})
    assert taken.signature == "step 4 bout: bout not taken"
    assert run({"move": OPEN}, {"bout": "over"}).signature == "step 2 bout: bout not over"


def test_a_second_deal_of_the_same_game():
    assert run({"redeal": {"deck": deck(36)}}).ok
    assert run({"redeal": {"seed": 7}}, start={"seed": 7}).ok
    other = run({"redeal": {"seed": 8}}, start={"seed": 7})
    assert other.outcome == "failed" and other.signature.startswith("step 1 redeal: deal differs")


class Leaky(InProcessEngine):
    """Shows the observer the next card of the talon among his known cards."""

    def observe(self, state, player):
        seen = super().observe(state, player)
        if isinstance(seen, dict):
            seen["players"][player]["known"] = [state["talon"][0]]
        return seen


def test_an_observation_showing_an_unseen_card_fails():
    step = {"observe": {"player": 0}, "hides_unseen": True}
    result = run(step, engine=Leaky())
    assert result.signature == "step 1 observe: observation shows hidden cards"
    assert result.actual["leaked"] == ["TD"]


class ListsWhatItRefuses(InProcessEngine):
    """Refuses beating 7C with 6C (R-BEAT-1) but lists it among the legal moves."""

    LOW: ClassVar[dict] = {"player": 0, "action": "beat", "target": "7C", "card": "6C"}

    def legal_moves(self, state):
        moves = super().legal_moves(state)
        if isinstance(moves, list) and state.get("table"):
            moves = [*moves, dict(self.LOW)]
        return moves

    def apply(self, state, move):
        if move == self.LOW:
            return ErrorResult("illegal_move", "too low", rule="R-BEAT-1")
        return super().apply(state, move)


def test_a_refused_move_must_not_be_listed():
    low = {"refuse": ListsWhatItRefuses.LOW, "rule": "R-BEAT-1"}
    assert run({"move": OPEN}, low).ok
    listed = run({"move": OPEN}, low, engine=ListsWhatItRefuses())
    assert listed.signature == "step 2 refuse: refused move listed"


def test_polarity_is_declared_per_kind_and_refined_by_content():
    assert polarity("legal", {"legal": [TAKE]}) == (True, True)
    assert polarity("legal", {"legal": [], "player": 1}) == (False, True)
    assert polarity("movers", {"movers": []}) == (False, True)
    assert polarity("observe", {"observe": {"player": 0}, "hides_unseen": True}) == (False, True)
    assert polarity("observe", {"observe": {"player": 0}, "expect": {"/hand": []}}) == (True, False)
    assert polarity("check", {"check": {}}) == (False, False)
