"""Each transformation is a bijection that the rules respect: undone by its inverse on states,
moves and observations, a permutation of the deck and of the seats, and commuting with the
reference engine (legal sets, next states, refusals, observations) on positions from random games
of every preset."""

from __future__ import annotations

import random

import pytest

from conformance.contract import canonical
from conformance.contract.cards import deck
from conformance.contract.seats import team_of
from conformance.engines.base import InProcessEngine
from conformance.tools.fuzz.probes import probe_moves
from conformance.tools.metamorph import (
    BUILDERS,
    KINDS,
    check_apply,
    check_legal,
    check_observe,
)
from conformance.tools.metamorph.transforms import Transform, relabel_suits
from reference_impl import api
from reference_impl.observe import observe

from .helpers import PRESETS, positions


def _norm(state):
    return canonical.dumps(canonical.normalise_state(state))


def _deck_of(state) -> list[str]:
    options = state["ruleset"]["options"]
    return deck(int(options["deck_size"]), int(options["decks"]))


@pytest.mark.parametrize("preset", PRESETS)
def test_each_transformation_is_a_bijection(preset):
    rng = random.Random(preset)
    built = dict.fromkeys(KINDS, 0)
    talons = decks = 0
    for state in positions(preset, games=1, every=7, limit=120):
        talons += len(state["talon"]) > 2
        decks = state["ruleset"]["options"]["decks"]
        players = len(state["players"])
        for kind, build in BUILDERS.items():
            transform = build(state, rng)
            if transform is None:
                continue
            built[kind] += 1
            inverse = transform.inverse()
            image = transform.state(state)
            assert _norm(inverse.state(image)) == _norm(state), transform.label
            assert _norm(image) != _norm(state), f"{transform.label} changed nothing"
            cards = _deck_of(state)
            assert sorted(transform.card(c) for c in cards) == sorted(cards), transform.label
            seats = sorted(transform.seat(s) for s in range(players))
            assert seats == list(range(players)), transform.label
            for move in api.legal_moves(state):
                assert inverse.move(transform.move(move)) == move
            seen = observe(state, 0)
            back = inverse.observation(transform.observation(seen))
            assert canonical.dumps(canonical.normalise_observation(back)) == canonical.dumps(
                canonical.normalise_observation(seen)
            )
    assert built["suits"] and built["seats"], built
    assert bool(built["talon"]) == bool(talons), built  # none without a talon (6 of 36)
    assert bool(built["twins"]) == (decks == 2), built


@pytest.mark.parametrize("preset", PRESETS)
def test_the_reference_engine_commutes_with_every_transformation(preset):
    """No check breaks on the reference: legal sets, every legal move's next state, probes
    outside the legal set and one seat's observation, at positions of two games."""
    engine = InProcessEngine()
    rng = random.Random(f"commute/{preset}")
    checked = dict.fromkeys(KINDS, 0)
    talons = 0
    for state in positions(preset, games=2, every=9, limit=150):
        talons += len(state["talon"]) > 2
        legal = api.legal_moves(state)
        for kind, build in BUILDERS.items():
            transform = build(state, rng)
            if transform is None:
                continue
            image = transform.state(state)
            breaks = [check_legal(engine, transform, state, image)]
            for move in rng.sample(legal, min(3, len(legal))):
                breaks.append(check_apply(engine, transform, state, image, move, "move"))
            keys = {canonical.canonical_move(m) for m in legal}
            for probe in probe_moves(state, keys, rng, 2):
                breaks.append(check_apply(engine, transform, state, image, probe, "refuse"))
            seat = rng.randrange(len(state["players"]))
            breaks.append(check_observe(engine, transform, state, image, seat))
            assert [b.summary for b in breaks if b is not None] == [], transform.label
            checked[kind] += 1
    assert checked["suits"] and checked["seats"], checked
    assert bool(checked["talon"]) == bool(talons), checked


def _opening_position(players: int = 2):
    """A dealt podkidnoy game whose attacker can open with two cards of two suits."""
    for seed in range(200):
        state = api.new_game("podkidnoy", players, seed=seed)
        for move in api.legal_moves(state):
            cards = move.get("cards") or []
            if len(cards) == 2 and cards[0][1] != cards[1][1]:
                return state, move
    raise AssertionError("no deal of the first 200 seeds lets the attacker open with a pair")


def test_cards_laid_together_go_back_in_canonical_order():
    """R-ATTACK-2 lays an opening's cards in canonical order, which relabelling the suits can
    invert: the image of the state after the opening is only equal to the state after the
    image of the opening once its table cards are sorted again (``after``)."""
    state, move = _opening_position()
    first, second = sorted(move["cards"], key=canonical.card_key)
    suits = {first[1]: second[1], second[1]: first[1]}
    suits.update({s: s for s in "CDHS" if s not in suits})
    cards = {c: c[0] + suits[c[1]] + c[2:] for c in _deck_of(state)}
    swap = Transform("suits", "two suits exchanged", 2, cards=cards, suits=suits)
    after = api.apply(state, move)
    image_after = api.apply(swap.state(state), swap.move(move))
    assert _norm(swap.state(after)) != _norm(image_after)  # the table order is inverted
    assert _norm(swap.after(after, move)) == _norm(image_after)
    assert check_apply(InProcessEngine(), swap, state, swap.state(state), move, "move") is None


def test_seats_turned_round_keep_the_team_layout():
    """With teams, the teams are renumbered along, so each image seat's team is still the one
    R-TEAM-1 gives it."""
    rng = random.Random(5)
    for preset, teams in (("teams-2v2", "2v2"), ("teams-2v2v2", "2v2v2")):
        state = next(positions(preset, games=1))
        assert len(state["players"]) in (4, 6)
        for _ in range(6):
            image = BUILDERS["seats"](state, rng).state(state)
            assert [p["team"] for p in image["players"]] == [
                team_of(teams, seat) for seat in range(len(image["players"]))
            ]


def test_the_talon_keeps_its_trump_card_and_twins_need_two_packs():
    rng = random.Random(2)
    state = api.new_game("podkidnoy", 3, seed=4)
    image = BUILDERS["talon"](state, rng).state(state)
    assert image["talon"][-1] == state["talon"][-1] == state["trump"]
    assert sorted(image["talon"]) == sorted(state["talon"]) and image["talon"] != state["talon"]
    assert image["players"] == state["players"]
    assert BUILDERS["twins"](state, rng) is None
    short = {**state, "talon": [state["trump"]]}
    assert BUILDERS["talon"](short, rng) is None
    assert relabel_suits(state, rng).suits != {s: s for s in "CDHS"}
