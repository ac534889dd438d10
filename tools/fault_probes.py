"""Looking for a behaviour change where random games cannot show one (issue 12 item 5).

A fault that survives the suite is a gap only if it changes what the engine answers. Random games
(:func:`faults.behaviour_differs`) only ever send the states the reference itself produced and
the moves it lists, so a fault in the state validator (it accepts an impossible state, or refuses
a possible one), in the diagnosis of a refused move (another rule named) or in the reading of a
request (a malformed one accepted, a good one refused) never shows there. This module asks the
faulty copy and the reference the same questions off the beaten track and reports the first
answer that differs:

- **states**: real states of random games (on the reference), each as is and changed in one
  small way (a card moved, dropped or doubled; a role, the dealer, a team or a bout field
  changed; a known card dropped or added; ``taking`` flipped; a discard pair reordered; an
  option of the ruleset changed under the same cards; a result field changed), sent with
  ``legal_moves``;
- **refusals**: moves the rules refuse on real positions (cards from any hand, any target, any
  action, any seat), sent with ``apply``;
- **requests**: malformed ``new_game`` requests (ruleset, players, seed, deck, dealer, previous)
  and malformed moves (player, action, fields, cards);
- **observe**: what each seat sees of the real states.

Answers are compared as the suite compares them: the moves, the state, the error code, and the
rule of an ``illegal_move``. Two things the protocol leaves open are told apart as *weak*
differences: the JSON pointer of an error (P-26 makes naming the first problem a SHOULD) and the
rule of a ``bad_request`` (P-9: an engine need not cite one). The suite cannot fail an engine for
them, so a fault that shows only those is not counted as changing behaviour; it is reported
apart.

Everything is drawn from a seed, so the same questions are asked of every fault of a run.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from conformance.engines.base import Engine, ErrorResult

#: how many states of each random game are kept (spread over the game), plus its last state
STATES_PER_GAME = 8
#: how many one-change neighbours of each kept state are sent (drawn from all of them)
NEIGHBOURS_PER_STATE = 40
#: how many refused moves are sent per position
REFUSALS_PER_STATE = 30
#: how many option-changed neighbours of each kept state the refusals are sent on too
OPTION_VARIANTS = 3


class ReferenceFailed(Exception):
    """The reference refused its own game: the questions cannot be drawn."""


@dataclass(frozen=True)
class Difference:
    """The first question the two engines answered differently."""

    probe: str  # states | refusals | requests | observe
    what: str  # the question, in words
    question: Any  # the state, move or request sent
    reference: Any  # the reference's answer (summarised)
    candidate: Any  # the faulty copy's answer (summarised)
    weak: bool = False  # only a pointer or a bad_request rule differs

    def describe(self) -> str:
        kind = "weak difference" if self.weak else "difference"
        return (f"{self.probe}: {kind} on {self.what}: reference {_short(self.reference)}, "
                f"fault {_short(self.candidate)}")


def _short(answer: Any, limit: int = 160) -> str:
    text = json.dumps(answer, sort_keys=True, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ------------------------------------------------------------------------------ real states


def real_states(games: int, seed: int, reference: Engine | None = None) -> list[dict]:
    """States of random games played on the reference (rulesets, player counts, deals and
    options drawn as ``durak-conformance fuzz --vary-options`` draws them, then one more game
    for each player count 2..8 not drawn): a few positions spread over each game, the position
    with the most cards on the table, and the last state. Every other game is played for long
    bouts (attack and throw in whenever possible, beat rather than take), which random moves
    rarely give: a full table at the attack cap."""
    from conformance.engines.base import InProcessEngine
    from conformance.tools.fuzz.planning import FuzzConfig, game_choices, plan_game

    engine = reference or InProcessEngine()
    config = FuzzConfig(games=games, seed=seed, vary_options=True, deal="mixed")
    choices, _ = game_choices(config, [None])
    plans = [plan_game(config, index, choices, [None]) for index in range(games)]
    counts = {plan.players for plan in plans}
    wide = {"preset": "podkidnoy", "overrides": {"deck_size": 52}}
    plans += [(wide, n, {"seed": seed + n}) for n in range(2, 9) if n not in counts]
    kept: list[dict] = []
    for index, plan in enumerate(plans):
        ruleset, players, deal = ((plan.ruleset, plan.players, plan.deal)
                                  if not isinstance(plan, tuple) else plan)
        rng = random.Random(f"durak-faults/game/{seed}/{index}")
        seen = _play(engine, ruleset, players, deal, rng, long_bouts=index % 2 == 1)
        picked = sorted(rng.sample(range(len(seen) - 1), min(STATES_PER_GAME, len(seen) - 1)))
        fullest = max(range(len(seen)), key=lambda i: len(seen[i]["table"]))
        kept += [seen[i] for i in sorted({*picked, fullest})] + [seen[-1]]
    return kept


#: the order ``long_bouts`` play prefers: the bout grows first, a take last
_LONG_BOUTS = {"attack": 0, "throw_in": 0, "transfer": 1, "show_trump": 1, "beat": 2,
               "pass": 3, "take": 4}


def _play(engine: Engine, ruleset: Any, players: int, deal: dict, rng: random.Random,
          long_bouts: bool) -> list[dict]:
    """Every state of one game on ``engine``, from the deal to its end (at most 400 moves)."""
    state = engine.new_game(ruleset, players, **deal)
    if isinstance(state, ErrorResult):
        raise ReferenceFailed(f"the reference refused its own planned game: {state}")
    seen = [state]
    for _ in range(400):
        legal = engine.legal_moves(state)
        if isinstance(legal, ErrorResult) or not legal:
            break
        if long_bouts and rng.random() < 0.9:
            best = min(_LONG_BOUTS[m["action"]] for m in legal)
            legal = [m for m in legal if _LONG_BOUTS[m["action"]] == best]
        state = engine.apply(state, rng.choice(legal))
        if isinstance(state, ErrorResult):
            raise ReferenceFailed(f"the reference refused its own legal move: {state}")
        seen.append(state)
    return seen


# ------------------------------------------------------------------------------ neighbours


def _places(st: dict) -> list[tuple]:
    """Where each card lies, as paths into the state."""
    out = [("players", i, "hand", j) for i, p in enumerate(st["players"])
           for j in range(len(p["hand"]))]
    out += [("talon", j) for j in range(len(st["talon"]))]
    out += [("discard", j) for j in range(len(st["discard"]))]
    for j, pair in enumerate(st["table"]):
        out.append(("table", j, "attack"))
        if pair["defence"] is not None:
            out.append(("table", j, "defence"))
    return out


def _get(st: dict, path: tuple) -> Any:
    for key in path:
        st = st[key]
    return st


def _take_card(st: dict, path: tuple) -> str:
    """Remove the card at ``path`` (an attack card takes its pair off the table, its defence
    going back to the defender's hand so no card is lost)."""
    if path[0] == "table":
        j, part = path[1], path[2]
        pair = st["table"][j]
        card = pair[part]
        if part == "defence":
            pair["defence"] = None
        else:
            st["table"].pop(j)
            if pair["defence"] is not None and st["bout"] is not None:
                st["players"][st["bout"]["defender"]]["hand"].append(pair["defence"])
        return card
    container = _get(st, path[:-1])
    return container.pop(path[-1])


def _put_card(st: dict, card: str, where: str, rng: random.Random) -> None:
    n = len(st["players"])
    if where == "hand":
        st["players"][rng.randrange(n)]["hand"].append(card)
    elif where == "talon":
        st["talon"].insert(rng.randrange(len(st["talon"]) + 1), card)
    elif where == "discard":
        st["discard"].append(card)
    else:  # a new attack card on the table
        by = st["bout"]["attacker"] if st["bout"] else rng.randrange(n)
        st["table"].append({"attack": card, "by": by, "defence": None})


def neighbours(state: dict, rng: random.Random) -> Iterator[tuple[str, dict]]:
    """``state`` itself, then states one small change away from it, each with a label."""
    yield "the state as is", state
    st = state
    n = len(st["players"])
    bout, result = st["bout"], st["result"]

    def change(label: str, edit: Callable[[dict], Any]) -> tuple[str, dict]:
        new = copy.deepcopy(st)
        edit(new)
        return label, new

    out: list[tuple[str, dict]] = []
    places = _places(st)
    for _ in range(6):  # a card moved to another place
        path = rng.choice(places)
        where = rng.choice(("hand", "talon", "discard", "table"))

        def move(new, path=path, where=where):
            _put_card(new, _take_card(new, path), where, rng)

        out.append(change(f"the card at /{'/'.join(map(str, path))} moved to the {where}", move))
    for _ in range(2):  # a card dropped, a card doubled
        path = rng.choice(places)
        out.append(change(f"the card at /{'/'.join(map(str, path))} dropped",
                          lambda new, path=path: _take_card(new, path)))
        out.append(change(f"the card at /{'/'.join(map(str, path))} also in a hand",
                          lambda new, path=path: new["players"][rng.randrange(n)]["hand"].append(
                              _get(new, path))))
    a, b = rng.sample(places, 2) if len(places) > 1 else (places[0], places[0])

    def swap(new, a=a, b=b):
        ca, cb = _get(new, a), _get(new, b)
        _get(new, a[:-1])[a[-1]] = cb
        _get(new, b[:-1])[b[-1]] = ca

    out.append(change("two cards swapped between places", swap))
    for seat in range(n + 1):
        out.append(change(f"dealer {seat}", lambda new, seat=seat: new.__setitem__("dealer", seat)))
    for i, p in enumerate(st["players"]):
        for team in (None, 0, 1, 2):
            if team != p["team"]:
                out.append(change(f"seat {i} in team {team}",
                                  lambda new, i=i, team=team: new["players"][i].__setitem__(
                                      "team", team)))
        for j in range(len(p["known"])):
            out.append(change(f"known card {j} of seat {i} dropped",
                              lambda new, i=i, j=j: new["players"][i]["known"].pop(j)))
        unknown = [c for c in p["hand"] if c not in p["known"]]
        if unknown:
            card = rng.choice(unknown)
            out.append(change(f"{card} of seat {i}'s hand made known",
                              lambda new, i=i, c=card: new["players"][i]["known"].append(c)))
        if p["known"]:
            out.append(change(f"a known card of seat {i} listed twice",
                              lambda new, i=i: new["players"][i]["known"].append(
                                  new["players"][i]["known"][0])))
        others = [c for q in st["players"] if q is not p for c in q["hand"]]
        if others:
            card = rng.choice(others)
            out.append(change(f"{card} of another hand listed as known by seat {i}",
                              lambda new, i=i, c=card: new["players"][i]["known"].append(c)))
    for k in range(0, len(st["discard"]) - 1, 2):
        def reorder(new, k=k):
            d = new["discard"]
            d[k], d[k + 1] = d[k + 1], d[k]

        out.append(change(f"discard pair {k // 2} reordered", reorder))
    if st["discard"]:
        out.append(change("the discard pile rotated by one",
                          lambda new: new["discard"].append(new["discard"].pop(0))))
    if st["talon"]:
        out.append(change("the talon reversed", lambda new: new["talon"].reverse()))
    for value in (2, "1", True):
        out.append(change(f"version {value!r}", lambda new, v=value: new.__setitem__(
            "version", v)))
    out += _option_changes(st, rng, change)
    out += _trump_changes(st, rng, change)
    if bout is not None:
        out += _bout_changes(st, bout, n, rng, change)
    if result is not None:
        out += _result_changes(st, result, n, change)
    out.append(change("finished emptied", lambda new: new.__setitem__("finished", [])))
    for seat in range(n):
        if seat not in st["finished"]:
            out.append(change(f"seat {seat} finished",
                              lambda new, seat=seat: new["finished"].append(seat)))
    out = [(label, new) for label, new in out if new != st]  # a card put back where it was
    rng.shuffle(out)
    yield from out[:NEIGHBOURS_PER_STATE]


def _option_changes(st: dict, rng: random.Random, change) -> list:
    from reference_impl.rulesets import catalog_options

    out = []
    options = st["ruleset"]["options"]
    for name, spec in catalog_options().items():
        others = [v for v in spec["values"] if v != options.get(name)]
        if others:
            value = rng.choice(others)
            out.append(change(f"option {name}: {value} under the same cards",
                              lambda new, name=name, value=value: new["ruleset"]["options"]
                              .__setitem__(name, value)))
    return out


def _trump_changes(st: dict, rng: random.Random, change) -> list:
    cards = [c for p in st["players"] for c in p["hand"]] + list(st["discard"])
    same_suit = [c for c in cards if c[1] == st["trump"][1]]
    out = []
    for card in {rng.choice(cards) if cards else st["trump"],
                 rng.choice(same_suit) if same_suit else st["trump"]}:
        if card != st["trump"]:
            out.append(change(f"trump card {card}", lambda new, c=card: new.__setitem__(
                "trump", c)))
    return out


def _bout_changes(st: dict, bout: dict, n: int, rng: random.Random, change) -> list:
    out = []

    def set_bout(key, value):
        return lambda new: new["bout"].__setitem__(key, value)

    for key in ("attacker", "defender", "opener"):
        for seat in range(n + 1):
            if seat != bout[key]:
                out.append(change(f"bout {key} {seat}", set_bout(key, seat)))
    out.append(change(f"taking {not bout['taking']}", set_bout("taking", not bout["taking"])))
    for key in ("passed", "emptied"):
        for seat in range(n):
            toggled = sorted(set(bout[key]) ^ {seat})
            out.append(change(f"bout {key} {toggled}", set_bout(key, toggled)))
    for number in {1, 2, bout["number"] + 1, max(1, bout["number"] - 1)} - {bout["number"]}:
        out.append(change(f"bout number {number}", set_bout("number", number)))
    table = st["table"]
    defences = [p["defence"] for p in table if p["defence"] is not None]
    for card in [None, *defences[:2], *[p["attack"] for p in table][:1]]:
        if card != bout["first_defence"]:
            out.append(change(f"first_defence {card}", set_bout("first_defence", card)))
    hand_cards = [c for p in st["players"] for c in p["hand"]]
    for j, pair in enumerate(table):
        if pair["defence"] is not None:
            def take_back(new, j=j):
                card = _take_card(new, ("table", j, "defence"))
                new["players"][new["bout"]["defender"]]["hand"].append(card)

            out.append(change(f"table {j} defence taken back", take_back))
        elif hand_cards:
            card = rng.choice(hand_cards)

            def beat(new, j=j, card=card):
                for p in new["players"]:
                    if card in p["hand"]:
                        p["hand"].remove(card)
                new["table"][j]["defence"] = card

            out.append(change(f"table {j} beaten with {card}", beat))
        for seat in range(n + 1):
            if seat != pair["by"]:
                out.append(change(f"table {j} played by seat {seat}",
                                  lambda new, j=j, seat=seat: new["table"][j].__setitem__(
                                      "by", seat)))
    trumps = [c for c in hand_cards if c[1] == st["trump"][1]]
    for card in {*(rng.sample(trumps, min(2, len(trumps)))), *hand_cards[:1]}:
        if card not in bout["shown"]:
            out.append(change(f"{card} shown", lambda new, c=card: new["bout"]["shown"].append(c)))
    if bout["shown"]:
        out.append(change("a shown trump listed twice",
                          lambda new: new["bout"]["shown"].append(new["bout"]["shown"][0])))
    out.append(change("bout null, result null", lambda new: new.__setitem__("bout", None)))
    return out


def _result_changes(st: dict, result: dict, n: int, change) -> list:
    out = []

    def set_result(key, value):
        return lambda new: new["result"].__setitem__(key, value)

    for value in {None, 0, 1, 2, n} - {result["fool"]}:
        out.append(change(f"result fool {value}", set_result("fool", value)))
    out.append(change(f"result draw {not result['draw']}", set_result("draw", not result["draw"])))
    ep = result["epaulettes"]
    for value in ([None, 0, 1] if ep is None else [None, ep + 1, max(0, ep - 1), 0, -1]):
        if value != ep:
            out.append(change(f"result epaulettes {value}", set_result("epaulettes", value)))
    for value in (None, 0, 1, 2):
        if value != result["losing_team"]:
            out.append(change(f"result losing_team {value}", set_result("losing_team", value)))
    for seat in range(n + 1):
        toggled = sorted(set(result["winners"]) ^ {seat})
        out.append(change(f"result winners {toggled}", set_result("winners", toggled)))
    if len(result["finishing_order"]) > 1:
        out.append(change("finishing order reversed",
                          lambda new: (new["result"]["finishing_order"].reverse(),
                                       new["finished"].reverse())))
    return out


# ------------------------------------------------------------------------------ refused moves


def refused_moves(state: dict, legal: list, rng: random.Random) -> list[dict]:
    """Well-formed moves the rules refuse in ``state``: every seat, every action, cards from any
    hand and of the table, any target on the table (and a few elsewhere)."""
    from conformance.contract import canonical

    if state["result"] is not None:
        seat = rng.randrange(len(state["players"]))
        return [{"player": seat, "action": "take"}, {"player": seat, "action": "pass"}]
    hands = [p["hand"] for p in state["players"]]
    every = sorted({c for h in hands for c in h})
    attacks = [pair["attack"] for pair in state["table"]]
    targets = attacks + [pair["defence"] for pair in state["table"] if pair["defence"]]
    targets += rng.sample(every, min(2, len(every)))
    moves: list[dict] = []
    for seat, hand in enumerate(hands):
        moves += [{"player": seat, "action": "take"}, {"player": seat, "action": "pass"}]
        for card in every:
            moves.append({"player": seat, "action": "attack", "cards": [card]})
            moves.append({"player": seat, "action": "throw_in", "card": card})
            moves.append({"player": seat, "action": "transfer", "cards": [card]})
            moves.append({"player": seat, "action": "show_trump", "card": card})
            for target in targets:
                moves.append({"player": seat, "action": "beat", "target": target, "card": card})
        by_rank: dict[str, list] = {}
        for card in hand:
            by_rank.setdefault(card[0], []).append(card)
        for group in by_rank.values():
            for k in range(2, len(group) + 1):
                moves.append({"player": seat, "action": "attack", "cards": group[:k]})
                moves.append({"player": seat, "action": "transfer", "cards": group[:k]})
        if len(by_rank) > 1:
            mixed = [g[0] for g in by_rank.values()][:2]
            moves.append({"player": seat, "action": "attack", "cards": mixed})
            moves.append({"player": seat, "action": "transfer", "cards": mixed})
    listed = {canonical.canonical_move(m) for m in legal}
    refused = [m for m in moves if canonical.canonical_move(m) not in listed]
    return rng.sample(refused, min(REFUSALS_PER_STATE, len(refused)))


# ------------------------------------------------------------------------------ malformed


def malformed_moves(state: dict) -> list[tuple[str, Any]]:
    """Moves that are not well formed (bad_request before any rule), and a few well-formed
    ones at the edges of the parser (the last seat, a two-pack card name)."""
    n = len(state["players"])
    hand = next((p["hand"] for p in state["players"] if p["hand"]), ["7S"])
    card = hand[0]
    other_deck = "2C" if state["ruleset"]["options"].get("deck_size") != 52 else "2C2"
    out: list[tuple[str, Any]] = [
        ("a move that is a list", [0, "take"]),
        ("a move without player", {"action": "take"}),
        ("a move without action", {"player": 0}),
        ("the last seat takes", {"player": n - 1, "action": "take"}),
    ]
    for seat in (-1, n, 8, True, "0", 0.0, None):
        out.append((f"player {seat!r}", {"player": seat, "action": "take"}))
    for action in ("Take", "ATTACK", "", None, 3, "draw"):
        out.append((f"action {action!r}", {"player": 0, "action": action}))
    out += [
        ("take with a card", {"player": 0, "action": "take", "card": card}),
        ("pass with cards", {"player": 0, "action": "pass", "cards": [card]}),
        ("attack without cards", {"player": 0, "action": "attack"}),
        ("attack with card", {"player": 0, "action": "attack", "card": card}),
        ("attack with an empty list", {"player": 0, "action": "attack", "cards": []}),
        ("attack with a card text", {"player": 0, "action": "attack", "cards": card}),
        ("attack with a card twice", {"player": 0, "action": "attack", "cards": [card, card]}),
        ("attack with a number", {"player": 0, "action": "attack", "cards": [7]}),
        ("attack with null", {"player": 0, "action": "attack", "cards": [None]}),
        ("attack with a list in the list", {"player": 0, "action": "attack", "cards": [[card]]}),
        ("throw_in of a lower-case card", {"player": 0, "action": "throw_in",
                                           "card": card.lower()}),
        ("throw_in of no card", {"player": 0, "action": "throw_in", "card": "ZZ"}),
        ("throw_in of a card of another deck", {"player": 0, "action": "throw_in",
                                                "card": other_deck}),
        ("throw_in of a twin in a one-pack game", {"player": 0, "action": "throw_in",
                                                   "card": card[:2] + "2"}),
        ("throw_in of a list", {"player": 0, "action": "throw_in", "card": [card]}),
        ("show_trump without card", {"player": 0, "action": "show_trump"}),
        ("transfer of a dict", {"player": 0, "action": "transfer", "cards": {"0": card}}),
        ("beat without target", {"player": 0, "action": "beat", "card": card}),
        ("beat without card", {"player": 0, "action": "beat", "target": card}),
        ("beat of a number", {"player": 0, "action": "beat", "target": 5, "card": card}),
        ("beat with cards", {"player": 0, "action": "beat", "target": card, "card": card,
                             "cards": [card]}),
    ]
    return out


def malformed_games(reference: Engine) -> list[tuple[str, tuple, dict]]:
    """``new_game`` requests, most of them malformed, as (label, args, keywords)."""
    from conformance.contract.cards import deck as canonical_deck

    deck36 = canonical_deck(36, 1)
    result = {"fool": 1, "draw": False, "losing_team": None, "winners": [0, 2],
              "finishing_order": [0, 2], "epaulettes": None}
    drawn = {**result, "fool": None, "draw": True}
    out: list[tuple[str, tuple, dict]] = []
    for ruleset in ("nope", 5, None, [], {"preset": "podkidnoy"}, {"preset": "nope"},
                    {"preset": "podkidnoy", "overrides": {"deck_size": 40}},
                    {"preset": "podkidnoy", "overrides": {"nope": 1}},
                    {"preset": "podkidnoy", "overrides": {"transfer": "on"}},
                    {"preset": "podkidnoy", "overrides": {"transfer": "off"}},
                    {"preset": "podkidnoy", "overrides": {"deck_size": "36"}},
                    {"preset": "podkidnoy", "overrides": {"decks": True}},
                    {"preset": "podkidnoy", "overrides": []},
                    {"preset": "podkidnoy", "overrides": {}, "extra": 1},
                    {"name": "Bad Name", "options": {}},
                    {"name": "mine", "options": {"transfer": "on"}},
                    {"name": "mine", "options": {"deck_size": 24}},
                    {"name": "mine", "preset": "perevodnoy", "overrides": {"deck_size": 24}},
                    {"name": "mine"}):
        out.append((f"ruleset {ruleset!r}", (ruleset, 3), {"seed": 1}))
    from reference_impl.rulesets import preset_names, resolve_ruleset

    for preset in sorted({"podkidnoy", "perevodnoy", "teams-2v2"} & set(preset_names())):
        full = resolve_ruleset(preset)
        out.append((f"the full form of {preset}", (full, 4 if "teams" in preset else 3),
                    {"seed": 2}))
    for players in (1, 0, -1, 9, 7, 6, 5, True, "3", 3.0, None):
        out.append((f"players {players!r}", ("podkidnoy", players), {"seed": 3}))
    for players in (2, 3, 4, 6):
        out.append((f"teams-2v2 with {players} players", ("teams-2v2", players), {"seed": 3}))
    for seed in (-1, 0, 2**64 - 1, 2**64, 2**65, True, "1", 1.5):
        out.append((f"seed {seed!r}", ("podkidnoy", 3), {"seed": seed}))
    out.append(("neither seed nor deck", ("podkidnoy", 3), {}))
    out.append(("both seed and deck", ("podkidnoy", 3), {"seed": 1, "deck": deck36}))
    for label, deck in (("a deck short of a card", deck36[1:]),
                        ("a deck with a card twice", deck36[1:] + deck36[:1] + deck36[:1]),
                        ("a deck with a foreign card", ["2C"] + deck36[1:]),
                        ("a deck in lower case", [deck36[0].lower()] + deck36[1:]),
                        ("a deck with null", [None] + deck36[1:]),
                        ("a deck that is text", " ".join(deck36)),
                        ("the deck reversed", list(reversed(deck36))),
                        ("a deck of two packs", deck36 + [c + "2" for c in deck36])):
        out.append((label, ("podkidnoy", 3), {"deck": deck}))
    for dealer in (-1, 0, 2, 3, True, "0", 1.0):
        out.append((f"dealer {dealer!r}", ("podkidnoy", 3), {"seed": 4, "dealer": dealer}))
    for label, previous, extra in (
        ("previous game", {"dealer": 2, "result": result}, {}),
        ("previous drawn game", {"dealer": 1, "result": drawn}, {}),
        ("previous with the dealer it gives", {"dealer": 2, "result": result}, {"dealer": 1}),
        ("previous contradicted by dealer", {"dealer": 2, "result": result}, {"dealer": 0}),
        ("previous that is a list", [2, result], {}),
        ("previous without result", {"dealer": 2}, {}),
        ("previous dealer 3", {"dealer": 3, "result": result}, {}),
        ("previous dealer -1", {"dealer": -1, "result": result}, {}),
        ("previous dealer true", {"dealer": True, "result": result}, {}),
        ("previous fool 3", {"dealer": 0, "result": {**result, "fool": 3}}, {}),
        ("previous fool -1", {"dealer": 0, "result": {**result, "fool": -1}}, {}),
        ("previous fool true", {"dealer": 0, "result": {**result, "fool": True}}, {}),
        ("previous draw text", {"dealer": 0, "result": {**result, "draw": "no"}}, {}),
        ("previous without fool or draw", {"dealer": 0, "result": {}}, {}),
    ):
        out.append((label, ("podkidnoy", 3), {"seed": 5, "previous": previous, **extra}))
    return out


# ------------------------------------------------------------------------------ comparing


def _summary(answer: Any) -> tuple[Any, Any]:
    """(what the suite compares, what only a SHOULD or MAY covers) of one answer."""
    if isinstance(answer, ErrorResult):
        if answer.is_fault:
            return ("fault", answer.code), None
        if answer.code == "illegal_move":
            return ("error", answer.code, answer.rule), None
        weak = (answer.pointer, answer.rule if answer.code == "bad_request" else None)
        return ("error", answer.code), weak
    return ("answer", answer), None


def _compare(probe: str, what: str, question: Any, ref: Any, cand: Any) -> Difference | None:
    (strong_r, weak_r), (strong_c, weak_c) = _summary(ref), _summary(cand)
    if strong_r != strong_c:
        return Difference(probe, what, question, strong_r, strong_c)
    if weak_r != weak_c:
        return Difference(probe, what, question, [*strong_r, weak_r], [*strong_c, weak_c],
                          weak=True)
    return None


class Prober:
    """The questions of one run (drawn once from ``seed``), asked of any number of faults."""

    def __init__(self, games: int = 20, seed: int = 0, reference: Engine | None = None):
        from conformance.engines.base import InProcessEngine

        self.reference = reference or InProcessEngine()
        self.seed = seed
        self.states = real_states(games, seed, self.reference)
        self._asked: dict[str, list] = {}

    def questions(self, probe: str) -> list:
        """The questions of ``probe`` with the reference's answers, drawn on first use."""
        if probe not in self._asked:
            self._asked[probe] = list(getattr(self, f"_draw_{probe}")())
        return self._asked[probe]

    def _draw_states(self):
        rng = random.Random(f"durak-faults/states/{self.seed}")
        for i, state in enumerate(self.states):
            for label, changed in neighbours(state, rng):
                yield (f"state {i} ({label})", changed,
                       self.reference.legal_moves(copy.deepcopy(changed)))

    def _draw_refusals(self):
        """Refused moves on each real state, and on up to :data:`OPTION_VARIANTS` of its
        neighbours that only change an option and that the reference accepts (the same cards
        under other rules: the diagnosis of every option, not only those the games drew)."""
        rng = random.Random(f"durak-faults/refusals/{self.seed}")
        valid = {}
        for what, changed, answer in self.questions("states"):
            if "(option " in what and not isinstance(answer, ErrorResult):
                valid.setdefault(what.split(" (")[0], []).append((what, changed, answer))
        for i, state in enumerate(self.states):
            legal = self.reference.legal_moves(state)
            positions = [(f"state {i}", state, legal)]
            positions += [(what, changed, answer) for what, changed, answer
                          in valid.get(f"state {i}", [])[:OPTION_VARIANTS]]
            for where, position, legal in positions:
                legal = [] if isinstance(legal, ErrorResult) else legal
                for move in refused_moves(position, legal, rng):
                    yield (f"{where}, move {json.dumps(move)}", (position, move),
                           self.reference.apply(copy.deepcopy(position), move))

    def _draw_requests(self):
        for label, args, kwargs in malformed_games(self.reference):
            yield (f"new_game: {label}", ("new_game", args, kwargs),
                   self.reference.new_game(*copy.deepcopy(args), **copy.deepcopy(kwargs)))
        picks = [s for s in self.states if s["result"] is None][:3] + [
            s for s in self.states if s["result"] is not None][:1]
        for i, state in enumerate(picks):
            for label, move in malformed_moves(state):
                yield (f"apply on state {i}: {label}", ("apply", state, move),
                       self.reference.apply(copy.deepcopy(state), copy.deepcopy(move)))

    def _draw_observe(self):
        for i, state in enumerate(self.states[::2]):
            for seat in range(len(state["players"])):
                yield (f"observe state {i} as seat {seat}", (state, seat),
                       self.reference.observe(copy.deepcopy(state), seat))

    def ask(self, candidate: Engine, probe: str) -> list[Difference]:
        """Every difference ``probe`` finds between ``candidate`` and the reference: the strong
        ones first (at most one weak one is kept)."""
        strong: list[Difference] = []
        weak: list[Difference] = []
        for what, question, ref in self.questions(probe):
            if probe == "states":
                cand = candidate.legal_moves(copy.deepcopy(question))
            elif probe == "refusals":
                cand = candidate.apply(*copy.deepcopy(question))
            elif probe == "observe":
                cand = candidate.observe(*copy.deepcopy(question))
            elif question[0] == "new_game":
                cand = candidate.new_game(*copy.deepcopy(question[1]),
                                          **copy.deepcopy(question[2]))
            else:
                cand = candidate.apply(*copy.deepcopy(question[1:]))
            found = _compare(probe, what, question, ref, cand)
            if found is None:
                continue
            if not found.weak:
                strong.append(found)
                if len(strong) >= 3:
                    break
            elif not weak:
                weak.append(found)
        return strong + weak

    def first_difference(self, candidate: Engine) -> Difference | None:
        """The first strong difference of any probe, else the first weak one, else None."""
        weak = None
        for probe in PROBES:
            found = self.ask(candidate, probe)
            if found and not found[0].weak:
                return found[0]
            weak = weak or (found[0] if found else None)
        return weak


#: the probes, cheapest first
PROBES = ("states", "requests", "refusals", "observe")
