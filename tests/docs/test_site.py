"""The docs site: it builds with ``mkdocs build --strict`` (every link and anchor resolves), the
rules page shows each rule's cases, and the ambiguity explorer has every option value.

The build traces the whole suite (the generated pages come from the traceability index), so it
is slow; the link rewriting of docs/hooks.py is checked on its own, fast.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", html))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    return out


def test_links_leaving_docs_point_into_the_site() -> None:
    hooks = _hooks()
    page = "See [the rules](../spec/rules.md#r-beat-1-beating) and [a preset](../spec/rulesets/)."
    out = hooks._rewrite(page, "index.md", ROOT)
    assert "(spec/rules.md#r-beat-1-beating)" in out
    assert "(spec/rulesets/index.md)" in out
    # from a page one folder down the same files are one level up
    hooks._generated["spec/protocol.md"] = "spec/protocol.md"
    assert "(../architecture.md)" in hooks._rewrite(
        "[c](../docs/architecture.md)", "spec/protocol.md", ROOT
    )


def test_links_to_nothing_and_links_in_code_are_left_alone() -> None:
    hooks = _hooks()
    broken = "[gone](../spec/no-such-file.md) and [web](https://example.org/x.md)"
    assert hooks._rewrite(broken, "index.md", ROOT) == broken
    fenced = "```\n[x](../spec/rules.md)\n```\n"
    assert hooks._rewrite(fenced, "index.md", ROOT) == fenced


@pytest.mark.slow
def test_rules_page_lists_each_rules_cases(site: Path) -> None:
    from conformance.tools.traceability import collect

    text = _text((site / "spec" / "rules" / "index.html").read_text(encoding="utf-8"))
    coverage = collect()
    for row in coverage.rules:
        assert f"Cases of {row.rule}:" in text, row.rule
    beat = next(row for row in coverage.rules if row.rule == "R-BEAT-1")
    block = text[text.index("Cases of R-BEAT-1:") : text.index("Cases of R-BEAT-2:")]
    assert beat.negative and beat.negative[0] in block
    assert f"{len(beat.positive)} allowing, {len(beat.negative)} forbidding" in text


@pytest.mark.slow
def test_explorer_has_every_option_value(site: Path) -> None:
    from reference_impl.rulesets import catalog_options

    text = _text((site / "ambiguity-explorer" / "index.html").read_text(encoding="utf-8"))
    for name, spec in catalog_options().items():
        for value in spec["values"]:
            assert f"{name}: {value}" in text, f"{name}={value}"
    assert re.search(r"\b[1-9]\d* cases tell\s+all_beaten\s+apart", text)
