"""Root causes: the failing cases of a run grouped by what differs, so one bug reads as one cause.

One bug in an engine fails many cases: a pass allowed while a card lies unbeaten shows up in
every area where a bout is played, each failure saying only "step 3 legal: wrong set". A failing
record's *cause* is its first difference described without the case: the kind of move the
engine's legal set misses or adds (its action; for a beat, which card on which, "a trump on a
plain card"; for the other actions, whether a card lies unbeaten), a move accepted that must be
refused, the state fields that differ (JSON pointers with their indices as ``*``), or the
engine's fault. Its rules are the ones that decide that difference: the rule the reference
engine refuses an extra move by (the diagnosis the kit and the fuzzer use, never an expected
answer), the rules of a missing move's action (:data:`conformance.tools.findings.ACTION_RULES`),
otherwise the case's own. :func:`groups` gathers the records of one cause, biggest first, for the
terminal summary, the JSON summary and the HTML page: "1 cause, 64 cases: the engine lists pass
while a card lies unbeaten (R-THROW-5)".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from conformance.contract.cards import suit_of

#: The outcomes that have a cause.
CAUSED = ("failed", "error", "broken", "mismatch", "xpassed")


@dataclass(frozen=True)
class Cause:
    """What differs, in words that do not name the case, and the rules that decide it."""

    text: str
    rules: tuple[str, ...] = ()


@dataclass
class Group:
    """The failing cases of one cause."""

    cause: Cause
    cases: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"cause": self.cause.text, "rules": list(self.cause.rules), "cases": self.cases}

    def line(self) -> str:
        rules = f" ({', '.join(self.cause.rules)})" if self.cause.rules else ""
        count = len(self.cases)
        return f"1 cause, {count} case{'s' * (count != 1)}: {self.cause.text}{rules}"


def cause_json(cause: Cause) -> dict[str, Any]:
    """A record's ``cause`` field."""
    return {"text": cause.text, "rules": list(cause.rules)}


def groups(records: Iterable[dict[str, Any]]) -> list[Group]:
    """The failing records' causes (their ``cause`` as the runner wrote it, else worked out
    here), each with its cases, the biggest group first."""
    found: dict[Cause, Group] = {}
    for record in records:
        written = record.get("cause")
        if isinstance(written, dict):
            cause = Cause(str(written.get("text")), tuple(written.get("rules") or ()))
        else:
            cause = cause_of(record)
        if cause is not None:
            found.setdefault(cause, Group(cause)).cases.append(str(record.get("id")))
    for group in found.values():
        group.cases.sort()  # the same order however the cases were run (one process or many)
    return sorted(found.values(), key=lambda g: (-len(g.cases), g.cause.text))


def cause_of(record: dict[str, Any]) -> Cause | None:
    """The cause of one report record; None for a record that does not fail."""
    outcome = record.get("base_outcome") or record.get("outcome")
    if outcome not in CAUSED:
        return None
    if outcome == "broken":
        return Cause("the case cannot be read (a broken fixture, record or scenario)")
    if outcome == "error":
        return Cause(f"the engine fails: {_fault(record)}")
    actual = record.get("actual")
    step = record.get("step") if isinstance(record.get("step"), dict) else {}
    state = record.get("state_before")
    if isinstance(actual, dict):
        if "perft" in step and isinstance(actual.get("descent"), dict):
            state, actual = _descended(record, actual["descent"])
        for key, verb in (("extra", "lists"), ("present", "lists"), ("missing", "misses")):
            moves = actual.get(key)
            if isinstance(moves, list) and moves and isinstance(moves[0], dict):
                return _move_cause(verb, moves[0], state, record, step)
        if actual.get("accepted") is True and "refuse" in step:
            move = step.get("refuse")
            rule = step.get("rule")
            what = describe(move, state) if isinstance(move, dict) else "a move"
            return Cause(f"the engine accepts {what}, which must be refused", _rules(rule))
    return Cause(_generic(str(record.get("signature") or record.get("message") or "fails")))


def describe(move: dict[str, Any], state: Any) -> str:
    """A move in words that hold for every case: its action, and what it does to the table."""
    action = str(move.get("action"))
    table = state.get("table") if isinstance(state, dict) else None
    if action == "beat":
        return f"beat ({_beating(move, state)})"
    if not isinstance(table, list):
        return action
    if not table:
        return f"{action} on an empty table"
    if any(isinstance(pair, dict) and pair.get("defence") is None for pair in table):
        return f"{action} while a card lies unbeaten"
    return f"{action} with every card beaten"


def _beating(move: dict[str, Any], state: Any) -> str:
    trump = state.get("trump") if isinstance(state, dict) else None
    try:
        suit, under = suit_of(str(move.get("card"))), suit_of(str(move.get("target")))
        trump_suit = suit_of(trump) if isinstance(trump, str) else None
    except (AttributeError, KeyError, IndexError, ValueError):  # not a card of any deck
        return "a card not of the deck"
    if trump_suit is None:
        return "of its suit" if suit == under else "of another suit"
    if suit == trump_suit:
        return "a trump on a trump" if under == trump_suit else "a trump on a plain card"
    if suit == under:
        return "a card of the suit on its suit"
    if under == trump_suit:
        return "a plain card on a trump"
    return "a card of another plain suit"


def _move_cause(
    verb: str, move: dict[str, Any], state: Any, record: dict[str, Any], step: dict[str, Any]
) -> Cause:
    what = describe(move, state)
    if verb == "lists":
        rules = _refused_by(state, move)
        return Cause(f"the engine lists {what}, which the rules forbid", rules)
    from conformance.tools.findings import ACTION_RULES

    rules = ACTION_RULES.get(str(move.get("action")), ()) or tuple(record.get("rules") or ())
    return Cause(f"the engine misses {what}, which the rules allow", tuple(rules))


def _refused_by(state: Any, move: dict[str, Any]) -> tuple[str, ...]:
    """The rule the reference engine refuses ``move`` by in ``state`` (none when it cannot)."""
    if not isinstance(state, dict):
        return ()
    from reference_impl import api

    try:
        api.apply(state, move)
    except api.IllegalMove as exc:
        return (exc.rule,) if exc.rule else ()
    except Exception:  # noqa: BLE001 - an abbreviated or broken state: no rule is named
        return ()
    return ()


def _descended(record: dict[str, Any], descent: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The state where a perft count first parts from the reference's (replayed from the
    case's start along the descent's path on the reference) and the moves that differ there."""
    from reference_impl import api

    state = record.get("start_state")
    try:
        for move in descent.get("path") or []:
            state = api.apply(state, move)
    except Exception:  # noqa: BLE001 - no state to describe the moves by
        state = None
    return state, {k: descent[k] for k in ("extra", "missing") if k in descent}


def _fault(record: dict[str, Any]) -> str:
    message = str(record.get("message") or "")
    found = re.search(r"the engine failed on \w+: (\w[\w ]*?):", message)
    return found.group(1) if found else _generic(str(record.get("signature") or message))


def _generic(text: str) -> str:
    """A signature without its step number, pointers and counts made general."""
    text = re.sub(r"^step \d+ ", "", text.splitlines()[0] if text else "")
    text = re.sub(r"/\d+(?=/|\b)", "/*", text)
    return re.sub(r"\(\d+\)", "(N)", text)


def _rules(rule: Any) -> tuple[str, ...]:
    return (str(rule),) if rule else ()


def cause_lines(found: list[Group], most: int = 10) -> list[str]:
    """The terminal summary's lines: the biggest groups, and how many more there are."""
    lines = [f"root causes: {len(found)} for {sum(len(g.cases) for g in found)} failing cases"]
    lines += ["  " + group.line() for group in found[:most]]
    if len(found) > most:
        lines.append(f"  ... and {len(found) - most} more (the JSON summary lists them all)")
    return lines
