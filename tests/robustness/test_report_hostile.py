"""Reports and replays never crash on what an engine or a file holds: an engine's text (its name,
its messages, its stderr) is shown with control characters and surrogates escaped, on the
terminal and in HTML and Markdown; JSON nested too deep in a report or a record is a clear error
naming the file, and replay goes on with the remaining records."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.engines.base import InProcessEngine
from conformance.reports.html import render_html
from conformance.reports.markdown import render_markdown
from conformance.reports.printable import printable, printable_line
from conformance.reports.reader import ReportFileError, load_report
from conformance.reports.report import Tally, failure_text, read_report, summary_lines
from conformance.suite import RECORDS_DIR
from conformance.tools import replay

# an engine's name that would set the terminal's title (OSC 0 ... BEL), turn the text red (CSI),
# and hold a lone surrogate; and a message with a C1 control (CSI in one byte) and a DEL
NAME = "evil\x1b]0;pwned\x07\x1b[31m\ud800"
MESSAGE = "bad\x9b2J move\x7f\nsecond line\tand tab"
RAW = ("\x1b", "\x07", "\x9b", "\x7f", "\ud800")


def no_raw_controls(text: str) -> None:
    assert not any(char in text for char in RAW), repr(text)
    text.encode("utf-8")  # no lone surrogate left to break the encoding


def test_printable_escapes_controls_and_surrogates_and_keeps_lines():
    assert printable(NAME) == "evil\\x1b]0;pwned\\x07\\x1b[31m\\ud800"
    assert printable(MESSAGE) == "bad\\x9b2J move\\x7f\nsecond line\tand tab"
    assert printable_line("a\nb\tc\rd") == "a\\nb\\tc\\x0dd"
    assert printable("plain, ünïcode ♠") == "plain, ünïcode ♠"


def case_record(**extra) -> dict:
    record = {"id": "c1", "outcome": "failed", "rules": ["R-BEAT-1"], "area": "BEAT"}
    return {**record, "message": MESSAGE, "location": "x.yaml:3", **extra}


def test_the_terminal_summary_and_a_failure_show_engine_text_escaped():
    engine = {"engine": {"name": NAME, "version": "1\x1b[2J"}}
    lines = summary_lines(Tally(), engine, "engine\x07cmd")
    no_raw_controls("\n".join(lines))
    assert "evil\\x1b]0;pwned\\x07" in lines[0]
    record = case_record(diagnostics={"stderr_tail": "Trace\x1b[0m\ud800back\n"})
    text = failure_text(record)
    no_raw_controls(text)
    assert "bad\\x9b2J move" in text and "Trace\\x1b[0m\\ud800back" in text


def write_report(path: Path, case_line: str | None = None) -> Path:
    """A report as the runner writes it (json.dumps: a lone surrogate becomes \\ud800)."""
    records = [
        {"type": "header", "suite": {"name": "durak-conformance"}, "engine": NAME},
        {"type": "engine", "engine": {"name": NAME, "version": "\x1b[5m1"}, "command": NAME},
        {"type": "case", **case_record(ruleset={"name": NAME}, details=MESSAGE)},
        {"type": "summary"},
    ]
    lines = [json.dumps(record, sort_keys=True) for record in records]
    if case_line is not None:
        lines.insert(2, case_line)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_report_holding_a_lone_surrogate_and_escapes_renders(tmp_path, capsys):
    path = write_report(tmp_path / "run.jsonl")
    loaded = load_report(path)
    assert loaded.engine["engine"]["name"] == NAME  # read back as it was sent
    html_page = render_html([loaded], {})
    markdown = render_markdown([loaded])
    for text in (html_page, markdown):
        no_raw_controls(text)
    assert "evil\\x1b]0;pwned\\x07" in html_page
    out = tmp_path / "run.html"
    assert main(["report", str(path), "--html", str(out), "--markdown"]) == 0
    no_raw_controls(out.read_text(encoding="utf-8"))
    no_raw_controls(capsys.readouterr().out)


def test_a_report_line_nested_too_deep_is_an_error_naming_file_and_line(tmp_path, capsys):
    deep = '{"type": "case", "id": "deep", "outcome": "failed", "x": ' + "[" * 100_000
    path = write_report(tmp_path / "deep.jsonl", deep + "]" * 100_000 + "}")
    with pytest.raises(ReportFileError) as info:
        load_report(path)
    assert info.value.line == 3 and "levels deep" in str(info.value)
    with pytest.raises(ValueError, match="levels deep"):
        read_report(path)
    assert main(["report", str(path)]) == 2
    assert f"{path}:3" in capsys.readouterr().err


def test_replay_reports_a_record_nested_too_deep_and_goes_on(tmp_path, capsys):
    good = min(RECORDS_DIR.glob("*.json"))
    shutil.copy(good, tmp_path / "b-good.json")
    (tmp_path / "a-deep.json").write_text("[" * 100_000 + "]" * 100_000)
    args = argparse.Namespace(records=[str(tmp_path)], json=None, verbose=False)
    status = replay.run_cli(InProcessEngine(), args)
    out = capsys.readouterr().out
    assert status == 1, out  # one record broken
    assert "BROKEN" in out and "levels deep" in out
    assert "PASSED" in out and "b-good.json" in out and "2 record(s)" in out
