"""``--durak-progress``: a progress bar over a long run's cases, on standard error.

``durak-conformance run`` asks for it when standard error is a terminal and standard output is
not (the report goes to a file or a pipe, so pytest's own progress is not on the screen); a run
of fewer than :data:`LONG_RUN` cases gets none. The bar (:class:`conformance.tools.progress.Bar`)
is drawn with pytest's capture suspended, counts each case as its teardown is reported (under
pytest-xdist too: the controller sees every worker's reports), and is erased at the end, so what
the run prints is unchanged.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from conformance.tools.progress import Bar

#: a run of at least this many cases is long enough for a bar
LONG_RUN = 100



def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("durak").addoption(
        "--durak-progress",
        action="store_true",
        help=f"a progress bar over the cases on stderr (runs of {LONG_RUN} cases or more)",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("durak_progress", False) and not hasattr(config, "workerinput"):
        config.pluginmanager.register(CaseBar(config), "durak-conformance-progress")


class CaseBar:
    """The bar of one run (the controller's, under pytest-xdist), as a plugin of its config."""

    def __init__(self, config: pytest.Config):
        self.config = config
        self.bar: Bar | None = None
        self.started = False

    def _uncaptured(self):
        capture = self.config.pluginmanager.getplugin("capturemanager")
        return capture.global_and_fixture_disabled() if capture else contextlib.nullcontext()

    def _start(self, total: int) -> None:
        if self.started:
            return
        self.started = True
        if total >= LONG_RUN:
            with self._uncaptured():
                self.bar = Bar(total, "cases", unit="case", shown=True)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if session.items:  # serially; under pytest-xdist the controller collects nothing
            self._start(len(session.items))

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self._start(len(ids))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.bar is not None and report.when == "teardown":
            with self._uncaptured():
                self.bar.update()

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if self.bar is not None:
            with self._uncaptured():
                self.bar.close()
            self.bar = None
