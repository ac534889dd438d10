"""The fixture author's checker, run from a checkout: ``python tools/check_fixtures.py check``.

The checks and aids live in :mod:`conformance.tools.fixture_check`; see its ``cli`` for the
commands (``check``, ``shuffle``, ``rest``, ``deal``, ``build``).
"""

import sys

from conformance.tools.fixture_check.cli import main

if __name__ == "__main__":
    sys.exit(main())
