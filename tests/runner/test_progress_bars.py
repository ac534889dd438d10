"""Progress bars (fuzz, perft, run): on stderr, only when it is a terminal, and the printed report
is the same with or without them (conformance/tools/progress.py, conformance/plugin/progress.py)."""

from __future__ import annotations

import argparse
import io
import re
import sys

import pytest

from conformance import cli
from conformance.engines.base import InProcessEngine
from conformance.plugin import progress as run_progress
from conformance.tools import fuzz, perft
from conformance.tools.progress import Bar, on_terminal


class Terminal(io.StringIO):
    """Standard error as a terminal."""

    def isatty(self) -> bool:
        return True


def test_no_bar_off_a_terminal(monkeypatch):
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    assert not on_terminal()
    with Bar(10, "work") as bar:
        bar.update(3, note="so far")
        assert not bar.shown
    assert pipe.getvalue() == ""


def test_a_bar_on_a_terminal_is_drawn_then_erased(monkeypatch):
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    with Bar(4, "work", unit="step") as bar:
        assert bar.shown
        for _ in range(4):
            bar.update(note="2 causes")
    drawn = screen.getvalue()
    assert "work:" in drawn and "4/4" in drawn and "2 causes" in drawn
    assert drawn.rstrip(" ").endswith("\r")  # the last thing written blanks the line


def _perft(*argv: str) -> str:
    parser = argparse.ArgumentParser()
    perft.add_cli_arguments(parser)
    out = io.StringIO()
    assert perft.run_cli(InProcessEngine(), parser.parse_args(list(argv)), out=out) == 0
    return re.sub(r"\d+\.\d\ds", "T", out.getvalue())  # the seconds each position took


def test_perft_prints_the_same_text_with_a_bar(monkeypatch):
    argv = ("--id", "podkidnoy-2p-deal", "--id", "pagat-3p-deal", "--max-depth", "2")
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    plain = _perft(*argv)
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    assert _perft(*argv) == plain
    assert "perft:" in screen.getvalue() and "2/2" in screen.getvalue()


def _fuzz(tmp_path) -> str:
    args = cli.build_parser().parse_args(
        ["fuzz", "--engine", "reference", "--games", "3", "--seed", "11", "--out",
         str(tmp_path / "findings")]
    )
    out = io.StringIO()
    assert fuzz.run_cli(args, out=out) == 0
    return re.sub(r"in [\d.]+ s \([\d.]+ games/s\)", "in T", out.getvalue())


@pytest.mark.slow  # plays the fuzz games twice, with and without the bar (CI runs it)
def test_fuzz_prints_the_same_text_with_a_bar(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    plain = _fuzz(tmp_path)
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    assert _fuzz(tmp_path) == plain
    assert "fuzz:" in screen.getvalue() and "3/3" in screen.getvalue()
    assert "causes of disagreement" in screen.getvalue()


@pytest.mark.parametrize(
    ("stderr_tty", "stdout_tty", "wanted"),
    [(True, False, True), (True, True, False), (False, False, False), (False, True, False)],
)
def test_run_asks_for_the_bar_only_when_the_report_is_not_on_the_terminal(
    monkeypatch, stderr_tty, stdout_tty, wanted
):
    monkeypatch.setattr(sys, "stderr", Terminal() if stderr_tty else io.StringIO())
    monkeypatch.setattr(sys, "stdout", Terminal() if stdout_tty else io.StringIO())
    argv = cli.pytest_arguments(cli.build_parser().parse_args(["run"]))
    assert ("--durak-progress" in argv) is wanted


def test_run_draws_the_bar_over_its_cases_and_prints_the_same_report(monkeypatch, capsys):
    monkeypatch.setattr(run_progress, "LONG_RUN", 5)
    argv = ["run", "--no-features", "--area", "BEAT"]
    assert cli.main(argv) == 0
    plain = capsys.readouterr().out
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    assert cli.main(argv) == 0
    shown = capsys.readouterr().out
    counted = re.search(r"(\d+) passed", plain)
    assert counted is not None
    assert f"{counted[1]}/{counted[1]}" in screen.getvalue() and "cases:" in screen.getvalue()

    def same(text: str) -> str:
        return re.sub(r"in [\d.]+s", "in T", text)

    assert same(shown) == same(plain)
