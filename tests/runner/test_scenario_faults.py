"""A Gherkin scenario meets an engine's faults exactly as a fixture does (issue 13 item 3),
since both run through the one judge: a crash is an ``error`` (never ``failed``), the cases
after the engine is given up are ``not_run`` (never failures), and an observation refused as
unsupported by an engine whose hello claims ``observe`` is ``failed`` (P-17), not unsupported.
Real subprocess engines (tests/runner/engines/misbehave.py) and the packaged scenarios."""

from __future__ import annotations

import time

import pytest

from conformance.cli import main
from conformance.reports.report import read_report

from .helpers import ENGINES, engine_env, misbehave_command, processes_with, token

#: Scenarios that start with a move (an apply), in the order the suite runs them.
MOVING = ["attack-a-bout-has-only-one-opening", "beat-each-attack-card-carries-its-own-defence-card"]
#: A scenario whose Then steps observe the state.
OBSERVING = "info-looking-at-the-discard-pile-discard-visibility-count"


@pytest.fixture(autouse=True)
def _engines_importable(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", engine_env()["PYTHONPATH"])
    monkeypatch.syspath_prepend(str(ENGINES))


def run_scenarios(tmp_path, mode: str, *cases: str, extra: tuple[str, ...] = ()) -> dict:
    tag = token()
    report = tmp_path / f"report-{time.monotonic_ns()}.jsonl"
    argv = ["run", "--no-fixtures", "--engine", misbehave_command(mode, tag=tag)]
    argv += [f"--case={case}" for case in cases]
    status = main([*argv, "--json", str(report), "--min-share", "0", *extra])
    assert status == 1
    assert processes_with(tag) == []
    found = read_report(report)
    assert {c["kind"] for c in found["cases"]} == {"scenario"}
    return {c["id"]: c for c in found["cases"]}


def test_a_crash_during_a_scenario_is_an_error_with_the_engines_words(tmp_path):
    cases = run_scenarios(tmp_path, "crash-apply", *MOVING)
    assert sorted(cases) == sorted(MOVING)
    for record in cases.values():
        assert record["outcome"] == "error", record
        assert "crash" in record["message"]


def test_scenarios_after_the_engine_is_given_up_are_not_run(tmp_path):
    cases = run_scenarios(tmp_path, "crash-apply", *MOVING, OBSERVING, extra=("--max-faults", "1"))
    assert [cases[c]["outcome"] for c in [*MOVING, OBSERVING]] == ["error", "not_run", "not_run"]


def test_an_observation_refused_while_hello_claims_observe_fails(tmp_path):
    record = run_scenarios(tmp_path, "no-observe", OBSERVING)[OBSERVING]
    assert record["outcome"] == "failed"
    assert "unsupported" in record["message"] and "hello" in record["message"]


def test_a_failing_scenario_shows_its_failure_block_not_a_traceback(capsys):
    """Issue 14 item 1: a failing scenario prints what a failing fixture prints (case ID and
    feature file:line, rules, the step, expected against actual), without pytest's traceback of
    the step definitions unless ``--tb`` asks for one."""
    scenario = "beat-a-trump-may-be-spent-although-a-club-would-do"
    argv = ["run", "--no-fixtures", "--engine", "python:wrong_engine:make", "--case", scenario]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert f"case {scenario}  (features/beat.feature:" in out
    assert "rules: R-BEAT-2" in out and "expected: " in out and "actual: " in out
    assert "fixturefunc" not in out and "Traceback" not in out
    assert main([*argv, "--", "--tb=long"]) == 1
    assert "fixturefunc" in capsys.readouterr().out
