"""Game records: the committed records replay on the reference engine (in process and through
``serve``), a corrupted record is reported at the right move with the state before it, a wrong
result at ``/result``, a bad file with its name and JSON pointer; records written from played
games load and replay."""

from __future__ import annotations

import copy
import json
import time

import jsonschema
import pytest
from fuzz.helpers import engines_importable, misbehave, serve
from runner.helpers import processes_with, token

from conformance.cli import main
from conformance.contract.schemas import validator
from conformance.engines.base import InProcessEngine
from conformance.engines.factory import make_engine
from conformance.suite import RECORDS_DIR
from conformance.tools.record import (
    RecordError,
    load_record,
    make_record,
    play_game,
    random_chooser,
    record_files,
    write_record,
)
from conformance.tools.replay import replay
from reference_impl import specdata

__all__ = ["engines_importable"]

RECORDS = sorted(RECORDS_DIR.glob("*.json"))
MATCH = RECORDS_DIR / "podkidnoy-match-second-game-four-players-24.json"
PODKIDNOY = RECORDS_DIR / "podkidnoy-three-players-24.json"


def write(tmp_path, record, name="record.json"):
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


# ------------------------------------------------------------------ the committed records


def test_the_schema_is_valid_2020_12():
    schema = json.loads(specdata.schema_path("record").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)


def test_there_are_several_committed_records_of_several_presets():
    assert len(RECORDS) >= 4
    presets = {load_record(p)["ruleset"]["preset"] for p in RECORDS}
    assert {"podkidnoy", "pagat", "teams-2v2"} <= presets
    assert any("previous" in load_record(p)["deal"] for p in RECORDS)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_committed_record_validates_and_replays_on_the_reference(path):
    document = json.loads(path.read_text(encoding="utf-8"))
    validator("record").validate(document)
    record = load_record(path)
    assert record["id"] == path.stem
    assert "replay" in record["description"].lower()
    result = replay(InProcessEngine(), record, name=path.name)
    assert result.outcome == "passed", result.message
    assert result.moves_played == len(record["moves"]) > 0


def test_match_record_needs_its_previous_game():
    """Without the previous game seat 1 would not deal and seat 2 would not attack first: the
    replay must then diverge at the very first move."""
    record = load_record(MATCH)
    alone = copy.deepcopy(record)
    del alone["deal"]["previous"]
    result = replay(InProcessEngine(), alone)
    assert result.outcome == "failed" and result.index == 0 and result.where == "/moves/0"


def test_committed_records_through_serve_like_in_process(tmp_path, capsys):
    in_process, served = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["replay", "--json", str(in_process)]) == 0
    assert main(["replay", "--engine", serve(), "--json", str(served)]) == 0
    a, b = json.loads(in_process.read_text()), json.loads(served.read_text())
    assert len(a) == len(RECORDS)
    assert [(r["record"], r["outcome"]) for r in a] == [(r["record"], r["outcome"]) for r in b]
    assert {r["outcome"] for r in b} == {"passed"}
    assert f"{len(RECORDS)} passed" in capsys.readouterr().out


# ------------------------------------------------------------------ corrupted records


def _hand_before(index: int, record: dict) -> dict:
    """Play the record's first ``index`` moves on the reference: the state before move index."""
    engine = InProcessEngine()
    state = engine.new_game(record["ruleset"], record["players"], **record["deal"])
    for move in record["moves"][:index]:
        state = engine.apply(state, move)
    return state


@pytest.mark.parametrize("index", [0, 4, 11, 18])
def test_an_illegal_move_inserted_is_reported_at_its_index(tmp_path, index):
    """In the three-player podkidnoy game seat 2 never acts before move 13; a beat by seat 2 with
    a card of seat 0's hand is illegal everywhere (R-PLAY-3 or R-PLAY-4)."""
    record = load_record(PODKIDNOY)
    bad = copy.deepcopy(record)
    bad["moves"].insert(index, {"player": 2, "action": "throw_in", "card": "AC"})  # seat 0's ace
    result = replay(InProcessEngine(), load_record(write(tmp_path, bad)))
    assert result.outcome == "failed"
    assert (result.index, result.where, result.moves_played) == (index, f"/moves/{index}", index)
    assert result.move == {"player": 2, "action": "throw_in", "card": "AC"}
    assert "not in the engine's legal set" in result.message
    before = _hand_before(index, record)
    assert result.state_before["players"] == before["players"]
    assert result.state_before["table"] == before["table"]
    assert result.move not in result.actual["legal"]


def test_a_legal_but_different_move_diverges_where_the_game_no_longer_fits(tmp_path):
    """Replacing move 5 (seat 1 beats 9H with QH) by seat 1 taking is legal; the next recorded
    move, seat 0 throwing in QC, needed the queen QH on the table (R-THROW-1): it diverges at 6."""
    record = load_record(PODKIDNOY)
    assert record["moves"][5] == {"player": 1, "action": "beat", "target": "9H", "card": "QH"}
    bad = copy.deepcopy(record)
    bad["moves"][5] = {"player": 1, "action": "take"}
    result = replay(InProcessEngine(), bad)
    assert (result.outcome, result.index) == ("failed", 6)
    assert result.move == {"player": 0, "action": "throw_in", "card": "QC"}
    assert result.state_before["bout"]["taking"] is True
    assert result.actual["legal"] == [{"player": 0, "action": "pass"}]


def test_a_wrong_result_is_reported_at_result(tmp_path):
    record = load_record(PODKIDNOY)
    bad = copy.deepcopy(record)
    bad["result"]["fool"] = 2
    result = replay(InProcessEngine(), load_record(write(tmp_path, bad)))
    assert (result.outcome, result.where, result.index) == ("failed", "/result", 19)
    assert result.message.endswith("differs in fool")
    assert result.expected["fool"] == 2 and result.actual["fool"] == 0


def test_a_truncated_record_and_a_move_after_the_end(tmp_path):
    record = load_record(PODKIDNOY)
    short = copy.deepcopy(record)
    short["moves"].pop()
    result = replay(InProcessEngine(), short)
    assert (result.outcome, result.where) == ("failed", "/result")
    assert "not over" in result.message
    long = copy.deepcopy(record)
    long["moves"].append({"player": 0, "action": "attack", "cards": ["AC"]})
    result = replay(InProcessEngine(), long)
    assert (result.outcome, result.index) == ("failed", 19)
    assert "already over" in result.message
    unfinished = copy.deepcopy(short)
    unfinished["result"] = None
    assert replay(InProcessEngine(), unfinished).outcome == "passed"
    ended = copy.deepcopy(record)
    ended["result"] = None
    assert replay(InProcessEngine(), ended).where == "/result"


def test_replay_cli_reports_the_divergence_and_exits_1(tmp_path, capsys):
    record = load_record(PODKIDNOY)
    bad = copy.deepcopy(record)
    bad["moves"].insert(3, {"player": 2, "action": "throw_in", "card": "AC"})
    path = write(tmp_path, bad, "corrupt.json")
    assert main(["replay", str(path), str(PODKIDNOY)]) == 1
    out = capsys.readouterr().out
    assert f"FAILED      {path}" in out and "at /moves/3:" in out
    assert "state before (after 3 move(s))" in out and "seat 2: KD AD JH KH QS AS" in out
    assert f"PASSED      {PODKIDNOY}" in out and "1 passed, 1 failed" in out


# ------------------------------------------------------------------ engines under test


@pytest.mark.usefixtures("engines_importable")
def test_the_wrong_engine_fails_at_its_first_trump_beat_of_a_plain_card():
    """wrong_engine.py refuses trumps over other suits: the replay stops at the first such beat,
    found here by reading the record (trumps from the trump card)."""
    record = load_record(PODKIDNOY)
    trump = "H"  # the trump card TH (deck index 18, three players)
    first = next(
        i
        for i, m in enumerate(record["moves"])
        if m["action"] == "beat" and m["card"][1] == trump and m["target"][1] != trump
    )
    assert record["moves"][first] == {"player": 2, "action": "beat", "target": "TC", "card": "KH"}
    with make_engine("python:wrong_engine:make") as engine:
        result = replay(engine, record)
    assert (result.outcome, result.index) == ("failed", first)


@pytest.mark.usefixtures("engines_importable")
def test_a_crashing_engine_is_an_error_not_a_crash(capsys):
    tag = token()
    assert main(["replay", "--engine", misbehave("crash-apply", tag), str(PODKIDNOY)]) == 1
    out = capsys.readouterr().out
    assert "ERROR" in out and "at /moves/0" in out and "crash" in out
    time.sleep(0.2)
    assert processes_with(tag) == []


@pytest.mark.usefixtures("engines_importable")
def test_records_outside_the_claim_are_unsupported(capsys):
    """misbehave.py classic claims one 36-card pack only; the records use 24 cards."""
    assert main(["replay", "--engine", misbehave("classic", token())]) == 0
    out = capsys.readouterr().out
    assert f"{len(RECORDS)} unsupported" in out and "deck 24" in out


# ------------------------------------------------------------------ bad files


@pytest.mark.parametrize(
    "change, where, words",
    [
        (lambda r: r["moves"][3].update(card="XX"), "/moves/3/card", "does not match"),
        (lambda r: r["moves"][3].update(action="smash"), "/moves/3/action", "unknown action"),
        (lambda r: r["moves"][2].pop("target"), "/moves/2", "'target' is a required"),
        (lambda r: r["deal"].update(seed=4), "/deal", "exactly one of deck and seed"),
        (lambda r: r.update(ruleset="nosuch"), "/ruleset", "unknown preset"),
        (lambda r: r["ruleset"]["overrides"].update(deck_size=23), "/ruleset/overrides/deck_size",
         "is not one of"),
        (lambda r: r["ruleset"]["overrides"].update(tranfser="on"), "/ruleset/overrides/tranfser",
         "not allowed"),
        (lambda r: r.update(result={"fool": 1}), "/result", "'draw' is a required"),
        (lambda r: r["deal"]["deck"].__setitem__(3, "9C"), "/deal/deck/3", "appears twice"),
        (lambda r: r["deal"]["deck"].pop(), "/deal/deck", "has 23 cards"),
        (lambda r: r.update(players=5), "/players", "at most 4"),
        (lambda r: r.update(extra=1), "/extra", "check the spelling"),
        (lambda r: r.update(version=2), "/version", "not known"),
        (lambda r: r["deal"].update(dealer=3), "/deal/dealer", "not a seat"),
    ],
)  # fmt: skip
def test_bad_record_names_file_and_pointer(tmp_path, change, where, words):
    record = json.loads(PODKIDNOY.read_text(encoding="utf-8"))
    change(record)
    path = write(tmp_path, record)
    with pytest.raises(RecordError) as caught:
        load_record(path)
    error = caught.value
    assert (error.path, error.where) == (path, where)
    assert words in error.message and str(path) in str(error)


def test_unreadable_files(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"version": 1,\n "moves": [}\n', encoding="utf-8")
    with pytest.raises(RecordError, match=r"line 2 column 12: not JSON"):
        load_record(broken)
    twice = tmp_path / "twice.json"
    twice.write_text('{"version": 1, "version": 1}', encoding="utf-8")
    with pytest.raises(RecordError, match="duplicate key 'version'"):
        load_record(twice)
    listed = tmp_path / "list.json"
    listed.write_text("[]", encoding="utf-8")
    with pytest.raises(RecordError, match="a record is a JSON object"):
        load_record(listed)


def test_cli_bad_file_is_broken_exit_1_and_usage_errors_exit_2(tmp_path, capsys):
    record = json.loads(PODKIDNOY.read_text(encoding="utf-8"))
    record["moves"][3]["card"] = "XX"
    path = write(tmp_path, record, "bad.json")
    assert main(["replay", str(path)]) == 1
    assert f"BROKEN      {path}: at /moves/3/card:" in capsys.readouterr().out
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["replay", str(empty)]) == 2
    assert main(["replay", "--engine", "python:nosuch:make", str(PODKIDNOY)]) == 2


# ------------------------------------------------------------------ writing records


def test_played_games_are_written_loaded_and_replayed(tmp_path):
    engine = InProcessEngine()
    for seed, (ruleset, players) in enumerate(
        [("podkidnoy", 2), ("perevodnoy-trump-show", 3), ({"preset": "pagat",
         "overrides": {"deck_size": 24}}, 4), ("teams-2v2v2", 6)]
    ):  # fmt: skip
        record = play_game(engine, ruleset, players, {"seed": seed}, random_chooser(seed))
        assert record["result"] is not None
        path = write_record(tmp_path / f"game-{seed}.json", record)
        assert load_record(path) == record
        assert replay(engine, load_record(path)).outcome == "passed"
    assert [p.name for p in record_files([tmp_path])] == [f"game-{i}.json" for i in range(4)]


def test_a_game_cut_at_the_move_cap_is_recorded_unfinished():
    engine = InProcessEngine()
    record = play_game(engine, "podkidnoy", 2, {"seed": 1}, random_chooser(1), max_moves=10)
    assert len(record["moves"]) == 10 and record["result"] is None
    assert replay(engine, record).outcome == "passed"


def test_make_record_refuses_what_would_not_load():
    with pytest.raises(RecordError) as caught:
        make_record("podkidnoy", 9, {"seed": 1}, [], None)
    assert caught.value.where == "/players"
