"""pytest hooks for the rulebook features.

- Tags: pytest-bdd turns every Gherkin tag into a pytest marker of the same name, but ``@R-BEAT-1``
  and ``@opt:attack_limit=six`` are not marker names pytest can register (a colon ends a name in
  the ``markers`` ini list), so each would warn. :func:`pytest_bdd_apply_tag` turns them into the
  registered markers ``durak_rule("R-BEAT-1")`` and ``durak_option("attack_limit", "six")``, which
  reports and ``-m durak_rule`` can read.
- ``durak_engine``: if no other plugin provides the engine under test, the in-process reference
  engine, one per session.

Load with ``-p conformance.bdd.plugin``, or import these names into a ``conftest.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from conformance.bdd.support import OPT_TAG, RULE_TAG


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "durak_rule(rule_id): the rule a rulebook scenario shows")
    config.addinivalue_line(
        "markers", "durak_option(name, value): an option a rulebook scenario needs"
    )


def pytest_bdd_apply_tag(tag: str, function: Any) -> Any:
    """Rule and option tags become ``durak_rule``/``durak_option`` markers; others as usual."""
    m = OPT_TAG.match(tag)
    if m:
        pytest.mark.durak_option(m.group("name"), m.group("value"))(function)
        return True
    if RULE_TAG.match(tag):
        pytest.mark.durak_rule(tag)(function)
        return True
    return None


def _reference_engine() -> Any:
    from conformance.engine import InProcessEngine

    return InProcessEngine()


@pytest.fixture(scope="session")
def durak_engine() -> Iterator[Any]:
    """The engine under test when no runner plugin chooses one: the reference engine."""
    engine = _reference_engine()
    try:
        yield engine
    finally:
        engine.close()
