"""A disagreement between two engines, written as a minimal YAML fixture ready for review.

Differential fuzzing (:mod:`conformance.tools.fuzz`) stops a game at the first step where the engine
under test answers differently from the reference engine. The fixture written for it is already
minimal in depth: it starts at the last state both engines agreed on (the state before the step)
and holds that one step, with the reference engine's answer as the expected value:

- ``legal``: the reference's exact legal set (a note names the missing and extra moves);
- ``refuse``: a move outside the legal set, refused citing the reference's rule;
- ``move`` then ``expect``: the move both listed, and the fields of the reference's next state
  where the engine under test differs (one JSON pointer per differing leaf);
- a deal: ``start`` from the same deck, ``expect`` of the differing fields.

The expected values are one engine's answers, not yet the rules' answers: the description says so,
and a maintainer must review the case against spec/rules.md before committing it to the suite.
The file validates against ``spec/schema/fixture.schema.json`` and loads with
:mod:`conformance.suite.loader` (checked by :func:`write_fixture`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from conformance.contract import canonical
from conformance.suite.invariants import state_problems
from conformance.tools.record import ordered_move

#: Rules an action exercises first (spec/rules.md R-PLAY-5 lists each action's rules in order).
ACTION_RULES: dict[str, tuple[str, ...]] = {
    "attack": ("R-ATTACK-1", "R-ATTACK-2"),
    "throw_in": ("R-THROW-1",),
    "beat": ("R-BEAT-1",),
    "take": ("R-TAKE-1",),
    "pass": ("R-THROW-5",),
    "transfer": ("R-TRANSFER-1",),
    "show_trump": ("R-TRANSFER-7",),
}

#: Rules a differing state field points at, by pointer shape ("*" for any index); the longest
#: matching prefix wins. Fields that only the move itself explains (hands, table) map to nothing.
POINTER_RULES: dict[tuple[str, ...], tuple[str, ...]] = {
    ("result",): ("R-END-1",),
    ("result", "fool"): ("R-END-2",),
    ("result", "draw"): ("R-END-3",),
    ("result", "winners"): ("R-END-4",),
    ("result", "finishing_order"): ("R-END-4",),
    ("result", "losing_team"): ("R-TEAM-3",),
    ("result", "epaulettes"): ("R-END-6",),
    ("finished",): ("R-OUT-1",),
    ("bout",): ("R-BOUT-1",),
    ("bout", "attacker"): ("R-ROLE-3",),
    ("bout", "defender"): ("R-ROLE-2",),
    ("bout", "opener"): ("R-ROLE-5",),
    ("bout", "passed"): ("R-THROW-6",),
    ("bout", "taking"): ("R-TAKE-1",),
    ("bout", "first_defence"): ("R-THROW-1",),
    ("bout", "shown"): ("R-TRANSFER-8",),
    ("bout", "emptied"): ("R-OUT-3",),
    ("talon",): ("R-DRAW-1",),
    ("discard",): ("R-BOUT-1",),
    ("dealer",): ("R-DEAL-3",),
    ("trump",): ("R-TRUMP-1",),
    ("players", "*", "known"): ("R-INFO-3",),
    ("players", "*", "team"): ("R-TEAM-1",),
}

#: Where a dealt state differs, the rules of the deal apply instead (R-ROLE-1: the first attacker).
DEAL_POINTER_RULES: dict[tuple[str, ...], tuple[str, ...]] = {
    **POINTER_RULES,
    ("bout", "attacker"): ("R-ROLE-1",),
    ("bout", "opener"): ("R-ROLE-1",),
    ("players", "*", "hand"): ("R-DEAL-1",),
    ("talon",): ("R-TRUMP-2",),
    ("players", "*", "known"): ("R-TRUMP-3",),
}
#: ... and for the next game of a match, its own rules (who deals, who attacks first).
MATCH_POINTER_RULES: dict[tuple[str, ...], tuple[str, ...]] = {
    **DEAL_POINTER_RULES,
    ("dealer",): ("R-MATCH-1",),
    ("bout", "attacker"): ("R-MATCH-2",),
    ("bout", "opener"): ("R-MATCH-2",),
}

#: Key order of a state in a written fixture: the contract's order, easier to read than sorted.
STATE_ORDER = (
    "version",
    "ruleset",
    "dealer",
    "trump",
    "talon",
    "discard",
    "players",
    "table",
    "bout",
    "finished",
    "result",
)


def diff_paths(want: Any, got: Any, path: tuple = ()) -> list[tuple]:
    """Paths of the smallest parts of ``want`` that ``got`` does not reproduce.

    Objects are compared key by key; lists of objects of equal length item by item (players,
    table pairs); anything else as a whole. A key only ``got`` has cannot be named by an
    ``expect`` pointer (a pointer names what must be there), so its parent is named instead.
    """
    if want == got:
        return []
    if isinstance(want, dict) and isinstance(got, dict):
        if set(got) - set(want):
            return [path]
        out: list[tuple] = []
        for key in want:
            if key not in got:
                out.append(path + (key,))
            else:
                out += diff_paths(want[key], got[key], path + (key,))
        return out
    if (
        isinstance(want, list)
        and isinstance(got, list)
        and len(want) == len(got)
        and want
        and all(isinstance(item, dict) for item in want)
    ):
        out = []
        for index, (a, b) in enumerate(zip(want, got, strict=True)):
            out += diff_paths(a, b, path + (index,))
        return out
    if not path and isinstance(want, dict):
        return [(key,) for key in want]  # got is not even an object: name every field
    return [path]


def value_at(document: Any, path: tuple) -> Any:
    for part in path:
        document = document[part]
    return document


def pointer_rules(paths: list[tuple], table: dict | None = None) -> list[str]:
    """The rules the differing fields point at (see :data:`POINTER_RULES`; a deal uses
    :data:`DEAL_POINTER_RULES` or :data:`MATCH_POINTER_RULES`)."""
    table = POINTER_RULES if table is None else table
    rules: list[str] = []
    for path in paths:
        shape = tuple("*" if isinstance(p, int) else p for p in path)
        for length in range(len(shape), 0, -1):
            found = table.get(shape[:length])
            if found:
                rules += [r for r in found if r not in rules]
                break
    return rules


def refusal_rules(reference: Any, state: dict[str, Any], moves: list[dict[str, Any]]) -> list[str]:
    """The rules ``reference`` (an Engine) refuses ``moves`` by in ``state``: what an engine
    that lists them as legal breaks."""
    from conformance.engines.base import ErrorResult

    rules: list[str] = []
    for move in moves:
        answer = reference.apply(state, move)
        rule = answer.rule if isinstance(answer, ErrorResult) else None
        if rule and rule not in rules:
            rules.append(rule)
    return rules


def state_rules(
    before: dict[str, Any], want: dict[str, Any], got: Any, paths: list[tuple]
) -> list[str]:
    """The rules a differing state after a move breaks, most telling first: a broken invariant
    of every state (each card in one place, R-DECK-5, and the others of R-PLAY-6); then, when
    only one engine closed the bout, when a bout closes (R-BOUT-1, or R-BOUT-2 and R-TAKE-2 for
    a take); or, when both closed it, the cards drawn (R-DRAW-1/2/3); then the rules of the
    differing fields (:data:`~conformance.tools.findings.POINTER_RULES`)."""
    rules = list(dict.fromkeys(problem.rule for problem in state_problems(got)))
    bout = before.get("bout") or {}
    after = want.get("bout") or {}
    closed = after.get("number") != bout.get("number")
    got_bout = got.get("bout") if isinstance(got, dict) else None
    got_closed = not isinstance(got_bout, dict) or got_bout.get("number") != bout.get("number")
    if closed != got_closed:  # one engine closed the bout, the other did not
        taking = bout.get("taking") or after.get("taking") or (got_bout or {}).get("taking")
        closing = ["R-BOUT-2", "R-TAKE-2"] if taking else ["R-BOUT-1"]
        rules += [r for r in closing if r not in rules]
    elif closed and before.get("talon") and any(p[:1] in (("players",), ("talon",)) for p in paths):
        drawn = ["R-DRAW-2", "R-DRAW-1"] + (["R-DRAW-3"] if not want.get("talon") else [])
        rules += [r for r in drawn if r not in rules]
    rules += [r for r in pointer_rules(paths) if r not in rules]
    return rules


def ordered_state(state: Any) -> Any:
    """A normalised state with its keys in the contract's order."""
    state = canonical.normalise_state(state)
    if not isinstance(state, dict):
        return state
    first = {key: state[key] for key in STATE_ORDER if key in state}
    return {**first, **{key: value for key, value in state.items() if key not in first}}


@dataclass
class Finding:
    """One disagreement, with everything needed to write its fixture and to reproduce it.

    ``kind``: ``deal``, ``legal``, ``refuse``, ``move`` (the engine under test refused a move
    both listed) or ``state`` (the states after a move differ). ``start``: the fixture's start
    (``{"state": ...}`` or a deal). ``steps``: the fixture's steps. ``depth``: moves played
    before the disagreement (smaller is simpler). ``signature``: what kind of bug it is, so many
    games showing the same bug give one fixture.
    """

    kind: str
    signature: str
    summary: str
    ruleset: str | dict[str, Any]
    players: int
    start: dict[str, Any]
    steps: list[dict[str, Any]]
    rules: list[str]
    depth: int
    game: int
    context: dict[str, Any] = field(default_factory=dict)
    reference_answer: Any = None
    candidate_answer: Any = None

    def case_id(self) -> str:
        digest = hashlib.sha1(
            canonical.dumps(
                {"ruleset": self.ruleset, "start": self.start, "steps": self.steps}
            ).encode()
        ).hexdigest()[:10]
        return f"fuzz-{self.kind}-{digest}"


def fixture_case(finding: Finding, description: str) -> dict[str, Any]:
    """The fixture case (plain data, in the contract's key order) for a finding."""
    start = dict(finding.start)
    if "state" in start:
        state = ordered_state(start["state"])
        if isinstance(state, dict) and isinstance(state.get("ruleset"), dict):
            # the runner replaces it by the case's ruleset (docs/runner.md, Start)
            state["ruleset"] = {"name": state["ruleset"].get("name", "custom"), "options": {}}
        start = {"state": state}
    steps = []
    for step in finding.steps:
        step = dict(step)
        for key in ("move", "refuse"):
            if key in step:
                step[key] = ordered_move(step[key])
        if "legal" in step:
            step["legal"] = [
                ordered_move(m) for m in sorted(step["legal"], key=canonical.canonical_move)
            ]
        steps.append(step)
    return {
        "id": finding.case_id(),
        "description": description,
        "rules": list(finding.rules),
        "ruleset": finding.ruleset,
        "players": finding.players,
        "start": start,
        "steps": steps,
    }


class _Dumper(yaml.SafeDumper):
    """Block style for the case's structure, flow style for card lists and moves; long text
    folded."""


def _str(dumper: yaml.SafeDumper, text: str) -> Any:
    if len(text) > 80 or "\n" in text:
        return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=">")
    return dumper.represent_scalar("tag:yaml.org,2002:str", text)


_Dumper.add_representer(str, _str)


def fixture_yaml(case: dict[str, Any]) -> str:
    header = (
        "# Written by durak-conformance fuzz. The expected answers are the reference engine's:\n"
        "# review them against spec/rules.md before committing this case to the suite.\n"
    )
    body = yaml.dump(
        case,
        Dumper=_Dumper,
        sort_keys=False,
        default_flow_style=None,
        width=100,
        allow_unicode=True,
    )
    return header + body


class FixtureCheckError(RuntimeError):
    """A written fixture does not load: a bug of the fuzzer, reported with the loader's reason."""


def write_fixture(case: dict[str, Any], directory: Path | str) -> Path:
    """Write ``case`` to ``directory/<id>.yaml`` and check it validates and loads."""
    import jsonschema

    from conformance.suite.loader import fixture_schema, load_file

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{case['id']}.yaml"
    path.write_text(fixture_yaml(case), encoding="utf-8")
    loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
    try:
        jsonschema.Draft202012Validator(fixture_schema()).validate(loaded)
    except jsonschema.ValidationError as exc:
        raise FixtureCheckError(f"{path}: the fixture breaks the schema: {exc.message}") from None
    cases, problems = load_file(path)
    if problems or len(cases) != 1:
        raise FixtureCheckError(f"{path}: the fixture does not load: {problems[0]}")
    return path
