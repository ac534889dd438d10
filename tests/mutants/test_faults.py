"""tools/faults.py: automatic single-point faults drawn from the reference engine's source. The
campaign itself is long (the whole suite per fault) and is run by hand (docs/mutants.md); these
check the drawing and the patching it relies on."""

from __future__ import annotations

import importlib.util
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
