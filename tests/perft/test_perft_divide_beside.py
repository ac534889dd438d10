"""``perft --divide``: the engine's divide beside the reference's, followed down the first move
whose counts differ to the position where the two part (conformance/tools/perft/beside.py).

The wrong engines here are the reference with one rule broken, so where they must part is known
from the rules: without R-BEAT-1's trumps, the first position where a trump could beat a plain
card; with a take that changes nothing (R-TAKE-3 broken), the state after the first take."""

from __future__ import annotations

import argparse
import io
import itertools

import pytest

from conformance.engines.base import Engine, InProcessEngine
from conformance.tools.perft import add_cli_arguments, load_positions, perft, run_cli, start_state
from conformance.tools.perft.beside import (
    DIFFERENT,
    REFERENCE_ONLY,
    SAME,
    divide_beside,
)

POSITION = "podkidnoy-2p-deal"


class _Broken(Engine):
    """The reference engine, answering through one changed rule."""

    def __init__(self):
        self.inner = InProcessEngine()

    def hello(self):
        return self.inner.hello()

    def new_game(self, *args, **kwargs):
        return self.inner.new_game(*args, **kwargs)

    def legal_moves(self, state):
        return self.inner.legal_moves(state)

    def apply(self, state, move):
        return self.inner.apply(state, move)


def _trump_over_plain(state, move) -> bool:
    trump = state["trump"][1]
    return (
        move["action"] == "beat" and move["card"][1] == trump and move["target"][1] != trump
    )


class PowerlessTrumps(_Broken):
    """A trump never beats a plain card (R-BEAT-1 broken): such beats are not listed."""

    def legal_moves(self, state):
        moves = self.inner.legal_moves(state)
        return [m for m in moves if not _trump_over_plain(state, m)]


class IdleTake(_Broken):
    """Taking leaves the state as it was (R-TAKE-3 broken)."""

    def apply(self, state, move):
        return state if move["action"] == "take" else self.inner.apply(state, move)


def _start():
    position = next(p for p in load_positions() if p.id == POSITION)
    return position, start_state(InProcessEngine(), position)


def test_the_reference_beside_itself_agrees_at_the_first_level():
    _, state = _start()
    seen = []
    levels, parted = divide_beside(
        InProcessEngine(), InProcessEngine(), state, 3, on_level=seen.append
    )
    assert parted is None and seen == levels and len(levels) == 1
    rows = levels[0].rows()
    assert rows and all(row.mark == SAME for row in rows)
    assert sum(row.engine for row in rows) == perft(InProcessEngine(), state, 3)


def test_a_missing_trump_beat_is_followed_down_to_where_the_sets_part():
    _, state = _start()
    levels, parted = divide_beside(PowerlessTrumps(), InProcessEngine(), state, 4)
    assert parted is not None and len(levels) >= 2
    # each level went into its first move whose counts differ
    for upper, lower in itertools.pairwise(levels):
        first = next(r for r in upper.rows() if r.mark == DIFFERENT)
        assert lower.path[:-1] == upper.path
        assert upper.reference[first.key].move == lower.path[-1]
        assert upper.same_moves
    last = levels[-1]
    assert parted.path == last.path and not last.same_moves
    only_reference = [r.key for r in last.rows() if r.mark == REFERENCE_ONLY]
    assert only_reference and len(only_reference) == len(parted.missing)
    reached = state
    for move in parted.path:
        reached = InProcessEngine().apply(reached, move)
    assert all(_trump_over_plain(reached, m) for m in parted.missing)
    assert not parted.extra and "R-BEAT-1" in parted.rules


def test_a_take_that_changes_nothing_parts_at_the_state_after_it():
    _, state = _start()
    levels, parted = divide_beside(IdleTake(), InProcessEngine(), state, 3)
    assert parted is not None and parted.state_pointers
    assert parted.path[-1]["action"] == "take"
    assert parted.path[:-1] == levels[-1].path and all(lv.same_moves for lv in levels)


def _cli(engine: Engine, *argv: str) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    add_cli_arguments(parser)
    out = io.StringIO()
    status = run_cli(engine, parser.parse_args(list(argv)), out=out)
    return status, out.getvalue()


def test_the_command_prints_both_columns_and_where_they_part():
    status, text = _cli(PowerlessTrumps(), "--id", POSITION, "--divide", "4")
    assert status == 1
    lines = text.splitlines()
    assert lines[0] == f"{POSITION}: the engine's divide beside the reference's"
    assert "    engine  reference  move" in lines
    assert any(line.startswith("*") for line in lines)
    assert any(line.startswith("-        -") for line in lines)
    assert lines[-1].startswith("they part after ") and "misses" in lines[-1]
    assert "(R-BEAT-1" in lines[-1]


def test_the_command_on_an_agreeing_engine():
    status, text = _cli(InProcessEngine(), "--id", POSITION, "--divide", "2")
    assert status == 0
    assert text.splitlines()[-1] == "every count of the engine is the reference's"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("--id", POSITION, "--divide", "0"), "a depth of at least 1"),
        (("--divide", "2"), "exactly one position"),
    ],
)
def test_usage_errors(argv, said):
    status, text = _cli(InProcessEngine(), *argv)
    assert status == 2 and said in text
