"""``durak-conformance coverage`` (and ``python -m conformance.tools.traceability``): print the
coverage table, exit 1 when the gate would fail."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from conformance.tools.traceability.coverage import collect
from conformance.tools.traceability.render import render_markdown, render_text


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--markdown", action="store_true", help="print docs/coverage.md instead")
    parser.add_argument(
        "--fixtures", action="append", metavar="DIR", help="fixture directory (default: packaged)"
    )
    parser.add_argument(
        "--features", action="append", metavar="DIR", help="feature directory (default: packaged)"
    )


def run_cli(args: argparse.Namespace) -> int:
    """Print the coverage table; exit 1 when the gate would fail, 2 when the spec is missing."""
    try:
        coverage = collect(args.fixtures, args.features)
    except (OSError, ValueError) as exc:
        print(f"durak-conformance coverage: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(render_markdown(coverage) if args.markdown else render_text(coverage))
    return 0 if coverage.ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.tools.traceability",
        description="Rule -> cases and option value -> cases coverage of the suite.",
    )
    add_cli_arguments(parser)
    return run_cli(parser.parse_args(argv))
