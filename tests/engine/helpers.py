"""Building hand-written positions and moves for the engine's unit tests.

A test states a position by hand (hands, table, talon, roles) and this module fills in what the
contract requires of a full state (every option, every other card of the deck somewhere), then
validates it, so a mistake in a test's position fails loudly instead of testing nonsense.
"""

from __future__ import annotations

from conformance.tools.reach.repair import as_pile
from reference_impl import api
from reference_impl.cards import CARD_NAMES, CARD_NUMBERS, canonical_deck
from reference_impl.rulesets import resolve_ruleset
from reference_impl.tables import team_of_seat


def ruleset(preset: str = "podkidnoy", **overrides) -> dict:
    return resolve_ruleset({"preset": preset, "overrides": overrides} if overrides else preset)


def make_state(
    hands,
    *,
    trump,
    attacker,
    defender,
    talon=None,
    discard=None,
    table=(),
    opener=None,
    passed=(),
    taking=False,
    first_defence="auto",
    shown=(),
    emptied=(),
    finished=(),
    number=1,
    dealer=None,
    known=None,
    rest="discard",
    preset="podkidnoy",
    **overrides,
) -> dict:
    """A full, validated state. ``hands``: one list of cards per seat. ``table``: tuples
    (attack, by, defence-or-None). ``talon`` in draw order (the trump card last, if it is still
    there). Cards of the deck not placed anywhere go to ``rest``: ``"discard"`` (appended in
    canonical order, then arranged into beaten pairs if they are not, R-BOUT-1) or ``"talon"`` (inserted before the talon's last card, the trump)."""
    rs = ruleset(preset, **overrides)
    o = rs["options"]
    n = len(hands)
    talon = list(talon or [])
    discard = list(discard or [])
    placed = [c for h in hands for c in h] + talon + discard
    for a, _by, d in table:
        placed.append(a)
        if d is not None:
            placed.append(d)
    used = {CARD_NUMBERS[c] for c in placed}
    assert len(used) == len(placed), "a card is placed twice in the test position"
    leftover = [CARD_NAMES[c] for c in canonical_deck(o["deck_size"], o["decks"]) if c not in used]
    if rest == "discard":
        discard = as_pile(discard + leftover, trump) or discard + leftover
    elif rest == "talon":
        assert talon, "rest='talon' needs a talon ending with the trump card"
        talon = talon[:-1] + leftover + talon[-1:]
    else:
        assert not leftover, f"cards not placed: {leftover}"
    if first_defence == "auto":
        first_defence = next((d for _a, _b, d in table if d is not None), None)
    key = CARD_NUMBERS.__getitem__
    state = {
        "version": 1,
        "ruleset": rs,
        "dealer": n - 1 if dealer is None else dealer,
        "trump": trump,
        "talon": talon,
        "discard": discard,
        "players": [
            {
                "hand": sorted(h, key=key),
                "known": sorted((known or {}).get(i, []), key=key),
                "team": team_of_seat(o["teams"], i),
            }
            for i, h in enumerate(hands)
        ],
        "table": [{"attack": a, "by": b, "defence": d} for a, b, d in table],
        "bout": {
            "number": number,
            "attacker": attacker,
            "defender": defender,
            "opener": attacker if opener is None else opener,
            "passed": sorted(passed),
            "taking": taking,
            "first_defence": first_defence,
            "shown": sorted(shown, key=key),
            "emptied": list(emptied),
        },
        "finished": list(finished),
        "result": None,
    }
    api.validate_state(state)
    return state


# --------------------------------------------------------------------------- moves


def attack(p, *cards):
    return {"player": p, "action": "attack", "cards": sorted(cards, key=CARD_NUMBERS.__getitem__)}


def throw(p, card):
    return {"player": p, "action": "throw_in", "card": card}


def beat(p, target, card):
    return {"player": p, "action": "beat", "target": target, "card": card}


def take(p):
    return {"player": p, "action": "take"}


def pass_(p):
    return {"player": p, "action": "pass"}


def transfer(p, *cards):
    return {"player": p, "action": "transfer", "cards": sorted(cards, key=CARD_NUMBERS.__getitem__)}


def show(p, card):
    return {"player": p, "action": "show_trump", "card": card}


def key(move) -> str:
    return api.canonical_json(move)


def legal_set(state) -> set:
    return {key(m) for m in api.legal_moves(state)}


def assert_legal(state, expected) -> None:
    """The legal set is exactly ``expected``."""
    got = legal_set(state)
    want = {key(m) for m in expected}
    assert got == want, f"missing {sorted(want - got)}; unexpected {sorted(got - want)}"


def refused(state, move) -> str:
    """Apply ``move``, expect an illegal_move, check the state is unchanged; return the rule."""
    before = api.canonical_json(state)
    try:
        api.apply(state, move)
    except api.IllegalMove as exc:
        assert api.canonical_json(state) == before
        return exc.rule
    raise AssertionError(f"{move} was accepted")


def play(state, *moves) -> dict:
    for m in moves:
        state = api.apply(state, m)
    return state


def hand(state, seat) -> list:
    return state["players"][seat]["hand"]
