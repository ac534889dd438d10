"""Benchmark of the reference engine: random playouts, move generation, memory.

Prints, for the default ruleset (podkidnoy) at 2, 4 and 6 players:

- complete games per second and moves per second, playing uniform random legal moves from fixed
  seeds (deal seed = game index; move choices from ``random.Random(game index)``), on the engine's
  fast path (``reference_impl.core``: one mutable state, moves applied in place);
- legal-move generations per second, over the positions of those games;
- the JSON API's moves per second (``api.legal_moves`` + ``api.apply`` on state dicts, with full
  validation), which is what a conformance run through the in-process adapter pays;
- peak memory (tracemalloc) over 10,000 complete 2-player games, with the traced memory after every
  1,000 games, to show it stays flat.

A benchmark, not a test: it prints figures and asserts nothing. Usage::

    python bench/bench_engine.py            # everything (about a minute)
    python bench/bench_engine.py --quick    # fewer games, no memory run
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference_impl import api
from reference_impl.cards import seeded_deck
from reference_impl.core import apply_move, legal_moves
from reference_impl.deal import deal
from reference_impl.rulesets import resolve_ruleset
from reference_impl.tables import compile_rules

CAP = 20000  # R-END-5: a move cap; reported if ever reached


def play(rules, n: int, game: int, positions: list | None = None) -> tuple[int, bool]:
    """One random game; returns (moves, finished)."""
    s = deal(rules, n, seeded_deck(rules.deck_size, rules.decks, game), n - 1)
    rng = random.Random(game)
    rand = rng.random
    moves = 0
    while s.result is None:
        legal = legal_moves(s)
        if positions is not None and moves % 4 == 0:
            positions.append(s.copy())
        apply_move(s, legal[int(rand() * len(legal))])
        moves += 1
        if moves >= CAP:
            return moves, False
    return moves, True


def playouts(rules, n: int, games: int) -> None:
    start = time.perf_counter()
    total = 0
    capped = 0
    for g in range(games):
        moves, finished = play(rules, n, g)
        total += moves
        capped += not finished
    elapsed = time.perf_counter() - start
    note = f", {capped} capped at {CAP} moves" if capped else ""
    print(f"  {n} players: {games / elapsed:8.0f} games/s  {total / elapsed:9.0f} moves/s  "
          f"({total / games:.0f} moves/game, {games} games in {elapsed:.2f} s{note})")


def generations(rules, n: int, games: int) -> None:
    positions: list = []
    for g in range(games):
        play(rules, n, g, positions)
    start = time.perf_counter()
    count = 0
    while time.perf_counter() - start < 1.0:
        for s in positions:
            legal_moves(s)
        count += len(positions)
    elapsed = time.perf_counter() - start
    print(f"  {n} players: {count / elapsed:9.0f} legal-move generations/s "
          f"({len(positions)} positions)")


def api_playouts(n: int, games: int) -> None:
    start = time.perf_counter()
    total = 0
    for g in range(games):
        state = api.new_game("podkidnoy", n, seed=g)
        rng = random.Random(g)
        while state["result"] is None and total < 10**7:
            moves = api.legal_moves(state)
            state = api.apply(state, moves[int(rng.random() * len(moves))])
            total += 1
    elapsed = time.perf_counter() - start
    print(f"  {n} players: {total / elapsed:8.0f} moves/s through the JSON API "
          f"({games} games)")


def memory(rules, games: int) -> None:
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    samples = []
    for g in range(games):
        play(rules, 2, g)
        if (g + 1) % 1000 == 0:
            samples.append((g + 1, tracemalloc.get_traced_memory()[0] - base))
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"  peak traced memory over {games} two-player games: {(peak - base) / 1024:.1f} KiB")
    print("  traced memory after every 1,000 games (KiB): "
          + ", ".join(f"{size / 1024:.1f}" for _, size in samples))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games, no memory run")
    args = parser.parse_args(argv)
    rules = compile_rules(resolve_ruleset("podkidnoy")["options"])
    scale = 1 if not args.quick else 5
    print(f"Python {sys.version.split()[0]}, ruleset podkidnoy (defaults), uniform random moves")
    print("fast path (reference_impl.core):")
    for n, games in ((2, 3000), (4, 1000), (6, 600)):
        playouts(rules, n, games // scale)
    print("move generation:")
    for n in (2, 4, 6):
        generations(rules, n, 50)
    print("JSON API (reference_impl.api, validating every state):")
    for n in (2, 4, 6):
        api_playouts(n, 20 // scale)
    if not args.quick:
        print("memory (tracemalloc, fast path):")
        memory(rules, 10000)


if __name__ == "__main__":
    main()
