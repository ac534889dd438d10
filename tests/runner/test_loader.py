"""Fixture files load into cases; every broken file or case becomes one located problem."""

from pathlib import Path

from conformance.suite.loader import load_file, load_paths

DATA = Path(__file__).parent / "data" / "loader"


def _problems_by_file():
    _, problems = load_paths([DATA])
    return {p.path.name: p for p in problems}


def test_good_file_loads_with_steps_and_lines():
    cases, problems = load_file(DATA / "good.yaml")
    assert problems == []
    first, second = cases
    assert first.id == "good-one" and first.line == 2 and first.area == "THROW"
    assert [step.kind for step in first.steps] == ["legal_includes", "refuse", "expect", "result"]
    assert [step.line for step in first.steps] == [10, 11, 13, 14]
    assert second.areas == ("DEAL", "THROW") and second.start["dealer"] == 2
    assert second.start["deck"][:2] == ["6C", "7C"] and len(second.start["deck"]) == 36


def test_on_and_off_stay_strings():
    (first, _), _ = load_file(DATA / "good.yaml")
    assert first.options == {"transfer": "on"}
    assert first.overrides == {"throw_in_priority": "free", "transfer": "off"}


def test_a_broken_case_fails_alone_with_its_line():
    cases, problems = load_file(DATA / "mixed.yaml")
    assert [case.id for case in cases] == ["mixed-ok"]
    (problem,) = problems
    assert problem.case_id == "mixed-bad" and problem.line == 16  # the misspelt key
    assert "stpes" in problem.message and "one check per step" in problem.message


def test_yaml_syntax_error_and_duplicate_key_are_located():
    problems = _problems_by_file()
    assert problems["syntax.yaml"].line == 3 and "invalid YAML" in problems["syntax.yaml"].message
    assert (
        problems["dupkey.yaml"].line == 2
        and "duplicate key 'id'" in problems["dupkey.yaml"].message
    )


def test_duplicate_case_id_across_files(tmp_path):
    text = (DATA / "good.yaml").read_text()
    (tmp_path / "a.yaml").write_text(text)
    (tmp_path / "b.yaml").write_text(text)
    cases, problems = load_paths([tmp_path])
    assert len(cases) == 2
    assert {p.path.name for p in problems} == {"b.yaml"}
    assert all("already used at" in p.message for p in problems)


def test_not_a_mapping(tmp_path):
    (tmp_path / "x.yaml").write_text("- 1\n- 2\n")
    (tmp_path / "y.yaml").write_text("")
    _, problems = load_paths([tmp_path])
    assert [p.message for p in problems] == [
        "a fixture file holds a case or `cases:`, not a list",
        "a fixture file holds a case or `cases:`, not an empty file",
    ]


def test_a_broken_route_move_is_located_and_its_case_fails_alone(tmp_path):
    """A route's moves are checked one distinct move at a time (the loader's memo): a bad card in
    the third move is still reported at its line and pointer, and only its own case fails."""
    case = (
        "  - id: {id}\n"
        "    description: x\n"
        "    rules: [R-BEAT-1]\n"
        "    ruleset: podkidnoy\n"
        "    players: 2\n"
        "    start: {{seed: 1}}\n"
        "    steps: [{{legal_excludes: [{{player: 0, action: take}}]}}]\n"
        "    reached_by:\n"
        "      deck: [6C, 7C]\n"
        "      dealer: 0\n"
        "      moves:\n"
        "        - {{player: 1, action: attack, cards: [6C]}}\n"
        "        - {{player: 0, action: take}}\n"
        "        - {{player: 1, action: attack, cards: [{card}]}}\n"
    )
    bad, good = case.format(id="routed-bad", card="ZZ"), case.format(id="routed-ok", card="7C")
    (tmp_path / "r.yaml").write_text("cases:\n" + bad + good)
    cases, (problem,) = load_file(tmp_path / "r.yaml")
    assert [case.id for case in cases] == ["routed-ok"]
    assert problem.case_id == "routed-bad" and problem.line == 15
    assert "/cases/0/reached_by/moves/2/cards/0: 'ZZ' does not match" in problem.message


def test_a_caller_editing_what_it_loaded_leaves_the_next_load_as_written():
    (first, second), _ = load_file(DATA / "good.yaml")
    first.steps[0].data["legal_includes"].clear()
    first.options["transfer"] = "off"
    second.start["deck"].reverse()
    (again, again_second), _ = load_file(DATA / "good.yaml")
    assert again.steps[0].data["legal_includes"] and again.options == {"transfer": "on"}
    assert again_second.start["deck"][:2] == ["6C", "7C"]
