"""Step definitions for the rulebook features: players' words in, fixture steps out.

Every When and Then sentence compiles into fixture steps (:mod:`conformance.bdd.compiler`) that
the one runner judges (:mod:`conformance.suite.cases`); none of the definitions knows a rule of
Durak or asks an engine itself. What a scenario expects comes from its own text, written from the
rules. The definitions are grouped by what they describe:

- :mod:`conformance.bdd.given`: the game, its options and the position or deal it starts from;
- :mod:`conformance.bdd.moves`: the moves (When) and what may be played (Then);
- :mod:`conformance.bdd.board`: the state: roles, hands, the table and the bout, the talon;
- :mod:`conformance.bdd.ending`: the game's end and result, the teams, the set-up and the deal;
- :mod:`conformance.bdd.sights`: what a player sees.

To bind the features in a test module::

    from conformance.bdd.steps import *  # noqa: F403  (the step fixtures)
    scenarios(str(features_dir()))

The engine comes from the ``durak_engine`` fixture (the runner's plugin, or the fallback in
:mod:`conformance.bdd.plugin`).
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance.bdd.board import *  # the step fixtures, for a star import of this module
from conformance.bdd.context import ScenarioGame
from conformance.bdd.ending import *
from conformance.bdd.given import *
from conformance.bdd.model import item_scenario, options_from_tags, template_of
from conformance.bdd.moves import *
from conformance.bdd.sights import *


def _template(request: pytest.FixtureRequest) -> Any:
    return template_of(getattr(request, "function", None))


def scenario_tags(request: pytest.FixtureRequest) -> set[str]:
    """The tags of the running scenario, its Rule's and its Feature's (never an Examples')."""
    template = _template(request)
    if template is not None:
        tags = set(template.tags) | set(template.feature.tags)
        if template.rule is not None:
            tags |= set(template.rule.tags)
        return tags
    tags = set()
    for mark in request.node.iter_markers("durak_option"):
        tags.add(f"opt:{mark.args[0]}={mark.args[1]}")
    for mark in request.node.iter_markers("durak_rule"):
        tags.add(mark.args[0])
    return tags


@pytest.fixture
def durak_game(request: pytest.FixtureRequest, durak_engine: Any) -> ScenarioGame:
    """The scenario's game on the engine under test, with the options its tags ask for. The
    test item keeps the game, so the report can say what the gate decided and read the
    scenario's case result (``item.durak_game.case_result``)."""
    scenario = item_scenario(request.node)
    tags = dict(scenario.tag_options) if scenario else options_from_tags(scenario_tags(request))
    game = ScenarioGame(durak_engine, tags, scenario=scenario)
    request.node.durak_game = game
    return game
