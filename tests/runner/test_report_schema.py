"""The published schema of the JSON Lines run report (spec/schema/report.schema.json): a real
report validates line by line, and both readers refuse a damaged line with its file, line and
what is wrong, taken from the schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.contract.schemas import document, validator
from conformance.reports.reader import ReportFileError, load_report
from conformance.reports.report import FINAL_OUTCOMES, LINE_TYPES, read_report

from .shared_runs import shared_run

HEADER = {
    "type": "header",
    "suite": {"name": "durak-conformance", "version": "0.1.0"},
    "runner": {"python": "3.11.7", "pytest": "9.2.0"},
    "engine": "python3 my_adapter.py",
    "selection": {"area": [], "case": [], "rule": [], "ruleset": []},
}
ENGINE = {"type": "engine", "command": "python3 my_adapter.py", "engine": {"name": "mine"}}
CASE = {
    "type": "case",
    "id": "beat-trump-beats-plain",
    "kind": "fixture",
    "location": "conformance/fixtures/beat/basics.yaml:3",
    "rules": ["R-BEAT-1"],
    "area": "BEAT",
    "options": {"deck_size": 36},
    "outcome": "failed",
    "message": "step 2 legal: wrong set",
    "cause": {"text": "extra move beat 7C with 6C", "rules": ["R-BEAT-1"]},
}
SUMMARY = {
    "type": "summary",
    "totals": {"failed": 1},
    "executed": 1,
    "selected": 1,
    "failing": 1,
    "causes": [
        {"cause": "extra move beat 7C with 6C", "rules": ["R-BEAT-1"], "cases": [CASE["id"]]}
    ],
}


def _write(tmp_path: Path, lines: list[dict]) -> Path:
    path = tmp_path / "report.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_the_schema_names_the_outcomes_and_line_types_the_runner_writes() -> None:
    schema = document("report")
    assert tuple(schema["$defs"]["outcome"]["enum"]) == FINAL_OUTCOMES
    assert tuple(schema["properties"]["type"]["enum"]) == LINE_TYPES


def test_a_hand_made_report_validates_and_reads(tmp_path: Path) -> None:
    path = _write(tmp_path, [HEADER, ENGINE, CASE, SUMMARY])
    for line in (HEADER, ENGINE, CASE, SUMMARY):
        assert list(validator("report").iter_errors(line)) == []
    loaded = load_report(path)
    assert [case["id"] for case in loaded.cases] == [CASE["id"]] and loaded.complete
    assert read_report(path)["summary"]["totals"] == {"failed": 1}


@pytest.mark.parametrize(
    "line, damage, words",
    [
        (3, {**CASE, "outcome": "pased"}, "'outcome' is 'pased', not one of passed, failed"),
        (
            3,
            {**CASE, "rules": "R-BEAT-1"},
            "case 'beat-trump-beats-plain': 'rules' must be an array",
        ),
        (3, {**CASE, "id": ""}, "case line: 'id' must not be empty"),
        (3, {k: v for k, v in CASE.items() if k != "outcome"}, "no 'outcome'"),
        (3, {**CASE, "cause": {"text": "x"}}, "no 'rules' of 'cause'"),
        (3, {**CASE, "options": {"deck_size": [36]}}, "/options/deck_size must be"),
        (
            1,
            {**HEADER, "suite": "durak"},
            "header line: 'suite' must be an object, not a JSON string",
        ),
        (2, {**ENGINE, "engine": "mine"}, "engine line: 'engine' must be an object"),
        (
            4,
            {**SUMMARY, "totals": {"won": 1}},
            "summary line: a key of 'totals' is 'won', not one of passed",
        ),
        (4, {**SUMMARY, "executed": -1}, "summary line: 'executed': -1 is less than the minimum"),
    ],
)
def test_a_damaged_line_is_refused_with_file_line_and_what(
    tmp_path: Path, line: int, damage: dict, words: str
) -> None:
    lines = [HEADER, ENGINE, CASE, SUMMARY]
    lines[line - 1] = damage
    path = _write(tmp_path, lines)
    for read in (load_report, read_report):
        with pytest.raises(ReportFileError) as raised:
            read(path)
        message = str(raised.value)
        assert message.startswith(f"{path}:{line}: "), message
        assert words in message and "report.schema.json" in message, message


def test_the_lenient_reader_refuses_a_line_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "report.jsonl"
    path.write_text(json.dumps(HEADER) + "\n<html>\n", encoding="utf-8")
    with pytest.raises(ReportFileError, match=r"report\.jsonl:2: not a report line"):
        read_report(path)


@pytest.mark.slow
def test_a_real_report_validates_line_by_line(tmp_path_factory: pytest.TempPathFactory) -> None:
    run = shared_run("reference", tmp_path_factory)
    lines = run.report.read_text(encoding="utf-8").splitlines()
    check = validator("report")
    kinds = []
    for number, text in enumerate(lines, start=1):
        record = json.loads(text)
        problems = [error.message for error in check.iter_errors(record)]
        assert problems == [], f"{run.report}:{number}: {problems}"
        kinds.append(record["type"])
    assert kinds[0] == "header" and kinds[-1] == "summary" and "case" in kinds
    assert len(load_report(run.report).cases) == kinds.count("case")
