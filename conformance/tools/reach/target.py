"""A start position taken apart into what a game must have done to reach it.

The route finder works from the rules, not from the engine's code, so it first reads the target
state the way a referee would: the discard pile is the beaten pairs of earlier bouts, in order;
the talon is the part of the deck nobody has drawn; every hand at the start of the current bout
is the hand now plus the cards its player put on the table in this bout; known cards came from a
take, the drawn trump card or a show (R-INFO-3). Each card gets a *fate*: where the history must
leave it. The planner (:mod:`.planner`) then only has to invent bouts that deliver every card to
its fate.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from conformance.contract import canonical
from conformance.contract.cards import RANKS, rank_of, suit_of
from conformance.contract.cards import canonical as sort_cards
from conformance.contract.cards import deck as full_deck

HAND = 6


class Unreachable(Exception):
    """No game reaches the position; ``reason`` says which rule the position contradicts."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@cache  # asked for every candidate pair when a pile is arranged; the cards are few
def beats(card: str, attack: str, trump_suit: str) -> bool:
    """R-BEAT-1 on the two cards alone: a higher card of the suit, or a trump on a non-trump."""
    if suit_of(card) == suit_of(attack):
        return RANKS.index(rank_of(card)) > RANKS.index(rank_of(attack))
    return suit_of(card) == trump_suit and suit_of(attack) != trump_suit


def team_of(seat: int, teams: str) -> int | None:
    """R-TEAM-1: partners sit opposite (2v2, 2v2v2) or alternate (3v3)."""
    if teams == "none":
        return None
    return seat % 3 if teams == "2v2v2" else seat % 2


@dataclass(frozen=True)
class Fate:
    """Where the history leaves a card: ``talon``; ``pair`` (index, ``attack``/``defence``) of
    the discard pile; or ``hand`` of ``seat`` at the start of the current bout, with ``known``
    True/False, or None when either will do (a card played or shown in the current bout)."""

    where: str
    index: int = -1
    role: str = ""
    seat: int = -1
    known: bool | None = None


@dataclass
class Target:
    """The position to reach, read as a history's end (see the module docstring)."""

    state: dict[str, Any]
    ruleset: Any
    n: int
    options: dict[str, Any]
    deck: list[str]
    trump: str
    talon: list[str]
    pairs: list[tuple[str, str]]
    #: the current bout: its number, the seat that opened it, hands at its start
    bout_number: int
    opener: int
    start_hands: list[list[str]]
    finished: list[int]
    #: who had gone out when the current bout began (R-OUT-2 ``immediate`` adds seats mid-bout)
    start_finished: list[int]
    fates: dict[str, Fate] = field(default_factory=dict)
    over: bool = False

    @property
    def trump_suit(self) -> str:
        return suit_of(self.trump)

    @property
    def dealer(self) -> int:
        return self.state["dealer"]

    def opt(self, name: str) -> str:
        return str(self.options[name])

    def team(self, seat: int) -> int | None:
        return team_of(seat, self.opt("teams"))


def read_target(state: dict[str, Any], ruleset: Any, players: int) -> Target:
    """The target of a case: its start state with the resolved ruleset inside."""
    state = canonical.normalise_state(copy.deepcopy(state))
    options = state["ruleset"]["options"]
    deck = full_deck(int(options["deck_size"]), int(options["decks"]))
    discard = state["discard"]
    trump_suit = suit_of(state["trump"])
    if len(discard) % 2:
        raise Unreachable(
            f"the discard pile holds {len(discard)} cards: only beaten pairs are discarded "
            "(R-BOUT-1), so its size is even"
        )
    pairs = [(discard[i], discard[i + 1]) for i in range(0, len(discard), 2)]
    for i, (attack, defence) in enumerate(pairs):
        if not beats(defence, attack, trump_suit):
            raise Unreachable(
                f"discard[{2 * i}:{2 * i + 2}] = {attack}, {defence}: the pile holds each attack "
                f"card followed by the card that beat it (R-BOUT-1), and {defence} does not "
                f"beat {attack} (R-BEAT-1)"
            )
    bout = state["bout"]
    over = state["result"] is not None
    start_hands = [list(p["hand"]) for p in state["players"]]
    fates: dict[str, Fate] = {c: Fate("talon") for c in state["talon"]}
    for i, (attack, defence) in enumerate(pairs):
        fates[attack] = Fate("pair", index=i, role="attack")
        fates[defence] = Fate("pair", index=i, role="defence")
    shown = set(bout["shown"]) if bout else set()
    for seat, player in enumerate(state["players"]):
        known = set(player["known"])
        for card in player["hand"]:
            fates[card] = Fate("hand", seat=seat, known=None if card in shown else card in known)
    if bout:
        for pair in state["table"]:
            start_hands[pair["by"]].append(pair["attack"])
            fates[pair["attack"]] = Fate("hand", seat=pair["by"], known=None)
            if pair["defence"] is not None:
                start_hands[bout["defender"]].append(pair["defence"])
                fates[pair["defence"]] = Fate("hand", seat=bout["defender"], known=None)
    return Target(
        state=state,
        ruleset=ruleset,
        n=players,
        options=options,
        deck=deck,
        trump=state["trump"],
        talon=list(state["talon"]),
        pairs=pairs,
        bout_number=bout["number"] if bout else 0,
        opener=bout["opener"] if bout else -1,
        start_hands=[sort_cards(h) for h in start_hands],
        finished=list(state["finished"]),
        start_finished=[p for p in state["finished"] if not bout or p not in bout["emptied"]],
        fates=fates,
        over=over,
    )
