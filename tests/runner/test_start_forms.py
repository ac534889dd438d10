"""Every report record says what its case needs to start, and the run says how many cases an
engine without position set-up (one that plays only in game sessions, P-33) can run (issue 10:
"the report says how many cases an engine without position set-up can run"). A case whose start
is an impossible position the engine must refuse (the robustness cases) tests set-up itself: its
record says ``impossible`` and the share leaves it out, saying how many it left out."""

from __future__ import annotations

import time

from conformance.cli import main
from conformance.plugin.reporting import setup_line
from conformance.reports.report import read_report
from conformance.suite import FIXTURES_DIR
from conformance.suite.loader import load_paths

from .helpers import DATA


def expected_form(case) -> str:
    if "state" not in case.start:
        return "deal"
    if case.start_refused is not None:
        return "impossible"
    return "route" if case.reached_by else "position"


def test_each_record_names_its_start_and_the_summary_counts_them(tmp_path, capsys):
    chosen = [DATA / "suite", FIXTURES_DIR / "draw", FIXTURES_DIR / "robustness"]
    cases = {case.id: case for case in load_paths(chosen)[0]}
    report = tmp_path / f"report-{time.monotonic_ns()}.jsonl"
    argv = ["run", "--no-fixtures", "--no-features", "--json", str(report)]
    for folder in chosen:
        argv += ["--fixtures", str(folder)]
    assert main(argv) == 0
    found = read_report(report)
    assert {c["id"]: c["start"] for c in found["cases"]} == {
        case_id: expected_form(case) for case_id, case in cases.items()
    }
    starts = found["summary"]["starts"]
    assert sum(starts.values()) == len(cases) and starts.get("route", 0) > 0
    impossible = [c for c in cases.values() if "state" in c.start and c.start_refused]
    assert starts["impossible"] == len(impossible) > 0
    out = capsys.readouterr().out
    assert f"of {len(cases) - len(impossible)} cases" in out
    assert f"{len(impossible)} more start from an impossible position" in out


def test_the_setup_line_gives_the_share_an_engine_in_sessions_can_run():
    from collections import Counter

    line = setup_line(Counter(deal=3, route=1, position=4))
    assert line.startswith("without position set-up (game sessions): 4 of 8 cases (50%)")
    assert "3 start from a deal, 1 from a position with a route" in line
    assert line.endswith("4 need the position set up")


def test_impossible_starts_are_left_out_of_the_share_and_named():
    from collections import Counter

    line = setup_line(Counter(deal=3, route=1, position=4, impossible=2))
    assert line.startswith("without position set-up (game sessions): 4 of 8 cases (50%)")
    assert line.endswith(
        "; 2 more start from an impossible position the engine must refuse (they test position "
        "set-up itself) and are not counted"
    )
