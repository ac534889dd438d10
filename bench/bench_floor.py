"""The floor under the engine-facing path: what the contract's JSON costs before any rule is played.

Issue 15 asked the JSON API and ``serve`` to be ten times faster than at its filing (6.5k and 1.7k
moves/s in docs/benchmarks.md's "before"). This benchmark measures how fast they could be at
most, whatever the engine does, on the states of real games (2-player podkidnoy, deal seed =
game index, uniform random moves, as in ``bench_all.py``):

1. **the JSON of a state**, per state: ``json.dumps`` and ``json.loads`` (what a process engine
   and its client each do once per state sent or answered) and ``marshal.dumps`` (the API's
   cache key, the cheapest exact fingerprint of a dict in CPython);
2. **the protocol's floor through a pipe**: the same games played by the real client
   (``SubprocessEngine``) against a server that parses each request line and writes back the
   answer the real ``serve`` gave to it (recorded first), so everything but the rules is paid:
   the client's encoding and decoding, the server's parsing and writing, the pipe, the process
   switches. No engine behind the protocol, in any language, can be faster through this client;
3. **serve itself**, the same games, for comparison;

each of 2 and 3 both ways of asking: stateless (a move is two requests, legal moves of a state
and apply a move to it, each carrying the state, the apply answering one: three states each
encoded and decoded) and in game sessions (spec/protocol.md section 7: the requests carry a
game's handle and the move, and only the answer carries a state). A benchmark, not a test: it
prints figures.

    python bench/bench_floor.py [--games N]
"""

from __future__ import annotations

import argparse
import json
import marshal
import random
import sys
import tempfile
import time
from pathlib import Path

from _common import SERVE

from conformance.engines.base import Engine
from conformance.engines.process import SubprocessEngine
from conformance.engines.session import SessionEngine
from conformance.engines.traffic import TrafficLog
from reference_impl import api

#: docs/benchmarks.md, issue 15 "before" (commit a6d950b): moves/s of the JSON API and of serve
BEFORE = {"api": 6.5e3, "serve": 1.7e3}

#: The recorded-answer server: parse each request (a server must), answer the recorded line.
REPLAYER = """\
import json, sys
answers = open(sys.argv[1], encoding="utf-8").read().splitlines()
out = sys.stdout
for line, answer in zip(sys.stdin, answers):
    json.loads(line)
    out.write(answer + "\\n")
    out.flush()
"""


def game_states(games: int) -> list[dict]:
    """Every state of ``games`` random games through the API (the states a client sends)."""
    states = []
    for g in range(games):
        state, rand = api.new_game("podkidnoy", 2, seed=g), random.Random(g).random
        while state["result"] is None:
            states.append(state)
            legal = api.legal_moves(state)
            state = api.apply(state, legal[int(rand() * len(legal))])
    return states


def per_state(states: list, work) -> float:
    """Microseconds of ``work`` per item."""
    began = time.perf_counter()
    for item in states:
        work(item)
    return (time.perf_counter() - began) / len(states) * 1e6


def play(engine: Engine, games: int) -> tuple[int, float]:
    """Moves and seconds of the benchmark games through ``engine`` (hello outside the timing)."""
    engine.hello()
    began, moves = time.perf_counter(), 0
    for g in range(games):
        state, rand = engine.new_game("podkidnoy", 2, seed=g), random.Random(g).random
        while state["result"] is None:
            legal = engine.legal_moves(state)
            state = engine.apply(state, legal[int(rand() * len(legal))])
            moves += 1
    return moves, time.perf_counter() - began


def pipe_floor(games: int, sessions: bool) -> tuple[float, float]:
    """Moves/s of the games through the recorded-answer server and through serve."""
    wrap = SessionEngine if sessions else (lambda engine: engine)
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "traffic.jsonl"
        with SubprocessEngine(SERVE, traffic=TrafficLog(log)) as inner:
            serve_moves, serve_s = play(wrap(inner), games)
        events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        answers = Path(tmp) / "answers.jsonl"
        answers.write_text("".join(e["line"] + "\n" for e in events if e["dir"] == "received"),
                           encoding="utf-8")
        replayer = Path(tmp) / "replayer.py"
        replayer.write_text(REPLAYER, encoding="utf-8")
        with SubprocessEngine([sys.executable, str(replayer), str(answers)]) as inner:
            floor_moves, floor_s = play(wrap(inner), games)
    if floor_moves != serve_moves:
        raise SystemExit(f"the replay played {floor_moves} moves, serve {serve_moves}")
    return floor_moves / floor_s, serve_moves / serve_s


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30, help="random games per section")
    args = parser.parse_args(argv)
    states = game_states(args.games)
    texts = [json.dumps(s) for s in states]
    dumps = per_state(states, json.dumps)
    loads = per_state(texts, json.loads)
    key = per_state(states, marshal.dumps)
    size = sum(map(len, texts)) / len(texts)
    print(f"Python {sys.version.split()[0]}; {len(states)} states of {args.games} games, "
          f"{size:.0f} bytes of JSON each on average")
    print(f"  json.dumps {dumps:5.1f} us, json.loads {loads:5.1f} us, marshal.dumps {key:5.1f} us")
    # a move through serve: the state encoded and decoded twice (legal_moves, apply) and the new
    # state once (apply's answer): the JSON alone, on both sides, with nothing else
    json_floor = 1e6 / (3 * (dumps + loads))
    print(f"  the JSON of one move through a process (3 states, stateless): at most "
          f"{json_floor:7.0f} moves/s; issue 15's target {10 * BEFORE['serve']:7.0f}")
    # the API: two fingerprints of the state it is handed (legal_moves, apply) per move
    key_floor = 1e6 / (2 * key)
    print(f"  the API's two state fingerprints per move alone:       at most "
          f"{key_floor:7.0f} moves/s; issue 15's target {10 * BEFORE['api']:7.0f}")

    for mode in ("stateless", "sessions"):
        floor, served = pipe_floor(args.games, sessions=mode == "sessions")
        print(f"{mode}: through a pipe, answers recorded (no engine) {floor:7.0f} moves/s; "
              f"serve {served:7.0f} moves/s ({served / floor:.0%} of the floor); the floor is "
              f"{floor / BEFORE['serve']:.1f}x issue 15's 'before'")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
