"""The generated pages (docs/ambiguities.md, docs/variants.md) match the YAML they come from."""

from __future__ import annotations

import runpy

import pytest

from reference_impl.rulesets import load_catalog, preset_names
from tests.spec.conftest import REPO


@pytest.fixture(scope="module")
def generator() -> dict:
    return runpy.run_path(str(REPO / "tools" / "gen_spec_docs.py"), run_name="spec_test")


@pytest.mark.parametrize("page", ["ambiguities.md", "variants.md"])
def test_generated_page_is_current(generator, page):
    committed = (REPO / "docs" / page).read_text(encoding="utf-8")
    assert committed == generator["TARGETS"][page](), f"run python tools/gen_spec_docs.py ({page})"


def test_ambiguities_page_lists_every_entry():
    text = (REPO / "docs" / "ambiguities.md").read_text(encoding="utf-8")
    for entry in load_catalog()["ambiguities"]:
        assert f"### {entry['id']}" in text


def test_variants_page_lists_every_preset():
    text = (REPO / "docs" / "variants.md").read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.startswith("| option |"))
    for name in preset_names():
        assert f" {name} |" in header


def test_index_links_resolve():
    text = (REPO / "docs" / "index.md").read_text(encoding="utf-8")
    import re

    for target in re.findall(r"\]\(([^)#]+)\)", text):
        assert (REPO / "docs" / target).resolve().exists(), f"broken link {target}"
