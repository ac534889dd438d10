"""Fixture, record and perft files as pytest items: one item per case, run by the one runner.

Every form of case is compiled to a :class:`~conformance.suite.loader.Case` (fixtures by the
loader, records and perft positions by :mod:`conformance.suite.compile`) and run by
:class:`~conformance.suite.cases.CaseRunner` in a :class:`CaseItem`, so a record's move means
what a fixture's move means and every form gives the same report record. A file, a case or a
position that cannot be loaded becomes a :class:`BrokenItem` that fails alone, saying where and
why; everything else in the run still runs.

Files are collected only under their roots (the packaged folders, or those given with
``--durak-fixtures``, ``--durak-records``, ``--durak-perft``), so the plugin leaves the project's
own YAML and JSON files alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance.plugin.session import durak_session
from conformance.reports.report import failure_text
from conformance.suite.cases import CaseResult
from conformance.suite.compile import position_case, record_case
from conformance.suite.loader import Case, LoadProblem, load_file
from conformance.tools.perft import load_file as load_positions_file
from conformance.tools.record import RecordError, layout, load_record


def relative(path: Path) -> str:
    """``path`` relative to the current directory when it lies below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _under(path: Path, roots: list[Path]) -> bool:
    for root in roots:
        try:
            path.resolve().relative_to(root)
        except ValueError:
            continue
        return True
    return False


def collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """The collector of a file under one of the roots, by its form; None for any other file."""
    session = durak_session(parent.config)
    if file_path.suffix == ".json" and _under(file_path, session.record_roots):
        return RecordFile.from_parent(parent, path=file_path)
    if file_path.suffix not in (".yaml", ".yml"):
        return None
    if _under(file_path, session.perft_roots):
        return PerftFile.from_parent(parent, path=file_path)
    if _under(file_path, session.roots):
        if file_path.parent.name == ROBUSTNESS_DIR:
            return RobustnessFile.from_parent(parent, path=file_path)
        return FixtureFile.from_parent(parent, path=file_path)
    return None


#: The fixture folder whose cases send what no engine may accept (states no game reaches,
#: malformed moves): ordinary fixtures, counted as their own kind so a report shows them apart.
ROBUSTNESS_DIR = "robustness"


class CaseFile(pytest.File):
    """A file of cases of one kind: an item per case, a broken item per problem."""

    kind = "fixture"

    def load(self) -> tuple[list[Case], list[LoadProblem]]:
        raise NotImplementedError

    def collect(self) -> Iterator[pytest.Item]:
        session = durak_session(self.config)
        cases, problems = self.load()
        for problem in problems:
            yield BrokenItem.from_parent(self, name=problem.name, problem=problem, kind=self.kind)
        for case in cases:
            first = session.seen_ids.get(case.id)
            if first is not None:
                problem = LoadProblem(
                    case.path,
                    case.line,
                    f"case id {case.id!r} is already used at {first}; ids must be unique",
                )
                name = f"{case.id}@{case.line}"
                yield BrokenItem.from_parent(self, name=name, problem=problem, kind=self.kind)
                continue
            session.seen_ids[case.id] = case.location
            yield CaseItem.from_parent(self, name=case.id, case=case, kind=self.kind)


class FixtureFile(CaseFile):
    """One YAML fixture file: a case, or a list of cases each standing alone."""

    kind = "fixture"

    def load(self) -> tuple[list[Case], list[LoadProblem]]:
        return load_file(self.path)


class RobustnessFile(FixtureFile):
    """A fixture file of conformance/fixtures/robustness/: the same cases, their own kind."""

    kind = "robustness"


class RecordFile(CaseFile):
    """One game record (JSON): one case, its ID the record's ``id`` or the file's name."""

    kind = "record"

    def load(self) -> tuple[list[Case], list[LoadProblem]]:
        try:
            record = load_record(self.path)
        except RecordError as exc:
            where = f"at {exc.where}: " if exc.where else ""
            return [], [LoadProblem(self.path, 1, f"invalid record: {where}{exc.message}")]
        name = record.get("id") or self.path.stem
        lines = layout(self.path.read_text(encoding="utf-8"))
        return [record_case(record, name=name, path=self.path, lines=lines)], []


class PerftFile(CaseFile):
    """One perft positions file (YAML): a case per position, counted at its ``suite_depth``."""

    kind = "perft"

    def load(self) -> tuple[list[Case], list[LoadProblem]]:
        positions, problems = load_positions_file(self.path)
        return [position_case(position) for position in positions], [
            LoadProblem(self.path, problem.line, str(problem).removeprefix(f"{self.path}: "))
            for problem in problems
        ]


class CaseFailure(Exception):
    """A case did not pass; carries its report record."""

    def __init__(self, record: dict[str, Any]):
        super().__init__(record.get("message", ""))
        self.record = record


class CaseItem(pytest.Item):
    """One case of any form, run through :class:`~conformance.suite.cases.CaseRunner`."""

    def __init__(self, *, case: Case, kind: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case
        self.kind = kind
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
            raise CaseFailure(case_record(self, result))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:
        if isinstance(excinfo.value, CaseFailure):
            return failure_text(excinfo.value.record)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.case.line - 1, f"case {self.case.id}"


class BrokenItem(pytest.Item):
    """A file or case that cannot be loaded: it fails alone, saying where and why."""

    def __init__(self, *, problem: LoadProblem, kind: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.problem = problem
        self.kind = kind

    def runtest(self) -> None:
        raise CaseFailure(
            {
                "id": self.problem.name,
                "location": f"{self.problem.path}:{self.problem.line}",
                "outcome": "broken",
                "message": self.problem.message,
                "signature": f"broken {self.kind}",
            }
        )

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:
        if isinstance(excinfo.value, CaseFailure):
            return f"broken {self.kind}: {self.problem}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.problem.line - 1, f"broken {self.kind} {self.problem.name}"


#: What a case needs of the engine to start (``start`` in its report record): a deal, which every
#: engine can play; a position with a route (``reached_by``), which an engine in game sessions
#: plays from the deal; a position it must be set up from (P-33: not every engine can); an
#: impossible position, one the engine must refuse to be set up from (``start_refused`` with a
#: state: the robustness cases). The last tests position set-up itself: no game reaches it, so
#: no route can ever bring an engine there, and the count of what an engine without set-up can
#: run leaves it out (:func:`conformance.plugin.reporting.setup_line`).
START_FORMS = ("deal", "route", "position", "impossible")


def start_form(case: Case) -> str:
    """``deal``, ``route``, ``position`` or ``impossible``: see :data:`START_FORMS`."""
    if "state" not in case.start:
        return "deal"
    if case.start_refused is not None:
        return "impossible"
    return "route" if case.reached_by is not None else "position"


def judged_record(
    described: dict[str, Any], case: Case | None, result: CaseResult
) -> dict[str, Any]:
    """The report record of a case the runner judged, whatever its form: what ``described`` says
    of it (``id``, ``kind``, ``nodeid``, ``location``, ``rules``, ``area``, ``options``), the game
    it plays (players, the ruleset asked for and as resolved) and the verdict."""
    record = dict(described)
    if case is not None:
        record["start"] = start_form(case)
        # a robustness case may ask for a count that is no integer ("3"); the record says null
        players = case.players
        counted = isinstance(players, int) and not isinstance(players, bool)
        record["players"] = players if counted else None
        record["ruleset"] = result.ruleset if result.ruleset else case.ruleset
        record["ruleset_request"] = case.ruleset
    record.update(result.to_json())
    return record


def case_record(item: CaseItem, result: CaseResult) -> dict[str, Any]:
    """The report record of a fixture, record or perft position that ran."""
    case = item.case
    described = {
        "id": case.id,
        "kind": item.kind,
        "nodeid": item.nodeid,
        "location": f"{relative(case.path)}:{case.line}",
        "rules": list(case.rules),
        "area": case.area,
        "options": dict(case.options),
    }
    return judged_record(described, case, result)
