"""The step semantics of the fixture contract, judged against scripted engines."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.engines.base import Engine, ErrorResult
from conformance.engines.gating import HelloError, Support
from conformance.suite.cases import CaseRunner
from conformance.suite.loader import Case, Step
from conformance.suite.xfail import XfailList

DEFAULTS = {"deck_size": 36, "decks": 1, "transfer": "off"}
STATE = {
    "ruleset": {},
    "players": [{"hand": ["7D", "6C"], "known": []}, {"hand": ["AS"], "known": []}],
    "bout": {"passed": [1, 0]},
    "result": None,
}


class Scripted(Engine):
    """Answers from a script: ``legal`` is the move list, ``apply`` a function of the move."""

    def __init__(self, legal=(), apply=None):
        self.legal = list(legal)
        self._apply = apply or (lambda state, move: state)

    def hello(self):
        return {}

    def new_game(self, ruleset, players, **kwargs):
        return dict(STATE)

    def legal_moves(self, state):
        return self.legal

    def apply(self, state, move):
        return self._apply(state, move)


def _case(*steps: dict, ruleset="podkidnoy") -> Case:
    return Case(
        id="c",
        description="d",
        rules=("R-BEAT-1",),
        ruleset=ruleset,
        players=2,
        start={"seed": 1},
        steps=tuple(
            Step(i + 1, next(k for k in s if k not in ("rule", "code", "note")), s, i + 10)
            for i, s in enumerate(steps)
        ),
        path=Path("x.yaml"),
        line=1,
    )


def _resolve(ruleset):
    options = dict(DEFAULTS)
    if isinstance(ruleset, dict):
        options.update(ruleset.get("overrides", {}))
    return {"name": "p", "options": options}


def run(engine, *steps, support=None, ruleset="podkidnoy"):
    support = support or Support({"36": frozenset({2})})
    runner = CaseRunner(engine, support, resolve=_resolve, defaults=DEFAULTS, check_states=False)
    return runner.run(_case(*steps, ruleset=ruleset))


TAKE = {"player": 1, "action": "take"}
BEAT = {"player": 1, "action": "beat", "target": "6C", "card": "7C"}
OPEN = {"player": 0, "action": "attack", "cards": ["7D", "7C"]}


def test_legal_is_an_exact_set_in_canonical_form():
    engine = Scripted([TAKE, {"player": 0, "action": "attack", "cards": ["7C", "7D"]}])
    assert run(engine, {"legal": [OPEN, TAKE]}).outcome == "passed"
    result = run(Scripted([TAKE, TAKE, BEAT]), {"legal": [TAKE, OPEN]})
    assert result.outcome == "failed" and result.signature == "step 1 legal: wrong set"
    assert result.actual == {"missing": [OPEN], "extra": [BEAT], "listed_twice": [TAKE]}
    assert "1 missing, 1 extra, 1 listed twice" in result.message


def test_includes_and_excludes():
    engine = Scripted([TAKE])
    assert run(engine, {"legal_includes": [TAKE]}, {"legal_excludes": [BEAT]}).ok
    assert (
        run(engine, {"legal_includes": [BEAT]}).signature == "step 1 legal_includes: missing moves"
    )
    bad = run(engine, {"legal_excludes": [TAKE]})
    assert bad.signature == "step 1 legal_excludes: forbidden moves listed"


def test_refuse_needs_the_cited_rule_and_code():
    def refuse(state, move):
        return ErrorResult("illegal_move", "no", rule="R-BEAT-1")

    engine = Scripted(apply=refuse)
    assert run(engine, {"refuse": BEAT, "rule": "R-BEAT-1"}).ok
    wrong = run(engine, {"refuse": BEAT, "rule": "R-BEAT-3"})
    assert wrong.signature == "step 1 refuse: refused with illegal_move R-BEAT-1"
    assert run(engine, {"refuse": BEAT, "code": "bad_request"}).outcome == "failed"
    accepted = run(Scripted(), {"refuse": BEAT, "rule": "R-BEAT-1"})
    assert accepted.signature == "step 1 refuse: accepted"


def test_move_must_be_accepted_and_the_game_continues_from_its_answer():
    def apply(state, move):
        return {**state, "result": {"fool": 1, "draw": False, "winners": [0]}}

    engine = Scripted([TAKE], apply=apply)
    assert run(engine, {"result": None}, {"move": TAKE}, {"result": {"fool": 1}}).ok
    differs = run(engine, {"move": TAKE}, {"result": {"fool": 0, "draw": False}})
    assert differs.signature == "step 2 result: result differs in fool"
    refused = run(
        Scripted([TAKE], apply=lambda s, m: ErrorResult("illegal_move", "x", "R-TAKE-1")),
        {"move": TAKE},
    )
    assert refused.signature == "step 1 move: refused illegal_move R-TAKE-1"
    # one meaning of a move: listed by legal_moves, accepted, its input left as it was
    unlisted = run(Scripted([], apply=apply), {"move": TAKE})
    assert unlisted.signature == "step 1 move: move not listed"

    def mutate(state, move):
        state["bout"] = {"passed": []}
        return apply(state, move)

    changed = run(Scripted([TAKE], apply=mutate), {"move": TAKE})
    assert changed.signature == "step 1 move: apply changed its input"
    assert run(Scripted(), {"result": {"fool": 0}}).signature == "step 1 result: game not over"


def test_expect_compares_unordered_card_lists_canonically():
    engine = Scripted()
    ok = run(engine, {"expect": {"/players/0/hand": ["7D", "6C"], "/bout/passed": [1, 0]}})
    assert ok.ok  # written out of order on both sides: both are sorted
    missing = run(engine, {"expect": {"/talon/0": "6C", "/players/1/hand": ["AS"]}})
    assert missing.signature == "step 1 expect: state differs at /talon/0"
    assert missing.actual == {"/talon/0": "<missing>"}


def test_unsupported_answer_inside_the_claim_is_a_failure():
    engine = Scripted([TAKE], apply=lambda s, m: ErrorResult("unsupported", "no transfers"))
    result = run(engine, {"move": TAKE})
    assert result.outcome == "failed" and "hello claims support" in result.message


def test_faults_and_open_breaker():
    crash = Scripted([TAKE], apply=lambda s, m: ErrorResult("crash", "gone", diagnostics={"x": 1}))
    result = run(crash, {"move": TAKE})
    assert result.outcome == "error" and result.signature == "step 1 move: crash"
    assert result.diagnostics == {"x": 1}
    stopped = run(
        Scripted([TAKE], apply=lambda s, m: ErrorResult("not_run", "given up")), {"move": TAKE}
    )
    assert stopped.outcome == "not_run"


def test_gating_by_deck_players_and_option_values():
    support = Support({"36": frozenset({2, 3})}, {"transfer": frozenset({"off", "on"})})
    assert run(Scripted(), {"legal": []}, support=support).ok
    on = {"preset": "podkidnoy", "overrides": {"transfer": "on"}}
    assert run(Scripted(), {"legal": []}, support=support, ruleset=on).ok
    small = {"preset": "podkidnoy", "overrides": {"deck_size": 24}}
    gated = run(Scripted(), {"legal": []}, support=support, ruleset=small)
    assert gated.outcome == "unsupported" and "deck 24" in gated.message
    classic = Support({"36": frozenset({2})})  # options left out: defaults only
    gated = run(Scripted(), {"legal": []}, support=classic, ruleset=on)
    assert gated.outcome == "unsupported" and "transfer=on" in gated.message


@pytest.mark.parametrize(
    ("hello", "words"),
    [
        ({"protocol": "2", "engine": {"name": "x"}, "supports": {}}, "protocol '2'"),
        ({"protocol": "1", "supports": {}}, "engine"),
        ({"protocol": "1", "engine": {"name": "x"}, "supports": {"players": {}}}, "players"),
        (
            {"protocol": "1", "engine": {"name": "x"}, "supports": {"players": {"36": "all"}}},
            "list of integers",
        ),
    ],
)
def test_unusable_hello(hello, words):
    with pytest.raises(HelloError, match=words):
        Support.from_hello(hello)


def test_xfail_judgement_and_update(tmp_path):
    listing = XfailList(tmp_path / "x.yaml", {"a": "step 2", "b": None, "c": "step 1 legal"})
    assert listing.judge("a", True, "step 2 refuse: accepted").outcome == "xfailed"
    assert listing.judge("a", True, "step 3 move: crash").outcome == "mismatch"
    assert listing.judge("b", False, None).outcome == "xpassed"
    assert listing.judge("z", True, "anything") is None
    updated = listing.updated(
        {
            "a": (True, "step 2 refuse: accepted"),
            "b": (False, None),
            "d": (True, "step 1 x"),
            "c": None,
        }
    )
    assert updated.entries == {"a": "step 2", "c": "step 1 legal", "d": "step 1 x"}
    updated.save()
    assert XfailList.load(updated.path).entries == updated.entries
