"""``python -m conformance.tools.traceability``: the coverage table of the suite."""

from conformance.tools.traceability.command import main

raise SystemExit(main())
