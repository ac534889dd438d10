"""pytest plugin of durak-conformance (registered through the ``pytest11`` entry point).

It turns YAML fixture files, game records and perft positions into pytest items, runs them (and
the Gherkin scenarios of ``conformance.bdd``) against the engine chosen with ``--durak-engine``,
gates cases on the engine's ``hello``, applies an expected-failure list, and writes the reports.
pytest gives the rest: ``-k``, ``-x``, ``-n`` (pytest-xdist).

The plugin is inert unless asked: files are collected only under their roots (the packaged
``conformance/fixtures``, ``conformance/records`` and ``conformance/perft``, or folders given with
``--durak-fixtures``, ``--durak-records``, ``--durak-perft``), no engine is started until a test
needs one, and without durak items it adds nothing to the terminal. So the project's own
``pytest`` run is neither slowed nor changed by it.

This module is the plugin's table of contents: its options, and each hook handed to the part of
:mod:`conformance.plugin` that does that job.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.engines.process import (
    DEFAULT_MAX_CONSECUTIVE_FAULTS,
    DEFAULT_MAX_FAULTS,
    DEFAULT_MAX_LINE,
    DEFAULT_TIMEOUT,
)
from conformance.plugin import info, items, reporting
from conformance.plugin.fixtures import (  # noqa: F401 - pytest finds the plugin's fixtures here
    durak_engine,
    durak_hello,
    durak_require,
    durak_support,
)
from conformance.plugin.session import SELECTORS, STATE, DurakSession

#: the plugin's parts that bring options and hooks of their own: the traffic log, selection by
#: tag expression and the smoke list, the progress bar
pytest_plugins = (
    "conformance.plugin.traffic",
    "conformance.plugin.selection",
    "conformance.plugin.progress",
)

#: A run below this share of executed cases is not a plain success (``--durak-min-share``).
DEFAULT_MIN_SHARE = 0.5
#: pytest's exit status for such a run; ``durak-conformance run`` turns it into 3.
INCOMPLETE_EXIT = 6
#: pytest's exit status when the engine could not be made or greeted (durak-conformance run: 2).
UNUSABLE_EXIT = 7


# ---------------------------------------------------------------------------------- options


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("durak", "durak-conformance (the Durak conformance suite)")
    group.addoption(
        "--durak-engine",
        metavar="CMD",
        help="engine under test: a command speaking spec/protocol.md (e.g. 'durak-conformance "
        "serve'), python:MODULE:NAME for an in-process engine, or 'reference' (the default)",
    )
    group.addoption(
        "--durak-timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"per-request timeout of a process engine (default {DEFAULT_TIMEOUT:g})",
    )
    group.addoption(
        "--durak-max-line",
        type=int,
        default=DEFAULT_MAX_LINE,
        metavar="BYTES",
        help=f"longest answer line accepted from a process engine (default {DEFAULT_MAX_LINE})",
    )
    group.addoption(
        "--durak-max-faults",
        type=int,
        default=DEFAULT_MAX_FAULTS,
        metavar="N",
        help="give up on a process engine after N faults in the session, or "
        f"{DEFAULT_MAX_CONSECUTIVE_FAULTS} in a row; the rest is reported not run "
        f"(default {DEFAULT_MAX_FAULTS})",
    )
    for name, packaged, what in (
        ("fixtures", "conformance/fixtures", "YAML fixtures"),
        ("records", "conformance/records", "game records (*.json)"),
        ("perft", "conformance/perft", "perft positions (YAML)"),
    ):
        group.addoption(
            f"--durak-{name}",
            action="append",
            default=[],
            metavar="DIR",
            help=f"also collect {what} under DIR (the packaged {packaged} always are)",
        )
    group.addoption("--durak-xfail", metavar="FILE", help="expected-failure list (YAML)")
    group.addoption(
        "--durak-update-xfail",
        action="store_true",
        help="rewrite the --durak-xfail list from this run's failures",
    )
    group.addoption("--durak-json", metavar="PATH", help="write a JSON Lines report to PATH")
    group.addoption(
        "--durak-junit",
        metavar="PATH",
        help="write JUnit XML (the strict schema: rules, location and cause in system-out)",
    )
    group.addoption(
        "--durak-min-share",
        type=float,
        default=DEFAULT_MIN_SHARE,
        metavar="FRACTION",
        help="a run that executes fewer than this share of the selected cases is incomplete: "
        f"pytest exits {INCOMPLETE_EXIT} (durak-conformance run: 3) instead of 0 "
        f"(default {DEFAULT_MIN_SHARE:g}; 0 accepts any share but nothing)",
    )
    whats = {
        "area": "rule area, e.g. THROW",
        "rule": "rule ID, e.g. R-THROW-1",
        "ruleset": "ruleset preset, e.g. perevodnoy",
        "case": "case ID (glob patterns allowed)",
    }
    for name in SELECTORS:
        group.addoption(
            f"--durak-{name}",
            action="append",
            default=[],
            metavar=name.upper(),
            help=f"only cases of this {whats[name]}; repeat or comma-separate for several",
        )


# ---------------------------------------------------------------------------------- session


def pytest_configure(config: pytest.Config) -> None:
    session = DurakSession(config)
    config.stash[STATE] = session
    config.pluginmanager.register(session, "durak-conformance-session")
    config.addinivalue_line(
        "markers", "durak_case(case_id): a durak-conformance case (fixture, record, perft)"
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.stash.get(STATE, None)
    if session is not None:
        session.close()


# ---------------------------------------------------------------------------------- collection


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    return items.collect_file(file_path, parent)


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    if config.getoption("durak_engine") and not any(info.case_info(i) for i in items):
        # an engine named and no case of the suite collected: never a silent green run
        raise pytest.UsageError(
            "--durak-engine names an engine, but no case of the suite was collected: the suite "
            "lives in the installed package, not in this project. Run it with `durak-conformance "
            "run --engine CMD` (pytest options go after `--`), or pass your own fixture folder "
            "with --durak-fixtures DIR."
        )
    info.select(config, items)


# ---------------------------------------------------------------------------------- reports


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    report = yield
    reporting.annotate(item, call, report)
    return report


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if session.config.stash.get(STATE, None) is not None:
        reporting.finish(session, exitstatus, INCOMPLETE_EXIT, UNUSABLE_EXIT)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if config.stash.get(STATE, None) is not None:
        reporting.terminal_summary(terminalreporter, config)
