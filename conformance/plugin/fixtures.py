"""The pytest fixtures the plugin gives Gherkin step definitions (and any test of an engine).

Step definitions reach the engine under test only through these, so a scenario plays on the
engine ``--durak-engine`` chose, started and greeted once per session, and skips as unsupported
what its ``hello`` does not claim.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance.engines.base import Engine
from conformance.engines.gating import Support
from conformance.plugin.session import durak_session


@pytest.fixture
def durak_engine(pytestconfig: pytest.Config) -> Engine:
    """The engine under test (``--durak-engine``), started and greeted once per session; asked
    for by each test, so a test is not run once the engine is unusable or given up."""
    return durak_session(pytestconfig).get_engine()


@pytest.fixture
def durak_hello(pytestconfig: pytest.Config, durak_engine: Engine) -> dict[str, Any]:
    """The engine's ``hello`` answer."""
    return durak_session(pytestconfig).hello or {}


@pytest.fixture
def durak_support(pytestconfig: pytest.Config, durak_engine: Engine) -> Support:
    """What the engine claims (:class:`~conformance.engines.gating.Support`)."""
    support = durak_session(pytestconfig).support
    assert support is not None
    return support


@pytest.fixture
def durak_require(pytestconfig: pytest.Config, durak_engine: Engine):
    """``durak_require(ruleset, players)`` skips the test as unsupported unless the engine's
    hello claims that ruleset (any fixture form) with that many players; returns the resolved
    ruleset ``{"name", "options"}``."""

    def require(ruleset: Any, players: int) -> dict[str, Any]:
        session = durak_session(pytestconfig)
        from reference_impl import rulesets

        resolved = rulesets.resolve_ruleset(ruleset)
        assert session.support is not None
        reason = session.support.unsupported(
            resolved["options"], players, rulesets.default_options()
        )
        if reason:
            pytest.skip(f"unsupported: not claimed in hello: {reason}")
        return resolved

    return require
