"""docs/coverage.md is what tools/gen_coverage_doc.py renders from the suite as it is now."""

from __future__ import annotations

from pathlib import Path

from conformance.tools.traceability import Coverage, render_markdown

PAGE = Path(__file__).resolve().parents[2] / "docs" / "coverage.md"


def test_coverage_page_is_current(coverage: Coverage) -> None:
    assert PAGE.is_file(), f"{PAGE} is missing: run python tools/gen_coverage_doc.py"
    committed = PAGE.read_text(encoding="utf-8")
    assert committed == render_markdown(coverage), (
        "docs/coverage.md is stale (the spec, a fixture or a feature changed since it was "
        "generated): run python tools/gen_coverage_doc.py and commit it"
    )
