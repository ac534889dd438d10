"""The bookkeeping fields the kit derives are the reference engine's, game after game, and what
the engine's translation gives is kept, never repaired."""

from __future__ import annotations

import copy
import random

import pytest

from conformance.kit import after, fresh
from conformance.kit.bookkeeping import closing_table
from reference_impl import api
from reference_impl.rulesets import catalog_options

from .helpers import Toy, ask, two_player_game

DERIVED = {"version", "ruleset", "dealer", "finished"}


def strip(state: dict, rng: random.Random) -> dict:
    """What an engine that keeps no bookkeeping would say of ``state``."""
    view = {k: copy.deepcopy(v) for k, v in state.items() if k not in DERIVED}
    for player in view["players"]:
        del player["known"], player["team"]
    for row in view["table"]:
        del row["by"]
    if view["bout"]:
        for field in ("number", "opener", "first_defence", "emptied"):
            del view["bout"][field]
    if view["result"]:
        view["result"] = {"fool": view["result"]["fool"]}
    rng.shuffle(view["discard"])
    return view


RULESETS = [
    ("podkidnoy", 2), ("podkidnoy", 4), ("perevodnoy", 3), ("perevodnoy-trump-show", 4),
    ("pagat", 3), ("seeds", 5),
    ({"preset": "podkidnoy", "overrides": {"out_timing": "immediate", "win_mode": "ranking"}}, 4),
    ({"preset": "podkidnoy", "overrides": {"epaulettes": "on", "deck_size": 24}}, 3),
    ({"preset": "podkidnoy", "overrides": {"teams": "2v2", "win_mode": "first_out_wins"}}, 4),
    ({"preset": "perevodnoy", "overrides": {"teams": "2v2v2", "out_timing": "immediate",
                                            "win_mode": "ranking", "tie": "defender_fool"}}, 6),
    ({"preset": "podkidnoy", "overrides": {"throw_in_ranks": "first_pair", "deck_size": 52,
                                           "decks": 2, "trump_card": "bottom"}}, 8),
]
if "finish_order" in catalog_options():  # OQ9: players out together, in drawing order
    RULESETS.append(({"preset": "podkidnoy", "overrides": {"finish_order": "draw_order",
                                                           "win_mode": "ranking"}}, 5))


@pytest.mark.parametrize("ruleset,players", RULESETS)
def test_the_kit_derives_what_the_reference_engine_keeps(ruleset, players):
    rng = random.Random(f"{ruleset}{players}")
    for _ in range(2):
        state = api.new_game(ruleset, players, seed=rng.getrandbits(64))
        assert fresh(strip(state, rng), state["ruleset"], state["dealer"]) == state
        while state["result"] is None:
            move = rng.choice(api.legal_moves(state))
            nxt = api.apply(state, move)
            assert after(state, move, strip(nxt, rng)) == nxt, (state, move)
            state = nxt


def test_what_the_translation_gives_is_kept_as_it_is():
    state = api.new_game("podkidnoy", 2, seed=7)
    move = api.legal_moves(state)[0]
    nxt = api.apply(state, move)
    view = strip(nxt, random.Random(0))
    view["players"][0]["known"] = ["AS"]  # wrong, but the engine's
    view["bout"]["number"] = 99
    view["finished"] = [1]
    out = after(state, move, view)
    assert out["players"][0]["known"] == ["AS"] and out["bout"]["number"] == 99
    assert out["finished"] == [1]


def test_a_wrong_answer_is_never_repaired():
    state = api.new_game("podkidnoy", 2, seed=7)
    move = api.legal_moves(state)[0]
    view = strip(api.apply(state, move), random.Random(0))
    card = view["table"][0]["attack"]
    view["players"][0]["hand"].append(card)  # the card both on the table and in a hand
    view["discard"].append(card)  # and in the discard pile
    out = after(state, move, view)
    assert card in out["players"][0]["hand"] and out["table"][0]["attack"] == card
    assert out["discard"] == [card]


def test_the_discard_pile_is_put_in_the_contracts_order():
    toy = Toy()
    rng = random.Random(3)
    state = two_player_game(toy, seed=3)
    for _ in range(200):
        if state["result"] is not None:
            break
        moves = ask(toy, {"id": 1, "op": "legal_moves", "state": state})["moves"]
        move = rng.choice(moves)
        answer = ask(toy, {"id": 2, "op": "apply", "state": state, "move": move})
        assert answer["state"] == api.apply(state, move)  # the toy shuffles its pile each time
        state = answer["state"]
    assert state["discard"]


def test_cards_picked_up_become_known_in_the_takers_hand_only():
    rng, takes = random.Random(1), 0
    for seed in range(3):
        state = api.new_game("podkidnoy", 3, seed=seed)
        while state["result"] is None:
            move = rng.choice(api.legal_moves(state))
            nxt = api.apply(state, move)
            out = after(state, move, strip(nxt, rng))
            if (state["bout"]["taking"] or move["action"] == "take") and not nxt["table"]:
                taker, takes = state["bout"]["defender"], takes + 1
                cards = {c for row in closing_table(state["table"], move) for c in row if c}
                for seat, player in enumerate(out["players"]):
                    assert (cards <= set(player["known"])) if seat == taker else not (
                        cards & set(player["known"]))
            state = nxt
    assert takes
