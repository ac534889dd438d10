"""tools/faults.py: automatic single-point faults drawn from the reference engine's source. The
campaign itself is long (the whole suite per fault) and is run by hand (docs/mutants.md); these
check the drawing and the patching it relies on."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("durak_tools_faults", ROOT / "tools" / "faults.py")
faults = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = faults  # dataclasses look their module up
_spec.loader.exec_module(faults)
mutants = faults.mutants


def test_sites_of_every_kind_in_a_small_source():
    text = 'def f(a, b):\n    """1 < 2 in a docstring is no site."""\n    return a < b and b == 3 or True\n'
    found = {(s.kind, s.old, s.new) for s in faults.sites_in("x.py", text)}
    assert found == {
        ("compare", "<", "<="), ("compare", "==", "!="), ("constant", "3", "4"),
        ("constant", "True", "False"), ("boolean", "or", "and"), ("boolean", "and", "or"),
    }


def test_each_site_stands_where_it_says():
    every = faults.all_sites()
    assert len(every) > 300
    for site in every:
        text = (faults.ENGINE_DIR / site.file).read_text(encoding="utf-8")
        assert text[site.at : site.at + len(site.old)] == site.old, site.id
    assert len({s.id for s in every}) == len(every)


def test_the_sample_is_fixed_by_its_seed_and_each_fault_builds(tmp_path):
    drawn = faults.sample(7, 15)
    assert drawn == faults.sample(7, 15) and drawn != faults.sample(8, 15)
    for site in drawn:
        fault = site.mutant()
        mutants.build(fault, tmp_path)  # patches at the offset and compiles, or raises
        patched = (tmp_path / fault.package / site.file).read_text(encoding="utf-8")
        original = (faults.ENGINE_DIR / site.file).read_text(encoding="utf-8")
        assert patched != mutants._rename(original, fault.package)


def test_a_fault_whose_place_moved_is_refused(tmp_path):
    site = faults.sample(7, 1)[0]
    moved = mutants.Mutant("moved", "R-AUTO-0", site.file, site.old, site.new, "x", site.at + 1)
    with pytest.raises(mutants.MutantPatchError, match="no longer has"):
        mutants.build(moved, tmp_path)


#: a stand-in worker: answers ``ok`` at once, never answers ``hang``, dies on ``die``
FAKE_WORKER = f"""
import os, sys, time
print({faults.MARK!r} + '{{"ready": true}}', flush=True)
for line in sys.stdin:
    task = line.strip()
    if task.startswith("hang"):
        time.sleep(600)
    if task.startswith("die"):
        sys.stderr.write("the fake worker dies\\n")
        sys.stderr.flush()
        os._exit(3)
    print("noise a suite run may print")
    print({faults.MARK!r} + '{{"task": "' + task + '", "result": 42}}', flush=True)
"""


def _run_fake(tasks, tmp_path, jobs=2, limit=3.0):
    seen = []
    outcomes = faults.run_tasks(tasks, [sys.executable, "-c", FAKE_WORKER], jobs=jobs,
                                limit=limit, env=dict(os.environ), cwd=tmp_path, logs=tmp_path,
                                on_done=seen.append)
    return outcomes, seen


@pytest.mark.slow  # waits out planted hangs (CI runs it, not the inner loop)
def test_a_hang_and_a_crash_cost_only_their_own_task(tmp_path):
    tasks = ["ok-1", "hang-1", "ok-2", "die-1", "ok-3", "ok-4"]
    outcomes, seen = _run_fake(tasks, tmp_path)
    assert set(outcomes) == set(tasks) and sorted(o.task for o in seen) == sorted(tasks)
    assert {t: outcomes[t].status for t in tasks} == {
        "ok-1": "done", "hang-1": "hung", "ok-2": "done", "die-1": "crashed", "ok-3": "done",
        "ok-4": "done"}
    assert all(outcomes[t].result == 42 for t in tasks if t.startswith("ok"))
    assert 3.0 <= outcomes["hang-1"].seconds < 30
    assert "the fake worker dies" in outcomes["die-1"].detail


@pytest.mark.slow  # waits out planted hangs (CI runs it, not the inner loop)
def test_one_worker_goes_on_after_each_hang_and_crash(tmp_path):
    outcomes, _ = _run_fake(["die-1", "die-2", "hang-1", "ok-1"], tmp_path, jobs=1, limit=1.0)
    assert [outcomes[t].status for t in ("die-1", "die-2", "hang-1", "ok-1")] == [
        "crashed", "crashed", "hung", "done"]


def test_a_worker_that_cannot_start_stops_the_run(tmp_path):
    with pytest.raises(RuntimeError, match="die before any task"):
        faults.run_tasks(["ok-1"], [sys.executable, "-c", "import sys; sys.exit(1)"], jobs=1,
                         limit=5.0, env=dict(os.environ), cwd=tmp_path, logs=tmp_path)


def _site(file: str, line: int, old: str, new: str):
    found = [s for s in faults.all_sites() if (s.file, s.line, s.old, s.new) == (file, line, old,
                                                                                   new)]
    if len(found) != 1:
        pytest.fail(f"no single site {file}:{line} {old}->{new}: the engine changed, choose "
                    "another fault that loops")
    return found[0]


@pytest.mark.slow
def test_a_fault_that_loops_is_caught_through_serve(tmp_path):
    """bout_end.py's one-card-at-a-time draw, with ``drew`` never reset, loops for ever once
    every hand is full while the talon still holds cards: in process the suite would never end;
    through serve the runner's timeout reports it."""
    fault = _site("bout_end.py", 74, "False", "True").mutant()
    mutants.build(None, tmp_path)
    mutants.build(fault, tmp_path)
    (tmp_path / "reports").mkdir()
    outcomes = faults.run_tasks([fault.id], faults._worker_argv(tmp_path, "suite", 0, 0), jobs=1,
                                limit=20.0, env=faults._worker_env(tmp_path), cwd=tmp_path,
                                logs=tmp_path / "reports")
    assert outcomes[fault.id].status == "hung"
    caught, shown = faults.through_serve(fault, tmp_path, 300.0)
    assert caught is True and "timeout" in shown, shown
