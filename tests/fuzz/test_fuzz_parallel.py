"""`fuzz -j N`: the games spread over worker processes give the report, the fixtures and the
records a single process gives (issue 15 item 4); only the timing differs."""

from __future__ import annotations

import re

import pytest

from conformance.cli import main
from conformance.tools.fuzz.parallel import chunks

from .helpers import engines_importable

__all__ = ["engines_importable"]

pytestmark = pytest.mark.usefixtures("engines_importable")


def _campaign(tmp_path, capsys, name: str, *args: str, engine: str = "python:wrong_engine:make"):
    """Status, the report without its timing, and every file written (name -> text)."""
    out = tmp_path / name
    argv = ["fuzz", "--engine", engine, "--games", "9", "--seed", "5",
            "--players", "2", "3", "--out", str(out / "findings"), "--records", str(out / "rec")]
    status = main([*argv, *args])
    text = capsys.readouterr().out
    text = re.sub(r"in [0-9.]+ s \([0-9.]+ games/s\)", "in T", text).replace(str(out), "OUT")
    files = {str(p.relative_to(out)): p.read_text(encoding="utf-8")
             for p in sorted(out.rglob("*")) if p.is_file()}
    return status, text, files


@pytest.mark.slow
def test_two_workers_give_the_serial_report_fixtures_and_records(tmp_path, capsys):
    serial = _campaign(tmp_path, capsys, "serial")
    spread = _campaign(tmp_path, capsys, "spread", "-j", "2")
    status, text, files = serial
    assert status == 1 and "FINDING" in text, text  # the wrong engine is caught
    assert any(name.startswith("findings/") for name in files)
    assert spread == serial


@pytest.mark.slow
def test_agreed_games_are_the_same_records(tmp_path, capsys):
    short = ("--games", "3", "--players", "2", "--probes", "0")
    serial = _campaign(tmp_path, capsys, "serial", *short, engine="reference")
    assert serial[0] == 0 and sum(name.startswith("rec/") for name in serial[2]) == 3
    assert _campaign(tmp_path, capsys, "spread", *short, "-j", "2", engine="reference") == serial


def test_stop_first_stops_at_the_same_game(tmp_path, capsys):
    assert _campaign(tmp_path, capsys, "a", "--stop-first") == _campaign(
        tmp_path, capsys, "b", "--stop-first", "-j", "2"
    )


def test_chunks_cover_every_game_once_in_order():
    for games in (1, 2, 7, 40, 333):
        for jobs in (1, 2, 5):
            parts = chunks(list(range(games)), jobs)
            assert [i for part in parts for i in part] == list(range(games))
            assert all(parts)


def test_jobs_below_one_is_a_usage_error(capsys):
    assert main(["fuzz", "--engine", "reference", "-j", "0"]) == 2
    assert "--jobs" in capsys.readouterr().err
