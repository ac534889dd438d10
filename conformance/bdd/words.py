"""How the step definitions read who is meant: "player 2", "the defender", "players 1 and 3".

A scenario names a seat by number or by role. A role becomes a JSON pointer into the state the
step is judged in (:data:`conformance.suite.kinds.SEAT_ROLES`), so "the defender beats 7C with
9C" compiles, without an engine, into a move by whoever defends when it is made.
"""

from __future__ import annotations

#: The words for a player in a step pattern (group ``who``).
WHO = r"(?P<who>player \d+|the defender|the new defender|the attacker|the main attacker)"
#: Several seats: "player 2", "players 1 and 3", "1, 2 and 3" (group ``seats``).
SEATS = r"(?P<seats>(?:players? )?\d+(?:(?:, | and )\d+)*)"

_ROLES = {
    "the defender": "/bout/defender",
    "the new defender": "/bout/defender",
    "the attacker": "/bout/attacker",
    "the main attacker": "/bout/attacker",
}


def seat_of(who: str) -> int | str:
    """``"player 2"`` -> 2; ``"the defender"`` -> ``"/bout/defender"`` (the seat in that role
    when the step is judged)."""
    who = who.strip()
    if who.startswith("player "):
        return int(who.split()[1])
    if who in _ROLES:
        return _ROLES[who]
    raise ValueError(f"{who!r} is not a player: say 'player 2', 'the defender' or 'the attacker'")


def fixed_seat(who: str) -> int:
    """The seat of ``who`` for a check that reads one seat's part of the state."""
    seat = seat_of(who)
    if not isinstance(seat, int):
        raise ValueError(  # noqa: TRY004 - a sentence to rewrite, not a wrong type
            f"{who!r} names a role, but this step checks one seat's cards or place: say 'player N'"
        )
    return seat


def seat_numbers(text: str) -> list[int]:
    """``"players 1 and 3"`` -> ``[1, 3]``."""
    text = text.replace("players", "").replace("player", "")
    return [int(part) for part in text.replace(" and ", ",").split(",") if part.strip()]


def who_of(cell: str) -> str:
    """A data table's first column: ``"1"`` means player 1."""
    cell = cell.strip()
    return f"player {cell}" if cell.isdigit() else cell
