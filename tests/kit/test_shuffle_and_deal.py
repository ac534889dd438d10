"""Seeds become decks by the portable shuffle (conformance/contract/shuffle.py), and the deck goes to the
seats the spec deals it to: the kit's side of R-DEAL-1..3 and R-TRUMP-1..3."""

from __future__ import annotations

import pytest

from conformance.contract.cards import deck
from conformance.contract.shuffle import shuffle
from conformance.kit import dealt_to
from reference_impl import api
from reference_impl.cards import CARD_NAMES, portable_shuffle, seeded_deck

from .helpers import Toy, ask

#: The 36-card deck each seed stands for (docs/adapter-kit.md prints them too).
VECTORS = {
    0: "8C KD 8S AC 7D 6H 9S 8H TC 6C AH AD QS TH QC 7S JS 9D TS JC TD 9H JD 9C 7C 7H 8D KS AS "
       "JH QH 6S KH 6D QD KC",
    1: "9H TD AS 9D JH TC KD TS AD KS AH 9C 6H QH 6D QC QS 8C 9S JS 8D 7S TH 6S 8H KC 7H AC 7D "
       "QD 7C KH 8S 6C JD JC",
    42: "6C TC JS TS 8C QS KS 7H JH KC 6S KD 9C 9S AS AC TH QD QH 6D JC 7D AD JD 8S 9H 8D TD 7S "
        "KH 8H 6H 9D QC AH 7C",
    2**64 - 1: "JC JS QH 7D 7C TC QD 6C AS 8D 6D TS QC AD TH AH QS 6H JH 9C KD 9H 8H 7H 8C KS "
               "7S 9D TD KH KC JD 9S 6S 8S AC",
}


class Recording(Toy):
    """The toy, keeping the Deal the kit hands to ``deal``."""

    def deal(self, game):
        self.game = game
        return super().deal(game)


def deal(request: dict):
    adapter = Recording()
    answer = ask(adapter, {"id": 1, "op": "new_game", **request})
    assert answer["ok"], answer
    return adapter.game, answer["state"]


@pytest.mark.parametrize("seed", sorted(VECTORS))
def test_a_seed_is_the_portable_shuffle_of_the_canonical_deck(seed):
    game, state = deal({"ruleset": "podkidnoy", "players": 2, "seed": seed})
    assert game.deck == VECTORS[seed].split() == shuffle(deck(36), seed)
    assert game.deck == [CARD_NAMES[c] for c in seeded_deck(36, 1, seed)]  # the reference's own
    assert state == api.new_game("podkidnoy", 2, seed=seed)


@pytest.mark.parametrize("seed", [0, 1, 42, 2**64 - 1])
@pytest.mark.parametrize("size,decks", [(24, 1), (52, 2)])
def test_other_decks_shuffle_the_same_way(seed, size, decks):
    ruleset = {"preset": "podkidnoy", "overrides": {"deck_size": size, "decks": decks}}
    game, _ = deal({"ruleset": ruleset, "players": 2, "seed": seed})
    assert game.deck == shuffle(deck(size, decks), seed) == portable_shuffle(deck(size, decks),
                                                                               seed)


@pytest.mark.parametrize("seed", [2**64, -1, True, 1.5, "42", None])
def test_a_seed_outside_unsigned_64_bits_is_bad_request(seed):
    answer = ask(Toy(), {"id": 1, "op": "new_game", "ruleset": "podkidnoy", "players": 2,
                         "seed": seed})
    assert answer["ok"] is False and answer["error"]["code"] == "bad_request"


def test_a_deck_is_dealt_as_sent_and_must_be_the_rulesets_deck_once():
    order = list(reversed(deck(36)))
    game, state = deal({"ruleset": "podkidnoy", "players": 3, "deck": order})
    assert game.deck == order and state == api.new_game("podkidnoy", 3, deck=order)
    for bad in (order[:-1], order + ["6C"], order[:-1] + [order[0]], order[:-1] + ["2C"]):
        answer = ask(Toy(), {"id": 1, "op": "new_game", "ruleset": "podkidnoy", "players": 3,
                             "deck": bad})
        assert answer["error"]["code"] == "bad_request" and answer["error"]["pointer"] == "/deck"


@pytest.mark.parametrize("overrides,players,dealer", [
    ({}, 2, None), ({}, 5, 2), ({"deal_order": "six_at_once"}, 4, 0),
    ({"trump_card": "bottom"}, 3, 1), ({"deck_size": 24}, 4, None),  # no talon: R-TRUMP-3
    ({"deck_size": 52, "decks": 2, "deal_order": "six_at_once"}, 8, 5),
])
def test_the_spec_deal_puts_each_card_where_the_reference_deals_it(overrides, players, dealer):
    request = {"ruleset": {"preset": "podkidnoy", "overrides": overrides}, "players": players,
               "seed": 99}
    if dealer is not None:
        request["dealer"] = dealer
    game, state = deal(request)
    spec = game.spec_deal()
    assert spec["trump"] == state["trump"] and spec["talon"] == state["talon"]
    assert [p["hand"] for p in spec["players"]] == [p["hand"] for p in state["players"]]
    for k in range(6 * players):
        assert game.deck[k] in state["players"][game.seat_of(k)]["hand"]


def test_dealing_starts_at_the_dealers_left():
    assert [dealt_to(k, 3, 2) for k in range(4)] == [0, 1, 2, 0]
    six = {"deal_order": "six_at_once"}
    assert [dealt_to(k, 3, 0, six) for k in (0, 5, 6, 17)] == [1, 1, 2, 0]
