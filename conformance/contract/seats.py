"""Who may sit at a game: the player counts of R-DECK-4 and the team seating of R-TEAM-1.

The judge's one reading of these rules (the reference engine keeps its own, in
``reference_impl/tables.py``): the runner uses it to tell a case about a player count the rules
forbid from one an engine merely does not offer, records and the fuzzer to pick and check player
counts, the invariants and the adapter kit to check a state's teams.
"""

from __future__ import annotations

from typing import Any

#: R-DEAL-1: every player is dealt six cards, so a deck of C cards seats at most C / 6.
HAND = 6
#: R-DECK-4: a team ruleset is played by exactly this many players.
TEAM_PLAYERS = {"2v2": 4, "3v3": 6, "2v2v2": 6}


def max_players(deck_size: int, decks: int) -> int:
    """R-DECK-4: at most ``min(8, C / 6)`` players with ``C = deck_size * decks`` cards."""
    return min(8, deck_size * decks // HAND)


def legal_player_counts(options: dict[str, Any]) -> frozenset[int]:
    """The player counts R-DECK-4 allows for a resolved ruleset: ``2 <= N <= min(8, C / 6)``,
    and exactly 4 (``2v2``) or 6 (``3v3``, ``2v2v2``) with teams; empty when the deck's options
    are not numbers."""
    try:
        most = max_players(int(options.get("deck_size", 36)), int(options.get("decks", 1)))
    except (TypeError, ValueError):
        return frozenset()
    counts = set(range(2, most + 1))
    team = str(options.get("teams", "none"))
    if team in TEAM_PLAYERS:
        counts &= {TEAM_PLAYERS[team]}
    return frozenset(counts)


def team_of(teams: Any, seat: int) -> int | None:
    """R-TEAM-1: the team index of ``seat``: ``seat mod 2`` with ``2v2`` and ``3v3``, ``seat mod
    3`` with ``2v2v2`` (partners sit opposite), None without teams (or an unknown layout)."""
    if teams in ("2v2", "3v3"):
        return seat % 2
    if teams == "2v2v2":
        return seat % 3
    return None
