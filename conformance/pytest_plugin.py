"""pytest plugin of durak-conformance (registered through the ``pytest11`` entry point).

It turns YAML fixture files into pytest items, runs them (and the Gherkin scenarios of
``conformance.bdd``) against the engine chosen with ``--durak-engine``, gates cases on the
engine's ``hello``, applies an expected-failure list, and writes the reports. pytest gives the
rest: ``-k``, ``-x``, ``--junitxml``, ``-n`` (pytest-xdist).

The plugin is inert unless asked: YAML files are collected only under a fixture root (the
packaged ``conformance/fixtures``, or a directory given with ``--durak-fixtures``), no engine is
started until a test needs one, and without durak items it adds nothing to the terminal. So the
project's own ``pytest`` run is neither slowed nor changed by it.
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path
from typing import Any

import pytest

from conformance.engines.base import Engine, ErrorResult
from conformance.engines.factory import EngineSpecError, make_engine
from conformance.engines.gating import HelloError, Support
from conformance.engines.process import (
    DEFAULT_MAX_CONSECUTIVE_FAULTS,
    DEFAULT_MAX_FAULTS,
    DEFAULT_MAX_LINE,
    DEFAULT_TIMEOUT,
)
from conformance.reports.report import FAILING, JsonReport, Tally, failure_text, summary_lines
from conformance.suite.cases import CaseResult, CaseRunner
from conformance.suite.loader import Case, LoadProblem, load_file, rule_area, rule_areas
from conformance.suite.xfail import XfailFileError, XfailList

PACKAGE_DIR = Path(__file__).resolve().parent
FIXTURES_DIR = PACKAGE_DIR / "fixtures"

_STATE = pytest.StashKey["DurakSession"]()

#: A run below this share of executed cases is not a plain success (``--durak-min-share``).
DEFAULT_MIN_SHARE = 0.5
#: pytest's exit status for such a run; ``durak-conformance run`` turns it into 3.
INCOMPLETE_EXIT = 6


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
    group.addoption(
        "--durak-fixtures",
        action="append",
        default=[],
        metavar="DIR",
        help="also collect YAML fixtures under DIR (the packaged conformance/fixtures always are)",
    )
    group.addoption("--durak-xfail", metavar="FILE", help="expected-failure list (YAML)")
    group.addoption(
        "--durak-update-xfail",
        action="store_true",
        help="rewrite the --durak-xfail list from this run's failures",
    )
    group.addoption("--durak-json", metavar="PATH", help="write a JSON Lines report to PATH")
    group.addoption(
        "--durak-min-share",
        type=float,
        default=DEFAULT_MIN_SHARE,
        metavar="FRACTION",
        help="a run that executes fewer than this share of the selected cases is incomplete: "
        f"pytest exits {INCOMPLETE_EXIT} (durak-conformance run: 3) instead of 0 "
        f"(default {DEFAULT_MIN_SHARE:g}; 0 accepts any share but nothing)",
    )
    for name, what in (
        ("area", "rule area, e.g. THROW"),
        ("rule", "rule ID, e.g. R-THROW-1"),
        ("ruleset", "ruleset preset, e.g. perevodnoy"),
        ("case", "case ID (glob patterns allowed)"),
    ):
        group.addoption(
            f"--durak-{name}",
            action="append",
            default=[],
            metavar=name.upper(),
            help=f"only cases of this {what}; repeat or comma-separate for several",
        )


def _listed(config: pytest.Config, name: str) -> list[str]:
    values = config.getoption(name) or []
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


# ---------------------------------------------------------------------------------- session


class DurakSession:
    """Per-process state of a run: the engine (started lazily), the claim, the lists, reports."""

    def __init__(self, config: pytest.Config):
        self.config = config
        self.engine_spec: str | None = config.getoption("durak_engine")
        self.roots = [FIXTURES_DIR] + [
            Path(p).resolve() for p in config.getoption("durak_fixtures") or []
        ]
        self.controller = not hasattr(config, "workerinput")
        self.engine: Engine | None = None
        self.hello: dict[str, Any] | None = None
        self.support: Support | None = None
        self.runner: CaseRunner | None = None
        self.hello_sent = False
        self.seen_ids: dict[str, str] = {}
        self.tally = Tally()
        self.results: dict[str, tuple[bool, str | None] | None] = {}
        self.engine_record: dict[str, Any] | None = None
        self.json: JsonReport | None = None
        self.any_items = False
        self.incomplete = False
        self.xfail_written: Path | None = None
        self.xfail: XfailList | None = None
        path = config.getoption("durak_xfail")
        if config.getoption("durak_update_xfail") and not path:
            raise pytest.UsageError("--durak-update-xfail needs --durak-xfail FILE")
        if path:
            try:
                self.xfail = XfailList.load(
                    path, missing_ok=bool(config.getoption("durak_update_xfail"))
                )
            except XfailFileError as exc:
                raise pytest.UsageError(str(exc)) from None
        json_path = config.getoption("durak_json")
        if json_path and self.controller:
            self.json = JsonReport(json_path)
            self.json.header(
                self.engine_spec or "reference (in process)",
                {
                    name: _listed(config, f"durak_{name}")
                    for name in ("area", "rule", "ruleset", "case")
                },
            )

    # ---- the engine ----------------------------------------------------------------------

    def get_engine(self) -> Engine:
        """The engine under test, started and greeted on first use. A failure here is a usage
        or configuration error: the run stops with exit status 2."""
        if self.engine is not None:
            return self.engine
        config = self.config
        try:
            engine = make_engine(
                self.engine_spec,
                timeout=config.getoption("durak_timeout"),
                max_line=config.getoption("durak_max_line"),
                max_faults=config.getoption("durak_max_faults"),
            )
        except (EngineSpecError, ValueError, ImportError) as exc:
            pytest.exit(f"durak-conformance: cannot make the engine: {exc}", returncode=2)
        hello = engine.hello()
        if isinstance(hello, ErrorResult):
            engine.close()
            details = hello.diagnostics.get("stderr_tail", "").strip()
            tail = f"\nengine stderr (tail):\n{details}" if details else ""
            pytest.exit(
                f"durak-conformance: the engine failed its hello: {hello}{tail}", returncode=2
            )
        try:
            self.support = Support.from_hello(hello)
        except HelloError as exc:
            engine.close()
            pytest.exit(f"durak-conformance: the engine's hello is unusable: {exc}", returncode=2)
        self.engine = engine
        self.hello = hello
        self.runner = CaseRunner(engine, self.support)
        return engine

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None
        if self.json is not None:
            self.json.close()

    # ---- records (controller side) -------------------------------------------------------

    def record(self, record: dict[str, Any]) -> None:
        self.any_items = True
        self.tally.add(record)
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
    return config.stash[_STATE]


def pytest_configure(config: pytest.Config) -> None:
    session = DurakSession(config)
    config.stash[_STATE] = session
    config.pluginmanager.register(session, "durak-conformance-session")
    config.addinivalue_line(
        "markers", "durak_case(case_id): a durak-conformance case (YAML fixture)"
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.stash.get(_STATE, None)
    if session is not None:
        session.close()


# ---------------------------------------------------------------------------------- collection


def _under(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root)
    except ValueError:
        return False
    return True


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix not in (".yaml", ".yml"):
        return None
    session = durak_session(parent.config)
    if not any(_under(file_path, root) for root in session.roots):
        return None
    return FixtureFile.from_parent(parent, path=file_path)


class FixtureFile(pytest.File):
    """One YAML fixture file: an item per case, and an item per problem found in it."""

    def collect(self):
        session = durak_session(self.config)
        cases, problems = load_file(self.path)
        for problem in problems:
            yield BrokenItem.from_parent(self, name=problem.name, problem=problem)
        for case in cases:
            first = session.seen_ids.get(case.id)
            if first is not None:
                problem = LoadProblem(
                    case.path,
                    case.line,
                    f"case id {case.id!r} is already used at {first}; ids must be unique",
                )
                yield BrokenItem.from_parent(self, name=f"{case.id}@{case.line}", problem=problem)
                continue
            session.seen_ids[case.id] = case.location
            yield FixtureItem.from_parent(self, name=case.id, case=case)


class CaseFailure(Exception):
    """A fixture case did not pass; carries its report record."""

    def __init__(self, record: dict[str, Any]):
        super().__init__(record.get("message", ""))
        self.record = record


class FixtureItem(pytest.Item):
    """One YAML case, run through :class:`~conformance.suite.cases.CaseRunner`."""

    def __init__(self, *, case: Case, **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case
        self.durak_result: CaseResult | None = None
        self.user_properties.append(("rules", " ".join(case.rules)))
        self.add_marker(pytest.mark.durak_case(case.id))

    def runtest(self) -> None:
        session = durak_session(self.config)
        session.get_engine()
        assert session.runner is not None
        result = session.runner.run(self.case)
        self.durak_result = result
        if result.outcome == "unsupported":
            pytest.skip(f"unsupported: {result.message}")
        if result.outcome == "not_run":
            pytest.skip(f"not run: {result.message}")
        if result.outcome != "passed":
            raise CaseFailure(fixture_record(self, result))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:
        if isinstance(excinfo.value, CaseFailure):
            return failure_text(excinfo.value.record)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.case.line - 1, f"case {self.case.id}"


class BrokenItem(pytest.Item):
    """A fixture file or case that cannot be loaded: it fails alone, saying where and why."""

    def __init__(self, *, problem: LoadProblem, **kwargs: Any):
        super().__init__(**kwargs)
        self.problem = problem

    def runtest(self) -> None:
        raise CaseFailure(
            {
                "id": self.problem.name,
                "location": f"{self.problem.path}:{self.problem.line}",
                "outcome": "broken",
                "message": self.problem.message,
                "signature": "broken fixture",
            }
        )

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:
        if isinstance(excinfo.value, CaseFailure):
            return f"broken fixture: {self.problem}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.problem.line - 1, f"broken fixture {self.problem.name}"


# ---------------------------------------------------------------------------------- case info


def fixture_record(item: FixtureItem, result: CaseResult) -> dict[str, Any]:
    case = item.case
    record = {
        "id": case.id,
        "kind": "fixture",
        "nodeid": item.nodeid,
        "location": f"{_relative(case.path)}:{case.line}",
        "rules": list(case.rules),
        "area": case.area,
        "options": dict(case.options),
        "players": case.players,
        "ruleset": result.ruleset if result.ruleset else case.ruleset,
        "ruleset_request": case.ruleset,
        **result.to_json(),
    }
    return record


_RULE_TAG = re.compile(r"^R-[A-Z]+-[0-9]+$")
_OPT_TAG = re.compile(r"^opt:([a-z_0-9]+)=([A-Za-z0-9_]+)$")


def _rule_order(rule: str) -> tuple:
    area, _, number = rule.rpartition("-")
    return (area, int(number) if number.isdigit() else 0)


def _relative(path: Path) -> str:
    """``path`` relative to the current directory when it lies below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _scenario_template(item: pytest.Item) -> Any:
    try:
        from pytest_bdd.scenario import scenario_wrapper_template_registry
    except ImportError:  # pragma: no cover - another pytest-bdd layout
        return None
    function = getattr(item, "function", None)
    try:
        return scenario_wrapper_template_registry.get(function)
    except TypeError:
        return None


def _preset_names() -> list[str]:
    try:
        from reference_impl.rulesets import preset_names

        return preset_names()
    except Exception:  # noqa: BLE001 - spec data missing: no ruleset selection for scenarios
        return ["podkidnoy"]


def case_info(item: pytest.Item) -> dict[str, Any] | None:
    """``id``, ``kind``, ``rules``, ``area``, ``options``, ``ruleset`` of a durak item; None for
    any other test (the project's own tests are never touched)."""
    if isinstance(item, FixtureItem):
        case = item.case
        return {
            "id": case.id,
            "kind": "fixture",
            "rules": list(case.rules),
            "area": case.area,
            "areas": list(case.areas),
            "options": dict(case.options),
            "ruleset": case.preset,
            "location": f"{_relative(case.path)}:{case.line}",
        }
    if isinstance(item, BrokenItem):
        return {
            "id": item.problem.name,
            "kind": "fixture",
            "rules": [],
            "area": "?",
            "areas": [],
            "options": {},
            "ruleset": None,
            "location": str(item.problem),
        }
    rules: list[str] = []
    options: dict[str, str] = {}
    for mark in item.iter_markers():
        # conformance.bdd turns @R-... and @opt:k=v tags into durak_rule/durak_option markers;
        # pytest-bdd's default keeps the tag text as the marker name. Both are read.
        if mark.name == "durak_rule" and mark.args:
            rules.append(str(mark.args[0]))
        elif mark.name == "durak_option" and len(mark.args) > 1:
            options.setdefault(str(mark.args[0]), str(mark.args[1]))
        elif _RULE_TAG.match(mark.name):
            rules.append(mark.name)
        elif (found := _OPT_TAG.match(mark.name)) is not None:
            options.setdefault(found.group(1), found.group(2))
    rules = list(dict.fromkeys(sorted(rules, key=_rule_order)))
    template = _scenario_template(item)
    if not rules and template is None:
        return None
    ruleset = "podkidnoy"
    if template is not None:
        text = " ".join(step.name for step in getattr(template, "steps", []))
        for name in _preset_names():
            if re.search(rf"\b{re.escape(name)}\b", text):
                ruleset = name
                break
    feature = getattr(template, "feature", None)
    if feature is not None and getattr(feature, "filename", None):
        location = f"{_relative(Path(feature.filename))}:{getattr(template, 'line_number', 0)}"
    else:
        path, line, _ = item.reportinfo()
        location = f"{_relative(Path(path))}:{(line or 0) + 1}"
    ids = [m.args[0] for m in item.iter_markers("durak_case") if m.args]
    return {
        "id": ids[0] if ids else item.name,
        "kind": "scenario",
        "rules": rules,
        "area": rule_area(rules[0]) if rules else "?",
        "areas": list(rule_areas(rules)),
        "options": options,
        "ruleset": ruleset,
        "location": location,
    }


# ---------------------------------------------------------------------------------- selection


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    areas = {a.upper() for a in _listed(config, "durak_area")}
    rules = set(_listed(config, "durak_rule"))
    rulesets = set(_listed(config, "durak_ruleset"))
    cases = _listed(config, "durak_case")
    if not (areas or rules or rulesets or cases):
        return
    keep, drop = [], []
    for item in items:
        info = case_info(item)
        if info is None:
            keep.append(item)
            continue
        ok = True
        if areas and not areas & set(info["areas"]):
            ok = False
        if rules and not rules & set(info["rules"]):
            ok = False
        if rulesets and info["ruleset"] not in rulesets:
            ok = False
        if cases and not any(fnmatch.fnmatchcase(info["id"], pattern) for pattern in cases):
            ok = False
        (keep if ok else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# ---------------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="session")
def durak_engine(pytestconfig: pytest.Config) -> Engine:
    """The engine under test (``--durak-engine``), started and greeted once per session."""
    return durak_session(pytestconfig).get_engine()


@pytest.fixture(scope="session")
def durak_hello(pytestconfig: pytest.Config, durak_engine: Engine) -> dict[str, Any]:
    """The engine's ``hello`` answer."""
    return durak_session(pytestconfig).hello or {}


@pytest.fixture(scope="session")
def durak_support(pytestconfig: pytest.Config, durak_engine: Engine) -> Support:
    """What the engine claims (:class:`~conformance.engines.gating.Support`)."""
    support = durak_session(pytestconfig).support
    assert support is not None
    return support


@pytest.fixture
def durak_require(pytestconfig: pytest.Config, durak_engine: Engine):
    """``durak_require(ruleset, players)`` skips the test as unsupported unless the engine's
    hello claims that ruleset (any fixture form) with that many players; returns the resolved
    ruleset ``{"name", "options"}``."""

    def require(ruleset: Any, players: int) -> dict[str, Any]:
        session = durak_session(pytestconfig)
        from reference_impl import rulesets

        resolved = rulesets.resolve_ruleset(ruleset)
        assert session.support is not None
        reason = session.support.unsupported(
            resolved["options"], players, rulesets.default_options()
        )
        if reason:
            pytest.skip(f"unsupported: not claimed in hello: {reason}")
        return resolved

    return require


# ---------------------------------------------------------------------------------- reports


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr or "")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    report = yield
    if report.when == "teardown" or (report.when == "setup" and report.passed):
        return report
    info = case_info(item)
    if info is None:
        return report
    session = durak_session(item.config)
    record = {k: v for k, v in info.items() if k != "areas"}
    record["nodeid"] = item.nodeid
    result = getattr(item, "durak_result", None)
    if isinstance(item, FixtureItem) and result is not None:
        record = fixture_record(item, result)
        base = result.outcome
    elif report.failed and call.excinfo is not None and isinstance(call.excinfo.value, CaseFailure):
        record.update(call.excinfo.value.record)
        base = record["outcome"]
    elif report.passed:
        base = "passed"
    elif report.skipped:
        reason = _skip_reason(report)
        if hasattr(report, "wasxfail"):
            base = "xfailed"
        elif reason.startswith("unsupported"):
            base = "unsupported"
        elif reason.startswith("not run"):
            base = "not_run"
        else:
            base = "skipped"
        record["message"] = reason
    else:
        base = "error" if report.when == "setup" else "failed"
        crash = getattr(report.longrepr, "reprcrash", None)
        message = crash.message if crash is not None else str(report.longrepr)[:500]
        record["message"] = message
        record["signature"] = f"{report.when}: {message.splitlines()[0] if message else ''}"
        record["details"] = str(report.longrepr)[-8000:]  # the scenario's steps and assertion
    game = getattr(item, "durak_game", None)
    if game is not None:
        record.update(_scenario_game_record(game))
    record["base_outcome"] = base
    record["outcome"] = base
    if session.xfail is not None and base in ("passed", "failed", "error", "broken"):
        verdict = session.xfail.judge(record["id"], base != "passed", record.get("signature"))
        if verdict is not None:
            record["outcome"] = verdict.outcome
            record["xfail"] = verdict.reason
            if verdict.outcome == "xfailed":
                report.outcome = "skipped"
                report.wasxfail = verdict.reason
            else:
                original = report.longrepr
                report.outcome = "failed"
                report.longrepr = f"expected-failure list: {verdict.reason}" + (
                    f"\n\n{original}" if original and verdict.outcome == "mismatch" else ""
                )
    report.durak_record = record
    if not session.hello_sent and session.hello is not None:
        report.durak_hello = session.hello
        session.hello_sent = True
    return report


def _scenario_game_record(game: Any) -> dict[str, Any]:
    """What a scenario's game adds to its report record: players, the ruleset asked for, and
    the gate's substitution or blockers."""
    out: dict[str, Any] = {}
    try:
        out["players"] = game.spec.player_count()
        out["ruleset_request"] = game.spec.ruleset_request()
    except Exception:  # noqa: BLE001, S110 - a scenario whose Given steps never named the game
        pass
    if game.applicability is not None:
        out.update(game.applicability.to_json())
    return out


def incomplete(tally: Tally, min_share: float) -> bool:
    """Whether a run executed nothing, or less than ``min_share`` of the selected cases."""
    return tally.selected > 0 and (
        tally.executed == 0 or tally.executed < min_share * tally.selected
    )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    state = session.config.stash.get(_STATE, None)
    if state is None or not state.controller:
        return
    if (
        state.any_items
        and int(exitstatus) == 0
        and incomplete(state.tally, session.config.getoption("durak_min_share"))
    ):
        state.incomplete = True
        session.exitstatus = INCOMPLETE_EXIT
        exitstatus = INCOMPLETE_EXIT
    if state.json is not None:
        state.json.write(
            {
                "type": "summary",
                **state.tally.as_json(),
                "failing": state.tally.failing,
                "exitstatus": int(exitstatus),
            }
        )
    if state.xfail is not None and session.config.getoption("durak_update_xfail"):
        updated = state.xfail.updated(state.results)
        updated.save()
        state.xfail_written = updated.path


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is None or not state.controller or not state.any_items:
        return
    write = terminalreporter.write_line
    terminalreporter.section("durak-conformance")
    for line in summary_lines(state.tally, state.engine_record, state.describe()):
        write(line)
    bad = [o for o in FAILING if state.tally.totals[o]]
    if bad:
        write("a failing case shows its case id, rules, step, expected and actual above")
    if state.incomplete:
        write(
            f"WARNING: incomplete run: {state.tally.executed} of {state.tally.selected} selected "
            "cases ran; the rest are outside the engine's claims (see above what would unlock "
            "them). Not a pass of the suite."
        )
    if state.json is not None:
        write(f"JSON report: {state.json.path}")
    written = getattr(state, "xfail_written", None)
    if written is not None:
        write(f"expected-failure list rewritten: {written}")
