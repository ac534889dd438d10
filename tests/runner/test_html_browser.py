"""The report page as a browser draws it: five engines side by side in headless Chromium.

The page is made from five real runs of the runner's small suite (tests/runner/data/suite: a
beat by trump, a deal, a transfer): the reference engine, ``wrong_engine`` (no trump beats a
plain card, R-BEAT-1 broken), ``narrow_engine`` (an honest narrow claim), a process engine that
crashes on every apply and one that claims only the defaults. Chromium (Debian's ``chromium``)
takes a screenshot at 1400 x 1000, which must be a PNG of that size with the page's colours in
it (a blank or failed render is one colour), and dumps the DOM of a copy of the page with one
measuring script appended (the page itself has none): the key parts must be there and laid
out, and nothing may stick out of the window's width.

Without Chromium the test fails under CI (``CI`` set: .ci/run installs it) and is skipped
elsewhere, saying how to install it.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.reports.html import render_html
from conformance.reports.reader import load_report
from conformance.tools.traceability import SpecIndex

from .helpers import DATA, ENGINES, engine_env, misbehave_command, token
from .test_html_report import changes_listed, matrix, parse, section_after

WIDTH, HEIGHT = 1400, 1000
#: the five runs: name -> (engine, the exit status the run must end with)
RUNS = {
    "reference": ("reference", 0),
    "wrong": ("python:wrong_engine:make", 1),
    "narrow": ("python:narrow_engine:make", 3),  # 3: fewer than half the cases ran
    "crash": (None, 1),  # misbehave crash-apply
    "classic": (None, 3),  # misbehave classic: only the default options claimed
}
#: R-BEAT-1: a trump beats a card of another suit; the wrong engine's one cause.
TRUMP_CAUSE = "the engine misses beat (a trump on a plain card), which the rules allow"
#: Colours of the page's stylesheet (conformance/reports/templates/style.css) as RGB: a cell of
#: passed cases and one of failing cases, both in the engines table at the top.
PASSED_RGB, FAILED_RGB = (0xD6, 0xF0, 0xD6), (0xF5, 0xC9, 0xC9)

#: Appended to a copy of the page: where the key parts are, and how wide the page is.
MEASURE = """<script>
const out = {scroll: document.documentElement.scrollWidth, view: window.innerWidth,
             height: document.documentElement.scrollHeight, parts: {}};
for (const id of ["engines", "differences", "causes", "failures"]) {
  const head = document.getElementById(id);
  let table = null;
  for (let n = head && head.nextElementSibling; n && n.tagName !== "H2" && !table;
       n = n.nextElementSibling) {
    table = n.matches("table, details.case") ? n : n.querySelector("table, details.case");
  }
  const box = table && table.getBoundingClientRect();
  out.parts[id] = box && {top: box.top + window.scrollY, width: box.width,
                          height: box.height, right: box.right};
}
document.body.setAttribute("data-layout", JSON.stringify(out));
</script>"""


def find_chromium() -> str:
    """Debian's chromium; without it a test fails under CI and is skipped elsewhere."""
    found = shutil.which("chromium")
    if found is None:
        install = "apt-get install -y --no-install-recommends chromium"
        if os.environ.get("CI"):
            pytest.fail(f"CI: chromium is not installed; .ci/run installs it with `{install}`")
        pytest.skip(f"chromium is not installed (Debian: `{install}`)")
    return found


@pytest.fixture(scope="module")
def chromium() -> str:
    return find_chromium()


def browse(chromium: str, tmp_path: Path, page: Path, *mode: str) -> subprocess.CompletedProcess:
    """Chromium headless on ``page`` with its own profile, no network of its own, one mode
    (``--screenshot=PNG`` or ``--dump-dom``)."""
    profile = tmp_path / f"profile-{token()}"
    argv = [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        f"--window-size={WIDTH},{HEIGHT}",
        *mode,
        page.resolve().as_uri(),
    ]
    done = subprocess.run(argv, check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


@pytest.fixture(scope="module")
def five_page(tmp_path_factory) -> Path:
    """The page of five runs of the small suite, written to a file."""
    out = tmp_path_factory.mktemp("five")
    paths = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", engine_env()["PYTHONPATH"])
        patch.syspath_prepend(str(ENGINES))
        for name, (engine, status) in RUNS.items():
            engine = engine or misbehave_command(
                "crash-apply" if name == "crash" else name, tag=token()
            )
            path = out / f"{name}.jsonl"
            argv = ["run", "--no-fixtures", "--no-features", "--fixtures", str(DATA / "suite")]
            assert main([*argv, "--engine", engine, "--json", str(path)]) == status, name
            paths.append(path)
    page = out / "five.html"
    page.write_text(
        render_html([load_report(p) for p in paths], SpecIndex.load().rules), encoding="utf-8"
    )
    return page


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the rows of RGB(A) bytes of an 8-bit truecolour PNG (what Chromium
    writes), its row filters undone (PNG specification, section 9)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    chunks, at = {}, 8
    idat = b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        idat += body if kind == b"IDAT" else b""
        chunks.setdefault(kind, body)
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert depth == 8 and colour in (2, 6), f"bit depth {depth}, colour type {colour}"
    size = 3 if colour == 2 else 4
    stride = width * size
    raw, rows, previous = zlib.decompress(idat), [], bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        if kind == 2:  # up: the byte above added (the commonest filter, done in one go)
            line = bytearray((x + b) & 0xFF for x, b in zip(line, previous, strict=True))
        elif kind in (1, 3, 4):
            for x in range(stride):
                a = line[x - size] if x >= size else 0
                b, c = previous[x], (previous[x - size] if x >= size else 0)
                if kind == 1:
                    line[x] = (line[x] + a) & 0xFF
                elif kind == 3:
                    line[x] = (line[x] + (a + b) // 2) & 0xFF
                else:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    near = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                    line[x] = (line[x] + near) & 0xFF
        rows.append(bytes(line))
        previous = rows[-1]
    if size == 4:
        rows = [b"".join(r[i : i + 3] for i in range(0, stride, 4)) for r in rows]
    return width, height, rows


def colours(rows: list[bytes]) -> dict[tuple[int, int, int], int]:
    counts: dict[tuple[int, int, int], int] = {}
    for row in rows:
        for i in range(0, len(row), 3):
            pixel = (row[i], row[i + 1], row[i + 2])
            counts[pixel] = counts.get(pixel, 0) + 1
    return counts


@pytest.mark.slow
def test_five_engines_screenshot_is_the_page_drawn(chromium, five_page, tmp_path):
    shot = tmp_path / "five.png"
    browse(chromium, tmp_path, five_page, f"--screenshot={shot}")
    assert shot.exists() and shot.stat().st_size > 10_000
    width, height, rows = png_pixels(shot.read_bytes())
    assert (width, height) == (WIDTH, HEIGHT)
    found = colours(rows)
    background, most = max(found.items(), key=lambda item: item[1])
    assert background == (255, 255, 255)
    assert width * height - most > width * height // 50, "almost every pixel is the background"
    assert len(found) > 50  # text is drawn with anti-aliased edges: many shades
    # The engines table's totals: a passed cell and a failed cell, in the stylesheet's colours.
    assert found.get(PASSED_RGB, 0) > 500 and found.get(FAILED_RGB, 0) > 500


@pytest.mark.slow
def test_five_engines_key_parts_laid_out_within_the_window(chromium, five_page, tmp_path):
    copy = tmp_path / "measured.html"
    page = five_page.read_text(encoding="utf-8")
    assert "<script" not in page
    copy.write_text(page.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    dom = browse(chromium, tmp_path, copy, "--dump-dom").stdout
    layout = json.loads(html.unescape(re.search(r'data-layout="([^"]*)"', dom).group(1)))
    # Nothing sticks out sideways at 1400 px: five columns wrap, or scroll inside their table.
    assert layout["scroll"] <= layout["view"] <= WIDTH, layout
    for part in ("engines", "differences", "causes", "failures"):
        box = layout["parts"][part]
        assert box and box["width"] > 0 and box["height"] > 0, (part, layout)
        assert box["right"] <= layout["view"], (part, box)
    assert layout["parts"]["engines"]["top"] < HEIGHT  # the first screen shows the engines

    root = parse(re.sub(r"<script>.*?</script>", "", dom, flags=re.DOTALL))
    head, rows = matrix(section_after(root, "engines"))
    assert len(head) == 1 + len(RUNS)
    assert [c.text for c in rows["failed"]][:2] == ["0", "1"]
    listed = changes_listed(root)
    assert "runner-beat-trump-over-plain" in listed["regression"]
    causes = section_after(root, "causes")
    first = next(causes.find("tbody").iter("tr"))
    assert TRUMP_CAUSE in first.text and "R-BEAT-1" in first.text
