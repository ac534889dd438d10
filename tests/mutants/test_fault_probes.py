"""tools/fault_probes.py: the questions that show a surviving fault changes behaviour where random
games cannot (the validator, the diagnosis, the reading of requests). Each probe is shown to find
a real automatic fault of its kind, and to find nothing on the reference itself."""

from __future__ import annotations

import copy
import importlib
import importlib.util
import random
import sys
from pathlib import Path

import pytest

from conformance.contract import canonical
from conformance.engines.base import ErrorResult, InProcessEngine

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str, file: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


faults = _load("durak_tools_faults", "faults.py")
probes = _load("durak_tools_fault_probes", "fault_probes.py")


@pytest.fixture(scope="module")
def prober():
    return probes.Prober(games=3, seed=11)


def _site(file: str, line_text: str, old: str):
    """The one automatic fault site of ``file`` whose line holds ``line_text`` and whose old text
    is ``old``."""
    lines = (faults.ENGINE_DIR / file).read_text(encoding="utf-8").splitlines()
    found = [s for s in faults.all_sites()
             if s.file == file and line_text in lines[s.line - 1] and s.old == old]
    assert len(found) == 1, (file, line_text, old, found)
    return found[0]


def _fault_engine(site, root: Path):
    fault = site.mutant()
    faults.mutants.build(fault, root)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return importlib.import_module(f"{fault.package}._engine").make()


def test_neighbours_start_with_the_state_and_each_changes_it(prober):
    state = prober.states[1]
    first = list(probes.neighbours(state, random.Random(3)))
    again = list(probes.neighbours(state, random.Random(3)))
    assert first == again
    assert first[0] == ("the state as is", state)
    assert 10 < len(first) <= probes.NEIGHBOURS_PER_STATE + 1
    assert all(changed != state for _, changed in first[1:])
    assert state == prober.states[1]  # the real state itself is never edited


@pytest.mark.slow  # runs every probe on many states (CI runs it, not the inner loop)
def test_the_neighbours_hold_states_the_reference_refuses_and_states_it_accepts(prober):
    answers = [a for _, _, a in prober.questions("states")]
    refused = [a for a in answers if isinstance(a, ErrorResult)]
    assert refused and len(refused) < len(answers)
    assert {a.code for a in refused} == {"invalid_state"}


def test_refused_moves_are_outside_the_legal_set_and_refused_by_the_reference(prober):
    reference = InProcessEngine()
    state = next(s for s in prober.states if s["result"] is None)
    legal = reference.legal_moves(state)
    listed = {canonical.canonical_move(m) for m in legal}
    moves = probes.refused_moves(state, legal, random.Random(1))
    assert len(moves) == probes.REFUSALS_PER_STATE
    for move in moves:
        assert canonical.canonical_move(move) not in listed
        answer = reference.apply(copy.deepcopy(state), move)
        assert isinstance(answer, ErrorResult) and answer.code == "illegal_move", move


@pytest.mark.slow  # runs every probe on many states (CI runs it, not the inner loop)
def test_the_reference_differs_from_itself_nowhere(prober):
    assert prober.first_difference(InProcessEngine()) is None


@pytest.mark.slow  # plants a fault and probes every state (CI runs it, not the inner loop)
def test_a_validator_that_accepts_another_version_is_found_by_the_states(prober, tmp_path):
    site = _site("validate.py", 'st["version"] != 1 or', "or")
    found = prober.ask(_fault_engine(site, tmp_path), "states")
    assert found and not found[0].weak
    assert "version" in found[0].what


def test_a_seed_past_64_bits_is_found_by_the_requests(prober, tmp_path):
    site = _site("api.py", "if not 0 <= seed < 1 << 64:", "1")
    found = prober.ask(_fault_engine(site, tmp_path), "requests")
    assert found and not found[0].weak
    assert "seed 18446744073709551616" in found[0].what


@pytest.mark.slow  # plants a fault and probes every state (CI runs it, not the inner loop)
def test_a_refusal_naming_another_rule_is_found_by_the_refusals(prober, tmp_path):
    site = _site("diagnose.py", "if act == TRANSFER and not s.r.transfer:", "==")
    found = prober.ask(_fault_engine(site, tmp_path), "refusals")
    assert found and not found[0].weak
    assert found[0].reference[0] == "error" and found[0].reference != found[0].candidate


def test_a_pointer_alone_is_a_weak_difference():
    ref = ErrorResult("invalid_state", "x", pointer="/bout/defender")
    cand = ErrorResult("invalid_state", "x", pointer="/bout")
    weak = probes._compare("states", "a state", {}, ref, cand)
    assert weak is not None and weak.weak
    strong = probes._compare("states", "a state", {}, ref, [])
    assert strong is not None and not strong.weak
    rule = probes._compare("refusals", "a move", {}, ErrorResult("illegal_move", rule="R-BEAT-1"),
                           ErrorResult("illegal_move", rule="R-BEAT-3"))
    assert rule is not None and not rule.weak


def test_only_selects_from_the_sample_and_refuses_an_unknown_id():
    drawn = faults.sample(7, 10)
    assert faults.select(drawn, f"{drawn[3].id},{drawn[1].id}") == [drawn[3], drawn[1]]
    assert faults.select(drawn, None) == drawn
    with pytest.raises(SystemExit, match="not in this sample: auto-nope"):
        faults.select(drawn, "auto-nope")
