"""validate_state: each kind of invalid state is rejected with a JSON pointer; the engine's fast
shape check agrees with spec/schema/state.schema.json."""

import copy
import json
import random

import pytest

from reference_impl import api
from reference_impl.validate import _Shape, _shape_check, schema_errors

from .helpers import make_state


def base():
    return make_state([["7S", "QC", "KD"], ["TD", "JD", "6H"]],
                      table=[("7C", 0, "9C"), ("7D", 0, None)], trump="AH", talon=["KH", "AH"],
                      attacker=0, defender=1, passed=[], rest="talon")


def mutate(path, value):
    s = base()
    target = s
    for part in path[:-1]:
        target = target[part]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return s


DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "pointer"),
    [
        (("version",), 2, "/version"),
        (("dealer",), 5, "/dealer"),
        (("trump",), "10H", "/trump"),
        (("players", 0, "hand", 0), "7C", "/table/0/attack"),  # 7C is also on the table
        (("players", 0, "hand", 0), "5S", "/players/0/hand/0"),  # not in the 36-card deck
        (("players", 0, "hand", 0), "7S2", "/players/0/hand/0"),  # one pack only
        (("players", 0, "known"), ["TD"], "/players/0/known/0"),  # not in that hand
        (("players", 0, "team"), 0, "/players/0/team"),
        (("table", 1, "defence"), "6C", "/table/1/defence"),  # 6C does not beat 7D
        (("table", 0, "by"), 4, "/table/0/by"),
        (("bout", "defender"), 0, "/bout/defender"),
        (("bout", "passed"), [1], "/bout/passed"),
        (("bout", "first_defence"), "7S", "/bout/first_defence"),
        (("bout", "extra"), 1, "/bout/extra"),
        (("finished",), [0], "/finished/0"),
        (("result",), {"fool": 1, "draw": False, "losing_team": None, "winners": [],
                       "finishing_order": [], "epaulettes": None}, "/bout"),
        (("bout",), None, "/bout"),
        (("ruleset", "options", "attack_limit"), "seven", "/ruleset/options/attack_limit"),
        (("ruleset", "options", "deck_size"), "36", "/ruleset/options/deck_size"),
        (("ruleset", "options", "teams"), DELETE, "/ruleset/options"),
    ],
)
def test_invalid_states_name_a_pointer(path, value, pointer):
    s = mutate(path, value)
    with pytest.raises(api.InvalidState) as info:
        api.validate_state(s)
    assert info.value.pointer == pointer, info.value.message
    assert info.value.code == "invalid_state"


def test_trump_card_must_be_the_last_card_of_the_talon():
    s = base()
    s["talon"] = list(reversed(s["talon"]))
    with pytest.raises(api.InvalidState) as info:
        api.validate_state(s)
    assert info.value.pointer == f"/talon/{len(s['talon']) - 1}"


def test_missing_card():
    s = base()
    s["players"][0]["hand"].remove("QC")
    with pytest.raises(api.InvalidState) as info:
        api.validate_state(s)
    assert "QC" in info.value.message


def test_unbeaten_cards_never_exceed_the_defenders_hand():
    s = base()
    # move JD and 6H from the defender's hand into the discard pile: U = 1 <= H = 1 is fine ...
    s["players"][1]["hand"] = ["TD"]
    s["discard"] = ["JD", "6H"]
    api.validate_state(s)
    # ... but a second unbeaten card is not
    s["table"][0]["defence"] = None
    s["discard"].append("9C")
    s["discard"].append(s["talon"].pop(0))
    s["bout"]["first_defence"] = None
    with pytest.raises(api.InvalidState) as info:
        api.validate_state(s)
    assert info.value.pointer == "/table"


def test_states_of_new_games_are_valid_under_both_checks():
    for preset, n in (("podkidnoy", 2), ("podkidnoy", 6), ("two-decks", 8), ("teams-2v2", 4)):
        s = api.new_game(preset, n, seed=n)
        api.validate_state(s)
        assert schema_errors(s) == []


JUNK = [None, 0, 7, -1, "x", "7S", "10H", "7S3", [], {}, True, ["7S"], [0], {"a": 1}]


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, (*prefix, i))


@pytest.mark.slow  # a long random property run (CI runs it, not the inner loop)
def test_fast_shape_check_agrees_with_the_json_schema():
    rng = random.Random(7)
    states = [base(), api.new_game("perevodnoy", 3, seed=1)]
    finished = json.loads(json.dumps(states[0]))
    finished["bout"] = None
    finished["result"] = {"fool": 1, "draw": False, "losing_team": None, "winners": [],
                          "finishing_order": [], "epaulettes": None}
    states.append(finished)
    checked = 0
    for st in states:
        paths = [p for p in _paths(st) if p]
        for _ in range(250):
            s = copy.deepcopy(st)
            path = rng.choice(paths)
            target = s
            for part in path[:-1]:
                target = target[part]
            r = rng.random()
            if r < 0.15 and isinstance(target, dict):
                del target[path[-1]]
            elif r < 0.25 and isinstance(target, dict):
                target["unexpected"] = 1
            else:
                target[path[-1]] = copy.deepcopy(rng.choice(JUNK))
            by_schema = bool(schema_errors(s))
            try:
                _shape_check(s)
                by_engine = False
            except _Shape:
                by_engine = True
            assert by_schema == by_engine, (path, s)
            checked += 1
    assert checked == 750


def test_tables_no_game_reaches_under_a_single_opening():
    """One card opens (opening: single), no transfers, no take: with throw_in_timing
    after_first_beat or all_beaten nothing joins the opening card before a beat, and with
    all_beaten two cards are never unbeaten at once (R-ATTACK-2, R-THROW-2). Under the default
    readings the same tables are reachable, so they stay valid."""
    hands = [["7H", "8S", "KS", "AD"], ["8C", "9D", "TS", "QH"]]
    two_sevens = [("7C", 0, None), ("7S", 0, None)]
    beaten_then_two = [("7C", 0, "9C"), ("7S", 0, None), ("7D", 0, None)]
    common = {"trump": "6H", "attacker": 0, "defender": 1, "talon": [], "number": 3}
    single = {"opening": "single"}
    for timing in ("after_first_beat", "all_beaten"):
        with pytest.raises(api.InvalidState, match="R-THROW-2") as info:
            make_state(hands, table=two_sevens, throw_in_timing=timing, **single, **common)
        assert info.value.pointer == "/table"
    with pytest.raises(api.InvalidState, match="R-THROW-2"):
        make_state(hands, table=beaten_then_two, throw_in_timing="all_beaten", **single, **common)
    make_state(hands, table=beaten_then_two, throw_in_timing="after_first_beat", **single, **common)
    make_state(hands, table=two_sevens, **single, **common)  # any_time: thrown in before a beat
    make_state(hands, table=two_sevens, throw_in_timing="all_beaten", **common)  # a pair opens
    make_state(
        hands, table=two_sevens, throw_in_timing="all_beaten", taking=True, **single, **common
    )  # piled on after the take


def _refused(rule: str, pointer: str, hands, **kw):
    with pytest.raises(api.InvalidState, match=rule) as info:
        make_state(hands, **kw)
    assert info.value.pointer == pointer, info.value


THREE = [["7H", "8S", "KS"], ["8C", "9D", "TS"], ["6C", "9H", "QH"]]


def test_the_defender_is_the_first_opponent_holding_cards():
    """R-ROLE-2: seat 1 holds cards, so seat 2 two seats on cannot defend against seat 0; once
    seat 1 is out (no cards, talon empty) seat 2 is the defender."""
    common = {"trump": "6H", "attacker": 0, "defender": 2, "talon": [], "table": [("7H", 0, None)]}
    _refused("R-ROLE-2", "/bout/defender", [["8S", "KS"], ["8C"], ["6C", "9H"]], **common)
    make_state([["8S", "KS", "AS"], [], ["6C", "9H"]], finished=[1], **common)


def test_partners_never_attack_each_other_mid_bout():
    """R-TEAM-2 holds with cards on the table too, not only before the opening attack."""
    hands = [["8S"], ["8C"], ["6C", "9H"], ["TS"]]
    _refused("R-TEAM-2", "/bout/defender", hands, trump="6H", attacker=0, defender=2, talon=[],
             table=[("7H", 0, None)], teams="2v2")


def test_a_drawn_trump_card_is_known():
    """R-TRUMP-2, R-INFO-3: with the talon empty the trump card's holder saw it drawn in public."""
    common = {"trump": "6H", "attacker": 0, "defender": 1, "talon": []}
    _refused("R-INFO-3", "/players/1/known", [["7H", "9S"], ["6H", "8C"]], **common)
    make_state([["7H", "9S"], ["6H", "8C"]], known={1: ["6H"]}, **common)


def test_a_known_card_is_listed_once():
    with pytest.raises(api.InvalidState, match="R-INFO-3"):
        make_state([["7H", "9S"], ["6H", "8C"]], known={1: ["6H", "6H"]}, trump="6H", attacker=0,
                   defender=1, talon=[])


def test_no_take_with_everything_beaten_under_while_unbeaten():
    """R-TAKE-1: a take needs an unbeaten card under while_unbeaten, and nobody beats after it;
    under any_time the same table may be taken."""
    common = {"trump": "6H", "attacker": 0, "defender": 1, "talon": [], "table": [("7C", 0, "9C")],
                  "taking": True}
    _refused("R-TAKE-1", "/bout/taking", [["8S"], ["8C"]], **common)
    make_state([["8S"], ["8C"]], take_allowed="any_time", **common)


def test_without_transfers_the_main_attacker_opened_and_only_attackers_played():
    """R-ROLE-5: no transfer, so the main attacker is the opener; R-THROW-3: the defender played
    no attack card."""
    common = {"trump": "6H", "attacker": 0, "defender": 1, "talon": []}
    _refused("R-ROLE-5", "/bout/opener", THREE, opener=2, table=[("7C", 2, None)], **common)
    _refused("R-THROW-3", "/table/1/by", THREE, table=[("7C", 0, "9C"), ("7D", 1, None)],
             **common)


def test_shown_trumps_fit_the_ruleset_and_the_attack_rank():
    """R-TRANSFER-7: no shows without transfer and trump_show, and a shown trump is of the
    attack rank; R-TRANSFER-8 (each once) is a list check like known cards."""
    hands = [["8S"], ["7H", "8C"], ["9D", "TD"]]
    common = {"trump": "6H", "attacker": 2, "defender": 0, "opener": 0, "talon": [],
                  "table": [("7C", 0, None)]}
    _refused("R-TRANSFER-7", "/bout/shown", hands, shown=["7H"], known={1: ["7H"]},
             **{**common, "attacker": 0, "defender": 1})
    show = dict(preset="perevodnoy", trump_show="any_time", **common)
    make_state(hands, shown=["7H"], known={1: ["7H"]}, **show)
    _refused("R-TRANSFER-7", "/bout/shown/0", [["8S"], ["8H", "8C"], ["9D", "TD"]], shown=["8H"],
             known={1: ["8H"]}, **show)
