"""`durak-conformance run` end to end: selection, gating, xfail lists, reports, broken fixtures,
a deliberately wrong engine and misbehaving engines. Runs the CLI in this process on the small
suite under data/suite (written from the rules), with short timeouts."""

from __future__ import annotations

import sys
import time
import xml.etree.ElementTree as ET

import pytest

from conformance.cli import main
from conformance.reports.report import read_report

from .helpers import DATA, ENGINES, engine_env, misbehave_command, processes_with, token

SUITE = DATA / "suite"
BEAT = "runner-beat-trump-over-plain"
DEAL = "runner-deal-unshuffled-two-players"
TRANSFER = "runner-transfer-to-next-player"


@pytest.fixture(autouse=True)
def _engines_importable(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", engine_env()["PYTHONPATH"])
    monkeypatch.syspath_prepend(str(ENGINES))


def run(tmp_path, *args: str, suite=SUITE) -> tuple[int, dict]:
    report = tmp_path / f"report-{time.monotonic_ns()}.jsonl"
    argv = [
        "run",
        "--no-fixtures",
        "--no-features",
        "--fixtures",
        str(suite),
        "--json",
        str(report),
    ]
    status = main([*argv, *args])
    return status, read_report(report)


def outcomes(report: dict) -> dict[str, str]:
    return {case["id"]: case["outcome"] for case in report["cases"]}


def case(report: dict, case_id: str) -> dict:
    return next(c for c in report["cases"] if c["id"] == case_id)


def test_reference_in_process_passes_and_reports(tmp_path):
    junit = tmp_path / "junit.xml"
    status, report = run(tmp_path, "--junitxml", str(junit))
    assert status == 0
    assert outcomes(report) == {BEAT: "passed", DEAL: "passed", TRANSFER: "passed"}
    assert report["header"]["suite"]["name"] == "durak-conformance"
    assert report["engine"]["engine"]["name"] and report["engine"]["supports"]["players"]
    assert report["summary"]["totals"] == {"passed": 3}
    assert report["summary"]["areas"]["BEAT"] == {"passed": 1}
    assert report["summary"]["options"]["transfer=on"] == {"passed": 1}
    cases = ET.parse(junit).getroot().iter("testcase")
    assert sorted(c.get("name") for c in cases) == sorted([BEAT, DEAL, TRANSFER])


def test_selection_by_rule_area_case_and_ruleset(tmp_path):
    assert outcomes(run(tmp_path, "--rule", "R-DEAL-1")[1]) == {DEAL: "passed"}
    assert outcomes(run(tmp_path, "--area", "beat,transfer")[1]).keys() == {BEAT, TRANSFER}
    assert outcomes(run(tmp_path, "--case", "runner-t*")[1]).keys() == {TRANSFER}
    assert run(tmp_path, "--ruleset", "no-such-preset")[0] == 2  # nothing selected


def test_wrong_engine_is_caught_naming_the_rule_and_the_moves(tmp_path, capsys):
    status, report = run(tmp_path, "--engine", "python:wrong_engine:make")
    assert status == 1
    beat = case(report, BEAT)
    assert beat["outcome"] == "failed" and beat["rules"][0] == "R-BEAT-1"
    assert beat["signature"] == "step 1 legal: wrong set"
    assert beat["actual"]["missing"] == [
        {"player": 1, "action": "beat", "target": "QS", "card": "9H"}
    ]
    assert beat["start_state"]["table"] == [{"attack": "QS", "by": 0, "defence": None}]
    assert case(report, DEAL)["outcome"] == "passed"
    shown = capsys.readouterr().out
    assert f"case {BEAT}" in shown and "R-BEAT-1" in shown and "expected:" in shown


def test_wrong_engine_through_the_process_path_gives_the_same_results(tmp_path):
    served = f"{sys.executable} -m conformance serve --engine python:wrong_engine:make"
    _, direct = run(tmp_path, "--engine", "python:wrong_engine:make")
    status, through = run(tmp_path, "--engine", served)
    assert status == 1
    strip = ("duration", "nodeid", "diagnostics")
    assert [{k: v for k, v in c.items() if k not in strip} for c in through["cases"]] == [
        {k: v for k, v in c.items() if k not in strip} for c in direct["cases"]
    ]


def test_xfail_list_expected_mismatched_stale_and_update(tmp_path):
    listing = tmp_path / "xfail.yaml"
    listing.write_text(f"{BEAT}: step 1 legal\n")
    status, report = run(tmp_path, "--engine", "python:wrong_engine:make", "--xfail", str(listing))
    assert status == 0 and case(report, BEAT)["outcome"] == "xfailed"

    listing.write_text(f"{BEAT}: step 5 move\n{DEAL}: null\n")
    status, report = run(tmp_path, "--engine", "python:wrong_engine:make", "--xfail", str(listing))
    assert status == 1
    assert case(report, BEAT)["outcome"] == "mismatch"
    assert case(report, DEAL)["outcome"] == "xpassed"

    status, report = run(
        tmp_path, "--engine", "python:wrong_engine:make", "--xfail", str(listing), "--update-xfail"
    )
    lines = [line for line in listing.read_text().splitlines() if not line.startswith("#")]
    assert lines == [f"{BEAT}: 'step 1 legal: wrong set'"]


def test_broken_fixture_files_fail_alone(tmp_path):
    status, report = run(tmp_path, suite=DATA / "broken")
    assert status == 1
    got = outcomes(report)
    assert got["broken-dir-deal"] == "passed"
    broken = {cid: c for cid, c in ((c["id"], c) for c in report["cases"]) if got[cid] == "broken"}
    assert len(broken) == 2
    messages = " ".join(c["message"] + c["location"] for c in broken.values())
    assert "typo.yaml:9" in messages and "unknown step (lgal)" in messages
    assert "syntax.yaml" in messages and "invalid YAML" in messages


def test_honest_engine_gates_unsupported_cases_apart(tmp_path):
    tag = token()
    status, report = run(tmp_path, "--engine", misbehave_command("classic", tag=tag))
    assert status == 3  # nothing failed, but only 1 of the 3 cases was inside the claims
    assert outcomes(report) == {BEAT: "unsupported", DEAL: "passed", TRANSFER: "unsupported"}
    assert "deck 24" in case(report, BEAT)["message"]
    assert processes_with(tag) == []


def test_lying_hello_is_a_failure_not_unsupported(tmp_path):
    tag = token()
    status, report = run(tmp_path, "--engine", misbehave_command("lie", tag=tag))
    assert status == 1
    transfer = case(report, TRANSFER)
    assert transfer["outcome"] == "failed"
    assert "hello claims support" in transfer["message"]
    assert case(report, DEAL)["outcome"] == "passed"


def test_crashing_engine_run_continues_with_diagnostics(tmp_path):
    tag = token()
    status, report = run(tmp_path, "--engine", misbehave_command("crash-apply", tag=tag))
    assert status == 1
    assert outcomes(report) == {BEAT: "error", DEAL: "error", TRANSFER: "passed"}
    beat = case(report, BEAT)
    assert "crash" in beat["message"] and "simulated crash" in beat["diagnostics"]["stderr_tail"]
    assert processes_with(tag) == []


@pytest.mark.slow
def test_hanging_engine_ends_quickly_with_the_rest_not_run(tmp_path):
    tag = token()
    began = time.monotonic()
    status, report = run(
        tmp_path,
        "--engine",
        misbehave_command("hang", tag=tag),
        "--timeout",
        "3",
        "--max-faults",
        "2",
    )
    assert status == 1
    assert time.monotonic() - began < 40
    assert sorted(outcomes(report).values()) == ["error", "error", "not_run"]
    assert report["summary"]["totals"]["not_run"] == 1
    assert processes_with(tag) == []


def test_engine_failing_hello_is_a_configuration_error(tmp_path):
    tag = token()
    began = time.monotonic()
    status, _ = run(tmp_path, "--engine", misbehave_command("silent", tag=tag), "--timeout", "0.5")
    assert status == 2 and time.monotonic() - began < 15
    assert processes_with(tag) == []


def test_usage_errors_exit_2(tmp_path, capsys):
    assert main(["run", "--update-xfail"]) == 2
    assert main(["run", "--fixtures", str(tmp_path / "missing")]) == 2
    with pytest.raises(SystemExit) as exited:
        main(["run", "--no-such-option"])
    assert exited.value.code == 2
    (tmp_path / "bad.yaml").write_text("- not a mapping\n")
    assert main(["run", "--no-features", "--xfail", str(tmp_path / "bad.yaml")]) == 2


def test_plugin_is_inert_outside_fixture_roots(tmp_path):
    """YAML files elsewhere are not collected and no report section appears (the project's own
    test run stays untouched)."""
    assert pytest.main(["--co", "-q", "-p", "no:cacheprovider", str(SUITE)]) == 5
    status = pytest.main(
        ["--co", "-q", "-p", "no:cacheprovider", "--durak-fixtures", str(SUITE), str(SUITE)]
    )
    assert status == 0
