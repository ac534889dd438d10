"""A fuzz campaign spread over worker processes (``fuzz -j N``), with the serial run's report.

Why this gives the same report: game K of a seed is planned from the seed, K and the hellos
alone (:func:`~conformance.tools.fuzz.planning.plan_game`), so it plays the same wherever it is
played. Each worker makes its own two engines from the command-line forms, greets them and plays
chunks of game indices; the campaign takes the chunks back in index order and tallies them exactly
as the serial loop does, so the finding kept for each cause (the shallowest, the first on a tie),
the counts, the records and the reproduction check are the serial run's. What can differ: the
elapsed time, and a give-up, since each worker's circuit breaker counts only its own engine's
faults (the campaign stops at the first give-up in index order).

Workers are started with ``spawn``, so they hold none of this process's engine pipes.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from multiprocessing.util import Finalize
from typing import Any

from conformance.tools.fuzz.campaign import Fuzzer, PlayedGame
from conformance.tools.fuzz.planning import FuzzConfig, plan_game
from conformance.tools.fuzz.play import GiveUp, InStep
from conformance.tools.fuzz.report import FuzzReport

#: the worker process's greeted fuzzer (made once per worker by :func:`_start_worker`)
_WORKER: dict[str, Any] = {}


def _start_worker(
    specs: dict[str, str | None],
    limits: dict[str, Any],
    config: FuzzConfig,
    traffic: str | None = None,
):
    from conformance.engines.factory import make_engine
    from conformance.engines.traffic import worker_path

    reference = make_engine(specs["reference"], **limits)
    # the engine under test's traffic, one file per worker: FILE.<process name>
    log = worker_path(traffic, multiprocessing.current_process().name) if traffic else None
    candidate = make_engine(specs["candidate"], **limits, traffic=log)
    Finalize(None, _close, args=(reference, candidate), exitpriority=10)
    fuzzer = Fuzzer(reference, candidate, config)
    _WORKER["fuzzer"] = fuzzer
    _WORKER["problem"] = fuzzer.greet()


def _close(*engines) -> None:
    for engine in engines:
        engine.close()


def _play_chunk(indices: list[int]) -> tuple[list[PlayedGame], str | None]:
    """Play ``indices`` in this worker: each game with its own counters and log lines; a give-up
    ends the chunk (the games before it are kept)."""
    fuzzer: Fuzzer = _WORKER["fuzzer"]
    if _WORKER["problem"]:
        return [], f"a fuzz worker could not start: {_WORKER['problem']}"
    games: list[PlayedGame] = []
    for index in indices:
        counted = FuzzReport(seed=fuzzer.config.seed)
        said: list[str] = []
        player = InStep(fuzzer.reference, fuzzer.candidate, fuzzer.config, counted, said.append)
        plan = plan_game(fuzzer.config, index, fuzzer.choices, fuzzer.supports)
        try:
            played = player.play(plan)
        except GiveUp as exc:
            return games, str(exc)
        games.append(PlayedGame(plan, played, counted, said))
    return games, None


def chunks(indices: list[int], jobs: int) -> list[list[int]]:
    """Consecutive runs of game indices: small enough that the workers stay busy to the end and
    progress shows, large enough that a chunk is worth sending."""
    size = max(1, min(10, len(indices) // (jobs * 4) or 1))
    return [indices[i : i + size] for i in range(0, len(indices), size)]


def played_in_workers(
    fuzzer: Fuzzer,
    specs: dict[str, str | None],
    limits: dict[str, Any],
    jobs: int,
    *,
    traffic: str | None = None,
) -> Iterator[PlayedGame]:
    """The campaign's games played on ``jobs`` worker processes, in index order: pass it to
    :meth:`Fuzzer.run`. Stopping early (a give-up, ``--stop-first``) cancels what is left.
    ``traffic``: the ``--traffic`` path; each worker logs its engine under test to its own
    ``FILE.<process name>``."""
    # the workers write nothing: records and fixtures are written here, as the games are tallied
    config = replace(fuzzer.config, records_dir=None)
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        max_workers=jobs, mp_context=context, initializer=_start_worker,
        initargs=(specs, limits, config, traffic),
    )
    try:
        pending: list[Future] = [pool.submit(_play_chunk, c) for c in chunks(fuzzer.indices(), jobs)]
        for future in pending:
            try:
                games, gave_up = future.result()
            except BrokenProcessPool as exc:
                raise GiveUp(f"a fuzz worker process died ({exc})") from None
            yield from games
            if gave_up:
                raise GiveUp(gave_up)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
