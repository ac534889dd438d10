"""The state of one run of the plugin: the engine, its claim, the lists, the reports.

One :class:`DurakSession` per pytest process (the controller and each xdist worker). The engine is
started on first use, so a run without durak items never starts one; an engine that cannot be
made or greeted makes every case ``not run`` and the run's exit status 2. Under pytest-xdist the
workers share one count of faults, so ``--durak-max-faults`` bounds the run. Report records reach the controller through pytest's own
report stream (``pytest_runtest_logreport``), so the JSON report and the tallies are written in
one place even under pytest-xdist.
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from conformance.engines.base import Engine, ErrorResult
from conformance.engines.factory import EngineSpecError, make_engine
from conformance.engines.gating import HelloError, Support
from conformance.plugin.traffic import traffic_log
from conformance.reports.report import JsonReport, Tally
from conformance.suite import FIXTURES_DIR, POSITIONS_DIR, RECORDS_DIR
from conformance.suite.cases import CaseRunner
from conformance.suite.xfail import XfailFileError, XfailList

STATE = pytest.StashKey["DurakSession"]()

#: The selection options (``--durak-<name>``), in the order reports list them.
SELECTORS = ("area", "rule", "ruleset", "case")


def listed(config: pytest.Config, name: str) -> list[str]:
    """The values of a repeatable, comma-separated option."""
    values = config.getoption(name) or []
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def _roots(config: pytest.Config, packaged: Path, option: str) -> list[Path]:
    return [packaged] + [Path(p).resolve() for p in config.getoption(option) or []]


#: How a case's reason begins when the engine under test could not be made or greeted.
UNUSABLE = "not run: engine unusable: "


class DurakSession:
    """Per-process state of a run: the engine (started lazily), the claim, the lists, reports."""

    def __init__(self, config: pytest.Config):
        self.config = config
        self.engine_spec: str | None = config.getoption("durak_engine")
        #: where each form of case is collected: fixture YAML, record JSON, perft YAML
        self.roots = _roots(config, FIXTURES_DIR, "durak_fixtures")
        self.record_roots = _roots(config, RECORDS_DIR, "durak_records")
        self.perft_roots = _roots(config, POSITIONS_DIR, "durak_perft")
        self.controller = not hasattr(config, "workerinput")
        self.engine: Engine | None = None
        self.hello: dict[str, Any] | None = None
        self.support: Support | None = None
        self.runner: CaseRunner | None = None
        self.hello_sent = False
        #: None before the engine is tried; '' when it is usable; else why no case can run
        self.unusable: str | None = None
        #: under pytest-xdist, one file all workers append a byte to per fault, so that
        #: ``--durak-max-faults`` bounds the run's faults, not each worker's
        self.faults_file: Path | None = None
        if not self.controller:
            shared = config.workerinput.get("durak_faults_file")  # type: ignore[attr-defined]
            self.faults_file = Path(shared) if shared else None
        self.seen_ids: dict[str, str] = {}
        self.tally = Tally()
        #: final outcomes per kind of case (fixture, scenario, record, perft)
        self.kinds: dict[str, Counter[str]] = defaultdict(Counter)
        #: the selected cases by what they need to start (plugin.items.START_FORMS)
        self.starts: Counter[str] = Counter()
        #: ``id`` and ``cause`` of each failing record, for the root-cause groups
        self.failing: list[dict[str, Any]] = []
        #: the final records, kept for ``--durak-junit`` only
        self.junit_path: str | None = config.getoption("durak_junit")
        self.records: list[dict[str, Any]] = []
        self.results: dict[str, tuple[bool, str | None] | None] = {}
        self.engine_record: dict[str, Any] | None = None
        self.json: JsonReport | None = None
        self.any_items = False
        self.incomplete = False
        self.xfail_written: Path | None = None
        self.xfail = self._xfail_list()
        json_path = config.getoption("durak_json")
        if json_path and self.controller:
            self.json = JsonReport(json_path)
            self.json.header(
                self.describe(), {name: listed(config, f"durak_{name}") for name in SELECTORS}
            )

    def _xfail_list(self) -> XfailList | None:
        config = self.config
        path = config.getoption("durak_xfail")
        update = bool(config.getoption("durak_update_xfail"))
        if update and not path:
            raise pytest.UsageError("--durak-update-xfail needs --durak-xfail FILE")
        if not path:
            return None
        try:
            return XfailList.load(path, missing_ok=update)
        except XfailFileError as exc:
            raise pytest.UsageError(str(exc)) from None

    # ---- the engine ----------------------------------------------------------------------

    def get_engine(self) -> Engine:
        """The engine under test, started and greeted on first use. An engine that cannot be
        made or greeted is unusable: every case is then ``not run`` with the reason (a skip whose
        reason starts with :data:`UNUSABLE`), so the reports account for every selected case, and
        the run ends with exit status 2 (:func:`conformance.plugin.reporting.finish`). The engine
        is tried once: a hello that timed out is not waited for again per case."""
        if self.unusable is None:
            self.unusable = self._start_engine()
        if self.unusable:
            pytest.skip(f"{UNUSABLE}{self.unusable}")
        given_up = self.given_up_over_workers()
        if given_up:
            pytest.skip(f"not run: {given_up}")
        assert self.engine is not None
        return self.engine

    # ---- the fault limit over pytest-xdist workers -----------------------------------------

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        """pytest-xdist: hand every worker the run's one fault file."""
        if self.faults_file is None:
            handle, name = tempfile.mkstemp(prefix="durak-faults-")
            os.close(handle)
            self.faults_file = Path(name)
        node.workerinput["durak_faults_file"] = str(self.faults_file)

    def fault_seen(self) -> None:
        """A case ended in an engine fault (``error``): count it for every worker to see."""
        if self.faults_file is not None and not self.controller:
            with open(self.faults_file, "ab") as shared:
                shared.write(b"x")

    def given_up_over_workers(self) -> str:
        """Why no more case is sent, when the workers together have seen ``--durak-max-faults``
        faults; '' otherwise (serially the engine's own circuit breaker does this)."""
        if self.faults_file is None or self.controller:
            return ""
        limit = self.config.getoption("durak_max_faults")
        try:
            seen = self.faults_file.stat().st_size
        except OSError:
            return ""
        if seen < limit:
            return ""
        return f"the engine was given up after {seen} faults over all workers (--max-faults {limit})"

    def _start_engine(self) -> str:
        """Start and greet the engine; '' when it is usable, else what is wrong with it."""
        config = self.config
        try:
            engine = make_engine(
                self.engine_spec,
                timeout=config.getoption("durak_timeout"),
                max_line=config.getoption("durak_max_line"),
                max_faults=config.getoption("durak_max_faults"),
                traffic=traffic_log(config),
            )
        except (EngineSpecError, ValueError, ImportError) as exc:
            return f"cannot make the engine: {exc}"
        hello = engine.hello()
        if isinstance(hello, ErrorResult):
            engine.close()
            details = hello.diagnostics.get("stderr_tail", "").strip()
            tail = f"; engine stderr (tail): {details[-500:]}" if details else ""
            return f"the engine failed its hello: {hello}{tail}"
        try:
            self.support = Support.from_hello(hello)
        except HelloError as exc:
            engine.close()
            return f"the engine's hello is unusable: {exc}"
        self.engine = engine
        self.hello = hello
        self.runner = CaseRunner(engine, self.support)
        return ""

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None
        if self.controller and self.faults_file is not None:
            self.faults_file.unlink(missing_ok=True)
        if self.json is not None:
            self.json.close()

    # ---- records (controller side) -------------------------------------------------------

    def record(self, record: dict[str, Any]) -> None:
        self.any_items = True
        self.tally.add(record)
        self.kinds[record.get("kind") or "?"][record["outcome"]] += 1
        if record.get("start"):
            self.starts[record["start"]] += 1
        if record.get("cause"):
            self.failing.append({"id": record["id"], "cause": record["cause"]})
        if self.junit_path:
            self.records.append(record)
        message = str(record.get("message") or "")
        if record["outcome"] == "not_run" and message.startswith(UNUSABLE):
            self.unusable = self.unusable or message.removeprefix(UNUSABLE)  # a worker's word
        base = record.get("base_outcome")
        if base in ("passed", "failed", "error", "broken"):
            self.results[record["id"]] = (base != "passed", record.get("signature"))
        else:
            self.results.setdefault(record["id"], None)
        if self.json is not None:
            self.json.write({"type": "case", **record})

    def engine_seen(self, hello: dict[str, Any]) -> None:
        if self.engine_record is None:
            self.engine_record = hello
            if self.json is not None:
                self.json.write({"type": "engine", "command": self.describe(), **hello})

    def describe(self) -> str:
        return self.engine_spec or "reference (in process)"

    # ---- a hook of this object, registered as a plugin for its config --------------------

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if not self.controller:
            return
        hello = getattr(report, "durak_hello", None)
        if hello is not None:
            self.engine_seen(hello)
        record = getattr(report, "durak_record", None)
        if record is not None:
            self.record(record)


def durak_session(config: pytest.Config) -> DurakSession:
    return config.stash[STATE]
