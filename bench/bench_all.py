"""The ratios that matter, in one run: core, JSON API and serve moves/s, fuzz games/s, perft
nodes/s, the reference against the PyPI engine durakgame, and memory peaks.

Why one script: the engine-facing path (``reference_impl.api`` and ``durak-conformance serve``)
is what every tool pays, so its distance from the core is the figure to watch (issue 15). Every
section plays fixed games, so two runs on two commits compare like with like:

- core, API and serve: 2-player podkidnoy, deal seed = game index, moves chosen by
  ``random.Random(game index)`` uniformly among the legal moves (the API and serve list the same
  moves in the same order, so they play the very same games; the core lists its moves in its own
  order, so its games are other games from the same deals);
- fuzz: the reference against itself through serve (``durak-conformance fuzz`` in process
  against a subprocess), 2-player podkidnoy;
- perft: the committed positions at the deepest depth within a leaf budget, in process and
  through serve (the transposition cache on, as ``durak-conformance perft`` runs);
- durakgame (when installed): its own game loop against the reference core, on the same 36-card
  decks with the same chooser (``random.Random(game index)`` over each engine's own options) and
  the options durakgame plays (opening single, throw-ins once all is beaten);
- memory: tracemalloc peaks of core, API and serve-client games (tracemalloc slows what it
  traces, so these runs are separate from the timed ones).

A benchmark, not a test: it prints figures and asserts nothing. Usage::

    python bench/bench_all.py            # about a minute and a half on one core
    python bench/bench_all.py --quick    # a few seconds per section, for a smoke run
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import tracemalloc

from _common import SERVE

from conformance.engines.base import ErrorResult, InProcessEngine
from conformance.engines.process import SubprocessEngine
from conformance.tools.fuzz import FuzzConfig, Fuzzer
from conformance.tools.perft import PerftError, load_positions, perft, start_state
from reference_impl import api
from reference_impl.cards import seeded_deck
from reference_impl.core import apply_move, legal_moves
from reference_impl.deal import deal
from reference_impl.rulesets import resolve_ruleset
from reference_impl.tables import compile_rules

#: The options durakgame plays that differ from podkidnoy's (examples/durakgame/NOTES.md).
DURAKGAME_OVERRIDES = {
    "opening": "single",
    "throw_in_timing": "all_beaten",
    "first_attacker": "dealer_left",
}

#: Moves after which a durakgame game is cut: its random games need not end. A game is cut too
#: when the player to move holds more than DURAKGAME_HAND cards: durakgame lists every subset of
#: the cards to pile on (game.py:148), which random play makes astronomically many.
DURAKGAME_CAP = 1000
DURAKGAME_HAND = 12


def core_games(options: dict, games: int) -> tuple[int, float]:
    """Moves played and seconds: the core's own loop, one mutable state per game."""
    rules = compile_rules(options)
    began = time.perf_counter()
    moves = 0
    for g in range(games):
        s = deal(rules, 2, seeded_deck(rules.deck_size, rules.decks, g), 1)
        rand = random.Random(g).random
        while s.result is None:
            legal = legal_moves(s)
            apply_move(s, legal[int(rand() * len(legal))])
            moves += 1
    return moves, time.perf_counter() - began


def api_games(games: int) -> tuple[int, float]:
    """Moves and seconds through ``reference_impl.api``: state dicts in, state dicts out."""
    began = time.perf_counter()
    moves = 0
    for g in range(games):
        state = api.new_game("podkidnoy", 2, seed=g)
        rand = random.Random(g).random
        while state["result"] is None:
            legal = api.legal_moves(state)
            state = api.apply(state, legal[int(rand() * len(legal))])
            moves += 1
    return moves, time.perf_counter() - began


def engine_games(engine, games: int) -> tuple[int, float]:
    """Moves and seconds through an :class:`Engine` (serve as a subprocess): the same games as
    :func:`api_games`, each request one protocol round trip."""
    engine.hello()
    began = time.perf_counter()
    moves = 0
    for g in range(games):
        state = engine.new_game("podkidnoy", 2, seed=g)
        rand = random.Random(g).random
        while not isinstance(state, ErrorResult) and state["result"] is None:
            legal = engine.legal_moves(state)
            state = engine.apply(state, legal[int(rand() * len(legal))])
            moves += 1
        if isinstance(state, ErrorResult):
            raise SystemExit(f"the engine refused a move it listed: {state}")
    return moves, time.perf_counter() - began


def durakgame_games(games: int) -> tuple[int, float] | None:
    """Moves and seconds of durakgame's own loop (``generateOptions`` + ``process``), or None
    when it is not installed."""
    try:
        import durakgame as dg
        from durakgame.game import Game
    except ImportError:
        return None
    suit = {"C": dg.Suit.Cross, "D": dg.Suit.Diamond, "H": dg.Suit.Heart, "S": dg.Suit.Spade}
    card = {r + s: dg.Card(v, suit[s]) for s in "CDHS" for r, v in zip("6789TJQKA", dg.CardValue)}
    from reference_impl.cards import CARD_NAMES

    decks = [[card[CARD_NAMES[c]] for c in seeded_deck(36, 1, g)] for g in range(games)]
    began = time.perf_counter()
    moves = 0
    for g, deck in enumerate(decks):
        game = Game(list(deck), dg.Player(), dg.Player())
        rand = random.Random(g).random
        for _ in range(DURAKGAME_CAP):  # random play can go round forever in durakgame
            if game.isFinished or len(game.currentPlayer.hand) > DURAKGAME_HAND:
                break
            options = game.generateOptions()
            game.process(options[int(rand() * len(options))])
            moves += 1
    return moves, time.perf_counter() - began


def fuzz_games(games: int) -> tuple[int, int, float]:
    """Games, moves and seconds of the reference fuzzed against itself through serve."""
    config = FuzzConfig(games=games, seed=1, rulesets=["podkidnoy"], players=[2])
    with SubprocessEngine(SERVE) as served:
        fuzzer = Fuzzer(InProcessEngine(), served, config)
        problem = fuzzer.greet()
        if problem:
            raise SystemExit(problem)
        report = fuzzer.run()
    if report.findings:
        raise SystemExit(f"the reference disagrees with itself: {list(report.findings)}")
    return report.games, report.moves, report.elapsed


def perft_nodes(engine, budget: int, limit: int | None = None) -> tuple[int, float, int]:
    """Leaves counted, seconds and positions: every committed position at its deepest depth
    whose expected count is within ``budget`` (the first ``limit`` positions)."""
    leaves = 0
    seconds = 0.0
    done = 0
    for position in load_positions()[:limit]:
        depths = [d for d in position.depths(max_nodes=budget) if d >= 1]
        if not depths:
            continue
        depth = max(depths)
        state = start_state(engine, position)
        began = time.perf_counter()
        try:
            count = perft(engine, state, depth)
        except PerftError as exc:
            print(f"  skipped {position.id} d{depth}: {str(exc)[:150]}")
            continue
        seconds += time.perf_counter() - began
        if count != position.counts[depth]:
            print(f"  MISMATCH {position.id} d{depth}: {count}, expected {position.counts[depth]}")
        leaves += count
        done += 1
    return leaves, seconds, done


def peak_kib(run) -> float:
    """The tracemalloc peak above the start, in KiB, of ``run()``."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    run()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return (peak - base) / 1024


def rate(moves: int, seconds: float) -> float:
    return moves / seconds if seconds else float("inf")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: few games")
    args = parser.parse_args(argv)
    q = 10 if args.quick else 1
    podkidnoy = resolve_ruleset("podkidnoy")["options"]
    print(f"Python {sys.version.split()[0]}; 2-player podkidnoy unless said; uniform random moves")

    print("moves per second")
    core_moves, core_s = core_games(podkidnoy, 2000 // q)
    core = rate(core_moves, core_s)
    print(f"  core (reference_impl.core)        {core:9.0f} moves/s  ({core_moves} moves)")
    api_moves, api_s = api_games(100 // q)
    via_api = rate(api_moves, api_s)
    print(f"  JSON API (reference_impl.api)     {via_api:9.0f} moves/s  ({api_moves} moves)")
    with SubprocessEngine(SERVE) as served:
        serve_moves, serve_s = engine_games(served, 40 // q)
    via_serve = rate(serve_moves, serve_s)
    print(f"  through serve (a subprocess)      {via_serve:9.0f} moves/s  ({serve_moves} moves)")
    in_moves, in_s = engine_games(InProcessEngine(), 100 // q)
    in_process = rate(in_moves, in_s)
    print(f"  InProcessEngine (JSON round trip) {in_process:9.0f} moves/s  ({in_moves} moves)")
    print(f"  ratios: core/API {core / via_api:.1f}x, core/serve {core / via_serve:.1f}x, "
          f"API/serve {via_api / via_serve:.1f}x")

    print("fuzz, the reference against itself through serve")
    games, moves, seconds = fuzz_games(20 // q)
    print(f"  {games / seconds:7.2f} games/s {moves / seconds:8.0f} moves/s "
          f"({games} games, {seconds:.1f} s)")

    print("perft, every committed position within the leaf budget, transposition cache on")
    budget = 20_000 if not args.quick else 2_000
    with InProcessEngine() as engine:
        leaves, seconds, done = perft_nodes(engine, budget)
    print(f"  in process     {rate(leaves, seconds):9.0f} leaves/s ({leaves} leaves, {done} "
          f"positions, budget {budget}, {seconds:.1f} s)")
    with SubprocessEngine(SERVE) as served:
        leaves, seconds, done = perft_nodes(served, budget // 4, limit=6)
    print(f"  through serve  {rate(leaves, seconds):9.0f} leaves/s ({leaves} leaves, {done} "
          f"positions, budget {budget // 4}, {seconds:.1f} s)")

    print("the reference core against durakgame (same 36-card decks, same chooser)")
    dg_options = {**podkidnoy, **DURAKGAME_OVERRIDES}
    ref_moves, ref_s = core_games(dg_options, 2000 // q)
    other = durakgame_games(2000 // q)
    print(f"  reference core {rate(ref_moves, ref_s):9.0f} moves/s ({ref_moves} moves)")
    if other is None:
        print("  durakgame is not installed (pip install durakgame)")
    else:
        dg_moves, dg_s = other
        print(f"  durakgame      {rate(dg_moves, dg_s):9.0f} moves/s ({dg_moves} moves)")
        print(f"  ratio: the reference core is {rate(ref_moves, ref_s) / rate(dg_moves, dg_s):.1f}x"
              " durakgame's moves/s")

    print("memory peaks (tracemalloc, above the start)")
    print(f"  core, {200 // q} games       {peak_kib(lambda: core_games(podkidnoy, 200 // q)):8.1f} KiB")
    print(f"  JSON API, {20 // q} games    {peak_kib(lambda: api_games(20 // q)):8.1f} KiB")

    def serve_client() -> None:
        with SubprocessEngine(SERVE) as served:
            engine_games(served, 10 // q)

    print(f"  serve client, {10 // q} games {peak_kib(serve_client):8.1f} KiB (this process only)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
