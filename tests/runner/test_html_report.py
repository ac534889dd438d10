"""`durak-conformance report`: real run reports rendered as one HTML page (and Markdown).

The reports are made here, by running the packaged suite with ``--json`` against the reference
engine and against ``engines/wrong_engine.py`` (trumps no longer beat other suits, R-BEAT-1
broken), and the small runner suite against misbehaving process engines (one that crashes on
every apply, one that honestly claims only the default options). The page is parsed, not
grepped, so a tag left open or a value not escaped breaks the tree and fails the test.
"""

from __future__ import annotations

import json
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.reports.html import MOST_FAILING, render_html
from conformance.reports.markdown import render_markdown
from conformance.reports.page import cell, move_text
from conformance.reports.reader import ReportFileError, load_report
from conformance.tools.traceability import SpecIndex

from .helpers import DATA, engine_env, misbehave_command, token
from .shared_runs import shared_run

#: R-BEAT-1: a trump beats any card of another suit. The wrong engine breaks exactly that, so
#: the packaged case showing a trump six beating a plain ace must fail on it, citing R-BEAT-1.
TRUMP_CASE = "beat-trump-six-beats-non-trump-ace"
#: The runner's own small suite (tests/runner/data/suite): a beat by trump, a deal, a transfer.
SMALL_BEAT = "runner-beat-trump-over-plain"
SMALL_DEAL = "runner-deal-unshuffled-two-players"
SMALL_TRANSFER = "runner-transfer-to-next-player"


# ------------------------------------------------------------------------- a small HTML tree

VOID = {"meta", "br", "hr", "img", "input", "link"}


class Node:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Node | None):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node | str] = []

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def iter(self, tag: str | None = None):
        for child in self.children:
            if isinstance(child, Node):
                if tag is None or child.tag == tag:
                    yield child
                yield from child.iter(tag)

    def child(self, tag: str) -> Node:
        return next(c for c in self.children if isinstance(c, Node) and c.tag == tag)

    def find(self, tag: str, **attrs: str) -> Node:
        found = [n for n in self.iter(tag) if all(n.attrs.get(k) == v for k, v in attrs.items())]
        assert len(found) == 1, f"{len(found)} <{tag} {attrs}>"
        return found[0]


class TreeBuilder(HTMLParser):
    """Builds the tree, failing on an end tag that does not close the open element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {}, None)
        self.open = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.open)
        self.open.children.append(node)
        if tag not in VOID:
            self.open = node

    def handle_endtag(self, tag):
        assert self.open.tag == tag, f"</{tag}> closes <{self.open.tag}>"
        self.open = self.open.parent

    def handle_data(self, data):
        self.open.children.append(data)


def parse(page: str) -> Node:
    builder = TreeBuilder()
    builder.feed(page)
    builder.close()
    assert builder.open is builder.root, f"<{builder.open.tag}> never closed"
    return builder.root


def section_after(root: Node, anchor: str, tag: str = "table") -> Node:
    """The first ``tag`` after the ``<h2 id=anchor>`` heading, in document order (a table may
    sit in a scrolling wrapper or a collapsed section), and before the next ``<h2>``."""
    nodes = list(root.find("body").iter())
    start = next(i for i, n in enumerate(nodes) if n.tag == "h2" and n.attrs.get("id") == anchor)
    for node in nodes[start + 1 :]:
        if node.tag == tag:
            return node
        assert node.tag != "h2", f"no <{tag}> in the section {anchor!r}"
    raise AssertionError(f"no <{tag}> after the section {anchor!r}")


def matrix(table: Node) -> tuple[list[str], dict[str, list[Node]]]:
    """Header texts and ``{row name: [cell nodes]}`` of a matrix table."""
    head = [th.text for th in table.find("thead").iter("th")]
    rows = {}
    for tr in table.find("tbody").iter("tr"):
        cells = [c for c in tr.children if isinstance(c, Node)]
        rows[cells[0].text] = cells[1:]
    return head, rows


def failure_blocks(root: Node) -> dict[str, Node]:
    return {n.attrs["id"]: n for n in root.iter("details") if "case" in n.classes}


# ------------------------------------------------------------------------- the reports


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:
    """Real reports: the packaged suite on the reference and the wrong engine (shared runs)."""
    runs = {name: shared_run(name, tmp_path_factory) for name in ("reference", "wrong")}
    assert (runs["reference"].status, runs["wrong"].status) == (0, 1)
    return {name: run.report for name, run in runs.items()}


@pytest.fixture(scope="module")
def small_reports(tmp_path_factory) -> dict[str, Path]:
    """The runner's small suite on process engines: one crashing on apply (error outcomes with
    diagnostics), one honestly claiming only the defaults (unsupported cases)."""
    out = tmp_path_factory.mktemp("small")
    paths = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", engine_env()["PYTHONPATH"])
        for mode in ("crash-apply", "classic"):
            paths[mode] = out / f"{mode}.jsonl"
            argv = ["run", "--no-fixtures", "--no-features", "--fixtures", str(DATA / "suite")]
            argv += ["--engine", misbehave_command(mode, tag=token()), "--json", str(paths[mode])]
            assert main(argv) == (1 if mode == "crash-apply" else 3)  # 3: 1 of 3 ran
    return paths


@pytest.fixture(scope="module")
def page(reports) -> str:
    loaded = [load_report(reports["reference"]), load_report(reports["wrong"])]
    return render_html(loaded, SpecIndex.load().rules)


# ------------------------------------------------------------------------- the page


@pytest.mark.slow
def test_page_is_one_static_file(page):
    root = parse(page)
    assert root.find("html").attrs.get("lang") == "en"
    assert not list(root.iter("script")) and not list(root.iter("link"))
    assert not any(n.attrs.get("src") for n in root.iter())
    hrefs = [n.attrs["href"] for n in root.iter("a")]
    assert hrefs and all(href.startswith("#") for href in hrefs)
    targets = {n.attrs["id"] for n in root.iter() if n.attrs.get("id")}
    assert {href[1:] for href in hrefs} <= targets  # every in-page link lands


@pytest.mark.slow
def test_engines_side_by_side_with_identity_claims_and_totals(page, reports):
    root = parse(page)
    head, rows = matrix(section_after(root, "engines"))
    assert len(head) == 3
    # Both engines call themselves the reference engine; the labels tell the files apart.
    assert "reference.jsonl" in head[1] and "wrong.jsonl" in head[2]
    assert [c.text for c in rows["command"]] == [
        "reference (in process)",
        "python:wrong_engine:make",
    ]
    for name in ("passed", "failed", "unsupported", "not run", "xfailed"):
        assert name in rows
    wrong_cases = load_report(reports["wrong"]).cases
    failed = sum(case["outcome"] == "failed" for case in wrong_cases)
    assert [c.text for c in rows["failed"]] == ["0", str(failed)] and failed > 0
    assert "fail" in rows["failed"][1].classes
    claims = section_after(root, "engines", "details")
    _, claimed = matrix(claims.find("table"))
    assert [c.text for c in claimed["players, deck 36"]] == ["2, 3, 4, 5, 6"] * 2
    assert "free, main_first, circle" in claimed["throw_in_priority"][0].text


@pytest.mark.slow
def test_area_and_option_matrices_compare_the_engines(page, reports):
    root = parse(page)
    reference = load_report(reports["reference"]).cases
    head, areas = matrix(section_after(root, "areas"))
    assert len(head) == 3
    beat = sum(case["area"] == "BEAT" for case in reference)
    ref_cell, wrong_cell = areas["BEAT"]
    assert ref_cell.text == f"{beat}/{beat}" and "ok" in ref_cell.classes
    assert "fail" in wrong_cell.classes  # R-BEAT-1 broken
    passed, run = map(int, wrong_cell.text.split("/"))
    assert run == beat and passed < beat
    # An area in which no case of the wrong engine fails is drawn as passing for it too.
    wrong = load_report(reports["wrong"]).cases
    failing_areas = {c["area"] for c in wrong if c["outcome"] in ("failed", "error")}
    clean = [area for area in areas if area not in failing_areas]
    assert clean and all("ok" in areas[area][1].classes for area in clean)
    _, options = matrix(section_after(root, "options"))
    assert "transfer=on" in options and "deck_size=52" in options
    assert all("ok" in c.classes for c in options["deck_size=52"][:1])


@pytest.mark.slow
def test_failing_cases_of_the_wrong_engine_are_named_with_rules_step_expected_actual(page, reports):
    root = parse(page)
    blocks = failure_blocks(root)
    wrong = load_report(reports["wrong"])
    failing = [case for case in wrong.cases if case["outcome"] == "failed"]
    assert all(block.startswith("fail-2-") for block in blocks)  # none for the reference
    shown = {block.child("summary").find("code").text: block for block in blocks.values()}
    assert set(shown) == {case["id"] for case in failing}
    for case in failing:
        summary = shown[case["id"]].child("summary").text
        assert all(rule in summary for rule in case["rules"])
    trump = shown[TRUMP_CASE]
    fields = dict(zip((dt.text for dt in trump.iter("dt")), trump.iter("dd"), strict=True))
    assert "R-BEAT-1" in fields["rules"].text
    assert fields["step"].text.startswith("step ")
    # The trump six over the plain ace is expected and is what the engine leaves out.
    expected = fields["expected"].text
    actual = json.loads(fields["actual"].text)
    assert (
        "6" in expected
        and actual["missing"]
        and all(m["action"] == "beat" for m in actual["missing"])
    )
    assert "state before the step" in fields or "starting state" in fields


@pytest.mark.slow
def test_rule_sections_list_cases_per_engine_and_link_failures(page, reports):
    root = parse(page)
    rule = root.find("details", id="rule-R-BEAT-1")
    assert "open" in rule.attrs  # a failing rule opens by itself
    assert "What beats what" in rule.child("summary").text  # title from spec/rules.md
    # The open rule shows its first failing cases; the rest (failing or not) are collapsed
    # below them, so every case citing the rule is still listed, once.
    tables = [matrix(table)[1] for table in rule.iter("table")]
    shown, rest = tables
    wrong = load_report(reports["wrong"]).cases
    citing = [c for c in wrong if "R-BEAT-1" in c["rules"]]
    failing = [c for c in citing if c["outcome"] == "failed"]
    assert len(shown) == min(MOST_FAILING, len(failing)) and len(rest) == len(citing) - len(shown)
    assert all(cells[-1].text == "failed" for cells in shown.values())
    assert "open" not in rule.find("details", **{"class": "rest"}).attrs
    rows = {**shown, **rest}
    label = next(name for name in rows if name.startswith(f"{TRUMP_CASE} "))
    kind, ref_cell, wrong_cell = rows[label]
    assert kind.text == "fixture" and ref_cell.text == "passed" and wrong_cell.text == "failed"
    link = wrong_cell.find("a")
    assert link.attrs["href"][1:] in failure_blocks(root)
    # Exactly the rules with a failing case on some engine are open; the others are closed.
    failing_rules = {r for c in wrong if c["outcome"] == "failed" for r in c["rules"]}
    opened = {
        d.attrs["id"].removeprefix("rule-")
        for d in root.iter("details")
        if "rule" in d.classes and "open" in d.attrs
    }
    assert opened == failing_rules
    assert len([d for d in root.iter("details") if "rule" in d.classes]) > len(opened)


def changes_listed(root: Node) -> dict[str, dict[str, list[Node]]]:
    """The differences section's tables by kind: ``{regression|fix|other: {case ID: cells}}``
    (cells: the case, one per report, the difference)."""
    out: dict[str, dict[str, list[Node]]] = {"regression": {}, "fix": {}, "other": {}}
    for table in root.iter("table"):
        if "changes" in table.classes:
            (kind,) = table.classes - {"changes"}
            for tr in table.find("tbody").iter("tr"):
                out[kind][tr.find("code").text] = [c for c in tr.children if isinstance(c, Node)]
    return out


def outcomes(report) -> dict[str, str]:
    return {case["id"]: case["outcome"] for case in report.cases}


@pytest.mark.slow
def test_differences_list_exactly_the_cases_with_different_outcomes(page, reports):
    """Reference first, wrong engine second: every differing case is a regression (passed,
    now failed), each with its difference inline, and none is a fix or another change."""
    root = parse(page)
    listed = changes_listed(root)
    ref, wrong = (outcomes(load_report(reports[name])) for name in ("reference", "wrong"))
    differing = {i for i in ref if ref[i] != wrong.get(i)}
    assert differing and set(listed["regression"]) == differing
    assert not listed["fix"] and not listed["other"]
    assert {ref[i] for i in differing} == {"passed"} and {wrong[i] for i in differing} == {"failed"}
    cells = listed["regression"][TRUMP_CASE]
    assert [c.text for c in cells[1:3]] == ["passed", "failed"] and "regression" in cells[2].classes
    # R-BEAT-1: the trump six beats the plain ace; the wrong engine leaves that beat out.
    difference = cells[-1].text
    assert difference.startswith("missing: beat 6") and " on A" in difference
    counts = section_after(root, "differences", "p").text
    assert f"{len(differing)} regressions" in counts and "0 fixes" in counts


@pytest.mark.slow
def test_fixes_come_first_and_unsupported_is_never_a_regression(reports):
    """Wrong engine first, then the reference (its failures fixed), then a run of the reference
    that claims less (some cases unsupported). The fixes are the wrong engine's failures; a
    case passed in the first run and unsupported in the third is another change, never a
    regression, and its cell names the claim it waits for."""
    wrong, fixed, narrow = (load_report(reports[n]) for n in ("wrong", "reference", "reference"))
    failing = {c["id"] for c in wrong.cases if c["outcome"] == "failed"}
    passing = [c["id"] for c in wrong.cases if c["outcome"] == "passed"]
    first_failing = min(failing)
    blocked = set(passing[:7]) | {first_failing}
    narrow.cases = [
        dict(case, outcome="unsupported", blockers=["3 players with deck 24"])
        if case["id"] in blocked
        else case
        for case in narrow.cases
    ]
    root = parse(render_html([wrong, fixed, narrow]))
    listed = changes_listed(root)
    assert not listed["regression"]
    assert set(listed["fix"]) == failing
    assert set(listed["other"]) == set(passing[:7])
    for case_id in passing[:7]:
        cells = listed["other"][case_id]
        assert [c.text.split("needs")[0] for c in cells[1:4]] == ["passed", "passed", "unsupported"]
        assert "needs 3 players with deck 24" in cells[3].text
        assert "regression" not in cells[3].classes
    # A fixed case that the third run does not support stays a fix, with the claim shown.
    assert "unsupported" in listed["fix"][first_failing][3].text
    assert "fix" in listed["fix"][first_failing][2].classes
    headings = [h.text for h in root.iter("h3") if h.attrs.get("id") in ("regressions", "fixes")]
    assert headings == ["Regressions (0)", f"Fixes ({len(failing)})"]


@pytest.mark.slow
def test_failing_rows_show_their_difference_inline(page, reports):
    """The failure block of the trump-six case names the missing beat in its summary line and
    lists the moves the engine's legal set misses, as the record carries them."""
    root = parse(page)
    wrong = {c["id"]: c for c in load_report(reports["wrong"]).cases}
    block = next(
        b
        for b in failure_blocks(root).values()
        if b.child("summary").find("code").text == TRUMP_CASE
    )
    assert "missing: beat 6" in block.child("summary").text
    fields = dict(zip((dt.text for dt in block.iter("dt")), block.iter("dd"), strict=True))
    (row,) = fields["difference"].find("table").iter("tr")
    what, moves = (c for c in row.children if isinstance(c, Node))
    assert what.text == "missing"
    assert [c.text for c in moves.iter("code")] == [
        move_text(m) for m in wrong[TRUMP_CASE]["actual"]["missing"]
    ]


def test_differing_state_fields_are_shown_by_pointer_with_both_values(tmp_path):
    """A state that differs at JSON pointers (the runner's ``fields_differ``, which every
    ``expect`` step uses) is shown as one row per pointer, expected and actual."""
    from conformance.contract import canonical
    from conformance.reports.reader import LoadedReport
    from conformance.suite.handlers import fields_differ
    from conformance.suite.verdicts import StepFailed
    from reference_impl import api

    state = api.new_game({"preset": "podkidnoy"}, 2, seed=1)
    hand = state["players"][0]["hand"]
    wanted = {"/players/0/hand": hand[:-1], "/talon/0": state["talon"][0]}
    with pytest.raises(StepFailed) as failed:
        fields_differ(canonical.normalise_state(state), wanted, canonical.STATE, "state")
    record = {
        "id": "pointer-case",
        "outcome": "failed",
        "rules": ["R-DEAL-1"],
        "message": str(failed.value),
        "expected": failed.value.expected,
        "actual": failed.value.actual,
    }
    report = LoadedReport(tmp_path / "r.jsonl", {"engine": "x"}, None, [record], None)
    root = parse(render_html([report]))
    block = next(iter(failure_blocks(root).values()))
    assert "/players/0/hand: " in block.child("summary").text
    rows = {next(tr.iter("code")).text: tr for tr in block.find("table").find("tbody").iter("tr")}
    assert set(rows) == {"/players/0/hand"}  # the talon's first card is as wanted
    values = rows["/players/0/hand"].text
    assert json.dumps(hand[:-1]) in values and json.dumps(hand) in values


@pytest.mark.slow
def test_case_text_is_escaped(reports, tmp_path):
    """Real scenario failures carry pytest's repr text (``<function ...>``); a doctored case ID
    and message carry markup. None of it may become markup."""
    wrong = load_report(reports["wrong"])
    scenario = next(c for c in wrong.cases if c["kind"] == "scenario" and c.get("details"))
    assert "<" in scenario["details"]
    evil = dict(scenario, id="evil<script>alert(1)</script>&amp;", message="</pre><b>x</b>")
    evil["rules"] = ["R-BEAT-1<i>"]
    wrong.cases.append(evil)
    page = render_html([wrong])
    root = parse(page)
    assert not list(root.iter("script")) and not list(root.iter("i"))
    assert "evil&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;" in page
    block = next(b for b in failure_blocks(root).values() if "evil<script>" in b.text)
    assert "</pre><b>x</b>" in block.text and "R-BEAT-1<i>" in block.text
    blocks = failure_blocks(root).values()
    details = next(b for b in blocks if b.child("summary").find("code").text == scenario["id"])
    assert scenario["details"].strip() in details.text
    markdown = render_markdown([wrong])
    assert "<script>" not in markdown.replace("`evil<script>alert(1)</script>&amp;`", "")


@pytest.mark.slow
def test_single_report_has_no_differences_section(reports):
    root = parse(render_html([load_report(reports["reference"])]))
    assert not [h for h in root.iter("h2") if h.attrs.get("id") == "differences"]
    assert not failure_blocks(root)


def test_errors_with_diagnostics_and_unsupported_cells(small_reports):
    crash, classic = (load_report(small_reports[m]) for m in ("crash-apply", "classic"))
    root = parse(render_html([crash, classic]))
    _, areas = matrix(section_after(root, "areas"))
    # crash-apply: the beat and the deal need apply, so they end in error; the transfer case
    # only asks legal moves. classic claims one 36-card pack: the 24-card beat and the
    # transfer (transfer=on) are outside its claim.
    assert "fail" in areas["BEAT"][0].classes
    assert "none" in areas["BEAT"][1].classes and "unsupported" in areas["BEAT"][1].text
    blocks = failure_blocks(root)
    beat = next(b for b in blocks.values() if SMALL_BEAT in b.child("summary").text)
    assert "error" in beat.child("summary").text
    assert "simulated crash" in beat.text and "engine stderr (tail)" in beat.text


# ------------------------------------------------------------------------- cell counting


def test_cell_counts_run_cases_and_names_the_rest():
    assert cell(Counter(passed=3, xfailed=1, unsupported=2)) == (
        "3/4 (1 xfailed, 2 unsupported)",
        "xfail",
        "3 passed, 1 xfailed, 2 unsupported",
    )
    assert cell(Counter(passed=1, failed=1, error=1))[:2] == ("1/3", "fail")
    assert cell(Counter(passed=2))[:2] == ("2/2", "ok")
    assert cell(Counter(unsupported=2, not_run=1))[:2] == ("2 unsupported / 1 not run", "none")
    assert cell(None)[1] == "absent"


# ------------------------------------------------------------------------- the command


@pytest.mark.slow
def test_command_writes_the_page_and_markdown(reports, tmp_path, capsys):
    out = tmp_path / "page.html"
    assert (
        main(["report", str(reports["reference"]), str(reports["wrong"]), "--html", str(out)]) == 0
    )
    root = parse(out.read_text(encoding="utf-8"))
    assert TRUMP_CASE in {
        b.child("summary").find("code").text for b in failure_blocks(root).values()
    }
    beat_rule = root.find("details", id="rule-R-BEAT-1").child("summary").text
    assert "What beats what" in beat_rule  # the title from spec/rules.md
    assert capsys.readouterr().out == ""  # the page only, unless --markdown
    assert main(["report", str(reports["wrong"])]) == 0
    markdown = capsys.readouterr().out
    assert markdown.startswith("# Durak conformance")
    row = next(line for line in markdown.splitlines() if f"`{TRUMP_CASE}`" in line)
    assert "failed" in row and "R-BEAT-1" in row
    assert "| BEAT | ❌" in markdown


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


@pytest.mark.slow
@pytest.mark.parametrize(
    "damage, line, words",
    [
        ("truncated", -1, "cut off"),
        ("garbage", 3, "not JSON"),
        ("no-header", 1, "not 'header'"),
        ("twice", None, "a second line of type 'header'"),
        ("bad-outcome", 3, "'outcome' is 'pased'"),
        ("array", 2, "a JSON array"),
        ("empty", 1, "empty"),
    ],
)
def test_bad_report_file_is_refused_with_file_and_line(
    reports, tmp_path, capsys, damage, line, words
):
    lines = _lines(reports["wrong"])
    if damage == "truncated":
        text = "".join(lines[:-2]) + lines[-2][: len(lines[-2]) // 2]
        line = len(lines) - 1
    elif damage == "garbage":
        text = "".join(lines[:2]) + "<html>\n" + "".join(lines[2:])
    elif damage == "no-header":
        text = "".join(lines[1:])
    elif damage == "twice":
        text = "".join(lines * 2)
        line = len(lines) + 1
    elif damage == "bad-outcome":
        record = json.loads(lines[2])
        record["outcome"] = "pased"
        text = "".join(lines[:2]) + json.dumps(record) + "\n" + "".join(lines[3:])
    elif damage == "array":
        text = lines[0] + "[1, 2]\n"
    else:
        text = ""
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text, encoding="utf-8")
    out = tmp_path / "page.html"
    status = main(["report", str(reports["reference"]), str(bad), "--html", str(out)])
    error = capsys.readouterr().err
    assert status == 2
    assert f"{bad}:{line}: " in error and words in error
    assert not out.exists()  # nothing half drawn
    with pytest.raises(ReportFileError) as raised:
        load_report(bad)
    assert (raised.value.path, raised.value.line) == (str(bad), line)


def test_missing_report_file_is_a_usage_error(tmp_path, capsys):
    assert main(["report", str(tmp_path / "nowhere.jsonl")]) == 2
    assert "nowhere.jsonl: no such file" in capsys.readouterr().err


@pytest.mark.slow
def test_interrupted_run_is_drawn_from_the_cases_it_finished(reports, tmp_path):
    lines = _lines(reports["wrong"])
    cut = tmp_path / "interrupted.jsonl"
    cut.write_text("".join(lines[:12]), encoding="utf-8")  # whole lines, no summary
    cases = sum(json.loads(line)["type"] == "case" for line in lines[:12])
    report = load_report(cut)
    assert not report.complete and len(report.cases) == cases
    root = parse(render_html([report]))
    _, rows = matrix(section_after(root, "engines"))
    assert "incomplete" in rows["run"][0].text and rows["cases"][0].text == str(cases)
    _, areas = matrix(section_after(root, "areas"))
    total = sum(int(c[0].text.split("/")[1].split(" ")[0]) for c in areas.values())
    assert total == cases


def test_unsupported_cases_say_what_would_unlock_them(small_reports):
    """classic claims one 36-card pack at podkidnoy values: its page says how many cases ran
    and lists the claims each unsupported case waits for (both are 24-card cases)."""
    classic = load_report(small_reports["classic"])
    root = parse(render_html([classic]))
    table = section_after(root, "unsupported")
    claims = {
        tr.child("td").text: [td.text for td in tr.iter("td")][1]
        for tr in table.find("tbody").iter("tr")
    }
    assert claims == {"2 players with deck 24": "1", "3 players with deck 24": "1"}
    which = " ".join([td.text for td in tr.iter("td")][2] for tr in table.find("tbody").iter("tr"))
    unsupported = [c["id"] for c in classic.cases if c["outcome"] == "unsupported"]
    assert len(unsupported) == 2 and all(case_id in which for case_id in unsupported)
    heading = section_after(root, "unsupported", "h3")
    assert "ran 1 of 3 cases" in heading.text
    assert "| 3 players with deck 24 | 1 |" in render_markdown([classic])


@pytest.mark.slow
def test_root_causes_group_the_failing_cases_and_link_them(page, reports):
    """Issue 14 item 2 on the page: the wrong engine's failures (no trump beats a plain card,
    which R-BEAT-1 allows) read as one big cause whose cases link to their failure blocks."""
    root = parse(page)
    table = section_after(root, "causes")
    rows = [
        [c for c in tr.children if isinstance(c, Node)] for tr in table.find("tbody").iter("tr")
    ]
    wrong = load_report(reports["wrong"])
    failing = [case for case in wrong.cases if case["outcome"] == "failed"]
    assert sum(int(row[0].text) for row in rows) == len(failing)
    count, cause, rules, which = rows[0]
    assert cause.text == "the engine misses beat (a trump on a plain card), which the rules allow"
    assert rules.text == "R-BEAT-1" and int(count.text) > len(failing) / 2
    blocks = failure_blocks(root)
    assert all(a.attrs["href"][1:] in blocks for a in which.iter("a"))


def test_a_cause_seen_in_several_variants_shows_its_general_text_and_counts(tmp_path):
    """One mistake on tables of two kinds (R-THROW-1: a throw-in of a rank not on the table) is
    one row of the root causes, its general text with how many cases show each variant."""
    from conformance.reports.causes import Cause, cause_json
    from conformance.reports.reader import LoadedReport

    general = "the engine lists throw_in, which the rules forbid"
    records = [
        {"id": f"case-{n}", "outcome": "failed", "rules": ["R-THROW-1"], "message": "differs",
         "cause": cause_json(Cause(f"the engine lists throw_in {variant}, which the rules forbid",
                                   ("R-THROW-1",), general, variant))}
        for n, variant in enumerate(["while a card lies unbeaten"] * 2 + ["with every card beaten"])
    ]
    report = LoadedReport(tmp_path / "r.jsonl", {"engine": "x"}, None, records, None)
    root = parse(render_html([report]))
    (row,) = section_after(root, "causes").find("tbody").iter("tr")
    count, cause, rules, _ = [c for c in row.children if isinstance(c, Node)]
    assert (count.text, rules.text) == ("3", "R-THROW-1")
    assert general in cause.text
    assert "2 while a card lies unbeaten, 1 with every card beaten" in cause.text


def test_markdown_summary_splits_regressions_from_fixes_and_shows_root_causes(tmp_path):
    """The CI summary reads like the page: a case that passed in the first run and fails in the
    second is a regression, one that failed and now passes a fix, each under its own heading;
    the root causes per engine."""
    from conformance.reports.reader import LoadedReport

    def record(case_id, outcome):
        out = {"id": case_id, "outcome": outcome, "rules": ["R-BEAT-1"], "message": "differs"}
        if outcome == "failed":
            out["cause"] = {"text": "the engine misses beat (a trump on a plain card), which the "
                                    "rules allow", "rules": ["R-BEAT-1"]}
        return out

    before = LoadedReport(tmp_path / "a.jsonl", {"engine": "a"}, None,
                          [record("broke", "passed"), record("mended", "failed")], None)
    after = LoadedReport(tmp_path / "b.jsonl", {"engine": "b"}, None,
                         [record("broke", "failed"), record("mended", "passed")], None)
    text = render_markdown([before, after])
    regressions = text[text.index("## Regressions"):text.index("## Fixes")]
    fixes = text[text.index("## Fixes"):text.index("## Other")]
    assert "`broke`" in regressions and "`mended`" not in regressions
    assert "`mended`" in fixes and "`broke`" not in fixes
    causes = text[text.index("## Root causes"):]
    assert "| 1 | the engine misses beat (a trump on a plain card), which the rules allow |" \
        " R-BEAT-1 |" in causes
