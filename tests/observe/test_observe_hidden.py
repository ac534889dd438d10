"""Nothing hidden leaks: property tests of observe over random games of every preset.

For states met along random playouts (the reference engine plays them), and every observer:

- the observation validates against ``spec/schema/observation.schema.json``;
- every card it mentions is one the observer may know: his hand, the ``known`` cards, the table,
  the trump card (only while it lies under the talon), trumps shown this bout, and the discard pile
  only under ``discard_visibility: contents``;
- states that differ only in what the observer cannot see give the same observation: another
  player's unknown card swapped with a face-down talon card, unknown cards swapped between two other
  hands, the face-down talon reordered, and (under ``count``) a discarded card swapped with another
  player's unknown card that can take its place in its beaten pair, or the pile's pairs reordered.
  Each such state is checked to be a valid state (the engine's ``validate_state``) and different
  from the original, so the property has teeth.
"""

from __future__ import annotations

import copy
import random

import pytest

from reference_impl import api
from reference_impl.errors import InvalidState
from reference_impl.observe import observe

from .helpers import card_key, schema_errors

GAMES = [
    ("podkidnoy", 2), ("podkidnoy", 3), ("podkidnoy", 6),
    ("pagat", 4), ("perevodnoy", 2), ("perevodnoy", 5),
    ("perevodnoy-trump-show", 3), ("teams-2v2", 4), ("teams-3v3", 6),
    ("two-decks", 4), ({"preset": "podkidnoy", "overrides": {"discard_visibility": "contents"}}, 3),
    ({"preset": "podkidnoy", "overrides": {"deck_size": 52}}, 7),
]
SEEDS = range(2)
MAX_MOVES = 400


def playout(ruleset, players, seed):
    """The states of one random game (every move chosen uniformly), at most MAX_MOVES."""
    rng = random.Random(seed)
    state = api.new_game(ruleset, players, seed=seed)
    states = [state]
    for _ in range(MAX_MOVES):
        moves = api.legal_moves(state)
        if not moves:
            break
        state = api.apply(state, rng.choice(moves))
        states.append(state)
    return states


def public_cards(state, observer):
    """Every card the observer is entitled to see in this state."""
    cards = set(state["players"][observer]["hand"])
    for p in state["players"]:
        cards.update(p["known"])
    for t in state["table"]:
        cards.update(c for c in (t["attack"], t["defence"]) if c)
    if state["talon"] and state["talon"][-1] == state["trump"]:
        cards.add(state["trump"])
    if state["bout"]:
        cards.update(state["bout"]["shown"])
    if state["ruleset"]["options"]["discard_visibility"] == "contents":
        cards.update(state["discard"])
    return cards


def card_strings(value):
    """Every string in a JSON value that looks like a card."""
    if isinstance(value, dict):
        for v in value.values():
            yield from card_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from card_strings(v)
    elif isinstance(value, str) and 2 <= len(value) <= 3 and value[0] in "23456789TJQKA" \
            and value[1:2] in ("C", "D", "H", "S") and value[2:] in ("", "2"):
        yield value


def _unknown(state, seat):
    known = set(state["players"][seat]["known"]) | set(
        state["bout"]["shown"] if state["bout"] else ()
    )
    return [c for c in state["players"][seat]["hand"] if c not in known]


def _face_down_talon(state):
    talon = state["talon"]
    return len(talon) - 1 if talon and talon[-1] == state["trump"] else len(talon)


def _set_hand(state, seat, hand):
    state["players"][seat]["hand"] = sorted(hand, key=card_key)


def hidden_variants(state, observer, rng):
    """States that differ from ``state`` only in what ``observer`` cannot see."""
    others = [s for s in range(len(state["players"])) if s != observer and _unknown(state, s)]
    variants = []
    down = _face_down_talon(state)
    for seat in others:  # another hand's unknown card <-> a face-down talon card
        if down:
            v = copy.deepcopy(state)
            card = rng.choice(_unknown(v, seat))
            i = rng.randrange(down)
            hand = [c for c in v["players"][seat]["hand"] if c != card] + [v["talon"][i]]
            v["talon"][i] = card
            _set_hand(v, seat, hand)
            variants.append(v)
    if len(others) >= 2:  # unknown cards swapped between two other hands
        a, b = rng.sample(others, 2)
        v = copy.deepcopy(state)
        ca, cb = rng.choice(_unknown(v, a)), rng.choice(_unknown(v, b))
        _set_hand(v, a, [c for c in v["players"][a]["hand"] if c != ca] + [cb])
        _set_hand(v, b, [c for c in v["players"][b]["hand"] if c != cb] + [ca])
        variants.append(v)
    if down >= 2:  # the face-down talon in another order
        v = copy.deepcopy(state)
        part = v["talon"][:down]
        while part == v["talon"][:down]:
            rng.shuffle(part)
        v["talon"][:down] = part
        variants.append(v)
    if state["ruleset"]["options"]["discard_visibility"] == "count" and state["discard"]:
        # a discarded card <-> another hand's unknown card that can take its place in its pair
        # (the pile stays beaten pairs, each attack card followed by the card that beat it,
        # R-BOUT-1); never the trump card, whose way from the talon's bottom to a hand everyone
        # saw (R-INFO-3)
        unseen = [i for i, c in enumerate(state["discard"]) if c != state["trump"]]
        for seat in others[:1] if unseen else []:
            swaps = [(i, card) for i in unseen for card in _unknown(state, seat)]
            for i, card in rng.sample(swaps, min(len(swaps), 20)):
                v = copy.deepcopy(state)
                hand = [c for c in v["players"][seat]["hand"] if c != card] + [v["discard"][i]]
                v["discard"][i] = card
                _set_hand(v, seat, hand)
                if _is_valid(v):
                    variants.append(v)
                    break
        pairs = [state["discard"][i : i + 2] for i in range(0, len(state["discard"]), 2)]
        if len(pairs) >= 2:  # the same pairs in another order
            v = copy.deepcopy(state)
            v["discard"] = [card for pair in reversed(pairs) for card in pair]
            variants.append(v)
    return [v for v in variants if v != state]


def _is_valid(state) -> bool:
    try:
        api.validate_state(state)
    except InvalidState:
        return False
    return True


def _label(game):
    ruleset, players = game
    name = ruleset if isinstance(ruleset, str) else "+".join(
        f"{k}={v}" for k, v in ruleset["overrides"].items()
    )
    return f"{name}-{players}p"


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=[_label(g) for g in GAMES])
@pytest.mark.parametrize("seed", SEEDS)
def test_observations_leak_nothing_hidden(game, seed):
    ruleset, players = game
    rng = random.Random(1000 + seed)
    checked_variants = 0
    for index, state in enumerate(playout(ruleset, players, seed)):
        if index % 3 and state["result"] is None:
            continue  # every third state, and the final one
        for observer in range(players):
            obs = observe(state, observer)
            if observer == index % players:  # the schema check is slow: one observer per state
                assert schema_errors(obs) == [], (index, observer)
            leaked = set(card_strings(obs)) - public_cards(state, observer)
            assert not leaked, f"state {index}: observer {observer} sees {sorted(leaked)}"
            assert obs["hand"] == state["players"][observer]["hand"]
            for variant in hidden_variants(state, observer, rng):
                api.validate_state(variant)
                assert observe(variant, observer) == obs, (index, observer)
                checked_variants += 1
    assert checked_variants > 0
