"""Benchmark of game sessions (spec/protocol.md section 7): the same games asked statelessly and
through the engine's own games, for an engine that is rebuilt per request and for one that is not.

Prints (never asserts) figures for:

1. the durakgame adapter (examples/durakgame/adapter.py, on the kit): statelessly, the kit checks
   every state and ``setup`` rebuilds a durakgame Game per request; in sessions the kit plays on
   the Game it dealt. Target (issue 10): sessions at least 10x the stateless requests per second;
2. the reference engine behind ``durak-conformance serve``, both ways.

Both modes play the same scripts: random games (a seed, then per position the legal moves, a few
probes of moves the rules refuse, one move chosen at random), recorded once untimed. A durakgame
game is cut at the first state that breaks the rules (its bug 1: a piled-on card in two places),
since a stateless request on such a state is refused ``invalid_state`` and a session's is not.
The figure is the consumer's requests (legal moves, probes, moves) per second; the session side
also prints the protocol requests it sent (games opened, closed, replays).

    python bench/bench_sessions.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from _common import ROOT, SERVE

from conformance.engines.base import Engine, ErrorResult
from conformance.engines.process import SubprocessEngine
from conformance.engines.session import SessionEngine
from conformance.suite.invariants import state_problems

ADAPTER = [sys.executable, str(ROOT / "examples" / "durakgame" / "adapter.py")]
DURAKGAME = {
    "preset": "podkidnoy",
    "overrides": {
        "opening": "single",
        "throw_in_timing": "all_beaten",
        "first_attacker": "dealer_left",
    },
}
MAX_MOVES = 400


@dataclass
class Script:
    """One game to play: its deal, then per position the probes tried and the move made."""

    ruleset: object
    players: int
    seed: int
    steps: list[tuple[list[dict], dict]] = field(default_factory=list)

    @property
    def requests(self) -> int:
        """new_game, then per step legal_moves, the probes and apply; the last legal_moves."""
        return 1 + sum(2 + len(probes) for probes, _ in self.steps) + 1


def probes_for(state: dict, rng: random.Random, count: int) -> list[dict]:
    """Moves the rules refuse whatever the position: a card from another player's hand."""
    n, out = len(state["players"]), []
    for _ in range(count):
        seat = rng.randrange(n)
        other = state["players"][(seat + 1) % n]["hand"]
        if other:
            out.append({"player": seat, "action": "throw_in", "card": rng.choice(other)})
    return out


def record(
    engine: Engine, ruleset, players: int, seeds: range, cut: bool, probes: int
) -> list[Script]:
    """Random games on ``engine`` (sessions, so quick), cut at a broken state when ``cut``."""
    scripts = []
    for seed in seeds:
        rng, script = random.Random(seed), Script(ruleset, players, seed)
        state = engine.new_game(ruleset, players, seed=seed)
        for _ in range(MAX_MOVES):
            moves = engine.legal_moves(state)
            if isinstance(moves, ErrorResult) or not moves:
                break
            tried = probes_for(state, rng, probes)
            move = rng.choice(moves)
            after = engine.apply(state, move)
            if isinstance(after, ErrorResult) or (cut and state_problems(after)):
                break
            script.steps.append((tried, move))
            state = after
        scripts.append(script)
    return scripts


def play(engine: Engine, scripts: list[Script]) -> int:
    """Play every script; the number of moves refused that the recording made (0 when both modes
    answer alike)."""
    surprises = 0
    for script in scripts:
        state = engine.new_game(script.ruleset, script.players, seed=script.seed)
        for probes, move in script.steps:
            engine.legal_moves(state)
            for probe in probes:
                engine.apply(state, probe)
            state = engine.apply(state, move)
            if isinstance(state, ErrorResult):
                surprises += 1
                break
        else:
            engine.legal_moves(state)
    return surprises


def process_cpu(engine: SubprocessEngine) -> float:
    """CPU seconds the engine's process has used so far (Linux: /proc/<pid>/stat)."""
    pid = engine._proc.pid  # a benchmark may look inside
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(engine: Engine, inner: SubprocessEngine, scripts: list[Script]) -> tuple:
    """Wall seconds, CPU seconds of the engine's process and of this one (the runner's side:
    JSON, and in sessions the lookup of states), and the protocol requests sent. The first
    script is played untimed first, so that what the engine imports on first use is not
    counted. On a busy machine the CPU figures are the ones to compare."""
    play(engine, scripts[:1])
    sent, child = inner.requests, process_cpu(inner)
    cpu, wall = time.process_time(), time.perf_counter()
    surprises = play(engine, scripts)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    child, sent = process_cpu(inner) - child, inner.requests - sent
    if surprises:
        print(f"  ({surprises} moves were refused that the recording made)")
    return wall, max(child, 1e-3), cpu, sent


def compare(label: str, command: list[str], ruleset, players: int, args, cut: bool) -> dict:
    """Record the games, play them both ways, print the figures (requests per CPU second)."""
    recorder = SessionEngine(SubprocessEngine(command, timeout=60))
    recorder.hello()
    seeds = range(args.seed, args.seed + args.games)
    scripts = record(recorder, ruleset, players, seeds, cut, args.probes)
    recorder.close()
    requests = sum(s.requests for s in scripts)
    moves = sum(len(s.steps) for s in scripts)
    print(f"{label}: {len(scripts)} games, {moves} moves, {requests} requests each way")
    figures = {}
    for mode in ("stateless", "sessions"):
        inner = SubprocessEngine(command, timeout=60)
        engine = SessionEngine(inner) if mode == "sessions" else inner
        engine.hello()  # start the process outside the timing
        wall, child, runner, sent = timed(engine, inner, scripts)
        figures[mode] = (requests / child, requests / (child + runner))
        extra = ""
        if mode == "sessions":
            counts = engine.stats().counts
            extra = f"; {counts['opened']} games opened, {counts['replays']} replays"
        print(
            f"  {mode:9}: engine {requests / child:6.0f} requests/s ({child:5.2f} s CPU), "
            f"with the runner {requests / (child + runner):6.0f}/s ({child + runner:5.2f} s), "
            f"wall {wall:5.2f} s  [{sent} protocol requests{extra}]"
        )
        engine.close()
    ratio = [figures["sessions"][i] / figures["stateless"][i] for i in (0, 1)]
    print(f"  sessions / stateless: engine {ratio[0]:.1f}x, with the runner {ratio[1]:.1f}x")
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="random games per engine")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--probes", type=int, default=2, help="refused moves tried per position")
    args = parser.parse_args()
    compare("durakgame adapter", ADAPTER, DURAKGAME, 2, args, cut=True)
    print("  (target: sessions at least 10x stateless)")
    compare("reference through serve", SERVE, "podkidnoy", 3, args, cut=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
