"""The example adapter printed in docs/implementers-guide.md really works: it is cut out of the
page and run against the runner's small suite."""

from __future__ import annotations

import re
import sys

from conformance.cli import main
from conformance.reports.report import read_report

from .helpers import DATA, ROOT

GUIDE = ROOT / "docs" / "implementers-guide.md"


def _adapter_source() -> str:
    text = GUIDE.read_text(encoding="utf-8")
    block = re.search(
        r"<!-- example-adapter:begin -->\s*```python\n(.*?)```\s*<!-- example-adapter:end -->",
        text,
        re.DOTALL,
    )
    assert block, "the guide lost its example adapter block"
    return block.group(1)


def test_example_adapter_passes_what_it_claims(tmp_path):
    adapter = tmp_path / "adapter.py"
    adapter.write_text(_adapter_source(), encoding="utf-8")
    report = tmp_path / "report.jsonl"
    status = main(
        [
            "run",
            "--engine",
            f"{sys.executable} {adapter}",
            "--no-features",
            "--no-fixtures",
            "--fixtures",
            str(DATA / "suite"),
            "--json",
            str(report),
            "--timeout",
            "20",
        ]
    )
    outcomes = {c["id"]: c["outcome"] for c in read_report(report)["cases"]}
    assert status == 3  # one of three cases ran: an incomplete run, never a plain pass
    assert outcomes == {
        "runner-beat-trump-over-plain": "unsupported",  # a 24-card pack: not claimed
        "runner-deal-unshuffled-two-players": "passed",
        "runner-transfer-to-next-player": "unsupported",  # transfer=on: not claimed
    }
