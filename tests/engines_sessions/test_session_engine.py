"""SessionEngine: the stateless interface over an engine's games, tested on the reference engine
through real processes (``serve``, and engines/logged_serve.py, which logs what it reads and can
crash). Answers are the stateless ones; what changes is how they are asked: linear play stays on
one game, a branch is replayed, a restart forgets every handle (P-38), a state never reached from
a deal goes to the stateless operations."""

from __future__ import annotations

import random

import pytest

from conformance.engines.base import ErrorResult, InProcessEngine
from conformance.engines.factory import make_engine
from conformance.engines.process import SubprocessEngine
from conformance.engines.session import (
    SESSIONS_ENV,
    SessionEngine,
    fingerprint,
    sessions_wanted,
    starts_from_position,
)
from conformance.tools.perft import perft
from reference_impl import api

from .helpers import LOGGED_SERVE, SERVE, read_log


@pytest.fixture
def served():
    engine = SessionEngine(SubprocessEngine(SERVE, timeout=30))
    assert engine.hello()["supports"]["sessions"] is True
    yield engine
    engine.close()


def logged(tmp_path, crash: str = "") -> SessionEngine:
    env = {"SESSION_LOG": str(tmp_path / "requests.jsonl")}
    if crash:
        env["SESSION_CRASH"] = f"{crash}:{tmp_path / 'crashed'}"
    import os

    inner = SubprocessEngine(LOGGED_SERVE, timeout=30, env={**os.environ, **env})
    engine = SessionEngine(inner)
    engine.hello()
    return engine


def test_a_game_played_straight_through_stays_on_one_game(served):
    rng = random.Random(3)
    state = served.new_game("podkidnoy", 3, seed=21)
    assert state == api.new_game("podkidnoy", 3, seed=21)
    for _ in range(300):
        moves = served.legal_moves(state)
        assert sorted(map(str, moves)) == sorted(map(str, api.legal_moves(state)))
        if not moves:
            break
        probe = {"player": state["bout"]["defender"], "action": "throw_in", "card": "AS"}
        assert isinstance(served.apply(state, probe), ErrorResult)  # refused: the game stays
        move = rng.choice(moves)
        after = served.apply(state, move)
        assert after == api.apply(state, move)
        state = after
    counts = served.stats().counts
    assert counts["opened"] == 1 and counts["replays"] == 0 and counts["stateless"] == 0
    assert counts["game_apply"] > 50


def test_a_branch_is_replayed_on_a_new_game(served):
    root = served.new_game("perevodnoy", 2, seed=5)
    first, second = served.legal_moves(root)[:2]
    a = served.apply(root, first)  # the game moves on to a
    b = served.apply(root, second)  # root again: a new game, no move to replay
    assert (a, b) == (api.apply(root, first), api.apply(root, second))
    counts = served.stats().counts
    assert counts["opened"] == 2 and counts["replays"] == 1 and counts["replayed_moves"] == 0
    further = served.apply(a, served.legal_moves(a)[0])  # a's game is still there: no replay
    assert served.stats().counts["replays"] == 1 and further["result"] is None
    assert served.legal_moves(a) == api.legal_moves(a)  # a once more: root's deal, then one move
    counts = served.stats().counts
    assert counts["replays"] == 2 and counts["replayed_moves"] == 1 and counts["opened"] == 3


def test_perft_from_a_deal_counts_the_same_in_sessions(served):
    root = api.new_game("podkidnoy", 2, seed=9)
    stateless = InProcessEngine()
    want = [perft(stateless, root, depth) for depth in (1, 2, 3)]
    state = served.new_game("podkidnoy", 2, seed=9)
    assert [perft(served, state, depth) for depth in (1, 2, 3)] == want
    assert served.stats().counts["replays"] > 0 and served.stats().open_games <= served.max_open


def test_a_state_never_answered_goes_to_the_stateless_operations(served):
    state = api.apply(
        api.new_game("podkidnoy", 2, seed=1),
        api.legal_moves(api.new_game("podkidnoy", 2, seed=1))[0],
    )
    assert served.legal_moves(state) == api.legal_moves(state)
    assert served.stats().counts["stateless"] == 1 and served.stats().counts["opened"] == 0


def test_after_a_crash_every_handle_is_forgotten_and_the_game_replayed(tmp_path):
    engine = logged(tmp_path, crash="game_apply:3")
    state = engine.new_game("podkidnoy", 2, seed=17)
    states = [state]
    for _ in range(2):
        state = engine.apply(state, engine.legal_moves(state)[0])
        states.append(state)
    crashed = engine.apply(state, engine.legal_moves(state)[0])
    assert isinstance(crashed, ErrorResult) and crashed.code == "crash"
    move = api.legal_moves(state)[0]
    assert engine.apply(state, move) == api.apply(state, move)  # replayed on the new process
    counts = engine.stats().counts
    assert counts["forgotten"] == 1 and counts["replays"] == 1 and counts["replayed_moves"] == 2
    engine.close()
    log = read_log(tmp_path / "requests.jsonl")
    pids = list(dict.fromkeys(r["pid"] for r in log))
    assert len(pids) == 2  # the engine was restarted once
    issued: dict[int, set] = {pid: set() for pid in pids}  # handles each process answered
    for request in log:
        if request["op"] == "open_game":
            issued[request["pid"]].add(len(issued[request["pid"]]) + 1)  # serve counts from 1
        elif "game" in request:
            assert request["game"] in issued[request["pid"]], request  # never an old handle
    second = [r["op"] for r in log if r["pid"] == pids[1]]
    assert second[:4] == ["open_game", "game_apply", "game_apply", "game_apply"]


def test_games_no_longer_needed_are_closed(tmp_path):
    engine = logged(tmp_path)
    for seed in range(engine.max_open + 5):
        engine.legal_moves(engine.new_game("podkidnoy", 2, seed=seed))
    assert engine.stats().open_games == engine.max_open
    engine.close()
    log = read_log(tmp_path / "requests.jsonl")
    ops = [r["op"] for r in log]
    assert ops.count("open_game") == ops.count("close_game") == engine.max_open + 5


def test_a_replay_that_reaches_another_state_is_a_protocol_error():
    class Drifting(InProcessEngine):
        """Deals every game from the next seed: not a function of its deal (P-37)."""

        seed = 0

        def new_game(self, ruleset, players, **deal):
            Drifting.seed += 1
            return super().new_game(ruleset, players, **{**deal, "seed": Drifting.seed})

    engine = SessionEngine(Drifting())
    engine.hello()
    root = engine.new_game("podkidnoy", 2, seed=0)
    engine.apply(root, engine.legal_moves(root)[0])
    answer = engine.legal_moves(root)
    assert isinstance(answer, ErrorResult) and answer.code == "protocol_error"
    assert "P-37" in answer.message


def test_an_engine_without_sessions_is_passed_through():
    from conformance.engines.base import Engine

    class Stateless(InProcessEngine):
        def hello(self):
            hello = super().hello()
            del hello["supports"]["sessions"]
            return hello

        open_game = Engine.open_game  # and it keeps no games

    engine = SessionEngine(Stateless())
    state = engine.new_game("podkidnoy", 2, seed=1)
    engine.apply(state, engine.legal_moves(state)[0])
    assert not engine.in_sessions and not engine.stats().counts


def test_make_engine_wraps_unless_told_to_stay_stateless(monkeypatch):
    monkeypatch.delenv(SESSIONS_ENV, raising=False)
    assert isinstance(make_engine("reference"), SessionEngine)
    # inside any session layer: the filler of bookkeeping an engine does not keep (P-16 keeps)
    assert isinstance(make_engine("reference", sessions=False).inner, InProcessEngine)
    monkeypatch.setenv(SESSIONS_ENV, "off")
    assert not sessions_wanted() and isinstance(make_engine("reference").inner, InProcessEngine)
    assert isinstance(make_engine("reference", sessions=True), SessionEngine)


def test_states_are_found_whatever_the_order_of_their_unordered_lists():
    state = api.new_game("podkidnoy", 3, seed=2)
    shuffled = {**state, "players": [{**p, "hand": p["hand"][::-1]} for p in state["players"]]}
    assert fingerprint(state) == fingerprint(shuffled) and fingerprint(None) is None
    assert fingerprint(api.apply(state, api.legal_moves(state)[0])) != fingerprint(state)


def test_a_case_starts_from_a_position_when_its_start_is_a_state():
    assert starts_from_position({"state": {}}) and not starts_from_position({"seed": 3})
    assert not starts_from_position({"deck": [], "dealer": 1})
