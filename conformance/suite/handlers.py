"""One handler per kind of case step: how the runner judges a step against the engine.

:data:`HANDLERS` maps each kind of :mod:`conformance.suite.kinds` to a function of the run in
progress (:class:`conformance.suite.cases.CaseRun`: the engine, the state now, the state before
the step in canonical form) and the step. A handler asks the engine what it needs, compares the
answer with the step, and raises :class:`~conformance.suite.verdicts.StepFailed` or
:class:`~conformance.suite.verdicts.ErrorAnswer` when the step does not hold; only ``move``
changes the state the case goes on from. Every form of case (fixture, scenario, record, perft
position, fuzz finding) is judged by these handlers, so a move, a refusal or an exact legal set
means the same everywhere.

The semantics are the contract's (docs/architecture.md, Fixtures; docs/runner.md, Fixture
semantics): ``legal`` compares the exact set of canonical moves, ``legal_includes`` and
``legal_excludes`` membership, ``move`` must be listed and accepted, ``refuse`` must be refused
with the code and rule given, ``expect`` compares JSON-pointer fields of the state, ``result`` a
subset of the result, ``observe`` one player's observation.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from conformance.contract import canonical
from conformance.engines.base import ErrorResult
from conformance.suite.aftermath import judge_bout, judge_check, judge_redeal
from conformance.suite.counting import judge_perft
from conformance.suite.kinds import SEAT_ROLES
from conformance.suite.observation import schema_problems
from conformance.suite.verdicts import (
    ErrorAnswer,
    StepFailed,
    check_invariants,
    refusal,
    require,
    shown,
)

if TYPE_CHECKING:
    from conformance.suite.cases import CaseRun
    from conformance.suite.loader import Step

Handler = Callable[["CaseRun", "Step"], None]


# ------------------------------------------------------------------------------- the legal set


def _legal_moves(run: CaseRun, expected: Any) -> list[Any]:
    return require(run.engine.legal_moves(run.state), list, what="legal_moves", expected=expected)


def _wanted(moves: list[Any]) -> dict[str, Any]:
    return {canonical.canonical_move(move): move for move in moves}


def judge_legal(run: CaseRun, step: Step) -> None:
    """``legal``: the engine's legal set is exactly the step's (order aside, no move twice);
    with ``player``, that player's legal moves are exactly the step's."""
    body, player = step.body, step.data.get("player")
    listed = _legal_moves(run, body)
    if player is not None:
        listed = [m for m in listed if isinstance(m, dict) and m.get("player") == player]
    got = [canonical.canonical_move(move) for move in listed]
    got_set, want = set(got), _wanted(body)
    missing = [want[key] for key in sorted(set(want) - got_set)]
    extra = [json.loads(key) for key in sorted(got_set - set(want))]
    twice = sorted({key for key in got if got.count(key) > 1})
    if not (missing or extra or twice):
        return
    actual: dict[str, Any] = {"missing": missing, "extra": extra}
    parts = [f"{len(missing)} missing", f"{len(extra)} extra"]
    if twice:
        actual["listed_twice"] = [json.loads(key) for key in twice]
        parts.append(f"{len(twice)} listed twice")
    whose = "the legal set" if player is None else f"player {player}'s legal set"
    raise StepFailed(f"{whose} differs: " + ", ".join(parts), body, actual, signature="wrong set")


def judge_legal_includes(run: CaseRun, step: Step) -> None:
    """``legal_includes``: every move of the step is in the engine's legal set."""
    moves = _legal_moves(run, step.body)
    want = _wanted(step.body)
    missing = [
        want[key] for key in sorted(set(want) - {canonical.canonical_move(m) for m in moves})
    ]
    if missing:
        raise StepFailed(
            f"{len(missing)} move(s) that must be legal are not listed",
            step.body,
            {"missing": missing, "legal": moves},
            signature="missing moves",
        )


def judge_legal_excludes(run: CaseRun, step: Step) -> None:
    """``legal_excludes``: no move of the step is in the engine's legal set."""
    moves = _legal_moves(run, step.body)
    want = _wanted(step.body)
    present = [
        want[key] for key in sorted(set(want) & {canonical.canonical_move(m) for m in moves})
    ]
    if present:
        raise StepFailed(
            f"{len(present)} move(s) that must not be legal are listed",
            step.body,
            {"present": present, "legal": moves},
            signature="forbidden moves listed",
        )


def judge_movers(run: CaseRun, step: Step) -> None:
    """``movers``: exactly these seats have a legal move now; with ``actions``, every legal
    move is one of those actions ("only player 1 may move", "player 1 attacks next")."""
    moves = _legal_moves(run, step.body)
    seats = sorted({m.get("player") for m in moves if isinstance(m, dict)}, key=str)
    want = sorted(set(step.body), key=str)
    if seats != want:
        raise StepFailed(
            f"the players who may move are {_seats(seats)}; they must be {_seats(want)}",
            {"movers": want},
            {"movers": seats, "legal": moves},
            signature="wrong movers",
        )
    actions = step.data.get("actions")
    other = [m for m in moves if not isinstance(m, dict) or m.get("action") not in (actions or ())]
    if actions is not None and other:
        raise StepFailed(
            f"{len(other)} legal move(s) are not {' or '.join(actions)}",
            {"actions": actions},
            {"other": other, "legal": moves},
            signature="other actions listed",
        )


def _seats(seats: list[Any]) -> str:
    return ", ".join(map(str, seats)) or "nobody"


# ------------------------------------------------------------------------------- moves


def judge_move(run: CaseRun, step: Step) -> None:
    """``move``: one meaning of a move for every form of case: it is listed by ``legal_moves``
    (R-PLAY-1: the legal set is exact), ``apply`` accepts it, the state it was given is left as
    it was, and the state it answers holds every invariant. The case goes on from that state."""
    move, state = step.body, run.state
    moves = _legal_moves(run, [move])
    if canonical.canonical_move(move) not in {
        canonical.canonical_move(m) for m in moves if isinstance(m, dict)
    }:
        raise StepFailed(
            "the move is not in the engine's legal set; it must be legal",
            {"listed": move},
            {"missing": [move], "legal": moves},
            signature="move not listed",
        )
    given = canonical.dumps(state)
    after = require(
        run.engine.apply(state, move),
        dict,
        what="apply",
        expected="accepted",
        expected_shape="a state",
    )
    _input_unchanged(state, given)
    if run.check_states:
        check_invariants(after)
    run.accept(after, move)


def _input_unchanged(state: Any, given: str) -> None:
    if canonical.dumps(state) != given:
        raise StepFailed(
            "apply changed the state it was given (R-PLAY-5: requests are stateless)",
            "the input state unchanged",
            {"input_after_apply": canonical.normalise_state(state)},
            signature="apply changed its input",
        )


def judge_refuse(run: CaseRun, step: Step) -> None:
    """``refuse``: ``apply`` answers the step's code (``illegal_move`` unless given) citing its
    rule, if any; the state it was given is left as it was (R-PLAY-5), and a move refused as
    illegal is not in the legal set (R-PLAY-1). The case goes on from the same state."""
    code = step.data.get("code", "illegal_move")
    rule = step.data.get("rule")
    expected = {"code": code, "rule": rule} if rule else {"code": code}
    given = canonical.dumps(run.state)
    answer = run.engine.apply(run.state, step.body)
    if not isinstance(answer, ErrorResult):
        raise StepFailed(
            "the move was accepted; it must be refused"
            + (f" citing {rule}" if rule else f" with {code}"),
            expected,
            {"accepted": True, "state": canonical.normalise_state(answer)},
            signature="accepted",
        )
    if answer.is_fault:
        raise ErrorAnswer(answer, "apply", expected)
    if answer.code != code or (rule and answer.rule != rule):
        got = answer.code + (f" {answer.rule}" if answer.rule else "")
        want = code + (f" {rule}" if rule else "")
        raise StepFailed(
            f"refused with {got}, expected {want}",
            expected,
            answer.to_json(),
            signature=f"refused with {got}",
        )
    _input_unchanged(run.state, given)
    if code == "illegal_move":
        _not_listed(run, step.body)


def _not_listed(run: CaseRun, move: Any) -> None:
    """A move ``apply`` refuses as illegal is not in the legal set (R-PLAY-1: it is exact)."""
    moves = _legal_moves(run, [])
    if canonical.canonical_move(move) in {
        canonical.canonical_move(m) for m in moves if isinstance(m, dict)
    }:
        raise StepFailed(
            "apply refused the move but legal_moves lists it (R-PLAY-1: the legal set is exact)",
            {"listed": False},
            {"present": [move], "legal": moves},
            signature="refused move listed",
        )


# ------------------------------------------------------------------------------- the state


def _path_of(pointer: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in canonical.pointer_parts(pointer))


def fields_differ(
    document: Any, expect: dict[str, Any], unordered: frozenset, what: str, whose: str = ""
) -> None:
    """Every ``expect`` pointer must hold its value in ``document`` (a normalised state or
    observation: ``what``, of ``whose`` in the message); the expected value is canonical first
    (``unordered``: ``canonical.STATE`` or ``canonical.OBSERVATION``). A pointer that leads
    nowhere is found as ``<missing>``, which is not ``null``."""
    wrong = {}
    for pointer, want_value in expect.items():
        got_value, _path = canonical.resolve(document, pointer)
        want_norm = canonical.normalise(want_value, _path_of(pointer), unordered)
        if got_value is canonical.MISSING or got_value != want_norm:
            wrong[pointer] = (want_norm, got_value)
    if wrong:
        pointers = sorted(wrong)
        raise StepFailed(
            f"{whose}{what} differs at " + ", ".join(pointers),
            {p: wrong[p][0] for p in pointers},
            {p: shown(wrong[p][1]) for p in pointers},
            signature=f"{what} differs at " + ", ".join(pointers),
        )


def judge_expect(run: CaseRun, step: Step) -> None:
    """``expect``: JSON pointer -> value in the state, unordered card lists canonically."""
    fields_differ(run.before, step.body, canonical.STATE, "state")


def judge_result(run: CaseRun, step: Step) -> None:
    """``result``: the listed fields of the state's result; ``null``: the game goes on."""
    body, before = step.body, run.before
    result = before.get("result", canonical.MISSING) if isinstance(before, dict) else None
    if body is None:
        if result is not None:
            raise StepFailed(
                "the game is over; it must go on", None, shown(result), signature="game over"
            )
        return
    if not isinstance(result, dict):
        raise StepFailed("the game is not over", body, shown(result), signature="game not over")
    differ = sorted(key for key in body if result.get(key, canonical.MISSING) != body[key])
    if differ:
        raise StepFailed(
            "the result differs in " + ", ".join(differ),
            body,
            result,
            signature="result differs in " + ", ".join(differ),
        )


# ------------------------------------------------------------------------------- what a player sees


def judge_observe(run: CaseRun, step: Step) -> None:
    """``observe``: the engine's observation must validate against the observation schema,
    show nothing at the ``absent`` pointers and hold the ``expect`` values. The ``absent``
    pointers are judged first: they are the case's own point (a leak), and a leak also breaks
    the closed schema, where it would read less plainly. With ``code`` the request must be
    refused instead (a player who is not a seat is a malformed request, P-26)."""
    player = step.body["player"]
    if "code" in step.data:
        _observe_refused(run, player, step.data["code"])
        return
    answer = require(
        run.engine.observe(run.state, player),
        dict,
        what="observe",
        expected="an observation",
    )
    seen = canonical.normalise_observation(answer)
    _nothing_at(seen, step.data.get("absent", []), player)
    if step.data.get("hides_unseen"):
        _nothing_unseen(run.before, seen, player)
    problems = schema_problems(answer)
    if problems:
        pointers = sorted({pointer or "/" for pointer, _ in problems})
        raise StepFailed(
            "the observation breaks spec/schema/observation.schema.json: "
            + "; ".join(f"{pointer or '/'}: {message}" for pointer, message in problems[:5])
            + (f"; and {len(problems) - 5} more" if len(problems) > 5 else ""),
            "an observation valid under spec/schema/observation.schema.json",
            {"schema_errors": [list(item) for item in problems], "observation": seen},
            signature="observation fails the schema at " + ", ".join(pointers),
        )
    expect = step.data.get("expect", {})
    fields_differ(seen, expect, canonical.OBSERVATION, "observation", f"player {player}'s ")


def _observe_refused(run: CaseRun, player: Any, code: str) -> None:
    """``observe`` must answer the error ``code``: an observation, or a crash, for a seat the
    game does not have is what an engine must never give (P-26, P-27)."""
    answer = run.engine.observe(run.state, player)
    refusal(
        answer, code, what="observe", expected={"code": code},
        accepted=f"observe answered an observation for player {player!r}; it must be refused "
                 f"with {code} (P-26: unknown player)",
        instead={"observation": answer}, signature="observed", why=" (P-26: unknown player)",
    )


def _nothing_at(seen: Any, absent: list[str], player: int) -> None:
    shown = [p for p in absent if canonical.resolve(seen, p)[0] is not canonical.MISSING]
    if shown:
        raise StepFailed(
            f"player {player}'s observation shows what must be hidden at " + ", ".join(shown),
            {"absent": shown},
            {"shown": {p: canonical.resolve(seen, p)[0] for p in shown}, "observation": seen},
            signature="observation shows " + ", ".join(shown),
        )


def _nothing_unseen(state: Any, seen: Any, player: int) -> None:
    """No card the observer has not seen appears anywhere in the observation: the talon's
    (the face-up trump card aside), the discard pile's under ``discard_visibility: count``, and
    the cards of the other hands not known to all (R-INFO-1, R-INFO-2, R-INFO-3)."""
    state = state if isinstance(state, dict) else {}
    face_up = seen.get("trump_card") if isinstance(seen, dict) else None
    hidden = [card for card in state.get("talon") or [] if card != face_up]
    options = (state.get("ruleset") or {}).get("options") or {}
    if options.get("discard_visibility", "count") == "count":
        hidden += state.get("discard") or []
    for seat, other in enumerate(state.get("players") or []):
        if seat != player and isinstance(other, dict):
            known = other.get("known") or []
            hidden += [card for card in other.get("hand") or [] if card not in known]
    shown = _strings(seen)
    leaked = [card for card in hidden if card in shown]
    if leaked:
        raise StepFailed(
            f"player {player}'s observation shows cards hidden from them: {', '.join(leaked)}",
            {"hidden": hidden},
            {"leaked": leaked, "observation": seen},
            signature="observation shows hidden cards",
        )


def _strings(value: Any) -> set[str]:
    """Every string anywhere in a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*map(_strings, value)) if value else set()
    return set()


# ------------------------------------------------------------------------------- seats by role


def bind_seats(step: Step, state: Any) -> Step:
    """``step`` with every seat it names by role (:data:`~conformance.suite.kinds.SEAT_ROLES`:
    a move's or the step's ``player``, a ``movers`` entry, the observer) replaced by the seat
    that holds the role in ``state`` now."""
    if not _names_a_role(step.data):
        return step
    return dataclasses.replace(step, data=_bound(step.data, state))


def _names_a_role(value: Any) -> bool:
    if isinstance(value, dict):
        return any(
            (key == "player" and item in SEAT_ROLES) or _names_a_role(item)
            for key, item in value.items()
        ) or any(item in SEAT_ROLES for item in value.get("movers") or [] if isinstance(item, str))
    if isinstance(value, list):
        return any(_names_a_role(item) for item in value)
    return False


def _bound(value: Any, state: Any) -> Any:
    if isinstance(value, list):
        return [_bound(item, state) for item in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, item in value.items():
        if key == "player" and item in SEAT_ROLES:
            out[key] = _seat_at(state, item)
        elif key == "movers" and isinstance(item, list):
            out[key] = [_seat_at(state, s) if s in SEAT_ROLES else s for s in item]
        else:
            out[key] = _bound(item, state)
    return out


def _seat_at(state: Any, role: str) -> int:
    seat = canonical.resolve(state, role)[0]
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise StepFailed(
            f"the step names the seat at {role}, but the state has {shown(seat)} there",
            {role: "a seat"},
            {role: shown(seat)},
            signature=f"no seat at {role}",
        )
    return seat


#: Kind -> handler. Every kind of :data:`conformance.suite.kinds.STEP_KINDS` has one.
HANDLERS: dict[str, Handler] = {
    "legal": judge_legal,
    "legal_includes": judge_legal_includes,
    "legal_excludes": judge_legal_excludes,
    "move": judge_move,
    "refuse": judge_refuse,
    "expect": judge_expect,
    "result": judge_result,
    "observe": judge_observe,
    "movers": judge_movers,
    "check": judge_check,
    "bout": judge_bout,
    "redeal": judge_redeal,
    "perft": judge_perft,
}
