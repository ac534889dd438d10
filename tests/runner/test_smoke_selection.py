"""``run --smoke``: the smoke list (conformance/suite/smoke.yaml) names about twenty cases of the
suite, each with why it is there, and runs exactly those."""

from __future__ import annotations

import pytest

from conformance.cli import main
from conformance.reports.report import read_report
from conformance.suite.smoke import SmokeListError, load_smoke, smoke_ids


def test_the_list_is_about_twenty_cases_each_with_a_reason():
    cases = load_smoke()
    assert 15 <= len(cases) <= 25
    assert all(len(case.why.split()) >= 4 for case in cases)
    presets = ("podkidnoy", "perevodnoy", "pagat", "seeds", "teams-2v2", "two-decks")
    assert all(any(p in case.id for case in cases) for p in presets)


def test_run_smoke_runs_every_listed_case_and_only_those(tmp_path):
    """Every ID of the list names a case of the suite (a typo would be missing from the run),
    and the reference engine passes them all."""
    report = tmp_path / "smoke.jsonl"
    assert main(["run", "--smoke", "--json", str(report)]) == 0
    ran = [case["id"] for case in read_report(report)["cases"]]
    assert sorted(ran) == sorted(smoke_ids())
    assert all(case["outcome"] == "passed" for case in read_report(report)["cases"])


def test_smoke_narrows_the_other_selectors(tmp_path):
    report = tmp_path / "smoke-beat.jsonl"
    assert main(["run", "--smoke", "--area", "BEAT", "--no-features", "--json", str(report)]) == 0
    ran = {case["id"] for case in read_report(report)["cases"]}
    assert ran and ran < set(smoke_ids())
    assert "beat-trump-six-beats-non-trump-ace" in ran


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("cases: []\n", "write 'cases:' as a list"),
        ("cases:\n  - id: x\n", "entry 1: write exactly 'id: <case ID>' and 'why: <reason>'"),
        ("cases:\n  - {id: x, why: y}\n  - {id: x, why: z}\n", "entry 2: x is listed twice"),
        ("cases:\n  - {id: '', why: y}\n", "non-empty"),
        ("cases: [\n", "cannot read the smoke list"),
    ],
)
def test_a_broken_list_says_where(tmp_path, text, said):
    path = tmp_path / "smoke.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SmokeListError) as raised:
        load_smoke(path)
    assert str(path) in str(raised.value) and said in str(raised.value)

