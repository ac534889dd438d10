"""Two more ways to choose cases: Cucumber tag expressions, and the smoke list.

- ``--durak-tags EXPR`` keeps the cases whose tags satisfy a Cucumber tag expression, in the
  standard syntax (``and``, ``or``, ``not``, parentheses), parsed and evaluated by the
  ``cucumber-tag-expressions`` library. Every form of case carries tags the way the features
  write them: ``@R-BEAT-1`` for each rule it cites, ``@BEAT`` for each rule area, and
  ``@opt:<option>=<value>`` for each option value it asks for (a scenario also keeps the tags
  written on it). Repeated, the expressions must all hold. A tag outside that grammar is a usage
  error, not a silent empty (or, under ``not``, full) selection.
- ``--durak-smoke`` keeps the cases of the smoke list (``conformance/smoke.yaml``, see
  :mod:`conformance.suite.smoke`): about twenty cases for a new engine's first minute.

Both narrow what the selection options of :mod:`conformance.plugin.info` keep; any other test is
never touched. Kept apart from :mod:`conformance.plugin.items` and ``info``: one job.
"""

from __future__ import annotations

from typing import Any

import pytest

TAGS = pytest.StashKey[list]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("durak")
    group.addoption(
        "--durak-tags",
        action="append",
        default=[],
        metavar="EXPR",
        help="only cases whose tags satisfy this Cucumber tag expression, e.g. "
        "'@R-BEAT-1 and not @opt:opening=single' (repeat: all must hold)",
    )
    group.addoption(
        "--durak-smoke",
        action="store_true",
        help="only the smoke list: about 20 cases for a new engine's first minute",
    )


def parse_expression(text: str) -> Any:
    """The parsed tag expression, or a usage error saying what is wrong with it."""
    from cucumber_tag_expressions import TagExpressionError, parse

    try:
        expression = parse(text)
    except TagExpressionError as exc:
        raise pytest.UsageError(f"tag expression {text!r}: {exc}") from None
    for name in literals(expression):
        problem = tag_problem(name)
        if problem:
            raise pytest.UsageError(f"tag expression {text!r}: {problem}")
    return expression


def literals(expression: Any) -> list[str]:
    """The tag names an expression tests, in order."""
    from cucumber_tag_expressions.model import And, Literal, Not, Or

    if isinstance(expression, Literal):
        return [expression.name]
    if isinstance(expression, Not):
        return literals(expression.term)
    if isinstance(expression, (And, Or)):
        return [name for term in expression.terms for name in literals(term)]
    return []


def tag_problem(name: str) -> str:
    """Why ``name`` can match no case ('' when it can): tags are written as the features write
    them (:func:`conformance.bdd.model.read_tag`)."""
    from conformance.bdd.model import GherkinError, read_tag

    if not name.startswith("@"):
        return f"tag {name!r} needs its '@' (e.g. @{name})"
    try:
        read_tag(name[1:])
    except GherkinError as exc:
        if "=" in name and not name.startswith("@opt:"):
            return f"{exc}; an option value is written @opt:{name[1:]}"
        return str(exc)
    return ""


def case_tags(item: pytest.Item, info: dict[str, Any]) -> set[str]:
    """The tags of a case: its rules, its rule areas, its option values (and, for a scenario,
    the tags written on it), each with its ``@``."""
    tags = {f"@{rule}" for rule in info["rules"]}
    tags |= {f"@{area}" for area in info["areas"]}
    tags |= {f"@opt:{name}={value}" for name, value in info["options"].items()}
    if info["kind"] == "scenario":
        from conformance.bdd.model import item_scenario

        scenario = item_scenario(item)
        if scenario is not None:
            tags |= {f"@{tag}" for tag in scenario.tags}
    return tags


def pytest_configure(config: pytest.Config) -> None:
    config.stash[TAGS] = [parse_expression(text) for text in config.getoption("durak_tags") or []]


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    expressions = config.stash.get(TAGS, [])
    smoke: set[str] | None = None
    if config.getoption("durak_smoke"):
        from conformance.suite.smoke import SmokeListError, smoke_ids

        try:
            smoke = set(smoke_ids())
        except SmokeListError as exc:
            raise pytest.UsageError(str(exc)) from None
    if not expressions and smoke is None:
        return
    keep, drop = split(items, expressions, smoke)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def split(
    items: list[pytest.Item], expressions: list[Any], smoke: set[str] | None = None
) -> tuple[list[pytest.Item], list[pytest.Item]]:
    """``(kept, dropped)``: the durak items whose tags satisfy every expression (and whose ID is
    in ``smoke`` when given) are kept, and so is every other test."""
    from conformance.plugin.info import case_info

    def wanted(item: pytest.Item, info: dict[str, Any]) -> bool:
        if smoke is not None and info["id"] not in smoke:
            return False
        tags = case_tags(item, info) if expressions else set()
        return all(expression.evaluate(tags) for expression in expressions)

    keep, drop = [], []
    for item in items:
        info = case_info(item)
        (keep if info is None or wanted(item, info) else drop).append(item)
    return keep, drop
