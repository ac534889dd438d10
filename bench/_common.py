"""What the benchmark scripts share: the checkout on ``sys.path``, the serve command, a request
counter.

The scripts run as ``python bench/<name>.py`` from a checkout (the script's folder is then first on
``sys.path``, which is how they import this module). Importing it puts the checkout's root on
``sys.path`` too, so ``conformance`` and ``reference_impl`` load from the working tree even where
the project is not installed.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from conformance.engines.base import Engine

#: The reference engine behind the process protocol, as a subprocess command line.
SERVE = [sys.executable, "-m", "conformance", "serve"]


class Counting(Engine):
    """Passes every request on to ``inner`` and counts them (``requests``), to print requests/s."""

    def __init__(self, inner: Engine):
        self.inner = inner
        self.requests = 0

    def hello(self):
        self.requests += 1
        return self.inner.hello()

    def new_game(self, *args, **kwargs):
        self.requests += 1
        return self.inner.new_game(*args, **kwargs)

    def legal_moves(self, state):
        self.requests += 1
        return self.inner.legal_moves(state)

    def apply(self, state, move):
        self.requests += 1
        return self.inner.apply(state, move)

    def observe(self, state, player):
        self.requests += 1
        return self.inner.observe(state, player)

    def describe(self) -> str:
        return self.inner.describe()

    def close(self) -> None:
        self.inner.close()
