"""Purpose-built wrong engines are caught, each by the transformation that should catch it and by
no other; each finding is a fixture of one position whose expected answer is the reference's
(it passes on the reference and fails on the wrong engine); the reference itself is clean; the
subcommand's exit status is 0 clean, 1 with findings, 2 for a usage error."""

from __future__ import annotations

import os
import shlex
import sys
from types import SimpleNamespace

import pytest
import yaml

from conformance.cli import main
from conformance.engines.base import InProcessEngine
from conformance.engines.factory import make_engine
from conformance.suite.loader import load_file
from conformance.tools.fuzz import FuzzConfig
from conformance.tools.metamorph import KINDS, CheckConfig, Metamorph
from reference_impl import api

from .helpers import ENGINES, engines_importable

__all__ = ["engines_importable"]

pytestmark = pytest.mark.usefixtures("engines_importable")


def campaign(tmp_path, spec: str, preset: str, players: int, games: int = 3, **checks):
    """A metamorphic campaign of ``games`` games on the engine ``spec``; its report."""
    config = FuzzConfig(games=games, seed=11, rulesets=[preset], players=[players], max_moves=70)
    run = Metamorph(
        InProcessEngine(),
        make_engine(spec),
        config,
        CheckConfig(every=2, **checks),
        out_dir=tmp_path / "out",
        specs={"candidate": spec},
    )
    assert run.greet() is None
    return run.run()


#: engine, the preset and player count it is walked in, the one kind that must catch it, and the
#: check (aspect) that shows it
WRONG = [
    ("python:suit_special:make", "podkidnoy", 2, "suits", "legal"),
    ("python:seat_zero:make", "podkidnoy", 3, "seats", "legal"),
    ("python:talon_peek:make", "podkidnoy", 2, "talon", "legal"),
    ("python:second_copy:make", "two-decks", 3, "twins", "legal"),
    ("python:seat_effects:next_state", "podkidnoy", 3, "seats", "move"),
    ("python:seat_effects:refusal", "podkidnoy", 3, "seats", "refuse"),
    ("python:seat_effects:observation", "podkidnoy", 3, "seats", "observe"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "preset", "players", "kind", "aspect"), WRONG)
def test_a_wrong_engine_is_caught_by_its_transformation_only(
    tmp_path, spec, preset, players, kind, aspect
):
    report = campaign(tmp_path, spec, preset, players, probes=3)
    assert set(report.breaks) == {kind}, (report.breaks, report.reference_problems)
    assert report.reference_problems == []
    assert report.findings
    for signature, finding in report.findings.items():
        assert signature.startswith(f"{kind}: ")
        assert finding.context["aspect"] == aspect
        assert report.reproduces[signature] == "yes", report.reproduces[signature]
    for kind_checked in KINDS:
        if kind_checked != kind and (kind_checked != "twins" or preset == "two-decks"):
            assert report.checks.get(kind_checked, 0) > 0  # the others were tried, and held


def test_a_finding_is_one_position_judged_by_the_reference(tmp_path):
    """The fixture's start is P or T(P), whichever the engine answered against the rules, with
    the reference's legal set there: the wrong engine's other answer is not an expected value."""
    report = campaign(tmp_path, "python:seat_zero:make", "podkidnoy", 3)
    paths = sorted((tmp_path / "out").glob("*.yaml"))
    assert paths and len(paths) == len(report.findings)
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert text.startswith("# Written by durak-conformance metamorph.")
        case = yaml.safe_load(text)
        assert case["id"].startswith("metamorph-seats-legal-")
        assert "durak-conformance metamorph --engine python:seat_zero:make" in case["description"]
        cases, problems = load_file(path)
        assert problems == [] and len(cases) == 1
        state = case["start"]["state"]
        state["ruleset"] = api.new_game("podkidnoy", 3, seed=0)["ruleset"]
        expected = sorted(api.legal_moves(state), key=repr)
        (step,) = case["steps"]
        assert sorted(step["legal"], key=repr) == expected
        # the wrong engine drops seat 0's throw-ins, so seat 0 throws in at the finding's start
        assert any(m["action"] == "throw_in" and m["player"] == 0 for m in step["legal"])


def test_the_reference_is_clean_and_the_exit_status_says_so(tmp_path, capsys):
    out = str(tmp_path / "out")
    argv = ["metamorph", "--engine", "reference", "--games", "2", "--seed", "5"]
    status = main(argv + ["--max-moves", "40", "--every", "3", "--out", out])
    text = capsys.readouterr().out
    assert status == 0, text
    assert "[2/2]" in text and "0 finding(s)" in text
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


def test_findings_exit_1(tmp_path, capsys):
    argv = ["metamorph", "--engine", "python:seat_zero:make", "--games", "2", "--seed", "5"]
    argv += ["--preset", "podkidnoy", "--players", "3", "--max-moves", "60"]
    status = main(argv + ["--kinds", "seats", "--out", str(tmp_path / "out")])
    text = capsys.readouterr().out
    assert status == 1, text
    assert "seats: legal:" in text and list((tmp_path / "out").glob("metamorph-seats-*.yaml"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "--engine CMD is required"),
        (["--engine", "reference", "--games", "0"], "at least 1"),
        (["--engine", "reference", "--preset", "nosuch"], "--preset nosuch: no such preset"),
        (["--engine", "reference", "--kinds", "suits,colours"], "the transformations are"),
        (["--engine", "python:nosuchmodule:make"], "--engine"),
    ],
)
def test_usage_errors_exit_2(tmp_path, capsys, args, message):
    assert main(["metamorph", "--out", str(tmp_path / "out"), *args]) == 2
    assert message in capsys.readouterr().err


def test_an_engine_behind_the_process_protocol_is_checked_alike(tmp_path, capsys, monkeypatch):
    """The same wrong engine served as a process (``durak-conformance serve``) is caught too."""
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join([str(ENGINES), os.environ.get("PYTHONPATH", "")])
    )
    serve = shlex.join([sys.executable, "-m", "conformance", "serve", "--engine"])
    argv = ["metamorph", "--engine", f"{serve} python:seat_zero:make", "--games", "1"]
    argv += ["--seed", "5", "--preset", "podkidnoy", "--players", "3", "--max-moves", "40"]
    status = main(argv + ["--kinds", "seats", "--out", str(tmp_path / "out")])
    text = capsys.readouterr().out
    assert status == 1, text
    assert "(reproduces: yes)" in text


def test_an_engine_that_cannot_be_set_up_from_a_state_is_a_usage_error():
    """Every check asks about a transformed position no game reaches, so an engine whose hello
    says ``positions: false`` cannot be checked: greet says so instead of failing every check."""

    def capabilities():
        caps = api.capabilities()
        return {**caps, "supports": {**caps["supports"], "positions": False}}

    session_only = SimpleNamespace(**{**vars(api), "capabilities": capabilities})
    config = FuzzConfig(games=1, seed=1, rulesets=["podkidnoy"], players=[2])
    run = Metamorph(InProcessEngine(), InProcessEngine(session_only), config)
    problem = run.greet()
    assert problem is not None and "supports.positions: false" in problem
