"""The claim (P-16, P-17): ``unsupported`` outside what hello claims, never inside it, and a
player count the rules forbid is ``bad_request`` (R-DECK-4) whatever the claim."""

from __future__ import annotations

from typing import ClassVar

import pytest

from conformance import kit
from reference_impl import api

from .helpers import Toy, ask, two_player_game


class Classic(Toy):
    """The toy claiming the classic game only: two or three players, one 36-card pack, every
    option at its default but a single-card opening."""

    supports: ClassVar = {"players": {"36": [2, 3]}, "options": {"opening": ["same_rank",
                                                                           "single"]}}


class SeatN1(Toy):
    supports: ClassVar = {**Toy.supports, "dealer": False}


class NoMatch(Toy):
    supports: ClassVar = {**Toy.supports, "match": False}


def new_game(adapter, ruleset="podkidnoy", players=2, **fields) -> dict:
    return ask(adapter, {"id": 1, "op": "new_game", "ruleset": ruleset, "players": players,
                         "seed": 5, **fields})


def code(answer: dict) -> str | None:
    return None if answer["ok"] else answer["error"]["code"]


def test_hello_is_the_claim_with_observe_and_sessions_added():
    hello = ask(Classic(), {"id": 1, "op": "hello"})
    assert hello["supports"] == {**Classic.supports, "observe": True, "sessions": True}


def test_hello_says_positions_false_without_setup():
    class Unset(Classic):
        setup = kit.Adapter.setup  # no setup written

    hello = ask(Unset(), {"id": 1, "op": "hello"})
    assert hello["supports"]["positions"] is False and hello["supports"]["sessions"] is True


@pytest.mark.parametrize("ruleset,players,expected", [
    ("podkidnoy", 2, None),
    ({"preset": "podkidnoy", "overrides": {"opening": "single"}}, 3, None),
    ({"preset": "podkidnoy", "overrides": {"opening": "single"}}, 4, "unsupported"),
    ({"preset": "podkidnoy", "overrides": {"attack_limit": "six"}}, 2, "unsupported"),
    ({"preset": "podkidnoy", "overrides": {"deck_size": 24}}, 2, "unsupported"),
    ("perevodnoy", 2, "unsupported"),
    ("podkidnoy", 7, "bad_request"),  # R-DECK-4, although 7 is not claimed either
    ("podkidnoy", 1, "bad_request"),
])
def test_new_game_outside_the_claim_is_unsupported(ruleset, players, expected):
    assert code(new_game(Classic(), ruleset, players)) == expected


def test_a_forbidden_player_count_cites_r_deck_4_and_a_team_mismatch_r_team_1():
    err = new_game(Toy(), players=9)["error"]
    assert (err["code"], err["rule"]) == ("bad_request", "R-DECK-4")
    teams = {"preset": "podkidnoy", "overrides": {"teams": "2v2"}}
    err = new_game(Toy(), teams, players=3)["error"]
    assert (err["code"], err["rule"]) == ("bad_request", "R-TEAM-1")


def test_a_state_outside_the_claim_is_unsupported():
    state = api.new_game({"preset": "podkidnoy", "overrides": {"attack_limit": "six"}}, 2, seed=1)
    for request in ({"op": "legal_moves", "state": state},
                    {"op": "apply", "state": state, "move": api.legal_moves(state)[0]}):
        assert code(ask(Classic(), {"id": 2, **request})) == "unsupported"
    four = api.new_game("podkidnoy", 4, seed=1)
    assert code(ask(Classic(), {"id": 3, "op": "legal_moves", "state": four})) == "unsupported"
    inside = two_player_game(Classic())
    assert code(ask(Classic(), {"id": 4, "op": "legal_moves", "state": inside})) is None


def test_an_engine_that_deals_from_seat_n_minus_1_only():
    assert code(new_game(SeatN1(), dealer=1)) is None
    assert code(new_game(SeatN1(), dealer=0)) == "unsupported"
    previous = {"dealer": 1, "result": {"fool": 0, "draw": False}}
    assert code(new_game(SeatN1(), previous=previous)) == "unsupported"
    state = api.new_game("podkidnoy", 2, seed=1, dealer=0)
    assert code(ask(SeatN1(), {"id": 2, "op": "legal_moves", "state": state})) == "unsupported"


def test_the_next_game_of_a_match():
    previous = {"dealer": 1, "result": {"fool": 0, "draw": False}}
    assert code(new_game(NoMatch(), previous=previous)) == "unsupported"
    for fool, draw, dealer in ((0, False, 0), (None, True, 1)):  # R-MATCH-1, R-MATCH-3
        previous = {"dealer": 1, "result": {"fool": fool, "draw": draw}}
        answer = new_game(Toy(), players=3, previous=previous)
        assert answer["state"]["dealer"] == dealer
        assert answer["state"] == api.new_game("podkidnoy", 3, seed=5, previous=previous)
    previous = {"dealer": 1, "result": {"fool": 0, "draw": False}}
    err = new_game(Toy(), previous=previous, dealer=1)["error"]
    assert (err["code"], err["pointer"]) == ("bad_request", "/dealer")
