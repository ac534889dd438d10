"""``durak-conformance export``: the suite as data, for runners in any language.

The JSON Schema Test Suite's model: the cases are data, and a runner written in JavaScript, Rust
or anything else reads them without this package. One JSON document holds every fixture case
(each a case of ``spec/schema/fixture.schema.json``, plus where it comes from and its resolved
ruleset, so a runner need not resolve presets itself), every perft position
(``spec/perft.md``), every packaged game record (``spec/schema/record.schema.json``) and every
Gherkin scenario, compiled (without an engine, by :mod:`conformance.bdd.compiler`) into a case of
the fixture schema whose steps carry their sentence as ``note``. The expected answers are the
cases' own, worked from the rules.

A scenario's ``id`` is the one the runner, its reports and ``--case`` use, a slug of the feature
file's stem and the scenario's label (:func:`conformance.bdd.model.scenario_case_id`); ``name``
keeps the label as written, with its file and line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from conformance.suite import FIXTURES_DIR as FIXTURES
from conformance.suite import POSITIONS_DIR
from conformance.suite.loader import Case, load_paths
from conformance.tools.perft import load_positions
from conformance.tools.record import RECORDS_DIR, load_record

#: Bumped when the export's shape changes (not when cases are added): 2 added ``scenarios``.
EXPORT_VERSION = 2

def case_data(case: Case, root: Path) -> dict[str, Any]:
    """One case as the fixture schema writes it, with its source and resolved ruleset."""
    from reference_impl.rulesets import RulesetError, resolve_ruleset

    data: dict[str, Any] = {
        "id": case.id,
        "description": case.description,
        "rules": list(case.rules),
        "ruleset": case.ruleset,
        "players": case.players,
        "start": case.start,
    }
    if case.options:
        data["options"] = dict(case.options)
    if case.start_refused is not None:
        data["start_refused"] = dict(case.start_refused)
    else:
        data["steps"] = [dict(step.data) for step in case.steps]
    exported = {"case": data, "source": f"{_relative(case.path, root)}:{case.line}"}
    try:
        exported["resolved_ruleset"] = resolve_ruleset(case.ruleset)
    except RulesetError:  # a robustness case: the engine must refuse this ruleset itself
        exported["resolved_ruleset"] = None
    return exported


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def scenario_data(root: Path) -> list[dict[str, Any]]:
    """Every Gherkin scenario (each Examples row its own) as an exported case, named as
    written."""
    from conformance.bdd.compiler import CompileError, compile_scenario
    from conformance.bdd.model import read_features

    entries, problems, seen = [], [], {}
    for feature in read_features():
        problems.extend(str(problem) for problem in feature.problems)
        for scenario in feature.scenarios:
            try:
                case = compile_scenario(scenario)
            except CompileError as exc:
                problems.append(f"{scenario.where}: {exc}")
                continue
            if case.id in seen:
                problems.append(f"{scenario.where}: its ID {case.id} is also {seen[case.id]}'s")
            seen[case.id] = scenario.where
            entries.append({**case_data(case, root), "name": scenario.where})
    if problems:
        raise ValueError("broken scenarios cannot be exported: " + "; ".join(problems))
    return entries


def export_suite() -> dict[str, Any]:
    """The whole exportable suite as one JSON-ready document."""
    root = FIXTURES.parent.parent
    cases, problems = load_paths([FIXTURES])
    if problems:
        raise ValueError("broken fixtures cannot be exported: " + "; ".join(map(str, problems)))
    positions = [
        {
            "id": p.id,
            "description": p.description,
            "ruleset": p.ruleset,
            "players": p.players,
            "start": p.start,
            "perft": dict(p.counts),
            "source": p.source,
        }
        for p in load_positions()
    ]
    records = [
        {"source": _relative(path, root), "record": load_record(path)}
        for path in sorted(RECORDS_DIR.glob("*.json"))
    ]
    return {
        "version": EXPORT_VERSION,
        "suite": "durak-conformance",
        "fixtures": [case_data(case, root) for case in cases],
        "perft": positions,
        "records": records,
        "scenarios": scenario_data(root),
        "schemas": {
            "fixtures[].case": "spec/schema/fixture.schema.json ($defs/case)",
            "scenarios[].case": "spec/schema/fixture.schema.json ($defs/case)",
            "records[].record": "spec/schema/record.schema.json",
            "perft[]": f"spec/perft.md ({_relative(POSITIONS_DIR, root)})",
        },
    }


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", metavar="FILE", help="write to FILE (default: standard output)")


def run_cli(args: argparse.Namespace, out: Any = None) -> int:
    """0 when written, 2 when the suite has a broken fixture."""
    try:
        document = export_suite()
    except ValueError as exc:
        print(f"durak-conformance export: {exc}", file=sys.stderr)
        return 2
    text = json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(
            f"exported {len(document['fixtures'])} fixture cases, {len(document['scenarios'])} "
            f"scenarios, {len(document['perft'])} perft positions, {len(document['records'])} "
            f"records to {args.out}",
            file=out or sys.stdout,
        )
    else:
        (out or sys.stdout).write(text)
    return 0
