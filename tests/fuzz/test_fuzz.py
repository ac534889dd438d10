"""Differential fuzzing end to end: the reference against itself finds nothing (in process and
through ``serve``); deliberately wrong engines are caught, each finding is a fixture that validates,
loads, fails on the wrong engine and passes on the reference when run by ``durak-conformance run``;
misbehaving engines become findings, not crashes; runs are reproducible from the seed."""

from __future__ import annotations

import json
import time

import pytest
import yaml
from runner.helpers import processes_with, token

from conformance.cli import main
from conformance.engines.base import InProcessEngine
from conformance.engines.factory import make_engine
from conformance.engines.gating import Support
from conformance.suite.loader import load_file
from conformance.tools.fuzz import FuzzConfig, Fuzzer, game_choices, plan_game
from conformance.tools.record import load_record
from conformance.tools.replay import replay

from .helpers import engines_importable, fixture_validator, misbehave, serve

__all__ = ["engines_importable"]

pytestmark = pytest.mark.usefixtures("engines_importable")


def fuzz(tmp_path, *args: str, out: str = "out") -> tuple[int, list]:
    """Run the CLI; the status and the fixtures written (as loaded YAML), sorted by file name."""
    status = main(["fuzz", "--out", str(tmp_path / out), *args])
    files = sorted((tmp_path / out).glob("*.yaml")) if (tmp_path / out).exists() else []
    return status, files


def run_suite(directory, engine: str | None = None) -> int:
    argv = ["run", "--no-fixtures", "--no-features", "--fixtures", str(directory)]
    return main(argv + (["--engine", engine] if engine else []))


# ------------------------------------------------------------------ the reference against itself


@pytest.mark.slow
def test_reference_against_itself_in_process_finds_nothing(tmp_path, capsys):
    status, files = fuzz(
        tmp_path, "--engine", "reference", "--games", "12", "--seed", "7", "--players", "2", "3"
    )
    text = capsys.readouterr().out
    assert status == 0, text
    assert files == []
    assert "12 game(s) (12 finished, 0 with a disagreement, 0 cut" in text
    assert " 0 finding(s)" in text


def test_reference_against_itself_with_varied_options_and_seeded_deals(tmp_path, capsys):
    status, files = fuzz(
        tmp_path,
        "--engine", "reference", "--games", "8", "--seed", "3", "--players", "2",
        "--vary-options", "--deal", "mixed",
    )  # fmt: skip
    assert status == 0, capsys.readouterr().out
    assert files == []


@pytest.mark.slow
def test_reference_against_itself_through_serve_finds_nothing(tmp_path, capsys):
    status, files = fuzz(
        tmp_path, "--engine", serve(), "--games", "3", "--seed", "11", "--players", "2"
    )
    text = capsys.readouterr().out
    assert status == 0, text
    assert files == [] and "3 game(s) (3 finished" in text


def test_same_seed_same_games_and_one_game_alone():
    """A game depends only on (seed, index): the same plan whatever the number of games, and a
    run of the seed gives the same totals twice."""
    config = FuzzConfig(games=5, seed=42, players=[2])
    choices, _ = game_choices(config, [])
    plans = [plan_game(config, index, choices, []) for index in range(5)]
    assert plans == [plan_game(FuzzConfig(games=99, seed=42, players=[2]), i, choices, [])
                     for i in range(5)]  # fmt: skip
    assert plan_game(FuzzConfig(seed=43, players=[2]), 0, choices, []) != plans[0]
    totals = []
    for _ in range(2):
        fuzzer = Fuzzer(
            InProcessEngine(), InProcessEngine(), FuzzConfig(games=3, seed=42, players=[2])
        )
        assert fuzzer.greet() is None
        report = fuzzer.run()
        totals.append((report.games, report.finished, report.moves, report.probes))
    assert totals[0] == totals[1] and totals[0][2] > 0 and totals[0][3] > 0
    alone = Fuzzer(InProcessEngine(), InProcessEngine(),
                   FuzzConfig(seed=42, players=[2], only_game=2))  # fmt: skip
    alone.greet()
    assert alone.run().games == 1


# ------------------------------------------------------------------ deliberately wrong engines


def _trump_over_plain(state: dict, move: dict) -> bool:
    trump = state["trump"][1]
    return move["action"] == "beat" and move["card"][1] == trump and move["target"][1] != trump


@pytest.mark.slow
def test_wrong_engine_findings_are_fixtures_that_catch_it(tmp_path, capsys):
    """wrong_engine.py lets no trump beat a card of another suit. Every finding must be a valid,
    loadable fixture that the runner fails on the wrong engine and passes on the reference."""
    status, files = fuzz(
        tmp_path, "--engine", "python:wrong_engine:make", "--games", "15", "--seed", "5",
        "--players", "2", "3",
    )  # fmt: skip
    text = capsys.readouterr().out
    assert status == 1, text
    assert files, text
    validator = fixture_validator()
    kinds = set()
    for path in files:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        validator.validate(document)
        cases, problems = load_file(path)
        assert not problems and len(cases) == 1
        case = cases[0]
        assert case.id == path.stem and case.id.startswith("fuzz-")
        assert "must be reviewed" in case.description or "review them" in case.description
        assert "seed 5" in case.description and "python:wrong_engine:make" in case.description
        kind = case.id.split("-")[1]
        kinds.add(kind)
        state = case.start["state"]
        step = case.steps[0]
        if kind == "legal":
            # the note names what the wrong engine missed: trump beats of plain cards, only
            assert "misses" in step.data["note"] and "lists" not in step.data["note"]
            beats = [m for m in step.body if m["action"] == "beat"]
            assert any(_trump_over_plain(state, m) for m in beats)
            assert case.rules == ("R-BEAT-1",)
        elif kind == "refuse":
            # the wrong engine checks its broken rule before the precedence of R-PLAY-5 allows
            assert step.data["rule"] != "R-BEAT-1"
            assert _trump_over_plain(state, step.body)
            assert case.rules == (step.data["rule"],)
        else:
            pytest.fail(f"unexpected finding kind {kind} in {path}")
    assert "legal" in kinds
    assert "reproduces: yes" in text and "reproduces: no" not in text
    assert run_suite(tmp_path / "out", "python:wrong_engine:make") == 1
    assert run_suite(tmp_path / "out") == 0
    assert run_suite(tmp_path / "out", serve()) == 0


@pytest.mark.slow
def test_wrong_engine_through_serve_gives_the_same_findings(tmp_path, capsys):
    args = ["--games", "4", "--seed", "5", "--players", "2"]
    fuzz(tmp_path, "--engine", "python:wrong_engine:make", *args, out="inproc")
    status, files = fuzz(
        tmp_path, "--engine", serve("python:wrong_engine:make"), *args, out="served"
    )
    assert status == 1
    inproc = sorted(p.name for p in (tmp_path / "inproc").glob("*.yaml"))
    assert [p.name for p in files] == inproc and inproc


def test_stop_first_writes_one_finding(tmp_path, capsys):
    status, files = fuzz(
        tmp_path, "--engine", "python:wrong_engine:make", "--games", "15", "--seed", "5",
        "--players", "2", "3", "--stop-first",
    )  # fmt: skip
    assert status == 1 and len(files) == 1
    assert "with a disagreement" in capsys.readouterr().out


def test_state_difference_becomes_move_and_expect(tmp_path, capsys):
    """forgetful.py forgets the known cards after every move: same legal sets and refusals, so
    only the states after a move differ; the fixture moves and expects the known cards."""
    status, files = fuzz(
        tmp_path, "--engine", "python:forgetful:make", "--games", "6", "--seed", "2",
        "--players", "2", "--ruleset", "podkidnoy",
    )  # fmt: skip
    assert status == 1, capsys.readouterr().out
    assert len(files) >= 1
    for path in files:
        case = load_file(path)[0][0]
        assert case.id.startswith("fuzz-state-")
        assert [s.kind for s in case.steps] == ["move", "expect"]
        expect = case.steps[1].body
        assert expect and all(p.startswith("/players/") and p.endswith("/known") for p in expect)
        assert any(value for value in expect.values())  # the reference knows some card
        assert "R-INFO-3" in case.rules
    assert run_suite(tmp_path / "out", "python:forgetful:make") == 1
    assert run_suite(tmp_path / "out") == 0


def test_deal_difference_starts_from_the_same_deck(tmp_path, capsys):
    """fixed_dealer.py ignores the dealer it is asked for: the fixture deals the same deck with
    the same dealer and expects the reference's hands and roles."""
    status, files = fuzz(
        tmp_path, "--engine", "python:fixed_dealer:make", "--games", "4", "--seed", "1",
        "--players", "3", "--ruleset", "podkidnoy",
    )  # fmt: skip
    assert status == 1, capsys.readouterr().out
    case = load_file(files[0])[0][0]
    assert case.id.startswith("fuzz-deal-")
    assert set(case.start) == {"deck", "dealer"} and case.start["dealer"] != 2
    assert len(case.start["deck"]) == 36
    expect = case.steps[0].body
    assert "/dealer" in expect and expect["/dealer"] == case.start["dealer"]
    assert any(pointer.endswith("/hand") for pointer in expect)
    assert case.rules[0] == "R-DEAL-1" and "R-DEAL-3" in case.rules and "R-ROLE-1" in case.rules
    assert run_suite(tmp_path / "out", "python:fixed_dealer:make") == 1
    assert run_suite(tmp_path / "out") == 0


def test_findings_keep_the_shallowest_game(tmp_path):
    """Of the findings with one signature the one reached after the fewest moves is kept."""
    fuzzer = Fuzzer(
        InProcessEngine(),
        make_engine("python:wrong_engine:make"),
        FuzzConfig(games=12, seed=5, players=[2]),
        out_dir=tmp_path,
    )
    fuzzer.greet()
    depths: dict[str, list[int]] = {}
    original = fuzzer._keep

    def spy(finding):
        depths.setdefault(finding.signature, []).append(finding.depth)
        original(finding)

    fuzzer._keep = spy
    report = fuzzer.run()
    assert report.findings
    for signature, finding in report.findings.items():
        assert finding.depth == min(depths[signature])
    assert len(list(tmp_path.glob("*.yaml"))) == len(report.findings)


# ------------------------------------------------------------------ misbehaving engines


@pytest.mark.slow
def test_crashing_engine_is_a_finding_not_a_crash(tmp_path, capsys):
    tag = token()
    status, files = fuzz(
        tmp_path, "--engine", misbehave("crash-apply", tag), "--games", "3", "--seed", "1",
        "--players", "2", "--probes", "0",
    )  # fmt: skip
    text = capsys.readouterr().out
    assert status == 1, text
    assert "[fault: apply crash]" in text
    case = load_file(files[0])[0][0]
    assert [s.kind for s in case.steps] == ["move"]
    assert "crash" in case.steps[0].data["note"]
    time.sleep(0.2)
    assert processes_with(tag) == []


def test_engine_given_up_stops_the_run(tmp_path, capsys):
    tag = token()
    status, _ = fuzz(
        tmp_path, "--engine", misbehave("garbage", tag), "--games", "20", "--seed", "1",
        "--players", "2", "--max-faults", "3",
    )  # fmt: skip
    text = capsys.readouterr().out
    assert status == 1
    assert "stopped: not run" in text
    time.sleep(0.2)
    assert processes_with(tag) == []


# ------------------------------------------------------------------ records and usage


def test_agreed_games_are_written_as_records_that_replay(tmp_path, capsys):
    records = tmp_path / "records"
    status, _ = fuzz(
        tmp_path, "--engine", "reference", "--games", "2", "--seed", "9", "--players", "2",
        "--records", str(records),
    )  # fmt: skip
    assert status == 0
    written = sorted(records.glob("*.json"))
    assert len(written) == 2
    for path in written:
        record = load_record(path)
        assert record["result"] is not None and record["moves"]
        assert replay(InProcessEngine(), record).outcome == "passed"
        assert json.loads(path.read_text())["tags"]["producer"] == "durak-conformance fuzz"


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "--engine CMD is required"),
        (["--engine", "reference", "--ruleset", "nosuch"], "no such preset"),
        (["--engine", "reference", "--ruleset", '{"preset": "podkidnoy"'], "not valid JSON"),
        (
            ["--engine", "reference", "--ruleset", '{"preset": "podkidnoy", "overrides": {"x": 1}}'],
            "x",
        ),
        (["--engine", "reference", "--ruleset", "teams-2v2", "--players", "3"], "no ruleset"),
        (["--engine", "python:nosuchmodule:make"], "cannot import"),
        (["--engine", "reference", "--games", "0"], "at least 1"),
    ],
)
def test_usage_errors_exit_2(tmp_path, capsys, args, message):
    status, _ = fuzz(tmp_path, *args)
    assert status == 2
    assert message in capsys.readouterr().err


# ------------------------------------------------------------------ engines that claim little


def test_fuzz_plays_inside_the_claims_of_a_narrow_engine(tmp_path, capsys, engines_importable):
    """An engine claiming 2 players, 36 cards and the defaults is fuzzed: every preset is fitted
    into its claims (transfer off, no teams, one pack), not refused."""
    status, files = fuzz(
        tmp_path, "--engine", "python:narrow_engine:make", "--games", "4", "--seed", "3"
    )
    out = capsys.readouterr().out
    assert status == 0 and files == []
    assert "4 game(s) over" in out and "4 finished" in out
    narrow = Support.from_hello(make_engine("python:narrow_engine:make").hello())
    choices, skipped = game_choices(FuzzConfig(), [None, narrow])
    assert {players for _, players in choices} == {2}
    perevodnoy = [r for r, _ in choices if isinstance(r, dict) and r.get("preset") == "perevodnoy"]
    assert perevodnoy and perevodnoy[0]["overrides"]["transfer"] == "off"
    assert any(why.startswith("teams-2v2:") for why in skipped)


def test_fuzz_takes_a_ruleset_in_any_form(tmp_path, capsys):
    ruleset = '{"preset": "podkidnoy", "overrides": {"attack_limit": "six"}}'
    status, _ = fuzz(tmp_path, "--engine", "reference", "--ruleset", ruleset, "--games", "2")
    out = capsys.readouterr().out
    assert status == 0 and "2 game(s)" in out
    full = json.dumps({"options": {"deck_size": 24}})
    status, _ = fuzz(tmp_path, "--engine", "reference", "--ruleset", full, "--games", "1")
    assert status == 0
