"""What one player may see of a game state (rules R-INFO-1, R-INFO-2, R-INFO-3).

A state (docs/architecture.md, "State") holds everything, hidden cards included: every hand, the
talon in draw order, the discard pile in order. ``observe(state, player)`` cuts it down to the part
that seat ``player`` is entitled to know at the table, so that a bot or a user interface can be
given the observation instead of the state and cannot cheat by reading it.

What is public, and why:

- the observer's own hand, in full;
- every hand's size, and the cards of each hand that everyone saw go into it (``known``: cards
  picked up from the table, the trump card once drawn; R-INFO-3);
- the table, the talon's size, the trump suit, and the trump card while it lies face up at the
  bottom of the talon (R-INFO-1; seeds 002/003: the turned card stays visible until drawn);
- the discard pile as option ``discard_visibility`` rules (R-INFO-2): ``count`` gives its size only
  (seeds 000/002/003: nobody may examine the discard pile), ``contents`` gives its cards in the order
  they were discarded, because every one of them was played face up and is public history;
- roles and the bout's sub-state (passes, the take declaration, trumps shown), the finishing order,
  the result and the ruleset: all of it happened in front of everyone.

Never in an observation: the cards of another hand that are not ``known``, the talon's order or its
face-down cards, and (with ``count``) which cards were discarded.
"""

from __future__ import annotations

import copy
from typing import Any

from reference_impl.errors import BadRequest

__all__ = ["InvalidPlayer", "observe"]

OBSERVATION_VERSION = 1


class InvalidPlayer(BadRequest):
    """The seat asked for is not a seat of the game (the protocol's ``bad_request``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, pointer="/player")


def _validate(state: Any) -> None:
    """Reject an invalid state with the engine's ``InvalidState`` (which names a JSON pointer).

    Imported here rather than at module level so that ``reference_impl.api`` may itself re-export
    ``observe`` without an import cycle.
    """
    from reference_impl import api

    api.validate_state(state)


def _check_player(state: dict[str, Any], player: Any) -> int:
    seats = len(state["players"])
    if isinstance(player, bool) or not isinstance(player, int):
        raise InvalidPlayer(
            f"player must be a seat number (an integer 0..{seats - 1}), got {player!r}"
        )
    if not 0 <= player < seats:
        raise InvalidPlayer(
            f"player {player} is not a seat of this {seats}-player game; "
            f"give a seat number 0..{seats - 1}"
        )
    return player


def _trump_card_in_talon(state: dict[str, Any]) -> str | None:
    """The trump card if it still lies face up under the talon (it is then the talon's last card)."""
    talon = state["talon"]
    if talon and talon[-1] == state["trump"]:
        return state["trump"]
    return None


def _discard_view(state: dict[str, Any]) -> dict[str, Any]:
    discard = state["discard"]
    visibility = state["ruleset"]["options"]["discard_visibility"]
    view: dict[str, Any] = {"count": len(discard)}
    if visibility == "contents":
        view["cards"] = list(discard)
    return view


def observe(state: dict[str, Any], player: int) -> dict[str, Any]:
    """Return seat ``player``'s view of ``state`` (see the module docstring for what it holds).

    The state is validated first (the engine's ``InvalidState``, with a JSON pointer, if it is
    not a valid state); a seat that does not exist raises ``InvalidPlayer``. The input is never
    changed and the observation shares no mutable parts with it.
    """
    _validate(state)
    seat = _check_player(state, player)
    players = state["players"]
    return {
        "version": OBSERVATION_VERSION,
        "player": seat,
        "ruleset": copy.deepcopy(state["ruleset"]),
        "dealer": state["dealer"],
        "trump_suit": state["trump"][1],
        "trump_card": _trump_card_in_talon(state),
        "talon_size": len(state["talon"]),
        "discard": _discard_view(state),
        "hand": list(players[seat]["hand"]),
        "players": [
            {
                "seat": i,
                "hand_size": len(p["hand"]),
                "known": list(p["known"]),
                "team": p["team"],
            }
            for i, p in enumerate(players)
        ],
        "table": copy.deepcopy(state["table"]),
        "bout": copy.deepcopy(state["bout"]),
        "finished": list(state["finished"]),
        "result": copy.deepcopy(state["result"]),
    }
