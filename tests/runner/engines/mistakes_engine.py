"""Ten deliberate mistakes, one at a time: the reference engine with one rule played wrong.

Issue "Reports and docs a user acts on" asks that each of ten mistakes an implementer could make
reads, in the run's report, as one root cause that names the rule and shows what differs. The
mistake is chosen by the environment variable ``DURAK_MISTAKE`` when :func:`make` is called, so
one module serves all ten (``--engine python:mistakes_engine:make``, this directory on
``sys.path``). :data:`MISTAKES` says what each one does in players' words.

Three kinds of mistake, the three ways an engine's answer can differ:

- the legal set *adds* moves the rules forbid (the added move is refused again by ``apply``, as an
  engine that lists a move it cannot play would);
- the legal set *misses* moves the rules allow (and ``apply`` refuses them, naming the rule the
  engine believes in);
- the state after a move has a field wrong. Like a real engine, which keeps its own game, the
  engine reads its own wrong states back as the true ones (a table from the canonical text of
  each state it answered to the reference state), so only that field differs.
"""

from __future__ import annotations

import json
import os
from types import SimpleNamespace

from conformance.contract.canonical import dumps
from reference_impl import api
from reference_impl.errors import IllegalMove

RANKS = "23456789TJQKA"

#: mistake -> what it does, in players' words
MISTAKES: dict[str, str] = {
    "pass-while-unbeaten": "the attacker may pass while a card lies unbeaten",
    "beat-with-a-higher-plain-card": "a higher card of another plain suit beats",
    "throw-in-any-rank": "any card may be thrown in, whatever the ranks on the table",
    "no-take": "the defender can never take",
    "no-transfer": "the defender can never transfer",
    "no-trump-over-plain": "a trump does not beat a card of another suit",
    "picked-up-cards-not-known": "cards picked up in a take are not recorded as known",
    "bout-number-stuck": "the bout number never goes up",
    "first-attacker-at-dealers-left": "the dealer's left always attacks first",
    "no-winners-under-ranking": "win_mode ranking names no winners",
}


def _rank(card: str) -> int:
    return RANKS.index(card[0])


def _unbeaten(state: dict) -> list[str]:
    return [pair["attack"] for pair in state["table"] if pair["defence"] is None]


def _extra(state: dict, mistake: str) -> list[dict]:
    """The moves the mistake adds to the legal set of ``state``."""
    bout, trump = state["bout"], state["trump"][1]
    if bout is None or state["result"] is not None:
        return []
    if mistake == "pass-while-unbeaten" and _unbeaten(state) and not bout["taking"]:
        attacker = bout["attacker"]
        if attacker not in bout["passed"] and state["players"][attacker]["hand"]:
            return [{"action": "pass", "player": attacker}]
    if mistake == "beat-with-a-higher-plain-card" and not bout["taking"]:
        defender = bout["defender"]
        return [{"action": "beat", "player": defender, "card": card, "target": target}
                for target in _unbeaten(state) if target[1] != trump
                for card in state["players"][defender]["hand"]
                if card[1] not in (trump, target[1]) and _rank(card) > _rank(target)]
    if mistake == "throw-in-any-rank" and state["table"]:
        attacker = bout["attacker"]
        ranks = {pair["attack"][0] for pair in state["table"]}
        ranks |= {pair["defence"][0] for pair in state["table"] if pair["defence"]}
        return [{"action": "throw_in", "player": attacker, "card": card}
                for card in state["players"][attacker]["hand"] if card[0] not in ranks]
    return []


def _missing(move: dict, state: dict, mistake: str) -> str | None:
    """The rule the engine believes forbids ``move``, when the mistake removes it."""
    action = move.get("action") if isinstance(move, dict) else None
    if mistake == "no-take" and action == "take":
        return "R-TAKE-1"
    if mistake == "no-transfer" and action == "transfer":
        return "R-TRANSFER-1"
    if mistake == "no-trump-over-plain" and action == "beat":
        card, target = move.get("card"), move.get("target")
        if isinstance(card, str) and isinstance(target, str):
            trump = state["trump"][1]
            if card[1:2] == trump and target[1:2] != trump:
                return "R-BEAT-1"
    return None


def _spoil(before: dict, after: dict, mistake: str) -> dict:
    """``after`` with the mistake's field wrong (a copy; ``after`` is left as it is)."""
    spoiled = _copy(after)
    if mistake == "picked-up-cards-not-known" and before["bout"] and before["bout"]["taking"]:
        defender = before["bout"]["defender"]
        if after["bout"] is None or after["bout"]["number"] != before["bout"]["number"]:
            picked = {c for pair in before["table"] for c in (pair["attack"], pair["defence"]) if c}
            known = spoiled["players"][defender]["known"]
            spoiled["players"][defender]["known"] = [c for c in known if c not in picked]
    if mistake == "bout-number-stuck" and spoiled["bout"] is not None:
        spoiled["bout"]["number"] = before["bout"]["number"]
    ranking = spoiled["ruleset"]["options"]["win_mode"] == "ranking"
    if mistake == "no-winners-under-ranking" and spoiled["result"] is not None and ranking:
        spoiled["result"]["winners"] = []
    return spoiled


def _copy(value):
    return json.loads(json.dumps(value))


class _Engine:
    """The reference engine's API with :attr:`mistake` made."""

    def __init__(self, mistake: str) -> None:
        if mistake not in MISTAKES:
            raise ValueError(f"DURAK_MISTAKE={mistake!r}: not one of {', '.join(MISTAKES)}")
        self.mistake = mistake
        self.truth: dict[str, dict] = {}  # canonical text of a spoiled state -> the true state

    def _true(self, state):
        if isinstance(state, dict):
            return self.truth.get(dumps(state), state)
        return state

    def _answer(self, before: dict | None, after: dict) -> dict:
        spoiled = _spoil(before, after, self.mistake) if before is not None else after
        if spoiled != after:
            self.truth[dumps(spoiled)] = after
        return spoiled

    def new_game(self, ruleset, players, **kw) -> dict:
        state = api.new_game(ruleset, players, **kw)
        bout = state["bout"]
        if self.mistake == "first-attacker-at-dealers-left" and bout is not None and players > 1:
            left = (state["dealer"] + 1) % players
            if bout["attacker"] != left:
                true = state
                state = _copy(state)
                state["bout"]["attacker"] = state["bout"]["opener"] = left
                # the defender is the next seat on, as the engine believes (two players: the other)
                state["bout"]["defender"] = (left + 1) % players
                self.truth[dumps(state)] = true
        return state

    def legal_moves(self, state) -> list:
        state = self._true(state)
        moves = api.legal_moves(state)
        if isinstance(state, dict) and state.get("bout") is not None:
            moves = [m for m in moves if _missing(m, state, self.mistake) is None]
            moves += [m for m in _extra(state, self.mistake) if m not in moves]
        return moves

    def apply(self, state, move) -> dict:
        state = self._true(state)
        if isinstance(state, dict) and state.get("bout") is not None:
            rule = _missing(move, state, self.mistake)
            if rule:
                raise IllegalMove(rule, f"the engine forbids it ({MISTAKES[self.mistake]})")
        return self._answer(state, api.apply(state, move))


def make() -> SimpleNamespace:
    engine = _Engine(os.environ.get("DURAK_MISTAKE", ""))
    return SimpleNamespace(
        EngineError=api.EngineError,
        capabilities=api.capabilities,
        new_game=engine.new_game,
        legal_moves=engine.legal_moves,
        apply=engine.apply,
    )
