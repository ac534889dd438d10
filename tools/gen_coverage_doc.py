"""Generate docs/coverage.md: rule -> cases and option value -> cases, from the suite itself.

The page is rendered by :func:`conformance.tools.traceability.render_markdown` from spec/rules.md, the
option catalog, conformance/fixtures/ and features/, so it always says what the gate counts.
`python tools/gen_coverage_doc.py` rewrites it; `--check` exits 1 when the committed page is out
of date (tests/trace runs the same comparison).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from conformance.tools.traceability import collect, render_markdown

TARGET = Path(__file__).resolve().parent.parent / "docs" / "coverage.md"


def render() -> str:
    """The page as it should be now."""
    return render_markdown(collect())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is out of date")
    args = parser.parse_args(argv)
    text = render()
    current = TARGET.read_text(encoding="utf-8") if TARGET.is_file() else None
    if args.check:
        if current != text:
            print(f"{TARGET} is out of date: run python tools/gen_coverage_doc.py", file=sys.stderr)
            return 1
        return 0
    if current != text:
        TARGET.write_text(text, encoding="utf-8")
        print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
