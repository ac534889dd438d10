"""Card notation, deck composition, canonical order and the portable shuffle (R-DECK-1..3, R-DEAL-2)."""

from reference_impl.cards import (
    CARD_NUMBERS,
    canonical_deck,
    names,
    portable_shuffle,
    splitmix64,
)


def deck_names(size, decks):
    return [names(1 << c)[0] for c in canonical_deck(size, decks)]


def test_36_card_deck_is_six_to_ace_in_canonical_order():
    deck = deck_names(36, 1)
    assert len(deck) == 36
    assert deck[:9] == ["6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]
    assert deck[9] == "6D" and deck[18] == "6H" and deck[27] == "6S" and deck[-1] == "AS"


def test_24_and_52_card_decks():
    assert deck_names(24, 1)[:6] == ["9C", "TC", "JC", "QC", "KC", "AC"]
    assert len(deck_names(24, 1)) == 24
    d52 = deck_names(52, 1)
    assert len(d52) == 52 and d52[0] == "2C" and d52[12] == "AC" and d52[13] == "2D"


def test_two_decks_put_every_first_copy_before_the_second():
    d = deck_names(36, 2)
    assert len(d) == 72 and len(set(d)) == 72
    assert d[35] == "AS" and d[36] == "6C2" and d[-1] == "AS2"


def test_notation_round_trips_and_rejects_others():
    assert "TH2" in CARD_NUMBERS and "10H" not in CARD_NUMBERS and "7s" not in CARD_NUMBERS
    assert "7S3" not in CARD_NUMBERS


def test_splitmix64_matches_published_vectors():
    g = splitmix64(0)
    assert [next(g) for _ in range(2)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]
    g = splitmix64(1234567)
    assert [next(g) for _ in range(2)] == [6457827717110365317, 3203168211198807973]


def test_portable_shuffle_is_fisher_yates_from_the_top_index():
    # Worked by hand for 3 cards and seed 0: i=2: j = 0xE220A8397B1DCDAF mod 3; i=1: j = next mod 2.
    first, second = 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4
    cards = ["a", "b", "c"]
    j = first % 3
    cards[2], cards[j] = cards[j], cards[2]
    j = second % 2
    cards[1], cards[j] = cards[j], cards[1]
    assert portable_shuffle(["a", "b", "c"], 0) == cards
    assert sorted(portable_shuffle(list(range(36)), 99)) == list(range(36))
