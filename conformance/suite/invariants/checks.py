"""The invariants of the cards and the seats: player count and teams (R-DECK-4, R-TEAM-1), card
conservation (R-DECK-5), the trump card (R-TRUMP-2), the discard pile (R-BOUT-1), known cards
(R-INFO-3), the dealer and the players who went out (R-OUT-1, R-OUT-3)."""

from __future__ import annotations

from collections import Counter

from conformance.contract import canonical
from conformance.contract.canonical import pointer
from conformance.contract.cards import canonical as canonical_cards
from conformance.contract.seats import TEAM_PLAYERS, max_players
from conformance.suite.invariants.facts import Facts, as_int, needs, seats
from conformance.suite.invariants.problems import (
    SHAPE,
    Problem,
    names,
    not_a_seat,
    path_order,
    short,
)


@needs("ruleset", "players")
def player_count(facts: Facts, out: list[Problem]) -> None:
    options, n = facts.options, facts.n
    cards = int(options["deck_size"]) * int(options["decks"])
    most = max_players(int(options["deck_size"]), int(options["decks"]))
    if not 2 <= n <= most:
        out.append(
            Problem(
                "/players", "R-DECK-4", f"{n} players; a deck of {cards} cards seats 2 to {most}"
            )
        )
    need = TEAM_PLAYERS.get(options["teams"])
    if need is not None and n != need:
        out.append(
            Problem(
                "/players", "R-DECK-4", f"teams {options['teams']} needs {need} players; found {n}"
            )
        )


@needs("ruleset", "players")
def teams(facts: Facts, out: list[Problem]) -> None:
    teams = facts.options["teams"]
    for seat, player in enumerate(facts.state["players"]):
        want, found = facts.team(seat), player["team"]
        if want != found:
            what = "no team (null)" if want is None else f"team {want}"
            out.append(
                Problem(
                    pointer(["players", seat, "team"]),
                    "R-TEAM-1",
                    f"seat {seat} has {what} under teams {teams}; found {short(found)}",
                )
            )


@needs("ruleset", "players", "talon", "table", "discard")
def conservation(facts: Facts, out: list[Problem]) -> None:
    state = facts.state
    deck = facts.deck()
    in_deck = facts.deck_set()
    cards = [card for player in state["players"] for card in player["hand"]]
    cards += state["talon"]
    cards += state["discard"]
    for pair in state["table"]:
        cards.append(pair["attack"])
        if pair["defence"] is not None:
            cards.append(pair["defence"])
    if len(cards) == len(deck) and in_deck.issuperset(cards) and len(set(cards)) == len(deck):
        return  # the usual case: each card of the deck once, nothing else
    where: dict[str, list[tuple]] = {}
    for seat, player in enumerate(state["players"]):
        for j, card in enumerate(player["hand"]):
            where.setdefault(card, []).append(("players", seat, "hand", j))
    for j, card in enumerate(state["talon"]):
        where.setdefault(card, []).append(("talon", j))
    for j, pair in enumerate(state["table"]):
        where.setdefault(pair["attack"], []).append(("table", j, "attack"))
        if pair["defence"] is not None:
            where.setdefault(pair["defence"], []).append(("table", j, "defence"))
    for j, card in enumerate(state["discard"]):
        where.setdefault(card, []).append(("discard", j))
    size = f"{facts.options['deck_size']} cards x {facts.options['decks']}"
    found = []
    for card, paths in where.items():
        if len(paths) == 1 and card in in_deck:
            continue
        pointers = [pointer(path) for path in paths]
        if card not in in_deck:
            for at in pointers:
                found.append(Problem(at, "R-DECK-5", f"{card} is not a card of this deck ({size})"))
        elif len(pointers) > 1:
            found.append(
                Problem(
                    pointers[1],
                    "R-DECK-5",
                    f"{card} is in {len(pointers)} places ({', '.join(pointers)}); "
                    "every card is in exactly one place",
                )
            )
    missing = [card for card in deck if card not in where]
    if missing:
        found.append(
            Problem(
                "",
                "R-DECK-5",
                f"{len(missing)} card(s) of the deck ({size}) are in no place (a "
                f"hand, the talon, the table, the discard pile): "
                f"{' '.join(canonical_cards(missing))}",
            )
        )
    found.sort(key=lambda p: path_order(canonical.pointer_parts(p.pointer)))
    out.extend(found)


@needs("ruleset", "trump")
def trump_card(facts: Facts, out: list[Problem]) -> None:
    trump = facts.state["trump"]
    if trump not in facts.deck_set():
        out.append(
            Problem(
                "/trump",
                "R-DECK-5",
                f"{trump} is not a card of this deck ({facts.options['deck_size']} "
                f"cards x {facts.options['decks']})",
            )
        )


@needs("trump", "talon")
def trump_last(facts: Facts, out: list[Problem]) -> None:
    talon, trump = facts.state["talon"], facts.state["trump"]
    if talon and talon[-1] != trump:
        out.append(
            Problem(
                pointer(["talon", len(talon) - 1]),
                "R-TRUMP-2",
                f"the trump card {trump} is the talon's last card while the talon "
                f"holds cards; the talon ends with {talon[-1]}",
            )
        )


@needs("discard")
def discard_pairs(facts: Facts, out: list[Problem]) -> None:
    discard = facts.state["discard"]
    if len(discard) % 2:
        out.append(
            Problem(
                "/discard",
                "R-BOUT-1",
                "the discard pile holds the pairs of defended bouts, an attack card and its "
                f"defence each: an even number of cards; found {len(discard)}",
            )
        )


@needs("players")
def known(facts: Facts, out: list[Problem]) -> None:
    for seat, player in enumerate(facts.state["players"]):
        known = player["known"]
        if not known or (len(set(known)) == len(known) and set(known).issubset(player["hand"])):
            continue
        left = Counter(player["hand"])
        for j, card in enumerate(player["known"]):
            if left[card] > 0:
                left[card] -= 1
                continue
            held = card in player["hand"]
            what = "listed twice" if held else f"not in seat {seat}'s hand"
            out.append(
                Problem(
                    pointer(["players", seat, "known", j]),
                    "R-INFO-3",
                    f"{card} is listed as a known card of seat {seat} but is {what}",
                )
            )


@needs("dealer", "players")
def dealer(facts: Facts, out: list[Problem]) -> None:
    dealer = as_int(facts.state["dealer"])
    if dealer >= facts.n:
        out.append(Problem("/dealer", SHAPE, not_a_seat(dealer, facts.n)))


@needs("finished", "players", "talon")
def finished(facts: Facts, out: list[Problem]) -> None:
    finished, n = seats(facts.state["finished"]), facts.n
    seen: set[int] = set()
    for j, seat in enumerate(finished):
        at = pointer(["finished", j])
        if seat >= n:
            out.append(Problem(at, SHAPE, not_a_seat(seat, n)))
        elif seat in seen:
            out.append(Problem(at, "R-OUT-3", f"seat {seat} is listed twice"))
        elif facts.hand(seat):
            out.append(
                Problem(
                    at,
                    "R-OUT-1",
                    f"seat {seat} went out but holds {len(facts.hand(seat))} card(s)",
                )
            )
        seen.add(seat)
    if finished and facts.state["talon"]:
        out.append(
            Problem(
                "/finished",
                "R-OUT-1",
                f"nobody goes out while the talon holds cards; the talon holds "
                f"{len(facts.state['talon'])} and finished lists "
                f"{names(finished)}",
            )
        )
