#!/usr/bin/env python3
"""An engine that can only play games it keeps: the kit's toy engine (the reference core) with no
``setup`` and no positions remembered, so its hello says ``positions: false`` and every stateless
request on a state is answered ``unsupported``. Only game sessions can play it."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "kit"))

from typing import ClassVar

from toy_engine import Toy

from conformance import kit


class SessionOnly(Toy):
    engine: ClassVar = {"name": "session-only toy", "version": "1"}
    setup = kit.Adapter.setup
    remember = 0


if __name__ == "__main__":
    SessionOnly().serve()
