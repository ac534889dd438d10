"""The project's run of the rulebook features: tag hooks, and the reference engine in process.

The engine is fixed here (not taken from ``--durak-engine``) so that the project's own tests
always check the features against the reference engine.
"""

from collections.abc import Iterator

import pytest

from conformance.bdd.plugin import pytest_bdd_apply_tag, pytest_configure  # noqa: F401 - hooks
from conformance.engines.base import InProcessEngine


@pytest.fixture(scope="session")
def durak_engine() -> Iterator[InProcessEngine]:
    engine = InProcessEngine()
    try:
        yield engine
    finally:
        engine.close()
