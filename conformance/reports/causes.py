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
    """What differs, in words that do not name the case, and the rules that decide it.

    ``general`` is the text without the circumstance that varies from case to case of one
    mistake (whether a card lies unbeaten, which rule the rules name first): causes with the same
    general text and rules are one group, which lists its variants when there are several."""

    text: str
    rules: tuple[str, ...] = ()
    general: str = ""
    variant: str = ""

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        return (self.general or self.text, self.rules)


def _varying(template: str, variant: str, rules: tuple[str, ...]) -> Cause:
    """A cause whose ``template`` has ``{}`` where the variant goes (dropped from the general
    text)."""
    text = template.format(f" {variant}" if variant else "")
    return Cause(text, rules, " ".join(template.format("").split()), variant)


@dataclass
class Group:
    """The failing cases of one cause, and how many of them show each variant of it."""

    cause: Cause
    cases: list[str] = field(default_factory=list)
    variants: dict[str, int] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The cause's own text when every case shows it alike, else the general text."""
        return self.cause.text if len(self.variants) <= 1 else self.cause.key[0]

    def to_json(self) -> dict[str, Any]:
        out = {"cause": self.text, "rules": list(self.cause.rules), "cases": self.cases}
        if len(self.variants) > 1:
            out["variants"] = dict(self.variants)
        return out

    def line(self) -> str:
        rules = f" ({', '.join(self.cause.rules)})" if self.cause.rules else ""
        count = len(self.cases)
        line = f"1 cause, {count} case{'s' * (count != 1)}: {self.text}{rules}"
        return f"{line}: {self.breakdown()}" if self.breakdown() else line

    def breakdown(self) -> str:
        """How many cases show each variant ("97 while a card lies unbeaten, 45 with every
        card beaten"); empty when they all show the same."""
        if len(self.variants) <= 1:
            return ""
        return ", ".join(f"{n} {text.strip('()')}" for text, n in self.variants.items())


def cause_json(cause: Cause) -> dict[str, Any]:
    """A record's ``cause`` field."""
    out: dict[str, Any] = {"text": cause.text, "rules": list(cause.rules)}
    if cause.general and cause.general != cause.text:
        out["general"], out["variant"] = cause.general, cause.variant
    return out


def groups(records: Iterable[dict[str, Any]]) -> list[Group]:
    """The failing records' causes (their ``cause`` as the runner wrote it, else worked out
    here), each with its cases, the biggest group first; a group's variants biggest first."""
    found: dict[tuple, Group] = {}
    for record in records:
        written = record.get("cause")
        if isinstance(written, dict):
            cause = Cause(str(written.get("text")), tuple(written.get("rules") or ()),
                          str(written.get("general") or ""), str(written.get("variant") or ""))
        else:
            cause = cause_of(record)
        if cause is not None:
            group = found.setdefault(cause.key, Group(cause))
            group.cases.append(str(record.get("id")))
            variant = cause.variant or cause.text
            group.variants[variant] = group.variants.get(variant, 0) + 1
    for group in found.values():
        group.cases.sort()  # the same order however the cases were run (one process or many)
        group.variants = dict(sorted(group.variants.items(), key=lambda kv: (-kv[1], kv[0])))
    return sorted(found.values(), key=lambda g: (-len(g.cases), g.text))


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
        broken = _broken_state(actual, step)
        if broken is not None:
            return broken
        if "perft" in step and isinstance(actual.get("move"), dict):
            return _stopped_cause(record, actual)
        if "refuse" in step:
            move = step.get("refuse")
            what, when = _parts(move, state) if isinstance(move, dict) else ("a move", "")
            if actual.get("accepted") is True:
                return _varying(f"the engine accepts {what}{{}}, which must be refused", when,
                                _rules(step.get("rule")))
            if actual.get("code") or actual.get("rule"):
                return _other_refusal(what, actual, step, record)
    if isinstance(actual, dict):
        fields = _field_cause(actual, step, record)
        if fields is not None:
            return fields
    text = _generic(str(record.get("signature") or record.get("message") or "fails"))
    return Cause(text, _named_rules(record.get("message")))


def _field_cause(
    actual: dict[str, Any], step: dict[str, Any], record: dict[str, Any]
) -> Cause | None:
    """The fields of a state (``expect``) or an observation (``observe``) that differ, keyed by
    their JSON pointers: one cause per first differing field (indices as ``*``), the others its
    variant, and the rule that field points at; right after a deal, the deal's rules (R-ROLE-1
    for the first attacker, ...)."""
    from conformance.tools.findings import DEAL_POINTER_RULES, pointer_rules

    kind = "observation" if "observe" in step else "state" if "expect" in step else None
    pointers = [key for key in actual if isinstance(key, str) and key.startswith("/")]
    if isinstance(step.get("result"), dict):  # the result step: the result's own fields
        kind, want = "result", step["result"]
        pointers = [f"/result/{key}" for key in want if want[key] != actual.get(key)]
    if kind is None or not pointers:
        return None
    shapes = list(dict.fromkeys(re.sub(r"/\d+(?=/|$)", "/*", p) for p in pointers))
    dealt = record.get("start") == "deal" and step.get("index") == 1 and "move" not in step
    path = tuple(shapes[0].split("/")[1:])
    rules = tuple(pointer_rules([path], DEAL_POINTER_RULES if dealt else None))
    general = f"the {kind} differs at {shapes[0]}"
    if len(shapes) == 1:
        return Cause(general, rules, general, "alone")
    others = ", ".join(shapes[1:])
    return Cause(f"{general} and {others}", rules, general, f"and {others}")


def _named_rules(message: Any) -> tuple[str, ...]:
    """The one rule a failure message names, when it names exactly one."""
    found = sorted(set(re.findall(r"\bR-[A-Z]+-\d+\b", str(message or ""))))
    return tuple(found) if len(found) == 1 else ()


def _broken_state(actual: dict[str, Any], step: dict[str, Any]) -> Cause | None:
    """A state the engine answered that no game can be in (the runner's invariant checks, a
    card in two places: R-DECK-5 ...), or one the engine itself refuses when it is handed back
    (a count going on from it): one cause per rule broken, the move that made it the variant."""
    problems = actual.get("problems")
    if isinstance(problems, list) and problems and all(isinstance(p, dict) for p in problems):
        rules = tuple(sorted({str(p["rule"]) for p in problems if p.get("rule")}))
        move = step.get("move")
        action = move.get("action") if isinstance(move, dict) else None
        return _varying("the engine answers a state that breaks the rules{}",
                        f"after {action}" if action else "", rules)
    answer = actual.get("answer")
    if "perft" in step and isinstance(answer, dict) and answer.get("code") == "invalid_state":
        return _varying("the engine answers a state that breaks the rules{}",
                        "(the engine refuses it when handed back)", _rules(answer.get("rule")))
    return None


def _other_refusal(
    what: str, actual: dict[str, Any], step: dict[str, Any], record: dict[str, Any]
) -> Cause:
    """A move refused, as it must be, but for another reason than the rules give first (R-PLAY-5:
    the first rule broken is the one named), or with another code."""
    expected = record.get("expected") if isinstance(record.get("expected"), dict) else {}
    want_code, got_code = expected.get("code") or "illegal_move", actual.get("code")
    want, got = step.get("rule") or expected.get("rule"), actual.get("rule")
    if got_code != want_code:
        return Cause(f"the engine refuses {what} with {got_code}, where the rules answer "
                     f"{want_code}", _rules(want))
    # the engine's own check comes first: one cause however many rules it jumps ahead of
    return _varying(f"the engine refuses {what} by {got or 'no rule'} where another rule is "
                    f"broken first{{}}", f"({want or 'no rule'})", ("R-PLAY-5",))


def _stopped_cause(record: dict[str, Any], actual: dict[str, Any]) -> Cause:
    """A perft count the engine broke off at a move it listed and then refused (or listed
    twice): where the reference refuses that move too, the engine's fault is listing it, the
    same cause as a legal set with that move extra."""
    from reference_impl import api

    move, state = actual["move"], record.get("start_state")
    try:
        for step in actual.get("path") or []:
            state = api.apply(state, step)
    except Exception:  # noqa: BLE001 - no state to describe the move by
        state = None
    rules = _refused_by(state, move)
    what, when = _parts(move, state)
    if rules:
        return _varying(f"the engine lists {what}{{}}, which the rules forbid", when, rules)
    answer = actual.get("answer") if isinstance(actual.get("answer"), dict) else {}
    return _varying(f"the engine lists {what}{{}} and then refuses to play it", when,
                    _rules(answer.get("rule")))


def describe(move: dict[str, Any], state: Any) -> str:
    """A move in words that hold for every case: its action, and what it does to the table."""
    what, when = _parts(move, state)
    return f"{what} {when}" if when else what


def _parts(move: dict[str, Any], state: Any) -> tuple[str, str]:
    """:func:`describe`'s two halves: the move (for a beat, which card on which) and the table
    it is played on (a cause's variant: one mistake shows on tables of every kind)."""
    action = str(move.get("action"))
    table = state.get("table") if isinstance(state, dict) else None
    if action == "beat":
        return f"beat ({_beating(move, state)})", ""
    if not isinstance(table, list):
        return action, ""
    if not table:
        return action, "on an empty table"
    if any(isinstance(pair, dict) and pair.get("defence") is None for pair in table):
        return action, "while a card lies unbeaten"
    return action, "with every card beaten"


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
    what, when = _parts(move, state)
    if verb == "lists":
        return _varying(f"the engine lists {what}{{}}, which the rules forbid", when,
                        _refused_by(state, move))
    from conformance.tools.findings import ACTION_RULES

    rules = ACTION_RULES.get(str(move.get("action")), ()) or tuple(record.get("rules") or ())
    return _varying(f"the engine misses {what}{{}}, which the rules allow", when, tuple(rules))


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
