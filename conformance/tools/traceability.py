"""Two-way traceability between the spec and the suite: which cases show each rule and each option
value, and what the suite cites that the spec does not have.

The suite is only worth running if every rule of ``spec/rules.md`` is exercised both ways (an
engine that allows too much and one that forbids too much must each fail some case) and every
option value is played by a case where it matters. This module reads the YAML fixtures (through
:mod:`conformance.suite.loader`, the runner's own loader) and the Gherkin features (through pytest-bdd's
parser, the one that runs them), records what each case shows, and builds a coverage table. The
gate (``tests/trace``) fails on every gap it reports; ``tools/gen_coverage_doc.py`` renders it as
``docs/coverage.md``.

Definitions (docs/coverage.md repeats them):

- A **case** is a fixture case (its ``id``) or a Gherkin scenario; an outline counts once per
  Examples row (each row is a test of its own).
- A case **cites** a rule when the rule is in its ``rules:`` list (fixture) or an ``@R-...`` tag of
  its Feature, Rule or Scenario (feature), or when one of its refusals names it (fixture ``refuse``
  step ``rule:``, feature ``Then the move is refused citing R-...``).
- A case is **positive** for a rule it cites in ``rules:``/tags (it shows the rule allowing
  something) when it has a step that shows a move, a set-up or a sight being allowed: fixture
  ``move``, ``legal_includes``, a non-empty ``legal``, an ``observe`` step with ``expect`` (what
  the player may see), or a start from a ``deck`` or ``seed`` that is not ``start_refused`` (a
  new game the engine must set up); feature ``When`` move (or ``the players play:``)
  not refused, ``Then ... may <move>``, ``... may only ...``, ``only ... may move``, ``the legal
  moves are exactly:``, ``... sees ...``, or ``When the game is dealt`` not followed by ``the
  game cannot be set up``.
- A case is **negative** for a rule (it shows the rule forbidding something) when it has a refusal
  citing that rule (fixture ``refuse`` or ``start_refused`` with ``rule:``), or it cites the rule
  in ``rules:``/tags and has a step that shows something not allowed: fixture ``legal_excludes``,
  ``legal`` (an exact set shows what is missing from it too), or an ``observe`` step with
  ``absent`` (what the player must not see); feature ``... may not ...``, ``... has no move``,
  ``nobody may move``, ``... may only ...``, ``only ... may move``, ``the legal moves are
  exactly:``, ``the game cannot be set up``, or a sight denied (``... sees no ...``, ``... but not
  which``).
  A refusal counts only for the rule it names (a refusal citing R-PLAY-4 says nothing about the
  other rules of the case).
- A case **depends on** every rule it cites.
- A case **discriminates** ``option=value`` when its fixture ``options:`` mapping names that value,
  or (feature) an ``@opt:<option>=<value>`` tag on its Feature, Rule or Scenario names it, or one of
  its steps reads ``the option <option> is <value>`` (the way an outline puts an option value in an
  Examples column).

The gate:

- every rule needs a positive and a negative case, except the **descriptive rules** of
  :data:`DESCRIPTIVE` (spec/rules.md does not mark them; the list and its reasons live here), which
  need one case that depends on them;
- every option value of the catalog needs a discriminating case;
- no case may cite a rule ID that spec/rules.md lacks, or an option or value the catalog lacks; a
  fixture's ``options:`` must agree with the ruleset it plays (a case cannot discriminate a value
  it does not use); ``@opt`` tags on ``Examples`` (which pytest-bdd never applies) are refused;
- every fixture file and feature file must load: a file the gate cannot read hides its cases.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.suite import FIXTURES_DIR, PACKAGE_DIR
from conformance.tools.common_table import common_table_gaps, table_name, tables_summary

#: Rules that describe the game's material or records rather than permit or forbid anything, so no
#: case can show them forbidding: each needs one case that depends on it (issue 6: "a rule that
#: only describes (the deck, the ranks) needs one case that depends on it"). Every other rule
#: needs a positive and a negative case.
DESCRIPTIVE: dict[str, str] = {
    "R-DECK-1": "the composition of the deck: what cards exist, nothing a move can break",
    "R-DECK-2": "the rank order; moves that break it are refused under R-BEAT-1",
    "R-DECK-3": "the card notation and twins; a bad card is a bad_request, not a rule",
    "R-DECK-5": "each card in one place: an invariant of every state, checked by "
    "conformance/suite/invariants.py; no move is refused for it",
    "R-DEAL-2": "the deck order is an input: a determinism convention, nothing to refuse",
    "R-PLAY-6": "every state a complete position: the schema and the invariants of every state, "
    "checked by conformance/suite/invariants.py; no move is refused for it",
    "R-END-5": "no end by repetition: a game simply goes on; only a harness cap is asked for",
}
# R-INFO-1 and R-INFO-2 were descriptive until fixtures gained the observe step: an observation
# shows them allowing (expect: what a player sees) and forbidding (absent: what he must not see).

_RULE_HEADING = re.compile(r"^###\s+(R-[A-Z]+-\d+)\s*(.*)$", re.MULTILINE)
_RULE_ID = re.compile(r"^R-[A-Z]+-\d+$")
_OPT_TAG = re.compile(r"^opt:(?P<name>[^=\s]+)=(?P<value>\S+)$")
_OPTION_STEP = re.compile(r"^the option (?P<name>[A-Za-z_0-9]+) is (?P<value>\S+)$")
_REFUSED = re.compile(r"^the move is refused(?: citing (?P<rule>\S+))?$")

FIXTURE = "fixture"
FEATURE = "feature"

#: Kinds of problem: a file or scenario the gate cannot count; a citation the spec does not have;
#: a fixture whose ``options:`` disagree with the ruleset it plays.
UNREADABLE = "unreadable"
UNKNOWN = "unknown"
INCONSISTENT = "inconsistent"


# ------------------------------------------------------------------------------------- the spec


@dataclass(frozen=True)
class SpecIndex:
    """What the suite may cite: the rule IDs (in spec order, with titles), the option values of
    the catalog (as strings, in catalog order) with their defaults, and the descriptive rules."""

    rules: dict[str, str]
    options: dict[str, tuple[str, ...]]
    defaults: dict[str, str] = field(default_factory=dict)
    descriptive: Mapping[str, str] = field(default_factory=lambda: dict(DESCRIPTIVE))

    @classmethod
    def load(cls, rules_md: Path | None = None) -> SpecIndex:
        """The spec's register (``### R-...`` headings of rules.md) and the option catalog."""
        from reference_impl import specdata
        from reference_impl.rulesets import catalog_options

        path = rules_md or specdata.rules_path()
        rules = rules_from_markdown(path.read_text(encoding="utf-8"))
        if not rules:
            raise ValueError(f"{path}: no '### R-AREA-n Title' headings; is this the rulebook?")
        table = catalog_options()
        return cls(
            rules=rules,
            options={name: tuple(str(v) for v in spec["values"]) for name, spec in table.items()},
            defaults={name: str(spec["default"]) for name, spec in table.items()},
        )

    def needs_both(self, rule: str) -> bool:
        return rule not in self.descriptive


def rules_from_markdown(text: str) -> dict[str, str]:
    """``{rule ID: title}`` from the ``### R-AREA-n Title`` headings, in document order."""
    return {m.group(1): m.group(2).strip() for m in _RULE_HEADING.finditer(text)}


# ------------------------------------------------------------------------------ what a case shows


@dataclass(frozen=True)
class Problem:
    """Something the gate refuses: where (file:line, case) and what to do."""

    where: str
    message: str
    kind: str = UNKNOWN

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class CaseTrace:
    """What one case shows: the rules it cites, allows, forbids; the option values it plays."""

    id: str
    source: str  # FIXTURE or FEATURE
    where: str
    cites: set[str] = field(default_factory=set)
    positive: set[str] = field(default_factory=set)
    negative: set[str] = field(default_factory=set)
    options: dict[str, str] = field(default_factory=dict)
    #: the table it plays at (:func:`conformance.tools.common_table.table_name`), or None when unknown
    table: str | None = None


def _display_path(path: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return Path(path).resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return Path(path).as_posix()


def fixture_traces(
    paths: Iterable[Path | str], spec: SpecIndex, root: Path | None = None
) -> tuple[list[CaseTrace], list[Problem]]:
    """Trace every fixture case under ``paths``; files or cases that do not load are problems."""
    from conformance.suite.loader import load_paths

    cases, load_problems = load_paths(paths)
    problems = [
        Problem(
            f"{_display_path(p.path, root)}:{p.line}",
            f"cannot be read, so the gate cannot count it: {p.message}",
            UNREADABLE,
        )
        for p in load_problems
    ]
    traces = []
    for case in cases:
        where = f"{_display_path(case.path, root)}:{case.line} ({case.id})"
        trace = CaseTrace(case.id, FIXTURE, where, table=table_name(case.players, case.ruleset))
        listed = {rule for rule in case.rules if _check_rule(rule, spec, where, "rules:", problems)}
        trace.cites |= listed
        kinds = [step.kind for step in case.steps]
        refused = getattr(case, "start_refused", None)
        # a new game the engine must set up (not one it must refuse)
        dealt = ("deck" in case.start or "seed" in case.start) and refused is None
        observes = [step for step in case.steps if step.kind == "observe"]
        if (
            dealt
            or "move" in kinds
            or "legal_includes" in kinds
            or any(step.kind == "legal" and step.body for step in case.steps)
            or any("expect" in step.data for step in observes)
        ):
            trace.positive |= listed
        if (
            "legal_excludes" in kinds
            or "legal" in kinds
            or any("absent" in step.data for step in observes)
        ):
            trace.negative |= listed
        refused_rule = (refused or {}).get("rule")
        if refused_rule is not None and _check_rule(
            refused_rule, spec, where, "start_refused rule:", problems
        ):
            trace.cites.add(refused_rule)
            trace.negative.add(refused_rule)
        for step in case.steps:
            if step.kind == "refuse" and "rule" in step.data:
                rule = step.data["rule"]
                step_where = f"{_display_path(case.path, root)}:{step.line} ({case.id})"
                if _check_rule(rule, spec, step_where, "refuse ... rule:", problems):
                    trace.cites.add(rule)
                    trace.negative.add(rule)
        for name, value in case.options.items():
            if _check_option(str(name), str(value), spec, where, "options:", problems):
                trace.options[str(name)] = str(value)
        problems += _options_against_ruleset(case, trace.options, where)
        traces.append(trace)
    return traces, problems


def _options_against_ruleset(case: Any, options: dict[str, str], where: str) -> list[Problem]:
    """A case cannot discriminate a value it does not play: ``options:`` must match its ruleset."""
    if not options:
        return []
    from reference_impl.rulesets import resolve_ruleset

    try:
        played = resolve_ruleset(case.ruleset)["options"]
    except (ValueError, TypeError, KeyError) as exc:  # the runner reports the ruleset itself
        return [
            Problem(
                where,
                f"its ruleset cannot be resolved ({exc}), so options: is unproven",
                INCONSISTENT,
            )
        ]
    out = []
    for name, value in options.items():
        if name in played and str(played[name]) != value:
            out.append(
                Problem(
                    where,
                    f"options: says {name}={value} but its ruleset plays {name}="
                    f"{played[name]}; put the value in ruleset.overrides or fix options:",
                    INCONSISTENT,
                )
            )
    return out


def _check_rule(rule: Any, spec: SpecIndex, where: str, how: str, problems: list[Problem]) -> bool:
    if isinstance(rule, str) and rule in spec.rules:
        return True
    problems.append(
        Problem(where, f"{how} cites {rule!r}, which is not a rule ID of spec/rules.md")
    )
    return False


def _check_option(
    name: str, value: str, spec: SpecIndex, where: str, how: str, problems: list[Problem]
) -> bool:
    if name not in spec.options:
        problems.append(
            Problem(
                where,
                f"{how} names option {name!r}, which the catalog (spec/ambiguities.yaml)"
                " does not have",
            )
        )
        return False
    if value not in spec.options[name]:
        values = ", ".join(spec.options[name])
        problems.append(
            Problem(where, f"{how} names {name}={value}, not a value of {name} ({values})")
        )
        return False
    return True


# ------------------------------------------------------------------------------------ features

#: Then steps, checked in this order: (pattern, allows, forbids). The texts are those of the
#: rulebook's step definitions (conformance/bdd/steps.py).
_THEN_KINDS: tuple[tuple[re.Pattern[str], bool, bool], ...] = (
    (re.compile(r"^nobody may move$"), False, True),
    (re.compile(r"^only .+ may move$"), True, True),
    (re.compile(r"^the legal moves are exactly:?$"), True, True),
    (re.compile(r"^.+ may only .+$"), True, True),
    (re.compile(r"^.+ (?:has no move|may not move)$"), False, True),
    (re.compile(r"^.+ may not .+$"), False, True),
    (re.compile(r"^.+ may .+$"), True, False),
    (re.compile(r"^the game cannot be set up$"), False, True),
    (re.compile(r"^.+ sees (?:no .+|.+ but not which)$"), False, True),
    (re.compile(r"^.+ sees .+$"), True, False),
)
_DEALT = "the game is dealt"
_CANNOT_SET_UP = "the game cannot be set up"


def feature_traces(
    paths: Iterable[Path | str], spec: SpecIndex, root: Path | None = None
) -> tuple[list[CaseTrace], list[Problem]]:
    """Trace every scenario (outline rows one by one) of the ``.feature`` files under ``paths``."""
    from pytest_bdd.exceptions import GherkinParseError
    from pytest_bdd.parser import FeatureParser

    traces: list[CaseTrace] = []
    problems: list[Problem] = []
    for path in _feature_files(paths):
        shown = _display_path(path, root)
        try:
            feature = FeatureParser(str(path.parent), path.name).parse()
        except (GherkinParseError, OSError, UnicodeDecodeError) as exc:  # text names the line
            problems.append(
                Problem(shown, f"cannot be parsed, so the gate cannot count it: {exc}", UNREADABLE)
            )
            continue
        problems += _hidden_scenarios(path, shown, feature)
        for template in feature.scenarios.values():
            traces += _template_traces(path, shown, feature, template, spec, problems)
    return traces, problems


_SCENARIO_LINE = re.compile(
    r"^\s*(?:Scenario|Scenario Outline|Scenario Template|Example):\s*(.*?)\s*$"
)


def _hidden_scenarios(path: Path, shown: str, feature: Any) -> list[Problem]:
    """pytest-bdd keys a feature's scenarios by name, so a second scenario of the same name
    replaces the first: the first is never run, and must not be counted either."""
    kept = {t.line_number for t in feature.scenarios.values()}
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        m = _SCENARIO_LINE.match(line)
        if m and number not in kept:
            out.append(
                Problem(
                    f"{shown}:{number}",
                    f"scenario {m[1]!r} is hidden by a later scenario of the same name "
                    "(pytest-bdd keeps one per name); rename one of them",
                    UNREADABLE,
                )
            )
    return out


def _feature_files(paths: Iterable[Path | str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        out += sorted(p.rglob("*.feature")) if p.is_dir() else [p]
    return out


def _template_traces(
    path: Path, shown: str, feature: Any, template: Any, spec: SpecIndex, problems: list[Problem]
) -> list[CaseTrace]:
    where = f"{shown}:{template.line_number}"
    tags = set(feature.tags) | set(template.tags)
    if template.rule is not None:
        tags |= set(template.rule.tags)
    cited: set[str] = set()
    tag_options: dict[str, str] = {}
    for tag in sorted(tags):
        if tag.startswith("R-"):
            if _check_rule(tag, spec, where, f"tag @{tag}", problems):
                cited.add(tag)
        elif tag.startswith("opt:"):
            m = _OPT_TAG.match(tag)
            if m is None:
                problems.append(Problem(where, f"tag @{tag} is not @opt:<option>=<value>"))
            elif _check_option(m["name"], m["value"], spec, where, f"tag @{tag}", problems):
                tag_options[m["name"]] = m["value"]
    for examples in template.examples:
        for tag in sorted(getattr(examples, "tags", ()) or ()):
            if tag.startswith(("opt:", "R-")):
                problems.append(
                    Problem(
                        f"{shown}:{examples.line_number}",
                        f"tag @{tag} on Examples is never applied by pytest-bdd; put it on the "
                        "Scenario, Rule or Feature, or set the option in a step",
                    )
                )
    contexts = [c for e in template.examples for c in e.as_contexts()] or [{}]
    rendered = [template.render(context) for context in contexts]
    names = [r.name for r in rendered]
    out = []
    for context, scenario in zip(contexts, rendered, strict=True):
        name = scenario.name
        if context and names.count(name) > 1:
            name += " [" + ", ".join(f"{k}={v}" for k, v in context.items()) + "]"
        trace = CaseTrace(f"{path.stem}: {name}", FEATURE, where, cites=set(cited))
        trace.options.update(tag_options)
        _trace_steps(scenario.steps, trace, cited, spec, where, problems)
        trace.table = _scenario_table(scenario.steps, trace.options)
        out.append(trace)
    return out


def _trace_steps(
    steps: Sequence[Any],
    trace: CaseTrace,
    cited: set[str],
    spec: SpecIndex,
    where: str,
    problems: list[Problem],
) -> None:
    allows = forbids = False
    for index, step in enumerate(steps):
        text = step.name.strip()
        step_where = f"{where} (line {step.line_number})"
        option = _OPTION_STEP.match(text)
        if option is not None:
            if _check_option(option["name"], option["value"], spec, step_where, "step", problems):
                trace.options[option["name"]] = option["value"]
            continue
        if step.type == "when":
            following = _then_block(steps, index)
            if text == _DEALT:
                allows |= _CANNOT_SET_UP not in following
            elif not any(_REFUSED.match(t) for t in following):
                allows = True  # an accepted move (or a played sequence, which must all pass)
            continue
        if step.type != "then":
            continue
        refused = _REFUSED.match(text)
        if refused is not None:
            rule = refused["rule"]
            if rule is not None and _check_rule(rule, spec, step_where, "refusal", problems):
                trace.cites.add(rule)
                trace.negative.add(rule)
            continue
        for pattern, yes, no in _THEN_KINDS:
            if pattern.match(text):
                allows |= yes
                forbids |= no
                break
    if allows:
        trace.positive |= cited
    if forbids:
        trace.negative |= cited


_GAME_STEP = re.compile(r"^a (?P<n>\d+)-player (?P<preset>[a-z_0-9-]+) game$")


def _scenario_table(steps: Sequence[Any], options: dict[str, str]) -> str | None:
    """The table a scenario plays at: its ``a N-player <preset> game`` step and its options."""
    for step in steps:
        m = _GAME_STEP.match(step.name.strip())
        if m is not None:
            return table_name(int(m["n"]), {"preset": m["preset"], "overrides": dict(options)})
    return None


def _then_block(steps: Sequence[Any], index: int) -> list[str]:
    """The texts of the Then steps right after the When step at ``index``."""
    out = []
    for step in steps[index + 1 :]:
        if step.type != "then":
            break
        out.append(step.name.strip())
    return out


# ------------------------------------------------------------------------------------ coverage


@dataclass
class RuleRow:
    rule: str
    title: str
    descriptive: bool
    positive: list[str]
    negative: list[str]
    cases: list[str]

    @property
    def missing(self) -> list[str]:
        if self.descriptive:
            return [] if self.cases else ["a case that depends on it"]
        out = []
        if not self.positive:
            out.append("a positive case (one where the rule allows something)")
        if not self.negative:
            out.append("a negative case (one where the rule forbids something)")
        return out


@dataclass
class OptionRow:
    option: str
    value: str
    default: bool
    cases: list[str]


@dataclass(repr=False)
class Coverage:
    """The coverage table and every gap the gate fails on."""

    spec: SpecIndex
    traces: list[CaseTrace]
    problems: list[Problem]
    rules: list[RuleRow]
    options: list[OptionRow]

    def __repr__(self) -> str:  # short, for pytest's report of the fixture value
        c = self.counts()
        return (
            f"Coverage({c['fixtures']} fixture cases, {c['features']} scenarios, "
            f"{len(self.rule_gaps)} rule gaps, {len(self.option_gaps)} option gaps, "
            f"{len(self.problems)} problems)"
        )

    @property
    def rule_gaps(self) -> list[str]:
        return [
            f"{row.rule} ({row.title}): missing {' and '.join(row.missing)}"
            for row in self.rules
            if row.missing
        ]

    @property
    def option_gaps(self) -> list[str]:
        return [
            f"{row.option}={row.value}: no case discriminates it (a fixture with options: "
            f"{{{row.option}: {row.value}}}, or a scenario tagged @opt:{row.option}={row.value})"
            for row in self.options
            if not row.cases
        ]

    @property
    def common_table_gaps(self) -> list[str]:
        """Rules the common table (2 players, one 36-card pack) lacks a side of."""
        return common_table_gaps(self)

    @property
    def ok(self) -> bool:
        return not (self.rule_gaps or self.option_gaps or self.problems or self.common_table_gaps)

    def counts(self) -> dict[str, int]:
        return {
            "fixtures": sum(t.source == FIXTURE for t in self.traces),
            "features": sum(t.source == FEATURE for t in self.traces),
            "rules": len(self.rules),
            "rules_covered": sum(not r.missing for r in self.rules),
            "values": len(self.options),
            "values_covered": sum(bool(o.cases) for o in self.options),
        }


def build(traces: list[CaseTrace], problems: list[Problem], spec: SpecIndex) -> Coverage:
    """Rule -> cases and option value -> cases, in spec and catalog order."""
    rules = []
    for rule, title in spec.rules.items():
        rules.append(
            RuleRow(
                rule,
                title,
                not spec.needs_both(rule),
                [t.id for t in traces if rule in t.positive],
                [t.id for t in traces if rule in t.negative],
                [t.id for t in traces if rule in t.cites],
            )
        )
    options = []
    for name, values in spec.options.items():
        for value in values:
            options.append(
                OptionRow(
                    name,
                    value,
                    spec.defaults.get(name) == value,
                    [t.id for t in traces if t.options.get(name) == value],
                )
            )
    problems = problems + [
        Problem("conformance/tools/traceability.py DESCRIPTIVE", f"{rule} is not a rule of the spec")
        for rule in spec.descriptive
        if rule not in spec.rules
    ]
    return Coverage(spec, traces, problems, rules, options)


def repo_root() -> Path:
    return PACKAGE_DIR.parent


def default_sources() -> tuple[list[Path], list[Path]]:
    """The packaged fixtures and the rulebook features."""
    from conformance.bdd import features_dir

    return [FIXTURES_DIR], [features_dir()]


def collect(
    fixtures: Iterable[Path | str] | None = None,
    features: Iterable[Path | str] | None = None,
    spec: SpecIndex | None = None,
    root: Path | None = None,
) -> Coverage:
    """Trace the suite (by default the packaged fixtures and features) against the spec."""
    spec = spec or SpecIndex.load()
    if fixtures is None or features is None:
        default_fixtures, default_features = default_sources()
        fixtures = default_fixtures if fixtures is None else fixtures
        features = default_features if features is None else features
    root = repo_root() if root is None else root
    traces, problems = fixture_traces(fixtures, spec, root)
    more, more_problems = feature_traces(features, spec, root)
    return build(traces + more, problems + more_problems, spec)


# ------------------------------------------------------------------------------------ rendering


def render_text(coverage: Coverage) -> str:
    """The coverage table for a terminal or a CI log, gaps last."""
    c = coverage.counts()
    lines = [
        (
            f"Traceability: {c['fixtures']} fixture cases, {c['features']} feature scenarios; "
            f"rules covered {c['rules_covered']}/{c['rules']}, option values discriminated "
            f"{c['values_covered']}/{c['values']}"
        ),
        "",
        f"{'rule':<14} {'needs':<5} {'pos':>4} {'neg':>4} {'cases':>5}  status",
    ]
    for row in coverage.rules:
        status = (
            "ok"
            if not row.missing
            else "MISSING " + ", ".join(m.split(" (")[0] for m in row.missing)
        )
        needs = "1" if row.descriptive else "+/-"
        lines.append(
            f"{row.rule:<14} {needs:<5} {len(row.positive):>4} {len(row.negative):>4} "
            f"{len(row.cases):>5}  {status}"
        )
    lines += ["", f"{'option':<24} {'value':<22} {'cases':>5}  status"]
    for row in coverage.options:
        value = row.value + (" *" if row.default else "")
        status = "ok" if row.cases else "MISSING"
        lines.append(f"{row.option:<24} {value:<22} {len(row.cases):>5}  {status}")
    lines.append("(* = the podkidnoy default)")
    lines += ["", "Rules shown both ways (or once, if descriptive), per table:"]
    lines += [f"  {name:<28} {shown}" for name, shown in tables_summary(coverage).items()]
    gaps = (
        coverage.rule_gaps
        + coverage.option_gaps
        + coverage.common_table_gaps
        + [str(p) for p in coverage.problems]
    )
    lines += ["", f"Gaps: {len(gaps)}" if gaps else "Gaps: none"]
    lines += [f"  - {gap}" for gap in gaps]
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _case_list(ids: Sequence[str]) -> str:
    return ", ".join(f"`{_md(i)}`" for i in ids) if ids else "none"


GENERATED = (
    "<!-- GENERATED by tools/gen_coverage_doc.py from spec/, conformance/fixtures/ and "
    "features/; rerun it after changing any of them. -->"
)
INTRO = (
    "Which cases of the suite show each rule of `spec/rules.md` allowing and forbidding, and "
    "which cases play each option value of `spec/ambiguities.yaml` on a position where it "
    "matters. The traceability gate (`tests/trace`, module `conformance/tools/traceability.py`) "
    "fails on every gap listed here."
)
MARKDOWN_DEFINITIONS = """\
## How a case counts

- A **case** is a YAML fixture case (named by its `id`) or a Gherkin scenario (named
  `<feature file>: <scenario>`); an outline counts once per Examples row.
- A case **cites** a rule listed in its `rules:` (fixture) or tagged `@R-...` on its Feature, Rule
  or Scenario (feature), and any rule one of its refusals names.
- **Positive** (the rule allows something): a case citing the rule with an accepted `move`, a
  `legal_includes`, a non-empty exact `legal` set, an `observe` step with `expect` (what a player
  sees), or a start from a `deck` or `seed` that is not `start_refused` (a game the engine must
  set up) (fixture); an accepted `When` move, `Then ... may <move>`, `may only`, `only ... may
  move`, `the legal moves are exactly:`, `... sees ...`, or a deal that is set up (feature).
- **Negative** (the rule forbids something): a refusal naming the rule (fixture `refuse` or
  `start_refused` with `rule:`, feature `the move is refused citing R-...`), or a case citing the
  rule with a `legal_excludes`, an exact `legal` set or an `observe` step with `absent` (what a
  player must not see) (fixture), or `may not`, `has no move`, `nobody may move`, `may only`,
  `only ... may move`, `the legal moves are exactly:`, `the game cannot be set up`, `... sees no
  ...`, `... but not which` (feature). A refusal counts only for the rule it names.
- A case **discriminates** `option=value` when its fixture `options:` names it, or its scenario has
  the tag `@opt:option=value` or the step `the option <option> is <value>` (an outline's Examples
  column).
- The gate (`tests/trace`) requires a positive and a negative case for every rule except the
  descriptive ones below, which need one case citing them; a discriminating case for every option
  value; and no unknown rule ID, option or value anywhere in the suite.
"""


def render_markdown(coverage: Coverage) -> str:
    """docs/coverage.md: definitions, summary, rule -> cases, option value -> cases."""
    c = coverage.counts()
    out = [
        GENERATED,
        "# Coverage: rules and options -> cases",
        "",
        INTRO,
        "",
        MARKDOWN_DEFINITIONS,
        "## Summary",
        "",
        f"- Cases: {c['fixtures']} fixture cases, {c['features']} feature scenarios.",
        f"- Rules covered: {c['rules_covered']} of {c['rules']}.",
        f"- Option values discriminated: {c['values_covered']} of {c['values']}.",
        "",
    ]
    gaps = coverage.rule_gaps + coverage.option_gaps + [str(p) for p in coverage.problems]
    if gaps:
        out += ["### Gaps", ""] + [f"- {_md(g)}" for g in gaps] + [""]
    else:
        out += ["No gaps.", ""]
    out += [
        "## Descriptive rules",
        "",
        "These rules describe and cannot forbid anything, so one dependent case is enough:",
        "",
        "| rule | why |",
        "|---|---|",
    ]
    out += [f"| {rule} | {_md(why)} |" for rule, why in coverage.spec.descriptive.items()]
    out += [
        "",
        "## Rules",
        "",
        "| rule | title | needs | positive | negative | citing | status |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in coverage.rules:
        status = (
            "ok"
            if not row.missing
            else "**missing** " + "; ".join(m.split(" (")[0] for m in row.missing)
        )
        needs = "one case" if row.descriptive else "+ and -"
        out.append(
            f"| [{row.rule}](#{row.rule.lower()}) | {_md(row.title)} | {needs} | "
            f"{len(row.positive)} | {len(row.negative)} | {len(row.cases)} | {status} |"
        )
    out += ["", "## Rule -> cases", ""]
    for row in coverage.rules:
        out += [f"### {row.rule}", "", f"{_md(row.title)}.", ""]
        others = [i for i in row.cases if i not in row.positive and i not in row.negative]
        out.append(f"- positive: {_case_list(row.positive)}")
        out.append(f"- negative: {_case_list(row.negative)}")
        if others:
            out.append(f"- also citing: {_case_list(others)}")
        out.append("")
    out += ["## Option values -> cases", "", "| option | value | cases |", "|---|---|---|"]
    for row in coverage.options:
        value = f"`{row.value}`" + (" (default)" if row.default else "")
        out.append(f"| `{row.option}` | {value} | {_case_list(row.cases)} |")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------------ command


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--markdown", action="store_true", help="print docs/coverage.md instead")
    parser.add_argument(
        "--fixtures", action="append", metavar="DIR", help="fixture directory (default: packaged)"
    )
    parser.add_argument(
        "--features", action="append", metavar="DIR", help="feature directory (default: packaged)"
    )


def run_cli(args: argparse.Namespace) -> int:
    """Print the coverage table; exit 1 when the gate would fail, 2 when the spec is missing."""
    try:
        coverage = collect(args.fixtures, args.features)
    except (OSError, ValueError) as exc:
        print(f"durak-conformance coverage: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(render_markdown(coverage) if args.markdown else render_text(coverage))
    return 0 if coverage.ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.tools.traceability",
        description="Rule -> cases and option value -> cases coverage of the suite.",
    )
    add_cli_arguments(parser)
    return run_cli(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
