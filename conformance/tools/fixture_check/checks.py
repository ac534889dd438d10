"""One fixture case against the contract (docs/architecture.md, Fixtures): its fields, the rule
IDs and option values it cites, its ruleset, its player count, its start and every step; and
:func:`check_all` over the fixture files (each file also against the fixture schema, every id
unique).

The messages say what to write instead, because the reader is the author of the case.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from conformance.contract.cards import CARD_RE, card_key
from conformance.contract.cards import deck as full_deck
from conformance.contract.seats import legal_player_counts
from conformance.suite.kinds import STEP_KINDS, step_kinds
from conformance.tools.fixture_check.loading import (
    LINE,
    Problem,
    Reporter,
    fixture_files,
    line_of,
    load_cases,
    schema_problems,
    strip_lines,
)
from conformance.tools.fixture_check.register import (
    ROOT,
    effective_options,
    load_options,
    load_preset,
    load_register,
)
from conformance.tools.fixture_check.state import check_start

CASE_ID_RE = re.compile(r"^[a-z0-9-]+$")
POINTER_RE = re.compile(r"^(/([^~]|~[01])*)*$")
ACTIONS = {
    "attack": {"cards"},
    "throw_in": {"card"},
    "beat": {"target", "card"},
    "take": set(),
    "pass": set(),
    "transfer": {"cards"},
    "show_trump": {"card"},
}
CASE_FIELDS_REQUIRED = ("id", "description", "rules", "ruleset", "players", "start", "steps")
CASE_FIELDS_ALLOWED = set(CASE_FIELDS_REQUIRED) | {"options", "start_refused", "reached_by"}
_LEGAL_KINDS = ("legal", "legal_includes", "legal_excludes")


class CaseChecker(Reporter):
    """Checks one case against the contract; collects problems instead of stopping at the first."""

    def __init__(self, path: Path, case: Any, register: set[str], options: dict) -> None:
        super().__init__(path, case)
        self.register, self.options = register, options

    def run(self) -> list[Problem]:
        case = self.case
        if not isinstance(case, dict):
            self.err({}, "a case must be a mapping")
            return self.problems
        refused = case.get("start_refused")
        self.check_fields(refused)
        if not (
            isinstance(refused, dict)
            and refused.get("code") == "bad_request"
            and refused.get("rule") != "R-DECK-4"
        ):
            self.check_ruleset()  # a refused start may send a ruleset the rules refuse
        n = case.get("players")
        malformed = isinstance(refused, dict) and refused.get("code") == "bad_request"
        if malformed and (isinstance(n, bool) or not isinstance(n, int)):
            return self.problems  # a count that is no integer: new_game must refuse the request
        low, high = (1, 9) if refused is not None else (2, 8)
        if not isinstance(n, int) or not low <= n <= high:
            self.err(case, f"players must be an integer {low}..{high}, got {n!r}")
            return self.problems
        opts = effective_options(case.get("ruleset"))
        try:
            deck = full_deck(int(opts["deck_size"]), int(opts["decks"]))
        except ValueError:  # CardError, or a deck_size that is no number
            if not malformed:
                self.err(case, f"ruleset: no deck of deck_size {opts['deck_size']!r} and decks "
                               f"{opts['decks']!r} (24, 36 or 52 cards, one or two packs)")
            return self.problems  # a refused start's ruleset the rules refuse: no deck to check
        legal = n in legal_player_counts(opts)
        if refused is not None:
            self.check_refused(refused, n, legal)
        elif not legal:
            self.err(
                case,
                f"{n} players cannot play with {len(deck)} cards and teams "
                f"{opts.get('teams')} (R-DECK-4); a case showing that needs start_refused",
            )
        start = case.get("start")
        if refused is None or not (isinstance(start, dict) and "state" in start):
            check_start(self, start, n, deck, opts)  # a refused state is wrong on purpose
        steps = case.get("steps")
        if refused is not None:
            if steps is not None:
                self.err(case, "a case with start_refused has no steps (the game never starts)")
            return self.problems
        if not isinstance(steps, list) or not steps:
            self.err(case, "'steps' must be a non-empty list")
        else:
            for step in steps:
                self.check_step(step, n, deck)
        return self.problems

    def check_fields(self, refused: Any) -> None:
        """The contract's fields, a well-formed id and description, at least one known rule."""
        case = self.case
        for f in CASE_FIELDS_REQUIRED:
            if f not in case and not (f == "steps" and refused is not None):
                self.err(
                    case, f"missing field '{f}' (see the fixture format in docs/architecture.md)"
                )
        for f in case:
            if f != LINE and f not in CASE_FIELDS_ALLOWED:
                self.err(case, f"unknown field '{f}'")
        if not CASE_ID_RE.match(self.cid):
            self.err(case, f"id {self.cid!r} must match [a-z0-9-]+")
        if not str(case.get("description", "")).strip():
            self.err(case, "empty description: say why the expected answer follows from the rules")
        rules = case.get("rules") or []
        if not rules:
            self.err(case, "'rules' must name at least one rule ID")
        for r in rules:
            if r not in self.register:
                self.err(case, f"unknown rule ID {r!r} (not in the register or spec/rules.md)")

    def check_refused(self, refused: Any, n: int, legal: bool) -> None:
        """start_refused: {code: bad_request, rule?} for a deck or a seed, {code: invalid_state,
        rule?, pointer?} for a state; a count R-DECK-4 allows is no R-DECK-4 case."""
        start = self.case.get("start")
        by_state = isinstance(start, dict) and "state" in start
        code = "invalid_state" if by_state else "bad_request"
        if not isinstance(refused, dict) or refused.get("code") != code:
            extra = ", pointer: /..." if by_state else ""
            self.err(self.case, f"start_refused must be {{code: {code}, rule: R-...{extra}}} "
                                f"with a {'state' if by_state else 'deck or seed'} start")
            return
        rule = refused.get("rule")
        if rule is not None and rule not in self.register:
            self.err(refused, f"start_refused cites unknown rule {rule!r}")
        if rule == "R-DECK-4" and legal:
            self.err(refused, f"start_refused cites R-DECK-4 but {n} players are allowed here")
        if "pointer" in refused and not by_state:
            self.err(refused, "start_refused: pointer goes with invalid_state, a state start")

    def check_ruleset(self) -> None:
        """A known preset, known overrides, and ``options:`` the ruleset really plays."""
        case = self.case
        rs = case.get("ruleset")
        if isinstance(rs, str):
            rs = {"preset": rs}
        if not isinstance(rs, dict) or "preset" not in rs:
            self.err(case, "ruleset must be {preset: NAME, overrides: {...}}")
            return
        rulesets = ROOT / "spec" / "rulesets"
        if rulesets.exists() and any(rulesets.iterdir()) and load_preset(rs["preset"]) is None:
            self.err(
                case, f"unknown preset {rs['preset']!r} (no spec/rulesets/{rs['preset']}.yaml)"
            )
        for k, v in (rs.get("overrides") or {}).items():
            if k != LINE:
                self.check_option(k, v)
        eff = effective_options(rs)
        for k, v in (case.get("options") or {}).items():
            if k == LINE:
                continue
            self.check_option(k, v)
            if k in eff and str(eff[k]) != str(v):
                self.err(
                    case,
                    f"options says {k}={v} but the ruleset gives {k}={eff[k]}; "
                    "override it in ruleset.overrides",
                )

    def check_option(self, name: str, value: Any) -> None:
        if isinstance(value, bool):
            self.err(
                self.case,
                f'option {name}: quote "on"/"off" (YAML 1.1 readers load them as booleans)',
            )
        elif name not in self.options:
            self.err(self.case, f"unknown option {name!r}")
        elif str(value) not in self.options[name][0]:
            self.err(self.case, f"option {name}={value!r} is not one of {self.options[name][0]}")

    def check_move(self, node: Any, mv: Any, n: int, deck: list[str], where: str) -> None:
        """A move of the contract: a seat, a known action and exactly that action's fields."""
        if not isinstance(mv, dict):
            self.err(node, f"{where}: a move is a mapping")
            return
        p = mv.get("player")
        if not isinstance(p, int) or not 0 <= p < n:
            self.err(node, f"{where}: player {p!r} is not a seat 0..{n - 1}")
        action = mv.get("action")
        if action not in ACTIONS:
            self.err(node, f"{where}: unknown action {action!r}")
            return
        fields = {k for k in mv if k not in ("player", "action", LINE)}
        if fields != ACTIONS[action]:
            self.err(
                node,
                f"{where}: {action} takes fields {sorted(ACTIONS[action])}, got {sorted(fields)}",
            )
        for f in ("card", "target"):
            if f in mv:
                self.cards(node, [mv[f]], f"{where}.{f}", deck)
        if "cards" in mv:
            cards = mv["cards"] if isinstance(mv["cards"], list) else [mv["cards"]]
            self.cards(node, cards, f"{where}.cards", deck)

    def check_step(self, step: Any, n: int, deck: list[str]) -> None:
        """Exactly one step kind, its body well formed; ``rule``/``code`` only on a refusal."""
        if not isinstance(step, dict):
            self.err(self.case, "a step must be a mapping")
            return
        kinds = step_kinds(step)
        companions: tuple[str, ...] = ("rule", "code", LINE, "note")
        if "observe" in kinds:  # an observe step carries its own expect and absent
            companions += ("expect", "absent")
        extra = [k for k in step if k not in STEP_KINDS and k not in companions]
        if len(kinds) != 1 or extra:
            self.err(step, f"a step holds exactly one of {sorted(STEP_KINDS)} (got {sorted(step)})")
            return
        kind = kinds[0]
        body = step[kind]
        if kind in _LEGAL_KINDS:
            self.check_move_list(step, kind, body, n, deck)
        elif kind == "refuse":
            self.check_refuse(step, body, n, deck)
        elif kind == "move":
            self.check_move(step, body, n, deck, kind)
        elif kind == "expect":
            self.check_expect(step, body)
        elif kind == "observe":
            self.check_observe(step, n)
        elif kind == "result" and body is not None and not isinstance(body, dict):
            self.err(
                step,
                "result must be a mapping of result fields, or null (the game must "
                "still be going; docs/architecture.md, Fixtures)",
            )
        if kind != "refuse" and ("rule" in step or ("code" in step and kind != "observe")):
            self.err(step, "'rule' and 'code' belong to a refuse step ('code' also to observe)")

    def check_move_list(self, step: dict, kind: str, body: Any, n: int, deck: list[str]) -> None:
        if not isinstance(body, list):
            self.err(step, f"{kind} must be a list of moves")
            return
        keys = []
        for mv in body:
            self.check_move(step, mv, n, deck, kind)
            keys.append(move_key(mv))
        if len(set(keys)) != len(keys):
            self.err(step, f"{kind} lists a move twice")

    def check_refuse(self, step: dict, body: Any, n: int, deck: list[str]) -> None:
        """A malformed move (``code: bad_request``) needs only its player and action; any other
        refusal is a well-formed move citing a rule the case lists."""
        if step.get("code") == "bad_request":
            if not isinstance(body, dict) or "player" not in body or "action" not in body:
                self.err(step, "a refused move still needs 'player' and 'action'")
            return
        self.check_move(step, body, n, deck, "refuse")
        rule = step.get("rule")
        if rule is None:
            self.err(step, "refuse needs 'rule': the rule ID the engine must cite")
        elif rule not in self.register:
            self.err(step, f"refuse cites unknown rule {rule!r}")
        elif rule not in (self.case.get("rules") or []):
            self.err(step, f"refuse cites {rule}, which the case's 'rules' does not list")

    def check_expect(self, step: dict, body: Any) -> None:
        if not isinstance(body, dict):
            self.err(step, "expect must map JSON pointers to values")
            return
        for ptr in body:
            if ptr != LINE and not (isinstance(ptr, str) and ptr.startswith("/")):
                self.err(step, f"expect key {ptr!r} is not a JSON pointer")

    def check_observe(self, step: dict, n: int) -> None:
        body = step["observe"]
        player = body.get("player") if isinstance(body, dict) else None
        if "code" in step:  # a request the engine must refuse: nothing is observed
            if step["code"] != "bad_request":
                self.err(step, "observe: code must be bad_request (a malformed request, P-26)")
            if any(key in step for key in ("expect", "absent", "hides_unseen")):
                self.err(step, "observe with code has no expect, absent or hides_unseen")
            if not isinstance(player, int) or 0 <= player < n:
                self.err(step, f"observe with code: player {player!r} is a seat; a refused "
                               f"observe asks for a seat the game lacks (0..{n - 1} are seats)")
            return
        if not isinstance(player, int) or not 0 <= player < n:
            self.err(step, f"observe: player {player!r} is not a seat 0..{n - 1}")
        expect, absent = step.get("expect"), step.get("absent")
        if expect is None and absent is None:
            self.err(step, "observe needs expect (what the player sees) and/or absent (what not)")
        if expect is not None and not isinstance(expect, dict):
            self.err(step, "observe: expect must map JSON pointers to values")
        pointers = [k for k in (expect or {}) if k != LINE] if isinstance(expect, dict) else []
        if absent is not None:
            if not isinstance(absent, list) or not absent:
                self.err(step, "observe: absent must be a non-empty list of JSON pointers")
            else:
                pointers += absent
                both = set(absent) & set(expect or {})
                if both:
                    self.err(step, f"observe: {sorted(both)} both expected and absent")
        for ptr in pointers:
            if not isinstance(ptr, str) or not POINTER_RE.match(ptr) or not ptr:
                self.err(step, f"observe: {ptr!r} is not a JSON pointer into the observation")


def move_key(mv: Any) -> str:
    """A move's identity for spotting one listed twice (its cards in canonical order)."""
    if not isinstance(mv, dict):
        return repr(mv)
    m = {k: v for k, v in mv.items() if k != LINE}
    if isinstance(m.get("cards"), list):
        m["cards"] = sorted(
            m["cards"], key=lambda c: card_key(c) if CARD_RE.match(str(c)) else (9, 9, 9)
        )
    return repr(sorted(m.items()))


def check_all(paths: list[Path] | None = None) -> tuple[list[Problem], list[dict]]:
    """Every problem in the fixture files, and every case (line marks stripped)."""
    register, options = load_register(), load_options()
    problems: list[Problem] = []
    cases: list[dict] = []
    first_seen: dict[str, Problem] = {}
    for path in fixture_files(paths):
        try:
            file_cases = load_cases(path)
        except (yaml.YAMLError, ValueError) as exc:
            problems.append(Problem(path, 0, "-", f"cannot load: {exc}"))
            continue
        problems += schema_problems(path)
        for case in file_cases:
            checker = CaseChecker(path, case, register, options)
            problems += checker.run()
            cid = checker.cid
            here = Problem(path, line_of(case), cid, "")
            if cid in first_seen:
                first = first_seen[cid]
                problems.append(
                    Problem(
                        path,
                        here.line,
                        cid,
                        f"duplicate id (first at {first.path.name}:{first.line})",
                    )
                )
            else:
                first_seen[cid] = here
            cases.append(strip_lines(case) | {"__file__": str(path)})
    return problems, cases
