"""Ten deliberate mistakes, each read back from the run as one root cause (issue "Reports and docs
a user acts on", done means: each mistake "produces one root-cause group that names the rule and
shows the differing moves or fields").

The engine is ``engines/mistakes_engine.py``: the reference engine with one rule played wrong.
For each mistake the expected cause is worked from spec/rules.md, not from a run: a pass while a
card lies unbeaten breaks R-THROW-5; a beat by a higher card of another plain suit breaks R-BEAT-1
(only a higher card of the suit, or a trump, beats); a throw-in of a rank not on the table breaks
R-THROW-1; the defender's take is R-TAKE-1; a transfer is R-TRANSFER-1; a trump beating a plain
card is R-BEAT-1; cards picked up are known to all (R-INFO-3); ``bout.number`` goes up when a bout
closes (R-BOUT-1); the first attacker of a game is R-ROLE-1's; the winners under ``win_mode:
ranking`` are R-END-4's.

The cause must be the run's biggest group and hold most of its failures. The rest of the same
mistake may show through another door (a refusal that names the engine's rule before the one the
rules break first is R-PLAY-5's; a field seen in an observation), and each of those groups names
its rule too, except a whole-object difference. Each run is the whole packaged suite in process
(about 10 to 25 s), so the tests are slow.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io

import pytest

from conformance.cli import main
from conformance.reports.report import read_report

from .helpers import ENGINES, engine_env

#: mistake -> (the cause's text, its rule), from the rules
EXPECTED: dict[str, tuple[str, str]] = {
    "pass-while-unbeaten": (
        "the engine lists pass while a card lies unbeaten, which the rules forbid", "R-THROW-5"),
    "beat-with-a-higher-plain-card": (
        "the engine lists beat (a card of another plain suit), which the rules forbid", "R-BEAT-1"),
    "throw-in-any-rank": ("the engine lists throw_in, which the rules forbid", "R-THROW-1"),
    "no-take": ("the engine misses take", "R-TAKE-1"),
    "no-transfer": ("the engine misses transfer", "R-TRANSFER-1"),
    "no-trump-over-plain": (
        "the engine misses beat (a trump on a plain card), which the rules allow", "R-BEAT-1"),
    "picked-up-cards-not-known": ("the state differs at /players/*/known", "R-INFO-3"),
    "bout-number-stuck": ("the state differs at /bout/number", "R-BOUT-1"),
    "first-attacker-at-dealers-left": ("the state differs at /bout/attacker", "R-ROLE-1"),
    "no-winners-under-ranking": ("the result differs at /result/winners", "R-END-4"),
}


def _run(mistake: str, report) -> tuple[int, str]:
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(out):
        patch.setenv("DURAK_MISTAKE", mistake)
        patch.setenv("PYTHONPATH", engine_env()["PYTHONPATH"])
        patch.syspath_prepend(str(ENGINES))
        status = main(["run", "--engine", "python:mistakes_engine:make", "--json", str(report)])
    return status, out.getvalue()


def test_every_mistake_has_its_expected_cause():
    spec = importlib.util.spec_from_file_location("mistakes", ENGINES / "mistakes_engine.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert set(EXPECTED) == set(module.MISTAKES)


@pytest.mark.slow
@pytest.mark.parametrize("mistake", sorted(EXPECTED))
def test_a_mistake_reads_as_one_cause_naming_its_rule(mistake, tmp_path):
    status, output = _run(mistake, tmp_path / "report.jsonl")
    assert status == 1, output[-2000:]
    found = read_report(tmp_path / "report.jsonl")
    failing = [c for c in found["cases"] if c["outcome"] == "failed"]
    causes = found["summary"]["causes"]
    shown = "\n".join(f"{len(g['cases'])}: {g['cause']} {g['rules']}" for g in causes)
    text, rule = EXPECTED[mistake]
    biggest = causes[0]
    assert biggest["cause"].startswith(text) and biggest["rules"] == [rule], shown
    assert len(biggest["cases"]) * 2 > len(failing), shown
    unnamed = [g for g in causes if not g["rules"]]
    assert sum(len(g["cases"]) for g in unnamed) * 20 <= len(failing), shown
    assert f"1 cause, {len(biggest['cases'])} cases: {biggest['cause']}" in output
