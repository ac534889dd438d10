"""The fields of a state most engines do not keep, derived from the previous state and the move.

An engine knows hands, the talon, the table, whose turn it is and who lost. The contract's state
also records what the players have seen and the history of the bout and the game: known cards,
bout numbers, the bout's opener and first defence, who emptied his hand when, who went out in
which order, who put each table card down, the order of the discard pile. Each follows from the
state before the move and the move itself (plus the engine's answer for what the move did), so
the translation leaves them out and :func:`after` fills them in:

- ``players[].known`` (R-INFO-3): what was known and is still in the hand; the cards the defender
  picked up when the bout closed as a take; a trump shown (R-TRANSFER-7); the trump card in any
  hand (it got there by being drawn face up, dealt last with no talon, or picked up);
- ``players[].team`` (R-TEAM-1), ``version``, ``ruleset``, ``dealer``, ``trump``: fixed per game;
- ``table[].by``: the seat that put each card down (cards already there keep theirs);
- ``bout.number``, ``opener``, ``first_defence``, ``emptied``; ``passed`` and ``shown`` default
  to ``[]`` (an engine without waiting passes or trump shows);
- ``finished`` (R-OUT-1..3): at the close of a bout with the talon empty, players without cards,
  in the order their hands emptied (or in drawing order, ``finish_order: draw_order``); under
  ``out_timing: immediate`` at once;
- ``discard``: the engine's cards, in the order of the contract (earlier ones first, then the
  closing table pair by pair), so an engine may keep the pile as a set;
- ``result``: ``draw``, ``losing_team``, ``winners`` (R-END-4), ``finishing_order``,
  ``epaulettes`` (R-END-6), from the engine's ``fool``.

A bout closed in the move exactly when the table is empty after it (a move on an empty table is
an opening attack, which leaves cards there). What the translation gives is kept as it is: the
kit fills only what is missing, sorts hands canonically and orders the discard pile; it never
repairs an answer (a card in two hands stays in two hands, for the runner to report).
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from conformance.contract.canonical import sort_cards
from conformance.contract.cards import LOWEST_RANK
from conformance.contract.seats import TEAM_PLAYERS, team_of


def _team(options: dict, seat: int) -> int | None:
    return team_of(options.get("teams", "none"), seat)


def _copy(value: Any) -> Any:
    """A copy of a JSON tree (dicts, lists, scalars): what ``copy.deepcopy`` does for one, at a
    fraction of its cost (it runs on every answer)."""
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    if isinstance(value, (str, int, float, type(None))):
        return value
    return copy.deepcopy(value)  # anything else (a tuple, an engine's object), as before


def _base(view: dict, ruleset: dict, dealer: int, trump: str | None) -> dict:
    state = _copy(view)
    for field, value in (("version", 1), ("ruleset", ruleset), ("dealer", dealer),
                         ("trump", trump), ("finished", []), ("result", None)):
        if field not in state:
            state[field] = _copy(value)
    for seat, player in enumerate(state["players"]):
        player["hand"] = sort_cards(player["hand"])
        player.setdefault("team", _team(ruleset["options"], seat))
    if state.get("bout"):
        state["bout"].setdefault("passed", [])
        state["bout"].setdefault("shown", [])
    return state


def fresh(view: dict, ruleset: dict, dealer: int) -> dict:
    """The state right after a deal: bout 1, nothing seen but a trump card dealt (R-TRUMP-3)."""
    state = _base(view, ruleset, dealer, view.get("trump"))
    for player in state["players"]:
        player.setdefault("known", [c for c in player["hand"] if c == state["trump"]])
    bout = state["bout"]
    if bout:
        for field, value in (("number", 1), ("opener", bout["attacker"]),
                             ("first_defence", None), ("emptied", [])):
            bout.setdefault(field, value)
    return state


def closing_table(table: list, move: dict) -> list[list]:
    """``[attack, defence]`` pairs of the table with ``move`` played on it: the table as the bout
    closed, if the move closed it."""
    rows = [[t["attack"], t["defence"]] for t in table]
    action = move["action"]
    if action == "beat":
        row = next((r for r in rows if r[0] == move["target"] and r[1] is None), None)
        if row:
            row[1] = move["card"]
    elif action == "throw_in":
        rows.append([move["card"], None])
    elif action in ("attack", "transfer"):
        rows += [[c, None] for c in sort_cards(move["cards"])]
    return rows


def played(move: dict) -> list:
    """The cards ``move`` takes out of its player's hand."""
    if move["action"] in ("attack", "transfer"):
        return list(move["cards"])
    return [move["card"]] if move["action"] in ("throw_in", "beat") else []


def _ordered(before: list, closing: list, cards: list) -> list:
    """``cards`` (the engine's discard pile, any order) in the contract's order."""
    left, out = Counter(map(str, cards)), []
    for c in before + closing:
        if left[c] > 0:
            out.append(c)
            left[c] -= 1
    return out + sort_cards(list(left.elements()))


def after(prev: dict, move: dict, view: dict) -> dict:
    """The state after ``move`` (accepted by the engine) on ``prev``; ``view`` is the engine's."""
    options = prev["ruleset"]["options"]
    state = _base(view, prev["ruleset"], prev["dealer"], view.get("trump", prev["trump"]))
    old, bout, mover = prev["bout"], state["bout"], move["player"]
    hands = [p["hand"] for p in state["players"]]
    rows = closing_table(prev["table"], move)
    closed = not state["table"]
    took = closed and (old["taking"] or move["action"] == "take")
    before = prev["players"][mover]["hand"]
    emptier = mover if before and not Counter(before) - Counter(played(move)) else None

    picked = {c for row in rows for c in row if c} if took else set()
    for seat, player in enumerate(state["players"]):
        seen = set(prev["players"][seat]["known"]) | {state["trump"]}
        seen |= picked if seat == old["defender"] else set()
        if move["action"] == "show_trump" and seat == mover:
            seen.add(move["card"])
        player.setdefault("known", sort_cards(list({c for c in player["hand"] if c in seen})))

    by = {t["attack"]: t["by"] for t in prev["table"]}
    for t in state["table"]:
        t.setdefault("by", by.get(t["attack"], mover))

    if bout and closed:
        for field, value in (("number", old["number"] + 1), ("opener", bout["attacker"]),
                             ("first_defence", None), ("emptied", [])):
            bout.setdefault(field, value)
    elif bout:
        first = old["first_defence"] or (move["card"] if move["action"] == "beat" else None)
        emptied = old["emptied"] + ([emptier] if emptier not in (None, *old["emptied"]) else [])
        for field, value in (("number", old["number"]), ("opener", old["opener"]),
                             ("first_defence", first), ("emptied", emptied)):
            bout.setdefault(field, value)

    if "finished" not in view:
        finished, out = list(prev["finished"]), []
        if not state["talon"] and closed:  # R-OUT-1, R-OUT-3: in the order hands emptied
            emptied = [*old["emptied"], emptier]
            if options.get("finish_order") == "draw_order":  # or in drawing order (R-DRAW-2)
                emptied = [p for p in draw_order(len(hands), old) if p in emptied]
            out = [*emptied, *range(len(hands))]
        elif not state["talon"] and options.get("out_timing") == "immediate":  # R-OUT-2
            out = [emptier]
        for seat in out:
            if seat is not None and not hands[seat] and seat not in finished:
                finished.append(seat)
        state["finished"] = finished

    closing = [c for row in rows for c in row if c] if closed else []
    state["discard"] = _ordered(prev["discard"], closing, state["discard"])
    if state["result"] is not None:
        _result(state, options, old, rows if took else [])
    return state


def _result(state: dict, options: dict, old: dict, taken: list) -> None:
    """The result's fields an engine that only names the fool leaves out (R-END-2..6)."""
    result, finished = state["result"], state["finished"]
    fool = result.get("fool")
    team = None if fool is None else _team(options, fool)
    result.setdefault("draw", fool is None)
    result.setdefault("losing_team", team)
    result.setdefault("finishing_order", list(finished))
    result.setdefault("winners", winners(options, finished, fool, team))
    if "epaulettes" not in result:  # R-END-6: low cards the fool failed to beat in his last take
        low = LOWEST_RANK.get(int(options.get("deck_size", 36)))
        failed = [a for a, d in taken if d is None and a[0] == low] if fool == old["defender"] else []
        result["epaulettes"] = len(failed) if options.get("epaulettes") == "on" else None


def draw_order(n: int, bout: dict) -> list[int]:
    """R-DRAW-2: the main attacker, the others clockwise from his left, the defender last."""
    main, defender = bout["attacker"], bout["defender"]
    others = [(main + i) % n for i in range(1, n) if (main + i) % n != defender]
    return [main, *others, *([defender] if defender != main else [])]


def winners(options: dict, finished: list, fool: int | None, losing_team: int | None) -> list:
    """R-END-4 (``win_mode``), R-TEAM-3: the winners, in finishing order."""
    mode = options.get("win_mode", "loser_only")
    if mode == "loser_only":
        return []
    if mode == "ranking":
        return [p for p in finished
                if p != fool and (_team(options, p) is None or _team(options, p) != losing_team)]
    if options.get("teams", "none") == "none":
        return [p for p in finished if p != fool][:1]
    n = TEAM_PLAYERS[options["teams"]]
    for i, p in enumerate(finished):  # the first team whose last member went out
        t, done = _team(options, p), finished[: i + 1]
        if t != losing_team and all(_team(options, q) != t or q in done for q in range(n)):
            return [q for q in finished if _team(options, q) == t]
    return []
