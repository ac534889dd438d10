"""Static checks and authoring aids for the YAML fixture hands in ``conformance/fixtures``.

Why this exists: fixture cases are written by hand, and a hand-written mid-game state is easy to get
wrong (a card twice, a card missing, an unsorted hand). These checks need no engine and no runner, so
they catch a broken case before any engine sees it. They read the contract (docs/architecture.md) and
spec/rules.md for the rule-ID register and the option table, so they stay in step with the spec.

Usage:
  python tools/check_fixtures.py check [PATH ...]          # all checks; exit 1 on any problem
  python tools/check_fixtures.py rest --deck-size 36 CARD...          # the cards not named
  python tools/check_fixtures.py deal --players N --dealer D [--deal-order ...] [--trump-card ...] DECK...
  python tools/check_fixtures.py build --dealer D [--deal-order ...] --hands "C C ..." ... --trump C [--talon "C ..."]

``deal`` shows who holds what after the canonical deal of the contract; ``build`` does the reverse
(a deck order that deals the given hands). Both are this file's own reading of the contract, written
independently of any engine, and only help an author work out positions by hand.

The card notation, canonical deck and portable shuffle come from the judge's side
(:mod:`conformance.contract.cards`, :mod:`conformance.contract.shuffle`), never from the reference engine, so these
checks stay independent of the engine that the fixtures judge, and the checker and the runner read
the cards the same way.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from conformance.contract.cards import CARD_RE, card_key
from conformance.contract.cards import deck as full_deck
from conformance.contract.shuffle import shuffle

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "conformance" / "fixtures"

CASE_ID_RE = re.compile(r"^[a-z0-9-]+$")
RULE_ID_RE = re.compile(r"\bR-[A-Z]+-\d+\b")
ACTIONS = {
    "attack": {"cards"},
    "throw_in": {"card"},
    "beat": {"target", "card"},
    "take": set(),
    "pass": set(),
    "transfer": {"cards"},
    "show_trump": {"card"},
}
STEP_KINDS = {"legal", "legal_includes", "legal_excludes", "move", "refuse", "expect", "result",
              "observe"}
CASE_FIELDS_REQUIRED = ("id", "description", "rules", "ruleset", "players", "start", "steps")
CASE_FIELDS_ALLOWED = set(CASE_FIELDS_REQUIRED) | {"options", "start_refused"}
POINTER_RE = re.compile(r"^(/([^~]|~[01])*)*$")
SCHEMA = ROOT / "spec" / "schema" / "fixture.schema.json"
STATE_FIELDS = ("version", "ruleset", "dealer", "trump", "talon", "discard", "players", "table",
                "bout", "finished", "result")
BOUT_FIELDS = ("number", "attacker", "defender", "opener", "passed", "taking", "first_defence",
               "shown", "emptied")


# ---------------------------------------------------------------- cards


def is_sorted(cards: list[str]) -> bool:
    return [card_key(c) for c in cards] == sorted(card_key(c) for c in cards)


# ---------------------------------------------------------------- contract


def load_register(root: Path = ROOT) -> set[str]:
    """Rule IDs of the contract's register plus any defined in spec/rules.md."""
    ids: set[str] = set()
    arch = (root / "docs" / "architecture.md").read_text(encoding="utf-8")
    for line in arch.splitlines():
        m = re.match(r"^\|\s*(R-[A-Z]+-\d+)\s*\|", line)
        if m:
            ids.add(m.group(1))
    rules = root / "spec" / "rules.md"
    if rules.exists():
        for line in rules.read_text(encoding="utf-8").splitlines():
            # a rule is defined where its ID opens a heading or a list/bold item
            m = re.match(r"^\s*(?:#+\s*|[-*]\s*|\*\*|\|\s*)\**\s*(R-[A-Z]+-\d+)\b", line)
            if m:
                ids.add(m.group(1))
    return ids


def load_options(root: Path = ROOT) -> dict[str, tuple[list[str], str]]:
    """Option name -> (values, podkidnoy default) from the contract's option table."""
    opts: dict[str, tuple[list[str], str]] = {}
    arch = (root / "docs" / "architecture.md").read_text(encoding="utf-8")
    for line in arch.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[1].startswith("`"):
            continue
        name = cells[1].strip("`")
        values = re.findall(r"`([^`]+)`", cells[2])
        default = cells[3].strip("`")
        opts[name] = (values, default)
    return opts


def load_preset(name: str, root: Path = ROOT) -> dict[str, str] | None:
    """A named ruleset's option values from spec/rulesets/<name>.yaml, or None if not there yet."""
    path = root / "spec" / "rulesets" / f"{name}.yaml"
    if not path.exists():
        return None
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        return {}
    out: dict[str, str] = {}
    if data.get("preset"):  # a ruleset defined as another preset plus overrides
        out.update(load_preset(str(data["preset"]), root) or {})
    for key in ("options", "overrides"):
        for k, v in (data.get(key) or {}).items():
            out[str(k)] = option_str(v)
    return out


def option_str(value: Any) -> str:
    """An option value as text; YAML 1.1 readers turn bare on/off into booleans."""
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value)


def effective_options(ruleset: Any, root: Path = ROOT) -> dict[str, str]:
    """Every option's value for a case's ruleset: defaults, then the preset, then overrides."""
    table = load_options(root)
    opts = {k: v[1] for k, v in table.items()}
    if isinstance(ruleset, str):
        ruleset = {"preset": ruleset}
    if not isinstance(ruleset, dict):
        return opts
    preset = ruleset.get("preset")
    if preset:
        values = load_preset(preset, root)
        if values:
            opts.update({k: v for k, v in values.items() if k in opts})
    for k, v in (ruleset.get("overrides") or {}).items():
        opts[str(k)] = option_str(v)
    if "options" in ruleset and isinstance(ruleset["options"], dict):
        opts.update({str(k): str(v) for k, v in ruleset["options"].items()})
    return opts


# ---------------------------------------------------------------- loading


class Loader(yaml.SafeLoader):
    """Safe loader that records the line of every mapping (for error messages)."""


def _construct_mapping(loader: Loader, node: yaml.MappingNode) -> dict:
    mapping = yaml.SafeLoader.construct_mapping(loader, node, deep=True)
    mapping["__line__"] = node.start_mark.line + 1
    return mapping


Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def strip_lines(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: strip_lines(v) for k, v in obj.items() if k != "__line__"}
    if isinstance(obj, list):
        return [strip_lines(v) for v in obj]
    return obj


def load_cases(path: Path) -> list[dict]:
    """The cases of one fixture file (with ``__line__`` marks)."""
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)
    if isinstance(data, dict) and "cases" in data:
        cases = data["cases"]
        if not isinstance(cases, list):
            raise ValueError(f"{path}: 'cases' must be a list")
        return cases
    if isinstance(data, dict):
        return [data]
    raise ValueError(f"{path}: a fixture file holds one case (a mapping) or 'cases:' (a list)")


# ---------------------------------------------------------------- checks


@dataclass
class Problem:
    path: Path
    line: int
    case: str
    message: str

    def __str__(self) -> str:
        try:
            rel = self.path.relative_to(ROOT)
        except ValueError:
            rel = self.path
        return f"{rel}:{self.line}: [{self.case}] {self.message}"


class CaseChecker:
    """Checks one case against the contract; collects problems instead of stopping at the first."""

    def __init__(self, path: Path, case: dict, register: set[str], options: dict) -> None:
        self.path, self.case, self.register, self.options = path, case, register, options
        self.problems: list[Problem] = []
        self.cid = str(case.get("id", "?")) if isinstance(case, dict) else "?"

    def err(self, node: Any, message: str) -> None:
        line = node.get("__line__", 0) if isinstance(node, dict) else 0
        if not line and isinstance(self.case, dict):
            line = self.case.get("__line__", 0)
        self.problems.append(Problem(self.path, line, self.cid, message))

    def run(self) -> list[Problem]:
        case = self.case
        if not isinstance(case, dict):
            self.err({}, "a case must be a mapping")
            return self.problems
        refused = case.get("start_refused")
        for f in CASE_FIELDS_REQUIRED:
            if f not in case and not (f == "steps" and refused is not None):
                self.err(case, f"missing field '{f}' (see the fixture format in docs/architecture.md)")
        for f in case:
            if f != "__line__" and f not in CASE_FIELDS_ALLOWED:
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
        self.check_ruleset()
        n = case.get("players")
        low, high = (1, 9) if refused is not None else (2, 8)
        if not isinstance(n, int) or not low <= n <= high:
            self.err(case, f"players must be an integer {low}..{high}, got {n!r}")
            return self.problems
        opts = effective_options(case.get("ruleset"))
        deck = full_deck(int(opts["deck_size"]), int(opts["decks"]))
        team_size = {"2v2": 4, "3v3": 6, "2v2v2": 6}.get(opts.get("teams", "none"))
        legal = 2 <= n <= min(8, len(deck) // 6) and team_size in (None, n)
        if refused is not None:
            self.check_refused(refused, n, legal)
        elif not legal:
            self.err(case, f"{n} players cannot play with {len(deck)} cards and teams "
                           f"{opts.get('teams')} (R-DECK-4); a case showing that needs start_refused")
        self.check_start(case.get("start"), n, deck, opts)
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

    def check_refused(self, refused: Any, n: int, legal: bool) -> None:
        """start_refused: {code: bad_request, rule?}; a count R-DECK-4 allows is no R-DECK-4 case."""
        if not isinstance(refused, dict) or refused.get("code") != "bad_request":
            self.err(self.case, "start_refused must be {code: bad_request, rule: R-...}")
            return
        rule = refused.get("rule")
        if rule is not None and rule not in self.register:
            self.err(refused, f"start_refused cites unknown rule {rule!r}")
        if rule == "R-DECK-4" and legal:
            self.err(refused, f"start_refused cites R-DECK-4 but {n} players are allowed here")
        start = self.case.get("start")
        if isinstance(start, dict) and "state" in start:
            self.err(start, "a refused start is a deck or a seed for new_game, not a state")

    def check_ruleset(self) -> None:
        case = self.case
        rs = case.get("ruleset")
        if isinstance(rs, str):
            rs = {"preset": rs}
        if not isinstance(rs, dict) or "preset" not in rs:
            self.err(case, "ruleset must be {preset: NAME, overrides: {...}}")
            return
        rulesets = ROOT / "spec" / "rulesets"
        if rulesets.exists() and any(rulesets.iterdir()) and load_preset(rs["preset"]) is None:
            self.err(case, f"unknown preset {rs['preset']!r} (no spec/rulesets/{rs['preset']}.yaml)")
        for k, v in (rs.get("overrides") or {}).items():
            if k == "__line__":
                continue
            self.check_option(k, v)
        eff = effective_options(rs)
        for k, v in (case.get("options") or {}).items():
            if k == "__line__":
                continue
            self.check_option(k, v)
            if k in eff and str(eff[k]) != str(v):
                self.err(case, f"options says {k}={v} but the ruleset gives {k}={eff[k]}; "
                               "override it in ruleset.overrides")

    def check_option(self, name: str, value: Any) -> None:
        if isinstance(value, bool):
            self.err(self.case, f"option {name}: quote \"on\"/\"off\" (YAML 1.1 readers load them as booleans)")
        elif name not in self.options:
            self.err(self.case, f"unknown option {name!r}")
        elif str(value) not in self.options[name][0]:
            self.err(self.case, f"option {name}={value!r} is not one of {self.options[name][0]}")

    def check_cards(self, node: Any, cards: Any, where: str, deck: list[str]) -> list[str]:
        if not isinstance(cards, list):
            self.err(node, f"{where} must be a list of cards")
            return []
        out = []
        for c in cards:
            if not isinstance(c, str) or not CARD_RE.match(c):
                self.err(node, f"{where}: {c!r} is not a card (rank 2-9TJQKA, suit CDHS, copy '2')")
            elif c not in deck:
                self.err(node, f"{where}: {c} is not in this ruleset's deck")
            else:
                out.append(c)
        return out

    def check_start(self, start: Any, n: int, deck: list[str], opts: dict) -> None:
        if not isinstance(start, dict):
            self.err(self.case, "start must be a mapping: {state: ...}, {deck: [...], dealer: d} or {seed: n}")
            return
        keys = {k for k in start if k != "__line__"}
        if "state" in keys:
            self.check_state(start["state"], n, deck, opts)
        elif "deck" in keys:
            cards = self.check_cards(start, start["deck"], "start.deck", deck)
            if Counter(cards) != Counter(deck):
                missing = sorted(set(deck) - set(cards), key=card_key)
                dup = [c for c, k in Counter(cards).items() if k > 1]
                self.err(start, f"start.deck must hold the {len(deck)}-card deck once each; "
                                f"missing {missing}, repeated {dup}")
            d = start.get("dealer")
            if d is not None and not (isinstance(d, int) and 0 <= d < n):
                self.err(start, f"start.dealer {d!r} is not a seat 0..{n - 1}")
        elif "seed" in keys:
            if not isinstance(start["seed"], int) or start["seed"] < 0:
                self.err(start, "start.seed must be an unsigned integer")
        else:
            self.err(start, "start needs 'state', 'deck' or 'seed'")
        allowed = {"state"} if "state" in keys else {"deck", "seed", "dealer", "previous"}
        for k in keys - allowed:
            self.err(start, f"unknown key start.{k}")

    def check_state(self, st: Any, n: int, deck: list[str], opts: dict) -> None:
        if not isinstance(st, dict):
            self.err(self.case, "start.state must be a mapping")
            return
        for f in STATE_FIELDS:
            if f not in st:
                self.err(st, f"state is missing '{f}'")
        players = st.get("players") or []
        if len(players) != n:
            self.err(st, f"state has {len(players)} players, case says {n}")
        seen: list[str] = []
        for i, p in enumerate(players):
            hand = self.check_cards(p, p.get("hand"), f"players[{i}].hand", deck)
            if not is_sorted(hand):
                self.err(p, f"players[{i}].hand is not sorted canonically: {hand}")
            known = self.check_cards(p, p.get("known", []), f"players[{i}].known", deck)
            if not is_sorted(known):
                self.err(p, f"players[{i}].known is not sorted canonically")
            if not set(known) <= set(hand):
                self.err(p, f"players[{i}].known holds cards not in the hand: {set(known) - set(hand)}")
            team = p.get("team", "missing")
            want_team = team_of(i, opts.get("teams", "none"))
            if team != want_team:
                self.err(p, f"players[{i}].team is {team!r}; teams={opts.get('teams')} gives {want_team!r}")
            seen += hand
        talon = self.check_cards(st, st.get("talon"), "talon", deck)
        discard = self.check_cards(st, st.get("discard"), "discard", deck)
        table_cards = []
        for j, pair in enumerate(st.get("table") or []):
            table_cards += self.check_cards(pair, [pair.get("attack")], f"table[{j}].attack", deck)
            if pair.get("defence") is not None:
                table_cards += self.check_cards(pair, [pair.get("defence")], f"table[{j}].defence", deck)
            by = pair.get("by")
            if not isinstance(by, int) or not 0 <= by < n:
                self.err(pair, f"table[{j}].by must be a seat")
        if len(discard) % 2:
            self.err(st, f"the discard pile holds {len(discard)} cards; only beaten pairs are discarded, "
                         "so a reachable pile has an even count")
        seen += talon + discard + table_cards
        counts = Counter(seen)
        missing = sorted(set(deck) - set(counts), key=card_key)
        dup = sorted((c for c, k in counts.items() if k > 1), key=card_key)
        if missing or dup:
            self.err(st, f"cards not conserved ({len(seen)} placed, deck {len(deck)}): "
                         f"missing {missing}, repeated {dup}")
        trump = st.get("trump")
        if not isinstance(trump, str) or trump not in deck:
            self.err(st, f"trump {trump!r} is not a card of the deck")
        elif talon and talon[-1] != trump:
            self.err(st, f"the trump card {trump} must be the talon's last card while the talon is not empty")
        dealer = st.get("dealer")
        if not (isinstance(dealer, int) and 0 <= dealer < n):
            self.err(st, f"dealer {dealer!r} is not a seat")
        bout = st.get("bout")
        if st.get("result") is None and isinstance(bout, dict):
            for f in BOUT_FIELDS:
                if f not in bout:
                    self.err(bout, f"bout is missing '{f}'")
            for f in ("attacker", "defender", "opener"):
                v = bout.get(f)
                if not (isinstance(v, int) and 0 <= v < n):
                    self.err(bout, f"bout.{f} {v!r} is not a seat")
            if bout.get("attacker") == bout.get("defender"):
                self.err(bout, "bout.attacker and bout.defender are the same seat")
            for f in ("passed", "emptied"):
                if not isinstance(bout.get(f), list):
                    self.err(bout, f"bout.{f} must be a list")
            if bout.get("passed") != sorted(bout.get("passed") or []):
                self.err(bout, "bout.passed must be sorted")
            fd = bout.get("first_defence")
            defences = [p.get("defence") for p in (st.get("table") or []) if p.get("defence")]
            if fd is not None and fd not in defences:
                self.err(bout, f"bout.first_defence {fd} is not a defence card on the table")
            if fd is None and defences:
                self.err(bout, "bout.first_defence is null but the table holds a defence card")
        elif st.get("result") is None:
            self.err(st, "a game in progress needs a bout")
        finished = st.get("finished")
        if not isinstance(finished, list):
            self.err(st, "finished must be a list")
        else:
            for s in finished:
                if isinstance(s, int) and 0 <= s < len(players) and players[s].get("hand"):
                    self.err(st, f"seat {s} is in 'finished' but still holds cards")

    def check_move(self, node: Any, mv: Any, n: int, deck: list[str], where: str) -> None:
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
        fields = {k for k in mv if k not in ("player", "action", "__line__")}
        if fields != ACTIONS[action]:
            self.err(node, f"{where}: {action} takes fields {sorted(ACTIONS[action])}, got {sorted(fields)}")
        for f in ("card", "target"):
            if f in mv:
                self.check_cards(node, [mv[f]], f"{where}.{f}", deck)
        if "cards" in mv:
            cards = mv["cards"] if isinstance(mv["cards"], list) else [mv["cards"]]
            self.check_cards(node, cards, f"{where}.cards", deck)

    def check_step(self, step: Any, n: int, deck: list[str]) -> None:
        if not isinstance(step, dict):
            self.err(self.case, "a step must be a mapping")
            return
        kinds = [k for k in step if k in STEP_KINDS]
        companions = ("rule", "code", "__line__", "note")
        if "observe" in kinds:  # an observe step carries its own expect and absent
            kinds = [k for k in kinds if k != "expect"]
            companions += ("expect", "absent")
        extra = [k for k in step if k not in STEP_KINDS and k not in companions]
        if len(kinds) != 1 or extra:
            self.err(step, f"a step holds exactly one of {sorted(STEP_KINDS)} (got {sorted(step)})")
            return
        kind = kinds[0]
        body = step[kind]
        if kind in ("legal", "legal_includes", "legal_excludes"):
            if not isinstance(body, list):
                self.err(step, f"{kind} must be a list of moves")
                return
            keys = []
            for mv in body:
                self.check_move(step, mv, n, deck, kind)
                keys.append(move_key(mv))
            if len(set(keys)) != len(keys):
                self.err(step, f"{kind} lists a move twice")
        elif kind == "refuse" and step.get("code") == "bad_request":
            if not isinstance(body, dict) or "player" not in body or "action" not in body:
                self.err(step, "a refused move still needs 'player' and 'action'")
        elif kind in ("move", "refuse"):
            self.check_move(step, body, n, deck, kind)
            if kind == "refuse":
                rule = step.get("rule")
                if rule is None and step.get("code") != "bad_request":
                    self.err(step, "refuse needs 'rule': the rule ID the engine must cite")
                elif rule is None:
                    pass
                elif rule not in self.register:
                    self.err(step, f"refuse cites unknown rule {rule!r}")
                elif rule not in (self.case.get("rules") or []):
                    self.err(step, f"refuse cites {rule}, which the case's 'rules' does not list")
        elif kind == "expect":
            if not isinstance(body, dict):
                self.err(step, "expect must map JSON pointers to values")
                return
            for ptr in body:
                if ptr != "__line__" and not (isinstance(ptr, str) and ptr.startswith("/")):
                    self.err(step, f"expect key {ptr!r} is not a JSON pointer")
        elif kind == "observe":
            self.check_observe(step, n)
        elif kind == "result" and body is not None and not isinstance(body, dict):
            self.err(step, "result must be a mapping of result fields, or null (the game must "
                           "still be going; docs/architecture.md, Fixtures)")
        if kind != "refuse" and ("rule" in step or "code" in step):
            self.err(step, "'rule' and 'code' belong to a refuse step")


    def check_observe(self, step: dict, n: int) -> None:
        body = step["observe"]
        player = body.get("player") if isinstance(body, dict) else None
        if not isinstance(player, int) or not 0 <= player < n:
            self.err(step, f"observe: player {player!r} is not a seat 0..{n - 1}")
        expect, absent = step.get("expect"), step.get("absent")
        if expect is None and absent is None:
            self.err(step, "observe needs expect (what the player sees) and/or absent (what not)")
        if expect is not None and not isinstance(expect, dict):
            self.err(step, "observe: expect must map JSON pointers to values")
        pointers = [k for k in (expect or {}) if k != "__line__"] if isinstance(expect, dict) else []
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


def team_of(seat: int, teams: str) -> int | None:
    return {"none": None, "2v2": seat % 2, "3v3": seat % 2, "2v2v2": seat % 3}.get(teams)


def move_key(mv: Any) -> str:
    if not isinstance(mv, dict):
        return repr(mv)
    m = {k: v for k, v in mv.items() if k != "__line__"}
    if isinstance(m.get("cards"), list):
        m["cards"] = sorted(m["cards"], key=lambda c: card_key(c) if CARD_RE.match(str(c)) else (9, 9, 9))
    return repr(sorted(m.items()))


def fixture_files(paths: list[Path] | None = None) -> list[Path]:
    if not paths:
        paths = [FIXTURES]
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out += sorted(p.rglob("*.yaml")) + sorted(p.rglob("*.yml"))
        else:
            out.append(p)
    return out


def schema_problems(path: Path) -> list[Problem]:
    """Problems found by spec/schema/fixture.schema.json (skipped while the schema is not there)."""
    if not SCHEMA.exists():
        return []
    import json

    import jsonschema

    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    out = []
    for e in sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path)):
        pointer = "/" + "/".join(str(x) for x in e.absolute_path)
        out.append(Problem(path, 0, "-", f"schema: at {pointer}: {e.message[:300]}"))
    return out


def check_all(paths: list[Path] | None = None) -> tuple[list[Problem], list[dict]]:
    """Every problem in the fixture files, and every case (line marks stripped)."""
    register, options = load_register(), load_options()
    problems: list[Problem] = []
    cases: list[dict] = []
    where: dict[str, Problem] = {}
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
            here = Problem(path, case.get("__line__", 0) if isinstance(case, dict) else 0, cid, "")
            if cid in where:
                first = where[cid]
                problems.append(Problem(path, here.line, cid,
                                        f"duplicate id (first at {first.path.name}:{first.line})"))
            else:
                where[cid] = here
            cases.append(strip_lines(case) | {"__file__": str(path)})
    return problems, cases


# ---------------------------------------------------------------- authoring aids


def deal(deck: list[str], n: int, dealer: int, deal_order: str = "one_at_a_time",
         trump_card: str = "after_deal") -> dict:
    """Hands, trump and talon after the canonical deal of the contract."""
    hands: list[list[str]] = [[] for _ in range(n)]
    for k in range(6 * n):
        seat = (dealer + 1 + (k if deal_order == "one_at_a_time" else k // 6)) % n
        hands[seat].append(deck[k])
    if 6 * n == len(deck):
        trump, talon = deck[-1], []
    elif trump_card == "after_deal":
        trump, talon = deck[6 * n], deck[6 * n + 1:] + [deck[6 * n]]
    else:
        trump, talon = deck[-1], deck[6 * n:]
    return {"hands": [sorted(h, key=card_key) for h in hands], "trump": trump, "talon": talon}


def build(hands: list[list[str]], trump: str, talon: list[str], dealer: int,
          deal_order: str = "one_at_a_time", trump_card: str = "after_deal") -> list[str]:
    """A deck order that deals ``hands``; ``talon`` excludes the trump card (drawn last)."""
    n = len(hands)
    deck: list[str | None] = [None] * (6 * n)
    queues = [sorted(h, key=card_key) for h in hands]
    no_talon = not talon and any(trump in h for h in hands)
    if no_talon:  # the trump is the last card dealt, which goes to the dealer
        queues[dealer].remove(trump)
        queues[dealer].append(trump)
    for k in range(6 * n):
        seat = (dealer + 1 + (k if deal_order == "one_at_a_time" else k // 6)) % n
        deck[k] = queues[seat].pop(0)
    if no_talon:
        return deck  # type: ignore[return-value]
    if trump_card == "after_deal":
        return deck + [trump] + talon  # type: ignore[operator]
    return deck + talon + [trump]  # type: ignore[operator]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("paths", nargs="*", type=Path)
    sh = sub.add_parser("shuffle", help="the deck order a seed gives (portable shuffle)")
    sh.add_argument("seed", type=int)
    sh.add_argument("--deck-size", type=int, default=36)
    sh.add_argument("--decks", type=int, default=1)
    r = sub.add_parser("rest", help="cards of the deck not named (to fill a discard pile)")
    r.add_argument("--deck-size", type=int, default=36)
    r.add_argument("--decks", type=int, default=1)
    r.add_argument("cards", nargs="*")
    for name in ("deal", "build"):
        s = sub.add_parser(name)
        s.add_argument("--dealer", type=int, required=True)
        s.add_argument("--deal-order", default="one_at_a_time")
        s.add_argument("--trump-card", default="after_deal")
        if name == "deal":
            s.add_argument("--players", type=int, required=True)
            s.add_argument("deck", nargs="+")
        else:
            s.add_argument("--hands", nargs="+", required=True, help="one quoted hand per seat")
            s.add_argument("--trump", required=True)
            s.add_argument("--talon", default="", help="talon cards in draw order, without the trump")
    args = ap.parse_args(argv)
    if args.cmd == "check":
        problems, cases = check_all(args.paths or None)
        for p in problems:
            print(p)
        print(f"{len(cases)} cases, {len(problems)} problems")
        return 1 if problems else 0
    if args.cmd == "shuffle":
        print("[" + ", ".join(shuffle(full_deck(args.deck_size, args.decks), args.seed)) + "]")
        return 0
    if args.cmd == "rest":
        named = set(" ".join(args.cards).replace(",", " ").split())
        rest = [c for c in full_deck(args.deck_size, args.decks) if c not in named]
        print(f"{len(rest)} cards: [" + ", ".join(rest) + "]")
        return 0
    if args.cmd == "deal":
        deck = " ".join(args.deck).replace(",", " ").split()
        d = deal(deck, args.players, args.dealer, args.deal_order, args.trump_card)
        for i, h in enumerate(d["hands"]):
            print(f"seat {i}: {' '.join(h)}")
        print(f"trump: {d['trump']}\ntalon: {' '.join(d['talon'])}")
        return 0
    hands = [h.split() for h in args.hands]
    deck = build(hands, args.trump, args.talon.split(), args.dealer, args.deal_order, args.trump_card)
    print("[" + ", ".join(deck) + "]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
