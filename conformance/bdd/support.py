"""Which scenarios an engine can run: the options a scenario needs against the engine's hello.

A scenario names the options it needs as ``@opt:<option>=<value>`` tags (on its Feature, Rule or
Scenario) or sets them in a step (an Examples column of an outline). Its ruleset is the preset it
names with those options as overrides, resolved from the spec data. An engine whose ``hello`` does
not claim that player count and every resolved option value skips the scenario as unsupported: it
is not a failure (test262's feature flags). Which claims a scenario needs is decided by
:mod:`conformance.suite.applicability` (see :class:`conformance.bdd.context.ScenarioGame`).
"""

from __future__ import annotations

import re
from typing import Any

OPT_TAG = re.compile(r"^opt:(?P<name>[a-z_0-9]+)=(?P<value>[A-Za-z0-9_]+)$")
RULE_TAG = re.compile(r"^R-[A-Z]+-\d+$")
AREA_TAG = re.compile(r"^[A-Z]+$")


def options_from_tags(tags: set[str] | list[str]) -> dict[str, str]:
    """``{"attack_limit": "six"}`` from ``@opt:attack_limit=six``; two values for one option clash."""
    out: dict[str, str] = {}
    for tag in sorted(tags):
        m = OPT_TAG.match(tag)
        if not m:
            continue
        name, value = m.group("name"), m.group("value")
        if name in out and out[name] != value:
            raise ValueError(f"tags ask for two values of option {name}: {out[name]} and {value}")
        out[name] = value
    return out


def resolve(ruleset_request: dict[str, Any]) -> dict[str, Any]:
    """The full ruleset ``{"name", "options"}`` of a preset plus overrides, from the spec data.

    Raises ``ValueError`` naming the unknown preset, option or value.
    """
    from reference_impl import rulesets

    return rulesets.resolve_ruleset(ruleset_request)


def observe_claimed(hello: dict[str, Any]) -> bool:
    """True when the engine claims ``observe`` (protocol P-16)."""
    return bool((hello.get("supports") or {}).get("observe", False))
