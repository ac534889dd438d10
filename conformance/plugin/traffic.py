"""``--durak-traffic FILE``: the engine's traffic of a run, each event labelled with its case.

The log itself is :mod:`conformance.engines.traffic`; this module gives the run its one
:class:`~conformance.engines.traffic.TrafficLog` (the session hands it to the engine it makes) and
sets the log's case to the ID of the item being run, setup to teardown, so every line says which
case sent it. Under pytest-xdist each worker writes its own file, ``FILE.<worker>`` (``FILE.gw0``,
``FILE.gw1``, ...): one process's conversation stays in order in one file.
"""

from __future__ import annotations

import pytest

from conformance.engines.traffic import TrafficLog, path_problem, worker_path

LOG = pytest.StashKey["TrafficLog | None"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("durak").addoption(
        "--durak-traffic",
        metavar="FILE",
        help="write every line sent to a process engine and every answer or fault seen, as "
        "JSON Lines with the case ID (FILE.<worker> per pytest-xdist worker)",
    )


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("durak_traffic", None)
    if path and path_problem(path):
        raise pytest.UsageError(path_problem(path).replace("--traffic", "--durak-traffic", 1))
    worker = getattr(config, "workerinput", {}).get("workerid")
    config.stash[LOG] = TrafficLog(worker_path(path, worker)) if path else None


def pytest_unconfigure(config: pytest.Config) -> None:
    log = config.stash.get(LOG, None)
    if log is not None:
        log.close()


def traffic_log(config: pytest.Config) -> TrafficLog | None:
    """The run's traffic log, None without ``--durak-traffic``."""
    return config.stash.get(LOG, None)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    log = traffic_log(item.config)
    if log is None:
        return (yield)
    from conformance.plugin.info import case_info

    info = case_info(item)
    log.case = info["id"] if info is not None else item.nodeid
    try:
        return (yield)
    finally:
        log.case = None
