"""Transformations of a position that the rules treat alike, and their action on everything.

A :class:`Transform` renames cards (a permutation of the deck) and turns the table round (seat
``s`` becomes seat ``s + shift mod N``, team ``t`` becomes ``t + shift mod`` the number of teams).
It maps a state, a move, a seat and an observation; every map is a bijection, and
:meth:`Transform.inverse` undoes it. Four kinds are built from a position (:data:`BUILDERS`):

- ``suits``: a permutation of the four suits, applied to every card and to the trump suit. The
  rules never name a suit (R-DECK-2: suits have no order in play), so a position and its relabelled
  image have relabelled answers. Two places use the suit order C, D, H, S, and both are handled
  rather than left out: the cards of one ``attack`` or ``transfer`` go on the table in canonical
  order (R-ATTACK-2, R-TRANSFER-1), so after such a move the image's new table cards are put back
  in canonical order (:meth:`Transform.after`); and ``no_trump_fallback: lowest_card`` breaks ties
  of rank by suit (R-ROLE-1), which acts only in the deal, never in the positions checked here
  (``new_game`` is not transformed), so no preset needs to be left out for it. Hands and the other
  unordered lists are compared sorted (:func:`conformance.contract.canonical.normalise_state`).
- ``seats``: a rotation of the seats. Every rule that acts during play speaks of seats relative to
  each other (the defender's left, clockwise from the main attacker, drawing order from the main
  attacker); the team layout of R-TEAM-1 (team = seat mod 2 or mod 3) is kept by renumbering the
  teams along. The options that name an absolute seat, ``no_trump_fallback: seat_zero`` and the
  default dealer N-1 of R-DEAL-3, act only in the deal, which is not transformed.
- ``twins``: with two packs, some cards exchanged with their twins (``7S`` and ``7S2``), which
  R-DECK-3 makes equal in rank and suit, neither beating the other. The copy comes first in the
  canonical order, so the table order after a several-card attack or transfer is restored as for
  suits; R-ROLE-1's "copy dealt first" again acts only in the deal.
- ``talon``: the talon's face-down cards in another order, the trump card shown at its bottom
  left where it is. Nobody has seen those cards (R-INFO-1), so no legal set, refusal or
  observation may depend on their order. It is written as a renaming of those cards only (card at
  talon index i becomes the card the new order puts there), which on the position is exactly the
  reordering, and which carries over to the state after a move: the cards drawn are the renamed
  ones, and nothing else a move does looks at which face-down card was where.

A map never raises on what an engine answered: a value that is not a well-formed card, seat or
object is passed through unchanged, so a garbled answer stays visibly garbled.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from conformance.contract.canonical import card_key
from conformance.contract.cards import CARD_RE, RANKS, SUITS

#: R-TEAM-1: how many teams each seating has (team = seat mod this number).
TEAM_COUNT = {"2v2": 2, "3v3": 2, "2v2v2": 3}


def _is_seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Transform:
    """One transformation: a card renaming, a suit renaming (for an observation's trump suit) and
    a seat rotation. ``kind`` names the class (``suits``, ``seats``, ``twins``, ``talon``);
    ``label`` says which member, in words a report can show."""

    kind: str
    label: str
    players: int
    cards: Mapping[str, str] = field(default_factory=dict)
    suits: Mapping[str, str] = field(default_factory=dict)
    shift: int = 0
    teams: int = 0

    # ------------------------------------------------------------------ the pieces

    def card(self, card: Any) -> Any:
        if isinstance(card, str) and CARD_RE.fullmatch(card):
            return self.cards.get(card, card)
        return card

    def card_list(self, cards: Any) -> Any:
        return [self.card(c) for c in cards] if isinstance(cards, list) else cards

    def seat(self, seat: Any) -> Any:
        if _is_seat(seat) and 0 <= seat < self.players:
            return (seat + self.shift) % self.players
        return seat

    def seat_list(self, seats: Any) -> Any:
        return [self.seat(s) for s in seats] if isinstance(seats, list) else seats

    def team(self, team: Any) -> Any:
        if _is_seat(team) and self.teams and 0 <= team < self.teams:
            return (team + self.shift) % self.teams
        return team

    def suit(self, suit: Any) -> Any:
        return self.suits.get(suit, suit) if isinstance(suit, str) else suit

    # ------------------------------------------------------------------ documents

    def move(self, move: Any) -> Any:
        """The move in the image: its player rotated, its cards renamed."""
        if not isinstance(move, dict):
            return move
        out = dict(move)
        if "player" in out:
            out["player"] = self.seat(out["player"])
        for key in ("card", "target"):
            if key in out:
                out[key] = self.card(out[key])
        if "cards" in out:
            out["cards"] = self.card_list(out["cards"])
        return out

    def state(self, state: Any) -> Any:
        """The image of a state (unordered lists left as they come; compare normalised)."""
        if not isinstance(state, dict):
            return state
        out = dict(state)
        out["trump"] = self.card(out.get("trump"))
        for key in ("talon", "discard"):
            if key in out:
                out[key] = self.card_list(out[key])
        players = out.get("players")
        if isinstance(players, list):
            mapped = [self._player(p) for p in players]
            if len(mapped) == self.players:  # seat i's entry moves to seat i + shift
                rotated: list[Any] = [None] * self.players
                for index, player in enumerate(mapped):
                    rotated[self.seat(index)] = player
                mapped = rotated
            out["players"] = mapped
        self._common(out)
        return out

    def observation(self, observation: Any) -> Any:
        """The image of an observation: seen cards renamed, seats rotated (``players`` kept in
        seat order), the trump suit renamed."""
        if not isinstance(observation, dict):
            return observation
        out = dict(observation)
        out["player"] = self.seat(out.get("player"))
        out["trump_suit"] = self.suit(out.get("trump_suit"))
        out["trump_card"] = self.card(out.get("trump_card"))
        out["hand"] = self.card_list(out.get("hand"))
        discard = out.get("discard")
        if isinstance(discard, dict) and "cards" in discard:
            out["discard"] = {**discard, "cards": self.card_list(discard["cards"])}
        players = out.get("players")
        if isinstance(players, list):
            mapped = [self._seen_player(p) for p in players]
            if all(isinstance(p, dict) and _is_seat(p.get("seat")) for p in mapped):
                mapped.sort(key=lambda p: p["seat"])
            out["players"] = mapped
        self._common(out)
        return out

    def after(self, state: Any, move: Any) -> Any:
        """The image of the state after ``move`` (a move of the original position): as
        :meth:`state`, and the cards ``move`` put on the table together back in canonical order,
        as the rules place them (R-ATTACK-2, R-TRANSFER-1)."""
        out = self.state(state)
        cards = move.get("cards") if isinstance(move, dict) else None
        table = out.get("table") if isinstance(out, dict) else None
        if (
            isinstance(cards, list)
            and len(cards) > 1
            and isinstance(table, list)
            and len(table) >= len(cards)
            and all(isinstance(pair, dict) for pair in table)
        ):
            tail = table[-len(cards) :]
            if sorted(map(str, (p.get("attack") for p in tail))) == sorted(
                map(str, self.card_list(cards))
            ):
                head = table[: -len(cards)]
                out["table"] = head + sorted(tail, key=lambda p: card_key(p.get("attack")))
        return out

    def inverse(self) -> Transform:
        return Transform(
            kind=self.kind,
            label=f"inverse of {self.label}",
            players=self.players,
            cards={new: old for old, new in self.cards.items()},
            suits={new: old for old, new in self.suits.items()},
            shift=(-self.shift) % self.players if self.players else 0,
            teams=self.teams,
        )

    # ------------------------------------------------------------------ shared parts

    def _player(self, player: Any) -> Any:
        if not isinstance(player, dict):
            return player
        out = dict(player)
        for key in ("hand", "known"):
            if key in out:
                out[key] = self.card_list(out[key])
        if "team" in out:
            out["team"] = self.team(out["team"])
        return out

    def _seen_player(self, player: Any) -> Any:
        if not isinstance(player, dict):
            return player
        out = dict(player)
        out["seat"] = self.seat(out.get("seat"))
        if "known" in out:
            out["known"] = self.card_list(out["known"])
        if "team" in out:
            out["team"] = self.team(out["team"])
        return out

    def _common(self, out: dict[str, Any]) -> None:
        """The parts a state and an observation share: dealer, table, bout, finished, result."""
        if "dealer" in out:
            out["dealer"] = self.seat(out["dealer"])
        table = out.get("table")
        if isinstance(table, list):
            out["table"] = [self._pair(pair) for pair in table]
        bout = out.get("bout")
        if isinstance(bout, dict):
            bout = dict(bout)
            for key in ("attacker", "defender", "opener"):
                if key in bout:
                    bout[key] = self.seat(bout[key])
            for key in ("passed", "emptied"):
                if key in bout:
                    bout[key] = self.seat_list(bout[key])
            if "first_defence" in bout:
                bout["first_defence"] = self.card(bout["first_defence"])
            if "shown" in bout:
                bout["shown"] = self.card_list(bout["shown"])
            out["bout"] = bout
        if "finished" in out:
            out["finished"] = self.seat_list(out["finished"])
        result = out.get("result")
        if isinstance(result, dict):
            result = dict(result)
            if "fool" in result:
                result["fool"] = self.seat(result["fool"])
            for key in ("winners", "finishing_order"):
                if key in result:
                    result[key] = self.seat_list(result[key])
            if "losing_team" in result:
                result["losing_team"] = self.team(result["losing_team"])
            out["result"] = result

    def _pair(self, pair: Any) -> Any:
        if not isinstance(pair, dict):
            return pair
        out = dict(pair)
        for key in ("attack", "defence"):
            if key in out:
                out[key] = self.card(out[key])
        if "by" in out:
            out["by"] = self.seat(out["by"])
        return out


# ---------------------------------------------------------------------------------- builders


def _options(state: dict[str, Any]) -> dict[str, Any]:
    ruleset = state.get("ruleset")
    options = ruleset.get("options") if isinstance(ruleset, dict) else None
    return options if isinstance(options, dict) else {}


def _every_card(state: dict[str, Any]) -> list[str]:
    cards = list(state.get("talon") or []) + list(state.get("discard") or [])
    for player in state.get("players") or []:
        cards += player.get("hand") or []
    for pair in state.get("table") or []:
        cards += [c for c in (pair.get("attack"), pair.get("defence")) if c]
    return cards


def relabel_suits(state: dict[str, Any], rng: random.Random) -> Transform | None:
    """A random permutation of the suits other than the identity."""
    order = list(SUITS)
    while order == list(SUITS):
        rng.shuffle(order)
    suits = dict(zip(SUITS, order, strict=True))
    cards = {}
    for card in _every_card(state):
        rank, suit, copy = CARD_RE.fullmatch(card).groups()
        cards[card] = rank + suits[suit] + copy
    label = "suits " + " ".join(f"{a}->{b}" for a, b in suits.items() if a != b)
    return Transform("suits", label, len(state["players"]), cards=cards, suits=suits)


def rotate_seats(state: dict[str, Any], rng: random.Random) -> Transform | None:
    """A rotation by 1 .. N-1 seats (teams renumbered along)."""
    players = len(state["players"])
    shift = rng.randrange(1, players)
    teams = TEAM_COUNT.get(str(_options(state).get("teams")), 0)
    return Transform("seats", f"seats +{shift}", players, shift=shift, teams=teams)


def swap_twins(state: dict[str, Any], rng: random.Random) -> Transform | None:
    """With two packs: each card with its twin, for a random non-empty choice of pairs (half of
    them, those in play more likely to be picked as they are listed first)."""
    if str(_options(state).get("decks")) != "2":
        return None
    firsts: list[str] = []
    for card in _every_card(state):
        first = card[:2]
        if first not in firsts:
            firsts.append(first)
    if not firsts:
        return None
    chosen = [c for c in firsts if rng.random() < 0.5] or [rng.choice(firsts)]
    cards = {}
    for first in chosen:
        cards[first], cards[first + "2"] = first + "2", first
    shown = " ".join(sorted(chosen, key=lambda c: (SUITS.index(c[1]), RANKS.index(c[0]))))
    return Transform("twins", f"twins swapped: {shown}", len(state["players"]), cards=cards)


def reorder_talon(state: dict[str, Any], rng: random.Random) -> Transform | None:
    """Another order of the talon's face-down cards (the trump card stays at the bottom)."""
    talon = list(state.get("talon") or [])
    unseen = [index for index, card in enumerate(talon) if card != state.get("trump")]
    if len(unseen) < 2:
        return None
    cards_now = [talon[i] for i in unseen]
    order = list(cards_now)
    while order == cards_now:
        rng.shuffle(order)
    cards = dict(zip(cards_now, order, strict=True))
    moved = sum(1 for a, b in cards.items() if a != b)
    label = f"talon reordered ({moved} of {len(unseen)} face-down cards moved)"
    return Transform("talon", label, len(state["players"]), cards=cards)


#: Every kind, in the order a position is checked; a builder answers None where its kind does not
#: apply (one pack for ``twins``, fewer than two face-down cards for ``talon``).
BUILDERS: dict[str, Callable[[dict[str, Any], random.Random], Transform | None]] = {
    "suits": relabel_suits,
    "seats": rotate_seats,
    "twins": swap_twins,
    "talon": reorder_talon,
}
KINDS = tuple(BUILDERS)
