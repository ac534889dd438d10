"""Handlers of the steps that judge where the moves led, beyond fixed fields of the state.

- ``check``: predicates on state fields (a list's size, items it includes or excludes, a string
  matching a pattern, a pointer leading anywhere): "player 1 holds 6 cards", "player 2 is out";
- ``bout``: what became of the bout the last accepted move was played in (it goes on, is over,
  its cards were discarded, or taken), read against the state before that move;
- ``redeal``: ``new_game`` with another deal of the same game (an explicit deck, a seed) answers
  the state the case is in: a seed deals as the portable shuffle's order does, and twice alike.

Like every handler (:mod:`conformance.suite.handlers`) each takes the run in progress and the
step, and raises :class:`~conformance.suite.verdicts.StepFailed` when the step does not hold.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from conformance.contract import canonical
from conformance.suite.verdicts import StepFailed, require, shown

if TYPE_CHECKING:
    from conformance.suite.cases import CaseRun
    from conformance.suite.loader import Step


#: The predicates of a ``check`` step: name -> (holds(value found, wanted), how it reads).
_PREDICATES: dict[str, tuple[Callable[[Any, Any], bool], str]] = {
    "size": (lambda got, n: isinstance(got, (list, dict, str)) and len(got) == n, "size {}"),
    "includes": (
        lambda got, items: isinstance(got, list) and all(i in got for i in items),
        "includes {}",
    ),
    "excludes": (
        lambda got, items: isinstance(got, list) and not any(i in got for i in items),
        "excludes {}",
    ),
    "matches": (
        lambda got, pattern: isinstance(got, str) and re.fullmatch(pattern, got) is not None,
        "matches {}",
    ),
    "present": (lambda got, wanted: (got is not canonical.MISSING) == wanted, "present: {}"),
}


def judge_check(run: CaseRun, step: Step) -> None:
    """``check``: JSON pointer -> predicates the value there must hold: ``size`` (of a list),
    ``includes``/``excludes`` (items of a list), ``matches`` (a string, a regular expression),
    ``present`` (whether the pointer leads anywhere)."""
    wrong: dict[str, list[str]] = {}
    found: dict[str, Any] = {}
    for pointer, predicates in step.body.items():
        got = canonical.resolve(run.before, pointer)[0]
        for name, wanted in predicates.items():
            holds, reads = _PREDICATES[name]
            if not holds(got, wanted):
                wrong.setdefault(pointer, []).append(reads.format(json.dumps(wanted)))
                found[pointer] = shown(got)
    if wrong:
        pointers = sorted(wrong)
        raise StepFailed(
            "the state fails the check at "
            + "; ".join(f"{p} ({', '.join(wrong[p])})" for p in pointers),
            {p: step.body[p] for p in pointers},
            found,
            signature="check fails at " + ", ".join(pointers),
        )


def judge_bout(run: CaseRun, step: Step) -> None:
    """``bout``: what became of the bout the last accepted move was played in: it ``goes_on``
    (same bout, table not empty, game not over), is ``over`` (table cleared, the next bout or
    none), was ``discarded`` (its cards went to the discard pile in table order, attack card
    then defence) or ``taken`` (by ``player``, by default its defender, who holds its cards, now
    known to all; nothing discarded)."""
    if run.previous is None:
        raise StepFailed(
            "no move was accepted before this step, so no bout can have gone on or closed",
            step.data,
            None,
            signature="no move before",
        )
    now = run.before if isinstance(run.before, dict) else {}
    before = canonical.normalise_state(run.previous)
    cards = _bout_cards(before.get("table") or [], run.last_move or {})
    problems = _BOUT_ENDS[step.body](now, before, cards, step.data)
    if problems:
        found = {key: shown(now.get(key, canonical.MISSING)) for key in _BOUT_FIELDS}
        raise StepFailed(
            f"the bout is not {step.body.replace('_', ' ')}: " + "; ".join(problems),
            step.data,
            found,
            signature=f"bout not {step.body}",
        )


_BOUT_FIELDS = ("table", "discard", "bout", "result")


def _bout_cards(table: list[Any], move: dict[str, Any]) -> list[str]:
    """The cards of the bout the last move was played in: the table before it, with the move's
    card(s) added, as attack card then its defence, in table order."""
    entries = [dict(entry) for entry in table if isinstance(entry, dict)]
    if move.get("action") == "beat":
        for entry in entries:
            if entry.get("attack") == move.get("target"):
                entry["defence"] = move.get("card")
    elif move.get("action") in ("attack", "throw_in", "transfer"):
        for card in move.get("cards") or [move.get("card")]:
            entries.append({"attack": card, "defence": None})
    flat = []
    for entry in entries:
        flat += [card for card in (entry.get("attack"), entry.get("defence")) if card]
    return flat


def _number(state: dict[str, Any]) -> Any:
    bout = state.get("bout")
    return bout.get("number") if isinstance(bout, dict) else None


def _goes_on(now: dict, before: dict, cards: list[str], data: dict) -> list[str]:
    if now.get("result") is not None:
        return [f"the game ended: {now.get('result')}"]
    if _number(now) != _number(before):
        return ["a new bout has begun"]
    return [] if now.get("table") else ["the table is empty"]


def _over(now: dict, before: dict, cards: list[str], data: dict) -> list[str]:
    if now.get("table"):
        return [f"the table holds {now['table']}"]
    if now.get("bout") is not None and _number(now) != (_number(before) or 0) + 1:
        return ["no new bout has begun"]
    return []


def _discarded(now: dict, before: dict, cards: list[str], data: dict) -> list[str]:
    problems = [f"the table holds {now['table']}"] if now.get("table") else []
    if now.get("discard") != (before.get("discard") or []) + cards:
        problems.append(f"the discard pile should grow by {cards}, it is {now.get('discard')}")
    return problems


def _taken(now: dict, before: dict, cards: list[str], data: dict) -> list[str]:
    seat = data.get("player", (before.get("bout") or {}).get("defender"))
    problems = [f"the table holds {now['table']}"] if now.get("table") else []
    players = now.get("players") if isinstance(now.get("players"), list) else []
    player = players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else {}
    player = player if isinstance(player, dict) else {}
    hand, known = player.get("hand") or [], player.get("known") or []
    if any(card not in hand for card in cards):
        problems.append(f"player {seat} should have picked up {cards}; holds {hand}")
    if any(card not in known for card in cards):
        problems.append(f"the cards picked up should be known to all (R-INFO-3): {known}")
    if now.get("discard") != before.get("discard"):
        problems.append("a taken bout discards nothing")
    return problems


#: ``bout`` value -> what must hold (a list of what does not).
_BOUT_ENDS: dict[str, Callable[[dict, dict, list[str], dict], list[str]]] = {
    "goes_on": _goes_on,
    "over": _over,
    "discarded": _discarded,
    "taken": _taken,
}


def judge_redeal(run: CaseRun, step: Step) -> None:
    """``redeal: {seed | deck, dealer?}``: ``new_game`` with the case's ruleset and players and
    this deal (by the state's dealer unless given) answers exactly the state the game is in:
    a seed deals as the portable shuffle's deck order does, and twice alike."""
    deal = step.body
    answer = require(
        run.engine.new_game(
            run.case.ruleset,
            run.case.players,
            seed=deal.get("seed"),
            deck=deal.get("deck"),
            dealer=deal.get("dealer", canonical.resolve(run.before, "/dealer")[0]),
        ),
        dict,
        what="new_game",
        expected="a state",
    )
    again = canonical.normalise_state(answer)
    if again != run.before:
        keys = sorted(set(again) | set(run.before or {}), key=str)
        differ = [f"/{k}" for k in keys if again.get(k) != (run.before or {}).get(k)]
        raise StepFailed(
            "the deal differs at " + ", ".join(differ),
            {"state": run.before},
            {"state": again},
            signature="deal differs at " + ", ".join(differ),
        )
