"""``run --tags EXPR``: Cucumber tag expressions select scenarios and fixtures alike, by the tags
the features write (``@R-BEAT-1``, ``@BEAT``, ``@opt:opening=single``); a tag outside that grammar
or a malformed expression is a usage error, never a silent selection."""

from __future__ import annotations

import pytest

from conformance.cli import build_parser, main, pytest_arguments
from conformance.plugin.info import case_info
from conformance.plugin.selection import case_tags, literals, parse_expression, split, tag_problem
from conformance.reports.report import read_report


class _Collected:
    """A pytest plugin keeping the items of a collection."""

    def __init__(self):
        self.items: list[pytest.Item] = []

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.items = list(session.items)


@pytest.fixture(scope="module")
def suite_items() -> list[pytest.Item]:
    """Every case of the suite (fixtures, records, perft positions, scenarios), collected once."""
    argv = pytest_arguments(build_parser().parse_args(["run"]))
    assert isinstance(argv, list)
    collected = _Collected()
    assert pytest.main([*argv, "--collect-only"], plugins=[collected]) == 0
    return collected.items


def _kept_ids(items, *texts: str) -> set[str]:
    keep, _ = split(items, [parse_expression(t) for t in texts])
    return {case_info(item)["id"] for item in keep}


def test_rule_and_not_option_picks_scenarios_and_fixtures(suite_items):
    kept = _kept_ids(suite_items, "@R-BEAT-1 and not @opt:opening=single")
    infos = {case_info(i)["id"]: case_info(i) for i in suite_items}
    want = {
        case_id
        for case_id, info in infos.items()
        if "R-BEAT-1" in info["rules"] and info["options"].get("opening") != "single"
    }
    assert kept == want
    kinds = {infos[case_id]["kind"] for case_id in kept}
    assert {"fixture", "scenario"} <= kinds
    # a case asking for opening=single and citing R-BEAT-1 exists, and is left out
    assert any(
        "R-BEAT-1" in i["rules"] and i["options"].get("opening") == "single" for i in infos.values()
    )


def test_or_and_parentheses(suite_items):
    kept = _kept_ids(suite_items, "(@R-TAKE-1 or @R-TAKE-2) and @opt:pile_on=forbidden")
    infos = [case_info(i) for i in suite_items]
    want = {
        i["id"]
        for i in infos
        if {"R-TAKE-1", "R-TAKE-2"} & set(i["rules"]) and i["options"].get("pile_on") == "forbidden"
    }
    assert kept == want and len(want) >= 2
    # repeated expressions must all hold
    assert _kept_ids(suite_items, "@R-TAKE-1 or @R-TAKE-2", "@opt:pile_on=forbidden") == want


def test_areas_and_the_tags_written_on_a_scenario(suite_items):
    scenario = next(i for i in suite_items if case_info(i)["kind"] == "scenario")
    tags = case_tags(scenario, case_info(scenario))
    assert {f"@{r}" for r in case_info(scenario)["rules"]} <= tags
    assert {f"@{a}" for a in case_info(scenario)["areas"]} <= tags
    kept = _kept_ids(suite_items, "@TRANSFER and not @R-TRANSFER-3")
    chosen = [case_info(i) for i in suite_items if case_info(i)["id"] in kept]
    assert chosen and all("TRANSFER" in i["areas"] for i in chosen)
    assert not any("R-TRANSFER-3" in i["rules"] for i in chosen)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("@opening=single", "an option value is written @opt:opening=single"),
        ("R-BEAT-1", "needs its '@'"),
        ("@R-BEAT", "is not @R-<AREA>-<number>"),
        ("@opt:opening", "is not @opt:<option>=<value>"),
        ("@R-BEAT-1 and (", "open"),
        ("@R-BEAT-1 and", ""),
    ],
)
def test_bad_expressions_are_usage_errors(text, said):
    with pytest.raises(pytest.UsageError) as raised:
        parse_expression(text)
    assert text in str(raised.value) and said in str(raised.value)


def test_literals_and_good_tags():
    expression = parse_expression("not (@R-BEAT-1 or @BEAT) and @opt:decks=2")
    assert literals(expression) == ["@R-BEAT-1", "@BEAT", "@opt:decks=2"]
    assert tag_problem("@opt:teams=2v2") == tag_problem("@TEAM") == ""


def test_run_tags_end_to_end(tmp_path, capsys):
    report = tmp_path / "tags.jsonl"
    status = main(
        ["run", "--no-features", "--tags", "@R-BEAT-4 and not @opt:beat_order=any", "--json",
         str(report)]
    )
    assert status == 0
    cases = read_report(report)["cases"]
    assert cases and all("R-BEAT-4" in c["rules"] for c in cases)
    assert "beat-order-earliest-first" in {c["id"] for c in cases}
    assert "beat-order-any" not in {c["id"] for c in cases}
    assert main(["run", "--no-features", "--tags", "@beat_order=any"]) == 2
    assert "@opt:beat_order=any" in capsys.readouterr().err
