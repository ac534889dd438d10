"""Bugs found in real engines, planted one at a time in copies of the reference engine that claim
what a real two-player engine claims (2 players, one 36-card pack, defaults): the suite's cases
at that table must catch each, under the rule it breaks. durakgame's own two bugs are caught by
tests/examples; these are the other three of the issue "Real engines as they are": an attack
larger than the defender's hand, the wrong draw order after a beaten bout, a transfer to a
defender who cannot hold the cards."""

from __future__ import annotations

import importlib
import sys

import pytest

from conformance.engines.gating import Support
from conformance.suite.cases import CaseRunner
from conformance.suite.loader import load_paths
from conformance.tools.identify import FIXTURES
from reference_impl.rulesets import RulesetError, resolve_ruleset

from .helpers import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import mutants

NO_CAPACITY_CHECK = mutants._m(
    "transfer-capacity-unchecked",
    "R-TRANSFER-3",
    "queries.py",
    '    """R-TRANSFER-3: may ``target`` face the attack once ``added`` cards join it?"""\n',
    '    """R-TRANSFER-3: may ``target`` face the attack once ``added`` cards join it?"""\n'
    "    return True  # planted: no capacity check\n",
    "a transfer goes to a new defender whatever he holds",
)
BUGS = {
    "unbeaten-exceeds-hand": ("R-ATTACK-4", {}),
    "draw-order-reversed": ("R-DRAW-2", {}),
    NO_CAPACITY_CHECK.id: ("R-TRANSFER-3", {"transfer": ["on", "off"]}),
}
def _at_the_common_table(case) -> bool:
    try:
        options = resolve_ruleset(case.ruleset)["options"]
    except RulesetError:  # a robustness case whose ruleset must be refused
        return False
    return case.players == 2 and options["deck_size"] == 36


CASES = [case for case in load_paths([FIXTURES])[0] if _at_the_common_table(case)]


def _mutant(mutant_id):
    if mutant_id == NO_CAPACITY_CHECK.id:
        return NO_CAPACITY_CHECK
    return next(m for m in mutants.MUTANTS if m.id == mutant_id)


@pytest.mark.parametrize("mutant_id", sorted(BUGS))
def test_the_common_table_catches_the_bug_under_its_rule(mutant_id, tmp_path, monkeypatch):
    rule, options = BUGS[mutant_id]
    spec = mutants.build(_mutant(mutant_id), tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    module_name, _, factory = spec.removeprefix("python:").partition(":")
    engine = getattr(importlib.import_module(module_name), factory)()
    hello = engine.hello()
    hello["supports"] = {"players": {"36": [2]}, "options": options, "observe": False}
    runner = CaseRunner(engine, Support.from_hello(hello))
    results = {case.id: (case, runner.run(case)) for case in CASES}
    failed = [case for case, result in results.values() if result.outcome == "failed"]
    ran = [case for case, result in results.values() if result.outcome != "unsupported"]
    assert len(ran) >= 20  # the default-valued cases of that table (31 when written)
    assert failed, f"no case at 2 players, 36 cards catches {mutant_id}"
    assert any(rule in case.rules for case in failed), [c.id for c in failed]
