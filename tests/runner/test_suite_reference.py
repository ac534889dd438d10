"""The whole packaged suite (YAML fixtures and Gherkin scenarios) against the reference engine,
in process and through `durak-conformance serve`: the two paths must agree case by case, and the
reference engine must pass every case it claims."""

from __future__ import annotations

import sys

import pytest

from conformance.cli import main
from conformance.reports.report import read_report

from .shared_runs import shared_run


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    reference = shared_run("reference", tmp_path_factory)
    path = tmp_path_factory.mktemp("suite") / "serve.jsonl"
    status = main(["run", "--json", str(path), "--engine", f"{sys.executable} -m conformance serve"])
    return {
        "inprocess": (reference.status, read_report(reference.report)),
        "serve": (status, read_report(path)),
    }


def _judged(report):
    return {c["id"]: (c["outcome"], c.get("signature")) for c in report["cases"]}


@pytest.mark.slow
def test_process_path_gives_the_same_results(reports):
    _, inprocess = reports["inprocess"]
    _, served = reports["serve"]
    assert inprocess["cases"], "the suite is empty"
    assert _judged(served) == _judged(inprocess)
    assert served["engine"]["engine"] == inprocess["engine"]["engine"]


@pytest.mark.slow
def test_reference_engine_passes_the_whole_suite(reports):
    status, report = reports["inprocess"]
    failing = {
        c["id"]: c.get("message") for c in report["cases"] if c["outcome"] not in ("passed",)
    }
    assert failing == {}
    assert status == 0
