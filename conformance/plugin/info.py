"""What a durak item is: its ID, kind, rules, areas, options, ruleset and location.

Selection (``--durak-area``, ``--durak-rule``, ``--durak-ruleset``, ``--durak-case``) and the
reports read every form of case through :func:`case_info`, so a record or a perft position is
selected exactly like a fixture. A case item carries its :class:`~conformance.suite.loader.Case`;
a Gherkin scenario is read by the one Gherkin model (:mod:`conformance.bdd.model`), from the
pytest-bdd template of its item. Any other test gives None and is never touched.
"""

from __future__ import annotations

import fnmatch
from typing import Any

import pytest

from conformance.plugin.items import BrokenItem, CaseItem, relative
from conformance.plugin.session import listed
from conformance.suite.loader import rule_area, rule_areas


def preset_of(ruleset: Any) -> str:
    """The preset a ruleset request names (any ``new_game`` form: a record may give a full
    options object, which names no preset: then its ``name``, or ``custom``)."""
    if isinstance(ruleset, str):
        return ruleset
    if isinstance(ruleset, dict):
        return str(ruleset.get("preset") or ruleset.get("name") or "custom")
    return "custom"


def _rule_order(rule: str) -> tuple:
    area, _, number = rule.rpartition("-")
    return (area, int(number) if number.isdigit() else 0)


def case_info(item: pytest.Item) -> dict[str, Any] | None:
    """``id``, ``kind``, ``rules``, ``area``, ``areas``, ``options``, ``ruleset``, ``location``
    of a durak item; None for any other test (the project's own tests are never touched)."""
    if isinstance(item, CaseItem):
        case = item.case
        return {
            "id": case.id,
            "kind": item.kind,
            "rules": list(case.rules),
            "area": case.area,
            "areas": list(case.areas),
            "options": dict(case.options),
            "ruleset": preset_of(case.ruleset),
            "location": f"{relative(case.path)}:{case.line}",
        }
    if isinstance(item, BrokenItem):
        return {
            "id": item.problem.name,
            "kind": item.kind,
            "rules": [],
            "area": "?",
            "areas": [],
            "options": {},
            "ruleset": None,
            "location": str(item.problem),
        }
    return scenario_info(item)


def scenario_info(item: pytest.Item) -> dict[str, Any] | None:
    """:func:`case_info` of a Gherkin scenario, read by the one Gherkin model
    (:mod:`conformance.bdd.model`): its case ID, its tags' rules, its options (tags', then
    steps'), the preset of its ``a N-player <preset> game`` step (default ``podkidnoy``)."""
    from conformance.bdd.model import item_scenario

    scenario = item_scenario(item)
    if scenario is None:
        return None
    rules = sorted(scenario.rules, key=_rule_order)
    return {
        "id": scenario.case_id,
        "kind": "scenario",
        "rules": rules,
        "area": rule_area(rules[0]) if rules else "?",
        "areas": list(rule_areas(rules)),
        "options": scenario.options,
        "ruleset": scenario.game.preset if scenario.game is not None else "podkidnoy",
        "location": f"{relative(scenario.path)}:{scenario.line}",
    }


def select(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep the durak items the selection options match (every other test stays)."""
    areas = {a.upper() for a in listed(config, "durak_area")}
    rules = set(listed(config, "durak_rule"))
    rulesets = set(listed(config, "durak_ruleset"))
    cases = listed(config, "durak_case")
    if not (areas or rules or rulesets or cases):
        return

    def wanted(info: dict[str, Any]) -> bool:
        return (
            (not areas or bool(areas & set(info["areas"])))
            and (not rules or bool(rules & set(info["rules"])))
            and (not rulesets or info["ruleset"] in rulesets)
            and (not cases or any(fnmatch.fnmatchcase(info["id"], p) for p in cases))
        )

    keep, drop = [], []
    for item in items:
        info = case_info(item)
        (keep if info is None or wanted(info) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
