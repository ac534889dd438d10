"""conformance/suite/invariants: every kind of problem shown on a real state broken one way at a time,
no problem on the states of random reference games and of the fixtures, and no exception on any
JSON value."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.suite import invariants
from conformance.suite.invariants import Problem, state_problems
from reference_impl import api
from reference_impl.codec import state_from_json, state_to_json
from reference_impl.core import apply_move, legal_moves

ROOT = Path(__file__).resolve().parents[2]

#: Cap on the moves of one random game (R-END-5: a game may repeat forever).
MOVE_CAP = 1500


def play(ruleset, players, seed, *, stop=None):
    """A random game on the reference engine: every state, up to ``stop(state)`` or the end.

    The game starts with ``api.new_game``; the moves are then made on the engine's own state
    (``reference_impl.core``), and each state is the JSON ``api.apply`` answers with
    (``state_to_json``), without the API validating it again before the next move: several
    times faster, and the same states.
    """
    rng = random.Random(seed)
    state = api.new_game(ruleset, players, seed=seed)
    name = state["ruleset"]["name"]
    engine_state = state_from_json(state)
    states = [state]
    for _ in range(MOVE_CAP):
        if state["result"] is not None or (stop is not None and stop(state)):
            break
        apply_move(engine_state, rng.choice(legal_moves(engine_state)))
        state = state_to_json(engine_state, name)
        states.append(state)
    return states


def first(ruleset, players, condition, seeds=range(200)):
    """The first state of a random game that meets ``condition`` (a deep copy, to break)."""
    for seed in seeds:
        for state in play(ruleset, players, seed, stop=condition):
            if condition(state):
                return copy.deepcopy(state)
    raise AssertionError(f"no game of {ruleset} reached the condition")


def found(problems):
    return {(p.pointer, p.rule) for p in problems}


@pytest.fixture(scope="module")
def midgame():
    """Three players, a bout in progress: cards on the table, some beaten, talon not empty."""
    return first(
        "podkidnoy",
        3,
        lambda s: (
            len(s["table"]) >= 2
            and any(p["defence"] for p in s["table"])
            and len(s["talon"]) >= 3
            and len(s["discard"]) >= 2
        ),
    )


@pytest.fixture(scope="module")
def known_cards():
    """A state where some hand has known cards (picked up in a take)."""
    return first("podkidnoy", 2, lambda s: any(p["known"] for p in s["players"]))


@pytest.fixture(scope="module")
def over():
    """A finished three-player game with a fool who holds cards."""
    return first(
        "podkidnoy",
        3,
        lambda s: (
            s["result"] is not None
            and s["result"]["fool"] is not None
            and bool(s["players"][s["result"]["fool"]]["hand"])
        ),
    )


@pytest.fixture(scope="module")
def teams():
    return first("teams-2v2", 4, lambda s: len(s["table"]) >= 1)


# --------------------------------------------------------------------- valid states, no problem


def test_real_states_have_no_problem(midgame, known_cards, over, teams):
    for state in (midgame, known_cards, over, teams):
        assert state_problems(state) == []


def test_problem_is_a_small_frozen_value():
    problem = Problem("/bout/defender", "R-ROLE-2", "seat 1 is both")
    assert str(problem) == "/bout/defender [R-ROLE-2]: seat 1 is both"
    assert str(Problem("", "R-DECK-5", "x")) == "(the state) [R-DECK-5]: x"
    assert problem.to_json() == {
        "pointer": "/bout/defender",
        "rule": "R-ROLE-2",
        "message": "seat 1 is both",
    }
    with pytest.raises(AttributeError):
        problem.rule = "R-ROLE-3"


# ------------------------------------------------------------------------- card conservation


def test_a_duplicated_card_names_every_place_it_is(midgame):
    state = copy.deepcopy(midgame)
    card = state["talon"][0]
    state["players"][0]["hand"].append(card)
    spot = len(state["players"][0]["hand"]) - 1
    problems = state_problems(state)
    assert found(problems) == {("/talon/0", "R-DECK-5")}
    assert f"/players/0/hand/{spot}" in problems[0].message and "/talon/0" in problems[0].message
    assert card in problems[0].message


def test_a_missing_card_is_named(midgame):
    state = copy.deepcopy(midgame)
    card = state["talon"].pop(0)
    problems = state_problems(state)
    assert found(problems) == {("", "R-DECK-5")}
    assert problems[0].message.endswith(f": {card}")


def test_a_card_outside_the_deck_is_named_where_it_is(midgame):
    state = copy.deepcopy(midgame)
    lost = state["discard"][0]
    state["discard"][0] = "2C"  # no twos in a 36-card deck
    problems = state_problems(state)
    assert found(problems) == {("/discard/0", "R-DECK-5"), ("", "R-DECK-5")}
    assert any("2C is not a card of this deck" in p.message for p in problems)
    assert any(p.message.endswith(f": {lost}") for p in problems)


def test_a_second_pack_card_in_a_one_pack_game(midgame):
    state = copy.deepcopy(midgame)
    state["table"][0]["attack"] += "2"
    assert ("/table/0/attack", "R-DECK-5") in found(state_problems(state))


# ------------------------------------------------------------- trump, known cards, teams


def test_trump_card_not_last_in_the_talon(midgame):
    state = copy.deepcopy(midgame)
    talon = state["talon"]
    talon[-1], talon[0] = talon[0], talon[-1]
    problems = state_problems(state)
    assert found(problems) == {(f"/talon/{len(talon) - 1}", "R-TRUMP-2")}


def test_trump_card_outside_the_deck(midgame):
    state = copy.deepcopy(midgame)
    state["trump"] = "2H"
    assert ("/trump", "R-DECK-5") in found(state_problems(state))


def test_a_known_card_not_in_the_hand(known_cards):
    state = copy.deepcopy(known_cards)
    seat = next(i for i, p in enumerate(state["players"]) if not p["known"])
    other = next(i for i, p in enumerate(state["players"]) if p["hand"] and i != seat)
    state["players"][seat]["known"].append(state["players"][other]["hand"][0])
    problems = state_problems(state)
    assert found(problems) == {(f"/players/{seat}/known/0", "R-INFO-3")}
    assert "not in seat" in problems[0].message


def test_a_known_card_listed_twice(known_cards):
    state = copy.deepcopy(known_cards)
    player = next(p for p in state["players"] if p["known"])
    player["known"].append(player["known"][0])
    spot = len(player["known"]) - 1
    assert any(
        p.rule == "R-INFO-3" and p.pointer.endswith(f"/known/{spot}") and "twice" in p.message
        for p in state_problems(state)
    )


def test_team_values_follow_the_seating(midgame, teams):
    state = copy.deepcopy(midgame)
    state["players"][1]["team"] = 0
    assert found(state_problems(state)) == {("/players/1/team", "R-TEAM-1")}
    state = copy.deepcopy(teams)
    state["players"][1]["team"] = 0
    state["players"][2]["team"] = None
    assert found(state_problems(state)) == {
        ("/players/1/team", "R-TEAM-1"),
        ("/players/2/team", "R-TEAM-1"),
    }


def test_player_count_must_suit_the_deck(over):
    state = copy.deepcopy(over)
    state["ruleset"]["options"]["teams"] = "2v2"
    for i, player in enumerate(state["players"]):
        player["team"] = i % 2
    assert ("/players", "R-DECK-4") in found(state_problems(state))


# ------------------------------------------------------------------------------------- roles


def test_the_defender_cannot_be_the_attacker(midgame):
    state = copy.deepcopy(midgame)
    state["bout"]["defender"] = state["bout"]["attacker"]
    assert ("/bout/defender", "R-ROLE-2") in found(state_problems(state))


def test_a_defender_who_is_no_seat(midgame):
    state = copy.deepcopy(midgame)
    state["bout"]["defender"] = 5  # a seat of the schema (0..7), not of a 3-player game
    assert found(state_problems(state)) == {("/bout/defender", "R-PLAY-6")}
    state["bout"]["defender"] = 9  # not a seat at all: the schema says so
    problems = state_problems(state)
    assert found(problems) == {("/bout/defender", "R-PLAY-6")}
    assert "maximum" in problems[0].message


def test_partners_never_defend_against_each_other(teams):
    state = copy.deepcopy(teams)
    bout = state["bout"]
    bout["defender"] = (bout["attacker"] + 2) % 4
    assert ("/bout/defender", "R-TEAM-2") in found(state_problems(state))


def test_the_defender_never_passes(midgame):
    state = copy.deepcopy(midgame)
    state["bout"]["passed"] = [state["bout"]["defender"]]
    assert found(state_problems(state)) == {("/bout/passed/0", "R-THROW-3")}


def test_table_cards_are_not_the_defenders_without_transfers(midgame):
    state = copy.deepcopy(midgame)
    state["table"][-1]["by"] = state["bout"]["defender"]
    pointer = f"/table/{len(state['table']) - 1}/by"
    assert found(state_problems(state)) == {(pointer, "R-PLAY-4")}
    # with transfers the defender may have put cards down himself: not a problem
    state["ruleset"]["options"]["transfer"] = "on"
    assert state_problems(state) == []


def test_the_first_attack_card_is_the_openers(midgame):
    state = copy.deepcopy(midgame)
    bout = state["bout"]
    others = [i for i in range(3) if i not in (bout["opener"], bout["defender"])]
    state["table"][0]["by"] = others[0]
    assert ("/table/0/by", "R-ATTACK-2") in found(state_problems(state))


def test_without_transfers_the_main_attacker_is_the_opener(midgame):
    state = copy.deepcopy(midgame)
    bout = state["bout"]
    bout["attacker"] = next(i for i in range(3) if i not in (bout["opener"], bout["defender"]))
    assert found(state_problems(state)) == {("/bout/attacker", "R-ROLE-5")}


def test_emptied_seats_hold_no_cards(midgame):
    state = copy.deepcopy(midgame)
    state["bout"]["emptied"] = [0]
    assert found(state_problems(state)) == {("/bout/emptied/0", "R-OUT-2")}


# ----------------------------------------------------------------------------- the result


def test_a_fool_who_holds_no_cards(over):
    state = copy.deepcopy(over)
    fool = state["result"]["fool"]
    other = next(i for i in range(3) if i != fool)
    state["result"]["fool"] = other
    problems = state_problems(state)
    assert found(problems) == {("/result/fool", "R-END-2")}
    assert f"found seat {other}, who holds none" in problems[0].message


def test_no_fool_while_someone_holds_cards(over):
    state = copy.deepcopy(over)
    state["result"].update(fool=None, draw=True)
    assert found(state_problems(state)) == {("/result/fool", "R-END-2")}


def test_a_fool_among_empty_hands_needs_tie_defender_fool(over):
    state = copy.deepcopy(over)
    fool = state["result"]["fool"]
    # the fool's cards left on the table, as out_timing: immediate can leave them
    state["table"] = [
        {"attack": c, "by": fool, "defence": None} for c in state["players"][fool]["hand"]
    ]
    state["players"][fool].update(hand=[], known=[])
    assert found(state_problems(state)) == {("/result/fool", "R-END-3")}
    state["ruleset"]["options"]["tie"] = "defender_fool"
    assert state_problems(state) == []


def test_two_players_holding_cards_at_the_end(over):
    state = copy.deepcopy(over)
    fool = state["result"]["fool"]
    other = state["result"]["finishing_order"][0]
    state["players"][other]["hand"].append(state["players"][fool]["hand"].pop())
    state["players"][fool]["known"] = [
        c for c in state["players"][fool]["known"] if c in state["players"][fool]["hand"]
    ]
    problems = found(state_problems(state))
    assert ("/result", "R-END-1") in problems
    assert ("/finished/0", "R-OUT-1") in problems


def test_a_result_with_a_bout(over, midgame):
    state = copy.deepcopy(over)
    state["bout"] = copy.deepcopy(midgame["bout"])
    state["bout"].update(passed=[], emptied=[])
    assert ("/bout", "R-END-1") in found(state_problems(state))


def test_result_fields_that_disagree(over):
    state = copy.deepcopy(over)
    fool = state["result"]["fool"]
    state["result"].update(
        draw=True,
        losing_team=0,
        winners=[fool, 7],
        finishing_order=list(reversed(state["finished"])),
        epaulettes=0,
    )
    problems = found(state_problems(state))
    assert {
        ("/result/draw", "R-END-3"),
        ("/result/losing_team", "R-TEAM-3"),
        ("/result/winners", "R-END-4"),
        ("/result/winners/1", "R-PLAY-6"),
        ("/result/finishing_order", "R-END-4"),
        ("/result/epaulettes", "R-END-6"),
    } <= problems
    state["ruleset"]["options"]["win_mode"] = "ranking"
    assert ("/result/winners/0", "R-END-4") in found(state_problems(state))


def test_the_discard_pile_holds_pairs(midgame):
    state = copy.deepcopy(midgame)
    state["players"][0]["hand"].append(state["discard"].pop())
    assert found(state_problems(state)) == {("/discard", "R-BOUT-1")}


def test_finished_players_hold_no_cards(midgame):
    state = copy.deepcopy(midgame)
    state["finished"] = [0, 0]
    problems = found(state_problems(state))
    assert {
        ("/finished/0", "R-OUT-1"),
        ("/finished/1", "R-OUT-3"),
        ("/finished", "R-OUT-1"),
    } <= problems


# ------------------------------------------------------------------------- malformed values


@pytest.mark.parametrize("value", [None, [], [1, 2], 3, 2.5, "state", True, {}])
def test_anything_but_a_state_object(value):
    problems = state_problems(value)
    assert problems and all(p.rule == "R-PLAY-6" for p in problems)
    if not isinstance(value, dict):
        assert found(problems) == {("", "R-PLAY-6")}
        assert "a state is a JSON object" in problems[0].message


def test_a_state_missing_players_skips_what_needs_them(midgame):
    state = copy.deepcopy(midgame)
    del state["players"]
    assert state_problems(state) == [Problem("", "R-PLAY-6", "the field 'players' is missing")]


@pytest.mark.parametrize(
    ("field", "value", "pointer"),
    [
        (("players",), "x", "/players"),
        (("talon",), 5, "/talon"),
        (("dealer",), "0", "/dealer"),
        (("bout", "attacker"), "x", "/bout/attacker"),
        (("players", 0, "hand", 0), 7, "/players/0/hand/0"),
        (("players", 1, "team"), "q", "/players/1/team"),
        (("table", 0, "defence"), "ZZ", "/table/0/defence"),
        (("result",), [], "/result"),
        (("ruleset", "options", "deck_size"), 40, "/ruleset/options/deck_size"),
        (("version",), 2, "/version"),
    ],
)
def test_wrong_types_are_schema_problems_at_their_pointer(midgame, field, value, pointer):
    state = copy.deepcopy(midgame)
    node = state
    for part in field[:-1]:
        node = node[part]
    node[field[-1]] = value
    problems = state_problems(state)
    assert problems and problems[0].pointer == pointer and problems[0].rule == "R-PLAY-6"
    assert all(p.rule == "R-PLAY-6" for p in problems)  # the checks reading it are skipped


def test_null_or_something_says_so(midgame):
    state = copy.deepcopy(midgame)
    state["players"][1]["team"] = "q"
    [problem] = state_problems(state)
    assert problem.message == 'expected null or an integer; found the string "q"'


def test_an_unknown_field_is_named(midgame):
    state = copy.deepcopy(midgame)
    state["bout"]["extra"] = 1
    state["secret"] = {}
    assert found(state_problems(state)) == {("/bout/extra", "R-PLAY-6"), ("/secret", "R-PLAY-6")}


def test_integral_floats_are_integers(midgame):
    """JSON Schema calls 1.0 an integer; a seat written 1.0 must not make a check raise."""
    state = copy.deepcopy(midgame)
    state["dealer"] = float(state["dealer"])
    state["bout"]["defender"] = float(state["bout"]["defender"])
    state["table"][0]["by"] = float(state["table"][0]["by"])
    assert state_problems(state) == []


def test_a_ruleset_missing_an_option_skips_the_deck_checks(midgame):
    state = copy.deepcopy(midgame)
    del state["ruleset"]["options"]["deck_size"]
    state["talon"].pop(0)  # a missing card, had the ruleset said which deck this is
    assert found(state_problems(state)) == {("/ruleset/options", "R-PLAY-6")}


# ------------------------------------------------------------------------ never an exception

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 10)
    | st.floats(allow_nan=True)
    | st.sampled_from(["", "7S", "AH2", "1C", "x", "podkidnoy", "on"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "version",
                    "ruleset",
                    "players",
                    "hand",
                    "bout",
                    "x",
                    "table",
                    "attack",
                    "by",
                    "defence",
                    "result",
                    "fool",
                ]
            ),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, path + (index,))


def _agrees_with_jsonschema(value):
    """The compiled schema predicate and jsonschema give the same verdict."""
    schemas = invariants.schema.state_schema()
    assert schemas.fast is not None
    assert schemas.fast(value) == schemas.validator.is_valid(value)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=JSON)
def test_no_exception_on_any_json_value(value):
    problems = state_problems(value)
    assert all(isinstance(p, Problem) for p in problems)
    _agrees_with_jsonschema(value)


@pytest.mark.slow
@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data(), replacement=JSON)
def test_no_exception_on_a_real_state_with_one_part_replaced(midgame, over, data, replacement):
    state = copy.deepcopy(data.draw(st.sampled_from([midgame, over])))
    path = data.draw(st.sampled_from(list(_paths(state))[1:]))
    node = state
    for part in path[:-1]:
        node = node[part]
    if data.draw(st.booleans()):
        node[path[-1]] = replacement
    elif isinstance(node, dict):
        del node[path[-1]]
    else:
        node.pop(path[-1])
    problems = state_problems(state)
    assert all(isinstance(p, Problem) for p in problems)
    _agrees_with_jsonschema(state)


# --------------------------------------------------------------- random games, the fixtures

#: (ruleset, player counts): every preset and the option values that shape ends and roles.
GAMES = [
    ("podkidnoy", [2, 3, 4]),
    (
        {
            "preset": "podkidnoy",
            "overrides": {
                "deck_size": 24,
                "out_timing": "immediate",
                "tie": "defender_fool",
                "epaulettes": "on",
                "win_mode": "ranking",
            },
        },
        [2, 3],
    ),
    (
        {
            "preset": "podkidnoy",
            "overrides": {
                "deck_size": 52,
                "attack_limit": "hand",
                "pile_on": "forbidden",
                "win_mode": "first_out_wins",
                "draw_order": "one_at_a_time",
            },
        },
        [2, 5],
    ),
    ("perevodnoy", [2, 3]),
    (
        {
            "preset": "perevodnoy",
            "overrides": {
                "deck_size": 24,
                "transfer_main_attacker": "original",
                "out_timing": "immediate",
                "tie": "defender_fool",
            },
        },
        [2, 3],
    ),
    ("perevodnoy-trump-show", [2, 3]),
    (
        {
            "preset": "perevodnoy-trump-show",
            "overrides": {"trump_show": "any_time", "transfer_capacity": "hand"},
        },
        [3],
    ),
    (
        {
            "preset": "two-decks",
            "overrides": {"deck_size": 24, "transfer": "on", "transfer_capacity": "hand"},
        },
        [2, 3],
    ),
    ("teams-2v2", [4]),
    (
        {
            "preset": "teams-2v2",
            "overrides": {
                "deck_size": 24,
                "tie": "defender_fool",
                "win_mode": "first_out_wins",
                "epaulettes": "on",
            },
        },
        [4],
    ),
    ("teams-3v3", [6]),
    ("teams-2v2v2", [6]),
    ("seeds", [3]),
    ("pagat", [2, 4]),
]
GAMES_EACH = 22  # 14 configurations: about three hundred games


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "counts"), GAMES, ids=lambda v: json.dumps(v)[:40])
def test_random_reference_games_give_no_problem(ruleset, counts):
    checked = 0
    for game in range(GAMES_EACH):
        players = counts[game % len(counts)]
        for index, state in enumerate(play(ruleset, players, seed=1000 + game)):
            problems = state_problems(state)
            assert problems == [], f"game {game}, state {index}: {[str(p) for p in problems]}"
            checked += 1
    assert checked > GAMES_EACH * 10


@pytest.mark.slow
def test_the_fixtures_states_give_no_problem():
    """Every fixture's start state (with its resolved ruleset) and every state the reference
    answers along its moves hold the invariants: a fixture position the invariants refuse would
    fail every engine."""
    from conformance.suite.loader import load_paths
    from reference_impl.rulesets import resolve_ruleset

    cases, _ = load_paths([ROOT / "conformance" / "fixtures"])
    checked = 0
    for case in cases:
        if case.start_refused is not None:
            continue
        start = case.start
        if "state" in start:
            state = copy.deepcopy(start["state"])
            state["ruleset"] = resolve_ruleset(case.ruleset)
        else:
            state = api.new_game(
                case.ruleset,
                case.players,
                seed=start.get("seed"),
                deck=start.get("deck"),
                dealer=start.get("dealer"),
                previous=start.get("previous"),
            )
        for step in [None, *case.steps]:
            if step is not None:
                if step.kind != "move":
                    continue
                state = api.apply(state, step.body)
            problems = state_problems(state)
            where = "start" if step is None else f"step {step.index}"
            assert problems == [], f"{case.id} {where}: {[str(p) for p in problems]}"
            checked += 1
    assert checked > 100
