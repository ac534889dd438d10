"""Shared pieces of the traceability tests: the suite's coverage, computed once per session, and
the coverage table printed in the terminal summary so every CI log shows it (no ``-s`` needed)."""

from __future__ import annotations

import pytest

from conformance.tools.traceability import Coverage, collect, render_text

_COVERAGE = pytest.StashKey[Coverage]()


@pytest.fixture(scope="session")
def coverage(request: pytest.FixtureRequest) -> Coverage:
    """The coverage of the packaged fixtures and features against the spec."""
    result = collect()
    request.config.stash[_COVERAGE] = result
    return result


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    result = config.stash.get(_COVERAGE, None)
    if result is None:
        return
    terminalreporter.section("traceability: rule -> cases, option value -> cases")
    terminalreporter.write(render_text(result))
