"""The engine of last resort for the rulebook features: the in-process reference engine.

Registered by :mod:`conformance.bdd.plugin` only when the runner's plugin (which chooses the
engine with ``--durak-engine``) is not loaded, so the two never both define ``durak_engine``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def durak_engine() -> Iterator[Any]:
    """The in-process reference engine, one per session."""
    from conformance.engines.base import InProcessEngine

    engine = InProcessEngine()
    try:
        yield engine
    finally:
        engine.close()
