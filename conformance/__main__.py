"""``python -m conformance`` is ``durak-conformance``."""

from conformance.cli import main

raise SystemExit(main())
