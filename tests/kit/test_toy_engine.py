"""The toy engine (tests/kit/toy_engine.py) adapts the reference engine's core through the kit in
under 60 lines, leaving every bookkeeping field to the kit, and passes the podkidnoy cases of the
suite and a fuzzing run against the reference engine."""

from __future__ import annotations

import sys

import pytest

from conformance.cli import main
from conformance.reports.report import read_report

from .helpers import TOY, Toy

ENGINE = f"{sys.executable} {TOY}"


def test_the_toy_is_under_60_lines_and_keeps_no_bookkeeping():
    assert len(TOY.read_text(encoding="utf-8").splitlines()) < 60
    toy = Toy()
    state = toy.new_game({"ruleset": "podkidnoy", "players": 3, "seed": 1})
    view = toy.view(toy.setup(state))
    assert not {"version", "ruleset", "dealer", "finished"} & set(view)
    assert not {"known", "team"} & set(view["players"][0])
    assert not {"number", "opener", "first_defence", "emptied"} & set(view["bout"])


@pytest.mark.slow
def test_the_toy_passes_the_podkidnoy_cases(tmp_path):
    report = tmp_path / "toy.jsonl"
    status = main(["run", "--engine", ENGINE, "--ruleset", "podkidnoy", "--json", str(report)])
    cases = read_report(report)["cases"]
    assert status == 0, [c for c in cases if c["outcome"] != "passed"][:3]
    assert len(cases) > 300 and {c["outcome"] for c in cases} == {"passed"}


@pytest.mark.slow
def test_the_toy_agrees_with_the_reference_engine_in_random_games(tmp_path, capsys):
    status = main(["fuzz", "--engine", ENGINE, "--games", "12", "--seed", "2024", "--vary-options",
                   "--out", str(tmp_path)])
    assert status == 0, capsys.readouterr().out
