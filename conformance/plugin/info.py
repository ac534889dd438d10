"""What a durak item is: its ID, kind, rules, areas, options, ruleset and location.

Selection (``--durak-area``, ``--durak-rule``, ``--durak-ruleset``, ``--durak-case``) and the
reports read every form of case through :func:`case_info`, so a record or a perft position is
selected exactly like a fixture. A case item carries its :class:`~conformance.suite.loader.Case`;
a Gherkin scenario is read from its markers (the ``@R-...`` and ``@opt:`` tags, made markers by
:mod:`conformance.bdd.plugin`) and its pytest-bdd template. Any other test gives None and is never
touched.
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path
from typing import Any

import pytest

from conformance.plugin.items import BrokenItem, CaseItem, relative
from conformance.plugin.session import listed
from conformance.suite.loader import rule_area, rule_areas

_RULE_TAG = re.compile(r"^R-[A-Z]+-[0-9]+$")
_OPT_TAG = re.compile(r"^opt:([a-z_0-9]+)=([A-Za-z0-9_]+)$")


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


def scenario_template(item: pytest.Item) -> Any:
    """pytest-bdd's template of a scenario item (its steps, feature and line), or None."""
    try:
        from pytest_bdd.scenario import scenario_wrapper_template_registry
    except ImportError:  # pragma: no cover - another pytest-bdd layout
        return None
    function = getattr(item, "function", None)
    try:
        return scenario_wrapper_template_registry.get(function)
    except TypeError:
        return None


def _preset_names() -> list[str]:
    try:
        from reference_impl.rulesets import preset_names

        return preset_names()
    except Exception:  # noqa: BLE001 - spec data missing: no ruleset selection for scenarios
        return ["podkidnoy"]


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


def _tagged(item: pytest.Item) -> tuple[list[str], dict[str, str]]:
    """The rule IDs (in register order) and option values an item's markers name."""
    rules: list[str] = []
    options: dict[str, str] = {}
    for mark in item.iter_markers():
        # conformance.bdd turns @R-... and @opt:k=v tags into durak_rule/durak_option markers;
        # pytest-bdd's default keeps the tag text as the marker name. Both are read.
        if mark.name == "durak_rule" and mark.args:
            rules.append(str(mark.args[0]))
        elif mark.name == "durak_option" and len(mark.args) > 1:
            options.setdefault(str(mark.args[0]), str(mark.args[1]))
        elif _RULE_TAG.match(mark.name):
            rules.append(mark.name)
        elif (found := _OPT_TAG.match(mark.name)) is not None:
            options.setdefault(found.group(1), found.group(2))
    return list(dict.fromkeys(sorted(rules, key=_rule_order))), options


def scenario_info(item: pytest.Item) -> dict[str, Any] | None:
    """:func:`case_info` of a Gherkin scenario: a test with rule markers or a pytest-bdd
    template. Its ruleset is the first preset its steps name (default ``podkidnoy``)."""
    rules, options = _tagged(item)
    template = scenario_template(item)
    if not rules and template is None:
        return None
    ruleset = "podkidnoy"
    if template is not None:
        text = " ".join(step.name for step in getattr(template, "steps", []))
        for name in _preset_names():
            if re.search(rf"\b{re.escape(name)}\b", text):
                ruleset = name
                break
    feature = getattr(template, "feature", None)
    if feature is not None and getattr(feature, "filename", None):
        location = f"{relative(Path(feature.filename))}:{getattr(template, 'line_number', 0)}"
    else:
        path, line, _ = item.reportinfo()
        location = f"{relative(Path(path))}:{(line or 0) + 1}"
    ids = [m.args[0] for m in item.iter_markers("durak_case") if m.args]
    return {
        "id": ids[0] if ids else item.name,
        "kind": "scenario",
        "rules": rules,
        "area": rule_area(rules[0]) if rules else "?",
        "areas": list(rule_areas(rules)),
        "options": options,
        "ruleset": ruleset,
        "location": location,
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
