"""Which scenarios an engine can run: a scenario's ruleset, and whether the engine claims what it
needs.

A scenario names the options it needs as ``@opt:<option>=<value>`` tags (on its Feature, Rule or
Scenario) or sets them in a step (an Examples column of an outline); :mod:`conformance.bdd.model`
reads both. Its ruleset is the preset it names with those options as overrides, resolved from the
spec data. An engine whose ``hello`` does not claim that player count and every resolved option
value skips the scenario as unsupported: it is not a failure (test262's feature flags). Which
claims a scenario needs is decided by :mod:`conformance.suite.applicability` (see
:class:`conformance.bdd.context.ScenarioGame`).
"""

from __future__ import annotations

from typing import Any


def resolve(ruleset_request: dict[str, Any]) -> dict[str, Any]:
    """The full ruleset ``{"name", "options"}`` of a preset plus overrides, from the spec data.

    Raises ``ValueError`` naming the unknown preset, option or value.
    """
    from reference_impl import rulesets

    return rulesets.resolve_ruleset(ruleset_request)


def observe_claimed(hello: dict[str, Any]) -> bool:
    """True when the engine claims ``observe`` (protocol P-16)."""
    return bool((hello.get("supports") or {}).get("observe", False))
