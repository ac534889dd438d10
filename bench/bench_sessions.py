"""Benchmark of game sessions (spec/protocol.md section 7): the same games asked statelessly and
through the engine's own games, for an engine that is rebuilt per request and for one that is not.

Prints (never asserts) figures for:

1. the durakgame adapter (examples/durakgame/adapter.py, on the kit): statelessly, the kit checks
   every state and ``setup`` rebuilds a durakgame Game per request; in sessions the kit plays on
   the Game it dealt. Target (issue 10): sessions at least 10x the stateless requests per second;
2. the reference engine behind ``durak-conformance serve``, both ways;
3. the bound on the first ratio: the same requests answered by the durakgame adapter in this
   process, timing apart what the translation itself spends (``moves``, ``play``, ``view``:
   durakgame and its conversion to the contract's terms, which a session pays as much as a
   stateless request): stateless time over that share is what sessions would gain if the kit
   cost nothing at all; and the adapter process's CPU per ``hello`` (its protocol loop alone:
   a line read, a small answer written, the process woken), which every request pays through
   a pipe however little it asks: stateless CPU over that is the most sessions can gain through
   a process.

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
import io
import json
import os
import random
import runpy
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from _common import ROOT, SERVE

from conformance.engines.base import Engine, ErrorResult
from conformance.engines.process import SubprocessEngine
from conformance.engines.session import SessionEngine
from conformance.engines.traffic import TrafficLog
from conformance.suite.invariants import state_problems
from reference_impl import api

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


def sent_lines(command: list[str], scripts: list[Script], sessions: bool, log: Path) -> list:
    """The request lines a run of ``scripts`` sends, one way of asking."""
    inner = SubprocessEngine(command, timeout=60, traffic=TrafficLog(log))
    engine = SessionEngine(inner) if sessions else inner
    engine.hello()
    play(engine, scripts)
    engine.close()
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    log.unlink()
    return [e["line"] for e in events if e["dir"] == "sent"]


def translation_bound(scripts: list[Script]) -> None:
    """Answer the recorded requests with the durakgame adapter in this process, both ways, and
    print the translation's share and the ratio sessions would reach with a kit costing nothing."""
    adapter_class = runpy.run_path(str(ADAPTER[1]), run_name="bench")["Durakgame"]
    spent = {"translation": 0.0}

    def timed_method(method):
        def wrapper(*args, **kwargs):
            began = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                spent["translation"] += time.perf_counter() - began
        return wrapper

    figures = {}
    for mode in ("stateless", "sessions"):
        lines = sent_lines(ADAPTER, scripts, mode == "sessions", Path(f"traffic-{os.getpid()}"))
        text = "".join(line + "\n" for line in lines)
        adapter_class().serve(io.StringIO(text), io.StringIO())  # first use: imports, caches
        adapter, answers = adapter_class(), io.StringIO()
        for name in ("moves", "play", "view", "setup", "deal"):
            setattr(adapter, name, timed_method(getattr(adapter, name)))
        api._known.clear()  # a benchmark may look inside: states validated in the first use
        spent["translation"], began = 0.0, time.perf_counter()
        adapter.serve(io.StringIO(text), answers)
        total = time.perf_counter() - began
        refused = sum('"ok": false' in line for line in answers.getvalue().splitlines())
        if refused != sum(len(s.steps[i][0]) for s in scripts for i in range(len(s.steps))):
            print(f"  ({refused} requests refused in process: not the probes alone)")
        figures[mode] = (total / len(lines), spent["translation"] / len(lines))
        print(f"  in process, {mode:9}: {figures[mode][0] * 1e6:5.0f} us a request, of which the "
              f"translation (durakgame and its conversion) {figures[mode][1] * 1e6:5.0f} us")
    bound = figures["stateless"][0] / figures["sessions"][1]
    print(f"  sessions / stateless with a kit that cost nothing in sessions: at most {bound:.1f}x")


def loop_floor(stateless_per_request: float) -> None:
    """The adapter's CPU per hello through the pipe, and the bound it puts on sessions."""
    engine = SubprocessEngine(ADAPTER, timeout=60)
    for _ in range(200):
        engine.hello()
    cpu, count = process_cpu(engine), 3000
    for _ in range(count):
        engine.hello()
    per_hello = (process_cpu(engine) - cpu) / count
    engine.close()
    print(f"  the adapter's protocol loop alone (hello): {per_hello * 1e6:4.0f} us of its CPU a "
          f"request; sessions / stateless through a process: at most "
          f"{stateless_per_request / per_hello:.1f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="random games per engine")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--probes", type=int, default=2, help="refused moves tried per position")
    args = parser.parse_args()
    figures = compare("durakgame adapter", ADAPTER, DURAKGAME, 2, args, cut=True)
    print("  (target: sessions at least 10x stateless)")
    recorder = SessionEngine(SubprocessEngine(ADAPTER, timeout=60))
    recorder.hello()
    seeds = range(args.seed, args.seed + args.games)
    translation_bound(record(recorder, DURAKGAME, 2, seeds, True, args.probes))
    recorder.close()
    loop_floor(1 / figures["stateless"][0])
    compare("reference through serve", SERVE, "podkidnoy", 3, args, cut=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
