"""The suite bites: every single-rule mistake of tools/mutants.py, planted in a copy of the reference
engine, makes some case fail, and a failing case names the broken rule or its area.

The last test runs every mutant (about a minute on two cores: each mutant first meets the cases of
its rule area, and the whole suite only if none of those fails). The others check the machinery
without running the suite: patches apply exactly once, the judging reads reports right, the docs
list every mutant.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("mutants", ROOT / "tools" / "mutants.py")
mutants = importlib.util.module_from_spec(_spec)
sys.modules["mutants"] = mutants
_spec.loader.exec_module(mutants)


def _register() -> set[str]:
    text = (ROOT / "spec" / "rules.md").read_text(encoding="utf-8")
    return set(re.findall(r"^### (R-[A-Z]+-\d+)\b", text, flags=re.MULTILINE))


# --------------------------------------------------------------------------- the mutant list


def test_enough_mutants_across_the_rule_areas():
    areas = {m.area for m in mutants.MUTANTS}
    assert len(mutants.MUTANTS) >= 20
    expected = {"DEAL", "TRUMP", "ROLE", "ATTACK", "BEAT", "THROW", "TAKE", "BOUT", "DRAW",
                "TRANSFER", "OUT", "END", "TEAM", "MATCH", "INFO"}
    assert expected <= areas, f"no mutant for {sorted(expected - areas)}"


def test_mutant_ids_unique_and_rules_registered():
    ids = [m.id for m in mutants.MUTANTS]
    assert len(ids) == len(set(ids)), "a mutant ID is used twice"
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i) for i in ids)
    register = _register()
    assert register, "spec/rules.md lists no rule headings"
    unknown = [(m.id, m.rule) for m in mutants.MUTANTS if m.rule not in register]
    assert not unknown, f"mutants target rules spec/rules.md does not have: {unknown}"
    assert all(m.old != m.new for m in mutants.MUTANTS)


@pytest.mark.slow  # builds and compiles a copy per mutant (CI runs it, not the inner loop)
def test_every_patch_applies_exactly_once_and_compiles(tmp_path):
    # build_all raises MutantPatchError naming the mutant and the file when the engine changed
    mutants.build_all(list(mutants.MUTANTS), tmp_path)
    for m in mutants.MUTANTS:
        patched = (tmp_path / m.package / m.file).read_text(encoding="utf-8")
        original = (ROOT / "reference_impl" / m.file).read_text(encoding="utf-8")
        assert patched != original.replace("reference_impl", m.package), m.id
        assert "reference_impl" not in patched, f"{m.id}: an import still reaches the original"


def test_a_patch_that_no_longer_matches_fails_loudly(tmp_path):
    gone = mutants.Mutant("gone", "R-BEAT-1", "core.py", "this text is not in the engine", "x",
                          "nothing")
    with pytest.raises(mutants.MutantPatchError, match="not found in reference_impl/core.py"):
        mutants.build(gone, tmp_path)
    twice = mutants.Mutant("twice", "R-BEAT-1", "core.py", "def ", "def  ", "nothing")
    with pytest.raises(mutants.MutantPatchError, match="found [0-9]+ times"):
        mutants.build(twice, tmp_path)
    missing = mutants.Mutant("nofile", "R-BEAT-1", "nosuch.py", "a", "b", "nothing")
    with pytest.raises(mutants.MutantPatchError, match="does not exist"):
        mutants.build(missing, tmp_path)
    broken = mutants.Mutant("syntax", "R-BEAT-1", "queries.py", "def cap(s: State) -> int:",
                            "def cap(s: State) -> int", "nothing")
    with pytest.raises(mutants.MutantPatchError, match="does not compile"):
        mutants.build(broken, tmp_path)


# --------------------------------------------------------------------------- judging a report


def _report(path: Path, cases: list[tuple[str, str, list[str]]], exitstatus: int) -> Path:
    lines = [{"type": "header"}]
    for cid, outcome, rules in cases:
        area = rules[0].split("-")[1] if rules else "?"
        lines.append({"type": "case", "id": cid, "outcome": outcome, "rules": rules,
                      "area": area, "signature": "step 1 legal: wrong set"})
    lines.append({"type": "summary", "exitstatus": exitstatus})
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


BEAT = mutants.Mutant("m", "R-BEAT-1", "core.py", "a", "b", "a trump beaten by a lower one")


def test_verdict_caught_and_cited(tmp_path):
    report = _report(tmp_path / "r.jsonl", [
        ("a", "passed", ["R-BEAT-1"]),
        ("b", "failed", ["R-BEAT-1", "R-THROW-1"]),
        ("c", "failed", ["R-BEAT-3"]),
        ("d", "error", ["R-DRAW-2"]),
    ], 1)
    v = mutants.read_verdict(BEAT, report, 1.0)
    assert v.caught and v.ok and v.status == "caught"
    assert v.total == 4 and len(v.failing) == 3
    assert v.citing == ["b"] and v.citing_area == ["b", "c"]


def test_verdict_caught_by_the_area_only(tmp_path):
    report = _report(tmp_path / "r.jsonl", [("c", "failed", ["R-BEAT-3"])], 1)
    v = mutants.read_verdict(BEAT, report, 1.0)
    assert v.ok and v.status == "caught (area)"


def test_verdict_caught_but_uncited_is_not_ok(tmp_path):
    report = _report(tmp_path / "r.jsonl", [("d", "failed", ["R-DRAW-2"])], 1)
    v = mutants.read_verdict(BEAT, report, 1.0)
    assert v.caught and not v.ok and v.status == "caught, UNCITED"


def test_verdict_survivor_and_broken_runs(tmp_path):
    survived = mutants.read_verdict(
        BEAT, _report(tmp_path / "s.jsonl", [("a", "passed", ["R-BEAT-1"]),
                                             ("u", "unsupported", ["R-BEAT-1"])], 0), 1.0)
    assert not survived.caught and not survived.ok and survived.status == "SURVIVED"
    missing = mutants.read_verdict(BEAT, tmp_path / "none.jsonl", 1.0)
    assert missing.problem and not missing.ok and missing.status == "BROKEN RUN"
    usage = mutants.read_verdict(BEAT, _report(tmp_path / "u.jsonl", [], 2), 1.0)
    assert usage.problem and not usage.caught
    cut = tmp_path / "cut.jsonl"
    cut.write_text(json.dumps({"type": "case", "id": "b", "outcome": "failed",
                               "rules": ["R-BEAT-1"]}) + "\n", encoding="utf-8")
    interrupted = mutants.read_verdict(BEAT, cut, 1.0)
    assert interrupted.problem and not interrupted.ok


def test_the_control_must_pass_everything(tmp_path):
    clean = mutants.read_verdict(None, _report(tmp_path / "c.jsonl",
                                               [("a", "passed", ["R-BEAT-1"])], 0), 1.0)
    assert clean.ok and clean.status == "passes"
    dirty = mutants.read_verdict(None, _report(tmp_path / "d.jsonl",
                                               [("a", "failed", ["R-BEAT-1"])], 1), 1.0)
    assert not dirty.ok and dirty.status == "CONTROL FAILS"


# --------------------------------------------------------------------------- docs


def test_docs_list_every_mutant():
    text = (ROOT / "docs" / "mutants.md").read_text(encoding="utf-8")
    for m in mutants.MUTANTS:
        pattern = rf"^\| `{re.escape(m.id)}` \| {re.escape(m.rule)} \|"
        assert re.search(pattern, text, flags=re.MULTILINE), (
            f"docs/mutants.md has no table row for {m.id} ({m.rule}): python tools/mutants.py "
            "--markdown prints the table"
        )


# --------------------------------------------------------------------------- the proof


@pytest.mark.slow
def test_the_suite_catches_every_mutant(tmp_path):
    jobs = max(2, min(4, os.cpu_count() or 2))
    verdicts = mutants.run_all(list(mutants.MUTANTS), jobs=jobs, root=tmp_path, scope="area")
    table = mutants.table(verdicts)
    print(table)
    bad = [v for v in verdicts if not v.ok]
    detail = "\n\n".join(mutants.details(v) for v in bad)
    assert not bad, (
        f"\n{table}\n\nnot proven ({len(bad)}): a SURVIVED mutant is a gap in the suite (no case "
        f"fails when that rule is broken); see docs/mutants.md.\n{detail}\n"
        f"(logs and reports: {tmp_path / 'reports'})"
    )
    assert verdicts[0].id == mutants.CONTROL and verdicts[0].total > 0
