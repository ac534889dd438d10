"""The perft counter itself (conformance/tools/perft/), on a toy engine whose tree is known by hand.

The toy game: a pile of ``n`` stones, a move takes 1 or 2, the game is over at 0. With
f(n, d) the perft: f(n, 0) = 1, f(0, d > 0) = 0, f(1, d) = f(0, d-1), f(n, d) = f(n-1, d-1) +
f(n-2, d-1). From n = 4 the sequences are: depth 1 {1, 2}; depth 2 {11, 12, 21, 22};
depth 3 {111, 112, 121, 211}; depth 4 {1111}; depth 5 none.
"""

from __future__ import annotations

import argparse
import io

import pytest

from conformance.contract.canonical import canonical_move
from conformance.engines.base import Engine, ErrorResult
from conformance.engines.gating import Support
from conformance.tools.perft import (
    PerftError,
    PerftPosition,
    PositionsError,
    add_cli_arguments,
    divide,
    load_file,
    load_positions,
    perft,
    run_cli,
    run_positions,
)


class Stones(Engine):
    """A stateless toy engine (the state is ``{"n": stones}``) counting its calls."""

    def __init__(self, duplicate_at=None, refuse_at=None):
        self.calls = 0
        self.duplicate_at = duplicate_at
        self.refuse_at = refuse_at

    def hello(self):
        return {"protocol": "1", "engine": {"name": "stones"}, "supports": {}}

    def new_game(self, ruleset, players, *, seed=None, deck=None, dealer=None, previous=None):
        if ruleset == "unknown":
            return ErrorResult("unsupported", "no such ruleset")
        return {"n": len(deck) if deck is not None else 4, "ruleset": {"name": ruleset}}

    def legal_moves(self, state):
        self.calls += 1
        n = state["n"]
        moves = [{"player": 0, "action": "take", "k": k} for k in (1, 2) if k <= n]
        if n == self.duplicate_at and moves:
            moves.append(dict(moves[0]))
        return moves

    def apply(self, state, move):
        self.calls += 1
        if state["n"] == self.refuse_at:
            return ErrorResult("illegal_move", "no", rule="R-PLAY-4")
        return {**state, "n": state["n"] - move["k"]}


@pytest.mark.parametrize("transpositions", [True, False])
def test_counts_by_hand(transpositions):
    engine = Stones()
    got = [perft(engine, {"n": 4}, d, transpositions=transpositions) for d in range(6)]
    assert got == [1, 2, 4, 4, 1, 0]


def test_finished_game_counts_one_at_depth_zero_only():
    assert [perft(Stones(), {"n": 0}, d) for d in range(3)] == [1, 0, 0]


def test_transpositions_save_engine_calls():
    cached, plain = Stones(), Stones()
    assert perft(cached, {"n": 12}, 8) == perft(plain, {"n": 12}, 8, transpositions=False)
    assert cached.calls < plain.calls


def test_divide_by_first_move_sums_to_perft():
    entries = divide(Stones(), {"n": 4}, 3)
    # after taking 1 (n = 3): 111, 112, 121 -> 3; after taking 2 (n = 2): 211 -> 1
    assert [(e.move["k"], e.count) for e in entries] == [(1, 3), (2, 1)]
    assert sum(e.count for e in entries) == perft(Stones(), {"n": 4}, 3)


def test_divide_rejects_depth_zero_and_bad_depth():
    with pytest.raises(ValueError, match="depth >= 1"):
        divide(Stones(), {"n": 4}, 0)
    with pytest.raises(ValueError, match="integer >= 0"):
        perft(Stones(), {"n": 4}, -1)


def test_a_move_listed_twice_is_an_engine_error_with_its_path():
    with pytest.raises(PerftError, match="twice") as info:
        perft(Stones(duplicate_at=2), {"n": 4}, 3)
    assert [m["k"] for m in info.value.path] in ([1, 1], [2])


def test_a_listed_move_the_engine_refuses_is_an_error():
    with pytest.raises(PerftError, match="refused the move") as info:
        perft(Stones(refuse_at=3), {"n": 4}, 3)
    assert [m["k"] for m in info.value.path] == [1]


def test_move_identity_sorts_cards():
    a = {"player": 0, "action": "attack", "cards": ["7D", "7C"]}
    b = {"action": "attack", "cards": ["7C", "7D"], "player": 0}
    assert canonical_move(a) == canonical_move(b)
    # the contract's card order is suit first (C D H S), then rank: 7C before 6D
    assert canonical_move({"cards": ["6D", "7C"]}) == '{"cards":["7C","6D"]}'


POSITIONS = """
positions:
  - id: stones-four
    description: four stones
    ruleset: stones
    players: 2
    start: {deck: [a, b, c, d]}
    perft: {1: 2, 2: 4, 3: 4, 4: 1}
    divide:
      3: {'{"action":"take","k":1,"player":0}': 3, '{"action":"take","k":2,"player":0}': 1}
  - id: stones-wrong
    description: a wrong expected count
    ruleset: stones
    players: 2
    start: {deck: [a, b, c]}
    perft: {2: 4}
  - id: stones-unsupported
    description: the engine does not play this ruleset
    ruleset: unknown
    players: 2
    start: {deck: [a]}
    perft: {1: 1}
"""


def test_positions_run_and_report(tmp_path):
    path = tmp_path / "stones.yaml"
    path.write_text(POSITIONS)
    positions = load_positions([path])
    assert [p.id for p in positions] == ["stones-four", "stones-wrong", "stones-unsupported"]
    results = run_positions(Stones(), positions, max_nodes=3)
    ok, wrong, _unsupported = results
    # max_nodes=3 keeps only the depths whose expected count is at most 3: 1 (2) and 4 (1)
    assert ok.ok and sorted(ok.checked) == [1, 4]
    assert not wrong.checked and wrong.ok  # its only depth (4 sequences) is over the budget


def test_positions_budget_and_mismatch(tmp_path):
    path = tmp_path / "stones.yaml"
    path.write_text(POSITIONS)
    results = run_positions(Stones(), load_positions([path]))
    ok, wrong, unsupported = results
    assert ok.ok and sorted(ok.checked) == [1, 2, 3, 4]
    # three stones, depth 2: 11, 12, 21 -> 3, not the 4 written down
    assert not wrong.ok and wrong.checked == {2: (4, 3)}
    assert unsupported.unsupported and not unsupported.checked


def test_cli_divide_and_exit_codes(tmp_path, monkeypatch):
    # stones is no Durak ruleset, so the engine's claims cannot gate it: gate nothing
    monkeypatch.setattr(Support, "from_hello", lambda hello: Support.everything())
    path = tmp_path / "stones.yaml"
    path.write_text(POSITIONS)
    parser = argparse.ArgumentParser()
    add_cli_arguments(parser)
    out = io.StringIO()
    code = run_cli(Stones(), parser.parse_args([str(path), "--id", "stones-four", "--divide", "3"]),
                   out)
    assert code == 0
    assert out.getvalue().splitlines()[-1] == "total: 4"
    out = io.StringIO()
    assert run_cli(Stones(), parser.parse_args([str(path)]), out) == 1
    assert "perft(2) expected 4, engine counted 3" in out.getvalue()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("positions: [{id: x}]", "missing key"),
        (("positions: [{id: X Y, description: d, ruleset: r, players: 2, start: {deck: []},"
         " perft: {1: 1}}]"), "id must be"),
        ("positions: [{id: x, description: d, ruleset: r, players: 2, start: {}, perft: {1: 1}}]",
         "exactly one of"),
        (("positions: [{id: x, description: d, ruleset: r, players: 2, start: {deck: []},"
         " perft: {1: 2}, divide: {1: {'{}': 1}}}]"), "sums to 1"),
        (("positions: [{id: x, description: d, ruleset: r, players: 9, start: {deck: []},"
         " perft: {1: 2}}]"), "players must be"),
        ("nothing: here", "a 'positions' list"),
        (("positions: [{id: x, description: d, ruleset: r, players: 2, start: {deck: []},"
         " perft: {1: 2}, suite_depth: 3}]"), "suite_depth 3 is not one of the depths"),
    ],
)
def test_malformed_positions_are_reported_with_file(tmp_path, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(PositionsError, match=message) as info:
        load_positions([path])
    assert "bad.yaml" in str(info.value)


def test_suite_depth_defaults_to_the_smallest_depth_and_one_bad_position_stands_alone(tmp_path):
    path = tmp_path / "stones.yaml"
    path.write_text(POSITIONS.replace("perft: {1: 2, 2: 4, 3: 4, 4: 1}", "perft: {1: 2, 2: 4, "
                                      "3: 4, 4: 1}\n    suite_depth: 3")
                    .replace("perft: {1: 1}", "perft: {1: 1}\n    players: 9"))  # fmt: skip
    positions, problems = load_file(path)
    assert [(p.id, p.suite_depth, p.line) for p in positions] == [
        ("stones-four", 3, 3),
        ("stones-wrong", 2, 12),
    ]
    (problem,) = problems
    assert problem.line == 18 and "positions[2]" in str(problem) and "stones.yaml" in str(problem)
    with pytest.raises(PositionsError):
        load_positions([path])


def test_position_depth_budgets():
    pos = PerftPosition("p", "", "r", 2, {"deck": []}, {1: 10, 2: 100, 3: 1000})
    assert pos.depths() == [1, 2, 3]
    assert pos.depths(max_depth=2) == [1, 2]
    assert pos.depths(max_nodes=100) == [1, 2]


def test_a_mismatch_descends_to_the_first_move_where_the_engines_part(monkeypatch):
    """wrong_engine.py lets no trump beat another suit: on the pagat endgame its perft(2) is
    short, and the runner follows both divides down to the node where they part, naming the
    move it misses and the rule (R-BEAT-1) without being asked for --divide."""
    from pathlib import Path

    from conformance.engines.factory import make_engine
    from conformance.tools.perft import format_results, load_positions

    engines = Path(__file__).resolve().parents[1] / "runner" / "engines"
    monkeypatch.syspath_prepend(str(engines))
    position = next(p for p in load_positions() if p.id == "pagat-3p-endgame")
    (result,) = run_positions(make_engine("python:wrong_engine:make"), [position], max_depth=3)
    assert result.mismatches() == [2, 3]
    descent = result.descent
    assert [m["action"] for m in descent.path] == ["attack"]
    assert descent.missing and all(m["action"] == "beat" for m in descent.missing)
    assert descent.extra == [] and descent.rules == ["R-BEAT-1"]
    assert "first divergence after" in format_results([result])
