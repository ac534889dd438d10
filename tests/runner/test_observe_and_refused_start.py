"""The two fixture forms added for rules no move can show: the ``observe`` step (what one player
may see, R-INFO-*) and ``start_refused`` (a game new_game must refuse, R-DECK-4).

Scripted engines pin the step semantics (schema check, absent pointers, canonical comparison,
gating on ``supports.observe`` and on the deck and options but not a forbidden player count);
then the packaged info and deck fixtures run against the reference engine and against engines that
get it wrong: one whose observe leaks another player's hand, one without observe, one that answers
``unsupported`` to a count the rules forbid.
"""

from __future__ import annotations

import copy
import textwrap
from pathlib import Path

import pytest

from conformance.contract.seats import legal_player_counts
from conformance.engines.base import Engine, ErrorResult, InProcessEngine
from conformance.engines.gating import Support
from conformance.suite.cases import CaseRunner
from conformance.suite.loader import Case, Step, load_file, load_paths
from conformance.suite.observation import schema_problems

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "conformance" / "fixtures"
DEFAULTS = {"deck_size": 36, "decks": 1, "teams": "none", "discard_visibility": "count"}

#: A valid observation of seat 0 (spec/schema/observation.schema.json), written out by hand.
OBSERVATION = {
    "version": 1,
    "player": 0,
    "ruleset": {"name": "p", "options": {"discard_visibility": "count"}},
    "dealer": 1,
    "trump_suit": "H",
    "trump_card": "8H",
    "talon_size": 24,
    "discard": {"count": 2},
    "hand": ["9C", "QD", "7H", "KS", "AS", "6C"],
    "players": [
        {"seat": 0, "hand_size": 6, "known": [], "team": None},
        {"seat": 1, "hand_size": 5, "known": ["TC", "8C"], "team": None},
    ],
    "table": [],
    "bout": {
        "number": 2,
        "attacker": 1,
        "defender": 0,
        "opener": 1,
        "passed": [],
        "taking": False,
        "first_defence": None,
        "shown": [],
        "emptied": [],
    },
    "finished": [],
    "result": None,
}


class Watcher(Engine):
    """An engine whose ``new_game`` and ``observe`` answers are given, counting the calls."""

    def __init__(self, observation=None, new_game=None):
        self.observation = observation
        self._new_game = new_game
        self.calls: list[str] = []

    def hello(self):
        return {}

    def new_game(self, ruleset, players, **kwargs):
        self.calls.append("new_game")
        if self._new_game is not None:
            return self._new_game(players)
        return {"ruleset": {}, "players": [], "result": None}

    def legal_moves(self, state):
        return []

    def apply(self, state, move):
        return state

    def observe(self, state, player):
        self.calls.append(f"observe {player}")
        if isinstance(self.observation, ErrorResult):
            return self.observation
        return copy.deepcopy(self.observation)


def _resolve(ruleset):
    options = dict(DEFAULTS)
    if isinstance(ruleset, dict):
        options.update(ruleset.get("overrides", {}))
    return {"name": "p", "options": options}


def _case(*steps, players=2, ruleset="p", start=None, start_refused=None, rules=("R-INFO-1",)):
    return Case(
        id="c",
        description="d",
        rules=rules,
        ruleset=ruleset,
        players=players,
        start=start or {"seed": 1},
        steps=tuple(
            Step(i + 1, "observe" if "observe" in s else next(iter(s)), s, i + 10)
            for i, s in enumerate(steps)
        ),
        path=Path("x.yaml"),
        line=1,
        start_refused=start_refused,
    )


def run(engine, case, *, support=None):
    support = support or Support({"36": frozenset({2, 3})}, observe=True)
    runner = CaseRunner(engine, support, resolve=_resolve, defaults=DEFAULTS, check_states=False)
    return runner.run(case)


def observe(player=0, **checks):
    return {"observe": {"player": player}, **checks}


# ----------------------------------------------------------------------------- observe steps


def test_the_hand_written_observation_is_valid():
    assert schema_problems(OBSERVATION) == []


def test_observe_checks_expected_fields_in_canonical_order():
    engine = Watcher(OBSERVATION)
    step = observe(
        expect={
            "/hand": ["6C", "9C", "QD", "7H", "KS", "AS"],  # any order: hands are sets
            "/players/1/known": ["8C", "TC"],
            "/discard": {"count": 2},
        },
        absent=["/players/1/hand", "/talon", "/discard/cards"],
    )
    result = run(engine, _case(step))
    assert result.ok, result.message
    assert engine.calls == ["new_game", "observe 0"]


def test_observe_differs():
    result = run(Watcher(OBSERVATION), _case(observe(expect={"/trump_card": None})))
    assert result.outcome == "failed"
    assert result.signature == "step 1 observe: observation differs at /trump_card"
    assert result.expected == {"/trump_card": None} and result.actual == {"/trump_card": "8H"}


def test_the_discard_pile_keeps_its_order():
    shown = copy.deepcopy(OBSERVATION)
    shown["ruleset"]["options"]["discard_visibility"] = "contents"
    shown["discard"] = {"count": 2, "cards": ["8C", "6C"]}
    case = _case(observe(expect={"/discard/cards": ["6C", "8C"]}))
    assert run(Watcher(shown), case).signature == (
        "step 1 observe: observation differs at /discard/cards"
    )


def test_a_leaked_hand_fails_at_the_absent_pointer():
    leaky = copy.deepcopy(OBSERVATION)
    leaky["players"][1]["hand"] = ["8C", "TC", "JD", "AD", "6S"]
    result = run(Watcher(leaky), _case(observe(absent=["/players/1/hand"])))
    assert result.outcome == "failed"
    assert result.signature == "step 1 observe: observation shows /players/1/hand"
    assert "must be hidden at /players/1/hand" in result.message
    assert result.actual["shown"] == {"/players/1/hand": ["8C", "TC", "JD", "AD", "6S"]}


def test_every_observation_is_checked_against_the_schema():
    """A leak the case did not think of is still caught: the schema's objects are closed."""
    leaky = copy.deepcopy(OBSERVATION)
    leaky["talon"] = ["7C", "8H"]
    leaky["discard"]["cards"] = ["6C", "8C"]  # shown although discard_visibility is count
    result = run(Watcher(leaky), _case(observe(expect={"/dealer": 1})))
    assert result.outcome == "failed"
    assert result.signature == "step 1 observe: observation fails the schema at /discard, /talon"
    assert "/talon: not a field of an observation" in result.message
    assert "discard_visibility is count" in result.message
    missing = copy.deepcopy(OBSERVATION)
    del missing["talon_size"]
    result = run(Watcher(missing), _case(observe(absent=["/talon"])))
    assert result.signature == "step 1 observe: observation fails the schema at /"
    assert "'talon_size' is a required property" in result.message


def test_an_observe_error_is_judged_like_any_answer():
    refused = Watcher(ErrorResult("unsupported", "no observe here"))
    result = run(refused, _case(observe(expect={"/dealer": 1})))
    assert result.outcome == "failed" and "hello claims support" in result.message
    crashed = Watcher(ErrorResult("crash", "gone"))
    assert run(crashed, _case(observe(expect={"/dealer": 1}))).outcome == "error"
    garbled = Watcher(["not", "an", "object"])
    assert run(garbled, _case(observe(expect={"/dealer": 1}))).signature == (
        "step 1 observe: observe answered a non-object"
    )


def test_a_case_with_observe_is_unsupported_without_the_claim():
    engine = Watcher(OBSERVATION)
    no_observe = Support({"36": frozenset({2})})
    result = run(engine, _case(observe(expect={"/dealer": 1})), support=no_observe)
    assert result.outcome == "unsupported" and result.message == "not claimed in hello: observe"
    assert engine.calls == []  # nothing was asked
    both = Support({"52": frozenset({2})})
    result = run(engine, _case(observe(expect={"/dealer": 1})), support=both)
    assert result.message == "not claimed in hello: 2 players with deck 36, observe"
    assert run(engine, _case({"result": None}), support=no_observe).ok  # no observe step: runs


# ------------------------------------------------------------------------- refused starts

REFUSED = {"code": "bad_request", "rule": "R-DECK-4"}


def refusing(players):
    return ErrorResult("bad_request", f"{players} players is not a game")


def test_legal_counts_follow_r_deck_4():
    assert legal_player_counts({"deck_size": 24, "decks": 1}) == {2, 3, 4}
    assert legal_player_counts({"deck_size": 36, "decks": 1}) == {2, 3, 4, 5, 6}
    assert legal_player_counts({"deck_size": 52, "decks": 1}) == set(range(2, 9))
    assert legal_player_counts({"deck_size": 24, "decks": 2}) == set(range(2, 9))
    assert legal_player_counts({"deck_size": 52, "decks": 2}) == set(range(2, 9))
    assert legal_player_counts({"deck_size": 36, "decks": 1, "teams": "2v2"}) == {4}
    assert legal_player_counts({"deck_size": 36, "decks": 1, "teams": "2v2v2"}) == {6}
    assert legal_player_counts({"deck_size": 24, "decks": 1, "teams": "3v3"}) == set()


def test_a_refused_start_passes_when_new_game_refuses():
    engine = Watcher(new_game=refusing)
    result = run(engine, _case(players=7, start_refused=REFUSED))
    assert result.ok, result.message
    assert engine.calls == ["new_game"]


def test_a_start_set_up_instead_of_refused_fails():
    result = run(Watcher(), _case(players=7, start_refused=REFUSED))
    assert result.outcome == "failed" and result.signature == "start: accepted"
    assert "must be refused with bad_request (R-DECK-4)" in result.message
    assert result.actual["accepted"] is True


def test_unsupported_is_not_a_refusal_of_a_forbidden_count():
    def unsupported(players):
        return ErrorResult("unsupported", "I only play with six or fewer")

    result = run(Watcher(new_game=unsupported), _case(players=7, start_refused=REFUSED))
    assert result.outcome == "failed" and result.signature == "start: refused with unsupported"
    assert "expected bad_request" in result.message


def test_the_rule_of_a_refused_start_is_not_compared():
    """bad_request need not cite a rule (spec/protocol.md P-9), and a team count may be blamed on
    R-DECK-4 or R-TEAM-1: any citation, or none, passes."""

    def citing(players):
        return ErrorResult("bad_request", "teams", rule="R-TEAM-1")

    assert run(Watcher(new_game=citing), _case(players=7, start_refused=REFUSED)).ok
    wrong_code = run(
        Watcher(new_game=lambda n: ErrorResult("illegal_move", "x", rule="R-DECK-4")),
        _case(players=7, start_refused=REFUSED),
    )
    assert wrong_code.signature == "start: refused with illegal_move"
    fault = Watcher(new_game=lambda n: ErrorResult("timeout", "slow"))
    assert run(fault, _case(players=7, start_refused=REFUSED)).outcome == "error"


def test_a_forbidden_count_is_not_gated_but_deck_and_options_are():
    claim = Support({"36": frozenset({2, 3, 4, 5, 6})}, {"teams": frozenset({"none"})})
    for players in (1, 7, 9):  # never claimed, yet run
        assert run(
            Watcher(new_game=refusing), _case(players=players, start_refused=REFUSED), support=claim
        ).ok
    small = {"preset": "p", "overrides": {"deck_size": 24}}
    gated = run(Watcher(), _case(players=5, ruleset=small, start_refused=REFUSED), support=claim)
    assert gated.outcome == "unsupported" and gated.message == "not claimed in hello: deck 24"
    teams = {"preset": "p", "overrides": {"teams": "2v2"}}
    gated = run(Watcher(), _case(players=3, ruleset=teams, start_refused=REFUSED), support=claim)
    assert gated.outcome == "unsupported" and gated.applicability.blockers == ("teams=2v2",)
    with_teams = Support({"36": frozenset({4})}, {"teams": frozenset({"none", "2v2"})})
    case = _case(players=3, ruleset=teams, start_refused=REFUSED)
    assert run(Watcher(new_game=refusing), case, support=with_teams).ok


def test_a_refused_start_with_a_legal_count_is_gated_on_the_count():
    """A malformed deck with five players: the count is legal, so an engine that does not offer
    five players may say so (unsupported) rather than judge the deck."""
    claim = Support({"36": frozenset({2})})
    case = _case(players=5, start={"deck": ["6C", "6C"]}, start_refused={"code": "bad_request"})
    result = run(Watcher(), case, support=claim)
    assert result.outcome == "unsupported" and "5 players with deck 36" in result.message


def test_cases_the_rules_make_unrunnable_are_broken_fixtures():
    result = run(Watcher(), _case({"result": None}, players=7))
    assert result.outcome == "broken" and result.signature == "broken fixture"
    assert "R-DECK-4 forbids" in result.message and "start_refused" in result.message
    result = run(Watcher(), _case(players=4, start_refused=REFUSED))
    assert result.outcome == "broken" and "R-DECK-4 allows 4 players" in result.message


# ------------------------------------------------------------------------------- loading


def test_the_loader_reads_both_forms(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text(
        textwrap.dedent(
            """\
            cases:
              - id: seen
                description: d
                rules: [R-INFO-1]
                ruleset: podkidnoy
                players: 2
                start: {seed: 1}
                steps:
                  - observe: {player: 1}
                    expect: {/talon_size: 24}
                    absent: [/talon]
              - id: refused
                description: d
                rules: [R-DECK-4]
                ruleset: podkidnoy
                players: 9
                start: {seed: 1}
                start_refused: {code: bad_request, rule: R-DECK-4}
            """
        )
    )
    (seen, refused), problems = load_file(path)
    assert problems == []
    assert [step.kind for step in seen.steps] == ["observe"] and seen.start_refused is None
    assert seen.steps[0].body == {"player": 1}
    assert seen.steps[0].data["expect"] == {"/talon_size": 24}
    assert refused.steps == () and refused.start_refused == REFUSED


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            (
                "players: 3\nstart: {seed: 1}\nstart_refused: {code: bad_request}\n"
                "steps: [{result: null}]\n"
            ),
            "/steps: a case with start_refused has no steps",
        ),
        (
            "players: 3\nstart: {state: {}}\nstart_refused: {code: bad_request}\n",
            "/start_refused/code: start_refused with a start: {state} has code invalid_state",
        ),
        ("players: 3\nstart: {seed: 1}\n", "'steps' is a required property"),
        (
            "players: 9\nstart: {seed: 1}\nsteps: [{result: null}]\n",
            "only a case with start_refused may ask for a count the rules forbid",
        ),
        (
            "players: 3\nstart: {seed: 1}\nstart_refused: {code: unsupported}\n",
            "/start_refused/code",
        ),
        (
            "players: 3\nstart: {seed: 1}\nsteps: [{observe: {player: 0}}]\n",
            "an observe step needs expect",
        ),
        (
            "players: 3\nstart: {seed: 1}\nsteps: [{observe: {player: 0}, absent: [talon]}]\n",
            "/steps/0/absent/0",
        ),
        (
            (
                "players: 3\nstart: {seed: 1}\nsteps: [{observe: {player: 0}, expect: {/a: 1}, "
                "legal: []}]\n"
            ),
            "one check per step, found legal and observe",
        ),
    ],
)
def test_the_loader_explains_misuse(tmp_path, text, words):
    path = tmp_path / "x.yaml"
    path.write_text("id: x\ndescription: d\nrules: [R-DECK-4]\nruleset: podkidnoy\n" + text)
    cases, (problem,) = load_file(path)
    assert cases == []
    assert words in problem.message


# ------------------------------------------------- the packaged cases against real engines


def _packaged():
    cases, problems = load_paths([FIXTURES / "info", FIXTURES / "deck" / "player-counts.yaml"])
    assert problems == []
    observing = [c for c in cases if any(s.kind == "observe" for s in c.steps)]
    refused = [c for c in cases if c.start_refused is not None]
    assert len(observing) >= 9 and len(refused) >= 7
    return observing, refused


def _reference_support(observe: bool = True) -> Support:
    hello = InProcessEngine().hello()
    hello["supports"]["observe"] = observe
    return Support.from_hello(hello)


def test_the_reference_engine_passes_the_packaged_cases():
    observing, refused = _packaged()
    runner = CaseRunner(InProcessEngine(), _reference_support())
    results = {case.id: runner.run(case) for case in observing + refused}
    assert {k: r.message for k, r in results.items() if not r.ok} == {}


def test_an_engine_whose_observe_leaks_a_hand_fails_them():
    from reference_impl.observe import observe as reference_observe

    def leaky(state, player):
        seen = reference_observe(state, player)
        other = (player + 1) % len(state["players"])
        seen["players"][other]["hand"] = list(state["players"][other]["hand"])
        return seen

    observing, _ = _packaged()
    runner = CaseRunner(InProcessEngine(observe_fn=leaky), _reference_support())
    results = [runner.run(case) for case in observing]
    assert all(r.outcome == "failed" for r in results)
    signatures = [r.signature for r in results]
    assert all(
        "observe: observation shows /players/" in s
        or "observe: observation fails the schema at /players/" in s
        for s in signatures
    ), signatures
    # where a case names no absent hand, the closed schema still catches the leak
    assert any("fails the schema" in s for s in signatures), signatures


def test_an_engine_without_observe_leaves_them_unsupported():
    observing, refused = _packaged()
    runner = CaseRunner(InProcessEngine(), _reference_support(observe=False))
    assert {runner.run(case).outcome for case in observing} == {"unsupported"}
    assert {runner.run(case).outcome for case in refused} == {"passed"}  # no observe needed


def test_an_engine_answering_unsupported_to_forbidden_counts_fails_them():
    from reference_impl import api
    from reference_impl.errors import Unsupported
    from reference_impl.rulesets import resolve_ruleset

    class Shy:
        """The reference engine, except that it calls a forbidden count 'unsupported'."""

        EngineError = api.EngineError
        capabilities = staticmethod(api.capabilities)
        legal_moves = staticmethod(api.legal_moves)
        apply = staticmethod(api.apply)

        @staticmethod
        def new_game(ruleset, players, **kwargs):
            if players not in legal_player_counts(resolve_ruleset(ruleset)["options"]):
                raise Unsupported(f"{players} players: not offered")
            return api.new_game(ruleset, players, **kwargs)

    _, refused = _packaged()
    runner = CaseRunner(InProcessEngine(Shy()), _reference_support())
    results = [runner.run(case) for case in refused]
    assert {r.signature for r in results} == {"start: refused with unsupported"}
