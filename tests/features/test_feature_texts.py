"""The rulebook features are well-formed without any engine: each step matches exactly one step
definition, and every scenario's Given steps build a valid position (conformance.bdd.dryrun)."""

import pytest

from conformance.bdd.dryrun import check_position, check_steps
from conformance.bdd.model import scenarios

SCENARIOS = scenarios()


def test_there_are_scenarios():
    assert len(SCENARIOS) > 50


@pytest.mark.parametrize("rendered", SCENARIOS, ids=lambda r: r.where)
def test_every_step_has_one_definition(rendered):
    assert check_steps(rendered) == []


@pytest.mark.parametrize("rendered", SCENARIOS, ids=lambda r: r.where)
def test_every_position_can_be_built(rendered):
    assert check_position(rendered) == []
