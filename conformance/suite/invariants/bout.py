"""The invariants of the bout in progress: the roles (R-ROLE-2, R-ROLE-5, R-TEAM-2), who passed
(R-THROW-3, R-THROW-5) and emptied his hand (R-OUT-2), who put each table card down (R-ATTACK-2,
R-PLAY-4).

With ``transfer: on`` the defender may have put cards on the table himself and the opener may be
the defender, so neither is a problem then (R-TRANSFER-1)."""

from __future__ import annotations

from typing import Any

from conformance.contract.canonical import pointer
from conformance.suite.invariants.facts import Facts, as_int, needs, seats
from conformance.suite.invariants.problems import SHAPE, Problem, not_a_seat

#: (rule, message) of one problem found at a pointer the caller knows.
Finding = tuple[str, str]


@needs("bout", "players", "table", "ruleset")
def bout(facts: Facts, out: list[Problem]) -> None:
    """Every invariant of ``bout`` (nothing between bouts, when it is null)."""
    state_bout = facts.state["bout"]
    if state_bout is None:
        return
    roles = _roles(facts, state_bout, out)
    attacker, defender, opener = (roles.get(k) for k in ("attacker", "defender", "opener"))
    if defender is not None:
        _defender(facts, attacker, defender, out)
    for key, rule in (("passed", "R-THROW-5"), ("emptied", "R-OUT-2")):
        _seat_list(facts, key, rule, seats(state_bout[key]), defender, out)
    transfers = facts.options["transfer"] != "off"
    for j, pair in enumerate(facts.state["table"]):
        problem = _put_down_by(facts, j, pair, opener, defender, transfers)
        if problem is not None:
            out.append(Problem(pointer(["table", j, "by"]), *problem))
    if not transfers and attacker is not None and opener is not None and attacker != opener:
        out.append(
            Problem(
                "/bout/attacker",
                "R-ROLE-5",
                f"without transfers the main attacker is the bout's opener (seat "
                f"{opener}); found seat {attacker}",
            )
        )


def _roles(facts: Facts, state_bout: dict[str, Any], out: list[Problem]) -> dict[str, int]:
    """The seats of the attacker, the defender and the opener that are seats of the game."""
    roles = {}
    for key in ("attacker", "defender", "opener"):
        seat = as_int(state_bout[key])
        if seat >= facts.n:
            out.append(Problem(pointer(["bout", key]), SHAPE, not_a_seat(seat, facts.n)))
        else:
            roles[key] = seat
    return roles


def _defender(facts: Facts, attacker: int | None, defender: int, out: list[Problem]) -> None:
    """R-ROLE-2, R-TEAM-2: the defender is neither the main attacker nor his partner, and holds
    cards."""
    if defender == attacker:
        out.append(
            Problem(
                "/bout/defender",
                "R-ROLE-2",
                f"seat {defender} is both the main attacker and the defender",
            )
        )
    elif (
        attacker is not None
        and facts.team(attacker) is not None
        and (facts.team(attacker) == facts.team(defender))
    ):
        out.append(
            Problem(
                "/bout/defender",
                "R-TEAM-2",
                f"the defender, seat {defender}, is the main attacker's (seat {attacker}) partner",
            )
        )
    if not facts.hand(defender):
        out.append(
            Problem("/bout/defender", "R-ROLE-2", f"the defender, seat {defender}, holds no cards")
        )


def _seat_list(
    facts: Facts,
    key: str,
    rule: str,
    listed: list[int],
    defender: int | None,
    out: list[Problem],
) -> None:
    """``bout.passed`` or ``bout.emptied``: seats of the game, each once; the defender never
    passes (R-THROW-3); a seat that emptied his hand holds no cards (R-OUT-2)."""
    seen: set[int] = set()
    for j, seat in enumerate(listed):
        problem = None
        if seat >= facts.n:
            problem = (SHAPE, not_a_seat(seat, facts.n))
        elif seat in seen:
            problem = (rule, f"seat {seat} is listed twice")
        elif key == "passed" and seat == defender:
            problem = (
                "R-THROW-3",
                f"seat {seat}, the defender, is listed as having passed; only attackers pass",
            )
        elif key == "emptied" and facts.hand(seat):
            problem = (
                "R-OUT-2",
                (
                    f"seat {seat} is listed as having emptied his hand in "
                    f"this bout but holds {len(facts.hand(seat))} card(s)"
                ),
            )
        if problem is not None:
            out.append(Problem(pointer(["bout", key, j]), *problem))
        seen.add(seat)


def _put_down_by(
    facts: Facts,
    j: int,
    pair: dict[str, Any],
    opener: int | None,
    defender: int | None,
    transfers: bool,
) -> Finding | None:
    """What is wrong with the seat that put table card ``j`` down: not a seat of the game; the
    first card not the opener's (R-ATTACK-2); the defender's without transfers (R-PLAY-4)."""
    seat = as_int(pair["by"])
    if seat >= facts.n:
        return (SHAPE, not_a_seat(seat, facts.n))
    if j == 0 and opener is not None and seat != opener:
        return (
            "R-ATTACK-2",
            (
                f"the bout's first attack card {pair['attack']} is the "
                f"opener's (seat {opener}); found by seat {seat}"
            ),
        )
    if not transfers and seat == defender:
        return (
            "R-PLAY-4",
            (
                f"{pair['attack']} is put down by seat {seat}, the "
                "defender; without transfers only attackers add attack cards"
            ),
        )
    return None
