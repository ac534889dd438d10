"""Game records under `durak-conformance run`: collected from conformance/records, selected like
fixtures (`--case`, `-k`), judged by the one runner, written to the JSON report in the same record
shape as fixtures, judged by the expected-failure list; a broken record file fails alone."""

from __future__ import annotations

import json
import shutil

import pytest

from conformance.suite import RECORDS_DIR
from conformance.tools.record import load_record

from .helpers import ENGINES, by_id, engine_env
from .helpers import run_without_features as run

RECORD = "podkidnoy-three-players-24"
FIXTURE = "attack-limit-a-six-five-first"


@pytest.fixture(autouse=True)
def _engines_importable(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", engine_env()["PYTHONPATH"])
    monkeypatch.syspath_prepend(str(ENGINES))


@pytest.mark.slow
def test_a_record_selected_by_case_runs_with_the_shape_of_a_fixture(tmp_path, capsys):
    status, report = run(tmp_path, "--case", f"{RECORD},{FIXTURE}")
    assert status == 0
    cases = by_id(report)
    assert set(cases) == {RECORD, FIXTURE}
    record, fixture = cases[RECORD], cases[FIXTURE]
    assert set(record) == set(fixture)
    assert (record["kind"], record["outcome"], fixture["kind"]) == ("record", "passed", "fixture")
    assert record["location"].endswith(f"conformance/records/{RECORD}.json:1")
    assert record["nodeid"] == f"records/{RECORD}.json::{RECORD}"
    assert record["rules"] == ["R-PLAY-1", "R-END-1"] and record["area"] == "PLAY"
    assert record["players"] == 3
    assert record["ruleset_request"] == load_record(RECORDS_DIR / f"{RECORD}.json")["ruleset"]
    assert record["ruleset"]["options"]["deck_size"] == 24
    assert report["summary"]["kinds"] == {"fixture": {"passed": 1}, "record": {"passed": 1}}
    out = capsys.readouterr().out
    assert "by kind of case:" in out and "records: 1 (1 passed)" in out


@pytest.mark.slow
def test_records_are_selected_by_pytest_keywords_and_the_plugin_selectors(tmp_path):
    status, report = run(tmp_path, "--", "-k", "records and pagat")
    assert status == 0 and list(by_id(report)) == ["pagat-four-players-24"]
    status, report = run(tmp_path, "--ruleset", "teams-2v2", "--area", "PLAY")
    assert status == 0
    assert {c["id"] for c in report["cases"] if c["kind"] == "record"} == {
        "teams-2v2-four-players-24"
    }


@pytest.mark.slow
def test_a_failing_record_names_the_move_and_obeys_the_expected_failure_list(tmp_path):
    """The wrong engine (no trump beats a plain card) refuses the first such beat of the game:
    the record fails at that move's step; listed, it is an expected failure."""
    moves = load_record(RECORDS_DIR / f"{RECORD}.json")["moves"]
    first = next(
        i
        for i, m in enumerate(moves)
        if m["action"] == "beat" and m["card"][1] == "H" != m["target"][1]
    )
    wrong = ("--engine", "python:wrong_engine:make", "--case", RECORD)
    status, report = run(tmp_path, *wrong)
    assert status == 1
    case = by_id(report)[RECORD]
    assert case["outcome"] == "failed" and case["kind"] == "record"
    assert case["step"]["index"] == first + 1 and case["step"]["move"] == moves[first]
    assert case["step"]["line"] == 10 + first  # one move per line from line 10 of the file
    assert case["signature"] == f"step {first + 1} move: move not listed"
    xfail = tmp_path / "xfail.yaml"
    xfail.write_text(f'{RECORD}: "step {first + 1} move"\n', encoding="utf-8")
    status, report = run(tmp_path, *wrong, "--xfail", str(xfail))
    assert status == 0 and by_id(report)[RECORD]["outcome"] == "xfailed"
    xfail.write_text(f'{RECORD}: "step 1 move"\n', encoding="utf-8")
    status, report = run(tmp_path, *wrong, "--xfail", str(xfail))
    assert status == 1 and by_id(report)[RECORD]["outcome"] == "mismatch"
    xfail.write_text(f"{RECORD}: null\n", encoding="utf-8")
    status, report = run(tmp_path, "--case", RECORD, "--xfail", str(xfail))
    assert status == 1 and by_id(report)[RECORD]["outcome"] == "xpassed"


def test_a_broken_record_file_fails_alone(tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(RECORDS_DIR / f"{RECORD}.json", folder / f"{RECORD}.json")
    bad = json.loads((RECORDS_DIR / "pagat-four-players-24.json").read_text(encoding="utf-8"))
    bad["moves"][3]["card"] = "XX"
    (folder / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    (folder / "cut.json").write_text('{"version": 1, "moves": [', encoding="utf-8")
    status, report = run(
        tmp_path, "--no-fixtures", "--fixtures", str(folder), "--", "--durak-records", str(folder)
    )
    assert status == 1
    cases = by_id(report)
    assert cases[RECORD]["outcome"] == "passed"
    broken = {key: case for key, case in cases.items() if key != RECORD}
    assert len(broken) == 2
    assert {case["outcome"] for case in broken.values()} == {"broken"}
    assert {case["kind"] for case in broken.values()} == {"record"}
    assert {case["signature"] for case in broken.values()} == {"broken record"}
    messages = " ".join(case["message"] for case in broken.values())
    assert "at /moves/3/card" in messages and "not JSON" in messages
