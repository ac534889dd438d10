"""`run --junitxml` writes JUnit XML the strict JUnit schema accepts (issue 14): the elements and
attributes below are the schema's (the junit-10 XSD that Jenkins' xUnit plugin validates
against: no ``<properties>`` inside ``<testcase>``), every form of case carries its rule IDs, and
the engine is named. Real runs: the reference engine and the wrong test engine."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from conformance.reports.junit import junit_tree

from .shared_runs import shared_run

#: What the strict schema allows: element -> (attributes, children).
STRICT = {
    "testsuites": ({"name", "time", "tests", "failures", "errors", "disabled"}, {"testsuite"}),
    "testsuite": (
        {
            "name",
            "tests",
            "failures",
            "errors",
            "skipped",
            "time",
            "timestamp",
            "hostname",
            "id",
            "package",
            "disabled",
        },
        {"properties", "testcase", "system-out", "system-err"},
    ),
    "properties": (set(), {"property"}),
    "property": ({"name", "value"}, set()),
    "testcase": (
        {"name", "classname", "time", "assertions", "status"},
        {"skipped", "error", "failure", "system-out", "system-err"},
    ),
    "skipped": ({"message"}, set()),
    "error": ({"message", "type"}, set()),
    "failure": ({"message", "type"}, set()),
    "system-out": (set(), set()),
    "system-err": (set(), set()),
}


def strict_problems(root) -> list[str]:
    problems = []
    for element in root.iter():
        allowed, children = STRICT.get(element.tag, (None, None))
        if allowed is None:
            problems.append(f"<{element.tag}> is not in the schema")
            continue
        problems += [f"<{element.tag} {a}>" for a in set(element.attrib) - allowed]
        problems += [f"<{c.tag}> in <{element.tag}>" for c in element if c.tag not in children]
    return problems


@pytest.mark.slow
def test_a_run_writes_strict_junit_with_rules_for_every_form(tmp_path_factory):
    run = shared_run("wrong", tmp_path_factory)
    assert run.status == 1
    junit = run.junit
    root = ET.parse(junit).getroot()
    assert strict_problems(root) == []
    (suite,) = root
    assert "durak-conformance reference engine" in suite.get("name")
    names = {p.get("name") for p in suite.iter("property")}
    assert {"engine.command", "engine.name"} <= names
    cases = list(suite.iter("testcase"))
    assert int(suite.get("tests")) == len(cases) > 20
    kinds = {case.get("classname").split(".")[1] for case in cases}
    assert {"fixture", "scenario"} <= kinds
    assert all("rules: R-" in case.find("system-out").text for case in cases)
    failures = [case for case in cases if case.find("failure") is not None]
    assert int(suite.get("failures")) == len(failures) > 0
    assert all("\ncause: " in case.find("system-out").text for case in failures)
    assert all(case.find("failure").text.startswith("case ") for case in failures)


def test_engine_text_that_xml_cannot_carry_is_escaped():
    record = {
        "id": "x",
        "kind": "fixture",
        "area": "BEAT",
        "outcome": "failed",
        "rules": [],
        "message": "bad \x1b[31m\ud800 answer",
    }
    root = junit_tree([record], {"engine": {"name": "evil\x07"}}, "cmd")
    text = ET.tostring(root, encoding="unicode")
    assert "\x1b" not in text and "\x07" not in text and "\\x1b" in text
    ET.fromstring(text)  # well-formed
