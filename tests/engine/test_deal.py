"""The deal, the trump card, the first attacker and the next game (R-DEAL-*, R-TRUMP-*, R-ROLE-1,
R-MATCH-*), worked out by hand from docs/architecture.md ("deal") for given deck orders."""

import pytest

from reference_impl import api
from reference_impl.cards import CARD_NAMES, canonical_deck

from .helpers import ruleset

CANON36 = [CARD_NAMES[c] for c in canonical_deck(36, 1)]

def hands(state):
    return [p["hand"] for p in state["players"]]


def test_canonical_deck_two_players_one_at_a_time_after_deal():
    s = api.new_game("podkidnoy", 2, deck=CANON36)
    # dealer 1 (default N-1) deals from seat 0: even indices to seat 0, odd to seat 1
    assert s["dealer"] == 1
    assert hands(s) == [["6C", "8C", "TC", "QC", "AC", "7D"], ["7C", "9C", "JC", "KC", "6D", "8D"]]
    assert s["trump"] == "9D"  # index 12 = 6N
    assert s["talon"] == CANON36[13:] + ["9D"]
    # lowest trump (diamonds): seat 1 holds 6D
    assert s["bout"] == {"number": 1, "attacker": 1, "defender": 0, "opener": 1, "passed": [],
                         "taking": False, "first_defence": None, "shown": [], "emptied": []}
    assert s["table"] == [] and s["discard"] == [] and s["finished"] == [] and s["result"] is None
    assert all(p["known"] == [] and p["team"] is None for p in s["players"])


def test_six_at_once():
    s = api.new_game({"preset": "podkidnoy", "overrides": {"deal_order": "six_at_once"}}, 2,
                     deck=CANON36)
    assert hands(s) == [["6C", "7C", "8C", "9C", "TC", "JC"], ["QC", "KC", "AC", "6D", "7D", "8D"]]
    assert s["trump"] == "9D"
    assert s["bout"]["attacker"] == 1


def test_trump_card_bottom_and_no_trump_in_hands():
    s = api.new_game({"preset": "podkidnoy", "overrides": {"trump_card": "bottom"}}, 2,
                     deck=CANON36)
    assert s["trump"] == "AS"
    assert s["talon"] == CANON36[12:]  # the trump is already last
    # nobody holds a spade: fallback dealer_left = seat (1 + 1) mod 2
    assert s["bout"]["attacker"] == 0 and s["bout"]["defender"] == 1


# dealer 0, three players: deck index k goes to seat (1 + k) mod 3
FALLBACK_DECK = ["7C", "6C", "8C", "9C", "TC", "JC", "QC", "KC", "AC",
                 "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"] + CANON36[18:]


@pytest.mark.parametrize(
    ("overrides", "attacker"),
    [
        ({"no_trump_fallback": "dealer_left"}, 1),
        ({"no_trump_fallback": "seat_zero"}, 0),
        # lowest card: rank 6 held by seat 2 (6C) and seat 1 (6D); clubs come first
        ({"no_trump_fallback": "lowest_card"}, 2),
        ({"first_attacker": "dealer_left", "no_trump_fallback": "seat_zero"}, 1),
    ],
)
def test_no_trump_fallbacks(overrides, attacker):
    s = api.new_game({"preset": "podkidnoy", "overrides": overrides}, 3, deck=FALLBACK_DECK,
                     dealer=0)
    assert hands(s) == [["8C", "JC", "AC", "8D", "JD", "AD"],
                        ["7C", "9C", "QC", "6D", "9D", "QD"],
                        ["6C", "TC", "KC", "7D", "TD", "KD"]]
    assert s["trump"] == "6H"  # index 18; no hand holds a heart
    assert s["bout"]["attacker"] == attacker
    assert s["bout"]["defender"] == (attacker + 1) % 3


def test_first_attacker_dealer_left_ignores_trumps():
    s = api.new_game({"preset": "podkidnoy", "overrides": {"first_attacker": "dealer_left"}}, 2,
                     deck=CANON36)
    # seat 1 holds the lowest trump 6D, but the dealer's (seat 1) left is seat 0
    assert s["bout"]["attacker"] == 0


def test_no_talon_six_players():
    s = api.new_game("podkidnoy", 6, deck=CANON36)
    assert s["talon"] == []
    assert s["trump"] == "AS"  # the last card dealt, index 35, to the dealer (seat 5)
    assert "AS" in s["players"][5]["hand"] and s["players"][5]["known"] == ["AS"]
    # lowest trump 6S is index 27 -> seat 27 mod 6 = 3
    assert s["bout"]["attacker"] == 3 and s["bout"]["defender"] == 4


def test_no_talon_24_cards_four_players_six_at_once():
    deck = [CARD_NAMES[c] for c in canonical_deck(24, 1)]
    s = api.new_game({"preset": "podkidnoy", "overrides": {"deck_size": 24,
                                                            "deal_order": "six_at_once"}},
                     4, deck=deck, dealer=2)
    # seats 3, 0, 1, 2 get the clubs, diamonds, hearts, spades; the last card (AS) is the dealer's
    assert hands(s)[2] == ["9S", "TS", "JS", "QS", "KS", "AS"]
    assert s["trump"] == "AS" and s["talon"] == []
    assert s["bout"]["attacker"] == 2 and s["bout"]["defender"] == 3


def test_two_decks_tied_lowest_trump_goes_to_the_copy_dealt_first():
    rest = [CARD_NAMES[c] for c in canonical_deck(36, 2)
            if CARD_NAMES[c] not in ("6H2", "6H", "9H")]
    deck = ["6H2", "6H"] + rest[:10] + ["9H"] + rest[10:]
    s = api.new_game("two-decks", 2, deck=deck)
    assert s["trump"] == "9H"
    assert "6H2" in s["players"][0]["hand"] and "6H" in s["players"][1]["hand"]
    assert s["bout"]["attacker"] == 0


def test_seed_means_the_portable_shuffle_of_the_canonical_deck():
    from reference_impl.cards import portable_shuffle

    by_seed = api.new_game("podkidnoy", 3, seed=42)
    by_deck = api.new_game("podkidnoy", 3, deck=portable_shuffle(CANON36, 42))
    assert api.canonical_json(by_seed) == api.canonical_json(by_deck)


@pytest.mark.parametrize(("next_game", "attacker", "defender"),
                         [("fool_left", 1, 2), ("fool_right", 2, 0)])
def test_next_game_after_a_fool(next_game, attacker, defender):
    previous = {"dealer": 2, "result": {"fool": 0, "draw": False, "losing_team": None,
                                        "winners": [], "finishing_order": [1, 2],
                                        "epaulettes": None}}
    s = api.new_game({"preset": "podkidnoy", "overrides": {"next_game": next_game}}, 3,
                     seed=7, previous=previous)
    assert s["dealer"] == 0
    assert (s["bout"]["attacker"], s["bout"]["defender"]) == (attacker, defender)


def test_next_game_after_a_draw_is_a_first_game_by_the_same_dealer():
    previous = {"dealer": 1, "result": {"fool": None, "draw": True, "losing_team": None,
                                        "winners": [], "finishing_order": [0, 1, 2],
                                        "epaulettes": None}}
    s = api.new_game("podkidnoy", 3, deck=FALLBACK_DECK, previous=previous)
    fresh = api.new_game("podkidnoy", 3, deck=FALLBACK_DECK, dealer=1)
    assert api.canonical_json(s) == api.canonical_json(fresh)


@pytest.mark.parametrize(
    ("kwargs", "rule"),
    [
        ({"players": 7, "seed": 1}, "R-DECK-4"),
        ({"players": 1, "seed": 1}, "R-DECK-4"),
        ({"players": 4, "seed": 1, "ruleset": {"preset": "podkidnoy",
                                               "overrides": {"deck_size": 24}}}, None),
        ({"players": 5, "seed": 1, "ruleset": {"preset": "podkidnoy",
                                               "overrides": {"deck_size": 24}}}, "R-DECK-4"),
        ({"players": 3, "seed": 1, "ruleset": "teams-2v2"}, "R-TEAM-1"),
    ],
)
def test_player_counts(kwargs, rule):
    rs = kwargs.pop("ruleset", "podkidnoy")
    if rule is None:
        api.new_game(rs, **kwargs)
        return
    with pytest.raises(api.BadRequest) as info:
        api.new_game(rs, **kwargs)
    assert info.value.rule == rule and info.value.code == "bad_request"


@pytest.mark.parametrize(
    "kwargs",
    [
        {},  # neither seed nor deck
        {"seed": 1, "deck": CANON36},
        {"deck": CANON36[:-1]},
        {"deck": CANON36[:-1] + ["6C"]},
        {"deck": CANON36[:-1] + ["2C"]},
        {"seed": -1},
        {"seed": "1"},
        {"seed": 1, "dealer": 5},
        {"seed": 1, "previous": {"dealer": 0, "result": {"fool": 1, "draw": False}},
         "dealer": 0},
    ],
)
def test_bad_new_game_requests(kwargs):
    with pytest.raises(api.BadRequest):
        api.new_game("podkidnoy", 2, **kwargs)


def test_unknown_ruleset_is_a_bad_request():
    with pytest.raises(api.BadRequest):
        api.new_game("no-such-preset", 2, seed=1)
    with pytest.raises(api.BadRequest):
        api.new_game({"preset": "podkidnoy", "overrides": {"attack_limit": "seven"}}, 2, seed=1)


def test_ruleset_forms_resolve_to_every_option():
    s = api.new_game({"preset": "podkidnoy", "overrides": {"throw_in_priority": "free"}}, 2,
                     seed=3)
    assert s["ruleset"]["options"] == ruleset(throw_in_priority="free")["options"]
    assert s["ruleset"]["name"] == "podkidnoy+throw_in_priority=free"


def test_a_ruleset_name_a_state_could_not_carry_is_refused():
    with pytest.raises(api.BadRequest) as info:
        api.new_game({"name": "My Rules", "options": {}}, 2, seed=1)
    assert info.value.pointer == "/ruleset/name"
    assert api.new_game({"options": {"deck_size": 24}}, 2, seed=1)["ruleset"]["name"] == "custom"


def test_lowest_card_between_twins_is_the_copy_dealt_first():
    # two packs, no heart in any hand; the lowest card is a six of clubs, both copies dealt:
    # 6C2 (index 0, seat 0) before 6C (index 1, seat 1)
    hearts = [c for c in (CARD_NAMES[x] for x in canonical_deck(36, 2)) if c[1] == "H"]
    others = [c for c in (CARD_NAMES[x] for x in canonical_deck(36, 2))
              if c[1] != "H" and c not in ("6C", "6C2")]
    deck = ["6C2", "6C"] + others[:10] + hearts[:1] + others[10:] + hearts[1:]
    s = api.new_game({"preset": "two-decks", "overrides": {"no_trump_fallback": "lowest_card"}},
                     2, deck=deck)
    assert s["trump"][1] == "H"
    assert not any(c[1] == "H" for p in s["players"] for c in p["hand"])
    assert s["bout"]["attacker"] == 0
