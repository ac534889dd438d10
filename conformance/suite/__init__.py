"""The cases of the suite and the one runner that judges them.

The suite's data sits in the package beside the code: YAML fixtures, game records and perft
positions. Their folders are named here once, for the runner, the tools and the tests.
"""

from pathlib import Path

#: The ``conformance`` package folder.
PACKAGE_DIR = Path(__file__).resolve().parent.parent
FIXTURES_DIR = PACKAGE_DIR / "fixtures"
RECORDS_DIR = PACKAGE_DIR / "records"
POSITIONS_DIR = PACKAGE_DIR / "perft"
