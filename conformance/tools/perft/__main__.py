"""``python -m conformance.tools.perft``: the suite's positions against the reference engine."""

from conformance.tools.perft.command import main

raise SystemExit(main())
