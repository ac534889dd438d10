"""The docs site: it builds with ``mkdocs build --strict`` (every link and anchor resolves), the
rules page shows each rule's cases, and the ambiguity explorer has every option value.

The build traces the whole suite (the generated pages come from the traceability index), so it
is slow; the link rewriting of docs/hooks.py is checked on its own, fast.
"""

from __future__ import annotations

import importlib.util
import json
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


# ---------------------------------------------------------------- the site as a browser draws it
#
# Headless Chromium (Debian's ``chromium``; under CI .ci/run installs it, elsewhere the tests
# skip saying how) draws the built site at 1400 x 1000: the home page must be a screenshot of
# that size in the theme's colours, not a blank or failed render; the rules page, measured by a
# script appended to a copy, must have the theme's header, the navigation beside the content,
# the rule headings with their cases, and nothing wider than the window.

#: mkdocs-material's indigo, the header's colour (mkdocs.yml: palette primary indigo)
INDIGO_RGB = (0x40, 0x51, 0xB5)

LAYOUT = """<script>
window.addEventListener("load", () => {
  const box = (sel) => { const n = document.querySelector(sel);
    if (!n) return null; const r = n.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, width: r.width, height: r.height}; };
  const out = {scroll: document.documentElement.scrollWidth, view: window.innerWidth,
               header: box(".md-header"), nav: box(".md-sidebar--primary"),
               content: box(".md-content"), beat: box('[id^="r-beat-1-"]')};
  document.body.setAttribute("data-layout", JSON.stringify(out));
});
</script>"""


@pytest.mark.slow
def test_home_page_screenshot_is_the_site_drawn(site: Path, tmp_path: Path) -> None:
    from runner.test_html_browser import HEIGHT, WIDTH, browse, colours, find_chromium, png_pixels

    shot = tmp_path / "home.png"
    browse(find_chromium(), tmp_path, site / "index.html", f"--screenshot={shot}")
    width, height, rows = png_pixels(shot.read_bytes())
    assert (width, height) == (WIDTH, HEIGHT)
    found = colours(rows)
    assert len(found) > 50, "a blank or failed render has few colours"
    # the theme's header bar, the full width of the window and about 48 px tall
    assert found.get(INDIGO_RGB, 0) > WIDTH * 30, sorted(found.items(), key=lambda i: -i[1])[:5]


@pytest.mark.slow
def test_rules_page_is_laid_out_with_navigation_and_cases(site: Path, tmp_path: Path) -> None:
    from runner.test_html_browser import browse, find_chromium

    page = site / "spec" / "rules" / "index.html"
    copy = page.with_name("measured.html")
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", LAYOUT + "</body>"),
                    encoding="utf-8")
    dom = browse(find_chromium(), tmp_path, copy, "--dump-dom", "--virtual-time-budget=5000")
    found = re.search(r'data-layout="([^"]+)"', dom.stdout)
    assert found, "the measuring script did not run"
    layout = json.loads(unescape(found.group(1)))
    assert layout["scroll"] <= layout["view"], layout
    header, nav, content = layout["header"], layout["nav"], layout["content"]
    # the header spans the page (the window less its scroll bar)
    assert header and header["top"] == 0 and header["width"] >= layout["scroll"] - 1, layout
    assert nav and content and nav["width"] > 100 and nav["right"] <= content["left"] + 1, layout
    assert layout["beat"] and layout["beat"]["width"] > 0, "no heading for R-BEAT-1"
    assert "Cases of R-BEAT-1:" in _text(dom.stdout)
