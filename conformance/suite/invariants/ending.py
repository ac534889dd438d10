"""The invariants of the game's end (R-END-1..6, R-TEAM-3): no bout once there is a result; who
still holds cards and who the fool is; ``draw``, ``losing_team`` and ``epaulettes`` agree with
the fool and the ruleset; ``finishing_order`` is ``finished`` and the winners went out."""

from __future__ import annotations

from typing import Any

from conformance.contract.canonical import pointer
from conformance.suite.invariants.facts import Facts, as_int, needs, seats
from conformance.suite.invariants.problems import SHAPE, Problem, names, not_a_seat, short


@needs("result", "bout")
def over_means_no_bout(facts: Facts, out: list[Problem]) -> None:
    if facts.state["result"] is not None and facts.state["bout"] is not None:
        out.append(
            Problem("/bout", "R-END-1", "the game is over (result is set) but the bout is not null")
        )


@needs("result", "players", "ruleset")
def result(facts: Facts, out: list[Problem]) -> None:
    """Every invariant of ``result`` (nothing while the game goes on, when it is null)."""
    res = facts.state["result"]
    if res is None:
        return
    n = facts.n
    fool = None if res["fool"] is None else as_int(res["fool"])
    known_fool = fool is None or fool < n
    if not known_fool:
        out.append(Problem("/result/fool", SHAPE, not_a_seat(fool, n)))
        fool = None
    teams = facts.options["teams"] != "none"
    if known_fool:
        _fool(facts, out, res, fool, facts.holders(), teams)
    _draw(facts, out, res, fool, known_fool)
    _losing_team(facts, out, res["losing_team"], fool, known_fool, teams)
    _epaulettes(facts, out, res["epaulettes"], fool, known_fool)
    _seat_lists(facts, out, res, fool)


def _draw(
    facts: Facts, out: list[Problem], res: dict[str, Any], fool: int | None, known_fool: bool
) -> None:
    """R-END-3: ``draw`` exactly when there is no fool, and only under ``tie: draw``."""
    draw = res["draw"]
    if known_fool and draw != (fool is None):
        out.append(
            Problem(
                "/result/draw",
                "R-END-3",
                f"draw is true exactly when there is no fool; found draw {short(draw)}"
                f" with fool {short(res['fool'])}",
            )
        )
    if draw is True and facts.options["tie"] != "draw":
        out.append(
            Problem(
                "/result/draw",
                "R-END-3",
                f"a drawn game needs tie: draw; the ruleset has tie: {facts.options['tie']}",
            )
        )


def _losing_team(
    facts: Facts,
    out: list[Problem],
    losing: Any,
    fool: int | None,
    known_fool: bool,
    teams: bool,
) -> None:
    """R-TEAM-3: no losing team without teams; with teams, the fool's."""
    if not teams:
        if losing is not None:
            out.append(
                Problem(
                    "/result/losing_team",
                    "R-TEAM-3",
                    f"without teams there is no losing team; found {short(losing)}",
                )
            )
    elif known_fool:
        want = None if fool is None else facts.team(fool)
        if losing != want:
            out.append(
                Problem(
                    "/result/losing_team",
                    "R-TEAM-3",
                    f"the losing team is the fool's ({short(want)}); found {short(losing)}",
                )
            )


def _epaulettes(
    facts: Facts, out: list[Problem], epaulettes: Any, fool: int | None, known_fool: bool
) -> None:
    """R-END-6: null with ``epaulettes: off``; else a count, 0 when there is no fool."""
    off = facts.options["epaulettes"] == "off"
    if off and epaulettes is not None:
        message = f"null with epaulettes: off; found {short(epaulettes)}"
    elif not off and epaulettes is None:
        message = "a count (0 or more) with epaulettes: on; found null"
    elif not off and known_fool and fool is None and epaulettes != 0:
        message = f"0 when there is no fool; found {short(epaulettes)}"
    else:
        return
    out.append(Problem("/result/epaulettes", "R-END-6", message))


def _fool(
    facts: Facts,
    out: list[Problem],
    result: dict,
    fool: int | None,
    holders: list[int],
    teams: bool,
) -> None:
    """R-END-1, R-END-2, R-END-3: who may still hold cards at the end, and who the fool is."""
    if not teams:
        if len(holders) > 1:
            out.append(
                Problem(
                    "/result", "R-END-1", f"the game is over but {names(holders)} still hold cards"
                )
            )
            return
    else:
        groups = sorted({facts.team(p) for p in holders})
        if len(groups) > 1:
            out.append(
                Problem(
                    "/result",
                    "R-END-1",
                    f"the game is over but teams {', '.join(map(str, groups))} still "
                    f"have members holding cards ({names(holders)})",
                )
            )
            return
    if holders:
        if fool is None:
            out.append(
                Problem(
                    "/result/fool",
                    "R-END-2",
                    f"{names(holders)} still hold(s) cards, so the fool is "
                    f"{'one of them' if len(holders) > 1 else f'seat {holders[0]}'}; "
                    "found null",
                )
            )
        elif fool not in holders:
            out.append(
                Problem(
                    "/result/fool",
                    "R-END-2",
                    f"the fool is the player left holding cards ({names(holders)}); "
                    f"found seat {fool}, who holds none",
                )
            )
    elif fool is not None and facts.options["tie"] != "defender_fool":
        out.append(
            Problem(
                "/result/fool",
                "R-END-3",
                f"nobody holds cards, so with tie: {facts.options['tie']} there is no "
                f"fool; found seat {fool}",
            )
        )


def _seat_lists(facts: Facts, out: list[Problem], result: dict, fool: int | None) -> None:
    """R-END-4: finishing_order is finished; winners went out and are not the fool."""
    n = facts.n
    order = seats(result["finishing_order"])
    for key, values in (("finishing_order", order), ("winners", seats(result["winners"]))):
        for j, seat in enumerate(values):
            if seat >= n:
                out.append(Problem(pointer(["result", key, j]), SHAPE, not_a_seat(seat, n)))
    if facts.has("finished") and order != seats(facts.state["finished"]):
        out.append(
            Problem(
                "/result/finishing_order",
                "R-END-4",
                f"finishing_order is the state's finished list "
                f"{short(facts.state['finished'])}; found {short(order)}",
            )
        )
    winners = seats(result["winners"])
    if facts.options["win_mode"] == "loser_only" and winners:
        out.append(
            Problem(
                "/result/winners",
                "R-END-4",
                f"with win_mode: loser_only nobody wins; found {short(winners)}",
            )
        )
        return
    seen: set[int] = set()
    for j, seat in enumerate(winners):
        at = pointer(["result", "winners", j])
        if seat >= n:
            continue
        if seat == fool:
            out.append(Problem(at, "R-END-4", f"seat {seat} is the fool and cannot win"))
        elif seat in seen:
            out.append(Problem(at, "R-END-4", f"seat {seat} is listed twice"))
        elif seat not in order:
            out.append(
                Problem(
                    at,
                    "R-END-4",
                    f"seat {seat} wins but is not in finishing_order; winners are "
                    "players who went out",
                )
            )
        seen.add(seat)
