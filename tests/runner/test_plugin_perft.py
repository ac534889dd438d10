"""Perft positions under `durak-conformance run`: collected from conformance/perft, each a case of
the one runner with one `perft` step at the position's suite_depth, selected like fixtures
(`--case`, `-k`), written to the JSON report in the same record shape as fixtures, judged by the
expected-failure list; a malformed position fails alone."""

from __future__ import annotations

import pytest
import yaml

from conformance.suite import POSITIONS_DIR
from conformance.tools.perft import load_positions

from .helpers import ENGINES, by_id, engine_env
from .helpers import run_without_features as run

POSITION = "podkidnoy-2p-endgame"
FIXTURE = "attack-limit-a-six-five-first"
TEAMS = {"teams-2v2-endgame", "teams-2v2-deal", "teams-3v3-deal", "teams-2v2v2-deal"}


@pytest.fixture(autouse=True)
def _engines_importable(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", engine_env()["PYTHONPATH"])
    monkeypatch.syspath_prepend(str(ENGINES))


def test_every_packaged_position_marks_a_suite_depth_it_lists():
    positions = load_positions()
    assert len(positions) >= 15
    for position in positions:
        assert position.suite_depth in position.counts and position.suite_depth >= 4, position.id


@pytest.mark.slow
def test_a_position_selected_by_case_runs_with_the_shape_of_a_fixture(tmp_path, capsys):
    status, report = run(tmp_path, "--case", f"{POSITION},{FIXTURE}")
    assert status == 0
    cases = by_id(report)
    assert set(cases) == {POSITION, FIXTURE}
    perft, fixture = cases[POSITION], cases[FIXTURE]
    assert set(perft) == set(fixture)
    assert (perft["kind"], perft["outcome"]) == ("perft", "passed")
    assert perft["location"].endswith("conformance/perft/podkidnoy.yaml:8")
    assert perft["nodeid"] == f"perft/podkidnoy.yaml::{POSITION}"
    assert perft["rules"] == ["R-PLAY-1"] and perft["players"] == 2
    assert report["summary"]["kinds"] == {"fixture": {"passed": 1}, "perft": {"passed": 1}}
    assert "perft positions: 1 (1 passed)" in capsys.readouterr().out


@pytest.mark.slow
def test_positions_are_selected_by_pytest_keywords(tmp_path):
    status, report = run(tmp_path, "--", "-k", "perft and teams")
    assert status == 0
    assert set(by_id(report)) == TEAMS
    assert {case["kind"] for case in report["cases"]} == {"perft"}


@pytest.mark.slow
def test_a_wrong_count_fails_at_the_suite_depth_and_obeys_the_expected_failure_list(tmp_path):
    """The wrong engine (no trump beats a plain card) counts the pagat endgame short."""
    (position,) = [p for p in load_positions() if p.id == "pagat-3p-endgame"]
    depth = position.suite_depth
    wrong = ("--engine", "python:wrong_engine:make", "--case", position.id)
    status, report = run(tmp_path, *wrong)
    assert status == 1
    case = by_id(report)[position.id]
    assert case["outcome"] == "failed" and case["kind"] == "perft"
    assert case["signature"] == f"step 1 perft: perft({depth}) differs"
    assert case["step"]["perft"]["depth"] == depth
    assert case["expected"]["nodes"] == position.counts[depth] != case["actual"]["nodes"]
    xfail = tmp_path / "xfail.yaml"
    xfail.write_text(f'{position.id}: "step 1 perft"\n', encoding="utf-8")
    status, report = run(tmp_path, *wrong, "--xfail", str(xfail))
    assert status == 0 and by_id(report)[position.id]["outcome"] == "xfailed"


def test_a_malformed_position_fails_alone(tmp_path):
    folder = tmp_path / "perft"
    folder.mkdir()
    raw = yaml.safe_load((POSITIONS_DIR / "podkidnoy.yaml").read_text(encoding="utf-8"))
    good = next(p for p in raw["positions"] if p["id"] == POSITION)
    bad = {**good, "id": "bad-depth", "suite_depth": 99}
    (folder / "mine.yaml").write_text(yaml.safe_dump({"positions": [good, bad]}), encoding="utf-8")
    (folder / "cut.yaml").write_text("positions: [", encoding="utf-8")
    status, report = run(
        tmp_path, "--no-fixtures", "--fixtures", str(folder), "--", "--durak-perft", str(folder)
    )
    assert status == 1
    cases = by_id(report)
    assert cases[POSITION]["outcome"] == "passed"
    broken = [case for key, case in cases.items() if key != POSITION]
    assert len(broken) == 2
    assert {(case["outcome"], case["kind"], case["signature"]) for case in broken} == {
        ("broken", "perft", "broken perft")
    }
    messages = " ".join(case["message"] for case in broken)
    assert "suite_depth 99 is not one of the depths" in messages and "not valid YAML" in messages
